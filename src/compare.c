/*
 * The statistics behind "compare": medians, the Mann-Whitney U test, a
 * bootstrap of the median difference, and the verdict for one column.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "error.h"
#include "resultset.h"
#include "stats.h"

#define MW_EXACT_MAX	60	/* Values in all for the exact test. */

const char *
cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_NA:
		return "n/a";
	case CMP_SAME:
		return "same";
	case CMP_BETTER:
		return "better";
	case CMP_WORSE:
		return "worse";
	case CMP_MISSING:
		return "missing";
	case CMP_INCONCLUSIVE:
		return "inconclusive";
	}
	return "?";
}

const char *
cmp_interval_name(enum cmp_interval i)
{
	switch (i) {
	case CMP_I_NONE:
		return NULL;
	case CMP_I_EXACT:
		return "exact";
	case CMP_I_NORMAL:
		return "normal";
	case CMP_I_BOOTSTRAP:
		return "bootstrap";
	}
	return NULL;
}

const char *
cmp_method_name(enum cmp_method m)
{
	switch (m) {
	case CMP_M_NONE:
		return "-";
	case CMP_M_THRESHOLD:
		return "threshold";
	case CMP_M_MANN_WHITNEY:
		return "mann-whitney";
	case CMP_M_BOOTSTRAP:
		return "bootstrap";
	case CMP_M_UNMEASURABLE:
		return "unmeasurable";
	}
	return "?";
}

struct ranked {
	double	v;
	int	from_x;
};

static int
cmp_ranked(const void *a, const void *b)
{
	double	x = ((const struct ranked *)a)->v;
	double	y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

/* The binomial coefficient as a double. */
static double
choose(int n, int k)
{
	double	c = 1;
	int	i;

	if (k < 0 || k > n)
		return 0;
	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

double
cmp_mann_whitney_min_p(int nx, int ny)
{
	double	p = 2 / choose(nx + ny, nx);

	return p > 1 ? 1 : p;
}

/* The upper tail of the standard normal distribution. */
static double
normal_sf(double z)
{
	return 0.5 * erfc(z / sqrt(2));
}

double
cmp_mann_whitney(const double *x, int nx, const double *y, int ny, double *u)
{
	struct ranked	*a;
	double		*dp, total, p, mu, sd, ties = 0, dev;
	long		*r2, w2 = 0, e2, d, s, maxs;
	int		 n = nx + ny, i, j, k;

	if (nx <= 0 || ny <= 0) {
		*u = NAN;
		return 1;
	}
	a = xmalloc(sizeof(*a) * (size_t)n);
	r2 = xmalloc(sizeof(*r2) * (size_t)n);
	for (i = 0; i < nx; i++) {
		a[i].v = x[i];
		a[i].from_x = 1;
	}
	for (i = 0; i < ny; i++) {
		a[nx + i].v = y[i];
		a[nx + i].from_x = 0;
	}
	qsort(a, (size_t)n, sizeof(*a), cmp_ranked);

	/* Mid-ranks, doubled so that they stay whole numbers. */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && a[j].v == a[i].v; j++)
			;
		for (k = i; k < j; k++)
			r2[k] = (long)(i + 1) + (long)j;
		ties += pow(j - i, 3) - (j - i);
	}
	for (i = 0; i < n; i++)
		if (a[i].from_x)
			w2 += r2[i];
	*u = w2 / 2.0 - nx * (nx + 1) / 2.0;
	e2 = (long)nx * (n + 1);
	d = labs(w2 - e2);

	if (n <= MW_EXACT_MAX) {
		/*
		 * The permutation distribution of the doubled rank sum of
		 * nx values drawn from these n ranks: dp[k][s] counts the
		 * ways to pick k of the ranks seen so far summing to s.
		 */
		maxs = (long)n * (n + 1);
		dp = xcalloc((size_t)(nx + 1) * (size_t)(maxs + 1),
		    sizeof(*dp));
		dp[0] = 1;
		for (i = 0; i < n; i++)
			for (k = (i + 1 < nx ? i + 1 : nx); k >= 1; k--)
				for (s = maxs; s >= r2[i]; s--)
					dp[k * (maxs + 1) + s] +=
					    dp[(k - 1) * (maxs + 1) + s - r2[i]];
		total = 0;
		p = 0;
		for (s = 0; s <= maxs; s++) {
			total += dp[nx * (maxs + 1) + s];
			if (labs(s - e2) >= d)
				p += dp[nx * (maxs + 1) + s];
		}
		free(dp);
		p /= total;
	} else {
		mu = nx * (double)ny / 2;
		sd = sqrt(nx * (double)ny / 12 *
		    ((n + 1) - ties / ((double)n * (n - 1))));
		dev = fabs(*u - mu) - 0.5;
		if (dev < 0)
			dev = 0;
		p = sd > 0 ? 2 * normal_sf(dev / sd) : 1;
	}
	free(a);
	free(r2);
	return p > 1 ? 1 : p;
}

