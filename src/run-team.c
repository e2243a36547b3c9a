/*
 * Many workers: the same run in each of -j N workers (or MPI ranks), in
 * lock-step, and one result for the team.  The core (run.c) runs each
 * worker's phases and calls two hooks around every timed part: ready()
 * after the untimed preparation, where the worker waits at the team's
 * barrier, and done() after it, where it hands its figures to the
 * leader.  Phases never know how many workers run.
 *
 * The leader makes one phase result out of the workers' (the rule IOR
 * uses): all their bytes (or seeks) over the span from the earliest start
 * to the latest end, so a straggler counts against the result; %CPU is
 * the sum of the workers' CPU (seekers included) over that span; the
 * latency histogram is the merge of theirs.  Each worker's own figures
 * and the phase's skew (latest end minus earliest end, over the span) go
 * to the record.  The whole machine's CPU and device counters are read
 * once per phase, by the leader, from the barrier's release to the last
 * worker's hand-in.  The kernel's account (kstat.h) is each host's: the
 * process that leads a host (MPI: its lowest rank) reads its host's at
 * the barrier's release and once every worker has handed in, and the
 * leader accounts each over the team's span; under MPI the record keeps
 * each host's and their sum, and each host's sampler (its lowest rank's,
 * over counters every rank of the host shares) gives that host its
 * timeline.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "kstat.h"
#include "pattern.h"
#include "phase-ctx.h"
#include "phase.h"
#include "platform.h"
#include "run-space.h"
#include "run.h"
#include "signals.h"
#include "sysinfo.h"
#include "team.h"
#include "text.h"
#include "timeline.h"

/* What a worker hands the leader after each phase. */
struct team_blob {
	int32_t			phase;		/* enum phase_id */
	int32_t			seekers;
	int32_t			by_stop;	/* Failed by the team's stop. */
	int64_t			ready_ns;	/* From the team's epoch: */
	int64_t			start_ns;	/* at the barrier, at the */
	int64_t			end_ns;		/* start, at the end. */
	uint64_t		fs_id;		/* Of -d, for shared or not. */
	struct worker_info	where;		/* MPI: the rank's host. */
	struct phase_result	ph;
	struct run_error	err;
	struct hist		hist;
};

/* The leader's view of the phase that runs now. */
struct leader {
	const struct options	*opt;
	struct run_result	*res;
	int			 n;
	int			 progress;	/* 0 quiet, else a line. */
	int			 ncpu;
	dev_t			 dev;
	enum phase_id		 steps[PH_COUNT];
	int			 nsteps;
	int			 step;		/* Released so far, -1 none. */
	int			 got;		/* Handed in for this step. */
	int64_t			 min_start, max_end, min_end;
	struct phase_result	 agg;
	struct hist		*hist;
	int			 mach_cpu, mach_dev;
	uint64_t		 busy0, total0, rd0, wr0;
	struct team_fault	 failed;	/* The failure whose words are in
					   res->err (worker -1: none). */
	int			 bound;		/* A bound worker, + 1. */
	int			 bound_said;
	struct kstat_run	*ks;		/* This host's kernel account. */
	struct timeline		*tl;		/* Its sampler, or NULL. */
	/*
	 * The leader: each host's readings of the phase (host 0 its own),
	 * and under MPI (hosts) each host's workers' process counters and
	 * bytes.
	 */
	int			 nhosts;
	struct kstat_readings	*hr;
	struct kstat_proc	*hkp;
	uint64_t		*hbytes;
};

/* What a worker's hooks need. */
struct worker {
	struct team		*team;
	struct team_blob	*blob;
	char			 tag[96];
	uint64_t		 fs_id;
	struct worker_info	 where;
	bn_time			 ready;		/* Arrived at the barrier. */
};

/* The per-worker figures for worker w and phase id. */
static struct worker_phase *
wph(struct run_result *res, int w, int id)
{
	return &res->wph[(size_t)w * PH_COUNT + (size_t)id];
}

static const char *
phase_title(enum phase_id id)
{
	return phase_table[id]->title;
}

static unsigned
phase_flags(enum phase_id id)
{
	return phase_table[id]->flags;
}

