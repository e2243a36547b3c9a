/*
 * The test file's life: made with a fresh name (or a --device target
 * opened in place), known to the signal handlers, which remove it on
 * every way out, and removed at the end, with what its removal gave back.
 * A run's first failure names it (run_fail()), so that is here too, with
 * the run's warnings.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "error.h"
#include "options.h"
#include "phase-ctx.h"
#include "platform.h"
#include "run.h"
#include "runner.h"
#include "seekers.h"
#include "signals.h"
#include "target.h"
#include "team.h"
#include "text.h"
#include "timer.h"


/*
 * The test file while it exists, for the signal handlers: the directory
 * held open (so that renaming it changes nothing), the file's name in it,
 * its identity (only that file is ever removed), and what became of it.
 */
static int			test_dirfd = -1;
static char			test_name[NAME_MAX + 1];
static char			test_path[PATH_MAX];	/* As made. */
static dev_t			test_dev;
static ino_t			test_ino;
static pid_t			test_owner;
static volatile sig_atomic_t	test_path_set;
static volatile sig_atomic_t	test_removal;

/* test_removal: an errno, or one of these. */
#define RM_NONE		0	/* No file, or not tried yet. */
#define RM_DONE		(-1)	/* Removed. */
#define RM_GONE		(-2)	/* Someone else removed it first. */
#define RM_REPLACED	(-3)	/* Another file has its name: left alone. */

/* Where the run stands, for the out-of-memory handler's one line. */
static const char		*current_phase = "setup";


/*
 * Remove the test file if it is still the one this run made; record what
 * happened in test_removal.  Async-signal-safe (fstatat, unlinkat).  A
 * file swapped in between the check and the unlink cannot be told apart;
 * only someone who can write the directory can do that.
 */
