/*
 * The team over fork(2) on one host (include/team-fork.h).  The leader is
 * the calling process; it forks n workers and only coordinates: it never
 * does any I/O of the benchmark itself.  The default build's team is one
 * such team (team-host.c); under MPI each rank leads one (team-mpi.c).
 *
 * Channels: one pipe up, shared by every worker, carries fixed 8-byte
 * messages (atomic, as they are under PIPE_BUF): "arrived at the barrier"
 * and "my blob is in my slot".  One pipe down per worker carries one byte:
 * 'g' go (the barrier), 'e' every worker has handed in (the gather),
 * 's' stop.  The blobs and each worker's file sit in one
 * anonymous shared mapping, a slot per worker; a worker writes its slot
 * before it sends the message, and the leader reads it after.
 *
 * Stopping: the leader sends every worker the stop signal (their handler
 * removes the file and sets the stop flag the loops poll) and 's' down
 * every pipe (for a worker that was about to wait at a barrier).  A
 * worker that dies outright is reaped and its file removed by the leader.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "platform.h"
#include "signals.h"
#include "team-fork.h"
#include "timer.h"

/* How long stopped workers may take to end before they are killed. */
#define TEAM_GRACE_NS	(10ull * 1000000000ull)
/* How long a stopped worker (SIGSTOP) holds the team before it is said. */
#define TEAM_STOPPED_NS	(5ull * 1000000000ull)
/*
 * The leader's poll tick: how soon it notices a death, a signal, or (the
 * tick hook) an enclosing team's stop.
 */
#define TEAM_TICK_MS	50

enum team_msg_kind { MSG_ARRIVE = 1, MSG_GATHER_OK, MSG_GATHER_FAIL };

struct team_msg {
	int32_t		worker;
	int32_t		kind;
};

/* One worker's slot in the shared mapping; the blob follows it. */
struct team_slot {
	char		error[512];
	struct team_fault fault;	/* What the worker said of its */
	int		fault_set;	/* failure (team_fault()). */
	int		has_file;
	dev_t		dev;
	ino_t		ino;
	char		path[PATH_MAX];
};

struct fork_team {
	const struct fork_team_config *cfg;
	int		 worker;	/* In a worker: its index. */
	int		 up;		/* Worker: write end of the up pipe. */
	int		 down;		/* Worker: read end of its pipe. */
	unsigned char	*map;		/* The slots. */
	size_t		 slot_size;
};

/* The leader's workers, for team_stop_all() from a signal handler. */
static pid_t			*team_pids;
static int			*team_down;
static volatile sig_atomic_t	 team_npids;
static volatile sig_atomic_t	 team_stop_sent;
/*
 * In the mapping the workers share: set before the stop signal is sent,
 * so that a worker it interrupted knows the team's stop did (team_fault()).
 */
static volatile sig_atomic_t	*team_told_stop;
static int			 team_sig = SIGTERM;

/*
 * One byte down a worker's pipe, again when a signal cut it short.  A
 * worker that has died no longer reads (EPIPE, or a full pipe it will
 * never empty): its death is seen by waitpid(), so a failure is no error
 * here.  errno is kept, since a signal handler may call this.
 */
static void
down_byte(int fd, char c)
{
	int	saved = errno;
	ssize_t	n;

	do
		n = write(fd, &c, 1);
	while (n == -1 && errno == EINTR);
	errno = saved;
}

void
fork_team_stop_all(void)
{
	int	i;
	char	c = 's';

	if (team_stop_sent || team_pids == NULL)
		return;
	team_stop_sent = 1;
	if (team_told_stop != NULL)
		*team_told_stop = 1;
	for (i = 0; i < team_npids; i++) {
		if (team_pids[i] > 0)
			kill(team_pids[i], team_sig);
		if (team_down[i] != -1)
			down_byte(team_down[i], c);
	}
}

/* The shared mapping: the slots, then the stop word. */
static size_t
map_size(const struct fork_team *t)
{
	return t->slot_size * (size_t)t->cfg->n + 64;
}

static struct team_slot *
slot_of(struct fork_team *t, int i)
{
	return (struct team_slot *)(void *)(t->map + (size_t)i * t->slot_size);
}

static unsigned char *
blob_of(struct fork_team *t, int i)
{
	size_t	off = (sizeof(struct team_slot) + 63) & ~(size_t)63;

	return t->map + (size_t)i * t->slot_size + off;
}

