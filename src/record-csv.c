/*
 * The result record as bonnie++ 1.98 CSV: one line of exactly 50 fields
 * per run, which Debian's bon_csv2txt and bon_csv2html read.  Unlike
 * bonnie++ it fills in the chunk size, and it prints measured numbers
 * even for short phases (never "+++++"; the JSON record marks those as
 * imprecise).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "options.h"
#include "record.h"
#include "report.h"
#include "result.h"
#include "resultset.h"

#define CSV_FIELDS	50

/*
 * bonnie++'s size field in its shortest form: the largest binary unit
 * that divides the size, "1G" rather than "1024M" (bon_csv2txt leaves
 * out the machine name when size:chunk:seeks:seekers gets long), else
 * whole KiB as "1536K".
 */
static void
csv_size(char *buf, size_t len, uint64_t bytes)
{
	static const char	 units[] = "KMGTPE";
	uint64_t		 v = bytes / 1024;
	int			 u = 0;

	while (bytes % 1024 == 0 && v > 0 && v % 1024 == 0 &&
	    units[u + 1] != '\0') {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
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
	   seeks, seekers. */
	fprintf(f, "1.98,bonnie-ng-%s,", BONNIE_NG_VERSION);
	put_text(f, opt->label != NULL ? opt->label : "");
	csv_size(buf, sizeof(buf), opt->size);
	fprintf(f, ",1,%llu,%s,%zu,%llu,%d", (unsigned long long)run->seed,
	    buf, opt->chunk, (unsigned long long)opt->seeks, opt->seekers);

	/* 9-20: the six rate and %CPU pairs; empty when not run. */
	for (i = 0; i < PH_COUNT; i++) {
		p = &run->ph[i];
		if (!p->ran)
			fputs(",,", f);
		else if (i == PH_SEEKS)
			fprintf(f, ",%.1f,%.0f", p->rate, floor(p->cpu_pct + 0.5));
		else
			fprintf(f, ",%lld,%.0f", report_kps(p->rate),
			    floor(p->cpu_pct + 0.5));
	}

	/* 21-37: the file creation tests, which bonnie-ng does not run. */
	for (i = 21; i <= 37; i++)
		putc(',', f);

	/* 38-43: worst-case latency of the six phases; 44-49 empty. */
	for (i = 0; i < PH_COUNT; i++) {
		p = &run->ph[i];
		putc(',', f);
		if (p->ran && p->lat.count > 0) {
			rs_format_latency(buf, sizeof(buf), p->lat.max);
			fputs(buf, f);
		}
	}
	fputs(",,,,,,\n", f);
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
