/*
 * Sync: write one chunk, then fdatasync(2), again and again: the commit
 * pattern of databases and journals, whose cost changes in the buffer
 * cache and in journaling often break.  Off unless asked for (-p sync).
 *
 * The chunks go in place over the start of the test file, in order, at
 * most --syncs of them (default 1000, fewer when the file is smaller); the
 * phase goes round them again until it has done --syncs syncs and has run
 * a second, so that fast storage is measured long enough.  A latency
 * sample is one write and its fdatasync; the figure is syncs per second.
 * The data is the version a seeker writes back (it depends on the offset
 * only), which is what the core expects of a writer that does not write
 * the whole file.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "options.h"
#include "phase-ctx.h"
#include "phase.h"

#define SYNC_DEFAULT	1000
#define SYNC_MAX	100000000
#define SYNC_SECONDS	1.0

static const struct args_option sync_rows[] = {
	OPT_COUNT(0, "syncs", "count", OPTIONS_PHASE_ARG(PH_SYNC),
	    SYNC_DEFAULT, 1, SYNC_MAX, "syncs in the sync phase (default 1000)"),
	ARGS_END
};

/* The timed loop: one pwrite(2) and one fdatasync(2) per sample. */
static int
sync_loop(struct phase_ctx *ctx, int fd, uint64_t syncs, uint64_t region)
{
	size_t		chunk = ctx->chunk, done;
	bn_time		start = time_now(), last = start;
	uint64_t	i;
	int64_t		off;

	if (region == 0)
		region = 1;
	for (i = 0; i < syncs || time_elapsed(start, last) < SYNC_SECONDS;
	    i++) {
		off = (int64_t)((i % region) * chunk);
		pattern_fill(ctx->pat, ctx->buf, (uint64_t)off, PW_SEEK);
		if (xfer_full(XFER_PWRITE, fd, ctx->buf, chunk, (off_t)off,
		    &done) != 0)
			return phase_fail(ctx, "write", off + (int64_t)done);
		if (fdatasync(fd) == -1)
			return phase_fail(ctx, "fdatasync", off);
		ctx->ops = i + 1;
		phase_lap(ctx, &last, i + 1);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "sync", off);
		}
	}
	return 0;
}

static int
sync_run(struct phase_ctx *ctx)
{
	uint64_t	syncs = ctx->opt->phase_arg[PH_SYNC];
	uint64_t	region = ctx->size / ctx->chunk;

	if (region > syncs)
		region = syncs;
	ctx->total = syncs;
	if (sync_loop(ctx, ctx->fd, syncs, region) == -1)
		return -1;
	ctx->bytes = ctx->ops * ctx->chunk;
	if (close(ctx->fd) == -1) {
		ctx->fd = -1;
		return phase_fail(ctx, "close", 0);
	}
	ctx->fd = -1;
	return 0;
}

const struct phase phase_sync = {
	.version = PHASE_VERSION,
	.name = "sync",
	.title = "Syncing",
	.words = "sync",
	.column = "Sync",
	.unit = "syncs",
	.cost_unit = "s/ksync",
	.colour = "#e377c2",
	.flags = PHASE_WRITES | PHASE_OPEN | PHASE_OPS,
	.open_flags = O_WRONLY,
	.run = sync_run,
	.options = sync_rows,
};
