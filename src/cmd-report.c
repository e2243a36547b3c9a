/*
 * "bonnie-ng report [-h] [-o text|html|svg] file ...": many results, in any
 * of the formats compare reads, as one table with a row per machine or
 * run, and the sources each came from.  The HTML page is self-contained
 * (no scripts, fonts or style sheets from elsewhere) and has a panel per
 * phase, its rate, CPU cost and latency as SVG bar charts of every source,
 * that scale to any width; it is also well-formed XML, so both HTML and
 * XML tools read it.  Sweep records are shown as the sweep showed them
 * (report-sweep.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "error.h"
#include "phase.h"
#include "report.h"
#include "report-sweep.h"
#include "resultset.h"
#include "rs-read.h"
#include "stats.h"
#include "text.h"
#include "units.h"


/* Table columns before the result columns. */
#define NLEAD		5	/* Source, machine, run, jobs, size. */

struct table {
	int		  nrows;
	int		  ncols;	/* NLEAD + shown result columns. */
	int		  nleft;	/* Columns set left, from the first. */
	int		  col[NLEAD + RS_NCOLS];	/* Result column, or -1. */
	char		  head[NLEAD + RS_NCOLS][48];
	char		**cell;		/* [row * ncols + c] */
	double		 *value;	/* Bar lengths, NAN-free: <0 none. */
	int		 *src;		/* Each row's source (input file). */
	int		 *median;	/* 1 for a source's median row. */
};

static const char *const lead_heads[NLEAD] = {
	"source", "machine", "run", "jobs", "size"
};

/*
 * The colours of the sources in the HTML page, in the order the files are
 * given: the bars, the median marks and the key all take a source's
 * colour from here (as the style classes s0, s1, ...); past the last, the
 * colours come round again.  Told apart with the common colour
 * blindnesses (Okabe and Ito's set, with a grey and a darker yellow).
 */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
	"#7f7f7f", "#b39200"
};
#define NPALETTE	((int)(sizeof(palette) / sizeof(palette[0])))

/* The head of the sources table, whose rows build_sources() makes. */
#define NSRC		6
static const char *const source_heads[NSRC] = {
	"source", "format", "file system", "mount options", "fs options",
	"cache"
};

/* A column's head: "write K/sec", "seeks /sec", "write %CPU", ... */
static void
column_head(char *buf, size_t len, int col)
{
	const struct phase	*p = phase_table[RS_PHASE(col)];
	char			 unit[32];

	if (RS_KIND(col) == RS_KIND_CPU)
		snprintf(buf, len, "%s %%CPU", p->name);
	else if (RS_KIND(col) == RS_KIND_LAT)
		snprintf(buf, len, "%s latency", p->name);
	else
		snprintf(buf, len, "%s %s", p->name,
		    phase_unit(p, UNIT_SHORT, unit, sizeof(unit)));
}

/*
 * The HTML page's %CPU columns carry the CPU cost too; the bars are it:
 * "write %CPU (CPU s/GiB)", "seeks %CPU (CPU s/kseek)".
 */
static void
cost_head(char *buf, size_t len, int col)
{
	snprintf(buf, len, "%s %%CPU (CPU %s)", phase_table[RS_PHASE(col)]->name,
	    rs_cost_unit(col));
}

/* The order the columns appear in: each phase's rate then %CPU. */
static int
column_order(int i)
{
	if (i < 2 * PH_COUNT)
		return i % 2 == 0 ? RS_RATE(i / 2) : RS_CPU(i / 2);
	return i;
}

/*
 * The value a cell shows and its bar: the column's value, or in the HTML
 * page a %CPU with its CPU cost in brackets, the bar being the cost.
 */
static char *
value_cell(int col, enum rs_state st, double v, enum rs_state cst,
    double cost, int html, double *bar)
{
	char	buf[64];

	rs_format_value(buf, sizeof(buf), col, st, v);
	*bar = st == RS_VALUE ? v : -1;
	if (html && RS_KIND(col) == RS_KIND_CPU) {
		*bar = cst == RS_VALUE ? cost : -1;
		if (cst == RS_VALUE)
			return xasprintf("%s (%.3g)", buf, cost);
	}
	return xstrdup(buf);
}

/*
 * The median of a column over a source's runs (of the costs, for cost),
 * as a state: RS_VALUE with *v set, RS_UNMEASURABLE when no run has a
 * value but one was too fast to measure, else RS_NONE.
 */
