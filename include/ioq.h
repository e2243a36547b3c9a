/*
 * A queue of requests in flight (--iodepth): up to depth reads and writes
 * of one descriptor at once, each named by a tag from 0 to depth - 1.
 * On Linux io_uring through its raw system calls (ioq-linux.c); elsewhere
 * depth worker processes doing pread(2) and pwrite(2) (ioq-posix.c).  Not
 * POSIX AIO or a pool of threads: glibc's AIO threads leave its state
 * locked in a forked seeker (its aio_suspend() never returns), and once a
 * process has had a thread stdio locks every putc() and getc() of the
 * per-char phases.  Where there is no queue (a kernel without io_uring, or
 * with kernel.io_uring_disabled set; no process to spare) ioq_open() fails
 * with the reason and the caller runs one request at a time and records
 * why.
 */
#ifndef BONNIE_IOQ_H
#define BONNIE_IOQ_H

#include <stddef.h>
#include <sys/types.h>

#include "timer.h"

struct ioq;

/* The system's limit on requests in flight per queue, for --iodepth. */
int	ioq_max_depth(void);
/* The engine's name for the record ("io_uring"), and its waiting call's. */
const char *ioq_engine(void);
const char *ioq_call(void);

/*
 * A queue for depth requests on fd.  Returns NULL with the reason in
 * *why ("io_uring_setup: Function not implemented") when there is none.
 */
struct ioq *ioq_open(int fd, int depth, char **why);
void	ioq_close(struct ioq *);

/*
 * Queue a read (write 0) or a write of len bytes at off into or from buf
 * under tag; nothing is started until ioq_flush() or ioq_submit().  At
 * most depth requests are queued or in flight at once.
 */
void	ioq_prep(struct ioq *, int tag, int write, void *buf, size_t len,
	    off_t off);
/*
 * Start what was queued, then wait until at least one request has
 * completed when any is in flight (io_uring: both in one call).  0, or -1
 * with errno (EINTR when a signal arrived while waiting: call again).
 */
int	ioq_submit(struct ioq *);
/*
 * Start what was queued without waiting (io_uring: one call, which also
 * posts the completions that are ready).  0, or -1 with errno; what did
 * not go in stays queued for the next ioq_flush() or ioq_submit().
 */
int	ioq_flush(struct ioq *);
/*
 * One completed request: 1 with its tag and result (bytes moved, or
 * -errno); 0 when none is waiting.
 */
int	ioq_reap(struct ioq *, int *tag, ssize_t *res);
/*
 * Would ioq_reap() find a completed request now?  Without a system call;
 * 1 where the engine cannot tell without one (ioq-posix.c).
 */
int	ioq_more(const struct ioq *);
/*
 * After a failure: nothing more is started (what was prepared and not
 * yet sent never goes) and every request in flight is waited for and
 * dropped, so that none still moves data into or out of a buffer once
 * this returns.  Where a wait cannot be had (a portable worker died: its
 * request never ends) the rest is ioq_close()'s, which ends the workers
 * before it returns.  The queue takes no more requests; ioq_close()
 * follows.
 */
void	ioq_drain(struct ioq *);
/*
 * After the last request is reaped: add the CPU of the queue's own
 * processes to *cpu (the worker processes of ioq-posix.c, which end
 * here); the queue takes no more requests, ioq_close() still follows.
 * io_uring's requests are issued by the calling thread, whose CPU its
 * caller reads: nothing.
 */
void	ioq_cpu(struct ioq *, struct cpu_times *cpu);

#endif
