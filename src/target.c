/*
 * --device: the checks of a device (or a file) to be overwritten, and the
 * claim held on it for the whole process.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "platform.h"
#include "target.h"

static struct target	held;
static int		held_set;

const struct target *
target_held(void)
{
	return held_set ? &held : NULL;
}

/* A refusal: "--device PATH: WORDS". */
static enum target_verdict
refuse(char **cause, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum target_verdict
refuse(char **cause, const char *path, const char *fmt, ...)
{
	char	words[PATH_MAX + 512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(words, sizeof(words), fmt, ap);
	va_end(ap);
	errorf(cause, "--device %s: %s", path, words);
	return TARGET_REFUSED;
}

/* Split t->path into t->dir and t->name. */
static void
split_path(struct target *t)
{
	const char	*slash = strrchr(t->path, '/');

	if (slash == NULL || slash == t->path)
		snprintf(t->dir, sizeof(t->dir), "/");
	else
		snprintf(t->dir, sizeof(t->dir), "%.*s",
		    (int)(slash - t->path), t->path);
	snprintf(t->name, sizeof(t->name), "%.*s", NAME_MAX,
	    slash != NULL ? slash + 1 : t->path);
}

/* A regular file named with --device: opened, never made or cut. */
static enum target_verdict
claim_file(struct target *t, const char *path, const struct stat *st,
    char **cause)
{
	struct stat	fst;
	char		why[PATH_MAX + 128];
	int		fd, r, e;

	if (st->st_size <= 0)
		return refuse(cause, path, "an empty file: nothing to measure "
		    "in place");
	fd = open(t->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return refuse(cause, path, "%s", strerror(errno));
	if (fstat(fd, &fst) == -1 || fst.st_dev != st->st_dev ||
	    fst.st_ino != st->st_ino || !S_ISREG(fst.st_mode)) {
		close(fd);
		return refuse(cause, path, "it changed while it was being "
		    "opened");
	}
	/* Under a loop device or swap: in use, though no one holds it. */
	why[0] = '\0';
	r = platform_file_in_use(fst.st_dev, fst.st_ino, why, sizeof(why));
	if (r != 0 && (r == 1 || errno != ENOSYS)) {
		e = errno;
		close(fd);
		if (r == 1)
			return refuse(cause, path, "refused: %s", why);
		return refuse(cause, path, "refused: cannot tell whether it is "
		    "in use: %s", strerror(e));
	}
	t->kind = TARGET_IN_PLACE;
	t->st_dev = fst.st_dev;
	t->st_ino = fst.st_ino;
	t->io_dev = fst.st_dev;
	t->size = (uint64_t)fst.st_size;
	t->fd = fd;
	return TARGET_OK;
}

/* A block device: nobody may use it, and it is claimed for this run. */
static enum target_verdict
claim_device(struct target *t, const char *path, const struct stat *st,
    char **cause)
{
	struct stat	fst;
	char		why[PATH_MAX + 128];
	int		fd, r;

	why[0] = '\0';
	if ((r = platform_device_in_use(st->st_rdev, why, sizeof(why))) == 1)
		return refuse(cause, path, "refused: %s", why);
	if (r == -1)
		return refuse(cause, path, "refused: cannot tell whether it is "
		    "in use: %s", strerror(errno));
	fd = open(t->path, O_RDWR | O_CLOEXEC | platform_claim_flag());
	if (fd == -1 && errno == EBUSY)
		return refuse(cause, path, "refused: it is opened exclusively "
		    "by another program (a mount in another namespace, a RAID "
		    "or LVM member, a program holding it)");
	if (fd == -1)
		return refuse(cause, path, "%s", strerror(errno));
	if (fstat(fd, &fst) == -1 || !S_ISBLK(fst.st_mode) ||
	    fst.st_rdev != st->st_rdev) {
		close(fd);
		return refuse(cause, path, "it changed while it was being "
		    "opened");
	}
	if (platform_device_size(fd, &t->size) == -1) {
		r = errno;
		close(fd);
		errorf(cause, "--device %s: cannot read its size: %s", path,
		    strerror(r));
		return TARGET_FAILED;
	}
	t->kind = TARGET_DEVICE;
	t->st_dev = fst.st_dev;
	t->st_ino = fst.st_ino;
	t->io_dev = fst.st_rdev;
	t->fd = fd;
	return TARGET_OK;
}

enum target_verdict
target_claim(const char *path, const struct target **out, char **cause)
{
	struct target		 t;
	struct stat		 lst, st;
	char			*real;
	enum target_verdict	 v;

	*out = NULL;
	if (lstat(path, &lst) == -1)
		return refuse(cause, path, "%s", strerror(errno));
	if ((real = realpath(path, NULL)) == NULL)
		return refuse(cause, path, "%s", strerror(errno));
	memset(&t, 0, sizeof(t));
	t.fd = -1;
	snprintf(t.path, sizeof(t.path), "%s", real);
	free(real);
	split_path(&t);
	if (held_set) {
		if (strcmp(held.path, t.path) != 0)
			return refuse(cause, path, "another target is held "
			    "already (%s)", held.path);
		*out = &held;
		return TARGET_OK;
	}
	if (stat(t.path, &st) == -1)
		return refuse(cause, path, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return refuse(cause, path, "a directory, not a block device "
		    "(-d DIR makes a test file in a directory)");
	if (S_ISCHR(st.st_mode))
		return refuse(cause, path, "a character device, not a block "
		    "device");
	if (S_ISREG(st.st_mode) && S_ISLNK(lst.st_mode))
		return refuse(cause, path, "a symbolic link to a regular file "
		    "(%s): name the file itself", t.path);
	if (S_ISREG(st.st_mode))
		v = claim_file(&t, path, &st, cause);
	else if (S_ISBLK(st.st_mode))
		v = claim_device(&t, path, &st, cause);
	else
		return refuse(cause, path, "not a block device or a regular "
		    "file");
	if (v != TARGET_OK)
		return v;
	held = t;
	held_set = 1;
	*out = &held;
	return TARGET_OK;
}
