/*
 * "bonnie-ng sweep": run the phases for every file size (doubling between
 * two bounds) and every chunk size, print a table per phase, find the
 * knees, and write the whole sweep as JSON and as an SVG plot.
 */
#include <errno.h>
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
#include "outfile.h"
#include "phase.h"
#include "platform.h"
#include "result.h"
#include "run.h"
#include "signals.h"
#include "sweep.h"
#include "sysinfo.h"
#include "timer.h"
#include "units.h"

/* Everything the command line asked for. */
struct sweep_args {
	struct options	 opt;		/* The rows a single run shares. */
	const char	*sizes;		/* --sizes as given, or NULL. */
	uint64_t	 lo, hi;	/* hi 0: the default top. */
	uint64_t	 chunks[SWEEP_MAX_CHUNKS];
	int		 nchunks;
	int		 jobs[SWEEP_MAX_JOBS];	/* --jobs, ascending. */
	int		 njobs;
	uint64_t	 knee;
	uint64_t	 max_time;
	const char	*json_path;
	const char	*svg_path;
};

static int
set_sizes(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;

	(void)r;
	a->sizes = v;
	return sweep_parse_sizes(v, &a->lo, &a->hi, why);
}

static int
set_chunks(void *t, const struct args_option *r, const char *v, char **why)
{
	struct sweep_args	*a = t;
	int			 n;

	(void)r;
	if ((n = sweep_parse_chunks(v, a->chunks, SWEEP_MAX_CHUNKS,
	    why)) == -1)
		return -1;
	a->nchunks = n;
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
set_knee(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return parse_count(v, 1, 99, &((struct sweep_args *)t)->knee, why);
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
	{ 0, "sizes", ARGS_VALUE, "lo..hi", set_sizes, 0, 0, 0, 0,
	  "the file sizes, doubling (default: 64m..2 x RAM)" },
	{ 0, "chunks", ARGS_VALUE, "list", set_chunks, 0, 0, 0, 0,
	  "comma-separated chunk sizes (default: 4k,16k,64k)" },
	{ 0, "jobs", ARGS_VALUE, "list", set_jobs, 0, 0, 0, 0,
	  "job counts to sweep, comma-separated (default: 1)" },
	{ 0, "knee", ARGS_VALUE, "pct", set_knee, 0, 0, 0, 0,
	  "the change that makes a knee (default: 30)" },
	{ 0, "max-time", ARGS_VALUE, "seconds", set_max_time, 0, 0, 0, 0,
	  "stop after the point in progress at this time" },
	{ 0, "json", ARGS_VALUE, "file", args_set_string, OFF(json_path), 0,
	  0, 0, "write the sweep record to file" },
	{ 0, "svg", ARGS_VALUE, "file", args_set_string, OFF(svg_path), 0, 0,
	  0, "write the plot to file" },
	ARGS_END
};

static const struct cmd_rows sweep_tables[] = {
	{ cmd_run_bench_rows, 0, offsetof(struct sweep_args, opt) },
	{ NULL, 1, offsetof(struct sweep_args, opt) },
	{ sweep_rows, 0, 0 },
	{ NULL, 0, 0 }
};

static void
sweep_init(void *state, int argc, char **argv)
{
	struct sweep_args	*a = state;

	memset(a, 0, sizeof(*a));
	options_defaults(&a->opt);
	a->opt.dir = NULL;		/* -d is required. */
	a->opt.cache = CACHE_MODE_KEEP;
	a->opt.argc = argc;
	a->opt.argv = argv;
	a->lo = SWEEP_DEFAULT_LO;
	a->knee = KNEE_DEFAULT_PCT;
	a->nchunks = sweep_parse_chunks(SWEEP_DEFAULT_CHUNKS, a->chunks,
	    SWEEP_MAX_CHUNKS, NULL);
	a->jobs[0] = 1;
	a->njobs = 1;
	phases_parse(SWEEP_DEFAULT_PHASES, &a->opt.phases, NULL);
}

/*
 * Progress on the terminal: which point of how many, and the time left.
 * The guess is the larger of two: the time so far per byte of file swept
 * (right when the size rules) and per point (right when a fixed cost
 * such as the seeks phase's second rules).
 */
static void
progress(const struct sweep_result *r, int p, int total, double elapsed,
    uint64_t bytes_done)
{
	const struct sweep_point	*pt = &r->points[p];
	uint64_t			 left = 0;
	double				 by_bytes, by_points;
	char				 s[32], c[32], eta[64] = "";
	int				 q;

	for (q = p; q < total; q++)
		left += r->points[q].size * (uint64_t)r->points[q].jobs;
	if (bytes_done > 0 && p > 0) {
		by_bytes = elapsed / (double)bytes_done * (double)left;
		by_points = elapsed / p * (total - p);
		units_span(s, sizeof(s), by_bytes > by_points ? by_bytes :
		    by_points);
		snprintf(eta, sizeof(eta), ", about %s left", s);
	}
	units_size_short(s, sizeof(s), pt->size);
	units_chunk(c, sizeof(c), pt->chunk);
	fprintf(stderr, "\rsweep: point %d of %d (%s, chunk %s, -j %d)%s\033[K",
	    p + 1, total, s, c, pt->jobs, eta);
	fflush(stderr);
}

/*
 * Settle the sizes: the default top is twice RAM, capped by half the free
 * space in the directory.  Returns CMD_OK, CMD_USAGE for a fault in the
 * options, or CMD_FAIL for one of the system.
 */
static enum cmd_status
settle_sizes(struct sweep_args *a, struct sweep_result *r,
    const struct sysinfo *si, char **cause)
{
	uint64_t	hi = a->hi, cap;
	char		b1[32], b2[32];

	if (hi == 0) {
		if (a->opt.ram == 0) {
			errorf(cause, "sweep: the RAM size is unknown; give "
			    "--sizes LO..HI or --ram SIZE");
			return CMD_USAGE;
		}
		hi = a->opt.ram > UINT64_MAX / 2 ? UINT64_MAX :
		    2 * a->opt.ram;
		if (si != NULL && si->free_bytes >= 0) {
			/* Every worker of the largest job count has a file. */
			cap = (uint64_t)si->free_bytes / 2 /
			    (uint64_t)r->jobs[r->njobs - 1];
			if (cap < hi) {
				units_size_words(b1, sizeof(b1), cap >> 20 << 20);
				units_size_words(b2, sizeof(b2), hi >> 20 << 20);
				fprintf(stderr, "bonnie-ng: sweep: sizes "
				    "capped at %s, half the free space in %s "
				    "(twice RAM is %s)\n", b1, a->opt.dir, b2);
				hi = cap;
				r->capped = 1;
			}
		}
		if (hi < a->lo) {
			units_size_words(b1, sizeof(b1), a->lo);
			errorf(cause, "sweep: not enough room in %s: half "
			    "its free space is below the smallest size (%s)",
			    a->opt.dir, b1);
			return CMD_FAIL;
		}
	}
	r->nsizes = sweep_size_list(a->lo, hi, r->sizes, SWEEP_MAX_SIZES);
	return CMD_OK;
}

/* Run the points in order until done, stopped or failed. */
static int
run_points(struct sweep_result *r, const struct sweep_args *a, char **cause)
{
	struct options	 o;
	struct sweep_point *pt;
	bn_time		 start = time_now();
	uint64_t	 bytes_done = 0;
	double		 elapsed = 0;
	int		 p, total = r->nsizes * r->nchunks * r->njobs, tty;
	int		 sig = 0;
	int		 done = 0;

	tty = !a->opt.quiet && isatty(STDERR_FILENO);
	for (p = 0; p < total; p++) {
		if (bn_stop_signal) {
			sig = bn_stop_signal;
			break;
		}
		if (a->max_time > 0 && elapsed >= (double)a->max_time) {
			r->stopped = "max-time";
			break;
		}
		pt = &r->points[p];
		if (tty)
			progress(r, p, total, elapsed, bytes_done);
		o = a->opt;
		o.quiet = 1;	/* Warnings are summed up at the end. */
		o.size_asked = pt->size;
		o.chunk = pt->chunk;
		o.jobs = pt->jobs;
		if (options_check(&o, cause) == -1)
			return 2;
		r->npoints = p + 1;
		if (run_team(&o, &pt->res, 0) == -1) {
			if (pt->res.interrupted) {
				sig = pt->res.interrupted;
				break;
			}
			if (tty)
				fputs("\r\033[K", stderr);
			r->stopped = "error";
			errorf(cause, "%s", pt->res.err.message);
			return 1;
		}
		done++;
		bytes_done += pt->size * (uint64_t)pt->jobs;
		elapsed = time_elapsed(start, time_now());
	}
	if (tty)
		fputs("\r\033[K", stderr);
	if (sig != 0) {
		r->stopped = signal_name(sig);
		errorf(cause, "sweep: interrupted by %s after %d of %d points; "
		    "what was measured is kept", signal_name(sig), done,
		    total);
		return 128 + sig;
	}
	if (r->stopped != NULL)
		fprintf(stderr, "bonnie-ng: sweep: stopped by --max-time %llu "
		    "after %d of %d points\n",
		    (unsigned long long)a->max_time, done, total);
	return 0;
}

/*
 * The engine's warnings, once for the whole sweep rather than once per
 * phase of every point: each is also a flag in the phase's result.
 */
static void
sweep_warnings(const struct sweep_result *r)
{
	const struct phase_result	*ph;
	int				 p, id, n = 0, imprecise = 0;
	int				 warm = 0, doubtful = 0;

	for (p = 0; p < r->npoints; p++) {
		for (id = 0; id < PH_COUNT; id++) {
			ph = &r->points[p].res.ph[id];
			if (!ph->ran)
				continue;
			n++;
			imprecise += ph->imprecise != 0;
			warm += ph->cache == CSTATE_WARM;
			doubtful += ph->cpu_doubtful != 0;
		}
	}
	if (imprecise > 0)
		fprintf(stderr, "bonnie-ng: warning: %d of %d phase results "
		    "ran under half a second: their figures are imprecise "
		    "(use larger sizes)\n", imprecise, n);
	if (warm > 0)
		fprintf(stderr, "bonnie-ng: warning: %d of %d phase results "
		    "found the file still cached after the drop; marked "
		    "warm\n", warm, n);
	if (doubtful > 0)
		fprintf(stderr, "bonnie-ng: warning: %d of %d phase results "
		    "show more CPU than the cores allow; their CPU figure is "
		    "doubtful\n", doubtful, n);
}

/*
 * Close an output that writing returned rc for (0, or -1 with errno), or
 * check standard output when of is NULL.  A failure becomes the final
 * error, or a line of its own when the sweep has failed already.
 */
static int
finish_output(struct outfile *of, int rc, int *status, char **cause)
{
	char	*why = NULL;
	int	 e = errno;

	if (of != NULL) {
		if (of->f == NULL || outfile_close(of, rc, &why) == 0)
			return 0;
	} else {
		if (rc == 0 && (fflush(stdout) == EOF || ferror(stdout))) {
			rc = -1;
			e = errno;
		}
		if (rc == 0)
			return 0;
		why = xasprintf("standard output: %s", strerror(e != 0 ? e :
		    EIO));
	}
	if (*status != 0)
		fprintf(stderr, "bonnie-ng: %s\n", why);
	else {
		errorf(cause, "%s", why);
		*status = 1;
	}
	free(why);
	return -1;
}

static int
sweep_exec(void *state, int nfiles, char **files, char **cause)
{
	struct sweep_args	*a = state;
	struct sweep_result	 r;
	struct sysinfo		*si = NULL;
	struct outfile		 jf, sf;
	struct lockmem		 lk;
	enum cmd_status		 st;
	int			 i, j, k, rc, status;

	(void)nfiles;
	(void)files;
	memset(&r, 0, sizeof(r));
	/* Everything about the options is checked before any file is made. */
	r.nchunks = a->nchunks;
	memcpy(r.chunks, a->chunks, sizeof(r.chunks));
	r.njobs = a->njobs;
	memcpy(r.jobs, a->jobs, sizeof(r.jobs));
	if (r.chunks[r.nchunks - 1] > a->lo) {
		char	b1[32], b2[32];

		units_size_words(b1, sizeof(b1), a->lo);
		units_chunk(b2, sizeof(b2), r.chunks[r.nchunks - 1]);
		errorf(cause, "invalid value for --sizes: '%s' (%s is smaller "
		    "than one chunk, %s)", a->sizes != NULL ? a->sizes : "64m",
		    b1, b2);
		return CMD_USAGE;
	}

	/*
	 * The directory, then the free space it has; the room check is ours,
	 * for all the sizes at once.
	 */
	a->opt.size_asked = a->lo;
	a->opt.chunk = r.chunks[0];
	a->opt.no_space_check = 1;
	if ((st = cmd_run_prepare(&a->opt, &si, cause)) != CMD_OK)
		return st;
	r.opt = &a->opt;
	r.sys = si;
	r.knee_pct = (double)a->knee;
	r.max_time = a->max_time;
	if ((st = settle_sizes(a, &r, si, cause)) != CMD_OK) {
		sysinfo_free(si);
		return st;
	}
	/* Room for the largest file, checked here to name --sizes. */
	if (si != NULL && si->free_bytes >= 0 &&
	    r.sizes[r.nsizes - 1] * (uint64_t)r.jobs[r.njobs - 1] >
	    (uint64_t)si->free_bytes) {
		char	b1[32], b2[32];

		units_size_words(b1, sizeof(b1), r.sizes[r.nsizes - 1]);
		units_size_words(b2, sizeof(b2),
		    (uint64_t)si->free_bytes >> 20 << 20);
		errorf(cause, "invalid value for --sizes: '%s' (the largest "
		    "file, %s, is more than the %s free in %s)",
		    a->sizes != NULL ? a->sizes : "64m", b1, b2, a->opt.dir);
		sysinfo_free(si);
		return CMD_USAGE;
	}
	a->opt.size_asked = r.sizes[r.nsizes - 1];
	if ((st = cmd_run_check(&a->opt, cause)) != CMD_OK) {
		sysinfo_free(si);
		return st;
	}
	if ((st = cmd_run_lock(&a->opt, &lk, cause)) != CMD_OK) {
		sysinfo_free(si);
		return st;
	}
	/* Every output file is made now: a bad one is refused before work. */
	memset(&jf, 0, sizeof(jf));
	memset(&sf, 0, sizeof(sf));
	if ((a->json_path != NULL &&
	    outfile_open(&jf, "--json", a->json_path, cause) == -1) ||
	    (a->svg_path != NULL &&
	    outfile_open(&sf, "--svg", a->svg_path, cause) == -1)) {
		outfile_discard(&jf);
		cmd_run_unlock(&a->opt, &lk);
		sysinfo_free(si);
		return CMD_USAGE;
	}

	r.points = xcalloc((size_t)r.nsizes * (size_t)r.nchunks *
	    (size_t)r.njobs, sizeof(*r.points));
	for (i = 0; i < r.nsizes; i++) {
		for (k = 0; k < r.nchunks; k++) {
			for (j = 0; j < r.njobs; j++) {
				struct sweep_point *pt = &r.points[(i *
				    r.nchunks + k) * r.njobs + j];

				pt->size = r.sizes[i];
				pt->chunk = r.chunks[k];
				pt->jobs = r.jobs[j];
			}
		}
	}
	utc_now(r.start_utc, sizeof(r.start_utc));
	cmd_run_start(0);
	status = run_points(&r, a, cause);
	r.lock_held = cmd_run_unlock(&a->opt, &lk);
	if (!a->opt.quiet)
		sweep_warnings(&r);

	/* Whatever was measured is shown and written, even after a stop. */
	if (!a->opt.quiet)
		sweep_print_head(stdout, &r);
	sweep_print_tables(stdout, &r);
	sweep_print_knees(stdout, &r);
	errno = 0;
	finish_output(NULL, ferror(stdout) ? -1 : 0, &status, cause);
	errno = 0;
	rc = jf.f != NULL ? sweep_write_json(jf.f, &r) : 0;
	finish_output(&jf, rc, &status, cause);
	errno = 0;
	rc = sf.f != NULL ? sweep_write_svg(sf.f, &r) : 0;
	finish_output(&sf, rc, &status, cause);
	for (i = 0; i < r.npoints; i++)
		run_result_free(&r.points[i].res);
	free(r.points);
	sysinfo_free(si);
	return status;
}

const struct cmd_entry cmd_sweep_entry = {
	{ "sweep", NULL, 0, 0, "dir", "no directory given (-d dir)" },
	sweep_tables,
	sizeof(struct sweep_args),
	sweep_init,
	sweep_exec,
	0
};