void
fork_team_own_file(struct fork_team *t, const char *path, dev_t dev, ino_t ino)
{
	struct team_slot	*s = slot_of(t, t->worker);

	if (path == NULL) {
		s->has_file = 0;
		return;
	}
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->dev = dev;
	s->ino = ino;
	s->has_file = 1;
}

void
fork_team_error(struct fork_team *t, const char *line)
{
	snprintf(slot_of(t, t->worker)->error, sizeof(slot_of(t,
	    t->worker)->error), "%s", line);
}

int
fork_team_fault(struct fork_team *t, int64_t ns, int interrupted)
{
	struct team_slot	*s = slot_of(t, t->worker);

	s->fault.ns = ns;
	s->fault.by_stop = interrupted && team_told_stop != NULL &&
	    *team_told_stop;
	s->fault.worker = t->worker;
	s->fault_set = 1;
	return s->fault.by_stop;
}

int
team_fault_before(const struct team_fault *a, const struct team_fault *b)
{
	if (a->worker < 0)
		return 0;
	if (b->worker < 0)
		return 1;
	if ((a->by_stop != 0) != (b->by_stop != 0))
		return b->by_stop != 0;
	if (a->ns != b->ns)
		return a->ns < b->ns;
	return a->worker < b->worker;
}

static int
send_msg(struct fork_team *t, int kind)
{
	struct team_msg	m;
	ssize_t		n;

	m.worker = t->worker;
	m.kind = kind;
	do
		n = write(t->up, &m, sizeof(m));
	while (n == -1 && errno == EINTR && !*t->cfg->stop);
	return n == (ssize_t)sizeof(m) ? 0 : -1;
}

int
fork_team_barrier(struct fork_team *t)
{
	ssize_t	n;
	char	c = 's';

	if (*t->cfg->stop || send_msg(t, MSG_ARRIVE) == -1)
		return -1;
	do
		n = read(t->down, &c, 1);
	while (n == -1 && errno == EINTR && !*t->cfg->stop);
	if (n != 1 || c != 'g' || *t->cfg->stop)
		return -1;
	return 0;
}

/*
 * Hand in the blob, then wait until every worker has: nothing of the next
 * step (its untimed preparation, the removal of the file) may run while
 * another worker is still timed, as IOR ends each phase with a barrier.
 */
int
fork_team_gather(struct fork_team *t, const void *blob, int ok)
{
	ssize_t	n;
	char	c = 's';

	memcpy(blob_of(t, t->worker), blob, t->cfg->blob_size);
	if (send_msg(t, ok ? MSG_GATHER_OK : MSG_GATHER_FAIL) == -1 || !ok)
		return -1;
	do
		n = read(t->down, &c, 1);
	while (n == -1 && errno == EINTR && !*t->cfg->stop);
	if (n != 1 || c != 'e' || *t->cfg->stop)
		return -1;
	return 0;
}

/* Remove a dead worker's file if the path still names it. */
static void
remove_orphan(struct team_slot *s)
{
	struct stat	st;

	if (!s->has_file)
		return;
	s->has_file = 0;
	if (lstat(s->path, &st) == 0 && st.st_dev == s->dev &&
	    st.st_ino == s->ino)
		unlink(s->path);
}

/* Make room for n pipes in the leader. */
static int
fd_room(int n, char **cause)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)n + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		return errorf(cause, "%d workers need %llu open files but the "
		    "limit is %llu (ulimit -n)", n, (unsigned long long)want,
		    (unsigned long long)rl.rlim_max);
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
		return errorf(cause, "setrlimit: %s", strerror(errno));
	return 0;
}

static void __attribute__((noreturn))
worker_main(struct fork_team *t, int i, int up, int down)
{
	int	status;

	/* The leader's tables stay allocated but empty: nothing to stop. */
	team_npids = 0;
	team_stop_sent = 1;
	t->worker = i;
	t->up = up;
	t->down = down;
	platform_parent_death_signal(t->cfg->stop_signal);
	/* The leader, which gathers the record, is the last to go. */
	(void)platform_oom_victim_first();
	if (getppid() == 1)
		_exit(1);
	/*
	 * A session of its own, as each of fio's jobs takes: where the
	 * scheduler groups processes by session (Linux's autogroup), a team
	 * in the caller's session got one session's share of the CPU on a
	 * busy machine where N jobs of fio got N (four streams at depth 32
	 * here: 0.30 to 0.39 GB/s together in one session, 0.60 to 0.62 in
	 * four).  The terminal's signals now reach the leader alone, which
	 * stops the workers itself; the parent's death still ends them.
	 */
	(void)setsid();
	status = t->cfg->body(t, i, t->cfg->body_arg);
	_exit(status);
}

