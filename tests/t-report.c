/*
 * Unit tests: the classic row, the latency row and the summary rows, as
 * exact strings for given numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "record.h"
#include "report.h"
#include "settings.h"
#include "tap.h"
#include "timer.h"
#include "units.h"

static void
set(struct phase_result *p, double rate, double cpu)
{
	memset(p, 0, sizeof(*p));
	p->ran = 1;
	p->rate = rate;
	p->cpu_pct = cpu;
}

static int
fields(const char *s)
{
	int	n = 0, in = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n')
			in = 0;
		else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}

/* What record_write_csv() or report_write_pp() writes for one run. */
static char *
written(int csv, const struct options *o, const struct run_result *run)
{
	struct record	 rec;
	char		*buf = NULL;
	size_t		 len = 0;
	FILE		*f;

	memset(&rec, 0, sizeof(rec));
	rec.opt = o;
	rec.nruns = 1;
	rec.runs = run;
	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	if (csv)
		record_write_csv(f, &rec);
	else
		report_write_pp(f, &rec);
	fclose(f);
	return buf;
}

/*
 * files/s and %CPU: one rule in the text row, the CSV and pp's report
 * (3777.6 files/s was 3778 in the CSV and 3777 in pp's text), and a
 * doubtful %CPU (more than one thread can use, as a 2.5 ms phase reads
 * it) is "+++" in each, as bonnie++ marks what it cannot measure.
 */
static void
test_one_rule(void)
{
	struct options		 o;
	struct run_result	 run;
	struct phase_result	*ph = run.ph;
	char			 buf[512], *s;

	is_int(units_per_sec(3777.6), 3778, "units_per_sec rounds up .6");
	is_int(units_per_sec(3777.4), 3777, "units_per_sec rounds down .4");
	is_int(units_per_sec(3777.5), 3778, "units_per_sec: half up");
	units_cpu(buf, sizeof(buf), 412.0, 1, 0);
	is_str(buf, "+++", "a doubtful %CPU is +++");
	units_cpu(buf, sizeof(buf), 99.96, 0, 1);
	is_str(buf, "100.0", "%CPU with a decimal, rounded");

	memset(&run, 0, sizeof(run));
	set(&ph[PH_CREATE], 3777.6, 412.0);
	ph[PH_CREATE].cpu_doubtful = 1;
	set(&ph[PH_STAT], 3777.4, 50.4);
	set(&ph[PH_DELETE], 3777.5, 60.5);
	set(&ph[PH_WRITE], 1000.0, 250.0);
	ph[PH_WRITE].cpu_doubtful = 1;
	report_files_row(buf, sizeof(buf), "x", "16", ph);
	ok(strstr(buf, "   3778  +++   3777   50   3778   61") != NULL,
	    "files row: rounded files/s, +++ for a doubtful %CPU");
	report_row(buf, sizeof(buf), "x", 64, ph);
	ok(strstr(buf, "  1000  +++") != NULL,
	    "classic row: +++ for a doubtful %CPU");

	settings_defaults(&o);
	o.files_n = 16 * 1024;
	o.phases = report_files_mask() | (1u << PH_WRITE);
	s = written(1, &o, &run);
	ok(s != NULL && strstr(s, ",1000,+++,") != NULL &&
	    strstr(s, ",3778,+++,3777,50,3778,61,") != NULL,
	    "CSV: the same figures and +++");
	free(s);
	s = written(0, &o, &run);
	ok(s != NULL && strstr(s, " 1000k +++") != NULL &&
	    strstr(s, "  3778 +++  3777  50  3778  61") != NULL,
	    "pp's text: the same figures and +++");
	if (s != NULL && strstr(s, "  3778 +++") == NULL)
		printf("# %s", s);
	free(s);
}

