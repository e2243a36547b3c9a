/*
 * A queue of requests in flight: the system's native queue when it has
 * one (io_uring, ioq-linux.c), else POSIX AIO, one aiocb per tag.  The
 * AIO half keeps the tags in flight in a list for aio_suspend(3) and
 * reaps them in the order they were started.
 */
#include <aio.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "ioq.h"

/* When the system names no limit of its own. */
#define AIO_DEPTH_MAX	4096

struct ioq {
	struct ioq_native *native;	/* NULL: POSIX AIO. */
	char		*fallback;	/* Why not native, or NULL. */
	int		 fd;
	int		 depth;
	struct aiocb	*cb;		/* One per tag. */
	char		*queued;	/* Per tag: prepared, not started. */
	char		*busy;		/* Per tag: started, not reaped. */
	const struct aiocb **wait;	/* For aio_suspend(). */
	int		 next;		/* Where reaping looks first. */
};

int
ioq_max_depth(void)
{
	long	n;

	if (ioq_native_max_depth() > 0)
		return ioq_native_max_depth();
	n = sysconf(_SC_AIO_MAX);
	return n > 0 && n < INT_MAX ? (int)n : AIO_DEPTH_MAX;
}

struct ioq *
ioq_open(int fd, int depth, char **cause)
{
	struct ioq	*q;
	char		*why = NULL;

	if ((q = calloc(1, sizeof(*q))) == NULL) {
		errorf(cause, "allocate the queue: %s", strerror(ENOMEM));
		return NULL;
	}
	q->fd = fd;
	q->depth = depth;
	if ((q->native = ioq_native_open(fd, depth, &why)) != NULL)
		return q;
	q->fallback = why;
	q->cb = calloc((size_t)depth, sizeof(*q->cb));
	q->queued = calloc((size_t)depth, 1);
	q->busy = calloc((size_t)depth, 1);
	q->wait = calloc((size_t)depth, sizeof(*q->wait));
	if (q->cb == NULL || q->queued == NULL || q->busy == NULL ||
	    q->wait == NULL) {
		ioq_close(q);
		errorf(cause, "allocate the queue: %s", strerror(ENOMEM));
		return NULL;
	}
	return q;
}

void
ioq_close(struct ioq *q)
{
	int	i;

	if (q == NULL)
		return;
	if (q->native != NULL)
		ioq_native_close(q->native);
	/* Nothing may still be writing into a buffer about to be freed. */
	for (i = 0; q->busy != NULL && i < q->depth; i++)
		if (q->busy[i] && aio_cancel(q->fd, &q->cb[i]) ==
		    AIO_NOTCANCELED) {
			const struct aiocb *one = &q->cb[i];

			while (aio_error(&q->cb[i]) == EINPROGRESS)
				(void)aio_suspend(&one, 1, NULL);
		}
	free(q->fallback);
	free(q->cb);
	free(q->queued);
	free(q->busy);
	free(q->wait);
	free(q);
}

const char *
ioq_engine(const struct ioq *q)
{
	return q->native != NULL ? "io_uring" : "posix-aio";
}

const char *
ioq_fallback(const struct ioq *q)
{
	return q->fallback;
}

void
ioq_prep(struct ioq *q, int tag, int write, void *buf, size_t len, off_t off)
{
	struct aiocb	*cb;

	if (q->native != NULL) {
		ioq_native_prep(q->native, tag, write, buf, len, off);
		return;
	}
	cb = &q->cb[tag];
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = q->fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = len;
	cb->aio_offset = off;
	cb->aio_lio_opcode = write ? LIO_WRITE : LIO_READ;
	q->queued[tag] = 1;
}

/* Has any request in flight completed? */
static int
aio_any_done(struct ioq *q, int *n)
{
	int	i;

	*n = 0;
	for (i = 0; i < q->depth; i++) {
		if (!q->busy[i])
			continue;
		if (aio_error(&q->cb[i]) != EINPROGRESS)
			return 1;
		q->wait[(*n)++] = &q->cb[i];
	}
	return 0;
}

int
ioq_submit(struct ioq *q)
{
	int	i, r, n;

	if (q->native != NULL)
		return ioq_native_submit(q->native);
	for (i = 0; i < q->depth; i++) {
		if (!q->queued[i])
			continue;
		r = q->cb[i].aio_lio_opcode == LIO_WRITE ?
		    aio_write(&q->cb[i]) : aio_read(&q->cb[i]);
		if (r == -1)
			return -1;
		q->queued[i] = 0;
		q->busy[i] = 1;
	}
	if (aio_any_done(q, &n) || n == 0)
		return 0;
	return aio_suspend(q->wait, n, NULL);
}

int
ioq_reap(struct ioq *q, int *tag, ssize_t *res)
{
	int	i, k, e;

	if (q->native != NULL)
		return ioq_native_reap(q->native, tag, res);
	for (k = 0; k < q->depth; k++) {
		i = (q->next + k) % q->depth;
		if (!q->busy[i] || (e = aio_error(&q->cb[i])) == EINPROGRESS)
			continue;
		*res = aio_return(&q->cb[i]);
		if (*res == -1)
			*res = -e;
		*tag = i;
		q->busy[i] = 0;
		q->next = (i + 1) % q->depth;
		return 1;
	}
	return 0;
}