static void
leader_released(void *arg)
{
	struct leader	*l = arg;
	enum phase_id	 id;

	if (l->step + 1 >= l->nsteps)
		return;
	l->step++;
	l->got = 0;
	id = l->steps[l->step];
	memset(&l->agg, 0, sizeof(l->agg));
	l->agg.resident = -1;
	l->agg.hit_fraction = -1;
	l->agg.backing_resident = -1;
	l->min_start = INT64_MAX;
	l->max_end = INT64_MIN;
	l->min_end = INT64_MAX;
	hist_init(l->hist);
	if (l->hkp != NULL) {
		memset(l->hkp, 0, (size_t)l->nhosts * sizeof(*l->hkp));
		memset(l->hbytes, 0, (size_t)l->nhosts * sizeof(*l->hbytes));
	}
	if (l->progress) {
		fprintf(stderr, "%s...", phase_title(id));
		fflush(stderr);
	}
	/*
	 * The workers' counters; the seekers' counts are in the workers'
	 * own memory (done is null).
	 */
	if (l->tl != NULL)
		timeline_start(l->tl, kstat_run_device(l->ks), NULL, 0,
		    (phase_flags(id) & PHASE_WORKERS) ? -1 : 0);
	kstat_begin(l->ks);
	l->mach_cpu = platform_cpu_ticks(&l->busy0, &l->total0) == 0;
	l->mach_dev = platform_dev_io(l->dev, &l->rd0, &l->wr0) == 0;
}

/* The last worker handed in: make the team's result for the phase. */
/*
 * mpirun binds each rank to a core or so by default: the rank's workers
 * and seekers then share that and wake across CPUs from the device's
 * interrupts (-np 1 seeks ran 15% slower than -j 1 here, bound to 1 of 2
 * CPUs).  Said once; each worker's affinity is in the record.
 */
static void
bound_note(struct leader *l)
{
	const struct worker_info	*wi;
	int				 w = l->bound - 1;

	if (l->bound == 0 || l->bound_said || l->opt->quiet)
		return;
	l->bound_said = 1;
	wi = &l->res->workers[w];
	text_say("warning: rank %d (%s) may run on %d of "
	    "its host's %d CPUs (an mpirun binding): its workers and seekers "
	    "share them and the figures carry it; mpirun --bind-to none lifts "
	    "it", w / (l->n / team_ranks()), team_host(w), wi->cpus_allowed,
	    wi->host_cpus);
}

/* A host's account of the phase over the team's span, and its timeline. */
static void
host_account(const struct kstat_readings *r, double span,
    struct kstat_phase *k)
{
	struct kstat_timeline	*tl;

	if (!r->known) {
		memset(k, 0, sizeof(*k));
		return;
	}
	kstat_account(&r->src, &r->a, &r->b, span, k);
	if (r->has_tl) {
		tl = xmalloc(sizeof(*tl));
		memcpy(tl, &r->tl, sizeof(*tl));
		kstat_attach_timeline(k, tl, NULL);
	} else
		kstat_attach_timeline(k, NULL, r->tl_why);
}

/* The kernel's account of the phase: the host's, or each and the sum. */
static void
leader_kernel(struct leader *l, enum phase_id id, double span)
{
	struct kstat_host	*hk;
	int			 h;

	if (l->res->hks == NULL) {
		host_account(&l->hr[0], span, &l->res->ks[id]);
		return;
	}
	hk = l->res->hks + (size_t)id * (size_t)l->nhosts;
	for (h = 0; h < l->nhosts; h++) {
		free(hk[h].k.tl);
		host_account(&l->hr[h], span, &hk[h].k);
		hk[h].p = l->hkp[h];
	}
	kstat_sum(&l->res->ks[id], hk, l->nhosts);
}

/*
 * The notes: the host's, or each host's naming it (as its work: its
 * workers' bytes and counters), and the sum's from theirs.
 */
static void
leader_kernel_notes(struct leader *l, enum phase_id id,
    const struct phase_result *a)
{
	struct options		 quiet = *l->opt;
	struct phase_result	*hp;
	struct kstat_host	*hk;
	int			 h;

	if (l->res->hks == NULL) {
		run_kstat_notes(l->opt, id, a, &l->res->ks[id]);
		return;
	}
	quiet.quiet = 1;
	hp = xmalloc(sizeof(*hp));
	hk = l->res->hks + (size_t)id * (size_t)l->nhosts;
	for (h = 0; h < l->nhosts; h++) {
		*hp = *a;
		hp->bytes = l->hbytes[h];
		hp->kp = l->hkp[h];
		run_kstat_notes(&quiet, id, hp, &hk[h].k);
		kstat_host_label(&hk[h].k, hk[h].name);
		if (!l->opt->quiet)
			kstat_say(stderr, &hk[h].k);
	}
	free(hp);
	kstat_sum(&l->res->ks[id], hk, l->nhosts);
}

