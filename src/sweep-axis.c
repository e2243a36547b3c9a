/*
 * The sweep's list axes: the job counts (--jobs) and the file counts
 * (--files).  Each is a row of one table, struct axis, and one set of
 * functions walks it for both: the tables by count, the knees along the
 * axis in words and in the record, and the plot of the rate against the
 * count with each knee ringed.  The concurrency knee (knee_jobs()) is the
 * job count beyond which more workers raise the aggregate by less than
 * the threshold; the files knee (knee_files()) the file count beyond
 * which files/s falls by more than the threshold: where the files
 * outgrew the dentry and inode caches.  Pure formatting, like sweep-out.c.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "knee.h"
#include "phase.h"
#include "svg-plot.h"
#include "sweep.h"
#include "sysinfo.h"
#include "units.h"

struct axis {
	enum sweep_dim	 dim;		/* Along which the knee is found. */
	enum sweep_dim	 row;		/* Its tables' rows and columns, one */
	enum sweep_dim	 col;		/* table per phase and per value of */
	enum sweep_dim	 per;		/* per (SWEEP_DIMS: one per phase). */
	const char	*by;		/* The tables' title: ", by jobs". */
	enum sweep_dim	 line;		/* Tells the plot's lines apart. */
	const char	*key;		/* The record's array of knees. */
	const char	*heading;	/* Above the knees: heading, the */
	const char	*heading_end;	/* threshold, heading_end. */
	const char	*x_label;	/* The plot's x axis. */
	int		(*x_tick)(char *, size_t, uint64_t);
	const char	*mark;		/* " jobs": "knee: 4 jobs". */
	int		(*takes)(const struct sweep_result *, enum phase_id);
	int		(*find)(const struct knee_sample *, int, double,
			    double noise, struct knee *, int *candidates);
	int		(*say)(char *, size_t, const struct sweep_result *,
			    enum phase_id, const char *where, const int *at,
			    const struct knee *);
	void		(*none)(FILE *, const struct sweep_result *);
	void		(*record)(struct json *, const struct sweep_result *,
			    enum phase_id, const int *at, const struct knee *);
};


static int
selected(const struct sweep_result *r, enum phase_id id)
{
	return (r->opt->phases & (1u << id)) != 0;
}

static int
is_meta(enum phase_id id)
{
	return (phase_table[id]->flags & PHASE_META) != 0;
}

/* --- The jobs axis ---------------------------------------------------- */

static int
jobs_takes(const struct sweep_result *r, enum phase_id id)
{
	return selected(r, id) && sweep_dim_len(r, SWEEP_JOBS) > 1;
}

static int
jobs_say(char *buf, size_t len, const struct sweep_result *r,
    enum phase_id id, const char *where, const int *at, const struct knee *k)
{
	(void)at;
	return knee_jobs_say(buf, len, phase_id_name(id), where,
	    (int)sweep_dim_value(r, SWEEP_JOBS, k->from), k->pct, r->knee_pct,
	    k->single);
}

static void
jobs_none(FILE *f, const struct sweep_result *r)
{
	fprintf(f, "  none: the aggregate still rises at -j %llu\n",
	    (unsigned long long)sweep_dim_value(r, SWEEP_JOBS,
	    sweep_dim_len(r, SWEEP_JOBS) - 1));
}

/*
 * The point a concurrency knee is over: a file creation phase's file
 * count when the sweep knows it (a file count axis, or only those phases
 * and so one count), else the file size and chunk of the point, which a
 * phase on the test file is over and a file creation phase among others
 * runs at.
 */
static void
jobs_record(struct json *j, const struct sweep_result *r, enum phase_id id,
    const int *at, const struct knee *k)
{
	uint64_t	files = sweep_dim_value(r, SWEEP_FILES, at[SWEEP_FILES]);

	if (is_meta(id) && files > 0)
		json_uint(j, "files", files);
	else {
		json_uint(j, "size_bytes", sweep_dim_value(r, SWEEP_SIZE,
		    at[SWEEP_SIZE]));
		json_uint(j, "chunk", sweep_dim_value(r, SWEEP_CHUNK,
		    at[SWEEP_CHUNK]));
	}
	json_int(j, "jobs", (int)sweep_dim_value(r, SWEEP_JOBS, k->from));
	json_double(j, "gain_beyond_pct", k->pct);
}

