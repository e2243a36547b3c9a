/*
 * "bonnie-ng report" of sweep records: each drawn by sweep-out.c's own
 * writers from the record read back, so that a sweep's report prints
 * what the sweep printed.  The forms are spelled out in
 * include/report-sweep.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare-sweep.h"
#include "error.h"
#include "report-sweep.h"
#include "resultset.h"
#include "settings.h"
#include "sweep.h"
#include "text.h"

/* What a sweep printed: its head line, tables and knees.  0, or -1. */
static int
sweep_text(FILE *f, const struct sweep_result *r)
{
	sweep_print_head(f, r);
	sweep_print_tables(f, r);
	sweep_print_knees(f, r);
	return ferror(f) ? -1 : 0;
}

/* What an overlay plot is drawn from: the sweeps and their names. */
struct overlay {
	const struct sweep_result	**rs;
	const char			**names;
	int				  n;
};

/*
 * What fn (or, fn NULL, the overlay ov) writes of r, in a new string in
 * *out, without the XML declaration a plot starts with, for a page.  0,
 * or -1 with errno.
 */
static int
sweep_string(int (*fn)(FILE *, const struct sweep_result *),
    const struct sweep_result *r, const struct overlay *ov, char **out)
{
	FILE	*m;
	size_t	 len;
	char	*body;
	int	 rc;

	*out = NULL;
	if ((m = open_memstream(out, &len)) == NULL)
		return -1;
	rc = fn != NULL ? fn(m, r) : sweep_write_svg_overlay(m, ov->rs,
	    ov->names, ov->n);
	if (fclose(m) != 0 || rc != 0 || *out == NULL) {
		free(*out);
		*out = NULL;
		return -1;
	}
	if (strncmp(*out, "<?xml", 5) == 0 &&
	    (body = strchr(*out, '\n')) != NULL)
		memmove(*out, body + 1, strlen(body + 1) + 1);
	return 0;
}

/* s in a <pre>: as XML character data, line by line. */
static void
put_pre(FILE *f, char *s)
{
	char	*nl;

	for (; *s != '\0'; s = nl + 1) {
		if ((nl = strchr(s, '\n')) == NULL) {
			text_xml(f, s);
			break;
		}
		*nl = '\0';
		text_xml(f, s);
		fputc('\n', f);
	}
}

/*
 * Of several sweeps, the line above sweep k's tables: its source and
 * what its settings have that the first sweep's do not.
 */
static void
source_line(const struct result_set *sets, int n, int k, char *buf,
    size_t len)
{
	char	diff[1024];
	int	m;

	if (k == 0) {
		snprintf(buf, len, "Sweep 1 of %d: %s", n, sets[0].file);
		return;
	}
	m = cmp_sweep_differs(diff, sizeof(diff), &sets[0], &sets[k]);
	snprintf(buf, len, "Sweep %d of %d: %s, differing from %s in %s%s",
	    k + 1, n, sets[k].file, sets[0].file, m > 0 ? "" : "no setting",
	    diff);
}

/*
 * The name of source k on an overlay: its file, then its own values of
 * the settings compare lists in which some source differs from the
 * first, as in "b.json (cache cold, direct true)".
 */
static void
source_name(const struct result_set *sets, int n, int k, char *buf,
    size_t len)
{
	const char	*v, *w;
	size_t		 used;
	int		 id, j, m = 0;

	used = (size_t)snprintf(buf, len, "%s", sets[k].file);
	for (id = 0; id < SET_COUNT && used < len; id++) {
		if (settings_table[id].rule != RULE_MATCH &&
		    settings_table[id].rule != RULE_INFO)
			continue;
		v = sets[0].set.value[id] != NULL ? sets[0].set.value[id] : "-";
		for (j = 1; j < n; j++) {
			w = sets[j].set.value[id] != NULL ?
			    sets[j].set.value[id] : "-";
			if (strcmp(v, w) != 0)
				break;
		}
		if (j == n)
			continue;
		w = sets[k].set.value[id] != NULL ? sets[k].set.value[id] : "-";
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s",
		    m++ > 0 ? ", " : " (", settings_name(id), w);
	}
	if (m > 0 && used < len)
		snprintf(buf + used, len - used, ")");
}

int
report_sweeps_overlaid(const struct result_set *sets, int n, char **cause)
{
	int	k;

	if (n < 2)
		return 0;
	if (cmp_sweep_check(sets, n, NULL) != 1) {
		if (cause != NULL)
			errorf(cause, "report: -o svg overlays sweeps of the "
			    "same axes; %s and the others differ",
			    sets[0].file);
		return 0;
	}
	for (k = 0; k < n; k++)
		if (sets[k].sweep->nfiles > 0 || sets[k].sweep->njobs > 1) {
			if (cause != NULL)
				errorf(cause, "report: -o svg overlays sweeps "
				    "over sizes and chunks; %s sweeps job or "
				    "file counts", sets[k].file);
			return 0;
		}
	return 1;
}

