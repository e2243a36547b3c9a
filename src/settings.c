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
#include "settings-set.h"
#include "settings.h"
#include "sysinfo.h"

#define OFF(field)	((int)offsetof(struct options, field))
#define SI(field)	((int)offsetof(struct sysinfo, field))
#define DEV(field)	((int)offsetof(struct sysinfo_device, field))
#define VM(field)	((int)offsetof(struct sysinfo_vm, field))

/* The writers of the record's keys whose type does not say how. */
static void
write_seeker_mode(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_string(j, k, seeker_mode_name(c->opt->seeker_mode));
}

static void
write_phases(struct json *j, const char *k, const struct settings_ctx *c)
{
	int	i;

	json_array_start(j, k);
	for (i = 0; i < PH_COUNT; i++)
		if (c->opt->phases & (1u << i))
			json_string(j, NULL, phase_id_name(i));
	json_array_end(j);
}

static void
write_cache(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_string(j, k, cache_mode_name(c->opt->cache));
}

static void
write_ram(struct json *j, const char *k, const struct settings_ctx *c)
{
	if (c->opt->ram > 0)
		json_uint(j, k, c->opt->ram);
	else
		json_null(j, k);
}

static void
write_size(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_uint(j, k, c->opt->size);
}

static void
write_size_mib(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_uint(j, k, c->opt->size >> 20);
}

static int
jobs_of(const struct options *o)
{
	return o->jobs > 1 ? o->jobs : 1;
}

static void
write_size_total(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_uint(j, k, c->opt->size * (uint64_t)jobs_of(c->opt));
}

static void
write_jobs(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_int(j, k, jobs_of(c->opt));
}

static void	write_under(struct json *, enum setting_id,
		    const struct settings_ctx *);

/* --files N[:MAX[:MIN[:DIRS]]], when a file phase was chosen. */
static void
write_files(struct json *j, const char *k, const struct settings_ctx *c)
{
	if (!(c->opt->phases & phase_flag_mask(PHASE_META))) {
		json_null(j, k);
		return;
	}
	write_under(j, SET_FILES, c);
}

static void
write_files_dirs(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_uint(j, k, c->opt->files_dirs > 1 ? c->opt->files_dirs : 0);
}

static void
write_verify(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_string(j, k, verify_mode_name(c->opt->verify));
}

/* Fast, as in bonnie++ -f: the per-char phases were left out. */
static void
write_fast(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_bool(j, k, (c->opt->phases & phase_flag_mask(PHASE_PERCHAR)) ==
	    0);
}

/* The directory as resolved, or as given. */
static void
write_dir(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_string(j, k, c->si != NULL && c->si->dir != NULL ? c->si->dir :
	    c->opt->dir);
}

/* A block device named with --device, or a file system. */
static void
write_kind(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_string(j, k, c->si != NULL && c->si->target_device ? "device" :
	    "file");
}

static void
write_device(struct json *j, const char *k, const struct settings_ctx *c)
{
	if (c->si == NULL || !c->si->has_device)
		json_null(j, k);
	else
		write_under(j, SET_DEVICE_OBJ, c);
}

/* On a loop device only: its backing file and direct I/O. */
static void
write_loop_file(struct json *j, const char *k, const struct settings_ctx *c)
{
	if (c->si->device.loop_backing != NULL)
		json_string(j, k, c->si->device.loop_backing);
}

static void
write_loop_dio(struct json *j, const char *k, const struct settings_ctx *c)
{
	if (c->si->device.loop_backing != NULL)
		json_bool_or_null(j, k, c->si->device.loop_dio);
}

static void
write_vm(struct json *j, const char *k, const struct settings_ctx *c)
{
	if (c->si == NULL || !c->si->has_vm)
		json_null(j, k);
	else
		write_under(j, SET_VM_OBJ, c);
}

static void
write_locked(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_uint(j, k, c->opt->lock_bytes);
}

static void
write_lock_held(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_bool_or_null(j, k, c->opt->lock_bytes > 0 ? c->lock_held : -1);
}

static void
write_ram_source(struct json *j, const char *k, const struct settings_ctx *c)
{
	json_string(j, k, ram_source_name(c->opt->ram_source));
}

/* Shorthands for the rows below. */
#define NO_OPT		{ 0, NULL, ARGS_FLAG, NULL, NULL, 0, 0, 0, 0, NULL }
#define FLAG(l, n, field, help)						\
	{ l, n, ARGS_FLAG, NULL, args_set_flag, OFF(field), 0, 0, 0, help }
