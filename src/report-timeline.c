/*
 * report -o html: the kernel's account beside the table.  For each
 * source, its first run that has one: a table of each phase's iostat
 * figures, dirty peak and pressure, and a small chart per phase of its
 * timeline: the rate over time on the left axis; nr_dirty, nr_writeback
 * and the device's requests in flight on the right, each as a share of
 * its own peak, which the legend gives.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "phase.h"
#include "report.h"
#include "resultset.h"

#define W	520		/* The chart's size and margins. */
#define H	170
#define ML	64
#define MR	16
#define MT	12
#define MB	30

/* The figures of the table, as read-kernel.c names them. */
static const char *const cols[] = {
	"rareq-sz", "wareq-sz", "aqu-sz", "util", "r_await", "w_await",
	"nr_dirty peak", "io full", "memory full"
};
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))

/* The series drawn on the right axis: their columns and colours. */
static const struct {
	int		 col;
	const char	*name;
	const char	*unit;
	const char	*colour;
} right[] = {
	{ .col = 2, .name = "nr_dirty", .unit = "pages", .colour = "#d95f02" },
	{ .col = 3, .name = "nr_writeback", .unit = "pages",
	  .colour = "#1b9e77" },
	{ .col = 4, .name = "in flight", .unit = "requests",
	  .colour = "#7570b3" }
};
#define NRIGHT	(sizeof(right) / sizeof(right[0]))

static const struct rs_kfig *
figure(const struct rs_kphase *k, const char *name)
{
	int	i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->f[i].name, name) == 0)
			return &k->f[i];
	return NULL;
}

static const struct rs_run *
first_with_account(const struct result_set *rs, int *index)
{
	int	i, p;

	for (i = 0; i < rs->nruns; i++)
		for (p = 0; rs->runs[i].kernel != NULL && p < PH_COUNT; p++)
			if (rs->runs[i].kernel[p].n > 0) {
				*index = i;
				return &rs->runs[i];
			}
	return NULL;
}

static void
figures_table(FILE *f, const struct rs_run *r)
{
	const struct rs_kfig	*x;
	size_t			 c;
	int			 p;

	fprintf(f, "<div class=\"wide\">\n<table>\n<thead><tr><th>phase</th>"
	    "<th>device</th>");
	for (c = 0; c < NCOLS; c++)
		fprintf(f, "<th>%s</th>", cols[c]);
	fprintf(f, "</tr></thead>\n<tbody>\n");
	for (p = 0; p < PH_COUNT; p++) {
		if (r->kernel[p].n == 0)
			continue;
		fprintf(f, "<tr><td>%s</td><td>%s</td>", phase_table[p]->name,
		    figure(&r->kernel[p], "util") != NULL ? "target" : "none");
		for (c = 0; c < NCOLS; c++) {
			if ((x = figure(&r->kernel[p], cols[c])) == NULL)
				fprintf(f, "<td>-</td>");
			else
				fprintf(f, "<td>%.1f%s</td>", x->v,
				    strcmp(x->unit, "%") == 0 ? "%" : x->unit);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody>\n</table>\n</div>\n");
}

/* The largest finite value of column c, 0 when none. */
static double
peak(const struct rs_kphase *k, int c)
{
	double	m = 0, v;
	int	i;

	for (i = 0; i < k->tl_n; i++) {
		v = k->tl[i * RS_TL_COLS + c];
		if (isfinite(v) && v > m)
			m = v;
	}
	return m;
}

static void
line(FILE *f, const struct rs_kphase *k, int c, double top, double tmax,
    const char *colour, int width)
{
	double	v, x, y;
	int	i, open = 0;

	if (!(top > 0))
		return;
	for (i = 0; i < k->tl_n; i++) {
		v = k->tl[i * RS_TL_COLS + c];
		if (!isfinite(v)) {
			if (open)
				fprintf(f, "\"/>\n");
			open = 0;
			continue;
		}
		x = ML + (W - ML - MR) * k->tl[i * RS_TL_COLS] / tmax;
		y = MT + (H - MT - MB) * (1 - v / top);
		if (!open)
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" "
			    "stroke-width=\"%d\" points=\"", colour, width);
		fprintf(f, "%.1f,%.1f ", x, y);
		open = 1;
	}
	if (open)
		fprintf(f, "\"/>\n");
}

static void
chart(FILE *f, int p, const struct rs_kphase *k)
{
	const char	*unit = (phase_table[p]->flags & PHASE_OPS) ? "ops/s" :
	    "KiB/s";
	double		 tmax = k->tl[(k->tl_n - 1) * RS_TL_COLS];
	double		 rmax = peak(k, 1), m;
	size_t		 s;

	if (!(tmax > 0))
		return;
	fprintf(f, "<div class=\"chart\">\n<h2>%s: timeline</h2>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\">\n", phase_table[p]->name,
	    W, H, W, H);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"none\" stroke=\"#999\"/>\n", ML, MT, W - ML - MR,
	    H - MT - MB);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n"
	    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
	    ML - 4, MT + 10, rmax, ML - 4, H - MB);
	fprintf(f, "<text x=\"%d\" y=\"%d\">0 s</text>\n<text x=\"%d\" "
	    "y=\"%d\" text-anchor=\"end\">%.2f s</text>\n", ML, H - MB + 16,
	    W - MR, H - MB + 16, tmax);
	line(f, k, 1, rmax, tmax, "#1f78b4", 2);
	for (s = 0; s < NRIGHT; s++)
		line(f, k, right[s].col, peak(k, right[s].col), tmax,
		    right[s].colour, 1);
	fprintf(f, "</svg>\n<p><span class=\"key\" style=\"background-color: "
	    "#1f78b4\"></span>rate, %s (left axis)", unit);
	for (s = 0; s < NRIGHT; s++) {
		m = peak(k, right[s].col);
		fprintf(f, "; <span class=\"key\" style=\"background-color: "
		    "%s\"></span>%s, as a share of its peak %.0f %s",
		    right[s].colour, right[s].name, m, right[s].unit);
	}
	fprintf(f, "</p>\n</div>\n");
}

void
report_html_kernel(FILE *f, const struct result_set *sets, int n,
    void (*put)(const char *))
{
	const struct rs_run	*r;
	int			 k, p, run;

	for (k = 0; k < n; k++) {
		if ((r = first_with_account(&sets[k], &run)) == NULL)
			continue;
		fprintf(f, "<h2>");
		put(sets[k].file);
		fprintf(f, ", run %d: the kernel's account</h2>\n", run + 1);
		figures_table(f, r);
		for (p = 0; p < PH_COUNT; p++)
			if (r->kernel[p].tl_n >= 2)
				chart(f, p, &r->kernel[p]);
	}
}
