/*
 * Unit tests: the one option parser (args_parse) and the command entries
 * around it; the seam through which a phase brings options of its own.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "commands.h"
#include "options.h"
#include "settings.h"
#include "phase-ctx.h"
#include "phase.h"
#include "result.h"
#include "tap.h"

/* A command of its own, to test the parser alone. */
struct toy {
	int		 flag;
	int		 other;
	const char	*name;
	uint64_t	 count;
};

static int
set_count(void *t, const struct args_option *r, const char *v, char **why)
{
	return parse_count(v, r->min, r->max, &((struct toy *)t)->count, why);
}

static const struct args_option toy_rows[] = {
	OPT_FLAG('f', "flag", (int)offsetof(struct toy, flag), "a flag"),
	OPT_FLAG('o', "other", (int)offsetof(struct toy, other),
	    "another flag"),
	OPT_STRING('n', "name", "name", (int)offsetof(struct toy, name),
	    "a name"),
	{ .name = "count", .kind = ARGS_VALUE, .value = "n", .set = set_count,
	  .min = 1, .max = 10, .help = "a count" },
	OPT_FLAG(0, "counter", (int)offsetof(struct toy, other),
	    "a long flag"),
	ARGS_END
};

static const struct args_spec toy_spec = { .command = "toy",
    .operands = "file ...", .lower = 1, .upper = 2 };

/* Parse the words after "toy"; the result, operands in files[]. */
static enum args_result
toy_parse(struct toy *t, const char *line, char **files, int *n,
    char **cause)
{
	static char	 buf[512];
	char		*argv[32], *s = buf, *w;
	int		 argc = 0;
	struct args_table tables[2] = { { toy_rows, NULL }, { NULL, NULL } };

	memset(t, 0, sizeof(*t));
	tables[0].target = t;
	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = (char *)"toy";
	while ((w = strsep(&s, " ")) != NULL && argc < 31)
		if (*w != '\0')
			argv[argc++] = w;
	argv[argc] = NULL;
	free(*cause);
	*cause = NULL;
	return args_parse(&toy_spec, tables, argc, argv, files, n, cause);
}

static void
test_parser(void)
{
	struct toy	 t;
	char		*files[32], *cause = NULL;
	int		 n;

	ok(toy_parse(&t, "-fo -n x a", files, &n, &cause) == ARGS_OK &&
	    t.flag && t.other && strcmp(t.name, "x") == 0 && n == 1 &&
	    strcmp(files[0], "a") == 0, "grouped flags, a value, an operand");
	ok(toy_parse(&t, "-fnx a", files, &n, &cause) == ARGS_OK && t.flag &&
	    strcmp(t.name, "x") == 0, "a value attached after a flag");
	ok(toy_parse(&t, "a --name=y --count 3 b", files, &n, &cause) ==
	    ARGS_OK && strcmp(t.name, "y") == 0 && t.count == 3 && n == 2,
	    "long values after = and as the next word, operands around");
	ok(toy_parse(&t, "--na z a", files, &n, &cause) == ARGS_OK &&
	    strcmp(t.name, "z") == 0, "an unambiguous abbreviation");
	ok(toy_parse(&t, "--count 4 --counter a", files, &n, &cause) ==
	    ARGS_OK && t.count == 4 && t.other,
	    "an exact name wins over a longer one it starts");
	ok(toy_parse(&t, "--coun 4 a", files, &n, &cause) == ARGS_ERROR,
	    "an ambiguous abbreviation refused");
	is_str(cause, "toy: ambiguous option --coun (--count, --counter)",
	    "  naming the candidates");
	ok(toy_parse(&t, "-n -f a", files, &n, &cause) == ARGS_OK &&
	    strcmp(t.name, "-f") == 0 && !t.flag,
	    "a value may start with '-'");
	ok(toy_parse(&t, "-- -f -", files, &n, &cause) == ARGS_OK && n == 2 &&
	    strcmp(files[0], "-f") == 0 && strcmp(files[1], "-") == 0 &&
	    !t.flag, "-- ends the options; - is an operand");
	ok(toy_parse(&t, "-q a", files, &n, &cause) == ARGS_ERROR, "-q");
	is_str(cause, "toy: unknown option -q (see bonnie-ng toy --help)",
	    "  unknown short option");
	ok(toy_parse(&t, "--bogus=1 a", files, &n, &cause) == ARGS_ERROR,
	    "--bogus=1");
	is_str(cause, "toy: unknown option --bogus (see bonnie-ng toy --help)",
	    "  unknown long option");
	ok(toy_parse(&t, "a -n", files, &n, &cause) == ARGS_ERROR, "-n");
	is_str(cause, "toy: option -n needs a value", "  missing value");
	ok(toy_parse(&t, "--flag=1 a", files, &n, &cause) == ARGS_ERROR,
	    "--flag=1");
	is_str(cause, "toy: option --flag takes no value", "  a flag's value");
	ok(toy_parse(&t, "--count 11 a", files, &n, &cause) == ARGS_ERROR,
	    "--count 11");
	is_str(cause, "toy: invalid value for --count: '11' is out of range "
	    "(1 to 10)", "  the setter's reason after the option's names");
	ok(toy_parse(&t, "a b c", files, &n, &cause) == ARGS_ERROR, "a b c");
	is_str(cause, "toy: unexpected argument 'c' (see bonnie-ng toy --help)",
	    "  too many operands: one line");
	ok(toy_parse(&t, "-f", files, &n, &cause) == ARGS_SHOW_USAGE,
	    "too few operands: the usage is to follow");
	is_str(cause, "toy: too few arguments", "  and the line before it");
	ok(strchr(cause, '\n') == NULL, "  is one line");
	ok(toy_parse(&t, "-fh --bogus", files, &n, &cause) == ARGS_SHOW_HELP,
	    "-h in a group: the help, before a later fault");
	ok(toy_parse(&t, "--help", files, &n, &cause) == ARGS_SHOW_HELP &&
	    cause == NULL, "--help, for every command");
	free(cause);
}

