/*
 * A phase at run time: what the core hands it and what it hands back
 * (struct phase_ctx), and the helpers the phases share (phasekit.c: the
 * file reopened, whole transfers, the ring of data made ahead, progress,
 * the data generator), the file creation phases' cleanup and the stop
 * flag.  The contract, struct phase and its table, is in phase.h.
 */
#ifndef BONNIE_PHASE_CTX_H
#define BONNIE_PHASE_CTX_H

#include <signal.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "hist.h"
#include "pattern.h"
#include "timer.h"

struct options;

struct rng {
	uint64_t	s[4];
};

/* What the core hands a phase, and what the phase hands back. */
struct phase_ctx {
	const struct options *opt;
	const char	*path;		/* The test file, for messages. */
	int		 dirfd;		/* Its directory, held open, */
	const char	*name;		/* and its name there: reopen with
					   openat(), so a renamed directory
					   does not matter. */
	dev_t		 file_dev;	/* Its identity, checked on reopen. */
	ino_t		 file_ino;
	int		 in_place;	/* Not the run's (--device: a block
					   device or a file measured in
					   place): never truncated. */
	uint64_t	 size;		/* File size, whole chunks. */
	size_t		 chunk;
	int		 direct;	/* Open with O_DIRECT. */
	int		 sync_writes;	/* --sync-writes: fsync each write. */
	size_t		 align;		/* Buffer alignment for O_DIRECT. */
	int		 cold;		/* --cache=cold, buffered: a phase
					   that reads a chunk more than once
					   keeps each read cold itself. */
	unsigned char	*buf;		/* chunk bytes, aligned. */
	const struct pattern *pat;	/* The data every writer writes. */
	/* What a read must find: any of ok[0..nok) (see pattern.h). */
	enum pattern_writer ok[4];
	int		 nok;
	enum verify_mode verify;	/* Check every byte read. */
	struct pattern_tally *tally;	/* Where the checks count. */
	struct rng	 rng;
	struct hist	*hist;		/* Latency, cleared by the core. */
	void		*priv;		/* Phase state from setup(). */
	int		 fd;		/* The phase's descriptor, or -1; the
					   core closes it if left open. */
	int		 depth;		/* --iodepth for this phase: 1, or
					   requests in flight (phase_queue). */

	/*
	 * Live progress on a terminal, from the phase's own thread so that
	 * the process never starts a thread of its own: a thread would
	 * switch stdio to locking and slow the per-char phases.
	 */
	const char	*title;
	uint64_t	 total;		/* What progress counts up to. */
	uint64_t	 tick_due;	/* Monotonic ns; UINT64_MAX: never. */
	bn_time		 tick_start;	/* When the timed run began. */
	double		 tick_min_s;	/* The phase also runs at least this
					   long (seeks without -n); 0 no. */
	/*
	 * The timeline's view of the work done: phase_lap() stores done
	 * into *progress (always valid); a phase whose work is done by
	 * others (the seekers) points prog_base at prog_n counters of
	 * theirs, prog_stride bytes apart, before its clock starts.
	 */
	_Atomic uint64_t *progress;
	const void	*prog_base;
	size_t		 prog_stride;
	int		 prog_n;

	/* Filled in by the phase. */
	uint64_t	 bytes;
	uint64_t	 ops;
	int		 workers;
	struct cpu_times worker_cpu;	/* PHASE_WORKERS: sum of workers. */
	struct cpu_times queue_cpu;	/* The queue's processes (ioq_cpu()). */
	bn_time		 span_start;	/* PHASE_SPAN: first worker start. */
	bn_time		 span_end;	/* PHASE_SPAN: last worker end. */
	double		 excluded;	/* Seconds inside the span left out
					   of it: keeping reads cold, and
					   filling (below), not timed. */
	double		 filled;	/* Of those, seconds spent filling a
					   ring of buffers ahead (phase_ring). */
	const char	*engine;	/* depth > 1: ioq_engine(). */
	const char	*fallback;	/* Why not io_uring, or NULL. */
	uint64_t	 repeats;	/* Reads of a chunk read before in
					   this phase (seeks). */

