/*
 * Knees that hold: the knee finder's candidates (knee.c) kept only where
 * the points are precise and differ beyond their spread, by the test
 * compare uses or, for single runs, by far more than the noise.  The
 * rules are spelled out in include/knee.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "error.h"
#include "knee.h"
#include "stats.h"

/* A point the knees may use: measured and precise. */
static int
usable(const struct knee_sample *s)
{
	return s->precise && isfinite(s->rate) && s->rate > 0;
}

int
knee_steps(const struct knee_sample *s, int n, double *out)
{
	int	i, j, m = 0;

	for (i = 0; i < n; i++) {
		if (!usable(&s[i]))
			continue;
		for (j = i + 1; j < n && !usable(&s[j]); j++)
			;
		if (j < n)
			out[m++] = log(s[j].rate / s[i].rate);
	}
	return m;
}

double
knee_noise(const double *steps, int n)
{
	double	*a, m;
	int	 i;

	if (n < 3)
		return NAN;
	a = xcalloc((size_t)n, sizeof(*a));
	for (i = 0; i < n; i++)
		a[i] = fabs(steps[i]);
	m = stats_median(a, n);
	free(a);
	return m / 0.6745;
}

/*
 * Whether the step from a to b in direction dir holds: by compare's test
 * with KNEE_MIN_RUNS runs on both sides, else by the noise (*single set).
 */
static int
holds(const struct knee_sample *a, const struct knee_sample *b,
    enum knee_dir dir, double noise, int *single)
{
	struct cmp_cell	c;

	*single = 0;
	if (a->nruns >= KNEE_MIN_RUNS && b->nruns >= KNEE_MIN_RUNS) {
		memset(&c, 0, sizeof(c));
		cmp_values(a->runs, a->nruns, b->runs, b->nruns, 0, 0, &c);
		return c.verdict == (dir == KNEE_RISES ? CMP_BETTER :
		    CMP_WORSE);
	}
	*single = 1;
	return isfinite(noise) && fabs(log(b->rate / a->rate)) >
	    KNEE_FAR * noise;
}

/* The medians of the samples, an unusable point NaN when only is set. */
static double *
medians(const struct knee_sample *s, int n, int only)
{
	double	*v = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*v));
	int	 i;

	for (i = 0; i < n; i++)
		v[i] = !only || usable(&s[i]) ? s[i].rate : NAN;
	return v;
}

int
knee_sizes_held(const struct knee_sample *s, int n, double pct,
    double noise, struct knee *out, int max, int *candidates)
{
	struct knee	*k = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*k));
	double		*v;
	int		 i, m, found = 0, single;

	if (candidates != NULL) {
		v = medians(s, n, 0);
		*candidates = knee_sizes(v, n, pct, k, n);
		free(v);
	}
	v = medians(s, n, 1);
	m = knee_sizes(v, n, pct, k, n);
	for (i = 0; i < m && i < n; i++) {
		if (!holds(&s[k[i].from], &s[k[i].to], k[i].dir, noise,
		    &single))
			continue;
		k[i].single = single;
		if (found < max)
			out[found] = k[i];
		found++;
	}
	free(v);
	free(k);
	return found;
}

int
knee_chunks_held(const struct knee_sample *s, int n, double pct,
    double noise, struct knee_chunk *out, int max, int *candidates)
{
	struct knee_chunk *k = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*k));
	double		  *v;
	int		   i, m, found = 0, s1, s2;

	if (candidates != NULL) {
		v = medians(s, n, 0);
		*candidates = knee_chunks(v, n, pct, k, n);
		free(v);
	}
	v = medians(s, n, 1);
	m = knee_chunks(v, n, pct, k, n);
	for (i = 0; i < m && i < n; i++) {
		if (!holds(&s[k[i].left], &s[k[i].index], KNEE_FALLS, noise,
		    &s1) || !holds(&s[k[i].right], &s[k[i].index],
		    KNEE_FALLS, noise, &s2))
			continue;
		k[i].single = s1 || s2;
		if (found < max)
			out[found] = k[i];
		found++;
	}
	free(v);
	free(k);
	return found;
}