static int
count_tick(char *buf, size_t len, uint64_t v)
{
	return snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* --- The seekers axis (--seeker-counts) ------------------------------- */

/* The seeks phase alone: the count changes nothing else. */
static int
seekers_takes(const struct sweep_result *r, enum phase_id id)
{
	return id == PH_SEEKS && selected(r, id) &&
	    sweep_dim_len(r, SWEEP_SEEKERS) > 1;
}

static int
seekers_say(char *buf, size_t len, const struct sweep_result *r,
    enum phase_id id, const char *where, const int *at, const struct knee *k)
{
	int	n = (int)sweep_dim_value(r, SWEEP_SEEKERS, k->from);

	(void)at;
	return snprintf(buf, len, "%s%s%s: the rate stops rising at %d "
	    "seeker%s (beyond: at most %+.0f%%, under %.0f%%%s)",
	    knee_phase_words(phase_id_name(id)), *where != '\0' ? ", " : "",
	    where, n, n == 1 ? "" : "s", k->pct, r->knee_pct, k->single ?
	    "; single run" : "");
}

static void
seekers_none(FILE *f, const struct sweep_result *r)
{
	fprintf(f, "  none: the rate still rises at -S %llu\n",
	    (unsigned long long)sweep_dim_value(r, SWEEP_SEEKERS,
	    sweep_dim_len(r, SWEEP_SEEKERS) - 1));
}

static void
seekers_record(struct json *j, const struct sweep_result *r,
    enum phase_id id, const int *at, const struct knee *k)
{
	(void)id;
	json_uint(j, "size_bytes", sweep_dim_value(r, SWEEP_SIZE,
	    at[SWEEP_SIZE]));
	json_uint(j, "chunk", sweep_dim_value(r, SWEEP_CHUNK, at[SWEEP_CHUNK]));
	json_int(j, "jobs", (int)sweep_dim_value(r, SWEEP_JOBS,
	    at[SWEEP_JOBS]));
	json_int(j, "seekers", (int)sweep_dim_value(r, SWEEP_SEEKERS,
	    k->from));
	json_double(j, "gain_beyond_pct", k->pct);
}

/* --- The files axis --------------------------------------------------- */

static int
files_takes(const struct sweep_result *r, enum phase_id id)
{
	return selected(r, id) && is_meta(id) && sweep_files_mode(r);
}

static int
files_say(char *buf, size_t len, const struct sweep_result *r,
    enum phase_id id, const char *where, const int *at, const struct knee *k)
{
	(void)at;
	return knee_files_format(buf, len, phase_id_name(id), where,
	    sweep_dim_value(r, SWEEP_FILES, k->from),
	    sweep_dim_value(r, SWEEP_FILES, k->to), k, r->knee_pct);
}

static void
files_none(FILE *f, const struct sweep_result *r)
{
	char	n[32];

	units_files(n, sizeof(n), sweep_dim_value(r, SWEEP_FILES,
	    sweep_dim_len(r, SWEEP_FILES) - 1));
	fprintf(f, "  none: no fall that stays, up to %s files\n", n);
}

static void
files_record(struct json *j, const struct sweep_result *r, enum phase_id id,
    const int *at, const struct knee *k)
{
	(void)id;
	json_int(j, "jobs", (int)sweep_dim_value(r, SWEEP_JOBS,
	    at[SWEEP_JOBS]));
	json_uint(j, "files", sweep_dim_value(r, SWEEP_FILES, k->from));
	json_uint(j, "to_files", sweep_dim_value(r, SWEEP_FILES, k->to));
	json_double(j, "pct", k->pct);
	json_double(j, "before", k->before);
	json_double(j, "after", k->after);
	json_int(j, "confirmed_by", k->confirmed);
}

static const struct axis axes[] = {
	{
		.dim = SWEEP_JOBS,
		.row = SWEEP_SIZE, .col = SWEEP_JOBS, .per = SWEEP_CHUNK,
		.by = ", by jobs (the aggregate)",
		.line = SWEEP_CHUNK,
		.key = "concurrency_knees",
		.heading = "Concurrency knees (more workers add less than",
		.heading_end = "):",
		.x_label = "workers, -j, the aggregate",
		.x_tick = count_tick,
		.mark = " jobs",
		.takes = jobs_takes,
		.find = knee_jobs_held,
		.say = jobs_say,
		.none = jobs_none,
		.record = jobs_record,
	},
	{
		.dim = SWEEP_FILES,
		.row = SWEEP_FILES, .col = SWEEP_JOBS, .per = SWEEP_DIMS,
		.by = ", by file count",
		.line = SWEEP_JOBS,
		.key = "files_knees",
		.heading = "Files knees (the file count beyond which the rate "
		    "falls more than",
		.heading_end = " and stays):",
		.x_label = "files, k = 1024",
		.x_tick = units_files,
		.mark = " files",
		.takes = files_takes,
		.find = knee_files_held,
		.say = files_say,
		.none = files_none,
		.record = files_record,
	},
	{
		.dim = SWEEP_SEEKERS,
		.row = SWEEP_SIZE, .col = SWEEP_SEEKERS, .per = SWEEP_CHUNK,
		.by = ", by seekers",
		.line = SWEEP_CHUNK,
		.key = "seekers_knees",
		.heading = "Seekers knees (more seekers add less than",
		.heading_end = "):",
		.x_label = "seekers, -S",
		.x_tick = count_tick,
		.mark = " seekers",
		.takes = seekers_takes,
		.find = knee_jobs_held,
		.say = seekers_say,
		.none = seekers_none,
		.record = seekers_record,
	},
};
#define AXIS_JOBS	(&axes[0])
#define AXIS_FILES	(&axes[1])
#define AXIS_SEEKERS	(&axes[2])

/*
 * Where a point is, in words, for phase id: its size and chunk (a phase
 * on the test file) or its file count (a file creation phase), and its
 * job count when the sweep has several; the dimension skip is left out.
 */
static void
where(char *buf, size_t len, const struct sweep_result *r, enum phase_id id,
    const int *at, enum sweep_dim skip)
{
	char	v[32];
	size_t	n = 0;

	buf[0] = '\0';
#define ADD(...) do {							\
	if (n < len)							\
		n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);	\
} while (0)
	if (!is_meta(id)) {
		units_size_words(v, sizeof(v), sweep_dim_value(r, SWEEP_SIZE,
		    at[SWEEP_SIZE]));
		ADD("%s", v);
		units_chunk(v, sizeof(v), sweep_dim_value(r, SWEEP_CHUNK,
		    at[SWEEP_CHUNK]));
		ADD(", chunk %s", v);
	} else if (skip != SWEEP_FILES && sweep_files_mode(r)) {
		units_files(v, sizeof(v), sweep_dim_value(r, SWEEP_FILES,
		    at[SWEEP_FILES]));
		ADD("%s files", v);
	}
	if (skip != SWEEP_JOBS && sweep_dim_len(r, SWEEP_JOBS) > 1)
		ADD("%s-j %llu", n > 0 ? ", " : "", (unsigned long long)
		    sweep_dim_value(r, SWEEP_JOBS, at[SWEEP_JOBS]));
	if (skip != SWEEP_SEEKERS && id == PH_SEEKS &&
	    sweep_dim_len(r, SWEEP_SEEKERS) > 1)
		ADD("%s-S %llu", n > 0 ? ", " : "", (unsigned long long)
		    sweep_dim_value(r, SWEEP_SEEKERS, at[SWEEP_SEEKERS]));
