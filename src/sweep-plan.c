/*
 * What "bonnie-ng sweep" says around its points: the options of each
 * point, the plan before the first, the estimate after it, the progress
 * line and the warnings summed up at the end.  Kept apart from
 * cmd-sweep.c, which parses, settles the axes and runs the points.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "phase.h"
#include "run.h"
#include "sweep.h"
#include "sweep-plan.h"
#include "text.h"
#include "units.h"

/*
 * The options of one point: the sweep's with the point's size, chunk and
 * job count, checked.  0, or -1 with *cause.
 */
int
sweep_point_options(const struct options *base, const struct sweep_point *pt,
    struct options *o, char **cause)
{
	*o = *base;
	o->quiet = 1;	/* Warnings are summed up at the end. */
	o->size_asked = pt->size;
	o->chunk = pt->chunk;
	o->jobs = pt->jobs;
	if (pt->seekers > 0)
		o->seekers = pt->seekers;
	if (pt->files > 0)
		o->files_n = pt->files;
	return options_check(o, cause);
}

/*
 * The work of a point for the time estimates: the bytes it plans to write
 * (run_planned_bytes()), or when it writes none (empty files), its files.
 */
double
sweep_point_work(const struct options *base, const struct sweep_point *pt)
{
	struct options	o;
	uint64_t	b;
	int		partial;

	if (sweep_point_options(base, pt, &o, NULL) == -1)
		return 1;
	if ((b = run_planned_bytes(&o, &partial)) > 0)
		return (double)b;
	if (o.files_n > 0)
		return (double)o.files_n * (o.jobs > 1 ? o.jobs : 1);
	return 1;
}

/*
 * A time for the plan's lines: "0.420 s", and past a minute "754.200 s
 * (12m 34s)".
 */
static void
plan_time(char *buf, size_t len, double s)
{
	char	span[32];

	if (s < 60) {
		snprintf(buf, len, "%.3f s", s);
		return;
	}
	units_span(span, sizeof(span), s);
	snprintf(buf, len, "%.3f s (%s)", s, span);
}

/*
 * The plan, on standard error before the first point: the points and the
 * axes they span, and the bytes they write.
 */
void
sweep_print_plan(const struct sweep_result *r, const struct options *a,
    int total, uint64_t max_time)
{
	struct options	 o;
	uint64_t	 bytes = 0;
	char		 b[32], axes[160], also[160] = "", more[64] = "";
	char		 again[128] = "";
	size_t		 n;
	int		 p, partial, some = 0, id;
	int		 repeat = r->repeat > 1 ? r->repeat : 1;

	for (p = 0; p < total; p++) {
		if (sweep_point_options(a, &r->points[p], &o, NULL) == -1)
			continue;
		bytes += run_planned_bytes(&o, &partial);
		some |= partial;
	}
	if (some) {
		/* Name the phases whose write-backs are not counted. */
		n = snprintf(also, sizeof(also), " (not counting what ");
		for (id = 0, p = 0; id < PH_COUNT; id++) {
			if (!(a->phases & (1u << id)) ||
			    (phase_table[id]->flags & (PHASE_WRITES |
			    PHASE_WHOLE)) != PHASE_WRITES)
				continue;
			if (n < sizeof(also))
				n += snprintf(also + n, sizeof(also) - n,
				    "%s%s", p++ > 0 ? " and " : "",
				    phase_table[id]->name);
		}
		if (n < sizeof(also))
			snprintf(also + n, sizeof(also) - n, " writes back)");
	}
	if (sweep_files_mode(r))
		snprintf(axes, sizeof(axes), "%d file count%s", r->nfiles,
		    r->nfiles == 1 ? "" : "s");
	else
		snprintf(axes, sizeof(axes), "%d size%s x %d chunk%s",
		    r->nsizes, r->nsizes == 1 ? "" : "s", r->nchunks,
		    r->nchunks == 1 ? "" : "s");
	if (r->njobs > 1)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes),
		    " x %d job counts", r->njobs);
	if (r->nseekers > 1)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes),
		    " x %d seeker counts", r->nseekers);
	if (repeat > 1)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes),
		    ", %d runs each", repeat);
	if (max_time > 0)
		snprintf(more, sizeof(more), "; --max-time %llu may stop it "
		    "sooner", (unsigned long long)max_time);
	if (r->min_time > 0)
		snprintf(again, sizeof(again), "; a point whose phases ran "
		    "under %g s in all runs again, up to %d runs (--min-time)",
		    r->min_time, SWEEP_MIN_TIME_RUNS);
	units_size_binary(b, sizeof(b), bytes * (uint64_t)repeat);
	text_say("sweep: %d point%s (%s), %s to write in "
	    "all%s; the time is estimated after the first point%s%s",
	    total, total == 1 ? "" : "s", axes, b, also, more, again);
}

/*
 * How much longer than at point 1 phase id takes at point p: a file
 * creation phase by its files, a phase of a fixed count of operations
 * (seeks, syncs) not at all, any other by the bytes of its files.
 */
static double
phase_scale(const struct options *a, const struct sweep_point *p1,
    const struct sweep_point *p, unsigned flags)
{
	struct options	o1, o;

	if (flags & PHASE_META) {
		if (sweep_point_options(a, p1, &o1, NULL) == -1 ||
		    sweep_point_options(a, p, &o, NULL) == -1 || o1.files_n == 0)
			return 1;
		return (double)o.files_n * p->jobs / ((double)o1.files_n *
		    p1->jobs);
	}
	if (flags & PHASE_OPS)
		return 1;
	return (double)p->size * p->jobs / ((double)p1->size * p1->jobs);
}

