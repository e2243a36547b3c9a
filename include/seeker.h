/*
 * One seeker: what it holds, its preparation (a buffer, its own
 * descriptor, a queue at --iodepth above 1), its seeks (one call at a
 * time, or a queue of them) on the common clock, and its end.  The
 * team around it, forked processes or threads, is seekers.c's.
 */
#ifndef BONNIE_SEEKER_H
#define BONNIE_SEEKER_H

#include <sys/types.h>

#include <stdatomic.h>
#include <stdint.h>

#include "hist.h"
#include "options.h"
#include "pattern.h"
#include "seek-draws.h"
#include "timer.h"

struct ioq;
struct seek_cache;

/* The work, the same for every seeker. */
struct seek_job {
	const char	*path;		/* For messages. */
	int		 dirfd;		/* Reopen by name in this directory. */
	const char	*name;
	dev_t		 dev;
	ino_t		 ino;
	uint64_t	 size;
	size_t		 chunk;
	int		 open_flags;	/* O_RDWR, plus O_DIRECT if asked. */
	int		 direct;	/* O_DIRECT: pattern_fill_direct(). */
	int		 depth;		/* Seeks in flight per seeker (1: one
					   call at a time; include/queue.h). */
	size_t		 align;		/* Buffer alignment. */
	uint64_t	 seeks;		/* Total across seekers. */
	double		 min_seconds;	/* Keep going until this long; 0 no. */
	uint64_t	 seed;
	const struct pattern *pat;	/* What a write-back writes. */
	/*
	 * --verify: each read checked against ok[0..nok), the file's
	 * versions before the seeks and PW_SEEK; once a chunk's bit in
	 * written (shared memory, a bit per chunk) is set, that is, once a
	 * write-back of it has returned, only PW_SEEK.
	 */
	enum verify_mode verify;
	enum pattern_writer ok[5];
	int		 nok;
	atomic_uchar	*written;
	/*
	 * Cold by design (--cache=cold, buffered): read-ahead off, and each
	 * chunk is dropped from the cache (written back first when it was
	 * written) right after its seek, outside the timed span, so that no
	 * read finds it cached; with the seekers' map (include/seek-cache.h),
	 * a chunk read before is dropped just before it is read again, one
	 * written back right after its seek, and one read once not at all.
	 */
	int		 drop_each;
	struct seek_cache *cache;
	/*
	 * Optional: called about four times a second, from the process that
	 * waits for the seekers, with the seeks done so far.
	 */
	void		(*progress)(void *, uint64_t done);
	void		*progress_arg;
};

/*
 * One seeker's outcome.  The array lives in memory shared with forked
 * seekers, so it holds no pointers.
 */
struct seeker_result {
	uint64_t	 ops;		/* Seeks done. */
	bn_time		 start, end;	/* After the common start; at the end. */
	struct cpu_times cpu;		/* The seeker's own CPU from its
					   start to its end, less the drops. */
	uint64_t	 drop_ns;	/* Wall time this seeker spent
					   dropping chunks, inside
					   start..end. */
	uint64_t	 fill_ns;	/* Wall time spent making write-back
					   data, inside start..end (it stays
					   in the span, as its CPU does). */
	int		 ok;		/* Finished its work. */
	int		 err_errno;
	int64_t		 err_offset;
	char		 err_what[32];
	char		 err_detail[256]; /* A failed data check. */
	struct hist	 hist;
	struct pattern_tally tally;	/* --verify: what the checks found. */
	char		 engine[16];	/* depth > 1: the queue's engine, */
	char		 fallback[160];	/* and why not io_uring, or "". */
};

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

/* What a seeker holds between getting ready and starting. */
struct seeker {
	const struct seek_job	*job;
	int			 index;
	int			 nseekers;
	struct seeker_result	*res;
	struct seek_share	*share;
	int			 fd;
	unsigned char		*buf;
	unsigned char		**bufs;		/* buf (io_buffers()). */
	struct rng		 rng;
	uint64_t		 quota;
	/* job->depth > 1: the queue, its buffers, seeks started. */
	struct ioq		*q;
	unsigned char		**qbuf;
	uint64_t		 started;
	bn_time			 now;		/* The queue's last reading. */
	int			 depth;		/* 1, or job->depth with a queue. */
};

/* Record a failure in r (errno, the call, the offset); returns -1. */
int	seeker_fail(struct seeker_result *r, const char *what,
	    int64_t offset);
/* Untimed: the quota, the generator, a buffer, a descriptor, a queue. */
int	seeker_prepare(struct seeker *);
/* The seeks, one at a time or through the queue; 0, or -1 (slot set). */
int	seeker_work(struct seeker *);
/* Close and free what seeker_prepare() made. */
void	seeker_finish(struct seeker *);

#endif
