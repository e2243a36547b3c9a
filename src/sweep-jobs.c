/*
 * sweep --jobs: concurrency as the sweep's third axis.  The tables by job
 * count, the concurrency knees (the job count beyond which more workers
 * raise the aggregate by less than the threshold) in words and in the
 * record, and the plot of the aggregate against the job count with the
 * knee marked.  Pure formatting, like sweep-out.c.
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

static int
selected(const struct sweep_result *r, int id)
{
	return (r->opt->phases & (1u << id)) != 0;
}

/* The rates of phase id at size i and chunk k across the job counts. */
static void
jobs_series(const struct sweep_result *r, enum phase_id id, int i, int k,
    double *v)
{
	int	j;

	for (j = 0; j < r->njobs; j++)
		v[j] = sweep_rate_jobs(r, id, i, k, j);
}

void
sweep_jobs_print_tables(FILE *f, const struct sweep_result *r)
{
	const struct phase	*ph;
	char			 buf[32], unit[32];
	double			 v;
	int			 id, i, k, j;

	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		ph = phase_table[id];
		for (k = 0; k < r->nchunks; k++) {
			units_chunk(buf, sizeof(buf), r->chunks[k]);
			fprintf(f, "%s, %s, chunk %s, by jobs (the aggregate)\n",
			    ph->words, phase_unit(ph, UNIT_TABLE, unit,
			    sizeof(unit)), buf);
			fprintf(f, "%8s", "size");
			for (j = 0; j < r->njobs; j++) {
				snprintf(buf, sizeof(buf), "-j %d", r->jobs[j]);
				fprintf(f, " %10s", buf);
			}
			fputc('\n', f);
			for (i = 0; i < r->nsizes; i++) {
				units_size_short(buf, sizeof(buf), r->sizes[i]);
				fprintf(f, "%8s", buf);
				for (j = 0; j < r->njobs; j++) {
					v = sweep_rate_jobs(r, id, i, k, j);
					if (isnan(v))
						fprintf(f, " %10s", "-");
					else if (ph->flags & PHASE_OPS)
						fprintf(f, " %10.1f", v);
					else
						fprintf(f, " %10lld",
						    units_kps(v));
				}
				fputc('\n', f);
			}
			fputc('\n', f);
		}
	}
}

/* Call fn for each concurrency knee, in the order they are printed. */
static int
each_knee(const struct sweep_result *r,
    void (*fn)(void *, enum phase_id, int i, int k, int j, double gain),
    void *arg)
{
	double	v[SWEEP_MAX_JOBS], gain;
	int	id, i, k, j, n = 0;

	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		for (k = 0; k < r->nchunks; k++)
			for (i = 0; i < r->nsizes; i++) {
				jobs_series(r, id, i, k, v);
				if ((j = knee_jobs(v, r->njobs, r->knee_pct,
				    &gain)) < 0)
					continue;
				fn(arg, id, i, k, j, gain);
				n++;
			}
	}
	return n;
}

struct print_arg {
	FILE				*f;
	const struct sweep_result	*r;
};

static void
print_one(void *arg, enum phase_id id, int i, int k, int j, double gain)
{
	struct print_arg	*pa = arg;
	char			 line[256];

	knee_jobs_format(line, sizeof(line), phase_id_name(id),
	    pa->r->sizes[i], pa->r->chunks[k], pa->r->jobs[j], gain,
	    pa->r->knee_pct);
	fprintf(pa->f, "  %s\n", line);
}

void
sweep_jobs_print_knees(FILE *f, const struct sweep_result *r)
{
	struct print_arg	pa = { f, r };

	fprintf(f, "Concurrency knees (more workers add less than %.0f%%):\n",
	    r->knee_pct);
	if (each_knee(r, print_one, &pa) == 0)
		fprintf(f, "  none: the aggregate still rises at -j %d\n",
		    r->jobs[r->njobs - 1]);
}

struct json_arg {
	struct json			*j;
	const struct sweep_result	*r;
};

