/*
 * "bonnie-ng sweep": run the phases for every file size (doubling between
 * two bounds) and every chunk size, print a table per phase, find the
 * knees, and write the whole sweep as JSON and as an SVG plot.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "error.h"
#include "knee.h"
#include "options.h"
#include "settings.h"
#include "outfile.h"
#include "phase-ctx.h"
#include "phase.h"
#include "platform.h"
#include "result.h"
#include "run.h"
#include "signals.h"
#include "sweep.h"
#include "sweep-plan.h"
#include "sysinfo.h"
#include "target.h"
#include "text.h"
#include "timer.h"
#include "units.h"

/* Everything the command line asked for. */
struct sweep_args {
	struct options	 opt;		/* The rows a single run shares. */
	const char	*sizes;		/* --sizes as given, or NULL. */
	/* The rows of --sizes, --chunks and --files, when given. */
	const struct args_option *sizes_row, *chunks_row, *files_row;
	uint64_t	 lo, hi;	/* hi 0: the default top. */
	uint64_t	 chunks[SWEEP_MAX_CHUNKS];
	int		 nchunks;
	int		 jobs[SWEEP_MAX_JOBS];	/* --jobs, ascending. */
	int		 njobs;
	int		 seekers[SWEEP_MAX_SEEKERS];	/* --seeker-counts. */
	int		 nseekers;			/* 0: not given. */
	uint64_t	 files[SWEEP_MAX_FILES];	/* --files, ascending. */
	int		 nfiles;			/* 0: not given. */
	uint64_t	 knee;
	double		 min_time;	/* Seconds; 0: no repeats. */
	uint64_t	 max_time;
	const char	*json_path;
	const char	*svg_path;
	char		 top[PATH_MAX + 160];	/* The open top settled. */
};

static int
set_sizes(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;

	a->sizes = v;
	a->sizes_row = r;
	return sweep_parse_sizes(v, &a->lo, &a->hi, why);
}

static int
set_chunks(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;
	int			 n;

	if ((n = sweep_parse_chunks(v, a->chunks, SWEEP_MAX_CHUNKS,
	    why)) == -1)
		return -1;
	a->nchunks = n;
	a->chunks_row = r;
	return 0;
}

static int
set_jobs(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;
	int			 n;

	(void)r;
	if ((n = sweep_parse_jobs(v, a->jobs, SWEEP_MAX_JOBS, why)) == -1)
		return -1;
	a->njobs = n;
	return 0;
}

static int
set_seekers(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;
	int			 n;

	(void)r;
	if ((n = sweep_parse_seekers(v, a->seekers, SWEEP_MAX_SEEKERS,
	    why)) == -1)
		return -1;
	a->nseekers = n;
	return 0;
}

static int
set_files(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;
	int			 n;

	if ((n = sweep_parse_files(v, a->files, SWEEP_MAX_FILES, &a->opt,
	    why)) == -1)
		return -1;
	a->nfiles = n;
	a->files_row = r;
	return 0;
}

static int
set_knee(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return parse_count(v, 1, 99, &((struct sweep_args *)t)->knee, why);
}

/* -x: as a single run's, each point's runs instead of the whole run's. */
static int
set_repeat(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return repeat_parse(v, &((struct sweep_args *)t)->opt.repeat, why);
}

/* --min-time: seconds, a decimal fraction allowed, 0 to 3600. */
static int
set_min_time(void *t, const struct args_option *r, const char *v,
    char **why)
{
	char	*end;
	double	 s;

	(void)r;
	errno = 0;
	s = strtod(v, &end);
	if (end == v || *end != '\0' || errno != 0 || !(s >= 0) || s > 3600)
		return errorf(why, "'%s' (seconds, from 0 to 3600)", v);
	((struct sweep_args *)t)->min_time = s;
	return 0;
}

static int
set_max_time(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return parse_count(v, 1, UINT32_MAX, &((struct sweep_args *)t)->max_time,
	    why);
}

#define OFF(field)	((int)offsetof(struct sweep_args, field))

