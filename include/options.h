/*
 * The options of one benchmark run, and the one check of each of their
 * values, next to its type: the setters of the settings table's option
 * rows (settings.c) call these, so a value is refused the same way by
 * every command.  The defaults are the table's (settings_defaults()).  A check
 * returns 0, or -1 with the reason in *why: one line naming the value as
 * given, which the parser puts after "invalid value for -x, --name: ".
 */
#ifndef BONNIE_OPTIONS_H
#define BONNIE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "result.h"
/* The value parsers for sizes and counts, parse_size() and parse_count(). */
#include "units.h"

/* enum verify_mode, the --verify setting, is the checker's (pattern.h). */
#include "pattern.h"

enum seeker_mode { SEEKERS_FORK, SEEKERS_THREAD };
/* enum cache_mode, the --cache setting, is in result.h. */
enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };
/* --csv-format: bonnie++ 1.98 (50 fields) or 1.96/1.97 (48 fields). */
enum csv_layout { CSV_198, CSV_197 };

#define MIN_CHUNK          512
#define MAX_CHUNK          (16u * 1024 * 1024)
#define MAX_SEEKERS        256
#define MAX_SEEKS          (UINT64_C(1) << 40)
#define MAX_REPEAT         1000
#define MAX_JOBS           1024	/* -j: workers, each with a file. */
/* The file creation phases without --files (-p, pp -n): 16 x 1024 files. */
#define FILES_DEFAULT_K    16
/* --lock-mem never leaves less than this available (nor in the cgroup). */
#define LOCK_MEM_MIN_LEFT  (UINT64_C(256) << 20)

/* Which bound gave the RAM a run assumes (options_memory()). */
enum ram_source { RAM_UNKNOWN, RAM_SYSTEM, RAM_CGROUP, RAM_LOCK, RAM_GIVEN };

struct options {
	const char	*dir;		/* Directory for the test file. */
	int		 dir_given;	/* -d given. */
	const char	*device;	/* --device: the target instead of a
					   test file in dir, or NULL. */
	uint64_t	 size;		/* File size in bytes, whole chunks. */
	uint64_t	 size_asked;	/* Size as given, before rounding. */
	int		 size_given;	/* -s given. */
	size_t		 chunk;		/* Block size in bytes. */
	const char	*label;		/* Row label (-m). */
	int		 seekers;	/* Number of concurrent seekers. */
	int		 jobs;		/* -j: workers in lock-step. */
	uint64_t	 seeks;		/* Total seeks across all seekers. */
	int		 seeks_given;	/* -n given: no extension to 1 s. */
	enum seeker_mode seeker_mode;
	enum cache_mode	 cache;
	int		 direct;	/* O_DIRECT for the block phases. */
	uint64_t	 iodepth;	/* --iodepth: requests in flight per
					   worker and seeker (1: one call at
					   a time), with --direct or --device. */
	int		 sync_writes;	/* --sync-writes: fsync after each
					   write (bonnie++ -b). */
	enum verify_mode verify;	/* --verify[=fatal]. */
	uint64_t	 ram;		/* The RAM a run assumes, in bytes:
					   --ram, or the effective RAM
					   (options_memory()). */
	int		 ram_given;	/* --ram given. */
	enum ram_source	 ram_source;
	const char	*lock_arg;	/* --lock-mem as given, or NULL. */
	uint64_t	 lock_size;	/* Its SIZE. */
	int		 lock_avail;	/* It was avail-SIZE. */
	uint64_t	 lock_bytes;	/* What the helper locks; 0 none. */
	uint64_t	 seed;		/* Seed for data and seek offsets. */
	int		 seed_given;
	unsigned	 phases;	/* Bit mask of phase ids to run. */
	int		 quiet;
	int		 latency;	/* -L: print the p99 row. */
	int		 kernel;	/* -K: print the kernel's account. */
	int		 interval_ms;	/* --interval: the timeline's; 0
					   none. */
	int		 repeat;	/* -x: runs of the whole benchmark. */
	int		 repeat_given;	/* -x given (pp: the CSV lines alone). */
	int		 no_space_check;
	enum out_format	 format;
	enum csv_layout	 csv_layout;	/* --csv-format. */
	const char	*json_path;	/* --json FILE, or NULL. */
	int		 fast;		/* -f: without the per-char phases. */
	int		 phases_given;	/* -p given. */
	/* --files N[:MAX[:MIN[:DIRS]]]: the file creation phases. */
	uint64_t	 files_n;	/* Files per set (N x 1024). */
	uint64_t	 files_max;	/* Largest file, bytes; 0: empty. */
	uint64_t	 files_min;	/* Smallest file, bytes. */
	unsigned	 files_dirs;	/* Subdirectories; 0: none. */
	int		 files_given;
	uint64_t	 phase_arg[PH_COUNT]; /* A phase's own option value
					   (see include/phase.h). */
	int		 argc;		/* The command line, for the record. */
	char		**argv;
};

