/*
 * The option values of "bonnie-ng sweep" (size ranges, chunk and job
 * lists) and the accessor of its grid of points.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "knee.h"
#include "options.h"
#include "phase.h"
#include "run.h"
#include "stats.h"
#include "sweep.h"
#include "units.h"

int
sweep_parse_sizes(const char *arg, uint64_t *lo, uint64_t *hi, char **cause)
{
	const char	*dots;
	char		*first, *why = NULL;
	int		 rc = 0;

	if ((dots = strstr(arg, "..")) == NULL) {
		*hi = 0;
		if (parse_size(arg, (uint64_t)1 << 20, lo, &why) == -1)
			rc = -1;
	} else {
		first = xstrdup(arg);
		first[dots - arg] = '\0';
		if (parse_size(first, (uint64_t)1 << 20, lo, &why) == -1 ||
		    parse_size(dots + 2, (uint64_t)1 << 20, hi, &why) == -1)
			rc = -1;
		free(first);
	}
	if (rc == -1) {
		errorf(cause, "%s", why);
		free(why);
		return -1;
	}
	if (*lo == 0)
		return errorf(cause, "'%s' (the smallest size must be above "
		    "zero)", arg);
	if (*hi != 0 && *lo > *hi)
		return errorf(cause, "'%s' (the lower bound is above the "
		    "upper one)", arg);
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One item of a list: its value, or -1 with the reason in *why. */
typedef int (*item_fn)(const char *, void *, uint64_t *, char **why);

/*
 * The comma list in the first len bytes of arg, each item through one(),
 * at most max of them, into out: sorted, without repeats.  Returns how
 * many, or -1 with the reason in *cause ("what" names the items).
 */
static int
parse_list(const char *arg, size_t len, const char *what, int max,
    item_fn one, void *one_arg, uint64_t *out, char **cause)
{
	char		*list, *s, *next, *why = NULL;
	uint64_t	 v;
	int		 n = 0, i, j;

	list = xstrdup(arg);
	list[len] = '\0';
	for (s = list; s != NULL; s = next) {
		if ((next = strchr(s, ',')) != NULL)
			*next++ = '\0';
		if (one(s, one_arg, &v, &why) == -1) {
			errorf(cause, "%s", why);
			free(why);
			free(list);
			return -1;
		}
		if (n == max) {
			errorf(cause, "'%s' (at most %d %s)", arg, max, what);
			free(list);
			return -1;
		}
		out[n++] = v;
	}
	free(list);
	qsort(out, (size_t)n, sizeof(*out), cmp_u64);
	for (i = j = 0; i < n; i++) {
		if (j == 0 || out[j - 1] != out[i])
			out[j++] = out[i];
	}
	return j;
}

static int
chunk_item(const char *s, void *unused, uint64_t *v, char **why)
{
	(void)unused;
	return chunk_parse(s, v, why);
}

static int
jobs_item(const char *s, void *unused, uint64_t *v, char **why)
{
	int	j;

	(void)unused;
	if (jobs_parse(s, &j, why) == -1)
		return -1;
	*v = (uint64_t)j;
	return 0;
}

static int
seekers_item(const char *s, void *unused, uint64_t *v, char **why)
{
	(void)unused;
	return parse_count(s, 1, MAX_SEEKERS, v, why);
}

/* A file count of a list, parsed with the ":MAX..." that follows it. */
struct files_item_arg {
	struct options	*o;
	const char	*rest;		/* From the colon, or "". */
};

static int
files_item(const char *s, void *arg, uint64_t *v, char **why)
{
	struct files_item_arg	*a = arg;
	char			*one;
	int			 rc;

	one = xasprintf("%s%s", s, a->rest);
	rc = files_parse(one, a->o, why);
	free(one);
	*v = a->o->files_n;
	return rc;
}

/* Each axis given as a list: what its items are called, and their parser. */
static const struct {
	const char	*what;
	item_fn		 one;
} axis_lists[SWEEP_DIMS] = {
	[SWEEP_CHUNK] = { .what = "chunk sizes", .one = chunk_item },
	[SWEEP_JOBS] = { .what = "job counts", .one = jobs_item },
	[SWEEP_SEEKERS] = { .what = "seeker counts", .one = seekers_item },
	[SWEEP_FILES] = { .what = "file counts", .one = files_item },
};

/* Axis d's list in the first len bytes of arg, as parse_list(). */
static int
axis_list(enum sweep_dim d, const char *arg, size_t len, void *one_arg,
    uint64_t *out, int max, char **cause)
{
	return parse_list(arg, len, axis_lists[d].what, max, axis_lists[d].one,
	    one_arg, out, cause);
}

/* Axis d's list of counts that fit an int (jobs, seekers). */
static int
axis_ints(enum sweep_dim d, const char *arg, int *out, int max, char **cause)
{
	uint64_t	*v;
	int		 n, i;

	if ((v = calloc((size_t)max + 1, sizeof(*v))) == NULL)
		return errorf(cause, "'%s': %s", arg, strerror(errno));
	n = axis_list(d, arg, strlen(arg), NULL, v, max, cause);
	for (i = 0; i < n; i++)
		out[i] = (int)v[i];
	free(v);
	return n;
}

