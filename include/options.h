/*
 * The options of one benchmark run, and the parsers for their values.
 */
#ifndef BONNIE_OPTIONS_H
#define BONNIE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* The value parsers for sizes and counts, parse_size() and parse_count(). */
#include "units.h"

/* enum verify_mode, the --verify setting, is the checker's (pattern.h). */
#include "pattern.h"

enum seeker_mode { SEEKERS_FORK, SEEKERS_THREAD };
enum cache_mode { CACHE_MODE_COLD, CACHE_MODE_KEEP };
enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

#define DEFAULT_SIZE_MIB   1024
#define DEFAULT_CHUNK      16384
#define DEFAULT_SEEKERS    3
#define DEFAULT_SEEKS      4000
#define MIN_CHUNK          512
#define MAX_CHUNK          (16u * 1024 * 1024)
#define MAX_SEEKERS        256
#define MAX_JOBS           1024	/* -j: workers, each with a file. */

struct options {
	const char	*dir;		/* Directory for the test file. */
	uint64_t	 size;		/* File size in bytes, whole chunks. */
	uint64_t	 size_asked;	/* Size as given, before rounding. */
	size_t		 chunk;		/* Block size in bytes. */
	const char	*label;		/* Row label (-m). */
	int		 seekers;	/* Number of concurrent seekers. */
	int		 jobs;		/* -j: workers in lock-step. */
	uint64_t	 seeks;		/* Total seeks across all seekers. */
	int		 seeks_given;	/* -n given: no extension to 1 s. */
	enum seeker_mode seeker_mode;
	enum cache_mode	 cache;
	int		 direct;	/* O_DIRECT for the block phases. */
	enum verify_mode verify;	/* --verify[=fatal]. */
	uint64_t	 ram;		/* RAM in bytes (system or --ram). */
	uint64_t	 seed;		/* Seed for data and seek offsets. */
	int		 seed_given;
	unsigned	 phases;	/* Bit mask of phase ids to run. */
	int		 quiet;
	int		 latency;	/* -L: print the p99 row. */
	int		 repeat;	/* -x: runs of the whole benchmark. */
	int		 no_space_check;
	enum out_format	 format;
	const char	*json_path;	/* --json FILE, or NULL. */
	int		 argc;		/* The command line, for the record. */
	char		**argv;
};

/* The usage text, mirroring the man page's SYNOPSIS. */
extern const char options_usage[];

#define OPTIONS_HELP	1
#define OPTIONS_VERSION	2

/*
 * Parse a benchmark command line into o (after options_defaults()) and
 * check it.  Returns 0 to run, OPTIONS_HELP or OPTIONS_VERSION when asked
 * for those, or -1 with one line in *cause for a bad command line.
 */
int	options_parse(int argc, char **argv, struct options *, char **cause);

/* The default label: the short host name. */
const char *options_default_label(void);

/* Fill in the defaults for everything. */
void	options_defaults(struct options *);

/*
 * Check the options against each other (chunk a power of two in range,
 * size at least one chunk, and so on) and round the size down to whole
 * chunks.  Returns 0, or -1 with a message in *cause.
 */
int	options_check(struct options *, char **cause);

#endif
