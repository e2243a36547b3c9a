/*
 * The knee finder of "bonnie-ng sweep": pure functions on arrays of
 * measured rates, no I/O, so every rule is unit-testable.
 *
 * Across file sizes (one phase, one chunk size, sizes ascending), a knee
 * is a step between two neighbouring measured sizes, from level A (the
 * rate at the smaller size) to level B (the rate at the larger one):
 *
 *  - it falls when B is below A by more than PCT percent of A, and rises
 *    when B is above A by more than PCT percent of A;
 *  - it stays: every later point is also more than PCT percent beyond A
 *    on the same side (below A for a fall, above A for a rise), so a dip
 *    that comes back to within PCT of A is not a knee;
 *  - it is not the undoing of an earlier step: every earlier point is
 *    also more than PCT percent away from B, changing in the same
 *    direction (above B for a fall, below B for a rise), so the recovery
 *    after a single slow point is not a knee either.
 * The step at the last pair has no later point to confirm it and counts;
 * struct knee says how many later points did confirm each step.
 *
 * Across chunk sizes (one phase, one file size, chunks ascending), a bad
 * chunk size is one whose rate is below both measured neighbours by more
 * than PCT percent of each.  The smallest and largest chunk sizes have one
 * neighbour and are not judged (a slower smallest chunk is the expected
 * cost of more calls).
 *
 * Points not measured are NaN (or not positive) and are left out: the
 * neighbours of a point are the nearest measured points.
 */
#ifndef BONNIE_KNEE_H
#define BONNIE_KNEE_H

#include <stddef.h>
#include <stdint.h>

#define KNEE_DEFAULT_PCT	30

enum knee_dir {
	KNEE_FALLS = -1,
	KNEE_RISES = 1
};

/* A step across file sizes. */
struct knee {
	int		 from;		/* Index of the smaller size. */
	int		 to;		/* Index of the larger size. */
	enum knee_dir	 dir;
	double		 pct;		/* |B - A| / A x 100. */
	double		 before;	/* A */
	double		 after;		/* B */
	int		 confirmed;	/* Later points that stayed. */
	int		 single;	/* Held by the noise rule: a side
					   had under KNEE_MIN_RUNS runs. */
};

/* A chunk size much worse than both neighbours. */
struct knee_chunk {
	int		 index;		/* The bad chunk size. */
	int		 left;		/* Its measured neighbours. */
	int		 right;
	double		 pct;		/* How far below the slower
					   neighbour, in percent. */
	int		 single;	/* As for struct knee. */
};

/*
 * Find the knees in v[0..n-1] with threshold pct (0 < pct < 100).  At
 * most max are stored in out, in order of size; returns how many were
 * found (which may exceed max).
 */
int	knee_sizes(const double *v, int n, double pct, struct knee *out,
	    int max);

/* Find the bad chunk sizes in v[0..n-1]; returns how many, like above. */
int	knee_chunks(const double *v, int n, double pct, struct knee_chunk *out,
	    int max);

/*
 * Across chunk sizes, a cliff: between two neighbouring measured chunk
 * sizes, the calls a second (the rate over the chunk size) higher at the
 * larger one by more than PCT percent.  A larger call costs at least what
 * a smaller one does, unless the smaller paid for something per call that
 * the larger does not: below the page size, a write of part of a page the
 * cache does not hold reads the page first (read-modify-write).
 */
struct knee_cliff {
	int		 from;		/* The smaller chunk size's index, */
	int		 to;		/* the larger's. */
	double		 ratio;		/* Calls a second at to over from. */
	int		 single;	/* As for struct knee. */
};
int	knee_chunk_cliffs(const double *v, const uint64_t *chunks, int n,
	    double pct, struct knee_cliff *out, int max);
int	knee_cliff_format(char *buf, size_t len, const char *phase,
	    uint64_t size, const struct knee_cliff *k, uint64_t from,
	    uint64_t to);

/*
 * Knees that hold (src/knee-hold.c).  The rules above, on the points'
 * medians, find the candidates; a candidate is named only when its points
 * are precise (their phases ran long enough: an imprecise point counts as
 * not measured) and differ beyond their spread: with KNEE_MIN_RUNS runs
 * or more on both sides of the step, by the test compare uses
 * (cmp_values(): Mann-Whitney, or a bootstrap interval of the median
 * difference, at 95%); with fewer, when the step is more than KNEE_FAR
 * times the noise of single runs (knee_noise()), and it is marked single.
 * A bad chunk must hold so against both neighbours.
 */
#define KNEE_MIN_RUNS	3
#define KNEE_FAR	3

/* One point of a series: its median, its runs, whether it is precise. */
struct knee_sample {
	double		 rate;		/* NaN (or <= 0): not measured. */
	const double	*runs;		/* The runs' rates, */
	int		 nruns;		/* nruns of them. */
	int		 precise;
};

/*
 * The steps of a series into out (room for n - 1): the natural log of
 * each ratio between neighbouring precise measured points.  Returns how
 * many.
 */
