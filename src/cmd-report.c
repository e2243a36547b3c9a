/*
 * "bonnie-ng report [-h] [-o text|html] file ...": many results, in any of the
 * formats compare reads, as one table with a row per machine or run.  The
 * HTML page is self-contained (no scripts, fonts or style sheets from
 * elsewhere) and has an SVG bar chart per column that scales to any width.
 * The page is also well-formed XML, so both HTML and XML tools read it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "error.h"
#include "phase.h"
#include "resultset.h"
#include "rs-read.h"
#include "text.h"
#include "units.h"

#define CHART_NAME_MAX	34	/* Bytes of a row name in a chart. */

/* Table columns before the result columns. */
#define NLEAD		5	/* Source, machine, run, jobs, size. */

struct table {
	int		  nrows;
	int		  ncols;	/* NLEAD + shown result columns. */
	int		  col[NLEAD + RS_NCOLS];	/* Result column, or -1. */
	char		  head[NLEAD + RS_NCOLS][48];
	char		**cell;		/* [row * ncols + c] */
	double		 *value;	/* Bar lengths, NAN-free: <0 none. */
};

static const char *const lead_heads[NLEAD] = {
	"source", "machine", "run", "jobs", "size"
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

static void
build(struct table *t, struct result_set *sets, int nsets, int html)
{
	const struct rs_run	*r;
	char			 buf[64];
	double			 cost;
	int			 shown[RS_NCOLS] = { 0 }, i, k, c, row;

	t->nrows = 0;
	for (k = 0; k < nsets; k++) {
		t->nrows += sets[k].nruns;
		for (i = 0; i < sets[k].nruns; i++)
			for (c = 0; c < RS_NCOLS; c++)
				if (sets[k].runs[i].col[c].state != RS_NONE)
					shown[c] = 1;
	}
	t->ncols = 0;
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
	row = 0;
	for (k = 0; k < nsets; k++) {
		for (i = 0; i < sets[k].nruns; i++, row++) {
			r = &sets[k].runs[i];
			t->cell[row * t->ncols + 0] = xstrdup(sets[k].file);
			t->cell[row * t->ncols + 1] = xstrdup(*r->label ?
			    r->label : "-");
			t->cell[row * t->ncols + 2] = xasprintf("%d", i + 1);
			/* Workers, each with a file of the size shown. */
			t->cell[row * t->ncols + 3] = xasprintf("%d",
			    sets[k].set.jobs > 1 ? sets[k].set.jobs : 1);
			units_size(buf, sizeof(buf), r->size ? r->size :
			    sets[k].set.size);
			t->cell[row * t->ncols + 4] = xstrdup(buf);
			for (c = NLEAD; c < t->ncols; c++) {
				rs_format_value(buf, sizeof(buf), t->col[c],
				    r->col[t->col[c]].state,
				    r->col[t->col[c]].v);
				t->value[row * t->ncols + c] =
				    r->col[t->col[c]].state == RS_VALUE ?
				    r->col[t->col[c]].v : -1;
				if (html && RS_KIND(t->col[c]) == RS_KIND_CPU) {
					if (rs_cpu_cost(r, t->col[c], &cost) !=
					    RS_VALUE)
						cost = -1;
					t->value[row * t->ncols + c] = cost;
					if (cost >= 0) {
						t->cell[row * t->ncols + c] =
						    xasprintf("%s (%.3g)", buf,
						    cost);
						continue;
					}
				}
				t->cell[row * t->ncols + c] = xstrdup(buf);
			}
		}
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
		put_cell(t->head[c], w[c], c < 2, c == t->ncols - 1);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			put_cell(t->cell[r * t->ncols + c], w[c], c < 2,
			    c == t->ncols - 1);
	free(w);
}

/* Write s with the characters HTML and XML treat specially escaped. */
static void
put_escaped(const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", stdout);
			break;
		case '<':
			fputs("&lt;", stdout);
			break;
		case '>':
			fputs("&gt;", stdout);
			break;
		case '"':
			fputs("&quot;", stdout);
			break;
		case '\'':
			fputs("&#39;", stdout);
			break;
		default:
			if ((unsigned char)*s < 0x20)
				putchar(' ');
			else
				putchar(*s);
		}
	}
}

/*
 * One row's name in a chart: the machine and the file's base name, cut so
 * that it fits left of the bars (on a UTF-8 character boundary).
 */
static void
put_row_name(const struct table *t, int r)
{
	const char	*file = t->cell[r * t->ncols + 0], *slash;
	char		*name;
	size_t		 n;

	if ((slash = strrchr(file, '/')) != NULL && slash[1] != '\0')
		file = slash + 1;
	name = xasprintf("%s (%s #%s)", t->cell[r * t->ncols + 1], file,
	    t->cell[r * t->ncols + 2]);
	if (strlen(name) > CHART_NAME_MAX) {
		n = CHART_NAME_MAX - 1;
		while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
			n--;
		name[n] = '\0';
		put_escaped(name);
		fputs("\xe2\x80\xa6", stdout);	/* An ellipsis. */
	} else
		put_escaped(name);
	free(name);
}

#define CHART_W		640
#define CHART_LABEL	250	/* Width of the row names. */
#define CHART_BAR	300	/* Width of the longest bar. */
#define CHART_ROW	22

