/*
 * Change points by E-divisive means (Matteson and James, "A nonparametric
 * approach for multiple change point analysis of multivariate data",
 * JASA 2014), with exponent 1, on ranks, over several series at once.
 *
 * A segment of a series splits at tau into X, its first m values, and Y,
 * the other n.  The divergence of the two is the energy distance
 *
 *	E = 2/(mn) sum |x - y| - 1/C(m,2) sum |x - x'| - 1/C(n,2) sum |y - y'|
 *
 * and the statistic is Q = mn/(m + n) E, largest at the likeliest split.
 * Each step takes, over every series and every segment of it, the split
 * with the largest Q, and tests it by permutation: the records are
 * shuffled within the blocks that every series' change points so far
 * cut (so each segment of each series keeps its values), the largest Q
 * over all series and segments is found again, and the split stands when
 * at most alpha (R + 1) - 1 of R shuffles reach the observed one.  As
 * the test is of the largest statistic over the series, its false alarm
 * rate holds for all of them together, whatever their correlation (the
 * maximum statistic's permutation test, as Westfall and Young's); as the
 * series move together under a shuffle of the records, a run that was
 * slow in every column counts once.  The steps stop at the first split
 * that does not stand (the hierarchical search of the paper; the tests
 * of later steps are conditional on the earlier splits).
 *
 * The values are the ranks within their segment over its length (ties
 * share their mean rank): a series' unit and spread then do not matter,
 * the statistic is comparable between series and segments, and one slow
 * run weighs no more than one rank.
 *
 * One scan of a segment is O(L log L): as tau moves by one, the value
 * that crosses from Y to X changes the three sums by its distances to X
 * (a Fenwick tree of X's counts and sums by rank) and to the whole
 * segment (fixed prefix sums), so no pair is visited.  A test of R
 * shuffles is R such scans of every series; a test that cannot stand any
 * more stops at once, so the steps that find nothing are cheap.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "error.h"

/* One segment of a series: records [a, b), its values' ranks. */
struct seg {
	int		 a, b;
	int		 len;		/* Values in it. */
	int		 nid;		/* Distinct values. */
	double		*rv;		/* [1..nid]: mean rank / len, ascending. */
	double		*tc, *ts;	/* [0..nid]: count, sum of rv, id <= k. */
	double		 best;		/* The observed statistic; NAN: the
					   segment is too short to split. */
	int		 split;		/* The record after the best split. */
};

struct serie {
	const struct cp_series *s;
	int		*id_at;		/* [nrec]: the rank id of record i's
					   value in its segment, 0 none. */
	struct seg	*segs;		/* In record order. */
	int		 nsegs;
};

struct cp {
	int		 nrec, ns, min_seg;
	struct serie	*ss;
	int		*bound;		/* Every series' segment starts, and
					   nrec: the blocks of the shuffles. */
	int		 nbound;
	int		*perm;		/* [nrec]: the record at each place. */
	double		*fc, *fs;	/* The Fenwick tree, [nrec + 1]. */
	double		*z, *pre, *row;	/* The ends' search: a segment's
					   values in order, W(0, j), W(tau,
					   kappa); [nrec + 1]. */
	int		*at;		/* Their places. */
	uint64_t	 rng;
};

/* splitmix64: small, fixed and portable, so a history reads the same. */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
cp_opts_default(struct cp_opts *o)
{
	o->alpha = CP_ALPHA;
	o->min_seg = CP_MIN_SEG;
	o->seed = CP_SEED;
}

/* A value and its record, to rank a segment. */
struct ranked {
	double	v;
	int	at;
};

static int
ranked_cmp(const void *a, const void *b)
{
	const struct ranked	*x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->at - y->at;
}

