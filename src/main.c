/*
 * bonnie-ng: options, then the run, then the report.  Everything else is
 * in the library so the tests can link it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "error.h"
#include "options.h"
#include "phase.h"
#include "platform.h"
#include "record.h"
#include "report.h"
#include "run.h"
#include "sysinfo.h"
#include "timer.h"

static const char usage_text[] =
"usage: bonnie-ng [-fhLqV] [-d dir] [-s size] [-c chunk] [-m label] [-S count]\n"
"                 [-n seeks] [--seekers=fork|thread] [--cache=cold|keep]\n"
"                 [--direct] [--ram size] [-z seed] [-x count] [-p phases]\n"
"                 [-o text|csv|json] [--json file] [--no-space-check]\n"
"       bonnie-ng compare [options] base new [new ...]\n"
"       bonnie-ng report [options] file ...\n"
"       bonnie-ng sweep [options]\n";

enum {
	OPT_CACHE = 256,
	OPT_DIRECT,
	OPT_RAM,
	OPT_JSON,
	OPT_NO_SPACE_CHECK
};

static const struct option long_options[] = {
	{ "dir",		required_argument, NULL, 'd' },
	{ "size",		required_argument, NULL, 's' },
	{ "chunk",		required_argument, NULL, 'c' },
	{ "label",		required_argument, NULL, 'm' },
	{ "seekers",		required_argument, NULL, 'S' },
	{ "seeks",		required_argument, NULL, 'n' },
	{ "fast",		no_argument,	   NULL, 'f' },
	{ "phases",		required_argument, NULL, 'p' },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "latency",		no_argument,	   NULL, 'L' },
	{ "repeat",		required_argument, NULL, 'x' },
	{ "seed",		required_argument, NULL, 'z' },
	{ "output",		required_argument, NULL, 'o' },
	{ "json",		required_argument, NULL, OPT_JSON },
	{ "cache",		required_argument, NULL, OPT_CACHE },
	{ "direct",		no_argument,	   NULL, OPT_DIRECT },
	{ "ram",		required_argument, NULL, OPT_RAM },
	{ "no-space-check",	no_argument,	   NULL, OPT_NO_SPACE_CHECK },
	{ "help",		no_argument,	   NULL, 'h' },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL,			0,		   NULL, 0 }
};

static void __attribute__((noreturn))
die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
die(int status, const char *fmt, ...)
{
	va_list	ap;

	fputs("bonnie-ng: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* The long and short names of an option, for messages. */
static const char *
option_name(int c)
{
	switch (c) {
	case 'd': return "-d, --dir";
	case 's': return "-s, --size";
	case 'c': return "-c, --chunk";
	case 'm': return "-m, --label";
	case 'S': return "-S, --seekers";
	case 'n': return "-n, --seeks";
	case 'p': return "-p, --phases";
	case 'x': return "-x, --repeat";
	case 'z': return "-z, --seed";
	case 'o': return "-o, --output";
	case OPT_JSON: return "--json";
	case OPT_CACHE: return "--cache";
	case OPT_RAM: return "--ram";
	}
	return "option";
}

static void __attribute__((noreturn))
bad_value(int c, const char *cause)
{
	die(2, "invalid value for %s: %s", option_name(c), cause);
}