static void
json_one(void *arg, enum phase_id id, int i, int k, int j, double gain)
{
	struct json_arg	*ja = arg;
	char		 line[256];

	knee_jobs_format(line, sizeof(line), phase_id_name(id),
	    ja->r->sizes[i], ja->r->chunks[k], ja->r->jobs[j], gain,
	    ja->r->knee_pct);
	json_object_start(ja->j, NULL);
	json_string(ja->j, "phase", phase_id_name(id));
	json_uint(ja->j, "size_bytes", ja->r->sizes[i]);
	json_uint(ja->j, "chunk", ja->r->chunks[k]);
	json_int(ja->j, "jobs", ja->r->jobs[j]);
	json_double(ja->j, "gain_beyond_pct", gain);
	json_string(ja->j, "text", line);
	json_object_end(ja->j);
}

void
sweep_jobs_write_knees(struct json *j, const struct sweep_result *r)
{
	struct json_arg	ja = { j, r };

	json_array_start(j, "concurrency_knees");
	if (r->njobs > 1)
		each_knee(r, json_one, &ja);
	json_array_end(j);
}

/* The x ticks of the plot by jobs: the job count. */
static int
jobs_tick(char *buf, size_t len, uint64_t jobs)
{
	return snprintf(buf, len, "%llu", (unsigned long long)jobs);
}

int
sweep_jobs_write_svg(FILE *f, const struct sweep_result *r)
{
	struct svg_series	*s;
	struct svg_plot		 p;
	uint64_t		 xs[SWEEP_MAX_JOBS];
	double			*v, gain;
	char			 title[512], sz[32], (*words)[2][200];
	int			 id, k, j, i, n = 0, rc;

	/* The largest size that has a measured point stands for the sweep. */
	for (i = r->nsizes - 1; i > 0; i--)
		if ((i * r->nchunks) * r->njobs < r->npoints)
			break;
	s = calloc(PH_COUNT * SWEEP_MAX_CHUNKS, sizeof(*s));
	v = calloc(PH_COUNT * SWEEP_MAX_CHUNKS * SWEEP_MAX_JOBS, sizeof(*v));
	words = calloc(PH_COUNT * SWEEP_MAX_CHUNKS, sizeof(*words));
	if (s == NULL || v == NULL || words == NULL) {
		free(s);
		free(v);
		free(words);
		errno = ENOMEM;
		return -1;
	}
	for (j = 0; j < r->njobs; j++)
		xs[j] = (uint64_t)r->jobs[j];
	for (id = 0; id < PH_COUNT; id++) {
		if (!selected(r, id))
			continue;
		for (k = 0; k < r->nchunks; k++, n++) {
			s[n].phase = id;
			s[n].chunk = r->chunks[k];
			s[n].rate = v + n * SWEEP_MAX_JOBS;
			jobs_series(r, id, i, k, v + n * SWEEP_MAX_JOBS);
			if ((s[n].mark = knee_jobs(s[n].rate, r->njobs,
			    r->knee_pct, &gain)) < 0)
				continue;
			knee_jobs_format(words[n][0], sizeof(words[n][0]),
			    phase_id_name(id), r->sizes[i], r->chunks[k],
			    r->jobs[s[n].mark], gain, r->knee_pct);
			snprintf(words[n][1], sizeof(words[n][1]),
			    "knee: %d jobs", r->jobs[s[n].mark]);
			s[n].mark_title = words[n][0];
			s[n].mark_label = words[n][1];
		}
	}
	units_size_short(sz, sizeof(sz), r->sizes[i]);
	snprintf(title, sizeof(title), "bonnie-ng sweep of %s%s%s%s by jobs, "
	    "%s per worker, cache %s",
	    r->sys && r->sys->dir ? r->sys->dir : r->opt->dir,
	    r->sys && r->sys->fs_type ? " (" : "",
	    r->sys && r->sys->fs_type ? r->sys->fs_type : "",
	    r->sys && r->sys->fs_type ? ")" : "", sz,
	    cache_mode_name(r->opt->cache));
	memset(&p, 0, sizeof(p));
	p.title = title;
	p.nsizes = r->njobs;
	p.sizes = xs;
	p.x_label = "workers, -j (the aggregate)";
	p.x_tick = jobs_tick;
	p.nseries = n;
	p.series = s;
	rc = svg_plot_write(f, &p);
	free(s);
	free(v);
	free(words);
	return rc;
}
