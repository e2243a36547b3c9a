/*
 * The core: the phases in order on one test file, the same clocks around
 * every phase.  The file's life is in run-file.c, the cache drops in
 * run-cache.c, the accounting in run-account.c, and what a run needs
 * before it starts in run-plan.c (runner.h joins them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "kstat.h"
#include "options.h"
#include "phase-ctx.h"
#include "phase.h"
#include "platform.h"
#include "queue.h"
#include "run.h"
#include "runner.h"
#include "signals.h"
#include "target.h"
#include "timeline.h"
#include "timer.h"

static int	progress_level = 1;
static void	(*phase_done_fn)(void *, enum phase_id);
static void	*phase_done_arg;

void
run_set_progress(int level)
{
	progress_level = level;
}

void
run_set_phase_done(void (*fn)(void *, enum phase_id), void *arg)
{
	phase_done_fn = fn;
	phase_done_arg = arg;
}

void
run_phase_done(enum phase_id id)
{
	if (phase_done_fn != NULL)
		phase_done_fn(phase_done_arg, id);
}

/*
 * Progress: "Title..." when a phase starts and "done" when it ends; on a
 * terminal the phase itself updates a percentage in between (phase_tick).
 */
static void
progress_start(const char *title)
{
	if (progress_level == 0)
		return;
	fprintf(stderr, "%s...", title);
	fflush(stderr);
}

static void
progress_end(const char *title, int ok)
{
	if (progress_level == 0)
		return;
	if (progress_level == 2)
		fprintf(stderr, "\r%s...", title);
	/* A signal stopped the phase: nothing failed. */
	fprintf(stderr, "%s\n", ok ? "done" : bn_stop_signal ? "interrupted" :
	    "failed");
	fflush(stderr);
}

/*
 * Fill the file, untimed, when no writing phase runs before a reading
 * one (for -p read,seeks and sweeps).
 */
static int
prefill(struct runner *r)
{
	uint64_t	i, n = r->opt->size / r->opt->chunk;
	size_t		done;

	for (i = 0; i < n; i++) {
		/* A stop signal ends the fill too (it once wrote on to the end). */
		if (bn_stop_signal)
			return run_fail(r, "setup", "write",
			    (int64_t)(i * r->opt->chunk), EINTR, NULL);
		pattern_fill(&r->pat, r->buf, i * r->opt->chunk, PW_FILL);
		if (xfer_full(XFER_WRITE, r->fd, r->buf, r->opt->chunk, 0,
		    &done) != 0)
			return run_fail(r, "setup", "write",
			    (int64_t)(i * r->opt->chunk + done), errno, NULL);
	}
	if (fsync(r->fd) == -1)
		return run_fail(r, "setup", "fsync", (int64_t)r->opt->size,
		    errno, NULL);
	r->ok[0] = PW_FILL;
	r->nok = 1;
	return 0;
}

/*
 * After a writing phase: a whole-file writer leaves its version; the
 * seekers leave some chunks as they were and some written back.
 */
static void
file_written(struct runner *r, const struct phase *p)
{
	int	i;

	if (p->writer != PW_NONE) {
		r->ok[0] = p->writer;
		r->nok = 1;
		return;
	}
	for (i = 0; i < r->nok; i++)
		if (r->ok[i] == PW_SEEK)
			return;
	if (r->nok < (int)(sizeof(r->ok) / sizeof(r->ok[0])))
		r->ok[r->nok++] = PW_SEEK;
}

/* The readings around one phase's timed call. */
struct clocks {
	struct machine_sample	 m0, m1;
	struct kstat_proc	 kp0;
	struct cpu_stamp	 c0, c1;
	bn_time			 t0, t1;
};

/* A phase's context and its result's first state, before any file I/O. */
static void
phase_begin(struct runner *r, const struct phase *p, struct phase_result *ph,
    struct phase_ctx *ctx)
{
	const struct options	*opt = r->opt;
	int			 direct;

