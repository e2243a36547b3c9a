/*
 * Launching seekers as processes or threads, and the one seeker worker
 * both modes run.  The work and the accounting are the same in both:
 * each seeker measures its own span and reads its own CPU clock around its
 * seeks, so no CPU is counted twice.  The seekers also keep one clock in
 * common: how many of them are seeking (not dropping a chunk) and the time
 * inside the span in which none was.  The phase's time is the span less
 * that time, the seconds in which some seeker was seeking, and its CPU is
 * the seekers' CPU outside their drops, spent within those same seconds,
 * so %CPU can never exceed 100 times the seekers or the cores.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "ioq.h"
#include "options.h"
#include "phase-ctx.h"
#include "platform.h"
#include "queue.h"
#include "seek-cache.h"
#include "seek-draws.h"
#include "seekers.h"
#include "signals.h"

/*
 * The common clock, in memory shared with forked seekers, lock-free so
 * that it never makes one seeker wait for another.  state holds how many
 * seekers are seeking now (the low 16 bits) and, when that fell to 0 last,
 * the time it did (the high 48 bits, in 16 ns units from base: 52 days);
 * a seeker that lifts the count from 0 adds the time since to idle_ns.
 */
#define SHARE_COUNT_BITS	16
#define SHARE_COUNT_MASK	((1ull << SHARE_COUNT_BITS) - 1)
#define SHARE_UNIT_SHIFT	4
#define SHARE_NEVER		(~0ull >> SHARE_COUNT_BITS)	/* No drop yet. */

struct seek_share {
	atomic_ullong	state;
	atomic_ullong	idle_ns;
	bn_time		base;
};

/* Forked seekers, for seekers_kill_all() from a signal handler. */
static pid_t			seeker_pids[MAX_SEEKERS];
static volatile sig_atomic_t	seeker_npids;

void
seekers_kill_all(void)
{
	int	i;

	for (i = 0; i < seeker_npids; i++)
		if (seeker_pids[i] > 0)
			kill(seeker_pids[i], SIGKILL);
}

