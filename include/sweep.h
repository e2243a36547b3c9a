/*
 * "bonnie-ng sweep": the parsers for its option values and the list of
 * file sizes, kept apart from cmd-sweep.c so that they are unit-testable
 * without the engine.
 */
#ifndef BONNIE_SWEEP_H
#define BONNIE_SWEEP_H

#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "result.h"
#include "sysinfo.h"

#define SWEEP_DEFAULT_LO	((uint64_t)64 << 20)
#define SWEEP_MAX_SIZES		48
#define SWEEP_MAX_CHUNKS	16
#define SWEEP_DEFAULT_CHUNKS	"4k,16k,64k"
#define SWEEP_DEFAULT_PHASES	"write,rewrite,read,seeks"
#define SWEEP_MAX_JOBS		16
#define SWEEP_MAX_FILES		16
#define SWEEP_MAX_SEEKERS	16
/* The most values along any one axis (the sizes). */
#define SWEEP_MAX_POINTS_AXIS	SWEEP_MAX_SIZES

/*
 * The axes of the grid of points, in the order they nest: size by size,
 * within one size chunk by chunk, then job count by job count, seeker
 * count by seeker count, then file count by file count.
 */
enum sweep_dim {
	SWEEP_SIZE,
	SWEEP_CHUNK,
	SWEEP_JOBS,
	SWEEP_SEEKERS,
	SWEEP_FILES,
	SWEEP_DIMS
};
/* The schema of the sweep record. */
#define SWEEP_SCHEMA		"bonnie-ng-sweep/1"

/*
 * Parse --sizes: "LO..HI" or a single size "LO" (then *hi is 0, meaning
 * "up to the default").  A bare number is in MiB, as for -s.  0, or -1
 * with the reason in *cause, naming the value, for the parser to put
 * after "invalid value for --sizes: ".
 */
int	sweep_parse_sizes(const char *, uint64_t *lo, uint64_t *hi,
	    char **cause);

/*
 * Parse --chunks: a comma-separated list of powers of two from MIN_CHUNK
 * to MAX_CHUNK bytes (a bare number is in bytes).  The list comes back
 * sorted, without repeats; returns how many, or -1 with the reason in
 * *cause (as for sweep_parse_sizes()).
 */
int	sweep_parse_chunks(const char *, uint64_t *out, int max, char **cause);

/*
 * Parse --jobs: a comma-separated list of job counts from 1 to MAX_JOBS.
 * The list comes back sorted, without repeats; returns how many, or -1
 * with *cause.
 */
int	sweep_parse_jobs(const char *, int *out, int max, char **cause);
/*
 * Parse --seeker-counts: a comma-separated list of seeker counts, each
 * as -S takes one (1 to MAX_SEEKERS), sorted, without repeats; as for
 * sweep_parse_jobs().
 */
int	sweep_parse_seekers(const char *, int *out, int max, char **cause);

/*
 * Parse --files: "N1,N2,...[:MAX[:MIN[:DIRS]]]", each N in units of 1024
 * files and checked as --files N[:MAX[:MIN[:DIRS]]] is (files_parse()),
 * the sizes and directories shared by every count and set in o.  The
 * counts come back as files (N x 1024), sorted, without repeats; returns
 * how many, or -1 with *cause (as for sweep_parse_sizes()).
 */
int	sweep_parse_files(const char *, uint64_t *out, int max,
	    struct options *o, char **cause);

/*
 * The sizes of the sweep: lo, 2 lo, 4 lo, ... while not above hi, at most
 * max of them.  Returns how many.
 */
int	sweep_size_list(uint64_t lo, uint64_t hi, uint64_t *out, int max);

/* The most runs of one point: -x, and --min-time's repeats after it. */
#define SWEEP_MAX_RUNS		MAX_REPEAT
/* The most runs --min-time makes of a point. */
#define SWEEP_MIN_TIME_RUNS	64

/*
 * One point: a file size, a chunk size, a job count, a seeker count (0
 * without --seeker-counts) and a file count (0 without --files), and what its runs measured: the first in res, the
 * others (-x, --min-time) in more[0 .. nmore), in the order they ran.
 * imprecise has bit id set when phase id's runs took less than the
 * sweep's precision bound in all (sweep_point_settle()).
 */
struct sweep_point {
	uint64_t		 size;
	uint64_t		 chunk;
	int			 jobs;
	int			 seekers;	/* 0: the options' (no axis). */
	uint64_t		 files;
	struct run_result	 res;
	int			 nmore;
	struct run_result	*more;
	unsigned		 imprecise;
};

