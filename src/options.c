/*
 * Option defaults, value parsers and the checks between options.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "ioq.h"
#include "options.h"
#include "phase.h"
#include "platform.h"
#include "result.h"
#include "text.h"
#include "timer.h"

/* --files limits: 64 Mi files, 100000 directories, 1 GiB files. */
#define MAX_FILES_K	65536
#define MAX_FILES_DIRS	100000
#define MAX_FILE_BYTES	(1u << 30)

const char *
options_default_label(void)
{
	static char	 host[256];
	char		*dot;

	if (gethostname(host, sizeof(host) - 1) == -1 || host[0] == '\0')
		return "bonnie";
	host[sizeof(host) - 1] = '\0';
	if ((dot = strchr(host, '.')) != NULL)
		*dot = '\0';
	return host;
}

uint64_t
options_default_seed(void)
{
	return (time_now().ns ^ ((uint64_t)getpid() << 32)) &
	    ((UINT64_C(1) << 53) - 1);
}

void
options_finish(struct options *o)
{
	if (o->label == NULL)
		o->label = options_default_label();
	if (!o->seed_given)
		o->seed = options_default_seed();
	if (o->ram == 0)
		o->ram = platform_ram();
	if (!o->ram_given)
		o->ram_source = o->ram > 0 ? RAM_SYSTEM : RAM_UNKNOWN;
}

/* --cache's values, indexed by enum cache_mode. */
int
cache_mode_parse(const char *arg, enum cache_mode *out, char **why)
{
	char	names[64];
	size_t	n = 0;
	int	m;

	for (m = 0; m < CACHE_MODE_COUNT; m++)
		if (strcmp(arg, cache_mode_name((enum cache_mode)m)) == 0) {
			*out = (enum cache_mode)m;
			return 0;
		}
	/* "cold, keep or global", from the names. */
	names[0] = '\0';
	for (m = 0; m < CACHE_MODE_COUNT && n < sizeof(names); m++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
		    m == 0 ? "" : m + 1 == CACHE_MODE_COUNT ? " or " : ", ",
		    cache_mode_name((enum cache_mode)m));
	return errorf(why, "'%s' (use %s)", arg, names);
}

int
verify_mode_parse(const char *arg, enum verify_mode *out, char **why)
{
	if (arg == NULL)
		*out = VERIFY_COUNT;
	else if (strcmp(arg, "fatal") == 0)
		*out = VERIFY_FATAL;
	else
		return errorf(why, "'%s' (use --verify or --verify=fatal)", arg);
	return 0;
}

const char *
verify_mode_name(enum verify_mode m)
{
	return m == VERIFY_FATAL ? "fatal" : m == VERIFY_COUNT ? "count" :
	    "off";
}

int
seeker_mode_parse(const char *arg, enum seeker_mode *out, char **why)
{
	if (strcmp(arg, "fork") == 0)
		*out = SEEKERS_FORK;
	else if (strcmp(arg, "thread") == 0)
		*out = SEEKERS_THREAD;
	else
		return errorf(why, "'%s' (use fork or thread)", arg);
	return 0;
}

const char *
seeker_mode_name(enum seeker_mode m)
{
	return m == SEEKERS_THREAD ? "thread" : "fork";
}

int
out_format_parse(const char *arg, enum out_format *out, char **why)
{
	if (strcmp(arg, "text") == 0)
		*out = OUT_TEXT;
	else if (strcmp(arg, "csv") == 0)
		*out = OUT_CSV;
	else if (strcmp(arg, "json") == 0)
		*out = OUT_JSON;
	else
		return errorf(why, "'%s' (use text, csv or json)", arg);
	return 0;
}

int
csv_layout_parse(const char *arg, enum csv_layout *out, char **why)
{
	if (strcmp(arg, "1.98") == 0)
		*out = CSV_198;
	else if (strcmp(arg, "1.97") == 0 || strcmp(arg, "1.96") == 0)
		*out = CSV_197;
	else
		return errorf(why, "'%s' (use 1.98, or 1.97 for 48 fields)",
		    arg);
	return 0;
}