	/* On failure: what failed and where. */
	const char	*err_what;	/* e.g. "write", "fsync" */
	int64_t		 err_offset;
	int		 err_errno;
	char		 err_detail[1024]; /* Optional extra words. */
};

/*
 * Helpers shared by the phases, in phasekit.c (below the table and the
 * phases, so nothing calls back up).  Each returns 0, or -1 with errno set
 * and ctx->err_what / err_offset filled in.
 */
int	reopen_same(int dirfd, const char *name, int flags, dev_t, ino_t,
	    int blk_ok, const char **call);
int	phase_open(struct phase_ctx *, int flags);
int	phase_fail(struct phase_ctx *, const char *what, int64_t offset);
/* The calls xfer_full() can make. */
enum xfer { XFER_READ, XFER_WRITE, XFER_PREAD, XFER_PWRITE };

/*
 * Move all len bytes with one kind of call (off is for pread/pwrite),
 * retrying short transfers, and interrupted ones unless a signal asked
 * the run to stop.  Returns 0; -1 with errno; or 1 (errno EIO) at an
 * unexpected end of file.  *done is the bytes moved either way.
 */
int	xfer_full(enum xfer, int fd, unsigned char *, size_t len, off_t off,
	    size_t *done);
/*
 * The rest of phase_read_full() and phase_write_full() after their first
 * call moved n bytes (or failed: n -1, errno set): short transfers
 * finished, interrupted ones retried, failures named (and under
 * --sync-writes each write fsync'ed).
 */
int	phase_read_rest(struct phase_ctx *, int fd, unsigned char *, size_t,
	    int64_t offset, ssize_t n);
int	phase_write_rest(struct phase_ctx *, int fd, unsigned char *, size_t,
	    int64_t offset, ssize_t n);

/*
 * read(2) or write(2) all of len bytes, failing the phase at offset.  The
 * whole transfer at the first call, the usual case, returns here: these
 * run in the timed loops right after the system call, where a call into
 * another file is one more page of code to find again (issue 45).
 */
static inline int
phase_read_full(struct phase_ctx *ctx, int fd, unsigned char *buf,
    size_t len, int64_t offset)
{
	ssize_t	n = read(fd, buf, len);

	if (n == (ssize_t)len)
		return 0;
	return phase_read_rest(ctx, fd, buf, len, offset, n);
}

static inline int
phase_write_full(struct phase_ctx *ctx, int fd, unsigned char *buf,
    size_t len, int64_t offset)
{
	ssize_t	n = write(fd, buf, len);

	if (n == (ssize_t)len && !ctx->sync_writes)
		return 0;
	return phase_write_rest(ctx, fd, buf, len, offset, n);
}
/*
 * End a block phase inside its timed region: fsync(2) if sync, then
 * close(2) ctx->fd; count the whole file as moved in whole chunks.
 */
int	phase_finish(struct phase_ctx *, int sync);
/*
 * Under --verify, check len bytes read into buf from offset off against
 * ctx->ok and count what is wrong in ctx->tally.  The check's time is
 * counted apart and *last (the start of the current latency sample) moved
 * on by as much, so that latencies stay those of the I/O alone; the phase's
 * elapsed time includes the checks.  Returns 0, or -1 with the phase
 * failed under --verify=fatal when a chunk is bad.
 */
int	phase_verify(struct phase_ctx *, const unsigned char *buf, uint64_t off,
	    size_t len, bn_time *last);

/*
 * The data a block phase writes, made ahead of the writes and off the
 * clock: a ring of buffers (PHASE_RING_BYTES in all, at least one chunk)
 * that phase_ring_take() hands out in file order.  When all have been
 * taken it fills the next ones with the clock stopped: the fill's time
 * goes to ctx->excluded and ctx->filled and *last (the start of the
 * current latency sample) moves on by as much, so neither the phase's
 * elapsed time nor a latency holds it; its CPU stays in the phase's CPU.
 * Setup makes the ring (untimed), teardown frees it.
 */
#define PHASE_RING_BYTES	(256 * 1024)
#define PHASE_RING_MAX		64

