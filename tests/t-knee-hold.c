/*
 * Knees that hold (src/knee-hold.c) on synthetic samples: a step named
 * only between precise points that differ beyond their runs' spread (by
 * compare's test with three runs or more a side) or, for single runs, by
 * more than KNEE_FAR times the noise of the steps, marked single; the
 * same for the knees along the job and file counts.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "knee.h"
#include "tap.h"

#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define RUNS	5

/* Sample i: runs around m (m x (1 + spread x d_k)), precise or not. */
static double	store[16][RUNS];

static void
fill(struct knee_sample *s, int i, double m, double spread, int nruns,
    int precise)
{
	static const double	d[RUNS] = { 0, -1, 1, -0.5, 0.5 };
	int			k;

	for (k = 0; k < nruns; k++)
		store[i][k] = m * (1 + spread * d[k]);
	s[i].runs = store[i];
	s[i].nruns = nruns;
	s[i].rate = m;
	s[i].precise = precise;
}

/* Samples 0 .. n-1 of the curve v, the points in mask imprecise. */
static void
curve(struct knee_sample *s, const double *v, int n, double spread,
    int nruns, unsigned mask)
{
	int	i;

	for (i = 0; i < n; i++)
		fill(s, i, v[i], spread, nruns, !(mask >> i & 1));
}

static void
test_runs(void)
{
	struct knee_sample	s[5];
	struct knee		k[4];
	int			i, n, cand;

	/* Flat at 100, then 30 from size 3: five tight runs each. */
	for (i = 0; i < 5; i++)
		fill(s, i, i < 3 ? 100 : 30, 0.02, RUNS, 1);
	n = knee_sizes_held(s, 5, 30, NAN, k, 4, &cand);
	is_int(n, 1, "tight runs: the fall holds");
	is_int(cand, 1, "tight runs: one candidate");
	is_int(k[0].from, 2, "  from the last fast size");
	is_int(k[0].to, 3, "  to the first slow one");
	is_int(k[0].single, 0, "  by the runs' test, not single");

	/* The same medians, runs spread over a factor of ten: no knee. */
	for (i = 0; i < 5; i++)
		fill(s, i, i < 3 ? 100 : 30, 1.8, RUNS, 1);
	n = knee_sizes_held(s, 5, 30, NAN, k, 4, &cand);
	is_int(n, 0, "runs within each other's spread: no knee");
	is_int(cand, 1, "  though the medians make a candidate");
}

static void
test_imprecise(void)
{
	struct knee_sample	s[5];
	struct knee		k[4];
	int			n, cand;

	/* An imprecise point between the levels hides no knee. */
	fill(s, 0, 100, 0.02, RUNS, 1);
	fill(s, 1, 100, 0.02, RUNS, 1);
	fill(s, 2, 70, 0.02, RUNS, 0);
	fill(s, 3, 30, 0.02, RUNS, 1);
	fill(s, 4, 30, 0.02, RUNS, 1);
	n = knee_sizes_held(s, 5, 30, NAN, k, 4, &cand);
	is_int(n, 1, "an imprecise point between: the knee across it");
	is_int(k[0].from, 1, "  from the precise point before it");
	is_int(k[0].to, 3, "  to the precise point after it");

	/* An imprecise last point makes no knee of its own. */
	fill(s, 2, 100, 0.02, RUNS, 1);
	fill(s, 3, 100, 0.02, RUNS, 1);
	fill(s, 4, 10, 0.02, RUNS, 0);
	n = knee_sizes_held(s, 5, 30, NAN, k, 4, &cand);
	is_int(n, 0, "an imprecise point never makes a knee");
	ok(cand >= 1, "  though its median makes a candidate");
}

