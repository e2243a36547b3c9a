/*
 * Launching seekers as processes or threads around the one seeker
 * worker both modes run (seeker.c), and waiting for them.  The work and
 * the accounting are the same in both: each seeker measures its own span
 * and reads its own CPU clock around its seeks, so no CPU is counted
 * twice.  The seekers also keep one clock in
 * common: how many of them are seeking (not dropping a chunk) and the time
 * inside the span in which none was.  The phase's time is the span less
 * that time, the seconds in which some seeker was seeking, and its CPU is
 * the seekers' CPU outside their drops, spent within those same seconds,
 * so %CPU can never exceed 100 times the seekers or the cores.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "ioq.h"
#include "options.h"
#include "phase-ctx.h"
#include "platform.h"
#include "queue.h"
#include "seek-cache.h"
#include "seek-draws.h"
#include "seeker.h"
#include "seekers.h"
#include "signals.h"

/* Forked seekers, for seekers_kill_all() from a signal handler. */
static pid_t			seeker_pids[MAX_SEEKERS];
static volatile sig_atomic_t	seeker_npids;

void
seekers_kill_all(void)
{
	int	i;

	for (i = 0; i < seeker_npids; i++)
		if (seeker_pids[i] > 0)
			kill(seeker_pids[i], SIGKILL);
}

