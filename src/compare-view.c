/*
 * The comparison as the printers read it (compare-view.h): the words
 * more than one output says, each from the view that cmd-compare.c (and
 * compare-sweep.c for sweeps) computed: a setting's value as shown, why a
 * side is not comparable, a median, a method, a change, the result, and
 * what moved in the kernel's account.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "compare.h"
#include "compare-kernel.h"
#include "compare-view.h"
#include "error.h"
#include "phase.h"
#include "report.h"
#include "resultset.h"
#include "settings.h"
#include "text.h"
#include "units.h"

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
void
cmp_view_target(const struct rs_settings *s, char *b, size_t n)
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
int
cmp_view_nsettings(void)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];

	return SET_COUNT + settings_phase_rows(rows, SETTINGS_PHASE_MAX);
}

int
cmp_view_listed(int id)
{
	return id >= SET_COUNT || settings_table[id].rule == RULE_MATCH ||
	    settings_table[id].rule == RULE_INFO;
}

static int
must_match(int id)
{
	return id >= SET_COUNT || settings_table[id].rule == RULE_MATCH;
}

const char *
cmp_view_setting_name(int id)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];

	if (id < SET_COUNT)
		return settings_name(id);
	settings_phase_rows(rows, SETTINGS_PHASE_MAX);
	return rows[id - SET_COUNT]->name;
}

/* A side's value of setting id, as the table says to show it; "-": none. */
void
cmp_view_show(const struct rs_settings *s, int id, char *b, size_t n)
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
		cmp_view_target(s, b, n);
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

struct cmp_cell *
cmp_view_cell(const struct cmp_view *cmp, int col, int k)
{
	return &cmp->cells[col * (cmp->nsets - 1) + k];
}

/*
 * A median as the tables print it; a %CPU column's is its cost, with the
 * raw %CPU beside it: "8.89 (38.8%)".
 */
void
cmp_view_median(char *buf, size_t len, int col, int n, int unmeasured,
    double v, double cpu)
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

void
cmp_view_method(char *buf, size_t len, const struct cmp_view *cmp,
    const struct cmp_cell *c)
{
	switch (c->method) {
	case CMP_M_THRESHOLD:
		snprintf(buf, len, "thr %g%%", cmp->threshold);
		break;
	case CMP_M_MANN_WHITNEY:
	case CMP_M_BOOTSTRAP:
		/* The change's interval, that the verdict comes from. */
		if (isnan(c->lo_pct))
			snprintf(buf, len, "%s", c->method ==
			    CMP_M_MANN_WHITNEY ? "MW" : "boot");
		else
			snprintf(buf, len, "%s %+.1f..%+.1f%%", c->method ==
			    CMP_M_MANN_WHITNEY ? "MW" : "boot", c->lo_pct,
			    c->hi_pct);
		break;
	case CMP_M_UNMEASURABLE:
		snprintf(buf, len, "+++++");
		break;
	default:
		snprintf(buf, len, "%s", cmp_method_name(c->method));
		break;
	}
}

const char *
cmp_view_unit(int col)
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
lat_unit(const struct cmp_view *cmp, int col, const char **unit)
{
	const struct cmp_cell	*c;
	double			 max = 0;
	int			 k;

	for (k = 1; k < cmp->nsets; k++) {
		c = cmp_view_cell(cmp, col, k - 1);
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

void
cmp_view_value(char *buf, size_t len, const struct cmp_view *cmp, int col,
    int n, int unmeasured, double v, double cpu)
{
	const char	*unit;
	double		 d;

	if (RS_KIND(col) != RS_KIND_LAT || n == 0) {
		cmp_view_median(buf, len, col, n, unmeasured, v, cpu);
		return;
	}
	d = lat_unit(cmp, col, &unit);
	snprintf(buf, len, v / d < 10 ? "%.1f%s" : "%.0f%s", v / d, unit);
}

/* A side's spread as the coefficient of variation, or blank. */
void
cmp_view_cv(char *buf, size_t len, double cv)
{
	if (isnan(cv))
		snprintf(buf, len, "%s", "");
	else if (cv >= 0.995)
		snprintf(buf, len, ">99%%");
	else
		snprintf(buf, len, "%.*f%%", cv < 0.1 ? 1 : 0, 100 * cv);
}

/* "b:IW n:W": which side has imprecise (I) or warm (W) runs. */
void
cmp_view_flags(char *buf, size_t len, unsigned fb, unsigned fn)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s", fb ? "b:" : "",
	    fb & RS_F_IMPRECISE ? "I" : "", fb & RS_F_WARM ? "W" : "",
	    fb && fn ? " " : "", fn ? "n:" : "",
	    fn & RS_F_IMPRECISE ? "I" : "", fn & RS_F_WARM ? "W" : "");
}

