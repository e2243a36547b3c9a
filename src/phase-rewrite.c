/*
 * Rewrite: each chunk read, the offset moved back one chunk and the chunk
 * written again as the next generation; then fsync and close, all timed.
 * The new data is made in the buffer just read, off the clock
 * (phase_fill_here); with a queue (--iodepth) in the slot's buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "phase-ctx.h"
#include "phase.h"

/*
 * The timed loop: read (and check under --verify), make the next
 * generation in the same buffer with the clock stopped, seek back, write
 * it; a sample per chunk.
 */
static int
rewrite_loop(struct phase_ctx *ctx, int fd)
{
	uint64_t	i, n = ctx->size / ctx->chunk;
	size_t		chunk = ctx->chunk;
	int64_t		off;
	bn_time		last = time_now();

	for (i = 0; i < n; i++) {
		off = (int64_t)(i * chunk);
		if (phase_read_full(ctx, fd, ctx->buf, chunk, off) == -1)
			return -1;
		if (ctx->verify != VERIFY_OFF && phase_verify(ctx, ctx->buf,
		    (uint64_t)off, chunk, &last) == -1)
			return -1;
		phase_fill_here(ctx, ctx->buf, (uint64_t)off, PW_REWRITE,
		    &last);
		if (lseek(fd, -(off_t)chunk, SEEK_CUR) == -1)
			return phase_fail(ctx, "lseek", off);
		if (phase_write_full(ctx, fd, ctx->buf, chunk, off) == -1)
			return -1;
		phase_lap(ctx, &last, (i + 1) * chunk);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "rewrite", off);
		}
	}
	return 0;
}

/* Only a queue needs buffers of its own. */
static int
rewrite_setup(struct phase_ctx *ctx)
{
	return ctx->depth > 1 ? phase_ring_setup(ctx, PW_REWRITE) : 0;
}

static int
rewrite_run(struct phase_ctx *ctx)
{
	if ((ctx->depth > 1 ? phase_queue(ctx, 1, 1) :
	    rewrite_loop(ctx, ctx->fd)) == -1)
		return -1;
	return phase_finish(ctx, 1);
}

const struct phase phase_rewrite = {
	.version = PHASE_VERSION,
	.name = "rewrite",
	.title = "Rewriting",
	.words = "rewrite",
	.column = "-Rewrite--",
	.colour = "#2ca02c",
	.flags = PHASE_READS | PHASE_WRITES | PHASE_OPEN | PHASE_WHOLE,
	.writer = PW_REWRITE,
	.open_flags = O_RDWR,
	.setup = rewrite_setup,
	.run = rewrite_run,
	.teardown = phase_ring_teardown,
};