/* Each worker's host, rank and place in its rank, for the record. */
static void
workers_named(struct run_result *res, int n)
{
	int	i;

	for (i = 0; i < n; i++) {
		snprintf(res->workers[i].host, sizeof(res->workers[i].host),
		    "%s", team_host(i));
		res->workers[i].rank = i / (n / team_ranks());
		res->workers[i].rank_worker = i % (n / team_ranks());
	}
}

static void
leader_phase_end(struct leader *l, enum phase_id id)
{
	struct phase_result	*a = &l->agg;
	uint64_t		 busy, total, rd, wr;
	double			 span;
	int			 w;

	span = (double)(l->max_end - l->min_start) / 1e9;
	a->ran = 1;
	a->elapsed = span;
	/*
	 * As for one worker (run-account.c): the CPU of the fill ahead is
	 * in the workers' CPU, so the seconds are the span plus the longest
	 * fill.
	 */
	a->cpu_pct = span + a->fill_seconds > 0 ? 100 * (a->user + a->sys) /
	    (span + a->fill_seconds) : 0;
	if (phase_flags(id) & PHASE_OPS)
		a->rate = span > 0 ? (double)a->ops / span : 0;
	else
		a->rate = span > 0 ? (double)a->bytes / 1024.0 / span : 0;
	a->skew = span > 0 ? (double)(l->max_end - l->min_end) / 1e9 / span :
	    0;
	hist_summary(l->hist, &a->lat);
	a->imprecise = span < PRECISE_SECONDS;
	a->cpu_doubtful = a->cpu_pct > 100.0 * l->ncpu * team_ranks() + 1;
	a->machine_busy = -1;
	a->dev_read = a->dev_written = -1;
	if (l->mach_cpu && platform_cpu_ticks(&busy, &total) == 0 &&
	    total > l->total0)
		a->machine_busy = 100.0 * (double)(busy - l->busy0) /
		    (double)(total - l->total0);
	if (l->mach_dev && platform_dev_io(l->dev, &rd, &wr) == 0) {
		a->dev_read = (int64_t)(rd - l->rd0);
		a->dev_written = (int64_t)(wr - l->wr0);
	}
	/*
	 * Cache hits from the whole phase's device reads: a worker's own
	 * counters also hold the other workers' reads.
	 */
	if (a->hit_fraction < 1 && a->dev_read >= 0 && a->bytes > 0 &&
	    !a->direct && (phase_flags(id) & PHASE_READS)) {
		double hits = 1 - (double)a->dev_read / (double)a->bytes;

		a->hit_fraction = hits > 0 ? hits : 0;
		if (a->hit_fraction > WARM_LIMIT && a->cache == CSTATE_COLD) {
			a->cache = CSTATE_WARM;
			if (!l->opt->quiet)
				text_say("warning: phase %s: "
				    "%.0f%% of its reads were cache hits (the "
				    "device read %lld of %llu bytes); marked "
				    "warm", phase_id_name(id),
				    100 * a->hit_fraction,
				    (long long)a->dev_read,
				    (unsigned long long)a->bytes);
		}
	}
	for (w = 0; w < l->n; w++) {
		struct worker_phase *p = wph(l->res, w, id);

		p->ready = (p->ready_ns - l->min_start) / 1e9;
		p->start = (p->start_ns - l->min_start) / 1e9;
		p->end = (p->end_ns - l->min_start) / 1e9;
	}
	leader_kernel(l, id, span);
	l->res->ph[id] = *a;
	if (l->progress) {
		fprintf(stderr, "done\n");
		fflush(stderr);
	}
	bound_note(l);
	leader_kernel_notes(l, id, a);
	if (!l->opt->quiet && a->imprecise)
		text_say("warning: phase %s ran %.3f s, "
		    "under %.1f s: its figures are imprecise (use a larger "
		    "-s)", phase_id_name(id), span, PRECISE_SECONDS);
	if (!l->opt->quiet && a->cache == CSTATE_WARM)
		text_say("warning: a worker's file was still "
		    "cached before phase %s; marked warm", phase_id_name(id));
	/* Before the next phase is released: outside every clock. */
	workers_named(l->res, l->n);
	run_phase_done(id);
}

