/*
 * The run's own cgroup: bonnie-ng puts itself, and so every worker and
 * seeker it forks after, in a cgroup of its own for the run, so that the
 * kernel's account can tell the run's memory, I/O and stalls from the
 * rest of the machine's.  cgroup-linux.c makes "bonnie-ng.PID" under
 * this process's cgroup in each hierarchy that gives the run a figure of
 * its own (cgroup v2's pressure files, and its memory.stat and io.stat
 * where its parent hands it those controllers; else the v1 memory
 * controller's memory.stat), moves the process in, and out again and
 * removes it on every way out; cgroup-posix.c says why there is none.
 */
#ifndef BONNIE_CGROUP_H
#define BONNIE_CGROUP_H

#include <sys/types.h>

#define RCG_PATH	512	/* A cgroup's directory. */
#define RCG_NAME	256	/* Its path in its hierarchy. */
#define RCG_WHY		320	/* Why the run has no such file. */

/* Where the run's own figures are; "" with the reason where none is. */
struct cgroup_files {
	char	 mem[RCG_PATH];		/* memory.stat's directory. */
	int	 mem_v2;
	char	 mem_name[RCG_NAME];
	char	 mem_why[RCG_WHY];
	/*
	 * The nearest cgroup at or above the one bonnie-ng was started in
	 * that limits memory (memory.max, memory.limit_in_bytes): its
	 * limit is the run's; "" none.
	 */
	char	 limit[RCG_PATH];
	int	 limit_v2;
	char	 limit_name[RCG_NAME];
	char	 io[RCG_PATH];		/* io.stat's directory (v2). */
	char	 io_name[RCG_NAME];
	char	 io_why[RCG_WHY];
	char	 psi[RCG_PATH];		/* The *.pressure files' (v2). */
	char	 psi_name[RCG_NAME];
	char	 psi_why[RCG_WHY];
};

/*
 * Make the run's cgroups and move this process into them, once per
 * process (later calls only return): 0 when at least one was made, -1
 * when none (cgroup_files() says why for each).  The cgroups are left
 * and removed at exit, or by cgroup_leave().
 */
int	cgroup_enter(void);
/* Never make one (MPI: the ranks are not this process's children). */
void	cgroup_refuse(const char *why);
/* What cgroup_enter() made: every field "" and a reason before it ran. */
const struct cgroup_files *cgroup_files(void);
/*
 * Move pid (a child that is not the run's work: the timeline's sampler)
 * back to the cgroups the run came from: 0, or -1.
 */
int	cgroup_exclude(pid_t pid);
/*
 * Move this process back and remove the run's cgroups; safe in a signal
 * handler, and a no-op in any process but the one that made them.
 */
void	cgroup_leave(void);

#endif
