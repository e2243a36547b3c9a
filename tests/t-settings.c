/*
 * Unit tests: the settings table (include/settings.h) and what is made
 * from it: its check, the option rows and their help, the defaults, the
 * record's options object read back by the same rows, and pp's flags.
 *
 * With --keys, prints the table for tests/t-settings.sh instead: one line
 * per record key, "KEY<TAB>RULE<TAB>NAME<TAB>WHY", NAME being what compare
 * lists the key as (a part's whole), WHY why a key is not a setting.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "commands.h"
#include "json.h"
#include "jsonparse.h"
#include "options.h"
#include "phase.h"
#include "setdigest.h"
#include "settings.h"
#include "tap.h"

static const char *const rule_names[] = {
	[RULE_MATCH] = "match", [RULE_INFO] = "info", [RULE_PART] = "part",
	[RULE_NONE] = "none"
};

static int
print_keys(void)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];
	const struct setting		*s;
	int				 i, n;

	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		if (s->key == NULL)
			continue;
		printf("%s\t%s\t%s\t%s\n", s->key, rule_names[s->rule],
		    s->rule == RULE_PART ? settings_name(s->part_of) :
		    settings_name(i), s->why != NULL ? s->why : "");
	}
	n = settings_phase_rows(rows, SETTINGS_PHASE_MAX);
	for (i = 0; i < n; i++)
		printf("options.%s\tmatch\t%s\t\n", rows[i]->name,
		    rows[i]->name);
	return 0;
}

static int
count_rows(const struct args_option *r)
{
	int	n = 0;

	for (; r->letter != 0 || r->name != NULL; r++)
		n++;
	return n;
}

/* The row of scope with this long name, or NULL. */
static const struct args_option *
row_named(enum setting_scope scope, const char *name)
{
	const struct args_option	*r;

	for (r = settings_rows(scope); r->letter != 0 || r->name != NULL; r++)
		if (r->name != NULL && strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

static void
test_table(void)
{
	char	*cause = NULL;
	int	 i, bench = 0, run = 0, pp = 0;

	ok(settings_table_check(&cause) == 0, "the settings table checks out");
	free(cause);
	for (i = 0; i < SET_COUNT; i++) {
		bench += settings_table[i].scope == SCOPE_BENCH;
		run += settings_table[i].scope == SCOPE_RUN;
		pp += settings_table[i].pp_letter != 0;
	}
	is_int(count_rows(settings_rows(SCOPE_BENCH)), bench,
	    "the rows a sweep shares: one per SCOPE_BENCH setting");
	is_int(count_rows(settings_rows(SCOPE_RUN)), run,
	    "a single run's rows: one per SCOPE_RUN setting");
	is_int(count_rows(settings_rows(SCOPE_PP)), pp,
	    "pp's setting rows: one per bonnie++ flag mapped");
	ok(settings_rows(SCOPE_RUN) == settings_rows(SCOPE_RUN),
	    "the rows are made once");
	is_str(row_named(SCOPE_BENCH, "seekers")->help,
	    "how many seekers, forked or threads (default: 3)",
	    "a count's default is its row's, in its help");
	is_str(row_named(SCOPE_BENCH, "seeks")->help,
	    "seeks in all (default: 4000 and at least 1 s)",
	    "the default's words around the number");
	is_str(row_named(SCOPE_RUN, "size")->help,
	    "the test file's size, MiB when bare (default: 1024)",
	    "the size's default in MiB");
	ok(row_named(SCOPE_RUN, "seekers") == NULL &&
	    row_named(SCOPE_BENCH, "size") == NULL,
	    "each row in its own scope only");
	is_int(settings_by_key("target.block_size"), SET_BLOCK_SIZE,
	    "a record key finds its setting");
	is_int(settings_table[SET_BLOCK_SIZE].rule, RULE_INFO,
	    "the block size is listed when it differs");
	ok(settings_table[SET_SYNC_WRITES].rule == RULE_MATCH &&
	    settings_table[SET_LOCK_MEM].rule == RULE_MATCH,
	    "--sync-writes and --lock-mem must match");
	is_int(settings_by_key("no.such.key"), -1, "an unknown key: -1");
}

static void
test_defaults(void)
{
	struct options	o;

	memset(&o, 0xa5, sizeof(o));
	settings_defaults(&o);
	is_int(o.seekers, settings_default(SET_SEEKERS), "seekers' default");
	is_int(o.seeks, settings_default(SET_SEEKS), "seeks' default");
	is_int(o.chunk, settings_default(SET_CHUNK), "chunk's default");
	is_int(o.size, settings_default(SET_SIZE) << 20, "size's default, MiB");
	is_int(o.size_asked, o.size, "the size asked is the size");
	is_int(o.jobs, 1, "one job");
	is_int(o.repeat, 1, "one run");
	is_str(o.dir, ".", "the directory's default");
	ok(o.label == NULL && o.lock_arg == NULL && o.json_path == NULL,
	    "no label, lock or JSON file until given");
	ok(o.direct == 0 && o.sync_writes == 0 && o.seed_given == 0,
	    "flags off");
	is_int(o.phases, PH_DEFAULT_MASK, "the default phases");
	is_int(o.phase_arg[PH_SYNC], 1000, "a phase's own default");
	settings_pp_defaults(&o);
	ok(o.chunk == 8192 && o.seeks == 8192 && o.seekers == 5,
	    "pp: bonnie++'s chunk, seeks and seekers");
}

/* Write the options object and read it back by the same rows. */
static void
test_round_trip(void)
{
	struct options	 o;
	struct settings_ctx c;
	struct json	 j;
	struct jv	*root = NULL;
	char		*buf = NULL, *msg = NULL, *value[SET_COUNT] = { 0 };
	char		*phase_value[SETTINGS_PHASE_MAX] = { 0 };
	size_t		 len = 0;
	FILE		*f;
	int		 line, i;

	settings_defaults(&o);
	o.label = "lab";
	o.size = 8u << 20;
	o.chunk = 4096;
	o.seekers = 7;
	o.jobs = 2;
	o.sync_writes = 1;
	o.lock_arg = "avail-1g";
	o.ram = 3u << 30;
	o.seed = 99;
	o.seed_given = 1;
	o.files_n = 2048;
	o.files_max = 4096;
	o.files_dirs = 3;
	o.phases |= phase_flag_mask(PHASE_META);
	o.phase_arg[PH_SYNC] = 77;
	f = open_memstream(&buf, &len);
	json_init(&j, f, 0);
	json_object_start(&j, NULL);
	c.opt = &o;
	c.si = NULL;
	c.lock_held = -1;
	settings_write(&j, "options", &c);
	json_object_end(&j);
	ok(json_finish(&j) == 0 && fclose(f) == 0, "options written");
	ok(jv_parse(buf, len, &root, &line, &msg) == 0, "and parse");
	settings_read(root, value, phase_value);
	is_str(value[SET_LABEL], "lab", "label read back");
	is_str(value[SET_SIZE], "8388608", "size read back");
	is_str(value[SET_SIZE_MIB], "8", "size in MiB read back");
	is_str(value[SET_SIZE_TOTAL], "16777216", "size of all jobs");
	is_str(value[SET_CHUNK], "4096", "chunk read back");
	is_str(value[SET_SEEKERS], "7", "seekers read back");
	is_str(value[SET_SEEKER_MODE], "fork", "seeker mode read back");
	is_str(value[SET_JOBS], "2", "jobs read back");
	is_str(value[SET_SYNC_WRITES], "true", "sync-writes read back");
	is_str(value[SET_DIRECT], "false", "direct read back");
	is_str(value[SET_LOCK_MEM], "avail-1g", "lock-mem read back");
	is_str(value[SET_RAM], "3221225472", "ram read back");
	is_str(value[SET_SEED_GIVEN], "true", "seed policy read back");
	is_str(value[SET_FILES_N], "2048", "--files' count read back");
	is_str(value[SET_FILES_MAX], "4096", "--files' largest read back");
	is_str(value[SET_FILES_DIRS], "3", "--files' directories read back");
	is_str(value[SET_CACHE], "cold", "cache read back");
	is_str(value[SET_VERIFY], "off", "verify read back");
	ok(value[SET_PHASES] != NULL && strstr(value[SET_PHASES], "write,"),
	    "the phases read back as a list");
	is_str(phase_value[0], "77", "a phase's own option read back");
	ok(value[SET_OS] == NULL && value[SET_DIR] == NULL,
	    "keys outside options: none here");
	for (i = 0; i < SET_COUNT; i++)
		free(value[i]);
	for (i = 0; i < SETTINGS_PHASE_MAX; i++)
		free(phase_value[i]);
	jv_free(root);
	free(msg);
	free(buf);
}

/* bonnie-ng pp's flags store into the settings they map onto. */
static void
test_pp(void)
{
	static char	*argv[] = { "pp", "-b", "-D", "-f", "-c", "3", "-m",
			    "box", "-x", "2", "-d", "/tmp", NULL };
	char		*files[16], *cause = NULL;
	void		*state;
	int		 n;
	struct options	*o;

	state = calloc(1, cmd_pp_entry.size);
	is_int(cmd_parse(&cmd_pp_entry, 12, argv, state, files, &n, &cause),
	    ARGS_OK, "pp -b -D -f -c 3 -m box -x 2 -d /tmp parses");
	o = state;		/* The options are pp's state's first member. */
	ok(o->sync_writes && o->direct && o->fast, "-b, -D, -f: the flags");
	ok(o->jobs == 3 && o->repeat == 2 && o->repeat_given,
	    "-c: jobs, -x: repeat");
	ok(o->label != NULL && strcmp(o->label, "box") == 0 &&
	    strcmp(o->dir, "/tmp") == 0, "-m: the label, -d: the directory");
	ok(o->chunk == 8192, "bonnie++'s chunk by default");
	free(cause);
	free(state);
}

static void
own_init(void *state, int argc, char **argv)
{
	(void)state;
	(void)argc;
	(void)argv;
}

/* A command whose row tables do not fit is refused, not cut short. */
static void
test_tables_bound(void)
{
	static struct cmd_rows	 many[CMD_MAX_TABLES + 2];
	static const struct args_option rows[] = {
		OPT_FLAG(0, "x", 0, "x"),
		ARGS_END
	};
	struct cmd_entry	 e;
	const struct cmd_entry	*list[2] = { &e, NULL };
	struct args_table	 t[CMD_MAX_TABLES];
	char			*cause = NULL;
	int			 i;

	memset(&e, 0, sizeof(e));
	e.spec.command = "many";
	e.rows = many;
	for (i = 0; i < CMD_MAX_TABLES - 1; i++)
		many[i].rows = rows;
	is_int(cmd_tables(&e, phase_table, NULL, t), CMD_MAX_TABLES - 1,
	    "as many tables as fit: all of them");
	many[CMD_MAX_TABLES - 1].rows = rows;
	is_int(cmd_tables(&e, phase_table, NULL, t), -1,
	    "one more: refused");
	ok(t[0].rows == NULL, "and no table handed out");
	ok(cmd_tables_check(list, &cause) == -1 && cause != NULL &&
	    strstr(cause, "many") != NULL, "the check at start names it");
	free(cause);
	cause = NULL;
	ok(cmd_tables_check(cmd_table, &cause) == 0,
	    "every command's tables fit, and their defaults are honoured");
	free(cause);
}

/* A command row's default that its setter would ignore is refused. */
static void
test_own_defaults(void)
{
	static const struct args_option ignored[] = {
		{ .name = "ign", .kind = ARGS_FLAG, .set = args_set_flag,
		  .def = 5, .help = "x" },
		ARGS_END
	};
	static const struct args_option counted[] = {
		OPT_COUNT(0, "num", "n", 0, 42, 1, 99, "a count"),
		ARGS_END
	};
	struct cmd_rows		 rows[2];
	struct cmd_entry	 e;
	const struct cmd_entry	*list[2] = { &e, NULL };
	char			*cause = NULL, *argv[] = { "x", NULL }, *files[2];
	uint64_t		 state = 0;
	int			 n;

	memset(rows, 0, sizeof(rows));
	memset(&e, 0, sizeof(e));
	e.spec.command = "own";
	e.rows = rows;
	e.init = own_init;
	rows[0].rows = ignored;
	ok(cmd_tables_check(list, &cause) == -1 && cause != NULL &&
	    strstr(cause, "--ign") != NULL,
	    "a flag's default, which nothing would store, is refused");
	free(cause);
	cause = NULL;
	rows[0].rows = counted;
	ok(cmd_tables_check(list, &cause) == 0, "a count's default is fine");
	ok(cmd_parse(&e, 1, argv, &state, files, &n, &cause) == ARGS_OK &&
	    state == 42, "and stored by the parse");
	free(cause);
}

/*
 * What MPI ranks must agree on is made by walking the table: every key of
 * the record's options that compare lists (match or info), with an
 * option of its own or not, save the directory and the label; and -S
 * fork against -S thread (a fact without an option) hashes apart.
 */
static void
test_rank_digest(void)
{
	struct options	 a, b;
	uint64_t	 da[SETDIGEST_N], db[SETDIGEST_N];
	const struct setting *r;
	int		 i, bad = 0;
	char		 desc[160];

	for (i = 0; i < SET_COUNT; i++) {
		r = &settings_table[i];
		if (r->key == NULL || strncmp(r->key, "options.", 8) != 0 ||
		    (r->rule != RULE_MATCH && r->rule != RULE_INFO) ||
		    i == SET_DIR || i == SET_LABEL)
			continue;
		if (!setdigest_compared(i)) {
			snprintf(desc, sizeof(desc), "ranks compare %s",
			    r->key);
			ok(0, desc);
			bad++;
		}
	}
	ok(bad == 0, "ranks compare every options key compare lists");
	ok(!setdigest_compared(SET_DIR) && !setdigest_compared(SET_LABEL),
	    "ranks may differ in -d and -m");
	settings_defaults(&a);
	options_finish(&a);
	b = a;
	a.seeker_mode = SEEKERS_FORK;
	b.seeker_mode = SEEKERS_THREAD;
	ok(setdigest_make(&a, da) == 0 && setdigest_make(&b, db) == 0 &&
	    da[SET_SEEKER_MODE] != 0 && da[SET_SEEKER_MODE] !=
	    db[SET_SEEKER_MODE], "-S fork and -S thread hash apart");
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--keys") == 0)
		return print_keys();
	test_table();
	test_defaults();
	test_round_trip();
	test_pp();
	test_tables_bound();
	test_own_defaults();
	test_rank_digest();
	return done_testing();
}
