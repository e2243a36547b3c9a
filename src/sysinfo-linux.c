/*
 * What Linux tells about the machine and the target's file system:
 * /proc/cpuinfo, /proc/meminfo, the hypervisor hints in /sys, the mount
 * from /proc/self/mountinfo, the block device from /sys/dev/block and the
 * writeback settings from /proc/sys/vm.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "platform.h"
#include "sysinfo.h"

/* Remove white space at both ends of s, in place; returns s moved on. */
static char *
trim(char *s)
{
	size_t	n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Whether the space-separated list has word in it. */
static int
has_word(const char *list, const char *word)
{
	size_t		n = strlen(word);
	const char	*p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (p[n] == '\0' || isspace((unsigned char)p[n])))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * The CPU model and the "hypervisor" CPU flag from /proc/cpuinfo.  *flags
 * is -1 when the file has no flags line (not x86), else whether the
 * hypervisor flag is set.
 */
static void
read_cpuinfo(struct sysinfo *si, int *flag)
{
	/* The model line's name differs between architectures. */
	static const char *const model_keys[] = {
		"model name", "cpu model", "Processor", "cpu", NULL
	};
	FILE	*f;
	char	 line[8192], *colon, *key, *val;
	int	 best = -1, i;

	*flag = -1;
	if ((f = fopen("/proc/cpuinfo", "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		key = trim(line);
		val = trim(colon + 1);
		if (strcmp(key, "flags") == 0 && *flag != 1)
			*flag = has_word(val, "hypervisor");
		for (i = 0; model_keys[i] != NULL; i++) {
			if (strcmp(key, model_keys[i]) != 0 || *val == '\0')
				continue;
			if (best == -1 || i < best) {
				free(si->cpu_model);
				si->cpu_model = xstrdup(val);
				best = i;
			}
		}
	}
	fclose(f);
}

static void
read_meminfo(struct sysinfo *si)
{
	FILE			*f;
	char			 line[256];
	unsigned long long	 kb;

	if (si->ram_bytes >= 0 || (f = fopen("/proc/meminfo", "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			if (kb <= INT64_MAX / 1024)
				si->ram_bytes = (int64_t)kb * 1024;
			break;
		}
	}
	fclose(f);
}

/*
 * Whether the machine runs under a hypervisor.  The x86 CPU flag is
 * authoritative when present.  /sys/hypervisor/type names Xen guests.
 * Otherwise a DMI system vendor that only virtual machines use says yes;
 * anything else stays unknown, since a real vendor's name proves nothing.
 */
static void
read_hypervisor(struct sysinfo *si, int flag)
{
	static const char *const vm_vendors[] = {
		"QEMU", "VMware, Inc.", "Xen", "innotek GmbH", "Parallels",
		"Bochs", "Amazon EC2", "Google", "Microsoft Corporation",
		"OpenStack Foundation", "BHYVE", NULL
	};
	char	*type, *vendor;
	int	 i, known = 0;

	type = sysinfo_read_line("/sys/hypervisor/type");
	if (type != NULL && *trim(type) == '\0') {
		free(type);
		type = NULL;
	}
	vendor = sysinfo_read_line("/sys/class/dmi/id/sys_vendor");
	if (vendor != NULL) {
		memmove(vendor, trim(vendor), strlen(trim(vendor)) + 1);
		for (i = 0; vm_vendors[i] != NULL; i++)
			if (strcmp(vendor, vm_vendors[i]) == 0)
				known = 1;
	}

	if (flag == 1 || type != NULL || known)
		si->hypervisor = 1;
	else if (flag == 0)
		si->hypervisor = 0;

	if (si->hypervisor == 1 && type != NULL) {
		si->hypervisor_vendor = xstrdup(trim(type));
	} else if (si->hypervisor == 1 && vendor != NULL && *vendor != '\0') {
		si->hypervisor_vendor = vendor;
		vendor = NULL;
	}
	free(type);
	free(vendor);
}

/*
 * Free page reporting: a virtio balloon device (device id 5) that
 * negotiated VIRTIO_BALLOON_F_REPORTING (feature bit 5; sysfs gives the
 * features as a string of 0s and 1s, bit 0 first) reports free blocks of
 * page_reporting_order and above to the host; with the order above the
 * allocator's largest (the columns of /proc/buddyinfo) none is reported.
 */
#define VIRTIO_ID_BALLOON		5
#define VIRTIO_BALLOON_F_REPORTING	5

static int
balloon_reports(void)
{
	const char	*dir = "/sys/bus/virtio/devices";
	char		 path[PATH_MAX], *line;
	struct dirent	*de;
	DIR		*d;
	long		 id;
	int		 found = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/device", dir, de->d_name);
		if ((line = sysinfo_read_line(path)) == NULL)
			continue;
		id = strtol(line, NULL, 0);	/* "0x0005" */
		free(line);
		if (id != VIRTIO_ID_BALLOON)
			continue;
		snprintf(path, sizeof(path), "%s/%s/features", dir,
		    de->d_name);
		if ((line = sysinfo_read_line(path)) == NULL)
			continue;
		found = strlen(line) > VIRTIO_BALLOON_F_REPORTING &&
		    line[VIRTIO_BALLOON_F_REPORTING] == '1';
		free(line);
	}
	closedir(d);
	return found;
}

/* The largest order of free blocks: /proc/buddyinfo's columns less one. */
static int
largest_order(void)
{
	char	*line, *tok, *save = NULL;
	int	n = 0;

	if ((line = sysinfo_read_line("/proc/buddyinfo")) == NULL)
		return -1;
	/* "Node 0, zone      DMA      1      1 ..." */
	for (tok = strtok_r(line, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save))
		if (strspn(tok, "0123456789") == strlen(tok))
			n++;
	free(line);
	return n > 0 ? n - 1 : -1;
}

static void
read_page_reporting(struct sysinfo *si)
{
	int64_t	order;
	int	top;

	order = sysinfo_read_int(
	    "/sys/module/page_reporting/parameters/page_reporting_order");
	si->page_reporting_order = order >= 0 && order < 64 ? (int)order : -1;
	if (!balloon_reports()) {
		si->page_reporting = 0;
		return;
	}
	top = largest_order();
	si->page_reporting = si->page_reporting_order < 0 || top < 0 ||
	    si->page_reporting_order <= top;
}

/* How an idle CPU waits: cpuidle's driver and governor, haltpoll's poll. */
static void
read_cpuidle(struct sysinfo *si)
{
	const char	*dir = "/sys/devices/system/cpu/cpuidle";
	char		 path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/current_driver", dir);
	si->cpuidle_driver = sysinfo_read_line(path);
	/* current_governor is writable, current_governor_ro is not. */
	snprintf(path, sizeof(path), "%s/current_governor", dir);
	if ((si->cpuidle_governor = sysinfo_read_line(path)) == NULL) {
		snprintf(path, sizeof(path), "%s/current_governor_ro", dir);
		si->cpuidle_governor = sysinfo_read_line(path);
	}
	/*
	 * The module's parameter is there wherever the kernel has it (a
	 * Debian kernel under TCG: driver "none", 200000): it only says how
	 * a vCPU idles when haltpoll is the driver.
	 */
	if (si->cpuidle_driver != NULL &&
	    strcmp(si->cpuidle_driver, "haltpoll") == 0)
		si->halt_poll_ns = sysinfo_read_int(
		    "/sys/module/haltpoll/parameters/guest_halt_poll_ns");
}

/* Whether mount point mp contains path (both absolute, no trailing /). */
static size_t
mount_covers(const char *mp, const char *path)
{
	size_t	n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, n) == 0 && (path[n] == '\0' || path[n] == '/'))
		return n;
	return 0;
}

/*
 * The mount holding si->dir: the longest mount point that contains it,
 * and of equal ones the last, which is the one on top.  A mountinfo line
 * reads "id parent major:minor root mount-point options [optional...] -
 * fstype source super-options".
 */
static void
read_mountinfo(struct sysinfo *si)
{
	FILE	*f;
	char	*line = NULL, *field[6], *tail, *p, *fs, *src, *sopt;
	size_t	 cap = 0, best = 0, len;
	int	 i;

	if ((f = fopen("/proc/self/mountinfo", "r")) == NULL)
		return;
	while (getline(&line, &cap, f) != -1) {
		line[strcspn(line, "\n")] = '\0';
		p = line;
		for (i = 0; i < 6; i++)
			if ((field[i] = strsep(&p, " ")) == NULL)
				break;
		if (i < 6 || p == NULL)
			continue;
		/* Optional fields end at a lone "-". */
		if (strncmp(p, "- ", 2) == 0)
			tail = p + 2;
		else if ((tail = strstr(p, " - ")) != NULL)
			tail += 3;
		else
			continue;
		fs = strsep(&tail, " ");
		src = strsep(&tail, " ");
		sopt = tail;
		if (fs == NULL || src == NULL)
			continue;

		sysinfo_unescape(field[4]);
		if ((len = mount_covers(field[4], si->dir)) == 0 ||
		    len < best)
			continue;
		best = len;
		sysinfo_unescape(src);
		free(si->mount_point);
		free(si->fs_type);
		free(si->mount_source);
		free(si->mount_options);
		free(si->super_options);
		si->mount_point = xstrdup(field[4]);
		si->fs_type = xstrdup(fs);
		si->mount_source = xstrdup(src);
		si->mount_options = xstrdup(field[5]);
		si->super_options = sopt != NULL ? xstrdup(sopt) : NULL;
	}
	free(line);
	fclose(f);
}

/* The active scheduler: the bracketed word, or the only word. */
static char *
scheduler(const char *dir)
{
	char	*path, *s, *o, *c, *r = NULL;

	path = xasprintf("%s/queue/scheduler", dir);
	s = sysinfo_read_line(path);
	free(path);
	if (s == NULL)
		return NULL;
	if ((o = strchr(s, '[')) != NULL && (c = strchr(o, ']')) != NULL) {
		*c = '\0';
		r = xstrdup(o + 1);
	} else if (*trim(s) != '\0' && strchr(trim(s), ' ') == NULL)
		r = xstrdup(trim(s));
	free(s);
	return r;
}

/* A number from the file name in the sysfs directory dir; -1 unknown. */
static int64_t
read_attr(const char *dir, const char *name)
{
	char	*path;
	int64_t	 v;

	path = xasprintf("%s/%s", dir, name);
	v = sysinfo_read_int(path);
	free(path);
	return v;
}

/*
 * The sysfs directory of the whole disk behind dev, or NULL when dev is
 * not a block device (tmpfs, overlay, NFS).  A partition's directory sits
 * inside its disk's directory.
 */
static char *
disk_dir(dev_t dev)
{
	char	*path, *real, *slash;
	int	 part;

	path = xasprintf("/sys/dev/block/%u:%u", major(dev), minor(dev));
	real = realpath(path, NULL);
	free(path);
	if (real == NULL)
		return NULL;
	path = xasprintf("%s/partition", real);
	part = access(path, F_OK) == 0;
	free(path);
	if (part && (slash = strrchr(real, '/')) != NULL && slash != real)
		*slash = '\0';
	return real;
}

/* The first line of the file name in the sysfs directory dir, or NULL. */
static char *
read_line_in(const char *dir, const char *name)
{
	char	*path, *s;

	path = xasprintf("%s/%s", dir, name);
	s = sysinfo_read_line(path);
	free(path);
	return s;
}

static void
read_device(struct sysinfo *si, const struct stat *st)
{
	struct stat	 sst;
	char		*dir, *base, *own, *s, loop[64];
	dev_t		 dev = si->target_device ? st->st_rdev : st->st_dev;
	int64_t		 sectors;

	dir = disk_dir(dev);
	/*
	 * Some file systems (btrfs) give their files an anonymous st_dev;
	 * the mount source, when it is a device node, names the real one.
	 */
	if (dir == NULL && si->mount_source != NULL &&
	    strncmp(si->mount_source, "/dev/", 5) == 0 &&
	    stat(si->mount_source, &sst) == 0 && S_ISBLK(sst.st_mode)) {
		dev = sst.st_rdev;
		dir = disk_dir(dev);
	}
	if (dir == NULL)
		return;
	si->device.loop_dio = -1;
	if (platform_loop_info(dev, &si->device.loop_backing,
	    &si->device.loop_dio, loop, sizeof(loop)) == -1)
		si->device.loop_backing = NULL;

	si->has_device = 1;
	base = strrchr(dir, '/');
	si->device.name = xstrdup(base != NULL ? base + 1 : dir);
	si->device.scheduler = scheduler(dir);
	si->device.rotational = (int)read_attr(dir, "queue/rotational");
	if (si->device.rotational > 1)
		si->device.rotational = -1;
	si->device.read_ahead_kb = read_attr(dir, "queue/read_ahead_kb");
	si->device.max_sectors_kb = read_attr(dir, "queue/max_sectors_kb");
	si->device.logical_block_size =
	    read_attr(dir, "queue/logical_block_size");
	si->device.physical_block_size =
	    read_attr(dir, "queue/physical_block_size");
	if ((s = read_line_in(dir, "device/model")) != NULL &&
	    *trim(s) != '\0')
		si->device.model = xstrdup(trim(s));
	free(s);
	/* The size is the partition's own when dev is one (512-byte units). */
	own = xasprintf("/sys/dev/block/%u:%u", major(dev), minor(dev));
	if ((sectors = read_attr(own, "size")) >= 0 &&
	    sectors <= INT64_MAX / 512)
		si->device.size_bytes = sectors * 512;
	free(own);
	free(dir);
}

static void
read_vm(struct sysinfo *si)
{
	struct sysinfo_vm	*vm = &si->vm;

	vm->dirty_ratio = sysinfo_read_int("/proc/sys/vm/dirty_ratio");
	vm->dirty_background_ratio =
	    sysinfo_read_int("/proc/sys/vm/dirty_background_ratio");
	vm->dirty_bytes = sysinfo_read_int("/proc/sys/vm/dirty_bytes");
	vm->dirty_background_bytes =
	    sysinfo_read_int("/proc/sys/vm/dirty_background_bytes");
	vm->dirty_expire_centisecs =
	    sysinfo_read_int("/proc/sys/vm/dirty_expire_centisecs");
	vm->dirty_writeback_centisecs =
	    sysinfo_read_int("/proc/sys/vm/dirty_writeback_centisecs");
	si->has_vm = vm->dirty_ratio >= 0 || vm->dirty_background_ratio >= 0 ||
	    vm->dirty_bytes >= 0 || vm->dirty_background_bytes >= 0 ||
	    vm->dirty_expire_centisecs >= 0 ||
	    vm->dirty_writeback_centisecs >= 0;
}

void
sysinfo_platform(struct sysinfo *si, const struct stat *st)
{
	int	flag;

	read_cpuinfo(si, &flag);
	read_meminfo(si);
	read_hypervisor(si, flag);
	read_page_reporting(si);
	read_cpuidle(si);
	/* A device named with --device is not mounted (it was checked). */
	if (!si->target_device)
		read_mountinfo(si);
	read_device(si, st);
	read_vm(si);
}
