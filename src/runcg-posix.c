/*
 * The run's own cgroup elsewhere than Linux: there are no cgroups, so the
 * run's own figures are its processes' (getrusage), and each kind of the
 * cgroup's figures says why it is not known.
 */
#include <stdio.h>

#include "runcg.h"

static struct runcg_files	files;

static void
say_why(const char *why)
{
	snprintf(files.mem_why, sizeof(files.mem_why), "%s", why);
	snprintf(files.io_why, sizeof(files.io_why), "%s", why);
	snprintf(files.psi_why, sizeof(files.psi_why), "%s", why);
}

void
runcg_refuse(const char *why)
{
	say_why(why);
}

int
runcg_enter(void)
{
	if (files.mem_why[0] == '\0')
		say_why("not known on this system (no cgroups): the run's own "
		    "figures are its processes' (getrusage)");
	return -1;
}

const struct runcg_files *
runcg_files(void)
{
	return &files;
}

int
runcg_exclude(pid_t pid)
{
	(void)pid;
	return 0;
}

void
runcg_leave(void)
{
}
