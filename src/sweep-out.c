/*
 * What "bonnie-ng sweep" prints and writes: the tables, the knees in
 * words, the JSON record (schema bonnie-ng-sweep/1) and the SVG plot.
 * Pure formatting: nothing here reads a clock or runs anything.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "json.h"
#include "knee.h"
#include "phase.h"
#include "record.h"
#include "signals.h"
#include "stats.h"
#include "svg-plot.h"
#include "sweep.h"
#include "sysinfo.h"
#include "units.h"

#ifndef BONNIE_NG_VERSION
#define BONNIE_NG_VERSION "0.0.0"
#endif

#define MAX_KNEES	SWEEP_MAX_SIZES

static int
selected(const struct sweep_result *r, int id)
{
	return (r->opt->phases & (1u << id)) != 0;
}

/* The rates of one phase and chunk across the sizes, into v. */
static void
size_series(const struct sweep_result *r, enum phase_id id, int k, double *v)
{
	int	i;

	for (i = 0; i < r->nsizes; i++)
		v[i] = sweep_rate(r, id, i, k);
}

/*
 * The knees of one phase and chunk that hold; returns how many (at most
 * max), and adds to *cand the candidates on the medians.
 */
static int
size_knees(const struct sweep_result *r, enum phase_id id, int k,
    double noise, struct knee *out, int max, int *cand)
{
	struct knee_sample	 s[SWEEP_MAX_SIZES];
	double			*store;
	int			 n, c, at[SWEEP_DIMS] = { 0 };

	at[SWEEP_CHUNK] = k;
	sweep_samples(r, id, at, SWEEP_SIZE, s, &store);
	n = knee_sizes_held(s, r->nsizes, r->knee_pct, noise, out, max, &c);
	free(store);
	if (cand != NULL)
		*cand += c;
	return n < max ? n : max;
}

/* The bad chunk sizes of one phase at size i that hold, likewise. */
static int
chunk_knees(const struct sweep_result *r, enum phase_id id, int i,
    double noise, struct knee_chunk *out, int max, int *cand)
{
	struct knee_sample	 s[SWEEP_MAX_CHUNKS];
	double			*store;
	int			 n, c, at[SWEEP_DIMS] = { 0 };

	at[SWEEP_SIZE] = i;
	sweep_samples(r, id, at, SWEEP_CHUNK, s, &store);
	n = knee_chunks_held(s, r->nchunks, r->knee_pct, noise, out, max, &c);
	free(store);
	if (cand != NULL)
		*cand += c;
	return n < max ? n : max;
}

/* The chunk cliffs of one phase at size i that hold, likewise. */
static int
chunk_cliffs(const struct sweep_result *r, enum phase_id id, int i,
    double noise, struct knee_cliff *out, int max, int *cand)
{
	struct knee_sample	 s[SWEEP_MAX_CHUNKS];
	double			*store;
	int			 n, c, at[SWEEP_DIMS] = { 0 };

	at[SWEEP_SIZE] = i;
	sweep_samples(r, id, at, SWEEP_CHUNK, s, &store);
	n = knee_chunk_cliffs_held(s, r->chunks, r->nchunks, r->knee_pct,
	    noise, out, max, &c);
	free(store);
	if (cand != NULL)
		*cand += c;
	return n < max ? n : max;
}

/* The directory the record names: the resolved path when known. */
static const char *
sweep_dir(const struct sweep_result *r)
{
	if (r->opt->device != NULL)
		return r->opt->device;
	return r->sys && r->sys->dir ? r->sys->dir : r->opt->dir;
}


void
sweep_print_head(FILE *f, const struct sweep_result *r)
{
	char	b1[32], b2[32];

	if (sweep_files_mode(r)) {
		units_files(b1, sizeof(b1), r->files[0]);
		units_files(b2, sizeof(b2), r->files[r->nfiles - 1]);
	} else {
		units_size_short(b1, sizeof(b1), r->sizes[0]);
		units_size_short(b2, sizeof(b2), r->sizes[r->nsizes - 1]);
	}
	fprintf(f, "bonnie-ng sweep of %s: %s %s to %s, %d of %d points, "
	    "cache %s\n\n", sweep_dir(r), sweep_files_mode(r) ?
	    "file counts" : "sizes", b1, b2, r->npoints, sweep_npoints(r),
	    sweep_cache_name(r));
}

