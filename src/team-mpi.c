/*
 * The team over MPI: R ranks, each leading a fork team (team-fork.c) of
 * the k workers that -j asks for (k = 1 without -j), R x k workers in
 * all; a worker's side of the team is team.c's, as in the default build.
 * Built only by `make mpi` into bonnie-ng-mpi, in place of team-host.c.
 * Worker w is local worker w % k of rank w / k; rank 0 is the leader of
 * the whole team.
 *
 * The plan the ranks follow (their barriers and gathers, the stops, who
 * failed first) is team-plan.c's; this file is its wire over MPI, and
 * what else MPI gives: the ranks, their hosts, a host's shared memory,
 * and the agreement on the settings before the start.  Every collective
 * is non-blocking and waited for by polling, so that a rank gives up
 * after a bounded time when another rank is gone.  Stop messages travel
 * on a communicator of their own; the rank's process polls for them at
 * every tick of its fork team, and it is free to, because it never sits
 * in the workers' write(2).  MPI is only ever called from that one
 * thread, and never from a worker (a child, which ends with _exit).
 * Nobody calls MPI_Abort() before its fork team has ended (and so every
 * file of the rank is gone); only a rank that timed out does, after that.
 */
#include <mpi.h>

#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "error.h"
#include "team-fork.h"
#include "team-plan.h"
#include "team.h"
#include "text.h"

const char team_backend[] = "mpi";

#define HOST_LEN	64
#define ERR_LEN		512
#define STOP_TAG	1

/* The default bound on a wait: env BONNIE_NG_MPI_TIMEOUT (seconds). */
#define WAIT_BASE_S	120.0

static int	mpi_rank, mpi_size = 1, mpi_started, host_per = 1;
static char	*hosts;			/* size x HOST_LEN. */
/*
 * The ranks grouped by host name: each rank's host, each host's lowest
 * rank (host 0 is rank 0's), and the count.
 */
static int	*host_of, *host_lead, nhosts;
static long	*pids;			/* Each rank's process id. */
static MPI_Comm	stop_comm = MPI_COMM_NULL;

/* Group the ranks by host name, in the order of their lowest ranks. */
static void
group_hosts(void)
{
	int	r, h;

	host_of = xcalloc((size_t)mpi_size, sizeof(*host_of));
	host_lead = xcalloc((size_t)mpi_size, sizeof(*host_lead));
	nhosts = 0;
	for (r = 0; r < mpi_size; r++) {
		for (h = 0; h < nhosts; h++)
			if (strncmp(hosts + (size_t)host_lead[h] * HOST_LEN,
			    hosts + (size_t)r * HOST_LEN, HOST_LEN) == 0)
				break;
		if (h == nhosts)
			host_lead[nhosts++] = r;
		host_of[r] = h;
	}
}

int
team_init(int *argc, char ***argv)
{
	char	 host[HOST_LEN];
	long	 pid;
	int	 flag = 0;

	MPI_Initialized(&flag);
	if (!flag && MPI_Init(argc, argv) != MPI_SUCCESS)
		return -1;
	mpi_started = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
	/* The run's own cgroup would hold one rank and its children. */
	if (mpi_size > 1)
		cgroup_refuse("not made under MPI: the ranks are mpirun's "
		    "processes, not one process's children");
	memset(host, 0, sizeof(host));
	if (gethostname(host, sizeof(host) - 1) == -1)
		snprintf(host, sizeof(host), "?");
	hosts = xcalloc((size_t)mpi_size, HOST_LEN);
	MPI_Allgather(host, HOST_LEN, MPI_CHAR, hosts, HOST_LEN, MPI_CHAR,
	    MPI_COMM_WORLD);
	group_hosts();
	pid = (long)getpid();
	pids = xcalloc((size_t)mpi_size, sizeof(*pids));
	MPI_Allgather(&pid, 1, MPI_LONG, pids, 1, MPI_LONG, MPI_COMM_WORLD);
	/* Stop messages travel apart from the collectives. */
	MPI_Comm_dup(MPI_COMM_WORLD, &stop_comm);
	return 0;
}