	memset(ph, 0, sizeof(*ph));
	file_phase(p->name);
	ph->skew = -1;
	/* Direct I/O is for the test file: the file phases never use it. */
	direct = opt->direct && !(p->flags & (PHASE_PERCHAR | PHASE_META));
	memset(ctx, 0, sizeof(*ctx));
	ctx->opt = opt;
	file_where(&ctx->path, &ctx->dirfd, &ctx->name);
	ctx->file_dev = r->dev;
	ctx->file_ino = r->ino;
	ctx->in_place = r->target != NULL;
	ctx->size = opt->size;
	ctx->chunk = opt->chunk;
	ctx->direct = direct;
	ctx->sync_writes = opt->sync_writes;
	ctx->align = r->align;
	/*
	 * On a memory file system nothing can be dropped: the seekers' drop
	 * after each seek would only cost (Linux's fadvise, failing to free
	 * a page, then drains every CPU's page lists, each time), and the
	 * phase is marked warm anyway.
	 */
	ctx->cold = opt->cache != CACHE_MODE_KEEP && !direct &&
	    r->memfs == NULL;
	ctx->buf = r->buf;
	ctx->pat = &r->pat;
	memcpy(ctx->ok, r->ok, sizeof(ctx->ok));
	ctx->nok = r->nok;
	ctx->verify = (p->flags & PHASE_READS) ? opt->verify : VERIFY_OFF;
	ctx->tally = &ph->verify;
	ph->verified = ctx->verify != VERIFY_OFF;
	ctx->hist = r->hist;
	ctx->fd = -1;
	/* A queue for the block phases' direct or device I/O only. */
	ctx->depth = (direct || ctx->in_place) &&
	    !(p->flags & (PHASE_PERCHAR | PHASE_META)) ? (int)opt->iodepth : 1;
	ctx->total = opt->size;
	ctx->title = p->title;
	ctx->tick_due = UINT64_MAX;
	ctx->progress = r->tl != NULL ? timeline_counter(r->tl, 0) :
	    r->hooks != NULL && r->hooks->progress != NULL ?
	    r->hooks->progress : &r->progress;
	hist_init(r->hist);

	ph->direct = direct;
	ph->resident = -1;
	ph->backing_resident = -1;
	ph->hit_fraction = -1;
	ph->cache = first_state(opt, p, direct);
}

/* Open the file, set the phase up and put the cache in its state. */
static int
phase_prepare(struct runner *r, const struct phase *p, struct phase_result *ph,
    struct phase_ctx *ctx)
{
	const struct options	*opt = r->opt;

	if ((p->flags & PHASE_OPEN) && (ctx->fd = phase_open(ctx,
	    p->open_flags | (ctx->direct ? platform_odirect_flag() : 0))) == -1)
		return run_fail(r, p->name, ctx->err_what, ctx->err_offset,
		    ctx->err_errno, ctx->err_detail);
	if (p->setup != NULL && p->setup(ctx) == -1)
		return run_fail(r, p->name, ctx->err_what, ctx->err_offset,
		    ctx->err_errno, ctx->err_detail);
	if (opt->cache == CACHE_MODE_GLOBAL &&
	    (p->flags & (PHASE_READS | PHASE_LOOKS)) &&
	    drop_all(r, p, ph) == -1)
		return -1;
	/*
	 * A write over data the target holds reads any page it changes in
	 * part that is not cached: it is as cold as a reading phase.
	 */
	if (opt->cache != CACHE_MODE_KEEP && ((p->flags & PHASE_READS) ||
	    (ctx->in_place && (p->flags & PHASE_WRITES)))) {
		if (drop_cache(r, p, ph) == -1)
			return -1;
		if (ctx->direct)
			ph->cache = CSTATE_DIRECT;
	} else if ((p->flags & PHASE_META) || r->fd == -1 ||
	    platform_residency(r->fd, opt->size, &ph->resident) == -1)
		ph->resident = -1;
	return 0;
}

/*
 * The timed call: the same clocks and counters around every phase's run,
 * read in the same order, and nothing else between them.
 */
static int
phase_timed(struct runner *r, enum phase_id id, struct phase_ctx *ctx,
    struct clocks *k)
{
	const struct phase	*p = phase_table[id];
	int			 rv;

	progress_start(p->title);
	kstat_proc_begin(&k->kp0);
	if (r->tl != NULL)
		timeline_start(r->tl, kstat_run_device(r->ks), ctx->prog_base,
		    ctx->prog_stride, ctx->prog_n);
	if (r->ks != NULL)
		kstat_begin(r->ks);
	machine_sample(r, &k->m0);
	cpu_stamp_thread(&k->c0);
	k->t0 = time_now();
	if (progress_level == 2)
		ctx->tick_due = k->t0.ns + 250000000u;
	ctx->tick_start = k->t0;
	rv = p->run(ctx);
	k->t1 = time_now();
	cpu_stamp_thread(&k->c1);
	machine_sample(r, &k->m1);
	/*
	 * Before the sampler is reaped: its switches and faults are not
	 * the run's.
	 */
	kstat_proc_end(&k->kp0, &r->res->ph[id].kp);
	if (r->ks != NULL) {
		struct kstat_timeline	*tl;

		kstat_end(r->ks, time_elapsed(k->t0, k->t1), &r->res->ks[id]);
		/* Stopped first: timeline_why() tells how it ended. */
		tl = timeline_stop(r->tl);
		kstat_attach_timeline(&r->res->ks[id], tl,
		    timeline_why(r->tl));
	}
	progress_end(p->title, rv == 0);
	return rv;
}