int	knee_steps(const struct knee_sample *, int n, double *out);
/*
 * The noise of single runs from the steps of every series of a phase:
 * the median absolute step over 0.6745 (a robust standard deviation of a
 * step), so that the few real knees among many steps do not raise it;
 * NaN under three steps (not enough to tell the noise).
 */
double	knee_noise(const double *steps, int n);
/*
 * knee_sizes() and knee_chunks() on samples, keeping only what holds;
 * noise is knee_noise()'s (NaN: no single-run step holds).  *candidates,
 * when not NULL, gets how many the rules found on the medians of every
 * point, precise or not.
 */
int	knee_sizes_held(const struct knee_sample *, int n, double pct,
	    double noise, struct knee *out, int max, int *candidates);
int	knee_chunks_held(const struct knee_sample *, int n, double pct,
	    double noise, struct knee_chunk *out, int max, int *candidates);
/* knee_chunk_cliffs() so, the calls a second of both points holding. */
int	knee_chunk_cliffs_held(const struct knee_sample *,
	    const uint64_t *chunks, int n, double pct, double noise,
	    struct knee_cliff *out, int max, int *candidates);

/*
 * The knees along the list axes that hold, likewise: the candidate is
 * knee_jobs()'s or knee_files()'s on the precise points' medians, named
 * only when the step that makes it holds as above.  A concurrency knee
 * after the first count needs the rise into it from the measured count
 * before (the aggregate did rise up to it); one at the first count, the
 * fall from it to the next (more workers are worse: an aggregate that is
 * flat from the first count bends nowhere).  A files knee needs the fall
 * from the best count up to it to the first count fallen.  Each returns
 * the knee's index with *k filled as knee_jobs()'s caller and
 * knee_files() fill it (k->single as above), or -1; *candidates, when
 * not NULL, gets 1 when the rule found a knee on every point's median,
 * precise or not, else 0.
 */
int	knee_jobs_held(const struct knee_sample *, int n, double pct,
	    double noise, struct knee *k, int *candidates);
int	knee_files_held(const struct knee_sample *, int n, double pct,
	    double noise, struct knee *k, int *candidates);

/* "block read", "per-char write": the named phase's words (phase.h). */
const char *knee_phase_words(const char *phase);

/*
 * "block read, chunk 16k: falls 83% between 16384 MiB and 32768 MiB (RAM
 * is 23.4 GiB)"; the RAM is left out when ram is 0.  Returns the length
 * like snprintf(3).
 */
int	knee_format(char *buf, size_t len, const char *phase, uint64_t chunk,
	    const struct knee *, uint64_t size_from, uint64_t size_to,
	    uint64_t ram);

/*
 * "block read, 256 MiB: chunk 4k is 85% below both neighbours (2k and 8k)".
 */
int	knee_chunk_format(char *buf, size_t len, const char *phase,
	    uint64_t size, const struct knee_chunk *, uint64_t chunk,
	    uint64_t left, uint64_t right);

/*
 * The concurrency knee (sweep --jobs): rates v[0..n-1] at job counts
 * ascending.  The knee is the first index i after which no step raises
 * the aggregate by pct percent or more over the best so far: adding
 * workers beyond jobs[i] buys less than the threshold.  Returns i, or -1
 * when the last step still gains that much (no knee: still scaling) or
 * fewer than two points were measured.  *gain gets the largest later
 * gain in percent (may be negative).
 */
int	knee_jobs(const double *v, int n, double pct, double *gain);

/*
 * "block read, 1024 MiB, chunk 16k: the aggregate stops rising at 4 jobs
 * (beyond: at most +3%, under 30%)".
 */
int	knee_jobs_format(char *buf, size_t len, const char *phase,
	    uint64_t size, uint64_t chunk, int jobs, double gain, double pct);

/*
 * The same with the point in words: "1024 MiB, chunk 16k" (may be ""),
 * and "; single run" inside the brackets when single is set.
 */
int	knee_jobs_say(char *buf, size_t len, const char *phase,
	    const char *where, int jobs, double gain, double pct, int single);

/*
 * The files knee (sweep --files): rates v[0..n-1] at file counts
 * ascending.  The first count whose rate is more than pct percent below
 * the best rate at the counts before it, when every later count stays
 * that far below the same best, is where the files outgrew a cache; the
 * knee is the measured count just before it: beyond it the rate falls by
 * more than the threshold.  Returns the knee's index, with out->from the
 * knee, out->to the first count fallen, out->before the best before,
 * out->after the rate at out->to, out->pct the fall in percent of the
 * best and out->confirmed the later counts that stayed; or -1 when there
 * is no such fall (or fewer than two counts were measured).  A fall that
 * comes back to within pct of the best is not a knee.
 */
int	knee_files(const double *v, int n, double pct, struct knee *out);

/*
 * "sequential create: files/s falls 52% beyond 16k files (best up to
 * there 30000/s, 14400/s at 32k files; threshold 30%)", with ", where"
 * after the phase's words when where is not "", and "; single run"
 * inside the brackets when k->single is set.
 */
int	knee_files_format(char *buf, size_t len, const char *phase,
	    const char *where, uint64_t files, uint64_t files_to,
	    const struct knee *, double pct);

#endif