int
main(void)
{
	struct phase_result	ph[PH_COUNT];
	struct run_result	runs[3];
	struct cpu_times	c;
	char			buf[512];
	int			i;

	ok(strcmp(report_header,
	    "              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
	    "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
	    "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n")
	    == 0, "header byte for byte");

	set(&ph[PH_PUTC], 663.9, 99.04);
	set(&ph[PH_WRITE], 31851.2, 78.0);
	set(&ph[PH_REWRITE], 779.0, 62.0);
	set(&ph[PH_GETC], 616.0, 99.0);
	set(&ph[PH_READ], 2457.0, 99.0);
	set(&ph[PH_SEEKS], 461.44, 38.05);
	report_row(buf, sizeof(buf), "myhost", 2048, ph);
	is_str(buf, "myhost   2048   663 99.0 31851 78.0   779 62.0   616 99.0"
	    "  2457 99.0 461.4 38.0\n", "classic row, K/sec rounded down");
	is_int(fields(buf), 14, "14 fields");

	report_row(buf, sizeof(buf), "averyverylonglabel", 100, ph);
	ok(strncmp(buf, "averyver  100 ", 14) == 0, "label cut to 8");

	ph[PH_PUTC].ran = 0;
	ph[PH_GETC].ran = 0;
	report_row(buf, sizeof(buf), "fast", 64, ph);
	is_str(buf, "fast       64     -    - 31851 78.0   779 62.0     -    -"
	    "  2457 99.0 461.4 38.0\n", "skipped phases print - -");
	is_int(fields(buf), 14, "14 fields with skipped phases");

	set(&ph[PH_PUTC], 1195170.9, 100.0);
	set(&ph[PH_GETC], 12345678.0, 5.0);
	set(&ph[PH_SEEKS], 17050.34, 390.0);
	report_row(buf, sizeof(buf), "big", 48208, ph);
	is_str(buf, "big      48208 1195170 100.0 31851 78.0   779 62.0 "
	    "12345678  5.0  2457 99.0 17050.3 390.0\n",
	    "wide numbers widen their fields");
	is_int(fields(buf), 14, "14 fields with wide numbers");

	ok(report_row(buf, 10, "x", 1, ph) > 10,
	    "a short buffer reports the length needed");


	memset(ph, 0, sizeof(ph));
	ph[PH_WRITE].ran = 1;
	ph[PH_WRITE].lat.count = 10;
	ph[PH_WRITE].lat.p99 = 0.000505;
	report_latency_row(buf, sizeof(buf), 64, ph);
	is_str(buf, "Latency    64          -      505us          -          -"
	    "          -          -\n", "latency row");

	memset(runs, 0, sizeof(runs));
	for (i = 0; i < 3; i++) {
		runs[i].ph[PH_WRITE].ran = 1;
		runs[i].ph[PH_WRITE].rate = 100.0 * (i + 1);
		runs[i].ph[PH_WRITE].cpu_pct = 10.0 * (3 - i);
	}
	report_summary(runs, 3, "median", ph);
	ok(ph[PH_WRITE].ran && ph[PH_WRITE].rate == 200 &&
	    ph[PH_WRITE].cpu_pct == 20, "median of three runs");
	ok(!ph[PH_PUTC].ran, "a phase no run ran stays skipped");
	report_summary(runs, 3, "min", ph);
	ok(ph[PH_WRITE].rate == 100 && ph[PH_WRITE].cpu_pct == 10,
	    "min of each column");
	report_summary(runs, 3, "max", ph);
	ok(ph[PH_WRITE].rate == 300 && ph[PH_WRITE].cpu_pct == 30,
	    "max of each column");

	test_one_rule();

	c.user = 0.75;
	c.sys = 0.25;
	is_near(cpu_percent(&c, 2.0), 50.0, 1e-9, "1 CPU s in 2 s is 50%");
	is_near(cpu_percent(&c, 0.5), 200.0, 1e-9, "2 cores busy is 200%");
	is_near(cpu_percent(&c, 0), 0.0, 0, "no elapsed time is 0%");
	return done_testing();
}
