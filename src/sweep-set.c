/*
 * A sweep read back: the result set of a sweep record (its points as the
 * runs, its axes in the set's sweep) made again into the sweep_result that
 * sweep-out.c's writers print and draw, so that "report" redraws a sweep
 * with the very code that drew it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "options.h"
#include "settings.h"
#include "phase.h"
#include "resultset.h"
#include "sweep.h"
#include "sysinfo.h"
#include "units.h"

/* The rates a run of the set measured, into res. */
static void
rates_into(const struct rs_run *run, struct run_result *res)
{
	int	id;

	for (id = 0; id < PH_COUNT; id++) {
		if (run->col[RS_RATE(id)].state != RS_VALUE)
			continue;
		res->ph[id].ran = 1;
		res->ph[id].rate = run->col[RS_RATE(id)].v;
	}
}

int
sweep_from_set(const struct result_set *rs, struct sweep_readback *b,
    char **cause)
{
	const struct rs_sweep	*x = rs->sweep;
	struct sweep_result	*r = &b->r;
	const struct rs_run	*run;
	struct sweep_point	*pt;
	char			 s1[32], s2[32];
	int			 p, i, n;

	memset(b, 0, sizeof(*b));
	if (x == NULL)
		return errorf(cause, "%s: not a sweep record", rs->file);
	settings_defaults(&b->opt);
	b->opt.dir = rs->set.dir != NULL ? rs->set.dir : rs->file;
	b->opt.ram = rs->set.ram;
	b->opt.phases = rs->set.phases;
	if (rs->set.cache == NULL ||
	    cache_mode_parse(rs->set.cache, &b->opt.cache, NULL) != 0)
		b->opt.cache = CACHE_MODE_KEEP;
	if (rs->set.target != NULL && strcmp(rs->set.target, "device") == 0)
		b->opt.device = rs->set.target_path;
	b->opt.direct = rs->set.direct != NULL &&
	    strcmp(rs->set.direct, "yes") == 0;
	b->sys.dir = rs->set.dir;
	b->sys.fs_type = rs->set.fs_type;
	r->opt = &b->opt;
	r->sys = &b->sys;
	r->nsizes = x->nsizes;
	memcpy(r->sizes, x->sizes, (size_t)x->nsizes * sizeof(*x->sizes));
	r->nchunks = x->nchunks;
	memcpy(r->chunks, x->chunks, (size_t)x->nchunks * sizeof(*x->chunks));
	r->njobs = x->njobs;
	memcpy(r->jobs, x->jobs, (size_t)x->njobs * sizeof(*x->jobs));
	r->nseekers = 1;
	if (x->nseekers > 0) {
		r->nseekers = x->nseekers;
		memcpy(r->seekers, x->seekers, (size_t)x->nseekers *
		    sizeof(*x->seekers));
	}
	r->nfiles = 1;
	if (x->nfiles > 0) {
		r->nfiles = x->nfiles;
		memcpy(r->files, x->files, (size_t)x->nfiles *
		    sizeof(*x->files));
		b->opt.files_n = x->files[0];
		b->opt.files_max = x->files_max;
		b->opt.files_min = x->files_min;
		b->opt.files_dirs = x->files_dirs;
		b->opt.files_given = 1;
	}
	r->capped = x->capped;
	r->knee_pct = x->knee_pct;
	r->max_time = x->max_time;
	r->stopped = x->stopped;
	r->repeat = x->repeat;
	r->min_time = x->min_time;
	for (i = 0, n = 0; i < rs->nruns; i++)
		n += rs->runs[i].repeat == 0;
	if (n > sweep_npoints(r))
		return errorf(cause, "%s: %d points, more than its %d sizes, "
		    "%d chunks, %d job counts, %d seeker counts and %d file "
		    "counts make", rs->file, n, r->nsizes, r->nchunks,
		    sweep_dim_len(r, SWEEP_JOBS),
		    sweep_dim_len(r, SWEEP_SEEKERS),
		    sweep_dim_len(r, SWEEP_FILES));
	r->npoints = n;
	r->points = xcalloc((size_t)r->npoints, sizeof(*r->points));
	for (i = 0, p = -1; i < rs->nruns; i++) {
		int	at[SWEEP_DIMS], d, rest;

		run = &rs->runs[i];
		if (run->repeat > 0) {
			/* A later run of the point before it. */
			if (p < 0) {
				sweep_readback_free(b);
				return errorf(cause, "%s:%d: a later run before "
				    "any point", rs->file, run->line);
			}
			pt = &r->points[p];
			pt->more = xrealloc(pt->more, (size_t)(pt->nmore + 1) *
			    sizeof(*pt->more));
			memset(&pt->more[pt->nmore], 0, sizeof(*pt->more));
			rates_into(run, &pt->more[pt->nmore++]);
			continue;
		}
		rest = ++p;
		pt = &r->points[p];
		pt->imprecise = run->imprecise;
		/* The point p must be the one the sweep ran p-th. */
		for (d = SWEEP_DIMS - 1; d >= 0; d--) {
			at[d] = rest % sweep_dim_len(r, d);
			rest /= sweep_dim_len(r, d);
		}
		pt->size = sweep_dim_value(r, SWEEP_SIZE, at[SWEEP_SIZE]);
		pt->chunk = sweep_dim_value(r, SWEEP_CHUNK, at[SWEEP_CHUNK]);
		pt->jobs = (int)sweep_dim_value(r, SWEEP_JOBS, at[SWEEP_JOBS]);
		pt->seekers = (int)sweep_dim_value(r, SWEEP_SEEKERS,
		    at[SWEEP_SEEKERS]);
		pt->files = sweep_dim_value(r, SWEEP_FILES, at[SWEEP_FILES]);
		if (run->size != pt->size || run->chunk != pt->chunk ||
		    run->jobs != pt->jobs || run->seekers != pt->seekers ||
		    run->files != pt->files) {
			units_size_short(s1, sizeof(s1), pt->size);
			units_chunk(s2, sizeof(s2), pt->chunk);
			errorf(cause, "%s:%d: point %d is not the one the sweep "
			    "runs there (%s, chunk %s, -j %d)", rs->file,
			    run->line, p + 1, s1, s2, pt->jobs);
			sweep_readback_free(b);
			return -1;
		}
		rates_into(run, &pt->res);
	}
	return 0;
}

void
sweep_readback_free(struct sweep_readback *b)
{
	int	p;

	for (p = 0; b->r.points != NULL && p < b->r.npoints; p++)
		free(b->r.points[p].more);
	free(b->r.points);
	memset(b, 0, sizeof(*b));
}