static const struct args_option sweep_rows[] = {
	OPT_VALUE(0, "sizes", "lo..hi", set_sizes, 0,
	    "the file sizes, doubling (default: 64m..2 x RAM)"),
	OPT_VALUE(0, "chunks", "list", set_chunks, 0,
	    "comma-separated chunk sizes (default: 4k,16k,64k)"),
	OPT_VALUE(0, "jobs", "list", set_jobs, 0,
	    "job counts to sweep, comma-separated (default: 1)"),
	OPT_VALUE(0, "seeker-counts", "list", set_seekers, 0,
	    "seeker counts to sweep, comma-separated (seeks)"),
	OPT_VALUE(0, "files", "list[:max[:min[:dirs]]]", set_files, 0,
	    "file counts (x 1024) to sweep, only the file phases"),
	OPT_VALUE(0, "knee", "pct", set_knee, 0,
	    "the change that makes a knee (default: 30)"),
	OPT_VALUE('x', "repeat", "count", set_repeat, 0,
	    "run every point count times, interleaved"),
	OPT_VALUE(0, "min-time", "seconds", set_min_time, 0,
	    "run a point again until each phase ran this long"),
	OPT_VALUE(0, "max-time", "seconds", set_max_time, 0,
	    "stop after the point in progress at this time"),
	OPT_STRING(0, "json", "file", OFF(json_path),
	    "write the sweep record to file"),
	OPT_STRING(0, "svg", "file", OFF(svg_path), "write the plot to file"),
	ARGS_END
};

static const struct cmd_rows sweep_tables[] = {
	{ .off = offsetof(struct sweep_args, opt), .scope = SCOPE_BENCH },
	{ .off = offsetof(struct sweep_args, opt), .phases = 1 },
	{ .rows = sweep_rows },
	CMD_ROWS_END
};

static void
sweep_init(void *state, int argc, char **argv)
{
	struct sweep_args	*a = state;

	memset(a, 0, sizeof(*a));
	settings_defaults(&a->opt);
	a->opt.dir = NULL;		/* -d is required. */
	a->opt.cache = CACHE_MODE_KEEP;
	a->opt.argc = argc;
	a->opt.argv = argv;
	a->lo = SWEEP_DEFAULT_LO;
	a->knee = KNEE_DEFAULT_PCT;
	a->min_time = PRECISE_SECONDS;
	a->nchunks = sweep_parse_chunks(SWEEP_DEFAULT_CHUNKS, a->chunks,
	    SWEEP_MAX_CHUNKS, NULL);
	a->jobs[0] = 1;
	a->njobs = 1;
	phases_parse(SWEEP_DEFAULT_PHASES, &a->opt.phases, NULL);
}

/*
 * Settle the sizes.  An open top (no --sizes, or --sizes LO) is twice
 * RAM, capped by half the free space in the directory or by the size of
 * the --device, and said (a->top, on stderr before the plan, even with
 * -q), with what it was capped by; a size beyond the device is refused.
 * Returns CMD_OK, CMD_USAGE for a fault in the options, or CMD_FAIL for
 * one of the system.
 */