static enum rs_state
source_median(const struct result_set *rs, int col, int cost, double *v)
{
	enum rs_state	 st;
	double		*x, c;
	int		 i, n = 0, fast = 0;

	x = xcalloc((size_t)rs->nruns, sizeof(*x));
	for (i = 0; i < rs->nruns; i++) {
		st = rs->runs[i].col[col].state;
		c = rs->runs[i].col[col].v;
		if (cost)
			st = rs_cpu_cost(&rs->runs[i], col, &c);
		if (st == RS_VALUE)
			x[n++] = c;
		else if (st == RS_UNMEASURABLE)
			fast = 1;
	}
	*v = n > 0 ? stats_median(x, n) : 0;
	free(x);
	return n > 0 ? RS_VALUE : fast ? RS_UNMEASURABLE : RS_NONE;
}

/*
 * A source gets a median row when its runs are repeats: two or more, of
 * one machine (label) and one size.  A bonnie++ CSV file of several
 * machines has none: their median would measure nothing.
 */
static int
has_median(const struct result_set *rs)
{
	int	i;

	if (rs->nruns < 2)
		return 0;
	for (i = 1; i < rs->nruns; i++)
		if (strcmp(rs->runs[i].label, rs->runs[0].label) != 0 ||
		    rs->runs[i].size != rs->runs[0].size)
			return 0;
	return 1;
}

/* The lead cells of a row of the source rs. */
static void
lead_cells(struct table *t, int row, const struct result_set *rs,
    const char *label, const char *run, uint64_t size)
{
	char	buf[64];

	t->cell[row * t->ncols + 0] = xstrdup(rs->file);
	t->cell[row * t->ncols + 1] = xstrdup(*label ? label : "-");
	t->cell[row * t->ncols + 2] = xstrdup(run);
	/* Workers, each with a file of the size shown. */
	t->cell[row * t->ncols + 3] = xasprintf("%d",
	    rs->set.jobs > 1 ? rs->set.jobs : 1);
	units_size(buf, sizeof(buf), size ? size : rs->set.size);
	t->cell[row * t->ncols + 4] = xstrdup(buf);
}

/*
 * The results table: a row per run of each source and, in the HTML page,
 * under a source of repeated runs their median row.
 */
static void
build(struct table *t, struct result_set *sets, int nsets, int html)
{
	const struct rs_run	*r;
	const struct result_set	*rs;
	enum rs_state		 st, cst;
	double			 cost, v;
	char			 run[16];
	int			 shown[RS_NCOLS] = { 0 }, i, k, c, col, row;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < nsets; k++) {
		t->nrows += sets[k].nruns + (html && has_median(&sets[k]));
		for (i = 0; i < sets[k].nruns; i++)
			for (c = 0; c < RS_NCOLS; c++)
				if (sets[k].runs[i].col[c].state != RS_NONE)
					shown[c] = 1;
	}
	t->nleft = 2;
	for (i = 0; i < NLEAD; i++) {
		t->col[t->ncols] = -1;
		snprintf(t->head[t->ncols++], sizeof(t->head[0]), "%s",
		    lead_heads[i]);
	}
	for (i = 0; i < RS_NCOLS; i++) {
		c = column_order(i);
		if (!shown[c])
			continue;
		t->col[t->ncols] = c;
		if (html && RS_KIND(c) == RS_KIND_CPU)
			cost_head(t->head[t->ncols++], sizeof(t->head[0]), c);
		else
			column_head(t->head[t->ncols++], sizeof(t->head[0]), c);
	}
	t->cell = xcalloc((size_t)t->nrows * (size_t)t->ncols, sizeof(*t->cell));
	t->value = xcalloc((size_t)t->nrows * (size_t)t->ncols,
	    sizeof(*t->value));
	t->src = xcalloc((size_t)t->nrows, sizeof(*t->src));
	t->median = xcalloc((size_t)t->nrows, sizeof(*t->median));
	row = 0;
	for (k = 0; k < nsets; k++) {
		rs = &sets[k];
		for (i = 0; i < rs->nruns; i++, row++) {
			r = &rs->runs[i];
			t->src[row] = k;
			snprintf(run, sizeof(run), "%d", i + 1);
			lead_cells(t, row, rs, r->label, run, r->size);
			for (c = NLEAD; c < t->ncols; c++) {
				col = t->col[c];
				cst = rs_cpu_cost(r, col, &cost);
				t->cell[row * t->ncols + c] = value_cell(col,
				    r->col[col].state, r->col[col].v, cst, cost,
				    html, &t->value[row * t->ncols + c]);
			}
		}
		if (!html || !has_median(rs))
			continue;
		t->src[row] = k;
		t->median[row] = 1;
		lead_cells(t, row, rs, rs->runs[0].label, "median",
		    rs->runs[0].size);
		for (c = NLEAD; c < t->ncols; c++) {
			col = t->col[c];
			st = source_median(rs, col, 0, &v);
			cst = RS_NONE;
			cost = 0;
			if (RS_KIND(col) == RS_KIND_CPU)
				cst = source_median(rs, col, 1, &cost);
			t->cell[row * t->ncols + c] = value_cell(col, st, v,
			    cst, cost, html, &t->value[row * t->ncols + c]);
		}
		row++;
	}
}

