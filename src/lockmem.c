/*
 * The --lock-mem helper (see lockmem.h): a forked process that locks
 * memory, says so on one pipe and waits for the end of file on another.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "error.h"
#include "lockmem.h"
#include "platform.h"
#include "signals.h"

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS	MAP_ANON
#endif

/* The write end of the running helper's life pipe, or -1. */
static int	life_fd = -1;
static int	atfork_set;

/* In every forked child: only this process may keep the helper alive. */
static void
close_life(void)
{
	if (life_fd != -1) {
		close(life_fd);
		life_fd = -1;
	}
}

/*
 * The helper: lock, report an errno (0: locked) on status, wait for the
 * end of file on life, exit.  It dies with its parent: the death signal
 * is asked for first, then the parent checked, so a parent that died
 * before the request is seen too.
 */
static void __attribute__((noreturn))
helper(int life, int status, pid_t parent, uint64_t bytes)
{
	sigset_t	 all;
	struct rlimit	 rl;
	unsigned char	*p;
	long		 pg = sysconf(_SC_PAGESIZE);
	uint64_t	 off;
	int		 e = 0, fd;
	char		 c;
	ssize_t		 n;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	platform_parent_death_signal(SIGKILL);
	if (getppid() != parent)
		_exit(0);
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_MEMLOCK, &rl);
	}
	if (pg <= 0)
		pg = 4096;
	p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || platform_lock_memory(p, (size_t)bytes) == -1)
		e = errno;
	else
		for (off = 0; off < bytes; off += (uint64_t)pg)
			p[off] = 1;
	if (write(status, &e, sizeof(e)) != (ssize_t)sizeof(e) || e != 0)
		_exit(1);
	close(status);
	do
		n = read(life, &c, 1);
	while (n == -1 && errno == EINTR);
	_exit(0);
}

/* Reap the helper, waiting for it. */
static void
reap(struct lockmem *lk)
{
	pid_t	r;

	do
		r = waitpid(lk->pid, &lk->status, 0);
	while (r == -1 && errno == EINTR);
}

int
lockmem_start(struct lockmem *lk, uint64_t bytes, int *limited, char **cause)
{
	struct rlimit	rl;
	sigset_t	old;
	pid_t		pid, me = getpid();
	int		life[2], st[2], e = 0, i;
	ssize_t		n;

	memset(lk, 0, sizeof(*lk));
	*limited = 0;
	if ((uint64_t)(size_t)bytes != bytes)
		return errorf(cause, "--lock-mem: %llu bytes do not fit in "
		    "memory here", (unsigned long long)bytes);
	if (pipe(life) == -1)
		return errorf(cause, "--lock-mem: pipe: %s", strerror(errno));
	if (pipe(st) == -1) {
		e = errno;
		close(life[0]);
		close(life[1]);
		return errorf(cause, "--lock-mem: pipe: %s", strerror(e));
	}
	for (i = 0; i < 2; i++) {
		fcntl(life[i], F_SETFD, FD_CLOEXEC);
		fcntl(st[i], F_SETFD, FD_CLOEXEC);
	}
	if (!atfork_set && pthread_atfork(NULL, NULL, close_life) == 0)
		atfork_set = 1;
	signals_block(&old);
	pid = fork();
	if (pid == 0) {
		close(life[1]);
		close(st[0]);
		helper(life[0], st[1], me, bytes);
	}
	e = errno;
	signals_restore(&old);
	close(life[0]);
	close(st[1]);
	if (pid == -1) {
		close(life[1]);
		close(st[0]);
		return errorf(cause, "--lock-mem: fork the helper: %s",
		    strerror(e));
	}
	lk->pid = pid;
	do
		n = read(st[0], &e, sizeof(e));
	while (n == -1 && errno == EINTR);
	close(st[0]);
	if (n == (ssize_t)sizeof(e) && e == 0) {
		life_fd = life[1];
		lk->bytes = bytes;
		return 0;
	}
	close(life[1]);
	reap(lk);
	lk->pid = 0;
	if (n != (ssize_t)sizeof(e))
		return errorf(cause, "--lock-mem: the helper died before it "
		    "locked %llu MiB", (unsigned long long)(bytes >> 20));
	if ((e == ENOMEM || e == EPERM || e == EAGAIN) &&
	    getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_max != RLIM_INFINITY &&
	    (uint64_t)rl.rlim_max < bytes) {
		*limited = 1;
		return errorf(cause, "--lock-mem: cannot lock %llu MiB: %s "
		    "(RLIMIT_MEMLOCK is %llu KiB and this process may not "
		    "pass it: raise it with ulimit -l, or run with "
		    "CAP_IPC_LOCK)", (unsigned long long)(bytes >> 20),
		    strerror(e), (unsigned long long)(rl.rlim_max >> 10));
	}
	return errorf(cause, "--lock-mem: cannot lock %llu MiB: %s",
	    (unsigned long long)(bytes >> 20), strerror(e));
}

int
lockmem_alive(struct lockmem *lk)
{
	pid_t	r;

	if (lk->pid == 0 || lk->died)
		return 0;
	do
		r = waitpid(lk->pid, &lk->status, WNOHANG);
	while (r == -1 && errno == EINTR);
	if (r == 0)
		return 1;
	lk->died = 1;
	return 0;
}

/*
 * Wait for the helper to end once its pipe is closed, for at most
 * CHILD_END_MS: a helper stopped (SIGSTOP, a debugger) would keep the run
 * waiting forever after its report.  One that does not end in time is
 * killed and marked late.
 */
static void
reap_bounded(struct lockmem *lk)
{
	int	stopped;

	if (child_end(lk->pid, CHILD_END_MS, &lk->status, &stopped) != 1)
		return;
	lk->late = 1;
	lk->stop_sig = stopped;
}

int
lockmem_end(struct lockmem *lk)
{
	int	alive;

	if (lk->pid == 0)
		return 0;
	alive = lockmem_alive(lk);
	close_life();
	if (alive)
		reap_bounded(lk);
	lk->pid = 0;
	return alive;
}
