/*
 * "bonnie-ng compare [-h] [-t pct] [-F columns] [-o text|json|junit|markdown]
 * base new [new ...]": a side-by-side table of base and new results with
 * the change and a verdict per column, and an exit status for scripts:
 * 0 when nothing selected got worse, 1 when something did, 2 when the
 * input is unusable.  The same comparison prints as a text table, a JSON
 * document, JUnit XML for CI test reporters (a test case per column, a
 * failure per selected column that got worse) or a Markdown table for a
 * pull-request comment.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "compare.h"
#include "compare-kernel.h"
#include "error.h"
#include "json.h"
#include "phase.h"
#include "report.h"
#include "resultset.h"
#include "rs-read.h"
#include "settings.h"
#include "text.h"
#include "units.h"

#define DEFAULT_THRESHOLD	5.0

struct compare {
	double			 threshold;
	int			 fail_on[RS_NCOLS];
	int			 fail_named[RS_NCOLS];	/* -F NAME. */
	int			 output;	/* Index in outputs[]. */
	int			 nsets;		/* Base and the new sets. */
	struct result_set	*sets;
	struct cmp_cell		*cells;		/* [col][new] */
	int			 shown[RS_NCOLS];
	int			 latency_skipped; /* Differing kinds. */
	char			**excluded;	/* Runs left out, and why. */
	int			*left_out;	/* Per set, how many. */
	int			 nexcluded;
	int			 exit;
};

static int	print_text(struct compare *);
static int	print_json(struct compare *);
static int	print_junit(struct compare *);
static int	print_markdown(struct compare *);
static void	md_text(const char *);

/* The outputs, by their name for -o. */
static const struct {
	const char	 *name;
	int		(*print)(struct compare *);
} outputs[] = {
	{ "text", print_text },
	{ "json", print_json },
	{ "junit", print_junit },
	{ "markdown", print_markdown },
};
#define NOUTPUTS	(sizeof(outputs) / sizeof(outputs[0]))

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The per-mount and the file system's own options (where sync and the
 * like live) as one set: sorted, each once, so order does not matter.
 */
static void
show_mount_set(const struct rs_settings *s, char *b, size_t n)
{
	char	*all, *w, *next, **v = NULL;
	size_t	 nv = 0, i, used = 0;

	if (s->mount_options == NULL && s->super_options == NULL) {
		snprintf(b, n, "-");
		return;
	}
	all = xasprintf("%s,%s", s->mount_options ? s->mount_options : "",
	    s->super_options ? s->super_options : "");
	for (w = all; w != NULL; w = next) {
		if ((next = strchr(w, ',')) != NULL)
			*next++ = '\0';
		if (*w == '\0')
			continue;
		v = xrealloc(v, (nv + 1) * sizeof(*v));
		v[nv++] = w;
	}
	if (nv > 1)
		qsort(v, nv, sizeof(*v), cmp_str);
	b[0] = '\0';
	for (i = 0; i < nv; i++)
		if ((i == 0 || strcmp(v[i], v[i - 1]) != 0) && used < n)
			used += (size_t)snprintf(b + used, n - used, "%s%s",
			    used ? "," : "", v[i]);
	free(v);
	free(all);
}

/* What was measured: a file system, or the device --device named. */
static void
show_target(const struct rs_settings *s, char *b, size_t n)
{
	if (s->target == NULL)
		snprintf(b, n, "-");
	else if (strcmp(s->target, "device") == 0)
		snprintf(b, n, "device %s", s->target_path != NULL ?
		    s->target_path : "(unnamed)");
	else
		snprintf(b, n, "file system");
}

static void
show_str(const char *v, char *b, size_t n)
{
	snprintf(b, n, "%s", v != NULL ? v : "-");
}

/* A count where 0 means not recorded. */
static void
show_count(uint64_t v, char *b, size_t n)
{
	if (v == 0)
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%llu", (unsigned long long)v);
}

/*
 * The settings compare lists: the settings table's rows that are
 * settings of their own (RULE_MATCH, RULE_INFO), then the phases' own
 * options (compared as RULE_MATCH), numbered after them.
 */
static int
nsettings(void)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];

	return SET_COUNT + settings_phase_rows(rows, SETTINGS_PHASE_MAX);
}

static int
listed(int id)
{
	return id >= SET_COUNT || settings_table[id].rule == RULE_MATCH ||
	    settings_table[id].rule == RULE_INFO;
}

static int
must_match(int id)
{
	return id >= SET_COUNT || settings_table[id].rule == RULE_MATCH;
}

static const char *
setting_name(int id)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];

	if (id < SET_COUNT)
		return settings_name(id);
	settings_phase_rows(rows, SETTINGS_PHASE_MAX);
	return rows[id - SET_COUNT]->name;
}

/* A side's value of setting id, as the table says to show it; "-": none. */
static void
show(const struct rs_settings *s, int id, char *b, size_t n)
{
	if (id >= SET_COUNT) {
		show_str(s->phase_value[id - SET_COUNT], b, n);
		return;
	}
	switch (settings_table[id].show) {
	case SHOW_TEXT:
		show_str(s->value[id], b, n);
		break;
	case SHOW_SIZE:
		units_size(b, n, s->size);
		break;
	case SHOW_RAM:
		units_size(b, n, s->ram);
		break;
	case SHOW_CHUNK:
		show_count(s->chunk, b, n);
		break;
	case SHOW_SEEKS:
		show_count(s->seeks, b, n);
		break;
	case SHOW_SEEKERS:
		show_count((uint64_t)(s->seekers > 0 ? s->seekers : 0), b, n);
		break;
	case SHOW_JOBS:
		/* Records from before -j ran one worker. */
		snprintf(b, n, "%d", s->jobs > 1 ? s->jobs : 1);
		break;
	case SHOW_FILES:
		/* --files (bonnie++ -n) as the file creation row shows it. */
		if (s->files == 0)
			snprintf(b, n, "-");
		else
			report_files_spec(b, n, s->files, s->files_max,
			    s->files_min, s->files_dirs);
		break;
	case SHOW_TARGET:
		show_target(s, b, n);
		break;
	case SHOW_MOUNT:
		show_mount_set(s, b, n);
		break;
	case SHOW_VM_DIRTY:
		show_str(s->vm_dirty, b, n);
		break;
	case SHOW_READ_AHEAD:
		show_str(s->read_ahead, b, n);
		break;
	case SHOW_SEED:
		show_str(s->seed, b, n);
		break;
	case SHOW_VERIFIED:
		show_str(s->verified, b, n);
		break;
	case SHOW_IODEPTH:
		/* Records from before --iodepth ran one request at a time. */
		snprintf(b, n, "%llu", (unsigned long long)(settings_u64(
		    s->value, SET_IODEPTH) > 1 ? settings_u64(s->value,
		    SET_IODEPTH) : 1));
		break;
	case SHOW_DIRECT:
		show_str(s->direct, b, n);
		break;
	case SHOW_TOOL:
		show_str(s->version, b, n);
		break;
	}
}

