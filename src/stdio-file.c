/*
 * The stdio stream the per-char phases use: the test file reopened, with
 * a stdio buffer of one chunk so that each buffer's worth of putc() or
 * getc() is one chunk and one latency sample.  The phase's thread owns the
 * stream from open to close, so that no putc() or getc() takes a lock even
 * when the process has other threads (MPI's): the per-char rate measures
 * the library call, not a lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "error.h"
#include "platform.h"
#include "stdio-file.h"

int
stdio_file_open(struct phase_ctx *ctx, int flags, const char *mode)
{
	struct stdio_file	*sf;
	int			 fd;

	if ((fd = phase_open(ctx, flags)) == -1)
		return -1;
	if ((sf = calloc(1, sizeof(*sf))) == NULL ||
	    (sf->iobuf = malloc(ctx->chunk)) == NULL) {
		phase_fail(ctx, "allocate the stdio buffer", -1);
		free(sf);
		close(fd);
		return -1;
	}
	if ((sf->f = fdopen(fd, mode)) == NULL) {
		phase_fail(ctx, "fdopen", -1);
		close(fd);
		free(sf->iobuf);
		free(sf);
		return -1;
	}
	if (setvbuf(sf->f, (char *)sf->iobuf, _IOFBF, ctx->chunk) != 0) {
		phase_fail(ctx, "setvbuf", -1);
		fclose(sf->f);
		free(sf->iobuf);
		free(sf);
		return -1;
	}
	sf->owned = platform_stdio_own(sf->f);
	ctx->priv = sf;
	return 0;
}

int
stdio_file_close(struct stdio_file *sf)
{
	FILE	*f = sf->f;

	sf->f = NULL;
	platform_stdio_release(f, sf->owned);
	return fclose(f);
}

void
stdio_file_teardown(struct phase_ctx *ctx)
{
	struct stdio_file	*sf = ctx->priv;

	if (sf == NULL)
		return;
	if (sf->f != NULL)
		(void)stdio_file_close(sf);
	free(sf->iobuf);
	free(sf);
	ctx->priv = NULL;
}
