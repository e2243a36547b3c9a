/*
 * The command line of a benchmark run: the usage text, the options and
 * their values.  In the library, not main.c, so that tests and fuzzers can
 * parse whole command lines.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "options.h"
#include "phase.h"
#include "units.h"

const char options_usage[] =
"usage: bonnie-ng [-fhLqV] [-d dir] [-s size] [-c chunk] [-m label] [-S count]\n"
"                 [-j jobs] [-n seeks] [--seekers=fork|thread] [--cache=cold|keep]\n"
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
	{ "jobs",		required_argument, NULL, 'j' },
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
	case 'j': return "-j, --jobs";
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

/* Refuse a value: "invalid value for -s, --size: why". */
static int
bad_value(int c, const char *why, char **cause)
{
	return errorf(cause, "invalid value for %s: %s", option_name(c), why);
}

/* -p: a comma-separated list of phase names. */
static int
parse_phases(const char *arg, unsigned *mask, char **cause)
{
	const struct phase	*p;
	char			*copy = xstrdup(arg), *s = copy, *name;

	*mask = 0;
	while ((name = strsep(&s, ",")) != NULL) {
		if ((p = phase_by_name(name)) == NULL) {
			errorf(cause, "invalid value for -p, --phases: unknown "
			    "phase '%s' (putc, write, rewrite, getc, read, "
			    "seeks)", name);
			free(copy);
			return -1;
		}
		*mask |= 1u << p->id;
	}
	free(copy);
	return 0;
}

/* The option loop; *why holds a value parser's message. */
static int
parse_args(int argc, char **argv, struct options *o, char **why,
    char **cause)
{
	uint64_t	 v;
	int		 c, fast = 0;
	const char	*arg;

	opterr = 0;
	/*
	 * 0, not 1: getopt_long() remembers where it stopped inside a group
	 * of short options ("-hq" stops after h), and only optind = 0 makes
	 * glibc, musl and the BSDs forget that, so that a second call (tests,
	 * fuzzers) never reads the last call's argv.
	 */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":d:s:c:m:S:j:n:fp:qLx:z:o:hV",
	    long_options, NULL)) != -1) {
		arg = optarg;
		switch (c) {
		case 'd':
			if (*arg == '\0')
				return bad_value(c, "empty directory name",
				    cause);
			o->dir = arg;
			break;
		case 's':
			if (parse_size(arg, (uint64_t)1 << 20, &v, why) == -1)
				return bad_value(c, *why, cause);
			o->size = o->size_asked = v;
			break;
		case 'c':
			if (parse_size(arg, 1, &v, why) == -1)
				return bad_value(c, *why, cause);
			if (v > MAX_CHUNK || v < MIN_CHUNK || (v & (v - 1)))
				return errorf(cause, "invalid value for -c, "
				    "--chunk: '%s' (a power of two from %u to "
				    "%u bytes)", arg, MIN_CHUNK, MAX_CHUNK);
			o->chunk = (size_t)v;
			break;
		case 'm':
			if (*arg == '\0' || *arg == '#' ||
			    strpbrk(arg, " \t\n\r\v\f,") != NULL)
				return bad_value(c, "a label is one word "
				    "without commas, not starting with '#'",
				    cause);
			o->label = arg;
			break;
		case 'S':
			if (strcmp(arg, "fork") == 0)
				o->seeker_mode = SEEKERS_FORK;
			else if (strcmp(arg, "thread") == 0)
				o->seeker_mode = SEEKERS_THREAD;
			else if (parse_count(arg, 1, MAX_SEEKERS, &v,
			    why) == -1)
				return errorf(cause, "invalid value for -S, "
				    "--seekers: %s (a count, or fork or "
				    "thread)", *why);
			else
				o->seekers = (int)v;
			break;
		case 'j':
			if (parse_count(arg, 1, MAX_JOBS, &v, why) == -1)
				return bad_value(c, *why, cause);
			o->jobs = (int)v;
			break;
		case 'n':
			if (parse_count(arg, 1, UINT64_C(1) << 40, &v,
			    why) == -1)
				return bad_value(c, *why, cause);
			o->seeks = v;
			o->seeks_given = 1;
			break;
		case 'f':
			fast = 1;
			break;
		case 'p':
			if (parse_phases(arg, &o->phases, cause) == -1)
				return -1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'L':
			o->latency = 1;
			break;
		case 'x':
			if (parse_count(arg, 1, 1000, &v, why) == -1)
				return bad_value(c, *why, cause);
			o->repeat = (int)v;
			break;
		case 'z':
			if (parse_count(arg, 0, UINT64_MAX, &v, why) == -1)
				return bad_value(c, *why, cause);
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
				return errorf(cause, "invalid value for -o, "
				    "--output: '%s' (use text, csv or json)",
				    arg);
			break;
		case OPT_JSON:
			if (*arg == '\0')
				return bad_value(c, "empty file name", cause);
			o->json_path = arg;
			break;
		case OPT_CACHE:
			if (strcmp(arg, "cold") == 0)
				o->cache = CACHE_MODE_COLD;
			else if (strcmp(arg, "keep") == 0)
				o->cache = CACHE_MODE_KEEP;
			else
				return errorf(cause, "invalid value for "
				    "--cache: '%s' (use cold or keep)", arg);
			break;
		case OPT_DIRECT:
			o->direct = 1;
			break;
		case OPT_RAM:
			if (parse_size(arg, (uint64_t)1 << 20, &v, why) == -1)
				return bad_value(c, *why, cause);
			if (v == 0)
				return bad_value(c, "must be more than 0", cause);
			o->ram = v;
			break;
		case OPT_NO_SPACE_CHECK:
			o->no_space_check = 1;
			break;
		case 'h':
			return OPTIONS_HELP;
		case 'V':
			return OPTIONS_VERSION;
		case ':':
			return errorf(cause, "option %s needs a value",
			    argv[optind - 1]);
		default:
			if (optopt != 0)
				return errorf(cause, "unknown option -%c (see "
				    "bonnie-ng --help)", optopt);
			return errorf(cause, "unknown option %s (see bonnie-ng "
			    "--help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return errorf(cause, "unexpected argument '%s' (see bonnie-ng "
		    "--help)", argv[optind]);
	if (fast)
		o->phases &= ~((1u << PH_PUTC) | (1u << PH_GETC));
	return options_check(o, cause);
}

int
options_parse(int argc, char **argv, struct options *o, char **cause)
{
	char	*why = NULL;
	int	 r;

	r = parse_args(argc, argv, o, &why, cause);
	free(why);
	return r;
}
