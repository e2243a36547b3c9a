/*
 * A sweep record read back: the JSON reader takes bonnie-ng-sweep/1 (the
 * points as runs with their size, chunk and job count, the axes in the
 * set's sweep), sweep_from_set() makes the sweep_result again, and
 * sweep-out.c's writers print from it the tables worked out here by hand;
 * a record with a fault is refused with its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultset.h"
#include "rs-read.h"
#include "sweep.h"
#include "tap.h"

/*
 * Two sizes by two chunks, block write only, stopped by --max-time after
 * three points; the third point's write is half the first's.
 */
#define HEAD								\
	"{\n \"schema\": \"bonnie-ng-sweep/1\",\n"			\
	" \"target\": {\"dir\": \"/mnt/x\", \"fs_type\": \"ext4\"},\n"	\
	" \"options\": {\"label\": \"box\", \"cache\": \"cold\","	\
	" \"ram_bytes\": 4294967296, \"phases\": [\"write\"]},\n"
#define SWEEP								\
	" \"sweep\": {\"sizes\": [4194304, 8388608],"			\
	" \"chunks\": [4096, 65536], \"jobs\": [1], \"capped\": false,"	\
	" \"knee_pct\": 30, \"max_time_s\": 1},\n"
#define PT(size, chunk, rate)						\
	"  {\"size_bytes\": " #size ", \"chunk\": " #chunk ", \"jobs\": 1,"\
	" \"phases\": {\"putc\": null, \"write\": {\"rate\": " #rate	\
	", \"cpu_pct\": 50}}}"

static const char good[] = HEAD SWEEP
    " \"points\": [\n"
    PT(4194304, 4096, 1000.9) ",\n"
    PT(4194304, 65536, 2000) ",\n"
    PT(8388608, 4096, 500.45) "\n"
    " ],\n \"stopped\": \"max-time\"\n}\n";

static const char tables[] =
    "bonnie-ng sweep of /mnt/x: sizes 4M to 8M, 3 of 4 points, cache cold\n"
    "\n"
    "block write, K/sec\n"
    "    size         4k        64k\n"
    "      4M       1000       2000\n"
    "      8M        500          -\n"
    "\n";

/* What f gets from fn, as a new string. */
static char *
capture(void (*fn)(FILE *, const struct sweep_result *),
    const struct sweep_result *r)
{
	char	*s = NULL;
	size_t	 len;
	FILE	*f;

	if ((f = open_memstream(&s, &len)) == NULL)
		return NULL;
	fn(f, r);
	fclose(f);
	return s;
}

static void
test_good(void)
{
	struct result_set	 rs;
	struct sweep_readback	 b;
	char			*cause = NULL, *s, *t;

	if (!ok(rs_read_buf("good.json", good, sizeof(good) - 1, &rs,
	    &cause) == 0, "a sweep record reads")) {
		printf("# %s\n", cause);
		free(cause);
		return;
	}
	ok(rs.sweep != NULL, "it is known for a sweep");
	is_int(rs.nruns, 3, "its three points are the runs");
	is_int(rs.sweep->nsizes, 2, "two sizes");
	is_int(rs.sweep->sizes[1], 8388608, "the second size");
	is_int(rs.sweep->nchunks, 2, "two chunks");
	is_int(rs.sweep->chunks[1], 65536, "the second chunk");
	is_int(rs.sweep->njobs, 1, "one job count");
	is_int(rs.sweep->max_time, 1, "--max-time");
	is_str(rs.sweep->stopped, "max-time", "how it stopped");
	is_int(rs.runs[1].size, 4194304, "point 2: its size");
	is_int(rs.runs[1].chunk, 65536, "point 2: its chunk");
	is_int(rs.runs[2].size, 8388608, "point 3: its size");
	is_int(rs.runs[2].jobs, 1, "point 3: its job count");
	is_str(rs.set.dir, "/mnt/x", "the directory");
	is_int(rs.set.phases, 1u << PH_WRITE, "the phases selected");
	if (!ok(sweep_from_set(&rs, &b, &cause) == 0,
	    "the sweep_result is made again")) {
		printf("# %s\n", cause);
		free(cause);
		rs_free(&rs);
		return;
	}
	is_int(b.r.npoints, 3, "three points measured");
	ok(b.r.points[2].res.ph[PH_WRITE].ran &&
	    b.r.points[2].res.ph[PH_WRITE].rate == 500.45,
	    "point 3's write rate, exactly");
	ok(!b.r.points[2].res.ph[PH_PUTC].ran, "a null phase did not run");
	s = capture(sweep_print_head, &b.r);
	t = capture(sweep_print_tables, &b.r);
	if (s != NULL && t != NULL) {
		s = realloc(s, strlen(s) + strlen(t) + 1);
		strcat(s, t);
	}
	is_str(s, tables, "the head line and the table, as the sweep prints");
	free(s);
	free(t);
	/* One step of single runs: too few to tell the noise. */
	s = capture(sweep_print_knees, &b.r);
	ok(s != NULL && strstr(s, "falls 50%") == NULL && strstr(s,
	    "  (1 more change over 30% in the medians") != NULL,
	    "a single-run step with no noise to judge by: said, not named");
	free(s);
	sweep_readback_free(&b);
	rs_free(&rs);
}

