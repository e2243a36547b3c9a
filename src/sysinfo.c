/*
 * The portable part of the system description: uname(2), the host name,
 * the CPU count, RAM where sysconf(3) knows it, and statvfs(3) of the
 * target directory.  The platform file adds the rest.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "platform.h"
#include "sysinfo.h"
#include "text.h"

static char *
dup_or_null(const char *s)
{
	if (s == NULL || *s == '\0')
		return NULL;
	return xstrdup(s);
}

static void
collect_uname(struct sysinfo *si)
{
	struct utsname	u;

	if (uname(&u) == -1)
		return;
	si->os = dup_or_null(u.sysname);
	si->kernel_release = dup_or_null(u.release);
	si->kernel_version = dup_or_null(u.version);
	si->machine = dup_or_null(u.machine);
	si->hostname = dup_or_null(u.nodename);
}

static void
collect_counts(struct sysinfo *si)
{
	uint64_t	ram = platform_ram(), v;

	si->cpus = platform_ncpu();
	if (ram > 0)
		si->ram_bytes = (int64_t)ram;
	if (platform_mem_available(&v) == 0 && v <= INT64_MAX)
		si->mem_available = (int64_t)v;
	if (platform_cgroup_mem_limit(&v) == 0 && v <= INT64_MAX)
		si->cgroup_mem_limit = (int64_t)v;
	if (platform_cgroup_mem_room(&v) == 0 && v <= INT64_MAX)
		si->cgroup_mem_room = (int64_t)v;
}

static void
collect_statvfs(struct sysinfo *si)
{
	struct statvfs	sv;
	uint64_t	unit;

	if (statvfs(si->dir, &sv) == -1)
		return;
	si->block_size = sv.f_bsize > 0 ? (int64_t)sv.f_bsize : -1;
	unit = sv.f_frsize > 0 ? sv.f_frsize : sv.f_bsize;
	if (unit > 0 && (uint64_t)sv.f_bavail <= (uint64_t)INT64_MAX / unit)
		si->free_bytes = (int64_t)((uint64_t)sv.f_bavail * unit);
}

static const struct sysinfo_guest *the_guest;

void
sysinfo_set_guest(const struct sysinfo_guest *g)
{
	the_guest = g;
}

int
sysinfo_collect(const char *dir, struct sysinfo **out, char **cause)
{
	struct sysinfo	*si;
	struct stat	 st;
	char		*real, *slash;

	*out = NULL;
	if (stat(dir, &st) == -1)
		return errorf(cause, "%s: %s", dir, strerror(errno));

	si = xcalloc(1, sizeof(*si));
	si->cpus = -1;
	si->ram_bytes = -1;
	si->mem_available = -1;
	si->cgroup_mem_limit = -1;
	si->cgroup_mem_room = -1;
	si->hypervisor = -1;
	si->page_reporting = -1;
	si->page_reporting_order = -1;
	si->halt_poll_ns = -1;
	si->guest = the_guest;
	si->block_size = -1;
	si->free_bytes = -1;
	si->device.rotational = -1;
	si->device.read_ahead_kb = -1;
	si->device.max_sectors_kb = -1;
	si->device.logical_block_size = -1;
	si->device.physical_block_size = -1;
	si->device.size_bytes = -1;

	if ((real = realpath(dir, NULL)) != NULL) {
		si->dir = xstrdup(real);
		free(real);
	} else
		si->dir = xstrdup(dir);
	/* --device: the device itself, or the directory of the file. */
	if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)) {
		si->target_device = S_ISBLK(st.st_mode);
		si->target_path = si->dir;
		si->dir = xstrdup(si->target_path);
		if ((slash = strrchr(si->dir, '/')) != NULL)
			slash[slash == si->dir] = '\0';
	}

	collect_uname(si);
	collect_counts(si);
	if (!si->target_device)
		collect_statvfs(si);
	sysinfo_platform(si, &st);
	*out = si;
	return 0;
}

void
sysinfo_free(struct sysinfo *si)
{
	if (si == NULL)
		return;
	free(si->os);
	free(si->kernel_release);
	free(si->kernel_version);
	free(si->machine);
	free(si->hostname);
	free(si->cpu_model);
	free(si->hypervisor_vendor);
	free(si->cpuidle_driver);
	free(si->cpuidle_governor);
	free(si->dir);
	free(si->target_path);
	free(si->fs_type);
	free(si->mount_point);
	free(si->mount_source);
	free(si->mount_options);
	free(si->super_options);
	free(si->device.name);
	free(si->device.scheduler);
	free(si->device.model);
	free(si->device.loop_backing);
	free(si);
}

void
sysinfo_unescape(char *s)
{
	text_unoctal(s);
}

char *
sysinfo_read_line(const char *path)
{
	FILE	*f;
	char	 buf[4096];
	char	*r = NULL;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	if (fgets(buf, sizeof(buf), f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		r = xstrdup(buf);
	}
	fclose(f);
	return r;
}

int64_t
sysinfo_read_int(const char *path)
{
	char		*line, *end;
	long long	 v;

	if ((line = sysinfo_read_line(path)) == NULL)
		return -1;
	errno = 0;
	v = strtoll(line, &end, 10);
	if (errno != 0 || end == line || v < 0 ||
	    (*end != '\0' && *end != ' ' && *end != '\t'))
		v = -1;
	free(line);
	return v;
}
