/*
 * Comparing result sets column by column: the change of the medians and
 * a verdict.  With at least three runs on both sides the verdict comes
 * from a 95% interval of the change: the exact one that inverts the
 * Mann-Whitney test (the shift of the logarithms), or, where the sample
 * sizes are too small for that test ever to reach 95% (3 against 3 or
 * 4), a bootstrap interval of the medians' difference.  The interval
 * within the threshold is "same", wholly above or below no change
 * "better" or "worse", else "inconclusive".  With fewer runs a change
 * beyond the threshold is "better" or "worse", else "inconclusive",
 * never "same".
 */
#ifndef BONNIE_COMPARE_H
#define BONNIE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "resultset.h"

#define CMP_ALPHA		0.05
#define CMP_MIN_RUNS		3	/* Per side, for a statistical test. */
#define CMP_BOOTSTRAP_REPS	10000
#define CMP_BOOTSTRAP_SEED	0x626f6e6e69652dULL

/*
 * CMP_MISSING: the base has the column and a new side does not (set by
 * the command for the columns a gate selects).
 */
enum cmp_verdict {
	CMP_NA, CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_MISSING,
	CMP_INCONCLUSIVE	/* The runs cannot tell. */
};
/* How the change's interval was found. */
enum cmp_interval {
	CMP_I_NONE,
	CMP_I_EXACT,		/* Mann-Whitney inverted, exact. */
	CMP_I_NORMAL,		/* The same, its normal approximation. */
	CMP_I_BOOTSTRAP		/* The medians', resampled. */
};
enum cmp_method {
	CMP_M_NONE,		/* A side has no value. */
	CMP_M_THRESHOLD,	/* Fewer than three runs: --threshold. */
	CMP_M_MANN_WHITNEY,
	CMP_M_BOOTSTRAP,
	CMP_M_UNMEASURABLE	/* "+++++" on a side: no verdict (n/a). */
};

/* One column compared between a base and one new result set. */
struct cmp_cell {
	int		 nbase, nnew;		/* Measured runs. */
	int		 ubase, unew;		/* Unmeasurable runs. */
	double		 base, new;		/* Medians. */
	/*
	 * A %CPU column is compared as its cost (rs_cpu_cost()): base, new,
	 * change_pct and the verdict are the cost's, and cpu_base, cpu_new
	 * the medians of the raw %CPU (NAN when a side has none).  cost is 0
	 * for the other columns, whose cpu_base and cpu_new are NAN.
	 */
	int		 cost;
	double		 cpu_base, cpu_new;
	double		 change_pct;		/* NAN when not defined. */
	enum cmp_verdict verdict;
	enum cmp_method	 method;
	double		 p;			/* Mann-Whitney p, else NAN. */
	double		 ci_lo, ci_hi;		/* Bootstrap, else NAN. */
	double		 lo_pct, hi_pct;	/* The change's interval, in
						   percent; NAN none. */
	double		 level;			/* Its confidence. */
	enum cmp_interval interval;
	double		 cv_base, cv_new;	/* Spread: sd / mean over two
						   or more runs, else NAN. */
	unsigned	 flags_base, flags_new;	/* RS_F_* of any run. */
};

const char	*cmp_verdict_name(enum cmp_verdict);
const char	*cmp_method_name(enum cmp_method);
/* "exact", "normal", "bootstrap"; NULL for none. */
const char	*cmp_interval_name(enum cmp_interval);

/*
 * Compare the values y (new) with x (base), higher being better unless
 * lower_better: the medians, the change, the spreads and the verdict,
 * by the test above (three or more values a side) or by the threshold in
 * percent.  Fills every field of the cell that the values decide.
 */
void	cmp_values(const double *x, int nx, const double *y, int ny,
	    double threshold, int lower_better, struct cmp_cell *);
/*
 * The measured values of column col of a set's runs, in a new array in
 * *out (a %CPU column's: its costs, rs_cpu_cost()); returns how many, and
 * the runs whose value was unmeasurable ("+++++") in *unmeasured.
 */
int	cmp_collect(const struct result_set *, int col, double **out,
	    int *unmeasured);
/* Compare column col of base and new; threshold in percent. */
void	cmp_column(const struct result_set *base, const struct result_set *new,
	    int col, double threshold, struct cmp_cell *);

/*
 * The two-sided Mann-Whitney U test of x against y, ties given mid-ranks:
 * exact (the permutation distribution of the rank sum) up to 60 values in
 * all, else the normal approximation with tie and continuity corrections.
 * Returns p; *u is U of x (the pairs where x is larger, ties counting
 * half).
 */
double	cmp_mann_whitney(const double *x, int nx, const double *y, int ny,
	    double *u);
/* The smallest two-sided p the exact test can give for these sizes. */
double	cmp_mann_whitney_min_p(int nx, int ny);

/*
 * The 95% interval of the change from x to y in percent, by inverting
 * the Mann-Whitney test on the pairs' log ratios (its ends are the k-th
 * smallest and largest of the nx ny ratios; exact up to 60 values, the
 * normal approximation above).  0 with the interval, its confidence
 * (at least 95%) and how it was found; -1 when the sizes cannot reach
 * 95% (3 against 3 or 4) or a side is empty.
 */
int	cmp_shift_interval(const double *x, int nx, const double *y, int ny,
	    double *lo, double *hi, double *level, enum cmp_interval *);

/*
 * A percentile bootstrap 95% interval of median(y) - median(x), with
 * reps resamples from a fixed seed, so the result is reproducible.
 */
void	cmp_bootstrap(const double *x, int nx, const double *y, int ny,
	    int reps, uint64_t seed, double *lo, double *hi);

#endif
