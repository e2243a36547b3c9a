/*
 * Per-char write: the file written one byte at a time with putc(3), then
 * fflush, fsync and fclose, all timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "phase-ctx.h"
#include "phase.h"
#include "stdio-file.h"

static int
putc_setup(struct phase_ctx *ctx)
{
	return stdio_file_open(ctx, O_WRONLY | O_TRUNC, "w");
}

/*
 * Where a failed write left the file: stdio writes its buffer at the
 * descriptor's offset, so that is where the error happened, not the byte
 * putc() was handed.  Only read after a failure.
 */
static int64_t
stream_offset(FILE *f, uint64_t fallback)
{
	off_t	off = lseek(fileno(f), 0, SEEK_CUR);

	return off >= 0 ? (int64_t)off : (int64_t)fallback;
}

/* The timed loop: one putc() per byte, a latency sample per chunk. */
static int
putc_loop(struct phase_ctx *ctx, FILE *f)
{
	const unsigned char	*buf = ctx->buf;
	uint64_t		 i, n = ctx->size / ctx->chunk;
	size_t			 j, chunk = ctx->chunk;
	bn_time			 last = time_now();

	for (i = 0; i < n; i++) {
		pattern_fill(ctx->pat, ctx->buf, i * chunk, PW_PUTC);
		for (j = 0; j < chunk; j++)
			if (putc(buf[j], f) == EOF)
				return phase_fail(ctx, "putc",
				    stream_offset(f, i * chunk + j));
		phase_lap(ctx, &last, (i + 1) * chunk);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "putc", (int64_t)(i * chunk));
		}
	}
	return 0;
}

static int
putc_run(struct phase_ctx *ctx)
{
	struct stdio_file	*sf = ctx->priv;
	FILE			*f = sf->f;
	int			 r;

	if (putc_loop(ctx, f) == -1)
		return -1;
	if (fflush(f) == EOF)
		return phase_fail(ctx, "fflush", stream_offset(f, ctx->size));
	if (fsync(fileno(f)) == -1)
		return phase_fail(ctx, "fsync", (int64_t)ctx->size);
	r = stdio_file_close(sf);
	if (r == EOF)
		return phase_fail(ctx, "fclose", (int64_t)ctx->size);
	ctx->bytes = ctx->size;
	ctx->ops = ctx->size;
	return 0;
}

const struct phase phase_putc = {
	.version = PHASE_VERSION,
	.name = "putc",
	.title = "Writing with putc()",
	.words = "per-char write",
	.column = "-Per Char-",
	.bonnie_name = "putc",
	.colour = "#9467bd",
	.flags = PHASE_FILLS | PHASE_WRITES | PHASE_PERCHAR | PHASE_WHOLE,
	.writer = PW_PUTC,
	.setup = putc_setup,
	.run = putc_run,
	.teardown = stdio_file_teardown,
};