static void
print_chart(const struct table *t, int c)
{
	double	max = 0, v;
	int	r, h;

	for (r = 0; r < t->nrows; r++)
		if (t->value[r * t->ncols + c] > max)
			max = t->value[r * t->ncols + c];
	h = t->nrows * CHART_ROW + 10;
	printf("<div class=\"chart\">\n<h2>");
	put_escaped(t->head[c]);
	printf("</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "viewBox=\"0 0 %d %d\" width=\"100%%\" "
	    "preserveAspectRatio=\"xMinYMin meet\" role=\"img\" aria-label=\"",
	    CHART_W, h);
	put_escaped(t->head[c]);
	printf("\">\n");
	for (r = 0; r < t->nrows; r++) {
		v = t->value[r * t->ncols + c];
		printf("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
		    CHART_LABEL - 6, r * CHART_ROW + 20);
		put_row_name(t, r);
		printf("</text>\n");
		if (v > 0 && max > 0)
			printf("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
			    "height=\"%d\" class=\"bar\"/>\n", CHART_LABEL,
			    r * CHART_ROW + 6, v / max * CHART_BAR,
			    CHART_ROW - 6);
		printf("<text x=\"%.1f\" y=\"%d\">",
		    CHART_LABEL + (v > 0 && max > 0 ? v / max * CHART_BAR : 0)
		    + 4, r * CHART_ROW + 20);
		put_escaped(t->cell[r * t->ncols + c]);
		printf("</text>\n");
	}
	printf("</svg>\n</div>\n");
}

static void
print_html(const struct table *t)
{
	int	r, c;

	printf("<!DOCTYPE html>\n"
	    "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	    "<head>\n<meta charset=\"utf-8\"/>\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\"/>\n"
	    "<title>bonnie-ng report</title>\n<style>\n"
	    "body { font-family: sans-serif; margin: 1em; }\n"
	    ".wide { overflow-x: auto; }\n"
	    "table { border-collapse: collapse; }\n"
	    "th, td { border: 1px solid #999; padding: 0.2em 0.5em; "
	    "text-align: right; white-space: nowrap; }\n"
	    "th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; }\n"
	    ".chart { margin: 1em 0; max-width: 60em; }\n"
	    "h2 { font-size: 1em; margin: 0; }\n"
	    "svg { max-width: 100%%; height: auto; font-size: 13px; "
	    "font-family: sans-serif; }\n"
	    ".bar { fill: #4a7ab5; }\n"
	    "</style>\n</head>\n<body>\n<h1>bonnie-ng report</h1>\n"
	    "<div class=\"wide\">\n<table>\n<thead>\n<tr>");
	for (c = 0; c < t->ncols; c++) {
		printf("<th>");
		put_escaped(t->head[c]);
		printf("</th>");
	}
	printf("</tr>\n</thead>\n<tbody>\n");
	for (r = 0; r < t->nrows; r++) {
		printf("<tr>");
		for (c = 0; c < t->ncols; c++) {
			printf("<td>");
			put_escaped(t->cell[r * t->ncols + c]);
			printf("</td>");
		}
		printf("</tr>\n");
	}
	printf("</tbody>\n</table>\n</div>\n");
	for (c = NLEAD; c < t->ncols; c++)
		print_chart(t, c);
	printf("<p>K/sec is KiB per second; latency is the worst case "
	    "(a text report's Latency row: the 99th percentile); "
	    "a %%CPU column has the CPU cost in brackets, CPU seconds per "
	    "GiB (per thousand seeks, syncs or files for the phases that count "
	    "them) from the rate and %%CPU, and "
	    "its bars are the cost, since a %%CPU falls with the rate; "
	    "+++++ means too fast to measure.</p>\n</body>\n</html>\n");
}

/* What the command line asked for. */
struct report_args {
	int	html;
};

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	struct report_args	*a = t;

	(void)r;
	if (strcmp(v, "html") == 0)
		a->html = 1;
	else if (strcmp(v, "text") == 0)
		a->html = 0;
	else
		return errorf(why, "'%s' (use text or html)", v);
	return 0;
}

static const struct args_option report_rows[] = {
	{ 'o', "output", ARGS_VALUE, "text|html", set_output, 0, 0, 0, 0,
	  "a text table or a self-contained HTML page" },
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
	struct table		 t;
	int			 i, nsets = 0, status = CMD_USAGE;

	sets = xcalloc((size_t)n, sizeof(*sets));
	for (i = 0; i < n; i++) {
		if (rs_read_file(files[i], &sets[i], cause) != 0)
			goto out;
		nsets++;
	}
	build(&t, sets, nsets, a->html);
	if (a->html)
		print_html(&t);
	else
		print_text(&t);
	table_free(&t);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		errorf(cause, "report: standard output: %s", strerror(errno));
		goto out;
	}
	status = CMD_OK;
out:
	for (i = 0; i < nsets; i++)
		rs_free(&sets[i]);
	free(sets);
	return status;
}

static const struct cmd_rows report_tables[] = {
	{ report_rows, 0, 0 },
	{ NULL, 0, 0 }
};

const struct cmd_entry cmd_report_entry = {
	{ "report", "file ...", 1, -1, NULL, NULL },
	report_tables,
	sizeof(struct report_args),
	report_init,
	report_exec,
	0
};
