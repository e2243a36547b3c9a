/*
 * The POSIX half of ioq: no native queue here; ioq.c uses POSIX AIO.
 */
#include <errno.h>
#include <stddef.h>

#include "error.h"
#include "ioq.h"

int
ioq_native_max_depth(void)
{
	return 0;
}

struct ioq_native *
ioq_native_open(int fd, int depth, char **why)
{
	(void)fd;
	(void)depth;
	errorf(why, "no native queue on this system");
	return NULL;
}

void
ioq_native_close(struct ioq_native *q)
{
	(void)q;
}

void
ioq_native_prep(struct ioq_native *q, int tag, int write, void *buf,
    size_t len, off_t off)
{
	(void)q;
	(void)tag;
	(void)write;
	(void)buf;
	(void)len;
	(void)off;
}

int
ioq_native_submit(struct ioq_native *q)
{
	(void)q;
	errno = ENOSYS;
	return -1;
}

int
ioq_native_reap(struct ioq_native *q, int *tag, ssize_t *res)
{
	(void)q;
	(void)tag;
	(void)res;
	return 0;
}
