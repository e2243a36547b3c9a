/*
 * The text report of bonnie++ 2.00, for bonnie-ng pp: the same blocks and
 * columns, so that what reads bonnie++'s report reads this one, with
 * bonnie-ng's figures (never "+++++": a short phase is measured all the
 * same, and its warning is on standard error).  Pure formatting.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "phase.h"
#include "record.h"
#include "report.h"
#include "text.h"
#include "units.h"

/* The columns before the first pair, and the width of a pair's fields. */
#define PP_LEAD		19
#define PP_LAT_LEAD	17

static const char pp_io_title[] =
    "------Sequential Output------ --Sequential Input- --Random-";
static const char pp_io_columns[] =
    "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--";
static const char pp_files_title[] =
    "------Sequential Create------ --------Random Create--------";
static const char pp_files_columns[] =
    "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--";

static void
pp_version(FILE *f, const char *title)
{
	fprintf(f, "Version %-11s %s\n", "ng-" BONNIE_NG_VERSION, title);
}

static void
pp_units(FILE *f, const char *lead, int right)
{
	int	i;

	fprintf(f, right ? "%*s" : "%-*s", PP_LEAD, lead);
	for (i = 0; i < 6; i++)
		fprintf(f, " %5s %3s", "/sec", "%CP");
	fputc('\n', f);
}

/* One " /sec %CP" pair, blank when the phase did not run. */
static void
pp_pair(FILE *f, const struct phase_result *p, enum phase_id id)
{
	char	v[32], cpu[32];

	if (!p->ran) {
		fprintf(f, " %5s %3s", "", "");
		return;
	}
	units_pp_rate(v, sizeof(v), p->rate,
	    !(phase_table[id]->flags & PHASE_OPS));
	units_cpu(cpu, sizeof(cpu), p->cpu_pct, p->cpu_doubtful, 0);
	fprintf(f, " %5s %3s", v, cpu);
}

/* The worst-case latency of each column, as bonnie++'s Latency line. */
static void
pp_latency(FILE *f, const struct phase_result *ph, const enum phase_id *ids)
{
	const struct phase_result	*p;
	char				 d[32];
	int				 i;

	fprintf(f, "%-*s", PP_LAT_LEAD, "Latency");
	for (i = 0; i < 6; i++) {
		p = &ph[ids[i]];
		d[0] = '\0';
		if (p->ran && p->lat.count > 0 && p->lat.max > 0)
			units_latency(d, sizeof(d), p->lat.max);
		fprintf(f, " %9s", d);
	}
	fputc('\n', f);
}

static void
pp_io_block(FILE *f, const struct options *o, const struct run_result *run)
{
	char	size[32], name[8 * PP_LEAD + 1];
	int	i, w;

	pp_version(f, pp_io_title);
	fprintf(f, "%*s%s\n", PP_LEAD + 1, "", pp_io_columns);
	pp_units(f, "Name:Size etc", 0);
	/* The whole run's data: every worker's file. */
	units_size_csv(size, sizeof(size),
	    o->size * (uint64_t)(o->jobs > 1 ? o->jobs : 1));
	w = PP_LEAD - 1 - (int)strlen(size);
	text_cut(name, sizeof(name), o->label != NULL ? o->label : "",
	    w > 1 ? w : 1, 1);
	fprintf(f, "%s %s", name, size);
	for (i = 0; i < CLASSIC_NCOLS; i++)
		pp_pair(f, &run->ph[classic_columns[i]], classic_columns[i]);
	fputc('\n', f);
	pp_latency(f, run->ph, classic_columns);
}

static void
pp_files_block(FILE *f, const struct options *o, const struct run_result *run)
{
	char	spec[64], name[8 * PP_LEAD + 1];
	int	i;

	pp_version(f, pp_files_title);
	text_cut(name, sizeof(name), o->label != NULL ? o->label : "",
	    PP_LEAD, 1);
	fprintf(f, "%s %s\n", name, pp_files_columns);
	pp_units(f, o->files_max > 0 ? "files:max:min" : "files",
	    o->files_max == 0);
	report_files_spec(spec, sizeof(spec), o->files_n, o->files_max,
	    o->files_min, o->files_dirs);
	fprintf(f, "%*s", PP_LEAD, spec);
	for (i = 0; i < FILES_NCOLS; i++)
		pp_pair(f, &run->ph[files_columns[i]], files_columns[i]);
	fputc('\n', f);
	pp_latency(f, run->ph, files_columns);
}

int
report_write_pp(FILE *f, const struct record *rec)
{
	const struct options	*o = rec->opt;
	int			 i;

	for (i = 0; i < rec->nruns; i++) {
		if (o->phases & report_classic_mask())
			pp_io_block(f, o, &rec->runs[i]);
		if (o->phases & report_files_mask())
			pp_files_block(f, o, &rec->runs[i]);
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}