/* splitmix64: a small, fixed, portable generator for the bootstrap. */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
resampled_median(const double *v, int n, double *tmp, uint64_t *state)
{
	int	i;

	for (i = 0; i < n; i++)
		tmp[i] = v[next_random(state) % (uint64_t)n];
	stats_sort(tmp, n);
	return stats_median_sorted(tmp, n);
}

/*
 * The bootstrap: reps resamples of each side from a fixed seed, the
 * difference of their medians (ratio 0) or the change of the second's
 * over the first's in percent (ratio 1), sorted, and the percentiles.
 */
static void
bootstrap(const double *x, int nx, const double *y, int ny, int reps,
    uint64_t seed, int ratio, double *lo, double *hi)
{
	double		*diff, *tmp, mx, my;
	uint64_t	 state = seed;
	int		 i;

	if (nx <= 0 || ny <= 0 || reps <= 0) {
		*lo = *hi = NAN;
		return;
	}
	diff = xmalloc(sizeof(*diff) * (size_t)reps);
	tmp = xmalloc(sizeof(*tmp) * (size_t)(nx > ny ? nx : ny));
	for (i = 0; i < reps; i++) {
		my = resampled_median(y, ny, tmp, &state);
		mx = resampled_median(x, nx, tmp, &state);
		diff[i] = ratio ? (my / mx - 1) * 100 : my - mx;
	}
	stats_sort(diff, reps);
	*lo = diff[(int)floor(reps * (CMP_ALPHA / 2))];
	*hi = diff[(int)ceil(reps * (1 - CMP_ALPHA / 2)) - 1];
	free(diff);
	free(tmp);
}

void
cmp_bootstrap(const double *x, int nx, const double *y, int ny, int reps,
    uint64_t seed, double *lo, double *hi)
{
	bootstrap(x, nx, y, ny, reps, seed, 0, lo, hi);
}

/*
 * P(U <= u) for u = 0 to nx ny, U the Mann-Whitney count of nx and ny
 * values without ties: the subsets of nx of the ranks 1 to N by their
 * sum (U is the sum less nx (nx + 1) / 2), counted as in
 * cmp_mann_whitney().
 */
static double *
u_cdf(int nx, int ny)
{
	double	*dp, *cdf, total = 0;
	int	 n = nx + ny, maxs = n * (n + 1) / 2, i, k, s, base;

	dp = xcalloc((size_t)(nx + 1) * (size_t)(maxs + 1), sizeof(*dp));
	dp[0] = 1;
	for (i = 1; i <= n; i++)
		for (k = (i < nx ? i : nx); k >= 1; k--)
			for (s = maxs; s >= i; s--)
				dp[k * (maxs + 1) + s] +=
				    dp[(k - 1) * (maxs + 1) + s - i];
	cdf = xcalloc((size_t)nx * (size_t)ny + 1, sizeof(*cdf));
	base = nx * (nx + 1) / 2;
	for (s = base; s <= base + nx * ny; s++)
		total += dp[nx * (maxs + 1) + s];
	for (s = base; s <= base + nx * ny; s++)
		cdf[s - base] = (s > base ? cdf[s - base - 1] : 0) +
		    dp[nx * (maxs + 1) + s] / total;
	free(dp);
	return cdf;
}