/* A result of bonnie++ itself (not bonnie-ng's CSV)? */
int
cmp_view_is_bonnie_pp(const struct result_set *rs)
{
	const char	*v = rs->set.version;

	return v != NULL && strncmp(v, "bonnie++", 8) == 0 &&
	    strstr(v, "(bonnie-ng") == NULL;
}

int
cmp_view_is_emulated(const struct result_set *rs)
{
	const char	*v = rs->set.value[SET_GUEST_ACCEL];

	return v != NULL && strcmp(v, "tcg") == 0;
}

/*
 * Do base and new set k measure different targets, a file system and a
 * block device?  Then the file system's side is *fs (0 the base, 1 new).
 */
int
cmp_view_targets_differ(const struct cmp_view *cmp, int k, int *fs)
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
double
cmp_view_fs_ratio(const struct cmp_view *cmp, int col, int k)
{
	const struct cmp_cell	*c = cmp_view_cell(cmp, col, k - 1);
	double			 fsv, devv;
	int			 fs;

	if (!cmp_view_targets_differ(cmp, k, &fs) ||
	    RS_KIND(col) == RS_KIND_LAT || c->nbase == 0 || c->nnew == 0)
		return NAN;
	fsv = fs == 0 ? c->base : c->new;
	devv = fs == 0 ? c->new : c->base;
	if (!(devv > 0))
		return NAN;
	return fsv / devv;
}

/* What an unknown setting is shown as. */
void
cmp_view_unknown(const struct result_set *rs, int id, char *b, size_t n)
{
	if (id == SET_CHUNK && cmp_view_is_bonnie_pp(rs))
		snprintf(b, n, "unknown (bonnie++'s default is %llu)",
		    (unsigned long long)settings_table[SET_CHUNK].pp_def);
	else if (id == SET_FS_TYPE && rs_on_device(rs))
		snprintf(b, n, "%s", rs_fs_shown(rs));
	else
		snprintf(b, n, "unknown");
}

/* A setting's value as a terminal may show it: controls escaped. */
void
cmp_view_escape(char *buf, size_t len)
{
	char	*raw = xstrdup(buf);

	text_escape(buf, len, raw);
	free(raw);
}

/*
 * Why new side k is not comparable with the base: the settings that must
 * match (RULE_MATCH) and do not, "chunk 16384 vs 8192, ...", in a new
 * string; NULL when they all match (or a side does not know one).
 */
char *
cmp_view_not_comparable(const struct cmp_view *cmp, int k)
{
	return cmp_view_mismatch(&cmp->sets[0], &cmp->sets[k]);
}

char *
cmp_view_mismatch(const struct result_set *x, const struct result_set *y)
{
	char	 a[128], b[128], *t, *bad = NULL;
	int	 i;

	for (i = 0; i < cmp_view_nsettings(); i++) {
		if (!must_match(i))
			continue;
		cmp_view_show(&x->set, i, a, sizeof(a));
		cmp_view_show(&y->set, i, b, sizeof(b));
		cmp_view_escape(a, sizeof(a));
		cmp_view_escape(b, sizeof(b));
		if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0 ||
		    strcmp(a, b) == 0)
			continue;
		t = xasprintf("%s%s%s %s vs %s", bad ? bad : "",
		    bad ? ", " : "", cmp_view_setting_name(i), a, b);
		free(bad);
		bad = t;
	}
	return bad;
}

