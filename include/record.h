/*
 * The result record: everything about one invocation, written as JSON
 * (schema bonnie-ng/1, see doc/schema.json and the man page) or as
 * bonnie++ 1.98 CSV lines.
 */
#ifndef BONNIE_RECORD_H
#define BONNIE_RECORD_H

#include <stdio.h>

#include "options.h"
#include "result.h"

struct sysinfo;

struct record {
	const struct options	*opt;
	const struct sysinfo	*sys;	/* May be NULL: fields become null. */
	char			 start_utc[32];
	int			 nruns;
	const struct run_result	*runs;
	int			 lock_held; /* --lock-mem's helper held to the
					   end: 1, 0; -1 no lock. */
};

/* Write the whole record as one JSON document.  0 or -1 with errno. */
int	record_write_json(FILE *, const struct record *);
/* Write one bonnie++ 1.98 CSV line per run.  0 or -1 with errno. */
int	record_write_csv(FILE *, const struct record *);
/*
 * The line of field names that bonnie++ -x writes before its CSV lines,
 * for the layout (bonnie-ng pp -x).  0 or -1 with errno.
 */
int	record_write_csv_header(FILE *, enum csv_layout);

struct json;

/*
 * Write one phase's result as a JSON object member named key (NULL inside
 * an array), or null when it did not run.  Shared by the run record and
 * the sweep record.
 */
void	record_write_phase(struct json *, const char *key, enum phase_id,
	    const struct phase_result *);
/*
 * The same for phase id of a run: with a team, also its skew and each
 * worker's own figures.
 */
void	record_write_run_phase(struct json *, const char *key, enum phase_id,
	    const struct run_result *);

/*
 * The "system", "target" and "options" members, shared by the run record
 * and the sweep record.
 */
void	record_write_system(struct json *, const struct sysinfo *);
/* A bonnie-ng vm guest's "guest" object; nothing in any other run. */
void	record_write_guest(struct json *, const struct sysinfo *);
void	record_write_target(struct json *, const struct options *,
	    const struct sysinfo *);
void	record_write_options(struct json *, const struct options *);
/*
 * A run's "free_space" member: the target's free space before the test
 * file was made and after it was removed, what was lost and whether that
 * is a leak (struct run_result).  Shared with the sweep record's points.
 */
void	record_write_space(struct json *, const struct run_result *);
/*
 * The "memory" member: the memory available before the run, the
 * cgroup's limit, what --lock-mem locked and whether that held
 * (lock_held as in struct record), and where the RAM a run assumes
 * (options.ram_bytes) comes from.
 */
void	record_write_memory(struct json *, const struct options *,
	    const struct sysinfo *, int lock_held);

#endif
