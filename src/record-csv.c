/*
 * The result record as bonnie++ 1.98 CSV: one line of exactly 50 fields
 * per run, which Debian's bon_csv2txt and bon_csv2html read; or, with
 * --csv-format=1.97, the 48 fields of bonnie++ 1.96/1.97 (the same
 * without the seeks and seekers fields 7 and 8), for parsers that
 * assert that count.  As bonnie++, the chunk size's field is empty at
 * bonnie++'s default chunk (8 KiB; bonnie++ 2.00a leaves it empty
 * always, bonnie-ng writes any other chunk, in bytes), and a latency is
 * a whole number with its unit.  Unlike bonnie++ it prints measured numbers
 * even for short phases (never "+++++"; the JSON record marks those as
 * imprecise).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "options.h"
#include "phase.h"
#include "record.h"
#include "report.h"
#include "result.h"
#include "settings.h"
#include "units.h"

/* A phase's %CPU field: whole, or "+++" when doubtful. */
static const char *
csv_cpu(char *buf, size_t len, const struct phase_result *p)
{
	units_cpu(buf, len, p->cpu_pct, p->cpu_doubtful, 0);
	return buf;
}

/* Write a field, replacing commas and line ends so the layout holds. */
static void
put_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++)
		putc(*s == ',' || *s == '\n' || *s == '\r' ? '_' : *s, f);
}

static void
write_run(FILE *f, const struct options *opt, const struct run_result *run)
{
	const struct phase_result	*p;
	char				 buf[64];
	int				 i;

	/* 0-8: format, program, name, concurrency, seed, size, chunk,
	   seeks, seekers (1.97: 0-6, without seeks and seekers). */
	fprintf(f, "%s,bonnie-ng-%s,",
	    opt->csv_layout == CSV_197 ? "1.97" : "1.98", BONNIE_NG_VERSION);
	put_text(f, opt->label != NULL ? opt->label : "");
	/* Concurrency: the workers, each with a file of the size given. */
	fprintf(f, ",%d,%llu", opt->jobs > 1 ? opt->jobs : 1,
	    (unsigned long long)run->seed);
	/* No test file (only --files, bonnie++ -s 0): empty, as bonnie++. */
	if ((opt->phases & ~phase_flag_mask(PHASE_META)) == 0)
		fputs(opt->csv_layout != CSV_197 ? ",,,," : ",,", f);
	else {
		units_size_csv(buf, sizeof(buf), opt->size);
		fprintf(f, ",%s,", buf);
		/* bonnie++ leaves its default chunk's field empty. */
		if (opt->chunk != settings_table[SET_CHUNK].pp_def)
			fprintf(f, "%zu", opt->chunk);
		if (opt->csv_layout != CSV_197)
			fprintf(f, ",%llu,%d", (unsigned long long)opt->seeks,
			    opt->seekers);
	}

	/* 9-20 (1.97: 7-18): the six classic rate and %CPU pairs; empty
	   when not run. */
	for (i = 0; i < CLASSIC_NCOLS; i++) {
		p = &run->ph[classic_columns[i]];
		if (!p->ran)
			fputs(",,", f);
		else if (classic_columns[i] == PH_SEEKS)
			fprintf(f, ",%.1f,%s", p->rate, csv_cpu(buf,
			    sizeof(buf), p));
		else
			fprintf(f, ",%lld,%s", units_kps(p->rate),
			    csv_cpu(buf, sizeof(buf), p));
	}

	/*
	 * 21-25 (1.97: 19-23): the file creation tests' N (x 1024 files),
	 * MAX and MIN (with MAX > 0), an empty field and DIRS (with DIRS >
	 * 1), where bonnie++ 2.00a writes them; then 26-37 (24-35) their
	 * files/s and %CPU.
	 */
	if (opt->phases & report_files_mask()) {
		fprintf(f, ",%llu", (unsigned long long)(opt->files_n / 1024));
		if (opt->files_max > 0)
			fprintf(f, ",%llu,%llu",
			    (unsigned long long)opt->files_max,
			    (unsigned long long)opt->files_min);
		else
			fputs(",,", f);
		putc(',', f);
		if (opt->files_dirs > 1)
			fprintf(f, ",%u", opt->files_dirs);
		else
			putc(',', f);
	} else
		fputs(",,,,,", f);
	for (i = 0; i < FILES_NCOLS; i++) {
		p = &run->ph[files_columns[i]];
		if (!p->ran || !(opt->phases & report_files_mask()))
			fputs(",,", f);
		else
			fprintf(f, ",%lld,%s", units_per_sec(p->rate),
			    csv_cpu(buf, sizeof(buf), p));
	}

	/* 38-43 (1.97: 36-41): worst-case latency of the six phases. */
	for (i = 0; i < CLASSIC_NCOLS; i++) {
		p = &run->ph[classic_columns[i]];
		putc(',', f);
		if (p->ran && p->lat.count > 0 && p->lat.max > 0) {
			units_latency(buf, sizeof(buf), p->lat.max);
			fputs(buf, f);
		}
	}
	/* 44-49: the same for the file creation tests. */
	for (i = 0; i < FILES_NCOLS; i++) {
		p = &run->ph[files_columns[i]];
		putc(',', f);
		if (p->ran && p->lat.count > 0 && p->lat.max > 0 &&
		    (opt->phases & report_files_mask())) {
			units_latency(buf, sizeof(buf), p->lat.max);
			fputs(buf, f);
		}
	}
	putc('\n', f);
}

