/*
 * Output files made as safely as the test file, and the standard
 * descriptors made safe before any file is opened.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"

#define DEVICE_WORDS	"a device; output files are regular files, pipes, " \
			"terminals or /dev/null"

int
std_fds_open(void)
{
	int	fd, i;

	for (i = 0; i <= 2; i++) {
		if (fcntl(i, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* The lowest free number: i itself, as those below are open. */
		if ((fd = open("/dev/null", O_RDWR)) == -1)
			return -1;
		if (fd != i) {
			close(fd);
			errno = EBADF;
			return -1;
		}
	}
	return 0;
}

/* Is st the null device? */
static int
is_dev_null(const struct stat *st)
{
	struct stat	null;

	return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 &&
	    S_ISCHR(null.st_mode) && null.st_rdev == st->st_rdev;
}

/* The directory holding path is sticky (like /tmp). */
static int
in_sticky_dir(const char *path)
{
	struct stat	 st;
	char		*copy = xstrdup(path), *dir;
	int		 sticky;

	dir = dirname(copy);
	sticky = stat(dir, &st) == 0 && (st.st_mode & S_ISVTX);
	free(copy);
	return sticky;
}

/*
 * May an existing file at path be replaced?  A regular file, with one
 * link, that the real user could write anyway; in a sticky directory only
 * the user's own.  0, or -1 with the reason in *why.
 */
static int
may_replace(const char *path, const struct stat *st, const char **why)
{
	if (!S_ISREG(st->st_mode)) {
		*why = "not a regular file";
		return -1;
	}
	if (st->st_nlink > 1) {
		*why = "a file with other hard links; not replaced";
		return -1;
	}
	if (access(path, W_OK) == -1) {
		*why = strerror(errno);
		return -1;
	}
	if (st->st_uid != getuid() && in_sticky_dir(path)) {
		*why = "another user's file in a sticky directory; not "
		    "replaced";
		return -1;
	}
	return 0;
}

int
outfile_open(struct outfile *of, const char *what, const char *path,
    char **cause)
{
	struct stat	 st, st2;
	const char	*why;
	int		 fd, e;

	memset(of, 0, sizeof(*of));
	of->what = what;
	of->path = path;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0666);
	if (fd != -1)
		of->created = 1;
	else if (errno != EEXIST)
		return errorf(cause, "%s: %s: %s", what, path, strerror(errno));
	else {
		if (lstat(path, &st) == -1)
			return errorf(cause, "%s: %s: %s", what, path,
			    strerror(errno));
		if (S_ISLNK(st.st_mode))
			return errorf(cause, "%s: %s: a symbolic link; output "
			    "files are never written through one", what, path);
		if (S_ISDIR(st.st_mode))
			return errorf(cause, "%s: %s: %s", what, path,
			    strerror(EISDIR));
		if (S_ISREG(st.st_mode) &&
		    may_replace(path, &st, &why) == -1)
			return errorf(cause, "%s: %s: %s", what, path, why);
		if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
		    !S_ISCHR(st.st_mode))
			return errorf(cause, "%s: %s: %s", what, path,
			    DEVICE_WORDS);
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (fd == -1)
			return errorf(cause, "%s: %s: %s", what, path,
			    strerror(errno));
		if (fstat(fd, &st2) == -1 || st2.st_dev != st.st_dev ||
		    st2.st_ino != st.st_ino) {
			close(fd);
			return errorf(cause, "%s: %s: replaced while being "
			    "opened", what, path);
		}
		/* Of the devices, only the null device and a terminal. */
		if (S_ISCHR(st2.st_mode) && !is_dev_null(&st2) &&
		    !isatty(fd)) {
			close(fd);
			return errorf(cause, "%s: %s: %s", what, path,
			    DEVICE_WORDS);
		}
		if (S_ISREG(st2.st_mode) && ftruncate(fd, 0) == -1) {
			e = errno;
			close(fd);
			return errorf(cause, "%s: %s: %s", what, path,
			    strerror(e));
		}
	}
	if (fstat(fd, &st2) == 0 && S_ISREG(st2.st_mode)) {
		of->whole = 1;
		of->dev = st2.st_dev;
		of->ino = st2.st_ino;
		of->mode = st2.st_mode & 07777;
	}
	if ((of->f = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		outfile_discard(of);
		return errorf(cause, "%s: %s: %s", what, path, strerror(e));
	}
	return 0;
}

