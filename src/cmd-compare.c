/*
 * "bonnie-ng compare [-h] [-t pct] [-F columns] [-o text|json] base new
 * [new ...]": a side-by-side table of base and new results with
 * the change and a verdict per column, and an exit status for scripts:
 * 0 when nothing selected got worse, 1 when something did, 2 when the
 * input is unusable.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "compare.h"
#include "error.h"
#include "json.h"
#include "resultset.h"
#include "rs-read.h"
#include "text.h"
#include "units.h"

#define DEFAULT_THRESHOLD	5.0

struct compare {
	double			 threshold;
	int			 fail_on[RS_NCOLS];
	int			 json;
	int			 nsets;		/* Base and the new sets. */
	struct result_set	*sets;
	struct cmp_cell		*cells;		/* [col][new] */
	int			 shown[RS_NCOLS];
	int			 latency_skipped; /* Differing kinds. */
	int			 exit;
};

/* A recorded setting, as a string, for the list of differences. */
struct setting {
	const char	*name;
	int		 comparability;	/* A difference makes runs not
					   comparable. */
	void		(*get)(const struct rs_settings *, char *, size_t);
};

#define STR_SETTING(fn, field)						\
static void								\
fn(const struct rs_settings *s, char *b, size_t n)			\
{									\
	snprintf(b, n, "%s", s->field != NULL ? s->field : "-");	\
}
STR_SETTING(get_version, version)
STR_SETTING(get_hostname, hostname)
STR_SETTING(get_os, os)
STR_SETTING(get_kernel, kernel)
STR_SETTING(get_cpu, cpu_model)
STR_SETTING(get_fs, fs_type)
STR_SETTING(get_mount, mount_options)
STR_SETTING(get_device, device)
STR_SETTING(get_scheduler, scheduler)
STR_SETTING(get_cache, cache)
STR_SETTING(get_direct, direct)

static void
get_size(const struct rs_settings *s, char *b, size_t n)
{
	units_size(b, n, s->size);
}

static void
get_ram(const struct rs_settings *s, char *b, size_t n)
{
	units_size(b, n, s->ram);
}

/* A count where 0 means not recorded. */
#define NUM_SETTING(fn, field)						\
static void								\
fn(const struct rs_settings *s, char *b, size_t n)			\
{									\
	if (s->field == 0)						\
		snprintf(b, n, "-");					\
	else								\
		snprintf(b, n, "%llu", (unsigned long long)s->field);	\
}
NUM_SETTING(get_chunk, chunk)
NUM_SETTING(get_seeks, seeks)
NUM_SETTING(get_seekers, seekers)

/* Records from before -j ran one worker. */
static void
get_jobs(const struct rs_settings *s, char *b, size_t n)
{
	snprintf(b, n, "%d", s->jobs > 1 ? s->jobs : 1);
}

static const struct setting settings[] = {
	{ "tool", 0, get_version },
	{ "hostname", 0, get_hostname },
	{ "os", 0, get_os },
	{ "kernel", 0, get_kernel },
	{ "cpu", 0, get_cpu },
	{ "ram", 0, get_ram },
	{ "file system", 0, get_fs },
	{ "mount options", 0, get_mount },
	{ "device", 0, get_device },
	{ "scheduler", 0, get_scheduler },
	{ "file size", 1, get_size },
	{ "chunk", 1, get_chunk },
	{ "seeks", 1, get_seeks },
	{ "seekers", 0, get_seekers },
	{ "jobs", 1, get_jobs },
	{ "cache", 1, get_cache },
	{ "direct", 1, get_direct },
};
#define NSETTINGS	(sizeof(settings) / sizeof(settings[0]))

static int
parse_fail_on(const char *arg, int *sel, char **cause)
{
	char	*copy, *word, *next;
	int	 i, c, r = 0;

	memset(sel, 0, sizeof(*sel) * RS_NCOLS);
	copy = xstrdup(arg);
	for (word = copy; word != NULL; word = next) {
		if ((next = strchr(word, ',')) != NULL)
			*next++ = '\0';
		if (*word == '\0')
			continue;
		if (strcmp(word, "all") == 0 || strcmp(word, "rates") == 0 ||
		    strcmp(word, "cpu") == 0 || strcmp(word, "latency") == 0) {
			for (i = 0; i < RS_NCOLS; i++)
				if (word[0] == 'a' ||
				    (word[0] == 'r' && RS_KIND(i) == RS_KIND_RATE) ||
				    (word[0] == 'c' && RS_KIND(i) == RS_KIND_CPU) ||
				    (word[0] == 'l' && RS_KIND(i) == RS_KIND_LAT))
					sel[i] = 1;
			continue;
		}
		if ((c = rs_col_by_name(word)) < 0) {
			r = errorf(cause, "unknown column '%s' (one of putc, "
			    "write, rewrite, getc, read, seeks, NAME_cpu, "
			    "NAME_lat, rates, cpu, latency, all)", word);
			break;
		}
		sel[c] = 1;
	}
	free(copy);
	if (r == 0) {
		/* An empty list (an unset variable) must not turn the gate off. */
		for (c = 0; c < RS_NCOLS && !sel[c]; c++)
			;
		if (c == RS_NCOLS)
			r = errorf(cause, "'%s' names no column (one of putc, "
			    "write, rewrite, getc, read, seeks, NAME_cpu, "
			    "NAME_lat, rates, cpu, latency, all)", arg);
	}
	return r;
}

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
	return parse_threshold(v, &((struct compare *)t)->threshold, why);
}

