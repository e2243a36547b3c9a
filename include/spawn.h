/*
 * Other programs, run on the host by bonnie-ng vm: the tools it prepares
 * with (tar, xz, zstd, mkfs) and qemu itself.  A child has every
 * signal at its default (signals.h) and dies with this process
 * (platform_parent_death_signal()), so that none outlives it, even when
 * it is killed with SIGKILL.
 */
#ifndef BONNIE_SPAWN_H
#define BONNIE_SPAWN_H

#include <signal.h>
#include <sys/types.h>

/* A descriptor the child gets at a given number: from is dup2()ed to to. */
struct spawn_fd {
	int	from;
	int	to;
};

/*
 * Start argv[0] (searched in PATH) with in, out and err as its standard
 * descriptors (-1: /dev/null) and fds[] moved to their numbers, every
 * other descriptor closed; in a process group of its own when group.
 * The pid, or -1 with *cause ("NAME: No such file or directory" when it
 * could not be run).
 */
pid_t	spawn_start(char *const argv[], int in, int out, int err,
	    const struct spawn_fd *fds, int nfds, int group, char **cause);
/*
 * Run argv[0] to its end, its input from in and its output to out (-1:
 * /dev/null), its error output kept for the message.  0 when it exited 0; else -1 with *cause:
 * "NAME: exit N: its last line of error output", or "NAME: SIGNAL: that
 * line".
 * When *stop becomes set meanwhile, the child is sent SIGTERM.
 */
int	spawn_run(char *const argv[], int in, int out,
	    volatile sig_atomic_t *stop,
	    char **cause);
/* Whether a program of that name is in PATH (or is that path). */
int	spawn_found(const char *name);

#endif
