/*
 * Random seeks: the seekers run at once; the phase's span runs from the
 * first seeker's start to the last one's end, and its CPU is the sum of
 * the seekers' own CPU outside their drops.  In cold mode each seeker
 * drops every chunk right after its seek (writing it back first when it
 * wrote it, as the drop after a writing phase does), so that a chunk read
 * again comes from the device; the time in which every seeker was
 * dropping is left out of the span, so the phase's seconds are those in
 * which some seeker was seeking, the seconds its CPU was spent in.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "options.h"
#include "phase-ctx.h"
#include "phase.h"
#include "platform.h"
#include "seek-cache.h"
#include "seek-draws.h"
#include "seekers.h"

struct seeks_state {
	struct seeker_result	*res;
	int			 n;
	unsigned char		*seen;		/* A bit per chunk read. */
	uint64_t		 nchunks;
	uint64_t		 idle_ns;	/* No seeker seeking. */
	char			*cause;
	atomic_uchar		*written;	/* --verify: a bit per chunk. */
	size_t			 written_len;
	struct seek_cache	*cache;		/* Cold: what may be cached. */
};

/*
 * What cold seeks may leave cached (the chunks read once): a sixteenth of
 * the memory available, and of the cgroup's room, at most 128 MiB, so
 * that it never makes the kernel reclaim during the phase.
 */
#define KEEP_MAX	(128ull << 20)
static uint64_t
seeks_keep_max(void)
{
	uint64_t	max = KEEP_MAX, b;

	if (platform_mem_available(&b) == 0 && b / 16 < max)
		max = b / 16;
	if (platform_cgroup_mem_room(&b) == 0 && b / 16 < max)
		max = b / 16;
	return max;
}

static int
seeks_setup(struct phase_ctx *ctx)
{
	struct seeks_state	*st;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return phase_fail(ctx, "allocate seeker state", -1);
	st->n = ctx->opt->seekers;
	if ((st->res = seekers_alloc(st->n)) == NULL) {
		free(st);
		return phase_fail(ctx, "allocate seeker results", -1);
	}
	st->nchunks = ctx->size / ctx->chunk;
	if ((st->seen = seekers_bitmap_alloc(st->nchunks)) == NULL) {
		seekers_free(st->res, st->n);
		free(st);
		return phase_fail(ctx, "allocate seeker bitmap", 0);
	}
	ctx->priv = st;
	ctx->total = ctx->opt->seeks;
	/* The timeline counts the seekers' own seeks. */
	ctx->prog_base = &st->res[0].ops;
	ctx->prog_stride = sizeof(st->res[0]);
	ctx->prog_n = st->n;
	if (ctx->verify != VERIFY_OFF) {
		void	*p;

		/* Shared with forked seekers; pages are touched lazily. */
		st->written_len = (size_t)((ctx->size / ctx->chunk + 7) / 8);
		p = mmap(NULL, st->written_len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANON, -1, 0);
		if (p == MAP_FAILED)
			return phase_fail(ctx, "allocate the write-back map",
			    0);
		st->written = p;
	}
	return 0;
}

/* Sum the seekers' outcomes into the phase. */
static void
seeks_collect(struct phase_ctx *ctx, const struct seeks_state *st,
    const struct seek_job *job)
{
	int		i;

	ctx->span_start = st->res[0].start;
	ctx->span_end = st->res[0].end;
	for (i = 0; i < st->n; i++) {
		const struct seeker_result *r = &st->res[i];

		if (time_elapsed(r->start, ctx->span_start) > 0)
			ctx->span_start = r->start;
		if (time_elapsed(ctx->span_end, r->end) > 0)
			ctx->span_end = r->end;
		ctx->ops += r->ops;
		pattern_tally_merge(ctx->tally, &r->tally);
		cpu_add(&ctx->worker_cpu, &r->cpu);
		hist_merge(ctx->hist, &r->hist);
	}
	ctx->repeats = seek_repeats(job->seed, job->size / job->chunk, st->n,
	    &st->res[0].ops, sizeof(st->res[0]), st->seen);
	ctx->bytes = ctx->ops * ctx->chunk;
	ctx->workers = st->n;
	/*
	 * The span less the time in which every seeker was dropping: the
	 * seconds in which the seeks and their CPU happened.  Less a seeker's
	 * own drops would leave out time in which others were seeking.
	 */
	ctx->excluded = (double)st->idle_ns / 1e9;
	if (st->res[0].engine[0] != '\0')
		ctx->engine = st->res[0].engine;
	if (st->res[0].fallback[0] != '\0') {
		ctx->fallback = st->res[0].fallback;
		ctx->depth = 1;
	}
}