static enum cmd_status
settle_sizes(struct sweep_args *a, struct sweep_result *r,
    const struct sysinfo *si, char **cause)
{
	const struct target	*t = a->opt.device != NULL ? target_held() :
				    NULL;
	uint64_t		 hi = a->hi, cap = 0, twice;
	const char		*given = a->sizes != NULL ? a->sizes : "64m";
	char			 b1[32], b2[32], by[PATH_MAX + 64] = "";

	if (t != NULL && (a->lo > t->size || hi > t->size)) {
		units_size_words(b1, sizeof(b1), hi > t->size ? hi : a->lo);
		units_size_words(b2, sizeof(b2), t->size);
		errorf(cause, "invalid value for --sizes: '%s' (%s is more "
		    "than the %s of %s)", given, b1, b2, a->opt.device);
		return CMD_USAGE;
	}
	if (hi == 0) {
		if (a->opt.ram == 0) {
			errorf(cause, "the RAM size is unknown; give "
			    "--sizes LO..HI or --ram SIZE");
			return CMD_USAGE;
		}
		twice = hi = a->opt.ram > UINT64_MAX / 2 ? UINT64_MAX :
		    2 * a->opt.ram;
		if (t != NULL) {
			cap = t->size;
			snprintf(by, sizeof(by), "the size of %s",
			    a->opt.device);
		} else if (si != NULL && si->free_bytes >= 0) {
			/* Every worker of the largest job count has a file. */
			cap = (uint64_t)si->free_bytes / 2 /
			    (uint64_t)r->jobs[r->njobs - 1];
			snprintf(by, sizeof(by), "half the free space in %s",
			    a->opt.dir);
		}
		units_size_words(b2, sizeof(b2), twice >> 20 << 20);
		if (by[0] != '\0' && cap < hi) {
			hi = cap;
			r->capped = 1;
		}
		if (hi < a->lo && !r->capped) {
			units_size_words(b1, sizeof(b1), a->lo);
			errorf(cause, "invalid value for --sizes: '%s' (%s is "
			    "above twice RAM, %s: give --sizes LO..HI)", given,
			    b1, b2);
			return CMD_USAGE;
		}
		if (hi < a->lo) {
			units_size_words(b1, sizeof(b1), a->lo);
			errorf(cause, "sweep: not enough room in %s: half "
			    "its free space is below the smallest size (%s)",
			    a->opt.dir, b1);
			return CMD_FAIL;
		}
		units_size_words(b1, sizeof(b1), hi >> 20 << 20);
		if (r->capped)
			snprintf(a->top, sizeof(a->top), "sizes capped at %s, "
			    "%s (twice RAM is %s)", b1, by, b2);
		else
			snprintf(a->top, sizeof(a->top), "sizes up to %s, "
			    "twice RAM (give --sizes LO..HI to choose the "
			    "top)", b1);
	}
	r->nsizes = sweep_size_list(a->lo, hi, r->sizes, SWEEP_MAX_SIZES);
	return CMD_OK;
}

/*
 * What a sweep of the file creation phases alone (--files, or -p choosing
 * only them) leaves of the other axes: no file sizes (the phases make no
 * test file), and a chunk only as the one size the files' data is written
 * and read in, which empty files do not have.  Returns CMD_OK, or
 * CMD_USAGE with *cause.
 */
static enum cmd_status
files_alone_check(const struct sweep_args *a, char **cause)
{
	char	name[64];

	if (a->sizes_row != NULL) {
		args_names(name, sizeof(name), a->sizes_row);
		errorf(cause, "%s does not apply to a sweep of the file "
		    "creation phases alone: they make no test file", name);
		return CMD_USAGE;
	}
	if (a->chunks_row == NULL)
		return CMD_OK;
	args_names(name, sizeof(name), a->chunks_row);
	if (a->nchunks > 1) {
		errorf(cause, "%s takes one chunk size in a sweep of the file "
		    "creation phases alone (the size their files' data is "
		    "written and read in), not %d", name, a->nchunks);
		return CMD_USAGE;
	}
	if (a->opt.files_max == 0) {
		errorf(cause, "%s does not apply to empty files (--files with "
		    "a MAX of 0, the default): they have no data to write in "
		    "chunks", name);
		return CMD_USAGE;
	}
	return CMD_OK;
}

/*
 * Settle the file counts: with --files, the file creation phases alone
 * (unless -p chose, when it may choose only them); without it but with
 * only those phases chosen, the one count a single run takes.  Then what
 * those phases alone leave of the other axes (files_alone_check()).
 * Returns CMD_OK, or CMD_USAGE with *cause.
 */
