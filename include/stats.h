/*
 * Summary statistics over the runs of one column.
 */
#ifndef BONNIE_STATS_H
#define BONNIE_STATS_H

struct col_stats {
	int	n;
	double	median, mean, sd, min, max;
	double	cv;		/* sd / mean; 0 when the mean is 0. */
};

/* Compute over v[0..n-1] (n may be 0: all fields zero). */
void	stats_compute(const double *v, int n, struct col_stats *);

/*
 * The median of v[0..n-1] (v is left as it is): the middle value, or the
 * mean of the two middle values for an even n; NaN when n is 0.
 */
double	stats_median(const double *v, int n);
/* The same of n values already sorted ascending (NaN when n is 0). */
double	stats_median_sorted(const double *sorted, int n);
/* Sort v[0..n-1] ascending, in place. */
void	stats_sort(double *v, int n);

#endif
