/*
 * "bonnie-ng sweep": run the phases for every file size (doubling between
 * two bounds) and every chunk size, print a table per phase, find the
 * knees, and write the whole sweep as JSON and as an SVG plot.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "error.h"
#include "knee.h"
#include "options.h"
#include "phase.h"
#include "platform.h"
#include "result.h"
#include "run.h"
#include "signals.h"
#include "sweep.h"
#include "sysinfo.h"
#include "timer.h"
#include "units.h"

#define USAGE \
"usage: bonnie-ng sweep -d dir [-q] [-m label] [-n seeks] [-S seekers]\n" \
"           [-z seed] [--sizes lo..hi] [--chunks list] [--phases list]\n" \
"           [--cache keep|cold] [--knee pct] [--max-time seconds]\n" \
"           [--json file] [--svg file] [--seekers fork|thread]\n" \
"           [--ram size]\n"

enum {
	O_HELP = 'h',
	O_DIR = 'd',
	O_QUIET = 'q',
	O_NSEEKERS = 'S',
	O_SEEKS = 'n',
	O_SEED = 'z',
	O_LABEL = 'm',
	O_SIZES = 256,
	O_CHUNKS,
	O_PHASES,
	O_CACHE,
	O_KNEE,
	O_MAXTIME,
	O_JSON,
	O_SVG,
	O_SEEKMODE,
	O_RAM
};

static const struct sweep_option {
	const char	*name;		/* Long name, or NULL. */
	int		 letter;	/* Short name, or 0. */
	int		 arg;		/* Takes a value. */
	int		 id;
} sweep_options[] = {
	{ "help",	'h', 0, O_HELP },
	{ "dir",	'd', 1, O_DIR },
	{ "quiet",	'q', 0, O_QUIET },
	{ NULL,		'S', 1, O_NSEEKERS },
	{ "seeks",	'n', 1, O_SEEKS },
	{ "seed",	'z', 1, O_SEED },
	{ "label",	'm', 1, O_LABEL },
	{ "sizes",	0,   1, O_SIZES },
	{ "chunks",	0,   1, O_CHUNKS },
	{ "phases",	0,   1, O_PHASES },
	{ "cache",	0,   1, O_CACHE },
	{ "knee",	0,   1, O_KNEE },
	{ "max-time",	0,   1, O_MAXTIME },
	{ "json",	0,   1, O_JSON },
	{ "svg",	0,   1, O_SVG },
	{ "seekers",	0,   1, O_SEEKMODE },
	{ "ram",	0,   1, O_RAM },
};
#define NOPTIONS	(sizeof(sweep_options) / sizeof(sweep_options[0]))

/* Everything the command line asked for. */
struct sweep_args {
	struct options	 opt;
	int		 dir_given;
	int		 help;
	const char	*sizes;		/* --sizes as given, or NULL. */
	uint64_t	 lo, hi;	/* hi 0: the default top. */
	const char	*chunks;
	const char	*phases;
	uint64_t	 knee;
	uint64_t	 max_time;
	const char	*json_path;
	const char	*svg_path;
};

