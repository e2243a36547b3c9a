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

/*
 * One line.  A line with no measured point is not drawn and has no entry
 * in the legend; a unit with no line drawn has no panel.
 */
struct svg_series {
	enum phase_id	 phase;
	/*
	 * The chunk size; lines of one chunk share a dash.  A line along a
	 * list axis (job or file counts) puts here whatever tells its
	 * lines apart.
	 */
	uint64_t	 chunk;
	const char	*label;		/* The legend's words; NULL: "block
					   write, chunk 4k". */
	const char	*colour;	/* NULL: the phase's (phase.h); else
					   the source's, sweeps overlaid. */
	const double	*rate;		/* One per size; NaN: not measured. */
	const struct knee *knees;	/* Knees across sizes, ringed at the
					   middle of their step. */
	int		 nknees;
	/*
	 * A knee on a list axis (sweep --jobs, --files): when mark_title is
	 * not NULL, the point mark is ringed with that sentence as its
	 * title, and mark_label ("knee: 4 jobs") written beside it.
	 */
	int		 mark;
	const char	*mark_title;
	const char	*mark_label;
};

/* A line of the key under the title: "sweep 2: b.json (cache cold)". */
struct svg_key {
	const char	*colour;
	const char	*text;
};

struct svg_plot {
	const char	*title;		/* A line of text above the plot. */
	int		 nsizes;
	const uint64_t	*sizes;		/* The x values, ascending: file
					   sizes in bytes, or counts. */
	uint64_t	 ram;		/* Bytes; 0 when unknown or when the
					   x axis is not file size. */
	const char	*x_label;	/* NULL: "file size"; the plot adds
					   " (log2 scale)". */
	/* The x ticks' format; NULL: units_size_short(). */
	int		(*x_tick)(char *, size_t, uint64_t);
	int		 nseries;
	const struct svg_series *series;
	/*
	 * A panel per phase, named by it, instead of one per unit: sweeps
	 * overlaid, whose colours are their sources'.
	 */
	int		 by_phase;
	/* Lines under the title, each a colour's swatch and its words. */
	int		 nkeys;
	const struct svg_key *keys;
};

/*
 * Write the plot to f.  The y axis of a panel is logarithmic when its
 * rates span more than a factor of ten, else linear from zero; the axis
 * label says which.  Throughput ticks say bytes per second in binary
 * units (units_rate_bytes(): "512 MiB/s", "1 GiB/s"), at powers of two on
 * a log axis and at multiples of a power of two on a linear one.  Returns 0, or -1 with errno if f failed.
 */
int	svg_plot_write(FILE *f, const struct svg_plot *);

#endif