static void
test_usage(void)
{
	struct args_table	 tables[2] = { { toy_rows, NULL },
				    { NULL, NULL } };
	char			 buf[4096];
	FILE			*f;
	size_t			 n;

	if ((f = tmpfile()) == NULL) {
		ok(0, "tmpfile");
		return;
	}
	args_usage(f, "usage: ", &toy_spec, tables);
	args_help(f, tables);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ok(strncmp(buf, "usage: bonnie-ng toy [-fho] [-n name] [--count n] "
	    "[--counter] file ...\n", 68) == 0, "the usage from the rows");
	ok(strstr(buf, "  -n, --name name") != NULL &&
	    strstr(buf, "      --count n") != NULL &&
	    strstr(buf, "  -h, --help") != NULL, "a help line per row");
	if (strncmp(buf, "usage: bonnie-ng toy [-fho]", 27) != 0)
		printf("# %s", buf);
}

/* No two rows of a command share a name; every value row has a setter. */
static void
test_entries(void)
{
	struct args_table		 t[CMD_MAX_TABLES];
	const struct args_option	*a, *b;
	int				 c, i, j, bad = 0;

	for (c = 0; cmd_table[c] != NULL; c++) {
		cmd_tables(cmd_table[c], phase_table, NULL, t);
		for (i = 0; t[i].rows != NULL; i++)
			for (a = t[i].rows; a->letter || a->name; a++) {
				if (a->letter == 'h' || (a->name != NULL &&
				    strcmp(a->name, "help") == 0))
					bad++;
				if ((a->kind == ARGS_VALUE ||
				    a->kind == ARGS_OPTIONAL ||
				    a->kind == ARGS_FLAG) && a->set == NULL)
					bad++;
				if (a->help == NULL || strlen(a->help) > 52)
					bad++;
				for (j = i; t[j].rows != NULL; j++)
					for (b = j == i ? a + 1 : t[j].rows;
					    b->letter || b->name; b++)
						if ((a->letter && a->letter ==
						    b->letter) || (a->name &&
						    b->name && strcmp(a->name,
						    b->name) == 0)) {
							printf("# %s: %s\n",
							    cmd_table[c]->spec.command ?
							    cmd_table[c]->spec.command :
							    "run", a->name);
							bad++;
						}
			}
	}
	is_int(bad, 0, "every command's rows: unique names, a setter, a "
	    "short help, and -h left to the parser");
	/* A phase's rows store into its own slot. */
	for (i = 0, bad = 0; phase_table[i] != NULL; i++)
		for (a = phase_table[i]->options; a != NULL &&
		    (a->letter || a->name); a++)
			if (a->slot != OPTIONS_PHASE_ARG(i))
				bad++;
	is_int(bad, 0, "every phase row stores into its phase's slot");
	ok(cmd_find("sweep") == &cmd_sweep_entry && cmd_find("run") == NULL &&
	    cmd_find("bogus") == NULL, "cmd_find");
}

/*
 * The seam for a phase's own options: a phase made up here, in a table of
 * its own, brings --things; the run command's tables then hold its rows,
 * which store into the options' slot of that phase, with the row's default.
 */
