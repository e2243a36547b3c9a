/*
 * Sweep records side by side (src/compare-sweep.c): every point of the
 * base and every phase it ran, against each new sweep, with the
 * statistics compare uses on runs (cmp_column() on the point's runs).
 */
#ifndef BONNIE_COMPARE_SWEEP_H
#define BONNIE_COMPARE_SWEEP_H

#include <stddef.h>

struct cmp_view;
struct result_set;

/*
 * 0 when no set is a sweep's, 1 when every set is one and they sweep the
 * same axes, -1 with *cause otherwise (a sweep beside a run record, or
 * other axes).
 */
int	cmp_sweep_check(const struct result_set *, int n, char **cause);
/*
 * Fill the view's sweep part from its sets, threshold and gate: for each
 * new set and phase of the base, a table of every point of the base with
 * its cell (the point's median on each side, the change, the verdict;
 * missing where the gate selects the phase and the new sweep lacks the
 * point), and the exit status, 1 when a selected phase got worse or is
 * missing at a point.  cmp_sweep_view_free() frees what it made.
 */
void	cmp_sweep_view(struct cmp_view *);
void	cmp_sweep_view_free(struct cmp_view *);
/*
 * The settings compare lists (must match, or listed) whose recorded
 * values differ between rs and base, in words ("cache cold (keep
 * there), direct true (false there)") into buf; returns how many.
 */
int	cmp_sweep_differs(char *buf, size_t len, const struct result_set *base,
	    const struct result_set *rs);

#endif