void
team_finish(void)
{
	int	flag = 0;

	free(hosts);
	free(host_of);
	free(host_lead);
	free(pids);
	hosts = NULL;
	host_of = host_lead = NULL;
	pids = NULL;
	nhosts = 0;
	if (!mpi_started)
		return;
	MPI_Finalized(&flag);
	if (flag)
		return;
	if (stop_comm != MPI_COMM_NULL)
		MPI_Comm_free(&stop_comm);
	MPI_Finalize();
}

int
team_ranks(void)
{
	return mpi_size;
}

int
team_rank(void)
{
	return mpi_rank;
}

const char *
team_host(int worker)
{
	int	r = worker / host_per;

	if (hosts == NULL || worker < 0 || r >= mpi_size)
		return "";
	return hosts + (size_t)r * HOST_LEN;
}

int
team_hosts(void)
{
	return nhosts > 0 ? nhosts : 1;
}

int
team_worker_host(int worker)
{
	int	r = worker / host_per;

	if (host_of == NULL || worker < 0 || r >= mpi_size)
		return 0;
	return host_of[r];
}

const char *
team_host_name(int host)
{
	if (host_lead == NULL || host < 0 || host >= nhosts)
		return "";
	return hosts + (size_t)host_lead[host] * HOST_LEN;
}

int
team_host_ranks(int host, int *ranks, int max)
{
	int	r, n = 0;

	for (r = 0; host_of != NULL && r < mpi_size; r++)
		if (host_of[r] == host) {
			if (n < max)
				ranks[n] = r;
			n++;
		}
	return n;
}

int
team_host_slot(int worker)
{
	int	r = worker / host_per, q, before = 0;

	if (host_of == NULL || worker < 0 || r >= mpi_size)
		return worker;
	for (q = 0; q < r; q++)
		if (host_of[q] == host_of[r])
			before++;
	return before * host_per + worker % host_per;
}

int
team_host_workers(int n)
{
	int	ranks;

	if (host_of == NULL || mpi_size <= 1)
		return n;
	ranks = team_host_ranks(host_of[mpi_rank], NULL, 0);
	return n / mpi_size * ranks;
}

static void	start_wait(MPI_Request *);

/* Whether every rank says yes (a start-up collective). */
static int
all_agree(int yes)
{
	MPI_Request	req;
	int		all = 0;

	MPI_Iallreduce(&yes, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req);
	start_wait(&req);
	return all;
}

void *
team_host_map(size_t len)
{
	char	 name[64];
	void	*p = MAP_FAILED;
	int	 fd, lead = team_host_lead(), made = 0, lr = mpi_rank;

	/* Each host's name: its lowest rank's pid and rank. */
	if (host_of != NULL && host_lead != NULL)
		lr = host_lead[host_of[mpi_rank]];
	snprintf(name, sizeof(name), "/bonnie-ng.%ld.%d", pids != NULL ?
	    pids[lr] : (long)getpid(), lr);
	if (lead && (fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600)) !=
	    -1) {
		made = 1;
		if (ftruncate(fd, (off_t)len) == 0)
			p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0);
		close(fd);
	}
	/* The others open it once every host's lead has made it. */
	if (all_agree(!lead || p != MAP_FAILED) && !lead &&
	    (fd = shm_open(name, O_RDWR, 0)) != -1) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
	}
	/* Every process has it (or not): the name goes, the mapping stays. */
	if (!all_agree(p != MAP_FAILED) && p != MAP_FAILED) {
		munmap(p, len);
		p = MAP_FAILED;
	}
	if (made)
		shm_unlink(name);
	return p == MAP_FAILED ? NULL : p;
}

