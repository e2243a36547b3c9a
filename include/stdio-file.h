/*
 * The stdio stream shared by the per-char phases.
 */
#ifndef BONNIE_STDIO_FILE_H
#define BONNIE_STDIO_FILE_H

#include <stdio.h>

#include "phase-ctx.h"

struct stdio_file {
	FILE		*f;
	unsigned char	*iobuf;		/* One chunk, the stdio buffer. */
	int		 owned;		/* platform_stdio_own()'s. */
};

/* Open the test file as a stream in ctx->priv.  0 or -1. */
int	stdio_file_open(struct phase_ctx *, int flags, const char *mode);
/* Give the stream up and fclose(3) it; sf->f is NULL after.  fclose's. */
int	stdio_file_close(struct stdio_file *);
/* Close the stream if the phase left it open, and free it. */
void	stdio_file_teardown(struct phase_ctx *);

#endif
