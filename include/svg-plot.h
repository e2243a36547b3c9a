/*
 * The plot of a sweep as one self-contained SVG document: throughput
 * against file size on a log2 axis, one line per chunk size per phase,
 * RAM and the knees marked.  Each unit (KiB/s, seeks/s, ...: the phase's
 * unit) has its own panel, one above the other, since they share no scale.
 */
#ifndef BONNIE_SVG_PLOT_H
#define BONNIE_SVG_PLOT_H

#include <stdint.h>
#include <stdio.h>

#include "knee.h"
#include "result.h"

struct svg_series {
	enum phase_id	 phase;
	uint64_t	 chunk;
	const double	*rate;		/* One per size; NaN: not measured. */
	const struct knee *knees;	/* Knees found on this line. */
	int		 nknees;
	/* With jobs_axis: the concurrency knee's index, or -1. */
	int		 jobs_knee;
	double		 jobs_gain;	/* The most any later count added. */
	uint64_t	 size;		/* The file size of the line. */
};

struct svg_plot {
	const char	*title;		/* A line of text above the plot. */
	int		 nsizes;
	const uint64_t	*sizes;		/* File sizes in bytes, ascending. */
	uint64_t	 ram;		/* Bytes; 0 when unknown. */
	/*
	 * sweep --jobs: the x axis is the job count (sizes[] holds the
	 * counts), there is no RAM line, and each line's concurrency knee
	 * is marked.
	 */
	int		 jobs_axis;
	double		 knee_pct;
	int		 nseries;
	const struct svg_series *series;
};

/*
 * Write the plot to f.  The y axis of a panel is logarithmic when its
 * rates span more than a factor of ten, else linear from zero; the axis
 * label says which.  Returns 0, or -1 with errno if f failed.
 */
int	svg_plot_write(FILE *f, const struct svg_plot *);

#endif
