/*
 * Random seekers: N workers, forked processes or threads, started
 * together, each reading random chunks of the test file through its own
 * descriptor and writing every tenth one back.
 */
#ifndef BONNIE_SEEKERS_H
#define BONNIE_SEEKERS_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"
#include "options.h"
#include "pattern.h"
#include "timer.h"

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
 * Run n seekers in the given mode and wait for all of them.  res points
 * to n results, in memory from seekers_alloc().  *idle_ns is set to the
 * time between the first seeker's start and the last one's end in which
 * no seeker was seeking (every one was dropping a chunk, had not started
 * or had finished).  Returns 0, or -1 with a message in *cause (a seeker's
 * error, a seeker that died, or EINTR when a signal stopped the phase).
 */
int	seekers_run(const struct seek_job *, enum seeker_mode, int n,
	    struct seeker_result *res, uint64_t *idle_ns, char **cause);

/* Memory for n results, shared with forked children; NULL on failure. */
struct seeker_result *seekers_alloc(int n);
void	seekers_free(struct seeker_result *, int n);

/* A bitmap of n bits, zeroed; NULL on failure. */
unsigned char *seekers_bitmap_alloc(uint64_t n);
void	seekers_bitmap_free(unsigned char *, uint64_t n);

/* Kill every forked seeker now; async-signal-safe. */
void	seekers_kill_all(void);

#endif
