/*
 * Per-char read: the whole file read with getc(3), every byte used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#include "phase-ctx.h"
#include "phase.h"
#include "stdio-file.h"

/* Where the bytes read go, so that the loop cannot be optimized away. */
volatile unsigned getc_sink;

static int
getc_setup(struct phase_ctx *ctx)
{
	return stdio_file_open(ctx, O_RDONLY, "r");
}

/* getc() gave EOF at byte off: an error, or the file ended early. */
static int
getc_failed(struct phase_ctx *ctx, FILE *f, uint64_t off)
{
	int	err = ferror(f);

	if (!err)
		errno = EIO;
	return phase_fail(ctx, err ? "getc" : "getc (unexpected end of file)",
	    (int64_t)off);
}

/* The timed loop: one getc() per byte, a latency sample per chunk. */
static int
getc_loop(struct phase_ctx *ctx, FILE *f)
{
	uint64_t	i, n = ctx->size / ctx->chunk;
	size_t		j, chunk = ctx->chunk;
	unsigned	sum = 0;
	int		c;
	bn_time		last = time_now();

	for (i = 0; i < n; i++) {
		for (j = 0; j < chunk; j++) {
			if ((c = getc(f)) == EOF)
				return getc_failed(ctx, f, i * chunk + j);
			sum += (unsigned)c;
		}
		phase_lap(ctx, &last, (i + 1) * chunk);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "getc", (int64_t)(i * chunk));
		}
	}
	getc_sink = sum;
	return 0;
}

/*
 * The same under --verify: every byte kept, and each chunk's worth
 * checked as one buffer.
 */
static int
getc_verify_loop(struct phase_ctx *ctx, FILE *f)
{
	uint64_t	i, n = ctx->size / ctx->chunk;
	size_t		j, chunk = ctx->chunk;
	unsigned char	*buf = ctx->buf;
	int		c;
	bn_time		last = time_now();

	for (i = 0; i < n; i++) {
		for (j = 0; j < chunk; j++) {
			if ((c = getc(f)) == EOF)
				return getc_failed(ctx, f, i * chunk + j);
			buf[j] = (unsigned char)c;
		}
		phase_lap(ctx, &last, (i + 1) * chunk);
		if (phase_verify(ctx, buf, i * chunk, chunk, &last) == -1)
			return -1;
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "getc", (int64_t)(i * chunk));
		}
	}
	return 0;
}

static int
getc_run(struct phase_ctx *ctx)
{
	struct stdio_file	*sf = ctx->priv;
	FILE			*f = sf->f;

	if ((ctx->verify != VERIFY_OFF ? getc_verify_loop(ctx, f) :
	    getc_loop(ctx, f)) == -1)
		return -1;
	if (stdio_file_close(sf) == EOF)
		return phase_fail(ctx, "fclose", (int64_t)ctx->size);
	ctx->bytes = ctx->size;
	ctx->ops = ctx->size;
	return 0;
}

const struct phase phase_getc = {
	.version = PHASE_VERSION,
	.name = "getc",
	.title = "Reading with getc()",
	.words = "per-char read",
	.column = "-Per Char-",
	.bonnie_name = "getc",
	.colour = "#8c564b",
	.flags = PHASE_READS | PHASE_PERCHAR,
	.setup = getc_setup,
	.run = getc_run,
	.teardown = stdio_file_teardown,
};
