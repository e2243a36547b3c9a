/*
 * The timed loop of a phase run with --iodepth above 1: up to depth chunks
 * in flight through one ioq, each chunk a read, a write, or a read then a
 * write of the same offset (rewrite, a seeker's write-back).  One latency
 * sample per chunk, from the submission of its first request to the
 * completion of its last.  Each request goes to the kernel in a call of
 * its own as soon as its slot is free (fio's iodepth_batch_submit=1); the
 * clock is read after each such call and after each wait, and that
 * reading is the completion time of what the call posted and the
 * submission time of the next request (so a sample includes its
 * submitting call).
 */
#ifndef BONNIE_QUEUE_H
#define BONNIE_QUEUE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "ioq.h"
#include "timer.h"

/* One chunk's work. */
struct queue_chunk {
	uint64_t	 off;
	int		 read;		/* Read it first. */
	int		 write;		/* Then (or only) write it. */
	int		 flag;		/* The caller's, kept with the chunk. */
};

struct queue_loop {
	struct ioq	*q;
	int		 depth;
	size_t		 chunk;
	unsigned char	**buf;		/* depth buffers of chunk bytes. */
	struct hist	*hist;
	/* The next chunk to start: 1, or 0 when there is no more. */
	int		(*next)(void *, struct queue_chunk *);
	/* A read came back (len bytes): check it; 0, or -1 to stop. */
	int		(*got)(void *, const unsigned char *, size_t len,
			    const struct queue_chunk *);
	/* Put the data of a write in the buffer. */
	void		(*fill)(void *, unsigned char *, uint64_t off);
	/* A chunk is done, at now. */
	void		(*done)(void *, const struct queue_chunk *,
			    bn_time now);
	void		*arg;
	/* Set when a signal asks the run to stop (bn_stop_signal). */
	volatile sig_atomic_t *stop;

	/* Filled in. */
	uint64_t	 chunks;	/* Done. */
	const char	*err_what;	/* On failure: "read", "write" ... */
	int64_t		 err_offset;
	int		 err_errno;
};

/*
 * Run the loop until next() has no more and all are done.  0, or -1 with
 * err_* filled in (errno EINTR when a signal asked the run to stop; the
 * errno of got() when it failed; the engine's call, ioq_call(), when a
 * submission failed), once no request is in flight any more (ioq_drain()
 * after a failed submission), so the buffers may go.
 */
int	queue_run(struct queue_loop *);

/*
 * depth buffers of chunk bytes aligned to align (at least a page; a huge
 * page when they fill half of one or more), zeroed, in one mapping that a
 * fork does not copy (platform_queue_map()); NULL on failure.
 */
unsigned char **queue_buffers(int depth, size_t chunk, size_t align);
void	queue_buffers_free(unsigned char **, int depth);
/*
 * n buffers for one request at a time (the run's, the write ring's, a
 * seeker's): for direct I/O queue_buffers()' (the device takes the pages
 * as they lie: a chunk of a MiB in one request), so that no process
 * forked after them may use them; for buffered I/O, which the kernel
 * copies, from the heap (aligned to align, not zeroed).  NULL on failure.
 */
unsigned char **io_buffers(int n, size_t chunk, size_t align, int direct);
void	io_buffers_free(unsigned char **, int n);

#endif
