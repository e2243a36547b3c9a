/*
 * Cold seeks: which chunks a seek may have left in the cache.  The
 * seekers share a bit for each unit a drop takes (a chunk, or a page when
 * chunks are not whole pages), set by the seek that reads it; a seek whose
 * chunk some seek read before drops it first, outside its time, and a
 * chunk read once is never dropped: a drop after every seek cost about
 * 20 us of system time on the host-cached disk of bench/RESULTS.md, most
 * of a default run's CPU outside its phases.  The bits are never cleared,
 * so a chunk is dropped before every read but its first; up to keep_max
 * bytes of chunks stay cached this way, and past that each seek drops its
 * chunk after it too.  The run drops the whole file after the phase.
 */
#ifndef BONNIE_SEEK_CACHE_H
#define BONNIE_SEEK_CACHE_H

#include <stdint.h>

struct seek_cache;

/*
 * A map for a file of size bytes read in chunks; page is what a drop
 * takes at least.  In memory shared with forked seekers.  NULL (errno
 * set) when it cannot be had: then every seek drops its chunk after it.
 */
struct seek_cache *seek_cache_new(uint64_t size, uint64_t chunk,
	    uint64_t page, uint64_t keep_max);
void	seek_cache_free(struct seek_cache *);

/*
 * A seek is about to read the chunk at off: 1 when some seek read one of
 * its units before (drop it first), else 0; *after is set when the chunk
 * must be dropped after the read (it takes the bytes kept past keep_max).
 */
int	seek_cache_mark(struct seek_cache *, uint64_t off, int *after);

/* The bytes the map lets stay cached (for the tests). */
uint64_t seek_cache_kept(struct seek_cache *);

#endif