int
team_host_lead(void)
{
	return host_lead == NULL || host_lead[host_of[mpi_rank]] == mpi_rank;
}

/* team_start_agree() has been called. */
static int	start_agreed;

int
team_start_pending(void)
{
	return mpi_size > 1 && !start_agreed;
}

/* A start-up collective, waited for at most WAIT_BASE_S. */
static void
start_wait(MPI_Request *req)
{
	struct timespec	 nap = { 0, 200000 };
	bn_time		 t0 = time_now();
	int		 done = 0;

	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	    !done) {
		if (time_elapsed(t0, time_now()) > WAIT_BASE_S) {
			text_say("rank %d (%s): no word from the other ranks "
			    "for %.0f s at the start-up check; giving up",
			    mpi_rank, hosts + (size_t)mpi_rank * HOST_LEN,
			    WAIT_BASE_S);
			fflush(NULL);
			MPI_Abort(MPI_COMM_WORLD, 1);
			_exit(1);
		}
		nanosleep(&nap, NULL);
	}
}

int
team_start_agree(const char *err, const uint64_t *digest, int n,
    struct team_disagree *td)
{
	MPI_Request	 req;
	uint64_t	*ref;
	char		 line[ERR_LEN];
	int		 mine, first, i;

	memset(td, 0, sizeof(*td));
	td->index = -1;
	td->rank = -1;
	if (mpi_size <= 1 || start_agreed)
		return 0;
	start_agreed = 1;
	/* The lowest rank that cannot start, and its line, for everyone. */
	mine = err != NULL ? mpi_rank : INT_MAX;
	MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD,
	    &req);
	start_wait(&req);
	if (first != INT_MAX) {
		memset(line, 0, sizeof(line));
		if (err != NULL)
			snprintf(line, sizeof(line), "%s", err);
		MPI_Ibcast(line, ERR_LEN, MPI_CHAR, first, MPI_COMM_WORLD, &req);
		start_wait(&req);
		line[ERR_LEN - 1] = '\0';
		td->rank = first;
		snprintf(td->error, sizeof(td->error), "%s", line);
		snprintf(td->host, sizeof(td->host), "%.63s",
		    hosts + (size_t)first * HOST_LEN);
		return -1;
	}
	/* Rank 0's settings; the first setting, then rank, that differs. */
	ref = xcalloc((size_t)n, sizeof(*ref));
	if (mpi_rank == 0)
		memcpy(ref, digest, (size_t)n * sizeof(*ref));
	MPI_Ibcast(ref, n, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
	start_wait(&req);
	for (i = 0; digest != NULL && i < n && ref[i] == digest[i]; i++)
		;
	free(ref);
	mine = i < n ? i * mpi_size + mpi_rank : INT_MAX;
	MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD,
	    &req);
	start_wait(&req);
	if (first == INT_MAX)
		return 0;
	td->index = first / mpi_size;
	td->rank = first % mpi_size;
	snprintf(td->host, sizeof(td->host), "%.63s",
	    hosts + (size_t)td->rank * HOST_LEN);
	return -1;
}

/* The ranks' wire (team-plan.h) over MPI. */

/*
 * The wire's state.  The buffers of a collective live here, not in a
 * caller's frame, since MPI may still write them after a wait timed out
 * (until the rank gives up, MPI_Abort()).
 */
struct mpi_wire {
	MPI_Request	 stop_req;	/* The posted receive. */
	MPI_Request	*stop_sends;	/* mpi_size of them. */
	int		 stop_in;	/* Receive buffer. */
	int		 stop_out;
	int		 received;	/* Stop messages received. */
	int		 sent;
	int		 vote_mine, vote_any;
	int		 sum_mine, sum_all;
	int		*hcounts, *hdispls; /* From each rank (0: no lead). */
	void		(*waiting)(void *); /* At every poll of a wait. */
	void		*waiting_arg;
};