static void
leader_gathered(void *arg, int w, int ok, const void *p)
{
	struct leader		*l = arg;
	const struct team_blob	*b = p;
	struct phase_result	*a = &l->agg;
	struct worker_phase	*mine;
	struct team_fault	 f;
	enum phase_id		 id = (enum phase_id)b->phase;

	if (b->phase < 0 || b->phase >= PH_COUNT)
		return;
	l->res->workers[w].fs_id = b->fs_id;
	l->res->workers[w].cpus_allowed = b->where.cpus_allowed;
	l->res->workers[w].host_cpus = b->where.host_cpus;
	/* Bound to fewer CPUs than its host has: said after the phase. */
	if (l->bound == 0 && team_ranks() > 1 && b->where.cpus_allowed > 0 &&
	    b->where.cpus_allowed < b->where.host_cpus)
		l->bound = w + 1;
	if (team_ranks() > 1) {
		memcpy(l->res->workers[w].kernel, b->where.kernel,
		    sizeof(b->where.kernel));
		memcpy(l->res->workers[w].fs_type, b->where.fs_type,
		    sizeof(b->where.fs_type));
		memcpy(l->res->workers[w].mount_options,
		    b->where.mount_options, sizeof(b->where.mount_options));
		memcpy(l->res->workers[w].device, b->where.device,
		    sizeof(b->where.device));
	}
	if (!ok) {
		/*
		 * The words of the failure the team blames, by its rule
		 * (team_fault_before()) over what each worker said of its
		 * failure (worker_done()), whatever order the blobs come in.
		 */
		f.ns = b->end_ns;
		f.by_stop = b->by_stop;
		f.worker = w;
		if (team_fault_before(&f, &l->failed)) {
			l->failed = f;
			l->res->err = b->err;
		}
		if (l->progress && l->got >= 0) {
			fprintf(stderr, "failed\n");
			l->got = -1;
		}
		return;
	}
	if (l->failed.worker >= 0 || l->got < 0)
		return;
	mine = wph(l->res, w, id);
	mine->ran = 1;
	mine->bytes = b->ph.bytes;
	mine->ops = b->ph.ops;
	mine->elapsed = b->ph.elapsed;
	mine->rate = b->ph.rate;
	mine->cpu_pct = b->ph.cpu_pct;
	mine->fill = b->ph.fill_seconds;
	mine->lat = b->ph.lat;
	mine->ready_ns = b->ready_ns;
	mine->start_ns = b->start_ns;
	mine->end_ns = b->end_ns;
	a->bytes += b->ph.bytes;
	a->ops += b->ph.ops;
	a->user += b->ph.user;
	a->sys += b->ph.sys;
	a->workers += b->ph.workers;
	a->direct = b->ph.direct;
	if (l->got == 0 || b->ph.cache == CSTATE_WARM)
		a->cache = b->ph.cache;
	if (b->ph.resident > a->resident)
		a->resident = b->ph.resident;
	/* The least favourable worker speaks for the cache figures. */
	if (l->got == 0 || b->ph.hit_fraction > a->hit_fraction)
		a->hit_fraction = b->ph.hit_fraction;
	if (l->got == 0 || b->ph.backing_resident > a->backing_resident)
		a->backing_resident = b->ph.backing_resident;
	if (b->ph.drop_seconds > a->drop_seconds)
		a->drop_seconds = b->ph.drop_seconds;
	if (b->ph.fill_seconds > a->fill_seconds)
		a->fill_seconds = b->ph.fill_seconds;
	a->depth = b->ph.depth;
	memcpy(a->engine, b->ph.engine, sizeof(a->engine));
	if (b->ph.fallback[0] != '\0')
		memcpy(a->fallback, b->ph.fallback, sizeof(a->fallback));
	if (b->start_ns < l->min_start)
		l->min_start = b->start_ns;
	if (b->end_ns > l->max_end)
		l->max_end = b->end_ns;
	if (b->end_ns < l->min_end)
		l->min_end = b->end_ns;
	hist_merge(l->hist, &b->hist);
	kstat_proc_add(&a->kp, &b->ph.kp);
	mine->kp = b->ph.kp;
	if (l->hkp != NULL) {
		int	h = team_worker_host(w);

		if (h >= 0 && h < l->nhosts) {
			kstat_proc_add(&l->hkp[h], &b->ph.kp);
			l->hbytes[h] += b->ph.bytes;
		}
	}
	/* --verify: every worker checked its own file. */
	a->verified = l->got == 0 ? b->ph.verified :
	    a->verified && b->ph.verified;
	if (b->ph.verify.nkept > 0) {
		struct pattern_tally	t = b->ph.verify;
		int			k;

		for (k = 0; k < t.nkept; k++)
			t.kept[k].worker = w;
		pattern_tally_merge(&a->verify, &t);
	} else
		pattern_tally_merge(&a->verify, &b->ph.verify);
	l->res->bad_chunks += b->ph.verify.chunks;
	if (++l->got == l->n)
		leader_phase_end(l, id);
}