int
sweep_parse_chunks(const char *arg, uint64_t *out, int max, char **cause)
{
	return axis_list(SWEEP_CHUNK, arg, strlen(arg), NULL, out, max, cause);
}

int
sweep_parse_jobs(const char *arg, int *out, int max, char **cause)
{
	return axis_ints(SWEEP_JOBS, arg, out, max, cause);
}

int
sweep_parse_seekers(const char *arg, int *out, int max, char **cause)
{
	return axis_ints(SWEEP_SEEKERS, arg, out, max, cause);
}

int
sweep_parse_files(const char *arg, uint64_t *out, int max,
    struct options *o, char **cause)
{
	struct files_item_arg	a;
	const char		*colon = strchr(arg, ':');

	a.o = o;
	a.rest = colon != NULL ? colon : "";
	return axis_list(SWEEP_FILES, arg, colon != NULL ?
	    (size_t)(colon - arg) : strlen(arg), &a, out, max, cause);
}

int
sweep_size_list(uint64_t lo, uint64_t hi, uint64_t *out, int max)
{
	uint64_t	s;
	int		n = 0;

	for (s = lo; s != 0 && s <= hi && n < max; s *= 2) {
		out[n++] = s;
		if (s > UINT64_MAX / 2)
			break;
	}
	return n;
}

const char *
sweep_cache_name(const struct sweep_result *r)
{
	return r->opt->direct ? cache_state_name(CSTATE_DIRECT) :
	    cache_mode_name(r->opt->cache);
}

int
sweep_files_mode(const struct sweep_result *r)
{
	return r->nfiles > 0 && r->files[0] > 0;
}

int
sweep_dim_len(const struct sweep_result *r, int d)
{
	int	n;

	switch (d) {
	case SWEEP_SIZE:
		n = r->nsizes;
		break;
	case SWEEP_CHUNK:
		n = r->nchunks;
		break;
	case SWEEP_JOBS:
		n = r->njobs;
		break;
	case SWEEP_SEEKERS:
		n = r->nseekers;
		break;
	case SWEEP_FILES:
		n = r->nfiles;
		break;
	default:
		n = 1;
	}
	return n > 0 ? n : 1;
}

uint64_t
sweep_dim_value(const struct sweep_result *r, int d, int i)
{
	if (i < 0 || i >= sweep_dim_len(r, d))
		return 0;
	switch (d) {
	case SWEEP_SIZE:
		return r->nsizes > 0 ? r->sizes[i] : 0;
	case SWEEP_CHUNK:
		return r->nchunks > 0 ? r->chunks[i] : 0;
	case SWEEP_JOBS:
		return r->njobs > 0 ? (uint64_t)r->jobs[i] : 1;
	case SWEEP_SEEKERS:
		return r->nseekers > 0 ? (uint64_t)r->seekers[i] : 0;
	case SWEEP_FILES:
		return r->nfiles > 0 ? r->files[i] : 0;
	default:
		return 0;
	}
}

void
sweep_dim_label(char *buf, size_t len, const struct sweep_result *r, int d,
    int i)
{
	uint64_t	v = sweep_dim_value(r, d, i);

	switch (d) {
	case SWEEP_SIZE:
		units_size_short(buf, len, v);
		break;
	case SWEEP_CHUNK:
		units_chunk(buf, len, v);
		break;
	case SWEEP_JOBS:
		snprintf(buf, len, "-j %llu", (unsigned long long)v);
		break;
	case SWEEP_SEEKERS:
		snprintf(buf, len, "-S %llu", (unsigned long long)v);
		break;
	default:
		units_files(buf, len, v);
	}
}

int
sweep_npoints(const struct sweep_result *r)
{
	int	d, n = 1;

	for (d = 0; d < SWEEP_DIMS; d++)
		n *= sweep_dim_len(r, d);
	return n;
}

int
sweep_index(const struct sweep_result *r, const int *at)
{
	int	d, p = 0;

	for (d = 0; d < SWEEP_DIMS; d++) {
		if (at[d] < 0 || at[d] >= sweep_dim_len(r, d))
			return -1;
		p = p * sweep_dim_len(r, d) + at[d];
	}
	return p;
}

int
sweep_point_nruns(const struct sweep_point *pt)
{
	return 1 + pt->nmore;
}

const struct run_result *
sweep_point_run(const struct sweep_point *pt, int k)
{
	return k == 0 ? &pt->res : &pt->more[k - 1];
}

int
sweep_point_rates(const struct sweep_point *pt, enum phase_id id, double *v)
{
	const struct phase_result	*ph;
	int				 k, n = 0;

	for (k = 0; k < sweep_point_nruns(pt) && n < SWEEP_MAX_RUNS; k++) {
		ph = &sweep_point_run(pt, k)->ph[id];
		if (ph->ran && ph->rate > 0)
			v[n++] = ph->rate;
	}
	return n;
}

