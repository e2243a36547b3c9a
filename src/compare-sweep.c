/*
 * Sweeps side by side: compare of two or more sweep records, point by
 * point and phase by phase, with the statistics compare uses on runs
 * (cmp_column() on each point's runs: a Mann-Whitney test or a bootstrap
 * interval with three runs a side, the threshold below).  A sweep's
 * record holds a point's runs one after another (its first, then its
 * more_runs), so each point is a slice of the set's runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare-sweep.h"
#include "compare-view.h"
#include "error.h"
#include "phase.h"
#include "resultset.h"
#include "settings.h"
#include "units.h"

/* The runs of one point: a slice of its set, as a set of its own. */
struct point_runs {
	const struct rs_run	*first;
	int			 start, n;
};

/* The points of a sweep set, in order; returns how many (out is new). */
static int
set_points(const struct result_set *rs, struct point_runs **out)
{
	int	i, n = 0;

	*out = xcalloc((size_t)(rs->nruns > 0 ? rs->nruns : 1),
	    sizeof(**out));
	for (i = 0; i < rs->nruns; i++) {
		if (rs->runs[i].repeat == 0 || n == 0) {
			(*out)[n].first = &rs->runs[i];
			(*out)[n++].start = i;
		}
		(*out)[n - 1].n++;
	}
	return n;
}

/* The same axes: sizes, chunks, job, seeker and file counts. */
static int
same_axes(const struct rs_sweep *a, const struct rs_sweep *b)
{
	return a->nsizes == b->nsizes && a->nchunks == b->nchunks &&
	    a->njobs == b->njobs && a->nfiles == b->nfiles &&
	    a->nseekers == b->nseekers && (a->nseekers == 0 ||
	    memcmp(a->seekers, b->seekers, (size_t)a->nseekers *
	    sizeof(*a->seekers)) == 0) &&
	    memcmp(a->sizes, b->sizes, (size_t)a->nsizes *
	    sizeof(*a->sizes)) == 0 && memcmp(a->chunks, b->chunks,
	    (size_t)a->nchunks * sizeof(*a->chunks)) == 0 &&
	    memcmp(a->jobs, b->jobs, (size_t)a->njobs *
	    sizeof(*a->jobs)) == 0 && (a->nfiles == 0 || memcmp(a->files,
	    b->files, (size_t)a->nfiles * sizeof(*a->files)) == 0);
}

int
cmp_sweep_check(const struct result_set *sets, int n, char **cause)
{
	int	k, one = -1;

	for (k = 0; k < n; k++)
		if (sets[k].sweep != NULL && one < 0)
			one = k;
	if (one < 0)
		return 0;
	for (k = 0; k < n; k++) {
		if (sets[k].sweep == NULL)
			return errorf(cause, "compare: %s is a sweep record "
			    "and %s is not: compare sweeps with sweeps, runs "
			    "with runs", sets[one].file, sets[k].file);
		if (!same_axes(sets[0].sweep, sets[k].sweep))
			return errorf(cause, "compare: %s and %s sweep "
			    "different axes (sizes, chunks, job, seeker or "
			    "file counts): their points cannot be paired",
			    sets[0].file, sets[k].file);
	}
	return 1;
}

/* The point of b at the place of a's point p, or -1. */
static int
find_point(const struct point_runs *a, const struct point_runs *b, int nb)
{
	int	i;

	for (i = 0; i < nb; i++)
		if (b[i].first->size == a->first->size &&
		    b[i].first->chunk == a->first->chunk &&
		    b[i].first->jobs == a->first->jobs &&
		    b[i].first->seekers == a->first->seekers &&
		    b[i].first->files == a->first->files)
			return i;
	return -1;
}

/* A point's runs as a result set (sharing the set's runs). */
static void
slice(const struct result_set *rs, const struct point_runs *p,
    struct result_set *out)
{
	memset(out, 0, sizeof(*out));
	out->file = rs->file;
	out->format = rs->format;
	out->set = rs->set;
	out->runs = rs->runs + p->start;
	out->nruns = p->n;
}

/*
 * "16M", "16M 4k", "16M 4k -j 2", "16M 4k -S 8" or "16k files -j 2": the
 * point's place.
 */
