/*
 * compare -o markdown: the comparison as a Markdown table for a
 * pull-request comment (GitHub's flavour, with its tables): the verdict
 * as the heading, a row per column (of sweeps, a table per new sweep and
 * phase, a row per point), the settings that differ, and how to read it.
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
 * s in a Markdown table cell, as text whatever it holds: no line breaks,
 * and every character that would start markup escaped (a cell's "|",
 * emphasis, code, HTML and autolinks, entities, strikethrough, and the
 * brackets and "!" of a link or an image, so that a file named
 * "![x](http:...)" is not fetched).
 */
static void
md_text(FILE *f, const char *s)
{
	size_t	 len = strlen(s) * 6 + 1;
	char	*e = xmalloc(len), *p;

	/* Control characters first shown as \x1b, then Markdown's own. */
	text_escape(e, len, s);
	for (p = e; *p != '\0'; p++) {
		if (strchr("|\\`*_<[]!&~", *p) != NULL)
			fputc('\\', f);
		fputc(*p, f);
	}
	free(e);
}

/*
 * The verdict as the heading, then the inputs: a run record's format and
 * runs (and those left out), a sweep's points.
 */
static void
md_head(FILE *f, const struct cmp_view *cmp)
{
	char	*r;
	int	 k;

	r = cmp_view_result(cmp);
	fprintf(f, "### bonnie-ng compare: ");
	md_text(f, r);
	fprintf(f, "\n\n");
	free(r);
	for (k = 0; k < cmp->nsets; k++) {
		if (k == 0)
			fprintf(f, "- base: ");
		else if (cmp->nsets > 2)
			fprintf(f, "- new %d: ", k);
		else
			fprintf(f, "- new: ");
		md_text(f, cmp->sets[k].file);
		if (cmp->sweep) {
			fprintf(f, " (a sweep of %d points)\n",
			    cmp->npoints[k]);
			continue;
		}
		fprintf(f, " (%s, %d run%s",
		    rs_format_name(cmp->sets[k].format), cmp->sets[k].nruns,
		    cmp->sets[k].nruns == 1 ? "" : "s");
		if (cmp->left_out[k] > 0)
			fprintf(f, " used, %d left out", cmp->left_out[k]);
		fprintf(f, ")\n");
	}
	for (k = 0; k < cmp->nexcluded; k++) {
		fprintf(f, "- left out of the statistics: ");
		md_text(f, cmp->excluded[k]);
		fprintf(f, "\n");
	}
}

/* The settings that differ, as the text has them, quoted as code. */
static int
md_settings(FILE *f, const struct cmp_view *cmp)
{
	char	*diff = NULL;
	size_t	 len = 0;
	FILE	*mf;

	if ((mf = open_memstream(&diff, &len)) == NULL)
		return -1;
	if (cmp_out_text_settings(mf, cmp) > 0) {
		if (fclose(mf) != 0) {
			free(diff);
			return -1;
		}
		fprintf(f, "\n```\n%s```\n", diff);
	} else if (fclose(mf) != 0) {
		free(diff);
		return -1;
	}
	free(diff);
	return 0;
}

/* A verdict, in bold when the gate selects it and it failed. */
static void
md_verdict(FILE *f, const struct cmp_view *cmp, int col,
    const struct cmp_cell *c)
{
	if (cmp_view_fails(cmp, col, c))
		fprintf(f, " **%s** |", cmp_verdict_name(c->verdict));
	else
		fprintf(f, " %s |", cmp_verdict_name(c->verdict));
}

/*
 * A Markdown table for a pull-request comment: the verdict first, the
 * table, the settings that differ, and how to read it.
 */
