/*
 * Who uses a block device or a file that --device names, on Linux: a
 * mount, a holder (device mapper, RAID), swap, or an attached loop device
 * reading or writing it, checked for the device, its partitions, the
 * whole disk it is part of and, for a loop device, what it reads and
 * writes, each by device number (or a file by device and inode), never by
 * path.  Declared in platform.h.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <linux/loop.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "text.h"

/*
 * The block devices a check covers: the device, its partitions, the whole
 * disk it is a partition of, and, for a loop device, the device it reads
 * and writes with that device's partitions and whole disk; each with its
 * role, for the message.
 */
enum role { ROLE_SELF, ROLE_PART, ROLE_WHOLE, ROLE_BACKING };
struct devset {
	dev_t		 dev[64];
	char		 name[64][32];
	enum role	 role[64];
	int		 n;
	/* A loop device's backing regular file, when it has one. */
	int		 has_file;
	dev_t		 file_dev;
	ino_t		 file_ino;
	char		 file_loop[32];	/* The loop device it backs. */
};

/* The device's own sysfs directory, a new string, or NULL. */
static char *
sys_dir(dev_t dev)
{
	char	p[64];

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(p, NULL);
}

/* Which of the set's devices is dev, or -1. */
static int
devset_find(const struct devset *ds, dev_t dev)
{
	int	i;

	for (i = 0; i < ds->n; i++)
		if (ds->dev[i] == dev)
			return i;
	return -1;
}

/* Add the device dev named name (its sysfs directory's last part). */
static void
devset_add(struct devset *ds, dev_t dev, const char *dir, enum role role)
{
	const char	*base = strrchr(dir, '/');

	if (ds->n >= (int)(sizeof(ds->dev) / sizeof(ds->dev[0])) ||
	    devset_find(ds, dev) != -1)
		return;
	ds->dev[ds->n] = dev;
	ds->role[ds->n] = role;
	snprintf(ds->name[ds->n], sizeof(ds->name[0]), "%.31s",
	    base != NULL ? base + 1 : dir);
	ds->n++;
}

/* The device's number from a sysfs directory's dev file. */
static int
sys_dev(const char *dir, dev_t *dev)
{
	char		 p[PATH_MAX + 8];
	unsigned	 ma, mi;
	FILE		*f;
	int		 ok;

	snprintf(p, sizeof(p), "%s/dev", dir);
	if ((f = fopen(p, "re")) == NULL)
		return -1;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -1;
	*dev = makedev(ma, mi);
	return 0;
}

/*
 * Add the device whose sysfs directory is top, with role, its partitions
 * (subdirectories with a partition file) and, when it is a partition, the
 * whole disk (the directory above).
 */
static void
devset_add_dev(struct devset *ds, const char *top, enum role role)
{
	struct dirent	*de;
	DIR		*d;
	char		 p[PATH_MAX + 300], *up;
	dev_t		 dev;

	if (sys_dev(top, &dev) == -1)
		return;
	devset_add(ds, dev, top, role);
	snprintf(p, sizeof(p), "%s/partition", top);
	if (access(p, F_OK) == 0 && (up = strdup(top)) != NULL) {
		char	*slash = strrchr(up, '/');

		if (slash != NULL) {
			*slash = '\0';
			if (sys_dev(up, &dev) == 0)
				devset_add(ds, dev, up, role == ROLE_SELF ?
				    ROLE_WHOLE : role);
		}
		free(up);
	}
	if ((d = opendir(top)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/partition", top, de->d_name);
		if (access(p, F_OK) == -1)
			continue;
		snprintf(p, sizeof(p), "%s/%s", top, de->d_name);
		if (sys_dev(p, &dev) == 0)
			devset_add(ds, dev, p, role == ROLE_SELF ? ROLE_PART :
			    role);
	}
	closedir(d);
}

static int loop_backing(const char *, const char *, dev_t *, ino_t *,
    dev_t *);

/*
 * A loop device among the set (itself, or the whole disk of a partition
 * of one) reads and writes its backing file or device: add the device
 * (and its partitions and whole disk), or keep the file's identity.
 */
static void
devset_add_backing(struct devset *ds)
{
	char	 p[PATH_MAX + 64], path[PATH_MAX], *nl, *top;
	FILE	*f;
	dev_t	 dev, rdev;
	ino_t	 ino;
	int	 i, n = ds->n;

	for (i = 0; i < n; i++) {
		if (ds->role[i] == ROLE_PART ||
		    strncmp(ds->name[i], "loop", 4) != 0)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
		    ds->name[i]);
		if ((f = fopen(p, "re")) == NULL)
			continue;
		if (fgets(path, sizeof(path), f) == NULL)
			path[0] = '\0';
		fclose(f);
		if ((nl = strchr(path, '\n')) != NULL)
			*nl = '\0';
		if (loop_backing(ds->name[i], path, &dev, &ino, &rdev) == -1)
			continue;
		if (rdev == 0) {
			ds->has_file = 1;
			ds->file_dev = dev;
			ds->file_ino = ino;
			snprintf(ds->file_loop, sizeof(ds->file_loop), "%s",
			    ds->name[i]);
		} else if ((top = sys_dir(rdev)) != NULL) {
			devset_add_dev(ds, top, ROLE_BACKING);
			free(top);
		}
	}
}