/* Take the value of one option. */
static int
take(struct sweep_args *a, int id, const char *name, const char *v,
    char **cause)
{
	uint64_t	 n;
	char		*why = NULL;

	switch (id) {
	case O_HELP:
		a->help = 1;
		return 0;
	case O_DIR:
		a->opt.dir = v;
		a->dir_given = 1;
		return 0;
	case O_LABEL:
		if (*v == '\0' || *v == '#' ||
		    strpbrk(v, " \t\n\r\v\f,") != NULL)
			return errorf(cause, "invalid value for -m, --label: "
			    "'%s' (a label is one word without commas, not "
			    "starting with '#')", v);
		a->opt.label = v;
		return 0;
	case O_QUIET:
		a->opt.quiet = 1;
		return 0;
	case O_SIZES:
		a->sizes = v;
		return sweep_parse_sizes(v, &a->lo, &a->hi, cause);
	case O_CHUNKS:
		a->chunks = v;
		return 0;
	case O_PHASES:
		a->phases = v;
		return 0;
	case O_JSON:
		a->json_path = v;
		return 0;
	case O_SVG:
		a->svg_path = v;
		return 0;
	case O_CACHE:
		if (strcmp(v, "keep") == 0)
			a->opt.cache = CACHE_MODE_KEEP;
		else if (strcmp(v, "cold") == 0)
			a->opt.cache = CACHE_MODE_COLD;
		else
			return errorf(cause, "invalid value for --cache: '%s' "
			    "(keep or cold)", v);
		return 0;
	case O_SEEKMODE:
		if (strcmp(v, "fork") == 0)
			a->opt.seeker_mode = SEEKERS_FORK;
		else if (strcmp(v, "thread") == 0)
			a->opt.seeker_mode = SEEKERS_THREAD;
		else
			return errorf(cause, "invalid value for --seekers: "
			    "'%s' (fork or thread)", v);
		return 0;
	case O_NSEEKERS:
		if (parse_count(v, 1, MAX_SEEKERS, &n, &why) == -1)
			break;
		a->opt.seekers = (int)n;
		return 0;
	case O_SEEKS:
		if (parse_count(v, 1, UINT32_MAX, &n, &why) == -1)
			break;
		a->opt.seeks = n;
		a->opt.seeks_given = 1;
		return 0;
	case O_SEED:
		if (parse_count(v, 0, UINT64_MAX, &a->opt.seed, &why) == -1)
			break;
		a->opt.seed_given = 1;
		return 0;
	case O_KNEE:
		if (parse_count(v, 1, 99, &a->knee, &why) == -1)
			break;
		return 0;
	case O_MAXTIME:
		if (parse_count(v, 1, UINT32_MAX, &a->max_time, &why) == -1)
			break;
		return 0;
	case O_RAM:
		if (parse_size(v, (uint64_t)1 << 20, &n, &why) == -1)
			break;
		if (n == 0)
			return errorf(cause, "invalid value for --ram: '%s' "
			    "(must be above zero)", v);
		a->opt.ram = n;
		return 0;
	}
	errorf(cause, "invalid value for %s: %s", name, why);
	free(why);
	return -1;
}

/* Parse the command line (argv[0] is "sweep").  0, or -1 with *cause. */
static int
parse_args(int argc, char **argv, struct sweep_args *a, char **cause)
{
	const struct sweep_option	*o;
	const char			*arg, *v, *eq;
	char				 name[64];
	size_t				 len, k;
	int				 i;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			break;
		o = NULL;
		v = NULL;
		if (arg[1] == '-') {
			eq = strchr(arg + 2, '=');
			len = eq != NULL ? (size_t)(eq - arg - 2) :
			    strlen(arg + 2);
			for (k = 0; k < NOPTIONS; k++) {
				if (sweep_options[k].name != NULL &&
				    strlen(sweep_options[k].name) == len &&
				    strncmp(sweep_options[k].name, arg + 2,
				    len) == 0)
					o = &sweep_options[k];
			}
			if (o == NULL)
				return errorf(cause, "sweep: unknown option "
				    "'%.*s' (see bonnie-ng sweep -h)",
				    (int)len + 2, arg);
			snprintf(name, sizeof(name), "--%s", o->name);
			if (eq != NULL && !o->arg)
				return errorf(cause, "option %s takes no "
				    "value", name);
			if (eq != NULL)
				v = eq + 1;
		} else {
			for (k = 0; k < NOPTIONS; k++) {
				if (sweep_options[k].letter == arg[1])
					o = &sweep_options[k];
			}
			if (o == NULL || (!o->arg && arg[2] != '\0'))
				return errorf(cause, "sweep: unknown option "
				    "'%s' (see bonnie-ng sweep -h)", arg);
			if (o->name != NULL)
				snprintf(name, sizeof(name), "-%c, --%s",
				    o->letter, o->name);
			else
				snprintf(name, sizeof(name), "-%c", o->letter);
			if (arg[2] != '\0')
				v = arg + 2;
		}
		if (o->arg && v == NULL) {
			if (i + 1 >= argc)
				return errorf(cause, "option %s needs a value",
				    name);
			v = argv[++i];
		}
		if (take(a, o->id, name, v, cause) == -1)
			return -1;
	}
	if (i < argc)
		return errorf(cause, "sweep: unexpected argument '%s' (see "
		    "bonnie-ng sweep -h)", argv[i]);
	return 0;
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
		left += r->points[q].size;
	if (bytes_done > 0 && p > 0) {
		by_bytes = elapsed / (double)bytes_done * (double)left;
		by_points = elapsed / p * (total - p);
		units_span(s, sizeof(s), by_bytes > by_points ? by_bytes :
		    by_points);
		snprintf(eta, sizeof(eta), ", about %s left", s);
	}
	units_size_short(s, sizeof(s), pt->size);
	units_chunk(c, sizeof(c), pt->chunk);
	fprintf(stderr, "\rsweep: point %d of %d (%s, chunk %s)%s\033[K",
	    p + 1, total, s, c, eta);
	fflush(stderr);
}

