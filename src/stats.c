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
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	if (n % 2)
		s->median = sorted[n / 2];
	else
		s->median = (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
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