/* The leader's state while the team runs. */
struct leader {
	struct fork_team		*t;
	struct team_outcome	*out;
	int			 n;
	int			 alive;		/* Not yet reaped. */
	int			*dead;		/* Reaped. */
	int			 arrived;
	int			 handed;	/* Gathered this step. */
	int			 stopping;
	uint64_t		 deadline;	/* After a stop; 0 none. */
	int			 killed;
	uint64_t		 reaped_at;	/* The last leader_reap(). */
	uint64_t		*stopped_at;	/* When stopped (SIGSTOP), or 0. */
	int			*stop_sig;	/* What stopped it; -1 once said. */
};

static void
leader_stop(struct leader *l)
{
	if (l->stopping)
		return;
	l->stopping = 1;
	l->deadline = time_now().ns + TEAM_GRACE_NS;
	fork_team_stop_all();
}

/* A signal to the leader stops the team; it is not a worker's failure. */
static int
leader_signalled(struct leader *l)
{
	if (!*l->t->cfg->stop)
		return 0;
	if (!l->stopping) {
		l->out->stopped = 1;
		leader_stop(l);
	}
	return 1;
}

/* Now, from the workers' epoch. */
static int64_t
leader_ns(const struct leader *l)
{
	const volatile bn_time	*e = l->t->cfg->epoch;

	return (int64_t)(time_now().ns - (e != NULL ? e->ns : 0));
}

/*
 * Worker i failed (died of signal sig, or exited with status): the one the
 * team blames if before the one blamed so far (team_fault_before()), by
 * what it said of its failure, or else as of now, and the stop's doing if
 * the team was stopping.
 */
static void
leader_fail(struct leader *l, int i, int sig, int status)
{
	const struct team_slot	*s = slot_of(l->t, i);
	struct team_outcome	*o = l->out;
	struct team_fault	 f, blamed;

	if (leader_signalled(l))
		return;
	if (s->fault_set)
		f = s->fault;
	else {
		f.ns = leader_ns(l);
		f.by_stop = l->stopping;
	}
	f.worker = i;
	blamed.ns = o->fail_ns;
	blamed.by_stop = o->fail_by_stop;
	blamed.worker = o->failed ? o->worker : -1;
	if (team_fault_before(&f, &blamed)) {
		o->failed = 1;
		o->worker = i;
		o->fail_ns = f.ns;
		o->fail_by_stop = f.by_stop;
		o->signalled = sig;
		o->exit_status = status;
	}
	leader_stop(l);
}

/* One byte down every living worker's pipe. */
static void
leader_say(struct leader *l, char c)
{
	int	i;

	for (i = 0; i < l->n; i++)
		if (!l->dead[i])
			down_byte(team_down[i], c);
}

/* Release a barrier once every living worker has arrived. */
static void
leader_release(struct leader *l)
{

	if (l->stopping || l->arrived < l->alive)
		return;
	l->arrived = 0;
	/* An enclosing team's barrier, joined on every worker's behalf. */
	if (l->t->cfg->gate != NULL && l->t->cfg->gate(l->t->cfg->arg) == -1) {
		if (!l->out->failed)
			l->out->stopped = 1;
		leader_stop(l);
		return;
	}
	if (l->t->cfg->released != NULL)
		l->t->cfg->released(l->t->cfg->arg);
	leader_say(l, 'g');
}

/* End a step once every living worker has handed in. */
static void
leader_end_step(struct leader *l)
{
	if (l->stopping || l->handed < l->alive)
		return;
	l->handed = 0;
	leader_say(l, 'e');
}

static void
leader_messages(struct leader *l, int up)
{
	struct team_msg	m[64];
	ssize_t		n;
	size_t		k, got;

	while ((n = read(up, m, sizeof(m))) > 0) {
		got = (size_t)n / sizeof(m[0]);
		for (k = 0; k < got; k++) {
			if (m[k].worker < 0 || m[k].worker >= l->n)
				continue;
			switch (m[k].kind) {
			case MSG_ARRIVE:
				l->arrived++;
				break;
			case MSG_GATHER_OK:
			case MSG_GATHER_FAIL:
				l->t->cfg->gathered(l->t->cfg->arg,
				    m[k].worker, m[k].kind == MSG_GATHER_OK,
				    blob_of(l->t, m[k].worker));
				if (m[k].kind == MSG_GATHER_FAIL)
					leader_fail(l, m[k].worker, 0, 0);
				else
					l->handed++;
				break;
			}
		}
		if ((size_t)n < sizeof(m))
			break;
	}
	leader_end_step(l);
}

