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

/* Back over the chunk at off, just read and made anew, and write it. */
static int
write_back(struct phase_ctx *ctx, int fd, int64_t off)
{
	if (lseek(fd, -(off_t)ctx->chunk, SEEK_CUR) == -1)
		return phase_fail(ctx, "lseek", off);
	return phase_write_full(ctx, fd, ctx->buf, ctx->chunk, off);
}

/*
 * The timed loop: read (and check under --verify), stop the clock and
 * make the next generation in the same buffer, seek back, write it.  The
 * clock is read twice a chunk, where the fill starts and where it ends,
 * so a sample holds a chunk's write and the next chunk's read: the
 * samples run from one fill to the next, the first chunk's read and the
 * last chunk's write making one.  A sample a chunk, each one read and
 * one write, as the system calls go: read, lseek, write.
 */
static int
rewrite_loop(struct phase_ctx *ctx, int fd)
{
	uint64_t	i, n = ctx->size / ctx->chunk, first = 0;
	size_t		chunk = ctx->chunk;
	int64_t		off;
	bn_time		last = time_now(), now;

	for (i = 0; i < n; i++) {
		off = (int64_t)(i * chunk);
		if (i > 0 && write_back(ctx, fd, off - (int64_t)chunk) == -1)
			return -1;
		if (phase_read_full(ctx, fd, ctx->buf, chunk, off) == -1)
			return -1;
		if (ctx->verify != VERIFY_OFF && phase_verify(ctx, ctx->buf,
		    (uint64_t)off, chunk, &last) == -1)
			return -1;
		now = time_now();
		if (i == 0) {
			first = time_elapsed_ns(last, now);
			last = now;
		} else
			phase_lap_at(ctx, &last, now, i * chunk);
		phase_fill_here(ctx, ctx->buf, (uint64_t)off, PW_REWRITE,
		    &last);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "rewrite", off);
		}
	}
	if (n == 0)
		return 0;
	if (write_back(ctx, fd, (int64_t)((n - 1) * chunk)) == -1)
		return -1;
	/* The last write's sample takes the first read's time with it. */
	last.ns -= first;
	phase_lap(ctx, &last, n * chunk);
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
	.bonnie_name = "rewrite",
	.colour = "#2ca02c",
	.flags = PHASE_READS | PHASE_WRITES | PHASE_OPEN | PHASE_WHOLE,
	.writer = PW_REWRITE,
	.open_flags = O_RDWR,
	.setup = rewrite_setup,
	.run = rewrite_run,
	.teardown = phase_ring_teardown,
};
