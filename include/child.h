/*
 * A helper process's end: the run's own children (the timeline's sampler,
 * the --lock-mem helper, a portable queue's workers) are told to end by
 * a closed pipe and then reaped, but a child stopped by SIGSTOP or a
 * debugger would hold the run in waitpid(2) for as long as it stays
 * stopped.  child_end() waits a bounded time and kills what does not end.
 */
#ifndef BONNIE_CHILD_H
#define BONNIE_CHILD_H

#include <sys/types.h>

#include <stddef.h>

/* How long a child told to end may take, in milliseconds. */
#define CHILD_END_MS	5000

/*
 * Reap pid, waiting at most ms for it to end.  A child seen stopped, or
 * still there after ms, is killed (SIGKILL ends a stopped process too)
 * and reaped: *stopsig is the signal that stopped it (0: it was not seen
 * stopped).  0 when it ended by itself (its wait status in *status),
 * 1 when it was killed, -1 when it could not be waited for (errno:
 * ECHILD when something else reaped it).
 */
int	child_end(pid_t pid, int ms, int *status, int *stopsig);

/*
 * How a child ended, after who ("the timeline's sampler (process 123)"):
 * "was stopped by SIGSTOP; killed", "did not end within 5 s; killed",
 * "was killed by signal 9 (Killed)", "exited with status 1"; r is
 * child_end()'s answer.  Empty when it exited 0 by itself.
 */
void	child_words(char *buf, size_t len, const char *who, int r,
	    int status, int stopsig, int ms);

#endif