static enum cmd_status
settle_files(struct sweep_args *a, struct sweep_result *r, char **cause)
{
	const unsigned	meta = phase_flag_mask(PHASE_META);
	struct options	o;
	int		id;

	r->nfiles = 1;
	r->files[0] = 0;
	if (a->nfiles > 0) {
		if (!a->opt.phases_given)
			a->opt.phases = meta;
		for (id = 0; id < PH_COUNT; id++) {
			if ((a->opt.phases & (1u << id)) && !(meta & (1u << id))) {
				errorf(cause, "invalid value for --files: the "
				    "file count axis runs only the file "
				    "creation phases, and -p chose %s",
				    phase_id_name(id));
				return CMD_USAGE;
			}
		}
		r->nfiles = a->nfiles;
		memcpy(r->files, a->files, sizeof(r->files));
	} else if ((a->opt.phases & ~meta) == 0) {
		/* The count a run of these phases takes (options_check()). */
		o = a->opt;
		o.size_asked = a->lo;
		o.chunk = a->chunks[0];
		if (options_check(&o, NULL) == 0)
			r->files[0] = o.files_n;
	}
	if ((a->opt.phases & ~meta) == 0)
		return files_alone_check(a, cause);
	return CMD_OK;
}

/* The output files, rewritten whole after every point. */
struct sweep_files {
	struct outfile	json, svg;
};

static int
put_json(FILE *f, const void *r)
{
	return sweep_write_json(f, r);
}

static int
put_svg(FILE *f, const void *r)
{
	return sweep_write_svg(f, r);
}

/*
 * Write the record and the plot of what was measured so far, each whole
 * (outfile_replace()): after every point, so that a sweep killed by a
 * signal it cannot catch (SIGKILL, the OOM killer) keeps the points it
 * finished, and when final at the end.  0, or -1 with *cause.
 */
static int
sweep_files_put(struct sweep_files *o, const struct sweep_result *r,
    int final, char **cause)
{
	if (outfile_replace(&o->json, put_json, r, final, cause) == -1)
		return -1;
	return outfile_replace(&o->svg, put_svg, r, final, cause);
}

/*
 * Whether point pt runs in round k: in the first repeat rounds (-x) every
 * point, after them only a point still imprecise (--min-time), until it
 * has had SWEEP_MIN_TIME_RUNS runs.
 */
static int
wants_run(const struct sweep_result *r, const struct sweep_point *pt,
    int round)
{
	int	repeat = r->repeat > 0 ? r->repeat : 1;

	if (round < repeat)
		return 1;
	return r->min_time > 0 && pt->imprecise != 0 &&
	    sweep_point_nruns(pt) < SWEEP_MIN_TIME_RUNS;
}

/*
 * The next run of point pt, its first into res, a later one appended to
 * more (with the seed of that run, as -x gives a single run's).
 */
static struct run_result *
next_run(struct sweep_point *pt, int round, const struct options *o,
    struct options *one)
{
	struct run_result	*res;

	*one = *o;
	if (round == 0)
		return &pt->res;
	one->seed = run_seed(o->seed, sweep_point_nruns(pt));
	pt->more = xrealloc(pt->more, (size_t)(pt->nmore + 1) *
	    sizeof(*pt->more));
	res = &pt->more[pt->nmore++];
	memset(res, 0, sizeof(*res));
	return res;
}

/*
 * Run the points until done, stopped or failed: round by round, each
 * round over the grid in order, so that -x interleaves the runs of the
 * points and a drift of the machine spreads over them all; then the
 * rounds of --min-time over the points still imprecise.
 */
/*
 * Before a later point, the room for its file again, as the sweep's own
 * check found it at the start (a leak or a neighbour may have taken it):
 * short of it, the sweep ends there as that check would have, exit 2,
 * what was measured kept.
 */
static int
point_room(const struct options *o, int p, int total, char **cause)
{
	struct options	one = *o;
	char		when[80];

	one.no_space_check = 0;		/* The sweep's own check. */
	snprintf(when, sizeof(when), "sweep: before point %d of %d", p + 1,
	    total);
	return run_space_check(&one, when, cause);
}

