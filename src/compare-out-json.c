/*
 * compare -o json: the comparison as a document, schema
 * bonnie-ng-compare/1 for run records and bonnie-ng-compare-sweep/1 for
 * sweep records (doc/RECORD.md, doc/schema.json's compare_record and
 * compare_sweep_record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare-kernel.h"
#include "compare-out.h"
#include "compare-view.h"
#include "json.h"
#include "phase.h"
#include "resultset.h"
#include "rs-read.h"

/*
 * A side; for a new one (why is not NULL), whether its target differs
 * from the base's and why it is not comparable (why[0] NULL: it is).
 */
static void
json_settings(struct json *j, const char *key, const struct result_set *rs,
    int differs, char *const *why, int points)
{
	char	b[128];
	int	i;

	json_object_start(j, key);
	json_string(j, "file", rs->file);
	if (differs >= 0)
		json_bool(j, "target_differs", differs);
	if (why != NULL)
		json_string(j, "not_comparable", *why);
	json_string(j, "format", rs_format_name(rs->format));
	json_int(j, "runs", rs->nruns);
	if (points >= 0)
		json_int(j, "points", points);
	if (rs->set.latency != NULL)
		json_string(j, "latency", rs->set.latency);
	else
		json_null(j, "latency");
	json_object_start(j, "settings");
	for (i = 0; i < cmp_view_nsettings(); i++) {
		if (!cmp_view_listed(i))
			continue;
		cmp_view_show(&rs->set, i, b, sizeof(b));
		if (strcmp(b, "-") == 0)
			json_null(j, cmp_view_setting_name(i));
		else
			json_string(j, cmp_view_setting_name(i), b);
	}
	json_object_end(j);
	json_object_end(j);
}

static void
json_value(struct json *j, const char *key, int n, int unmeasured, double v)
{
	if (n > 0)
		json_double(j, key, v);
	else if (unmeasured)
		json_string(j, key, "unmeasurable");
	else
		json_null(j, key);
}

/* The document's head: its schema, the sides and the threshold. */
static void
json_head(struct json *j, const struct cmp_view *cmp, const char *schema)
{
	char	*why;
	int	 k;

	json_object_start(j, NULL);
	json_string(j, "schema", schema);
	json_settings(j, "base", &cmp->sets[0], -1, NULL, cmp->sweep ?
	    cmp->npoints[0] : -1);
	json_array_start(j, "new");
	for (k = 1; k < cmp->nsets; k++) {
		why = cmp_view_not_comparable(cmp, k);
		json_settings(j, NULL, &cmp->sets[k],
		    cmp_view_targets_differ(cmp, k, NULL), &why, cmp->sweep ?
		    cmp->npoints[k] : -1);
		free(why);
	}
	json_array_end(j);
	json_double(j, "threshold_pct", cmp->threshold);
}

/* The document's end: the exit status. */
static int
json_tail(struct json *j, const struct cmp_view *cmp)
{
	json_int(j, "exit", cmp->exit);
	json_object_end(j);
	return json_finish(j);
}

/* A new side's verdict, how it was reached, and the runs on each side. */
static void
json_verdict(struct json *j, const struct cmp_cell *c)
{
	json_string(j, "verdict", cmp_verdict_name(c->verdict));
	json_string(j, "method", cmp_method_name(c->method));
	json_double(j, "p", c->p);
	json_double(j, "ci_low", c->ci_lo);
	json_double(j, "ci_high", c->ci_hi);
	json_double(j, "change_low_pct", c->lo_pct);
	json_double(j, "change_high_pct", c->hi_pct);
	json_double(j, "confidence", c->level);
	if (cmp_interval_name(c->interval) != NULL)
		json_string(j, "interval", cmp_interval_name(c->interval));
	else
		json_null(j, "interval");
	json_int(j, "base_runs", c->nbase);
	json_int(j, "new_runs", c->nnew);
}

