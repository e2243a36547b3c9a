/*
 * The table of settings (include/settings.h): every option of the
 * benchmark and every key the record holds about how and where a run ran,
 * one row each, and what is made from the rows: the option rows, the
 * defaults, the record's "options" object and the record read back.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "error.h"
#include "json.h"
#include "jsonparse.h"
#include "options.h"
#include "phase.h"
#include "settings.h"
#include "timeline.h"

#define OFF(field)	((int)offsetof(struct options, field))
#define O(t)		((struct options *)(t))

/*
 * The setters: each calls its value's one check in options.c.  The
 * target is the struct options (a command's rows say where in its state
 * that is).
 */
static int
set_dir(void *t, const struct args_option *r, const char *v, char **why)
{
	if (args_set_string(t, r, v, why) == -1)
		return -1;
	O(t)->dir_given = 1;
	return 0;
}

static int
set_label(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (label_check(v, why) == -1)
		return -1;
	O(t)->label = v;
	return 0;
}

static int
set_seekers(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return seekers_parse(v, t, why);
}

static int
set_seeks(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (seeks_parse(v, &O(t)->seeks, why) == -1)
		return -1;
	O(t)->seeks_given = 1;
	return 0;
}

static int
set_seed(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (seed_parse(v, &O(t)->seed, why) == -1)
		return -1;
	O(t)->seed_given = 1;
	return 0;
}

static int
set_phases(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	O(t)->phases_given = 1;
	return phases_parse(v, &O(t)->phases, why);
}

static int
set_cache(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return cache_mode_parse(v, &O(t)->cache, why);
}

static int
set_ram(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (ram_parse(v, &O(t)->ram, why) == -1)
		return -1;
	O(t)->ram_given = 1;
	return 0;
}

static int
set_lock_mem(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return lock_mem_parse(v, t, why);
}

static int
set_size(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (file_size_parse(v, &O(t)->size_asked, why) == -1)
		return -1;
	O(t)->size = O(t)->size_asked;
	O(t)->size_given = 1;
	return 0;
}

static int
set_chunk(void *t, const struct args_option *r, const char *v, char **why)
{
	uint64_t	c;

	(void)r;
	if (chunk_parse(v, &c, why) == -1)
		return -1;
	O(t)->chunk = (size_t)c;
	return 0;
}

static int
set_jobs(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return jobs_parse(v, &O(t)->jobs, why);
}

static int
set_iodepth(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return iodepth_parse(v, &O(t)->iodepth, why);
}

static int
set_files(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return files_parse(v, t, why);
}

static int
set_repeat(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (repeat_parse(v, &O(t)->repeat, why) == -1)
		return -1;
	O(t)->repeat_given = 1;
	return 0;
}

static int
set_interval(void *t, const struct args_option *r, const char *v,
    char **why)
{
	double	sec;

	(void)r;
	if (timeline_interval_parse(v, &sec, why) == -1)
		return -1;
	O(t)->interval_ms = (int)(sec * 1000 + 0.5);
	return 0;
}

static int
set_output(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return out_format_parse(v, &O(t)->format, why);
}

static int
set_csv_format(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return csv_layout_parse(v, &O(t)->csv_layout, why);
}

static int
set_verify(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	return verify_mode_parse(v, &O(t)->verify, why);
}

/* The writers of the record's keys whose type does not say how. */
static void
write_seeker_mode(struct json *j, const char *k, const struct options *o)
{
	json_string(j, k, seeker_mode_name(o->seeker_mode));
}

static void
write_phases(struct json *j, const char *k, const struct options *o)
{
	int	i;

	json_array_start(j, k);
	for (i = 0; i < PH_COUNT; i++)
		if (o->phases & (1u << i))
			json_string(j, NULL, phase_id_name(i));
	json_array_end(j);
}

static void
write_cache(struct json *j, const char *k, const struct options *o)
{
	json_string(j, k, cache_mode_name(o->cache));
}

static void
write_ram(struct json *j, const char *k, const struct options *o)
{
	if (o->ram > 0)
		json_uint(j, k, o->ram);
	else
		json_null(j, k);
}

static void
write_size(struct json *j, const char *k, const struct options *o)
{
	json_uint(j, k, o->size);
}

static void
write_size_mib(struct json *j, const char *k, const struct options *o)
{
	json_uint(j, k, o->size >> 20);
}

static int
jobs_of(const struct options *o)
{
	return o->jobs > 1 ? o->jobs : 1;
}

static void
write_size_total(struct json *j, const char *k, const struct options *o)
{
	json_uint(j, k, o->size * (uint64_t)jobs_of(o));
}

static void
write_jobs(struct json *j, const char *k, const struct options *o)
{
	json_int(j, k, jobs_of(o));
}

static void	write_row(struct json *, const struct setting *,
		    const struct options *);