double
sweep_point_seconds(const struct sweep_point *pt, enum phase_id id)
{
	const struct phase_result	*ph;
	double				 s = 0;
	int				 k;

	for (k = 0; k < sweep_point_nruns(pt); k++) {
		ph = &sweep_point_run(pt, k)->ph[id];
		if (ph->ran)
			s += ph->elapsed;
	}
	return s;
}

double
sweep_precision_bound(const struct sweep_result *r)
{
	return r->min_time > 0 ? r->min_time : PRECISE_SECONDS;
}

void
sweep_point_settle(const struct sweep_result *r, struct sweep_point *pt)
{
	int	id;

	pt->imprecise = 0;
	for (id = 0; id < PH_COUNT; id++)
		if (sweep_point_run(pt, 0)->ph[id].ran &&
		    sweep_point_seconds(pt, id) < sweep_precision_bound(r))
			pt->imprecise |= 1u << id;
}

int
sweep_rates_at(const struct sweep_result *r, enum phase_id id, const int *at,
    double *v)
{
	int	p = sweep_index(r, at);

	if (p < 0 || p >= r->npoints)
		return 0;
	return sweep_point_rates(&r->points[p], id, v);
}

int
sweep_precise_at(const struct sweep_result *r, enum phase_id id,
    const int *at)
{
	double	v[SWEEP_MAX_RUNS];
	int	p = sweep_index(r, at);

	if (sweep_rates_at(r, id, at, v) == 0)
		return 0;
	return !(r->points[p].imprecise & (1u << id));
}

double
sweep_rate_at(const struct sweep_result *r, enum phase_id id, const int *at)
{
	double	v[SWEEP_MAX_RUNS];
	int	n;

	if ((n = sweep_rates_at(r, id, at, v)) == 0)
		return NAN;
	return stats_median(v, n);
}

double
sweep_cv_at(const struct sweep_result *r, enum phase_id id, const int *at)
{
	struct col_stats	s;
	double			v[SWEEP_MAX_RUNS];
	int			n;

	if ((n = sweep_rates_at(r, id, at, v)) < 2)
		return NAN;
	stats_compute(v, n, &s);
	return s.cv;
}

void
sweep_series(const struct sweep_result *r, enum phase_id id, const int *at,
    enum sweep_dim d, double *v)
{
	int	a[SWEEP_DIMS], i;

	memcpy(a, at, sizeof(a));
	for (i = 0; i < sweep_dim_len(r, d); i++) {
		a[d] = i;
		v[i] = sweep_rate_at(r, id, a);
	}
}

double
sweep_rate(const struct sweep_result *r, enum phase_id id, int i, int k)
{
	return sweep_rate_jobs(r, id, i, k, 0);
}

double
sweep_rate_jobs(const struct sweep_result *r, enum phase_id id, int i,
    int k, int j)
{
	const int	at[SWEEP_DIMS] = { [SWEEP_SIZE] = i, [SWEEP_CHUNK] = k,
	    [SWEEP_JOBS] = j };

	return sweep_rate_at(r, id, at);
}

void
sweep_samples(const struct sweep_result *r, enum phase_id id, const int *at,
    enum sweep_dim d, struct knee_sample *s, double **store)
{
	int	a[SWEEP_DIMS], i, n = sweep_dim_len(r, d);
	double	*v;

	*store = xcalloc((size_t)n * SWEEP_MAX_RUNS, sizeof(**store));
	memcpy(a, at, sizeof(a));
	for (i = 0; i < n; i++) {
		a[d] = i;
		v = *store + (size_t)i * SWEEP_MAX_RUNS;
		s[i].runs = v;
		s[i].nruns = sweep_rates_at(r, id, a, v);
		s[i].rate = s[i].nruns > 0 ? sweep_rate_at(r, id, a) : NAN;
		s[i].precise = sweep_precise_at(r, id, a);
	}
}

/* The steps of phase id along d through every point of the others. */
static int
dim_steps(const struct sweep_result *r, enum phase_id id, enum sweep_dim d,
    double *out)
{
	struct knee_sample	 s[SWEEP_MAX_POINTS_AXIS];
	double			*store;
	int			 at[SWEEP_DIMS], e, q, rest, others = 1, n = 0;

	for (e = 0; e < SWEEP_DIMS; e++)
		if (e != (int)d)
			others *= sweep_dim_len(r, e);
	for (q = 0; q < others; q++) {
		rest = q;
		for (e = SWEEP_DIMS - 1; e >= 0; e--) {
			at[e] = 0;
			if (e == (int)d)
				continue;
			at[e] = rest % sweep_dim_len(r, e);
			rest /= sweep_dim_len(r, e);
		}
		sweep_samples(r, id, at, d, s, &store);
		n += knee_steps(s, sweep_dim_len(r, d), out + n);
		free(store);
	}
	return n;
}

double
sweep_noise(const struct sweep_result *r, enum phase_id id)
{
	double	*steps, noise;
	int	 n;

	steps = xcalloc((size_t)sweep_npoints(r) * 2 + 1, sizeof(*steps));
	n = dim_steps(r, id, SWEEP_SIZE, steps);
	n += dim_steps(r, id, SWEEP_FILES, steps + n);
	noise = knee_noise(steps, n);
	free(steps);
	return noise;
}