void
sweep_print_tables(FILE *f, const struct sweep_result *r)
{
	const int	at[SWEEP_DIMS] = { 0 };
	char		title[128], unit[32];
	int		id;

	if (sweep_files_mode(r) || sweep_dim_len(r, SWEEP_JOBS) > 1) {
		sweep_axis_print_tables(f, r);
		return;
	}
	/* By seeker count the seeks phase, the others by size and chunk. */
	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id) || sweep_axis_seekers_take(r, id))
			continue;
		snprintf(title, sizeof(title), "%s, %s", phase_table[id]->words,
		    phase_unit(phase_table[id], UNIT_TABLE, unit,
		    sizeof(unit)));
		sweep_table(f, r, id, SWEEP_SIZE, SWEEP_CHUNK, at, title);
	}
	if (sweep_dim_len(r, SWEEP_SEEKERS) > 1)
		sweep_axis_print_tables(f, r);
}

void
sweep_print_knees(FILE *f, const struct sweep_result *r)
{
	struct knee		 kn[MAX_KNEES];
	struct knee_chunk	 kc[SWEEP_MAX_CHUNKS];
	struct knee_cliff	 cl[SWEEP_MAX_CHUNKS];
	char			 line[256];
	double			 noise;
	int			 id, i, k, j, n, found = 0, cand = 0;

	if (sweep_files_mode(r)) {
		/* One size and chunk: only the knees along the counts. */
		sweep_axis_print_knees(f, r);
		return;
	}
	fprintf(f, "Knees (a change of more than %.0f%% that stays, between "
	    "precise points that differ beyond their spread):\n",
	    r->knee_pct);
	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		noise = sweep_noise(r, id);
		for (k = 0; k < r->nchunks; k++) {
			n = size_knees(r, id, k, noise, kn, MAX_KNEES, &cand);
			for (j = 0; j < n; j++, found++) {
				knee_format(line, sizeof(line),
				    phase_id_name(id), r->chunks[k], &kn[j],
				    r->sizes[kn[j].from], r->sizes[kn[j].to],
				    r->opt->ram);
				fprintf(f, "  %s\n", line);
			}
		}
		for (i = 0; i < r->nsizes; i++) {
			n = chunk_knees(r, id, i, noise, kc, SWEEP_MAX_CHUNKS,
			    &cand);
			for (j = 0; j < n; j++, found++) {
				knee_chunk_format(line, sizeof(line),
				    phase_id_name(id), r->sizes[i], &kc[j],
				    r->chunks[kc[j].index],
				    r->chunks[kc[j].left],
				    r->chunks[kc[j].right]);
				fprintf(f, "  %s\n", line);
			}
			n = chunk_cliffs(r, id, i, noise, cl, SWEEP_MAX_CHUNKS,
			    &cand);
			for (j = 0; j < n; j++, found++) {
				knee_cliff_format(line, sizeof(line),
				    phase_id_name(id), r->sizes[i], &cl[j],
				    r->chunks[cl[j].from], r->chunks[cl[j].to]);
				fprintf(f, "  %s\n", line);
			}
		}
	}
	if (found == 0)
		fprintf(f, "  none\n");
	sweep_print_left_out(f, r, cand - found, "larger sizes, ");
	sweep_axis_print_knees(f, r);
}

/*
 * The options as a run record states them: the largest size, the smallest
 * chunk and the largest file count stand for the sweep, whose own ranges
 * are in "sweep".
 */
static void
write_options(struct json *j, const struct sweep_result *r)
{
	struct options	o = *r->opt;

	if (sweep_files_mode(r))
		o.files_n = r->files[r->nfiles - 1];
	o.size = o.size_asked = r->sizes[r->nsizes - 1];
	o.chunk = (size_t)r->chunks[0];
	o.repeat = 1;
	record_write_options(j, &o);
}