/* Sample s over its chunk size: calls a second (runs kept in *store). */
static void
per_call(const struct knee_sample *s, uint64_t chunk, struct knee_sample *o,
    double **store)
{
	int	i;

	*o = *s;
	*store = xcalloc((size_t)(s->nruns > 0 ? s->nruns : 1),
	    sizeof(**store));
	for (i = 0; i < s->nruns; i++)
		(*store)[i] = s->runs[i] / (double)chunk;
	o->runs = *store;
	o->rate = s->rate / (double)chunk;
}

int
knee_chunk_cliffs_held(const struct knee_sample *s, const uint64_t *chunks,
    int n, double pct, double noise, struct knee_cliff *out, int max,
    int *candidates)
{
	struct knee_cliff	*k = xcalloc((size_t)(n > 0 ? n : 1),
				    sizeof(*k));
	struct knee_sample	 a, b;
	double			*v, *sa, *sb;
	int			 i, m, found = 0, ok, single;

	if (candidates != NULL) {
		v = medians(s, n, 0);
		*candidates = knee_chunk_cliffs(v, chunks, n, pct, k, n);
		free(v);
	}
	v = medians(s, n, 1);
	m = knee_chunk_cliffs(v, chunks, n, pct, k, n);
	for (i = 0; i < m && i < n; i++) {
		per_call(&s[k[i].from], chunks[k[i].from], &a, &sa);
		per_call(&s[k[i].to], chunks[k[i].to], &b, &sb);
		ok = holds(&a, &b, KNEE_RISES, noise, &single);
		free(sa);
		free(sb);
		if (!ok)
			continue;
		k[i].single = single;
		if (found < max)
			out[found] = k[i];
		found++;
	}
	free(v);
	free(k);
	return found;
}

/*
 * Whether the step from s[a] to s[b] holds in direction dir; sets
 * k->single.
 */
static int
step_holds(const struct knee_sample *s, int a, int b, enum knee_dir dir,
    double noise, struct knee *k)
{
	int	single;

	if (a < 0 || b < 0 || !holds(&s[a], &s[b], dir, noise, &single))
		return 0;
	k->single = single;
	return 1;
}

/* The usable point before (step -1) or after (step 1) i; -1 if none. */
static int
neighbour(const struct knee_sample *s, int n, int i, int step)
{
	for (i += step; i >= 0 && i < n; i += step)
		if (usable(&s[i]))
			return i;
	return -1;
}

int
knee_jobs_held(const struct knee_sample *s, int n, double pct, double noise,
    struct knee *k, int *candidates)
{
	double	*v, gain;
	int	 i, prev;

	memset(k, 0, sizeof(*k));
	if (candidates != NULL) {
		v = medians(s, n, 0);
		*candidates = knee_jobs(v, n, pct, &gain) >= 0;
		free(v);
	}
	v = medians(s, n, 1);
	i = knee_jobs(v, n, pct, &gain);
	free(v);
	if (i < 0)
		return -1;
	k->from = k->to = i;
	k->dir = KNEE_RISES;
	k->pct = gain;
	k->before = s[i].rate;
	/* The rise into the knee; at the first count, the fall out of it. */
	if ((prev = neighbour(s, n, i, -1)) >= 0) {
		if (!step_holds(s, prev, i, KNEE_RISES, noise, k))
			return -1;
	} else if (!step_holds(s, i, neighbour(s, n, i, 1), KNEE_FALLS,
	    noise, k))
		return -1;
	return i;
}

int
knee_files_held(const struct knee_sample *s, int n, double pct,
    double noise, struct knee *k, int *candidates)
{
	struct knee	 c;
	double		*v;
	int		 i, best = -1;

	memset(k, 0, sizeof(*k));
	if (candidates != NULL) {
		v = medians(s, n, 0);
		*candidates = knee_files(v, n, pct, &c) >= 0;
		free(v);
	}
	v = medians(s, n, 1);
	i = knee_files(v, n, pct, k);
	free(v);
	if (i < 0)
		return -1;
	/* The fall from the best count before the knee. */
	for (i = 0; i <= k->from; i++)
		if (usable(&s[i]) && (best < 0 || s[i].rate > s[best].rate))
			best = i;
	if (!step_holds(s, best, k->to, KNEE_FALLS, noise, k))
		return -1;
	return k->from;
}
