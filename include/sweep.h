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
 * The sizes of the sweep: lo, 2 lo, 4 lo, ... while not above hi, at most
 * max of them.  Returns how many.
 */
int	sweep_size_list(uint64_t lo, uint64_t hi, uint64_t *out, int max);

/*
 * One point: a file size, a chunk size and a job count, and what the run
 * measured.
 */
struct sweep_point {
	uint64_t		 size;
	uint64_t		 chunk;
	int			 jobs;
	struct run_result	 res;
};

/*
 * A whole sweep, as measured so far.  The points are in the order they
 * run: size by size, ascending, within one size chunk by chunk, and
 * within one chunk job count by job count; the point of size i, chunk k
 * and job count j is points[(i * nchunks + k) * njobs + j], and only the
 * first npoints of them were run.
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
};

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
/* The knees in words, or a line saying there are none. */
void	sweep_print_knees(FILE *, const struct sweep_result *);

/* The record, schema bonnie-ng-sweep/1.  0, or -1 with errno. */
int	sweep_write_json(FILE *, const struct sweep_result *);
/* The SVG plot.  0, or -1 with errno. */
int	sweep_write_svg(FILE *, const struct sweep_result *);

/*
 * The line above the tables: the directory, the sizes, how many of the
 * points were measured and the cache mode.
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
 * With more than one job count (sweep-jobs.c): the tables by job count,
 * the concurrency knees in words and in the record, and the plot of the
 * aggregate against the job count at the largest size.
 */
struct json;
void	sweep_jobs_print_tables(FILE *, const struct sweep_result *);
void	sweep_jobs_print_knees(FILE *, const struct sweep_result *);
void	sweep_jobs_write_knees(struct json *, const struct sweep_result *);
int	sweep_jobs_write_svg(FILE *, const struct sweep_result *);

#endif