static void
place(char *buf, size_t len, const struct rs_sweep *x, const struct rs_run *r)
{
	char	s[32], c[32];

	if (x->nfiles > 0) {
		units_files(s, sizeof(s), r->files);
		snprintf(buf, len, "%s files", s);
	} else {
		units_size_short(s, sizeof(s), r->size);
		units_chunk(c, sizeof(c), r->chunk);
		snprintf(buf, len, "%s %s", s, c);
	}
	if (x->njobs > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), " -j %d",
		    r->jobs);
	if (x->nseekers > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), " -S %d",
		    r->seekers);
}

/*
 * One phase's table of new set k against the base: a point of the view
 * for each point of the base.
 */
static void
phase_points(struct cmp_view *v, int k, enum phase_id id,
    const struct point_runs *bp, int nb, const struct point_runs *np, int nn)
{
	struct cmp_table	*tb;
	struct cmp_point	*pt;
	struct result_set	 b, n;
	int			 p, q, col = RS_RATE(id);

	v->tables = xrealloc(v->tables, ((size_t)v->ntables + 1) *
	    sizeof(*v->tables));
	tb = &v->tables[v->ntables++];
	tb->k = k;
	tb->phase = id;
	tb->first = v->npoints_all;
	tb->n = nb;
	v->points = xrealloc(v->points, ((size_t)v->npoints_all + (size_t)nb) *
	    sizeof(*v->points));
	for (p = 0; p < nb; p++) {
		pt = &v->points[v->npoints_all++];
		memset(pt, 0, sizeof(*pt));
		pt->k = k;
		pt->phase = id;
		pt->col = col;
		pt->at = bp[p].first;
		slice(&v->sets[0], &bp[p], &b);
		if ((q = find_point(&bp[p], np, nn)) >= 0)
			slice(&v->sets[k], &np[q], &n);
		else
			slice(&v->sets[k], &(struct point_runs){ bp[p].first, 0,
			    0 }, &n);
		cmp_column(&b, &n, col, v->threshold, &pt->c);
		km_column(&b, &n, col, pt->c.verdict, &pt->moved);
		pt->shown = pt->c.nbase > 0 || pt->c.nnew > 0;
		if (v->fail_on[col] && pt->c.nbase > 0 && pt->c.nnew == 0 &&
		    pt->c.unew == 0)
			pt->c.verdict = CMP_MISSING;
		place(pt->place, sizeof(pt->place), v->sets[0].sweep,
		    bp[p].first);
		if (pt->shown && (pt->c.verdict == CMP_WORSE ||
		    pt->c.verdict == CMP_MISSING) && v->fail_on[col])
			v->exit = 1;
	}
}

void
cmp_sweep_view(struct cmp_view *v)
{
	struct point_runs	*bp, *np;
	int			 k, id, nb, nn;

	v->sweep = 1;
	v->exit = 0;
	v->npoints = xcalloc((size_t)v->nsets, sizeof(*v->npoints));
	nb = set_points(&v->sets[0], &bp);
	for (k = 0; k < v->nsets; k++) {
		v->npoints[k] = set_points(&v->sets[k], &np);
		free(np);
	}
	for (k = 1; k < v->nsets; k++) {
		nn = set_points(&v->sets[k], &np);
		for (id = 0; id < PH_COUNT; id++)
			if (v->sets[0].set.phases & (1u << id))
				phase_points(v, k, id, bp, nb, np, nn);
		free(np);
	}
	free(bp);
}

void
cmp_sweep_view_free(struct cmp_view *v)
{
	free(v->npoints);
	free(v->points);
	free(v->tables);
}

int
cmp_sweep_differs(char *buf, size_t len, const struct result_set *base,
    const struct result_set *rs)
{
	const char	*a, *b;
	size_t		 used = 0;
	int		 id, n = 0;

	buf[0] = '\0';
	for (id = 0; id < SET_COUNT; id++) {
		if (settings_table[id].rule != RULE_MATCH &&
		    settings_table[id].rule != RULE_INFO)
			continue;
		a = base->set.value[id] != NULL ? base->set.value[id] : "-";
		b = rs->set.value[id] != NULL ? rs->set.value[id] : "-";
		if (strcmp(a, b) == 0)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
			    "%s%s %s (%s there)", n > 0 ? ", " : "",
			    settings_name(id), b, a);
		n++;
	}
	return n;
}