/*
 * Settle the sizes: the default top is twice RAM, capped by half the free
 * space in the directory.  Returns 0, 1 for a fault in the options
 * (exit 2), or -1 for a fault in the system.
 */
static int
settle_sizes(struct sweep_args *a, struct sweep_result *r,
    const struct sysinfo *si, char **cause)
{
	uint64_t	hi = a->hi, cap;
	char		b1[32], b2[32];

	if (hi == 0) {
		if (a->opt.ram == 0) {
			errorf(cause, "sweep: the RAM size is unknown; give "
			    "--sizes LO..HI or --ram SIZE");
			return 1;
		}
		hi = a->opt.ram > UINT64_MAX / 2 ? UINT64_MAX :
		    2 * a->opt.ram;
		if (si != NULL && si->free_bytes >= 0) {
			cap = (uint64_t)si->free_bytes / 2;
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
			return -1;
		}
	}
	r->nsizes = sweep_size_list(a->lo, hi, r->sizes, SWEEP_MAX_SIZES);
	return 0;
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
	int		 p, total = r->nsizes * r->nchunks, tty, sig = 0;
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
		if (options_check(&o, cause) == -1)
			return 2;
		r->npoints = p + 1;
		if (run_once(&o, &pt->res) == -1) {
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
		bytes_done += pt->size;
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

static FILE *
open_output(const char *path, const char *what, char **cause)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		errorf(cause, "%s: %s: %s", what, path, strerror(errno));
	return f;
}

/*
 * Close an output file that write returned rc for.  A failure becomes the
 * final error, or a warning when the sweep has failed already.
 */
static int
finish_output(FILE *f, int rc, const char *path, const char *what,
    int status, char **cause)
{
	int	saved = errno;

	if (f == NULL)
		return 0;
	if (fclose(f) == EOF && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc == 0)
		return 0;
	if (saved == 0)
		saved = EIO;
	if (status != 0) {
		fprintf(stderr, "bonnie-ng: %s: %s: %s\n", what, path,
		    strerror(saved));
		return -1;
	}
	return errorf(cause, "%s: %s: %s", what, path, strerror(saved));
}

int
cmd_sweep(int argc, char **argv, char **cause)
{
	struct sweep_args	 a;
	struct sweep_result	 r;
	struct sysinfo		*si = NULL;
	FILE			*jf = NULL, *sf = NULL;
	char			*why = NULL;
	int			 i, k, rc, usage = 0, status;

	memset(&a, 0, sizeof(a));
	memset(&r, 0, sizeof(r));
	options_defaults(&a.opt);
	a.opt.cache = CACHE_MODE_KEEP;
	a.lo = SWEEP_DEFAULT_LO;
	a.knee = KNEE_DEFAULT_PCT;
	a.chunks = SWEEP_DEFAULT_CHUNKS;
	a.phases = SWEEP_DEFAULT_PHASES;
	a.opt.argc = argc;
	a.opt.argv = argv;

	/* Everything about the options is checked before any file is made. */
	if (parse_args(argc, argv, &a, cause) == -1)
		return 2;
	if (a.help) {
		fputs(USAGE, stdout);
		return 0;
	}
	if (!a.dir_given) {
		errorf(cause, "sweep: no directory given (-d dir)");
		return 2;
	}
	if ((r.nchunks = sweep_parse_chunks(a.chunks, r.chunks,
	    SWEEP_MAX_CHUNKS, cause)) == -1)
		return 2;
	if (sweep_parse_phases(a.phases, &a.opt.phases, cause) == -1)
		return 2;
	if (a.opt.ram == 0)
		a.opt.ram = platform_ram();
	if (a.opt.label == NULL)
		a.opt.label = options_default_label();
	if (!a.opt.seed_given)
		a.opt.seed = time_now().ns ^ ((uint64_t)getpid() << 40);
	if (r.chunks[r.nchunks - 1] > a.lo) {
		char	b1[32], b2[32];

		units_size_words(b1, sizeof(b1), a.lo);
		units_chunk(b2, sizeof(b2), r.chunks[r.nchunks - 1]);
		errorf(cause, "invalid value for --sizes: '%s' (%s is smaller "
		    "than one chunk, %s)", a.sizes != NULL ? a.sizes : "64m",
		    b1, b2);
		return 2;
	}

	/*
	 * The directory, then the free space it has; the room check is ours,
	 * for all the sizes at once.
	 */
	a.opt.size_asked = a.lo;
	a.opt.chunk = r.chunks[0];
	if (options_check(&a.opt, cause) == -1)
		return 2;
	a.opt.no_space_check = 1;
	if (run_preflight(&a.opt, &usage, cause) == -1)
		return usage ? 2 : 1;
	if (sysinfo_collect(a.opt.dir, &si, &why) == -1) {
		errorf(cause, "sweep: %s", why);
		free(why);
		return 1;
	}
	r.opt = &a.opt;
	r.sys = si;
	r.knee_pct = (double)a.knee;
	r.max_time = a.max_time;
	rc = settle_sizes(&a, &r, si, cause);
	if (rc != 0) {
		sysinfo_free(si);
		return rc == 1 ? 2 : 1;
	}
	/* Room for the largest file, checked here to name --sizes. */
	if (si != NULL && si->free_bytes >= 0 &&
	    r.sizes[r.nsizes - 1] > (uint64_t)si->free_bytes) {
		char	b1[32], b2[32];

		units_size_words(b1, sizeof(b1), r.sizes[r.nsizes - 1]);
		units_size_words(b2, sizeof(b2),
		    (uint64_t)si->free_bytes >> 20 << 20);
		errorf(cause, "invalid value for --sizes: '%s' (the largest "
		    "file, %s, is more than the %s free in %s)",
		    a.sizes != NULL ? a.sizes : "64m", b1, b2, a.opt.dir);
		sysinfo_free(si);
		return 2;
	}
	a.opt.size_asked = r.sizes[r.nsizes - 1];
	if (options_check(&a.opt, cause) == -1 ||
	    run_preflight(&a.opt, &usage, cause) == -1) {
		sysinfo_free(si);
		return usage ? 2 : 1;
	}
	if ((a.json_path != NULL &&
	    (jf = open_output(a.json_path, "--json", cause)) == NULL) ||
	    (a.svg_path != NULL &&
	    (sf = open_output(a.svg_path, "--svg", cause)) == NULL)) {
		if (jf != NULL)
			fclose(jf);
		sysinfo_free(si);
		return 1;
	}

	r.points = xcalloc((size_t)r.nsizes * (size_t)r.nchunks,
	    sizeof(*r.points));
	for (i = 0; i < r.nsizes; i++) {
		for (k = 0; k < r.nchunks; k++) {
			r.points[i * r.nchunks + k].size = r.sizes[i];
			r.points[i * r.nchunks + k].chunk = r.chunks[k];
		}
	}
	utc_now(r.start_utc, sizeof(r.start_utc));
	run_signals_install();
	run_set_progress(0);
	status = run_points(&r, &a, cause);
	if (!a.opt.quiet)
		sweep_warnings(&r);

	/* Whatever was measured is shown and written, even after a stop. */
	if (!a.opt.quiet) {
		char	b1[32], b2[32];

		units_size_short(b1, sizeof(b1), r.sizes[0]);
		units_size_short(b2, sizeof(b2), r.sizes[r.nsizes - 1]);
		printf("bonnie-ng sweep of %s: sizes %s to %s, %d of %d "
		    "points, cache %s\n\n", a.opt.dir, b1, b2, r.npoints,
		    r.nsizes * r.nchunks,
		    a.opt.cache == CACHE_MODE_KEEP ? "keep" : "cold");
	}
	sweep_print_tables(stdout, &r);
	sweep_print_knees(stdout, &r);
	fflush(stdout);
	errno = 0;
	rc = jf != NULL ? sweep_write_json(jf, &r) : 0;
	if (finish_output(jf, rc, a.json_path, "--json", status, cause) == -1 &&
	    status == 0)
		status = 1;
	errno = 0;
	rc = sf != NULL ? sweep_write_svg(sf, &r) : 0;
	if (finish_output(sf, rc, a.svg_path, "--svg", status, cause) == -1 &&
	    status == 0)
		status = 1;
	free(r.points);
	sysinfo_free(si);
	return status;
}
