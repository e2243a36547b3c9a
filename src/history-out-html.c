/*
 * history -o html: one self-contained page (XHTML, as report's): the
 * change points as the text lists them, then a chart per column of its
 * values over the records in their order, each segment's median as a
 * level line, each change point a dashed line with its change.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare-kernel.h"
#include "compare-view.h"
#include "history-view.h"
#include "resultset.h"
#include "text.h"

#define W	720		/* The chart's size and margins. */
#define H	190
#define ML	72
#define MR	16
#define MT	14
#define MB	30

/* The lowest and highest value of a column, for its y axis. */
static int
span(const struct hist_view *v, int col, double *lo, double *hi)
{
	double	x;
	int	i, n = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < v->h->n; i++) {
		x = v->h->recs[i].v[col];
		if (isnan(x))
			continue;
		n++;
		if (x < *lo)
			*lo = x;
		if (x > *hi)
			*hi = x;
	}
	if (n == 0)
		return 0;
	/* From zero when that loses little, else around the values. */
	if (*lo > 0 && *lo < (*hi - *lo) * 2)
		*lo = 0;
	if (*hi == *lo)
		*hi = *lo + (*lo != 0 ? fabs(*lo) * 0.1 : 1);
	return n;
}

static double
px(const struct hist_view *v, double i)
{
	return ML + (v->h->n > 1 ? i / (v->h->n - 1) : 0.5) * (W - ML - MR);
}

static double
py(double x, double lo, double hi)
{
	return MT + (1 - (x - lo) / (hi - lo)) * (H - MT - MB);
}

/* The column's change points: a dashed line each, with its change. */
static void
marks(FILE *f, const struct hist_view *v, int col)
{
	const struct hist_cp	*cp;
	double			 x;
	int			 k;

	for (k = 0; k < v->ncps; k++) {
		cp = &v->cps[k];
		if (cp->col != col)
			continue;
		x = (px(v, cp->index - 1) + px(v, cp->index)) / 2;
		fprintf(f, "<line class=\"cp\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\"><title>change point at record %d: "
		    "%+.1f%%, %s</title></line>\n", x, MT, x, H - MB,
		    cp->index, cp->c.change_pct,
		    cmp_verdict_name(cp->c.verdict));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"cpl\">%+.1f%% "
		    "%s</text>\n", x + 3, MT + 10, cp->c.change_pct,
		    cmp_verdict_name(cp->c.verdict));
	}
}

/* The segments' medians, a level line each. */
static void
levels(FILE *f, const struct hist_view *v, int col, double lo, double hi)
{
	double	m;
	int	i, from, to;

	for (i = 0; i < v->h->n; i = to) {
		hist_segment(v, col, i, &from, &to);
		m = hist_segment_median(v, col, from, to);
		if (isnan(m))
			continue;
		fprintf(f, "<line class=\"lvl\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>\n", px(v, from), py(m, lo, hi),
		    px(v, to - 1), py(m, lo, hi));
	}
}

static void
chart(FILE *f, const struct hist_view *v, int col)
{
	const struct history	*h = v->h;
	double			 lo, hi, x;
	char			 b[64];
	int			 i, pen = 0;

	if (span(v, col, &lo, &hi) == 0)
		return;
	fprintf(f, "<h2>%s (%s)</h2>\n<svg xmlns=\"http://www.w3.org/2000/"
	    "svg\" width=\"%d\" height=\"%d\" role=\"img\"><title>%s over "
	    "%d records</title>\n", rs_col_name(col), cmp_view_unit(col), W, H,
	    rs_col_name(col), h->n);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "class=\"frame\"/>\n", ML, MT, W - ML - MR, H - MT - MB);
	cmp_view_median(b, sizeof(b), col, 1, 0, hi, NAN);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"ax\">%s</text>\n", ML - 4,
	    MT + 4, b);
	cmp_view_median(b, sizeof(b), col, 1, 0, lo, NAN);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"ax\">%s</text>\n", ML - 4,
	    H - MB, b);
	fprintf(f, "<text x=\"%d\" y=\"%d\">record 0</text><text x=\"%d\" "
	    "y=\"%d\" class=\"ax\">record %d</text>\n", ML, H - 10, W - MR,
	    H - 10, h->n - 1);
	levels(f, v, col, lo, hi);
	fputs("<path class=\"s\" d=\"", f);
	for (i = 0; i < h->n; i++) {
		x = h->recs[i].v[col];
		if (isnan(x)) {
			pen = 0;
			continue;
		}
		fprintf(f, "%s%.1f %.1f ", pen ? "L" : "M", px(v, i),
		    py(x, lo, hi));
		pen = 1;
	}
	fputs("\"/>\n", f);
	marks(f, v, col);
	fputs("</svg>\n", f);
}

/* Each change point, as the text says it. */
static void
listing(FILE *f, const struct hist_view *v)
{
	const struct hist_cp	*cp;
	char			 line[1024];
	int			 k, i;

	fputs("<h2>Change points</h2>\n", f);
	if (v->ncps == 0)
		fputs("<p>No change point in any column.</p>\n", f);
	fputs("<ul>\n", f);
	for (k = 0; k < v->ncps; k++) {
		cp = &v->cps[k];
		fprintf(f, "<li><b>%s</b> at record %d (", rs_col_name(cp->col),
		    cp->index);
		text_xml(f, v->h->recs[cp->index].file);
		fprintf(f, "): %+.1f%%, %s, p %.3g", cp->c.change_pct,
		    cmp_verdict_name(cp->c.verdict), cp->p);
		for (i = 0; i < cp->nset; i++) {
			fprintf(f, "%s%s ", i == 0 ? "; settings: " : ", ",
			    cp->set[i].name);
			text_xml(f, cp->set[i].before);
			fputs(" &#8594; ", f);
			text_xml(f, cp->set[i].after);
		}
		if (cp->explained) {
			km_text(line, sizeof(line), &cp->moved);
			if (line[0] != '\0') {
				fputs("; moved: ", f);
				text_xml(f, line);
			}
		}
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static int
html_print(FILE *f, const struct hist_view *v)
{
	int	col;

	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
	    "lang=\"en\"><head><meta charset=\"utf-8\"/>"
	    "<title>bonnie-ng history</title>\n<style>\nbody{font-family:"
	    "sans-serif}svg text{font-size:11px}.ax{text-anchor:end}\n"
	    ".frame{fill:none;stroke:#999}.s{fill:none;stroke:#1f77b4;"
	    "stroke-width:1.5}\n.lvl{stroke:#555;stroke-width:1}.cp{stroke:"
	    "#d62728;stroke-dasharray:4 3}.cpl{fill:#d62728}\n</style>"
	    "</head><body>\n", f);
	fprintf(f, "<h1>bonnie-ng history: %d records, %s</h1>\n", v->h->n,
	    hist_by_words(v->by));
	fprintf(f, "<p>Change points by E-divisive means on ranks, each "
	    "tested by %d permutations of the records; false alarms at most "
	    "%g over all columns together.  A level line is a segment's "
	    "median; a dashed line a change point.</p>\n", v->cost.reps,
	    v->opts.alpha);
	listing(f, v);
	for (col = 0; col < RS_NCOLS; col++)
		if (v->shown[col])
			chart(f, v, col);
	fprintf(f, "<p>result: %s</p>\n</body></html>\n", v->exit ?
	    "worse" : "ok");
	return ferror(f) ? -1 : 0;
}

const struct hist_printer hist_out_html = { "html", html_print };
