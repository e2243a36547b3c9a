/*
 * The seekers' chunks, drawn from one generator per seeker
 * (include/seek-draws.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "phase-ctx.h"
#include "seek-draws.h"

void
seek_rng(uint64_t seed, int i, struct rng *rng)
{
	rng_seed(rng, seed ^ (0x5EEC0000ull + (uint64_t)i));
}

uint64_t
seek_next_chunk(struct rng *rng, uint64_t nchunks)
{
	return rng_next(rng) % nchunks;
}

uint64_t
seek_repeats(uint64_t seed, uint64_t nchunks, int n, const uint64_t *ops,
    size_t stride, unsigned char *seen)
{
	struct rng	 rng;
	const char	*p = (const char *)ops;
	uint64_t	 k, c, done, repeats = 0;
	unsigned char	 bit;
	int		 i;

	for (i = 0; i < n; i++) {
		seek_rng(seed, i, &rng);
		done = *(const uint64_t *)(const void *)(p + (size_t)i * stride);
		for (k = 0; k < done; k++) {
			c = seek_next_chunk(&rng, nchunks);
			bit = (unsigned char)(1u << (c % 8));
			if (seen[c / 8] & bit)
				repeats++;
			seen[c / 8] |= bit;
		}
	}
	return repeats;
}