/* A phase's figures from the readings, and its span for the team. */
static void
phase_figures(struct runner *r, enum phase_id id, struct phase_ctx *ctx,
    const struct clocks *k, struct run_phase_report *rep)
{
	const struct phase	*p = phase_table[id];
	struct phase_result	*ph = &r->res->ph[id];
	struct cpu_times	 cpu;
	double			 elapsed;

	/*
	 * A phase with workers is their CPU over their span; the main
	 * thread only starts and reaps them, outside that span.
	 */
	if (p->flags & PHASE_WORKERS)
		cpu = ctx->worker_cpu;
	else {
		cpu_between(&k->c0, &k->c1, &cpu);
		cpu_add(&cpu, &ctx->queue_cpu);
	}
	elapsed = (p->flags & PHASE_SPAN) ?
	    time_elapsed(ctx->span_start, ctx->span_end) :
	    time_elapsed(k->t0, k->t1);
	elapsed -= ctx->excluded;
	ph->drop_seconds += ctx->excluded - ctx->filled;
	ph->fill_seconds = ctx->filled;
	ph->depth = ctx->depth;
	snprintf(ph->engine, sizeof(ph->engine), "%s",
	    ctx->engine != NULL ? ctx->engine : "");
	snprintf(ph->fallback, sizeof(ph->fallback), "%s",
	    ctx->fallback != NULL ? ctx->fallback : "");
	machine_delta(&k->m0, &k->m1, ph);
	phase_account(r, p, ctx, elapsed, &cpu, ph);
	if (r->ks != NULL)
		run_kstat_notes(r->opt, id, ph, &r->res->ks[id]);
	/* The worker's span for the team, less the time left out of it. */
	rep->start = (p->flags & PHASE_SPAN) ? ctx->span_start : k->t0;
	rep->end = (p->flags & PHASE_SPAN) ? ctx->span_end : k->t1;
	rep->end.ns -= (uint64_t)(ctx->excluded * 1e9);
	if (ph->verify.chunks > 0) {
		show_bad(r, p, &ph->verify);
		r->res->bad_chunks += ph->verify.chunks;
	}
	if (p->flags & PHASE_WRITES)
		file_written(r, p);
}

/*
 * On every way out of a phase: its teardown, the file closed, the pages
 * it wrote dropped (outside its clocks), and a team told how it ended.
 */
static int
phase_end(struct runner *r, enum phase_id id, struct phase_ctx *ctx, int rv,
    int armed, struct run_phase_report *rep)
{
	const struct phase	*p = phase_table[id];
	struct phase_result	*ph = &r->res->ph[id];
	bn_time			 d0;

	if (p->teardown != NULL)
		p->teardown(ctx);
	if (ctx->fd != -1)
		close(ctx->fd);
	if (rv == 0 && r->opt->cache != CACHE_MODE_KEEP &&
	    (p->flags & PHASE_WRITES)) {
		d0 = time_now();
		if (platform_drop_cache(r->fd) == -1 && errno != ENOSYS &&
		    errno != EINVAL)
			rv = run_fail(r, p->name, "drop cache", -1, errno,
			    NULL);
		ph->drop_seconds += time_elapsed(d0, time_now());
	}
	if (armed) {
		/* A failed phase's end: when it failed, for the team's blame. */
		if (rv != 0 && rep->end.ns == 0)
			rep->end = time_now();
		rep->ok = rv == 0;
		rep->ph = ph;
		rep->hist = r->hist;
		rep->err = &r->res->err;
		if (r->hooks->done(r->hooks->arg, id, rep) == -1 && rv == 0)
			rv = run_fail(r, p->name, "stop with the other workers",
			    -1, EINTR, NULL);
	}
	if (rv == -1)
		ph->ran = 0;
	return rv;
}

/*
 * Run one phase: its context, the file and the cache made ready, a
 * team's workers waiting for each other, the timed call, the figures,
 * and its end on every way out.
 */