#undef ADD
}

/*
 * The knee along axis a of phase id through the point at (its a->dim
 * index ignored) that holds, into k; returns its index or -1, and adds
 * to *cand the candidates on the medians when cand is not NULL.
 */
static int
find_at(const struct sweep_result *r, const struct axis *a, enum phase_id id,
    const int *at, double noise, struct knee *k, int *cand)
{
	struct knee_sample	 s[SWEEP_MAX_POINTS_AXIS];
	double			*store;
	int			 i, c = 0;

	sweep_samples(r, id, at, a->dim, s, &store);
	i = a->find(s, sweep_dim_len(r, a->dim), r->knee_pct, noise, k,
	    cand != NULL ? &c : NULL);
	free(store);
	if (cand != NULL)
		*cand += c;
	return i;
}

/*
 * Call fn for each knee along axis a that holds, in the order they are
 * printed: phase by phase, then every point of the other dimensions in
 * the order they run.  Returns how many; *cand (when not NULL) gets the
 * candidates on the medians.
 */
static int
each_knee(const struct sweep_result *r, const struct axis *a,
    void (*fn)(void *, enum phase_id, const int *at, const struct knee *),
    void *arg, int *cand)
{
	struct knee	k;
	double		noise;
	int		at[SWEEP_DIMS], id, d, q, n = 0, others = 1;

	if (cand != NULL)
		*cand = 0;
	for (d = 0; d < SWEEP_DIMS; d++)
		if (d != (int)a->dim)
			others *= sweep_dim_len(r, d);
	for (id = 0; id < PH_COUNT; id++) {
		if (!a->takes(r, id))
			continue;
		noise = sweep_noise(r, id);
		for (q = 0; q < others; q++) {
			/* The q-th point of the other dimensions. */
			int	rest = q;

			for (d = SWEEP_DIMS - 1; d >= 0; d--) {
				if (d == (int)a->dim) {
					at[d] = 0;
					continue;
				}
				at[d] = rest % sweep_dim_len(r, d);
				rest /= sweep_dim_len(r, d);
			}
			if (find_at(r, a, id, at, noise, &k, cand) < 0)
				continue;
			fn(arg, id, at, &k);
			n++;
		}
	}
	return n;
}

