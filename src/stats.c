/*
 * Summary statistics over a column of runs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "stats.h"

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
stats_sort(double *v, int n)
{
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), cmp_double);
}

double
stats_median_sorted(const double *s, int n)
{
	if (n <= 0)
		return NAN;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double
stats_median(const double *v, int n)
{
	double	*s, m;

	if (n <= 0)
		return NAN;
	s = xmalloc(sizeof(*s) * (size_t)n);
	memcpy(s, v, sizeof(*s) * (size_t)n);
	stats_sort(s, n);
	m = stats_median_sorted(s, n);
	free(s);
	return m;
}

void
stats_compute(const double *v, int n, struct col_stats *s)
{
	double	*sorted, sum = 0, ss = 0;
	int	 i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n <= 0)
		return;
	sorted = xmalloc(sizeof(*sorted) * (size_t)n);
	memcpy(sorted, v, sizeof(*sorted) * (size_t)n);
	stats_sort(sorted, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = stats_median_sorted(sorted, n);
	for (i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	/* The sample standard deviation (n - 1), 0 for a single run. */
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
	free(sorted);
}