#define VALUE(l, n, value, set, def, help)				\
	{ l, n, ARGS_VALUE, value, set, 0, def, 0, 0, help }

/*
 * A row of the record's facts, not an option: its name in compare, where
 * the system's description keeps it, its key and writer, its rule.
 */
#define FACT(id, name, type, slot, key, write, rule, part, show, why)	\
	[id] = { name, NO_OPT, SCOPE_NONE, type, slot, NULL, NULL, key,	\
	    write, rule, part, show, why, 0, NULL, NULL, 0 }

/* Why the record's keys that are not settings are not. */
#define WHY_OUTPUT	"how the results are written, not how the run ran"

const struct setting settings_table[SET_COUNT] = {
	[SET_DIR] = { NULL,
	    { 'd', "dir", ARGS_VALUE, "dir", settings_set_dir, OFF(dir), 0, 0,
	      0, "the directory for the test file" },
	    SCOPE_BENCH, TYPE_STR, 0, ".", NULL, "target.dir", write_dir,
	    RULE_INFO, 0, SHOW_TEXT, NULL,
	    'd', NULL, "the directory for the tests", 0 },
	[SET_LABEL] = { NULL,
	    VALUE('m', "label", "label", settings_set_label, 0,
	      "the row's label"),
	    SCOPE_BENCH, TYPE_STR, OFF(label), NULL, "the short host name",
	    "options.label", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },	/* pp -m: any name (cmd-pp.c). */
	[SET_SEEKERS] = { NULL,
	    VALUE('S', "seekers", "count|fork|thread", settings_set_seekers, 3,
	      "how many seekers, forked or threads"),
	    SCOPE_BENCH, TYPE_INT, OFF(seekers), NULL, "%s",
	    "options.seekers", NULL, RULE_INFO, 0, SHOW_SEEKERS, NULL,
	    0, NULL, NULL, 5 },
	[SET_SEEKER_MODE] = { "seekers mode", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, "options.seeker_mode",
	    write_seeker_mode, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL,
	    0 },
	[SET_SEEKS] = { NULL,
	    VALUE('n', "seeks", "seeks", settings_set_seeks, 4000,
	      "seeks in all"),
	    SCOPE_BENCH, TYPE_U64, OFF(seeks), NULL, "%s and at least 1 s",
	    "options.seeks", NULL, RULE_MATCH, 0, SHOW_SEEKS, NULL,
	    0, NULL, NULL, 8192 },
	[SET_SEEKS_GIVEN] = { "seeks given", NO_OPT,
	    SCOPE_NONE, TYPE_BOOL, OFF(seeks_given), NULL, NULL,
	    "options.seeks_given", NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },
	[SET_SEED] = { "seed value",
	    VALUE('z', "seed", "seed", settings_set_seed, 0,
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
	    VALUE('p', "phases", "phases", settings_set_phases, 0,
	      "the phases to run, comma-separated"),
	    SCOPE_BENCH, TYPE_NONE, 0, NULL, NULL, "options.phases",
	    write_phases, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_QUIET] = { NULL,
	    FLAG('q', "quiet", quiet,
	      "no progress and no notes on standard error"),
	    SCOPE_BENCH, TYPE_BOOL, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT, WHY_OUTPUT, 0, NULL, NULL, 0 },
	[SET_CACHE] = { NULL,
	    VALUE(0, "cache", "cold|keep|global", settings_set_cache, 0,
	      "drop the file's cached pages, keep them, or drop all"),
	    SCOPE_BENCH, TYPE_NONE, 0, NULL, NULL, "options.cache",
	    write_cache, RULE_MATCH, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	[SET_RAM] = { NULL,
	    VALUE(0, "ram", "size", settings_set_ram, 0,
	      "the RAM size to assume"),
	    SCOPE_BENCH, TYPE_NONE, 0, NULL, NULL, "options.ram_bytes",
	    write_ram, RULE_INFO, 0, SHOW_RAM, NULL, 0, NULL, NULL, 0 },
	[SET_LOCK_MEM] = { NULL,
	    VALUE(0, "lock-mem", "size|avail-size", settings_set_lock_mem, 0,
	      "hold memory locked away from the page cache"),
	    SCOPE_BENCH, TYPE_STR, OFF(lock_arg), NULL, NULL,
	    "options.lock_mem", NULL, RULE_MATCH, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },

	[SET_SIZE] = { "file size",
	    VALUE('s', "size", "size", settings_set_size, 1024,
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
	    VALUE('c', "chunk", "chunk", settings_set_chunk, 16384,
	      "the block size, bytes when bare"),
	    SCOPE_RUN, TYPE_SIZE, OFF(chunk), NULL, "%s", "options.chunk",
	    NULL, RULE_MATCH, 0, SHOW_CHUNK, NULL, 0, NULL, NULL, 8192 },
	[SET_DEVICE] = { "device path",
	    { 0, "device", ARGS_VALUE, "path", args_set_string, OFF(device),
	      0, 0, 0, "run on a block device, overwriting it (not -d)" },
	    SCOPE_BENCH, TYPE_STR, 0, NULL, NULL, NULL, NULL,
	    RULE_NONE, 0, SHOW_TEXT,
	    "recorded as the target (target.kind and target.path)",
	    0, NULL, NULL, 0 },
	[SET_JOBS] = { NULL,
	    VALUE('j', "jobs", "jobs", settings_set_jobs, 1,
	      "workers in lock-step, each on its own file"),
	    SCOPE_RUN, TYPE_INT, OFF(jobs), NULL, NULL, "options.jobs",
	    write_jobs, RULE_MATCH, 0, SHOW_JOBS, NULL,
	    0, NULL, NULL, 0 },	/* pp -c: atoi'ed (cmd-pp.c). */
	[SET_FILES] = { NULL,
	    VALUE(0, "files", "N[:max[:min[:dirs]]]", settings_set_files, 0,
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
	    VALUE('x', "repeat", "count", settings_set_repeat, 1,
	      "run the whole benchmark count times"),
	    SCOPE_RUN, TYPE_INT, OFF(repeat), NULL, NULL, "options.repeat",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL,
	    0, NULL, NULL, 0 },	/* pp -x: atoi'ed, 0 runs (cmd-pp.c). */
	[SET_OUTPUT] = { NULL,
	    VALUE('o', "output", "text|csv|json", settings_set_output, 0,
	      "the format of standard output"),
	    SCOPE_RUN, TYPE_NONE, 0, NULL, "text", NULL, NULL, RULE_NONE, 0,
	    SHOW_TEXT, WHY_OUTPUT, 0, NULL, NULL, 0 },
	[SET_CSV_FORMAT] = { NULL,
	    VALUE(0, "csv-format", "1.98|1.97", settings_set_csv_format, 0,
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
	    SCOPE_BENCH, TYPE_BOOL, 0, NULL, NULL, "options.direct",
	    NULL, RULE_MATCH, 0, SHOW_DIRECT, NULL,
	    'D', NULL, "O_DIRECT for the block and seek tests (--direct)", 0 },
	/* Requests in flight change what a rate measures. */
	[SET_IODEPTH] = { NULL,
	    VALUE(0, "iodepth", "depth", settings_set_iodepth, 1,
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
	    { 0, "verify", ARGS_OPTIONAL, "fatal", settings_set_verify, 0, 0,
	      0, 0,
	      "check every byte read (=fatal: stop at bad data)" },
	    SCOPE_RUN, TYPE_NONE, 0, NULL, NULL, "options.verify",
	    write_verify, RULE_INFO, 0, SHOW_TEXT, NULL, 0, NULL, NULL, 0 },
	/* Checking costs reading time: verified rates are not comparable. */
	[SET_VERIFIED] = { "verified reads", NO_OPT,
	    SCOPE_NONE, TYPE_NONE, 0, NULL, NULL, NULL, NULL, RULE_MATCH, 0,
	    SHOW_VERIFIED, NULL, 0, NULL, NULL, 0 },
	[SET_INTERVAL] = { NULL,
	    VALUE(0, "interval", "duration", settings_set_interval, 100,
	      "the timeline's interval (0: none)"),
	    SCOPE_BENCH, TYPE_INT, OFF(interval_ms), NULL, "%s ms", NULL, NULL,
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

	/* The record's other keys: the record itself, */
	FACT(SET_SCHEMA, "schema", TYPE_NONE, 0, "schema", NULL, RULE_NONE, 0,
	    SHOW_TEXT, "the record's format, checked when it is read"),
	FACT(SET_TOOL, "tool name", TYPE_NONE, 0, "tool", NULL, RULE_PART,
	    SET_TOOL_VERSION, SHOW_TEXT, "a part of the tool"),
	FACT(SET_TOOL_VERSION, "tool", TYPE_NONE, 0, "version", NULL,
	    RULE_INFO, 0, SHOW_TOOL, NULL),
	FACT(SET_COMMAND, "command", TYPE_NONE, 0, "command", NULL, RULE_NONE,
	    0, SHOW_TEXT, "the command line: each of its options is compared "
	    "as a setting"),
	FACT(SET_START, "start", TYPE_NONE, 0, "start", NULL, RULE_NONE, 0,
	    SHOW_TEXT, "when the run started, not how"),

	/* the system, */
	FACT(SET_OS, "os", TYPE_SI_STR, SI(os), "system.os", NULL, RULE_INFO,
	    0, SHOW_TEXT, NULL),
	FACT(SET_KERNEL, "kernel", TYPE_SI_STR, SI(kernel_release),
	    "system.kernel_release", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_KERNEL_VERSION, "kernel version", TYPE_SI_STR,
	    SI(kernel_version), "system.kernel_version", NULL, RULE_INFO, 0,
	    SHOW_TEXT, NULL),
	FACT(SET_MACHINE, "machine", TYPE_SI_STR, SI(machine),
	    "system.machine", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_HOSTNAME, "hostname", TYPE_SI_STR, SI(hostname),
	    "system.hostname", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_CPU, "cpu", TYPE_SI_STR, SI(cpu_model), "system.cpu_model",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_CPUS, "cpus", TYPE_SI_INT, SI(cpus), "system.cpus", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_SYSTEM_RAM, "system ram", TYPE_SI_I64, SI(ram_bytes),
	    "system.ram_bytes", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_HYPERVISOR, "hypervisor", TYPE_SI_BOOL, SI(hypervisor),
	    "system.hypervisor", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_HYPERVISOR_VENDOR, "hypervisor vendor", TYPE_SI_STR,
	    SI(hypervisor_vendor), "system.hypervisor_vendor", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_PAGE_REPORTING, "free page reporting", TYPE_SI_BOOL,
	    SI(page_reporting), "system.free_page_reporting", NULL, RULE_INFO,
	    0, SHOW_TEXT, NULL),
	FACT(SET_PAGE_REPORTING_ORDER, "page reporting order", TYPE_SI_INT,
	    SI(page_reporting_order), "system.page_reporting_order", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL),

	/* the target (its directory is -d's row), */
	FACT(SET_TARGET, "target", TYPE_NONE, 0, "target.kind", write_kind,
	    RULE_INFO, 0, SHOW_TARGET, NULL),
	FACT(SET_TARGET_PATH, "target path", TYPE_SI_STR, SI(target_path),
	    "target.path", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "a file system's test file, named afresh for each run; a "
	    "device's path is shown in target"),
	FACT(SET_FS_TYPE, "file system", TYPE_SI_STR, SI(fs_type),
	    "target.fs_type", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_MOUNT_POINT, "mount point", TYPE_SI_STR, SI(mount_point),
	    "target.mount_point", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_MOUNT_SOURCE, "mount source", TYPE_SI_STR, SI(mount_source),
	    "target.mount_source", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_MOUNT_OPTIONS, "mount options", TYPE_SI_STR,
	    SI(mount_options), "target.mount_options", NULL, RULE_INFO, 0,
	    SHOW_MOUNT, NULL),
	FACT(SET_SUPER_OPTIONS, "super options", TYPE_SI_STR,
	    SI(super_options), "target.super_options", NULL, RULE_PART,
	    SET_MOUNT_OPTIONS, SHOW_TEXT,
	    "shown with the mount options, as one set"),
	FACT(SET_BLOCK_SIZE, "block size", TYPE_SI_I64, SI(block_size),
	    "target.block_size", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_FREE_BYTES, "free space", TYPE_SI_I64, SI(free_bytes),
	    "target.free_bytes", NULL, RULE_NONE, 0, SHOW_TEXT,
	    "the space free before the run: a state that every run changes"),
	FACT(SET_DEVICE_OBJ, "device object", TYPE_NONE, 0, "target.device",
	    write_device, RULE_NONE, 0, SHOW_TEXT,
	    "the device's properties, each a setting of its own"),
	FACT(SET_DEV_NAME, "device", TYPE_DEV_STR, DEV(name),
	    "target.device.name", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_SCHEDULER, "scheduler", TYPE_DEV_STR, DEV(scheduler),
	    "target.device.scheduler", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_ROTATIONAL, "rotational", TYPE_DEV_BOOL, DEV(rotational),
	    "target.device.rotational", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_READ_AHEAD, "read-ahead", TYPE_DEV_I64, DEV(read_ahead_kb),
	    "target.device.read_ahead_kb", NULL, RULE_INFO, 0,
	    SHOW_READ_AHEAD, NULL),
	FACT(SET_MAX_SECTORS, "max_sectors_kb", TYPE_DEV_I64,
	    DEV(max_sectors_kb), "target.device.max_sectors_kb", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_LOGICAL_BLOCK, "logical block", TYPE_DEV_I64,
	    DEV(logical_block_size), "target.device.logical_block_size", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_PHYSICAL_BLOCK, "physical block", TYPE_DEV_I64,
	    DEV(physical_block_size), "target.device.physical_block_size",
	    NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_DEV_MODEL, "device model", TYPE_DEV_STR, DEV(model),
	    "target.device.model", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_DEV_SIZE, "device size", TYPE_DEV_I64, DEV(size_bytes),
	    "target.device.size_bytes", NULL, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_LOOP_FILE, "loop backing file", TYPE_NONE, 0,
	    "target.device.loop_backing_file", write_loop_file, RULE_INFO, 0,
	    SHOW_TEXT, NULL),
	FACT(SET_LOOP_DIO, "loop direct I/O", TYPE_NONE, 0,
	    "target.device.loop_dio", write_loop_dio, RULE_INFO, 0, SHOW_TEXT,
	    NULL),
	FACT(SET_VM_OBJ, "vm object", TYPE_NONE, 0, "target.vm", write_vm,
	    RULE_NONE, 0, SHOW_TEXT,
	    "the vm.dirty_* settings, compared as one"),
	FACT(SET_VM_DIRTY, "vm.dirty_*", TYPE_VM_I64, VM(dirty_ratio),
	    "target.vm.dirty_ratio", NULL, RULE_INFO, 0, SHOW_VM_DIRTY, NULL),
	FACT(SET_VM_DIRTY_BG_RATIO, "dirty_background_ratio", TYPE_VM_I64,
	    VM(dirty_background_ratio), "target.vm.dirty_background_ratio",
	    NULL, RULE_PART, SET_VM_DIRTY, SHOW_TEXT, "a part of vm.dirty_*"),
	FACT(SET_VM_DIRTY_BYTES, "dirty_bytes", TYPE_VM_I64, VM(dirty_bytes),
	    "target.vm.dirty_bytes", NULL, RULE_PART, SET_VM_DIRTY, SHOW_TEXT,
	    "a part of vm.dirty_*"),
	FACT(SET_VM_DIRTY_BG_BYTES, "dirty_background_bytes", TYPE_VM_I64,
	    VM(dirty_background_bytes), "target.vm.dirty_background_bytes",
	    NULL, RULE_PART, SET_VM_DIRTY, SHOW_TEXT, "a part of vm.dirty_*"),
	FACT(SET_VM_DIRTY_EXPIRE, "dirty_expire_centisecs", TYPE_VM_I64,
	    VM(dirty_expire_centisecs), "target.vm.dirty_expire_centisecs",
	    NULL, RULE_PART, SET_VM_DIRTY, SHOW_TEXT, "a part of vm.dirty_*"),
	FACT(SET_VM_DIRTY_WRITEBACK, "dirty_writeback_centisecs", TYPE_VM_I64,
	    VM(dirty_writeback_centisecs),
	    "target.vm.dirty_writeback_centisecs", NULL, RULE_PART,
	    SET_VM_DIRTY, SHOW_TEXT, "a part of vm.dirty_*"),

	/* and the memory. */
	FACT(SET_MEM_AVAILABLE, "memory available", TYPE_SI_I64,
	    SI(mem_available), "memory.available_bytes", NULL, RULE_NONE, 0,
	    SHOW_TEXT, "the memory free before the run: a state of the "
	    "moment, which the RAM assumed (options.ram_bytes) is made from"),
	FACT(SET_CGROUP_LIMIT, "cgroup limit", TYPE_SI_I64,
	    SI(cgroup_mem_limit), "memory.cgroup_limit_bytes", NULL,
	    RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_LOCKED, "locked", TYPE_NONE, 0, "memory.locked_bytes",
	    write_locked, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_LOCK_HELD, "lock held", TYPE_NONE, 0, "memory.lock_held",
	    write_lock_held, RULE_INFO, 0, SHOW_TEXT, NULL),
	FACT(SET_RAM_SOURCE, "ram source", TYPE_NONE, 0, "memory.ram_source",
	    write_ram_source, RULE_INFO, 0, SHOW_TEXT, NULL),
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

/* A help line with its default, at most this long (checked at start). */
#define HELP_MAX	96

static const char *help_with_default(const struct setting *, const char *,
		    char *, size_t);

int
settings_table_check(char **cause)
{
	const struct setting	*s, *t;
	char			 help[HELP_MAX];
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
		if (s->opt.help != NULL && strlen(help_with_default(s,
		    s->opt.help, help, sizeof(help))) + 1 >= sizeof(help))
			return errorf(cause, "setting %s: its help and default "
			    "are over %d bytes", settings_name(i),
			    HELP_MAX - 2);
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
static char			help_made[SCOPE_PP + 1][ROWS_MAX][HELP_MAX];
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
	case TYPE_SI_STR:	/* The system's facts have no default. */
	case TYPE_SI_I64:
	case TYPE_SI_INT:
	case TYPE_SI_BOOL:
	case TYPE_DEV_STR:
	case TYPE_DEV_I64:
	case TYPE_DEV_BOOL:
	case TYPE_VM_I64:
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

/* Where a row's type keeps its value for the writer; NULL: unknown. */
static const char *
base_of(const struct setting *s, const struct settings_ctx *c)
{
	switch (s->type) {
	case TYPE_SI_STR:
	case TYPE_SI_I64:
	case TYPE_SI_INT:
	case TYPE_SI_BOOL:
		return (const char *)c->si;
	case TYPE_DEV_STR:
	case TYPE_DEV_I64:
	case TYPE_DEV_BOOL:
		return c->si != NULL ? (const char *)&c->si->device : NULL;
	case TYPE_VM_I64:
		return c->si != NULL ? (const char *)&c->si->vm : NULL;
	default:
		return (const char *)c->opt;
	}
}

static void
write_row(struct json *j, const struct setting *s, const struct settings_ctx *c)
{
	const char	*base = base_of(s, c), *k = leaf(s->key), *p;

	if (s->write != NULL) {
		s->write(j, k, c);
		return;
	}
	if (base == NULL) {
		json_null(j, k);
		return;
	}
	p = base + slot_of(s);
	switch (s->type) {
	case TYPE_NONE:
		json_null(j, k);
		break;
	case TYPE_STR:
	case TYPE_SI_STR:
	case TYPE_DEV_STR:
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
	case TYPE_SI_I64:
	case TYPE_DEV_I64:
	case TYPE_VM_I64:
		json_int_or_null(j, k, *(const int64_t *)(const void *)p);
		break;
	case TYPE_SI_INT:
		json_int_or_null(j, k, *(const int *)(const void *)p);
		break;
	case TYPE_SI_BOOL:
	case TYPE_DEV_BOOL:
		json_bool_or_null(j, k, *(const int *)(const void *)p);
		break;
	}
}

/* Is key directly in the object named by in ("target" has "target.kind")? */
static int
directly_in(const char *key, const char *in)
{
	size_t	n = strlen(in);

	return key != NULL && strncmp(key, in, n) == 0 && key[n] == '.' &&
	    strchr(key + n + 1, '.') == NULL;
}

/* The object of row id (its key's leaf), with the rows directly in it. */
static void
write_under(struct json *j, enum setting_id id, const struct settings_ctx *c)
{
	const char	*in = settings_table[id].key;
	int		 i;

	json_object_start(j, leaf(in));
	for (i = 0; i < SET_COUNT; i++)
		if (directly_in(settings_table[i].key, in))
			write_row(j, &settings_table[i], c);
	json_object_end(j);
}

void
settings_write(struct json *j, const char *object, const struct settings_ctx *c)
{
	const struct args_option	*r;
	int				 i;

	json_object_start(j, object);
	for (i = 0; i < SET_COUNT; i++)
		if (directly_in(settings_table[i].key, object))
			write_row(j, &settings_table[i], c);
	/* The options: each phase's own (its rows), by their long names. */
	if (strcmp(object, "options") == 0)
		for (i = 0; i < PH_COUNT; i++)
			for (r = phase_table[i]->options; r != NULL &&
			    (r->letter != 0 || r->name != NULL); r++)
				json_uint(j, r->name, c->opt->phase_arg[i]);
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