/* --- Tables ----------------------------------------------------------- */

/*
 * The fewest and the most runs of the table's points that measured the
 * phase, into lo and hi (both 0 when none did).
 */
static void
table_runs(const struct sweep_result *r, enum phase_id id, enum sweep_dim row,
    enum sweep_dim col, const int *at, int *lo, int *hi)
{
	double	v[SWEEP_MAX_RUNS];
	int	a[SWEEP_DIMS], i, k, n;

	memcpy(a, at, sizeof(a));
	*lo = *hi = 0;
	for (i = 0; i < sweep_dim_len(r, row); i++)
		for (k = 0; k < sweep_dim_len(r, col); k++) {
			a[row] = i;
			a[col] = k;
			if ((n = sweep_rates_at(r, id, a, v)) == 0)
				continue;
			if (*lo == 0 || n < *lo)
				*lo = n;
			if (n > *hi)
				*hi = n;
		}
}

/*
 * The grid of one table: the header, then a row per value of row, each
 * cell the median rate or, with spread, the runs' coefficient of
 * variation in percent ("-" when not measured, or under two runs).
 */
static void
table_grid(FILE *f, const struct sweep_result *r, enum phase_id id,
    enum sweep_dim row, enum sweep_dim col, const int *at, int spread)
{
	static const char *const head[SWEEP_DIMS] = {
		[SWEEP_SIZE] = "size", [SWEEP_CHUNK] = "chunk",
		[SWEEP_JOBS] = "jobs", [SWEEP_SEEKERS] = "seekers",
		[SWEEP_FILES] = "files"
	};
	const struct phase	*ph = phase_table[id];
	char			 buf[32];
	double			 v;
	int			 a[SWEEP_DIMS], i, k;