/* What only a sweep has: its sizes, chunks and limits. */
static void
write_sweep(struct json *j, const struct sweep_result *r)
{
	int	i;

	json_object_start(j, "sweep");
	json_array_start(j, "sizes");
	for (i = 0; i < r->nsizes; i++)
		json_uint(j, NULL, r->sizes[i]);
	json_array_end(j);
	json_array_start(j, "chunks");
	for (i = 0; i < r->nchunks; i++)
		json_uint(j, NULL, r->chunks[i]);
	json_array_end(j);
	json_array_start(j, "jobs");
	for (i = 0; i < (r->njobs > 0 ? r->njobs : 1); i++)
		json_int(j, NULL, r->njobs > 0 ? r->jobs[i] : 1);
	json_array_end(j);
	/* --seeker-counts: an axis of the seeks phase; absent without. */
	if (sweep_dim_value(r, SWEEP_SEEKERS, 0) > 0) {
		json_array_start(j, "seekers");
		for (i = 0; i < r->nseekers; i++)
			json_int(j, NULL, r->seekers[i]);
		json_array_end(j);
	}
	json_array_start(j, "files");
	for (i = 0; sweep_files_mode(r) && i < r->nfiles; i++)
		json_uint(j, NULL, r->files[i]);
	json_array_end(j);
	if (sweep_files_mode(r)) {
		json_uint(j, "files_max_bytes", r->opt->files_max);
		json_uint(j, "files_min_bytes", r->opt->files_min);
		json_uint(j, "files_dirs", r->opt->files_dirs);
	} else {
		json_null(j, "files_max_bytes");
		json_null(j, "files_min_bytes");
		json_null(j, "files_dirs");
	}
	json_bool(j, "capped", r->capped);
	json_int(j, "repeat", r->repeat > 1 ? r->repeat : 1);
	json_double(j, "min_time_s", r->min_time);
	json_double(j, "precision_s", sweep_precision_bound(r));
	json_double(j, "knee_pct", r->knee_pct);
	if (r->max_time > 0)
		json_uint(j, "max_time_s", r->max_time);
	else
		json_null(j, "max_time_s");
	json_object_end(j);
}

/* What one run of a point measured: its seed, phases, end and space. */
static void
write_run(struct json *j, const struct run_result *res)
{
	const struct run_error	*e = &res->err;
	int			 id;

	json_uint(j, "seed", res->seed);
	json_string(j, "start",
	    res->start_utc[0] != '\0' ? res->start_utc : NULL);
	json_object_start(j, "phases");
	for (id = 0; id < PH_COUNT; id++)
		record_write_run_phase(j, phase_id_name(id), id, res);
	json_object_end(j);
	if (res->interrupted > 0)
		json_string(j, "interrupted", signal_name(res->interrupted));
	else
		json_null(j, "interrupted");
	if (e->set) {
		json_object_start(j, "error");
		json_string(j, "phase", e->phase);
		json_string(j, "path", e->path[0] != '\0' ? e->path : NULL);
		json_int_or_null(j, "offset", e->offset);
		json_int_or_null(j, "errno", e->errnum > 0 ? e->errnum : -1);
		json_string(j, "message", e->message);
		json_object_end(j);
	} else
		json_null(j, "error");
	record_write_space(j, res);
}

/*
 * What the tables show of a point, per phase measured: the runs, their
 * median rate, spread, range and time in all, and whether that time
 * reached the precision bound.
 */
