/*
 * "bonnie-ng compare [-h] [-t pct] [-F columns] [-o format] base new
 * [new ...]": a side-by-side table of base and new results with
 * the change and a verdict per column, and an exit status for scripts:
 * 0 when nothing selected got worse, 1 when something did, 2 when the
 * input is unusable.  The same comparison prints as a text table, a JSON
 * document, JUnit XML for CI test reporters (a test case per column, a
 * failure per selected column that got worse) or a Markdown table for a
 * pull-request comment.
 *
 * This file is the command: its options, reading the files, leaving out
 * the runs that failed, the gate's checks and the verdicts, into a
 * struct cmp_view (compare-view.h; compare-sweep.c fills it for sweep
 * records).  The printers (compare-out-*.c, the table cmp_printers[] below)
 * only read that view.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "compare.h"
#include "compare-out.h"
#include "compare-sweep.h"
#include "compare-view.h"
#include "error.h"
#include "phase.h"
#include "resultset.h"
#include "rs-read.h"

#define DEFAULT_THRESHOLD	5.0

/*
 * The outputs, by their name for -o, in the order of the usage (-o's row
 * spells the same names: t-compare.c checks that the two agree).
 */
const struct cmp_printer *const cmp_printers[] = {
	&cmp_out_text,
	&cmp_out_json,
	&cmp_out_junit,
	&cmp_out_markdown,
	NULL
};

/* The command's state: its options, and the comparison it makes. */
struct compare {
	struct cmp_view			 v;
	int				 fail_on[RS_NCOLS];
	int				 fail_named[RS_NCOLS];	/* -F NAME. */
	const struct cmp_printer	*out;			/* -o. */
	int				 bisect;	/* 1 --bisect, 2 =strict. */
};

/*
 * git bisect run's contract: 0 good, 1 bad, 125 this commit cannot be
 * tested (skip it, CMD_BISECT_SKIP), 128 to 255 stop the bisection
 * (CMD_BISECT_ABORT).
 */

/* --strict: a gated column the runs could not tell. */
#define STATUS_UNTOLD	3

/* How compare failed, for the exit status. */
enum failure {
	FAIL_USAGE,		/* The command line: 2, or stop a bisection. */
	FAIL_INPUT,		/* A file or side unusable: 2, or skip. */
	FAIL_OUTPUT		/* Standard output: 2, or stop a bisection. */
};


static int
parse_threshold(const char *arg, double *t, char **cause)
{
	char	*end;

	errno = 0;
	*t = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || errno != 0 || !(*t >= 0) ||
	    *t > 1000)
		return errorf(cause, "'%s' (not a percentage from 0 to 1000)",
		    arg);
	return 0;
}

static int
set_threshold(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return parse_threshold(v, &((struct compare *)t)->v.threshold, why);
}

static int
set_fail_on(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return cmp_view_parse_columns(v, ((struct compare *)t)->fail_on,
	    ((struct compare *)t)->fail_named, why);
}

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	const struct cmp_printer *const *p;
	struct compare	*cmp = t;
	char		 names[128];
	size_t		 n = 0;

	(void)r;
	for (p = cmp_printers; *p != NULL; p++)
		if (strcmp(v, (*p)->name) == 0) {
			cmp->out = *p;
			return 0;
		}
	/* "text, json, junit or markdown", from the table. */
	names[0] = '\0';
	for (p = cmp_printers; *p != NULL && n < sizeof(names); p++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
		    p == cmp_printers ? "" : p[1] == NULL ? " or " : ", ",
		    (*p)->name);
	return errorf(why, "'%s' (use %s)", v, names);
}

static int
set_bisect(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (v != NULL && strcmp(v, "strict") != 0)
		return errorf(why, "'%s' (only --bisect=strict)", v);
	((struct compare *)t)->bisect = v != NULL ? 2 : 1;
	return 0;
}

static const struct args_option compare_rows[] = {
	OPT_VALUE('t', "threshold", "pct", set_threshold, 0,
	    "a change within pct is the same (default: 5)"),
	OPT_VALUE('F', "fail-on", "columns", set_fail_on, 0,
	    "which columns getting worse exit 1 (default: rates)"),
	OPT_VALUE('o', "output", "text|json|junit|markdown", set_output, 0,
	    "a table, JSON, JUnit XML or a Markdown table"),
	OPT_FLAG(0, "strict", offsetof(struct compare, v.strict),
	    "a selected column the runs cannot tell exits 3"),
	OPT_OPTIONAL(0, "bisect", "strict", set_bisect,
	    "exit for git bisect run: 0 good, 1 bad, 125 skip"),
	OPT_MARK("vs", "pool the files before it, and those after it"),
	ARGS_END
};

