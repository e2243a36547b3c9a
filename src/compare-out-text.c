/*
 * compare's text output: the table of every column, base against each
 * new side, with the change, the verdict and how it was reached, the
 * settings that differ above it and what moved in the kernel's account
 * below; for sweep records, a table per new sweep and phase with a row
 * per point.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare-out.h"
#include "compare-view.h"
#include "error.h"
#include "phase.h"
#include "resultset.h"
#include "rs-read.h"
#include "text.h"

/*
 * For each new side whose target differs from the base's: say so, and
 * give the file system's cost per column, which is what such a
 * comparison is for.  Returns the lines printed.
 */
static int
print_fs_cost(FILE *f, const struct cmp_view *cmp)
{
	char	 dev[256];
	double	 r;
	int	 k, col, fs, lines = 0;

	for (k = 1; k < cmp->nsets; k++) {
		if (!cmp_view_targets_differ(cmp, k, &fs))
			continue;
		cmp_view_target(&cmp->sets[fs == 0 ? k : 0].set, dev,
		    sizeof(dev));
		cmp_view_escape(dev, sizeof(dev));
		fputs("note: the targets differ: ", f);
		text_put(f, cmp->sets[fs == 0 ? 0 : k].file);
		fputs(" measured a file system, ", f);
		text_put(f, cmp->sets[fs == 0 ? k : 0].file);
		fprintf(f, " the %s.\nThe file system's cost per column (a "
		    "rate as a share of the device's, a CPU\ncost as a "
		    "multiple of the device's):\n",
		    dev);
		lines += 3;
		for (col = 0; col < RS_NCOLS; col++) {
			if (!cmp->shown[col] ||
			    isnan(r = cmp_view_fs_ratio(cmp, col, k)))
				continue;
			if (RS_KIND(col) == RS_KIND_CPU)
				fprintf(f, "  %-11s %6.2fx the device's CPU "
				    "%s\n", rs_col_name(col), r,
				    rs_cost_unit(col));
			else
				fprintf(f, "  %-11s %6.1f%% of the device's "
				    "rate (%+.1f%%)\n", rs_col_name(col),
				    100 * r, 100 * (r - 1));
			lines++;
		}
	}
	return lines;
}

int
cmp_out_text_settings(FILE *f, const struct cmp_view *cmp)
{
	char		 (*val)[256], *bad;
	int		 i, k, differs, known, unknown, header = 0;

	val = xcalloc((size_t)cmp->nsets, sizeof(*val));
	for (i = 0; i < cmp_view_nsettings(); i++) {
		if (!cmp_view_listed(i))
			continue;
		/*
		 * Listed when two sides that know it disagree, or when one
		 * side knows it and another does not.
		 */
		differs = unknown = 0;
		known = -1;
		for (k = 0; k < cmp->nsets; k++) {
			cmp_view_show(&cmp->sets[k].set, i, val[k],
			    sizeof(val[k]));
			cmp_view_escape(val[k], sizeof(val[k]));
			if (strcmp(val[k], "-") == 0) {
				cmp_view_unknown(&cmp->sets[k], i, val[k],
				    sizeof(val[k]));
				unknown = 1;
				continue;
			}
			if (known >= 0 && strcmp(val[k], val[known]) != 0)
				differs = 1;
			known = k;
		}
		if (!differs && !(unknown && known >= 0))
			continue;
		if (!header) {
			fprintf(f, "Settings that differ (base | new%s):\n",
			    cmp->nsets > 2 ? " 1 | new 2 ..." : "");
			header++;
		}
		header++;
		fprintf(f, "  %-14s %s", cmp_view_setting_name(i), val[0]);
		for (k = 1; k < cmp->nsets; k++)
			fprintf(f, " | %s", val[k]);
		fputc('\n', f);
	}
	free(val);

	for (k = 0; k < cmp->nsets; k++)
		if (cmp_view_is_bonnie_pp(&cmp->sets[k]))
			break;
	if (k < cmp->nsets) {
		fprintf(f, "note: the per-char columns (putc, getc) measure "
		    "different work: bonnie++\nmakes one read(2) or write(2) "
		    "per byte, bonnie-ng calls stdio's putc and getc\n");
		header += 2;
	}

	for (k = 0; k < cmp->nsets; k++)
		if (cmp_view_is_emulated(&cmp->sets[k]))
			break;
	if (k < cmp->nsets) {
		fprintf(f, "note: bonnie-ng vm's guests ran on an emulated CPU "
		    "(TCG): the per-char\ncolumns and %%CPU are the "
		    "emulator's, not the kernel's; request sizes, the VM\n"
		    "counters, swap, reclaim and pressure are the guest "
		    "kernel's own\n");
		header += 3;
	}

	/* Runs are comparable only when the settings that must match do. */
	for (k = 1; k < cmp->nsets; k++) {
		if ((bad = cmp_view_not_comparable(cmp, k)) != NULL) {
			fputs("warning: ", f);
			text_put(f, cmp->sets[k].file);
			fputs(" is not comparable with ", f);
			text_put(f, cmp->sets[0].file);
			fprintf(f, ": %s\n", bad);
			header++;
		}
		free(bad);
	}
	return header + print_fs_cost(f, cmp);
}

