/*
 * The portable part of the platform layer: what sysconf(3) tells on every
 * POSIX system, in one place for the core, sweep and the system
 * description.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "platform.h"

int
platform_ncpu(void)
{
	long	n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 && n <= INT32_MAX ? (int)n : -1;
}

uint64_t
platform_ram(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long	pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages > 0 && size > 0 &&
	    (uint64_t)pages <= INT64_MAX / (uint64_t)size)
		return (uint64_t)pages * (uint64_t)size;
#endif
	return 0;
}

/*
 * Widen [*off, *off + *len) to the whole pages that hold it:
 * POSIX_FADV_DONTNEED drops only the pages wholly inside its range, so a
 * chunk smaller than a page would never be dropped.
 */
void
platform_page_span(uint64_t *off, uint64_t *len)
{
	long		page = sysconf(_SC_PAGESIZE);
	uint64_t	end = *off + *len;

	if (page <= 0)
		return;
	*off -= *off % (uint64_t)page;
	end += (uint64_t)page - 1;
	end -= end % (uint64_t)page;
	*len = end - *off;
}

int
platform_oom_since(const int64_t *before, char *why, size_t len)
{
	int64_t	cg, sys;

	platform_oom_kills(&cg, &sys);
	if (before[0] >= 0 && cg > before[0])
		snprintf(why, len, "the memory cgroup's oom_kill %lld -> %lld",
		    (long long)before[0], (long long)cg);
	else if (before[1] >= 0 && sys > before[1])
		snprintf(why, len, "the machine's oom_kill %lld -> %lld",
		    (long long)before[1], (long long)sys);
	else
		return 0;
	return 1;
}
