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
#include "settings.h"
#include "outfile.h"
#include "phase.h"
#include "platform.h"
#include "result.h"
#include "run.h"
#include "signals.h"
#include "sweep.h"
#include "sysinfo.h"
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
	uint64_t	 files[SWEEP_MAX_FILES];	/* --files, ascending. */
	int		 nfiles;			/* 0: not given. */
	uint64_t	 knee;
	uint64_t	 max_time;
	const char	*json_path;
	const char	*svg_path;
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
	{ 0, "files", ARGS_VALUE, "list[:max[:min[:dirs]]]", set_files, 0, 0,
	  0, 0, "file counts (x 1024) to sweep, only the file phases" },
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
	{ NULL, 0, offsetof(struct sweep_args, opt), SCOPE_BENCH },
	{ NULL, 1, offsetof(struct sweep_args, opt), SCOPE_NONE },
	{ sweep_rows, 0, 0, SCOPE_NONE },
	{ NULL, 0, 0, SCOPE_NONE }
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
	a->nchunks = sweep_parse_chunks(SWEEP_DEFAULT_CHUNKS, a->chunks,
	    SWEEP_MAX_CHUNKS, NULL);
	a->jobs[0] = 1;
	a->njobs = 1;
	phases_parse(SWEEP_DEFAULT_PHASES, &a->opt.phases, NULL);
}

/*
 * The options of one point: the sweep's with the point's size, chunk and
 * job count, checked.  0, or -1 with *cause.
 */
static int
point_options(const struct sweep_args *a, const struct sweep_point *pt,
    struct options *o, char **cause)
{
	*o = a->opt;
	o->quiet = 1;	/* Warnings are summed up at the end. */
	o->size_asked = pt->size;
	o->chunk = pt->chunk;
	o->jobs = pt->jobs;
	if (pt->files > 0)
		o->files_n = pt->files;
	return options_check(o, cause);
}

/*
 * The work of a point for the time estimates: the bytes it plans to write
 * (run_planned_bytes()), or when it writes none (empty files), its files.
 */
static double
point_work(const struct sweep_args *a, const struct sweep_point *pt)
{
	struct options	o;
	uint64_t	b;
	int		partial;

	if (point_options(a, pt, &o, NULL) == -1)
		return 1;
	if ((b = run_planned_bytes(&o, &partial)) > 0)
		return (double)b;
	if (o.files_n > 0)
		return (double)o.files_n * (o.jobs > 1 ? o.jobs : 1);
	return 1;
}

/*
 * A time for the plan's lines: "0.420 s", and past a minute "754.200 s
 * (12m 34s)".
 */
static void
plan_time(char *buf, size_t len, double s)
{
	char	span[32];

	if (s < 60) {
		snprintf(buf, len, "%.3f s", s);
		return;
	}
	units_span(span, sizeof(span), s);
	snprintf(buf, len, "%.3f s (%s)", s, span);
}

/*
 * The plan, on standard error before the first point: the points and the
 * axes they span, and the bytes they write.
 */
static void
print_plan(const struct sweep_result *r, const struct sweep_args *a,
    int total)
{
	struct options	 o;
	uint64_t	 bytes = 0;
	char		 b[32], axes[160], also[160] = "", more[64] = "";
	size_t		 n;
	int		 p, partial, some = 0, id;

	for (p = 0; p < total; p++) {
		if (point_options(a, &r->points[p], &o, NULL) == -1)
			continue;
		bytes += run_planned_bytes(&o, &partial);
		some |= partial;
	}
	if (some) {
		/* Name the phases whose write-backs are not counted. */
		n = snprintf(also, sizeof(also), " (not counting what ");
		for (id = 0, p = 0; id < PH_COUNT; id++) {
			if (!(a->opt.phases & (1u << id)) ||
			    (phase_table[id]->flags & (PHASE_WRITES |
			    PHASE_WHOLE)) != PHASE_WRITES)
				continue;
			if (n < sizeof(also))
				n += snprintf(also + n, sizeof(also) - n,
				    "%s%s", p++ > 0 ? " and " : "",
				    phase_table[id]->name);
		}
		if (n < sizeof(also))
			snprintf(also + n, sizeof(also) - n, " writes back)");
	}
	if (sweep_files_mode(r))
		snprintf(axes, sizeof(axes), "%d file count%s", r->nfiles,
		    r->nfiles == 1 ? "" : "s");
	else
		snprintf(axes, sizeof(axes), "%d size%s x %d chunk%s",
		    r->nsizes, r->nsizes == 1 ? "" : "s", r->nchunks,
		    r->nchunks == 1 ? "" : "s");
	if (r->njobs > 1)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes),
		    " x %d job counts", r->njobs);
	if (a->max_time > 0)
		snprintf(more, sizeof(more), "; --max-time %llu may stop it "
		    "sooner", (unsigned long long)a->max_time);
	units_size_binary(b, sizeof(b), bytes);
	text_say("sweep: %d point%s (%s), %s to write in "
	    "all%s; the time is estimated after the first point%s",
	    total, total == 1 ? "" : "s", axes, b, also, more);
}