/*
 * --files N[:MAX[:MIN[:DIRS]]], when a file phase was chosen: the rows
 * whose keys are under its own.
 */
static void
write_files(struct json *j, const char *k, const struct options *o)
{
	const char	*in = settings_table[SET_FILES].key;
	size_t		 n = strlen(in);
	int		 i;

	if (!(o->phases & phase_flag_mask(PHASE_META))) {
		json_null(j, k);
		return;
	}
	json_object_start(j, k);
	for (i = 0; i < SET_COUNT; i++)
		if (settings_table[i].key != NULL &&
		    strncmp(settings_table[i].key, in, n) == 0 &&
		    settings_table[i].key[n] == '.')
			write_row(j, &settings_table[i], o);
	json_object_end(j);
}

static void
write_files_dirs(struct json *j, const char *k, const struct options *o)
{
	json_uint(j, k, o->files_dirs > 1 ? o->files_dirs : 0);
}

static void
write_verify(struct json *j, const char *k, const struct options *o)
{
	json_string(j, k, verify_mode_name(o->verify));
}

/* Fast, as in bonnie++ -f: the per-char phases were left out. */
static void
write_fast(struct json *j, const char *k, const struct options *o)
{
	json_bool(j, k, (o->phases & phase_flag_mask(PHASE_PERCHAR)) == 0);
}

/* Shorthands for the rows below. */
#define NO_OPT		{ 0, NULL, ARGS_FLAG, NULL, NULL, 0, 0, 0, 0, NULL }
#define FLAG(l, n, field, help)						\
	{ l, n, ARGS_FLAG, NULL, args_set_flag, OFF(field), 0, 0, 0, help }
#define VALUE(l, n, value, set, def, help)				\
	{ l, n, ARGS_VALUE, value, set, 0, def, 0, 0, help }

/* Why the record's keys that are not settings are not. */
#define WHY_OUTPUT	"how the results are written, not how the run ran"

