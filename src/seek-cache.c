/*
 * The cold seekers' map of what may be cached (include/seek-cache.h).
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "seek-cache.h"

struct seek_cache {
	atomic_ullong	kept;		/* Units marked, at most max. */
	uint64_t	unit;		/* Bytes a bit stands for. */
	uint64_t	chunk;
	uint64_t	max;		/* Units that may stay cached. */
	size_t		len;		/* Of the mapping. */
	atomic_uchar	bits[];
};

struct seek_cache *
seek_cache_new(uint64_t size, uint64_t chunk, uint64_t page,
    uint64_t keep_max)
{
	struct seek_cache	*m;
	uint64_t		 unit, units;
	size_t			 len;
	void			*p;

	if (chunk == 0) {
		errno = EINVAL;
		return NULL;
	}
	unit = page > 0 && chunk % page != 0 ? page : chunk;
	units = (size + unit - 1) / unit;
	if (units / 8 > SIZE_MAX - sizeof(*m) - 1) {
		errno = ENOMEM;
		return NULL;
	}
	len = sizeof(*m) + (size_t)(units / 8) + 1;
	/* Shared with forked seekers; zero pages until a seek marks one. */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON,
	    -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	m = p;
	atomic_init(&m->kept, 0);
	m->unit = unit;
	m->chunk = chunk;
	m->max = keep_max / unit;
	m->len = len;
	return m;
}

void
seek_cache_free(struct seek_cache *m)
{
	if (m != NULL)
		munmap(m, m->len);
}

int
seek_cache_mark(struct seek_cache *m, uint64_t off, int *after)
{
	uint64_t	u, last = (off + m->chunk - 1) / m->unit, fresh = 0;
	unsigned char	bit, old;
	int		again = 0;

	for (u = off / m->unit; u <= last; u++) {
		bit = (unsigned char)(1u << (u % 8));
		old = atomic_fetch_or(&m->bits[u / 8], bit);
		if (old & bit)
			again = 1;
		else
			fresh++;
	}
	*after = fresh > 0 && atomic_fetch_add(&m->kept, fresh) + fresh > m->max;
	return again;
}

uint64_t
seek_cache_kept(struct seek_cache *m)
{
	uint64_t	k = atomic_load(&m->kept);

	return (k < m->max ? k : m->max) * m->unit;
}