/* Does column col fail the check: selected, and worse or missing? */
int
cmp_view_fails(const struct cmp_view *cmp, int col, const struct cmp_cell *c)
{
	return cmp->fail_on[col] &&
	    (c->verdict == CMP_WORSE || c->verdict == CMP_MISSING ||
	    (cmp->strict && c->verdict == CMP_INCONCLUSIVE));
}

/*
 * One line on a change, in a new string: "write: 100352 -> 80281 K/sec
 * (-20.0%), worse by MW p=0.008".
 */
char *
cmp_view_change(const struct cmp_view *cmp, const char *what, int col,
    const struct cmp_cell *c)
{
	char	b[64], n[64], m[64], pct[32];

	cmp_view_median(b, sizeof(b), col, c->nbase, c->ubase, c->base,
	    c->cpu_base);
	cmp_view_median(n, sizeof(n), col, c->nnew, c->unew, c->new,
	    c->cpu_new);
	if (c->verdict == CMP_MISSING)
		return xasprintf("%s: %s %s in the base, missing in the new "
		    "result", what, b, cmp_view_unit(col));
	cmp_view_method(m, sizeof(m), cmp, c);
	if (isnan(c->change_pct))
		snprintf(pct, sizeof(pct), "no change figure");
	else
		snprintf(pct, sizeof(pct), "%+.1f%%", c->change_pct);
	return xasprintf("%s: %s -> %s %s (%s), %s by %s", what, b, n,
	    cmp_view_unit(col), pct, cmp_verdict_name(c->verdict), m);
}

void
cmp_view_point_words(const struct cmp_point *p, struct cmp_point_words *w)
{
	rs_format_value(w->base, sizeof(w->base), p->col, p->c.nbase > 0 ?
	    RS_VALUE : RS_NONE, p->c.base);
	rs_format_value(w->new, sizeof(w->new), p->col, p->c.nnew > 0 ?
	    RS_VALUE : RS_NONE, p->c.new);
	if (isnan(p->c.change_pct))
		snprintf(w->change, sizeof(w->change), "-");
	else
		snprintf(w->change, sizeof(w->change), "%+.1f%%",
		    p->c.change_pct);
}

/*
 * The selected columns with verdict v on any new side, comma-separated,
 * in a new string, or NULL when there are none.
 */
