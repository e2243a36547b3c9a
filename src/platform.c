/*
 * The portable part of the platform layer: what sysconf(3) tells on every
 * POSIX system, in one place for the core, sweep and the system
 * description.
 */
#include <stdint.h>
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