/* The worker's hooks. */

/*
 * A signal stopped this worker (its own CPU-time limit, a kill of its
 * process; the team's stop is another worker's failure, which is the one
 * blamed): its line names the signal, not the interrupted call.  A
 * failure of its own recorded before the signal came (its disk full)
 * keeps its words: the team's stop, which that failure set off, may reach
 * it before it has said them, and they are the ones the team blames.
 */
static int
stopped_by(const struct run_error *e, int sig)
{
	return sig != 0 && (!e->set || e->after_stop);
}

static void
interrupted_line(char *line, size_t len, const char *phase, int sig)
{
	snprintf(line, len, "phase %s: process %ld interrupted by %s%s; its "
	    "test file removed", phase != NULL ? phase : "setup",
	    (long)getpid(), signal_name(sig), sig == SIGXCPU ? " (its "
	    "CPU-time limit, see ulimit -t)" : "");
}

static int
worker_ready(void *arg, enum phase_id id)
{
	struct worker	*wk = arg;

	(void)id;
	wk->ready = time_now();
	if (team_barrier(wk->team) == -1)
		return -1;
	return 0;
}

static int
worker_done(void *arg, enum phase_id id, const struct run_phase_report *rep)
{
	struct worker		*wk = arg;
	struct team_blob	*b = wk->blob;
	bn_time			 epoch = team_epoch(wk->team);

	memset(b, 0, offsetof(struct team_blob, hist));
	b->phase = (int32_t)id;
	b->fs_id = wk->fs_id;
	b->where = wk->where;
	b->ph = *rep->ph;
	b->ready_ns = (int64_t)(wk->ready.ns - epoch.ns);
	b->start_ns = (int64_t)(rep->start.ns - epoch.ns);
	b->end_ns = (int64_t)(rep->end.ns - epoch.ns);
	if (rep->hist != NULL)
		b->hist = *rep->hist;
	else
		hist_init(&b->hist);
	if (!rep->ok && rep->err != NULL) {
		b->err = *rep->err;
		if (stopped_by(&b->err, bn_stop_signal))
			interrupted_line(b->err.message,
			    sizeof(b->err.message), b->err.phase,
			    bn_stop_signal);
	}
	/* When it failed, and whether by the team's stop: the team says. */
	if (!rep->ok)
		b->by_stop = team_fault(wk->team, b->end_ns,
		    stopped_by(&b->err, bn_stop_signal));
	return team_gather(wk->team, b, rep->ok);
}

static void
worker_own(void *arg, const char *path, dev_t dev, ino_t ino)
{
	struct worker	*wk = arg;

	team_own_file(wk->team, path, dev, ino);
}

/* A rank's host, kernel, file system and device, for the record. */
static void
where_am_i(const char *dir, struct worker_info *wi)
{
	struct sysinfo	*si = NULL;
	char		*why = NULL;

	if (sysinfo_collect(dir, &si, &why) == -1) {
		free(why);
		return;
	}
	snprintf(wi->kernel, sizeof(wi->kernel), "%s",
	    si->kernel_release ? si->kernel_release : "");
	snprintf(wi->fs_type, sizeof(wi->fs_type), "%s",
	    si->fs_type ? si->fs_type : "");
	snprintf(wi->mount_options, sizeof(wi->mount_options), "%s",
	    si->mount_options ? si->mount_options : "");
	snprintf(wi->device, sizeof(wi->device), "%s",
	    si->has_device && si->device.name ? si->device.name : "");
	sysinfo_free(si);
}

