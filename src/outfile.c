/*
 * Output files made as safely as the test file, and the standard
 * descriptors made safe before any file is opened.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"
#include "platform.h"

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

/* How long a FIFO's reader may take to open it. */
#define FIFO_WAIT_MS	5000

/* The most symbolic links a path may lead through, as Linux's MAXSYMLINKS. */
#define MAX_LINKS	40

/*
 * Open the directory dir (a path), following its symbolic links one by
 * one as the kernel would, but never one that another user owns in a
 * sticky, world-writable directory unless that directory is theirs: what
 * Linux's fs.protected_symlinks enforces, enforced here whatever that
 * setting says.  A descriptor, or -1 with errno (EPERM for such a link,
 * *why saying so).
 */
static int
open_dir_safely(const char *dir, const char **why)
{
	struct stat	 st, dst;
	char		*todo, *rest, *comp, *next, target[PATH_MAX];
	int		 fd, nfd, links = 0, e;
	ssize_t		 n;

	*why = NULL;
	todo = xstrdup(dir);
	fd = open(*todo == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rest = todo;
	while (fd != -1 && *rest != '\0') {
		while (*rest == '/')
			rest++;
		if (*rest == '\0')
			break;
		comp = rest;
		rest += strcspn(rest, "/");
		if (*rest == '/')
			*rest++ = '\0';
		if (strcmp(comp, ".") == 0)
			continue;
		if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == -1)
			goto fail;
		if (S_ISLNK(st.st_mode)) {
			if (fstat(fd, &dst) == -1)
				goto fail;
			if ((dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH) &&
			    st.st_uid != geteuid() && st.st_uid != dst.st_uid) {
				*why = "leads through a symbolic link that "
				    "another user owns in a sticky, "
				    "world-writable directory; not followed";
				errno = EPERM;
				goto fail;
			}
			if (++links > MAX_LINKS) {
				errno = ELOOP;
				goto fail;
			}
			n = readlinkat(fd, comp, target, sizeof(target) - 1);
			if (n == -1)
				goto fail;
			target[n] = '\0';
			/* Go on with the link's target, then the rest. */
			next = xasprintf("%s/%s", target, rest);
			free(todo);
			todo = rest = next;
			if (*target == '/') {
				close(fd);
				fd = open("/", O_RDONLY | O_DIRECTORY |
				    O_CLOEXEC);
			}
			continue;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (nfd == -1)
			goto fail;
		close(fd);
		fd = nfd;
	}
	free(todo);
	return fd;
fail:
	e = errno;
	if (fd != -1)
		close(fd);
	free(todo);
	errno = e;
	return -1;
}

/*
 * May an existing file name in dirfd be replaced?  A regular file, with
 * one link, that the real user could write anyway; in a sticky directory
 * only the user's own.  0, or -1 with the reason in *why.
 */
static int
may_replace(int dirfd, const char *name, const struct stat *st,
    const char **why)
{
	struct stat	dst;

	if (!S_ISREG(st->st_mode)) {
		*why = "not a regular file";
		return -1;
	}
	if (st->st_nlink > 1) {
		*why = "a file with other hard links; not replaced";
		return -1;
	}
	if (faccessat(dirfd, name, W_OK, 0) == -1) {
		*why = strerror(errno);
		return -1;
	}
	if (st->st_uid != getuid() && fstat(dirfd, &dst) == 0 &&
	    (dst.st_mode & S_ISVTX)) {
		*why = "another user's file in a sticky directory; not "
		    "replaced";
		return -1;
	}
	return 0;
}

/* Split path into its directory and last name; -1 when it names a directory. */
static int
split_path(const char *path, char **dir, char **name)
{
	const char	*slash = strrchr(path, '/');
	const char	*base = slash != NULL ? slash + 1 : path;

	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -1;
	*name = xstrdup(base);
	if (slash == NULL)
		*dir = xstrdup(".");
	else if (slash == path)
		*dir = xstrdup("/");
	else
		*dir = xasprintf("%.*s", (int)(slash - path), path);
	return 0;
}

/*
 * A pipe or a character device already at the name: opened non-blocking,
 * so that a FIFO nobody reads is refused at once instead of hanging the
 * run before it starts; of the devices only the null device and a
 * terminal.  The descriptor, or -1 with the reason in *why.
 */
static int
open_special(struct outfile *of, const struct stat *st, const char **why)
{
	struct timespec	step = { 0, 50000000 };
	struct stat	st2;
	int		fd, fl, i;

	/* A reader starting at the same moment gets FIFO_WAIT_MS to open. */
	for (i = 0; ; i++) {
		fd = openat(of->dirfd, of->name, O_WRONLY | O_NONBLOCK |
		    O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (fd != -1 || errno != ENXIO || i >= FIFO_WAIT_MS / 50)
			break;
		nanosleep(&step, NULL);
	}
	if (fd == -1) {
		*why = errno == ENXIO ? "a FIFO that nobody reads (none "
		    "opened it within 5 seconds)" :
		    strerror(errno);
		return -1;
	}
	if (fstat(fd, &st2) == -1 || st2.st_dev != st->st_dev ||
	    st2.st_ino != st->st_ino) {
		*why = "replaced while being opened";
		goto fail;
	}
	if (S_ISCHR(st2.st_mode) && !is_dev_null(&st2) && !isatty(fd)) {
		*why = DEVICE_WORDS;
		goto fail;
	}
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
		*why = strerror(errno);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/*
 * A new file, or one replacing a regular file: written as a temporary
 * file in the same directory, made O_CREAT | O_EXCL | O_NOFOLLOW, and
 * renamed into place when complete, so that a failure (a full file
 * system) never leaves an empty or a cut record where one was asked for.
 */
static int
open_temp(struct outfile *of)
{
	int	fd, i;

	for (i = 0; i < 100; i++) {
		free(of->tmp);
		of->tmp = xasprintf(".%.200s.%ld.%d.tmp", of->name,
		    (long)getpid(), i);
		fd = openat(of->dirfd, of->tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd != -1 || errno != EEXIST)
			break;
	}
	if (fd == -1) {
		free(of->tmp);
		of->tmp = NULL;
	}
	return fd;
}

int
outfile_open(struct outfile *of, const char *what, const char *path,
    char **cause)
{
	struct stat	 st, dst;
	const char	*why = NULL, *pseudo;
	char		*dir = NULL;
	int		 fd = -1, e;

	memset(of, 0, sizeof(*of));
	of->what = what;
	of->path = path;
	of->dirfd = -1;
	if (strcmp(path, "-") == 0) {
		of->f = stdout;
		of->is_stdout = 1;
		return 0;
	}
	if (split_path(path, &dir, &of->name) == -1)
		return errorf(cause, "%s: %s: %s", what, path,
		    strerror(EISDIR));
	of->dirfd = open_dir_safely(dir, &why);
	free(dir);
	if (of->dirfd == -1) {
		e = errno;
		outfile_discard(of);
		return errorf(cause, "%s: %s: %s", what, path,
		    why != NULL ? why : strerror(e));
	}
	if ((pseudo = platform_pseudo_fs(of->dirfd)) != NULL) {
		outfile_discard(of);
		return errorf(cause, "%s: %s: on %s, the kernel's interface, "
		    "not a file system for output", what, path, pseudo);
	}
	/* Its temporary could be made but never renamed nor removed. */
	if ((pseudo = platform_dir_fixed(of->dirfd)) != NULL) {
		outfile_discard(of);
		return errorf(cause, "%s: %s: its directory is %s: a complete "
		    "record could not be renamed into place", what, path,
		    pseudo);
	}
	if (fstatat(of->dirfd, of->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			why = "a symbolic link; output files are never "
			    "written through one";
		else if (S_ISDIR(st.st_mode))
			why = strerror(EISDIR);
		else if (S_ISREG(st.st_mode)) {
			if (may_replace(of->dirfd, of->name, &st, &why) == 0 &&
			    (fd = open_temp(of)) == -1)
				why = strerror(errno);
			of->replaces = 1;
			of->whole = 1;
		} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
			fd = open_special(of, &st, &why);
		else
			why = DEVICE_WORDS;
	} else if (errno != ENOENT || (fd = open_temp(of)) == -1)
		why = strerror(errno);
	else {
		of->whole = 1;
		/* Hold the name in a shared sticky directory from now on. */
		if (fstat(of->dirfd, &dst) == 0 && (dst.st_mode & S_ISVTX) &&
		    (dst.st_mode & S_IWOTH)) {
			int	hold = openat(of->dirfd, of->name, O_WRONLY |
			    O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);

			if (hold == -1)
				why = strerror(errno);
			else {
				close(hold);
				of->held = 1;
			}
		}
	}
	if (fd == -1 || why != NULL) {
		if (fd != -1)
			close(fd);
		outfile_discard(of);
		return errorf(cause, "%s: %s: %s", what, path, why != NULL ?
		    why : strerror(EIO));
	}
	/*
	 * A regular file's temporary proved that one can be made there; it
	 * goes now, and outfile_replace() makes the next when there is
	 * something to write, so that none lies beside the path meanwhile
	 * (a run killed by SIGKILL leaves none).
	 */
	if (of->whole) {
		close(fd);
		unlinkat(of->dirfd, of->tmp, 0);
		free(of->tmp);
		of->tmp = NULL;
		return 0;
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
outfile_same(const struct outfile *a, const struct outfile *b)
{
	struct stat	sa, sb;

	if (a->is_stdout || b->is_stdout)
		return a->is_stdout && b->is_stdout;
	if (a->name == NULL || b->name == NULL || a->dirfd == -1 ||
	    b->dirfd == -1 || fstat(a->dirfd, &sa) == -1 ||
	    fstat(b->dirfd, &sb) == -1)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
	    strcmp(a->name, b->name) == 0;
}

/*
 * A complete temporary that could not be renamed into place (EPERM in
 * an append-only directory the preflight could not see): kept, and named,
 * since nothing measured is to be lost.
 */
static int
kept_whole(struct outfile *of, int e, char **cause)
{
	char	*dir = NULL, *name = NULL;

	if (split_path(of->path, &dir, &name) == -1)
		dir = NULL;
	errorf(cause, "%s: %s: %s; the complete record is in %s/%s", of->what,
	    of->path, strerror(e), dir != NULL ? dir : ".", of->tmp);
	free(dir);
	free(name);
	free(of->tmp);
	of->tmp = NULL;
	outfile_discard(of);
	return -1;
}

int
outfile_close(struct outfile *of, int rc, char **cause)
{
	struct stat	st;
	int		e = errno;

	if (of->f == NULL)
		return 0;
	if (rc == 0 && (fflush(of->f) == EOF || ferror(of->f))) {
		rc = -1;
		e = errno;
	}
	if (of->is_stdout) {
		of->f = NULL;
		if (rc == 0)
			return 0;
		return errorf(cause, "%s: standard output: %s", of->what,
		    strerror(e != 0 ? e : EIO));
	}
	/* On stable storage before its name says it is complete. */
	if (rc == 0 && of->tmp != NULL && fsync(fileno(of->f)) == -1 &&
	    errno != EINVAL && errno != EROFS) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && of->tmp != NULL && fstat(fileno(of->f), &st) == 0 &&
	    st.st_nlink == 0) {
		rc = -1;
		e = ENOENT;
	}
	if (fclose(of->f) == EOF && rc == 0) {
		rc = -1;
		e = errno;
	}
	of->f = NULL;
	if (rc == 0 && of->tmp != NULL &&
	    renameat(of->dirfd, of->tmp, of->dirfd, of->name) == -1)
		return kept_whole(of, errno, cause);
	if (rc == 0) {
		free(of->tmp);
		of->tmp = NULL;
		of->held = 0;
		outfile_discard(of);
		return 0;
	}
	outfile_discard(of);
	if (e == ENOENT)
		return errorf(cause, "%s: %s: the file being written was "
		    "removed during the run; nothing written", of->what,
		    of->path);
	if (e == 0)
		e = EIO;
	return errorf(cause, "%s: %s: %s%s", of->what, of->path, strerror(e),
	    of->replaces ? " (the file there was left as it was)" : "");
}

/* The next temporary of a regular output, opened as of->f. */
static int
next_temp(struct outfile *of)
{
	int	fd, e;

	if ((fd = open_temp(of)) == -1)
		return -1;
	if ((of->f = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * A complete copy through put(), in a fresh temporary, renamed into
 * place.  0; -1 with errno when it could not be written (the temporary
 * closed, still there), -2 with errno when only the rename failed.
 */
static int
put_copy(struct outfile *of, int (*put)(FILE *, const void *),
    const void *arg)
{
	struct stat	st;
	int		rc, e;

	if (of->f == NULL && next_temp(of) == -1)
		return -1;
	errno = 0;
	rc = put(of->f, arg);
	e = errno;
	if (rc == 0 && (fflush(of->f) == EOF || ferror(of->f))) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && fstat(fileno(of->f), &st) == 0 && st.st_nlink == 0) {
		rc = -1;
		e = ENOENT;
	}
	if (fclose(of->f) == EOF && rc == 0) {
		rc = -1;
		e = errno;
	}
	of->f = NULL;
	if (rc == 0 &&
	    renameat(of->dirfd, of->tmp, of->dirfd, of->name) == -1)
		return -2;
	if (rc == -1) {
		errno = e != 0 ? e : EIO;
		return -1;
	}
	free(of->tmp);
	of->tmp = NULL;
	of->held = 0;
	of->replaces = 1;
	return 0;
}

int
outfile_replace(struct outfile *of, int (*put)(FILE *, const void *),
    const void *arg, int final, char **cause)
{
	int	rc, e;

	if (of->whole && of->f == NULL && of->dirfd != -1 &&
	    next_temp(of) == -1) {
		e = errno;
		outfile_discard(of);
		return errorf(cause, "%s: %s: %s", of->what, of->path,
		    strerror(e));
	}
	if (of->f == NULL)
		return 0;
	if (!of->whole || final) {
		if (!final)
			return 0;
		errno = 0;
		return outfile_close(of, put(of->f, arg), cause);
	}
	/* A complete copy, renamed into place as outfile_close() does. */
	if ((rc = put_copy(of, put, arg)) == -2)
		return kept_whole(of, errno, cause);
	if (rc == -1) {
		e = errno;
		outfile_discard(of);
		if (e == ENOENT)
			return errorf(cause, "%s: %s: the file being written "
			    "was removed during the run", of->what, of->path);
		return errorf(cause, "%s: %s: %s", of->what, of->path,
		    strerror(e));
	}
	return 0;
}

int
outfile_checkpoint(struct outfile *of, int (*put)(FILE *, const void *),
    const void *arg, char **cause)
{
	int	rc, e;

	if (!of->whole || of->f != NULL || of->dirfd == -1)
		return 0;
	if ((rc = put_copy(of, put, arg)) == 0)
		return 0;
	e = errno;
	/* Not a complete record: it goes, the end writes its own. */
	if (of->tmp != NULL)
		unlinkat(of->dirfd, of->tmp, 0);
	free(of->tmp);
	of->tmp = NULL;
	return errorf(cause, "%s: %s: %s", of->what, of->path,
	    e == ENOENT && rc == -1 ? "the file being written was removed "
	    "during the run" : strerror(e != 0 ? e : EIO));
}

void
outfile_discard(struct outfile *of)
{
	if (of->f != NULL && !of->is_stdout)
		fclose(of->f);
	of->f = NULL;
	/* Only what this run made itself: its temporary, its held name. */
	if (of->dirfd != -1) {
		if (of->tmp != NULL)
			unlinkat(of->dirfd, of->tmp, 0);
		if (of->held)
			unlinkat(of->dirfd, of->name, 0);
		close(of->dirfd);
	}
	of->dirfd = -1;
	of->held = 0;
	free(of->tmp);
	free(of->name);
	of->tmp = NULL;
	of->name = NULL;
}