/* The set for the device rdev. */
static int
devset_fill(struct devset *ds, dev_t rdev, char **top)
{
	memset(ds, 0, sizeof(*ds));
	if ((*top = sys_dir(rdev)) == NULL)
		return -1;
	devset_add_dev(ds, *top, ROLE_SELF);
	devset_add_backing(ds);
	return 0;
}

/*
 * What a check looks for: a block device and its partitions (ds), or,
 * when ds is NULL, one file by its identity.
 */
struct want {
	const struct devset	*ds;
	dev_t			 dev;
	ino_t			 ino;
	const char		*self;	/* The loop device checked, skipped. */
	const char		*file_who;	/* "it is", or of a backing file. */
};

/*
 * Which of w's devices (an index of its set) or its file (0) a node is,
 * given the node's st_dev, st_ino and st_rdev (0 unless a block device),
 * or -1 when it is none of them.
 */
static int
want_find(const struct want *w, dev_t dev, ino_t ino, dev_t rdev)
{
	if (w->ds != NULL)
		return rdev != 0 ? devset_find(w->ds, rdev) : -1;
	return dev == w->dev && ino == w->ino ? 0 : -1;
}

/*
 * "it is" for the device or the file itself, "its partition NAME is",
 * "its whole disk NAME is", "its backing device NAME is".
 */
static void
who(const struct devset *ds, int i, char *b, size_t n)
{
	static const char *const role_words[] = {
		[ROLE_SELF] = "it", [ROLE_PART] = "its partition",
		[ROLE_WHOLE] = "its whole disk",
		[ROLE_BACKING] = "its backing device"
	};

	if (ds == NULL || ds->role[i] == ROLE_SELF)
		snprintf(b, n, "it is");
	else
		snprintf(b, n, "%s %s is", role_words[ds->role[i]],
		    ds->name[i]);
}

/* A mount of one of the set's devices, from /proc/self/mountinfo. */
static int
in_use_mounted(const struct devset *ds, char *why, size_t len)
{
	FILE		*f;
	char		*line = NULL, *p, *mp, *src, w[96];
	size_t		 cap = 0;
	unsigned	 ma, mi;
	struct stat	 st;
	int		 i, found = 0;

	if ((f = fopen("/proc/self/mountinfo", "re")) == NULL)
		return -1;
	while (!found && getline(&line, &cap, f) != -1) {
		/* id parent major:minor root mount-point ... - fs source */
		if (sscanf(line, "%*u %*u %u:%u", &ma, &mi) != 2)
			continue;
		p = line;
		for (i = 0; i < 4 && p != NULL; i++)
			p = strchr(p + 1, ' ');
		if (p == NULL)
			continue;
		mp = p + 1;
		mp[strcspn(mp, " ")] = '\0';
		i = devset_find(ds, makedev(ma, mi));
		/* btrfs gives its files another number: the source names it. */
		if (i == -1 && (src = strstr(mp + strlen(mp) + 1, " - ")) !=
		    NULL && (src = strchr(src + 3, ' ')) != NULL) {
			src++;
			src[strcspn(src, " \n")] = '\0';
			text_unoctal(src);
			if (strncmp(src, "/dev/", 5) == 0 &&
			    stat(src, &st) == 0 && S_ISBLK(st.st_mode))
				i = devset_find(ds, st.st_rdev);
		}
		if (i == -1)
			continue;
		text_unoctal(mp);
		who(ds, i, w, sizeof(w));
		snprintf(why, len, "%s mounted on %s", w, mp);
		found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

/* A holder (device mapper, RAID, bcache) of one of the set's devices. */
static int
in_use_held(const struct devset *ds, char *why, size_t len)
{
	struct dirent	*de;
	DIR		*d;
	char		 p[96], w[96];
	int		 i, found = 0;

	for (i = 0; i < ds->n && !found; i++) {
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/holders",
		    major(ds->dev[i]), minor(ds->dev[i]));
		if ((d = opendir(p)) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			/* A loop device's backing device holds nothing else. */
			who(ds, i, w, sizeof(w));
			snprintf(why, len, "%s held by %s (a device built on "
			    "it)", w, de->d_name);
			found = 1;
			break;
		}
		closedir(d);
	}
	return found;
}

/* Swap on one of w's devices or on its file, from /proc/swaps. */
static int
in_use_swap(const struct want *w, char *why, size_t len)
{
	FILE		*f;
	char		 line[PATH_MAX + 128], name[PATH_MAX], b[96];
	struct stat	 st;
	int		 i, found = 0;

	if ((f = fopen("/proc/swaps", "re")) == NULL)
		return errno == ENOENT ? 0 : -1;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		text_unoctal(name);
		if (stat(name, &st) == -1 || (i = want_find(w, st.st_dev,
		    st.st_ino, S_ISBLK(st.st_mode) ? st.st_rdev : 0)) == -1)
			continue;
		if (w->ds != NULL)
			who(w->ds, i, b, sizeof(b));
		snprintf(why, len, "%s used as swap (%s)", w->ds != NULL ? b :
		    w->file_who, name);
		found = 1;
	}
	fclose(f);
	return found;
}