static const struct args_option things_rows[] = {
	OPT_COUNT(0, "things", "count", OPTIONS_PHASE_ARG(PH_SEEKS), 1000, 1,
	    5000, "at most count things"),
	ARGS_END
};

static int
things_run(struct phase_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static const struct phase phase_things = {
	.version = PHASE_VERSION,
	.name = "seeks",
	.title = "Things",
	.run = things_run,
	.options = things_rows,
};

static const struct phase *const things_table[] = {
	&phase_putc, &phase_write, &phase_things, NULL
};

static void
test_phase_options(void)
{
	struct args_table	 t[CMD_MAX_TABLES];
	struct options		 o;
	char			*argv[] = { (char *)"bonnie-ng", (char *)"-q",
				    (char *)"--things", (char *)"77", NULL };
	char			*files[5], *cause = NULL;
	int			 n, i, found = 0;

	cmd_tables(&cmd_run_entry, things_table, &o, t);
	for (i = 0; t[i].rows != NULL; i++)
		if (t[i].rows == things_rows && t[i].target == &o)
			found = 1;
	ok(found, "the run command's tables hold the phase's rows, storing "
	    "into its options");
	cmd_tables(&cmd_sweep_entry, things_table, &o, t);
	for (i = 0, found = 0; t[i].rows != NULL; i++)
		if (t[i].rows == things_rows)
			found = 1;
	ok(found, "and so do the sweep's");

	settings_defaults(&o);
	phase_option_defaults(things_table, &o);
	is_int(o.phase_arg[PH_SEEKS], 1000, "the default is the row's");
	cmd_tables(&cmd_run_entry, things_table, &o, t);
	ok(args_parse(&cmd_run_entry.spec, t, 4, argv, files, &n, &cause) ==
	    ARGS_OK && o.quiet, "--things parses with the common rows");
	is_int(o.phase_arg[PH_SEEKS], 77, "its value lands in the slot");
	argv[3] = (char *)"5001";
	ok(args_parse(&cmd_run_entry.spec, t, 4, argv, files, &n, &cause) ==
	    ARGS_ERROR, "out of the row's range");
	is_str(cause, "invalid value for --things: '5001' is out of range (1 "
	    "to 5000)", "  refused in the parser's words");
	ok(phase_table_check(&cause) == 0, "the real phase table passes its "
	    "check, rows included");
	free(cause);
}

/* The checks in options.c: one per value, shared by every command. */
static void
test_checks(void)
{
	struct options	 o;
	enum cache_mode	 m;
	uint64_t	 v;
	size_t		 n = 0;
	int		 i;
	char		*why = NULL, names[64];

	ok(cache_mode_parse("keep", &m, &why) == 0 && m == CACHE_MODE_KEEP &&
	    strcmp(cache_mode_name(m), "keep") == 0, "cache keep");
	ok(cache_mode_parse("warm", &m, &why) == -1, "cache warm refused");
	is_str(why, "'warm' (use cold, keep or global)", "  its words");
	/*
	 * --cache's row spells the modes' names, in the enum's order, for
	 * the usage, the man page (t-args.sh) and the completion: the two
	 * agree.
	 */
	names[0] = '\0';
	for (i = 0; i < CACHE_MODE_COUNT; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
		    i == 0 ? "" : "|", cache_mode_name((enum cache_mode)i));
	is_str(settings_table[SET_CACHE].opt.value, names,
	    "--cache's words are the modes' names");
	ok(cache_mode_parse("global", &m, &why) == 0 &&
	    m == CACHE_MODE_GLOBAL &&
	    strcmp(cache_mode_name(m), "global") == 0, "cache global");
	settings_defaults(&o);
	ok(seekers_parse("4", &o, &why) == 0 && o.seekers == 4 &&
	    seekers_parse("thread", &o, &why) == 0 &&
	    o.seeker_mode == SEEKERS_THREAD && o.seekers == 4,
	    "seekers: a count and a mode");
	ok(seeks_parse("1099511627776", &v, &why) == 0 &&
	    seeks_parse("1099511627777", &v, &why) == -1, "seeks up to 2^40");
	ok(label_check("a,b", &why) == -1 && label_check("#a", &why) == -1 &&
	    label_check("host1", &why) == 0, "the label rule");
	settings_defaults(&o);
	options_finish(&o);
	ok(o.seed < (UINT64_C(1) << 53) && o.label != NULL,
	    "the default seed fits in 53 bits");
	free(why);
}

int
main(void)
{
	(void)tap_skip;
	test_parser();
	test_usage();
	test_entries();
	test_phase_options();
	test_checks();
	return done_testing();
}