/* Progress on a terminal: the seeks done of those asked for. */
static void
seeks_progress(void *arg, uint64_t done)
{
	struct phase_ctx	*ctx = arg;

	phase_tick(ctx, done, time_now());
}

static int
seeks_run(struct phase_ctx *ctx)
{
	struct seeks_state	*st = ctx->priv;
	struct seek_job		 job;
	int			 k, r;

	memset(&job, 0, sizeof(job));
	job.path = ctx->path;
	job.dirfd = ctx->dirfd;
	job.name = ctx->name;
	job.dev = ctx->file_dev;
	job.ino = ctx->file_ino;
	job.size = ctx->size;
	job.chunk = ctx->chunk;
	job.open_flags = O_RDWR | (ctx->direct ? platform_odirect_flag() : 0);
	job.direct = ctx->direct;
	job.align = ctx->align;
	job.seeks = ctx->opt->seeks;
	job.min_seconds = ctx->opt->seeks_given ? 0 : 1.0;
	job.seed = ctx->opt->seed;
	job.drop_each = ctx->cold;
	/* Each chunk's drop is untimed: that needs one seek at a time. */
	job.depth = job.drop_each ? 1 : ctx->depth;
	ctx->depth = job.depth;
	job.pat = ctx->pat;
	job.verify = ctx->verify;
	for (k = 0; k < ctx->nok; k++)
		job.ok[job.nok++] = ctx->ok[k];
	if (job.nok == 0 || job.ok[job.nok - 1] != PW_SEEK)
		job.ok[job.nok++] = PW_SEEK;
	job.written = st->written;
	/* Without the map each seek drops its chunk after it, as before. */
	if (job.drop_each && st->cache == NULL) {
		long	page = sysconf(_SC_PAGESIZE);

		st->cache = seek_cache_new(job.size, job.chunk,
		    page > 0 ? (uint64_t)page : 0, seeks_keep_max());
	}
	job.cache = job.drop_each ? st->cache : NULL;
	ctx->tick_min_s = job.min_seconds;
	if (ctx->tick_due != UINT64_MAX) {
		job.progress = seeks_progress;
		job.progress_arg = ctx;
	}
	r = seekers_run(&job, ctx->opt->seeker_mode, st->n, st->res,
	    &st->idle_ns, &st->cause);
	if (r == -1) {
		int		i, e = 0;
		int64_t		off = -1;

		for (i = 0; i < st->n && e == 0; i++)
			if (st->res[i].err_errno != 0) {
				e = st->res[i].err_errno;
				off = st->res[i].err_offset;
			}
		if (bn_stop_signal)
			e = EINTR;
		snprintf(ctx->err_detail, sizeof(ctx->err_detail), "%s",
		    st->cause);
		errno = e;
		return phase_fail(ctx, "seeks", off);
	}
	seeks_collect(ctx, st, &job);
	return 0;
}

static void
seeks_teardown(struct phase_ctx *ctx)
{
	struct seeks_state	*st = ctx->priv;

	if (st == NULL)
		return;
	seekers_free(st->res, st->n);
	seekers_bitmap_free(st->seen, st->nchunks);
	seek_cache_free(st->cache);
	if (st->written != NULL)
		munmap(st->written, st->written_len);
	free(st->cause);
	free(st);
	ctx->priv = NULL;
}

const struct phase phase_seeks = {
	.version = PHASE_VERSION,
	.name = "seeks",
	.title = "Seeking",
	.words = "seeks",
	.column = "--Seeks---",
	.bonnie_name = "seeks",
	.unit = "seeks",
	.cost_unit = "s/kseek",
	.colour = "#d62728",
	.flags = PHASE_READS | PHASE_WRITES | PHASE_SPAN | PHASE_WORKERS |
	    PHASE_OPS,
	.setup = seeks_setup,
	.run = seeks_run,
	.teardown = seeks_teardown,
};
