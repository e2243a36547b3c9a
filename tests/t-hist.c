/*
 * Unit tests: the latency histogram's percentiles against known
 * distributions, its error bound and its range.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "tap.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The exact quantile with the same definition as hist_quantile(). */
static uint64_t
exact(const uint64_t *sorted, size_t n, double q)
{
	double	r = ceil(q * (double)n);

	if (r < 1)
		r = 1;
	return sorted[(size_t)r - 1];
}

static double
relerr(uint64_t got, uint64_t want)
{
	return want ? fabs((double)got - (double)want) / (double)want : 0;
}

int
main(void)
{
	static struct hist	h, h2;
	const double		qs[] = { 0.5, 0.9, 0.99, 0.999 };
	uint64_t		*v;
	size_t			i, n = 200000;
	double			worst = 0;
	struct latency		l;
	uint64_t		x;
	int			k;

	v = malloc(sizeof(*v) * n);

	/* Uniform 1..1000000 ns: every quantile within 1%. */
	hist_init(&h);
	srand(42);
	for (i = 0; i < n; i++) {
		v[i] = 1 + (uint64_t)rand() % 1000000;
		hist_add(&h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < 4; k++) {
		double e = relerr(hist_quantile(&h, qs[k]), exact(v, n, qs[k]));
		if (e > worst)
			worst = e;
	}
	ok(worst <= 0.01, "uniform: p50..p99.9 within 1%");
	is_int(hist_quantile(&h, 0), v[0], "q=0 is the exact minimum");
	is_int(hist_quantile(&h, 1), v[n - 1], "q=1 is the exact maximum");

	/* Log-normal-ish: exp of uniform over 100 ns .. 1 hour. */
	hist_init(&h);
	worst = 0;
	for (i = 0; i < n; i++) {
		double u = (double)rand() / RAND_MAX;
		v[i] = (uint64_t)exp(log(100.0) + u * (log(3.6e12) -
		    log(100.0)));
		hist_add(&h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < 4; k++) {
		double e = relerr(hist_quantile(&h, qs[k]), exact(v, n, qs[k]));
		if (e > worst)
			worst = e;
	}
	ok(worst <= 0.01, "100 ns to 1 h, log spread: within 1%");
	is_int(h.over, 0, "an hour fits in the buckets");

	/* The bound holds for every single value from 100 ns to 2 h. */
	worst = 0;
	for (x = 100; x < 7200ull * 1000000000ull; x += x / 37 + 1) {
		hist_init(&h2);
		hist_add(&h2, x);
		hist_add(&h2, x);
		h2.min = 0;		/* Let the bucket speak, not min/max. */
		h2.max = UINT64_MAX;
		double e = relerr(hist_quantile(&h2, 0.5), x);
		if (e > worst)
			worst = e;
	}
	ok(worst <= 0.01, "any single value 100 ns .. 2 h within 1%");

	/* A known two-point distribution. */
	hist_init(&h);
	for (i = 0; i < 990; i++)
		hist_add(&h, 10000);		/* 10 us */
	for (i = 0; i < 10; i++)
		hist_add(&h, 50000000);		/* 50 ms */
	hist_summary(&h, &l);
	is_int(l.count, 1000, "count");
	is_near(l.p50, 10e-6, 10e-6 * 0.01, "p50 is 10 us");
	is_near(l.p99, 10e-6, 10e-6 * 0.01, "p99 is 10 us (990 of 1000)");
	is_near(l.p999, 50e-3, 50e-3 * 0.01, "p99.9 is 50 ms");
	is_near(l.max, 50e-3, 0, "max is exact");
	is_near(l.min, 10e-6, 0, "min is exact");

	/* Merging equals adding everything to one. */
	hist_init(&h2);
	for (i = 0; i < 10; i++)
		hist_add(&h2, 50000000);
	hist_init(&h);
	for (i = 0; i < 990; i++)
		hist_add(&h, 10000);
	hist_merge(&h, &h2);
	ok(hist_quantile(&h, 0.999) == hist_quantile(&h, 0.9999) &&
	    h.count == 1000, "merge keeps counts and tails");

	hist_init(&h);
	hist_summary(&h, &l);
	ok(l.count == 0 && l.p99 == 0, "empty histogram summarises to zero");
	hist_add(&h, UINT64_MAX);
	is_int(h.over, 1, "a value past the last bucket is counted as over");
	ok(hist_quantile(&h, 0.5) == UINT64_MAX, "and reported as the max");
	ok(sizeof(struct hist) < 64 * 1024, "fixed size under 64 KiB");
	free(v);
	return done_testing();
}