/* "unknown" for what a source does not record. */
static const char *
known(const char *s)
{
	return s != NULL && *s != '\0' ? s : "unknown";
}

/*
 * The cache a source ran with: "direct" (O_DIRECT), "cold" or "keep", and
 * how many of its phase results were marked warm (the cache did not stay
 * cold) when any was.
 */
static char *
source_cache(const struct result_set *rs)
{
	const char	*mode;
	int		 i, id, n = 0, warm = 0;

	if (rs->set.direct != NULL && strcmp(rs->set.direct, "yes") == 0)
		mode = cache_state_name(CSTATE_DIRECT);
	else
		mode = known(rs->set.cache);
	for (i = 0; i < rs->nruns; i++)
		for (id = 0; id < PH_COUNT; id++) {
			if (rs->runs[i].col[RS_RATE(id)].state == RS_NONE)
				continue;
			n++;
			warm += (rs->runs[i].col[RS_RATE(id)].flags &
			    RS_F_WARM) != 0;
		}
	if (warm == 0)
		return xstrdup(mode);
	return xasprintf("%s, %d of %d phase results warm", mode, warm, n);
}

/*
 * The sources table: per input file its format and what it records of
 * the file system it ran on, its mount options and the cache.
 */
static void
build_sources(struct table *t, struct result_set *sets, int nsets)
{
	const struct rs_settings	*s;
	int				 k, c;

	memset(t, 0, sizeof(*t));
	t->nrows = nsets;
	t->ncols = NSRC;
	t->nleft = NSRC;
	for (c = 0; c < NSRC; c++) {
		t->col[c] = -1;
		snprintf(t->head[c], sizeof(t->head[0]), "%s", source_heads[c]);
	}
	t->cell = xcalloc((size_t)nsets * NSRC, sizeof(*t->cell));
	t->value = xcalloc((size_t)nsets * NSRC, sizeof(*t->value));
	t->src = xcalloc((size_t)nsets, sizeof(*t->src));
	t->median = xcalloc((size_t)nsets, sizeof(*t->median));
	for (k = 0; k < nsets; k++) {
		s = &sets[k].set;
		t->src[k] = k;
		t->cell[k * NSRC + 0] = xstrdup(sets[k].file);
		t->cell[k * NSRC + 1] = xstrdup(rs_format_name(sets[k].format));
		t->cell[k * NSRC + 2] = xstrdup(known(rs_fs_shown(&sets[k])));
		t->cell[k * NSRC + 3] = xstrdup(known(s->mount_options));
		t->cell[k * NSRC + 4] = xstrdup(known(s->super_options));
		t->cell[k * NSRC + 5] = source_cache(&sets[k]);
	}
}

static void
table_free(struct table *t)
{
	int	i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->value);
	free(t->src);
	free(t->median);
}

/*
 * One cell for a terminal, its control characters escaped (the text came
 * from a file), padded to w columns on the right (left set) or the left.
 */
static void
put_cell(const char *s, size_t w, int left, int last)
{
	size_t	cw = (size_t)text_width(s);

	if (!left)
		for (; cw < w; cw++)
			putchar(' ');
	text_put(stdout, s);
	if (left && !last)
		for (; cw < w; cw++)
			putchar(' ');
	fputs(last ? "\n" : "  ", stdout);
}

