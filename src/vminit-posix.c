/*
 * A guest's PID 1 elsewhere (include/vminit.h): bonnie-ng vm's guest is
 * Linux, so nothing here is ever asked for; each call says so.
 */
#include <stdlib.h>
#include <unistd.h>

#include "error.h"
#include "vminit.h"

static int
not_here(char **cause)
{
	return errorf(cause, "a vm guest's init runs on Linux only");
}

int
vminit_is_init(void)
{
	return getpid() == 1;
}

int
vminit_mounts(char **cause)
{
	return not_here(cause);
}

int
vminit_load_module(const char *path, char **cause)
{
	(void)path;
	return not_here(cause);
}

int
vminit_mount(const char *dev, const char *dir, const char *fstype,
    const char *options, char **cause)
{
	(void)dev;
	(void)dir;
	(void)fstype;
	(void)options;
	return not_here(cause);
}

int
vminit_umount(const char *dir, char **cause)
{
	(void)dir;
	return not_here(cause);
}

void
vminit_power_off(void)
{
	sync();
	exit(1);
}
