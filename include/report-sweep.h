/*
 * "bonnie-ng report" of sweep records (src/report-sweep.c): what each
 * sweep printed, again, one after another (text); its plot (svg); or a
 * self-contained page with each one's tables (html).  Several sweeps of
 * the same sizes and chunks, at one job count, are overlaid in one plot
 * (svg and html): a colour per source, a dash per chunk, a panel per
 * phase, each source named with the settings in which the sources
 * differ.  Of other axes, svg is refused and html draws each sweep's own
 * plot under its tables.
 */
#ifndef BONNIE_REPORT_SWEEP_H
#define BONNIE_REPORT_SWEEP_H

#include <stdio.h>

struct result_set;

enum report_form {
	REPORT_TEXT,
	REPORT_HTML,
	REPORT_SVG
};

/*
 * Whether the sweeps sets[0 .. n) can be overlaid: 1 when there are
 * several, of the same sizes and chunks at one job count and no file
 * count axis; else 0, with *cause (when not NULL) saying why.
 */
int	report_sweeps_overlaid(const struct result_set *, int n, char **cause);

/*
 * Write the report of the sweep records sets[0 .. n) in form to f.
 * CMD_OK; CMD_USAGE with *cause when a record cannot be read back as a
 * sweep (before anything is written); CMD_FAIL with *cause when f fails.
 */
int	report_sweeps(FILE *, enum report_form, struct result_set *, int n,
	    char **cause);

#endif