static void
leader_reap(struct leader *l)
{
	int	i, st, st2;

	/*
	 * Each worker by its own pid: waitpid(-1) would also reap another
	 * child of this process (the --lock-mem helper) and hide its end.
	 */
	for (i = 0; i < l->n && l->alive > 0; i++) {
		if (team_pids[i] <= 0 || waitpid(team_pids[i], &st, WNOHANG |
		    WUNTRACED | WCONTINUED) != team_pids[i])
			continue;
		/* Stopped or let go: noted, for leader_stopped(). */
		if (WIFSTOPPED(st)) {
			l->stopped_at[i] = time_now().ns;
			l->stop_sig[i] = WSTOPSIG(st);
			continue;
		}
		if (WIFCONTINUED(st)) {
			l->stopped_at[i] = 0;
			continue;
		}
		/* Its end supersedes a stop not yet seen let go. */
		team_pids[i] = 0;
		l->stopped_at[i] = 0;
		l->dead[i] = 1;
		l->alive--;
		st2 = team_down[i];
		team_down[i] = -1;
		close(st2);
		remove_orphan(slot_of(l->t, i));
		if (WIFEXITED(st) && WEXITSTATUS(st) == TEAM_EXIT_LEFT) {
			l->out->files_left++;
			continue;
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		leader_fail(l, i, WIFSIGNALED(st) ? WTERMSIG(st) : 0,
		    WIFEXITED(st) ? WEXITSTATUS(st) : 0);
	}
}

/*
 * A worker stopped (SIGSTOP, a debugger) holds every other at the next
 * barrier with no word: once it has been stopped TEAM_STOPPED_NS, say so,
 * once per stop.
 */
static void
leader_stopped(struct leader *l, uint64_t now)
{
	int	i;

	for (i = 0; i < l->n; i++) {
		/*
		 * The stop is stamped in leader_reap(), after the caller
		 * read now: now may be the earlier (no unsigned wrap).
		 */
		if (team_pids[i] <= 0 || l->stopped_at[i] == 0 ||
		    l->stop_sig[i] == -1 || now < l->stopped_at[i] ||
		    now - l->stopped_at[i] < TEAM_STOPPED_NS)
			continue;
		fprintf(stderr, "%sbonnie-ng: worker %d (process %ld) has been "
		    "stopped by %s for %llu s; the run waits for it (kill -CONT "
		    "%ld)\n", isatty(STDERR_FILENO) ? "\n" : "", i,
		    (long)team_pids[i], signal_name(l->stop_sig[i]),
		    TEAM_STOPPED_NS / 1000000000ull, (long)team_pids[i]);
		l->stop_sig[i] = -1;
	}
}

static int
leader_loop(struct leader *l, int up)
{
	struct pollfd	pfd;
	uint64_t	now;
	int		i;

	pfd.fd = up;
	pfd.events = POLLIN;
	while (l->alive > 0) {
		(void)leader_signalled(l);
		if (poll(&pfd, 1, TEAM_TICK_MS) > 0)
			leader_messages(l, up);
		/*
		 * A waitpid() per worker: at most once a tick, so that a
		 * barrier's messages from 1024 workers do not cost a million.
		 */
		now = time_now().ns;
		if (now - l->reaped_at >= TEAM_TICK_MS * 1000000ULL) {
			leader_reap(l);
			leader_stopped(l, now);
			l->reaped_at = now;
		}
		if (l->t->cfg->tick != NULL && l->t->cfg->tick(l->t->cfg->arg,
		    l->out->failed && !l->out->fail_by_stop) == -1 &&
		    !l->stopping) {
			l->out->stopped = 1;
			leader_stop(l);
		}
		leader_release(l);
		if (l->stopping && !l->killed && time_now().ns > l->deadline) {
			for (i = 0; i < l->n; i++)
				if (team_pids[i] > 0)
					kill(team_pids[i], SIGKILL);
			l->killed = 1;
		}
	}
	/* Blobs sent just before the end. */
	leader_messages(l, up);
	return l->out->failed || l->stopping ? -1 : 0;
}

int
fork_team_run(const struct fork_team_config *cfg, struct team_outcome *out,
    char **cause)
{
	struct fork_team	 t;
	struct leader	 l;
	size_t		 blob_off = (sizeof(struct team_slot) + 63) & ~(size_t)63;
	int		 up[2], down[2], i, j, rv;
	pid_t		 pid;

	memset(out, 0, sizeof(*out));
	out->worker = -1;
	if (cfg->n < 1 || cfg->n > TEAM_MAX)
		return errorf(cause, "team of %d workers (1 to %d)", cfg->n,
		    TEAM_MAX);
	if (team_pids != NULL)
		return errorf(cause, "a team is already running");
	if (fd_room(cfg->n, cause) == -1)
		return -1;
	memset(&t, 0, sizeof(t));
	t.cfg = cfg;
	t.worker = -1;
	t.slot_size = (blob_off + cfg->blob_size + 63) & ~(size_t)63;
	/* The slots, then the stop word. */
	t.map = mmap(NULL, map_size(&t), PROT_READ |
	    PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
	if (t.map == MAP_FAILED)
		return errorf(cause, "mmap: %s", strerror(errno));
	if (pipe(up) == -1) {
		munmap(t.map, map_size(&t));
		return errorf(cause, "pipe: %s", strerror(errno));
	}
	fcntl(up[0], F_SETFL, O_NONBLOCK);
	fcntl(up[0], F_SETFD, FD_CLOEXEC);

	memset(&l, 0, sizeof(l));
	l.t = &t;
	l.out = out;
	l.n = cfg->n;
	l.dead = xcalloc((size_t)cfg->n, sizeof(*l.dead));
	l.stopped_at = xcalloc((size_t)cfg->n, sizeof(*l.stopped_at));
	l.stop_sig = xcalloc((size_t)cfg->n, sizeof(*l.stop_sig));
	team_pids = xcalloc((size_t)cfg->n, sizeof(*team_pids));
	team_down = xcalloc((size_t)cfg->n, sizeof(*team_down));
	for (i = 0; i < cfg->n; i++)
		team_down[i] = -1;
	team_sig = cfg->stop_signal;
	team_stop_sent = 0;
	team_told_stop = (volatile sig_atomic_t *)(void *)(t.map +
	    t.slot_size * (size_t)cfg->n);
	team_npids = 0;
	fflush(NULL);
	for (i = 0; i < cfg->n; i++) {
		if (*cfg->stop)
			break;
		if (pipe(down) == -1) {
			rv = errno;
			errorf(cause, "pipe: %s", strerror(rv));
			break;
		}
		fcntl(down[1], F_SETFD, FD_CLOEXEC);
		if ((pid = fork()) == -1) {
			rv = errno;
			close(down[0]);
			close(down[1]);
			errorf(cause, "fork worker %d: %s", i, strerror(rv));
			break;
		}
		if (pid == 0) {
			close(up[0]);
			close(down[1]);
			for (j = 0; j < i; j++)
				close(team_down[j]);
			worker_main(&t, i, up[1], down[0]);
		}
		close(down[0]);
		fcntl(down[1], F_SETFL, O_NONBLOCK);
		team_down[i] = down[1];
		team_pids[i] = pid;
		team_npids = i + 1;
	}
	close(up[1]);
	l.n = team_npids;
	l.alive = team_npids;
	if (i < cfg->n) {
		/* Not all started: stop the ones that did. */
		if (*cfg->stop)
			out->stopped = 1;
		else {
			out->failed = 1;
			out->worker = i;
			out->fail_ns = leader_ns(&l);
		}
		leader_stop(&l);
	}
	rv = leader_loop(&l, up[0]);
	if (i < cfg->n)
		rv = -1;
	close(up[0]);
	if (out->worker >= 0 && out->worker < l.n) {
		snprintf(out->error, sizeof(out->error), "%s",
		    slot_of(&t, out->worker)->error);
		if (gethostname(out->host, sizeof(out->host) - 1) == -1)
			out->host[0] = '\0';
	}
	for (j = 0; j < l.n; j++)
		remove_orphan(slot_of(&t, j));
	team_npids = 0;
	free(team_pids);
	team_pids = NULL;
	free(team_down);
	team_down = NULL;
	free(l.dead);
	free(l.stopped_at);
	free(l.stop_sig);
	team_told_stop = NULL;
	munmap(t.map, map_size(&t));
	if (rv == -1 && cause != NULL && *cause == NULL) {
		if (out->stopped)
			errorf(cause, "stopped");
		else if (out->signalled)
			errorf(cause, "worker %d killed by signal %d (%s)",
			    out->worker, out->signalled,
			    strsignal(out->signalled));
		else if (out->exit_status != 0)
			errorf(cause, "worker %d exited with status %d",
			    out->worker, out->exit_status);
		else
			errorf(cause, "worker %d failed", out->worker);
	}
	return rv;
}