static void
print_text(const struct table *t)
{
	size_t	*w;
	int	 r, c;

	w = xcalloc((size_t)t->ncols, sizeof(*w));
	for (c = 0; c < t->ncols; c++) {
		w[c] = (size_t)text_width(t->head[c]);
		for (r = 0; r < t->nrows; r++)
			if ((size_t)text_width(t->cell[r * t->ncols + c]) > w[c])
				w[c] = (size_t)text_width(
				    t->cell[r * t->ncols + c]);
	}
	for (c = 0; c < t->ncols; c++)
		put_cell(t->head[c], w[c], c < t->nleft, c == t->ncols - 1);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			put_cell(t->cell[r * t->ncols + c], w[c],
			    c < t->nleft, c == t->ncols - 1);
	free(w);
}

/* Write s with the characters HTML and XML treat specially escaped. */
static void
put_escaped(const char *s)
{
	text_xml(stdout, s);
}

/*
 * The charts: a panel per phase, holding its rate, its CPU cost and its
 * latency side by side, each a bar per source (its median over repeated
 * runs, else a bar per run), so that a report of many files stays a few
 * screens long.
 */
#define CHART_W		320
#define CHART_LABEL	150	/* Width of the row names. */
#define CHART_BAR	115	/* Width of the longest bar. */
#define CHART_ROW	16
#define CHART_NAME	22	/* Bytes of a row name, cut beyond. */

/* The three charts of a panel. */
enum chart_kind { CHART_RATE, CHART_COST, CHART_LAT, CHART_NKINDS };

struct bar {
	int	 src;		/* The source, for its colour. */
	int	 median;	/* A median over the source's runs. */
	char	 name[CHART_NAME + 8];
	int	 p99;		/* A text report's latency (99th percentile). */
	double	 v;		/* < 0: none. */
	char	 text[48];
};

/* A source's short name: the file's base name, cut to fit (UTF-8). */
static void
short_name(char *buf, size_t len, const char *file, const char *run)
{
	const char	*slash = strrchr(file, '/');
	size_t		 n;

	if (slash != NULL && slash[1] != '\0')
		file = slash + 1;
	snprintf(buf, len, "%s%s%s", file, run != NULL ? " " : "",
	    run != NULL ? run : "");
	if (strlen(buf) > CHART_NAME) {
		n = CHART_NAME - 1;
		while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
			n--;
		snprintf(buf + n, len - n, "\xe2\x80\xa6");	/* An ellipsis. */
	}
}

/* One bar's value: the rate, the CPU cost, or the latency in seconds. */
static void
bar_value(struct bar *b, enum chart_kind k, int col, enum rs_state st,
    double v)
{
	b->v = st == RS_VALUE && v >= 0 ? v : -1;
	if (st == RS_UNMEASURABLE)
		snprintf(b->text, sizeof(b->text), "%s",
		    k == CHART_COST ? "+++" : "+++++");
	else if (st != RS_VALUE)
		snprintf(b->text, sizeof(b->text), "-");
	else if (k == CHART_RATE)
		rs_format_value(b->text, sizeof(b->text), col, st, v);
	else if (k == CHART_COST)
		snprintf(b->text, sizeof(b->text), "%.3g", v);
}

/* The bars of one chart, a source after another.  Returns the count. */
static int
chart_bars(const struct result_set *sets, int nsets, enum chart_kind k,
    int col, struct bar *bars)
{
	const struct result_set	*rs;
	enum rs_state		 st;
	double			 v;
	char			 run[16];
	int			 i, n = 0, s;

	for (s = 0; s < nsets; s++) {
		rs = &sets[s];
		for (i = 0; i < rs->nruns; i++) {
			if (has_median(rs) && i > 0)
				break;
			memset(&bars[n], 0, sizeof(bars[n]));
			bars[n].src = s;
			bars[n].p99 = rs->set.latency != NULL &&
			    strcmp(rs->set.latency, "p99") == 0;
			if (has_median(rs)) {
				bars[n].median = 1;
				st = source_median(rs, col, k == CHART_COST, &v);
				short_name(bars[n].name, sizeof(bars[n].name),
				    rs->file, "median");
			} else {
				v = rs->runs[i].col[col].v;
				st = k == CHART_COST ? rs_cpu_cost(&rs->runs[i],
				    col, &v) : rs->runs[i].col[col].state;
				snprintf(run, sizeof(run), "#%d", i + 1);
				short_name(bars[n].name, sizeof(bars[n].name),
				    rs->file, rs->nruns > 1 ? run : NULL);
			}
			bar_value(&bars[n], k, col, st, v);
			n++;
		}
	}
	return n;
}

