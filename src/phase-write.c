/*
 * Block write: the file opened and emptied (untimed), then written with
 * write(2) in chunks, fsync'ed and closed, all timed; the data is made
 * ahead, off the clock (phase_ring).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "phase-ctx.h"
#include "phase.h"

/* The timed loop: one write(2) of a chunk per latency sample. */
static int
write_loop(struct phase_ctx *ctx, int fd)
{
	uint64_t	i, n = ctx->size / ctx->chunk;
	size_t		chunk = ctx->chunk;
	unsigned char	*buf;
	bn_time		last = time_now();

	for (i = 0; i < n; i++) {
		buf = phase_ring_take(ctx, ctx->priv, &last);
		if (phase_write_full(ctx, fd, buf, chunk,
		    (int64_t)(i * chunk)) == -1)
			return -1;
		phase_lap(ctx, &last, (i + 1) * chunk);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "write", (int64_t)(i * chunk));
		}
	}
	return 0;
}

static int
write_setup(struct phase_ctx *ctx)
{
	return phase_ring_setup(ctx, PW_WRITE);
}

static int
write_run(struct phase_ctx *ctx)
{
	if ((ctx->depth > 1 ? phase_queue(ctx, 0, 1) :
	    write_loop(ctx, ctx->fd)) == -1)
		return -1;
	return phase_finish(ctx, 1);
}

const struct phase phase_write = {
	.version = PHASE_VERSION,
	.name = "write",
	.title = "Writing intelligently",
	.words = "block write",
	.column = "--Block---",
	.bonnie_name = "put_block",
	.colour = "#1f77b4",
	.flags = PHASE_FILLS | PHASE_WRITES | PHASE_OPEN | PHASE_WHOLE,
	.writer = PW_WRITE,
	.open_flags = O_WRONLY | O_TRUNC,
	.setup = write_setup,
	.run = write_run,
	.teardown = phase_ring_teardown,
};