static int
parse_fail_on(const char *arg, int *sel, int *named, char **cause)
{
	char	*copy, *word, *next, names[256];
	int	 i, c, r = 0;

	memset(sel, 0, sizeof(*sel) * RS_NCOLS);
	memset(named, 0, sizeof(*named) * RS_NCOLS);
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
			phase_names(names, sizeof(names));
			r = errorf(cause, "unknown column '%s' (one of %s, "
			    "NAME_cpu, NAME_lat, rates, cpu, latency, all)",
			    word, names);
			break;
		}
		sel[c] = 1;
		named[c] = 1;
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
	return parse_fail_on(v, ((struct compare *)t)->fail_on,
	    ((struct compare *)t)->fail_named, why);
}

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	struct compare	*cmp = t;
	size_t		 i;

	(void)r;
	for (i = 0; i < NOUTPUTS; i++)
		if (strcmp(v, outputs[i].name) == 0) {
			cmp->output = (int)i;
			return 0;
		}
	return errorf(why, "'%s' (use text, json, junit or markdown)", v);
}

static const struct args_option compare_rows[] = {
	{ 't', "threshold", ARGS_VALUE, "pct", set_threshold, 0, 0, 0, 0,
	  "a change within pct is the same (default: 5)" },
	{ 'F', "fail-on", ARGS_VALUE, "columns", set_fail_on, 0, 0, 0, 0,
	  "which columns getting worse exit 1 (default: rates)" },
	{ 'o', "output", ARGS_VALUE, "text|json|junit|markdown", set_output,
	  0, 0, 0, 0, "a table, JSON, JUnit XML or a Markdown table" },
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

/*
 * A gate that could never fail is refused: a column named with -F that no
 * input has, a selection of which no input has any column, and a
 * threshold at which no selected rate could fall far enough (a rate falls
 * by 100% at most).
 */
static int
gate_check(const struct compare *cmp, char **cause)
{
	int	col, k, any = 0;

	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->fail_on[col])
			continue;
		for (k = 0; k < cmp->nsets &&
		    !has_values(&cmp->sets[k], col); k++)
			;
		if (k < cmp->nsets)
			any = 1;
		else if (cmp->fail_named[col])
			return errorf(cause, "compare: -F %s: no input has that "
			    "column, so the gate would check nothing",
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

	if (cmp->threshold < 100)
		return 0;
	for (col = 0; col < RS_NCOLS; col++)
		if (cmp->fail_on[col] && RS_KIND(col) == RS_KIND_RATE)
			return errorf(cause, "compare: -t %g: a rate falls by "
			    "100%% at most, so %s could never be worse (use "
			    "less than 100, or -F without rates)",
			    cmp->threshold, rs_col_name(col));
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

/*
 * Leave out of the statistics the runs of set k that stopped on an error
 * or a signal, listing each in cmp->excluded.  -1 with a cause when no
 * run is left.
 */
static int
drop_failed(struct compare *cmp, int k, char **cause)
{
	struct result_set	*rs = &cmp->sets[k];
	const char		*first = NULL;
	int			 i, n = 0;

	for (i = 0; i < rs->nruns; i++) {
		if (rs->runs[i].failed == NULL) {
			rs->runs[n++] = rs->runs[i];
			continue;
		}
		cmp->excluded = xrealloc(cmp->excluded,
		    ((size_t)cmp->nexcluded + 1) * sizeof(*cmp->excluded));
		cmp->excluded[cmp->nexcluded++] = xasprintf("%s run %d: %s",
		    rs->file, i + 1, rs->runs[i].failed);
		if (first == NULL)
			first = cmp->excluded[cmp->nexcluded - 1];
		free(rs->runs[i].label);
		free(rs->runs[i].failed);
		rs_kernel_free(&rs->runs[i]);
	}
	cmp->left_out[k] = rs->nruns - n;
	rs->nruns = n;
	if (n == 0)
		return errorf(cause, "compare: %s: no usable run (%s)", rs->file,
		    first != NULL ? first : "no runs");
	return 0;
}

/* Compare every column and work out which to show and the exit status. */
static void
compare_all(struct compare *cmp)
{
	struct cmp_cell	*c;
	int		 col, k, any, in_base;

	cmp->cells = xcalloc((size_t)RS_NCOLS * (size_t)(cmp->nsets - 1),
	    sizeof(*cmp->cells));
	cmp->exit = 0;
	for (col = 0; col < RS_NCOLS; col++) {
		any = 0;
		in_base = has_values(&cmp->sets[0], col);
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			cmp_column(&cmp->sets[0], &cmp->sets[k], col,
			    cmp->threshold, c);
			if (has_values(&cmp->sets[k], col))
				any = 1;
			/* A gate on a column the new side lacks fails. */
			else if (in_base && cmp->fail_on[col] &&
			    !(RS_KIND(col) == RS_KIND_LAT && !same_latency(cmp)))
				c->verdict = CMP_MISSING;
			if ((c->verdict == CMP_WORSE ||
			    c->verdict == CMP_MISSING) && cmp->fail_on[col])
				cmp->exit = 1;
		}
		/*
		 * Latency only where both sides have it, and mean the same
		 * by it (the worst case, or a text report's 99th percentile).
		 */
		if (RS_KIND(col) == RS_KIND_LAT) {
			cmp->shown[col] = in_base && (any || cmp->fail_on[col]);
			if (cmp->shown[col] && !same_latency(cmp)) {
				cmp->shown[col] = 0;
				cmp->latency_skipped = 1;
			}
		}
		else
			cmp->shown[col] = any || has_values(&cmp->sets[0], col);
	}
}

/*
 * A median as the tables print it; a %CPU column's is its cost, with the
 * raw %CPU beside it: "8.89 (38.8%)".
 */
static void
median_text(char *buf, size_t len, int col, int n, int unmeasured, double v,
    double cpu)
{
	if (RS_KIND(col) == RS_KIND_CPU && n > 0 && !isnan(cpu))
		snprintf(buf, len, "%.3g (%.1f%%)", v, cpu);
	else if (RS_KIND(col) == RS_KIND_CPU && n > 0)
		snprintf(buf, len, "%.3g", v);
	else if (n > 0)
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
		snprintf(buf, len, "thr %g%%", cmp->threshold);
		break;
	case CMP_M_MANN_WHITNEY:
		snprintf(buf, len, "MW p=%.3f", c->p);
		break;
	case CMP_M_UNMEASURABLE:
		snprintf(buf, len, "+++++");
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
		return rs_cost_unit(col);
	if (RS_KIND(col) == RS_KIND_LAT)
		return "lat";
	return phase_table[RS_PHASE(col)]->flags & PHASE_OPS ? "/sec" :
	    "K/sec";
}

/*
 * Latency in one unit per row: the unit that suits the row's largest
 * value.  Returns the divisor from seconds and sets *unit.
 */
static double
lat_unit(const struct compare *cmp, int col, const char **unit)
{
	const struct cmp_cell	*c;
	double			 max = 0;
	int			 k;

	for (k = 1; k < cmp->nsets; k++) {
		c = cell((struct compare *)cmp, col, k - 1);
		if (c->nbase > 0 && c->base > max)
			max = c->base;
		if (c->nnew > 0 && c->new > max)
			max = c->new;
	}
	if (max < 0.01) {
		*unit = "us";
		return 1e-6;
	}
	if (max < 10) {
		*unit = "ms";
		return 1e-3;
	}
	*unit = "s";
	return 1;
}

static void
value_text(char *buf, size_t len, const struct compare *cmp, int col, int n,
    int unmeasured, double v, double cpu)
{
	const char	*unit;
	double		 d;

	if (RS_KIND(col) != RS_KIND_LAT || n == 0) {
		median_text(buf, len, col, n, unmeasured, v, cpu);
		return;
	}
	d = lat_unit(cmp, col, &unit);
	snprintf(buf, len, v / d < 10 ? "%.1f%s" : "%.0f%s", v / d, unit);
}

/* A side's spread as the coefficient of variation, or blank. */
static void
cv_text(char *buf, size_t len, double cv)
{
	if (isnan(cv))
		snprintf(buf, len, "%s", "");
	else if (cv >= 0.995)
		snprintf(buf, len, ">99%%");
	else
		snprintf(buf, len, "%.*f%%", cv < 0.1 ? 1 : 0, 100 * cv);
}

/* "b:IW n:W": which side has imprecise (I) or warm (W) runs. */
static void
flags_text(char *buf, size_t len, unsigned fb, unsigned fn)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s", fb ? "b:" : "",
	    fb & RS_F_IMPRECISE ? "I" : "", fb & RS_F_WARM ? "W" : "",
	    fb && fn ? " " : "", fn ? "n:" : "",
	    fn & RS_F_IMPRECISE ? "I" : "", fn & RS_F_WARM ? "W" : "");
}

