/*
 * The classic Bonnie text report.  Pure formatting: no clocks, no files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "options.h"
#include "phase.h"
#include "record.h"
#include "report.h"
#include "stats.h"
#include "text.h"
#include "units.h"

const char report_header[] =
"              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
"              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
"Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n";

const char report_files_header[] =
"                        ---------Sequential Create--------- -----------Random Create-----------\n"
"                        --Create--- ---Read---- --Delete--- --Create--- ---Read---- --Delete---\n"
"Machine           files   /sec %CPU   /sec %CPU   /sec %CPU   /sec %CPU   /sec %CPU   /sec %CPU\n";

const enum phase_id files_columns[FILES_NCOLS] = {
	PH_CREATE, PH_STAT, PH_DELETE, PH_RCREATE, PH_RSTAT, PH_RDELETE
};

unsigned
report_files_mask(void)
{
	unsigned	m = 0;
	int		i;

	for (i = 0; i < FILES_NCOLS; i++)
		m |= 1u << files_columns[i];
	return m;
}

const enum phase_id classic_columns[CLASSIC_NCOLS] = {
	PH_PUTC, PH_WRITE, PH_REWRITE, PH_GETC, PH_READ, PH_SEEKS
};

unsigned
report_classic_mask(void)
{
	unsigned	m = 0;
	int		i;

	for (i = 0; i < CLASSIC_NCOLS; i++)
		m |= 1u << classic_columns[i];
	return m;
}

/* Append to buf at *off, tracking the length snprintf would need. */
#define APPEND(...) do {						\
	int n_ = snprintf(*off < len ? buf + *off : NULL,		\
	    *off < len ? len - *off : 0, __VA_ARGS__);			\
	if (n_ > 0)							\
		*off += (size_t)n_;					\
} while (0)

#define APPEND_TO(b, l, o, ...) do {					\
	int n_ = snprintf((o) < (l) ? (b) + (o) : NULL,			\
	    (o) < (l) ? (l) - (o) : 0, __VA_ARGS__);			\
	if (n_ > 0)							\
		(o) += (size_t)n_;					\
} while (0)

static void
pair(char *buf, size_t len, size_t *off, const struct phase_result *p,
    enum phase_id id)
{
	char	cpu[32];

	units_cpu(cpu, sizeof(cpu), p->cpu_pct, p->cpu_doubtful, 1);
	if (!p->ran)
		APPEND("%5s %4s", "-", "-");
	else if (phase_table[id]->flags & PHASE_OPS)
		APPEND("%5.1f %4s", p->rate, cpu);
	else
		APPEND("%5lld %4s", units_kps(p->rate), cpu);
}

int
report_row(char *buf, size_t len, const char *label, uint64_t size_mib,
    const struct phase_result ph[PH_COUNT])
{
	size_t	o = 0, *off = &o;
	char	cut[8 * 8 + 1];
	int	i;

	/* Eight columns, cut between characters, controls escaped. */
	text_cut(cut, sizeof(cut), label, 8, 1);
	APPEND("%s %4llu ", cut, (unsigned long long)size_mib);
	for (i = 0; i < CLASSIC_NCOLS; i++) {
		pair(buf, len, off, &ph[classic_columns[i]], classic_columns[i]);
		APPEND("%s", i == CLASSIC_NCOLS - 1 ? "\n" : " ");
	}
	return (int)o;
}

int
report_latency_row(char *buf, size_t len, uint64_t size_mib,
    const struct phase_result ph[PH_COUNT])
{
	const struct phase_result	*p;
	size_t				 o = 0, *off = &o;
	char				 d[32];
	int				 i;

	APPEND("%-8.8s %4llu ", "Latency", (unsigned long long)size_mib);
	for (i = 0; i < CLASSIC_NCOLS; i++) {
		p = &ph[classic_columns[i]];
		if (p->ran && p->lat.count > 0)
			units_latency_short(d, sizeof(d), p->lat.p99);
		else
			snprintf(d, sizeof(d), "-");
		APPEND("%10s%s", d, i == CLASSIC_NCOLS - 1 ? "\n" : " ");
	}
	return (int)o;
}

