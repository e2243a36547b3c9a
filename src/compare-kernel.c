/*
 * compare's "what moved": a column's phase's kernel figures (read-kernel.c:
 * iostat's levels, counts per GiB or per thousand operations, each with
 * its scope) set side by side, and the few that changed most named: the
 * run's own and its device's first, the whole machine's after them and
 * marked.  A figure is named only when it moved by the minimum effect
 * (MIN_EFFECT above its scale of a small change, so no "+0%"); for a
 * column that got better or worse, by the columns' own test where both
 * sides have CMP_MIN_RUNS runs (Mann-Whitney, or the bootstrap where the
 * sizes are too small for it) or, with fewer ("single runs"), by a wide
 * margin; for a column that did not (same, not comparable), only when it
 * moved a lot (LARGE_FACTOR): swapping or reclaim that the rates do not
 * show is still said.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare-kernel.h"
#include "error.h"
#include "json.h"
#include "phase.h"
#include "stats.h"

/* Single runs: a figure must move by this share above its scale. */
#define SINGLE_SHARE	0.25
/* Any figure: by this share above its scale at least (no "+0%"). */
#define MIN_EFFECT	0.10
/* A column that did not get better or worse: by this factor. */
#define LARGE_FACTOR	2.0
/* A percentage must move by this many points. */
#define PCT_POINTS	2.0
/* A count below this per unit of work on both sides is noise. */
#define COUNT_FLOOR	8.0
/*
 * A machine counter above this many times its scale (a thousandth of a
 * GiB's pages, KiB or bytes: eight GiB's worth per GiB moved) is mostly
 * other work, not the run's: it is not named.
 */
#define MACHINE_BOUND	8000.0

/* The value of figure name in run r's phase id: 1, or 0 when absent. */
static int
value(const struct rs_run *r, int id, const char *name, double *v,
    const struct rs_kfig **fig)
{
	const struct rs_kphase	*k = &r->kernel[id];
	int			 i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->f[i].name, name) == 0) {
			*v = k->f[i].v;
			*fig = &k->f[i];
			return 1;
		}
	return 0;
}

static int
has_account(const struct rs_run *r, int id)
{
	return r->kernel != NULL && r->kernel[id].n > 0;
}

/*
 * Side s's values of the figure: a count the record keeps only when it
 * moved (like->sparse), absent from a run that has an account, did not
 * move (0); any other figure absent is not known (a level, or a counter
 * a record made before it does not have).
 */
static int
collect(const struct result_set *s, int id, const struct rs_kfig *like,
    double *v)
{
	const struct rs_kfig	*f;
	int			 i, n = 0;

	for (i = 0; i < s->nruns; i++) {
		if (!has_account(&s->runs[i], id))
			continue;
		if (value(&s->runs[i], id, like->name, &v[n], &f))
			n++;
		else if (like->sparse)
			v[n++] = 0;
	}
	return n;
}

/*
 * How much it moved: the log of the ratio of the two medians, each above
 * the figure's scale of a small change (so that 0 -> 80 refaults per GiB
 * is little and 508 -> 4 KiB requests much); -1 when not by enough.
 */
static double
moved(struct km_fig *f, int single, int large, const double *x, int nx,
    const double *y, int ny)
{
	double	top = fmax(fabs(f->base), fabs(f->new));
	double	score = fabs(log((fabs(f->new) + f->scale) /
		    (fabs(f->base) + f->scale)));
	double	lo, hi, u;

	if (strcmp(f->unit, "%") == 0) {
		if (fabs(f->new - f->base) < PCT_POINTS)
			return -1;
	} else if (!f->level && top < COUNT_FLOOR)
		return -1;
	if (f->scope == RS_SCOPE_MACHINE && top > MACHINE_BOUND * f->scale)
		return -1;
	if (score < log(1 + MIN_EFFECT) || (large && score <
	    log(LARGE_FACTOR)))
		return -1;
	if (single)
		return score >= log(1 + SINGLE_SHARE) ? score : -1;
	if (cmp_mann_whitney_min_p(nx, ny) <= CMP_ALPHA) {
		f->p = cmp_mann_whitney(x, nx, y, ny, &u);
		return f->p < CMP_ALPHA ? score : -1;
	}
	cmp_bootstrap(x, nx, y, ny, CMP_BOOTSTRAP_REPS, CMP_BOOTSTRAP_SEED,
	    &lo, &hi);
	return lo > 0 || hi < 0 ? score : -1;
}