struct seeker_result *
seekers_alloc(int n)
{
	void	*p;

	p = mmap(NULL, sizeof(struct seeker_result) * (size_t)n,
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	return p;
}

void
seekers_free(struct seeker_result *r, int n)
{
	if (r != NULL)
		munmap(r, sizeof(*r) * (size_t)n);
}

unsigned char *
seekers_bitmap_alloc(uint64_t n)
{
	void	*p;

	p = mmap(NULL, (size_t)((n + 7) / 8), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	return p;
}

void
seekers_bitmap_free(unsigned char *b, uint64_t n)
{
	if (b != NULL)
		munmap(b, (size_t)((n + 7) / 8));
}

/* Format a seeker's failure from its slot: the call, its error, where. */
static int
seeker_error(const struct seek_job *job, int i,
    const struct seeker_result *r, char **cause)
{
	char	at[64] = "";

	if (r->err_errno == EINTR)
		return errorf(cause, "interrupted");
	if (r->err_detail[0] != '\0')
		return errorf(cause, "%s: data check failed %s (seeker %d)",
		    job->path, r->err_detail, i);
	if (r->err_what[0] == '\0')
		return errorf(cause, "%s: seeker %d failed", job->path, i);
	if (r->err_offset >= 0)
		snprintf(at, sizeof(at), "at byte %lld, ",
		    (long long)r->err_offset);
	return errorf(cause, "%s: %s: %s (%sseeker %d)", job->path,
	    r->err_what, strerror(r->err_errno), at, i);
}

/* The first seeker whose slot names a cause, or -1. */
static int
seeker_first_cause(int n, const struct seeker_result *res)
{
	int	i;

	for (i = 0; i < n; i++)
		if ((res[i].err_errno != 0 && res[i].err_errno != EINTR) ||
		    res[i].err_detail[0] != '\0')
			return i;
	return -1;
}

/* Processes. */

static void
child_signals(void)
{
	signals_default();
	platform_die_with_parent();
	/* The run's process, which holds the record, is the last to go. */
	(void)platform_oom_victim_first();
}

/*
 * fork(2) with the terminating signals blocked until the child has put
 * their default actions back: the run's handler, which removes the test
 * file, never runs in a seeker.
 */
static pid_t
fork_seeker(void)
{
	sigset_t	old;
	pid_t		pid;
	int		e;

	signals_block(&old);
	pid = fork();
	e = errno;
	if (pid == 0)
		child_signals();
	signals_restore(&old);
	errno = e;
	return pid;
}

static void
child_main(struct seeker *s, int ready_fd, int go_fd, pid_t parent)
{
	char	c = 'r';
	ssize_t	n;

	if (seeker_prepare(s) == -1)
		_exit(1);
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	close(ready_fd);
	/* The parent closes its end of the go pipe to start everyone. */
	do
		n = read(go_fd, &c, 1);
	while (n == -1 && errno == EINTR);
	close(go_fd);
	if (getppid() != parent)
		_exit(1);
	if (seeker_work(s) == -1)
		_exit(1);
	seeker_finish(s);
	s->res->ok = s->res->err_errno == 0;
	_exit(s->res->ok ? 0 : 1);
}

/*
 * waitpid(2) for which; with a progress callback, poll and report the
 * seeks done so far while waiting.  A signal makes it return -1 (EINTR).
 */
static pid_t
wait_seekers(const struct seek_job *job, pid_t which, int *status, int n,
    const struct seeker_result *res)
{
	struct timespec	 tick = { 0, 250000000 };
	uint64_t	 done;
	pid_t		 pid;
	int		 i;

	if (job->progress == NULL)
		return waitpid(which, status, 0);
	while ((pid = waitpid(which, status, WNOHANG)) == 0) {
		for (i = 0, done = 0; i < n; i++)
			done += res[i].ops;
		job->progress(job->progress_arg, done);
		if (nanosleep(&tick, NULL) == -1)
			return -1;
	}
	return pid;
}

/*
 * Reap every child, killing the rest once one fails.  A child that dies
 * of the SIGKILL this process sent (killed set) is not a cause; a cause
 * a seeker wrote in its slot comes before a death.
 */
static int
reap_children(const struct seek_job *job, int n, struct seeker_result *res,
    int killed, const int64_t *oom0, char **cause)
{
	int		 i, status, failed = -1, reaped = 0, sk = -1;
	char		why[128] = "";
	pid_t		pid, skpid = 0;

	while (reaped < n) {
		if (bn_stop_signal && !killed) {
			seekers_kill_all();
			killed = 1;
		}
		pid = wait_seekers(job, -1, &status, n, res);
		if (pid == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n && seeker_pids[i] != pid; i++)
			;
		if (i == n)
			continue;
		seeker_pids[i] = 0;
		reaped++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		if (sk == -1 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL) {
			sk = i;
			skpid = pid;
		}
		if (killed && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL)
			continue;
		if (failed == -1) {
			failed = i;
			if (WIFSIGNALED(status))
				snprintf(why, sizeof(why), "seeker %d (pid %ld) "
				    "killed by signal %d (%s)", i, (long)pid,
				    WTERMSIG(status), strsignal(WTERMSIG(status)));
		}
		if (!killed) {
			seekers_kill_all();
			killed = 1;
		}
	}
	seeker_npids = 0;
	if (bn_stop_signal)
		return errorf(cause, "interrupted");
	if (sk != -1 && platform_oom_since(oom0, why, sizeof(why)))
		return errorf(cause, "%s: seeker %d (pid %ld) was killed by "
		    "the OOM killer (%s)", job->path, sk, (long)skpid, why);
	if ((i = seeker_first_cause(n, res)) != -1)
		return seeker_error(job, i, &res[i], cause);
	if (failed == -1)
		return 0;
	if (why[0] != '\0')
		return errorf(cause, "%s: %s", job->path, why);
	return seeker_error(job, failed, &res[failed], cause);
}

static int
run_processes(const struct seek_job *job, int n, struct seeker_result *res,
    struct seek_share *share, char **cause)
{
	struct seeker	s;
	int		ready[2], go[2], i, got = 0, killed = 0, fork_errno = 0;
	int		rv;
	int64_t		oom0[2];
	pid_t		pid, parent = getpid();
	char		c;
	ssize_t		r;

	platform_oom_kills(&oom0[0], &oom0[1]);
	if (pipe(ready) == -1)
		return errorf(cause, "%s: pipe: %s", job->path,
		    strerror(errno));
	if (pipe(go) == -1) {
		fork_errno = errno;
		close(ready[0]);
		close(ready[1]);
		return errorf(cause, "%s: pipe: %s", job->path,
		    strerror(fork_errno));
	}
	fflush(NULL);
	seeker_npids = 0;
	for (i = 0; i < n; i++) {
		memset(&s, 0, sizeof(s));
		s.job = job;
		s.index = i;
		s.nseekers = n;
		s.res = &res[i];
		s.share = share;
		s.fd = -1;
		if ((pid = fork_seeker()) == -1) {
			fork_errno = errno;
			break;
		}
		if (pid == 0) {
			close(ready[0]);
			close(go[1]);
			child_main(&s, ready[1], go[0], parent);
		}
		seeker_pids[i] = pid;
		seeker_npids = i + 1;
	}
	close(ready[1]);
	close(go[0]);
	/* Every child writes one byte when ready, or dies trying. */
	while (got < seeker_npids && (r = read(ready[0], &c, 1)) != 0) {
		if (r == 1)
			got++;
		else if (errno != EINTR || bn_stop_signal)
			break;
	}
	close(ready[0]);
	if (got < seeker_npids || i < n) {
		seekers_kill_all();
		killed = 1;
	}
	close(go[1]);		/* Go. */
	rv = reap_children(job, seeker_npids, res, killed, oom0, cause);
	if (bn_stop_signal)
		return -1;
	/* The first real cause: fork's own error before what followed. */
	if (i < n)
		return errorf(cause, "%s: fork seeker %d: %s", job->path, i,
		    strerror(fork_errno));
	if (rv == -1)
		return -1;
	if (got < n)
		return errorf(cause, "%s: a seeker failed to start", job->path);
	return 0;
}

/* Threads. */

struct start_gate {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	int		ready;
	int		go;		/* 1 start, -1 abandon. */
};

struct thread_arg {
	struct seeker		 s;
	struct start_gate	*gate;
	pthread_t		 tid;
};

static void *
thread_main(void *arg)
{
	struct thread_arg	*ta = arg;
	struct seeker		*s = &ta->s;
	struct start_gate	*g = ta->gate;
	int			 go, prepared;

	prepared = seeker_prepare(s) == 0;
	pthread_mutex_lock(&g->lock);
	g->ready++;
	pthread_cond_broadcast(&g->cond);
	while (g->go == 0)
		pthread_cond_wait(&g->cond, &g->lock);
	go = g->go;
	pthread_mutex_unlock(&g->lock);
	if (prepared && go == 1 && seeker_work(s) == 0)
		s->res->ok = 1;
	seeker_finish(s);
	if (s->res->err_errno != 0)
		s->res->ok = 0;
	return NULL;
}

/* Start the threads together and wait for them; 0 or 1 (exit status). */
static int
thread_body(const struct seek_job *job, int n, struct seeker_result *res,
    struct seek_share *share)
{
	struct start_gate	 gate;
	struct thread_arg	*ta;
	int			 i, started, e, failed = 0;

	memset(&gate, 0, sizeof(gate));
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.cond, NULL);
	if ((ta = calloc((size_t)n, sizeof(*ta))) == NULL) {
		seeker_fail(&res[0], "allocate thread table", -1);
		pthread_cond_destroy(&gate.cond);
		pthread_mutex_destroy(&gate.lock);
		return 1;
	}
	for (started = 0; started < n; started++) {
		ta[started].s.job = job;
		ta[started].s.index = started;
		ta[started].s.nseekers = n;
		ta[started].s.res = &res[started];
		ta[started].s.share = share;
		ta[started].s.fd = -1;
		ta[started].gate = &gate;
		e = pthread_create(&ta[started].tid, NULL, thread_main,
		    &ta[started]);
		if (e != 0) {
			errno = e;
			seeker_fail(&res[started], "create thread", -1);
			failed = 1;
			break;
		}
	}
	pthread_mutex_lock(&gate.lock);
	while (!failed && gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	gate.go = failed ? -1 : 1;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (i = 0; i < started; i++)
		pthread_join(ta[i].tid, NULL);
	pthread_cond_destroy(&gate.cond);
	pthread_mutex_destroy(&gate.lock);
	free(ta);
	for (i = 0; i < n; i++)
		if (!res[i].ok)
			failed = 1;
	return failed;
}

/*
 * Threaded seekers run in a child process of their own, so that this
 * process never starts a thread: once a process has had a thread, stdio
 * locks every putc() and getc(), and the per-char phases of any later run
 * would measure the locks.  Each thread's CPU comes from its own clock.
 */
static int
run_threads(const struct seek_job *job, int n, struct seeker_result *res,
    struct seek_share *share, char **cause)
{
	char	why[128] = "";
	int	i, status, killed = 0;
	pid_t	pid;

	fflush(NULL);
	if ((pid = fork_seeker()) == -1)
		return errorf(cause, "%s: fork seeker threads: %s", job->path,
		    strerror(errno));
	if (pid == 0) {
		_exit(thread_body(job, n, res, share));
	}
	seeker_pids[0] = pid;
	seeker_npids = 1;
	for (;;) {
		/*
		 * Checked first, as reap_children() does: a stop that came
		 * before the pid's store killed no seeker.
		 */
		if (bn_stop_signal && !killed) {
			seekers_kill_all();
			killed = 1;
		}
		if (wait_seekers(job, pid, &status, n, res) != -1)
			break;
		if (errno != EINTR) {
			status = 0;
			break;
		}
	}
	seeker_pids[0] = 0;
	seeker_npids = 0;
	if (bn_stop_signal)
		return errorf(cause, "interrupted");
	if (WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "seeker threads (pid %ld) killed by "
		    "signal %d (%s)", (long)pid, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
		return errorf(cause, "%s: %s", job->path, why);
	}
	if ((i = seeker_first_cause(n, res)) != -1)
		return seeker_error(job, i, &res[i], cause);
	for (i = 0; i < n; i++)
		if (!res[i].ok)
			return seeker_error(job, i, &res[i], cause);
	return 0;
}

/* The common clock in shared memory. */
static struct seek_share *
share_alloc(void)
{
	struct seek_share	*sh;
	void			*p;

	p = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	sh = p;
	atomic_init(&sh->state, SHARE_NEVER << SHARE_COUNT_BITS);
	atomic_init(&sh->idle_ns, 0);
	sh->base = time_now();
	return sh;
}

int
seekers_run(const struct seek_job *job, enum seeker_mode mode, int n,
    struct seeker_result *res, uint64_t *idle_ns, char **cause)
{
	struct seek_share	*sh;
	int			 rv;

	memset(res, 0, sizeof(*res) * (size_t)n);
	*idle_ns = 0;
	if ((sh = share_alloc()) == NULL)
		return errorf(cause, "%s: the seekers' common clock: %s",
		    job->path, strerror(errno));
	if (mode == SEEKERS_THREAD)
		rv = run_threads(job, n, res, sh, cause);
	else
		rv = run_processes(job, n, res, sh, cause);
	*idle_ns = atomic_load(&sh->idle_ns);
	munmap(sh, sizeof(*sh));
	return rv;
}