/*
 * How many of the smallest and of the largest pairwise differences the
 * interval leaves out (Lehmann's k, less one): the largest k with
 * P(U < k) <= alpha / 2, from the exact distribution up to MW_EXACT_MAX
 * values, else the normal one.  0 when none can be left out (the sides
 * are too small for the level); *level is the interval's confidence.
 */
static int
shift_k(int nx, int ny, double *level, enum cmp_interval *how)
{
	double	*cdf, mu, sd;
	int	 k;

	if (nx + ny <= MW_EXACT_MAX) {
		cdf = u_cdf(nx, ny);
		for (k = 0; k < nx * ny && cdf[k] <= CMP_ALPHA / 2; k++)
			;
		*level = k > 0 ? 1 - 2 * cdf[k - 1] : NAN;
		*how = CMP_I_EXACT;
		free(cdf);
		return k;
	}
	/* 1.959964: the standard normal's 97.5th percentile. */
	mu = nx * (double)ny / 2;
	sd = sqrt(nx * (double)ny * (nx + ny + 1) / 12);
	k = (int)floor(mu - 1.959964 * sd + 0.5);
	if (k < 1)
		k = 0;
	*level = 1 - CMP_ALPHA;
	*how = CMP_I_NORMAL;
	return k;
}

/*
 * The interval of the change from x to y in percent, from the interval
 * of the shift between the two sides' logarithms (all values positive)
 * by inverting the Mann-Whitney test (Lehmann, "Nonparametrics", 1975,
 * ch. 2; Bauer 1972): its ends are the k-th smallest and the k-th
 * largest of the nx ny differences log y - log x, the shift of a ratio,
 * so the interval of a slowdown does not depend on which side is the
 * base.  With a value 0 or below the differences are y - x over the
 * base's median.  0 with the interval, -1 when the sizes cannot reach
 * the level.
 */
/* How many of the differences y_j - x_i (both sorted) are at most d. */
static double
count_le(const double *x, int nx, const double *y, int ny, double d)
{
	double	n = 0;
	int	i = 0, j;

	/* y_j - x_i <= d when x_i >= y_j - d, which grows with j. */
	for (j = 0; j < ny; j++) {
		while (i < nx && x[i] < y[j] - d)
			i++;
		n += nx - i;
	}
	return n;
}

/* The largest difference y_j - x_i at most d (both sorted). */
static double
largest_le(const double *x, int nx, const double *y, int ny, double d)
{
	double	best = -INFINITY;
	int	i = 0, j;

	for (j = 0; j < ny; j++) {
		while (i < nx && x[i] < y[j] - d)
			i++;
		if (i < nx && y[j] - x[i] > best)
			best = y[j] - x[i];
	}
	return best;
}

/*
 * The k-th smallest (1-based) of the nx ny differences y_j - x_i, without
 * making them: the smallest d with k differences at most d, by bisection
 * on d (each step counts them in O(nx + ny) over the sorted sides), then
 * the difference itself, so that the answer is exact in O((nx + ny) 64)
 * time and no memory past the sides.
 */