static int
set_fail_on(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return parse_fail_on(v, ((struct compare *)t)->fail_on, why);
}

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	struct compare	*cmp = t;

	(void)r;
	if (strcmp(v, "json") == 0)
		cmp->json = 1;
	else if (strcmp(v, "text") == 0)
		cmp->json = 0;
	else
		return errorf(why, "'%s' (use text or json)", v);
	return 0;
}

static const struct args_option compare_rows[] = {
	{ 't', "threshold", ARGS_VALUE, "pct", set_threshold, 0, 0, 0, 0,
	  "a change within pct is the same (default: 5)" },
	{ 'F', "fail-on", ARGS_VALUE, "columns", set_fail_on, 0, 0, 0, 0,
	  "which columns getting worse exit 1 (default: rates)" },
	{ 'o', "output", ARGS_VALUE, "text|json", set_output, 0, 0, 0, 0,
	  "a table or a JSON document" },
	ARGS_END
};

static struct cmp_cell *
cell(struct compare *cmp, int col, int k)
{
	return &cmp->cells[col * (cmp->nsets - 1) + k];
}

static int
has_values(const struct result_set *rs, int col)
{
	int	i;

	for (i = 0; i < rs->nruns; i++)
		if (rs->runs[i].col[col].state != RS_NONE)
			return 1;
	return 0;
}

/* Do all sides' latencies mean the same (max or p99)? */
static int
same_latency(const struct compare *cmp)
{
	const char	*a = cmp->sets[0].set.latency, *b;
	int		 k;

	for (k = 1; k < cmp->nsets; k++) {
		b = cmp->sets[k].set.latency;
		if (a == NULL || b == NULL || strcmp(a, b) != 0)
			return 0;
	}
	return 1;
}

/* Compare every column and work out which to show and the exit status. */
static void
compare_all(struct compare *cmp)
{
	struct cmp_cell	*c;
	int		 col, k, any;

	cmp->cells = xcalloc((size_t)RS_NCOLS * (size_t)(cmp->nsets - 1),
	    sizeof(*cmp->cells));
	cmp->exit = 0;
	for (col = 0; col < RS_NCOLS; col++) {
		any = 0;
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			cmp_column(&cmp->sets[0], &cmp->sets[k], col,
			    cmp->threshold, c);
			if (has_values(&cmp->sets[k], col))
				any = 1;
			if (c->verdict == CMP_WORSE && cmp->fail_on[col])
				cmp->exit = 1;
		}
		/*
		 * Latency only where both sides have it, and mean the same
		 * by it (the worst case, or a text report's 99th percentile).
		 */
		if (RS_KIND(col) == RS_KIND_LAT) {
			cmp->shown[col] = any && has_values(&cmp->sets[0], col);
			if (cmp->shown[col] && !same_latency(cmp)) {
				cmp->shown[col] = 0;
				cmp->latency_skipped = 1;
			}
		}
		else
			cmp->shown[col] = any || has_values(&cmp->sets[0], col);
	}
}

static void
median_text(char *buf, size_t len, int col, int n, int unmeasured, double v)
{
	if (n > 0)
		rs_format_value(buf, len, col, RS_VALUE, v);
	else
		rs_format_value(buf, len, col, unmeasured ? RS_UNMEASURABLE :
		    RS_NONE, 0);
}

static void
method_text(char *buf, size_t len, const struct compare *cmp,
    const struct cmp_cell *c)
{
	switch (c->method) {
	case CMP_M_THRESHOLD:
		snprintf(buf, len, "threshold %g%%", cmp->threshold);
		break;
	case CMP_M_MANN_WHITNEY:
		snprintf(buf, len, "mann-whitney p=%.3f", c->p);
		break;
	default:
		snprintf(buf, len, "%s", cmp_method_name(c->method));
		break;
	}
}

static const char *
col_unit(int col)
{
	if (RS_KIND(col) == RS_KIND_CPU)
		return "%CPU";
	if (RS_KIND(col) == RS_KIND_LAT)
		return "lat";
	return col == RS_SEEKS ? "/sec" : "K/sec";
}

