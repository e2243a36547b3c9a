/*
 * Other programs, started and waited for (include/spawn.h).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "platform.h"
#include "signals.h"
#include "spawn.h"
#include "timer.h"

#define ERR_KEEP	2048		/* The error output kept. */
#define FDS_MAX		16		/* Descriptors moved for a child. */
#define KILL_GRACE_S	5.0		/* After SIGTERM, before SIGKILL. */

/* A pipe whose ends close on exec. */
static int
cloexec_pipe(int p[2])
{
	if (pipe(p) == -1)
		return -1;
	(void)fcntl(p[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

int
spawn_found(const char *name)
{
	const char	*path = getenv("PATH"), *s, *e;
	char		 buf[PATH_MAX];

	if (strchr(name, '/') != NULL)
		return access(name, X_OK) == 0;
	if (path == NULL)
		path = "/usr/bin:/bin";
	for (s = path; *s != '\0'; s = *e != '\0' ? e + 1 : e) {
		e = strchr(s, ':');
		if (e == NULL)
			e = s + strlen(s);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - s), s, name);
		if (e > s && access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

/* In the child: descriptors in place, the rest closed.  -1 on failure. */
static int
child_fds(int in, int out, int err, const struct spawn_fd *fds, int nfds,
    int report)
{
	int	std[3], from[FDS_MAX], i, fd, null, maxfd;

	null = open("/dev/null", O_RDWR);
	std[0] = in >= 0 ? in : null;
	std[1] = out >= 0 ? out : null;
	std[2] = err >= 0 ? err : null;
	/* Out of the way of the numbers asked for, first. */
	for (i = 0; i < 3; i++)
		if ((std[i] = fcntl(std[i], F_DUPFD_CLOEXEC, 64)) == -1)
			return -1;
	if (nfds > FDS_MAX)
		return -1;
	for (i = 0; i < nfds; i++)
		if ((from[i] = fcntl(fds[i].from, F_DUPFD_CLOEXEC, 64)) == -1)
			return -1;
	for (i = 0; i < 3; i++)
		if (dup2(std[i], i) == -1)
			return -1;
	for (i = 0; i < nfds; i++)
		if (dup2(from[i], fds[i].to) == -1)
			return -1;
	maxfd = (int)sysconf(_SC_OPEN_MAX);
	if (maxfd < 0 || maxfd > 65536)
		maxfd = 65536;
	for (fd = 3; fd < maxfd; fd++) {
		if (fd == report)
			continue;
		for (i = 0; i < nfds && fds[i].to != fd; i++)
			;
		if (i == nfds)
			(void)close(fd);
	}
	return 0;
}

pid_t
spawn_start(char *const argv[], int in, int out, int err,
    const struct spawn_fd *fds, int nfds, int group, char **cause)
{
	pid_t	pid;
	int	p[2], e = 0;
	ssize_t	n;

	if (cloexec_pipe(p) == -1)
		return errorf(cause, "%s: pipe: %s", argv[0], strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		e = errno;
		close(p[0]);
		close(p[1]);
		return errorf(cause, "%s: fork: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		signals_default();
		platform_parent_death_signal(SIGKILL);
		if (group)
			(void)setpgid(0, 0);
		/* The parent may have died before the line above. */
		if (getppid() == 1)
			_exit(127);
		if (child_fds(in, out, err, fds, nfds, p[1]) == 0)
			execvp(argv[0], argv);
		e = errno;
		(void)!write(p[1], &e, sizeof(e));
		_exit(127);
	}
	if (group)
		(void)setpgid(pid, pid);	/* Either side may be first. */
	close(p[1]);
	while ((n = read(p[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(p[0]);
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
		return errorf(cause, "%s: %s", argv[0], strerror(e));
	}
	return pid;
}

/* The last line of what the child said, for the message. */
static const char *
last_line(char *buf, size_t len)
{
	char	*s;

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	buf[len] = '\0';
	s = strrchr(buf, '\n');
	return s != NULL ? s + 1 : buf;
}

int
spawn_run(char *const argv[], int in, int out, volatile sig_atomic_t *stop,
    char **cause)
{
	struct pollfd	 pfd;
	char		 buf[ERR_KEEP + 1], junk[4096];
	size_t		 len = 0;
	ssize_t		 n;
	pid_t		 pid;
	bn_time		 t0 = { 0 };
	int		 p[2], status, sent = 0;

	if (cloexec_pipe(p) == -1)
		return errorf(cause, "%s: pipe: %s", argv[0], strerror(errno));
	pid = spawn_start(argv, in, out, p[1], NULL, 0, 0, cause);
	close(p[1]);
	if (pid == -1) {
		close(p[0]);
		return -1;
	}
	pfd.fd = p[0];
	pfd.events = POLLIN;
	for (;;) {
		/* Asked to stop: SIGTERM (and SIGCONT, should it be stopped),
		   SIGKILL when it is still there after the grace. */
		if (stop != NULL && *stop && sent == 0) {
			(void)kill(pid, SIGTERM);
			(void)kill(pid, SIGCONT);
			t0 = time_now();
			sent = 1;
		} else if (sent == 1 &&
		    time_elapsed(t0, time_now()) > KILL_GRACE_S) {
			(void)kill(pid, SIGKILL);
			sent = 2;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(p[0], junk, sizeof(junk));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		/* Keep the last ERR_KEEP bytes. */
		if ((size_t)n >= ERR_KEEP) {
			memcpy(buf, junk + n - ERR_KEEP, ERR_KEEP);
			len = ERR_KEEP;
		} else {
			if (len + (size_t)n > ERR_KEEP) {
				memmove(buf, buf + len + (size_t)n - ERR_KEEP,
				    ERR_KEEP - (size_t)n);
				len = ERR_KEEP - (size_t)n;
			}
			memcpy(buf + len, junk, (size_t)n);
			len += (size_t)n;
		}
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return errorf(cause, "%s: waitpid: %s", argv[0],
			    strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		return errorf(cause, "%s: %s%s%s", argv[0],
		    signal_name(WTERMSIG(status)), len > 0 ? ": " : "",
		    last_line(buf, len));
	return errorf(cause, "%s: exit %d%s%s", argv[0], WEXITSTATUS(status),
	    len > 0 ? ": " : "", last_line(buf, len));
}