static double
kth_diff(const double *x, int nx, const double *y, int ny, double k)
{
	double	lo = y[0] - x[nx - 1], hi = y[ny - 1] - x[0], mid;
	int	i;

	if (count_le(x, nx, y, ny, lo) >= k)
		return lo;
	for (i = 0; i < 200; i++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (count_le(x, nx, y, ny, mid) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return largest_le(x, nx, y, ny, hi);
}

int
cmp_shift_interval(const double *x, int nx, const double *y, int ny,
    double *lo, double *hi, double *level, enum cmp_interval *how)
{
	double	*a, *b, mx;
	int	 i, k, logs = 1;

	*lo = *hi = *level = NAN;
	*how = CMP_I_NONE;
	if (nx <= 0 || ny <= 0 || (k = shift_k(nx, ny, level, how)) == 0) {
		*how = CMP_I_NONE;
		return -1;
	}
	for (i = 0; i < nx; i++)
		logs &= x[i] > 0;
	for (i = 0; i < ny; i++)
		logs &= y[i] > 0;
	mx = stats_median(x, nx);
	if (!logs && mx == 0) {
		*how = CMP_I_NONE;
		return -1;
	}
	a = xmalloc(sizeof(*a) * (size_t)nx);
	b = xmalloc(sizeof(*b) * (size_t)ny);
	for (i = 0; i < nx; i++)
		a[i] = logs ? log(x[i]) : x[i];
	for (i = 0; i < ny; i++)
		b[i] = logs ? log(y[i]) : y[i];
	stats_sort(a, nx);
	stats_sort(b, ny);
	*lo = kth_diff(a, nx, b, ny, k);
	*hi = kth_diff(a, nx, b, ny, (double)nx * ny - k + 1);
	free(a);
	free(b);
	if (logs) {
		*lo = expm1(*lo) * 100;
		*hi = expm1(*hi) * 100;
	} else {
		*lo = *lo / fabs(mx) * 100;
		*hi = *hi / fabs(mx) * 100;
	}
	return 0;
}

/*
 * The measured values of a column, and how many runs were unmeasurable;
 * a %CPU column's values are its costs.
 */
int
cmp_collect(const struct result_set *rs, int col, double **out,
    int *unmeasured)
{
	enum rs_state	st;
	double		v;
	int		i, n = 0;

	*out = xmalloc(sizeof(**out) * (size_t)(rs->nruns > 0 ? rs->nruns : 1));
	*unmeasured = 0;
	for (i = 0; i < rs->nruns; i++) {
		if (RS_KIND(col) == RS_KIND_CPU)
			st = rs_cpu_cost(&rs->runs[i], col, &v);
		else {
			st = rs->runs[i].col[col].state;
			v = rs->runs[i].col[col].v;
		}
		if (st == RS_VALUE)
			(*out)[n++] = v;
		else if (st == RS_UNMEASURABLE)
			(*unmeasured)++;
	}
	return n;
}

/* The median of a column's raw measured values; NAN when there are none. */
static double
raw_median(const struct result_set *rs, int col)
{
	double	*v, m = NAN;
	int	 i, n = 0;

	v = xmalloc(sizeof(*v) * (size_t)(rs->nruns > 0 ? rs->nruns : 1));
	for (i = 0; i < rs->nruns; i++)
		if (rs->runs[i].col[col].state == RS_VALUE)
			v[n++] = rs->runs[i].col[col].v;
	if (n > 0)
		m = stats_median(v, n);
	free(v);
	return m;
}

/* The coefficient of variation of n values; NAN under two. */
static double
spread(const double *v, int n)
{
	struct col_stats	s;

	if (n < 2)
		return NAN;
	stats_compute(v, n, &s);
	return s.cv;
}

static unsigned
col_flags(const struct result_set *rs, int col)
{
	unsigned	f = 0;
	int		i;

	for (i = 0; i < rs->nruns; i++)
		f |= rs->runs[i].col[col].flags;
	return f;
}

/* new higher (dir > 0) or lower (dir < 0) than base: better or worse. */
static enum cmp_verdict
direction(int lower_better, int dir)
{
	if (dir == 0)
		return CMP_SAME;
	if (lower_better)
		dir = -dir;
	return dir > 0 ? CMP_BETTER : CMP_WORSE;
}

static int
all_positive(const double *v, int n)
{
	int	i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/*
 * The verdict of an interval of the change (percent): "same" when it
 * lies within the threshold, "better" or "worse" when it lies wholly on
 * one side of no change (and not within the threshold), "inconclusive"
 * when it does neither: the runs cannot tell.
 */
static enum cmp_verdict
interval_verdict(double lo, double hi, double threshold, int lower_better)
{
	if (isnan(lo) || isnan(hi))
		return CMP_INCONCLUSIVE;
	if (lo >= -threshold && hi <= threshold)
		return CMP_SAME;
	if (lo > 0)
		return direction(lower_better, 1);
	if (hi < 0)
		return direction(lower_better, -1);
	return CMP_INCONCLUSIVE;
}

void
cmp_values(const double *x, int nx, const double *y, int ny,
    double threshold, int lower_better, struct cmp_cell *c)
{
	double	u;

	c->nbase = nx;
	c->nnew = ny;
	c->p = c->ci_lo = c->ci_hi = c->change_pct = NAN;
	c->lo_pct = c->hi_pct = c->level = NAN;
	c->interval = CMP_I_NONE;
	c->base = c->new = NAN;
	c->cv_base = spread(x, nx);
	c->cv_new = spread(y, ny);
	if (nx > 0)
		c->base = stats_median(x, nx);
	if (ny > 0)
		c->new = stats_median(y, ny);
	if (nx > 0 && ny > 0 && c->base != 0)
		c->change_pct = (c->new - c->base) / c->base * 100;
	else if (nx > 0 && ny > 0 && c->new == c->base)
		c->change_pct = 0;

	if (nx == 0 || ny == 0) {
		c->verdict = CMP_NA;
		c->method = CMP_M_NONE;
	} else if (nx >= CMP_MIN_RUNS && ny >= CMP_MIN_RUNS) {
		if (cmp_shift_interval(x, nx, y, ny, &c->lo_pct, &c->hi_pct,
		    &c->level, &c->interval) == 0) {
			c->method = CMP_M_MANN_WHITNEY;
			c->p = cmp_mann_whitney(x, nx, y, ny, &u);
		} else {
			/*
			 * Too few runs for an exact 95% interval (3 against
			 * 3 or 4): the bootstrap's, of the medians'
			 * difference and, from the same resamples, of their
			 * ratio (all values positive).
			 */
			c->method = CMP_M_BOOTSTRAP;
			cmp_bootstrap(x, nx, y, ny, CMP_BOOTSTRAP_REPS,
			    CMP_BOOTSTRAP_SEED, &c->ci_lo, &c->ci_hi);
			if (all_positive(x, nx) && all_positive(y, ny)) {
				bootstrap(x, nx, y, ny, CMP_BOOTSTRAP_REPS,
				    CMP_BOOTSTRAP_SEED, 1, &c->lo_pct,
				    &c->hi_pct);
				c->interval = CMP_I_BOOTSTRAP;
				c->level = 1 - CMP_ALPHA;
			}
		}
		if (c->interval == CMP_I_NONE && !isnan(c->ci_lo))
			/* A value 0 or below: the difference's interval. */
			c->verdict = c->ci_lo == 0 && c->ci_hi == 0 ? CMP_SAME :
			    interval_verdict(c->ci_lo, c->ci_hi, 0,
			    lower_better);
		else
			c->verdict = interval_verdict(c->lo_pct, c->hi_pct,
			    threshold, lower_better);
	} else {
		/* Fewer runs: a change beyond the threshold, or no word. */
		c->method = CMP_M_THRESHOLD;
		if (isnan(c->change_pct))
			c->verdict = direction(lower_better, c->new > c->base ?
			    1 : c->new < c->base ? -1 : 0);
		else if (fabs(c->change_pct) <= threshold)
			c->verdict = CMP_INCONCLUSIVE;
		else
			c->verdict = direction(lower_better,
			    c->change_pct > 0 ? 1 : -1);
	}
}

void
cmp_column(const struct result_set *base, const struct result_set *new,
    int col, double threshold, struct cmp_cell *c)
{
	double	*x, *y;
	int	 nx, ny, ubase, unew;

	memset(c, 0, sizeof(*c));
	c->cpu_base = c->cpu_new = NAN;
	if (RS_KIND(col) == RS_KIND_CPU) {
		c->cost = 1;
		c->cpu_base = raw_median(base, col);
		c->cpu_new = raw_median(new, col);
	}
	nx = cmp_collect(base, col, &x, &ubase);
	ny = cmp_collect(new, col, &y, &unew);
	cmp_values(x, nx, y, ny, threshold, rs_col_lower_better(col), c);
	c->ubase = ubase;
	c->unew = unew;
	c->flags_base = col_flags(base, col);
	c->flags_new = col_flags(new, col);
	if (ubase > 0 || unew > 0) {
		/* Too fast to measure on a side: no verdict either way. */
		c->verdict = CMP_NA;
		c->method = CMP_M_UNMEASURABLE;
		c->p = c->ci_lo = c->ci_hi = NAN;
		c->lo_pct = c->hi_pct = c->level = NAN;
		c->interval = CMP_I_NONE;
	}
	free(x);
	free(y);
}