/* A result of bonnie++ itself (not bonnie-ng's CSV)? */
static int
is_bonnie_pp(const struct result_set *rs)
{
	const char	*v = rs->set.version;

	return v != NULL && strncmp(v, "bonnie++", 8) == 0 &&
	    strstr(v, "(bonnie-ng") == NULL;
}

/*
 * Do base and new set k measure different targets, a file system and a
 * block device?  Then the file system's side is *fs (0 the base, 1 new).
 */
static int
targets_differ(const struct compare *cmp, int k, int *fs)
{
	const struct result_set	*a = &cmp->sets[0], *b = &cmp->sets[k];

	if (a->set.target == NULL || b->set.target == NULL ||
	    rs_on_device(a) == rs_on_device(b))
		return 0;
	if (fs != NULL)
		*fs = rs_on_device(a) ? 1 : 0;
	return 1;
}

/*
 * The file system's cost in column col against the device, for a pair
 * whose targets differ: a rate column's file system rate over the
 * device's (0.8: the file system keeps 80% of the device's rate), a %CPU
 * column's file system CPU cost over the device's (1.5: half as much CPU
 * again per byte).  NAN when either side lacks the value, for latency,
 * and when the targets do not differ.
 */
static double
fs_ratio(const struct compare *cmp, int col, int k)
{
	const struct cmp_cell	*c = cell((struct compare *)cmp, col, k - 1);
	double			 fsv, devv;
	int			 fs;

	if (!targets_differ(cmp, k, &fs) || RS_KIND(col) == RS_KIND_LAT ||
	    c->nbase == 0 || c->nnew == 0)
		return NAN;
	fsv = fs == 0 ? c->base : c->new;
	devv = fs == 0 ? c->new : c->base;
	if (!(devv > 0))
		return NAN;
	return fsv / devv;
}

