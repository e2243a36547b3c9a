/*
 * One benchmark phase.  Each src/phase-*.c exports one const struct phase
 * that holds every fact about the phase: its name, words, column, unit,
 * colour and flags as well as its code.  include/phase-list.h lists the
 * phases in the order they run; the phase table, enum phase_id and the
 * result arrays (indexed by phase id) are made from that list, and every
 * output (the JSON record, compare, report, sweep and its plot) walks the
 * table.  Only the two frozen formats, the classic row (report.c) and the
 * bonnie++ CSV (record-csv.c), name phases: the six classic ones, through
 * classic_columns[] in report.h, so they never change when a phase is
 * added.
 *
 * To add a phase:
 *  1. write src/phase-NAME.c with its timed loop in one short function and
 *     a const struct phase at the bottom, filled in completely (name,
 *     title, words, column, unit and cost unit when it counts operations,
 *     colour, flags);
 *  2. add PHASE(ID, NAME, ON) to include/phase-list.h where it should
 *     run, ON 0 if it runs only when asked for;
 *  3. if the phase takes an option of its own (say --syncs), declare its
 *     row in the phase's file only, through the struct's options (see
 *     below): the run and sweep commands parse it, print it in their usage
 *     and help, settings_defaults() sets its default, the record keeps it
 *     under "options" and compare lists it when it differs (settings.h);
 *  4. document it: the man page (-p and the phase), doc/RECORD.md, and
 *     doc/schema.json: its key in "$defs/phases" (each run's phases) and
 *     under "summary", its name in "$defs/phase_name" (the options'
 *     "phases" and the sweep's knees), its option's key under "options",
 *     and, if it leaves a version of the file (writer), that name in
 *     found_writer's and want_writer's lists; and add tests.
 * The core does everything else: it opens the file when the flags say so,
 * reads the clocks around run(), drops the cache when the flags say so,
 * and every output shows the phase.  A phase that is not classic prints
 * its own line under the classic row (its column is the line's name).
 */
#ifndef BONNIE_PHASE_H
#define BONNIE_PHASE_H

#include <signal.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "args.h"
#include "hist.h"
#include "pattern.h"
#include "result.h"
#include "timer.h"

/*
 * Only pointed to here: phase.h does not include options.h, so that the
 * options (their defaults, the -p list) may use the phase table.
 */
struct options;

#define PHASE_VERSION	2

/* Capability flags. */
#define PHASE_WRITES	0x01	/* Writes the file: drop the cache after. */
#define PHASE_READS	0x02	/* Reads the file: drop the cache before. */
#define PHASE_PERCHAR	0x04	/* stdio; stays buffered under --direct. */
#define PHASE_SPAN	0x08	/* Sets its own elapsed span (seekers). */
#define PHASE_WORKERS	0x10	/* Reports its workers' CPU in ctx. */
#define PHASE_OPEN	0x20	/* The core opens ctx->fd (open_flags). */
#define PHASE_FILLS	0x40	/* Writes the whole file from its start:
				   when no such phase runs, the core fills
				   the file before the others. */
#define PHASE_META	0x100	/* Works on its own files (--files), not
				   on the test file. */
#define PHASE_OPS	0x80	/* The rate counts operations per second
				   (unit names them), not KiB/s. */
#define PHASE_WHOLE	0x200	/* Writes every byte of its data once: the
				   test file, or with PHASE_META each file
				   of --files (what a sweep's plan counts). */
#define PHASE_LOOKS	0x400	/* Looks names up and reads inodes (stat,
				   unlink): --cache=global drops every
				   cache before it, as before a reader. */

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
	bn_time		 span_start;	/* PHASE_SPAN: first worker start. */
	bn_time		 span_end;	/* PHASE_SPAN: last worker end. */
	double		 excluded;	/* Seconds inside the span left out
					   of it: keeping reads cold, and
					   filling (below), not timed. */
	double		 filled;	/* Of those, seconds spent filling a
					   ring of buffers ahead (phase_ring). */
	const char	*engine;	/* depth > 1: "io_uring". */
	const char	*fallback;	/* Why not io_uring, or NULL. */
	uint64_t	 repeats;	/* Reads of a chunk read before in
					   this phase (seeks). */

	/* On failure: what failed and where. */
	const char	*err_what;	/* e.g. "write", "fsync" */
	int64_t		 err_offset;
	int		 err_errno;
	char		 err_detail[1024]; /* Optional extra words. */
};

