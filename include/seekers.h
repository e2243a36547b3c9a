/*
 * Random seekers: N workers, forked processes or threads, started
 * together, each reading random chunks of the test file through its own
 * descriptor and writing every tenth one back.
 */
#ifndef BONNIE_SEEKERS_H
#define BONNIE_SEEKERS_H

#include <stdint.h>

#include "options.h"
#include "seeker.h"

/*
 * Run n seekers in the given mode and wait for all of them.  res points
 * to n results, in memory from seekers_alloc().  *idle_ns is set to the
 * time between the first seeker's start and the last one's end in which
 * no seeker was seeking (every one was dropping a chunk, had not started
 * or had finished).  Returns 0, or -1 with a message in *cause (a seeker's
 * error, a seeker that died, or EINTR when a signal stopped the phase).
 */
int	seekers_run(const struct seek_job *, enum seeker_mode, int n,
	    struct seeker_result *res, uint64_t *idle_ns, char **cause);

/* Memory for n results, shared with forked children; NULL on failure. */
struct seeker_result *seekers_alloc(int n);
void	seekers_free(struct seeker_result *, int n);

/* A bitmap of n bits, zeroed; NULL on failure. */
unsigned char *seekers_bitmap_alloc(uint64_t n);
void	seekers_bitmap_free(unsigned char *, uint64_t n);

/* Kill every forked seeker now; async-signal-safe. */
void	seekers_kill_all(void);

#endif