/* Keep the max in f that moved most, largest first. */
static void
keep(struct km_fig *f, double *score, int *n, int max,
    const struct km_fig *add, double s)
{
	int	i, at;

	for (at = *n; at > 0 && score[at - 1] < s; at--)
		;
	if (at >= max)
		return;
	if (*n < max)
		(*n)++;
	for (i = *n - 1; i > at; i--) {
		f[i] = f[i - 1];
		score[i] = score[i - 1];
	}
	f[at] = *add;
	score[at] = s;
}

/* Figures a pool keeps: enough to name KM_MAX after the repeats go. */
#define KM_POOL	(4 * KM_MAX)

/*
 * Two pools of the figures that moved most: 0 the run's own and its
 * device's, 1 the whole machine's.
 */
struct km_pools {
	int		 n[2];
	struct km_fig	 f[2][KM_POOL];
	double		 score[2][KM_POOL];
};

static int
kept(const struct km_pools *p, const char *name)
{
	int	k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < p->n[k]; i++)
			if (strcmp(p->f[k][i].name, name) == 0)
				return 1;
	return 0;
}

/*
 * The machine's counters of writing, in a phase that writes nothing: not
 * the run's (a read phase's pgpgout is other work's writes).
 */
static int
not_this_phase(const struct rs_kfig *like, int id)
{
	static const char *const wr[] = { "pgpgout/", "nr_dirtied/",
	    "nr_written/" };
	size_t	i;

	if (like->scope != RS_SCOPE_MACHINE ||
	    (phase_table[id]->flags & PHASE_WRITES))
		return 0;
	for (i = 0; i < sizeof(wr) / sizeof(wr[0]); i++)
		if (strncmp(like->name, wr[i], strlen(wr[i])) == 0)
			return 1;
	return 0;
}

/* The context of one column's comparison. */
struct km_ctx {
	const struct result_set	*base, *new;
	int			 id;
	int			 single;
	int			 large;
};

/* Consider figure like, unless it is kept already. */
static void
consider(const struct km_ctx *c, const struct rs_kfig *like,
    struct km_pools *p)
{
	struct km_fig	 f;
	double		*x, *y, s;
	int		 nx, ny, k = like->scope == RS_SCOPE_MACHINE;

	if (kept(p, like->name) || not_this_phase(like, c->id))
		return;
	x = xcalloc((size_t)c->base->nruns + 1, sizeof(*x));
	y = xcalloc((size_t)c->new->nruns + 1, sizeof(*y));
	nx = collect(c->base, c->id, like, x);
	ny = collect(c->new, c->id, like, y);
	if (nx > 0 && ny > 0) {
		memset(&f, 0, sizeof(f));
		f.name = like->name;
		f.unit = like->unit;
		f.level = like->level;
		f.scale = like->scale;
		f.scope = like->scope;
		f.base = stats_median(x, nx);
		f.new = stats_median(y, ny);
		f.p = NAN;
		f.change_pct = f.base != 0 ? 100 * (f.new - f.base) /
		    fabs(f.base) : NAN;
		s = moved(&f, c->single, c->large, x, nx, y, ny);
		if (s >= 0)
			keep(p->f[k], p->score[k], &p->n[k], KM_POOL, &f, s);
	}
	free(x);
	free(y);
}

static void
each_figure(const struct result_set *from, const struct km_ctx *c,
    struct km_pools *p)
{
	const struct rs_kphase	*k;
	int			 i, j;

	for (i = 0; i < from->nruns; i++) {
		if (!has_account(&from->runs[i], c->id))
			continue;
		k = &from->runs[i].kernel[c->id];
		for (j = 0; j < k->n; j++)
			consider(c, &k->f[j], p);
	}
}

/*
 * The bytes the device moved per unit of work (rkB, wkB, dkB): a file
 * system that writes its data twice (ext4's data=journal), or a read
 * that goes to the device instead of the cache, moves these by a factor
 * of two or from none, less on a log scale than a count of small events
 * moves; they are named whenever they moved by a quarter or more.
 */
static int
is_volume(const char *name)
{
	static const char *const vol[] = { "rkB/", "wkB/", "dkB/" };
	size_t	i;

	for (i = 0; i < sizeof(vol) / sizeof(vol[0]); i++)
		if (strncmp(name, vol[i], strlen(vol[i])) == 0)
			return 1;
	return 0;
}

/*
 * A machine counter the cgroup's memory.stat has under the same name
 * ("workingset_refault_file" beside "memory.stat:workingset_refault_
 * file"): the cgroup's is the run's, the machine's says it again.
 */
