/*
 * "bonnie-ng history [-h] [-o text|json|html] [--by start|kernel|label]
 * [-F columns] [-t pct] [--alpha p] record|dir ...": many run records
 * (nightly runs, bonnie-ng vm's cells) in order, each column's series,
 * the change points found in all of them at once, and at each what
 * changed there; exit 1 when the newest segment of a selected column is
 * worse than the one before it, for CI.
 *
 * This file is the command: its options, the reading (history-read.c),
 * the analysis (history-view.c) and the printer (history-out*.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "changepoint.h"
#include "commands.h"
#include "compare-view.h"
#include "error.h"
#include "history-view.h"
#include "resultset.h"

#define DEFAULT_THRESHOLD	5.0

/* The outputs, by their name for -o. */
static const struct hist_printer *const printers[] = {
	&hist_out_text,
	&hist_out_json,
	&hist_out_html,
};
#define NPRINTERS	(sizeof(printers) / sizeof(printers[0]))

struct history_cmd {
	struct hist_view		 v;
	struct history			 h;
	int				 fail_on[RS_NCOLS];
	int				 named[RS_NCOLS];
	const struct hist_printer	*out;
};

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	struct history_cmd	*hc = t;
	size_t			 i;

	(void)r;
	for (i = 0; i < NPRINTERS; i++)
		if (strcmp(v, printers[i]->name) == 0) {
			hc->out = printers[i];
			return 0;
		}
	return errorf(why, "'%s' (use text, json or html)", v);
}

static int
set_by(void *t, const struct args_option *r, const char *v, char **why)
{
	struct history_cmd	*hc = t;

	(void)r;
	if (strcmp(v, "start") == 0)
		hc->v.by = HIST_BY_TIME;
	else if (strcmp(v, "kernel") == 0)
		hc->v.by = HIST_BY_KERNEL;
	else if (strcmp(v, "label") == 0)
		hc->v.by = HIST_BY_LABEL;
	else
		return errorf(why, "'%s' (use start, kernel or label)", v);
	return 0;
}

static int
set_fail_on(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return cmp_view_parse_columns(v, ((struct history_cmd *)t)->fail_on,
	    ((struct history_cmd *)t)->named, why);
}

/* A number in (lo, hi), whole string. */
static int
parse_number(const char *v, double lo, double hi, double *out, char **why,
    const char *what)
{
	char	*end;

	*out = strtod(v, &end);
	if (end == v || *end != '\0' || !(*out > lo && *out < hi))
		return errorf(why, "'%s' (%s)", v, what);
	return 0;
}

static int
set_threshold(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return parse_number(v, -1e-300, 1000, &((struct history_cmd *)t)->
	    v.threshold, why, "a percentage from 0 to 1000");
}

static int
set_alpha(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return parse_number(v, 0, 0.5, &((struct history_cmd *)t)->
	    v.opts.alpha, why, "a false alarm rate above 0 and below 0.5");
}

static const struct args_option history_rows[] = {
	OPT_VALUE('o', "output", "text|json|html", set_output, 0,
	    "the change points as text, JSON or an HTML page"),
	OPT_VALUE(0, "by", "start|kernel|label", set_by, 0,
	    "the records' order (default: start)"),
	OPT_VALUE('F', "fail-on", "columns", set_fail_on, 0,
	    "a newest segment worse here exits 1 (default: rates)"),
	OPT_VALUE('t', "threshold", "pct", set_threshold, 0,
	    "a change within pct is the same (default: 5)"),
	OPT_VALUE(0, "alpha", "p", set_alpha, 0,
	    "false alarms over all columns (default: 0.01)"),
	ARGS_END
};

static void
history_init(void *state, int argc, char **argv)
{
	struct history_cmd	*hc = state;
	int			 col;

	(void)argc;
	(void)argv;
	memset(hc, 0, sizeof(*hc));
	hc->out = printers[0];
	hc->v.by = HIST_BY_TIME;
	hc->v.threshold = DEFAULT_THRESHOLD;
	cp_opts_default(&hc->v.opts);
	for (col = 0; col < RS_NCOLS; col++)
		hc->fail_on[col] = RS_KIND(col) == RS_KIND_RATE;
	hc->v.fail_on = hc->fail_on;
	hc->v.h = &hc->h;
}

static int
history_exec(void *state, int n, char **paths, char **cause)
{
	struct history_cmd	*hc = state;
	struct hist_view	*v = &hc->v;
	int			 status = CMD_USAGE, col;

	if (hist_read(n, paths, &hc->h, cause) != 0)
		return CMD_USAGE;
	if (hc->h.n == 0) {
		errorf(cause, "history: no run record in %s%s", paths[0],
		    n > 1 ? " or the others" : "");
		goto out;
	}
	for (col = 0; col < RS_NCOLS; col++)
		if (hc->named[col] && !hist_has_column(&hc->h, col)) {
			errorf(cause, "history: -F %s: no record has that "
			    "column, so the gate would check nothing",
			    rs_col_name(col));
			goto out;
		}
	hist_sort(&hc->h, v->by);
	if (hist_analyse(v, cause) != 0)
		goto out;
	if (hc->out->print(stdout, v) != 0 || fflush(stdout) != 0 ||
	    ferror(stdout)) {
		errorf(cause, "history: standard output: %s",
		    strerror(errno));
		goto out;
	}
	status = v->exit;
out:
	hist_view_free(v);
	hist_free(&hc->h);
	return status;
}

static const struct cmd_rows history_tables[] = {
	{ .rows = history_rows },
	CMD_ROWS_END
};

const struct cmd_entry cmd_history_entry = {
	.spec = { .command = "history", .operands = "record|dir ...",
	    .lower = 1, .upper = -1 },
	.rows = history_tables,
	.size = sizeof(struct history_cmd),
	.init = history_init,
	.exec = history_exec,
};