static int
run_points(struct sweep_result *r, const struct sweep_args *a,
    struct sweep_files *out, char **cause)
{
	struct options	 o, one;
	struct sweep_point *pt;
	struct run_result *res;
	bn_time		 start = time_now();
	double		 work_done = 0, elapsed = 0;
	int		 p, total = sweep_npoints(r), tty, round, ran = 1;
	int		 sig = 0, done = 0, runs = 0;

	tty = !a->opt.quiet && isatty(STDERR_FILENO);
	for (round = 0; ran && sig == 0 && r->stopped == NULL; round++) {
		for (p = 0, ran = 0; p < total; p++) {
			pt = &r->points[p];
			if (round > 0 && p >= r->npoints)
				break;
			if (!wants_run(r, pt, round))
				continue;
			if (bn_stop_signal) {
				sig = bn_stop_signal;
				break;
			}
			if (a->max_time > 0 &&
			    elapsed >= (double)a->max_time) {
				r->stopped = "max-time";
				break;
			}
			if (tty)
				sweep_progress(r, &a->opt, p, total, elapsed,
				    work_done);
			if (sweep_point_options(&a->opt, pt, &o, cause) == -1)
				return 2;
			if (runs > 0 && point_room(&o, p, total, cause) == -1) {
				if (tty)
					fputs("\r\033[K", stderr);
				r->stopped = "error";
				return 2;
			}
			if (round == 0)
				r->npoints = p + 1;
			res = next_run(pt, round, &o, &one);
			ran = 1;
			if (run_team(&one, res, 0) == -1) {
				sweep_point_settle(r, pt);
				if (res->interrupted) {
					sig = res->interrupted;
					break;
				}
				if (tty)
					fputs("\r\033[K", stderr);
				r->stopped = "error";
				errorf(cause, "%s", res->err.message);
				return 1;
			}
			sweep_point_settle(r, pt);
			done += round == 0;
			runs++;
			if (sweep_files_put(out, r, 0, cause) == -1) {
				if (tty)
					fputs("\r\033[K", stderr);
				r->stopped = "error";
				return 1;
			}
			/* A file it could not remove: make no more. */
			if (res->file_left) {
				if (tty)
					fputs("\r\033[K", stderr);
				r->stopped = "error";
				errorf(cause, "sweep: stopped after point %d of "
				    "%d: %d test file%s could not be removed "
				    "(named above); no more are made", p + 1,
				    total, res->file_left, res->file_left == 1 ?
				    "" : "s");
				return 1;
			}
			work_done += sweep_point_work(&a->opt, pt);
			elapsed = time_elapsed(start, time_now());
			if (runs == 1 && total * (r->repeat > 1 ? r->repeat :
			    1) > 1 && !a->opt.quiet) {
				if (tty)
					fputs("\r\033[K", stderr);
				sweep_print_estimate(r, &a->opt, total,
				    elapsed);
			}
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	if (sig != 0) {
		r->stopped = signal_name(sig);
		errorf(cause, "sweep: interrupted by %s after %d of %d points "
		    "(%d run%s in all); what was measured is kept",
		    signal_name(sig), done, total, runs, runs == 1 ? "" : "s");
		return 128 + sig;
	}
	if (r->stopped != NULL)
		text_say("sweep: stopped by --max-time %llu "
		    "after %d of %d points (%d run%s in all)",
		    (unsigned long long)a->max_time, done, total, runs,
		    runs == 1 ? "" : "s");
	/* A test file left behind was named when it was; the exit says it. */
	for (p = 0; p < r->npoints; p++)
		for (round = 0; round < sweep_point_nruns(&r->points[p]);
		    round++)
			if (sweep_point_run(&r->points[p], round)->file_left)
				return 1;
	return 0;
}

/*
 * An output that failed at the end (why): the final error, or a line of
 * its own when the sweep has failed already.  why is freed.
 */
static void
output_failed(char *why, int *status, char **cause)
{
	if (*status != 0)
		text_say("%s", why);
	else {
		errorf(cause, "%s", why);
		*status = 1;
	}
	free(why);
}

/* Standard output, checked at the end. */
static void
finish_stdout(int *status, char **cause)
{
	if (fflush(stdout) != EOF && !ferror(stdout))
		return;
	output_failed(xasprintf("standard output: %s", strerror(errno != 0 ?
	    errno : EIO)), status, cause);
}

/* The last write of an output file. */
static void
finish_file(struct outfile *of, const struct sweep_result *r,
    int (*put)(FILE *, const void *), int *status, char **cause)
{
	char	*why = NULL;

	if (outfile_replace(of, put, r, 1, &why) == -1)
		output_failed(why, status, cause);
}

/*
 * The points of the grid, each with its value on every axis, the last
 * axis nesting deepest.
 */
static struct sweep_point *
make_points(const struct sweep_result *r)
{
	struct sweep_point	*pts, *pt;
	int			 i, d, rest, at[SWEEP_DIMS];

	pts = xcalloc((size_t)sweep_npoints(r), sizeof(*pts));
	for (i = 0; i < sweep_npoints(r); i++) {
		pt = &pts[i];
		for (d = SWEEP_DIMS - 1, rest = i; d >= 0; d--) {
			at[d] = rest % sweep_dim_len(r, d);
			rest /= sweep_dim_len(r, d);
		}
		pt->size = sweep_dim_value(r, SWEEP_SIZE, at[SWEEP_SIZE]);
		pt->chunk = sweep_dim_value(r, SWEEP_CHUNK, at[SWEEP_CHUNK]);
		pt->jobs = (int)sweep_dim_value(r, SWEEP_JOBS, at[SWEEP_JOBS]);
		pt->seekers = (int)sweep_dim_value(r, SWEEP_SEEKERS,
		    at[SWEEP_SEEKERS]);
		pt->files = sweep_dim_value(r, SWEEP_FILES, at[SWEEP_FILES]);
	}
	return pts;
}

/* The sweep's own options, before anything is read from the system. */
static enum cmd_status
sweep_check(struct sweep_args *a, struct sweep_result *r, int *meta_only,
    char **cause)
{
	enum cmd_status	st;
	char		b1[32], b2[32];

	if (a->opt.dir == NULL && a->opt.device == NULL) {
		errorf(cause, "no directory given (-d dir, or --device path)");
		return CMD_USAGE;
	}
	if (a->opt.dir == NULL)
		a->opt.dir = ".";	/* As for a run on a device. */
	r->nchunks = a->nchunks;
	memcpy(r->chunks, a->chunks, sizeof(r->chunks));
	r->njobs = a->njobs;
	memcpy(r->jobs, a->jobs, sizeof(r->jobs));
	r->nseekers = 1;
	r->seekers[0] = 0;
	if (a->nseekers > 0) {
		/* An axis of the seeks phase: with none, it would be idle. */
		if (!(a->opt.phases & (1u << PH_SEEKS))) {
			errorf(cause, "--seeker-counts: the seeks phase is not "
			    "selected (-p)");
			return CMD_USAGE;
		}
		r->nseekers = a->nseekers;
		memcpy(r->seekers, a->seekers, sizeof(r->seekers));
	}
	if ((st = settle_files(a, r, cause)) != CMD_OK)
		return st;
	/* Only the file creation phases (settle_files() may choose them). */
	*meta_only = (a->opt.phases & ~phase_flag_mask(PHASE_META)) == 0;
	if (!*meta_only && r->chunks[r->nchunks - 1] > a->lo) {
		units_size_words(b1, sizeof(b1), a->lo);
		units_chunk(b2, sizeof(b2), r->chunks[r->nchunks - 1]);
		errorf(cause, "invalid value for --sizes: '%s' (%s is smaller "
		    "than one chunk, %s)", a->sizes != NULL ? a->sizes : "64m",
		    b1, b2);
		return CMD_USAGE;
	}
	return CMD_OK;
}

/*
 * The directory, then the free space it has (the room check is ours, for
 * all the sizes at once), the sizes, and every point's options, so that
 * none is refused half-way.  On a refusal, *si is freed.
 */
static enum cmd_status
sweep_settle(struct sweep_args *a, struct sweep_result *r, int meta_only,
    struct sysinfo **si, char **cause)
{
	struct options	o;
	enum cmd_status	st;
	char		b1[32], b2[32];
	int		i;

	a->opt.size_asked = a->lo;
	a->opt.chunk = r->chunks[0];
	a->opt.no_space_check = 1;
	if ((st = cmd_run_prepare(&a->opt, si, cause)) != CMD_OK)
		return st;
	r->opt = &a->opt;
	r->sys = *si;
	r->knee_pct = (double)a->knee;
	r->max_time = a->max_time;
	r->repeat = a->opt.repeat;
	r->min_time = a->min_time;
	if (meta_only) {
		/* The file creation phases: one size and chunk will do. */
		r->nsizes = 1;
		r->sizes[0] = a->lo;
		r->nchunks = 1;
	} else if ((st = settle_sizes(a, r, *si, cause)) != CMD_OK)
		goto fail;
	/* Room for the largest file, checked here to name --sizes. */
	if (!meta_only && *si != NULL && (*si)->free_bytes >= 0 &&
	    r->sizes[r->nsizes - 1] * (uint64_t)r->jobs[r->njobs - 1] >
	    (uint64_t)(*si)->free_bytes) {
		units_size_words(b1, sizeof(b1), r->sizes[r->nsizes - 1]);
		units_size_words(b2, sizeof(b2),
		    (uint64_t)(*si)->free_bytes >> 20 << 20);
		errorf(cause, "invalid value for --sizes: '%s' (the largest "
		    "file, %s, is more than the %s free in %s)",
		    a->sizes != NULL ? a->sizes : "64m", b1, b2, a->opt.dir);
		st = CMD_USAGE;
		goto fail;
	}
	a->opt.size_asked = r->sizes[r->nsizes - 1];
	if ((st = cmd_run_check(&a->opt, cause)) != CMD_OK)
		goto fail;
	r->points = make_points(r);
	for (i = 0; i < sweep_npoints(r); i++)
		if (sweep_point_options(&a->opt, &r->points[i], &o, cause) ==
		    -1) {
			free(r->points);
			st = CMD_USAGE;
			goto fail;
		}
	return CMD_OK;
fail:
	sysinfo_free(*si);
	return st;
}

/* Every output file is made now: a bad one is refused before work. */
static int
sweep_open(const struct sweep_args *a, struct sweep_files *out, char **cause)
{
	memset(out, 0, sizeof(*out));
	if ((a->json_path != NULL &&
	    outfile_open(&out->json, "--json", a->json_path, cause) == -1) ||
	    (a->svg_path != NULL &&
	    outfile_open(&out->svg, "--svg", a->svg_path, cause) == -1) ||
	    (out->json.path != NULL && out->svg.path != NULL &&
	    outfile_same(&out->json, &out->svg) &&
	    errorf(cause, "--json and --svg: %s: the same file for both",
	    a->svg_path) == -1)) {
		outfile_discard(&out->json);
		outfile_discard(&out->svg);
		return -1;
	}
	return 0;
}

/*
 * Whatever was measured is shown and written, even after a stop, with
 * the stop signals held (as a run's report: bench.c): a slow reader's
 * pipe or FIFO gets every byte; a signal that came meanwhile acts once
 * all is written.  An output on standard output ("-") takes the tables'
 * place.
 */
static void
sweep_show(const struct sweep_args *a, struct sweep_result *r,
    struct sweep_files *out, int *status, char **cause)
{
	sigset_t	held;
	int		tables = !out->json.is_stdout && !out->svg.is_stdout;

	signals_block(&held);
	if (!a->opt.quiet && tables)
		sweep_print_head(stdout, r);
	if (tables) {
		sweep_print_tables(stdout, r);
		sweep_print_knees(stdout, r);
	}
	/*
	 * A write that failed while printing (musl's stdio buffer is 1 KiB,
	 * glibc's fills only at the end) left its errno: keep it.
	 */
	finish_stdout(status, cause);
	finish_file(&out->json, r, put_json, status, cause);
	finish_file(&out->svg, r, put_svg, status, cause);
	signals_restore(&held);
	if (bn_stop_signal != 0 && r->stopped != signal_name(bn_stop_signal)) {
		text_say("sweep: interrupted by %s after the tables and "
		    "records were written", signal_name(bn_stop_signal));
		if (*status == 0)
			*status = 128 + bn_stop_signal;
	}
}

static void
sweep_free(struct sweep_result *r)
{
	int	i, k;

	for (i = 0; i < r->npoints; i++) {
		run_result_free(&r->points[i].res);
		for (k = 0; k < r->points[i].nmore; k++)
			run_result_free(&r->points[i].more[k]);
		free(r->points[i].more);
	}
	free(r->points);
}

static int
sweep_run(struct sweep_args *a, char **cause)
{
	struct sweep_result	 r;
	struct sysinfo		*si = NULL;
	struct sweep_files	 out;
	struct options		 o;
	struct lockmem		 lk;
	enum cmd_status		 st;
	int			 status, meta_only;

	memset(&r, 0, sizeof(r));
	/* Everything about the options is checked before any file is made. */
	if ((st = sweep_check(a, &r, &meta_only, cause)) != CMD_OK ||
	    (st = sweep_settle(a, &r, meta_only, &si, cause)) != CMD_OK)
		return st;
	if ((st = cmd_run_lock(&a->opt, &lk, cause)) != CMD_OK) {
		free(r.points);
		sysinfo_free(si);
		return st;
	}
	if (sweep_open(a, &out, cause) == -1) {
		cmd_run_unlock(&a->opt, &lk);
		free(r.points);
		sysinfo_free(si);
		return CMD_USAGE;
	}

	utc_now(r.start_utc, sizeof(r.start_utc));
	if (a->top[0] != '\0')
		text_say("sweep: %s", a->top);
	o = a->opt;
	o.size = r.sizes[r.nsizes - 1];
	cmd_run_announce(&o, si);
	if (!a->opt.quiet)
		sweep_print_plan(&r, &a->opt, sweep_npoints(&r), a->max_time);
	cmd_run_start(0);
	/*
	 * Until the sweep ends, the record says it is unfinished: what a
	 * sweep killed by SIGKILL leaves behind.  A record of no points
	 * yet replaces the empty files at once.
	 */
	r.running = 1;
	if (sweep_files_put(&out, &r, 0, cause) == -1)
		status = 1;
	else
		status = run_points(&r, a, &out, cause);
	r.running = 0;
	r.lock_held = cmd_run_unlock(&a->opt, &lk);
	if (!a->opt.quiet)
		sweep_warnings(&r);
	sweep_show(a, &r, &out, &status, cause);
	sweep_free(&r);
	sysinfo_free(si);
	return status;
}

/*
 * Every refusal of the command line (exit status 2) names the command
 * first, as the parser's own refusals do: "bonnie-ng: sweep: ...", also
 * those of the checks a sweep shares with a single run (-d, --cache,
 * --lock-mem) and of its output files.
 */
static int
sweep_exec(void *state, int nfiles, char **files, char **cause)
{
	const char	*name = cmd_sweep_entry.spec.command;
	size_t		 n = strlen(name);
	char		*was;
	int		 status;

	(void)nfiles;
	(void)files;
	status = sweep_run(state, cause);
	if (status == CMD_USAGE && cause != NULL && (was = *cause) != NULL &&
	    !(strncmp(was, name, n) == 0 && was[n] == ':')) {
		*cause = xasprintf("%s: %s", name, was);
		free(was);
	}
	return status;
}

const struct cmd_entry cmd_sweep_entry = {
	.spec = { .command = "sweep" },
	.rows = sweep_tables,
	.size = sizeof(struct sweep_args),
	.init = sweep_init,
	.exec = sweep_exec,
};