static int
run_phase(struct runner *r, enum phase_id id)
{
	const struct phase	*p = phase_table[id];
	struct phase_ctx	 ctx;
	struct clocks		 k;
	struct run_phase_report	 rep;
	int			 rv, armed = 0;

	if (bn_stop_signal)
		return run_fail(r, p->name, "start", -1, EINTR, NULL);
	memset(&rep, 0, sizeof(rep));
	phase_begin(r, p, &r->res->ph[id], &ctx);
	if ((rv = phase_prepare(r, p, &r->res->ph[id], &ctx)) == -1)
		goto out;
	/* A team's worker waits here for the others. */
	if (r->hooks != NULL) {
		if (r->hooks->ready(r->hooks->arg, id) == -1) {
			rv = run_fail(r, p->name, "wait for the other workers",
			    -1, EINTR, NULL);
			goto out;
		}
		armed = 1;
	}
	if ((rv = phase_timed(r, id, &ctx, &k)) == -1) {
		rv = run_fail(r, p->name, ctx.err_what, ctx.err_offset,
		    ctx.err_errno, ctx.err_detail);
		goto out;
	}
	phase_figures(r, id, &ctx, &k, &rep);
out:
	return phase_end(r, id, &ctx, rv, armed, &rep);
}

int
run_once(const struct options *opt, struct run_result *res)
{
	return run_worker(opt, res, NULL);
}

int
run_worker(const struct options *opt, struct run_result *res,
    const struct run_hooks *hooks)
{
	struct runner	 r;
	const unsigned	 meta = phase_flag_mask(PHASE_META);
	size_t		 mem_align, io_align;
	sigset_t	 old;
	int		 i, rv = 0, e;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	file_begin();
	res->seed = opt->seed;
	utc_now(res->start_utc, sizeof(res->start_utc));
	for (i = 0; i < PH_COUNT; i++) {
		res->ph[i].resident = -1;
		res->ph[i].skew = -1;
		res->ph[i].hit_fraction = -1;
		res->ph[i].backing_resident = -1;
	}
	r.opt = opt;
	r.hooks = hooks;
	r.res = res;
	r.fd = -1;
	if (opt->device != NULL && (r.target = target_held()) == NULL)
		return run_fail(&r, "setup", "open", -1, ENODEV,
		    "setup: --device: the target was not claimed");
	/* The cores this process may run on, for the CPU check. */
	if ((r.ncpu = platform_ncpu()) < 1)
		r.ncpu = 1;
	if ((e = platform_cpus_allowed()) >= 1 && e < r.ncpu)
		r.ncpu = e;
	/* Page-aligned buffers satisfy O_DIRECT unless it asks for more. */
	r.align = 4096;
	if (opt->direct && platform_direct_align(r.target != NULL ?
	    r.target->path : opt->dir, &mem_align, &io_align) == 0) {
		if (mem_align > r.align)
			r.align = mem_align;
		if (io_align > r.align)
			r.align = io_align;
	}
	if ((r.bufs = io_buffers(1, opt->chunk, r.align, opt->direct)) == NULL)
		return run_fail(&r, "setup", "allocate buffer", -1, errno,
		    NULL);
	r.buf = r.bufs[0];
	if ((r.hist = malloc(sizeof(*r.hist))) == NULL) {
		rv = run_fail(&r, "setup", "allocate the histogram", -1,
		    errno, NULL);
		goto done;
	}
	pattern_init(&r.pat, opt->seed, opt->chunk, opt->size);

	/* Only the file creation phases: no test file. */
	if ((opt->phases & ~meta) == 0)
		goto phases;
	if ((r.target != NULL ? open_target(&r) : create_file(&r)) == -1) {
		rv = -1;
		goto done;
	}
	target_memory(&r);
	drop_target(&r);
	if (opt->direct && (rv = file_check_direct(&r)) == -1)
		goto done;
	if (run_prefills(opt->phases) && (rv = prefill(&r)) == -1)
		goto done;
phases:
	if (hooks == NULL)
		kstat_open(&r);
	for (i = 0; i < PH_COUNT; i++) {
		if (!(opt->phases & (1u << i)))
			continue;
		if ((rv = run_phase(&r, (enum phase_id)i)) == -1)
			break;
		/* Alone (a team's leader says it for the team). */
		if (hooks == NULL)
			run_phase_done((enum phase_id)i);
	}
done:
	/* A second signal waits for the cleanup, then ends the process. */
	signals_block(&old);
	/* A tree left behind is a file left: exit 1 (said with its path). */
	if (files_cleanup())
		res->file_left++;
	remove_file(&r);
	signals_restore(&old);
	kstat_run_free(r.ks);
	timeline_free(r.tl);
	free(r.loop_backing);
	free(r.hist);
	io_buffers_free(r.bufs, 1);
	if (bn_stop_signal)
		res->interrupted = bn_stop_signal;
	return rv;
}
