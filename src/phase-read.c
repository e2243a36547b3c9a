/*
 * Block read: read(2) in chunks to the end of the file (of its first
 * SIZE bytes, on a device named with --device).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "phase-ctx.h"
#include "phase.h"

/*
 * The timed loop: one read(2) of a chunk per sample, up to the size
 * written (an end of file before it is an error); under --verify each
 * read checked.
 */
static int
read_loop(struct phase_ctx *ctx, int fd)
{
	uint64_t	got = 0;
	size_t		chunk = ctx->chunk;
	ssize_t		n;
	bn_time		last = time_now();

	while (got < ctx->size) {
		n = read(fd, ctx->buf, ctx->size - got < chunk ?
		    (size_t)(ctx->size - got) : chunk);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR && !bn_stop_signal)
				continue;
			return phase_fail(ctx, "read", (int64_t)got);
		}
		got += (uint64_t)n;
		phase_lap(ctx, &last, got);
		if (ctx->verify != VERIFY_OFF && phase_verify(ctx, ctx->buf,
		    got - (uint64_t)n, (size_t)n, &last) == -1)
			return -1;
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
	return 0;
}

/* Only at --iodepth above 1: the queue (phase_ring). */
static int
read_setup(struct phase_ctx *ctx)
{
	return ctx->depth > 1 ? phase_ring_setup(ctx, PW_NONE) : 0;
}

static int
read_run(struct phase_ctx *ctx)
{
	if ((ctx->depth > 1 ? phase_queue(ctx, 1, 0) :
	    read_loop(ctx, ctx->fd)) == -1 || phase_finish(ctx, 0) == -1)
		return -1;
	ctx->ops = ctx->hist->count;	/* Reads, short ones included. */
	return 0;
}

const struct phase phase_read = {
	.version = PHASE_VERSION,
	.name = "read",
	.title = "Reading intelligently",
	.words = "block read",
	.column = "--Block---",
	.bonnie_name = "get_block",
	.colour = "#ff7f0e",
	.flags = PHASE_READS | PHASE_OPEN,
	.open_flags = O_RDONLY,
	.setup = read_setup,
	.run = read_run,
	.teardown = phase_ring_teardown,
};