/* What an unknown setting is shown as. */
static void
unknown_text(const struct result_set *rs, int id, char *b, size_t n)
{
	if (id == SET_CHUNK && is_bonnie_pp(rs))
		snprintf(b, n, "unknown (bonnie++'s default is %llu)",
		    (unsigned long long)settings_table[SET_CHUNK].pp_def);
	else if (id == SET_FS_TYPE && rs_on_device(rs))
		snprintf(b, n, "%s", rs_fs_shown(rs));
	else
		snprintf(b, n, "unknown");
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

/*
 * For each new side whose target differs from the base's: say so, and
 * give the file system's cost per column, which is what such a
 * comparison is for.  Returns the lines printed.
 */
static int
print_fs_cost(FILE *f, const struct compare *cmp)
{
	char	 dev[256];
	double	 r;
	int	 k, col, fs, lines = 0;

	for (k = 1; k < cmp->nsets; k++) {
		if (!targets_differ(cmp, k, &fs))
			continue;
		show_target(&cmp->sets[fs == 0 ? k : 0].set, dev, sizeof(dev));
		escape_in_place(dev, sizeof(dev));
		fputs("note: the targets differ: ", f);
		text_put(f, cmp->sets[fs == 0 ? 0 : k].file);
		fputs(" measured a file system, ", f);
		text_put(f, cmp->sets[fs == 0 ? k : 0].file);
		fprintf(f, " the %s.\nThe file system's cost per column (a "
		    "rate as a share of the device's, a CPU\ncost as a "
		    "multiple of the device's):\n",
		    dev);
		lines += 3;
		for (col = 0; col < RS_NCOLS; col++) {
			if (!cmp->shown[col] || isnan(r = fs_ratio(cmp, col, k)))
				continue;
			if (RS_KIND(col) == RS_KIND_CPU)
				fprintf(f, "  %-11s %6.2fx the device's CPU %s\n",
				    rs_col_name(col), r, rs_cost_unit(col));
			else
				fprintf(f, "  %-11s %6.1f%% of the device's rate "
				    "(%+.1f%%)\n", rs_col_name(col), 100 * r,
				    100 * (r - 1));
			lines++;
		}
	}
	return lines;
}

/*
 * Why new side k is not comparable with the base: the settings that must
 * match (RULE_MATCH) and do not, "chunk 16384 vs 8192, ...", in a new
 * string; NULL when they all match (or a side does not know one).
 */
static char *
not_comparable(const struct compare *cmp, int k)
{
	char	 a[128], b[128], *t, *bad = NULL;
	int	 i;

	for (i = 0; i < nsettings(); i++) {
		if (!must_match(i))
			continue;
		show(&cmp->sets[0].set, i, a, sizeof(a));
		show(&cmp->sets[k].set, i, b, sizeof(b));
		escape_in_place(a, sizeof(a));
		escape_in_place(b, sizeof(b));
		if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0 ||
		    strcmp(a, b) == 0)
			continue;
		t = xasprintf("%s%s%s %s vs %s", bad ? bad : "",
		    bad ? ", " : "", setting_name(i), a, b);
		free(bad);
		bad = t;
	}
	return bad;
}

static int
print_settings(FILE *f, const struct compare *cmp)
{
	char		 (*val)[256], *bad;
	int		 i, k, differs, known, unknown, header = 0;

	val = xcalloc((size_t)cmp->nsets, sizeof(*val));
	for (i = 0; i < nsettings(); i++) {
		if (!listed(i))
			continue;
		/*
		 * Listed when two sides that know it disagree, or when one
		 * side knows it and another does not.
		 */
		differs = unknown = 0;
		known = -1;
		for (k = 0; k < cmp->nsets; k++) {
			show(&cmp->sets[k].set, i, val[k], sizeof(val[k]));
			escape_in_place(val[k], sizeof(val[k]));
			if (strcmp(val[k], "-") == 0) {
				unknown_text(&cmp->sets[k], i, val[k],
				    sizeof(val[k]));
				unknown = 1;
				continue;
			}
			if (known >= 0 && strcmp(val[k], val[known]) != 0)
				differs = 1;
			known = k;
		}
		if (!differs && !(unknown && known >= 0))
			continue;
		if (!header) {
			fprintf(f, "Settings that differ (base | new%s):\n",
			    cmp->nsets > 2 ? " 1 | new 2 ..." : "");
			header++;
		}
		header++;
		fprintf(f, "  %-14s %s", setting_name(i), val[0]);
		for (k = 1; k < cmp->nsets; k++)
			fprintf(f, " | %s", val[k]);
		fputc('\n', f);
	}
	free(val);

	for (k = 0; k < cmp->nsets; k++)
		if (is_bonnie_pp(&cmp->sets[k]))
			break;
	if (k < cmp->nsets) {
		fprintf(f, "note: the per-char columns (putc, getc) measure "
		    "different work: bonnie++\nmakes one read(2) or write(2) "
		    "per byte, bonnie-ng calls stdio's putc and getc\n");
		header += 2;
	}

	/* Runs are comparable only when the settings that must match do. */
	for (k = 1; k < cmp->nsets; k++) {
		if ((bad = not_comparable(cmp, k)) != NULL) {
			fputs("warning: ", f);
			text_put(f, cmp->sets[k].file);
			fputs(" is not comparable with ", f);
			text_put(f, cmp->sets[0].file);
			fprintf(f, ": %s\n", bad);
			header++;
		}
		free(bad);
	}
	return header + print_fs_cost(f, cmp);
}

/*
 * The selected columns with verdict v on any new side, comma-separated,
 * in a new string, or NULL when there are none.
 */
static char *
columns_with(const struct compare *cmp, enum cmp_verdict v)
{
	char	*list = NULL, *t;
	int	 col, k, hit;

	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->fail_on[col] || !cmp->shown[col])
			continue;
		for (k = 1, hit = 0; k < cmp->nsets; k++)
			if (cell((struct compare *)cmp, col, k - 1)->verdict == v)
				hit = 1;
		if (!hit)
			continue;
		t = xasprintf("%s%s%s", list ? list : "", list ? ", " : "",
		    rs_col_name(col));
		free(list);
		list = t;
	}
	return list;
}

/*
 * The result: ok, or which selected columns got worse or are missing, as
 * "ok (...)" or "worse (worse: write; missing: seeks)", in a new string.
 */