struct body_arg {
	const struct options	*opt;
	struct timeline		*tl;
};

static int
worker_body(struct team *t, int w, void *arg)
{
	const struct body_arg	*ba = arg;
	struct options		 opt = *ba->opt;
	struct run_result	*res;
	struct run_hooks	 hooks;
	struct worker		 wk;
	struct statvfs		 vfs;
	char			 host[64] = "";
	int			 rv, left;

	memset(&wk, 0, sizeof(wk));
	wk.team = t;
	wk.blob = xcalloc(1, sizeof(*wk.blob));
	if (statvfs(opt.dir, &vfs) == 0)
		wk.fs_id = (uint64_t)vfs.f_fsid;
	wk.where.cpus_allowed = platform_cpus_allowed();
	wk.where.host_cpus = platform_ncpu();
	if (team_ranks() > 1) {
		int	per = team_size(t) / team_ranks();

		if (gethostname(host, sizeof(host) - 1) == -1)
			host[0] = '\0';
		/* The file names its host, rank and (with -j) worker. */
		if (per > 1)
			snprintf(wk.tag, sizeof(wk.tag), "%.40s.r%d.j%d", host,
			    w / per, w % per);
		else
			snprintf(wk.tag, sizeof(wk.tag), "%.40s.r%d", host, w);
		where_am_i(opt.dir, &wk.where);
	} else
		snprintf(wk.tag, sizeof(wk.tag), "j%d", w);
	/* Each worker has its own data and seek offsets; the leader warns. */
	opt.seed = ba->opt->seed + (uint64_t)w;
	opt.quiet = 1;
	run_set_progress(0);
	memset(&hooks, 0, sizeof(hooks));
	hooks.name_tag = wk.tag;
	hooks.ready = worker_ready;
	hooks.done = worker_done;
	hooks.own_file = worker_own;
	hooks.arg = &wk;
	/* Its host's sampler counts every worker of the host. */
	if (ba->tl != NULL)
		hooks.progress = timeline_counter(ba->tl, team_host_slot(w));
	res = xcalloc(1, sizeof(*res));
	rv = run_worker(&opt, res, &hooks);
	if (rv == -1 && stopped_by(&res->err, res->interrupted))
		interrupted_line(res->err.message, sizeof(res->err.message),
		    res->err.phase, res->interrupted);
	if (rv == -1)
		team_error(t, res->err.message);
	left = res->file_left;
	free(res);
	free(wk.blob);
	return rv == -1 ? 1 : left ? TEAM_EXIT_LEFT : 0;
}

/* This host's account at the step's end, for the leader. */
static void
leader_host_end(void *arg, void *buf)
{
	struct leader		*l = arg;
	struct kstat_readings	*r = buf;
	struct kstat_timeline	*tl;

	kstat_end_readings(l->ks, r);
	r->has_tl = 0;
	r->tl_why[0] = '\0';
	if ((tl = timeline_stop(l->tl)) != NULL) {
		memcpy(&r->tl, tl, sizeof(r->tl));
		r->has_tl = 1;
		free(tl);
	} else if (timeline_why(l->tl) != NULL)
		snprintf(r->tl_why, sizeof(r->tl_why), "%s",
		    timeline_why(l->tl));
}

static void
leader_host_gathered(void *arg, int h, const void *buf)
{
	struct leader	*l = arg;

	if (l->hr != NULL && h >= 0 && h < l->nhosts)
		memcpy(&l->hr[h], buf, sizeof(l->hr[h]));
}

/*
 * The leader's room for the hosts' readings; under MPI, each host's
 * name and ranks for the record and its accounts of every phase.
 */
