/*
 * The kernel's account of a phase read back from a record, as figures
 * compare can set side by side: the target device's iostat -x levels as
 * recorded, its rates and every counter (vmstat, memory.stat, the
 * process's) as counts per GiB moved or per thousand operations, and the
 * pressure as recorded.  Gauges (vmstat's nr_* but nr_dirtied and
 * nr_written) are left out: their delta is a level's change, not work.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsonparse.h"
#include "phase.h"
#include "resultset.h"

const char *const rs_scope_name[RS_NSCOPE] = {
	[RS_SCOPE_RUN] = "run", [RS_SCOPE_DEVICE] = "device",
	[RS_SCOPE_MACHINE] = "machine"
};

/*
 * iostat -x's figures that are levels, with their units, and the rate a
 * per-request mean is over: with no such request iostat prints 0 for the
 * mean, which is not a size or a wait: it is left out (not known).
 */
static const struct {
	const char	*name;
	const char	*unit;
	const char	*over;
} levels[] = {
	{ .name = "rareq-sz", .unit = " KiB", .over = "r/s" },
	{ .name = "wareq-sz", .unit = " KiB", .over = "w/s" },
	{ .name = "r_await", .unit = " ms", .over = "r/s" },
	{ .name = "w_await", .unit = " ms", .over = "w/s" },
	{ .name = "f_await", .unit = " ms", .over = "f/s" },
	{ .name = "aqu-sz", .unit = "" },
	{ .name = "util", .unit = "%" },
	{ .name = "rrqm", .unit = "%", .over = "r/s" },
	{ .name = "wrqm", .unit = "%", .over = "w/s" }
};

/*
 * iostat -x's rates, made counts ("r/s" becomes "r" per unit of work),
 * with the unit of the count.
 */
static const struct {
	const char	*name;
	const char	*unit;
} rates[] = {
	{ .name = "r/s", .unit = "" }, { .name = "rkB/s", .unit = " KiB" },
	{ .name = "w/s", .unit = "" }, { .name = "wkB/s", .unit = " KiB" },
	{ .name = "f/s", .unit = "" }, { .name = "d/s", .unit = "" },
	{ .name = "dkB/s", .unit = " KiB" }
};

/*
 * The unit of a counter's count where it is not a number of events or
 * pages: vmstat's pgpgin and pgpgout count KiB, /proc/self/io bytes;
 * cgroup v1's memory.stat pgpgin and pgpgout count charges (one a
 * folio, however many pages it holds: Documentation/admin-guide/
 * cgroup-v1/memory.rst), not pages.
 */
static const char *
unit_of(const char *prefix, const char *name)
{
	size_t	n = strlen(name);

	if (n > 6 && strcmp(name + n - 6, "_bytes") == 0)
		return " B";
	if (strcmp(name, "pgpgin") == 0 || strcmp(name, "pgpgout") == 0)
		return prefix[0] == '\0' ? " KiB" : " charges";
	return "";
}

/*
 * The size of a small change: 1 KiB or ms of a request, 10 points of a
 * percentage, one queued request; per GiB, a thousandth of it (1 MiB of
 * bytes, 1 MiB in KiB, 256 pages or events); per thousand ops, ten.
 */
static double
scale_of(const char *name, const char *per, const char *unit, int level)
{
	size_t	n = strlen(name);

	if (level)
		return strcmp(unit, "%") == 0 ? 10 : 1;
	if (per != NULL && strcmp(per, "kop") == 0)
		return 10;
	if ((n > 6 && strcmp(name + n - 6, "_bytes") == 0) ||
	    strcmp(unit, " B") == 0)
		return 1 << 20;
	if (strstr(name, "kB") != NULL || strncmp(name, "pgpg", 4) == 0)
		return 1024;
	return 256;
}

/*
 * What a figure is: a level (a gauge, a percentage), or a count per unit
 * of work that the record leaves out when it did not move (absent is 0)
 * or one it always has (absent is not known): resultset.h's sparse.
 */
enum kind {
	LEVEL,
	COUNT_SPARSE,
	COUNT_KNOWN
};

/* A figure added to k. */
static void
add(struct rs_kphase *k, const char *name, const char *per, double v,
    const char *unit, enum kind kind, int scope)
{
	int		 level = kind == LEVEL;
	struct rs_kfig	*f;

	k->f = xrealloc(k->f, (size_t)(k->n + 1) * sizeof(*k->f));
	f = &k->f[k->n++];
	f->name = per != NULL ? xasprintf("%s/%s", name, per) : xstrdup(name);
	f->v = v;
	f->unit = unit;
	f->level = level;
	f->scale = scale_of(name, per, unit, level);
	f->scope = scope;
	f->sparse = kind == COUNT_SPARSE;
}