/*
 * How much longer than at point 1 phase id takes at point p: a file
 * creation phase by its files, a phase of a fixed count of operations
 * (seeks, syncs) not at all, any other by the bytes of its files.
 */
static double
phase_scale(const struct sweep_args *a, const struct sweep_point *p1,
    const struct sweep_point *p, unsigned flags)
{
	struct options	o1, o;

	if (flags & PHASE_META) {
		if (point_options(a, p1, &o1, NULL) == -1 ||
		    point_options(a, p, &o, NULL) == -1 || o1.files_n == 0)
			return 1;
		return (double)o.files_n * p->jobs / ((double)o1.files_n *
		    p1->jobs);
	}
	if (flags & PHASE_OPS)
		return 1;
	return (double)p->size * p->jobs / ((double)p1->size * p1->jobs);
}

/*
 * After the first point: the whole sweep's time from that point's, each
 * phase's time scaled by its work at each point (phase_scale()) and the
 * rest of the point's time (making, filling and removing files, dropping
 * the cache) by the point's work (point_work()).
 */
static void
print_estimate(const struct sweep_result *r, const struct sweep_args *a,
    int total, double first)
{
	const struct sweep_point	*p1 = &r->points[0];
	double				 rest = first, all = 0, w1;
	char				 t1[64], te[64];
	int				 p, id;

	for (id = 0; id < PH_COUNT; id++)
		if (p1->res.ph[id].ran)
			rest -= p1->res.ph[id].elapsed;
	if (rest < 0)
		rest = 0;
	w1 = point_work(a, p1);
	for (p = 0; p < total; p++) {
		all += rest * point_work(a, &r->points[p]) / w1;
		for (id = 0; id < PH_COUNT; id++)
			if (p1->res.ph[id].ran)
				all += p1->res.ph[id].elapsed * phase_scale(a,
				    p1, &r->points[p], phase_table[id]->flags);
	}
	plan_time(t1, sizeof(t1), first);
	plan_time(te, sizeof(te), all);
	text_say("sweep: point 1 took %s; all %d points "
	    "should take about %s (each phase's time at point 1 scaled by "
	    "its work)", t1, total, te);
}

/*
 * Progress on the terminal: which point of how many, and the time left.
 * The guess is the larger of two: the time so far per unit of work (right
 * when the size rules) and per point (right when a fixed cost such as the
 * seeks phase's second rules).
 */
