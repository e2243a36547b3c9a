/*
 * What moved in the kernel's account of a column's phase between a base
 * and a new result set (compare-kernel.c): the figures of that phase
 * (rs_kphase, per unit of work) that changed most, with the same
 * statistics as the columns where both sides have CMP_MIN_RUNS runs.
 */
#ifndef BONNIE_COMPARE_KERNEL_H
#define BONNIE_COMPARE_KERNEL_H

#include <stddef.h>

#include "resultset.h"

struct json;

#define KM_MAX	4		/* Figures named per column. */

struct km_fig {
	const char	*name;		/* The kernel's or iostat's. */
	const char	*unit;
	int		 level;
	double		 scale;
	int		 scope;		/* enum rs_scope. */
	double		 base, new;	/* Medians. */
	double		 change_pct;	/* NAN when base is 0. */
	double		 p;		/* Mann-Whitney, else NAN. */
};

struct km_moved {
	int		 nbase, nnew;	/* Runs with an account. */
	int		 single;	/* Fewer than CMP_MIN_RUNS a side. */
	int		 large;		/* Only what moved a lot: the column
					   got neither better nor worse. */
	int		 n;
	struct km_fig	 f[KM_MAX];
};

/*
 * The figures of col's phase that moved most from base to new, by the
 * column's verdict (enum cmp_verdict): what moved enough where it got
 * better or worse, what moved a lot where it did not, none where a side
 * is missing.
 */
void	km_column(const struct result_set *base, const struct result_set *new,
	    int col, int verdict, struct km_moved *);
/* "rareq-sz 508 -> 4.0 KiB (-99%), util 98 -> 31%, ..."; "" none. */
void	km_text(char *buf, size_t len, const struct km_moved *);
/*
 * "read -87.6% worse: r_await 0.2 -> 8.5 ms (+...) (single runs)": what
 * (a column, a sweep's point) with its change and verdict; -1 when there
 * is nothing to say (no account, or no large move where the rule is).
 */
int	km_line(char *buf, size_t len, const char *what, const char *verdict,
	    double change_pct, const struct km_moved *);
/* As an array of objects under key. */
void	km_json(struct json *, const char *key, const struct km_moved *);

#endif