struct ioq;

struct phase_ring {
	unsigned char	**buf;		/* n of them (io_buffers()). */
	int		 n;		/* Buffers. */
	int		 taken;		/* Handed out since the last fill. */
	uint64_t	 next;		/* File offset of the next one. */
	enum pattern_writer writer;
	/* ctx->depth > 1: the queue and its depth buffers instead. */
	struct ioq	*q;
	unsigned char	**qbuf;
	char		 why[160];	/* Why there is no queue, or "". */
};

/* Make the ring's buffers (ring zeroed by the caller). */
int	phase_ring_init(struct phase_ctx *, struct phase_ring *,
	    enum pattern_writer);
/* Fill the ring's buffers again, with the clock stopped (below). */
void	phase_ring_fill(struct phase_ctx *, struct phase_ring *, bn_time *last);

/* The next buffer, in file order (inline: it runs in the timed loop). */
static inline unsigned char *
phase_ring_take(struct phase_ctx *ctx, struct phase_ring *ring, bn_time *last)
{
	if (ring->taken == ring->n)
		phase_ring_fill(ctx, ring, last);
	return ring->buf[ring->taken++];
}
/*
 * The same for one chunk in place: buf filled with writer w's data for
 * off, the clock stopped as phase_ring_take() stops it (the rewrite's
 * buffer, just read and still in the cache).  *last must be a time just
 * read, the end of a sample (phase_lap_at()'s now): the fill runs from
 * there, and *last moves to its end, with no clock read of its own
 * before it.
 */
void	phase_fill_here(struct phase_ctx *, unsigned char *buf, uint64_t off,
	    enum pattern_writer w, bn_time *last);
void	phase_ring_free(struct phase_ring *);
/*
 * setup and teardown for a phase whose ctx->priv is its ring (with
 * ctx->depth > 1 its queue: opened here, untimed).
 */
int	phase_ring_setup(struct phase_ctx *, enum pattern_writer);
void	phase_ring_teardown(struct phase_ctx *);
/*
 * The timed loop of a sequential block phase at ctx->depth > 1: every
 * chunk of the file in order, read (checked under --verify), written, or
 * read then written, through ctx->priv's queue; one latency sample per
 * chunk (include/queue.h).  0, or -1 with the phase failed.
 */
int	phase_queue(struct phase_ctx *, int read, int write);

/* Show progress: done of ctx->total so far.  Sets the next tick. */
void	phase_tick(struct phase_ctx *, uint64_t done, bn_time now);

/*
 * Record the latency since *last to now (a time just read), move *last
 * to now, and show progress (done so far) when it is due.
 */
static inline void
phase_lap_at(struct phase_ctx *ctx, bn_time *last, bn_time now,
    uint64_t done)
{
	hist_add(ctx->hist, time_elapsed_ns(*last, now));
	*last = now;
	atomic_store_explicit(ctx->progress, done, memory_order_relaxed);
	if (now.ns >= ctx->tick_due)
		phase_tick(ctx, done, now);
}

/* The same, now read here. */
static inline void
phase_lap(struct phase_ctx *ctx, bn_time *last, uint64_t done)
{
	phase_lap_at(ctx, last, time_now(), done);
}
/* Fast pseudo-random numbers (xoshiro256**). */
void	rng_seed(struct rng *, uint64_t seed);
uint64_t rng_next(struct rng *);
void	rng_fill(struct rng *, unsigned char *, size_t);

/*
 * The file creation phases' tree (phase-files.c): files_cleanup() removes
 * it, on every way out of a run, and returns 1 when it had to leave it
 * (said, with its path and why), else 0; files_cleanup_files() only its
 * files.
 */
int	files_cleanup(void);
void	files_cleanup_files(void);
/*
 * The same from a signal handler (async-signal-safe: fstatat, unlinkat,
 * rmdir by the names the phases use), for a second signal, a fault or
 * running out of memory: the process ends next, so nothing is freed.
 */
void	files_cleanup_signal(void);

/* Set when a terminating signal arrived; phases poll it between chunks. */
extern volatile sig_atomic_t bn_stop_signal;

#endif