static char *
columns_with(const struct cmp_view *cmp, enum cmp_verdict v)
{
	char	*list = NULL, *t;
	int	 col, k, hit;

	for (col = 0; col < RS_NCOLS; col++) {
		if (!cmp->fail_on[col] || !cmp->shown[col])
			continue;
		for (k = 1, hit = 0; k < cmp->nsets; k++)
			if (cmp_view_cell(cmp, col, k - 1)->verdict == v)
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

int
cmp_view_untold(const struct cmp_view *cmp)
{
	char	*list;
	int	 i, n = 0;

	if (cmp->sweep) {
		for (i = 0; i < cmp->npoints_all; i++)
			n += cmp->points[i].shown &&
			    cmp->fail_on[cmp->points[i].col] &&
			    cmp->points[i].c.verdict == CMP_INCONCLUSIVE;
		return n;
	}
	if ((list = columns_with(cmp, CMP_INCONCLUSIVE)) == NULL)
		return 0;
	for (n = 1, i = 0; list[i] != '\0'; i++)
		n += list[i] == ',';
	free(list);
	return n;
}

/*
 * The points of a sweep where a selected phase got worse or is missing,
 * "worse read at 1M 64k, missing read at 2M 64k", in a new string, or
 * NULL when there are none.
 */
static char *
points_failed(const struct cmp_view *cmp)
{
	const struct cmp_point	*p;
	char			*list = NULL, *t;
	int			 i;

	for (i = 0; i < cmp->npoints_all; i++) {
		p = &cmp->points[i];
		if (!p->shown || !cmp_view_fails(cmp, p->col, &p->c))
			continue;
		t = xasprintf("%s%s%s %s at %s", list != NULL ? list : "",
		    list != NULL ? ", " : "", cmp_verdict_name(p->c.verdict),
		    phase_table[p->phase]->name, p->place);
		free(list);
		list = t;
	}
	return list;
}

/*
 * The result: ok, or which selected columns got worse or are missing, as
 * "ok (...)" or "worse (worse: write; missing: seeks)"; of sweeps, which
 * points.  In a new string.
 */
char *
cmp_view_result(const struct cmp_view *cmp)
{
	char	*worse, *missing, *untold, *r, *t;

	if (cmp->sweep) {
		if ((worse = points_failed(cmp)) == NULL)
			return xasprintf("ok (no selected phase got worse at "
			    "any point, none is missing)");
		r = xasprintf("worse (%s)", worse);
		free(worse);
		return r;
	}
	worse = columns_with(cmp, CMP_WORSE);
	missing = columns_with(cmp, CMP_MISSING);
	untold = columns_with(cmp, CMP_INCONCLUSIVE);
	if (untold != NULL) {
		t = xasprintf("; could not tell: %s", untold);
		free(untold);
		untold = t;
	}
	if (worse == NULL && missing == NULL && untold != NULL && cmp->strict)
		r = xasprintf("inconclusive (no selected column got worse, "
		    "none is missing%s)", untold);
	else if (worse == NULL && missing == NULL)
		r = xasprintf("ok (no selected column got worse, none is "
		    "missing%s)", untold ? untold : "");
	else
		r = xasprintf("%s (%s%s%s%s%s%s)", worse ? "worse" : "missing",
		    worse ? "worse: " : "", worse ? worse : "",
		    worse && missing ? "; " : "", missing ? "missing: " : "",
		    missing ? missing : "", untold ? untold : "");
	free(worse);
	free(missing);
	free(untold);
	return r;
}

/* What moved in the kernel's account (compare-kernel.c), as a line. */
int
cmp_view_moved(const struct cmp_view *cmp, int col, int k, char *buf,
    size_t len)
{
	const struct cmp_cell	*c = cmp_view_cell(cmp, col, k - 1);
	struct km_moved		 m;
	char			 what[64];

	km_column(&cmp->sets[0], &cmp->sets[k], col, c->verdict, &m);
	snprintf(what, sizeof(what), "%s", rs_col_name(col));
	if (cmp->nsets > 2)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
		    " (new %d)", k);
	return km_line(buf, len, what, cmp_verdict_name(c->verdict),
	    c->change_pct, &m);
}

int
cmp_view_moved_next(const struct cmp_view *cmp, int *at, char *buf,
    size_t len)
{
	int	col, k;

	for (; *at < RS_NCOLS * cmp->nsets; (*at)++) {
		col = *at / cmp->nsets;
		k = *at % cmp->nsets;
		if (k > 0 && cmp->shown[col] &&
		    cmp_view_moved(cmp, col, k, buf, len) == 0) {
			(*at)++;
			return 1;
		}
	}
	return 0;
}

void
cmp_view_rule(FILE *f, const struct cmp_view *cmp)
{
	fprintf(f, "With %d or more runs on both sides the verdict comes from "
	    "the change's %.0f%%\ninterval: within %g%%, same; wholly above or "
	    "below no change, better or worse;\nelse inconclusive.  With "
	    "fewer, a change beyond %g%% is better or worse, else\n"
	    "inconclusive.\n", CMP_MIN_RUNS, 100 * (1 - CMP_ALPHA),
	    cmp->threshold, cmp->threshold);
}

int
cmp_view_parse_columns(const char *arg, int *sel, int *named, char **cause)
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