/* How many runs point pt has had (0 before its first), and run k. */
int	sweep_point_nruns(const struct sweep_point *);
const struct run_result *sweep_point_run(const struct sweep_point *, int k);
/*
 * The rates of phase id in the point's runs that measured it, into v
 * (room for SWEEP_MAX_RUNS); returns how many.
 */
int	sweep_point_rates(const struct sweep_point *, enum phase_id,
	    double *v);
/* The seconds phase id ran in all the point's runs. */
double	sweep_point_seconds(const struct sweep_point *, enum phase_id);

/*
 * A whole sweep, as measured so far.  The points are in the order they
 * run: size by size, ascending, within one size chunk by chunk, within
 * one chunk job count by job count, within one job count seeker count by
 * seeker count and within one seeker count file count by file count; the
 * point of size i, chunk k, job count j, seeker count e and file count f
 * is points[(((i * nchunks + k) * njobs + j) * nseekers + e) * nfiles + f]
 * (sweep_index()), and only the first npoints of them were run.  A count
 * of 0 for njobs, nseekers or nfiles counts as 1.
 */
struct sweep_result {
	const struct options	*opt;		/* Base options (dir, phases,
						   cache, seekers, ram). */
	const struct sysinfo	*sys;		/* May be NULL. */
	char			 start_utc[32];
	int			 nsizes;
	uint64_t		 sizes[SWEEP_MAX_SIZES];
	int			 nchunks;
	uint64_t		 chunks[SWEEP_MAX_CHUNKS];
	int			 njobs;		/* 1 without --jobs. */
	int			 jobs[SWEEP_MAX_JOBS];
	int			 nseekers;	/* 1 without --seeker-counts, */
	int			 seekers[SWEEP_MAX_SEEKERS]; /* and 0. */
	int			 nfiles;	/* 1 without --files, */
	uint64_t		 files[SWEEP_MAX_FILES]; /* and files[0] 0. */
	int			 capped;	/* The default top was cut to
						   half the free space. */
	double			 knee_pct;
	uint64_t		 max_time;	/* Seconds; 0 for none. */
	int			 npoints;
	struct sweep_point	*points;
	const char		*stopped;	/* NULL when complete, else
						   "max-time", "error" or a
						   signal name. */
	int			 lock_held;	/* --lock-mem held to the end:
						   1, 0; -1 no lock. */
	int			 running;	/* Written between points: the
						   record says "unfinished". */
	int			 repeat;	/* -x: runs of every point (0
						   counts as 1). */
	double			 min_time;	/* --min-time, seconds; 0 none. */
};

/*
 * The precision bound of a phase at a point: --min-time, or with none
 * the run's (PRECISE_SECONDS).
 */
double	sweep_precision_bound(const struct sweep_result *);
/*
 * Set pt->imprecise from its runs: bit id when phase id ran less than
 * the bound in all.
 */
void	sweep_point_settle(const struct sweep_result *, struct sweep_point *);
/* Whether phase id at the point at is precise; 0 when not measured. */
int	sweep_precise_at(const struct sweep_result *, enum phase_id,
	    const int *at);
/*
 * Phase id's rates at the point at, each of its runs (into v, room for
 * SWEEP_MAX_RUNS); returns how many (0 when not measured).
 */
int	sweep_rates_at(const struct sweep_result *, enum phase_id,
	    const int *at, double *v);
/*
 * The spread of phase id at the point at: the coefficient of variation of
 * its runs' rates (sd / mean); NaN under two runs.
 */
double	sweep_cv_at(const struct sweep_result *, enum phase_id, const int *at);

/*
 * The knee samples of phase id along dimension d through the point at
 * (knee.h): each point's median, runs and precision, the runs kept in
 * *store (to free).
 */
struct knee_sample;
void	sweep_samples(const struct sweep_result *, enum phase_id,
	    const int *at, enum sweep_dim d, struct knee_sample *,
	    double **store);
/*
 * The noise of single runs of phase id, for every knee of the sweep:
 * knee_noise() of the steps between neighbouring sizes and between
 * neighbouring file counts, through every point of the other axes (steps
 * along chunks and job counts are the curve itself, not noise).
 */
double	sweep_noise(const struct sweep_result *, enum phase_id);

/*
 * Whether the sweep has a file count axis (--files): then it runs only
 * the file creation phases, at one size and chunk.
 */
int	sweep_files_mode(const struct sweep_result *);
/* How many values dimension d has (at least 1), and value i of it. */
int	sweep_dim_len(const struct sweep_result *, int d);
uint64_t sweep_dim_value(const struct sweep_result *, int d, int i);
/* Value i of d as a table labels it: "64M", "16k", "-j 2", "16k" files. */
void	sweep_dim_label(char *, size_t, const struct sweep_result *, int d,
	    int i);
