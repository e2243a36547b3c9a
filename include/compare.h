/*
 * Comparing result sets column by column: the change of the medians and
 * a verdict.  With at least three runs on both sides the verdict comes
 * from the runs' distributions (a Mann-Whitney U test, or, where the
 * sample sizes are too small for that test ever to reach 95%, a bootstrap
 * interval of the median difference); with fewer runs a change within
 * the threshold is "same".
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
enum cmp_verdict { CMP_NA, CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_MISSING };
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
	double		 cv_base, cv_new;	/* Spread: sd / mean over two
						   or more runs, else NAN. */
	unsigned	 flags_base, flags_new;	/* RS_F_* of any run. */
};

const char	*cmp_verdict_name(enum cmp_verdict);
const char	*cmp_method_name(enum cmp_method);

/*
 * Compare the values y (new) with x (base), higher being better unless
 * lower_better: the medians, the change, the spreads and the verdict,
 * by the test above (three or more values a side) or by the threshold in
 * percent.  Fills every field of the cell that the values decide.
 */
void	cmp_values(const double *x, int nx, const double *y, int ny,
	    double threshold, int lower_better, struct cmp_cell *);
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
 * A percentile bootstrap 95% interval of median(y) - median(x), with
 * reps resamples from a fixed seed, so the result is reproducible.
 */
void	cmp_bootstrap(const double *x, int nx, const double *y, int ny,
	    int reps, uint64_t seed, double *lo, double *hi);

#endif
