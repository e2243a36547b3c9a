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