/* The number of points of the whole grid. */
int	sweep_npoints(const struct sweep_result *);
/* The index in points[] of the point at[SWEEP_DIMS]; -1 out of range. */
int	sweep_index(const struct sweep_result *, const int *at);
/*
 * The rate of phase id at the point at, the median of its runs; NaN when
 * not measured.
 */
double	sweep_rate_at(const struct sweep_result *, enum phase_id,
	    const int *at);
/*
 * The rates of phase id along dimension d, through the point at (whose
 * d-th index is ignored), into v[0 .. sweep_dim_len(d)).
 */
void	sweep_series(const struct sweep_result *, enum phase_id,
	    const int *at, enum sweep_dim d, double *v);

/*
 * The rate of phase id at size i and chunk k (and the first job count);
 * NaN when not measured.
 */
double	sweep_rate(const struct sweep_result *, enum phase_id, int i, int k);
/* The same at job count j. */
double	sweep_rate_jobs(const struct sweep_result *, enum phase_id, int i,
	    int k, int j);

/*
 * The tables, one per phase selected: a title line ("block write,
 * K/sec"), a header line ("size" and the chunk sizes), one row per file
 * size, and an empty line.
 */
void	sweep_print_tables(FILE *, const struct sweep_result *);
/*
 * One table of phase id: the title line, a header of the row
 * dimension's name and the column values, a row per value of row, each
 * through the point at (whose row and col indexes are ignored), and an
 * empty line.  A single column of job counts is headed by the unit.
 */
void	sweep_table(FILE *, const struct sweep_result *, enum phase_id,
	    enum sweep_dim row, enum sweep_dim col, const int *at,
	    const char *title);
/* The cache mode in words: "direct" with --direct, else --cache's. */
const char *sweep_cache_name(const struct sweep_result *);
/*
 * The line after the knees saying that n candidates on the medians were
 * not named (nothing when n is 0), hint ("larger sizes, ") before the
 * options that would tell: --min-time (a longer one when it was given)
 * and -x 3, or twice the sweep's -x when that was 3 or more.
 */
void	sweep_print_left_out(FILE *, const struct sweep_result *, int n,
	    const char *hint);
/* The knees in words, or a line saying there are none. */
void	sweep_print_knees(FILE *, const struct sweep_result *);

/* The record, schema bonnie-ng-sweep/1.  0, or -1 with errno. */
int	sweep_write_json(FILE *, const struct sweep_result *);
/* The SVG plot.  0, or -1 with errno. */
int	sweep_write_svg(FILE *, const struct sweep_result *);
/*
 * Sweeps of the same sizes and chunks over one another (report -o svg
 * and -o html of several): a panel per phase, a colour per source, a
 * dash per chunk, each sweep's knees ringed; the key under the title
 * names each source "sweep K: " and names[K - 1], the legend each line
 * "sweep K, chunk C".  0, or -1 with errno.
 */
int	sweep_write_svg_overlay(FILE *, const struct sweep_result *const *,
	    const char *const *names, int n);

/*
 * The line above the tables: the directory, the sizes (or the file
 * counts), how many of the points were measured and the cache mode.
 */
void	sweep_print_head(FILE *, const struct sweep_result *);

/*
 * A sweep read back from its record (sweep-set.c): the result and what it
 * points to.  sweep_from_set() fills b from a result set read from a
 * sweep record (rs->sweep set); the strings stay the set's, so the set
 * must outlive b.  0, or -1 with *cause (nothing to free).
 */
struct result_set;
struct sweep_readback {
	struct sweep_result	 r;
	struct options		 opt;
	struct sysinfo		 sys;
};
int	sweep_from_set(const struct result_set *, struct sweep_readback *b,
	    char **cause);
void	sweep_readback_free(struct sweep_readback *);

/*
 * The list axes, job counts, seeker counts and file counts (sweep-axis.c):
 * with a file count axis or more than one job or seeker count, the tables
 * by count (by file count when there is one; by seeker count, the seeks
 * phase's), the knees along each axis in words, the record's arrays
 * "concurrency_knees", "files_knees" and "seekers_knees", and the plot of
 * the rate against the count (the file count when there is one, else the
 * job count, else the seeker count) with each knee ringed.
 */
struct json;
void	sweep_axis_print_tables(FILE *, const struct sweep_result *);
/* Whether phase id's tables are by seeker count (the seeks phase's). */
int	sweep_axis_seekers_take(const struct sweep_result *, enum phase_id);
void	sweep_axis_print_knees(FILE *, const struct sweep_result *);
void	sweep_axis_write_knees(struct json *, const struct sweep_result *);
int	sweep_axis_write_svg(FILE *, const struct sweep_result *);

#endif
