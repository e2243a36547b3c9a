/*
 * What the phases share: opening the test file safely, whole transfers,
 * progress, the data check, the random numbers and the stop flag.  Declared in phase.h;
 * nothing here calls the table or a phase, so the table (phase.c) and the
 * phases (phase-*.c) both call down into it.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "ioq.h"
#include "options.h"
#include "phase-ctx.h"
#include "queue.h"

volatile sig_atomic_t bn_stop_signal;

void
phase_tick(struct phase_ctx *ctx, uint64_t done, bn_time now)
{
	double	f;

	if (ctx->total == 0)
		return;
	f = (double)done / (double)ctx->total;
	/* Seeks go on past their count until a second has passed. */
	if (ctx->tick_min_s > 0 &&
	    time_elapsed(ctx->tick_start, now) / ctx->tick_min_s < f)
		f = time_elapsed(ctx->tick_start, now) / ctx->tick_min_s;
	/* 100% is shown once, as "done" when the phase ends. */
	if (f > 0.99)
		f = 0.99;
	fprintf(stderr, "\r%s...%3d%%", ctx->title, (int)(100 * f));
	fflush(stderr);
	ctx->tick_due = now.ns + 250000000u;
}

int
phase_verify(struct phase_ctx *ctx, const unsigned char *buf, uint64_t off,
    size_t len, bn_time *last)
{
	struct pattern_bad	bad[4];
	bn_time			t0 = time_now(), t1;
	uint64_t		ns;
	int			n;

	n = pattern_check(ctx->pat, buf, off, len, ctx->ok, ctx->nok, bad, 4);
	if (n > 0)
		pattern_tally_add(ctx->tally, bad, 4, n);
	ctx->tally->checked += len;
	t1 = time_now();
	ns = time_elapsed_ns(t0, t1);
	ctx->tally->ns += ns;
	last->ns += ns;
	if (n > 0 && ctx->verify == VERIFY_FATAL) {
		char	what[256];

		pattern_describe(&bad[0], what, sizeof(what));
		snprintf(ctx->err_detail, sizeof(ctx->err_detail),
		    "%.700s: data check failed %s", ctx->path, what);
		errno = EIO;
		return phase_fail(ctx, "data check", (int64_t)bad[0].off);
	}
	return 0;
}

int
phase_fail(struct phase_ctx *ctx, const char *what, int64_t offset)
{
	ctx->err_errno = errno;
	ctx->err_what = what;
	ctx->err_offset = offset;
	return -1;
}

/*
 * Open the test file again by name and make sure it is still the file
 * (dev, ino) of the kind the run made: O_NOFOLLOW stops a symlink, the
 * identity check a hard link to another file, and O_NONBLOCK a FIFO or a
 * device put in its place, which would otherwise block the open forever.
 * O_TRUNC is never given to open(2): it would cut whatever the name leads
 * to before the check; the checked descriptor is truncated instead.
 * Returns the descriptor, or -1 with errno set and *call naming the step.
 */
int
reopen_same(int dirfd, const char *name, int flags, dev_t dev, ino_t ino,
    int blk_ok, const char **call)
{
	struct stat	st;
	int		fd, fl, e;

	*call = "open";
	fd = openat(dirfd, name, (flags & ~O_TRUNC) | O_NONBLOCK | O_NOCTTY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1) {
		/* A FIFO with no reader refuses a non-blocking writer. */
		if (errno == ENXIO)
			errno = ESTALE, *call = "open (the file was replaced)";
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		*call = "fstat";
		goto fail;
	}
	if (st.st_dev != dev || st.st_ino != ino ||
	    !(S_ISREG(st.st_mode) || (blk_ok && S_ISBLK(st.st_mode)))) {
		*call = "open (the file was replaced)";
		errno = ESTALE;
		goto fail;
	}
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
		*call = "fcntl";
		goto fail;
	}
	if ((flags & O_TRUNC) && S_ISREG(st.st_mode) && ftruncate(fd, 0) == -1) {
		*call = "ftruncate";
		goto fail;
	}
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * Open the test file for a phase (reopen_same()).  A target the run did
 * not make (--device) is never truncated.
 */
int
phase_open(struct phase_ctx *ctx, int flags)
{
	const char	*call;
	int		 fd;

	if (ctx->in_place)
		flags &= ~O_TRUNC;
	fd = reopen_same(ctx->dirfd, ctx->name, flags, ctx->file_dev,
	    ctx->file_ino, ctx->in_place, &call);
	if (fd == -1)
		return phase_fail(ctx, call, 0);
	return fd;
}

