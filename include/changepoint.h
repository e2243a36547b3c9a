/*
 * Change points in several series over the same records (changepoint.c):
 * E-divisive means (Matteson and James, 2014) on ranks, with a
 * permutation test of the largest statistic over every series, so that
 * the chance of any false change point in any series is at most alpha.
 *
 * The records are numbered 0 to nrec - 1 in the order of the history; a
 * series has a value at some of them (a column that some records lack).
 * A change point is the index of the first record after the change.
 */
#ifndef BONNIE_CHANGEPOINT_H
#define BONNIE_CHANGEPOINT_H

#include <stdint.h>

#define CP_ALPHA	0.01	/* Over all the series together. */
#define CP_MIN_SEG	3	/* Values on each side of a change. */
#define CP_SEED		0x686973746f7279ULL
/*
 * Segments of up to this many values are searched for both ends of the
 * change (O(L^2)); longer ones for the start only, Y running to the
 * segment's end (O(L log L)).
 */
#define CP_ENDS_MAX	256

struct cp_series {
	int		 n;		/* Values. */
	const int	*at;		/* n record indexes, ascending. */
	const double	*v;		/* n values; none NAN. */
};

struct cp_opts {
	double		 alpha;		/* The false alarm rate, 0 < alpha < 1. */
	int		 min_seg;	/* Values a segment keeps, 2 or more. */
	uint64_t	 seed;		/* Of the permutations. */
};

struct cp_found {
	int		 series;
	int		 index;		/* The first record after the change. */
	int		 step;		/* Found at step 1, 2, ... */
	double		 p;		/* The permutation test's p (an upper
					   bound: (exceedances + 1) / (R + 1)). */
	double		 stat;		/* The statistic on ranks, over the
					   segment it split. */
};

/* What one search did, for the tests and the bench. */
struct cp_cost {
	int		 steps;		/* Tests made. */
	long		 perms;		/* Permutations scanned, in all. */
	int		 reps;		/* R of one test. */
};

void	cp_opts_default(struct cp_opts *);
/*
 * Find the change points of ns series over nrec records.  Returns how
 * many, in a new array in *out (ordered by series, then index), or -1
 * with *cause when an option is out of range.  cost may be NULL.
 */
int	cp_detect(const struct cp_series *, int ns, int nrec,
	    const struct cp_opts *, struct cp_found **out, struct cp_cost *,
	    char **cause);

/*
 * The statistic at every split of v[0..n-1] on ranks (a split at tau
 * puts v[0..tau) before it), for the tests: q[tau] for tau from min_seg
 * to n - min_seg, NAN elsewhere; with ends, the largest over every end
 * of Y.  Returns the best tau, or -1.
 */
int	cp_scan(const double *v, int n, int min_seg, int ends, double *q);

#endif
