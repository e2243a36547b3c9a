/*
 * One seeker's work, the same in both modes: each seeker measures its own
 * span and reads its own CPU clock around its seeks, so no CPU is counted
 * twice, and keeps the common clock (include/seeker.h) as it starts and
 * stops seeking around each drop.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioq.h"
#include "phase-ctx.h"
#include "platform.h"
#include "queue.h"
#include "seek-cache.h"
#include "seek-draws.h"
#include "seeker.h"

/* A seeker's failure, kept in its result slot. */
int
seeker_fail(struct seeker_result *r, const char *what, int64_t offset)
{
	r->err_errno = errno;
	r->err_offset = offset;
	snprintf(r->err_what, sizeof(r->err_what), "%s", what);
	return -1;
}

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

int
seeker_prepare(struct seeker *s)
{
	const struct seek_job	*job = s->job;
	const char		*call;

	s->depth = 1;
	hist_init(&s->res->hist);
	s->quota = job->seeks / (uint64_t)s->nseekers +
	    ((uint64_t)s->index < job->seeks % (uint64_t)s->nseekers);
	seek_rng(job->seed, s->index, &s->rng);
	if ((s->bufs = io_buffers(1, job->chunk, job->align,
	    job->direct)) == NULL)
		return seeker_fail(s->res, "allocate buffer", -1);
	s->buf = s->bufs[0];
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

int
seeker_work(struct seeker *s)
{
	return s->depth > 1 ? seeker_queue_loop(s) : seeker_loop(s);
}

void
seeker_finish(struct seeker *s)
{
	ioq_close(s->q);
	s->q = NULL;
	queue_buffers_free(s->qbuf, s->job->depth);
	s->qbuf = NULL;
	if (s->fd != -1 && close(s->fd) == -1 && s->res->err_errno == 0)
		seeker_fail(s->res, "close", 0);
	s->fd = -1;
	io_buffers_free(s->bufs, 1);
	s->bufs = NULL;
	s->buf = NULL;
}