static int
has_values(const struct result_set *rs, int col)
{
	int	i;

	for (i = 0; i < rs->nruns; i++)
		if (rs->runs[i].col[col].state != RS_NONE)
			return 1;
	return 0;
}

/*
 * A gate that could never fail is refused: a column named with -F that no
 * input has, a selection of which no input has any column, and a
 * threshold at which no selected rate could fall far enough (a rate falls
 * by 100% at most).  Of sweeps only the rates are compared, so a gate
 * on their %CPU or latency is refused too.
 */
static int
gate_check(const struct compare *cmp, int sweep, char **cause)
{
	int	col, k, any = 0;

	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->fail_on[col])
			continue;
		if (sweep && RS_KIND(col) != RS_KIND_RATE) {
			if (cmp->fail_named[col])
				return errorf(cause, "compare: -F %s: sweeps "
				    "are compared by their rates only, so the "
				    "gate would check nothing",
				    rs_col_name(col));
			continue;
		}
		for (k = 0; k < cmp->v.nsets &&
		    !has_values(&cmp->v.sets[k], col); k++)
			;
		if (k < cmp->v.nsets)
			any = 1;
		else if (cmp->fail_named[col])
			return errorf(cause, "compare: -F %s: no input has "
			    "that column, so the gate would check nothing",
			    rs_col_name(col));
	}
	if (!any)
		return errorf(cause, "compare: no input has any column the "
		    "gate selects (-F), so it would check nothing");
	return 0;
}

static int
threshold_check(const struct compare *cmp, char **cause)
{
	int	col;

	if (cmp->v.threshold < 100)
		return 0;
	for (col = 0; col < RS_NCOLS; col++)
		if (cmp->fail_on[col] && RS_KIND(col) == RS_KIND_RATE)
			return errorf(cause, "compare: -t %g: a rate falls by "
			    "100%% at most, so %s could never be worse (use "
			    "less than 100, or -F without rates)",
			    cmp->v.threshold, rs_col_name(col));
	return 0;
}

/* Do all sides' latencies mean the same (max or p99)? */
static int
same_latency(const struct compare *cmp)
{
	const char	*a = cmp->v.sets[0].set.latency, *b;
	int		 k;

	for (k = 1; k < cmp->v.nsets; k++) {
		b = cmp->v.sets[k].set.latency;
		if (a == NULL || b == NULL || strcmp(a, b) != 0)
			return 0;
	}
	return 1;
}

/*
 * Leave out of the statistics the runs of set k that stopped on an error
 * or a signal, listing each in cmp->v.excluded.  -1 with a cause when no
 * run is left.
 */
static int
drop_failed(struct compare *cmp, int k, char **cause)
{
	struct result_set	*rs = &cmp->v.sets[k];
	const char		*first = NULL;
	int			 i, n = 0;

	for (i = 0; i < rs->nruns; i++) {
		if (rs->runs[i].failed == NULL) {
			rs->runs[n++] = rs->runs[i];
			continue;
		}
		cmp->v.excluded = xrealloc(cmp->v.excluded,
		    ((size_t)cmp->v.nexcluded + 1) * sizeof(*cmp->v.excluded));
		cmp->v.excluded[cmp->v.nexcluded++] = xasprintf("%s run %d: %s",
		    rs->file, i + 1, rs->runs[i].failed);
		if (first == NULL)
			first = cmp->v.excluded[cmp->v.nexcluded - 1];
		free(rs->runs[i].label);
		free(rs->runs[i].failed);
		rs_kernel_free(&rs->runs[i]);
	}
	cmp->v.left_out[k] = rs->nruns - n;
	rs->nruns = n;
	if (n == 0)
		return errorf(cause, "compare: %s: no usable run (%s)",
		    rs->file, first != NULL ? first : "no runs");
	return 0;
}