/* A counter whose delta is work done, not a level's change. */
static int
is_event(const char *name)
{
	if (strncmp(name, "nr_", 3) != 0)
		return 1;
	return strcmp(name, "nr_dirtied") == 0 ||
	    strcmp(name, "nr_written") == 0;
}

/* The process's counters, not how many processes were summed. */
static int
is_proc(const char *name)
{
	return strcmp(name, "processes") != 0;
}

/* memory.stat's counters of events (v1 and v2). */
static int
is_cg_event(const char *name)
{
	static const char *const pre[] = {
		"pg", "workingset_", "failcnt", "thp_", "zswp"
	};
	size_t	i;

	/*
	 * v1's total_ counters are the cgroup's and its children's: the
	 * run is in the cgroup itself, and the cgroup's own are kept.
	 */
	if (strncmp(name, "total_", 6) == 0)
		return 0;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (strncmp(name, pre[i], strlen(pre[i])) == 0)
			return 1;
	return 0;
}

static void
counts(struct rs_kphase *k, const struct jv *o, const char *prefix,
    int (*event)(const char *), const char *per, double work, int scope,
    enum kind kind)
{
	char	name[160];
	size_t	i;

	if (o == NULL || o->type != JV_OBJECT)
		return;
	for (i = 0; i < o->len; i++) {
		if (o->items[i].type != JV_NUMBER || !event(o->keys[i]))
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, o->keys[i]);
		add(k, name, per, o->items[i].n / work,
		    unit_of(prefix, o->keys[i]), kind, scope);
	}
}

static void
disk(struct rs_kphase *k, const struct jv *d, const char *per, double work,
    double span)
{
	double	v;
	size_t	i;

	if (d == NULL || d->type != JV_ARRAY || d->len == 0)
		return;
	d = &d->items[0];		/* The target's device. */
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		double	n;

		if (levels[i].over != NULL && (jv_num(d, levels[i].over,
		    &n) != 0 || n <= 0))
			continue;
		if (jv_num(d, levels[i].name, &v) == 0)
			add(k, levels[i].name, NULL, v, levels[i].unit, LEVEL,
			    RS_SCOPE_DEVICE);
	}
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		char	name[16];

		if (jv_num(d, rates[i].name, &v) != 0)
			continue;
		snprintf(name, sizeof(name), "%.*s",
		    (int)(strlen(rates[i].name) - 2), rates[i].name);
		add(k, name, per, v * span / work, rates[i].unit,
		    COUNT_KNOWN, RS_SCOPE_DEVICE);
	}
}

/*
 * A pressure object's figures: the machine's (/proc/pressure: "io some")
 * or the run's own cgroup's (its io.pressure: "io.pressure some").
 */
static void
pressure(struct rs_kphase *k, const struct jv *p, const char *suffix,
    int scope)
{
	static const char *const res[] = { "io", "memory", "cpu" };
	const struct jv	*r;
	char		 name[40];
	double		 v;
	size_t		 i;

	if (p == NULL || p->type != JV_OBJECT)
		return;
	for (i = 0; i < 3; i++) {
		if ((r = jv_get(p, res[i])) == NULL)
			continue;
		snprintf(name, sizeof(name), "%s%s some", res[i], suffix);
		if (jv_num(r, "some_pct", &v) == 0)
			add(k, name, NULL, v, "%", LEVEL, scope);
		snprintf(name, sizeof(name), "%s%s full", res[i], suffix);
		if (jv_num(r, "full_pct", &v) == 0)
			add(k, name, NULL, v, "%", LEVEL, scope);
	}
}

/* The run's cgroup's io.stat of the target device, per unit of work. */
static void
io_stat(struct rs_kphase *k, const struct jv *a, const char *per,
    double work)
{
	static const char *const f[] = {
		"rbytes", "wbytes", "rios", "wios", "dbytes", "dios"
	};
	char	name[32];
	double	v;
	size_t	i;

	if (a == NULL || a->type != JV_ARRAY || a->len == 0)
		return;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (jv_num(&a->items[0], f[i], &v) != 0)
			continue;
		snprintf(name, sizeof(name), "io.stat:%s", f[i]);
		add(k, name, per, v / work, f[i][1] == 'b' ? " B" : "",
		    COUNT_SPARSE, RS_SCOPE_RUN);
	}
}

/*
 * The record's cgroup: the run's own (bonnie-ng made it) or, in an older
 * record or where it could make none, the one the run was started in,
 * shared with whatever else ran there.
 */