static void
test_single(void)
{
	/* Single runs: small steps, then a fall by a factor of 8. */
	double			v[] = { 100, 104, 99, 103, 12.5, 12.9, 12.4 };
	double			steps[8], noise;
	struct knee_sample	s[7];
	struct knee		k[4];
	char			buf[160];
	int			m, n;

	curve(s, v, N(v), 0, 1, 0);
	m = knee_steps(s, N(v), steps);
	is_int(m, 6, "six steps between seven points");
	noise = knee_noise(steps, m);
	is_near(noise, 0.0587, 0.001, "the noise: the median step / 0.6745");
	n = knee_sizes_held(s, N(v), 30, noise, k, 4, NULL);
	is_int(n, 1, "single runs: the fall far above the noise holds");
	is_int(k[0].from, 3, "  from size 3");
	is_int(k[0].single, 1, "  marked single");
	knee_format(buf, sizeof(buf), "read", 65536, &k[0], 4u << 20,
	    8u << 20, 1u << 30);
	is_str(buf, "block read, chunk 64k: falls 88% between 4 MiB and "
	    "8 MiB (RAM is 1.0 GiB; single run)", "  in words");
	knee_format(buf, sizeof(buf), "read", 65536, &k[0], 4u << 20,
	    8u << 20, 0);
	is_str(buf, "block read, chunk 64k: falls 88% between 4 MiB and "
	    "8 MiB (single run)", "  in words without RAM");

	/* A 35% step among steps of 20%: not far above the noise. */
	fill(s, 0, 100, 0, 1, 1);
	fill(s, 1, 120, 0, 1, 1);
	fill(s, 2, 100, 0, 1, 1);
	fill(s, 3, 120, 0, 1, 1);
	fill(s, 4, 65, 0, 1, 1);
	fill(s, 5, 64, 0, 1, 1);
	fill(s, 6, 66, 0, 1, 1);
	m = knee_steps(s, 7, steps);
	noise = knee_noise(steps, m);
	n = knee_sizes_held(s, 7, 30, noise, k, 4, NULL);
	is_int(n, 0, "single runs: a step near the noise does not hold");

	/* Too few steps to tell the noise: no single-run knee. */
	ok(isnan(knee_noise(steps, 2)), "under three steps: noise unknown");
	n = knee_sizes_held(s, 3, 30, NAN, k, 4, NULL);
	is_int(n, 0, "unknown noise: no single-run knee");
}

static void
test_chunks(void)
{
	struct knee_sample	s[3];
	struct knee_chunk	c[2];
	int			n;

	fill(s, 0, 100, 0.02, RUNS, 1);
	fill(s, 1, 20, 0.02, RUNS, 1);
	fill(s, 2, 100, 0.02, RUNS, 1);
	n = knee_chunks_held(s, 3, 30, NAN, c, 2, NULL);
	is_int(n, 1, "a bad chunk below both neighbours beyond the spread");
	is_int(c[0].index, 1, "  the middle one");
	is_int(c[0].single, 0, "  by the runs' test");
	fill(s, 2, 100, 1.8, RUNS, 1);
	n = knee_chunks_held(s, 3, 30, NAN, c, 2, NULL);
	is_int(n, 0, "one neighbour within its spread: not bad");
	fill(s, 2, 100, 0.02, RUNS, 0);
	n = knee_chunks_held(s, 3, 30, NAN, c, 2, NULL);
	is_int(n, 0, "an imprecise neighbour: not judged");
}

/*
 * The concurrency knee (sweep --jobs): named when the rise into it holds,
 * or, at the first count, the fall out of it.
 */