/*
 * Wait for a request, polling; give up after the bound.  The stop flag
 * does not end the wait (the others are coming to the same collective
 * to hear about it), the bound does; the plan's hook runs at every poll
 * (rank 0, stopped meanwhile, writes what it has).
 */
static int
wait_bounded(struct mpi_wire *mw, MPI_Request *req, double bound,
    const char *what)
{
	struct timespec	 nap = { 0, 200000 };
	bn_time		 t0 = time_now();
	int		 done = 0;

	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	    !done) {
		if (mw->waiting != NULL)
			mw->waiting(mw->waiting_arg);
		if (time_elapsed(t0, time_now()) > bound) {
			text_say("rank %d (%s): no word from the other ranks "
			    "for %.0f s at the %s; giving up", mpi_rank,
			    hosts + (size_t)mpi_rank * HOST_LEN, bound, what);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	return done ? 0 : -1;
}

static int
mpi_vote(void *arg, int mine, int *any, double bound, const char *what)
{
	struct mpi_wire	*mw = arg;
	MPI_Request	 req;

	mw->vote_mine = mine;
	mw->vote_any = 0;
	MPI_Iallreduce(&mw->vote_mine, &mw->vote_any, 1, MPI_INT, MPI_MAX,
	    MPI_COMM_WORLD, &req);
	if (wait_bounded(mw, &req, bound, what) == -1)
		return -1;
	*any = mw->vote_any;
	return 0;
}

static int
mpi_gather(void *arg, const void *send, size_t len, void *all, double bound,
    const char *what)
{
	MPI_Request	req;

	MPI_Igather(send, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
	    MPI_COMM_WORLD, &req);
	return wait_bounded(arg, &req, bound, what);
}

static int
mpi_barrier(void *arg, double bound, const char *what)
{
	MPI_Request	req;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	return wait_bounded(arg, &req, bound, what);
}

/* Only the hosts' leads send: rank 0 holds one buffer a host. */
static int
mpi_host_gather(void *arg, const void *send, size_t len, void *all,
    double bound, const char *what)
{
	struct mpi_wire	*mw = arg;
	MPI_Request	 req;
	int		 r;

	/* Every lead sends as much as rank 0, the lead of host 0. */
	if (mpi_rank == 0 && mw->hcounts == NULL) {
		mw->hcounts = xcalloc((size_t)mpi_size, sizeof(int));
		mw->hdispls = xcalloc((size_t)mpi_size, sizeof(int));
		for (r = 0; r < mpi_size; r++)
			if (host_lead[host_of[r]] == r) {
				mw->hcounts[r] = (int)len;
				mw->hdispls[r] = host_of[r] * (int)len;
			}
	}
	MPI_Igatherv(send, (int)len, MPI_BYTE, all, mw->hcounts, mw->hdispls,
	    MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	return wait_bounded(mw, &req, bound, what);
}

static int
mpi_sum(void *arg, int mine, int *sum, double bound)
{
	struct mpi_wire	*mw = arg;
	MPI_Request	 req;

	mw->sum_mine = mine;
	MPI_Iallreduce(&mw->sum_mine, &mw->sum_all, 1, MPI_INT, MPI_SUM,
	    MPI_COMM_WORLD, &req);
	if (wait_bounded(mw, &req, bound, "final count") == -1)
		return -1;
	*sum = mw->sum_all;
	return 0;
}

/* Tell every other rank to stop now. */
static void
mpi_stop_send(void *arg)
{
	struct mpi_wire	*mw = arg;
	int		 r;

	mw->sent = 1;
	mw->stop_out = mpi_rank;
	for (r = 0; r < mpi_size; r++) {
		if (r == mpi_rank) {
			mw->stop_sends[r] = MPI_REQUEST_NULL;
			continue;
		}
		MPI_Isend(&mw->stop_out, 1, MPI_INT, r, STOP_TAG, stop_comm,
		    &mw->stop_sends[r]);
	}
}

/* The stop messages come so far; posts the next receive for each. */
static int
mpi_stop_received(void *arg)
{
	struct mpi_wire	*mw = arg;
	int		 done = 0;

	if (mw->stop_req == MPI_REQUEST_NULL)
		return mw->received;
	while (MPI_Test(&mw->stop_req, &done, MPI_STATUS_IGNORE) ==
	    MPI_SUCCESS && done) {
		mw->received++;
		MPI_Irecv(&mw->stop_in, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG,
		    stop_comm, &mw->stop_req);
		done = 0;
	}
	return mw->received;
}

/* Receive the stop messages still in flight; cancel the last receive. */
static int
mpi_stop_drain(void *arg, int expect, double bound)
{
	struct mpi_wire	*mw = arg;

	while (mw->received < expect && mw->stop_req != MPI_REQUEST_NULL) {
		if (wait_bounded(mw, &mw->stop_req, bound, "stop messages") ==
		    -1)
			return -1;
		mw->received++;
		MPI_Irecv(&mw->stop_in, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG,
		    stop_comm, &mw->stop_req);
	}
	if (mw->stop_req != MPI_REQUEST_NULL) {
		MPI_Cancel(&mw->stop_req);
		MPI_Wait(&mw->stop_req, MPI_STATUS_IGNORE);
	}
	if (mw->sent)
		MPI_Waitall(mpi_size, mw->stop_sends, MPI_STATUSES_IGNORE);
	return 0;
}

static void
mpi_on_wait(void *arg, void (*fn)(void *), void *fnarg)
{
	struct mpi_wire	*mw = arg;

	mw->waiting = fn;
	mw->waiting_arg = fnarg;
}

static void __attribute__((noreturn))
mpi_give_up(void *arg)
{
	(void)arg;
	/* Our files are gone; nobody else will come. */
	fflush(NULL);
	MPI_Abort(MPI_COMM_WORLD, 1);
	_exit(1);
}

static const char *
mpi_host_name(void *arg, int rank)
{
	(void)arg;
	if (hosts == NULL || rank < 0 || rank >= mpi_size)
		return "";
	return hosts + (size_t)rank * HOST_LEN;
}

int
team_run(const struct team_config *cfg, struct team_outcome *out,
    char **cause)
{
	struct team_wire	 w;
	struct mpi_wire		 mw;
	const char		*env = getenv("BONNIE_NG_MPI_TIMEOUT");
	int			 rv;

	memset(out, 0, sizeof(*out));
	out->worker = -1;
	if (!mpi_started && team_init(NULL, NULL) == -1)
		return errorf(cause, "MPI_Init failed");
	if (cfg->n >= mpi_size && cfg->n % mpi_size == 0)
		host_per = cfg->n / mpi_size;
	memset(&mw, 0, sizeof(mw));
	mw.stop_sends = xcalloc((size_t)mpi_size, sizeof(MPI_Request));
	MPI_Irecv(&mw.stop_in, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG,
	    stop_comm, &mw.stop_req);
	memset(&w, 0, sizeof(w));
	w.rank = mpi_rank;
	w.size = mpi_size;
	w.hosts = nhosts;
	w.host_lead = team_host_lead();
	w.arg = &mw;
	w.vote = mpi_vote;
	w.gather = mpi_gather;
	w.barrier = mpi_barrier;
	w.host_gather = mpi_host_gather;
	w.sum = mpi_sum;
	w.stop_send = mpi_stop_send;
	w.stop_received = mpi_stop_received;
	w.stop_drain = mpi_stop_drain;
	w.give_up = mpi_give_up;
	w.host_name = mpi_host_name;
	w.on_wait = mpi_on_wait;
	rv = team_plan_run(&w, cfg, env != NULL ? strtod(env, NULL) : 0, out,
	    cause);
	free(mw.stop_sends);
	free(mw.hcounts);
	free(mw.hdispls);
	return rv;
}
