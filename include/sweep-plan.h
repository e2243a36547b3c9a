/*
 * What "bonnie-ng sweep" says around its points (src/sweep-plan.c): the
 * options of one point, the plan, the estimate, the progress line and the
 * warnings summed up over the sweep.
 */
#ifndef BONNIE_SWEEP_PLAN_H
#define BONNIE_SWEEP_PLAN_H

#include <stdint.h>

#include "options.h"
#include "sweep.h"

/*
 * The options of one point: base with the point's size, chunk, job count
 * and file count, quiet, checked.  0, or -1 with *cause.
 */
int	sweep_point_options(const struct options *base,
	    const struct sweep_point *, struct options *, char **cause);
/*
 * The work of a point for the time estimates: the bytes it plans to write,
 * or when it writes none (empty files), its files.
 */
double	sweep_point_work(const struct options *base,
	    const struct sweep_point *);
/* The plan, on stderr before the first point. */
void	sweep_print_plan(const struct sweep_result *, const struct options *,
	    int total, uint64_t max_time);
/* After the first point (which took first seconds): the whole sweep's. */
void	sweep_print_estimate(const struct sweep_result *,
	    const struct options *, int total, double first);
/* The progress line on a terminal: point p of total, the time left. */
void	sweep_progress(const struct sweep_result *, const struct options *,
	    int p, int total, double elapsed, double work_done);
/* The engine's warnings, once for the whole sweep. */
void	sweep_warnings(const struct sweep_result *);

#endif
