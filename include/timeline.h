/*
 * The timeline of a phase: a sampler outside the timed loops records,
 * every interval, the work done so far (the phase's own progress
 * counter, or its seekers'), nr_dirty, nr_writeback, and the device's
 * requests in flight and sectors done.  The sampler is a process forked
 * just before the phase's clock starts and told to stop by closing a
 * pipe when it ends, never a thread (a second thread would switch stdio
 * to locking and slow the per-char phases).  It writes into a mapping
 * shared with the run; a phase keeps at most TL_MAX samples, neighbours
 * merged in pairs whenever it fills, and says how many each is.
 */
#ifndef BONNIE_TIMELINE_H
#define BONNIE_TIMELINE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "kstat.h"

/*
 * --interval's bounds (0 is off); its default is its row's in the
 * settings table (src/settings.c).
 */
#define TL_MIN_S	0.01
#define TL_MAX_S	60.0

/*
 * A run's sampler: interval seconds (0: none, NULL returned), and as
 * many progress counters (one per worker of a team on this host) as a
 * phase's timed loops store into; made before the workers are forked.
 */
struct timeline;
struct timeline	*timeline_new(double interval, int counters);
/*
 * The same in a mapping the caller made (timeline_size() bytes, zeroed,
 * MAP_SHARED: a team's host shares it, team_host_map()), which it takes
 * (NULL: the mapping is unmapped).
 */
size_t		 timeline_size(int counters);
struct timeline	*timeline_new_at(double interval, int counters, void *map);
void		 timeline_free(struct timeline *);
_Atomic uint64_t *timeline_counter(struct timeline *, int);
/*
 * Start sampling: dev is the device to follow ("" none); the work done
 * is the counters' sum, or when base is not NULL the sum of n uint64_t
 * at base, stride bytes apart (the seekers' results); n < 0: not known
 * (null).  0, or -1 (no timeline).
 */
int	timeline_start(struct timeline *, const char *dev, const void *base,
	    size_t stride, int n);
/*
 * Stop it and hand back a copy of the samples (NULL: none).  A sampler
 * that does not end within CHILD_END_MS of being told (stopped) is
 * killed.
 */
struct kstat_timeline *timeline_stop(struct timeline *);
/*
 * Why the last phase has no timeline although one was asked for (its
 * sampler not started, stopped and killed, killed): a sentence, or NULL.
 */
const char *timeline_why(const struct timeline *);

/* --interval: "100ms", "0.5s", bare milliseconds, 0 off.  0 or -1. */
int	timeline_interval_parse(const char *, double *seconds, char **why);

#endif
