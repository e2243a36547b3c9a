/*
 * A helper process's end, bounded (see include/child.h).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "child.h"
#include "signals.h"

int
child_end(pid_t pid, int ms, int *status, int *stopsig)
{
	struct timespec	step = { 0, 10000000 };
	pid_t		r;
	int		i;

	*stopsig = 0;
	for (i = 0; i <= ms / 10; i++) {
		r = waitpid(pid, status, WNOHANG | WUNTRACED);
		if (r == pid && WIFSTOPPED(*status)) {
			*stopsig = WSTOPSIG(*status);
			break;
		}
		if (r == pid)
			return 0;
		if (r == -1 && errno != EINTR)
			return -1;
		if (i < ms / 10)
			nanosleep(&step, NULL);
	}
	kill(pid, SIGKILL);
	while ((r = waitpid(pid, status, 0)) == -1 && errno == EINTR)
		;
	return r == pid ? 1 : -1;
}

void
child_words(char *buf, size_t len, const char *who, int r, int status,
    int stopsig, int ms)
{
	if (r == 1 && stopsig != 0)
		snprintf(buf, len, "%s was stopped by %s; killed", who,
		    signal_name(stopsig));
	else if (r == 1)
		snprintf(buf, len, "%s did not end within %d s; killed", who,
		    ms / 1000);
	else if (r == -1)
		snprintf(buf, len, "%s could not be waited for: %s", who,
		    strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "%s was killed by signal %d (%s)", who,
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		snprintf(buf, len, "%s exited with status %d", who,
		    WEXITSTATUS(status));
	else if (len > 0)
		buf[0] = '\0';
}