static void
write_stats(struct json *j, const struct sweep_point *pt)
{
	struct col_stats	st;
	double			v[SWEEP_MAX_RUNS];
	int			id, n;

	json_object_start(j, "stats");
	for (id = 0; id < PH_COUNT; id++) {
		if ((n = sweep_point_rates(pt, id, v)) == 0)
			continue;
		stats_compute(v, n, &st);
		json_object_start(j, phase_id_name(id));
		json_int(j, "runs", n);
		json_double(j, "median", st.median);
		if (n >= 2)
			json_double(j, "cv", st.cv);
		else
			json_null(j, "cv");
		json_double(j, "min", st.min);
		json_double(j, "max", st.max);
		json_double(j, "elapsed_s", sweep_point_seconds(pt, id));
		json_bool(j, "precise", !(pt->imprecise & (1u << id)));
		json_object_end(j);
	}
	json_object_end(j);
}

/*
 * A point: its place on the axes, its first run's fields as a point of
 * one run has them, its later runs in "more_runs", and "stats".
 */
static void
write_point(struct json *j, const struct sweep_point *pt)
{
	int	k;

	json_object_start(j, NULL);
	json_uint(j, "size_bytes", pt->size);
	json_uint(j, "chunk", pt->chunk);
	json_int(j, "jobs", pt->jobs > 0 ? pt->jobs : 1);
	if (pt->seekers > 0)
		json_int(j, "seekers", pt->seekers);
	if (pt->files > 0)
		json_uint(j, "files", pt->files);
	else
		json_null(j, "files");
	write_run(j, &pt->res);
	json_array_start(j, "more_runs");
	for (k = 0; k < pt->nmore; k++) {
		json_object_start(j, NULL);
		write_run(j, &pt->more[k]);
		json_object_end(j);
	}
	json_array_end(j);
	write_stats(j, pt);
	json_object_end(j);
}

/* The knees, in the same order and words as sweep_print_knees(). */
static void
write_knees(struct json *j, const struct sweep_result *r)
{
	struct knee		 kn[MAX_KNEES];
	struct knee_chunk	 kc[SWEEP_MAX_CHUNKS];
	struct knee_cliff	 cl[SWEEP_MAX_CHUNKS];
	char			 line[256];
	double			 noise[PH_COUNT];
	int			 id, i, k, m, n;

	json_array_start(j, "knees");
	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		noise[id] = sweep_noise(r, id);
		for (k = 0; k < r->nchunks; k++) {
			n = size_knees(r, id, k, noise[id], kn, MAX_KNEES,
			    NULL);
			for (m = 0; m < n; m++) {
				knee_format(line, sizeof(line),
				    phase_id_name(id), r->chunks[k], &kn[m],
				    r->sizes[kn[m].from], r->sizes[kn[m].to],
				    r->opt->ram);
				json_object_start(j, NULL);
				json_string(j, "phase", phase_id_name(id));
				json_uint(j, "chunk", r->chunks[k]);
				json_string(j, "direction",
				    kn[m].dir == KNEE_FALLS ? "falls" :
				    "rises");
				json_double(j, "pct", kn[m].pct);
				json_uint(j, "from_bytes",
				    r->sizes[kn[m].from]);
				json_uint(j, "to_bytes", r->sizes[kn[m].to]);
				json_double(j, "before", kn[m].before);
				json_double(j, "after", kn[m].after);
				json_int(j, "confirmed_by", kn[m].confirmed);
				json_bool(j, "single_run", kn[m].single);
				json_string(j, "text", line);
				json_object_end(j);
			}
		}
	}
	json_array_end(j);

	json_array_start(j, "bad_chunks");
	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		for (i = 0; i < r->nsizes; i++) {
			n = chunk_knees(r, id, i, noise[id], kc,
			    SWEEP_MAX_CHUNKS, NULL);
			for (m = 0; m < n; m++) {
				knee_chunk_format(line, sizeof(line),
				    phase_id_name(id), r->sizes[i], &kc[m],
				    r->chunks[kc[m].index],
				    r->chunks[kc[m].left],
				    r->chunks[kc[m].right]);
				json_object_start(j, NULL);
				json_string(j, "phase", phase_id_name(id));
				json_uint(j, "size_bytes", r->sizes[i]);
				json_uint(j, "chunk", r->chunks[kc[m].index]);
				json_double(j, "pct", kc[m].pct);
				json_bool(j, "single_run", kc[m].single);
				json_string(j, "text", line);
				json_object_end(j);
			}
		}
	}
	json_array_end(j);

	json_array_start(j, "chunk_cliffs");
	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		for (i = 0; i < r->nsizes; i++) {
			n = chunk_cliffs(r, id, i, noise[id], cl,
			    SWEEP_MAX_CHUNKS, NULL);
			for (m = 0; m < n; m++) {
				knee_cliff_format(line, sizeof(line),
				    phase_id_name(id), r->sizes[i], &cl[m],
				    r->chunks[cl[m].from], r->chunks[cl[m].to]);
				json_object_start(j, NULL);
				json_string(j, "phase", phase_id_name(id));
				json_uint(j, "size_bytes", r->sizes[i]);
				json_uint(j, "from_chunk", r->chunks[cl[m].from]);
				json_uint(j, "to_chunk", r->chunks[cl[m].to]);
				json_double(j, "calls_ratio", cl[m].ratio);
				json_bool(j, "single_run", cl[m].single);
				json_string(j, "text", line);
				json_object_end(j);
			}
		}
	}
	json_array_end(j);
	sweep_axis_write_knees(j, r);
}