struct phase {
	int		 version;	/* PHASE_VERSION */
	const char	*name;		/* "putc": the command line, the record's
					   key, compare's column names. */
	const char	*title;		/* "Writing with putc()": progress. */
	const char	*words;		/* "per-char write": tables, knees. */
	const char	*column;	/* The classic header's column title
					   ("-Per Char-"), or for a phase not
					   in the classic row the name of its
					   own line ("Sync"). */
	const char	*unit;		/* With PHASE_OPS, what one operation
					   is, plural: "seeks" (seeks/sec);
					   NULL for KiB/s. */
	const char	*cost_unit;	/* With PHASE_OPS, the unit of its CPU
					   cost per thousand: "s/kseek" (the
					   others' is s/GiB). */
	const char	*colour;	/* "#9467bd": its lines in plots. */
	unsigned	 flags;
	enum pattern_writer writer;	/* PHASE_WRITES over the whole file:
					   the version it leaves (pattern.h). */
	int		 open_flags;	/* With PHASE_OPEN, the core opens
					   ctx->fd with these (and O_DIRECT
					   under --direct) before setup. */
	int		(*setup)(struct phase_ctx *);	/* Optional. */
	int		(*run)(struct phase_ctx *);	/* Timed. */
	void		(*teardown)(struct phase_ctx *); /* Optional. */
	/*
	 * Optional: the phase's own option rows (include/args.h), ended by
	 * ARGS_END.  The run and sweep commands take them after their own.
	 * A row is a long ARGS_VALUE option with .set = args_set_count,
	 * .slot = OPTIONS_PHASE_ARG(PH_NAME, the phase's id) (options.h), and .def,
	 * .min and .max; its value is in ctx->opt->phase_arg[id], the
	 * default when not given.  For example, in src/phase-NAME.c:
	 *
	 *	static const struct args_option name_rows[] = {
	 *		{ 0, "things", ARGS_VALUE, "count", args_set_count,
	 *		  OPTIONS_PHASE_ARG(PH_NAME), 1000, 1, 1000000,
	 *		  "at most count things in the NAME phase" },
	 *		ARGS_END
	 *	};
	 *
	 * and .options = name_rows in its struct phase.  options.c fills in
	 * the defaults from the phase table, so a phase reads its options'
	 * fields but calls nothing in options.c (that would be a cycle).
	 */
	const struct args_option *options;
};

#define PHASE(id, sym, on)	extern const struct phase phase_##sym;
#include "phase-list.h"
#undef PHASE

/* The phases in the order they run, indexed by id, NULL-terminated. */
extern const struct phase *const phase_table[PH_COUNT + 1];

/*
 * Check the table once at start: versions, every fact filled in, names
 * and colours unique.  (The order and the length are checked when
 * compiling.)  0 or -1 with the cause.
 */
int	phase_table_check(char **cause);
/* No two phases of the table with one colour (the plot tells them apart). */
int	phase_colours_check(const struct phase *const *, char **cause);
/* The phase with this name, or NULL. */
const struct phase *phase_by_name(const char *);
/* Its id, or -1 for no such phase. */
int	phase_id_by_name(const char *);
/* The phase's name ("putc"); "unknown" out of range. */
const char *phase_id_name(enum phase_id);

/* Units of a phase's rate, as each output spells them. */
enum phase_unit_style {
	UNIT_TABLE,		/* "K/sec", "seeks/sec": sweep tables. */
	UNIT_SHORT,		/* "K/sec", "/sec": compare, report. */
	UNIT_RECORD		/* "KiB/s", "seeks/s": JSON record, plots. */
};
/* The unit in buf, which it returns. */
const char *phase_unit(const struct phase *, enum phase_unit_style,
	    char *buf, size_t len);

/* The mask of the phases with all of these flags. */
unsigned phase_flag_mask(unsigned flags);
/*
 * A comma-separated list of phase names, or "all" (-p, sweep --phases), as
 * a mask of phase ids.  0, or -1 with the reason in *why.
 */
int	phases_parse(const char *, unsigned *mask, char **why);
/* "putc, write, ...": the names of the table's phases, for messages. */
void	phase_names(char *, size_t);
/*
 * Set each phase option of the table's phases to its row's default, in o
 * (a struct options: the rows' slots are byte offsets in it).
 */
void	phase_option_defaults(const struct phase *const *, void *o);

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
/* read(2) or write(2) all of len bytes, failing the phase at offset. */
int	phase_read_full(struct phase_ctx *, int fd, unsigned char *, size_t,
	    int64_t offset);
int	phase_write_full(struct phase_ctx *, int fd, unsigned char *, size_t,
	    int64_t offset);
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
	unsigned char	*buf[PHASE_RING_MAX];
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
unsigned char *phase_ring_take(struct phase_ctx *, struct phase_ring *,
	    bn_time *last);
/*
 * The same for one chunk in place: buf filled with writer w's data for
 * off, the clock stopped as phase_ring_take() stops it (the rewrite's
 * buffer, just read and still in the cache).
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
 * Record the latency since *last, move *last to now, and show progress
 * (done so far) when it is due.
 */
static inline void
phase_lap(struct phase_ctx *ctx, bn_time *last, uint64_t done)
{
	bn_time	now = time_now();

	hist_add(ctx->hist, time_elapsed_ns(*last, now));
	*last = now;
	atomic_store_explicit(ctx->progress, done, memory_order_relaxed);
	if (now.ns >= ctx->tick_due)
		phase_tick(ctx, done, now);
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