static int
md_runs(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_cell	*c;
	char			 b[64], m[64], s[32], line[1024];
	int			 col, k, at = 0, said = 0;

	md_head(f, cmp);
	/* The text table's columns: its cv and flags too. */
	fprintf(f, "\n| column | unit | base | cv |");
	for (k = 1; k < cmp->nsets; k++) {
		if (cmp->nsets > 2)
			fprintf(f, " new %d | cv | change | verdict | method | "
			    "flags |", k);
		else
			fprintf(f, " new | cv | change | verdict | method | "
			    "flags |");
	}
	fprintf(f, "\n| :-- | :-- | --: | --: |");
	for (k = 1; k < cmp->nsets; k++)
		fprintf(f, " --: | --: | --: | :-- | :-- | :-- |");
	fprintf(f, "\n");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		c = cmp_view_cell(cmp, col, 0);
		cmp_view_median(b, sizeof(b), col, c->nbase, c->ubase, c->base,
		    c->cpu_base);
		cmp_view_cv(s, sizeof(s), c->cv_base);
		fprintf(f, "| ");
		md_text(f, rs_col_name(col));
		fprintf(f, " | ");
		md_text(f, cmp_view_unit(col));
		fprintf(f, " | %s | %s |", b, s);
		for (k = 1; k < cmp->nsets; k++) {
			c = cmp_view_cell(cmp, col, k - 1);
			cmp_view_median(b, sizeof(b), col, c->nnew, c->unew,
			    c->new, c->cpu_new);
			cmp_view_cv(s, sizeof(s), c->cv_new);
			fprintf(f, " %s | %s |", b, s);
			if (isnan(c->change_pct))
				fprintf(f, " - |");
			else
				fprintf(f, " %+.1f%% |", c->change_pct);
			cmp_view_method(m, sizeof(m), cmp, c);
			md_verdict(f, cmp, col, c);
			cmp_view_flags(s, sizeof(s), c->flags_base,
			    c->flags_new);
			fprintf(f, " %s | %s |", m, s);
		}
		fprintf(f, "\n");
	}
	while (cmp_view_moved_next(cmp, &at, line, sizeof(line))) {
		if (!said++)
			fprintf(f, "\nWhat moved in the kernel's account "
			    "(per GiB moved, per thousand ops):\n\n");
		fprintf(f, "- ");
		md_text(f, line);
		fprintf(f, "\n");
	}
	if (md_settings(f, cmp) != 0)
		return -1;
	fprintf(f, "\ncv: the spread of a side's runs (standard deviation over "
	    "mean), with two or\nmore.  flags: b base, n new; I imprecise (a "
	    "phase under 0.5 s), W warm (not\ncold).\n");
	fprintf(f, "\nValues are medians over a file's runs; bold marks a "
	    "column selected by\n`--fail-on` that got worse or is missing.\n");
	cmp_view_rule(f, cmp);
	fprintf(f, "CPU is compared as cost: CPU seconds per GiB (per thousand "
	    "seeks, syncs or\nfiles for the phases that count them), from "
	    "the rate and %%CPU, the raw %%CPU\nin brackets.\n");
	if (cmp->latency_skipped)
		fprintf(f, "Latency is not compared: the sides record "
		    "different latencies.\n");
	return ferror(f) ? -1 : 0;
}

/* Sweep records: a table per new sweep and phase, a row per point. */
static int
md_sweeps(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_table	*tb;
	const struct cmp_point	*p;
	const struct phase	*ph;
	struct cmp_point_words	 w;
	char			 unit[32];
	int			 t, i;

	md_head(f, cmp);
	for (t = 0; t < cmp->ntables; t++) {
		tb = &cmp->tables[t];
		ph = phase_table[tb->phase];
		fprintf(f, "\n#### ");
		md_text(f, ph->words);
		fprintf(f, ", ");
		md_text(f, phase_unit(ph, UNIT_TABLE, unit, sizeof(unit)));
		fprintf(f, ": ");
		md_text(f, cmp->sets[tb->k].file);
		fprintf(f, " against ");
		md_text(f, cmp->sets[0].file);
		fprintf(f, "\n\n| point | base | new | change | verdict | "
		    "by (runs) |\n| :-- | --: | --: | --: | :-- | :-- |\n");
		for (i = tb->first; i < tb->first + tb->n; i++) {
			p = &cmp->points[i];
			if (!p->shown)
				continue;
			cmp_view_point_words(p, &w);
			fprintf(f, "| ");
			md_text(f, p->place);
			fprintf(f, " | %s | %s | %s |", w.base, w.new, w.change);
			md_verdict(f, cmp, p->col, &p->c);
			fprintf(f, " %s (%d and %d) |\n",
			    cmp_method_name(p->c.method), p->c.nbase,
			    p->c.nnew);
		}
	}
	if (md_settings(f, cmp) != 0)
		return -1;
	fprintf(f, "\nValues are each point's median over its runs; bold "
	    "marks a phase selected by\n`--fail-on` that got worse or is "
	    "missing at the point.\n");
	cmp_view_rule(f, cmp);
	return ferror(f) ? -1 : 0;
}

const struct cmp_printer cmp_out_markdown = {
	.name = "markdown",
	.runs = md_runs,
	.sweeps = md_sweeps,
};