static int
said_by_cgroup(const struct km_pools *p, const char *name)
{
	static const char pre[] = "memory.stat:";
	int	i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < p->n[k]; i++)
			if (strncmp(p->f[k][i].name, pre, sizeof(pre) - 1) ==
			    0 && strcmp(p->f[k][i].name + sizeof(pre) - 1,
			    name) == 0)
				return 1;
	return 0;
}

/* Two figures within this share of each other say the same. */
#define SAME_SHARE	0.10

static int
same(double a, double b)
{
	return fabs(a - b) <= SAME_SHARE * fmax(fabs(a), fabs(b));
}

/*
 * The process's read_bytes or write_bytes where the device's rkB or wkB
 * moved alike on both sides (a read from the device, not the cache):
 * two meters of one thing; the device's is named.
 */
static int
said_by_device(const struct km_pools *p, const struct km_fig *f)
{
	static const struct {
		const char	*proc, *dev;
	} pair[] = {
		{ .proc = "read_bytes/", .dev = "rkB/" },
		{ .proc = "write_bytes/", .dev = "wkB/" },
	};
	const struct km_fig	*d;
	size_t			 i, n;
	int			 j;

	for (i = 0; i < sizeof(pair) / sizeof(pair[0]); i++) {
		n = strlen(pair[i].proc);
		if (strncmp(f->name, pair[i].proc, n) != 0)
			continue;
		for (j = 0; j < p->n[0]; j++) {
			d = &p->f[0][j];
			if (strncmp(d->name, pair[i].dev, strlen(pair[i].dev))
			    == 0 && strcmp(d->name + strlen(pair[i].dev),
			    f->name + n) == 0 && same(d->base * 1024, f->base) &&
			    same(d->new * 1024, f->new))
				return 1;
		}
	}
	return 0;
}

/*
 * The run's own and its device's figures first: the device's bytes, then
 * the others, in the order of how much they moved, KM_MAX - 1 at most
 * while the machine has one to name; then the machine's that the run's
 * cgroup did not say, after them whatever they moved: a machine figure
 * never leads while one of the run's moved.
 */
static void
merge_pools(struct km_pools *p, struct km_moved *m)
{
	double	score[KM_MAX];
	int	mach = 0, own = 0, i, pass, first;

	for (i = 0; i < p->n[1]; i++)
		mach += !said_by_cgroup(p, p->f[1][i].name);
	m->n = 0;
	/* Pass 0 the device's bytes that moved by a quarter, pass 1 the rest. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->n[0]; i++) {
			if ((is_volume(p->f[0][i].name) && p->score[0][i] >=
			    log(1 + SINGLE_SHARE)) != (pass == 0) ||
			    own >= KM_MAX - (mach > 0) ||
			    said_by_device(p, &p->f[0][i]))
				continue;
			keep(m->f, score, &m->n, KM_MAX, &p->f[0][i],
			    p->score[0][i]);
			own++;
		}
	/* After every one of the run's, in their own order. */
	first = m->n;
	for (i = 0; i < p->n[1] && m->n < KM_MAX; i++) {
		int	n = m->n - first;

		if (said_by_cgroup(p, p->f[1][i].name))
			continue;
		keep(m->f + first, score + first, &n, KM_MAX - first,
		    &p->f[1][i], p->score[1][i]);
		m->n = first + n;
	}
}

void
km_column(const struct result_set *base, const struct result_set *new,
    int col, int verdict, struct km_moved *m)
{
	struct km_pools	 p;
	struct km_ctx	 c;
	int		 i;

	memset(m, 0, sizeof(*m));
	memset(&p, 0, sizeof(p));
	if (verdict == CMP_MISSING)
		return;
	c.base = base;
	c.new = new;
	c.id = RS_PHASE(col);
	for (i = 0; i < base->nruns; i++)
		m->nbase += has_account(&base->runs[i], c.id);
	for (i = 0; i < new->nruns; i++)
		m->nnew += has_account(&new->runs[i], c.id);
	if (m->nbase == 0 || m->nnew == 0)
		return;
	m->single = m->nbase < CMP_MIN_RUNS || m->nnew < CMP_MIN_RUNS;
	m->large = verdict != CMP_WORSE && verdict != CMP_BETTER;
	/* A large move is said once, under the phase's rate column. */
	if (m->large && col != RS_RATE(c.id))
		return;
	c.single = m->single;
	c.large = m->large;
	each_figure(base, &c, &p);
	each_figure(new, &c, &p);
	merge_pools(&p, m);
}

/*
 * 0, 0.043, 4.0, 508, 2.1k, 3.4M: a figure in a few characters; under 1
 * with two significant digits, so that 0.04 ms never reads as 0.0 ms.
 */
