/*
 * Block write: the file emptied (untimed), then written with write(2) in
 * chunks, fsync'ed and closed, all timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "phase.h"
#include "platform.h"

static int
write_setup(struct phase_ctx *ctx)
{
	int	flags = O_WRONLY | O_TRUNC;

	if (ctx->direct)
		flags |= platform_odirect_flag();
	ctx->fd = phase_open(ctx, flags);
	return ctx->fd == -1 ? -1 : 0;
}

/* The timed loop: one write(2) of a chunk per latency sample. */
static int
write_loop(struct phase_ctx *ctx, int fd)
{
	uint64_t	i, n = ctx->size / ctx->chunk;
	size_t		chunk = ctx->chunk;
	bn_time		last = time_now();

	for (i = 0; i < n; i++) {
		phase_dirty(ctx->buf, chunk, i);
		if (phase_write_full(ctx, fd, ctx->buf, chunk,
		    (int64_t)(i * chunk)) == -1)
			return -1;
		phase_lap(ctx, &last);
		atomic_store_explicit(&ctx->done, (i + 1) * chunk,
		    memory_order_relaxed);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "write", (int64_t)(i * chunk));
		}
	}
	return 0;
}

static int
write_run(struct phase_ctx *ctx)
{
	int	fd = ctx->fd;

	if (write_loop(ctx, fd) == -1)
		return -1;
	ctx->fd = -1;
	if (phase_sync_close(ctx, fd) == -1)
		return -1;
	ctx->bytes = ctx->size;
	ctx->ops = ctx->size / ctx->chunk;
	return 0;
}

const struct phase phase_write = {
	.version = PHASE_VERSION,
	.id = PH_WRITE,
	.name = "write",
	.title = "Writing intelligently",
	.flags = PHASE_WRITES,
	.setup = write_setup,
	.run = write_run,
};