/* -p: a comma-separated list of phase names. */
static unsigned
parse_phases(const char *arg)
{
	const struct phase	*p;
	char			*copy = xstrdup(arg), *s = copy, *name;
	unsigned		 mask = 0;

	while ((name = strsep(&s, ",")) != NULL) {
		if ((p = phase_by_name(name)) == NULL)
			die(2, "invalid value for -p, --phases: unknown phase "
			    "'%s' (putc, write, rewrite, getc, read, seeks)",
			    name);
		mask |= 1u << p->id;
	}
	free(copy);
	return mask;
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	char		*cause = NULL;
	uint64_t	 v;
	int		 c, fast = 0;
	const char	*arg;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:s:c:m:S:n:fp:qLx:z:o:hV",
	    long_options, NULL)) != -1) {
		arg = optarg;
		switch (c) {
		case 'd':
			if (*arg == '\0')
				bad_value(c, "empty directory name");
			o->dir = arg;
			break;
		case 's':
			if (parse_size(arg, (uint64_t)1 << 20, &v, &cause) == -1)
				bad_value(c, cause);
			o->size = o->size_asked = v;
			break;
		case 'c':
			if (parse_size(arg, 1, &v, &cause) == -1)
				bad_value(c, cause);
			if (v > MAX_CHUNK || v < MIN_CHUNK || (v & (v - 1)))
				die(2, "invalid value for -c, --chunk: '%s' "
				    "(a power of two from %u to %u bytes)", arg,
				    MIN_CHUNK, MAX_CHUNK);
			o->chunk = (size_t)v;
			break;
		case 'm':
			if (*arg == '\0' || *arg == '#' ||
			    strpbrk(arg, " \t\n\r\v\f,") != NULL)
				bad_value(c, "a label is one word without "
				    "commas, not starting with '#'");
			o->label = arg;
			break;
		case 'S':
			if (strcmp(arg, "fork") == 0)
				o->seeker_mode = SEEKERS_FORK;
			else if (strcmp(arg, "thread") == 0)
				o->seeker_mode = SEEKERS_THREAD;
			else if (parse_count(arg, 1, MAX_SEEKERS, &v,
			    &cause) == -1)
				die(2, "invalid value for -S, --seekers: %s "
				    "(a count, or fork or thread)", cause);
			else
				o->seekers = (int)v;
			break;
		case 'n':
			if (parse_count(arg, 1, UINT64_C(1) << 40, &v,
			    &cause) == -1)
				bad_value(c, cause);
			o->seeks = v;
			o->seeks_given = 1;
			break;
		case 'f':
			fast = 1;
			break;
		case 'p':
			o->phases = parse_phases(arg);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'L':
			o->latency = 1;
			break;
		case 'x':
			if (parse_count(arg, 1, 1000, &v, &cause) == -1)
				bad_value(c, cause);
			o->repeat = (int)v;
			break;
		case 'z':
			if (parse_count(arg, 0, UINT64_MAX, &v, &cause) == -1)
				bad_value(c, cause);
			o->seed = v;
			o->seed_given = 1;
			break;
		case 'o':
			if (strcmp(arg, "text") == 0)
				o->format = OUT_TEXT;
			else if (strcmp(arg, "csv") == 0)
				o->format = OUT_CSV;
			else if (strcmp(arg, "json") == 0)
				o->format = OUT_JSON;
			else
				bad_value(c, "use text, csv or json");
			break;
		case OPT_JSON:
			if (*arg == '\0')
				bad_value(c, "empty file name");
			o->json_path = arg;
			break;
		case OPT_CACHE:
			if (strcmp(arg, "cold") == 0)
				o->cache = CACHE_MODE_COLD;
			else if (strcmp(arg, "keep") == 0)
				o->cache = CACHE_MODE_KEEP;
			else
				bad_value(c, "use cold or keep");
			break;
		case OPT_DIRECT:
			o->direct = 1;
			break;
		case OPT_RAM:
			if (parse_size(arg, (uint64_t)1 << 20, &v, &cause) == -1)
				bad_value(c, cause);
			if (v == 0)
				bad_value(c, "must be more than 0");
			o->ram = v;
			break;
		case OPT_NO_SPACE_CHECK:
			o->no_space_check = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			printf("bonnie-ng %s\n", BONNIE_NG_VERSION);
			exit(0);
		case ':':
			die(2, "option %s needs a value", argv[optind - 1]);
		default:
			if (optopt != 0)
				die(2, "unknown option -%c (see bonnie-ng "
				    "--help)", optopt);
			die(2, "unknown option %s (see bonnie-ng --help)",
			    argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (see bonnie-ng --help)",
		    argv[optind]);
	if (fast)
		o->phases &= ~((1u << PH_PUTC) | (1u << PH_GETC));
	if (options_check(o, &cause) == -1)
		die(2, "%s", cause);
	free(cause);
}

/* The short host name, the default label. */
static const char *
default_label(void)
{
	static char	host[256];
	char		*dot;

	if (gethostname(host, sizeof(host) - 1) == -1 || host[0] == '\0')
		return "bonnie";
	host[sizeof(host) - 1] = '\0';
	if ((dot = strchr(host, '.')) != NULL)
		*dot = '\0';
	return host;
}

static const char *
signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	}
	return "a signal";
}