int
sweep_write_json(FILE *f, const struct sweep_result *r)
{
	struct json	j;
	int		i;

	json_init(&j, f, 1);
	json_object_start(&j, NULL);
	json_string(&j, "schema", SWEEP_SCHEMA);
	json_string(&j, "tool", "bonnie-ng");
	json_string(&j, "version", BONNIE_NG_VERSION);
	json_array_start(&j, "command");
	json_string(&j, NULL, "bonnie-ng");
	for (i = 0; i < r->opt->argc; i++)
		json_string(&j, NULL, r->opt->argv[i]);
	json_array_end(&j);
	json_string(&j, "start", r->start_utc[0] != '\0' ? r->start_utc : NULL);
	record_write_system(&j, r->sys);
	record_write_target(&j, r->opt, r->sys);
	write_options(&j, r);
	record_write_memory(&j, r->opt, r->sys, r->lock_held);
	write_sweep(&j, r);
	json_array_start(&j, "points");
	for (i = 0; i < r->npoints; i++)
		write_point(&j, &r->points[i]);
	json_array_end(&j);
	write_knees(&j, r);
	json_string(&j, "stopped", r->stopped != NULL ? r->stopped :
	    r->running ? "unfinished" : NULL);
	json_object_end(&j);
	return json_finish(&j);
}

/* The colours of the sweeps overlaid, one per source, in turn. */
static const char *const source_colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"
};
#define NSOURCE_COLOURS	\
	(int)(sizeof(source_colours) / sizeof(source_colours[0]))

/* Room for the lines of one sweep, and their rates, knees and labels. */
struct plot_room {
	struct svg_series	*s;
	double			*v;
	struct knee		*kn;
	char			(*label)[200];
	int			 n;
};

#define SERIES_MAX	(PH_COUNT * SWEEP_MAX_CHUNKS)

static int
room_alloc(struct plot_room *pr, int sweeps)
{
	size_t	m = (size_t)sweeps * SERIES_MAX;

	memset(pr, 0, sizeof(*pr));
	pr->s = calloc(m, sizeof(*pr->s));
	pr->v = calloc(m * SWEEP_MAX_SIZES, sizeof(*pr->v));
	pr->kn = calloc(m * MAX_KNEES, sizeof(*pr->kn));
	pr->label = calloc(m, sizeof(*pr->label));
	if (pr->s != NULL && pr->v != NULL && pr->kn != NULL &&
	    pr->label != NULL)
		return 0;
	free(pr->s);
	free(pr->v);
	free(pr->kn);
	free(pr->label);
	errno = ENOMEM;
	return -1;
}

static void
room_free(struct plot_room *pr)
{
	free(pr->s);
	free(pr->v);
	free(pr->kn);
	free(pr->label);
}

/*
 * The lines of sweep r, one per phase and chunk, with its knees; of
 * several sweeps (source, from 1), in the source's colour and named by
 * its number.
 */