/*
 * The settings differences and comparability warnings, as text.  Returns
 * the number of lines printed.
 */
/* A setting's value as a terminal may show it: controls escaped. */
static void
escape_in_place(char *buf, size_t len)
{
	char	*raw = xstrdup(buf);

	text_escape(buf, len, raw);
	free(raw);
}

static int
print_settings(const struct compare *cmp)
{
	char		 (*val)[128], *bad;
	size_t		 i;
	int		 k, differs, known, header = 0;

	val = xcalloc((size_t)cmp->nsets, sizeof(*val));
	for (i = 0; i < NSETTINGS; i++) {
		/* Listed when two sides that know it disagree. */
		differs = 0;
		known = -1;
		for (k = 0; k < cmp->nsets; k++) {
			settings[i].get(&cmp->sets[k].set, val[k],
			    sizeof(val[k]));
			escape_in_place(val[k], sizeof(val[k]));
			if (strcmp(val[k], "-") == 0)
				continue;
			if (known >= 0 && strcmp(val[k], val[known]) != 0)
				differs = 1;
			known = k;
		}
		if (!differs)
			continue;
		if (!header) {
			printf("Settings that differ (base | new%s):\n",
			    cmp->nsets > 2 ? " 1 | new 2 ..." : "");
			header++;
		}
		header++;
		printf("  %-14s %s", settings[i].name, val[0]);
		for (k = 1; k < cmp->nsets; k++)
			printf(" | %s", val[k]);
		printf("\n");
	}
	free(val);

	/* Runs are comparable only with the same size, chunk, cache, seeks. */
	for (k = 1; k < cmp->nsets; k++) {
		bad = NULL;
		for (i = 0; i < NSETTINGS; i++) {
			char	 a[128], b[128], *t;

			if (!settings[i].comparability)
				continue;
			settings[i].get(&cmp->sets[0].set, a, sizeof(a));
			settings[i].get(&cmp->sets[k].set, b, sizeof(b));
			escape_in_place(a, sizeof(a));
			escape_in_place(b, sizeof(b));
			if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0 ||
			    strcmp(a, b) == 0)
				continue;
			t = xasprintf("%s%s%s %s vs %s", bad ? bad : "",
			    bad ? ", " : "", settings[i].name, a, b);
			free(bad);
			bad = t;
		}
		if (bad != NULL) {
			fputs("warning: ", stdout);
			text_put(stdout, cmp->sets[k].file);
			fputs(" is not comparable with ", stdout);
			text_put(stdout, cmp->sets[0].file);
			printf(": %s\n", bad);
			header++;
		}
		free(bad);
	}
	return header;
}

static void
print_text(struct compare *cmp)
{
	const struct cmp_cell	*c;
	char			 b[64], m[64];
	int			 col, k, warned = 0;

	for (k = 0; k < cmp->nsets; k++) {
		if (k == 0)
			fputs("base: ", stdout);
		else
			printf("new %d: ", k);
		text_put(stdout, cmp->sets[k].file);
		printf(" (%s, %d run%s)\n", rs_format_name(cmp->sets[k].format),
		    cmp->sets[k].nruns, cmp->sets[k].nruns == 1 ? "" : "s");
	}
	printf("\n");
	if (print_settings(cmp) > 0)
		printf("\n");
	printf("%-12s %-5s %10s", "column", "unit", "base");
	for (k = 1; k < cmp->nsets; k++)
		printf("  %10s %8s %-7s %-*s", cmp->nsets > 2 ?
		    (snprintf(b, sizeof(b), "new %d", k), b) : "new", "change",
		    "verdict", k < cmp->nsets - 1 ? 22 : 0, "method");
	printf("\n");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		c = cell(cmp, col, 0);
		median_text(b, sizeof(b), col, c->nbase, c->ubase, c->base);
		printf("%-12s %-5s %10s", rs_col_name(col), col_unit(col), b);
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			median_text(b, sizeof(b), col, c->nnew, c->unew, c->new);
			printf("  %10s", b);
			if (isnan(c->change_pct))
				printf(" %8s", "-");
			else
				printf(" %+7.1f%%", c->change_pct);
			method_text(m, sizeof(m), cmp, c);
			printf(" %-7s %-*s", cmp_verdict_name(c->verdict),
			    k < cmp->nsets - 1 ? 22 : 0, m);
			if (c->verdict == CMP_WORSE && cmp->fail_on[col])
				warned = 1;
		}
		printf("\n");
	}
	printf("\n");
	printf("Values are medians over a file's runs; latency (lat) is the "
	    "worst case, or a\ntext report's 99th percentile.  With %d or "
	    "more runs on both sides the verdict\ncomes from the runs' "
	    "distributions at %.0f%%; with fewer, a change within %g%% is\n"
	    "\"same\".\n", CMP_MIN_RUNS, 100 * (1 - CMP_ALPHA),
	    cmp->threshold);
	if (cmp->latency_skipped)
		printf("Latency is not compared: the sides record different "
		    "latencies (a text\nreport's Latency row is the 99th "
		    "percentile, JSON and CSV the worst case).\n");
	printf("result: %s\n", warned ? "worse (a selected column got worse)" :
	    "ok (no selected column got worse)");
}

