/*
 * A made-up sweep --files: the tables by file count, the files knee in
 * words, in the record (jq) and ringed on the plot.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "settings.h"
#include "result.h"
#include "sweep.h"
#include "tap.h"

static char	tmp[64];

static char *
capture(int (*fn)(FILE *, const struct sweep_result *),
    void (*pfn)(FILE *, const struct sweep_result *),
    const struct sweep_result *r)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(tmp, "w+")) == NULL)
		return NULL;
	if (fn != NULL && fn(f, r) == -1) {
		fclose(f);
		return NULL;
	}
	if (pfn != NULL)
		pfn(f, r);
	fflush(f);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static int
count(const char *s, const char *what)
{
	int	n = 0;

	while (s != NULL && (s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The sweep the tests print and write, its options and its points. */
static struct options		opt;
static struct sweep_result	r;
static struct sweep_point	pts[4], pts2[6];

/* Four file counts, one job: the tables, the knee, the record, the plot. */
static void
test_by_count(void)
{
	char	*out, cmd[1024];

	ok(sweep_files_mode(&r), "a file count axis");
	is_int(sweep_npoints(&r), 4, "four points");
	{
		const int	at[SWEEP_DIMS] = { [SWEEP_FILES] = 2 };

		is_int(sweep_index(&r, at), 2, "the third count is point 2");
		ok(sweep_rate_at(&r, PH_CREATE, at) == 12000, "its rate");
	}

	out = capture(NULL, sweep_print_tables, &r);
	ok(out != NULL && strstr(out, "sequential create, files/sec, by file "
	    "count\n   files  files/sec\n      1k    30000.0\n      2k    "
	    "29000.0\n      4k    12000.0\n      8k    11000.0\n\n") != NULL,
	    "a table per file phase, a row per count");
	ok(out != NULL && strstr(out, "sequential stat, files/sec, by file "
	    "count\n") != NULL && count(out, ", by file count\n") == 2,
	    "both phases, and only they");
	free(out);

	out = capture(NULL, sweep_print_knees, &r);
	ok(out != NULL && strstr(out, "Files knees (the file count beyond "
	    "which the rate falls more than 30% and stays):\n  sequential "
	    "create: files/s falls 60% beyond 2k files (best up to there "
	    "30000/s, 12000/s at 4k files; threshold 30%; single run)\n") !=
	    NULL, "the create knee in words, held by the noise of single "
	    "runs");
	ok(out != NULL && strstr(out, "sequential stat") == NULL,
	    "no knee in the flat stats");
	ok(out != NULL && strstr(out, "Knees (a change") == NULL,
	    "no knees across sizes: there is one size");
	free(out);

	/* The counts after the fall imprecise: no knee is made of them. */
	pts[2].imprecise = pts[3].imprecise = 1u << PH_CREATE;
	out = capture(NULL, sweep_print_knees, &r);
	ok(out != NULL && strstr(out, "sequential create: files/s falls") ==
	    NULL, "imprecise counts make no files knee");
	free(out);
	pts[2].imprecise = pts[3].imprecise = 0;

	out = capture(sweep_write_json, NULL, &r);
	ok(out != NULL, "JSON written");
	free(out);
	if (system("command -v jq >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "jq -e '.sweep.files == [1024, "
		    "2048, 4096, 8192] and .sweep.files_dirs == 4 and "
		    "([.points[].files] == [1024, 2048, 4096, 8192]) and "
		    "(.files_knees | length) == 1 and .files_knees[0].phase "
		    "== \"create\" and .files_knees[0].files == 2048 and "
		    ".files_knees[0].to_files == 4096 and "
		    ".files_knees[0].confirmed_by == 1 and "
		    ".files_knees[0].single_run == true and "
		    ".concurrency_knees == []' '%s' >/dev/null", tmp);
		ok(system(cmd) == 0, "the record: counts, points, the knee");
	} else
		tap_skip("jq is not installed");

	out = capture(sweep_write_svg, NULL, &r);
	ok(out != NULL && strstr(out, ">files, k = 1024 (log2 scale)</text>") !=
	    NULL, "the plot's x axis is the file count, in one pair of "
	    "brackets");
	is_int(count(out, "class=\"knee\""), 1, "one knee ringed");
	ok(strstr(out, "<title>sequential create: files/s falls 60% beyond "
	    "2k files") != NULL && strstr(out, ">knee: 2k files<") != NULL,
	    "the ring says the knee");
	is_int(count(out, "<polyline"), 2, "a line per phase");
	is_int(count(out, "class=\"legend\""), 2, "a legend entry per line");
	ok(strstr(out, ">2k</text>") != NULL, "ticks in units of 1024 files");
	free(out);
}