/*
 * A latency chart's one unit, from its longest bar (us below 1 ms, ms
 * below 1 s, else s), and each bar's value in it.
 */
static const char *
latency_unit(struct bar *bars, int n)
{
	static const struct { const char *name; double div; } units[] = {
		{ .name = "us", .div = 1e-6 }, { .name = "ms", .div = 1e-3 },
		{ .name = "s", .div = 1 }
	};
	double	max = 0;
	int	i, u = 0;

	for (i = 0; i < n; i++)
		if (bars[i].v > max)
			max = bars[i].v;
	if (max >= 1)
		u = 2;
	else if (max >= 1e-3)
		u = 1;
	for (i = 0; i < n; i++)
		if (bars[i].v >= 0)
			snprintf(bars[i].text, sizeof(bars[i].text), "%.3g",
			    bars[i].v / units[u].div);
	return units[u].name;
}

/* A latency chart's title: which percentile, in whose words. */
static void
latency_title(char *buf, size_t len, const struct bar *bars, int n,
    const char *unit)
{
	int	i, p99 = 0, max = 0;

	for (i = 0; i < n; i++) {
		if (bars[i].v < 0)
			continue;
		p99 += bars[i].p99;
		max += !bars[i].p99;
	}
	snprintf(buf, len, "latency, %s, %s (lower is better)", p99 == 0 ?
	    "worst case (max)" : max == 0 ? "99th percentile (p99)" :
	    "worst case; text reports: p99", unit);
}

static void
print_chart(const char *title, const struct bar *bars, int n)
{
	double	max = 0, w;
	int	i, h = n * CHART_ROW + 6;

	for (i = 0; i < n; i++)
		if (bars[i].v > max)
			max = bars[i].v;
	printf("<div class=\"chart\">\n<h3>");
	put_escaped(title);
	printf("</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "viewBox=\"0 0 %d %d\" width=\"100%%\" "
	    "preserveAspectRatio=\"xMinYMin meet\" role=\"img\" aria-label=\"",
	    CHART_W, h);
	put_escaped(title);
	printf("\">\n");
	for (i = 0; i < n; i++) {
		w = bars[i].v > 0 && max > 0 ? bars[i].v / max * CHART_BAR : 0;
		printf("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
		    CHART_LABEL - 4, i * CHART_ROW + 13);
		put_escaped(bars[i].name);
		if (bars[i].p99 && bars[i].v >= 0 &&
		    strstr(title, "text reports: p99") != NULL)
			fputs(" (p99)", stdout);
		printf("</text>\n");
		if (w > 0)
			printf("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
			    "height=\"%d\" class=\"bar%s s%d\"/>\n",
			    CHART_LABEL, i * CHART_ROW + 3, w, CHART_ROW - 4,
			    bars[i].median ? " median" : "",
			    bars[i].src % NPALETTE);
		printf("<text x=\"%.1f\" y=\"%d\">", CHART_LABEL + w + 3,
		    i * CHART_ROW + 13);
		put_escaped(bars[i].text);
		printf("</text>\n");
	}
	printf("</svg>\n</div>\n");
}

/* The panel of one phase: the charts of the columns some source has. */
static void
print_panel(const struct result_set *sets, int nsets, int id,
    const int *shown, struct bar *bars)
{
	const struct phase	*p = phase_table[id];
	const int		 cols[CHART_NKINDS] = { RS_RATE(id), RS_CPU(id),
	    RS_LAT(id) };
	char			 title[128], unit[32];
	const char		*lu;
	int			 k, n;

	printf("<div class=\"panel\">\n<h2>");
	put_escaped(p->name);
	printf("</h2>\n<div class=\"charts\">\n");
	for (k = 0; k < CHART_NKINDS; k++) {
		if (!shown[cols[k]])
			continue;
		n = chart_bars(sets, nsets, (enum chart_kind)k, cols[k], bars);
		if (k == CHART_RATE)
			snprintf(title, sizeof(title), "rate, %s (higher is "
			    "better)", phase_unit(p, UNIT_SHORT, unit,
			    sizeof(unit)));
		else if (k == CHART_COST)
			snprintf(title, sizeof(title), "CPU %s (lower is "
			    "better)", rs_cost_unit(cols[k]));
		else {
			lu = latency_unit(bars, n);
			latency_title(title, sizeof(title), bars, n, lu);
		}
		print_chart(title, bars, n);
	}
	printf("</div>\n</div>\n");
}