static int
subcommand(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*fn)(int, char **, char **);
	} cmds[] = {
		{ "compare", cmd_compare },
		{ "report", cmd_report },
		{ "sweep", cmd_sweep },
	};
	char	*cause = NULL;
	size_t	 i;
	int	 status;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name) != 0)
			continue;
		status = cmds[i].fn(argc - 1, argv + 1, &cause);
		if (cause != NULL)
			fprintf(stderr, "bonnie-ng: %s\n", cause);
		free(cause);
		return status;
	}
	return -1;
}

/* Write the record to a file (--json), even after a failure. */
static void
write_json_file(const char *path, const struct record *rec)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		die(1, "--json: %s: %s", path, strerror(errno));
	if (record_write_json(f, rec) == -1 || fclose(f) == EOF)
		die(1, "--json: %s: %s", path, strerror(errno));
}

int
main(int argc, char **argv)
{
	struct options		 opt;
	struct run_result	*runs;
	struct sysinfo		*si = NULL;
	struct record		 rec;
	char			*cause = NULL;
	int			 i, usage, status = 0, done = 0, sig;

	if (argc > 1 && (i = subcommand(argc, argv)) != -1)
		return i;
	if (phase_table_check(&cause) == -1)
		die(1, "internal error: %s", cause);

	options_defaults(&opt);
	opt.argc = argc;
	opt.argv = argv;
	parse_options(argc, argv, &opt);
	if (opt.label == NULL)
		opt.label = default_label();
	if (!opt.seed_given)
		/* 53 bits, so the record's readers keep it exact. */
		opt.seed = (time_now().ns ^ ((uint64_t)getpid() << 32)) &
		    ((UINT64_C(1) << 53) - 1);
	if (opt.ram == 0)
		opt.ram = platform_ram();
	if (run_preflight(&opt, &usage, &cause) == -1)
		die(usage ? 2 : 1, "%s", cause);

	if (!opt.quiet && opt.size != opt.size_asked)
		fprintf(stderr, "bonnie-ng: note: size rounded down to %llu "
		    "KiB, a whole number of %zu-byte chunks\n",
		    (unsigned long long)(opt.size >> 10), opt.chunk);
	if (!opt.quiet && opt.cache == CACHE_MODE_KEEP && opt.ram > 0 &&
	    opt.size < 2 * opt.ram)
		fprintf(stderr, "bonnie-ng: note: the %llu MiB file is "
		    "smaller than twice RAM (%.1f GiB): with --cache=keep the "
		    "results include the page cache\n",
		    (unsigned long long)(opt.size >> 20),
		    (double)opt.ram / (1u << 30));

	if (sysinfo_collect(opt.dir, &si, &cause) == -1)
		die(1, "%s", cause);
	run_signals_install();
	run_set_progress(opt.quiet ? 0 : isatty(STDERR_FILENO) ? 2 : 1);

	runs = xcalloc((size_t)opt.repeat, sizeof(*runs));
	memset(&rec, 0, sizeof(rec));
	rec.opt = &opt;
	rec.sys = si;
	rec.runs = runs;
	for (i = 0; i < opt.repeat; i++) {
		done = i + 1;
		if (run_once(&opt, i, &runs[i]) == -1) {
			status = 1;
			break;
		}
	}
	rec.nruns = done;
	memcpy(rec.start_utc, runs[0].start_utc, sizeof(rec.start_utc));

	if (opt.json_path != NULL)
		write_json_file(opt.json_path, &rec);
	if (status == 0) {
		switch (opt.format) {
		case OUT_TEXT:
			status = report_write_text(stdout, &rec, opt.latency);
			break;
		case OUT_CSV:
			status = record_write_csv(stdout, &rec);
			break;
		case OUT_JSON:
			status = record_write_json(stdout, &rec);
			break;
		}
		if (status == -1 || fflush(stdout) == EOF)
			die(1, "standard output: %s", strerror(errno));
	}
	sysinfo_free(si);

	if ((sig = runs[done - 1].interrupted) != 0) {
		fprintf(stderr, "bonnie-ng: interrupted by %s; test file "
		    "removed\n", signal_name(sig));
		free(runs);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	if (status != 0)
		fprintf(stderr, "bonnie-ng: %s\n", runs[done - 1].err.message);
	free(runs);
	free(cause);
	return status;
}