int
seekers_parse(const char *arg, struct options *o, char **why)
{
	uint64_t	v;

	if (seeker_mode_parse(arg, &o->seeker_mode, NULL) == 0)
		return 0;
	if (!isdigit((unsigned char)arg[0]))
		return errorf(why, "'%s' (a count from 1 to %d, or fork or "
		    "thread)", arg, MAX_SEEKERS);
	if (parse_count(arg, 1, MAX_SEEKERS, &v, why) == -1)
		return -1;
	o->seekers = (int)v;
	return 0;
}

int
chunk_parse(const char *arg, uint64_t *out, char **why)
{
	uint64_t	v;

	if (parse_size(arg, 1, &v, why) == -1)
		return -1;
	if (v > MAX_CHUNK || v < MIN_CHUNK || (v & (v - 1)) != 0)
		return errorf(why, "'%s' (a power of two from %u to %u bytes)",
		    arg, MIN_CHUNK, MAX_CHUNK);
	*out = v;
	return 0;
}

int
file_size_parse(const char *arg, uint64_t *out, char **why)
{
	return parse_size(arg, (uint64_t)1 << 20, out, why);
}

/*
 * --files N[:MAX[:MIN[:DIRS]]], as bonnie++ -n: N in units of 1024 files,
 * the sizes in bytes or with a suffix, DIRS subdirectories.
 */
int
files_parse(const char *arg, struct options *o, char **why)
{
	char		*copy, *f[5], *s;
	uint64_t	 n, max = 0, min = 0, dirs = 0;
	int		 k = 0, rv = -1;

	copy = xstrdup(arg);
	for (s = copy; k < 5; k++) {
		f[k] = s;
		if ((s = strchr(s, ':')) == NULL) {
			k++;
			break;
		}
		*s++ = '\0';
	}
	if (s != NULL || k > 4) {
		errorf(why, "'%s' (N[:MAX[:MIN[:DIRS]]])", arg);
		goto out;
	}
	if (parse_count(f[0], 1, MAX_FILES_K, &n, why) == -1)
		goto out;
	if (k > 1 && parse_size(f[1], 1, &max, why) == -1)
		goto out;
	if (k > 2 && parse_size(f[2], 1, &min, why) == -1)
		goto out;
	if (k > 3 && parse_count(f[3], 1, MAX_FILES_DIRS, &dirs, why) == -1)
		goto out;
	if (max > MAX_FILE_BYTES || min > max) {
		errorf(why, "'%s' (the sizes: 0 <= MIN <= MAX <= %u MiB)",
		    arg, MAX_FILE_BYTES >> 20);
		goto out;
	}
	o->files_n = n * 1024;
	o->files_max = max;
	o->files_min = min;
	o->files_dirs = (unsigned)dirs;
	o->files_given = 1;
	rv = 0;
out:
	free(copy);
	return rv;
}

int
seeks_parse(const char *arg, uint64_t *out, char **why)
{
	return parse_count(arg, 1, MAX_SEEKS, out, why);
}

int
repeat_parse(const char *arg, int *out, char **why)
{
	uint64_t	v;

	if (parse_count(arg, 1, MAX_REPEAT, &v, why) == -1)
		return -1;
	*out = (int)v;
	return 0;
}

