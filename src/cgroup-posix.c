/*
 * The run's own cgroup elsewhere than Linux: there are no cgroups, so the
 * run's own figures are its processes' (getrusage), and each kind of the
 * cgroup's figures says why it is not known.
 */
#include <stdio.h>

#include "cgroup.h"

static struct cgroup_files	files;

static void
say_why(const char *why)
{
	snprintf(files.mem_why, sizeof(files.mem_why), "%s", why);
	snprintf(files.io_why, sizeof(files.io_why), "%s", why);
	snprintf(files.psi_why, sizeof(files.psi_why), "%s", why);
}

void
cgroup_refuse(const char *why)
{
	say_why(why);
}

int
cgroup_enter(void)
{
	if (files.mem_why[0] == '\0')
		say_why("not known on this system (no cgroups): the run's own "
		    "figures are its processes' (getrusage)");
	return -1;
}

const struct cgroup_files *
cgroup_files(void)
{
	return &files;
}

int
cgroup_exclude(pid_t pid)
{
	(void)pid;
	return 0;
}

void
cgroup_leave(void)
{
}