static void
json_settings(struct json *j, const char *key, const struct result_set *rs)
{
	char	b[128];
	size_t	i;

	json_object_start(j, key);
	json_string(j, "file", rs->file);
	json_string(j, "format", rs_format_name(rs->format));
	json_int(j, "runs", rs->nruns);
	if (rs->set.latency != NULL)
		json_string(j, "latency", rs->set.latency);
	else
		json_null(j, "latency");
	json_object_start(j, "settings");
	for (i = 0; i < NSETTINGS; i++) {
		settings[i].get(&rs->set, b, sizeof(b));
		if (strcmp(b, "-") == 0)
			json_null(j, settings[i].name);
		else
			json_string(j, settings[i].name, b);
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

static int
print_json(struct compare *cmp)
{
	const struct cmp_cell	*c;
	struct json		 j;
	int			 col, k;

	json_init(&j, stdout, 1);
	json_object_start(&j, NULL);
	json_string(&j, "schema", "bonnie-ng-compare/1");
	json_settings(&j, "base", &cmp->sets[0]);
	json_array_start(&j, "new");
	for (k = 1; k < cmp->nsets; k++)
		json_settings(&j, NULL, &cmp->sets[k]);
	json_array_end(&j);
	json_double(&j, "threshold_pct", cmp->threshold);
	json_array_start(&j, "columns");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		json_object_start(&j, NULL);
		json_string(&j, "name", rs_col_name(col));
		json_string(&j, "unit", RS_KIND(col) == RS_KIND_LAT ? "s" :
		    col_unit(col));
		json_bool(&j, "lower_is_better", rs_col_lower_better(col));
		json_bool(&j, "fail_on", cmp->fail_on[col]);
		c = cell(cmp, col, 0);
		json_value(&j, "base", c->nbase, c->ubase, c->base);
		json_array_start(&j, "new");
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			json_object_start(&j, NULL);
			json_value(&j, "value", c->nnew, c->unew, c->new);
			json_double(&j, "change_pct", c->change_pct);
			json_string(&j, "verdict", cmp_verdict_name(c->verdict));
			json_string(&j, "method", cmp_method_name(c->method));
			json_double(&j, "p", c->p);
			json_double(&j, "ci_low", c->ci_lo);
			json_double(&j, "ci_high", c->ci_hi);
			json_int(&j, "base_runs", c->nbase);
			json_int(&j, "new_runs", c->nnew);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_int(&j, "exit", cmp->exit);
	json_object_end(&j);
	return json_finish(&j);
}

static void
compare_init(void *state, int argc, char **argv)
{
	struct compare	*cmp = state;
	int		 col;

	(void)argc;
	(void)argv;
	memset(cmp, 0, sizeof(*cmp));
	cmp->threshold = DEFAULT_THRESHOLD;
	for (col = 0; col < RS_NCOLS; col++)
		cmp->fail_on[col] = RS_KIND(col) == RS_KIND_RATE;
}

static int
compare_exec(void *state, int n, char **files, char **cause)
{
	struct compare	*cmp = state;
	int		 i, status = CMD_USAGE;

	cmp->sets = xcalloc((size_t)n, sizeof(*cmp->sets));
	for (i = 0; i < n; i++) {
		if (rs_read_file(files[i], &cmp->sets[i], cause) != 0)
			goto out;
		cmp->nsets++;
	}
	compare_all(cmp);
	if (cmp->json) {
		if (print_json(cmp) != 0) {
			errorf(cause, "compare: standard output: %s",
			    strerror(errno));
			goto out;
		}
	} else
		print_text(cmp);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		errorf(cause, "compare: standard output: %s", strerror(errno));
		goto out;
	}
	status = cmp->exit;
out:
	for (i = 0; i < cmp->nsets; i++)
		rs_free(&cmp->sets[i]);
	free(cmp->sets);
	free(cmp->cells);
	return status;
}

static const struct cmd_rows compare_tables[] = {
	{ compare_rows, 0, 0 },
	{ NULL, 0, 0 }
};

const struct cmd_entry cmd_compare_entry = {
	{ "compare", "base new [new ...]", 2, -1, NULL, NULL },
	compare_tables,
	sizeof(struct compare),
	compare_init,
	compare_exec,
	0
};
