/*
 * history -o text and -o json: the records' span and order, each change
 * point with what changed there, each column's segments, and the result.
 * Both only read the view (history-view.h); -o html is
 * history-out-html.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare-kernel.h"
#include "compare-view.h"
#include "history-view.h"
#include "json.h"
#include "resultset.h"
#include "text.h"

/* "E-divisive means ... over 18 columns": what found the change points. */
static void
text_method(FILE *f, const struct hist_view *v)
{
	int	col, n = 0;

	for (col = 0; col < RS_NCOLS; col++)
		n += v->shown[col];
	fprintf(f, "Change points: E-divisive means on ranks (Matteson and "
	    "James 2014), each\ntested by %d permutations of the records; "
	    "false alarms at most %g over\nall %d columns together; %d "
	    "records a side at least.\n", v->cost.reps, v->opts.alpha, n,
	    v->opts.min_seg);
}

/* The record at index i, for a line: "18 (r18.json, start, kernel)". */
static void
text_record(FILE *f, const struct hist_view *v, int i)
{
	const struct hist_rec	*r = &v->h->recs[i];

	fprintf(f, "record %d (", i);
	text_put(f, r->file);
	if (r->start != NULL)
		fprintf(f, ", %s", r->start);
	if (r->kernel != NULL) {
		fputs(", kernel ", f);
		text_put(f, r->kernel);
	}
	fputc(')', f);
}

static void
text_cp(FILE *f, const struct hist_view *v, const struct hist_cp *cp)
{
	struct cmp_view	 cv;
	char		 line[1024], b[64], n[64], m[64];
	int		 i;

	fprintf(f, "%s at ", rs_col_name(cp->col));
	text_record(f, v, cp->index);
	cmp_view_median(b, sizeof(b), cp->col, cp->c.nbase, 0, cp->c.base,
	    NAN);
	cmp_view_median(n, sizeof(n), cp->col, cp->c.nnew, 0, cp->c.new,
	    NAN);
	memset(&cv, 0, sizeof(cv));
	cv.threshold = v->threshold;
	cmp_view_method(m, sizeof(m), &cv, &cp->c);
	fprintf(f, ":\n  %s -> %s %s (%+.1f%%), %s by %s; p %.3g (step %d)",
	    b, n, cmp_view_unit(cp->col), cp->c.change_pct,
	    cmp_verdict_name(cp->c.verdict), m, cp->p, cp->step);
	fprintf(f, "; records %d-%d against %d-%d\n", cp->from, cp->index - 1,
	    cp->index, cp->to - 1);
	if (cp->nset > 0) {
		fputs("  settings that changed:", f);
		for (i = 0; i < cp->nset; i++) {
			fprintf(f, "%s %s ", i > 0 ? ";" : "", cp->set[i].name);
			text_put(f, cp->set[i].before);
			fputs(" -> ", f);
			text_put(f, cp->set[i].after);
		}
		fputc('\n', f);
	}
	if (cp->unread != NULL) {
		fputs("  not explained: ", f);
		text_put(f, cp->unread);
		fputc('\n', f);
	} else if (cp->explained) {
		km_text(line, sizeof(line), &cp->moved);
		if (line[0] != '\0')
			fprintf(f, "  moved: %s\n", line);
	}
}