const struct setting settings_table[SET_COUNT] = {
	[SET_DIR] = { NULL,
	    { 'd', "dir", ARGS_VALUE, "dir", set_dir, OFF(dir), 0, 0, 0,
	      "the directory for the test file" },
	    SCOPE_BENCH, TYPE_STR, 0, ".", NULL, "target.dir", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL,
	    'd', NULL, "the directory for the tests", 0 },
	[SET_LABEL] = { NULL,
	    VALUE('m', "label", "label", set_label, 0, "the row's label"),
	    SCOPE_BENCH, TYPE_STR, OFF(label), NULL, "the short host name",
	    "options.label", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },	/* pp -m: any name (cmd-pp.c). */
	[SET_SEEKERS] = { NULL,
	    VALUE('S', "seekers", "count|fork|thread", set_seekers, 3,
	      "how many seekers, forked or threads"),
	    SCOPE_BENCH, TYPE_INT, OFF(seekers), NULL, "%s",
	    "options.seekers", NULL, RULE_INFO, 0, SHOW_SEEKERS, NULL,
	    0, NULL, NULL, 5 },
	[SET_SEEKER_MODE] = { "seekers mode", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, "options.seeker_mode",
	    write_seeker_mode, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL,
	    0 },
	[SET_SEEKS] = { NULL,
	    VALUE('n', "seeks", "seeks", set_seeks, 4000, "seeks in all"),
	    SCOPE_BENCH, TYPE_U64, OFF(seeks), NULL, "%s and at least 1 s",
	    "options.seeks", NULL, RULE_MATCH, 0, SHOW_SEEKS, NULL,
	    0, NULL, NULL, 8192 },
	[SET_SEEKS_GIVEN] = { "seeks given", NO_OPT,
	    SCOPE_NONE, TYPE_BOOL, OFF(seeks_given), NULL, NULL,
	    "options.seeks_given", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_SEED] = { "seed value",
	    VALUE('z', "seed", "seed", set_seed, 0,
	      "the seed of the data and offsets"),
	    SCOPE_BENCH, TYPE_U64, OFF(seed), NULL, "fresh", "options.seed",
	    NULL, RULE_NONE, 0, SHOW_TEXT,
	    "fresh for every run unless -z gives it: the seed's policy "
	    "(options.seed_given) is compared",
	    0, NULL, NULL, 0 },	/* pp -z: as sscanf("%u") (cmd-pp.c). */
	[SET_SEED_GIVEN] = { "seed", NO_OPT,
	    SCOPE_NONE, TYPE_BOOL, OFF(seed_given), NULL, NULL,
	    "options.seed_given", NULL, RULE_INFO, 0, SHOW_SEED, NULL,
	    0, NULL, NULL, 0 },
	[SET_PHASES] = { NULL,
	    VALUE('p', "phases", "phases", set_phases, 0,
	      "the phases to run, comma-separated"),
	    SCOPE_BENCH, TYPE_NONE, 0, NULL, NULL, "options.phases",
	    write_phases, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_QUIET] = { NULL,
	    FLAG('q', "quiet", quiet,
	      "no progress and no notes on standard error"),
	    SCOPE_BENCH, TYPE_BOOL, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT, WHY_OUTPUT, 0, NULL, NULL, 0 },
	[SET_CACHE] = { NULL,
	    VALUE(0, "cache", "cold|keep|global", set_cache, 0,
	      "drop the file's cached pages, keep them, or drop all"),
	    SCOPE_BENCH, TYPE_NONE, 0, NULL, NULL, "options.cache",
	    write_cache, RULE_MATCH, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_RAM] = { NULL,
	    VALUE(0, "ram", "size", set_ram, 0, "the RAM size to assume"),
	    SCOPE_BENCH, TYPE_NONE, 0, NULL, NULL, "options.ram_bytes",
	    write_ram, RULE_INFO, 0, SHOW_RAM, NULL, 0, NULL, NULL, 0 },
	[SET_LOCK_MEM] = { NULL,
	    VALUE(0, "lock-mem", "size|avail-size", set_lock_mem, 0,
	      "hold memory locked away from the page cache"),
	    SCOPE_BENCH, TYPE_STR, OFF(lock_arg), NULL, NULL,
	    "options.lock_mem", NULL, RULE_MATCH, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },

	[SET_SIZE] = { "file size",
	    VALUE('s', "size", "size", set_size, 1024,
	      "the test file's size, MiB when bare"),
	    SCOPE_RUN, TYPE_NONE, 0, NULL, "%s", "options.size_bytes",
	    write_size, RULE_MATCH, 0, SHOW_SIZE, NULL, 0, NULL, NULL, 0 },
	[SET_SIZE_MIB] = { "size MiB", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, "options.size_mib",
	    write_size_mib, RULE_NONE, 0, SHOW_TEXT,
	    "the file size in MiB: the size is compared",
	    0, NULL, NULL, 0 },
	[SET_SIZE_TOTAL] = { "total size", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, "options.size_total_bytes",
	    write_size_total, RULE_NONE, 0, SHOW_TEXT,
	    "the file size times the jobs, both compared", 0, NULL, NULL, 0 },
	[SET_CHUNK] = { NULL,
	    VALUE('c', "chunk", "chunk", set_chunk, 16384,
	      "the block size, bytes when bare"),
	    SCOPE_RUN, TYPE_SIZE, OFF(chunk), NULL, "%s", "options.chunk",
	    NULL, RULE_MATCH, 0, SHOW_CHUNK, NULL, 0, NULL, NULL, 8192 },
	[SET_DEVICE] = { "device path",
	    { 0, "device", ARGS_VALUE, "path", args_set_string, OFF(device),
	      0, 0, 0, "run on a block device, overwriting it (not -d)" },
	    SCOPE_RUN, TYPE_STR, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT,
	    "recorded as the target (target.kind and target.path)",
	    0, NULL, NULL, 0 },
	[SET_JOBS] = { NULL,
	    VALUE('j', "jobs", "jobs", set_jobs, 1,
	      "workers in lock-step, each on its own file"),
	    SCOPE_RUN, TYPE_INT, OFF(jobs), NULL, NULL, "options.jobs",
	    write_jobs, RULE_MATCH, 0, SHOW_JOBS, NULL,
	    0, NULL, NULL, 0 },	/* pp -c: atoi'ed (cmd-pp.c). */
	[SET_FILES] = { NULL,
	    VALUE(0, "files", "N[:max[:min[:dirs]]]", set_files, 0,
	      "create, stat, delete N x 1024 files (bonnie++ -n)"),
	    SCOPE_RUN, TYPE_NONE, 0, NULL, NULL, "options.files",
	    write_files, RULE_MATCH, 0, SHOW_FILES, NULL, 0, NULL, NULL, 0 },
	[SET_FILES_N] = { "files count", NO_OPT,
	    SCOPE_NONE, TYPE_U64, OFF(files_n), NULL, NULL,
	    "options.files.files", NULL, RULE_PART, SET_FILES, SHOW_TEXT,
	    "a part of --files", 0, NULL, NULL, 0 },
	[SET_FILES_MAX] = { "files max", NO_OPT,
	    SCOPE_NONE, TYPE_U64, OFF(files_max), NULL, NULL,
	    "options.files.max_bytes", NULL, RULE_PART, SET_FILES, SHOW_TEXT,
	    "a part of --files", 0, NULL, NULL, 0 },
	[SET_FILES_MIN] = { "files min", NO_OPT,
	    SCOPE_NONE, TYPE_U64, OFF(files_min), NULL, NULL,
	    "options.files.min_bytes", NULL, RULE_PART, SET_FILES, SHOW_TEXT,
	    "a part of --files", 0, NULL, NULL, 0 },
	[SET_FILES_DIRS] = { "files dirs", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, "options.files.dirs",
	    write_files_dirs, RULE_PART, SET_FILES, SHOW_TEXT,
	    "a part of --files", 0, NULL, NULL, 0 },
	[SET_FILES_GIVEN] = { "files given", NO_OPT,
	    SCOPE_NONE, TYPE_BOOL, OFF(files_given), NULL, NULL,
	    "options.files.given", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "whether --files or -p's default chose the files, which are "
	    "compared", 0, NULL, NULL, 0 },
	[SET_REPEAT] = { NULL,
	    VALUE('x', "repeat", "count", set_repeat, 1,
	      "run the whole benchmark count times"),
	    SCOPE_RUN, TYPE_INT, OFF(repeat), NULL, NULL, "options.repeat",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },	/* pp -x: atoi'ed, 0 runs (cmd-pp.c). */
	[SET_OUTPUT] = { NULL,
	    VALUE('o', "output", "text|csv|json", set_output, 0,
	      "the format of standard output"),
	    SCOPE_RUN, TYPE_NONE, 0, NULL, "text", NULL, NULL, RULE_NONE, 0,
	    SHOW_TEXT, WHY_OUTPUT, 0, NULL, NULL, 0 },
	[SET_CSV_FORMAT] = { NULL,
	    VALUE(0, "csv-format", "1.98|1.97", set_csv_format, 0,
	      "the CSV layout: 1.98 (50 fields) or 1.97 (48 fields)"),
	    SCOPE_RUN, TYPE_NONE, 0, NULL, NULL, NULL, NULL, RULE_NONE, 0,
	    SHOW_TEXT, WHY_OUTPUT, -1, NULL, NULL, 0 },
	[SET_JSON] = { NULL,
	    { 0, "json", ARGS_VALUE, "file", args_set_string, OFF(json_path),
	      0, 0, 0, "also write the JSON record to file" },
	    SCOPE_RUN, TYPE_STR, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT, WHY_OUTPUT, -1, NULL, NULL, 0 },
	[SET_DIRECT] = { NULL,
	    FLAG(0, "direct", direct,
	      "O_DIRECT for the block and seek phases"),
	    SCOPE_RUN, TYPE_BOOL, 0, NULL, NULL, "options.direct",
	    NULL, RULE_MATCH, 0, SHOW_DIRECT, NULL,
	    'D', NULL, "O_DIRECT for the block and seek tests (--direct)", 0 },
	/* Requests in flight change what a rate measures. */
	[SET_IODEPTH] = { NULL,
	    VALUE(0, "iodepth", "depth", set_iodepth, 1,
	      "requests in flight under --direct or --device"),
	    SCOPE_RUN, TYPE_U64, OFF(iodepth), NULL, NULL, "options.iodepth",
	    NULL, RULE_MATCH, 0, SHOW_IODEPTH, NULL, 0, NULL, NULL, 0 },
	[SET_SYNC_WRITES] = { NULL,
	    FLAG(0, "sync-writes", sync_writes,
	      "fsync after each write: block phases, files (-b)"),
	    SCOPE_RUN, TYPE_BOOL, 0, NULL, NULL,
	    "options.sync_writes", NULL, RULE_MATCH, 0, SHOW_TEXT, NULL,
	    'b', NULL, "fsync after every write (--sync-writes)", 0 },
	[SET_NO_SPACE_CHECK] = { NULL,
	    FLAG(0, "no-space-check", no_space_check,
	      "do not check for room before making the file"),
	    SCOPE_RUN, TYPE_BOOL, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT,
	    "a check before the run, not a part of it", 0, NULL, NULL, 0 },
	[SET_VERIFY] = { NULL,
	    { 0, "verify", ARGS_OPTIONAL, "fatal", set_verify, 0, 0, 0, 0,
	      "check every byte read (=fatal: stop at bad data)" },
	    SCOPE_RUN, TYPE_NONE, 0, NULL, NULL, "options.verify",
	    write_verify, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	/* Checking costs reading time: verified rates are not comparable. */
	[SET_VERIFIED] = { "verified reads", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, NULL, NULL, RULE_MATCH, 0,
	    SHOW_VERIFIED, NULL, 0, NULL, NULL, 0 },
	[SET_INTERVAL] = { NULL,
	    VALUE(0, "interval", "duration", set_interval, 100,
	      "the timeline's interval (0: none)"),
	    SCOPE_RUN, TYPE_INT, OFF(interval_ms), NULL, "%s ms", NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT,
	    "how often the timeline samples: what is kept beside the figures, "
	    "not how the run ran", 0, NULL, NULL, 0 },
	[SET_FAST] = { NULL,
	    FLAG('f', "fast", fast, "skip the per-char phases"),
	    SCOPE_RUN, TYPE_BOOL, 0, NULL, NULL, "options.fast",
	    write_fast, RULE_NONE, 0, SHOW_TEXT,
	    "whether the per-char phases were left out: the phases are "
	    "compared",
	    0, NULL, NULL, 0 },	/* pp -f[size] (cmd-pp.c). */
	[SET_LATENCY] = { NULL,
	    FLAG('L', "latency", latency,
	      "add a row of 99th percentile latencies"),
	    SCOPE_RUN, TYPE_BOOL, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT, WHY_OUTPUT, 0, NULL, NULL, 0 },
	[SET_KERNEL_FLAG] = { "kernel account table",
	    FLAG('K', "kernel", kernel,
	      "print the kernel's account of each phase (text)"),
	    SCOPE_RUN, TYPE_BOOL, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT, WHY_OUTPUT, 0, NULL, NULL, 0 },
	[SET_VERSION_FLAG] = { NULL,
	    { 'V', "version", ARGS_VERSION, NULL, NULL, 0, 0, 0, 0,
	      "print the version and exit" },
	    SCOPE_RUN, TYPE_NONE, 0, NULL, NULL, NULL, NULL, RULE_NONE, 0,
	    SHOW_TEXT, "not a run", 0, NULL, NULL, 0 },

	[SET_SCHEMA] = { "schema", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "schema", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "the record's format, checked when it is read", 0, NULL, NULL, 0 },
	[SET_TOOL] = { "tool name", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "tool", NULL, RULE_PART, SET_TOOL_VERSION, SHOW_TEXT,
	    "a part of the tool", 0, NULL, NULL, 0 },
	[SET_TOOL_VERSION] = { "tool", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "version", NULL, RULE_INFO, 0, SHOW_TOOL, NULL,
	    0, NULL, NULL, 0 },
	[SET_COMMAND] = { "command", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "command", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "the command line: each of its options is compared as a setting",
	    0, NULL, NULL, 0 },
	[SET_START] = { "start", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "start", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "when the run started, not how", 0, NULL, NULL, 0 },

	[SET_OS] = { "os", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "system.os", NULL, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL,
	    0 },
	[SET_KERNEL] = { "kernel", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "system.kernel_release", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_KERNEL_VERSION] = { "kernel version", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "system.kernel_version", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_MACHINE] = { "machine", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "system.machine", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_HOSTNAME] = { "hostname", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "system.hostname", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_CPU] = { "cpu", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "system.cpu_model", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_CPUS] = { "cpus", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "system.cpus", NULL, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL,
	    0 },
	[SET_SYSTEM_RAM] = { "system ram", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "system.ram_bytes", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_HYPERVISOR] = { "hypervisor", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "system.hypervisor", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_HYPERVISOR_VENDOR] = { "hypervisor vendor", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "system.hypervisor_vendor", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },

	[SET_TARGET] = { "target", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "target.kind", NULL, RULE_INFO, 0, SHOW_TARGET, NULL,
	    0, NULL, NULL, 0 },
	[SET_TARGET_PATH] = { "target path", NO_OPT, SCOPE_NONE, TYPE_NONE,
	    0, NULL, NULL, "target.path", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "a file system's test file, named afresh for each run; a "
	    "device's path is shown in target", 0, NULL, NULL, 0 },
	[SET_FS_TYPE] = { "file system", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.fs_type", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_MOUNT_POINT] = { "mount point", NO_OPT, SCOPE_NONE, TYPE_NONE,
	    0, NULL, NULL, "target.mount_point", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_MOUNT_SOURCE] = { "mount source", NO_OPT, SCOPE_NONE, TYPE_NONE,
	    0, NULL, NULL, "target.mount_source", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_MOUNT_OPTIONS] = { "mount options", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "target.mount_options", NULL,
	    RULE_INFO, 0, SHOW_MOUNT, NULL, 0, NULL, NULL, 0 },
	[SET_SUPER_OPTIONS] = { "super options", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "target.super_options", NULL,
	    RULE_PART, SET_MOUNT_OPTIONS, SHOW_TEXT,
	    "shown with the mount options, as one set", 0, NULL, NULL, 0 },
	[SET_BLOCK_SIZE] = { "block size", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.block_size", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_FREE_BYTES] = { "free space", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.free_bytes", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "the space free before the run: a state that every run changes",
	    0, NULL, NULL, 0 },
	[SET_DEV_NAME] = { "device", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "target.device.name", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_SCHEDULER] = { "scheduler", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.device.scheduler", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_ROTATIONAL] = { "rotational", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.device.rotational", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_READ_AHEAD] = { "read-ahead", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.device.read_ahead_kb", NULL, RULE_INFO, 0,
	    SHOW_READ_AHEAD, NULL, 0, NULL, NULL, 0 },
	[SET_LOGICAL_BLOCK] = { "logical block", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "target.device.logical_block_size",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_PHYSICAL_BLOCK] = { "physical block", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "target.device.physical_block_size",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_DEV_MODEL] = { "device model", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.device.model", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_DEV_SIZE] = { "device size", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.device.size_bytes", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_LOOP_FILE] = { "loop backing file", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "target.device.loop_backing_file",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_LOOP_DIO] = { "loop direct I/O", NO_OPT, SCOPE_NONE, TYPE_NONE,
	    0, NULL, NULL, "target.device.loop_dio", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_VM_DIRTY] = { "vm.dirty_*", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "target.vm.dirty_ratio", NULL, RULE_INFO, 0,
	    SHOW_VM_DIRTY, NULL, 0, NULL, NULL, 0 },
	[SET_VM_DIRTY_BG_RATIO] = { "dirty_background_ratio", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "target.vm.dirty_background_ratio", NULL, RULE_PART, SET_VM_DIRTY,
	    SHOW_TEXT, "a part of vm.dirty_*", 0, NULL, NULL, 0 },
	[SET_VM_DIRTY_BYTES] = { "dirty_bytes", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "target.vm.dirty_bytes", NULL,
	    RULE_PART, SET_VM_DIRTY, SHOW_TEXT, "a part of vm.dirty_*",
	    0, NULL, NULL, 0 },
	[SET_VM_DIRTY_BG_BYTES] = { "dirty_background_bytes", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "target.vm.dirty_background_bytes", NULL, RULE_PART, SET_VM_DIRTY,
	    SHOW_TEXT, "a part of vm.dirty_*", 0, NULL, NULL, 0 },
	[SET_VM_DIRTY_EXPIRE] = { "dirty_expire_centisecs", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "target.vm.dirty_expire_centisecs", NULL, RULE_PART, SET_VM_DIRTY,
	    SHOW_TEXT, "a part of vm.dirty_*", 0, NULL, NULL, 0 },
	[SET_VM_DIRTY_WRITEBACK] = { "dirty_writeback_centisecs", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL,
	    "target.vm.dirty_writeback_centisecs", NULL, RULE_PART,
	    SET_VM_DIRTY, SHOW_TEXT, "a part of vm.dirty_*", 0, NULL, NULL,
	    0 },

	[SET_MEM_AVAILABLE] = { "memory available", NO_OPT, SCOPE_NONE,
	    TYPE_NONE, 0, NULL, NULL, "memory.available_bytes", NULL,
	    RULE_NONE, 0, SHOW_TEXT,
	    "the memory free before the run: a state of the moment, which "
	    "the RAM assumed (options.ram_bytes) is made from", 0, NULL, NULL,
	    0 },
	[SET_CGROUP_LIMIT] = { "cgroup limit", NO_OPT, SCOPE_NONE, TYPE_NONE,
	    0, NULL, NULL, "memory.cgroup_limit_bytes", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_LOCKED] = { "locked", NO_OPT, SCOPE_NONE, TYPE_NONE, 0, NULL,
	    NULL, "memory.locked_bytes", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_LOCK_HELD] = { "lock held", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "memory.lock_held", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
	[SET_RAM_SOURCE] = { "ram source", NO_OPT, SCOPE_NONE, TYPE_NONE, 0,
	    NULL, NULL, "memory.ram_source", NULL, RULE_INFO, 0, SHOW_TEXT,
	    NULL, 0, NULL, NULL, 0 },
};

static int
has_option(const struct setting *s)
{
	return s->opt.letter != 0 || s->opt.name != NULL;
}

const char *
settings_name(enum setting_id id)
{
	const struct setting	*s = &settings_table[id];

	return s->name != NULL ? s->name : s->opt.name;
}

int
settings_table_check(char **cause)
{
	const struct setting	*s, *t;
	int			 i, k;

	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		if (settings_name(i) == NULL)
			return errorf(cause, "setting %d: no row, or no name",
			    i);
		if ((s->rule == RULE_NONE || s->rule == RULE_PART) &&
		    s->why == NULL)
			return errorf(cause, "setting %s: no reason why it is "
			    "not a setting", settings_name(i));
		if (s->rule == RULE_PART && (s->part_of == (enum setting_id)i ||
		    settings_table[s->part_of].rule == RULE_PART ||
		    settings_table[s->part_of].rule == RULE_NONE))
			return errorf(cause, "setting %s: a part of no "
			    "setting", settings_name(i));
		if (has_option(s) != (s->scope != SCOPE_NONE))
			return errorf(cause, "setting %s: an option without a "
			    "scope, or a scope without an option",
			    settings_name(i));
		if (s->pp_letter > 0 && s->pp_help == NULL)
			return errorf(cause, "setting %s: bonnie++'s -%c has "
			    "no help", settings_name(i), s->pp_letter);
		for (k = 0; k < i; k++) {
			t = &settings_table[k];
			if (strcmp(settings_name(i), settings_name(k)) == 0 ||
			    (s->key != NULL &&
			    t->key != NULL && strcmp(s->key, t->key) == 0))
				return errorf(cause, "setting %s: its name or "
				    "key is another's", settings_name(i));
		}
	}
	return 0;
}

/* Enough for the most rows of one scope. */
#define ROWS_MAX	(SET_COUNT + 1)

static struct args_option	rows_made[SCOPE_PP + 1][ROWS_MAX];
static char			help_made[SCOPE_PP + 1][ROWS_MAX][96];
static int			rows_done[SCOPE_PP + 1];

/* The row's help with its default, in buf. */
static const char *
help_with_default(const struct setting *s, const char *help, char *buf,
    size_t len)
{
	char	num[32], words[64];

	/* A text's default is its own words. */
	if (s->defwords == NULL && s->type == TYPE_STR && s->sdef != NULL) {
		snprintf(buf, len, "%s (default: %s)", help, s->sdef);
		return buf;
	}
	if (s->defwords == NULL)
		return help;
	snprintf(num, sizeof(num), "%llu", (unsigned long long)s->opt.def);
	if (strstr(s->defwords, "%s") != NULL) {
		const char	*p = strstr(s->defwords, "%s");

		snprintf(words, sizeof(words), "%.*s%s%s",
		    (int)(p - s->defwords), s->defwords, num, p + 2);
	} else
		snprintf(words, sizeof(words), "%s", s->defwords);
	snprintf(buf, len, "%s (default: %s)", help, words);
	return buf;
}

const struct args_option *
settings_rows(enum setting_scope scope)
{
	const struct setting	*s;
	struct args_option	*r;
	int			 i, n = 0;

	if (rows_done[scope])
		return rows_made[scope];
	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		r = &rows_made[scope][n];
		if (scope == SCOPE_PP) {
			if (s->pp_letter == 0)
				continue;
			*r = s->opt;
			r->letter = s->pp_letter > 0 ? s->pp_letter : 0;
			if (s->pp_letter > 0)
				r->name = NULL;
			if (s->pp_value != NULL)
				r->value = s->pp_value;
			r->help = help_with_default(s, s->pp_help != NULL ?
			    s->pp_help : s->opt.help,
			    help_made[scope][n], sizeof(help_made[0][0]));
			n++;
			continue;
		}
		if (s->scope != scope)
			continue;
		*r = s->opt;
		r->help = help_with_default(s, s->opt.help,
		    help_made[scope][n], sizeof(help_made[0][0]));
		n++;
	}
	memset(&rows_made[scope][n], 0, sizeof(rows_made[0][0]));
	rows_done[scope] = 1;
	return rows_made[scope];
}