/*
 * The same fall with three runs a side in "more_runs", and the points'
 * "stats" calling them precise: the runs' test names the knee, and the
 * table shows the medians.
 */
#define PT3(size, rate, r2, r3)						\
	"  {\"size_bytes\": " #size ", \"chunk\": 4096, \"jobs\": 1,"	\
	" \"phases\": {\"write\": {\"rate\": " #rate "}},"		\
	" \"more_runs\": [{\"phases\": {\"write\": {\"rate\": " #r2 "}}},"\
	" {\"phases\": {\"write\": {\"rate\": " #r3 "}}}],"		\
	" \"stats\": {\"write\": {\"precise\": true}}}"

static const char repeated[] = HEAD
    " \"sweep\": {\"sizes\": [4194304, 8388608], \"chunks\": [4096],"
    " \"jobs\": [1], \"capped\": false, \"repeat\": 3, \"knee_pct\": 30},\n"
    " \"points\": [\n"
    PT3(4194304, 1000, 1010, 990) ",\n"
    PT3(8388608, 500, 505, 495) "\n"
    " ],\n \"stopped\": null\n}\n";

static void
test_repeated(void)
{
	struct result_set	 rs;
	struct sweep_readback	 b;
	char			*cause = NULL, *s;

	if (!ok(rs_read_buf("rep.json", repeated, sizeof(repeated) - 1, &rs,
	    &cause) == 0, "a record of 3 runs a point reads") ||
	    !ok(sweep_from_set(&rs, &b, &cause) == 0, "  and is made again")) {
		printf("# %s\n", cause);
		free(cause);
		return;
	}
	is_int(rs.nruns, 6, "  six runs in the set");
	is_int(b.r.npoints, 2, "  two points");
	is_int(sweep_point_nruns(&b.r.points[1]), 3, "  three runs a point");
	s = capture(sweep_print_tables, &b.r);
	ok(s != NULL && strstr(s, "block write, K/sec, median of 3 runs\n"
	    "    size         4k\n      4M       1000\n      8M        500\n")
	    != NULL, "  the table of the medians");
	free(s);
	s = capture(sweep_print_knees, &b.r);
	ok(s != NULL && strstr(s, "  block write, chunk 4k: falls 50% between "
	    "4 MiB and 8 MiB (RAM is 4.0 GiB)\n") != NULL,
	    "  the knee, by the runs' test");
	free(s);
	sweep_readback_free(&b);
	rs_free(&rs);
}

/* A record that must be refused, with these words in the cause. */
static void
bad(const char *desc, const char *json, const char *want, int late)
{
	struct result_set	 rs;
	struct sweep_readback	 b;
	char			*cause = NULL;
	int			 r;

	r = rs_read_buf("bad.json", json, strlen(json), &rs, &cause);
	if (late && r == 0) {
		r = sweep_from_set(&rs, &b, &cause);
		rs_free(&rs);
	}
	ok(r == -1 && cause != NULL && strstr(cause, want) != NULL, desc);
	if (cause != NULL)
		printf("# %s\n", cause);
	free(cause);
}

static void
test_bad(void)
{
	bad("no sweep object", HEAD " \"points\": [" PT(4194304, 4096, 1)
	    "]}", "bad.json:1: sweep record has no \"sweep\" object", 0);
	bad("no points", HEAD SWEEP " \"runs\": []}",
	    "bad.json:1: record has no \"points\" array", 0);
	bad("sizes not ascending", HEAD " \"sweep\": {\"sizes\": [8388608, "
	    "4194304], \"chunks\": [4096], \"jobs\": [1], \"knee_pct\": 30},\n"
	    " \"points\": [" PT(8388608, 4096, 1) "]}",
	    "bad.json:5: \"sizes\" is not a list", 0);
	bad("a knee threshold out of range", HEAD " \"sweep\": {\"sizes\": "
	    "[4194304], \"chunks\": [4096], \"jobs\": [1], \"knee_pct\": 0},\n"
	    " \"points\": [" PT(4194304, 4096, 1) "]}",
	    "\"knee_pct\" is not a percentage", 0);
	bad("a point without its chunk", HEAD SWEEP " \"points\": [\n"
	    "  {\"size_bytes\": 4194304, \"jobs\": 1, \"phases\": {}}]}",
	    "bad.json:7: point without \"size_bytes\", \"chunk\" or \"jobs\"",
	    0);
	bad("points out of order", HEAD SWEEP " \"points\": [\n"
	    PT(4194304, 65536, 1) "]}",
	    "bad.json:7: point 1 is not the one the sweep runs there (4M, "
	    "chunk 4k, -j 1)", 1);
	bad("more points than the axes make", HEAD SWEEP " \"points\": [\n"
	    PT(4194304, 4096, 1) ",\n" PT(4194304, 65536, 1) ",\n"
	    PT(8388608, 4096, 1) ",\n" PT(8388608, 65536, 1) ",\n"
	    PT(8388608, 65536, 1) "]}", "5 points, more than", 1);
}

int
main(void)
{
	(void)tap_skip;
	test_good();
	test_repeated();
	test_bad();
	return done_testing();
}
