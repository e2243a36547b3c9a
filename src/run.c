/*
 * The core: one test file, the phases in order, the same clocks around
 * every phase, the cache dropped between phases, and the file removed on
 * every way out.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "kstat.h"
#include "options.h"
#include "phase.h"
#include "platform.h"
#include "run.h"
#include "seekers.h"
#include "signals.h"
#include "target.h"
#include "team.h"
#include "text.h"
#include "timeline.h"
#include "timer.h"

static int	progress_level = 1;

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

void
run_set_progress(int level)
{
	progress_level = level;
}

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
		res->file_left = left;
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

/*
 * Progress: "Title..." when a phase starts and "done" when it ends; on a
 * terminal the phase itself updates a percentage in between (phase_tick).
 */
static void
progress_start(const char *title)
{
	if (progress_level == 0)
		return;
	fprintf(stderr, "%s...", title);
	fflush(stderr);
}

static void
progress_end(const char *title, int ok)
{
	if (progress_level == 0)
		return;
	if (progress_level == 2)
		fprintf(stderr, "\r%s...", title);
	/* A signal stopped the phase: nothing failed. */
	fprintf(stderr, "%s\n", ok ? "done" : bn_stop_signal ? "interrupted" :
	    "failed");
	fflush(stderr);
}

/* Warnings go to stderr unless the run is quiet. */
static void
warn_run(const struct options *opt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
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

/* The state of one run. */
struct runner {
	const struct options	*opt;
	struct run_result	*res;
	int			 fd;		/* O_RDWR, held all run. */
	dev_t			 dev;
	ino_t			 ino;
	dev_t			 io_dev;	/* The block device its I/O
						   reaches (/proc/diskstats). */
	const struct target	*target;	/* --device, or NULL. */
	unsigned char		*buf;
	struct pattern		 pat;
	enum pattern_writer	 ok[4];		/* What the file holds now. */
	int			 nok;
	size_t			 align;
	struct hist		*hist;
	int			 ncpu;
	const struct run_hooks	*hooks;		/* A team's worker, or NULL. */
	const char		*memfs;		/* "tmpfs" and the like, or NULL. */
	char			*loop_backing;	/* The loop device's backing file. */
	int			 loop_dio;	/* 1, 0, or -1 unknown. */
	char			 loop_name[64];	/* "loop3" */
	struct kstat_run	*ks;		/* The kernel's account; NULL
						   in a team's worker. */
	struct timeline		*tl;		/* Its sampler, or NULL. */
	_Atomic uint64_t	 progress;	/* Without one, the timed
						   loops' store goes here. */
};

/* The memory file system note is given once per invocation. */
static int	memfs_said;

/*
 * Record the run's first failure as one line: the phase, the test file
 * (when there is one), the call, the system's words and the offset (when
 * known).  Nothing unknown is printed as an empty field.
 */
static int
run_fail(struct runner *r, const char *phase, const char *what,
    int64_t offset, int errnum, const char *detail)
{
	struct run_error	*e = &r->res->err;
	char			 at[64] = "", path[1040] = "";

	if (e->set)
		return -1;
	e->set = 1;
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
static int
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
static int
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
static void
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

/*
 * Fill the file, untimed, when no writing phase runs before a reading
 * one (for -p read,seeks and sweeps).
 */
static int
prefill(struct runner *r)
{
	uint64_t	i, n = r->opt->size / r->opt->chunk;
	size_t		done;

	for (i = 0; i < n; i++) {
		/* A stop signal ends the fill too (it once wrote on to the end). */
		if (bn_stop_signal)
			return run_fail(r, "setup", "write",
			    (int64_t)(i * r->opt->chunk), EINTR, NULL);
		pattern_fill(&r->pat, r->buf, i * r->opt->chunk, PW_FILL);
		if (xfer_full(XFER_WRITE, r->fd, r->buf, r->opt->chunk, 0,
		    &done) != 0)
			return run_fail(r, "setup", "write",
			    (int64_t)(i * r->opt->chunk + done), errno, NULL);
	}
	if (fsync(r->fd) == -1)
		return run_fail(r, "setup", "fsync", (int64_t)r->opt->size,
		    errno, NULL);
	r->ok[0] = PW_FILL;
	r->nok = 1;
	return 0;
}

/*
 * A loop device without direct I/O reads its backing file through the
 * page cache: write that file back, drop its pages and measure what
 * stayed.  Marks the phase warm, with the reason, when it cannot.
 */
static int
drop_backing(struct runner *r, const struct phase *p, struct phase_result *ph)
{
	struct stat	st;
	double		res = -1;
	int		fd, tries;

	fd = open(r->loop_backing, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd == -1 || fstat(fd, &st) == -1) {
		ph->cache = CSTATE_WARM;
		warn_run(r->opt, "cannot drop the cache of %s's backing file "
		    "%s before phase %s: %s; marked warm", r->loop_name,
		    r->loop_backing, p->name, strerror(errno));
		if (fd != -1)
			close(fd);
		return 0;
	}
	for (tries = 0; tries < 2; tries++) {
		if (platform_drop_cache(fd) == -1 ||
		    platform_residency(fd, (uint64_t)st.st_size, &res) == -1) {
			res = -1;
			break;
		}
		if (res <= WARM_LIMIT)
			break;
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	close(fd);
	ph->backing_resident = res;
	if (res > WARM_LIMIT || res < 0) {
		ph->cache = CSTATE_WARM;
		if (res < 0)
			warn_run(r->opt, "cannot drop or check the cache of "
			    "%s's backing file %s before phase %s; marked warm",
			    r->loop_name, r->loop_backing, p->name);
		else
			warn_run(r->opt, "%.0f%% of %s's backing file %s is "
			    "still cached before phase %s; marked warm",
			    100 * res, r->loop_name, r->loop_backing, p->name);
	}
	return 0;
}

/*
 * After a writing phase: a whole-file writer leaves its version; the
 * seekers leave some chunks as they were and some written back.
 */
static void
file_written(struct runner *r, const struct phase *p)
{
	int	i;

	if (p->writer != PW_NONE) {
		r->ok[0] = p->writer;
		r->nok = 1;
		return;
	}
	for (i = 0; i < r->nok; i++)
		if (r->ok[i] == PW_SEEK)
			return;
	if (r->nok < (int)(sizeof(r->ok) / sizeof(r->ok[0])))
		r->ok[r->nok++] = PW_SEEK;
}

/* How many bad chunks are described on stderr, per phase. */
#define SHOW_BAD	5

/*
 * Describe the first bad chunks a phase found, and the count, on stderr:
 * not warnings but errors of the file system, so shown even with -q.
 */
static void
show_bad(const struct runner *r, const struct phase *p,
    const struct pattern_tally *t)
{
	char	line[512], kinds[256] = "", who[128] = "";
	size_t	used = 0;
	int	i;

	/* A team's worker names itself: each checks its own file. */
	if (r->hooks != NULL)
		snprintf(who, sizeof(who), " (worker %s)", r->hooks->name_tag);
	for (i = 0; i < t->nkept && i < SHOW_BAD; i++) {
		pattern_describe(&t->kept[i], line, sizeof(line));
		text_say("phase %s%s: bad data %s",
		    p->name, who, line);
	}
	for (i = PV_DIFFERS; i < PV_COUNT; i++)
		if (t->kinds[i] != 0 && used < sizeof(kinds))
			used += (size_t)snprintf(kinds + used,
			    sizeof(kinds) - used, "%s%llu %s",
			    used ? ", " : "", (unsigned long long)t->kinds[i],
			    pattern_verdict_name((enum pattern_verdict)i));
	text_say("phase %s%s: %llu bad chunk%s read (%s), "
	    "%llu byte%s differ%s", p->name, who,
	    (unsigned long long)t->chunks,
	    t->chunks == 1 ? "" : "s", kinds, (unsigned long long)t->bytes,
	    t->bytes == 1 ? "" : "s", t->bytes == 1 ? "s" : "");
}

/*
 * Drop the file's cached pages and measure what stayed; retry once.
 * Sets the phase's cache state, residency and drop time.
 */
static int
drop_cache(struct runner *r, const struct phase *p, struct phase_result *ph)
{
	bn_time		 t0 = time_now();
	double		 res = -1;
	int		 tries, why = 0;
	const char	*step = "";

	for (tries = 0; tries < 2; tries++) {
		if (platform_drop_cache(r->fd) == -1) {
			if (errno == ENOSYS || errno == EINVAL) {
				why = errno;
				step = "drop";
				break;
			}
			return run_fail(r, p->name, "drop cache", -1, errno,
			    NULL);
		}
		if (platform_residency(r->fd, r->opt->size, &res) == -1) {
			why = errno;
			step = "mincore";
			res = -1;
			break;
		}
		if (res <= WARM_LIMIT)
			break;
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	if (res >= 0 && res <= WARM_LIMIT && r->loop_backing != NULL &&
	    r->loop_dio != 1 && drop_backing(r, p, ph) == -1)
		return -1;
	ph->drop_seconds += time_elapsed(t0, time_now());
	ph->resident = res;
	if (r->memfs != NULL) {
		/* Said once, at the start of the run. */
		ph->cache = CSTATE_WARM;
	} else if (res > WARM_LIMIT) {
		ph->cache = CSTATE_WARM;
		warn_run(r->opt, "%.0f%% of the file is still cached before "
		    "phase %s; marked warm", 100 * res, p->name);
	} else if (res < 0) {
		ph->cache = CSTATE_WARM;
		warn_run(r->opt, "cannot check that the cache was dropped "
		    "before phase %s (%s: %s); marked warm", p->name, step,
		    strerror(why));
	}
	return 0;
}

/*
 * --cache=global: write every dirty page back and drop the whole
 * system's clean pages, dentries and inodes, untimed, counted in the
 * phase's drop time.  A file phase has no file to check, so its state
 * says only that the drop was made; a block phase's residency is still
 * checked by drop_cache() after.
 */
static int
drop_all(struct runner *r, const struct phase *p, struct phase_result *ph)
{
	bn_time		 t0 = time_now();
	char		 detail[256];
	const char	*what = "";
	int		 e;

	if (platform_drop_all_check(&what) == -1 || platform_drop_all() ==
	    -1) {
		e = errno;
		snprintf(detail, sizeof(detail), "%s: drop every cache: %s",
		    what, strerror(e));
		return run_fail(r, p->name, "drop every cache", -1, e, detail);
	}
	ph->drop_seconds += time_elapsed(t0, time_now());
	/* A memory file system's files stay, whatever the drop does. */
	if (p->flags & PHASE_META)
		ph->cache = platform_memory_fs(r->opt->dir) != NULL ?
		    CSTATE_WARM : CSTATE_DROPPED;
	return 0;
}

/* The cache state a phase starts in, before any drop. */
static enum cache_state
first_state(const struct options *opt, const struct phase *p, int direct)
{
	if (opt->cache == CACHE_MODE_KEEP)
		return CSTATE_KEEP;
	if (p->flags & PHASE_META)
		return CSTATE_UNDROPPED;
	return direct ? CSTATE_DIRECT : CSTATE_COLD;
}

/* Counters of the whole machine, sampled around a phase. */
struct machine_sample {
	int		cpu_ok, dev_ok;
	uint64_t	busy, total, rd, wr;
};

static void
machine_sample(struct runner *r, struct machine_sample *m)
{
	m->cpu_ok = platform_cpu_ticks(&m->busy, &m->total) == 0;
	m->dev_ok = platform_dev_io(r->io_dev, &m->rd, &m->wr) == 0;
}

static void
machine_delta(const struct machine_sample *a, const struct machine_sample *b,
    struct phase_result *ph)
{
	ph->machine_busy = -1;
	ph->dev_read = ph->dev_written = -1;
	if (a->cpu_ok && b->cpu_ok && b->total > a->total)
		ph->machine_busy = 100.0 * (double)(b->busy - a->busy) /
		    (double)(b->total - a->total);
	if (a->dev_ok && b->dev_ok) {
		ph->dev_read = (int64_t)(b->rd - a->rd);
		ph->dev_written = (int64_t)(b->wr - a->wr);
	}
}

/*
 * What share of a buffered reading phase's reads the cache served: the
 * bytes it read against what the device read meanwhile (other I/O on the
 * device only makes the share look smaller).  On a loop device that
 * reads its backing file through the cache, a chunk read again came from
 * that cache whatever the loop device counted.  In cold mode, more than
 * WARM_LIMIT marks the phase warm.
 */
static void
hit_fraction(struct runner *r, const struct phase *p,
    const struct phase_ctx *ctx, struct phase_result *ph)
{
	double	hits = -1;
	int	backing = 0;	/* The hits are the backing file's cache. */

	ph->hit_fraction = -1;
	if (!(p->flags & PHASE_READS) || ph->direct || ctx->bytes == 0)
		return;
	if (r->memfs != NULL)
		hits = 1;
	else if (ph->dev_read >= 0) {
		hits = 1 - (double)ph->dev_read / (double)ctx->bytes;
		if (hits < 0)
			hits = 0;
		if (r->loop_backing != NULL && r->loop_dio != 1 && ctx->ops > 0 &&
		    (double)ctx->repeats / (double)ctx->ops > hits) {
			hits = (double)ctx->repeats / (double)ctx->ops;
			backing = 1;
		}
	}
	ph->hit_fraction = hits;
	if (!(hits > WARM_LIMIT && ph->cache == CSTATE_COLD))
		return;
	ph->cache = CSTATE_WARM;
	/*
	 * Through a loop device the loop device reads every byte, but from
	 * the page cache of the file system holding its backing file: both
	 * are named, or the figures read as a contradiction.
	 */
	if (backing)
		warn_run(r->opt, "phase %s: %.0f%% of its reads were of chunks "
		    "read before, which the page cache kept for %s's backing "
		    "file %s (%s read %lld of %llu bytes, from that cache, not "
		    "from the device under the backing file); marked warm",
		    p->name, 100 * hits, r->loop_name, r->loop_backing,
		    r->loop_name, (long long)(ph->dev_read > 0 ? ph->dev_read :
		    0), (unsigned long long)ctx->bytes);
	else
		warn_run(r->opt, "phase %s: %.0f%% of its reads were cache hits "
		    "(the device read %lld of %llu bytes); marked warm", p->name,
		    100 * hits, (long long)(ph->dev_read > 0 ? ph->dev_read : 0),
		    (unsigned long long)ctx->bytes);
}

/* Fill in the result of a phase that ran. */
static void
phase_account(struct runner *r, const struct phase *p,
    const struct phase_ctx *ctx, double elapsed, const struct cpu_times *cpu,
    struct phase_result *ph)
{
	int	bound;

	ph->ran = 1;
	ph->bytes = ctx->bytes;
	ph->ops = ctx->ops;
	ph->elapsed = elapsed;
	ph->user = cpu->user;
	ph->sys = cpu->sys;
	/* The fill ahead (fill_s) is off the clock, but its CPU is in cpu. */
	ph->cpu_pct = cpu_percent(cpu, elapsed + ctx->filled);
	ph->workers = ctx->workers;
	if (p->flags & PHASE_OPS)
		ph->rate = elapsed > 0 ? (double)ctx->ops / elapsed : 0;
	else
		ph->rate = elapsed > 0 ?
		    (double)ctx->bytes / 1024.0 / elapsed : 0;
	hist_summary(r->hist, &ph->lat);
	hit_fraction(r, p, ctx, ph);
	if (elapsed < PRECISE_SECONDS) {
		ph->imprecise = 1;
		warn_run(r->opt, "phase %s ran %.3f s, under %.1f s: its "
		    "figures are imprecise (use a larger -s)", p->name, elapsed,
		    PRECISE_SECONDS);
	}
	/*
	 * Each thread's CPU clock runs at most as fast as the wall clock and
	 * at most ncpu of them run at once: more than either is a meter that
	 * lied.
	 */
	bound = (p->flags & PHASE_WORKERS) ? ctx->workers : 1;
	if (bound < 1 || bound > r->ncpu)
		bound = r->ncpu;
	if (ph->cpu_pct > 100.0 * bound + 1) {
		ph->cpu_doubtful = 1;
		warn_run(r->opt, "phase %s: %.1f%% CPU is more than %d thread%s "
		    "on %d core%s can use; the CPU figure is doubtful", p->name,
		    ph->cpu_pct, (p->flags & PHASE_WORKERS) ? ctx->workers : 1,
		    (p->flags & PHASE_WORKERS) && ctx->workers != 1 ? "s" : "",
		    r->ncpu, r->ncpu == 1 ? "" : "s");
	}
}

/*
 * The kernel's account, read by the run itself when it is alone (a team's
 * leader reads it for the team): of the device the file's I/O reaches.
 */
static void
kstat_open(struct runner *r)
{
	struct stat	st;
	dev_t		dev = r->io_dev;

	if (dev == 0 && stat(r->opt->dir, &st) == 0)
		dev = st.st_dev;
	r->ks = kstat_run_new(dev, r->memfs);
	r->res->ks = xcalloc(PH_COUNT, sizeof(*r->res->ks));
	r->tl = timeline_new(r->opt->interval_ms / 1000.0, 1);
}

void
run_kstat_notes(const struct options *opt, enum phase_id id,
    const struct phase_result *ph, struct kstat_phase *ks)
{
	const struct phase	*p = phase_table[id];
	struct kstat_work	 w;

	memset(&w, 0, sizeof(w));
	w.phase = p->name;
	w.chunk = opt->chunk;
	w.block = !(p->flags & (PHASE_PERCHAR | PHASE_META)) &&
	    (p->flags & (PHASE_READS | PHASE_WRITES));
	w.writes = (p->flags & PHASE_WRITES) != 0;
	w.bytes = ph->bytes;
	w.cpu_pct = ph->cpu_pct;
	kstat_notes(ks, &ph->kp, &w);
	if (!opt->quiet)
		kstat_say(stderr, ks);
}

/* Run one phase: setup, cache, the timed run, accounting, teardown. */
static int
run_phase(struct runner *r, enum phase_id id)
{
	const struct options	*opt = r->opt;
	const struct phase	*p = phase_table[id];
	struct phase_result	*ph = &r->res->ph[id];
	struct phase_ctx	 ctx;
	struct machine_sample	 m0, m1;
	struct kstat_proc	 kp0;
	struct cpu_stamp	 c0, c1;
	struct cpu_times	 cpu;
	struct run_phase_report	 rep;
	bn_time			 t0, t1;
	double			 elapsed;
	int			 rv = 0, direct, armed = 0;

	if (bn_stop_signal)
		return run_fail(r, p->name, "start", -1, EINTR, NULL);
	memset(ph, 0, sizeof(*ph));
	current_phase = p->name;
	ph->skew = -1;
	memset(&rep, 0, sizeof(rep));
	/* Direct I/O is for the test file: the file phases never use it. */
	direct = opt->direct && !(p->flags & (PHASE_PERCHAR | PHASE_META));
	memset(&ctx, 0, sizeof(ctx));
	ctx.opt = opt;
	ctx.path = test_path;
	ctx.dirfd = test_dirfd;
	ctx.name = test_name;
	ctx.file_dev = r->dev;
	ctx.file_ino = r->ino;
	ctx.in_place = r->target != NULL;
	ctx.size = opt->size;
	ctx.chunk = opt->chunk;
	ctx.direct = direct;
	ctx.align = r->align;
	ctx.cold = opt->cache != CACHE_MODE_KEEP && !direct;
	ctx.buf = r->buf;
	ctx.pat = &r->pat;
	memcpy(ctx.ok, r->ok, sizeof(ctx.ok));
	ctx.nok = r->nok;
	ctx.verify = (p->flags & PHASE_READS) ? opt->verify : VERIFY_OFF;
	ctx.tally = &ph->verify;
	ph->verified = ctx.verify != VERIFY_OFF;
	ctx.hist = r->hist;
	ctx.fd = -1;
	/* A queue for the block phases' direct or device I/O only. */
	ctx.depth = (direct || ctx.in_place) &&
	    !(p->flags & (PHASE_PERCHAR | PHASE_META)) ? (int)opt->iodepth : 1;
	ctx.total = opt->size;
	ctx.title = p->title;
	ctx.tick_due = UINT64_MAX;
	ctx.progress = r->tl != NULL ? timeline_counter(r->tl, 0) :
	    r->hooks != NULL && r->hooks->progress != NULL ?
	    r->hooks->progress : &r->progress;
	hist_init(r->hist);

	ph->direct = direct;
	ph->resident = -1;
	ph->backing_resident = -1;
	ph->hit_fraction = -1;
	ph->cache = first_state(opt, p, direct);

	if ((p->flags & PHASE_OPEN) && (ctx.fd = phase_open(&ctx, p->open_flags |
	    (direct ? platform_odirect_flag() : 0))) == -1) {
		rv = run_fail(r, p->name, ctx.err_what, ctx.err_offset,
		    ctx.err_errno, ctx.err_detail);
		goto out;
	}
	if (p->setup != NULL && p->setup(&ctx) == -1) {
		rv = run_fail(r, p->name, ctx.err_what, ctx.err_offset,
		    ctx.err_errno, ctx.err_detail);
		goto out;
	}
	if (opt->cache == CACHE_MODE_GLOBAL &&
	    (p->flags & (PHASE_READS | PHASE_LOOKS)) &&
	    drop_all(r, p, ph) == -1) {
		rv = -1;
		goto out;
	}
	if (opt->cache != CACHE_MODE_KEEP && (p->flags & PHASE_READS)) {
		if (drop_cache(r, p, ph) == -1) {
			rv = -1;
			goto out;
		}
		if (direct)
			ph->cache = CSTATE_DIRECT;
	} else if ((p->flags & PHASE_META) || r->fd == -1 ||
	    platform_residency(r->fd, opt->size, &ph->resident) == -1)
		ph->resident = -1;

	/* A team's worker waits here for the others. */
	if (r->hooks != NULL) {
		if (r->hooks->ready(r->hooks->arg, id) == -1) {
			rv = run_fail(r, p->name, "wait for the other workers",
			    -1, EINTR, NULL);
			goto out;
		}
		armed = 1;
	}
	progress_start(p->title);
	kstat_proc_begin(&kp0);
	if (r->tl != NULL)
		timeline_start(r->tl, kstat_run_device(r->ks), ctx.prog_base,
		    ctx.prog_stride, ctx.prog_n);
	if (r->ks != NULL)
		kstat_begin(r->ks);
	machine_sample(r, &m0);
	cpu_stamp_thread(&c0);
	t0 = time_now();
	if (progress_level == 2)
		ctx.tick_due = t0.ns + 250000000u;
	ctx.tick_start = t0;
	rv = p->run(&ctx);
	t1 = time_now();
	cpu_stamp_thread(&c1);
	machine_sample(r, &m1);
	if (r->ks != NULL) {
		kstat_end(r->ks, time_elapsed(t0, t1), &r->res->ks[id]);
		kstat_attach_timeline(&r->res->ks[id], timeline_stop(r->tl));
	}
	kstat_proc_end(&kp0, &ph->kp);
	progress_end(p->title, rv == 0);

	if (rv == -1) {
		rv = run_fail(r, p->name, ctx.err_what, ctx.err_offset,
		    ctx.err_errno, ctx.err_detail);
		goto out;
	}
	/*
	 * A phase with workers is their CPU over their span; the main
	 * thread only starts and reaps them, outside that span.
	 */
	if (p->flags & PHASE_WORKERS)
		cpu = ctx.worker_cpu;
	else
		cpu_between(&c0, &c1, &cpu);
	elapsed = (p->flags & PHASE_SPAN) ?
	    time_elapsed(ctx.span_start, ctx.span_end) :
	    time_elapsed(t0, t1);
	elapsed -= ctx.excluded;
	ph->drop_seconds += ctx.excluded - ctx.filled;
	ph->fill_seconds = ctx.filled;
	ph->depth = ctx.depth;
	snprintf(ph->engine, sizeof(ph->engine), "%s",
	    ctx.engine != NULL ? ctx.engine : "");
	snprintf(ph->fallback, sizeof(ph->fallback), "%s",
	    ctx.fallback != NULL ? ctx.fallback : "");
	machine_delta(&m0, &m1, ph);
	phase_account(r, p, &ctx, elapsed, &cpu, ph);
	if (r->ks != NULL)
		run_kstat_notes(opt, id, ph, &r->res->ks[id]);
	/* The worker's span for the team, less the time left out of it. */
	rep.start = (p->flags & PHASE_SPAN) ? ctx.span_start : t0;
	rep.end = (p->flags & PHASE_SPAN) ? ctx.span_end : t1;
	rep.end.ns -= (uint64_t)(ctx.excluded * 1e9);
	if (ph->verify.chunks > 0) {
		show_bad(r, p, &ph->verify);
		r->res->bad_chunks += ph->verify.chunks;
	}
	if (p->flags & PHASE_WRITES)
		file_written(r, p);

out:
	if (p->teardown != NULL)
		p->teardown(&ctx);
	if (ctx.fd != -1)
		close(ctx.fd);
	if (rv == 0 && opt->cache != CACHE_MODE_KEEP &&
	    (p->flags & PHASE_WRITES)) {
		bn_time	d0 = time_now();

		if (platform_drop_cache(r->fd) == -1 && errno != ENOSYS &&
		    errno != EINVAL)
			rv = run_fail(r, p->name, "drop cache", -1, errno,
			    NULL);
		ph->drop_seconds += time_elapsed(d0, time_now());
	}
	if (armed) {
		rep.ok = rv == 0;
		rep.ph = ph;
		rep.hist = r->hist;
		rep.err = &r->res->err;
		if (r->hooks->done(r->hooks->arg, id, &rep) == -1 &&
		    rv == 0)
			rv = run_fail(r, p->name, "stop with the other workers",
			    -1, EINTR, NULL);
	}
	if (rv == -1)
		ph->ran = 0;
	return rv;
}

/*
 * Find what under the test file keeps data in memory whatever the drops
 * do: a memory file system (said once), or a loop device whose backing
 * file the drops must reach too.
 */
static void
target_memory(struct runner *r)
{
	const char	*dir = r->target != NULL ? r->target->dir : r->opt->dir;

	if ((r->target == NULL || r->target->kind == TARGET_IN_PLACE) &&
	    (r->memfs = platform_memory_fs(dir)) != NULL) {
		if (!memfs_said && r->opt->cache != CACHE_MODE_KEEP)
			warn_run(r->opt, "%s is on %s, a memory file system: "
			    "every phase reads and writes memory, not a disk; "
			    "the reading phases are marked warm", dir,
			    r->memfs);
		memfs_said = 1;
		return;
	}
	if (platform_loop_info(r->io_dev, &r->loop_backing, &r->loop_dio,
	    r->loop_name, sizeof(r->loop_name)) == -1)
		r->loop_backing = NULL;
}

int
run_once(const struct options *opt, struct run_result *res)
{
	return run_worker(opt, res, NULL);
}

int
run_worker(const struct options *opt, struct run_result *res,
    const struct run_hooks *hooks)
{
	struct runner	 r;
	const unsigned	 meta = phase_flag_mask(PHASE_META);
	void		*p;
	size_t		 mem_align, io_align;
	sigset_t	 old;
	int		 i, rv = 0, e;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	test_path[0] = '\0';
	current_phase = "setup";
	res->seed = opt->seed;
	utc_now(res->start_utc, sizeof(res->start_utc));
	for (i = 0; i < PH_COUNT; i++) {
		res->ph[i].resident = -1;
		res->ph[i].skew = -1;
		res->ph[i].hit_fraction = -1;
		res->ph[i].backing_resident = -1;
	}
	r.opt = opt;
	r.hooks = hooks;
	r.res = res;
	r.fd = -1;
	if (opt->device != NULL && (r.target = target_held()) == NULL)
		return run_fail(&r, "setup", "open", -1, ENODEV,
		    "setup: --device: the target was not claimed");
	/* The cores this process may run on, for the CPU check. */
	if ((r.ncpu = platform_ncpu()) < 1)
		r.ncpu = 1;
	if ((e = platform_cpus_allowed()) >= 1 && e < r.ncpu)
		r.ncpu = e;
	/* Page-aligned buffers satisfy O_DIRECT unless it asks for more. */
	r.align = 4096;
	if (opt->direct && platform_direct_align(r.target != NULL ?
	    r.target->path : opt->dir, &mem_align, &io_align) == 0) {
		if (mem_align > r.align)
			r.align = mem_align;
		if (io_align > r.align)
			r.align = io_align;
	}
	if ((e = posix_memalign(&p, r.align, opt->chunk)) != 0)
		return run_fail(&r, "setup", "allocate buffer", -1, e, NULL);
	r.buf = p;
	if ((r.hist = malloc(sizeof(*r.hist))) == NULL) {
		rv = run_fail(&r, "setup", "allocate the histogram", -1,
		    errno, NULL);
		goto done;
	}
	pattern_init(&r.pat, opt->seed, opt->chunk, opt->size);

	/* Only the file creation phases: no test file. */
	if ((opt->phases & ~meta) == 0)
		goto phases;
	if ((r.target != NULL ? open_target(&r) : create_file(&r)) == -1) {
		rv = -1;
		goto done;
	}
	target_memory(&r);
	if (opt->direct) {
		/* Find out now whether the file system takes O_DIRECT. */
		int fd = openat(test_dirfd, test_name, O_RDONLY | O_NOFOLLOW |
		    O_CLOEXEC |
		    platform_odirect_flag());

		if (fd == -1) {
			char	detail[PATH_MAX + 128] = "";

			e = errno;
			if (e == EINVAL)
				snprintf(detail, sizeof(detail), "%s: open "
				    "with O_DIRECT: %s (the file system does "
				    "not support O_DIRECT)", test_path,
				    strerror(e));
			rv = run_fail(&r, "setup", "open with O_DIRECT", -1,
			    e, detail);
			goto done;
		}
		close(fd);
	}
	if (run_prefills(opt->phases) && (rv = prefill(&r)) == -1)
		goto done;
phases:
	if (hooks == NULL)
		kstat_open(&r);
	for (i = 0; i < PH_COUNT; i++) {
		if (!(opt->phases & (1u << i)))
			continue;
		if ((rv = run_phase(&r, (enum phase_id)i)) == -1)
			break;
	}
done:
	/* A second signal waits for the cleanup, then ends the process. */
	block_signals(&old);
	files_cleanup();
	remove_file(&r);
	restore_signals(&old);
	kstat_run_free(r.ks);
	timeline_free(r.tl);
	free(r.loop_backing);
	free(r.hist);
	free(r.buf);
	if (bn_stop_signal)
		res->interrupted = bn_stop_signal;
	return rv;
}

int
run_prefills(unsigned phases)
{
	unsigned	fillers = phase_flag_mask(PHASE_FILLS);
	unsigned	meta = phase_flag_mask(PHASE_META);

	return (phases & fillers) == 0 && (phases & ~fillers & ~meta) != 0;
}

uint64_t
run_planned_bytes(const struct options *o, int *partial)
{
	const struct phase	*p;
	uint64_t		 one = 0;
	int			 i;

	*partial = 0;
	if (run_prefills(o->phases))
		one += o->size;
	for (i = 0; i < PH_COUNT; i++) {
		if (!(o->phases & (1u << i)))
			continue;
		p = phase_table[i];
		if (!(p->flags & PHASE_WHOLE)) {
			if (p->flags & PHASE_WRITES)
				*partial = 1;
			continue;
		}
		if (p->flags & PHASE_META)
			one += o->files_n * ((o->files_min + o->files_max) / 2);
		else
			one += o->size;
	}
	return one * (uint64_t)(o->jobs > 1 ? o->jobs : 1);
}

uint64_t
run_seed(uint64_t base, int index)
{
	uint64_t	z;

	if (index == 0)
		return base;
	/* splitmix64's finalizer over the base and the index. */
	z = base + (uint64_t)index * UINT64_C(0x9E3779B97F4A7C15);
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	z ^= z >> 31;
	return z & ((UINT64_C(1) << 53) - 1);
}

/* A fault of the system for run_preflight(): the cause, and say so. */
static enum preflight
system_fault(char **cause, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	verrorf(cause, fmt, ap);
	va_end(ap);
	return PREFLIGHT_SYSTEM;
}

/* -d names a device: refused, with the way to name one. */
static enum preflight
dir_is_device(const struct stat *st, const char *dir, char **cause)
{
	errorf(cause, "-d %s: a %s device, not a directory (--device PATH "
	    "runs on a block device, overwriting it)", dir,
	    S_ISBLK(st->st_mode) ? "block" : "character");
	return PREFLIGHT_OPTIONS;
}

enum preflight
run_preflight(const struct options *opt, char **cause)
{
	struct stat	st;
	struct statvfs	vfs;
	size_t		mem_align, io_align;
	uint64_t	avail, need;
	const char	*target = opt->device != NULL ? opt->device : opt->dir;
	const char	*what;

	/* A device's size is its bound (checked when it was claimed). */
	if (opt->device != NULL)
		goto direct;
	if (stat(opt->dir, &st) == -1)
		return system_fault(cause, "%s: %s", opt->dir,
		    strerror(errno));
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))
		return dir_is_device(&st, opt->dir, cause);
	if (!S_ISDIR(st.st_mode))
		return system_fault(cause, "%s: %s", opt->dir,
		    strerror(ENOTDIR));
	if (access(opt->dir, W_OK | X_OK) == -1)
		return system_fault(cause, "%s: %s", opt->dir,
		    strerror(errno));
	if (statvfs(opt->dir, &vfs) == 0) {
		if (vfs.f_flag & ST_RDONLY)
			return system_fault(cause, "%s: %s", opt->dir,
			    strerror(EROFS));
		avail = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
		need = opt->size * (uint64_t)(opt->jobs > 1 ? opt->jobs : 1);
		/* Only the file creation phases: no test file. */
		if ((opt->phases & ~phase_flag_mask(PHASE_META)) == 0)
			need = 0;
		if (!opt->no_space_check && avail < need) {
			errorf(cause, "invalid value for -s, --size: "
			    "the %s %llu MiB but %s has %llu MiB free "
			    "(--no-space-check tries anyway)",
			    opt->jobs > 1 ? "files need" : "file needs",
			    (unsigned long long)(need >> 20), opt->dir,
			    (unsigned long long)(avail >> 20));
			return PREFLIGHT_OPTIONS;
		}
	}
direct:
	if (opt->cache == CACHE_MODE_GLOBAL &&
	    platform_drop_all_check(&what) == -1) {
		errorf(cause, "invalid value for --cache: global: %s: %s "
		    "(dropping every cache needs root on Linux)", what,
		    strerror(errno));
		return PREFLIGHT_OPTIONS;
	}
	if (opt->direct) {
		if (platform_odirect_flag() == 0) {
			errorf(cause, "--direct: built without O_DIRECT on "
			    "this system");
			return PREFLIGHT_OPTIONS;
		}
		if (platform_direct_align(target, &mem_align, &io_align) ==
		    -1) {
			errorf(cause, "--direct: cannot find the alignment for "
			    "%s: %s", target, strerror(errno));
			return PREFLIGHT_OPTIONS;
		}
		if (opt->chunk % io_align != 0) {
			errorf(cause, "--direct: a chunk of %zu bytes is not a "
			    "multiple of the %zu-byte alignment that O_DIRECT "
			    "needs on %s", opt->chunk, io_align, target);
			return PREFLIGHT_OPTIONS;
		}
	}
	return PREFLIGHT_OK;
}