/* Room for an overlay's sweeps and names. */
static void
overlay_init(struct overlay *ov, const struct sweep_readback *b,
    const struct result_set *sets, int n)
{
	char	name[2048];
	int	k;

	ov->n = n;
	ov->rs = xcalloc((size_t)n, sizeof(const struct sweep_result *));
	ov->names = xcalloc((size_t)n, sizeof(*ov->names));
	for (k = 0; k < n; k++) {
		ov->rs[k] = &b[k].r;
		source_name(sets, n, k, name, sizeof(name));
		ov->names[k] = xstrdup(name);
	}
}

static void
overlay_free(struct overlay *ov)
{
	int	k;

	for (k = 0; k < ov->n; k++)
		free((char *)ov->names[k]);
	free(ov->rs);
	free(ov->names);
}

/*
 * The page: of sweeps overlaid, the sources, the one plot, then each
 * sweep's heading, what differs and its tables; else each sweep's
 * heading, tables and own plot.  0, or -1 with errno.
 */
static int
page(FILE *f, const struct sweep_readback *b, const struct result_set *sets,
    int n)
{
	struct overlay	 ov;
	char		*text, *svg = NULL, line[2048];
	int		 k, rc = 0, over = report_sweeps_overlaid(sets, n, NULL);

	fprintf(f, "<!DOCTYPE html>\n"
	    "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	    "<head>\n<meta charset=\"utf-8\"/>\n"
	    "<title>bonnie-ng sweep%s</title>\n<style>\n"
	    "body { font-family: sans-serif; margin: 1em; }\n"
	    "svg { max-width: 100%%; height: auto; }\n"
	    "</style>\n</head>\n<body>\n", n > 1 ? "s" : "");
	if (over) {
		overlay_init(&ov, b, sets, n);
		rc = sweep_string(NULL, NULL, &ov, &svg);
		fprintf(f, "<h1>%d sweeps overlaid</h1>\n<p>A colour per "
		    "source, a dash per chunk, a panel per phase:</p>\n<ul>\n",
		    n);
		for (k = 0; k < n && rc == 0; k++) {
			fprintf(f, "<li>sweep %d: ", k + 1);
			text_xml(f, ov.names[k]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
		if (rc == 0)
			fputs(svg, f);
		free(svg);
		overlay_free(&ov);
	}
	for (k = 0; k < n && rc == 0; k++) {
		source_line(sets, n, k, line, sizeof(line));
		if ((rc = sweep_string(sweep_text, &b[k].r, NULL, &text)) != 0)
			break;
		if (!over && (rc = sweep_string(sweep_write_svg, &b[k].r,
		    NULL, &svg)) != 0) {
			free(text);
			break;
		}
		fputs(over ? "<h2>" : "<h1>", f);
		text_xml(f, sets[k].file);
		fputs(over ? "</h2>\n" : "</h1>\n", f);
		if (n > 1) {
			fputs("<p>", f);
			text_xml(f, line);
			fputs("</p>\n", f);
		}
		fputs("<pre>", f);
		put_pre(f, text);
		fputs("</pre>\n", f);
		if (!over) {
			fputs(svg, f);
			free(svg);
		}
		free(text);
	}
	fputs("</body>\n</html>\n", f);
	return rc;
}

int
report_sweeps(FILE *f, enum report_form form, struct result_set *sets, int n,
    char **cause)
{
	struct sweep_readback	*b;
	struct overlay		 ov;
	char			 line[2048];
	int			 k, rc = 0, st = CMD_USAGE;

	/* Every record is checked before anything is printed. */
	b = xcalloc((size_t)n, sizeof(*b));
	for (k = 0; k < n; k++)
		if (sweep_from_set(&sets[k], &b[k], cause) != 0)
			goto out;
	st = CMD_OK;
	if (form == REPORT_HTML)
		rc = page(f, b, sets, n);
	else if (form == REPORT_SVG && n > 1) {
		overlay_init(&ov, b, sets, n);
		rc = sweep_write_svg_overlay(f, ov.rs, ov.names, n);
		overlay_free(&ov);
	} else if (form == REPORT_SVG)
		rc = sweep_write_svg(f, &b[0].r);
	for (k = 0; k < n && rc == 0 && form == REPORT_TEXT; k++) {
		if (k > 0)
			fputc('\n', f);
		if (n > 1) {
			source_line(sets, n, k, line, sizeof(line));
			text_put(f, line);
			fputs("\n\n", f);
		}
		rc = sweep_text(f, &b[k].r);
	}
	if (rc != 0 || ferror(f)) {
		errorf(cause, "report: %s%s", ferror(f) ?
		    "standard output: " : "", strerror(errno));
		st = CMD_FAIL;
	}
out:
	for (k = 0; k < n; k++)
		sweep_readback_free(&b[k]);
	free(b);
	return st;
}