int
xfer_full(enum xfer op, int fd, unsigned char *buf, size_t len, off_t off,
    size_t *done)
{
	ssize_t	n;

	for (*done = 0; *done < len; ) {
		switch (op) {
		case XFER_READ:
			n = read(fd, buf + *done, len - *done);
			break;
		case XFER_WRITE:
			n = write(fd, buf + *done, len - *done);
			break;
		case XFER_PREAD:
			n = pread(fd, buf + *done, len - *done,
			    off + (off_t)*done);
			break;
		default:
			n = pwrite(fd, buf + *done, len - *done,
			    off + (off_t)*done);
			break;
		}
		if (n > 0)
			*done += (size_t)n;
		else if (n == 0) {
			errno = EIO;
			return 1;
		} else if (errno != EINTR || bn_stop_signal)
			return -1;
	}
	return 0;
}

/*
 * After a first call that moved n bytes (or -1): the rest as xfer_full()
 * moves it.  Returns what xfer_full() returns, *done counting the first
 * call's bytes too.
 */
static int
xfer_rest(enum xfer op, int fd, unsigned char *buf, size_t len, ssize_t n,
    size_t *done)
{
	size_t	more;
	int	r;

	*done = 0;
	if (n == 0) {
		errno = EIO;
		return 1;
	}
	if (n < 0) {
		if (errno != EINTR || bn_stop_signal)
			return -1;
		n = 0;
	}
	*done = (size_t)n;
	r = xfer_full(op, fd, buf + n, len - (size_t)n, 0, &more);
	*done += more;
	return r;
}

int
phase_read_rest(struct phase_ctx *ctx, int fd, unsigned char *buf,
    size_t len, int64_t offset, ssize_t n)
{
	size_t	done;
	int	r;

	if ((r = xfer_rest(XFER_READ, fd, buf, len, n, &done)) == 0)
		return 0;
	return phase_fail(ctx, r > 0 ? "read (unexpected end of file)" :
	    "read", offset + (int64_t)done);
}

int
phase_ring_init(struct phase_ctx *ctx, struct phase_ring *ring,
    enum pattern_writer w)
{
	int	n;

	n = (int)(PHASE_RING_BYTES / ctx->chunk);
	if (n < 1)
		n = 1;
	if (n > PHASE_RING_MAX)
		n = PHASE_RING_MAX;
	ring->writer = w;
	if ((ring->buf = io_buffers(n, ctx->chunk, ctx->align,
	    ctx->direct)) == NULL)
		return phase_fail(ctx, "allocate buffers", -1);
	ring->n = ring->taken = n;
	return 0;
}

void
phase_ring_free(struct phase_ring *ring)
{
	io_buffers_free(ring->buf, ring->n);
	ring->buf = NULL;
	ring->n = 0;
}

/* One chunk's data for writer w at off, as --direct wants it or not. */
static void
fill_one(const struct phase_ctx *ctx, unsigned char *buf, uint64_t off,
    enum pattern_writer w)
{
	if (ctx->direct)
		pattern_fill_direct(ctx->pat, buf, off, w);
	else
		pattern_fill(ctx->pat, buf, off, w);
}

/* The clock was stopped at t0 to fill: leave the time since out. */
static void
fill_untimed(struct phase_ctx *ctx, bn_time t0, bn_time *last)
{
	uint64_t	ns = time_elapsed_ns(t0, time_now());

	ctx->excluded += (double)ns / 1e9;
	ctx->filled += (double)ns / 1e9;
	last->ns += ns;
}

void
phase_ring_fill(struct phase_ctx *ctx, struct phase_ring *ring, bn_time *last)
{
	bn_time	t0 = time_now();
	int	i;

	for (i = 0; i < ring->n && ring->next < ctx->size; i++) {
		fill_one(ctx, ring->buf[i], ring->next, ring->writer);
		ring->next += ctx->chunk;
	}
	ring->taken = 0;
	fill_untimed(ctx, t0, last);
}

void
phase_fill_here(struct phase_ctx *ctx, unsigned char *buf, uint64_t off,
    enum pattern_writer w, bn_time *last)
{
	fill_one(ctx, buf, off, w);
	fill_untimed(ctx, *last, last);
}

int
phase_ring_setup(struct phase_ctx *ctx, enum pattern_writer w)
{
	struct phase_ring	*ring;
	char			*cause = NULL;

	if ((ring = calloc(1, sizeof(*ring))) == NULL)
		return phase_fail(ctx, "allocate buffers", -1);
	ctx->priv = ring;
	ring->writer = w;
	if (ctx->depth <= 1)
		return phase_ring_init(ctx, ring, w);
	if ((ring->qbuf = queue_buffers(ctx->depth, ctx->chunk,
	    ctx->align)) == NULL) {
		errno = ENOMEM;
		return phase_fail(ctx, "allocate buffers", -1);
	}
	/* No queue: one request at a time, and the record says why. */
	if ((ring->q = ioq_open(ctx->fd, ctx->depth, &cause)) == NULL) {
		snprintf(ring->why, sizeof(ring->why), "%s",
		    cause != NULL ? cause : "no queue");
		free(cause);
		ctx->fallback = ring->why;
		queue_buffers_free(ring->qbuf, ctx->depth);
		ring->qbuf = NULL;
		ctx->depth = 1;
		return phase_ring_init(ctx, ring, w);
	}
	ctx->engine = ioq_engine();
	return 0;
}