uint64_t
settings_default(enum setting_id id)
{
	return settings_table[id].opt.def;
}

/* Where struct options keeps a setting: its slot, else its option's. */
static int
slot_of(const struct setting *s)
{
	return s->slot != 0 ? s->slot : s->opt.slot;
}

static void
set_default(struct options *o, const struct setting *s)
{
	char	*p = (char *)o + slot_of(s);

	switch (s->type) {
	case TYPE_NONE:
		break;
	case TYPE_STR:
		*(const char **)(void *)p = s->sdef;
		break;
	case TYPE_U64:
		*(uint64_t *)(void *)p = s->opt.def;
		break;
	case TYPE_SIZE:
		*(size_t *)(void *)p = (size_t)s->opt.def;
		break;
	case TYPE_INT:
	case TYPE_BOOL:
		*(int *)(void *)p = (int)s->opt.def;
		break;
	}
}

void
settings_defaults(struct options *o)
{
	int	i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < SET_COUNT; i++)
		set_default(o, &settings_table[i]);
	/* The size is given in MiB; the cache, output and so on are 0. */
	o->size = o->size_asked = settings_default(SET_SIZE) << 20;
	o->phases = PH_DEFAULT_MASK;
	phase_option_defaults(phase_table, o);
}

void
settings_pp_defaults(struct options *o)
{
	const struct setting	*s;
	struct setting		 pp;
	int			 i;

	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		if (s->pp_def == 0)
			continue;
		pp = *s;
		pp.opt.def = s->pp_def;
		set_default(o, &pp);
	}
}