/* The last line of the table. */
static void
print_result(FILE *f, const struct cmp_view *cmp)
{
	char	*r = cmp_view_result(cmp);

	fprintf(f, "result: %s\n", r);
	free(r);
}

static void
print_excluded(FILE *f, const struct cmp_view *cmp)
{
	int	i;

	if (cmp->nexcluded == 0)
		return;
	fprintf(f, "warning: %d run%s left out of the statistics (stopped "
	    "on an error or a signal):\n", cmp->nexcluded,
	    cmp->nexcluded == 1 ? "" : "s");
	for (i = 0; i < cmp->nexcluded; i++) {
		fputs("  ", f);
		text_put(f, cmp->excluded[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n");
}

/* Under the table: each column with a verdict, and what moved. */
static void
print_moved(FILE *f, const struct cmp_view *cmp)
{
	char	line[1024];
	int	at = 0, said = 0;

	while (cmp_view_moved_next(cmp, &at, line, sizeof(line))) {
		if (!said++)
			fprintf(f, "What moved in the kernel's account "
			    "(per GiB moved, per thousand ops):\n");
		fprintf(f, "%s\n", line);
	}
	if (said)
		fprintf(f, "\n");
}

/*
 * The table's cells, a row per shown column: column, unit, base, cv, then
 * per new side new, cv, change, verdict, method and flags.  Each table
 * column is as wide as its widest cell, so that a long interval or value
 * widens its own column only; numbers are right-aligned, words left.
 */
#define TT_LEAD		4		/* column, unit, base, cv */
#define TT_SIDE		6		/* new, cv, change, verdict, method,
					   flags */
#define TT_CELL		48

static const char *const tt_head[TT_LEAD + TT_SIDE] = {
	"column", "unit", "base", "cv",
	"new", "cv", "change", "verdict", "method", "flags"
};
/* Right-aligned (numbers) or not, by the same index. */
static const int tt_right[TT_LEAD + TT_SIDE] = {
	0, 0, 1, 1, 1, 1, 1, 0, 0, 0
};

static void
text_table(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_cell	*c;
	char			*cells, *cell;
	int			*w, ncol, nrow, col, k, r, i, t, last, pad;

	ncol = TT_LEAD + TT_SIDE * (cmp->nsets - 1);
	cells = xcalloc((size_t)(RS_NCOLS + 1) * (size_t)ncol, TT_CELL);
	w = xcalloc((size_t)ncol, sizeof(*w));
#define CELL(r, i)	(cells + ((size_t)(r) * (size_t)ncol + (size_t)(i)) * TT_CELL)
	for (i = 0; i < ncol; i++) {
		t = i < TT_LEAD ? i : TT_LEAD + (i - TT_LEAD) % TT_SIDE;
		if (t == TT_LEAD && cmp->nsets > 2)
			snprintf(CELL(0, i), TT_CELL, "new %d",
			    (i - TT_LEAD) / TT_SIDE + 1);
		else
			snprintf(CELL(0, i), TT_CELL, "%s", tt_head[t]);
	}
	nrow = 1;
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		c = cmp_view_cell(cmp, col, 0);
		snprintf(CELL(nrow, 0), TT_CELL, "%s", rs_col_name(col));
		snprintf(CELL(nrow, 1), TT_CELL, "%s", cmp_view_unit(col));
		cmp_view_value(CELL(nrow, 2), TT_CELL, cmp, col, c->nbase,
		    c->ubase, c->base, c->cpu_base);
		cmp_view_cv(CELL(nrow, 3), TT_CELL, c->cv_base);
		for (k = 1; k < cmp->nsets; k++) {
			c = cmp_view_cell(cmp, col, k - 1);
			i = TT_LEAD + TT_SIDE * (k - 1);
			cmp_view_value(CELL(nrow, i), TT_CELL, cmp, col,
			    c->nnew, c->unew, c->new, c->cpu_new);
			cmp_view_cv(CELL(nrow, i + 1), TT_CELL, c->cv_new);
			if (isnan(c->change_pct))
				snprintf(CELL(nrow, i + 2), TT_CELL, "-");
			else
				snprintf(CELL(nrow, i + 2), TT_CELL, "%+.1f%%",
				    c->change_pct);
			snprintf(CELL(nrow, i + 3), TT_CELL, "%s",
			    cmp_verdict_name(c->verdict));
			cmp_view_method(CELL(nrow, i + 4), TT_CELL, cmp, c);
			cmp_view_flags(CELL(nrow, i + 5), TT_CELL,
			    c->flags_base, c->flags_new);
		}
		nrow++;
	}
	for (r = 0; r < nrow; r++)
		for (i = 0; i < ncol; i++)
			if (w[i] < text_width(CELL(r, i)))
				w[i] = text_width(CELL(r, i));
	for (r = 0; r < nrow; r++) {
		/* The last column with something in it ends the line. */
		for (last = ncol - 1; last > 0 && *CELL(r, last) == '\0';
		    last--)
			;
		for (i = 0; i <= last; i++) {
			cell = CELL(r, i);
			t = i < TT_LEAD ? i : TT_LEAD + (i - TT_LEAD) % TT_SIDE;
			if (i > 0)
				fputc(' ', f);
			pad = w[i] - text_width(cell);
			if (tt_right[t])
				fprintf(f, "%*s", pad, "");
			fputs(cell, f);
			if (!tt_right[t] && i < last)
				fprintf(f, "%*s", pad, "");
		}
		fputc('\n', f);
	}
#undef CELL
	free(w);
	free(cells);
}

static int
text_runs(FILE *f, const struct cmp_view *cmp)
{
	int	k;

	for (k = 0; k < cmp->nsets; k++) {
		if (k == 0)
			fputs("base: ", f);
		else
			fprintf(f, "new %d: ", k);
		text_put(f, cmp->sets[k].file);
		fprintf(f, " (%s, %d run%s",
		    rs_format_name(cmp->sets[k].format), cmp->sets[k].nruns,
		    cmp->sets[k].nruns == 1 ? "" : "s");
		if (cmp->left_out[k] > 0)
			fprintf(f, " used, %d left out", cmp->left_out[k]);
		fprintf(f, ")\n");
	}
	fprintf(f, "\n");
	print_excluded(f, cmp);
	if (cmp_out_text_settings(f, cmp) > 0)
		fprintf(f, "\n");
	text_table(f, cmp);
	fprintf(f, "\n");
	print_moved(f, cmp);
	fprintf(f, "cv: the spread of a side's runs (standard deviation over "
	    "mean), with two or more.\nflags: b base, n new; I imprecise (a "
	    "phase under 0.5 s), W warm (not cold).\nMethods: thr the "
	    "threshold; MW the change's interval from the Mann-Whitney\n"
	    "test (exact where the runs allow), boot the bootstrap's (3 "
	    "against 3 or 4 runs).\n");
	fprintf(f, "Values are medians over a file's runs; latency (lat) is "
	    "the worst case, or a\ntext report's 99th percentile.\n");
	cmp_view_rule(f, cmp);
	fprintf(f, "CPU is compared as cost: CPU seconds per GiB (per thousand "
	    "seeks, syncs or\nfiles for the phases that count them), from "
	    "the rate and %%CPU, the raw %%CPU\nin brackets; a %%CPU that "
	    "fell only because the rate fell is no gain.\n");
	if (cmp->latency_skipped)
		fprintf(f, "Latency is not compared: the sides record "
		    "different latencies (a text\nreport's Latency row is the "
		    "99th percentile, JSON and CSV the worst case).\n");
	print_result(f, cmp);
	return ferror(f) ? -1 : 0;
}

/* One phase's table of a new sweep against the base. */
static void
sweep_table(FILE *f, const struct cmp_view *cmp, const struct cmp_table *tb)
{
	const struct phase	*ph = phase_table[tb->phase];
	const struct cmp_point	*p;
	struct cmp_point_words	 w;
	char			 unit[32], line[1024];
	int			 i, n;

	fprintf(f, "%s, %s: ", ph->words, phase_unit(ph, UNIT_TABLE, unit,
	    sizeof(unit)));
	text_put(f, cmp->sets[tb->k].file);
	fputs(" against ", f);
	text_put(f, cmp->sets[0].file);
	fprintf(f, "\n%-18s %12s %12s %8s  %-12s %s\n", "point", "base", "new",
	    "change", "verdict", "by (runs)");
	for (i = tb->first; i < tb->first + tb->n; i++) {
		p = &cmp->points[i];
		if (!p->shown)
			continue;
		cmp_view_point_words(p, &w);
		fprintf(f, "%-18s %12s %12s %8s  %-12s %s (%d and %d)\n",
		    p->place, w.base, w.new, w.change,
		    cmp_verdict_name(p->c.verdict),
		    cmp_method_name(p->c.method), p->c.nbase, p->c.nnew);
	}
	/* What moved in the kernel's account, point by point. */
	for (i = tb->first, n = 0; i < tb->first + tb->n; i++) {
		p = &cmp->points[i];
		if (!p->shown || km_line(line, sizeof(line), p->place,
		    cmp_verdict_name(p->c.verdict), p->c.change_pct,
		    &p->moved) == -1)
			continue;
		if (n++ == 0)
			fputs("What moved:\n", f);
		fputs("  ", f);
		text_put(f, line);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/*
 * Sweep records: the settings that differ, the sweeps, then a table per
 * new sweep and phase, and the result.
 */
static int
text_sweeps(FILE *f, const struct cmp_view *cmp)
{
	char	*r;
	int	 k;

	if (cmp_out_text_settings(f, cmp) > 0)
		fputc('\n', f);
	for (k = 0; k < cmp->nsets; k++) {
		fputs(k == 0 ? "base: " : "new: ", f);
		text_put(f, cmp->sets[k].file);
		fprintf(f, " (a sweep of %d points)\n", cmp->npoints[k]);
	}
	fputc('\n', f);
	for (k = 0; k < cmp->ntables; k++)
		sweep_table(f, cmp, &cmp->tables[k]);
	fprintf(f, "Values are each point's median over its runs.\n");
	cmp_view_rule(f, cmp);
	r = cmp_view_result(cmp);
	fprintf(f, "result: %s\n", r);
	free(r);
	return ferror(f) ? -1 : 0;
}

const struct cmp_printer cmp_out_text = {
	.name = "text",
	.runs = text_runs,
	.sweeps = text_sweeps,
};
