/*
 * The fault injector's hooks of the process's other calls (inject.c says
 * what BN_FAULT holds): unlink and unlinkat by the file's name, fork,
 * pthread_create and pipe on every call, and a CPU clock's reading.
 */
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "inject.h"

static void	*real_unlink, *real_unlinkat, *real_fork,
		*real_pthread_create, *real_pipe, *real_clock_gettime;

/*
 * unlink, unlinkat: by the name, like open.  fork, pthread_create: every
 * call counts.  Each fails with the spec's errno, or sleeps first; with
 * after, a sleep is the caller's to do (*after), after its call.
 */
static int
other_fault(enum kind k, int *hold, struct spec **after)
{
	struct spec	*s;

	if (hold != NULL)
		*hold = 0;
	if (after != NULL)
		*after = NULL;
	if (!active[k] || (s = fault_for(k)) == NULL)
		return 0;
	log_fault(s, -1, 0);
	if (s->action == A_HOLD && hold != NULL) {
		*hold = 1;
		return 0;
	}
	if (s->action == A_SLEEP && after != NULL) {
		*after = s;
		return 0;
	}
	if (s->action == A_SLEEP) {
		do_sleep(s);
		return 0;
	}
	if (s->action != A_ERRNO)
		return 0;
	return s->err;
}

typedef int	(*unlink_fn)(const char *);
typedef int	(*unlinkat_fn)(int, const char *, int);
typedef pid_t	(*fork_fn)(void);

/*
 * unlink's hold: a descriptor on the file, never closed, opened by the
 * system call itself so that no open hook counts it.
 */
static void
hold_open(int dfd, const char *path)
{
	(void)syscall(SYS_openat, dfd, path, O_RDONLY | O_CLOEXEC);
}

int
unlink(const char *path)
{
	int	e, hold = 0;

	if (is_test_name(path) &&
	    (e = other_fault(K_UNLINK, &hold, NULL)) != 0) {
		errno = e;
		return -1;
	}
	if (hold)
		hold_open(AT_FDCWD, path);
	return REAL(unlink_fn, unlink)(path);
}

int
unlinkat(int dfd, const char *path, int flags)
{
	int	e, hold = 0;

	if (is_test_name(path) &&
	    (e = other_fault(K_UNLINK, &hold, NULL)) != 0) {
		errno = e;
		return -1;
	}
	if (hold)
		hold_open(dfd, path);
	return REAL(unlinkat_fn, unlinkat)(dfd, path, flags);
}

/*
 * fork: an error instead of the fork; a sleep or a wait comes after it,
 * in the parent only, so that the child runs while the parent has not yet
 * seen its pid (a stop signal then finds the parent there).
 */
pid_t
fork(void)
{
	struct spec	*after;
	pid_t		 pid;
	int		 e;

	if ((e = other_fault(K_FORK, NULL, &after)) != 0) {
		errno = e;
		return -1;
	}
	pid = REAL(fork_fn, fork)();
	if (pid > 0 && after != NULL)
		do_sleep(after);
	return pid;
}

typedef int	(*pipe_fn)(int[2]);

int
pipe(int fds[2])
{
	int	e;

	if ((e = other_fault(K_PIPE, NULL, NULL)) != 0) {
		errno = e;
		return -1;
	}
	return REAL(pipe_fn, pipe)(fds);
}

int
pthread_create(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	int	e;

	if ((e = other_fault(K_THREAD, NULL, NULL)) != 0)
		return e;
	return REAL(pthread_create_fn, pthread_create)(t, attr, fn, arg);
}

typedef int	(*clock_fn)(clockid_t, struct timespec *);

/* A CPU clock that reads K times its value (cpuclock:N:scale=K). */
int
clock_gettime(clockid_t id, struct timespec *ts)
{
	struct spec	*s;
	long long	 ns;
	int		 r;

	r = REAL(clock_fn, clock_gettime)(id, ts);
	if (r != 0 || !active[K_CPUCLOCK] || (id != CLOCK_THREAD_CPUTIME_ID &&
	    id != CLOCK_PROCESS_CPUTIME_ID) ||
	    (s = fault_for(K_CPUCLOCK)) == NULL || s->action != A_SCALE)
		return r;
	if (atomic_exchange(&s->logged, 1) == 0)
		log_fault(s, -1, -1);
	ns = ((long long)ts->tv_sec * 1000000000LL + ts->tv_nsec) * s->delta;
	ts->tv_sec = (time_t)(ns / 1000000000LL);
	ts->tv_nsec = (long)(ns % 1000000000LL);
	return 0;
}