/* The last part of a key: "seeks" of "options.seeks". */
static const char *
leaf(const char *key)
{
	const char	*dot = strrchr(key, '.');

	return dot != NULL ? dot + 1 : key;
}

static void
write_row(struct json *j, const struct setting *s, const struct options *o)
{
	const char	*p = (const char *)o + slot_of(s), *k = leaf(s->key);

	if (s->write != NULL) {
		s->write(j, k, o);
		return;
	}
	switch (s->type) {
	case TYPE_NONE:
		json_null(j, k);
		break;
	case TYPE_STR:
		json_string(j, k, *(const char *const *)(const void *)p);
		break;
	case TYPE_U64:
		json_uint(j, k, *(const uint64_t *)(const void *)p);
		break;
	case TYPE_SIZE:
		json_uint(j, k, *(const size_t *)(const void *)p);
		break;
	case TYPE_INT:
		json_int(j, k, *(const int *)(const void *)p);
		break;
	case TYPE_BOOL:
		json_bool(j, k, *(const int *)(const void *)p);
		break;
	}
}

void
settings_write_options(struct json *j, const struct options *o)
{
	const struct setting		*s;
	const struct args_option	*r;
	int				 i;

	json_object_start(j, "options");
	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		/* A part of an object (--files) is written by its whole. */
		if (s->key == NULL || strncmp(s->key, "options.", 8) != 0 ||
		    strchr(s->key + 8, '.') != NULL)
			continue;
		write_row(j, s, o);
	}
	/* Each phase's own options (its rows), by their long names. */
	for (i = 0; i < PH_COUNT; i++)
		for (r = phase_table[i]->options; r != NULL &&
		    (r->letter != 0 || r->name != NULL); r++)
			json_uint(j, r->name, o->phase_arg[i]);
	json_object_end(j);
}