static void
test_jobs(void)
{
	const double		 up[] = { 100, 200, 205, 203 };
	const double		 up1[] = { 100, 190, 205, 203 };
	const double		 flat[] = { 100, 102, 101 };
	const double		 down[] = { 100, 70, 60 };
	struct knee_sample	 s[4];
	struct knee		 k;
	char			 buf[200];
	int			 cand;

	curve(s, up, N(up), 0.02, RUNS, 0);
	is_int(knee_jobs_held(s, N(up), 30, NAN, &k, &cand), 1,
	    "jobs, tight runs: the aggregate stops rising at the second "
	    "count");
	is_int(cand, 1, "  one candidate");
	is_int(k.single, 0, "  by the runs' test");
	is_near(k.pct, 100.0 * (205 - 200) / 200, 1e-9,
	    "  the most a later count added");
	curve(s, up, N(up), 1.8, RUNS, 0);
	is_int(knee_jobs_held(s, N(up), 30, NAN, &k, &cand), -1,
	    "jobs, the rise within the runs' spread: no knee");
	is_int(cand, 1, "  though the medians make a candidate");

	curve(s, flat, N(flat), 0.02, RUNS, 0);
	is_int(knee_jobs_held(s, N(flat), 30, NAN, &k, &cand), -1,
	    "jobs, flat from the first count: it bends nowhere");
	is_int(cand, 1, "  though the medians make a candidate there");
	curve(s, down, N(down), 0.02, RUNS, 0);
	is_int(knee_jobs_held(s, N(down), 30, NAN, &k, NULL), 0,
	    "jobs, falling from the first count beyond the spread: the knee "
	    "is the first");
	ok(k.pct < 0, "  and the gain beyond it is negative");

	/* An imprecise count is not measured: the knee is the next one. */
	curve(s, up, N(up), 0.02, RUNS, 1u << 1);
	is_int(knee_jobs_held(s, N(up), 30, NAN, &k, NULL), 2,
	    "jobs, the knee's count imprecise: the next precise count, the "
	    "rise from the first");

	/* Single runs: the rise against the noise of the steps. */
	curve(s, up1, N(up1), 0, 1, 0);
	is_int(knee_jobs_held(s, N(up), 30, 0.05, &k, NULL), 1,
	    "jobs, single runs: a rise of 90% over a noise of 5% holds");
	is_int(k.single, 1, "  marked single");
	knee_jobs_say(buf, sizeof(buf), "write", "64 MiB, chunk 16k", 2,
	    k.pct, 30, k.single);
	is_str(buf, "block write, 64 MiB, chunk 16k: the aggregate stops "
	    "rising at 2 jobs (beyond: at most +8%, under 30%; single run)",
	    "  in words");
	is_int(knee_jobs_held(s, N(up), 30, 0.3, &k, NULL), -1,
	    "jobs, single runs: not three times a noise of 30%");
	is_int(knee_jobs_held(s, N(up), 30, NAN, &k, NULL), -1,
	    "jobs, single runs, the noise unknown: no knee");
}

/* The files knee: named when the fall from the best before it holds. */
static void
test_files(void)
{
	const double		 cliff[] = { 300, 295, 301, 120, 110 };
	struct knee_sample	 s[5];
	struct knee		 k;
	char			 buf[200];
	int			 cand;

	curve(s, cliff, N(cliff), 0.02, RUNS, 0);
	is_int(knee_files_held(s, N(cliff), 30, NAN, &k, &cand), 2,
	    "files, tight runs: the knee before the cliff");
	ok(k.from == 2 && k.to == 3 && k.before == 301 && k.after == 120 &&
	    k.confirmed == 1, "  from the knee to the first count fallen");
	is_int(k.single, 0, "  by the runs' test");
	is_int(cand, 1, "  one candidate");
	curve(s, cliff, N(cliff), 1.8, RUNS, 0);
	is_int(knee_files_held(s, N(cliff), 30, NAN, &k, &cand), -1,
	    "files, the fall within the runs' spread: no knee");
	is_int(cand, 1, "  though the medians make a candidate");
	curve(s, cliff, N(cliff), 0.02, RUNS, ~7u);
	is_int(knee_files_held(s, N(cliff), 30, NAN, &k, &cand), -1,
	    "files, the counts fallen imprecise: no knee");
	is_int(cand, 1, "  though their medians make a candidate");

	curve(s, cliff, N(cliff), 0, 1, 0);
	is_int(knee_files_held(s, N(cliff), 30, 0.05, &k, NULL), 2,
	    "files, single runs: a fall of 60% over a noise of 5% holds");
	is_int(k.single, 1, "  marked single");
	knee_files_format(buf, sizeof(buf), "create", "", 4096, 8192, &k, 30);
	is_str(buf, "sequential create: files/s falls 60% beyond 4k files "
	    "(best up to there 301/s, 120/s at 8k files; threshold 30%; "
	    "single run)", "  in words");
	is_int(knee_files_held(s, N(cliff), 30, 0.4, &k, NULL), -1,
	    "files, single runs: not three times a noise of 40%");
}

int
main(void)
{
	(void)tap_skip;		/* Nothing here is ever skipped. */
	test_runs();
	test_imprecise();
	test_single();
	test_chunks();
	test_jobs();
	test_files();
	return done_testing();
}