static int
json_runs(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_cell	*c;
	struct json		 j;
	int			 col, k;

	json_init(&j, f, 1);
	json_head(&j, cmp, "bonnie-ng-compare/1");
	json_array_start(&j, "excluded_runs");
	for (k = 0; k < cmp->nexcluded; k++)
		json_string(&j, NULL, cmp->excluded[k]);
	json_array_end(&j);
	json_array_start(&j, "columns");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		json_object_start(&j, NULL);
		json_string(&j, "name", rs_col_name(col));
		json_string(&j, "unit", RS_KIND(col) == RS_KIND_LAT ? "s" :
		    cmp_view_unit(col));
		json_bool(&j, "lower_is_better", rs_col_lower_better(col));
		/* What the values and the verdict are of. */
		json_string(&j, "compared", RS_KIND(col) == RS_KIND_CPU ?
		    "cpu_cost" : "value");
		json_bool(&j, "fail_on", cmp->fail_on[col]);
		c = cmp_view_cell(cmp, col, 0);
		json_value(&j, "base", c->nbase, c->ubase, c->base);
		if (c->cost)
			json_double_or_null(&j, "base_cpu_pct",
			    c->cpu_base);
		json_array_start(&j, "new");
		for (k = 1; k < cmp->nsets; k++) {
			c = cmp_view_cell(cmp, col, k - 1);
			json_object_start(&j, NULL);
			json_value(&j, "value", c->nnew, c->unew, c->new);
			if (c->cost)
				json_double_or_null(&j, "cpu_pct",
				    c->cpu_new);
			json_double(&j, "change_pct", c->change_pct);
			if (cmp_view_targets_differ(cmp, k, NULL))
				json_double(&j, "fs_ratio",
				    cmp_view_fs_ratio(cmp, col, k));
			json_verdict(&j, c);
			{
				struct km_moved	m;

				km_column(&cmp->sets[0], &cmp->sets[k], col,
				    c->verdict, &m);
				if (m.nbase > 0 && m.nnew > 0 && (m.n > 0 ||
				    !m.large))
					km_json(&j, "kernel_moved", &m);
				else
					json_null(&j, "kernel_moved");
			}
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	return json_tail(&j, cmp);
}

/* A sweep point of every phase's table, with each new sweep's verdict. */
static void
json_point(struct json *j, const struct cmp_view *cmp, int t, int p)
{
	const struct cmp_point	*pt;
	int			 k, nph = cmp->ntables / (cmp->nsets - 1);

	pt = &cmp->points[cmp->tables[t].first + p];
	json_object_start(j, NULL);
	json_string(j, "point", pt->place);
	json_int(j, "size_bytes", (int64_t)pt->at->size);
	json_int(j, "chunk", (int64_t)pt->at->chunk);
	json_int(j, "jobs", pt->at->jobs);
	if (cmp->sets[0].sweep->nseekers > 0)
		json_int(j, "seekers", pt->at->seekers);
	else
		json_null(j, "seekers");
	if (cmp->sets[0].sweep->nfiles > 0)
		json_int(j, "files", (int64_t)pt->at->files);
	else
		json_null(j, "files");
	json_value(j, "base", pt->c.nbase, pt->c.ubase, pt->c.base);
	json_array_start(j, "new");
	for (k = 1; k < cmp->nsets; k++) {
		pt = &cmp->points[cmp->tables[(k - 1) * nph + t].first + p];
		json_object_start(j, NULL);
		json_value(j, "value", pt->c.nnew, pt->c.unew, pt->c.new);
		json_double(j, "change_pct", pt->c.change_pct);
		json_verdict(j, &pt->c);
		if (pt->moved.nbase > 0 && pt->moved.nnew > 0 &&
		    (pt->moved.n > 0 || !pt->moved.large))
			km_json(j, "kernel_moved", &pt->moved);
		else
			json_null(j, "kernel_moved");
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/*
 * Sweep records: a phase of the base's at a time, each point of the base
 * that a side measured, with each new sweep's verdict at it.  The first
 * new sweep's tables give the phases, in order; every new sweep has one
 * table per phase, with a point for each of the base's.
 */
static int
json_sweeps(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_table	*tb;
	struct json		 j;
	int			 t, p, k, shown, nph;

	nph = cmp->ntables / (cmp->nsets - 1);
	json_init(&j, f, 1);
	json_head(&j, cmp, "bonnie-ng-compare-sweep/1");
	json_array_start(&j, "phases");
	for (t = 0; t < nph; t++) {
		tb = &cmp->tables[t];
		json_object_start(&j, NULL);
		json_string(&j, "name", phase_table[tb->phase]->name);
		json_string(&j, "unit", cmp_view_unit(RS_RATE(tb->phase)));
		json_bool(&j, "fail_on", cmp->fail_on[RS_RATE(tb->phase)]);
		json_array_start(&j, "points");
		for (p = 0; p < tb->n; p++) {
			for (k = 1, shown = 0; k < cmp->nsets; k++)
				shown |= cmp->points[cmp->tables[(k - 1) *
				    nph + t].first + p].shown;
			if (shown)
				json_point(&j, cmp, t, p);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	return json_tail(&j, cmp);
}

/*
 * A comparison that could not be made: a document that says so
 * (bonnie-ng-compare-error/1), so that what reads the output finds the
 * reason and the exit status rather than nothing.
 */
static void
json_refused(FILE *f, const char *why, int status)
{
	struct json	j;

	json_init(&j, f, 1);
	json_object_start(&j, NULL);
	json_string(&j, "schema", "bonnie-ng-compare-error/1");
	json_string(&j, "error", why);
	json_int(&j, "exit", status);
	json_object_end(&j);
	json_finish(&j);
	fflush(f);
}

const struct cmp_printer cmp_out_json = {
	.name = "json",
	.runs = json_runs,
	.sweeps = json_sweeps,
	.refused = json_refused,
};
