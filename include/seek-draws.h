/*
 * The seekers' chunks: one draw of the seeker's own generator per seek, in
 * the order the seeks start, the same for the loop, the queued loop and
 * the count of repeats after the phase.
 */
#ifndef BONNIE_SEEK_DRAWS_H
#define BONNIE_SEEK_DRAWS_H

#include <stddef.h>
#include <stdint.h>

#include "phase-ctx.h"

/* Seeker i's generator, of the run's seed. */
void	seek_rng(uint64_t seed, int i, struct rng *);
/* The next chunk it draws, of nchunks. */
uint64_t seek_next_chunk(struct rng *, uint64_t nchunks);

/*
 * After the seeks: the reads of a chunk that some seeker had read
 * before, counted from the seekers' seeds and their seeks done (seeker
 * i's count at ops + i * stride bytes), not in the timed loop, where a
 * bitmap shared by the seekers cost a cache line moved between cores on
 * most seeks.  seen: a zeroed bitmap of a bit per chunk, left marked.
 */
uint64_t seek_repeats(uint64_t seed, uint64_t nchunks, int n,
	    const uint64_t *ops, size_t stride, unsigned char *seen);

#endif