static void
file_remove(void)
{
	struct stat	st;

	if (!test_path_set)
		return;
	test_path_set = 0;
	if (fstatat(test_dirfd, test_name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		test_removal = errno == ENOENT ? RM_GONE : errno;
	else if (st.st_dev != test_dev || st.st_ino != test_ino)
		test_removal = RM_REPLACED;
	else if (unlinkat(test_dirfd, test_name, 0) == -1)
		test_removal = errno;
	else
		test_removal = RM_DONE;
}

/*
 * After file_remove(), outside a signal handler: say where the file is
 * when it could not be removed, naming the directory as it is called now.
 * When the run failed already (and was not interrupted), that is added to
 * its one-line message; otherwise it is a line of its own on stderr.
 * Returns 1 when a file of ours was left behind.
 */
static int
file_removal_report(struct run_result *res)
{
	char		 dir[PATH_MAX], where[PATH_MAX + NAME_MAX + 2];
	char		 words[PATH_MAX + NAME_MAX + 160];
	int		 rm = test_removal, left = 0;
	struct run_error *e = res != NULL ? &res->err : NULL;
	size_t		 n;

	if (rm == RM_NONE || rm == RM_DONE) {
		if (res != NULL && rm == RM_DONE)
			res->file_removed = 1;
		return 0;
	}
	if (platform_fd_path(test_dirfd, dir, sizeof(dir)) == 0)
		snprintf(where, sizeof(where), "%s%s%s", dir,
		    strcmp(dir, "/") == 0 ? "" : "/", test_name);
	else
		snprintf(where, sizeof(where), "%s", test_path);
	if (rm == RM_GONE)
		snprintf(words, sizeof(words), "the test file %s was removed "
		    "by someone else", where);
	else if (rm == RM_REPLACED)
		snprintf(words, sizeof(words), "%s is no longer the test file "
		    "this run made (it was replaced) and was left alone", where);
	else {
		snprintf(words, sizeof(words), "the test file could not be "
		    "removed: %s: %s", where, strerror(rm));
		left = 1;
	}
	if (res != NULL)
		res->file_left += left;
	if (e != NULL && e->set && !bn_stop_signal) {
		if (rm == RM_GONE)
			return 0;
		n = strlen(e->message);
		snprintf(e->message + n, sizeof(e->message) - n, "; %s",
		    words);
	} else
		text_say("%s%s", left ? "" :
		    "warning: ", words);
	return left;
}

/*
 * A stop signal removes the file at once, kills any forked seekers and
 * asks the phases to stop; the run then unwinds and the caller re-raises
 * the signal.  A second, different signal exits at once; the same one
 * again changes nothing.  (Seekers are forked with
 * these signals blocked and put the defaults back before unblocking
 * them, so this never runs in a seeker; a team's worker runs it for its
 * own file.)
 */
static void
on_signal(int sig)
{
	int	saved = errno;

	file_remove();
	seekers_kill_all();
	team_stop_all();
	/*
	 * The same signal again is news of nothing: GNU timeout sends its
	 * signal to the child and then to the group, and the record and the
	 * rows are written on the way out.
	 */
	if (bn_stop_signal == sig) {
		errno = saved;
		return;
	}
	if (bn_stop_signal != 0) {
		/*
		 * A different second signal (the user insisting) before the
		 * run got to its cleanup (which runs with these signals
		 * blocked): remove the files tree here, then die.
		 */
		files_cleanup_signal();
		cgroup_leave();
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	bn_stop_signal = sig;
	errno = saved;
}

/*
 * A program fault (or SIGABRT): remove the file, kill the seekers, then
 * die of the same signal, with a core dump when limits allow.  The
 * handler was reset to the default on entry (SA_RESETHAND).
 */
static void
on_fault(int sig)
{
	int	saved = errno;

	if (getpid() == test_owner) {
		file_remove();
		files_cleanup_signal();
		seekers_kill_all();
	}
	cgroup_leave();
	raise(sig);
	errno = saved;
}

/*
 * Memory ran out while the test file exists: one line, the file removed,
 * exit 1.  A forked seeker just exits 1; its parent reports it.
 */
static void __attribute__((noreturn))
on_nomem(void)
{
	sigset_t	old;

	if (getpid() != test_owner)
		_exit(1);
	signals_block(&old);
	seekers_kill_all();
	file_remove();
	files_cleanup_signal();
	text_say("phase %s: out of memory%s",
	    current_phase, test_removal == RM_DONE ? "; test file removed" :
	    "");
	file_removal_report(NULL);
	cgroup_leave();
	_exit(1);
}

void
run_signals_install(void)
{
	test_owner = getpid();
	signals_install(on_signal, on_fault);
}

static void
block_signals(sigset_t *old)
{
	signals_block(old);
}

static void
restore_signals(const sigset_t *old)
{
	signals_restore(old);
}


/* Warnings go to stderr unless the run is quiet. */
void
warn_run(const struct options *opt, const char *fmt, ...)
{
	va_list	ap;
	char	buf[2048];

	if (opt->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_say("warning: %s", buf);
}


/*
 * Record the run's first failure as one line: the phase, the test file
 * (when there is one), the call, the system's words and the offset (when
 * known).  Nothing unknown is printed as an empty field.
 */
int
run_fail(struct runner *r, const char *phase, const char *what,
    int64_t offset, int errnum, const char *detail)
{
	struct run_error	*e = &r->res->err;
	char			 at[64] = "", path[1040] = "";

	if (e->set)
		return -1;
	e->set = 1;
	e->after_stop = bn_stop_signal != 0;
	e->phase = phase;
	snprintf(e->path, sizeof(e->path), "%.1000s", test_path);
	e->offset = offset;
	e->errnum = errnum;
	if (offset >= 0)
		snprintf(at, sizeof(at), " (at byte %lld)", (long long)offset);
	if (e->path[0] != '\0')
		snprintf(path, sizeof(path), "%s: ", e->path);
	if (detail != NULL && detail[0] != '\0')
		snprintf(e->message, sizeof(e->message), "phase %s: %.1400s",
		    phase, detail);
	else if (errnum == EFBIG)
		snprintf(e->message, sizeof(e->message), "phase %s: %s%s: "
		    "%s (file size limit, see ulimit -f)%s", phase, path, what,
		    strerror(errnum), at);
	else
		snprintf(e->message, sizeof(e->message), "phase %s: %s%s: %s%s",
		    phase, path, what, errnum ? strerror(errnum) : "failed",
		    at);
	if (errnum == EINTR && bn_stop_signal)
		r->res->interrupted = bn_stop_signal;
	return -1;
}

/*
 * Create the test file: a new name, never a link, never someone else's,
 * in the directory held open for the whole run.
 */
int
create_file(struct runner *r)
{
	const struct options	*opt = r->opt;
	struct stat		 st;
	struct rng		 rng;
	sigset_t		 old;
	const char		*alnum =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	int			 tries, i, fd = -1, e = 0, dirfd;
	size_t			 dl = strlen(opt->dir);

	dirfd = open(opt->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd == -1) {
		char	detail[PATH_MAX + 128];

		e = errno;
		snprintf(detail, sizeof(detail), "%s: open directory: %s",
		    opt->dir, strerror(e));
		return run_fail(r, "setup", "open directory", -1, e, detail);
	}
	test_owner = getpid();
	rng_seed(&rng, time_now().ns ^ ((uint64_t)getpid() << 32));
	for (tries = 0; tries < 100; tries++) {
		char	tag[8];

		for (i = 0; i < 6; i++)
			tag[i] = alnum[rng_next(&rng) % 62];
		tag[6] = '\0';
		block_signals(&old);
		snprintf(test_name, sizeof(test_name), "bonnie-ng.%ld.%s%s%s",
		    (long)getpid(), r->hooks != NULL ? r->hooks->name_tag : "",
		    r->hooks != NULL ? "." : "", tag);
		if (snprintf(test_path, sizeof(test_path), "%s%s%s", opt->dir,
		    dl > 0 && opt->dir[dl - 1] == '/' ? "" : "/", test_name) >=
		    (int)sizeof(test_path)) {
			restore_signals(&old);
			test_path[0] = '\0';
			close(dirfd);
			return run_fail(r, "setup", "create", -1, ENAMETOOLONG,
			    NULL);
		}
		fd = openat(dirfd, test_name, O_RDWR | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		e = errno;
		if (fd != -1) {
			/* Known before the handlers may remove it. */
			if (fstat(fd, &st) == -1) {
				e = errno;
				unlinkat(dirfd, test_name, 0);
				close(fd);
				restore_signals(&old);
				close(dirfd);
				return run_fail(r, "setup", "fstat", -1, e,
				    NULL);
			}
			test_dirfd = dirfd;
			test_dev = st.st_dev;
			test_ino = st.st_ino;
			test_removal = RM_NONE;
			test_path_set = 1;
			if (r->hooks != NULL && r->hooks->own_file != NULL)
				r->hooks->own_file(r->hooks->arg, test_path,
				    st.st_dev, st.st_ino);
		}
		restore_signals(&old);
		if (fd != -1 || e != EEXIST)
			break;
	}
	if (fd == -1) {
		close(dirfd);
		return run_fail(r, "setup", "create", -1, e, NULL);
	}
	r->fd = fd;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	r->io_dev = st.st_dev;
	error_on_nomem(on_nomem);
	return 0;
}

/*
 * --device: open the target claimed before the run (target.c), by its
 * name in its directory held open, as a test file is.  It is never the
 * run's to remove: test_path_set stays 0, so no handler unlinks it.
 */
int
open_target(struct runner *r)
{
	const struct target	*t = r->target;
	struct stat		 st;
	int			 dirfd, fd, e;

	snprintf(test_path, sizeof(test_path), "%s", r->opt->device);
	dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd == -1)
		return run_fail(r, "setup", "open directory", -1, errno, NULL);
	snprintf(test_name, sizeof(test_name), "%s", t->name);
	test_owner = getpid();
	test_removal = RM_NONE;
	fd = openat(dirfd, test_name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1) {
		e = errno;
		if (fd != -1)
			close(fd);
		close(dirfd);
		return run_fail(r, "setup", "open", -1, e, NULL);
	}
	if (st.st_dev != t->st_dev || st.st_ino != t->st_ino) {
		close(fd);
		close(dirfd);
		return run_fail(r, "setup", "open (the device was replaced)",
		    -1, ESTALE, NULL);
	}
	test_dirfd = dirfd;
	r->fd = fd;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	r->io_dev = t->io_dev;
	error_on_nomem(on_nomem);
	return 0;
}

/* The free space of the file system holding the test file, or -1. */
static int64_t
dir_free(void)
{
	struct statvfs	sv;
	uint64_t	unit;

	if (test_dirfd == -1 || fstatvfs(test_dirfd, &sv) == -1)
		return -1;
	unit = sv.f_frsize > 0 ? sv.f_frsize : sv.f_bsize;
	if (unit == 0 || (uint64_t)sv.f_bavail > (uint64_t)INT64_MAX / unit)
		return -1;
	return (int64_t)((uint64_t)sv.f_bavail * unit);
}

/*
 * What the removal gave back: the free space right after the unlink and
 * the file system's write-back less right before it, waiting up to a
 * second for a file system that frees late, until it is what the file
 * held (less the slack).
 */
static void
removal_freed(struct runner *r, int64_t held, int64_t before)
{
	int64_t		after, slack = held / 100 + (int64_t)RUN_SPACE_SLACK;
	int		tries;

	for (tries = 0; tries < 10; tries++) {
		platform_sync_fs(test_dirfd);
		if ((after = dir_free()) < 0)
			return;
		r->res->space_freed = after - before;
		if (held - r->res->space_freed <= slack)
			return;
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
}

/* Remove the file (if still ours) and say so when it could not be. */
void
remove_file(struct runner *r)
{
	struct stat	st;
	sigset_t	old;
	int64_t		held = -1, before = -1;

	r->res->space_held = r->res->space_freed = -1;
	if (r->fd != -1) {
		if (r->target == NULL && test_path_set &&
		    fstat(r->fd, &st) == 0 && st.st_dev == test_dev &&
		    st.st_ino == test_ino && st.st_nlink == 1)
			held = (int64_t)st.st_blocks * 512;
		close(r->fd);
		r->fd = -1;
	}
	if (held >= 0 && (before = dir_free()) < 0)
		held = -1;
	block_signals(&old);
	error_on_nomem(NULL);
	file_remove();
	file_removal_report(r->res);
	if (held >= 0 && test_removal == RM_DONE) {
		r->res->space_held = held;
		removal_freed(r, held, before);
	}
	if (test_dirfd != -1) {
		close(test_dirfd);
		test_dirfd = -1;
	}
	test_removal = RM_NONE;
	if (r->hooks != NULL && r->hooks->own_file != NULL)
		r->hooks->own_file(r->hooks->arg, NULL, 0, 0);
	restore_signals(&old);
}

/* --direct: find out now whether the file system takes O_DIRECT. */
int
file_check_direct(struct runner *r)
{
	int	e, fd;

	fd = openat(test_dirfd, test_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    platform_odirect_flag());
	if (fd == -1) {
		char	detail[PATH_MAX + 128] = "";

		e = errno;
		if (e == EINVAL)
			snprintf(detail, sizeof(detail), "%s: open "
			    "with O_DIRECT: %s (the file system does "
			    "not support O_DIRECT)", test_path,
			    strerror(e));
		return run_fail(r, "setup", "open with O_DIRECT", -1,
		    e, detail);
	}
	close(fd);
	return 0;
}

void
file_begin(void)
{
	test_path[0] = '\0';
	current_phase = "setup";
}

void
file_phase(const char *name)
{
	current_phase = name;
}

void
file_where(const char **path, int *dirfd, const char **name)
{
	*path = test_path;
	*dirfd = test_dirfd;
	*name = test_name;
}