static void
cgroup(struct rs_kphase *k, const struct jv *cg, const char *per,
    double work)
{
	const struct jv	*own = jv_get(cg, "own"), *lim;
	int		 scope = own != NULL && own->type == JV_BOOL && own->b ?
			    RS_SCOPE_RUN : RS_SCOPE_MACHINE;
	double		 v;

	counts(k, jv_get(cg, "memory.stat"), "memory.stat:", is_cg_event,
	    per, work, scope, COUNT_SPARSE);
	pressure(k, jv_get(cg, "pressure"), ".pressure", RS_SCOPE_RUN);
	io_stat(k, jv_get(cg, "io.stat"), per, work);
	if ((lim = jv_get(cg, "limit")) == NULL || lim->type != JV_OBJECT)
		return;
	if (jv_num(lim, "failcnt", &v) == 0)
		add(k, "memory.failcnt", per, v / work, "", COUNT_SPARSE,
		    RS_SCOPE_RUN);
	if (jv_num(lim, "max", &v) == 0)
		add(k, "memory.events:max", per, v / work, "", COUNT_SPARSE,
		    RS_SCOPE_RUN);
}

/* The value of a sample's column c, or NAN (null, or not there). */
static double
cell(const struct jv *s, size_t c)
{
	if (s->type != JV_ARRAY || c >= s->len ||
	    s->items[c].type != JV_NUMBER)
		return NAN;
	return s->items[c].n;
}

/* The timeline: the rate between samples, and the gauges. */
static void
timeline(struct rs_kphase *k, const struct jv *tl, int ops)
{
	const struct jv	*s = jv_get(tl, "samples");
	double		*o, dt, unit = ops ? 1 : 1024;
	size_t		 i;

	if (s == NULL || s->type != JV_ARRAY || s->len < 2)
		return;
	k->tl = xcalloc(s->len, RS_TL_COLS * sizeof(double));
	for (i = 0; i < s->len; i++) {
		o = &k->tl[i * RS_TL_COLS];
		o[0] = cell(&s->items[i], 0);
		dt = i > 0 ? o[0] - cell(&s->items[i - 1], 0) : NAN;
		o[1] = dt > 0 ? (cell(&s->items[i], 1) -
		    cell(&s->items[i - 1], 1)) / dt / unit : NAN;
		o[2] = cell(&s->items[i], 2);
		o[3] = cell(&s->items[i], 3);
		o[4] = cell(&s->items[i], 4);
	}
	k->tl_n = (int)s->len;
}

void
rs_kernel_read(const struct jv *kj, int id, double bytes, double ops,
    struct rs_run *r)
{
	const struct jv		*cg, *dirty;
	struct rs_kphase	*k;
	const char		*per;
	double			 work, span, v;

	if (kj == NULL || kj->type != JV_OBJECT || id < 0 || id >= PH_COUNT ||
	    jv_num(kj, "span_s", &span) != 0)
		return;
	if (phase_table[id]->flags & PHASE_OPS) {
		per = "kop";
		work = ops / 1000;
	} else {
		per = "GiB";
		work = bytes / (1024.0 * 1024 * 1024);
	}
	if (!(work > 0))
		return;
	if (r->kernel == NULL)
		r->kernel = xcalloc(PH_COUNT, sizeof(*r->kernel));
	k = &r->kernel[id];
	disk(k, jv_get(kj, "disk"), per, work, span);
	counts(k, jv_get(kj, "vmstat"), "", is_event, per, work,
	    RS_SCOPE_MACHINE, COUNT_SPARSE);
	if ((dirty = jv_get(kj, "dirty")) != NULL &&
	    jv_num(dirty, "nr_dirty_peak", &v) == 0)
		add(k, "nr_dirty peak", NULL, v, " pages", LEVEL,
		    RS_SCOPE_MACHINE);
	pressure(k, jv_get(kj, "pressure"), "", RS_SCOPE_MACHINE);
	if ((cg = jv_get(kj, "cgroup")) != NULL && cg->type == JV_OBJECT)
		cgroup(k, cg, per, work);
	counts(k, jv_get(kj, "process"), "", is_proc, per, work,
	    RS_SCOPE_RUN, COUNT_KNOWN);
	timeline(k, jv_get(kj, "timeline"),
	    (phase_table[id]->flags & PHASE_OPS) != 0);
}

void
rs_kernel_free(struct rs_run *r)
{
	int	i, k;

	if (r->kernel == NULL)
		return;
	for (i = 0; i < PH_COUNT; i++) {
		for (k = 0; k < r->kernel[i].n; k++)
			free(r->kernel[i].f[k].name);
		free(r->kernel[i].f);
		free(r->kernel[i].tl);
	}
	free(r->kernel);
	r->kernel = NULL;
}