void
report_files_spec(char *buf, size_t len, uint64_t files, uint64_t max,
    uint64_t min, uint64_t dirs)
{
	size_t	off = 0;

	if (files % 1024 == 0)
		APPEND_TO(buf, len, off, "%llu",
		    (unsigned long long)(files / 1024));
	else
		APPEND_TO(buf, len, off, "%llu files",
		    (unsigned long long)files);
	if (max > 0)
		APPEND_TO(buf, len, off, ":%llu:%llu", (unsigned long long)max,
		    (unsigned long long)min);
	if (dirs > 1)
		APPEND_TO(buf, len, off, "/%llu", (unsigned long long)dirs);
}

int
report_files_row(char *buf, size_t len, const char *label, const char *spec,
    const struct phase_result ph[PH_COUNT])
{
	const struct phase_result	*p;
	size_t				 o = 0, *off = &o;
	char				 cpu[32];
	int				 i;

	APPEND("%-8.8s %14s", label != NULL ? label : "", spec);
	for (i = 0; i < FILES_NCOLS; i++) {
		p = &ph[files_columns[i]];
		units_cpu(cpu, sizeof(cpu), p->cpu_pct, p->cpu_doubtful, 0);
		if (!p->ran)
			APPEND(" %6s %4s", "-", "-");
		else
			APPEND(" %6lld %4s", units_per_sec(p->rate), cpu);
	}
	APPEND("\n");
	return (int)o;
}

int
report_files_latency_row(char *buf, size_t len,
    const struct phase_result ph[PH_COUNT])
{
	const struct phase_result	*p;
	size_t				 o = 0, *off = &o;
	char				 d[32];
	int				 i;

	APPEND("%-23s", "Latency");
	for (i = 0; i < FILES_NCOLS; i++) {
		p = &ph[files_columns[i]];
		if (p->ran && p->lat.count > 0)
			units_latency(d, sizeof(d), p->lat.p99);
		else
			snprintf(d, sizeof(d), "-");
		APPEND(" %11s", d);
	}
	APPEND("\n");
	return (int)o;
}

int
report_extra_row(char *buf, size_t len, enum phase_id id, uint64_t size_mib,
    const struct phase_result *p, int latency)
{
	static const char *const pct[] = { "p50", "p90", "p99", "p99.9" };
	const struct phase	*ph = phase_table[id];
	const double		 v[] = { p->lat.p50, p->lat.p90, p->lat.p99,
				    p->lat.p999 };
	size_t			 o = 0, *off = &o, i;
	char			 d[32], unit[32];

	APPEND("%-8.8s %4llu ", ph->column, (unsigned long long)size_mib);
	pair(buf, len, off, p, id);
	APPEND(" %s %%CPU", phase_unit(ph, UNIT_TABLE, unit, sizeof(unit)));
	if (latency && p->ran && p->lat.count > 0) {
		APPEND(" latency");
		for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
			units_latency_short(d, sizeof(d), v[i]);
			APPEND(" %s %s", pct[i], d);
		}
	}
	APPEND("\n");
	return (int)o;
}

void
report_summary(const struct run_result *runs, int nruns, const char *which,
    struct phase_result out[PH_COUNT])
{
	struct col_stats	 rate, cpu;
	double			*vr, *vc;
	int			 i, k, n;

