/*
 * A history as "bonnie-ng history" prints it (history-view.c): every
 * column's series over the records in their order, the change points
 * found in them all at once (changepoint.c), and at each what changed:
 * the two segments' medians and the change's interval and verdict, as
 * compare gives them (compare.c), the settings that differ between the
 * records on either side, and what moved in the kernel's account
 * (compare-kernel.c) between the records nearest it.  The printers
 * (history-out-*.c) only read the view.
 */
#ifndef BONNIE_HISTORY_VIEW_H
#define BONNIE_HISTORY_VIEW_H

#include <stdio.h>

#include "changepoint.h"
#include "compare.h"
#include "compare-kernel.h"
#include "history.h"

/* Records each side of a change point read again to explain it. */
#define HIST_WINDOW	8

/* A setting that differs between the records either side of a change. */
struct hist_setting {
	const char	*name;
	char		*before, *after;
};

struct hist_cp {
	int		 col;
	int		 index;		/* The first record after the change. */
	int		 from, to;	/* Its segments: [from, index) and
					   [index, to). */
	int		 step;		/* Found at step 1, 2, ... */
	double		 p;		/* The permutation test's. */
	struct cmp_cell	 c;		/* The segments compared (the
					   medians, the change, its interval
					   and verdict). */
	int		 nset;
	struct hist_setting *set;
	int		 explained;	/* The neighbours were read again. */
	struct km_moved	 moved;		/* Its names are copies (owned). */
	char		*unread;	/* Why not, or NULL. */
};

struct hist_view {
	struct history	*h;
	enum hist_by	 by;
	struct cp_opts	 opts;
	double		 threshold;	/* Percent, for the verdicts. */
	const int	*fail_on;	/* [RS_NCOLS]: the gate. */
	int		 shown[RS_NCOLS]; /* Columns some record has. */
	int		 ncps;
	struct hist_cp	*cps;		/* By column, then index. */
	struct cp_cost	 cost;
	int		 exit;		/* 1: a gated column's newest
					   segment is worse. */
	int		 worse_col;	/* That column, or -1. */
};

/* An output of history, by its name for -o. */
struct hist_printer {
	const char	*name;
	int		(*print)(FILE *, const struct hist_view *);
};

extern const struct hist_printer hist_out_text;
extern const struct hist_printer hist_out_json;
extern const struct hist_printer hist_out_html;

/* Find the change points of h (in its order) and explain each. */
int	hist_analyse(struct hist_view *, char **cause);
void	hist_view_free(struct hist_view *);
/* "by start", "by kernel release", "by label". */
const char *hist_by_words(enum hist_by);
/* The segment of column col that record i is in: [*from, *to). */
void	hist_segment(const struct hist_view *, int col, int i, int *from,
	    int *to);
/* The median of column col over records [from, to); NAN none. */
double	hist_segment_median(const struct hist_view *, int col, int from,
	    int to);

#endif