static char *
result_text(const struct compare *cmp)
{
	char	*worse = columns_with(cmp, CMP_WORSE);
	char	*missing = columns_with(cmp, CMP_MISSING);
	char	*r;

	if (worse == NULL && missing == NULL)
		r = xasprintf("ok (no selected column got worse, none is "
		    "missing)");
	else
		r = xasprintf("%s (%s%s%s%s%s)", worse ? "worse" : "missing",
		    worse ? "worse: " : "", worse ? worse : "",
		    worse && missing ? "; " : "", missing ? "missing: " : "",
		    missing ? missing : "");
	free(worse);
	free(missing);
	return r;
}

/* The last line of the table. */
static void
print_result(const struct compare *cmp)
{
	char	*r = result_text(cmp);

	printf("result: %s\n", r);
	free(r);
}

static void
print_excluded(const struct compare *cmp)
{
	int	i;

	if (cmp->nexcluded == 0)
		return;
	printf("warning: %d run%s left out of the statistics (stopped on an "
	    "error or a signal):\n", cmp->nexcluded,
	    cmp->nexcluded == 1 ? "" : "s");
	for (i = 0; i < cmp->nexcluded; i++) {
		fputs("  ", stdout);
		text_put(stdout, cmp->excluded[i]);
		putchar('\n');
	}
	printf("\n");
}

/*
 * What moved in the kernel's account of column col's phase for new side
 * k (compare-kernel.c), as a line: "read -75.3% worse: rareq-sz 508 ->
 * 4.0 KiB (-99%), ... (single runs)".  0 with the line, -1 when the
 * column has no verdict or a side no account.
 */
static int
moved_line(const struct compare *cmp, int col, int k, char *buf, size_t len)
{
	const struct cmp_cell	*c = cell((struct compare *)cmp, col, k - 1);
	struct km_moved		 m;
	char			 figs[768], pct[32] = "", who[32] = "";
	char			 how[64];

	if (c->verdict != CMP_WORSE && c->verdict != CMP_BETTER)
		return -1;
	km_column(&cmp->sets[0], &cmp->sets[k], col, &m);
	if (m.nbase == 0 || m.nnew == 0)
		return -1;
	km_text(figs, sizeof(figs), &m);
	if (cmp->nsets > 2)
		snprintf(who, sizeof(who), " (new %d)", k);
	if (!isnan(c->change_pct))
		snprintf(pct, sizeof(pct), " %+.1f%%", c->change_pct);
	if (m.single)
		snprintf(how, sizeof(how), "single runs");
	else
		snprintf(how, sizeof(how), "%d and %d runs, each moved at %.0f%%",
		    m.nbase, m.nnew, 100 * (1 - CMP_ALPHA));
	snprintf(buf, len, "%s%s%s %s: %s (%s)", rs_col_name(col), who, pct,
	    cmp_verdict_name(c->verdict), m.n > 0 ? figs :
	    "nothing moved by enough", how);
	return 0;
}

/* Under the table: each column with a verdict, and what moved. */
static void
print_moved(const struct compare *cmp, int markdown)
{
	char	line[1024];
	int	col, k, said = 0;

	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		for (k = 1; k < cmp->nsets; k++) {
			if (moved_line(cmp, col, k, line, sizeof(line)) == -1)
				continue;
			if (!said++)
				printf("%sWhat moved in the kernel's account "
				    "(per GiB moved, per thousand ops):\n%s",
				    markdown ? "\n" : "", markdown ? "\n" : "");
			if (markdown) {
				printf("- ");
				md_text(line);
				printf("\n");
			} else
				printf("%s\n", line);
		}
	}
	if (said && !markdown)
		printf("\n");
}

static int
print_text(struct compare *cmp)
{
	const struct cmp_cell	*c;
	char			 b[64], m[64], s[32];
	int			 col, k;

	for (k = 0; k < cmp->nsets; k++) {
		if (k == 0)
			fputs("base: ", stdout);
		else
			printf("new %d: ", k);
		text_put(stdout, cmp->sets[k].file);
		printf(" (%s, %d run%s", rs_format_name(cmp->sets[k].format),
		    cmp->sets[k].nruns, cmp->sets[k].nruns == 1 ? "" : "s");
		if (cmp->left_out[k] > 0)
			printf(" used, %d left out", cmp->left_out[k]);
		printf(")\n");
	}
	printf("\n");
	print_excluded(cmp);
	if (print_settings(stdout, cmp) > 0)
		printf("\n");
	printf("%-11s %-7s %13s %5s", "column", "unit", "base", "cv");
	for (k = 1; k < cmp->nsets; k++)
		printf(" %13s %5s %8s %-7s %-10s %s", cmp->nsets > 2 ?
		    (snprintf(b, sizeof(b), "new %d", k), b) : "new", "cv",
		    "change", "verdict", "method", "flags");
	printf("\n");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		c = cell(cmp, col, 0);
		value_text(b, sizeof(b), cmp, col, c->nbase, c->ubase, c->base,
		    c->cpu_base);
		cv_text(s, sizeof(s), c->cv_base);
		printf("%-11s %-7s %13s %5s", rs_col_name(col), col_unit(col), b,
		    s);
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			value_text(b, sizeof(b), cmp, col, c->nnew, c->unew,
			    c->new, c->cpu_new);
			cv_text(s, sizeof(s), c->cv_new);
			printf(" %13s %5s", b, s);
			if (isnan(c->change_pct))
				printf(" %8s", "-");
			else
				printf(" %+7.1f%%", c->change_pct);
			method_text(m, sizeof(m), cmp, c);
			flags_text(s, sizeof(s), c->flags_base, c->flags_new);
			if (s[0] != '\0' || k < cmp->nsets - 1)
				printf(" %-7s %-10s %s", cmp_verdict_name(
				    c->verdict), m, s);
			else
				printf(" %-7s %s", cmp_verdict_name(c->verdict),
				    m);
		}
		printf("\n");
	}
	printf("\n");
	print_moved(cmp, 0);
	printf("cv: the spread of a side's runs (standard deviation over "
	    "mean), with two or more.\nflags: b base, n new; I imprecise (a "
	    "phase under 0.5 s), W warm (not cold).\nMethods: thr the "
	    "threshold, MW the Mann-Whitney U test.\n");
	printf("Values are medians over a file's runs; latency (lat) is the "
	    "worst case, or a\ntext report's 99th percentile.  With %d or "
	    "more runs on both sides the verdict\ncomes from the runs' "
	    "distributions at %.0f%%; with fewer, a change within %g%% is\n"
	    "\"same\".\n", CMP_MIN_RUNS, 100 * (1 - CMP_ALPHA),
	    cmp->threshold);
	printf("CPU is compared as cost: CPU seconds per GiB (per thousand "
	    "seeks, syncs or\nfiles for the phases that count them), from "
	    "the rate and %%CPU, the raw %%CPU\nin brackets; a %%CPU that "
	    "fell only because the rate fell is no gain.\n");
	if (cmp->latency_skipped)
		printf("Latency is not compared: the sides record different "
		    "latencies (a text\nreport's Latency row is the 99th "
		    "percentile, JSON and CSV the worst case).\n");
	print_result(cmp);
	return 0;
}