int
settings_phase_rows(const struct args_option **rows, int max)
{
	const struct args_option	*r;
	int				 i, n = 0;

	for (i = 0; i < PH_COUNT; i++)
		for (r = phase_table[i]->options; r != NULL &&
		    (r->letter != 0 || r->name != NULL); r++)
			if (n < max)
				rows[n++] = r;
	return n;
}

/* The value at a dotted key ("target.device.name"), or NULL. */
static const struct jv *
at_key(const struct jv *v, const char *key)
{
	char		 part[64];
	const char	*dot;
	size_t		 n;

	while (v != NULL && (dot = strchr(key, '.')) != NULL) {
		n = (size_t)(dot - key);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, key, n);
		part[n] = '\0';
		v = jv_get(v, part);
		key = dot + 1;
	}
	return jv_get(v, key);
}

/* A scalar, or an array of them, as text; NULL for null or an object. */
static char *
as_text(const struct jv *v)
{
	char	*s, *t;
	size_t	 i;

	if (v == NULL)
		return NULL;
	switch (v->type) {
	case JV_NULL:
	case JV_OBJECT:
		return NULL;
	case JV_BOOL:
		return xstrdup(v->b ? "true" : "false");
	case JV_NUMBER:
		if (v->n == (double)(int64_t)v->n)
			return xasprintf("%lld", (long long)v->n);
		return xasprintf("%.17g", v->n);
	case JV_STRING:
		return *v->s != '\0' ? xstrdup(v->s) : NULL;
	case JV_ARRAY:
		s = xstrdup("");
		for (i = 0; i < v->len; i++) {
			char	*one = as_text(&v->items[i]);

			t = xasprintf("%s%s%s", s, i > 0 ? "," : "",
			    one != NULL ? one : "null");
			free(one);
			free(s);
			s = t;
		}
		return s;
	}
	return NULL;
}