static void
add_lines(struct plot_room *pr, const struct sweep_result *r,
    const char *colour, int source)
{
	struct svg_series	*s;
	char			 c[32];
	double			 noise;
	int			 id, k;

	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		noise = sweep_noise(r, id);
		for (k = 0; k < r->nchunks; k++, pr->n++) {
			s = &pr->s[pr->n];
			s->phase = id;
			s->chunk = r->chunks[k];
			s->rate = pr->v + pr->n * SWEEP_MAX_SIZES;
			size_series(r, id, k, pr->v + pr->n * SWEEP_MAX_SIZES);
			s->knees = pr->kn + pr->n * MAX_KNEES;
			s->nknees = size_knees(r, id, k, noise, pr->kn +
			    pr->n * MAX_KNEES, MAX_KNEES, NULL);
			if (source == 0)
				continue;
			units_chunk(c, sizeof(c), r->chunks[k]);
			snprintf(pr->label[pr->n], sizeof(pr->label[0]),
			    "sweep %d, chunk %s", source, c);
			s->label = pr->label[pr->n];
			s->colour = colour;
		}
	}
}

int
sweep_write_svg(FILE *f, const struct sweep_result *r)
{
	struct plot_room	 pr;
	struct svg_plot		 p;
	char			 title[512];
	int			 rc;

	if (sweep_files_mode(r) || sweep_dim_len(r, SWEEP_JOBS) > 1 ||
	    sweep_dim_len(r, SWEEP_SEEKERS) > 1)
		return sweep_axis_write_svg(f, r);
	if (room_alloc(&pr, 1) == -1)
		return -1;
	add_lines(&pr, r, NULL, 0);
	memset(&p, 0, sizeof(p));
	snprintf(title, sizeof(title), "bonnie-ng sweep of %s%s%s%s, cache %s",
	    sweep_dir(r),
	    r->sys && r->sys->fs_type ? " (" : "",
	    r->sys && r->sys->fs_type ? r->sys->fs_type : "",
	    r->sys && r->sys->fs_type ? ")" : "",
	    sweep_cache_name(r));
	p.title = title;
	p.nsizes = r->nsizes;
	p.sizes = r->sizes;
	p.ram = r->opt->ram;
	p.nseries = pr.n;
	p.series = pr.s;
	rc = svg_plot_write(f, &p);
	room_free(&pr);
	return rc;
}

int
sweep_write_svg_overlay(FILE *f, const struct sweep_result *const *rs,
    const char *const *names, int n)
{
	struct plot_room	 pr;
	struct svg_plot		 p;
	struct svg_key		*keys;
	char			 title[128], (*words)[2100];
	int			 k, rc;

	if (room_alloc(&pr, n) == -1)
		return -1;
	keys = calloc((size_t)n, sizeof(*keys));
	words = calloc((size_t)n, sizeof(*words));
	if (keys == NULL || words == NULL) {
		free(keys);
		free(words);
		room_free(&pr);
		errno = ENOMEM;
		return -1;
	}
	snprintf(title, sizeof(title), "bonnie-ng: %d sweeps overlaid, a "
	    "colour per sweep, a dash per chunk", n);
	for (k = 0; k < n; k++) {
		add_lines(&pr, rs[k], source_colours[k % NSOURCE_COLOURS],
		    k + 1);
		snprintf(words[k], sizeof(words[k]), "sweep %d: %s", k + 1,
		    names[k]);
		keys[k].colour = source_colours[k % NSOURCE_COLOURS];
		keys[k].text = words[k];
	}
	memset(&p, 0, sizeof(p));
	p.title = title;
	p.by_phase = 1;
	p.nkeys = n;
	p.keys = keys;
	p.nsizes = rs[0]->nsizes;
	p.sizes = rs[0]->sizes;
	p.ram = rs[0]->opt->ram;
	p.nseries = pr.n;
	p.series = pr.s;
	rc = svg_plot_write(f, &p);
	room_free(&pr);
	free(keys);
	free(words);
	return rc;
}