/*
 * A side; for a new one (why is not NULL), whether its target differs
 * from the base's and why it is not comparable (why[0] NULL: it is).
 */
static void
json_settings(struct json *j, const char *key, const struct result_set *rs,
    int differs, char *const *why)
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
	if (rs->set.latency != NULL)
		json_string(j, "latency", rs->set.latency);
	else
		json_null(j, "latency");
	json_object_start(j, "settings");
	for (i = 0; i < nsettings(); i++) {
		if (!listed(i))
			continue;
		show(&rs->set, i, b, sizeof(b));
		if (strcmp(b, "-") == 0)
			json_null(j, setting_name(i));
		else
			json_string(j, setting_name(i), b);
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
	json_settings(&j, "base", &cmp->sets[0], -1, NULL);
	json_array_start(&j, "new");
	for (k = 1; k < cmp->nsets; k++) {
		char	*why = not_comparable(cmp, k);

		json_settings(&j, NULL, &cmp->sets[k], targets_differ(cmp, k,
		    NULL), &why);
		free(why);
	}
	json_array_end(&j);
	json_double(&j, "threshold_pct", cmp->threshold);
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
		    col_unit(col));
		json_bool(&j, "lower_is_better", rs_col_lower_better(col));
		/* What the values and the verdict are of. */
		json_string(&j, "compared", RS_KIND(col) == RS_KIND_CPU ?
		    "cpu_cost" : "value");
		json_bool(&j, "fail_on", cmp->fail_on[col]);
		c = cell(cmp, col, 0);
		json_value(&j, "base", c->nbase, c->ubase, c->base);
		if (c->cost)
			json_double_or_null(&j, "base_cpu_pct",
			    c->cpu_base);
		json_array_start(&j, "new");
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			json_object_start(&j, NULL);
			json_value(&j, "value", c->nnew, c->unew, c->new);
			if (c->cost)
				json_double_or_null(&j, "cpu_pct",
				    c->cpu_new);
			json_double(&j, "change_pct", c->change_pct);
			if (targets_differ(cmp, k, NULL))
				json_double(&j, "fs_ratio", fs_ratio(cmp, col,
				    k));
			json_string(&j, "verdict", cmp_verdict_name(c->verdict));
			json_string(&j, "method", cmp_method_name(c->method));
			json_double(&j, "p", c->p);
			json_double(&j, "ci_low", c->ci_lo);
			json_double(&j, "ci_high", c->ci_hi);
			json_int(&j, "base_runs", c->nbase);
			json_int(&j, "new_runs", c->nnew);
			if (c->verdict == CMP_WORSE || c->verdict == CMP_BETTER) {
				struct km_moved	m;

				km_column(&cmp->sets[0], &cmp->sets[k], col, &m);
				km_json(&j, "kernel_moved", &m);
			} else
				json_null(&j, "kernel_moved");
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

/* s as XML character data or an attribute value (text_xml()). */
static void
xml_text(const char *s)
{
	text_xml(stdout, s);
}

/* Does column col fail the check: selected, and worse or missing? */
static int
fails(const struct compare *cmp, int col, const struct cmp_cell *c)
{
	return cmp->fail_on[col] &&
	    (c->verdict == CMP_WORSE || c->verdict == CMP_MISSING);
}

/*
 * One line on a column's change, in a new string: "write: 100352 -> 80281
 * K/sec (-20.0%), worse by mann-whitney p=0.008".
 */
static char *
change_text(const struct compare *cmp, int col, const struct cmp_cell *c)
{
	char	b[64], n[64], m[64], pct[32];

	median_text(b, sizeof(b), col, c->nbase, c->ubase, c->base,
	    c->cpu_base);
	median_text(n, sizeof(n), col, c->nnew, c->unew, c->new,
	    c->cpu_new);
	if (c->verdict == CMP_MISSING)
		return xasprintf("%s: %s %s in the base, missing in the new "
		    "result", rs_col_name(col), b, col_unit(col));
	method_text(m, sizeof(m), cmp, c);
	if (isnan(c->change_pct))
		snprintf(pct, sizeof(pct), "no change figure");
	else
		snprintf(pct, sizeof(pct), "%+.1f%%", c->change_pct);
	return xasprintf("%s: %s -> %s %s (%s), %s by %s", rs_col_name(col),
	    b, n, col_unit(col), pct, cmp_verdict_name(c->verdict), m);
}

/*
 * JUnit XML: a suite per new result set, a test case per compared column;
 * a selected (--fail-on) column that got worse fails, a column without a
 * value on a side is skipped, every case says its change in system-out.
 */