/* Compare every column and work out which to show and the exit status. */
static void
compare_all(struct compare *cmp)
{
	struct cmp_cell	*c;
	int		 col, k, any, in_base;

	cmp->v.cells = xcalloc((size_t)RS_NCOLS * (size_t)(cmp->v.nsets - 1),
	    sizeof(*cmp->v.cells));
	cmp->v.exit = 0;
	for (col = 0; col < RS_NCOLS; col++) {
		any = 0;
		in_base = has_values(&cmp->v.sets[0], col);
		for (k = 1; k < cmp->v.nsets; k++) {
			c = cmp_view_cell(&cmp->v, col, k - 1);
			cmp_column(&cmp->v.sets[0], &cmp->v.sets[k], col,
			    cmp->v.threshold, c);
			if (has_values(&cmp->v.sets[k], col))
				any = 1;
			/* A gate on a column the new side lacks fails. */
			else if (in_base && cmp->fail_on[col] &&
			    !(RS_KIND(col) == RS_KIND_LAT &&
			    !same_latency(cmp)))
				c->verdict = CMP_MISSING;
			if ((c->verdict == CMP_WORSE ||
			    c->verdict == CMP_MISSING) && cmp->fail_on[col])
				cmp->v.exit = 1;
		}
		/*
		 * Latency only where both sides have it, and mean the same
		 * by it (the worst case, or a text report's 99th percentile).
		 */
		if (RS_KIND(col) == RS_KIND_LAT) {
			cmp->v.shown[col] = in_base &&
			    (any || cmp->fail_on[col]);
			if (cmp->v.shown[col] && !same_latency(cmp)) {
				cmp->v.shown[col] = 0;
				cmp->v.latency_skipped = 1;
			}
		}
		else
			cmp->v.shown[col] = any ||
			    has_values(&cmp->v.sets[0], col);
	}
}

/*
 * --vs: its place among the operands, taken out of them (*n one less);
 * -1 without it, -2 with a cause when it is given twice or a side would
 * be empty.
 */
static int
find_mark(int *n, char **files, char **cause)
{
	int	i, at = -1;

	for (i = 0; i < *n; i++) {
		if (files[i] != args_mark)
			continue;
		if (at >= 0) {
			errorf(cause, "compare: --vs given twice (the files "
			    "before it are one side, those after it the "
			    "other)");
			return -2;
		}
		at = i;
	}
	if (at < 0)
		return -1;
	if (at == 0 || at == *n - 1) {
		errorf(cause, "compare: --vs needs files on both sides");
		return -2;
	}
	memmove(&files[at], &files[at + 1], sizeof(*files) *
	    (size_t)(*n - at - 1));
	(*n)--;
	return at;
}

/*
 * Pool sets [a, b) into set a: each must be comparable with the first
 * (the settings that must match, matching), and their runs join its.
 */
static int
pool_side(struct compare *cmp, int a, int b, char **cause)
{
	struct result_set	*rs = cmp->v.sets;
	char			*why, *name;
	int			 k;

	for (k = a + 1; k < b; k++) {
		if ((why = cmp_view_mismatch(&rs[a], &rs[k])) != NULL) {
			errorf(cause, "compare: %s cannot be pooled with %s "
			    "(%s)", rs[k].file, rs[a].file, why);
			free(why);
			return -1;
		}
		rs_append(&rs[a], &rs[k]);
		cmp->v.left_out[a] += cmp->v.left_out[k];
		/* The side's name: its files, in order. */
		name = xasprintf("%s, %s", rs[a].file, rs[k].file);
		free(rs[a].file);
		rs[a].file = name;
	}
	return 0;
}

/* The two sides of --vs at mark: the base's files pooled, the new's. */
static int
pool(struct compare *cmp, int mark, char **cause)
{
	struct cmp_view	*v = &cmp->v;
	int		 k;

	if (pool_side(cmp, 0, mark, cause) != 0 ||
	    pool_side(cmp, mark, v->nsets, cause) != 0)
		return -1;
	if (mark > 1) {
		rs_free(&v->sets[1]);
		v->sets[1] = v->sets[mark];
		v->left_out[1] = v->left_out[mark];
		memset(&v->sets[mark], 0, sizeof(v->sets[mark]));
	}
	for (k = 2; k < v->nsets; k++)
		rs_free(&v->sets[k]);
	v->nsets = 2;
	return 0;
}

/*
 * The exit status, once every cell has its verdict: 1 for a gated
 * column worse or missing, else with --strict 3 for one inconclusive;
 * with --bisect git's: 125 when a side is not comparable (or, with
 * =strict, a gated column inconclusive), then 1 or 0.
 */
static int
verdict_status(const struct compare *cmp)
{
	const struct cmp_view	*v = &cmp->v;
	char			*why;
	int			 k, untold = cmp_view_untold(v);

	if (cmp->bisect) {
		for (k = 1; k < v->nsets; k++) {
			if ((why = cmp_view_not_comparable(v, k)) != NULL) {
				free(why);
				return CMD_BISECT_SKIP;
			}
		}
		if (v->exit == 1)
			return 1;
		return cmp->bisect == 2 && untold > 0 ? CMD_BISECT_SKIP : 0;
	}
	if (v->exit == 0 && v->strict && untold > 0)
		return STATUS_UNTOLD;
	return v->exit;
}