/*
 * After the first point: the whole sweep's time from that point's, each
 * phase's time scaled by its work at each point (phase_scale()) and the
 * rest of the point's time (making, filling and removing files, dropping
 * the cache) by the point's work (point_work()).
 */
void
sweep_print_estimate(const struct sweep_result *r, const struct options *a,
    int total, double first)
{
	const struct sweep_point	*p1 = &r->points[0];
	double				 rest = first, all = 0, w1;
	char				 t1[64], te[64], runs[32] = "";
	int				 p, id;
	int				 repeat = r->repeat > 1 ? r->repeat : 1;

	for (id = 0; id < PH_COUNT; id++)
		if (p1->res.ph[id].ran)
			rest -= p1->res.ph[id].elapsed;
	if (rest < 0)
		rest = 0;
	w1 = sweep_point_work(a, p1);
	for (p = 0; p < total; p++) {
		all += rest * sweep_point_work(a, &r->points[p]) / w1;
		for (id = 0; id < PH_COUNT; id++)
			if (p1->res.ph[id].ran)
				all += p1->res.ph[id].elapsed * phase_scale(a,
				    p1, &r->points[p], phase_table[id]->flags);
	}
	plan_time(t1, sizeof(t1), first);
	plan_time(te, sizeof(te), all * repeat);
	if (repeat > 1)
		snprintf(runs, sizeof(runs), ", %d runs each,", repeat);
	text_say("sweep: point 1 took %s; all %d points%s "
	    "should take about %s (each phase's time at point 1 scaled by "
	    "its work%s)", t1, total, runs, te, r->min_time > 0 ?
	    "; not counting --min-time's runs" : "");
}

/*
 * Progress on the terminal: which point of how many, and the time left.
 * The guess is the larger of two: the time so far per unit of work (right
 * when the size rules) and per point (right when a fixed cost such as the
 * seeks phase's second rules).
 */
void
sweep_progress(const struct sweep_result *r, const struct options *a, int p,
    int total, double elapsed, double work_done)
{
	const struct sweep_point	*pt = &r->points[p];
	double				 left = 0, by_work, by_points;
	char				 s[32], c[48], eta[64] = "";
	int				 q;

	for (q = p; q < total; q++)
		left += sweep_point_work(a, &r->points[q]);
	if (work_done > 0 && p > 0) {
		by_work = elapsed / work_done * left;
		by_points = elapsed / p * (total - p);
		units_span(s, sizeof(s), by_work > by_points ? by_work :
		    by_points);
		snprintf(eta, sizeof(eta), ", about %s left", s);
	}
	if (pt->files > 0) {
		units_files(s, sizeof(s), pt->files);
		fprintf(stderr, "\rsweep: point %d of %d (%s files, -j %d)%s"
		    "\033[K", p + 1, total, s, pt->jobs, eta);
	} else {
		units_size_short(s, sizeof(s), pt->size);
		units_chunk(c, sizeof(c), pt->chunk);
		if (pt->seekers > 0)
			snprintf(c + strlen(c), sizeof(c) - strlen(c),
			    ", -S %d", pt->seekers);
		fprintf(stderr, "\rsweep: point %d of %d (%s, chunk %s, -j %d)"
		    "%s\033[K", p + 1, total, s, c, pt->jobs, eta);
	}
	fflush(stderr);
}

/*
 * The engine's warnings, once for the whole sweep rather than once per
 * phase of every point: each is also a flag in the phase's result.
 */
void
sweep_warnings(const struct sweep_result *r)
{
	const struct phase_result	*ph;
	int				 p, id, n = 0, imprecise = 0;
	int				 warm = 0, doubtful = 0;
	int				 most_runs = 1, npts = 0, k;
	int64_t				 lost, most = 0;

	/* Precision per point and phase; the cache and CPU per run. */
	for (p = 0; p < r->npoints; p++) {
		for (id = 0; id < PH_COUNT; id++) {
			if (!r->points[p].res.ph[id].ran)
				continue;
			npts++;
			imprecise += (r->points[p].imprecise >> id) & 1;
			for (k = 0; k < sweep_point_nruns(&r->points[p]); k++) {
				ph = &sweep_point_run(&r->points[p], k)->ph[id];
				if (!ph->ran)
					continue;
				n++;
				warm += ph->cache == CSTATE_WARM;
				doubtful += ph->cpu_doubtful != 0;
			}
		}
		if (sweep_point_nruns(&r->points[p]) > most_runs)
			most_runs = sweep_point_nruns(&r->points[p]);
	}
	if (imprecise > 0)
		text_say("warning: %d of %d phases of the "
		    "points ran under %g s in all their runs (up to %d): their "
		    "figures are imprecise (use larger sizes%s)", imprecise,
		    npts, sweep_precision_bound(r), most_runs,
		    r->min_time > 0 ? "" : " or --min-time");
	if (warm > 0)
		text_say("warning: %d of %d phase results "
		    "found the file still cached after the drop; marked "
		    "warm", warm, n);
	if (doubtful > 0)
		text_say("warning: %d of %d phase results "
		    "show more CPU than the cores allow; their CPU figure is "
		    "doubtful", doubtful, n);
	for (p = 0, n = 0; p < r->npoints; p++)
		if (r->points[p].res.space_leak) {
			lost = r->points[p].res.space_before -
			    r->points[p].res.space_after;
			if (n++ == 0 || lost > most)
				most = lost;
		}
	if (n > 0)
		text_say("warning: after %d of %d points the "
		    "file system had less free space once the test file was "
		    "removed (up to %lld MiB less)", n, r->npoints,
		    (long long)(most >> 20));
}