/* The first of the series' values at record a or later. */
static int
first_at(const struct cp_series *s, int a)
{
	int	lo = 0, hi = s->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->at[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Rank the values of records [sg->a, sg->b) of series ss. */
static void
seg_rank(struct serie *ss, struct seg *sg)
{
	const struct cp_series	*s = ss->s;
	struct ranked		*r;
	int			 i, j, k, lo, hi;

	lo = first_at(s, sg->a);
	hi = first_at(s, sg->b);
	sg->len = hi - lo;
	r = xmalloc(sizeof(*r) * (size_t)(sg->len > 0 ? sg->len : 1));
	for (i = 0; i < sg->len; i++) {
		r[i].v = s->v[lo + i];
		r[i].at = s->at[lo + i];
	}
	qsort(r, (size_t)sg->len, sizeof(*r), ranked_cmp);
	sg->rv = xcalloc((size_t)sg->len + 1, sizeof(*sg->rv));
	sg->tc = xcalloc((size_t)sg->len + 1, sizeof(*sg->tc));
	sg->ts = xcalloc((size_t)sg->len + 1, sizeof(*sg->ts));
	sg->nid = 0;
	for (i = 0; i < sg->len; i = j) {
		for (j = i; j < sg->len && r[j].v == r[i].v; j++)
			;
		k = ++sg->nid;
		/* Ranks i + 1 to j: their mean, over the length. */
		sg->rv[k] = (i + 1 + j) / 2.0 / sg->len;
		sg->tc[k] = sg->tc[k - 1] + (j - i);
		sg->ts[k] = sg->ts[k - 1] + (j - i) * sg->rv[k];
		for (; i < j; i++)
			ss->id_at[r[i].at] = k;
	}
	free(r);
}

static void
seg_free(struct seg *sg)
{
	free(sg->rv);
	free(sg->tc);
	free(sg->ts);
}

/* The count and sum of X's values of rank id below k. */
static void
tree_below(const struct cp *cp, int k, double *c, double *s)
{
	*c = *s = 0;
	for (k--; k > 0; k -= k & -k) {
		*c += cp->fc[k];
		*s += cp->fs[k];
	}
}

static void
tree_add(struct cp *cp, int k, int nid, double v)
{
	for (; k <= nid; k += k & -k) {
		cp->fc[k] += 1;
		cp->fs[k] += v;
	}
}

/*
 * The largest statistic over the splits of segment sg of series ss, its
 * records taken in the order perm gives (NULL: as they are).  *split is
 * the place of the first value after the best split; q, when not NULL,
 * gets the statistic at every tau.
 */
static double
seg_scan(struct cp *cp, const struct serie *ss, const struct seg *sg,
    const int *perm, int *split, double *q)
{
	double	 z, cl, sl, dx, dy, ds, c = 0, wx = 0, wy, sx = 0, e, st;
	double	 best = NAN, len = sg->len;
	int	 i, d, m = 0, n2, ms = cp->min_seg, want = 0;

	memset(cp->fc, 0, sizeof(*cp->fc) * ((size_t)sg->nid + 1));
	memset(cp->fs, 0, sizeof(*cp->fs) * ((size_t)sg->nid + 1));
	/* The within sum of the whole segment, from its sorted ranks. */
	for (wy = 0, d = 1; d <= sg->nid; d++)
		wy += (sg->tc[d] - sg->tc[d - 1]) *
		    (sg->rv[d] * sg->tc[d - 1] - sg->ts[d - 1]);
	for (i = sg->a; i < sg->b; i++) {
		d = ss->id_at[perm != NULL ? perm[i] : i];
		if (d == 0)
			continue;
		if (want) {
			*split = i;
			want = 0;
		}
		z = sg->rv[d];
		tree_below(cp, d, &cl, &sl);
		/* z's distances to X, and to the segment, so to Y. */
		dx = 2 * (z * cl - sl) + sx - z * m;
		ds = 2 * (z * sg->tc[d - 1] - sg->ts[d - 1]) +
		    sg->ts[sg->nid] - z * len;
		dy = ds - dx;
		c += dy - dx;
		wx += dx;
		wy -= dy;
		sx += z;
		m++;
		tree_add(cp, d, sg->nid, z);
		n2 = sg->len - m;
		if (m < ms || n2 < ms)
			continue;
		e = 2 * c / ((double)m * n2) - 2 * wx / ((double)m * (m - 1)) -
		    2 * wy / ((double)n2 * (n2 - 1));
		st = (double)m * n2 / len * e;
		if (q != NULL)
			q[m] = st;
		if (isnan(best) || st > best) {
			best = st;
			want = 1;
		}
	}
	return best;
}

/*
 * The same with the end of Y searched too, as the paper does: X is
 * [start, tau), Y [tau, kappa) for every kappa, so that a change undone
 * before the segment ends (a regression later fixed) stands out against
 * what came before it.  The within sums W(tau, kappa) are kept one row
 * at a time, tau from the end back: W(tau, k) = W(tau + 1, k) + the
 * distances of x_tau to x_tau+1 .. x_k-1, so the search is O(L^2) time
 * in O(L) memory.
 */
static double
seg_scan_ends(struct cp *cp, const struct serie *ss, const struct seg *sg,
    const int *perm, int *split, double *q)
{
	double	 best = NAN, c, e, st, run, *z = cp->z, *pre = cp->pre;
	double	*row = cp->row;
	int	 i, d, n = 0, t, k, m, n2, ms = cp->min_seg;

	for (i = sg->a; i < sg->b; i++) {
		d = ss->id_at[perm != NULL ? perm[i] : i];
		if (d == 0)
			continue;
		cp->at[n] = i;
		z[n++] = sg->rv[d];
	}
	/* W(0, j): each value's distances to those before it. */
	pre[0] = 0;
	for (k = 0; k < n; k++) {
		for (run = 0, i = 0; i < k; i++)
			run += fabs(z[k] - z[i]);
		pre[k + 1] = pre[k] + run;
		row[k + 1] = 0;
	}
	row[0] = 0;
	for (t = n - 1; t >= ms; t--) {
		/* row[k] becomes W(t, k) for k > t. */
		for (run = 0, k = t + 2; k <= n; k++) {
			run += fabs(z[t] - z[k - 1]);
			row[k] += run;
		}
		m = t;
		for (k = t + ms; k <= n; k++) {
			n2 = k - t;
			c = pre[k] - pre[t] - row[k];
			e = 2 * c / ((double)m * n2) -
			    2 * pre[t] / ((double)m * (m - 1)) -
			    2 * row[k] / ((double)n2 * (n2 - 1));
			st = (double)m * n2 / (m + n2) * e;
			if (q != NULL && (isnan(q[t]) || st > q[t]))
				q[t] = st;
			if (isnan(best) || st > best) {
				best = st;
				*split = cp->at[t];
			}
		}
	}
	return best;
}

/* The largest statistic of a segment: its ends searched when it is short. */
static double
seg_best(struct cp *cp, const struct serie *ss, const struct seg *sg,
    const int *perm, int *split, double *q)
{
	if (sg->len <= CP_ENDS_MAX)
		return seg_scan_ends(cp, ss, sg, perm, split, q);
	return seg_scan(cp, ss, sg, perm, split, q);
}

/* The observed best split of a segment, kept until it splits. */
static void
seg_observe(struct cp *cp, struct serie *ss, struct seg *sg)
{
	sg->best = NAN;
	sg->split = -1;
	if (sg->len >= 2 * cp->min_seg)
		sg->best = seg_best(cp, ss, sg, NULL, &sg->split, NULL);
}

/* The largest statistic over every series and segment, shuffled by perm. */
static double
all_scan(struct cp *cp, const int *perm, int *series, int *segment)
{
	double	 t, best = NAN;
	int	 c, k, split;

	for (c = 0; c < cp->ns; c++)
		for (k = 0; k < cp->ss[c].nsegs; k++) {
			if (isnan(cp->ss[c].segs[k].best))
				continue;
			t = perm == NULL ? cp->ss[c].segs[k].best :
			    seg_best(cp, &cp->ss[c], &cp->ss[c].segs[k], perm,
			    &split, NULL);
			if (isnan(best) || t > best) {
				best = t;
				*series = c;
				*segment = k;
			}
		}
	return best;
}

/* A new shuffle of the records within each block. */
static void
shuffle(struct cp *cp)
{
	int	k, i, j, t, a, n;

	for (k = 0; k + 1 < cp->nbound; k++) {
		a = cp->bound[k];
		n = cp->bound[k + 1] - a;
		for (i = n - 1; i > 0; i--) {
			j = (int)(next_random(&cp->rng) % (uint64_t)(i + 1));
			t = cp->perm[a + i];
			cp->perm[a + i] = cp->perm[a + j];
			cp->perm[a + j] = t;
		}
	}
}

/* Add a block boundary at record at (kept sorted, once). */
static void
add_bound(struct cp *cp, int at)
{
	int	k;

	for (k = 0; k < cp->nbound && cp->bound[k] < at; k++)
		;
	if (k < cp->nbound && cp->bound[k] == at)
		return;
	memmove(&cp->bound[k + 1], &cp->bound[k],
	    sizeof(*cp->bound) * (size_t)(cp->nbound - k));
	cp->bound[k] = at;
	cp->nbound++;
}

/* Split segment k of series c at record at. */
static void
split_seg(struct cp *cp, int c, int k, int at)
{
	struct serie	*ss = &cp->ss[c];
	struct seg	*sg;

	ss->segs = xrealloc(ss->segs, sizeof(*ss->segs) *
	    ((size_t)ss->nsegs + 1));
	memmove(&ss->segs[k + 1], &ss->segs[k],
	    sizeof(*ss->segs) * (size_t)(ss->nsegs - k));
	ss->nsegs++;
	seg_free(&ss->segs[k]);
	sg = &ss->segs[k];
	sg[1].a = at;
	sg[0].b = at;
	seg_rank(ss, &sg[0]);
	seg_rank(ss, &sg[1]);
	seg_observe(cp, ss, &sg[0]);
	seg_observe(cp, ss, &sg[1]);
	add_bound(cp, at);
}

/*
 * The test of the observed largest statistic t: the shuffles that reach
 * it, stopping once more than bmax have (it cannot stand then).
 */
static int
exceed(struct cp *cp, double t, int reps, int bmax, struct cp_cost *cost)
{
	int	r, b = 0, cs, ks;

	/* Each block's own records, which its shuffles then mix. */
	for (r = 0; r < cp->nrec; r++)
		cp->perm[r] = r;
	for (r = 0; r < reps && b <= bmax; r++) {
		shuffle(cp);
		if (all_scan(cp, cp->perm, &cs, &ks) >= t - 1e-12 * fabs(t))
			b++;
		if (cost != NULL)
			cost->perms++;
	}
	return b;
}

static void
cp_init(struct cp *cp, const struct cp_series *s, int ns, int nrec,
    const struct cp_opts *o)
{
	int	c;

	memset(cp, 0, sizeof(*cp));
	cp->nrec = nrec;
	cp->ns = ns;
	cp->min_seg = o->min_seg;
	cp->rng = o->seed;
	cp->ss = xcalloc((size_t)(ns > 0 ? ns : 1), sizeof(*cp->ss));
	cp->bound = xcalloc((size_t)nrec + 2, sizeof(*cp->bound));
	cp->perm = xcalloc((size_t)nrec + 1, sizeof(*cp->perm));
	cp->fc = xcalloc((size_t)nrec + 2, sizeof(*cp->fc));
	cp->fs = xcalloc((size_t)nrec + 2, sizeof(*cp->fs));
	cp->z = xcalloc((size_t)nrec + 2, sizeof(*cp->z));
	cp->pre = xcalloc((size_t)nrec + 2, sizeof(*cp->pre));
	cp->row = xcalloc((size_t)nrec + 2, sizeof(*cp->row));
	cp->at = xcalloc((size_t)nrec + 2, sizeof(*cp->at));
	cp->bound[0] = 0;
	cp->bound[1] = nrec;
	cp->nbound = 2;
	for (c = 0; c < ns; c++) {
		cp->ss[c].s = &s[c];
		cp->ss[c].id_at = xcalloc((size_t)nrec + 1,
		    sizeof(*cp->ss[c].id_at));
		cp->ss[c].segs = xcalloc(1, sizeof(*cp->ss[c].segs));
		cp->ss[c].nsegs = 1;
		cp->ss[c].segs[0].a = 0;
		cp->ss[c].segs[0].b = nrec;
		seg_rank(&cp->ss[c], &cp->ss[c].segs[0]);
		seg_observe(cp, &cp->ss[c], &cp->ss[c].segs[0]);
	}
}

static void
cp_done(struct cp *cp)
{
	int	c, k;

	for (c = 0; c < cp->ns; c++) {
		for (k = 0; k < cp->ss[c].nsegs; k++)
			seg_free(&cp->ss[c].segs[k]);
		free(cp->ss[c].segs);
		free(cp->ss[c].id_at);
	}
	free(cp->ss);
	free(cp->bound);
	free(cp->perm);
	free(cp->fc);
	free(cp->fs);
	free(cp->z);
	free(cp->pre);
	free(cp->row);
	free(cp->at);
}

static int
found_cmp(const void *a, const void *b)
{
	const struct cp_found	*x = a, *y = b;

	if (x->series != y->series)
		return x->series - y->series;
	return x->index - y->index;
}

/* The series' values must be in record order, inside [0, nrec). */
static int
series_check(const struct cp_series *s, int ns, int nrec, char **cause)
{
	int	c, i;

	for (c = 0; c < ns; c++)
		for (i = 0; i < s[c].n; i++)
			if (s[c].at[i] < 0 || s[c].at[i] >= nrec ||
			    (i > 0 && s[c].at[i] <= s[c].at[i - 1]) ||
			    isnan(s[c].v[i]))
				return errorf(cause, "change points: series "
				    "%d: value %d out of order or NAN", c, i);
	return 0;
}

int
cp_detect(const struct cp_series *s, int ns, int nrec,
    const struct cp_opts *o, struct cp_found **out, struct cp_cost *cost,
    char **cause)
{
	struct cp	 cp;
	struct cp_found	*f = NULL;
	double		 t;
	int		 nf = 0, reps, bmax, b, c, k, step = 0;

	*out = NULL;
	if (!(o->alpha > 0 && o->alpha < 1) || o->min_seg < 2 || nrec < 0 ||
	    ns < 0)
		return errorf(cause, "change points: alpha %g or a minimum "
		    "segment of %d out of range", o->alpha, o->min_seg);
	if (series_check(s, ns, nrec, cause) != 0)
		return -1;
	/* R + 1 a multiple of 100, with room for at least one exceedance. */
	for (reps = 200; o->alpha * reps < 2; reps *= 2)
		;
	bmax = (int)floor(o->alpha * reps + 1e-9) - 1;
	reps--;
	if (cost != NULL) {
		memset(cost, 0, sizeof(*cost));
		cost->reps = reps;
	}
	cp_init(&cp, s, ns, nrec, o);
	for (;;) {
		t = all_scan(&cp, NULL, &c, &k);
		if (isnan(t) || !(t > 0))
			break;
		step++;
		if (cost != NULL)
			cost->steps++;
		if ((b = exceed(&cp, t, reps, bmax, cost)) > bmax)
			break;
		f = xrealloc(f, sizeof(*f) * ((size_t)nf + 1));
		f[nf].series = c;
		f[nf].index = cp.ss[c].segs[k].split;
		f[nf].step = step;
		f[nf].p = (b + 1.0) / (reps + 1.0);
		f[nf].stat = t;
		nf++;
		split_seg(&cp, c, k, cp.ss[c].segs[k].split);
	}
	cp_done(&cp);
	if (nf > 1)
		qsort(f, (size_t)nf, sizeof(*f), found_cmp);
	*out = f;
	return nf;
}

int
cp_scan(const double *v, int n, int min_seg, int ends, double *q)
{
	struct cp_series s;
	struct cp_opts	 o;
	struct cp	 cp;
	int		*at, i, split = -1;

	at = xmalloc(sizeof(*at) * (size_t)(n > 0 ? n : 1));
	for (i = 0; i < n; i++) {
		at[i] = i;
		q[i] = NAN;
	}
	s.n = n;
	s.at = at;
	s.v = v;
	cp_opts_default(&o);
	o.min_seg = min_seg;
	cp_init(&cp, &s, 1, n, &o);
	if (n >= 2 * min_seg && min_seg >= 2)
		(ends ? seg_scan_ends : seg_scan)(&cp, &cp.ss[0],
		    &cp.ss[0].segs[0], NULL, &split, q);
	cp_done(&cp);
	free(at);
	return split;
}