	memcpy(a, at, sizeof(a));
	fprintf(f, "%8s", head[row]);
	for (k = 0; k < sweep_dim_len(r, col); k++) {
		if (col == SWEEP_JOBS && sweep_dim_len(r, col) == 1)
			phase_unit(ph, UNIT_TABLE, buf, sizeof(buf));
		else
			sweep_dim_label(buf, sizeof(buf), r, col, k);
		fprintf(f, " %10s", buf);
	}
	fputc('\n', f);
	for (i = 0; i < sweep_dim_len(r, row); i++) {
		a[row] = i;
		sweep_dim_label(buf, sizeof(buf), r, row, i);
		fprintf(f, "%8s", buf);
		for (k = 0; k < sweep_dim_len(r, col); k++) {
			a[col] = k;
			v = spread ? sweep_cv_at(r, id, a) * 100 :
			    sweep_rate_at(r, id, a);
			if (isnan(v))
				fprintf(f, " %10s", "-");
			else if (spread || (ph->flags & PHASE_OPS))
				fprintf(f, " %10.1f", v);
			else
				fprintf(f, " %10lld", units_kps(v));
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

void
sweep_table(FILE *f, const struct sweep_result *r, enum phase_id id,
    enum sweep_dim row, enum sweep_dim col, const int *at, const char *title)
{
	int	lo, hi;

	table_runs(r, id, row, col, at, &lo, &hi);
	if (hi < 2) {
		fprintf(f, "%s\n", title);
		table_grid(f, r, id, row, col, at, 0);
		return;
	}
	if (lo == hi)
		fprintf(f, "%s, median of %d runs\n", title, hi);
	else
		fprintf(f, "%s, median of %d to %d runs\n", title, lo, hi);
	table_grid(f, r, id, row, col, at, 0);
	fprintf(f, "%s, spread: coefficient of variation of the runs, %%\n",
	    title);
	table_grid(f, r, id, row, col, at, 1);
}

static void
axis_tables(FILE *f, const struct sweep_result *r, const struct axis *a)
{
	const struct phase	*ph;
	char			 title[256], unit[32], v[48], lv[32];
	int			 at[SWEEP_DIMS] = { 0 }, id, p, np;

	np = a->per < SWEEP_DIMS ? sweep_dim_len(r, a->per) : 1;
	for (id = 0; id < PH_COUNT; id++) {
		if (!a->takes(r, id))
			continue;
		ph = phase_table[id];
		for (p = 0; p < np; p++) {
			v[0] = '\0';
			if (a->per < SWEEP_DIMS) {
				at[a->per] = p;
				sweep_dim_label(lv, sizeof(lv), r, a->per,
				    p);
				snprintf(v, sizeof(v), "%s%s", a->per ==
				    SWEEP_CHUNK ? "chunk " : "", lv);
			}
			snprintf(title, sizeof(title), "%s, %s%s%s%s%s",
			    ph->words, phase_unit(ph, UNIT_TABLE, unit,
			    sizeof(unit)), *v != '\0' ? ", " : "", v, a->by,
			    a->col == SWEEP_JOBS && a->dim != SWEEP_JOBS &&
			    sweep_dim_len(r, SWEEP_JOBS) > 1 ?
			    AXIS_JOBS->by : "");
			sweep_table(f, r, id, a->row, a->col, at, title);
		}
	}
}

void
sweep_axis_print_tables(FILE *f, const struct sweep_result *r)
{
	if (sweep_files_mode(r)) {
		axis_tables(f, r, AXIS_FILES);
		return;
	}
	if (sweep_dim_len(r, SWEEP_JOBS) > 1)
		axis_tables(f, r, AXIS_JOBS);
	if (sweep_dim_len(r, SWEEP_SEEKERS) > 1)
		axis_tables(f, r, AXIS_SEEKERS);
}

int
sweep_axis_seekers_take(const struct sweep_result *r, enum phase_id id)
{
	return seekers_takes(r, id);
}

/* --- Knees in words and in the record --------------------------------- */

void
sweep_print_left_out(FILE *f, const struct sweep_result *r, int n,
    const char *hint)
{
	/* The runs to ask for: 3, or twice as many as the sweep had. */
	int	x = r->repeat >= 3 ? 2 * r->repeat : 3;

	if (n > 0)
		fprintf(f, "  (%d more change%s over %.0f%% in the medians, at "
		    "imprecise points or within the spread of the runs or the "
		    "noise: not named; %s%s--min-time or -x %d tell)\n", n,
		    n == 1 ? "" : "s", r->knee_pct, hint, r->min_time > 0 ?
		    "a longer " : "", x);
}


struct print_arg {
	FILE				*f;
	const struct sweep_result	*r;
	const struct axis		*a;
};

static void
print_one(void *arg, enum phase_id id, const int *at, const struct knee *k)
{
	struct print_arg	*pa = arg;
	char			 w[128], line[320];

	where(w, sizeof(w), pa->r, id, at, pa->a->dim);
	pa->a->say(line, sizeof(line), pa->r, id, w, at, k);
	fprintf(pa->f, "  %s\n", line);
}

void
sweep_axis_print_knees(FILE *f, const struct sweep_result *r)
{
	struct print_arg	 pa = { f, r, NULL };
	size_t			 i;
	int			 n, cand;

	for (i = 0; i < sizeof(axes) / sizeof(axes[0]); i++) {
		pa.a = &axes[i];
		if (sweep_dim_len(r, axes[i].dim) < 2 &&
		    !(axes[i].dim == SWEEP_FILES && sweep_files_mode(r)))
			continue;
		fprintf(f, "%s %.0f%%%s\n", axes[i].heading, r->knee_pct,
		    axes[i].heading_end);
		n = each_knee(r, &axes[i], print_one, &pa, &cand);
		if (n == 0 && cand == 0)
			axes[i].none(f, r);
		else if (n == 0)
			fprintf(f, "  none\n");
		sweep_print_left_out(f, r, cand - n, "");
	}
}

struct json_arg {
	struct json			*j;
	const struct sweep_result	*r;
	const struct axis		*a;
};

static void
json_one(void *arg, enum phase_id id, const int *at, const struct knee *k)
{
	struct json_arg	*ja = arg;
	char		 w[128], line[320];

	where(w, sizeof(w), ja->r, id, at, ja->a->dim);
	ja->a->say(line, sizeof(line), ja->r, id, w, at, k);
	json_object_start(ja->j, NULL);
	json_string(ja->j, "phase", phase_id_name(id));
	ja->a->record(ja->j, ja->r, id, at, k);
	json_bool(ja->j, "single_run", k->single);
	json_string(ja->j, "text", line);
	json_object_end(ja->j);
}

void
sweep_axis_write_knees(struct json *j, const struct sweep_result *r)
{
	struct json_arg	 ja = { j, r, NULL };
	size_t		 i;

	for (i = 0; i < sizeof(axes) / sizeof(axes[0]); i++) {
		ja.a = &axes[i];
		json_array_start(j, axes[i].key);
		each_knee(r, &axes[i], json_one, &ja, NULL);
		json_array_end(j);
	}
}

/* --- The plot --------------------------------------------------------- */

#define MAX_LINES	(PH_COUNT * SWEEP_MAX_CHUNKS)

static int
axis_svg(FILE *f, const struct sweep_result *r, const struct axis *a)
{
	struct svg_series	*s;
	struct svg_plot		 p;
	struct knee		 k;
	uint64_t		 xs[SWEEP_MAX_POINTS_AXIS];
	double			*v, noise;
	char			 title[512], sz[64], lv[32], w[128];
	char			 (*words)[3][320];
	int			 at[SWEEP_DIMS] = { 0 }, id, l, x, n = 0, rc;
	int			 nl = sweep_dim_len(r, a->line);
	int			 nx = sweep_dim_len(r, a->dim);

	/* The largest size that has a measured point stands for the sweep. */
	for (at[SWEEP_SIZE] = sweep_dim_len(r, SWEEP_SIZE) - 1;
	    at[SWEEP_SIZE] > 0 && sweep_index(r, at) >= r->npoints;
	    at[SWEEP_SIZE]--)
		;
	s = calloc(MAX_LINES, sizeof(*s));
	v = calloc(MAX_LINES * SWEEP_MAX_POINTS_AXIS, sizeof(*v));
	words = calloc(MAX_LINES, sizeof(*words));
	if (s == NULL || v == NULL || words == NULL) {
		free(s);
		free(v);
		free(words);
		errno = ENOMEM;
		return -1;
	}
	for (x = 0; x < nx; x++)
		xs[x] = sweep_dim_value(r, a->dim, x);
	for (id = 0; id < PH_COUNT; id++) {
		if (!a->takes(r, id))
			continue;
		noise = sweep_noise(r, id);
		for (l = 0; l < nl && n < MAX_LINES; l++, n++) {
			at[a->line] = l;
			s[n].phase = id;
			s[n].chunk = sweep_dim_value(r, a->line, l);
			s[n].rate = v + n * SWEEP_MAX_POINTS_AXIS;
			sweep_series(r, id, at, a->dim,
			    v + n * SWEEP_MAX_POINTS_AXIS);
			if (a->line != SWEEP_CHUNK) {
				sweep_dim_label(lv, sizeof(lv), r, a->line,
				    l);
				snprintf(words[n][2], sizeof(words[n][2]),
				    "%s%s%s", phase_table[id]->words,
				    nl > 1 ? ", " : "", nl > 1 ? lv : "");
				s[n].label = words[n][2];
			}
			if ((s[n].mark = find_at(r, a, id, at, noise, &k,
			    NULL)) < 0)
				continue;
			where(w, sizeof(w), r, id, at, a->dim);
			a->say(words[n][0], sizeof(words[n][0]), r, id, w, at,
			    &k);
			a->x_tick(lv, sizeof(lv), xs[s[n].mark]);
			snprintf(words[n][1], sizeof(words[n][1]), "knee: %s%s",
			    lv, a->mark);
			s[n].mark_title = words[n][0];
			s[n].mark_label = words[n][1];
		}
	}
	sz[0] = '\0';
	if (a->dim == SWEEP_JOBS && !sweep_files_mode(r)) {
		units_size_short(lv, sizeof(lv), sweep_dim_value(r,
		    SWEEP_SIZE, at[SWEEP_SIZE]));
		snprintf(sz, sizeof(sz), "%s per worker", lv);
	}
	snprintf(title, sizeof(title), "bonnie-ng sweep of %s%s%s%s by %s%s%s, "
	    "cache %s", r->sys && r->sys->dir ? r->sys->dir : r->opt->dir,
	    r->sys && r->sys->fs_type ? " (" : "",
	    r->sys && r->sys->fs_type ? r->sys->fs_type : "",
	    r->sys && r->sys->fs_type ? ")" : "",
	    a->dim == SWEEP_JOBS ? "jobs" : a->dim == SWEEP_SEEKERS ?
	    "seekers" : "file count",
	    *sz != '\0' ? ", " : "", *sz != '\0' ? sz : "",
	    sweep_cache_name(r));
	memset(&p, 0, sizeof(p));
	p.title = title;
	p.nsizes = nx;
	p.sizes = xs;
	p.x_label = a->x_label;
	p.x_tick = a->x_tick;
	p.nseries = n;
	p.series = s;
	rc = svg_plot_write(f, &p);
	free(s);
	free(v);
	free(words);
	return rc;
}

int
sweep_axis_write_svg(FILE *f, const struct sweep_result *r)
{
	return axis_svg(f, r, sweep_files_mode(r) ? AXIS_FILES :
	    sweep_dim_len(r, SWEEP_JOBS) > 1 ? AXIS_JOBS : AXIS_SEEKERS);
}
