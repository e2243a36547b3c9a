/*
 * Formatting of results.  Nothing here reads a clock or touches a file
 * other than the FILE it is given, so all of it is unit-testable.
 */
#ifndef BONNIE_REPORT_H
#define BONNIE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

/* The classic three header lines, each ending in a newline. */
extern const char report_header[];

/*
 * The phases of the classic row and of the bonnie++ CSV, in their column
 * order.  These frozen formats name these six and no others, so a phase
 * added to the table never changes them; bonnie++'s CSV names of their
 * pairs are the phases' bonnie_name (phase.h).
 */
#define CLASSIC_NCOLS	6
extern const enum phase_id classic_columns[CLASSIC_NCOLS];
/* The mask of the classic phases. */
unsigned report_classic_mask(void);

/*
 * One classic row: label cut to 8, size in MiB, five K/sec %CPU pairs and
 * the seek pair.  A phase that did not run prints "-" for both fields.
 * Returns the length written to buf (like snprintf).
 */
int	report_row(char *buf, size_t len, const char *label, uint64_t size_mib,
	    const struct phase_result ph[PH_COUNT]);

/*
 * The latency row (-L): "Latency", the size, then each classic phase's p99
 * with a unit (us, ms, s) under its K/sec column, "-" for phases not run.
 */
int	report_latency_row(char *buf, size_t len, uint64_t size_mib,
	    const struct phase_result ph[PH_COUNT]);

/*
 * The line of a phase outside the classic row, under it: the phase's
 * column ("Sync"), the size, the rate and %CPU under the first pair, the
 * unit, and the latency percentiles; "-" for the figures of a phase that
 * did not run.  latency: print the percentiles (0 for summary rows).
 */
int	report_extra_row(char *buf, size_t len, enum phase_id,
	    uint64_t size_mib, const struct phase_result *, int latency);

/*
 * The file creation block (--files), in the manner of bonnie++'s
 * "Sequential Create / Random Create" lines: its three header lines, then
 * per row the label cut to 8, the files spec (N[:MAX:MIN][/DIRS], N in
 * units of 1024) in 14, and for create, stat (bonnie++'s "Read"), delete,
 * then the random three, "%6.0f %4.0f" files/sec and %CPU, "-" for a phase
 * not run.  The latency row gives each phase's p99 under its pair.
 */
#define FILES_NCOLS	6
extern const enum phase_id files_columns[FILES_NCOLS];
extern const char report_files_header[];
unsigned report_files_mask(void);
/*
 * The files spec the row shows, as bonnie++'s -n takes it: N (files /
 * 1024), :MAX:MIN when MAX > 0, /DIRS when DIRS > 1.
 */
void	report_files_spec(char *buf, size_t len, uint64_t files, uint64_t max,
	    uint64_t min, uint64_t dirs);
int	report_files_row(char *buf, size_t len, const char *label,
	    const char *spec, const struct phase_result ph[PH_COUNT]);
int	report_files_latency_row(char *buf, size_t len,
	    const struct phase_result ph[PH_COUNT]);

struct record;

/*
 * The whole text report of a record: the header, a row per run, with -L a
 * latency row under each, then a line for each phase that is selected but
 * not classic; for several runs the summary rows labelled "#median",
 * "#min" and "#max".  0, or -1 if the stream failed.
 */
int	report_write_text(FILE *, const struct record *, int latency);
/*
 * -K: under the report, a line per phase of the kernel's account
 * (report-kernel.c).  0 or -1.
 */
int	report_write_kernel(FILE *, const struct record *);
/*
 * report -o html: each source's kernel account, a table and a timeline
 * chart per phase (report-timeline.c); put writes text escaped.
 */
struct result_set;
void	report_html_kernel(FILE *, const struct result_set *, int,
	    void (*put)(const char *));

/*
 * The text report of bonnie++ 2.00 (bonnie-ng pp, report-pp.c): per run,
 * when a phase of the test file ran, the "Version ... Sequential Output"
 * block (three header lines, the row, the Latency line of worst-case
 * latencies), and when a file creation phase ran, the "Sequential Create
 * / Random Create" block.  Figures as units_pp_rate() writes them, never
 * "+++++"; a phase that did not run leaves its columns blank.  0, or -1
 * if the stream failed.
 */
int	report_write_pp(FILE *, const struct record *);

/* The summary of runs for one of "median", "min" or "max". */
void	report_summary(const struct run_result *, int nruns, const char *which,
	    struct phase_result out[PH_COUNT]);

#endif