struct seeker_result *
seekers_alloc(int n)
{
	void	*p;

	p = mmap(NULL, sizeof(struct seeker_result) * (size_t)n,
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	return p;
}

void
seekers_free(struct seeker_result *r, int n)
{
	if (r != NULL)
		munmap(r, sizeof(*r) * (size_t)n);
}

unsigned char *
seekers_bitmap_alloc(uint64_t n)
{
	void	*p;

	p = mmap(NULL, (size_t)((n + 7) / 8), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	return p;
}

void
seekers_bitmap_free(unsigned char *b, uint64_t n)
{
	if (b != NULL)
		munmap(b, (size_t)((n + 7) / 8));
}

/* A seeker's failure, kept in its result slot. */
static int
seeker_fail(struct seeker_result *r, const char *what, int64_t offset)
{
	r->err_errno = errno;
	r->err_offset = offset;
	snprintf(r->err_what, sizeof(r->err_what), "%s", what);
	return -1;
}

/* What a seeker holds between getting ready and starting. */
struct seeker {
	const struct seek_job	*job;
	int			 index;
	int			 nseekers;
	struct seeker_result	*res;
	struct seek_share	*share;
	int			 fd;
	unsigned char		*buf;
	struct rng		 rng;
	uint64_t		 quota;
	/* job->depth > 1: the queue, its buffers, seeks started. */
	struct ioq		*q;
	unsigned char		**qbuf;
	uint64_t		 started;
	bn_time			 now;		/* The queue's last reading. */
	int			 depth;		/* 1, or job->depth with a queue. */
};

/* The queue of a seeker at job->depth > 1, untimed. */
static int
seeker_queue_prepare(struct seeker *s)
{
	char	*cause = NULL;

	if ((s->qbuf = queue_buffers(s->job->depth, s->job->chunk,
	    s->job->align)) == NULL) {
		errno = ENOMEM;
		return seeker_fail(s->res, "allocate buffers", -1);
	}
	/* No queue: one seek at a time, and the record says why. */
	if ((s->q = ioq_open(s->fd, s->job->depth, &cause)) == NULL) {
		snprintf(s->res->fallback, sizeof(s->res->fallback), "%s",
		    cause != NULL ? cause : "no queue");
		free(cause);
		queue_buffers_free(s->qbuf, s->job->depth);
		s->qbuf = NULL;
		return 0;
	}
	snprintf(s->res->engine, sizeof(s->res->engine), "%s", ioq_engine());
	s->depth = s->job->depth;
	return 0;
}

static int
seeker_prepare(struct seeker *s)
{
	const struct seek_job	*job = s->job;
	const char		*call;
	size_t			 align = job->align < 64 ? 64 : job->align;
	void			*p;
	int			 e;

	s->depth = 1;
	hist_init(&s->res->hist);
	s->quota = job->seeks / (uint64_t)s->nseekers +
	    ((uint64_t)s->index < job->seeks % (uint64_t)s->nseekers);
	seek_rng(job->seed, s->index, &s->rng);
	if ((e = posix_memalign(&p, align, job->chunk)) != 0) {
		errno = e;
		return seeker_fail(s->res, "allocate buffer", -1);
	}
	s->buf = p;
	s->fd = reopen_same(job->dirfd, job->name, job->open_flags, job->dev,
	    job->ino, 1, &call);
	if (s->fd == -1)
		return seeker_fail(s->res, call, 0);
	if (job->drop_each && platform_advise_random(s->fd) == -1 &&
	    errno != ENOSYS)
		return seeker_fail(s->res, "fadvise random", 0);
	if (job->depth > 1)
		return seeker_queue_prepare(s);
	return 0;
}

/*
 * A seeker starts (up 1) or stops (-1) seeking, on the common clock; *at
 * and *cpu are the wall clock and the seeker's CPU clock at that moment.
 * The CPU clock is a system call that costs as much as a short seek; read
 * just after the wall clock at both ends of a drop, half of each call's
 * cost falls on either side, so the seeking seconds and the seeking CPU
 * stay alike (read before it at one end and after it at the other, a whole
 * call per drop would move across).
 */
static void
seeker_active(struct seeker *s, int up, bn_time *at, uint64_t *cpu)
{
	struct seek_share	*sh = s->share;
	unsigned long long	 old, new, count, since, now;

	*at = time_now();
	*cpu = cpu_thread_ns();
	now = time_elapsed_ns(sh->base, *at) >> SHARE_UNIT_SHIFT;
	old = atomic_load(&sh->state);
	do {
		count = old & SHARE_COUNT_MASK;
		since = old >> SHARE_COUNT_BITS;
		if (up > 0)
			new = (since << SHARE_COUNT_BITS) | (count + 1);
		else if (count == 1)
			new = now << SHARE_COUNT_BITS;
		else
			new = (since << SHARE_COUNT_BITS) | (count - 1);
	} while (!atomic_compare_exchange_weak(&sh->state, &old, new));
	if (up > 0 && count == 0 && since != SHARE_NEVER && now > since)
		atomic_fetch_add(&sh->idle_ns, (now - since) <<
		    SHARE_UNIT_SHIFT);
}

/*
 * Drop the chunk at off from the cache, not seeking meanwhile.  Its wall
 * time and CPU time are counted apart so the phase can leave them out;
 * returns the time the next seek starts from.
 */
static bn_time
seeker_drop(struct seeker *s, uint64_t off, int dirty, uint64_t *cpu)
{
	uint64_t	c0, c1;
	bn_time		t0, t1;

	/*
	 * A written chunk is written back first, as the drop after a writing
	 * phase does, untimed like it.  A drop that fails leaves the chunk
	 * cached: the hit count says so.
	 */
	seeker_active(s, -1, &t0, &c0);
	(void)platform_drop_range(s->fd, off, s->job->chunk, dirty);
	seeker_active(s, 1, &t1, &c1);
	*cpu += c1 > c0 ? c1 - c0 : 0;
	s->res->drop_ns += time_elapsed_ns(t0, t1);
	return t1;
}

/*
 * Take the drops' CPU (system time) out of a seeker's CPU, and keep what
 * is left within the seeking seconds (wall: the span less the drops).  A
 * thread's CPU cannot exceed its wall time, but the two clocks are read a
 * few nanoseconds apart at each end of every drop, and the drop's CPU
 * comes out short by about that (35 ns a drop here: on a memory file
 * system, with a drop after each of 400k seeks a second, one seeker
 * showed 101.5% CPU).  Beyond CPU_SLACK the excess is left for the
 * phase's doubt check: a clock that lies.
 */
#define CPU_SLACK	1.10
static void
seeker_less_cpu(struct cpu_times *t, double drop, double wall)
{
	double	cpu;

	t->sys -= drop;
	if (t->sys < 0) {
		t->user += t->sys;
		t->sys = 0;
		if (t->user < 0)
			t->user = 0;
	}
	cpu = t->user + t->sys;
	if (wall > 0 && cpu > wall && cpu <= wall * CPU_SLACK) {
		t->user *= wall / cpu;
		t->sys *= wall / cpu;
	}
}

/*
 * Check a chunk read at off.  was_written: its write-back had returned
 * before the read began, so only that version is right.  The check's time
 * is counted apart and *last moved on by as much.
 */
static int
seeker_verify(struct seeker *s, const unsigned char *buf, off_t off,
    int was_written, bn_time *last)
{
	const struct seek_job	*job = s->job;
	struct seeker_result	*r = s->res;
	struct pattern_bad	 bad[2];
	const enum pattern_writer newer = PW_SEEK;
	bn_time			 t0 = time_now(), t1;
	uint64_t		 ns;
	char			 what[200];
	int			 n;

	if (was_written)
		n = pattern_check(job->pat, buf, (uint64_t)off, job->chunk,
		    &newer, 1, bad, 2);
	else
		n = pattern_check(job->pat, buf, (uint64_t)off, job->chunk,
		    job->ok, job->nok, bad, 2);
	if (n > 0)
		pattern_tally_add(&r->tally, bad, 2, n);
	r->tally.checked += job->chunk;
	t1 = time_now();
	ns = time_elapsed_ns(t0, t1);
	r->tally.ns += ns;
	last->ns += ns;
	if (n > 0 && job->verify == VERIFY_FATAL) {
		pattern_describe(&bad[0], what, sizeof(what));
		snprintf(r->err_detail, sizeof(r->err_detail), "%s", what);
		errno = EIO;
		return seeker_fail(r, "data check", (int64_t)off);
	}
	return 0;
}

/*
 * Make the write-back data of the chunk at off, off the clock: its time
 * is counted apart and *last moved on by as much.
 */
static void
seeker_fill(struct seeker *s, uint64_t off, bn_time *last)
{
	bn_time		t0 = time_now();
	uint64_t	ns;

	(s->job->direct ? pattern_fill_direct : pattern_fill)(s->job->pat,
	    s->buf, off, PW_SEEK);
	ns = time_elapsed_ns(t0, time_now());
	s->res->fill_ns += ns;
	last->ns += ns;
}

static int
chunk_written(const struct seek_job *job, uint64_t i)
{
	return job->written != NULL &&
	    (atomic_load(&job->written[i / 8]) & (1u << (i % 8))) != 0;
}

/* A write-back of chunk i has returned. */
static void
chunk_set_written(const struct seek_job *job, uint64_t i)
{
	if (job->written != NULL)
		atomic_fetch_or(&job->written[i / 8],
		    (unsigned char)(1u << (i % 8)));
}

/*
 * The next seek's chunk.  Cold, with the seekers' map: dropped now if a
 * seek may have left it cached (*last moves past the drop), and *after
 * set if it must be dropped after its read; without a map, after every
 * read.
 */
static uint64_t
seeker_next(struct seeker *s, uint64_t nchunks, int *after, bn_time *last,
    uint64_t *drop_cpu)
{
	const struct seek_job	*job = s->job;
	uint64_t		 c = seek_next_chunk(&s->rng, nchunks);

	*after = job->drop_each;
	if (job->drop_each && job->cache != NULL &&
	    seek_cache_mark(job->cache, c * job->chunk, after))
		*last = seeker_drop(s, c * job->chunk, 0, drop_cpu);
	return c;
}

/*
 * The timed loop: a pread of one chunk at a random chunk-aligned offset,
 * checked under --verify, and every tenth seek the chunk written back as
 * generation 3.  Without -n the seeker keeps going past its share until
 * min_seconds have passed (not counting the drops).
 */
static int
seeker_loop(struct seeker *s)
{
	const struct seek_job	*job = s->job;
	struct seeker_result	*r = s->res;
	uint64_t		 nchunks = job->size / job->chunk, k;
	uint64_t		 min_ns = (uint64_t)(job->min_seconds * 1e9);
	uint64_t		 c, drop_cpu = 0, cpu_ns;
	off_t			 off;
	size_t			 done;
	int			 was, after;
	bn_time			 last, now;
	struct cpu_stamp	 c0, c1;

	cpu_stamp_thread(&c0);
	seeker_active(s, 1, &r->start, &cpu_ns);
	last = r->start;
	c = seeker_next(s, nchunks, &after, &last, &drop_cpu);
	for (k = 0; k < s->quota || (min_ns > 0 &&
	    time_elapsed_ns(r->start, last) - r->drop_ns - r->fill_ns < min_ns);
	    k++) {
		off = (off_t)(c * job->chunk);
		was = chunk_written(job, c);
		if (xfer_full(XFER_PREAD, s->fd, s->buf, job->chunk, off,
		    &done) != 0)
			return seeker_fail(r, "pread", (int64_t)off);
		if (job->verify != VERIFY_OFF &&
		    seeker_verify(s, s->buf, off, was, &last) == -1)
			return -1;
		if (k % 10 == 9) {
			seeker_fill(s, (uint64_t)off, &last);
			if (xfer_full(XFER_PWRITE, s->fd, s->buf, job->chunk,
			    off, &done) != 0)
				return seeker_fail(r, "pwrite", (int64_t)off);
			chunk_set_written(job, (uint64_t)off / job->chunk);
		}
		now = time_now();
		hist_add(&r->hist, time_elapsed_ns(last, now));
		last = now;
		r->ops = k + 1;
		/*
		 * Untimed: drop the chunk just read when it was written back
		 * (or no map says whether another seek reads it), then draw
		 * the next one, dropped first if a seek may have left it.
		 */
		if (job->drop_each && (k % 10 == 9 || after))
			last = seeker_drop(s, (uint64_t)off, k % 10 == 9,
			    &drop_cpu);
		c = seeker_next(s, nchunks, &after, &last, &drop_cpu);
		if (bn_stop_signal) {
			errno = EINTR;
			return seeker_fail(r, "pread", (int64_t)off);
		}
	}
	seeker_active(s, -1, &r->end, &cpu_ns);
	cpu_stamp_thread(&c1);
	cpu_between(&c0, &c1, &r->cpu);
	seeker_less_cpu(&r->cpu, (double)drop_cpu / 1e9,
	    (double)(time_elapsed_ns(r->start, r->end) - r->drop_ns) / 1e9);
	return 0;
}

/*
 * The queued loop's view of a seeker (job->depth > 1): seeks at random
 * chunks, every tenth a read then a write-back; until the quota, and
 * without -n until min_seconds have passed.
 */
static int
sq_next(void *arg, struct queue_chunk *c)
{
	struct seeker		*s = arg;
	const struct seek_job	*job = s->job;
	uint64_t		 ch;

	if (s->started >= s->quota && (job->min_seconds <= 0 ||
	    time_elapsed(s->res->start, s->now) >= job->min_seconds))
		return 0;
	ch = seek_next_chunk(&s->rng, job->size / job->chunk);
	c->off = ch * job->chunk;
	c->read = 1;
	c->write = s->started % 10 == 9;
	c->flag = chunk_written(job, ch);
	s->started++;
	return 1;
}

static int
sq_got(void *arg, const unsigned char *buf, size_t len,
    const struct queue_chunk *c)
{
	struct seeker	*s = arg;

	(void)len;
	if (s->job->verify == VERIFY_OFF)
		return 0;
	return seeker_verify(s, buf, (off_t)c->off, c->flag, &s->now);
}

static void
sq_fill(void *arg, unsigned char *buf, uint64_t off)
{
	struct seeker	*s = arg;

	(s->job->direct ? pattern_fill_direct : pattern_fill)(s->job->pat,
	    buf, off, PW_SEEK);
}

static void
sq_done(void *arg, const struct queue_chunk *c, bn_time now)
{
	struct seeker	*s = arg;

	s->now = now;
	s->res->ops++;
	if (c->write)
		chunk_set_written(s->job, c->off / s->job->chunk);
}

/* The timed loop at job->depth > 1 (include/queue.h). */
static int
seeker_queue_loop(struct seeker *s)
{
	struct seeker_result	*r = s->res;
	struct queue_loop	 l;
	struct cpu_stamp	 c0, c1;

	memset(&l, 0, sizeof(l));
	l.q = s->q;
	l.depth = s->depth;
	l.chunk = s->job->chunk;
	l.buf = s->qbuf;
	l.hist = &r->hist;
	l.next = sq_next;
	l.got = sq_got;
	l.fill = sq_fill;
	l.done = sq_done;
	l.arg = s;
	l.stop = &bn_stop_signal;
	cpu_stamp_thread(&c0);
	r->start = s->now = time_now();
	if (queue_run(&l) == -1) {
		/* A failed check has said so already. */
		if (r->err_what[0] != '\0')
			return -1;
		errno = l.err_errno;
		return seeker_fail(r, l.err_what, l.err_offset);
	}
	r->end = time_now();
	cpu_stamp_thread(&c1);
	cpu_between(&c0, &c1, &r->cpu);
	ioq_cpu(s->q, &r->cpu);
	return 0;
}

static void
seeker_finish(struct seeker *s)
{
	ioq_close(s->q);
	s->q = NULL;
	queue_buffers_free(s->qbuf, s->job->depth);
	s->qbuf = NULL;
	if (s->fd != -1 && close(s->fd) == -1 && s->res->err_errno == 0)
		seeker_fail(s->res, "close", 0);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
}

/* Format a seeker's failure from its slot: the call, its error, where. */
static int
seeker_error(const struct seek_job *job, int i,
    const struct seeker_result *r, char **cause)
{
	char	at[64] = "";

	if (r->err_errno == EINTR)
		return errorf(cause, "interrupted");
	if (r->err_detail[0] != '\0')
		return errorf(cause, "%s: data check failed %s (seeker %d)",
		    job->path, r->err_detail, i);
	if (r->err_what[0] == '\0')
		return errorf(cause, "%s: seeker %d failed", job->path, i);
	if (r->err_offset >= 0)
		snprintf(at, sizeof(at), "at byte %lld, ",
		    (long long)r->err_offset);
	return errorf(cause, "%s: %s: %s (%sseeker %d)", job->path,
	    r->err_what, strerror(r->err_errno), at, i);
}

/* The first seeker whose slot names a cause, or -1. */
static int
seeker_first_cause(int n, const struct seeker_result *res)
{
	int	i;

	for (i = 0; i < n; i++)
		if ((res[i].err_errno != 0 && res[i].err_errno != EINTR) ||
		    res[i].err_detail[0] != '\0')
			return i;
	return -1;
}

/* Processes. */

static void
child_signals(void)
{
	signals_default();
	platform_die_with_parent();
	/* The run's process, which holds the record, is the last to go. */
	(void)platform_oom_victim_first();
}

/*
 * fork(2) with the terminating signals blocked until the child has put
 * their default actions back: the run's handler, which removes the test
 * file, never runs in a seeker.
 */
static pid_t
fork_seeker(void)
{
	sigset_t	old;
	pid_t		pid;
	int		e;

	signals_block(&old);
	pid = fork();
	e = errno;
	if (pid == 0)
		child_signals();
	signals_restore(&old);
	errno = e;
	return pid;
}

static void
child_main(struct seeker *s, int ready_fd, int go_fd, pid_t parent)
{
	char	c = 'r';
	ssize_t	n;

	if (seeker_prepare(s) == -1)
		_exit(1);
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	close(ready_fd);
	/* The parent closes its end of the go pipe to start everyone. */
	do
		n = read(go_fd, &c, 1);
	while (n == -1 && errno == EINTR);
	close(go_fd);
	if (getppid() != parent)
		_exit(1);
	if ((s->depth > 1 ? seeker_queue_loop(s) : seeker_loop(s)) == -1)
		_exit(1);
	seeker_finish(s);
	s->res->ok = s->res->err_errno == 0;
	_exit(s->res->ok ? 0 : 1);
}

/*
 * waitpid(2) for which; with a progress callback, poll and report the
 * seeks done so far while waiting.  A signal makes it return -1 (EINTR).
 */
static pid_t
wait_seekers(const struct seek_job *job, pid_t which, int *status, int n,
    const struct seeker_result *res)
{
	struct timespec	 tick = { 0, 250000000 };
	uint64_t	 done;
	pid_t		 pid;
	int		 i;

	if (job->progress == NULL)
		return waitpid(which, status, 0);
	while ((pid = waitpid(which, status, WNOHANG)) == 0) {
		for (i = 0, done = 0; i < n; i++)
			done += res[i].ops;
		job->progress(job->progress_arg, done);
		if (nanosleep(&tick, NULL) == -1)
			return -1;
	}
	return pid;
}

/*
 * Reap every child, killing the rest once one fails.  A child that dies
 * of the SIGKILL this process sent (killed set) is not a cause; a cause
 * a seeker wrote in its slot comes before a death.
 */
static int
reap_children(const struct seek_job *job, int n, struct seeker_result *res,
    int killed, const int64_t *oom0, char **cause)
{
	int		 i, status, failed = -1, reaped = 0, sk = -1;
	char		why[128] = "";
	pid_t		pid, skpid = 0;

	while (reaped < n) {
		if (bn_stop_signal && !killed) {
			seekers_kill_all();
			killed = 1;
		}
		pid = wait_seekers(job, -1, &status, n, res);
		if (pid == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n && seeker_pids[i] != pid; i++)
			;
		if (i == n)
			continue;
		seeker_pids[i] = 0;
		reaped++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		if (sk == -1 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL) {
			sk = i;
			skpid = pid;
		}
		if (killed && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL)
			continue;
		if (failed == -1) {
			failed = i;
			if (WIFSIGNALED(status))
				snprintf(why, sizeof(why), "seeker %d (pid %ld) "
				    "killed by signal %d (%s)", i, (long)pid,
				    WTERMSIG(status), strsignal(WTERMSIG(status)));
		}
		if (!killed) {
			seekers_kill_all();
			killed = 1;
		}
	}
	seeker_npids = 0;
	if (bn_stop_signal)
		return errorf(cause, "interrupted");
	if (sk != -1 && platform_oom_since(oom0, why, sizeof(why)))
		return errorf(cause, "%s: seeker %d (pid %ld) was killed by "
		    "the OOM killer (%s)", job->path, sk, (long)skpid, why);
	if ((i = seeker_first_cause(n, res)) != -1)
		return seeker_error(job, i, &res[i], cause);
	if (failed == -1)
		return 0;
	if (why[0] != '\0')
		return errorf(cause, "%s: %s", job->path, why);
	return seeker_error(job, failed, &res[failed], cause);
}

static int
run_processes(const struct seek_job *job, int n, struct seeker_result *res,
    struct seek_share *share, char **cause)
{
	struct seeker	s;
	int		ready[2], go[2], i, got = 0, killed = 0, fork_errno = 0;
	int		rv;
	int64_t		oom0[2];
	pid_t		pid, parent = getpid();
	char		c;
	ssize_t		r;

	platform_oom_kills(&oom0[0], &oom0[1]);
	if (pipe(ready) == -1)
		return errorf(cause, "%s: pipe: %s", job->path,
		    strerror(errno));
	if (pipe(go) == -1) {
		fork_errno = errno;
		close(ready[0]);
		close(ready[1]);
		return errorf(cause, "%s: pipe: %s", job->path,
		    strerror(fork_errno));
	}
	fflush(NULL);
	seeker_npids = 0;
	for (i = 0; i < n; i++) {
		memset(&s, 0, sizeof(s));
		s.job = job;
		s.index = i;
		s.nseekers = n;
		s.res = &res[i];
		s.share = share;
		s.fd = -1;
		if ((pid = fork_seeker()) == -1) {
			fork_errno = errno;
			break;
		}
		if (pid == 0) {
			close(ready[0]);
			close(go[1]);
			child_main(&s, ready[1], go[0], parent);
		}
		seeker_pids[i] = pid;
		seeker_npids = i + 1;
	}
	close(ready[1]);
	close(go[0]);
	/* Every child writes one byte when ready, or dies trying. */
	while (got < seeker_npids && (r = read(ready[0], &c, 1)) != 0) {
		if (r == 1)
			got++;
		else if (errno != EINTR || bn_stop_signal)
			break;
	}
	close(ready[0]);
	if (got < seeker_npids || i < n) {
		seekers_kill_all();
		killed = 1;
	}
	close(go[1]);		/* Go. */
	rv = reap_children(job, seeker_npids, res, killed, oom0, cause);
	if (bn_stop_signal)
		return -1;
	/* The first real cause: fork's own error before what followed. */
	if (i < n)
		return errorf(cause, "%s: fork seeker %d: %s", job->path, i,
		    strerror(fork_errno));
	if (rv == -1)
		return -1;
	if (got < n)
		return errorf(cause, "%s: a seeker failed to start", job->path);
	return 0;
}

/* Threads. */

struct start_gate {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	int		ready;
	int		go;		/* 1 start, -1 abandon. */
};

struct thread_arg {
	struct seeker		 s;
	struct start_gate	*gate;
	pthread_t		 tid;
};

static void *
thread_main(void *arg)
{
	struct thread_arg	*ta = arg;
	struct seeker		*s = &ta->s;
	struct start_gate	*g = ta->gate;
	int			 go, prepared;

	prepared = seeker_prepare(s) == 0;
	pthread_mutex_lock(&g->lock);
	g->ready++;
	pthread_cond_broadcast(&g->cond);
	while (g->go == 0)
		pthread_cond_wait(&g->cond, &g->lock);
	go = g->go;
	pthread_mutex_unlock(&g->lock);
	if (prepared && go == 1 && (s->depth > 1 ?
	    seeker_queue_loop(s) : seeker_loop(s)) == 0)
		s->res->ok = 1;
	seeker_finish(s);
	if (s->res->err_errno != 0)
		s->res->ok = 0;
	return NULL;
}

/* Start the threads together and wait for them; 0 or 1 (exit status). */
static int
thread_body(const struct seek_job *job, int n, struct seeker_result *res,
    struct seek_share *share)
{
	struct start_gate	 gate;
	struct thread_arg	*ta;
	int			 i, started, e, failed = 0;

	memset(&gate, 0, sizeof(gate));
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.cond, NULL);
	if ((ta = calloc((size_t)n, sizeof(*ta))) == NULL) {
		seeker_fail(&res[0], "allocate thread table", -1);
		pthread_cond_destroy(&gate.cond);
		pthread_mutex_destroy(&gate.lock);
		return 1;
	}
	for (started = 0; started < n; started++) {
		ta[started].s.job = job;
		ta[started].s.index = started;
		ta[started].s.nseekers = n;
		ta[started].s.res = &res[started];
		ta[started].s.share = share;
		ta[started].s.fd = -1;
		ta[started].gate = &gate;
		e = pthread_create(&ta[started].tid, NULL, thread_main,
		    &ta[started]);
		if (e != 0) {
			errno = e;
			seeker_fail(&res[started], "create thread", -1);
			failed = 1;
			break;
		}
	}
	pthread_mutex_lock(&gate.lock);
	while (!failed && gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	gate.go = failed ? -1 : 1;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (i = 0; i < started; i++)
		pthread_join(ta[i].tid, NULL);
	pthread_cond_destroy(&gate.cond);
	pthread_mutex_destroy(&gate.lock);
	free(ta);
	for (i = 0; i < n; i++)
		if (!res[i].ok)
			failed = 1;
	return failed;
}

/*
 * Threaded seekers run in a child process of their own, so that this
 * process never starts a thread: once a process has had a thread, stdio
 * locks every putc() and getc(), and the per-char phases of any later run
 * would measure the locks.  Each thread's CPU comes from its own clock.
 */
static int
run_threads(const struct seek_job *job, int n, struct seeker_result *res,
    struct seek_share *share, char **cause)
{
	char	why[128] = "";
	int	i, status, killed = 0;
	pid_t	pid;

	fflush(NULL);
	if ((pid = fork_seeker()) == -1)
		return errorf(cause, "%s: fork seeker threads: %s", job->path,
		    strerror(errno));
	if (pid == 0) {
		_exit(thread_body(job, n, res, share));
	}
	seeker_pids[0] = pid;
	seeker_npids = 1;
	for (;;) {
		/*
		 * Checked first, as reap_children() does: a stop that came
		 * before the pid's store killed no seeker.
		 */
		if (bn_stop_signal && !killed) {
			seekers_kill_all();
			killed = 1;
		}
		if (wait_seekers(job, pid, &status, n, res) != -1)
			break;
		if (errno != EINTR) {
			status = 0;
			break;
		}
	}
	seeker_pids[0] = 0;
	seeker_npids = 0;
	if (bn_stop_signal)
		return errorf(cause, "interrupted");
	if (WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "seeker threads (pid %ld) killed by "
		    "signal %d (%s)", (long)pid, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
		return errorf(cause, "%s: %s", job->path, why);
	}
	if ((i = seeker_first_cause(n, res)) != -1)
		return seeker_error(job, i, &res[i], cause);
	for (i = 0; i < n; i++)
		if (!res[i].ok)
			return seeker_error(job, i, &res[i], cause);
	return 0;
}

/* The common clock in shared memory. */
static struct seek_share *
share_alloc(void)
{
	struct seek_share	*sh;
	void			*p;

	p = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	sh = p;
	atomic_init(&sh->state, SHARE_NEVER << SHARE_COUNT_BITS);
	atomic_init(&sh->idle_ns, 0);
	sh->base = time_now();
	return sh;
}

int
seekers_run(const struct seek_job *job, enum seeker_mode mode, int n,
    struct seeker_result *res, uint64_t *idle_ns, char **cause)
{
	struct seek_share	*sh;
	int			 rv;

	memset(res, 0, sizeof(*res) * (size_t)n);
	*idle_ns = 0;
	if ((sh = share_alloc()) == NULL)
		return errorf(cause, "%s: the seekers' common clock: %s",
		    job->path, strerror(errno));
	if (mode == SEEKERS_THREAD)
		rv = run_threads(job, n, res, sh, cause);
	else
		rv = run_processes(job, n, res, sh, cause);
	*idle_ns = atomic_load(&sh->idle_ns);
	munmap(sh, sizeof(*sh));
	return rv;
}
