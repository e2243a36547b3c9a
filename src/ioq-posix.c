/*
 * The POSIX half of ioq: no queue here (see include/ioq.h); every phase
 * runs one request at a time and the record says why.
 */
#include <stddef.h>

#include "error.h"
#include "ioq.h"

/* No queue, but --iodepth is still a setting of the run: no limit. */
#define POSIX_DEPTH_MAX	32768

int
ioq_max_depth(void)
{
	return POSIX_DEPTH_MAX;
}

struct ioq *
ioq_open(int fd, int depth, char **why)
{
	(void)fd;
	(void)depth;
	errorf(why, "no io_uring on this system: one request at a time");
	return NULL;
}

void
ioq_close(struct ioq *q)
{
	(void)q;
}

void
ioq_prep(struct ioq *q, int tag, int write, void *buf, size_t len, off_t off)
{
	(void)q;
	(void)tag;
	(void)write;
	(void)buf;
	(void)len;
	(void)off;
}

int
ioq_submit(struct ioq *q)
{
	(void)q;
	return 0;
}

int
ioq_reap(struct ioq *q, int *tag, ssize_t *res)
{
	(void)q;
	(void)tag;
	(void)res;
	return 0;
}
