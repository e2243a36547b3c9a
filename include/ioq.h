/*
 * A queue of requests in flight (--iodepth): up to depth reads and writes
 * of one descriptor at once, each named by a tag from 0 to depth - 1.
 * On Linux io_uring through its raw system calls (ioq-linux.c); POSIX AIO
 * elsewhere, and on Linux when io_uring cannot be set up (ioq.c), with
 * the reason kept for the record.
 */
#ifndef BONNIE_IOQ_H
#define BONNIE_IOQ_H

#include <stddef.h>
#include <sys/types.h>

struct ioq;

/* The system's limit on requests in flight per queue, for --iodepth. */
int	ioq_max_depth(void);

/*
 * A queue for depth requests on fd.  Returns NULL with the cause in
 * *cause when no queue can be made at all.
 */
struct ioq *ioq_open(int fd, int depth, char **cause);
void	ioq_close(struct ioq *);

/* "io_uring" or "posix-aio". */
const char *ioq_engine(const struct ioq *);
/* Why io_uring was not used ("io_uring_setup: ..."), or NULL. */
const char *ioq_fallback(const struct ioq *);

/*
 * Queue a read (write 0) or a write of len bytes at off into or from buf
 * under tag; nothing is started until ioq_submit().
 */
void	ioq_prep(struct ioq *, int tag, int write, void *buf, size_t len,
	    off_t off);
/*
 * Start what was queued, then wait until at least one request has
 * completed when any is in flight.  0, or -1 with errno (EINTR when a
 * signal arrived while waiting: call again).
 */
int	ioq_submit(struct ioq *);
/*
 * One completed request: 1 with its tag and result (bytes moved, or
 * -errno); 0 when none is waiting.
 */
int	ioq_reap(struct ioq *, int *tag, ssize_t *res);

/* The per-system half (ioq-linux.c, ioq-posix.c) for ioq.c. */
struct ioq_native;
struct ioq_native *ioq_native_open(int fd, int depth, char **why);
void	ioq_native_close(struct ioq_native *);
void	ioq_native_prep(struct ioq_native *, int tag, int write, void *buf,
	    size_t len, off_t off);
int	ioq_native_submit(struct ioq_native *);
int	ioq_native_reap(struct ioq_native *, int *tag, ssize_t *res);
int	ioq_native_max_depth(void);

#endif