static void
progress(const struct sweep_result *r, const struct sweep_args *a, int p,
    int total, double elapsed, double work_done)
{
	const struct sweep_point	*pt = &r->points[p];
	double				 left = 0, by_work, by_points;
	char				 s[32], c[32], eta[64] = "";
	int				 q;

	for (q = p; q < total; q++)
		left += point_work(a, &r->points[q]);
	if (work_done > 0 && p > 0) {
		by_work = elapsed / work_done * left;
		by_points = elapsed / p * (total - p);
		units_span(s, sizeof(s), by_work > by_points ? by_work :
		    by_points);
		snprintf(eta, sizeof(eta), ", about %s left", s);
	}
	if (pt->files > 0) {
		units_files(s, sizeof(s), pt->files);
		fprintf(stderr, "\rsweep: point %d of %d (%s files, -j %d)%s"
		    "\033[K", p + 1, total, s, pt->jobs, eta);
	} else {
		units_size_short(s, sizeof(s), pt->size);
		units_chunk(c, sizeof(c), pt->chunk);
		fprintf(stderr, "\rsweep: point %d of %d (%s, chunk %s, -j %d)"
		    "%s\033[K", p + 1, total, s, c, pt->jobs, eta);
	}
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
			errorf(cause, "the RAM size is unknown; give "
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
				text_say("sweep: sizes "
				    "capped at %s, half the free space in %s "
				    "(twice RAM is %s)", b1, a->opt.dir, b2);
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

/* Run the points in order until done, stopped or failed. */
static int
run_points(struct sweep_result *r, const struct sweep_args *a, char **cause)
{
	struct options	 o;
	struct sweep_point *pt;
	bn_time		 start = time_now();
	double		 work_done = 0, elapsed = 0;
	int		 p, total = sweep_npoints(r), tty;
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
			progress(r, a, p, total, elapsed, work_done);
		if (point_options(a, pt, &o, cause) == -1)
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
		work_done += point_work(a, pt);
		elapsed = time_elapsed(start, time_now());
		if (done == 1 && total > 1 && !a->opt.quiet) {
			if (tty)
				fputs("\r\033[K", stderr);
			print_estimate(r, a, total, elapsed);
		}
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
		text_say("sweep: stopped by --max-time %llu "
		    "after %d of %d points",
		    (unsigned long long)a->max_time, done, total);
	/* A test file left behind was named when it was; the exit says it. */
	for (p = 0; p < r->npoints; p++)
		if (r->points[p].res.file_left)
			return 1;
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
	int64_t				 lost, most = 0;

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
		text_say("warning: %d of %d phase results "
		    "ran under half a second: their figures are imprecise "
		    "(use larger sizes)", imprecise, n);
	if (warm > 0)
		text_say("warning: %d of %d phase results "
		    "found the file still cached after the drop; marked "
		    "warm", warm, n);
	if (doubtful > 0)
		text_say("warning: %d of %d phase results "
		    "show more CPU than the cores allow; their CPU figure is "
		    "doubtful", doubtful, n);
	for (p = 0, n = 0; p < r->npoints; p++)
		if (r->points[p].res.space_leak) {
			lost = r->points[p].res.space_before -
			    r->points[p].res.space_after;
			if (n++ == 0 || lost > most)
				most = lost;
		}
	if (n > 0)
		text_say("warning: after %d of %d points the "
		    "file system had less free space once the test file was "
		    "removed (up to %lld MiB less)", n, r->npoints,
		    (long long)(most >> 20));
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
		text_say("%s", why);
	else {
		errorf(cause, "%s", why);
		*status = 1;
	}
	free(why);
	return -1;
}

static int
sweep_run(struct sweep_args *a, char **cause)
{
	struct sweep_result	 r;
	struct sysinfo		*si = NULL;
	struct outfile		 jf, sf;
	struct lockmem		 lk;
	enum cmd_status		 st;
	int			 i, rc, status, meta_only, tables;

	memset(&r, 0, sizeof(r));
	/* Everything about the options is checked before any file is made. */
	r.nchunks = a->nchunks;
	memcpy(r.chunks, a->chunks, sizeof(r.chunks));
	r.njobs = a->njobs;
	memcpy(r.jobs, a->jobs, sizeof(r.jobs));
	if ((st = settle_files(a, &r, cause)) != CMD_OK)
		return st;
	meta_only = (a->opt.phases & ~phase_flag_mask(PHASE_META)) == 0;
	if (!meta_only && r.chunks[r.nchunks - 1] > a->lo) {
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
	if (meta_only) {
		/* The file creation phases: one size and chunk will do. */
		r.nsizes = 1;
		r.sizes[0] = a->lo;
		r.nchunks = 1;
	} else if ((st = settle_sizes(a, &r, si, cause)) != CMD_OK) {
		sysinfo_free(si);
		return st;
	}
	/* Room for the largest file, checked here to name --sizes. */
	if (!meta_only && si != NULL && si->free_bytes >= 0 &&
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
	    outfile_open(&sf, "--svg", a->svg_path, cause) == -1) ||
	    (jf.path != NULL && sf.path != NULL && outfile_same(&jf, &sf) &&
	    errorf(cause, "--json and --svg: %s: the same file for both",
	    a->svg_path) == -1)) {
		outfile_discard(&jf);
		outfile_discard(&sf);
		cmd_run_unlock(&a->opt, &lk);
		sysinfo_free(si);
		return CMD_USAGE;
	}
	/* An output on standard output ("-") takes the tables' place. */
	tables = !jf.is_stdout && !sf.is_stdout;

	r.points = xcalloc((size_t)sweep_npoints(&r), sizeof(*r.points));
	for (i = 0; i < sweep_npoints(&r); i++) {
		struct sweep_point	*pt = &r.points[i];
		int			 at[SWEEP_DIMS], d, rest = i;

		/* The point's place on each axis, the last nesting deepest. */
		for (d = SWEEP_DIMS - 1; d >= 0; d--) {
			at[d] = rest % sweep_dim_len(&r, d);
			rest /= sweep_dim_len(&r, d);
		}
		pt->size = sweep_dim_value(&r, SWEEP_SIZE, at[SWEEP_SIZE]);
		pt->chunk = sweep_dim_value(&r, SWEEP_CHUNK, at[SWEEP_CHUNK]);
		pt->jobs = (int)sweep_dim_value(&r, SWEEP_JOBS, at[SWEEP_JOBS]);
		pt->files = sweep_dim_value(&r, SWEEP_FILES, at[SWEEP_FILES]);
	}
	utc_now(r.start_utc, sizeof(r.start_utc));
	if (!a->opt.quiet)
		print_plan(&r, a, sweep_npoints(&r));
	cmd_run_start(0);
	status = run_points(&r, a, cause);
	r.lock_held = cmd_run_unlock(&a->opt, &lk);
	if (!a->opt.quiet)
		sweep_warnings(&r);

	/* Whatever was measured is shown and written, even after a stop. */
	if (!a->opt.quiet && tables)
		sweep_print_head(stdout, &r);
	if (tables) {
		sweep_print_tables(stdout, &r);
		sweep_print_knees(stdout, &r);
	}
	/*
	 * A write that failed while printing (musl's stdio buffer is 1 KiB,
	 * glibc's fills only at the end) left its errno: keep it.
	 */
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
	{ "sweep", NULL, 0, 0, "dir", "no directory given (-d dir)" },
	sweep_tables,
	sizeof(struct sweep_args),
	sweep_init,
	sweep_exec,
	0
};