static void
leader_hosts(struct leader *l)
{
	struct run_result	*res = l->res;
	struct kstat_host	*hk;
	int			 h, i, off = 0, nr;

	if (team_rank() != 0)
		return;
	l->nhosts = team_hosts();
	l->hr = xcalloc((size_t)l->nhosts, sizeof(*l->hr));
	if (team_ranks() == 1)
		return;
	l->hkp = xcalloc((size_t)l->nhosts, sizeof(*l->hkp));
	l->hbytes = xcalloc((size_t)l->nhosts, sizeof(*l->hbytes));
	res->nhosts = l->nhosts;
	res->hks = xcalloc((size_t)l->nhosts * PH_COUNT, sizeof(*res->hks));
	res->host_ranks = xcalloc((size_t)team_ranks(),
	    sizeof(*res->host_ranks));
	for (h = 0; h < l->nhosts; h++) {
		nr = team_host_ranks(h, res->host_ranks + off,
		    team_ranks() - off);
		for (i = 0; i < PH_COUNT; i++) {
			hk = &res->hks[(size_t)i * (size_t)l->nhosts + (size_t)h];
			snprintf(hk->name, sizeof(hk->name), "%s",
			    team_host_name(h));
			hk->nranks = nr;
			hk->ranks = res->host_ranks + off;
		}
		off += nr;
	}
}

static int	team_or_once(const struct options *, struct run_result *,
		    int);

int
run_team(const struct options *opt, struct run_result *res, int progress)
{
	int64_t	before = run_space_free(opt->dir);
	int	n = team_ranks() > 1 ? team_ranks() : opt->jobs, rv;

	rv = team_or_once(opt, res, progress);
	/* --device makes no file on a file system: no free space to watch. */
	if (opt->device != NULL)
		run_space_none(res);
	else
		run_space_after(opt, res, n > 1 ? n : 1, before);
	return rv;
}

/* The leader's view and the result's arrays, for a team of n. */
static void
leader_init(struct leader *l, const struct options *opt,
    struct run_result *res, int n, int progress)
{
	struct stat	st;
	int		i, hw;

	memset(res, 0, sizeof(*res));
	res->seed = opt->seed;
	utc_now(res->start_utc, sizeof(res->start_utc));
	res->jobs = n;
	res->wph = xcalloc((size_t)n * PH_COUNT, sizeof(*res->wph));
	res->workers = xcalloc((size_t)n, sizeof(*res->workers));
	for (i = 0; i < PH_COUNT; i++) {
		res->ph[i].resident = -1;
		res->ph[i].skew = -1;
		res->ph[i].hit_fraction = -1;
		res->ph[i].backing_resident = -1;
	}
	memset(l, 0, sizeof(*l));
	l->failed.worker = -1;
	l->opt = opt;
	l->res = res;
	l->n = n;
	l->progress = progress && team_rank() == 0;
	l->step = -1;
	if ((l->ncpu = platform_ncpu()) < 1)
		l->ncpu = 1;
	l->dev = stat(opt->dir, &st) == 0 ? st.st_dev : 0;
	l->hist = xmalloc(sizeof(*l->hist));
	l->ks = kstat_run_new(l->dev, platform_memory_fs(opt->dir));
	/*
	 * The sampler's counters, one for each of the host's workers, in a
	 * mapping the host's processes share (every rank takes part); the
	 * host's lowest rank samples them.
	 */
	hw = team_host_workers(n);
	l->tl = timeline_new_at(opt->interval_ms / 1000.0, hw,
	    team_host_map(timeline_size(hw)));
	res->ks = xcalloc(PH_COUNT, sizeof(*res->ks));
	leader_hosts(l);
	for (i = 0; i < PH_COUNT; i++)
		if (opt->phases & (1u << i))
			l->steps[l->nsteps++] = (enum phase_id)i;
}

static void
leader_free(struct leader *l)
{
	free(l->hist);
	free(l->hr);
	free(l->hkp);
	free(l->hbytes);
	kstat_run_free(l->ks);
	timeline_free(l->tl);
}

/* The run stopped by a signal: its error says so. */
static void
run_interrupted(const struct leader *l)
{
	struct run_result	*res = l->res;

	res->interrupted = bn_stop_signal;
	res->err.set = 1;
	res->err.phase = l->step >= 0 ? phase_id_name(l->steps[l->step]) :
	    "setup";
	snprintf(res->err.message, sizeof(res->err.message), "interrupted");
}

static void	(*stopping_fn)(void *);
static void	*stopping_arg;

void
run_set_stopping(void (*fn)(void *), void *arg)
{
	stopping_fn = fn;
	stopping_arg = arg;
}

/* The team's stopping hook (MPI, rank 0): the run is the interrupted one. */
static void
leader_stopping(void *arg)
{
	struct leader	*l = arg;

	run_interrupted(l);
	if (stopping_fn != NULL)
		stopping_fn(stopping_arg);
}