/* The default label: the short host name. */
const char *options_default_label(void);

/*
 * After the command line: the defaults that depend on the system or the
 * moment (label, seed, RAM) where none was given.
 */
void	options_finish(struct options *);

/* A fresh seed, 53 bits so that the record's JSON readers keep it exact. */
uint64_t options_default_seed(void);

/* The value checks, one per kind of value. */
int	cache_mode_parse(const char *, enum cache_mode *, char **why);
/* --verify's value: none (count) or "fatal". */
int	verify_mode_parse(const char *, enum verify_mode *, char **why);
/* "off", "count", "fatal". */
const char *verify_mode_name(enum verify_mode);
int	seeker_mode_parse(const char *, enum seeker_mode *, char **why);
const char *seeker_mode_name(enum seeker_mode);
int	out_format_parse(const char *, enum out_format *, char **why);
int	csv_layout_parse(const char *, enum csv_layout *, char **why);
/* -S: a count of seekers, or fork or thread. */
int	seekers_parse(const char *, struct options *, char **why);
/* A chunk size: a size in bytes, a power of two in range. */
int	chunk_parse(const char *, uint64_t *, char **why);
/* A file size, in MiB when bare (its range is options_check()'s). */
int	file_size_parse(const char *, uint64_t *, char **why);
/* --files N[:MAX[:MIN[:DIRS]]] into o. */
int	files_parse(const char *, struct options *, char **why);
int	seeks_parse(const char *, uint64_t *, char **why);
int	repeat_parse(const char *, int *, char **why);
/* --iodepth: 1 to 1 Mi (options_check() holds it to the system's). */
int	iodepth_parse(const char *, uint64_t *, char **why);
int	jobs_parse(const char *, int *, char **why);
int	seed_parse(const char *, uint64_t *, char **why);
int	ram_parse(const char *, uint64_t *, char **why);
/* --lock-mem SIZE or avail-SIZE (MiB when bare) into o. */
int	lock_mem_parse(const char *, struct options *, char **why);
/* "system", "cgroup", "lock", "--ram", or NULL when unknown. */
const char *ram_source_name(enum ram_source);

/*
 * Settle --lock-mem and the RAM a run assumes, before any file is made,
 * from the physical RAM, the memory available, the cgroup's limit (0 or
 * less: unknown, or no limit) and the cgroup's headroom, its limit less
 * its usage (below 0: unknown or no limit).  The memory available is the
 * tighter of the system's and the cgroup's headroom.  The lock is SIZE,
 * or for avail-SIZE the memory available less SIZE; it must leave at
 * least LOCK_MEM_MIN_LEFT of the memory available and of the cgroup's
 * limit.  Without --ram, o->ram becomes the smallest of the RAM and the
 * cgroup's limit, less the lock (the helper is charged to the same
 * cgroup).  Returns 0, or -1 with the reason in *cause (a fault in the
 * options).
 */
int	options_memory(struct options *, int64_t ram, int64_t avail,
	    int64_t cgroup_limit, int64_t cgroup_room, char **cause);
/* A label: one word without commas, not starting with '#'. */
int	label_check(const char *, char **why);

/* The slot of phase id's own option value, for its row (phase.h). */
#define OPTIONS_PHASE_ARG(id)	((int)(offsetof(struct options, phase_arg) + \
	    (size_t)(id) * sizeof(uint64_t)))

/*
 * Check the options against each other (chunk a power of two in range,
 * size at least one chunk, and so on) and round the size down to whole
 * chunks.  Returns 0, or -1 with a message in *cause.
 */
int	options_check(struct options *, char **cause);

#endif