	memset(out, 0, sizeof(struct phase_result) * PH_COUNT);
	vr = xcalloc((size_t)nruns, sizeof(double));
	vc = xcalloc((size_t)nruns, sizeof(double));
	for (i = 0; i < PH_COUNT; i++) {
		for (k = n = 0; k < nruns; k++) {
			if (!runs[k].ph[i].ran)
				continue;
			vr[n] = runs[k].ph[i].rate;
			vc[n] = runs[k].ph[i].cpu_pct;
			n++;
		}
		if (n == 0)
			continue;
		stats_compute(vr, n, &rate);
		stats_compute(vc, n, &cpu);
		out[i].ran = 1;
		if (strcmp(which, "min") == 0) {
			out[i].rate = rate.min;
			out[i].cpu_pct = cpu.min;
		} else if (strcmp(which, "max") == 0) {
			out[i].rate = rate.max;
			out[i].cpu_pct = cpu.max;
		} else {
			out[i].rate = rate.median;
			out[i].cpu_pct = cpu.median;
		}
	}
	free(vr);
	free(vc);
}

/* The file creation block, below the classic rows. */
static void
files_block(FILE *f, const struct record *rec, int latency)
{
	static const char *const which[] = { "median", "min", "max" };
	struct phase_result	 sum[PH_COUNT];
	char			 row[512], spec[64], name[16];
	int			 i;

	report_files_spec(spec, sizeof(spec), rec->opt->files_n,
	    rec->opt->files_max, rec->opt->files_min, rec->opt->files_dirs);
	fputs(report_files_header, f);
	for (i = 0; i < rec->nruns; i++) {
		report_files_row(row, sizeof(row), rec->opt->label, spec,
		    rec->runs[i].ph);
		fputs(row, f);
		if (latency) {
			report_files_latency_row(row, sizeof(row),
			    rec->runs[i].ph);
			fputs(row, f);
		}
	}
	for (i = 0; rec->nruns > 1 && i < 3; i++) {
		report_summary(rec->runs, rec->nruns, which[i], sum);
		snprintf(name, sizeof(name), "#%s", which[i]);
		report_files_row(row, sizeof(row), name, spec, sum);
		fputs(row, f);
	}
}

int
report_write_text(FILE *f, const struct record *rec, int latency)
{
	static const char *const which[] = { "median", "min", "max" };
	struct phase_result	 sum[PH_COUNT];
	const char		*label = rec->opt->label;
	/* The data of the whole run: every worker's file. */
	uint64_t		 mib = (rec->opt->size *
	    (uint64_t)(rec->opt->jobs > 1 ? rec->opt->jobs : 1)) >> 20;
	const unsigned		 extra = rec->opt->phases &
				    ~report_classic_mask() &
				    ~report_files_mask();
	char			 row[512], name[16];
	int			 i, k;

	/*
	 * A run of only the file creation phases made no test file: no
	 * classic row, whose MB would name a size nobody wrote.
	 */
	if ((rec->opt->phases & ~report_files_mask()) == 0)
		goto files;
	fputs(report_header, f);
	for (i = 0; i < rec->nruns; i++) {
		report_row(row, sizeof(row), label, mib, rec->runs[i].ph);
		fputs(row, f);
		if (latency) {
			report_latency_row(row, sizeof(row), mib,
			    rec->runs[i].ph);
			fputs(row, f);
		}
		for (k = 0; k < PH_COUNT; k++)
			if (extra & (1u << k)) {
				report_extra_row(row, sizeof(row), k, mib,
				    &rec->runs[i].ph[k], 1);
				fputs(row, f);
			}
	}
	for (i = 0; rec->nruns > 1 && i < 3; i++) {
		report_summary(rec->runs, rec->nruns, which[i], sum);
		snprintf(name, sizeof(name), "#%s", which[i]);
		report_row(row, sizeof(row), name, mib, sum);
		fputs(row, f);
		for (k = 0; k < PH_COUNT; k++)
			if (extra & (1u << k)) {
				report_extra_row(row, sizeof(row), k, mib,
				    &sum[k], 0);
				fputs(row, f);
			}
	}
files:
	if (rec->opt->phases & report_files_mask())
		files_block(f, rec, latency);
	fflush(f);
	return ferror(f) ? -1 : 0;
}
