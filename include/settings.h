/*
 * The table of settings, in the manner of the phase table (phase.h): one
 * row per setting holds every fact about it.  A setting is an option of
 * the benchmark (its names, argument, default, value check and words in
 * the usage), a key of the record (where it is stored and how the record
 * is read back), or both; and each row says how compare treats it (a
 * difference that makes results not comparable, a difference that is
 * only listed, or a key that is not a setting at all, and why), how
 * bonnie-ng pp maps bonnie++'s flag onto it, and whether a sweep takes it.
 *
 * Derived from the table: the option rows of run and sweep (and the rows
 * of pp that are bonnie++ flags for a setting), the defaults
 * (settings_defaults()), the record's "system", "target", "options" and
 * "memory" objects (settings_write()), the record read back
 * (settings_read(), in settings-read.c), and compare's "Settings that
 * differ" with its comparability warning and note.
 *
 * To add a setting: add its id to enum setting_id below, where the option
 * should appear in the usage, and its row in src/settings.c (a setter in
 * src/settings-set.c when the generic ones, args.h's, do not do);
 * document it in man/bonnie-ng.1 and, when recorded, doc/RECORD.md and
 * doc/schema.json; add its tests.  A phase's own option is the phase's
 * row (phase.h) and is recorded and compared the same way.
 */
#ifndef BONNIE_SETTINGS_H
#define BONNIE_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"

struct json;
struct jv;
struct options;
struct sysinfo;

/* What the record's writers read: the options and the system's facts. */
struct settings_ctx {
	const struct options	*opt;
	const struct sysinfo	*si;		/* NULL: every fact unknown. */
	int			 lock_held;	/* cmd_run_unlock()'s. */
};

/*
 * The settings, in the order of the usage (the options a sweep shares
 * first, then those of a single run), then the record's other keys.
 */
enum setting_id {
	/* The options a single run and a sweep share. */
	SET_DIR,
	SET_LABEL,
	SET_SEEKERS,
	SET_SEEKER_MODE,
	SET_SEEKS,
	SET_SEEKS_GIVEN,
	SET_SEED,
	SET_SEED_GIVEN,
	SET_PHASES,
	SET_QUIET,
	SET_CACHE,
	SET_RAM,
	SET_LOCK_MEM,
	/* Those of a single run only. */
	SET_SIZE,
	SET_SIZE_MIB,
	SET_SIZE_TOTAL,
	SET_CHUNK,
	SET_DEVICE,		/* A sweep's too (SCOPE_BENCH): in its usage
				   after the shared ones above. */
	SET_JOBS,
	SET_FILES,
	SET_FILES_N,
	SET_FILES_MAX,
	SET_FILES_MIN,
	SET_FILES_DIRS,
	SET_FILES_GIVEN,
	SET_REPEAT,
	SET_OUTPUT,
	SET_CSV_FORMAT,
	SET_JSON,
	SET_DIRECT,		/* A sweep's too, as SET_DEVICE. */
	SET_IODEPTH,
	SET_SYNC_WRITES,
	SET_NO_SPACE_CHECK,
	SET_VERIFY,
	SET_VERIFIED,
	SET_INTERVAL,
	SET_FAST,
	SET_LATENCY,
	SET_KERNEL_FLAG,
	SET_VERSION_FLAG,
	/* The record's other keys: the record itself. */
	SET_SCHEMA,
	SET_TOOL,
	SET_TOOL_VERSION,
	SET_COMMAND,
	SET_START,
	/* The system. */
	SET_OS,
	SET_KERNEL,
	SET_KERNEL_VERSION,
	SET_MACHINE,
	SET_HOSTNAME,
	SET_CPU,
	SET_CPUS,
	SET_SYSTEM_RAM,
	SET_HYPERVISOR,
	SET_HYPERVISOR_VENDOR,
	SET_PAGE_REPORTING,
	SET_PAGE_REPORTING_ORDER,
	SET_CPUIDLE_DRIVER,
	SET_CPUIDLE_GOVERNOR,
	SET_HALT_POLL_NS,
	/* The target. */
	SET_TARGET,
	SET_TARGET_PATH,
	SET_FS_TYPE,
	SET_MOUNT_POINT,
	SET_MOUNT_SOURCE,
	SET_MOUNT_OPTIONS,
	SET_SUPER_OPTIONS,
	SET_BLOCK_SIZE,
	SET_FREE_BYTES,
	SET_DEVICE_OBJ,
	SET_DEV_NAME,
	SET_SCHEDULER,
	SET_ROTATIONAL,
	SET_READ_AHEAD,
	SET_MAX_SECTORS,
	SET_LOGICAL_BLOCK,
	SET_PHYSICAL_BLOCK,
	SET_DEV_MODEL,
	SET_DEV_SIZE,
	SET_LOOP_FILE,
	SET_LOOP_DIO,
	SET_VM_OBJ,
	SET_VM_DIRTY,
	SET_VM_DIRTY_BG_RATIO,
	SET_VM_DIRTY_BYTES,
	SET_VM_DIRTY_BG_BYTES,
	SET_VM_DIRTY_EXPIRE,
	SET_VM_DIRTY_WRITEBACK,
	/* The memory. */
	SET_MEM_AVAILABLE,
	SET_CGROUP_LIMIT,
	SET_LOCKED,
	SET_LOCK_HELD,
	SET_RAM_SOURCE,
	/* A bonnie-ng vm guest's machine (absent from other records). */
	SET_GUEST_ACCEL,
	SET_GUEST_CPU,
	SET_GUEST_VCPUS,
	SET_GUEST_MEMORY,
	SET_GUEST_DISK,
	SET_GUEST_DISK_CACHE,
	SET_GUEST_FS,
	SET_GUEST_MKFS_OPTIONS,
	SET_GUEST_MOUNT_OPTIONS,
	SET_GUEST_APPEND,
	SET_GUEST_QEMU,
	SET_GUEST_QEMU_VERSION,
	SET_GUEST_KERNEL_IMAGE,
	SET_GUEST_KERNEL_SHA256,
	SET_GUEST_HOST_KERNEL,
	SET_GUEST_HOST_COMMAND,
	SET_GUEST_CELL,
	SET_GUEST_CELLS,
	SET_GUEST_ROUND,
	SET_COUNT
};