static void
print_panels(const struct table *t, const struct result_set *sets,
    int nsets)
{
	struct bar	*bars;
	int		 shown[RS_NCOLS] = { 0 }, c, id, nbars = 0, k;

	for (c = NLEAD; c < t->ncols; c++)
		shown[t->col[c]] = 1;
	for (k = 0; k < nsets; k++)
		nbars += sets[k].nruns;
	bars = xcalloc((size_t)nbars + 1, sizeof(*bars));
	for (id = 0; id < PH_COUNT; id++)
		if (shown[RS_RATE(id)] || shown[RS_CPU(id)] ||
		    shown[RS_LAT(id)])
			print_panel(sets, nsets, id, shown, bars);
	free(bars);
}

/*
 * A table of the page; key: the first cell of each row starts with the
 * colour of the row's source.  A median row is marked for the style.
 */
static void
print_html_table(const struct table *t, int key)
{
	int	r, c;

	printf("<div class=\"wide\">\n<table>\n<thead>\n<tr>");
	for (c = 0; c < t->ncols; c++) {
		printf("<th>");
		put_escaped(t->head[c]);
		printf("</th>");
	}
	printf("</tr>\n</thead>\n<tbody>\n");
	for (r = 0; r < t->nrows; r++) {
		printf(t->median[r] ? "<tr class=\"median\">" : "<tr>");
		for (c = 0; c < t->ncols; c++) {
			printf("<td>");
			if (key && c == 0)
				printf("<span class=\"key s%d\"></span>",
				    t->src[r] % NPALETTE);
			put_escaped(t->cell[r * t->ncols + c]);
			printf("</td>");
		}
		printf("</tr>\n");
	}
	printf("</tbody>\n</table>\n</div>\n");
}

static void
print_html(const struct table *t, const struct table *src,
    const struct result_set *sets, int nsets)
{
	int	i;

	printf("<!DOCTYPE html>\n"
	    "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	    "<head>\n<meta charset=\"utf-8\"/>\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\"/>\n"
	    "<title>bonnie-ng report</title>\n<style>\n"
	    "body { font-family: sans-serif; margin: 1em; }\n"
	    ".wide { overflow-x: auto; margin: 1em 0; }\n"
	    "table { border-collapse: collapse; }\n"
	    "th, td { border: 1px solid #999; padding: 0.2em 0.5em; "
	    "text-align: right; white-space: nowrap; }\n"
	    "th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; }\n"
	    ".sources th, .sources td { text-align: left; }\n"
	    "tr.median { font-weight: bold; }\n"
	    ".panel { margin: 0.6em 0; border-top: 1px solid #ccc; }\n"
	    ".charts { display: flex; flex-wrap: wrap; gap: 0 1.5em; }\n"
	    ".chart { flex: 1 1 18em; max-width: 28em; }\n"
	    "h2 { font-size: 1.05em; margin: 0.3em 0 0; }\n"
	    "h3 { font-size: 0.85em; font-weight: normal; margin: 0.2em 0; }\n"
	    "svg { max-width: 100%%; height: auto; font-size: 11px; "
	    "font-family: sans-serif; }\n"
	    ".key { display: inline-block; width: 0.8em; height: 0.8em; "
	    "margin-right: 0.4em; }\n"
	    ".bar { stroke-width: 0; }\n"
	    ".bar.median { fill-opacity: 0.35; stroke-width: 2; }\n");
	for (i = 0; i < NPALETTE; i++)
		printf(".s%d { fill: %s; stroke: %s; background-color: %s; }\n",
		    i, palette[i], palette[i], palette[i]);
	printf("</style>\n</head>\n<body>\n<h1>bonnie-ng report</h1>\n"
	    "<div class=\"sources\">\n");
	print_html_table(src, 1);
	printf("</div>\n");
	print_html_table(t, 1);
	print_panels(t, sets, nsets);
	report_html_kernel(stdout, sets, nsets, put_escaped);
	printf("<p>Each source (input file) has its colour, in its bars and "
	    "beside its name; a source of repeated runs (two or more of one "
	    "machine and size) has a median row, drawn as a pale bar with an "
	    "outline; \"unknown\" is what a "
	    "source does not record (bonnie++ CSV and text reports record no "
	    "file system). "
	    "K/sec is KiB per second; latency is the worst case "
	    "(a text report's Latency row: the 99th percentile); "
	    "a %%CPU column has the CPU cost in brackets, CPU seconds per "
	    "GiB (per thousand seeks, syncs or files for the phases that count "
	    "them) from the rate and %%CPU, and "
	    "its bars are the cost, since a %%CPU falls with the rate; "
	    "+++++ means too fast to measure.</p>\n</body>\n</html>\n");
}