/*
 * The team failed or was stopped: the run's error, one line that names
 * the worker the team blames (its rank and host under MPI) and its own
 * words, or the phase and the team's cause.
 */
static void
team_failed(const struct leader *l, const struct team_outcome *out,
    const char *cause)
{
	struct run_result	*res = l->res;
	const char		*ph = l->step >= 0 && l->step < l->nsteps ?
				    phase_id_name(l->steps[l->step]) : "setup";
	const char		*why;
	char			 where[128], msg[sizeof(res->err.message)];
	int			 n = l->n;

	if (l->progress && l->step >= 0 && l->got >= 0 && l->got < n)
		fprintf(stderr, "failed\n");
	if (bn_stop_signal && !out->failed) {
		run_interrupted(l);
		return;
	}
	/*
	 * Only the words of the worker the team blames: the leader kept
	 * those of the failure its rule blames of the blobs gathered, which
	 * is the team's unless the team's is a worker that handed in none
	 * (it died).
	 */
	if (res->err.set && l->failed.worker != out->worker)
		memset(&res->err, 0, sizeof(res->err));
	why = res->err.set ? res->err.message : out->error;
	if (team_ranks() > 1 && n > team_ranks())
		snprintf(where, sizeof(where), "rank %d on %.64s, worker %d",
		    out->worker / (n / team_ranks()), out->host, out->worker);
	else if (team_ranks() > 1)
		snprintf(where, sizeof(where), "rank %d on %.64s", out->worker,
		    out->host);
	else
		snprintf(where, sizeof(where), "worker %d", out->worker);
	if (why[0] != '\0')
		snprintf(msg, sizeof(msg), "%s: %.1400s", where, why);
	else
		snprintf(msg, sizeof(msg), "phase %s: %.200s; every test file "
		    "removed", ph, cause != NULL ? cause : "failed");
	memcpy(res->err.message, msg, sizeof(msg));
	res->err.set = 1;
	if (res->err.phase == NULL)
		res->err.phase = ph;
}

/* The run, by a team or alone. */
static int
team_or_once(const struct options *opt, struct run_result *res, int progress)
{
	struct team_config	 cfg;
	struct team_outcome	 out;
	struct leader		 l;
	struct body_arg		 ba;
	char			*cause = NULL;
	int			 n, rv;

	/* Under MPI, opt->jobs counts every rank's workers. */
	n = opt->jobs;
	if (n <= 1)
		return run_once(opt, res);
	leader_init(&l, opt, res, n, progress);
	memset(&ba, 0, sizeof(ba));
	ba.opt = opt;
	ba.tl = l.tl;
	memset(&cfg, 0, sizeof(cfg));
	cfg.n = n;
	cfg.blob_size = sizeof(struct team_blob);
	cfg.gathered = leader_gathered;
	cfg.released = leader_released;
	cfg.host_size = sizeof(struct kstat_readings);
	cfg.host_end = leader_host_end;
	cfg.host_gathered = leader_host_gathered;
	cfg.arg = &l;
	cfg.body = worker_body;
	cfg.body_arg = &ba;
	cfg.stop = &bn_stop_signal;
	cfg.stop_signal = SIGTERM;
	cfg.stopping = leader_stopping;
	rv = team_run(&cfg, &out, &cause);
	/* Each worker named the file it left; the run's exit says it. */
	if (out.files_left > 0)
		res->file_left = out.files_left;
	leader_free(&l);
	workers_named(res, n);
	if (rv != 0)
		team_failed(&l, &out, cause);
	free(cause);
	return rv == 0 ? 0 : -1;
}

void
run_result_free(struct run_result *res)
{
	int	i;

	free(res->wph);
	free(res->workers);
	if (res->ks != NULL)
		for (i = 0; i < PH_COUNT; i++)
			free(res->ks[i].tl);
	free(res->ks);
	res->ks = NULL;
	for (i = 0; res->hks != NULL && i < res->nhosts * PH_COUNT; i++)
		free(res->hks[i].k.tl);
	free(res->hks);
	free(res->host_ranks);
	res->hks = NULL;
	res->host_ranks = NULL;
	res->nhosts = 0;
	res->wph = NULL;
	res->workers = NULL;
}