/*
 * The identity of the file behind the attached loop device name: from
 * LOOP_GET_STATUS64 on its node when that can be opened (the kernel's
 * own record, right even when the file was renamed, unlinked or is seen
 * by another path here), else from a stat(2) of the path in sysfs's
 * backing_file.  0, or -1 when neither tells.
 */
static int
loop_backing(const char *name, const char *path, dev_t *dev, ino_t *ino,
    dev_t *rdev)
{
	struct loop_info64	 li;
	struct stat		 st;
	char			 p[PATH_MAX];
	unsigned		 ma = 0, mi = 0;
	FILE			*f;
	int			 fd, ok = 0;

	snprintf(p, sizeof(p), "/sys/block/%s/dev", name);
	if ((f = fopen(p, "re")) != NULL) {
		ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
		fclose(f);
	}
	snprintf(p, sizeof(p), "/dev/%s", name);
	if (ok && (fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) != -1) {
		ok = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == makedev(ma, mi) &&
		    ioctl(fd, LOOP_GET_STATUS64, &li) == 0;
		close(fd);
		if (ok) {
			/* The kernel encodes them as stat(2) does. */
			*dev = (dev_t)li.lo_device;
			*ino = (ino_t)li.lo_inode;
			*rdev = (dev_t)li.lo_rdevice;
			return 0;
		}
	}
	if (stat(path, &st) == -1)
		return -1;
	*dev = st.st_dev;
	*ino = st.st_ino;
	*rdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	return 0;
}

/*
 * An attached loop device (/sys/block/loop*, those with a
 * loop/backing_file) whose backing file is w's file or one of w's
 * devices.
 */
static int
in_use_loop(const struct want *w, char *why, size_t len)
{
	struct dirent	*de;
	DIR		*d;
	char		 p[PATH_MAX + 64], path[PATH_MAX], b[96], *nl;
	FILE		*f;
	dev_t		 dev, rdev;
	ino_t		 ino;
	int		 i, found = 0;

	if ((d = opendir("/sys/block")) == NULL)
		return errno == ENOENT ? 0 : -1;
	while (!found && (de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "loop", 4) != 0 ||
		    strlen(de->d_name) > 31)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
		    de->d_name);
		if ((f = fopen(p, "re")) == NULL)
			continue;	/* Not attached. */
		if (fgets(path, sizeof(path), f) == NULL)
			path[0] = '\0';
		fclose(f);
		if ((nl = strchr(path, '\n')) != NULL)
			*nl = '\0';
		if ((w->self != NULL && strcmp(de->d_name, w->self) == 0) ||
		    loop_backing(de->d_name, path, &dev, &ino, &rdev) == -1 ||
		    (i = want_find(w, dev, ino, rdev)) == -1)
			continue;
		if (w->ds != NULL)
			who(w->ds, i, b, sizeof(b));
		snprintf(why, len, "%s the backing file of the loop device "
		    "/dev/%s; detach it first (losetup -d /dev/%s)",
		    w->ds != NULL ? b : w->file_who, de->d_name, de->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

int
platform_device_in_use(dev_t rdev, char *why, size_t len)
{
	struct devset	 ds;
	struct want	 w;
	char		*top = NULL;
	int		 r;

	if (devset_fill(&ds, rdev, &top) == -1) {
		free(top);
		return -1;
	}
	free(top);
	memset(&w, 0, sizeof(w));
	w.ds = &ds;
	w.self = ds.name[0];
	if ((r = in_use_mounted(&ds, why, len)) == 0 &&
	    (r = in_use_held(&ds, why, len)) == 0 &&
	    (r = in_use_swap(&w, why, len)) == 0)
		r = in_use_loop(&w, why, len);
	if (r == 0 && ds.has_file) {
		/* A loop device's file, used by another one or as swap. */
		memset(&w, 0, sizeof(w));
		w.dev = ds.file_dev;
		w.ino = ds.file_ino;
		w.self = ds.name[0];
		w.file_who = "its backing file is";
		/*
		 * The loop device the file backs is not another user of it:
		 * for a partition of a loop device that is its whole disk,
		 * not the partition itself.
		 */
		w.self = ds.file_loop;
		if ((r = in_use_swap(&w, why, len)) == 0)
			r = in_use_loop(&w, why, len);
	}
	return r;
}

int
platform_file_in_use(dev_t dev, ino_t ino, char *why, size_t len)
{
	struct want	w;
	int		r;

	memset(&w, 0, sizeof(w));
	w.dev = dev;
	w.ino = ino;
	w.file_who = "it is";
	if ((r = in_use_swap(&w, why, len)) == 0)
		r = in_use_loop(&w, why, len);
	return r;
}