/* Job counts at two file counts: the concurrency knees, then spread runs. */
static void
test_by_jobs(void)
{
	/* By job count, at 1k and 2k files: 2k a few percent off 1k. */
	const double		 jcr[2][3] = { { 10000, 19000, 19500 },
				     { 10300, 18600, 19900 } };
	const double		 jst[2][3] = { { 10000, 20000, 40000 },
				     { 9800, 20500, 39000 } };
	static struct run_result more[6][2];
	char			*out, cmd[1024];
	int			 f, j;

	/*
	 * With job counts 1, 2 and 4 at 1k and 2k files: the creates'
	 * aggregate stops rising at 2 jobs at each count, the stats' still
	 * rises.  The concurrency knee is over the file count, not over the
	 * size and chunk the sweep does not run.
	 */
	r.njobs = 3;
	r.jobs[0] = 1;
	r.jobs[1] = 2;
	r.jobs[2] = 4;
	r.nfiles = 2;
	r.points = pts2;
	memset(pts2, 0, sizeof(pts2));
	for (j = 0; j < 3; j++) {
		for (f = 0; f < 2; f++) {
			struct sweep_point	*pt = &pts2[j * 2 + f];

			pt->size = r.sizes[0];
			pt->chunk = 4096;
			pt->jobs = r.jobs[j];
			pt->files = r.files[f];
			pt->res.ph[PH_CREATE].ran = pt->res.ph[PH_STAT].ran = 1;
			pt->res.ph[PH_CREATE].rate = jcr[f][j];
			pt->res.ph[PH_STAT].rate = jst[f][j];
		}
	}
	r.npoints = 6;
	out = capture(NULL, sweep_print_knees, &r);
	ok(out != NULL && strstr(out, "Concurrency knees (more workers add "
	    "less than 30%):\n  sequential create, 1k files: the aggregate "
	    "stops rising at 2 jobs (beyond: at most +3%, under 30%; single "
	    "run)\n  sequential create, 2k files: the aggregate stops rising "
	    "at 2 jobs (beyond: at most +7%, under 30%; single run)\n") !=
	    NULL && strstr(out, "sequential stat, ") == NULL &&
	    strstr(out, "more change") == NULL,
	    "the concurrency knees in words, at each file count, held by the "
	    "noise between the file counts");
	free(out);

	/*
	 * Three runs a point, spread over a factor of four: the medians are
	 * the same, but the rise to 2 jobs is within the runs' spread.
	 */
	for (j = 0; j < 6; j++) {
		pts2[j].nmore = 2;
		pts2[j].more = more[j];
		for (f = 0; f < 2; f++) {
			more[j][f] = pts2[j].res;
			more[j][f].ph[PH_CREATE].rate *= f == 0 ? 0.5 : 2;
			more[j][f].ph[PH_STAT].rate *= f == 0 ? 0.5 : 2;
		}
	}
	r.repeat = 3;
	r.min_time = 0.05;
	out = capture(NULL, sweep_print_knees, &r);
	ok(out != NULL && strstr(out, "Concurrency knees (more workers add "
	    "less than 30%):\n  none\n  (2 more changes over 30% in the "
	    "medians, at imprecise points or within the spread of the runs "
	    "or the noise: not named; a longer --min-time or -x 6 tell)\n") !=
	    NULL, "rises within the runs' spread name no concurrency knee, "
	    "and say so, asking for more than the sweep's -x 3 and "
	    "--min-time");
	free(out);
	r.repeat = 0;
	r.min_time = 0;
	for (j = 0; j < 6; j++) {
		pts2[j].nmore = 0;
		pts2[j].more = NULL;
	}
	out = capture(sweep_write_json, NULL, &r);
	ok(out != NULL, "JSON written");
	free(out);
	if (system("command -v jq >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "jq -e '(.concurrency_knees | "
		    "length) == 2 and ([.concurrency_knees[].files] == [1024, "
		    "2048]) and (.concurrency_knees | all(.phase == "
		    "\"create\" and .jobs == 2 and .single_run and "
		    "(has(\"size_bytes\") | not) and (has(\"chunk\") | "
		    "not)))' '%s' >/dev/null",
		    tmp);
		ok(system(cmd) == 0, "the record's concurrency knees: a file "
		    "count each, no size or chunk");
	} else
		tap_skip("jq is not installed");
}

int
main(void)
{
	const double		 cr[4] = { 30000, 29000, 12000, 11000 };
	const double		 st[4] = { 90000, 88000, 86000, 87000 };
	char			*argv[] = { "sweep", "-d", "/tmp" };
	int			 fd, f;

	snprintf(tmp, sizeof(tmp), "/tmp/bonnie-ng-t-sweep-files.XXXXXX");
	if ((fd = mkstemp(tmp)) == -1)
		return 1;
	close(fd);

	settings_defaults(&opt);
	opt.phases = (1u << PH_CREATE) | (1u << PH_STAT);
	opt.cache = CACHE_MODE_KEEP;
	opt.dir = "/tmp";
	opt.argc = 3;
	opt.argv = argv;
	opt.files_dirs = 4;
	memset(&r, 0, sizeof(r));
	memset(pts, 0, sizeof(pts));
	r.opt = &opt;
	r.nsizes = 1;
	r.sizes[0] = (uint64_t)64 << 20;
	r.nchunks = 1;
	r.chunks[0] = 4096;
	r.njobs = 1;
	r.jobs[0] = 1;
	r.nfiles = 4;
	r.knee_pct = 30;
	r.points = pts;
	for (f = 0; f < 4; f++) {
		r.files[f] = (uint64_t)1024 << f;
		pts[f].size = r.sizes[0];
		pts[f].chunk = 4096;
		pts[f].jobs = 1;
		pts[f].files = r.files[f];
		pts[f].res.ph[PH_CREATE].ran = pts[f].res.ph[PH_STAT].ran = 1;
		pts[f].res.ph[PH_CREATE].rate = cr[f];
		pts[f].res.ph[PH_STAT].rate = st[f];
	}
	r.npoints = 4;

	test_by_count();
	test_by_jobs();
	unlink(tmp);
	return done_testing();
}