static int
text_print(FILE *f, const struct hist_view *v)
{
	const struct history	*h = v->h;
	char			 b[64];
	int			 k, col, from, to, i;

	fprintf(f, "history: %d record%s, %s", h->n, h->n == 1 ? "" : "s",
	    hist_by_words(v->by));
	if (h->n > 0 && h->recs[0].start != NULL &&
	    h->recs[h->n - 1].start != NULL && v->by == HIST_BY_TIME)
		fprintf(f, ", %s to %s", h->recs[0].start,
		    h->recs[h->n - 1].start);
	fputc('\n', f);
	for (k = 0; k < h->nskipped; k++) {
		fputs("skipped: ", f);
		text_put(f, h->skipped[k]);
		fputc('\n', f);
	}
	fputc('\n', f);
	text_method(f, v);
	fputc('\n', f);
	if (v->ncps == 0)
		fputs("No change point in any column.\n\n", f);
	for (k = 0; k < v->ncps; k++)
		text_cp(f, v, &v->cps[k]);
	if (v->ncps > 0)
		fputc('\n', f);
	fputs("Segments (records from-to: median):\n", f);
	for (col = 0; col < RS_NCOLS; col++) {
		if (!v->shown[col])
			continue;
		fprintf(f, "%-11s %-7s", rs_col_name(col), cmp_view_unit(col));
		for (i = 0; i < h->n; i = to) {
			hist_segment(v, col, i, &from, &to);
			cmp_view_median(b, sizeof(b), col, 1, 0,
			    hist_segment_median(v, col, from, to), NAN);
			fprintf(f, " %s%d-%d: %s", i > 0 ? "| " : "", from,
			    to - 1, b);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	if (v->exit)
		fprintf(f, "result: worse (the newest segment of %s)\n",
		    rs_col_name(v->worse_col));
	else
		fprintf(f, "result: ok (no selected column's newest segment "
		    "is worse)\n");
	return ferror(f) ? -1 : 0;
}

static void
json_cp(struct json *j, const struct hist_view *v, const struct hist_cp *cp)
{
	const struct hist_rec	*r = &v->h->recs[cp->index];
	int			 i;

	json_object_start(j, NULL);
	json_string(j, "column", rs_col_name(cp->col));
	json_int(j, "index", cp->index);
	json_string(j, "file", r->file);
	json_string(j, "start", r->start);
	json_string(j, "label", r->label);
	json_string(j, "kernel", r->kernel);
	json_int(j, "step", cp->step);
	json_double(j, "p", cp->p);
	json_object_start(j, "before");
	json_int(j, "from", cp->from);
	json_int(j, "records", cp->c.nbase);
	json_double(j, "median", cp->c.base);
	json_object_end(j);
	json_object_start(j, "after");
	json_int(j, "to", cp->to);
	json_int(j, "records", cp->c.nnew);
	json_double(j, "median", cp->c.new);
	json_object_end(j);
	json_double(j, "change_pct", cp->c.change_pct);
	json_double(j, "change_low_pct", cp->c.lo_pct);
	json_double(j, "change_high_pct", cp->c.hi_pct);
	json_double(j, "confidence", cp->c.level);
	if (cmp_interval_name(cp->c.interval) != NULL)
		json_string(j, "interval", cmp_interval_name(cp->c.interval));
	else
		json_null(j, "interval");
	json_string(j, "verdict", cmp_verdict_name(cp->c.verdict));
	json_array_start(j, "settings");
	for (i = 0; i < cp->nset; i++) {
		json_object_start(j, NULL);
		json_string(j, "name", cp->set[i].name);
		json_string(j, "before", cp->set[i].before);
		json_string(j, "after", cp->set[i].after);
		json_object_end(j);
	}
	json_array_end(j);
	if (cp->explained)
		km_json(j, "kernel_moved", &cp->moved);
	else
		json_null(j, "kernel_moved");
	if (cp->unread != NULL)
		json_string(j, "not_explained", cp->unread);
	else
		json_null(j, "not_explained");
	json_object_end(j);
}

static void
json_columns(struct json *j, const struct hist_view *v)
{
	const struct history	*h = v->h;
	int			 col, i, from, to;

	json_array_start(j, "columns");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!v->shown[col])
			continue;
		json_object_start(j, NULL);
		json_string(j, "name", rs_col_name(col));
		json_string(j, "unit", RS_KIND(col) == RS_KIND_LAT ? "s" :
		    cmp_view_unit(col));
		json_bool(j, "lower_is_better", rs_col_lower_better(col));
		json_bool(j, "fail_on", v->fail_on[col]);
		json_row_start(j, "values");
		for (i = 0; i < h->n; i++)
			json_double(j, NULL, h->recs[i].v[col]);
		json_array_end(j);
		json_array_start(j, "segments");
		for (i = 0; i < h->n; i = to) {
			hist_segment(v, col, i, &from, &to);
			json_object_start(j, NULL);
			json_int(j, "from", from);
			json_int(j, "to", to);
			json_double(j, "median", hist_segment_median(v, col,
			    from, to));
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static int
json_print(FILE *f, const struct hist_view *v)
{
	const struct history	*h = v->h;
	struct json		 j;
	int			 k;

	json_init(&j, f, 1);
	json_object_start(&j, NULL);
	json_string(&j, "schema", "bonnie-ng-history/1");
	json_string(&j, "order", v->by == HIST_BY_TIME ? "start" :
	    v->by == HIST_BY_KERNEL ? "kernel" : "label");
	json_object_start(&j, "method");
	json_string(&j, "name", "e-divisive means on ranks");
	json_double(&j, "alpha", v->opts.alpha);
	json_int(&j, "min_segment", v->opts.min_seg);
	json_int(&j, "permutations", v->cost.reps);
	json_int(&j, "permutations_run", v->cost.perms);
	json_double(&j, "threshold_pct", v->threshold);
	json_object_end(&j);
	json_array_start(&j, "records");
	for (k = 0; k < h->n; k++) {
		json_object_start(&j, NULL);
		json_string(&j, "file", h->recs[k].file);
		json_string(&j, "start", h->recs[k].start);
		json_string(&j, "label", h->recs[k].label);
		json_string(&j, "kernel", h->recs[k].kernel);
		json_int(&j, "runs", h->recs[k].runs);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_array_start(&j, "skipped");
	for (k = 0; k < h->nskipped; k++)
		json_string(&j, NULL, h->skipped[k]);
	json_array_end(&j);
	json_columns(&j, v);
	json_array_start(&j, "change_points");
	for (k = 0; k < v->ncps; k++)
		json_cp(&j, v, &v->cps[k]);
	json_array_end(&j);
	json_int(&j, "exit", v->exit);
	json_object_end(&j);
	return json_finish(&j);
}

const struct hist_printer hist_out_text = { "text", text_print };
const struct hist_printer hist_out_json = { "json", json_print };