/* What the command line asked for. */
struct report_args {
	enum report_form	output;
};

/*
 * Sweep records are redrawn on their own: not among run records, and a
 * plot is of one sweep.  CMD_OK when the inputs are all run records
 * (*sweeps 0) or all sweep records (*sweeps 1), else CMD_USAGE.
 */
static int
check_inputs(const struct report_args *a, const struct result_set *sets,
    int n, int *sweeps, char **cause)
{
	int	k, ns = 0, other = -1, one = -1;

	for (k = 0; k < n; k++) {
		if (sets[k].sweep != NULL) {
			ns++;
			one = one < 0 ? k : one;
		} else
			other = other < 0 ? k : other;
	}
	*sweeps = ns > 0;
	if (ns > 0 && other >= 0)
		return errorf(cause, "report: %s is a sweep record and %s is "
		    "not: a sweep is reported on its own", sets[one].file,
		    sets[other].file);
	if (a->output == REPORT_SVG && ns == 0)
		return errorf(cause, "report: -o svg draws a sweep record; "
		    "%s is a run record (use -o html)", sets[0].file);
	if (a->output == REPORT_SVG && n > 1 &&
	    !report_sweeps_overlaid(sets, n, cause))
		return -1;
	return 0;
}

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	struct report_args	*a = t;

	(void)r;
	if (strcmp(v, "html") == 0)
		a->output = REPORT_HTML;
	else if (strcmp(v, "text") == 0)
		a->output = REPORT_TEXT;
	else if (strcmp(v, "svg") == 0)
		a->output = REPORT_SVG;
	else
		return errorf(why, "'%s' (use text, html or svg)", v);
	return 0;
}

static const struct args_option report_rows[] = {
	OPT_VALUE('o', "output", "text|html|svg", set_output, 0,
	    "a table, a self-contained HTML page, a sweep's plot"),
	ARGS_END
};

static void
report_init(void *state, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	memset(state, 0, sizeof(struct report_args));
}

static int
report_exec(void *state, int n, char **files, char **cause)
{
	struct report_args	*a = state;
	struct result_set	*sets;
	struct table		 t, src;
	int			 status = CMD_USAGE, sweeps;

	if (rs_read_files(n, files, &sets, cause) != 0)
		return CMD_USAGE;
	if (check_inputs(a, sets, n, &sweeps, cause) != 0)
		goto out;
	if (sweeps) {
		if ((status = report_sweeps(stdout, a->output, sets, n,
		    cause)) != CMD_OK)
			goto out;
	} else {
		build(&t, sets, n, a->output == REPORT_HTML);
		build_sources(&src, sets, n);
		if (a->output == REPORT_HTML)
			print_html(&t, &src, sets, n);
		else {
			print_text(&t);
			putchar('\n');
			print_text(&src);
		}
		table_free(&t);
		table_free(&src);
	}
	/* A failure to write is the system's, not the input's: exit 1. */
	status = CMD_FAIL;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		errorf(cause, "report: standard output: %s", strerror(errno));
		goto out;
	}
	status = CMD_OK;
out:
	rs_free_sets(sets, n);
	return status;
}

static const struct cmd_rows report_tables[] = {
	{ .rows = report_rows },
	CMD_ROWS_END
};

const struct cmd_entry cmd_report_entry = {
	.spec = { .command = "report", .operands = "file ...", .lower = 1,
	    .upper = -1 },
	.rows = report_tables,
	.size = sizeof(struct report_args),
	.init = report_init,
	.exec = report_exec,
};