void
phase_ring_teardown(struct phase_ctx *ctx)
{
	struct phase_ring	*ring = ctx->priv;

	if (ring == NULL)
		return;
	ioq_close(ring->q);
	queue_buffers_free(ring->qbuf, ctx->depth);
	phase_ring_free(ring);
	free(ring);
	ctx->priv = NULL;
}

/* The queued loop's view of a sequential phase. */
struct seq {
	struct phase_ctx	*ctx;
	uint64_t		 next;
	uint64_t		 done;		/* Bytes of the chunks done. */
	int			 read, write;
};

static int
seq_next(void *arg, struct queue_chunk *c)
{
	struct seq	*s = arg;

	if (s->next >= s->ctx->size)
		return 0;
	c->off = s->next;
	c->read = s->read;
	c->write = s->write;
	s->next += s->ctx->chunk;
	return 1;
}

static int
seq_got(void *arg, const unsigned char *buf, size_t len,
    const struct queue_chunk *c)
{
	struct seq	*s = arg;
	bn_time		 unused = { 0 };	/* The queue keeps its own
						   samples' starts. */

	if (s->ctx->verify == VERIFY_OFF)
		return 0;
	return phase_verify(s->ctx, buf, c->off, len, &unused);
}

static void
seq_fill(void *arg, unsigned char *buf, uint64_t off)
{
	struct seq		*s = arg;
	struct phase_ring	*ring = s->ctx->priv;

	fill_one(s->ctx, buf, off, ring->writer);
}

/* Chunks finish out of order: progress counts the bytes done. */
static void
seq_done(void *arg, const struct queue_chunk *c, bn_time now)
{
	struct seq	*s = arg;

	(void)c;
	s->done += s->ctx->chunk;
	atomic_store_explicit(s->ctx->progress, s->done, memory_order_relaxed);
	if (now.ns >= s->ctx->tick_due)
		phase_tick(s->ctx, s->done, now);
}

int
phase_queue(struct phase_ctx *ctx, int read, int write)
{
	struct phase_ring	*ring = ctx->priv;
	struct seq		 s;
	struct queue_loop	 l;
	int			 rv;

	memset(&s, 0, sizeof(s));
	s.ctx = ctx;
	s.read = read;
	s.write = write;
	memset(&l, 0, sizeof(l));
	l.q = ring->q;
	l.depth = ctx->depth;
	l.chunk = ctx->chunk;
	l.buf = ring->qbuf;
	l.hist = ctx->hist;
	l.next = seq_next;
	l.got = seq_got;
	l.fill = seq_fill;
	l.done = seq_done;
	l.arg = &s;
	l.stop = &bn_stop_signal;
	rv = queue_run(&l);
	ioq_cpu(ring->q, &ctx->queue_cpu);
	if (rv == 0)
		return 0;
	/* A failed check has already failed the phase with its words. */
	if (ctx->err_what != NULL && strcmp(l.err_what, "data check") == 0)
		return -1;
	errno = l.err_errno;
	return phase_fail(ctx, l.err_what, l.err_offset);
}

int
phase_write_rest(struct phase_ctx *ctx, int fd, unsigned char *buf,
    size_t len, int64_t offset, ssize_t n)
{
	size_t	done;

	if (n != (ssize_t)len &&
	    xfer_rest(XFER_WRITE, fd, buf, len, n, &done) != 0)
		return phase_fail(ctx, "write", offset + (int64_t)done);
	/* --sync-writes (bonnie++ -b): each write on stable storage. */
	if (ctx->sync_writes && fsync(fd) == -1)
		return phase_fail(ctx, "fsync", offset + (int64_t)len);
	return 0;
}

int
phase_finish(struct phase_ctx *ctx, int sync)
{
	int	fd = ctx->fd;

	ctx->fd = -1;
	if (sync && fsync(fd) == -1) {
		phase_fail(ctx, "fsync", (int64_t)ctx->size);
		close(fd);
		return -1;
	}
	if (close(fd) == -1)
		return phase_fail(ctx, "close", (int64_t)ctx->size);
	ctx->bytes = ctx->size;
	ctx->ops = ctx->size / ctx->chunk;
	return 0;
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t	z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

void
rng_seed(struct rng *r, uint64_t seed)
{
	int	i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

/* xoshiro256** (Blackman and Vigna, public domain algorithm). */
uint64_t
rng_next(struct rng *r)
{
	uint64_t	*s = r->s, result, t;

	result = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

void
rng_fill(struct rng *r, unsigned char *buf, size_t len)
{
	uint64_t	v;
	size_t		i;

	for (i = 0; i + 8 <= len; i += 8) {
		v = rng_next(r);
		memcpy(buf + i, &v, 8);
	}
	if (i < len) {
		v = rng_next(r);
		memcpy(buf + i, &v, len - i);
	}
}