static int
print_junit(struct compare *cmp)
{
	const struct cmp_cell	*c;
	char			*msg, *why, line[1024];
	int			 col, k, tests, failures, skipped;
	int			 all_tests = 0, all_failures = 0, all_skipped = 0;

	for (k = 1; k < cmp->nsets; k++)
		for (col = 0; col < RS_NCOLS; col++) {
			if (!cmp->shown[col])
				continue;
			c = cell(cmp, col, k - 1);
			all_tests++;
			if (c->verdict == CMP_NA)
				all_skipped++;
			else if (fails(cmp, col, c))
				all_failures++;
		}
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	/* Jenkins xUnit's junit-10.xsd has no skipped on <testsuites>. */
	(void)all_skipped;
	printf("<testsuites name=\"bonnie-ng compare\" tests=\"%d\" "
	    "failures=\"%d\" errors=\"0\" time=\"0\">\n", all_tests,
	    all_failures);
	for (k = 1; k < cmp->nsets; k++) {
		tests = failures = skipped = 0;
		for (col = 0; col < RS_NCOLS; col++) {
			if (!cmp->shown[col])
				continue;
			c = cell(cmp, col, k - 1);
			tests++;
			if (c->verdict == CMP_NA)
				skipped++;
			else if (fails(cmp, col, c))
				failures++;
		}
		printf("  <testsuite name=\"");
		xml_text(cmp->sets[k].file);
		printf(" vs ");
		xml_text(cmp->sets[0].file);
		printf("\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
		    "skipped=\"%d\" time=\"0\">\n", tests, failures, skipped);
		printf("    <properties>\n");
		printf("      <property name=\"base\" value=\"");
		xml_text(cmp->sets[0].file);
		printf("\"/>\n      <property name=\"new\" value=\"");
		xml_text(cmp->sets[k].file);
		printf("\"/>\n      <property name=\"threshold_pct\" "
		    "value=\"%g\"/>\n", cmp->threshold);
		if ((why = not_comparable(cmp, k)) != NULL) {
			printf("      <property name=\"not_comparable\" "
			    "value=\"");
			xml_text(why);
			printf("\"/>\n");
		}
		printf("    </properties>\n");
		for (col = 0; col < RS_NCOLS; col++) {
			if (!cmp->shown[col])
				continue;
			c = cell(cmp, col, k - 1);
			msg = change_text(cmp, col, c);
			if (moved_line(cmp, col, k, line, sizeof(line)) == 0) {
				char	*with = xasprintf("%s; the kernel's "
				    "account: %s", msg, line);

				free(msg);
				msg = with;
			}
			printf("    <testcase classname=\"bonnie-ng.compare\" "
			    "name=\"%s\" time=\"0\">\n", rs_col_name(col));
			if (c->verdict == CMP_NA) {
				printf("      <skipped message=\"");
				xml_text(msg);
				printf("\"/>\n");
			} else if (fails(cmp, col, c)) {
				printf("      <failure type=\"%s\" message=\"",
				    cmp_verdict_name(c->verdict));
				xml_text(msg);
				printf("\">");
				xml_text(msg);
				printf("</failure>\n");
			}
			printf("      <system-out>");
			xml_text(msg);
			if ((c->verdict == CMP_WORSE ||
			    c->verdict == CMP_MISSING) && !cmp->fail_on[col])
				printf(" (not selected by --fail-on)");
			if (why != NULL && c->verdict != CMP_NA) {
				printf(" (not comparable: ");
				xml_text(why);
				printf(")");
			}
			printf("</system-out>\n    </testcase>\n");
			free(msg);
		}
		if (cmp->nexcluded > 0) {
			printf("    <system-out>");
			for (col = 0; col < cmp->nexcluded; col++) {
				printf("left out of the statistics: ");
				xml_text(cmp->excluded[col]);
				printf("&#10;");
			}
			printf("</system-out>\n");
		}
		free(why);
		printf("  </testsuite>\n");
	}
	printf("</testsuites>\n");
	return 0;
}

/*
 * JUnit XML for a comparison that could not be made (exit 2): one suite,
 * one test case in error with the reason, so that a CI reporter shows the
 * failure instead of an empty or missing report.
 */
static void
print_junit_error(const char *why)
{
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	printf("<testsuites name=\"bonnie-ng compare\" tests=\"1\" "
	    "failures=\"0\" errors=\"1\" time=\"0\">\n");
	printf("  <testsuite name=\"bonnie-ng compare\" tests=\"1\" "
	    "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n");
	printf("    <testcase classname=\"bonnie-ng.compare\" "
	    "name=\"inputs\" time=\"0\">\n");
	printf("      <error type=\"unusable input\" message=\"");
	xml_text(why);
	printf("\">");
	xml_text(why);
	printf("</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n");
	fflush(stdout);
}

/* s in a Markdown table cell: "|" escaped, no line breaks. */
static void
md_text(const char *s)
{
	size_t	 len = strlen(s) * 6 + 1;
	char	*e = xmalloc(len), *p;

	/* Control characters first shown as \x1b, then Markdown's own. */
	text_escape(e, len, s);
	for (p = e; *p != '\0'; p++) {
		if (*p == '|' || *p == '\\' || *p == '`' || *p == '*' ||
		    *p == '_' || *p == '<')
			putchar('\\');
		putchar(*p);
	}
	free(e);
}

/*
 * A Markdown table for a pull-request comment: the verdict first, the
 * table, the settings that differ, and how to read it.
 */