static void
short_num(char *b, size_t n, double v)
{
	double	a = fabs(v);

	if (a == 0)
		snprintf(b, n, "0");
	else if (a < 0.95)
		snprintf(b, n, "%.2g", v);
	else if (a < 10)
		snprintf(b, n, "%.1f", v);
	else if (a < 1000)
		snprintf(b, n, "%.0f", v);
	else if (a < 1e6)
		snprintf(b, n, "%.1fk", v / 1e3);
	else if (a < 1e9)
		snprintf(b, n, "%.1fM", v / 1e6);
	else
		snprintf(b, n, "%.1fG", v / 1e9);
}

/*
 * A figure with its unit: KiB and ms grow into MiB, GiB and s, so that
 * 1.3 MiB -> 16 KiB never reads as 1.3k -> 16 KiB.
 */
static void
with_unit(char *b, size_t n, double v, const char *unit)
{
	static const struct {
		const char	*unit;
		double		 step;
		const char	*up[3];
	} grow[] = {
		{ .unit = " B", .step = 1024,
		  .up = { " KiB", " MiB", " GiB" } },
		{ .unit = " KiB", .step = 1024, .up = { " MiB", " GiB" } },
		{ .unit = " ms", .step = 1000, .up = { " s" } },
	};
	char	num[24];
	size_t	i;
	int	k;

	for (i = 0; i < sizeof(grow) / sizeof(grow[0]); i++) {
		if (strcmp(unit, grow[i].unit) != 0)
			continue;
		for (k = 0; k < 3 && grow[i].up[k] != NULL &&
		    fabs(v) >= grow[i].step; k++) {
			v /= grow[i].step;
			unit = grow[i].up[k];
		}
		break;
	}
	short_num(num, sizeof(num), v);
	/* None of anything is 0, "0 -> 1.0 GiB". */
	snprintf(b, n, "%s%s", num, v == 0 ? "" : unit);
}

void
km_text(char *buf, size_t len, const struct km_moved *m)
{
	char	a[40], b[40], pct[32];
	size_t	used = 0;
	int	i;

	buf[0] = '\0';
	for (i = 0; i < m->n && used < len; i++) {
		const struct km_fig *f = &m->f[i];

		with_unit(a, sizeof(a), f->base, f->unit);
		with_unit(b, sizeof(b), f->new, f->unit);
		pct[0] = '\0';
		if (!isnan(f->change_pct) && strcmp(f->unit, "%") != 0)
			snprintf(pct, sizeof(pct), " (%+.0f%%)", f->change_pct);
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s -> "
		    "%s%s%s", i ? ", " : "", f->name, a, b, pct,
		    f->scope == RS_SCOPE_MACHINE ? " (machine)" : "");
	}
}

int
km_line(char *buf, size_t len, const char *what, const char *verdict,
    double change_pct, const struct km_moved *m)
{
	char	figs[768], pct[32] = "", how[64];

	if (m->nbase == 0 || m->nnew == 0 || (m->large && m->n == 0))
		return -1;
	km_text(figs, sizeof(figs), m);
	if (!isnan(change_pct))
		snprintf(pct, sizeof(pct), " %+.1f%%", change_pct);
	if (m->single)
		snprintf(how, sizeof(how), "single runs");
	else
		snprintf(how, sizeof(how), "%d and %d runs, each moved at "
		    "%.0f%%", m->nbase, m->nnew, 100 * (1 - CMP_ALPHA));
	snprintf(buf, len, "%s%s %s: %s (%s)", what, pct, verdict, m->n > 0 ?
	    figs : "nothing moved by enough", how);
	return 0;
}

void
km_json(struct json *j, const char *key, const struct km_moved *m)
{
	int	i;

	json_object_start(j, key);
	json_int(j, "base_runs", m->nbase);
	json_int(j, "new_runs", m->nnew);
	json_string(j, "method", m->nbase == 0 || m->nnew == 0 ? "none" :
	    m->single ? "single runs" : "statistical");
	json_string(j, "rule", m->large ? "large" : "moved");
	json_array_start(j, "figures");
	for (i = 0; i < m->n; i++) {
		json_object_start(j, NULL);
		json_string(j, "name", m->f[i].name);
		json_string(j, "scope", rs_scope_name[m->f[i].scope]);
		json_string(j, "unit", m->f[i].unit[0] == ' ' ?
		    m->f[i].unit + 1 : m->f[i].unit);
		json_double(j, "base", m->f[i].base);
		json_double(j, "new", m->f[i].new);
		json_double(j, "change_pct", m->f[i].change_pct);
		json_double(j, "p", m->f[i].p);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
