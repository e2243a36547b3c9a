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
#define GUEST(field)	((int)offsetof(struct sysinfo_guest, field))

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

/* A vm guest's host command line: its words, kept joined by NULs. */
static void
write_host_command(struct json *j, const char *k, const struct settings_ctx *c)
{
	const struct sysinfo_guest	*g;
	const char			*w;
	int64_t				 left;

	if (c->si == NULL || (g = c->si->guest) == NULL ||
	    g->host_command == NULL) {
		json_null(j, k);
		return;
	}
	json_array_start(j, k);
	for (w = g->host_command, left = g->host_command_len; left > 0;
	    left -= (int64_t)strlen(w) + 1, w += strlen(w) + 1)
		json_string(j, NULL, w);
	json_array_end(j);
}

/*
 * The kinds of rows that are not options, in the manner of the option
 * rows' (args.h): a fact of the system, the target or the memory that
 * compare lists when it differs, and a part of another setting, read
 * back and listed with it.  Any other row names its fields.
 */
#define FACT_INFO(n, t, s, k)						\
	{ .name = (n), .type = (t), .slot = (s), .key = (k),		\
	  .rule = RULE_INFO }
#define FACT_PART(n, t, s, k, whole, w)					\
	{ .name = (n), .type = (t), .slot = (s), .key = (k),		\
	  .rule = RULE_PART, .part_of = (whole), .why = (w) }

/* Why the record's keys that are not settings are not. */
#define WHY_OUTPUT	"how the results are written, not how the run ran"
#define WHY_FILES	"a part of --files"
#define WHY_VM		"a part of vm.dirty_*"