/* Which commands take a setting's option. */
enum setting_scope {
	SCOPE_NONE,		/* Not an option: a record key only. */
	SCOPE_BENCH,		/* Run and sweep (a sweep passes it to
				   every point). */
	SCOPE_RUN,		/* A single run only. */
	SCOPE_PP		/* For cmd_rows: bonnie-ng pp's rows made
				   from the settings' pp mappings. */
};

/* How compare treats a difference. */
enum setting_rule {
	RULE_MATCH,		/* Must match: a difference is listed, and
				   the sides are said to be not
				   comparable. */
	RULE_INFO,		/* Listed when it differs. */
	RULE_PART,		/* Read back and listed as part of another
				   setting (part_of). */
	RULE_NONE		/* Not a setting (why says why). */
};

/*
 * How a setting's value is kept (slot, def): in struct options, or among
 * the system's facts (struct sysinfo, its device, its vm; unknown, -1 or
 * NULL, is recorded as null).
 */
enum setting_type {
	TYPE_NONE,		/* Not kept, or kept by its setter. */
	TYPE_STR,		/* const char *; default sdef.  Recorded
				   as null when not given, which reads
				   back as "none". */
	TYPE_U64,		/* uint64_t. */
	TYPE_SIZE,		/* size_t. */
	TYPE_INT,		/* int. */
	TYPE_BOOL,		/* int, 0 or 1; recorded as a boolean. */
	TYPE_SI_STR,		/* struct sysinfo: char *. */
	TYPE_SI_I64,		/* int64_t. */
	TYPE_SI_INT,		/* int. */
	TYPE_SI_BOOL,		/* int, 1, 0 or -1. */
	TYPE_DEV_STR,		/* struct sysinfo_device: char *. */
	TYPE_DEV_I64,		/* int64_t. */
	TYPE_DEV_BOOL,		/* int, 1, 0 or -1. */
	TYPE_VM_I64,		/* struct sysinfo_vm: int64_t. */
	TYPE_GUEST_STR,		/* struct sysinfo_guest: char *. */
	TYPE_GUEST_I64		/* int64_t. */
};

/*
 * How compare shows a value read back: most from the record's text
 * (SHOW_TEXT); the older ones from the typed fields every reader fills.
 */
