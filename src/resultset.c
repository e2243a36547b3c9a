/*
 * Result sets: the shape every result file is read into, its column names
 * and how a value in it is printed.  Reading the files is rs-read.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "phase.h"
#include "resultset.h"
#include "units.h"

static const char *const kind_suffix[] = { "", "_cpu", "_lat" };

/* The column names, made from phase-list.h (its names are the phases'). */
static const char *const col_names[RS_NCOLS] = {
#define PHASE(id, sym, on)	#sym,
#include "phase-list.h"
#undef PHASE
#define PHASE(id, sym, on)	#sym "_cpu",
#include "phase-list.h"
#undef PHASE
#define PHASE(id, sym, on)	#sym "_lat",
#include "phase-list.h"
#undef PHASE
};

const char *
rs_col_name(int col)
{
	if (col < 0 || col >= RS_NCOLS)
		return NULL;
	return col_names[col];
}

int
rs_col_by_name(const char *name)
{
	size_t	n;
	int	kind, id;

	for (kind = RS_KIND_LAT; kind >= RS_KIND_RATE; kind--) {
		n = strlen(name);
		if (n < strlen(kind_suffix[kind]) || strcmp(name + n -
		    strlen(kind_suffix[kind]), kind_suffix[kind]) != 0)
			continue;
		n -= strlen(kind_suffix[kind]);
		for (id = 0; id < PH_COUNT; id++)
			if (strlen(phase_table[id]->name) == n &&
			    strncmp(phase_table[id]->name, name, n) == 0)
				return RS_COL(kind, id);
		return -1;
	}
	return -1;
}

int
rs_col_lower_better(int col)
{
	return RS_KIND(col) != RS_KIND_RATE;
}

enum rs_state
rs_cpu_cost(const struct rs_run *r, int cpu_col, double *cost)
{
	const struct rs_value	*cpu = &r->col[cpu_col];
	const struct rs_value	*rate = &r->col[RS_RATE(RS_PHASE(cpu_col))];

	*cost = 0;
	if (RS_KIND(cpu_col) != RS_KIND_CPU || cpu->state == RS_NONE ||
	    rate->state == RS_NONE)
		return RS_NONE;
	if (cpu->state == RS_UNMEASURABLE || rate->state == RS_UNMEASURABLE)
		return RS_UNMEASURABLE;
	if (!(rate->v > 0))
		return RS_NONE;
	if (phase_table[RS_PHASE(cpu_col)]->flags & PHASE_OPS)
		*cost = cpu->v / 100 * 1000 / rate->v;
	else	/* K/sec: a GiB is 1048576 K. */
		*cost = cpu->v / 100 * 1048576 / rate->v;
	return RS_VALUE;
}

const char *
rs_cost_unit(int cpu_col)
{
	const struct phase	*p = phase_table[RS_PHASE(cpu_col)];

	return p->flags & PHASE_OPS ? p->cost_unit : "s/GiB";
}

struct rs_run *
rs_add_run(struct result_set *rs, const char *label, int line)
{
	struct rs_run	*r;

	rs->runs = xrealloc(rs->runs, sizeof(*rs->runs) *
	    (size_t)(rs->nruns + 1));
	r = &rs->runs[rs->nruns++];
	memset(r, 0, sizeof(*r));
	r->label = xstrdup(label != NULL ? label : "");
	r->line = line;
	return r;
}

void
rs_append(struct result_set *into, struct result_set *from)
{
	into->runs = xrealloc(into->runs, sizeof(*into->runs) *
	    (size_t)(into->nruns + from->nruns + 1));
	memcpy(&into->runs[into->nruns], from->runs, sizeof(*from->runs) *
	    (size_t)from->nruns);
	into->nruns += from->nruns;
	free(from->runs);
	from->runs = NULL;
	from->nruns = 0;
}

void
rs_free(struct result_set *rs)
{
	struct rs_settings	*s = &rs->set;
	int			 i;

	for (i = 0; i < rs->nruns; i++) {
		free(rs->runs[i].label);
		free(rs->runs[i].failed);
		rs_kernel_free(&rs->runs[i]);
	}
	free(rs->runs);
	free(rs->file);
	free(s->cache);
	free(s->direct);
	free(s->verified);
	free(s->hostname);
	free(s->os);
	free(s->kernel);
	free(s->cpu_model);
	free(s->fs_type);
	free(s->mount_options);
	free(s->device);
	free(s->target);
	free(s->target_path);
	free(s->scheduler);
	free(s->super_options);
	free(s->read_ahead);
	free(s->vm_dirty);
	free(s->seeker_mode);
	free(s->seed);
	free(s->verify);
	free(s->version);
	free(s->dir);
	for (i = 0; i < SET_COUNT; i++)
		free(s->value[i]);
	for (i = 0; i < SETTINGS_PHASE_MAX; i++)
		free(s->phase_value[i]);
	if (rs->sweep != NULL) {
		free(rs->sweep->sizes);
		free(rs->sweep->chunks);
		free(rs->sweep->jobs);
		free(rs->sweep->files);
		free(rs->sweep->seekers);
		free(rs->sweep->stopped);
		free(rs->sweep);
	}
	memset(rs, 0, sizeof(*rs));
}

void
rs_format_value(char *buf, size_t len, int col, enum rs_state state, double v)
{
	if (state == RS_NONE)
		snprintf(buf, len, "-");
	else if (state == RS_UNMEASURABLE)
		snprintf(buf, len, "%s",
		    RS_KIND(col) == RS_KIND_CPU ? "+++" : "+++++");
	else if (RS_KIND(col) == RS_KIND_LAT)
		units_latency(buf, len, v);
	else if (RS_KIND(col) == RS_KIND_CPU ||
	    (phase_table[RS_PHASE(col)]->flags & PHASE_OPS))
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%lld", units_kps(v));
}

int
rs_on_device(const struct result_set *rs)
{
	return rs->set.target != NULL && strcmp(rs->set.target, "device") == 0;
}

const char *
rs_fs_shown(const struct result_set *rs)
{
	if (rs_on_device(rs))
		return "none (a block device)";
	return rs->set.fs_type != NULL && *rs->set.fs_type != '\0' ?
	    rs->set.fs_type : NULL;
}