/*
 * The names of the fields, as bonnie++ -x writes them above its lines:
 * these, each pair's name and name_cpu (report.h's names), these, each
 * file pair's, then each pair's name_latency.  bonnie++ 2.00a writes
 * 1.97's 48 names even above its 50-field lines; here 1.98 has its fields
 * 7 and 8 named (the names bonnie++ has for them are taken by the seeks'
 * rate).
 */
#define NAMES(a)	(sizeof(a) / sizeof((a)[0]))
static const char *const csv_head[] = {
	"format_version", "bonnie_version", "name", "concurrency", "seed",
	"file_size", "io_chunk_size", "num_seeks", "seek_proc_count"
};
static const char *const csv_files_head[] = {
	"num_files", "max_size", "min_size", "num_dirs", "file_chunk_size"
};

static void
csv_names(FILE *f, int *n, const char *const *names, size_t count,
    const char *suffix)
{
	size_t	i;

	for (i = 0; i < count; i++, (*n)++)
		fprintf(f, "%s%s%s", *n > 0 ? "," : "", names[i], suffix);
}

/* The columns' phases by bonnie++'s names, each name with suffix. */
static void
csv_phases(FILE *f, int *n, const enum phase_id *ids, size_t count,
    const char *suffix)
{
	size_t	i;

	for (i = 0; i < count; i++, (*n)++)
		fprintf(f, "%s%s%s", *n > 0 ? "," : "",
		    phase_table[ids[i]]->bonnie_name, suffix);
}

/* The columns' pairs: bonnie++'s name of each phase, and with _cpu. */
static void
csv_pairs(FILE *f, int *n, const enum phase_id *ids, size_t count)
{
	size_t	i;

	for (i = 0; i < count; i++, *n += 2)
		fprintf(f, "%s%s,%s_cpu", *n > 0 ? "," : "",
		    phase_table[ids[i]]->bonnie_name,
		    phase_table[ids[i]]->bonnie_name);
}

int
record_write_csv_header(FILE *f, enum csv_layout layout)
{
	int	n = 0;

	/* 1.97: without fields 7 and 8, the last two of the head. */
	csv_names(f, &n, csv_head, NAMES(csv_head) - (layout == CSV_197 ? 2 : 0),
	    "");
	csv_pairs(f, &n, classic_columns, CLASSIC_NCOLS);
	csv_names(f, &n, csv_files_head, NAMES(csv_files_head), "");
	csv_pairs(f, &n, files_columns, FILES_NCOLS);
	csv_phases(f, &n, classic_columns, CLASSIC_NCOLS, "_latency");
	csv_phases(f, &n, files_columns, FILES_NCOLS, "_latency");
	putc('\n', f);
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

int
record_write_csv(FILE *f, const struct record *rec)
{
	int	i;

	for (i = 0; i < rec->nruns; i++)
		write_run(f, rec->opt, &rec->runs[i]);
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