int
jobs_parse(const char *arg, int *out, char **why)
{
	uint64_t	v;

	if (parse_count(arg, 1, MAX_JOBS, &v, why) == -1)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * A seed is at most 2^53 - 1: the largest integer every JSON reader (jq,
 * JavaScript, a double) takes back exactly from the record.
 */
int
iodepth_parse(const char *arg, uint64_t *out, char **why)
{
	return parse_count(arg, 1, UINT64_C(1) << 20, out, why);
}

int
seed_parse(const char *arg, uint64_t *out, char **why)
{
	return parse_count(arg, 0, (UINT64_C(1) << 53) - 1, out, why);
}

int
ram_parse(const char *arg, uint64_t *out, char **why)
{
	uint64_t	v;

	if (parse_size(arg, (uint64_t)1 << 20, &v, why) == -1)
		return -1;
	if (v == 0)
		return errorf(why, "'%s' (must be more than 0)", arg);
	*out = v;
	return 0;
}

int
lock_mem_parse(const char *arg, struct options *o, char **why)
{
	const char	*size = arg;
	uint64_t	 v;

	o->lock_avail = strncmp(arg, "avail-", 6) == 0;
	if (o->lock_avail)
		size += 6;
	if (parse_size(size, (uint64_t)1 << 20, &v, why) == -1)
		return -1;
	if (v == 0 && !o->lock_avail)
		return errorf(why, "'%s' (must be more than 0)", arg);
	o->lock_arg = arg;
	o->lock_size = v;
	return 0;
}

const char *
ram_source_name(enum ram_source s)
{
	static const char *const names[] = {
		[RAM_UNKNOWN] = NULL, [RAM_SYSTEM] = "system",
		[RAM_CGROUP] = "cgroup", [RAM_LOCK] = "lock",
		[RAM_GIVEN] = "--ram"
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] :
	    NULL;
}

/* The lock's size from --lock-mem and the memory available. */
static int
lock_settle(struct options *o, int64_t ram, int64_t avail, int64_t cg,
    int64_t room, char **cause)
{
	char		 b1[32], b2[32];
	uint64_t	 base, left;
	const char	*of = "available";

	/* Inside a cgroup (a container), what it leaves may be less. */
	if (room >= 0 && (avail <= 0 || room < avail)) {
		avail = room;
		of = "the cgroup leaves";
	}
	if (avail > 0)
		base = (uint64_t)avail;
	else if (o->lock_avail)
		return errorf(cause, "invalid value for --lock-mem: '%s' (the "
		    "memory available is unknown on this system; give a size)",
		    o->lock_arg);
	else if (ram > 0) {
		base = (uint64_t)ram;
		of = "of RAM";
	} else
		return errorf(cause, "invalid value for --lock-mem: '%s' (the "
		    "memory size is unknown on this system)", o->lock_arg);
	if (o->lock_avail)
		o->lock_bytes = o->lock_size < base ? base - o->lock_size : 0;
	else
		o->lock_bytes = o->lock_size;
	left = o->lock_bytes < base ? base - o->lock_bytes : 0;
	if (cg > 0 && (o->lock_bytes >= (uint64_t)cg ||
	    (uint64_t)cg - o->lock_bytes < left)) {
		base = (uint64_t)cg;
		left = o->lock_bytes < base ? base - o->lock_bytes : 0;
		of = "the cgroup allows";
	}
	if (o->lock_bytes == 0 || left < LOCK_MEM_MIN_LEFT) {
		units_ram(b1, sizeof(b1), base);
		units_ram(b2, sizeof(b2), left);
		return errorf(cause, "invalid value for --lock-mem: '%s' (it "
		    "would leave %s of the %s %s; at least %llu MiB must stay)",
		    o->lock_arg, b2, b1, of,
		    (unsigned long long)(LOCK_MEM_MIN_LEFT >> 20));
	}
	return 0;
}

int
options_memory(struct options *o, int64_t ram, int64_t avail,
    int64_t cgroup_limit, int64_t cgroup_room, char **cause)
{
	uint64_t	eff;

	o->lock_bytes = 0;
	if (o->lock_arg != NULL && lock_settle(o, ram, avail, cgroup_limit,
	    cgroup_room, cause) == -1)
		return -1;
	if (o->ram_given) {
		o->ram_source = RAM_GIVEN;
		return 0;
	}
	if (ram <= 0) {
		o->ram = 0;
		o->ram_source = RAM_UNKNOWN;
		return 0;
	}
	eff = (uint64_t)ram;
	o->ram_source = RAM_SYSTEM;
	if (cgroup_limit > 0 && (uint64_t)cgroup_limit < eff) {
		eff = (uint64_t)cgroup_limit;
		o->ram_source = RAM_CGROUP;
	}
	if (o->lock_bytes > 0) {
		eff = o->lock_bytes < eff ? eff - o->lock_bytes : 0;
		o->ram_source = RAM_LOCK;
	}
	o->ram = eff;
	return 0;
}

int
label_check(const char *arg, char **why)
{
	char	*copy;
	size_t	 bad;

	if (*arg == '\0' || *arg == '#' ||
	    strpbrk(arg, " \t\n\r\v\f,") != NULL)
		return errorf(why, "'%s' (a label is one word without commas, "
		    "not starting with '#')", arg);
	/* It goes into the record and the reports: printable UTF-8 only. */
	copy = xstrdup(arg);
	bad = text_utf8_fix(copy);
	free(copy);
	if (bad != 0 || text_has_control(arg))
		return errorf(why, "'%s' (a label is printable UTF-8 text)",
		    arg);
	return 0;
}

int
options_check(struct options *o, char **cause)
{
	size_t	c = o->chunk;

	if (c < MIN_CHUNK || c > MAX_CHUNK || (c & (c - 1)) != 0)
		return errorf(cause, "invalid value for -c, --chunk: %zu "
		    "(a power of two from %u to %u bytes)", c, MIN_CHUNK,
		    MAX_CHUNK);
	if (o->size_asked < c)
		return errorf(cause, "invalid value for -s, --size: %llu "
		    "bytes is smaller than one chunk (%zu bytes)",
		    (unsigned long long)o->size_asked, c);
	o->size = o->size_asked - o->size_asked % c;
	if (o->seekers < 1 || o->seekers > MAX_SEEKERS)
		return errorf(cause, "invalid value for -S, --seekers: %d "
		    "(1 to %d)", o->seekers, MAX_SEEKERS);
	if (o->fast)
		o->phases &= ~phase_flag_mask(PHASE_PERCHAR);
	/* --files adds its phases unless -p chose; -p alone: -n 16's. */
	if (o->files_given && !o->phases_given)
		o->phases |= phase_flag_mask(PHASE_META);
	/* --files with a -p of no file phase would set what nothing runs. */
	if (o->files_given && o->phases_given &&
	    !(o->phases & phase_flag_mask(PHASE_META)))
		return errorf(cause, "--files: -p names no file creation "
		    "phase (create, stat, delete, rcreate, rstat, rdelete): "
		    "add one, or leave --files out");
	if ((o->phases & phase_flag_mask(PHASE_META)) && !o->files_given)
		o->files_n = FILES_DEFAULT_K * 1024;
	if (o->phases == 0)
		return errorf(cause, "no phase selected");
	if (o->device != NULL && o->dir_given)
		return errorf(cause, "--device and -d both name the target: "
		    "give one");
	if (o->device != NULL && o->jobs > 1)
		return errorf(cause, "invalid value for -j, --jobs: --device "
		    "runs one worker (workers would share the device's first "
		    "SIZE bytes)");
	if (o->device != NULL && (o->phases & phase_flag_mask(PHASE_META)))
		return errorf(cause, "--device: the file creation phases "
		    "(--files) need a file system: use -d");
	if (o->iodepth > 1 && !o->direct && o->device == NULL)
		return errorf(cause, "invalid value for --iodepth: %llu needs "
		    "--direct or --device (buffered I/O does not queue)",
		    (unsigned long long)o->iodepth);
	if (o->iodepth > (uint64_t)ioq_max_depth())
		return errorf(cause, "invalid value for --iodepth: %llu is "
		    "above this system's limit of %d requests in flight",
		    (unsigned long long)o->iodepth, ioq_max_depth());
	if (o->iodepth > 1 && o->sync_writes)
		return errorf(cause, "--iodepth and --sync-writes: an fsync "
		    "after each write leaves nothing to queue; give one");
	if (o->repeat < 1)
		return errorf(cause, "invalid value for -x, --repeat: %d",
		    o->repeat);
	return 0;
}