const struct setting settings_table[SET_COUNT] = {
	[SET_DIR] = {
	    .opt = { .letter = 'd', .name = "dir", .kind = ARGS_VALUE,
		.value = "dir", .set = settings_set_dir, .slot = OFF(dir),
		.help = "the directory for the test file" },
	    .scope = SCOPE_BENCH, .type = TYPE_STR, .sdef = ".",
	    .key = "target.dir", .write = write_dir, .rule = RULE_INFO,
	    .pp_letter = 'd', .pp_help = "the directory for the tests" },
	[SET_LABEL] = {		/* pp -m: any name (cmd-pp.c). */
	    .opt = OPT_VALUE('m', "label", "label", settings_set_label, 0,
		"the row's label"),
	    .scope = SCOPE_BENCH, .type = TYPE_STR, .slot = OFF(label),
	    .defwords = "the short host name", .key = "options.label",
	    .rule = RULE_INFO },
	[SET_SEEKERS] = {
	    .opt = OPT_VALUE('S', "seekers", "count|fork|thread",
		settings_set_seekers, 3, "how many seekers, forked or threads"),
	    .scope = SCOPE_BENCH, .type = TYPE_INT, .slot = OFF(seekers),
	    .defwords = "%s", .key = "options.seekers", .rule = RULE_INFO,
	    .show = SHOW_SEEKERS, .pp_def = 5 },
	[SET_SEEKER_MODE] = { .name = "seekers mode",
	    .key = "options.seeker_mode", .write = write_seeker_mode,
	    .rule = RULE_INFO },
	[SET_SEEKS] = {
	    .opt = OPT_VALUE('n', "seeks", "seeks", settings_set_seeks, 4000,
		"seeks in all"),
	    .scope = SCOPE_BENCH, .type = TYPE_U64, .slot = OFF(seeks),
	    .defwords = "%s and at least 1 s", .key = "options.seeks",
	    .rule = RULE_MATCH, .show = SHOW_SEEKS, .pp_def = 8192 },
	[SET_SEEKS_GIVEN] = FACT_INFO("seeks given", TYPE_BOOL,
	    OFF(seeks_given), "options.seeks_given"),
	/* pp -z: as sscanf("%u") (cmd-pp.c). */
	[SET_SEED] = { .name = "seed value",
	    .opt = OPT_VALUE('z', "seed", "seed", settings_set_seed, 0,
		"the seed of the data and offsets"),
	    .scope = SCOPE_BENCH, .type = TYPE_U64, .slot = OFF(seed),
	    .defwords = "fresh", .key = "options.seed", .rule = RULE_NONE,
	    .why = "fresh for every run unless -z gives it: the seed's "
	    "policy (options.seed_given) is compared" },
	[SET_SEED_GIVEN] = { .name = "seed", .type = TYPE_BOOL,
	    .slot = OFF(seed_given), .key = "options.seed_given",
	    .rule = RULE_INFO, .show = SHOW_SEED },
	[SET_PHASES] = {
	    .opt = OPT_VALUE('p', "phases", "phases", settings_set_phases, 0,
		"the phases to run, comma-separated"),
	    .scope = SCOPE_BENCH, .key = "options.phases",
	    .write = write_phases, .rule = RULE_INFO },
	[SET_QUIET] = {
	    .opt = OPT_FLAG('q', "quiet", OFF(quiet),
		"no progress and no notes on standard error"),
	    .scope = SCOPE_BENCH, .type = TYPE_BOOL, .rule = RULE_NONE,
	    .why = WHY_OUTPUT },
	[SET_CACHE] = {		/* Its words: cache_mode_name()'s (t-args.c). */
	    .opt = OPT_VALUE(0, "cache", "cold|keep|global", settings_set_cache,
		0, "drop the file's cached pages, keep them, or drop all"),
	    .scope = SCOPE_BENCH, .key = "options.cache", .write = write_cache,
	    .rule = RULE_MATCH },
	[SET_RAM] = {
	    .opt = OPT_VALUE(0, "ram", "size", settings_set_ram, 0,
		"the RAM size to assume"),
	    .scope = SCOPE_BENCH, .key = "options.ram_bytes",
	    .write = write_ram, .rule = RULE_INFO, .show = SHOW_RAM },
	[SET_LOCK_MEM] = {
	    .opt = OPT_VALUE(0, "lock-mem", "size|avail-size",
		settings_set_lock_mem, 0,
		"hold memory locked away from the page cache"),
	    .scope = SCOPE_BENCH, .type = TYPE_STR, .slot = OFF(lock_arg),
	    .key = "options.lock_mem", .rule = RULE_MATCH },

	[SET_SIZE] = { .name = "file size",
	    .opt = OPT_VALUE('s', "size", "size", settings_set_size, 1024,
		"the test file's size, MiB when bare"),
	    .scope = SCOPE_RUN, .defwords = "%s", .key = "options.size_bytes",
	    .write = write_size, .rule = RULE_MATCH, .show = SHOW_SIZE },
	[SET_SIZE_MIB] = { .name = "size MiB", .key = "options.size_mib",
	    .write = write_size_mib, .rule = RULE_NONE,
	    .why = "the file size in MiB: the size is compared" },
	[SET_SIZE_TOTAL] = { .name = "total size",
	    .key = "options.size_total_bytes", .write = write_size_total,
	    .rule = RULE_NONE,
	    .why = "the file size times the jobs, both compared" },
	[SET_CHUNK] = {
	    .opt = OPT_VALUE('c', "chunk", "chunk", settings_set_chunk, 16384,
		"the block size, bytes when bare"),
	    .scope = SCOPE_RUN, .type = TYPE_SIZE, .slot = OFF(chunk),
	    .defwords = "%s", .key = "options.chunk", .rule = RULE_MATCH,
	    .show = SHOW_CHUNK, .pp_def = 8192 },
	[SET_DEVICE] = { .name = "device path",
	    .opt = OPT_STRING(0, "device", "path", OFF(device),
		"run on a block device, overwriting it (not -d)"),
	    .scope = SCOPE_BENCH, .type = TYPE_STR, .rule = RULE_NONE,
	    .why = "recorded as the target (target.kind and target.path)" },
	[SET_JOBS] = {		/* pp -c: atoi'ed (cmd-pp.c). */
	    .opt = OPT_VALUE('j', "jobs", "jobs", settings_set_jobs, 1,
		"workers in lock-step, each on its own file"),
	    .scope = SCOPE_RUN, .type = TYPE_INT, .slot = OFF(jobs),
	    .key = "options.jobs", .write = write_jobs, .rule = RULE_MATCH,
	    .show = SHOW_JOBS },
	[SET_FILES] = {
	    .opt = OPT_VALUE(0, "files", "N[:max[:min[:dirs]]]",
		settings_set_files, 0,
		"create, stat, delete N x 1024 files (bonnie++ -n)"),
	    .scope = SCOPE_RUN, .key = "options.files", .write = write_files,
	    .rule = RULE_MATCH, .show = SHOW_FILES },
	[SET_FILES_N] = FACT_PART("files count", TYPE_U64, OFF(files_n),
	    "options.files.files", SET_FILES, WHY_FILES),
	[SET_FILES_MAX] = FACT_PART("files max", TYPE_U64, OFF(files_max),
	    "options.files.max_bytes", SET_FILES, WHY_FILES),
	[SET_FILES_MIN] = FACT_PART("files min", TYPE_U64, OFF(files_min),
	    "options.files.min_bytes", SET_FILES, WHY_FILES),
	[SET_FILES_DIRS] = { .name = "files dirs", .key = "options.files.dirs",
	    .write = write_files_dirs, .rule = RULE_PART,
	    .part_of = SET_FILES, .why = WHY_FILES },
	[SET_FILES_GIVEN] = { .name = "files given", .type = TYPE_BOOL,
	    .slot = OFF(files_given), .key = "options.files.given",
	    .rule = RULE_NONE, .why = "whether --files or -p's default chose "
	    "the files, which are compared" },
	[SET_REPEAT] = {	/* pp -x: atoi'ed, 0 runs (cmd-pp.c). */
	    .opt = OPT_VALUE('x', "repeat", "count", settings_set_repeat, 1,
		"run the whole benchmark count times"),
	    .scope = SCOPE_RUN, .type = TYPE_INT, .slot = OFF(repeat),
	    .key = "options.repeat", .rule = RULE_INFO },
	[SET_OUTPUT] = {
	    .opt = OPT_VALUE('o', "output", "text|csv|json",
		settings_set_output, 0, "the format of standard output"),
	    .scope = SCOPE_RUN, .defwords = "text", .rule = RULE_NONE,
	    .why = WHY_OUTPUT },
	[SET_CSV_FORMAT] = {
	    .opt = OPT_VALUE(0, "csv-format", "1.98|1.97",
		settings_set_csv_format, 0,
		"the CSV layout: 1.98 (50 fields) or 1.97 (48 fields)"),
	    .scope = SCOPE_RUN, .rule = RULE_NONE, .why = WHY_OUTPUT,
	    .pp_letter = -1 },
	[SET_JSON] = {
	    .opt = OPT_STRING(0, "json", "file", OFF(json_path),
		"also write the JSON record to file"),
	    .scope = SCOPE_RUN, .type = TYPE_STR, .rule = RULE_NONE,
	    .why = WHY_OUTPUT, .pp_letter = -1 },
	[SET_DIRECT] = {
	    .opt = OPT_FLAG(0, "direct", OFF(direct),
		"O_DIRECT for the block and seek phases"),
	    .scope = SCOPE_BENCH, .type = TYPE_BOOL, .key = "options.direct",
	    .rule = RULE_MATCH, .show = SHOW_DIRECT, .pp_letter = 'D',
	    .pp_help = "O_DIRECT for the block and seek tests (--direct)" },
	/* Requests in flight change what a rate measures. */
	[SET_IODEPTH] = {
	    .opt = OPT_VALUE(0, "iodepth", "depth", settings_set_iodepth, 1,
		"requests in flight under --direct or --device"),
	    .scope = SCOPE_RUN, .type = TYPE_U64, .slot = OFF(iodepth),
	    .key = "options.iodepth", .rule = RULE_MATCH,
	    .show = SHOW_IODEPTH },
	[SET_SYNC_WRITES] = {
	    .opt = OPT_FLAG(0, "sync-writes", OFF(sync_writes),
		"fsync after each write: block phases, files (-b)"),
	    .scope = SCOPE_RUN, .type = TYPE_BOOL,
	    .key = "options.sync_writes", .rule = RULE_MATCH,
	    .pp_letter = 'b',
	    .pp_help = "fsync after every write (--sync-writes)" },
	[SET_NO_SPACE_CHECK] = {
	    .opt = OPT_FLAG(0, "no-space-check", OFF(no_space_check),
		"do not check for room before making the file"),
	    .scope = SCOPE_RUN, .type = TYPE_BOOL, .rule = RULE_NONE,
	    .why = "a check before the run, not a part of it" },
	[SET_VERIFY] = {
	    .opt = OPT_OPTIONAL(0, "verify", "fatal", settings_set_verify,
		"check every byte read (=fatal: stop at bad data)"),
	    .scope = SCOPE_RUN, .key = "options.verify", .write = write_verify,
	    .rule = RULE_INFO },
	/* Checking costs reading time: verified rates are not comparable. */
	[SET_VERIFIED] = { .name = "verified reads", .rule = RULE_MATCH,
	    .show = SHOW_VERIFIED },
	[SET_INTERVAL] = {
	    .opt = OPT_VALUE(0, "interval", "duration", settings_set_interval,
		100, "the timeline's interval (0: none)"),
	    .scope = SCOPE_BENCH, .type = TYPE_INT, .slot = OFF(interval_ms),
	    .defwords = "%s ms", .rule = RULE_NONE,
	    .why = "how often the timeline samples: what is kept beside the "
	    "figures, not how the run ran" },
	[SET_FAST] = {		/* pp -f[size] (cmd-pp.c). */
	    .opt = OPT_FLAG('f', "fast", OFF(fast), "skip the per-char phases"),
	    .scope = SCOPE_RUN, .type = TYPE_BOOL, .key = "options.fast",
	    .write = write_fast, .rule = RULE_NONE,
	    .why = "whether the per-char phases were left out: the phases "
	    "are compared" },
	[SET_LATENCY] = {
	    .opt = OPT_FLAG('L', "latency", OFF(latency),
		"add a row of 99th percentile latencies"),
	    .scope = SCOPE_RUN, .type = TYPE_BOOL, .rule = RULE_NONE,
	    .why = WHY_OUTPUT },
	[SET_KERNEL_FLAG] = { .name = "kernel account table",
	    .opt = OPT_FLAG('K', "kernel", OFF(kernel),
		"print the kernel's account of each phase (text)"),
	    .scope = SCOPE_RUN, .type = TYPE_BOOL, .rule = RULE_NONE,
	    .why = WHY_OUTPUT },
	[SET_VERSION_FLAG] = {
	    .opt = OPT_VERSION('V', "version", "print the version and exit"),
	    .scope = SCOPE_RUN, .rule = RULE_NONE, .why = "not a run" },

	/* The record's other keys: the record itself, */
	[SET_SCHEMA] = { .name = "schema", .key = "schema", .rule = RULE_NONE,
	    .why = "the record's format, checked when it is read" },
	[SET_TOOL] = { .name = "tool name", .key = "tool", .rule = RULE_PART,
	    .part_of = SET_TOOL_VERSION, .why = "a part of the tool" },
	[SET_TOOL_VERSION] = { .name = "tool", .key = "version",
	    .rule = RULE_INFO, .show = SHOW_TOOL },
	[SET_COMMAND] = { .name = "command", .key = "command",
	    .rule = RULE_NONE, .why = "the command line: each of its options "
	    "is compared as a setting" },
	[SET_START] = { .name = "start", .key = "start", .rule = RULE_NONE,
	    .why = "when the run started, not how" },

	/* the system, */
	[SET_OS] = FACT_INFO("os", TYPE_SI_STR, SI(os), "system.os"),
	[SET_KERNEL] = FACT_INFO("kernel", TYPE_SI_STR, SI(kernel_release),
	    "system.kernel_release"),
	[SET_KERNEL_VERSION] = FACT_INFO("kernel version", TYPE_SI_STR,
	    SI(kernel_version), "system.kernel_version"),
	[SET_MACHINE] = FACT_INFO("machine", TYPE_SI_STR, SI(machine),
	    "system.machine"),
	[SET_HOSTNAME] = FACT_INFO("hostname", TYPE_SI_STR, SI(hostname),
	    "system.hostname"),
	[SET_CPU] = FACT_INFO("cpu", TYPE_SI_STR, SI(cpu_model),
	    "system.cpu_model"),
	[SET_CPUS] = FACT_INFO("cpus", TYPE_SI_INT, SI(cpus), "system.cpus"),
	[SET_SYSTEM_RAM] = FACT_INFO("system ram", TYPE_SI_I64, SI(ram_bytes),
	    "system.ram_bytes"),
	[SET_HYPERVISOR] = FACT_INFO("hypervisor", TYPE_SI_BOOL,
	    SI(hypervisor), "system.hypervisor"),
	[SET_HYPERVISOR_VENDOR] = FACT_INFO("hypervisor vendor", TYPE_SI_STR,
	    SI(hypervisor_vendor), "system.hypervisor_vendor"),
	[SET_PAGE_REPORTING] = FACT_INFO("free page reporting", TYPE_SI_BOOL,
	    SI(page_reporting), "system.free_page_reporting"),
	[SET_PAGE_REPORTING_ORDER] = FACT_INFO("page reporting order",
	    TYPE_SI_INT, SI(page_reporting_order),
	    "system.page_reporting_order"),
	[SET_CPUIDLE_DRIVER] = FACT_INFO("cpuidle driver", TYPE_SI_STR,
	    SI(cpuidle_driver), "system.cpuidle_driver"),
	[SET_CPUIDLE_GOVERNOR] = FACT_INFO("cpuidle governor", TYPE_SI_STR,
	    SI(cpuidle_governor), "system.cpuidle_governor"),
	[SET_HALT_POLL_NS] = FACT_INFO("guest halt poll ns", TYPE_SI_I64,
	    SI(halt_poll_ns), "system.guest_halt_poll_ns"),

	/* the target (its directory is -d's row), */
	[SET_TARGET] = { .name = "target", .key = "target.kind",
	    .write = write_kind, .rule = RULE_INFO, .show = SHOW_TARGET },
	[SET_TARGET_PATH] = { .name = "target path", .type = TYPE_SI_STR,
	    .slot = SI(target_path), .key = "target.path", .rule = RULE_NONE,
	    .why = "a file system's test file, named afresh for each run; a "
	    "device's path is shown in target" },
	[SET_FS_TYPE] = FACT_INFO("file system", TYPE_SI_STR, SI(fs_type),
	    "target.fs_type"),
	[SET_MOUNT_POINT] = FACT_INFO("mount point", TYPE_SI_STR,
	    SI(mount_point), "target.mount_point"),
	[SET_MOUNT_SOURCE] = FACT_INFO("mount source", TYPE_SI_STR,
	    SI(mount_source), "target.mount_source"),
	[SET_MOUNT_OPTIONS] = { .name = "mount options", .type = TYPE_SI_STR,
	    .slot = SI(mount_options), .key = "target.mount_options",
	    .rule = RULE_INFO, .show = SHOW_MOUNT },
	[SET_SUPER_OPTIONS] = FACT_PART("super options", TYPE_SI_STR,
	    SI(super_options), "target.super_options", SET_MOUNT_OPTIONS,
	    "shown with the mount options, as one set"),
	[SET_BLOCK_SIZE] = FACT_INFO("block size", TYPE_SI_I64,
	    SI(block_size), "target.block_size"),
	[SET_FREE_BYTES] = { .name = "free space", .type = TYPE_SI_I64,
	    .slot = SI(free_bytes), .key = "target.free_bytes",
	    .rule = RULE_NONE, .why = "the space free before the run: a state "
	    "that every run changes" },
	[SET_DEVICE_OBJ] = { .name = "device object", .key = "target.device",
	    .write = write_device, .rule = RULE_NONE,
	    .why = "the device's properties, each a setting of its own" },
	[SET_DEV_NAME] = FACT_INFO("device", TYPE_DEV_STR, DEV(name),
	    "target.device.name"),
	[SET_SCHEDULER] = FACT_INFO("scheduler", TYPE_DEV_STR, DEV(scheduler),
	    "target.device.scheduler"),
	[SET_ROTATIONAL] = FACT_INFO("rotational", TYPE_DEV_BOOL,
	    DEV(rotational), "target.device.rotational"),
	[SET_READ_AHEAD] = { .name = "read-ahead", .type = TYPE_DEV_I64,
	    .slot = DEV(read_ahead_kb), .key = "target.device.read_ahead_kb",
	    .rule = RULE_INFO, .show = SHOW_READ_AHEAD },
	[SET_MAX_SECTORS] = FACT_INFO("max_sectors_kb", TYPE_DEV_I64,
	    DEV(max_sectors_kb), "target.device.max_sectors_kb"),
	[SET_LOGICAL_BLOCK] = FACT_INFO("logical block", TYPE_DEV_I64,
	    DEV(logical_block_size), "target.device.logical_block_size"),
	[SET_PHYSICAL_BLOCK] = FACT_INFO("physical block", TYPE_DEV_I64,
	    DEV(physical_block_size), "target.device.physical_block_size"),
	[SET_DEV_MODEL] = FACT_INFO("device model", TYPE_DEV_STR, DEV(model),
	    "target.device.model"),
	[SET_DEV_SIZE] = FACT_INFO("device size", TYPE_DEV_I64,
	    DEV(size_bytes), "target.device.size_bytes"),
	[SET_LOOP_FILE] = { .name = "loop backing file",
	    .key = "target.device.loop_backing_file", .write = write_loop_file,
	    .rule = RULE_INFO },
	[SET_LOOP_DIO] = { .name = "loop direct I/O",
	    .key = "target.device.loop_dio", .write = write_loop_dio,
	    .rule = RULE_INFO },
	[SET_VM_OBJ] = { .name = "vm object", .key = "target.vm",
	    .write = write_vm, .rule = RULE_NONE,
	    .why = "the vm.dirty_* settings, compared as one" },
	[SET_VM_DIRTY] = { .name = "vm.dirty_*", .type = TYPE_VM_I64,
	    .slot = VM(dirty_ratio), .key = "target.vm.dirty_ratio",
	    .rule = RULE_INFO, .show = SHOW_VM_DIRTY },
	[SET_VM_DIRTY_BG_RATIO] = FACT_PART("dirty_background_ratio",
	    TYPE_VM_I64, VM(dirty_background_ratio),
	    "target.vm.dirty_background_ratio", SET_VM_DIRTY, WHY_VM),
	[SET_VM_DIRTY_BYTES] = FACT_PART("dirty_bytes", TYPE_VM_I64,
	    VM(dirty_bytes), "target.vm.dirty_bytes", SET_VM_DIRTY, WHY_VM),
	[SET_VM_DIRTY_BG_BYTES] = FACT_PART("dirty_background_bytes",
	    TYPE_VM_I64, VM(dirty_background_bytes),
	    "target.vm.dirty_background_bytes", SET_VM_DIRTY, WHY_VM),
	[SET_VM_DIRTY_EXPIRE] = FACT_PART("dirty_expire_centisecs",
	    TYPE_VM_I64, VM(dirty_expire_centisecs),
	    "target.vm.dirty_expire_centisecs", SET_VM_DIRTY, WHY_VM),
	[SET_VM_DIRTY_WRITEBACK] = FACT_PART("dirty_writeback_centisecs",
	    TYPE_VM_I64, VM(dirty_writeback_centisecs),
	    "target.vm.dirty_writeback_centisecs", SET_VM_DIRTY, WHY_VM),

	/* and the memory. */
	[SET_MEM_AVAILABLE] = { .name = "memory available",
	    .type = TYPE_SI_I64, .slot = SI(mem_available),
	    .key = "memory.available_bytes", .rule = RULE_NONE,
	    .why = "the memory free before the run: a state of the moment, "
	    "which the RAM assumed (options.ram_bytes) is made from" },
	[SET_CGROUP_LIMIT] = FACT_INFO("cgroup limit", TYPE_SI_I64,
	    SI(cgroup_mem_limit), "memory.cgroup_limit_bytes"),
	[SET_LOCKED] = { .name = "locked", .key = "memory.locked_bytes",
	    .write = write_locked, .rule = RULE_INFO },
	[SET_LOCK_HELD] = { .name = "lock held", .key = "memory.lock_held",
	    .write = write_lock_held, .rule = RULE_INFO },
	[SET_RAM_SOURCE] = { .name = "ram source", .key = "memory.ram_source",
	    .write = write_ram_source, .rule = RULE_INFO },

	/*
	 * A bonnie-ng vm guest's machine: the accelerator and the test
	 * disk's cache mode must match; the memory (the RAM axis), the
	 * kernel's digest and the rest are listed.  The kernel's release and
	 * the RAM it saw are system's rows.
	 */
	[SET_GUEST_ACCEL] = { .name = "accelerator", .type = TYPE_GUEST_STR,
	    .slot = GUEST(accel), .key = "guest.accel", .rule = RULE_MATCH },
	[SET_GUEST_CPU] = { .name = "guest cpu model", .type = TYPE_GUEST_STR,
	    .slot = GUEST(cpu), .key = "guest.cpu", .rule = RULE_MATCH },
	[SET_GUEST_VCPUS] = FACT_INFO("guest cpus", TYPE_GUEST_I64,
	    GUEST(vcpus), "guest.vcpus"),
	[SET_GUEST_MEMORY] = FACT_INFO("guest memory", TYPE_GUEST_I64,
	    GUEST(memory_bytes), "guest.memory_bytes"),
	[SET_GUEST_DISK] = FACT_INFO("guest disk", TYPE_GUEST_I64,
	    GUEST(disk_bytes), "guest.disk_bytes"),
	[SET_GUEST_DISK_CACHE] = { .name = "guest disk cache",
	    .type = TYPE_GUEST_STR, .slot = GUEST(disk_cache),
	    .key = "guest.disk_cache", .rule = RULE_MATCH },
	[SET_GUEST_FS] = FACT_INFO("guest fs", TYPE_GUEST_STR, GUEST(fs),
	    "guest.fs"),
	[SET_GUEST_MKFS_OPTIONS] = FACT_INFO("mkfs options", TYPE_GUEST_STR,
	    GUEST(mkfs_options), "guest.mkfs_options"),
	[SET_GUEST_MOUNT_OPTIONS] = { .name = "guest mount options",
	    .type = TYPE_GUEST_STR, .slot = GUEST(mount_options),
	    .key = "guest.mount_options", .rule = RULE_NONE,
	    .why = "--mount-options as given: the mount's own options "
	    "(target.mount_options) are compared" },
	[SET_GUEST_APPEND] = FACT_INFO("kernel command line", TYPE_GUEST_STR,
	    GUEST(append), "guest.append"),
	[SET_GUEST_QEMU] = { .name = "qemu", .type = TYPE_GUEST_STR,
	    .slot = GUEST(qemu), .key = "guest.qemu", .rule = RULE_NONE,
	    .why = "the emulator's program: its version is compared" },
	[SET_GUEST_QEMU_VERSION] = FACT_INFO("qemu version", TYPE_GUEST_STR,
	    GUEST(qemu_version), "guest.qemu_version"),
	[SET_GUEST_KERNEL_IMAGE] = { .name = "kernel image",
	    .type = TYPE_GUEST_STR, .slot = GUEST(kernel_image),
	    .key = "guest.kernel_image", .rule = RULE_NONE,
	    .why = "where the kernel came from: the kernel itself is "
	    "compared (its release, version and digest)" },
	[SET_GUEST_KERNEL_SHA256] = FACT_INFO("kernel digest", TYPE_GUEST_STR,
	    GUEST(kernel_sha256), "guest.kernel_sha256"),
	[SET_GUEST_HOST_KERNEL] = FACT_INFO("host kernel", TYPE_GUEST_STR,
	    GUEST(host_kernel), "guest.host_kernel"),
	[SET_GUEST_HOST_COMMAND] = { .name = "vm command",
	    .key = "guest.host_command", .write = write_host_command,
	    .rule = RULE_NONE,
	    .why = "the host's vm command line, which its cells share" },
	[SET_GUEST_CELL] = { .name = "cell", .type = TYPE_GUEST_I64,
	    .slot = GUEST(cell), .key = "guest.cell", .rule = RULE_NONE,
	    .why = "the cell's place in the order, not a setting" },
	[SET_GUEST_CELLS] = { .name = "cells", .type = TYPE_GUEST_I64,
	    .slot = GUEST(cells), .key = "guest.cells", .rule = RULE_NONE,
	    .why = "how many boots the vm command made" },
	[SET_GUEST_ROUND] = { .name = "round", .type = TYPE_GUEST_I64,
	    .slot = GUEST(round), .key = "guest.round", .rule = RULE_NONE,
	    .why = "the cell's round, not a setting" },
};

const char *
settings_name(enum setting_id id)
{
	const struct setting	*s = &settings_table[id];

	return s->name != NULL ? s->name : s->opt.name;
}

/* Where struct options keeps a setting: its slot, else its option's. */
int
settings_slot(const struct setting *s)
{
	return s->slot != 0 ? s->slot : s->opt.slot;
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
	case TYPE_GUEST_STR:
	case TYPE_GUEST_I64:
		return c->si != NULL ? (const char *)c->si->guest : NULL;
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
	p = base + settings_slot(s);
	switch (s->type) {
	case TYPE_NONE:
		json_null(j, k);
		break;
	case TYPE_STR:
	case TYPE_SI_STR:
	case TYPE_DEV_STR:
	case TYPE_GUEST_STR:
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
	case TYPE_GUEST_I64:
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