int
outfile_close(struct outfile *of, int rc, char **cause)
{
	int	e = errno;

	if (of->f == NULL)
		return 0;
	if (rc == 0 && (fflush(of->f) == EOF || ferror(of->f))) {
		rc = -1;
		e = errno;
	}
	if (fclose(of->f) == EOF && rc == 0) {
		rc = -1;
		e = errno;
	}
	of->f = NULL;
	if (rc == 0)
		return 0;
	if (e == 0)
		e = EIO;
	return errorf(cause, "%s: %s: %s", of->what, of->path, strerror(e));
}

/*
 * The temporary file beside path: "DIR/.NAME.XXXXXX", made and opened
 * for writing.  The descriptor, or -1 with errno; *tmp to free.
 */
static int
temp_beside(const char *path, char **tmp)
{
	char		*copy = xstrdup(path), *copy2 = xstrdup(path);
	const char	*dir = dirname(copy), *base = basename(copy2);
	int		 fd, e;

	*tmp = xasprintf("%s/.%s.XXXXXX", dir, base);
	free(copy);
	free(copy2);
	if ((fd = mkstemp(*tmp)) == -1) {
		e = errno;
		free(*tmp);
		*tmp = NULL;
		errno = e;
	}
	return fd;
}

/* Put the document into the temporary file tmp (fd), then rename it. */
static int
replace_whole(struct outfile *of, int (*put)(FILE *, const void *),
    const void *arg, char **cause)
{
	struct stat	 st, now;
	FILE		*f;
	char		*tmp;
	int		 fd, rc, e;

	if ((fd = temp_beside(of->path, &tmp)) == -1)
		return errorf(cause, "%s: %s: a temporary file beside it: %s",
		    of->what, of->path, strerror(errno));
	if (fchmod(fd, of->mode) == -1 || fstat(fd, &st) == -1 ||
	    (f = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	rc = put(f, arg);
	e = errno;
	if (rc == 0 && (fflush(f) == EOF || ferror(f))) {
		rc = -1;
		e = errno;
	}
	if (fclose(f) == EOF && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc == -1)
		goto fail;
	/* Only over the file this open made or last put there. */
	if (lstat(of->path, &now) == 0 && (now.st_dev != of->dev ||
	    now.st_ino != of->ino)) {
		unlink(tmp);
		errorf(cause, "%s: %s: replaced by another file while being "
		    "written; not replaced", of->what, of->path);
		free(tmp);
		return -1;
	}
	if (rename(tmp, of->path) == -1) {
		e = errno;
		goto fail;
	}
	of->dev = st.st_dev;
	of->ino = st.st_ino;
	free(tmp);
	return 0;
fail:
	unlink(tmp);
	errorf(cause, "%s: %s: %s (writing %s, to be renamed over it)",
	    of->what, of->path, strerror(e != 0 ? e : EIO), tmp);
	free(tmp);
	return -1;
}

int
outfile_replace(struct outfile *of, int (*put)(FILE *, const void *),
    const void *arg, int final, char **cause)
{
	int	rc;

	if (of->f == NULL)
		return 0;
	if (of->whole) {
		rc = replace_whole(of, put, arg, cause);
		if (final || rc == -1) {
			fclose(of->f);
			of->f = NULL;
		}
		/* The file is the run's work now: no discard removes it. */
		of->created = 0;
		return rc;
	}
	if (!final)
		return 0;
	errno = 0;
	rc = put(of->f, arg);
	return outfile_close(of, rc, cause);
}

void
outfile_discard(struct outfile *of)
{
	if (of->f != NULL)
		fclose(of->f);
	of->f = NULL;
	/* Only an empty file this run made itself. */
	if (of->created)
		unlink(of->path);
	of->created = 0;
}