static int
print_markdown(struct compare *cmp)
{
	const struct cmp_cell	*c;
	char			 b[64], m[64], s[32], *diff = NULL;
	size_t			 len = 0;
	FILE			*f;
	char			*r;
	int			 col, k;

	r = result_text(cmp);
	printf("### bonnie-ng compare: ");
	md_text(r);
	printf("\n\n");
	free(r);
	for (k = 0; k < cmp->nsets; k++) {
		if (k == 0)
			printf("- base: ");
		else if (cmp->nsets > 2)
			printf("- new %d: ", k);
		else
			printf("- new: ");
		md_text(cmp->sets[k].file);
		printf(" (%s, %d run%s", rs_format_name(cmp->sets[k].format),
		    cmp->sets[k].nruns, cmp->sets[k].nruns == 1 ? "" : "s");
		if (cmp->left_out[k] > 0)
			printf(" used, %d left out", cmp->left_out[k]);
		printf(")\n");
	}
	for (k = 0; k < cmp->nexcluded; k++) {
		printf("- left out of the statistics: ");
		md_text(cmp->excluded[k]);
		printf("\n");
	}
	/* The text table's columns: its cv and flags too. */
	printf("\n| column | unit | base | cv |");
	for (k = 1; k < cmp->nsets; k++) {
		if (cmp->nsets > 2)
			printf(" new %d | cv | change | verdict | method | "
			    "flags |", k);
		else
			printf(" new | cv | change | verdict | method | "
			    "flags |");
	}
	printf("\n| :-- | :-- | --: | --: |");
	for (k = 1; k < cmp->nsets; k++)
		printf(" --: | --: | --: | :-- | :-- | :-- |");
	printf("\n");
	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->shown[col])
			continue;
		c = cell(cmp, col, 0);
		median_text(b, sizeof(b), col, c->nbase, c->ubase, c->base,
		    c->cpu_base);
		cv_text(s, sizeof(s), c->cv_base);
		printf("| ");
		md_text(rs_col_name(col));
		printf(" | ");
		md_text(col_unit(col));
		printf(" | %s | %s |", b, s);
		for (k = 1; k < cmp->nsets; k++) {
			c = cell(cmp, col, k - 1);
			median_text(b, sizeof(b), col, c->nnew, c->unew, c->new,
			    c->cpu_new);
			cv_text(s, sizeof(s), c->cv_new);
			printf(" %s | %s |", b, s);
			if (isnan(c->change_pct))
				printf(" - |");
			else
				printf(" %+.1f%% |", c->change_pct);
			method_text(m, sizeof(m), cmp, c);
			if (fails(cmp, col, c))
				printf(" **%s** |", cmp_verdict_name(c->verdict));
			else
				printf(" %s |", cmp_verdict_name(c->verdict));
			flags_text(s, sizeof(s), c->flags_base, c->flags_new);
			printf(" %s | %s |", m, s);
		}
		printf("\n");
	}
	print_moved(cmp, 1);
	/* The settings that differ, as the text table has them. */
	if ((f = open_memstream(&diff, &len)) == NULL)
		return -1;
	if (print_settings(f, cmp) > 0) {
		if (fclose(f) != 0) {
			free(diff);
			return -1;
		}
		printf("\n```\n%s```\n", diff);
	} else if (fclose(f) != 0) {
		free(diff);
		return -1;
	}
	free(diff);
	printf("\ncv: the spread of a side's runs (standard deviation over "
	    "mean), with two or\nmore.  flags: b base, n new; I imprecise (a "
	    "phase under 0.5 s), W warm (not\ncold).\n");
	printf("\nValues are medians over a file's runs; bold marks a column "
	    "selected by\n`--fail-on` that got worse or is missing.  With %d "
	    "or more runs on both\nsides the verdict comes from the runs' "
	    "distributions at %.0f%%; with fewer, a\nchange within %g%% is "
	    "\"same\".\n", CMP_MIN_RUNS, 100 * (1 - CMP_ALPHA),
	    cmp->threshold);
	printf("CPU is compared as cost: CPU seconds per GiB (per thousand "
	    "seeks, syncs or\nfiles for the phases that count them), from "
	    "the rate and %%CPU, the raw %%CPU\nin brackets.\n");
	if (cmp->latency_skipped)
		printf("Latency is not compared: the sides record different "
		    "latencies.\n");
	return 0;
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

/*
 * Sweep records: the settings that differ, then every point and phase
 * (cmp_sweep_print()), as text; exit 1 when a phase --fail-on selects got
 * worse or is missing at a point.
 */
static int
compare_sweeps(struct compare *cmp, char **cause)
{
	int	worse;

	if (strcmp(outputs[cmp->output].name, "text") != 0) {
		errorf(cause, "compare: -o %s: sweep records are compared as "
		    "text", outputs[cmp->output].name);
		return CMD_USAGE;
	}
	if (print_settings(stdout, cmp) > 0)
		putchar('\n');
	if ((worse = cmp_sweep_print(stdout, cmp->sets, cmp->nsets,
	    cmp->threshold, cmp->fail_on)) == -1 || fflush(stdout) != 0) {
		errorf(cause, "compare: standard output: %s", strerror(errno));
		return CMD_FAIL;
	}
	return worse > 0 ? CMD_FAIL : CMD_OK;
}

static int
compare_exec(void *state, int n, char **files, char **cause)
{
	struct compare	*cmp = state;
	int		 i, status = CMD_USAGE;

	cmp->left_out = xcalloc((size_t)n, sizeof(*cmp->left_out));
	if (threshold_check(cmp, cause) != 0)
		goto out;
	if (rs_read_files(n, files, &cmp->sets, cause) != 0)
		goto out;
	cmp->nsets = n;
	switch (cmp_sweep_check(cmp->sets, n, cause)) {
	case -1:
		goto out;
	case 1:
		if (gate_check(cmp, cause) == 0)
			status = compare_sweeps(cmp, cause);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (drop_failed(cmp, i, cause) != 0)
			goto out;
	if (gate_check(cmp, cause) != 0)
		goto out;
	compare_all(cmp);
	if (outputs[cmp->output].print(cmp) != 0 || fflush(stdout) != 0 ||
	    ferror(stdout)) {
		errorf(cause, "compare: standard output: %s", strerror(errno));
		goto out;
	}
	status = cmp->exit;
out:
	if (status == CMD_USAGE && outputs[cmp->output].print == print_junit)
		print_junit_error(*cause != NULL ? *cause : "unusable input");
	rs_free_sets(cmp->sets, cmp->nsets);
	free(cmp->cells);
	for (i = 0; i < cmp->nexcluded; i++)
		free(cmp->excluded[i]);
	free(cmp->excluded);
	free(cmp->left_out);
	return status;
}

static const struct cmd_rows compare_tables[] = {
	{ compare_rows, 0, 0, SCOPE_NONE },
	{ NULL, 0, 0, SCOPE_NONE }
};

const struct cmd_entry cmd_compare_entry = {
	{ "compare", "base new [new ...]", 2, -1, NULL, NULL },
	compare_tables,
	sizeof(struct compare),
	compare_init,
	compare_exec,
	0,
	NULL
};
