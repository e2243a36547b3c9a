/*
 * Who uses a device or a file (--device), on other POSIX systems: not
 * known, so nothing is refused for it (the O_EXCL claim, where there is
 * one, still is).  Declared in platform.h.
 */
#include <sys/types.h>

#include <errno.h>

#include "platform.h"

int
platform_device_in_use(dev_t rdev, char *why, size_t len)
{
	(void)rdev;
	(void)why;
	(void)len;
	errno = ENOSYS;
	return -1;
}

int
platform_file_in_use(dev_t dev, ino_t ino, char *why, size_t len)
{
	(void)dev;
	(void)ino;
	(void)why;
	(void)len;
	errno = ENOSYS;		/* Not known: no portable list of users. */
	return -1;
}