enum setting_show {
	SHOW_TEXT,		/* The record's value as text. */
	SHOW_SIZE,		/* rs_settings' size, "1G". */
	SHOW_RAM,		/* rs_settings' ram. */
	SHOW_CHUNK,		/* rs_settings' chunk; 0 unknown. */
	SHOW_SEEKS,		/* rs_settings' seeks; 0 unknown. */
	SHOW_SEEKERS,		/* rs_settings' seekers; 0 unknown. */
	SHOW_JOBS,		/* rs_settings' jobs; older records: 1. */
	SHOW_FILES,		/* --files as N:MAX:MIN/DIRS. */
	SHOW_TARGET,		/* "file system" or "device PATH". */
	SHOW_MOUNT,		/* Mount and super options, one set. */
	SHOW_VM_DIRTY,		/* The vm.dirty_* settings in one line. */
	SHOW_READ_AHEAD,	/* "128 KiB". */
	SHOW_SEED,		/* "given (-z)" or "random". */
	SHOW_VERIFIED,		/* "yes" or "no". */
	SHOW_DIRECT,		/* rs_settings' direct: "yes" or "no". */
	SHOW_IODEPTH,		/* The record's; older records: 1. */
	SHOW_TOOL		/* rs_settings' version: "bonnie-ng 1.2". */
};

struct setting {
	const char	*name;		/* What compare lists it as; NULL: the
					   option's long name. */
	/* The option, or { 0 }: args.h's row, its help without default. */
	struct args_option opt;
	enum setting_scope scope;
	/* Where struct options keeps it, for the default and the record. */
	enum setting_type type;
	int		 slot;		/* Byte offset in struct options; 0:
					   the option's own (opt.slot). */
	const char	*sdef;		/* TYPE_STR's default. */
	/*
	 * The words of the default in the help: "%s" is opt.def; NULL: a
	 * text's default (sdef) itself, or none said.
	 */
	const char	*defwords;
	const char	*key;		/* The record's key, "options.seeks";
					   NULL: not recorded. */
	/* Writes the key when the type does not say how; NULL else. */
	void		(*write)(struct json *, const char *leaf,
			    const struct settings_ctx *);
	enum setting_rule rule;
	enum setting_id	 part_of;	/* RULE_PART: the setting it is in. */
	enum setting_show show;
	const char	*why;		/* RULE_NONE, RULE_PART: why it is
					   not a setting of its own. */
	/* bonnie-ng pp: bonnie++'s flag for it, or 0; its words. */
	int		 pp_letter;
	const char	*pp_value;	/* NULL: opt.value. */
	const char	*pp_help;
	uint64_t	 pp_def;	/* bonnie++'s default where it differs
					   from bonnie-ng's; 0: the same. */
};

/* The rows, indexed by enum setting_id. */
extern const struct setting settings_table[SET_COUNT];
/* What compare lists a setting as: its name, or its option's. */
const char *settings_name(enum setting_id);
/* Where struct options keeps a setting: its slot, else its option's. */
int	settings_slot(const struct setting *);

/*
 * Check the table once at start: ids in order, names and keys unique,
 * every rule and part filled in.  0, or -1 with the cause.
 */
int	settings_table_check(char **cause);

/*
 * The option rows of a scope (SCOPE_BENCH, SCOPE_RUN or SCOPE_PP), made
 * from the table once, with the default in each help; ended by ARGS_END.
 */
const struct args_option *settings_rows(enum setting_scope);

/* Fill o with every default, the phases' own values included. */
void	settings_defaults(struct options *);
/* bonnie-ng pp's defaults: bonnie++'s where they differ (pp_def). */
void	settings_pp_defaults(struct options *);
/* A numeric setting's default (opt.def), e.g. the file size in MiB. */
uint64_t settings_default(enum setting_id);

/*
 * One of the record's objects ("system", "target", "options", "memory"):
 * the rows whose keys are in it, in the table's order (the options' then
 * with the phases' own after them).
 */
void	settings_write(struct json *, const char *object,
	    const struct settings_ctx *);

/*
 * Read every setting the record root holds back into value[] (indexed by
 * id, SET_COUNT of them) as text, NULL where the record has none or null;
 * and the phases' own options into phase_value[] (SETTINGS_PHASE_MAX).
 */
void	settings_read(const struct jv *root, char **value, char **phase_value);
/* A value read back (value[id]) as a whole number, or 0. */
uint64_t settings_u64(char *const *value, enum setting_id);
/* A copy of a value read back, or NULL. */
char	*settings_dup(char *const *value, enum setting_id);

/* The setting whose record key is key ("target.block_size"), or -1. */
int	settings_by_key(const char *key);

/*
 * The phases' own option rows, counted over the phase table: compare
 * lists and the record holds them as settings of their own (RULE_MATCH).
 */
#define SETTINGS_PHASE_MAX	8
int	settings_phase_rows(const struct args_option **rows, int max);

#endif