void
settings_read(const struct jv *root, char **value, char **phase_value)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];
	const struct jv			*v;
	char				 key[96];
	int				 i, n;


	for (i = 0; i < SET_COUNT; i++) {
		if (settings_table[i].key == NULL)
			continue;
		v = at_key(root, settings_table[i].key);
		/* An option's text recorded as null was not given. */
		if (v != NULL && v->type == JV_NULL &&
		    settings_table[i].type == TYPE_STR)
			value[i] = xstrdup("none");
		else
			value[i] = as_text(v);
	}
	n = settings_phase_rows(rows, SETTINGS_PHASE_MAX);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "options.%s", rows[i]->name);
		phase_value[i] = as_text(at_key(root, key));
	}
}

uint64_t
settings_u64(char *const *value, enum setting_id id)
{
	const char		*s = value[id];
	char			*end;
	unsigned long long	 n;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	n = strtoull(s, &end, 10);
	return *end == '\0' ? (uint64_t)n : 0;
}

char *
settings_dup(char *const *value, enum setting_id id)
{
	return value[id] != NULL ? xstrdup(value[id]) : NULL;
}

int
settings_by_key(const char *key)
{
	int	i;

	for (i = 0; i < SET_COUNT; i++)
		if (settings_table[i].key != NULL &&
		    strcmp(settings_table[i].key, key) == 0)
			return i;
	return -1;
}