static int
failed_status(const struct compare *cmp, enum failure f)
{
	if (!cmp->bisect)
		return CMD_USAGE;
	return f == FAIL_INPUT ? CMD_BISECT_SKIP : CMD_BISECT_ABORT;
}

static void
compare_init(void *state, int argc, char **argv)
{
	struct compare	*cmp = state;
	int		 col;

	memset(cmp, 0, sizeof(*cmp));
	cmp->v.threshold = DEFAULT_THRESHOLD;
	cmp->v.fail_on = cmp->fail_on;
	cmp->out = cmp_printers[0];
	for (col = 0; col < RS_NCOLS; col++)
		cmp->fail_on[col] = RS_KIND(col) == RS_KIND_RATE;
	cmp->bisect = cmd_line_asks(argc, argv, "bisect");
}

static int
compare_refused(const void *state)
{
	return ((const struct compare *)state)->bisect ? CMD_BISECT_ABORT :
	    CMD_USAGE;
}

/* Read the files into sides, as the operands and --vs say. */
static int
read_sides(struct compare *cmp, int n, char **files, int *sweep,
    enum failure *fail, char **cause)
{
	struct cmp_view	*v = &cmp->v;
	int		 i, mark;

	*fail = FAIL_USAGE;
	if ((mark = find_mark(&n, files, cause)) == -2 ||
	    threshold_check(cmp, cause) != 0)
		return -1;
	*fail = FAIL_INPUT;
	v->left_out = xcalloc((size_t)n, sizeof(*v->left_out));
	if (rs_read_files(n, files, &v->sets, cause) != 0)
		return -1;
	v->nsets = n;
	if ((*sweep = cmp_sweep_check(v->sets, n, cause)) == -1)
		return -1;
	if (*sweep && mark >= 0) {
		*fail = FAIL_USAGE;
		return errorf(cause, "compare: --vs pools the runs of run "
		    "records; compare sweeps one file a side");
	}
	for (i = 0; i < n && !*sweep; i++)
		if (drop_failed(cmp, i, cause) != 0)
			return -1;
	if (mark >= 0 && pool(cmp, mark, cause) != 0)
		return -1;
	*fail = FAIL_USAGE;
	return gate_check(cmp, *sweep, cause);
}

static int
compare_exec(void *state, int n, char **files, char **cause)
{
	struct compare	*cmp = state;
	struct cmp_view	*v = &cmp->v;
	enum failure	 fail;
	int		 i, sweep = 0, r, status;

	v->strict |= cmp->bisect == 2;
	if (read_sides(cmp, n, files, &sweep, &fail, cause) != 0)
		goto out;
	if (sweep)
		cmp_sweep_view(v);
	else
		compare_all(cmp);
	v->exit = verdict_status(cmp);
	r = sweep ? cmp->out->sweeps(stdout, v) : cmp->out->runs(stdout, v);
	/*
	 * Output that could not be written is trouble (2), as an unusable
	 * input is: 1 is a regression, 0 would pass a CI gate unread.
	 */
	if (r != 0 || fflush(stdout) != 0 || ferror(stdout)) {
		errorf(cause, "compare: standard output: %s", strerror(errno));
		fail = FAIL_OUTPUT;
		goto out;
	}
	status = v->exit;
	goto done;
out:
	status = failed_status(cmp, fail);
	if (fail != FAIL_OUTPUT && cmp->out->refused != NULL)
		cmp->out->refused(stdout, *cause != NULL ? *cause :
		    "unusable input", status);
done:
	rs_free_sets(v->sets, v->nsets);
	free(v->cells);
	cmp_sweep_view_free(v);
	for (i = 0; i < v->nexcluded; i++)
		free(v->excluded[i]);
	free(v->excluded);
	free(v->left_out);
	return status;
}

static const struct cmd_rows compare_tables[] = {
	{ .rows = compare_rows },
	CMD_ROWS_END
};

const struct cmd_entry cmd_compare_entry = {
	.spec = { .command = "compare", .operands = "base new [new ...]",
	    .lower = 2, .upper = -1 },
	.rows = compare_tables,
	.size = sizeof(struct compare),
	.init = compare_init,
	.exec = compare_exec,
	.refused = compare_refused,
};
