/*
 * Block read: read(2) in chunks to the end of the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "phase.h"
#include "platform.h"

static int
read_setup(struct phase_ctx *ctx)
{
	int	flags = O_RDONLY;

	if (ctx->direct)
		flags |= platform_odirect_flag();
	ctx->fd = phase_open(ctx, flags);
	return ctx->fd == -1 ? -1 : 0;
}

/* The timed loop: one read(2) of a chunk per sample, up to end of file. */
static int
read_loop(struct phase_ctx *ctx, int fd)
{
	uint64_t	got = 0;
	size_t		chunk = ctx->chunk;
	ssize_t		n;
	bn_time		last = time_now();

	for (;;) {
		n = read(fd, ctx->buf, chunk);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR && !bn_stop_signal)
				continue;
			return phase_fail(ctx, "read", (int64_t)got);
		}
		got += (uint64_t)n;
		phase_lap(ctx, &last);
		atomic_store_explicit(&ctx->done, got, memory_order_relaxed);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "read", (int64_t)got);
		}
	}
	if (got != ctx->size) {
		errno = EIO;
		return phase_fail(ctx, "read (file shorter than written)",
		    (int64_t)got);
	}
	ctx->bytes = got;
	return 0;
}

static int
read_run(struct phase_ctx *ctx)
{
	int	fd = ctx->fd;

	if (read_loop(ctx, fd) == -1)
		return -1;
	ctx->fd = -1;
	if (close(fd) == -1)
		return phase_fail(ctx, "close", (int64_t)ctx->size);
	ctx->ops = ctx->hist->count;
	return 0;
}

const struct phase phase_read = {
	.version = PHASE_VERSION,
	.id = PH_READ,
	.name = "read",
	.title = "Reading intelligently",
	.flags = PHASE_READS,
	.setup = read_setup,
	.run = read_run,
};
