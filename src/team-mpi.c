/*
 * The team over MPI: R ranks, each leading a fork team (team-fork.c) of
 * the k workers that -j asks for (k = 1 without -j), R x k workers in
 * all; a worker's side of the team is team.c's, as in the default build.
 * Built only by `make mpi` into bonnie-ng-mpi, in place of team-host.c.
 * Worker w is local worker w % k of rank w / k; rank 0 is the leader of
 * the whole team.
 *
 * A rank's own process does no benchmark I/O: it coordinates.  Its fork
 * team's gate joins the ranks' barrier on behalf of its workers (once all
 * of them have arrived), and its gather callback hands the rank's k blobs
 * to rank 0 in one gather (once all of them are in).  Every collective is
 * non-blocking and waited for by polling, so that a rank gives up after a
 * bounded time when another rank is gone.  The ranks call the same
 * collectives in the same order:
 *
 *   per step:  allreduce(stop?)   the barrier; any stop ends the team
 *              gather(k blobs)    to rank 0
 *              with host_end:
 *              barrier            every rank's workers are done
 *              gather(host)       each host's account (read by its
 *                                 lowest rank) to rank 0, which calls
 *                                 host_gathered() and then gathered()
 *   at the end, only ranks that have not yet seen a stop in a barrier:
 *              allreduce(stop?)   matches the others' next barrier
 *   then every rank:
 *              allreduce          who failed first, how many said stop
 *              gather(error line) so rank 0 can name the failure
 *
 * A rank whose team stopped inside a step (its workers did not all hand
 * in) still joins that step's gather, with the missing blobs marked
 * absent, so nobody waits in a collective another will not join.
 *
 * Stopping mid-step: when a worker fails, its rank's leader sends a stop
 * message to every other rank on a communicator of its own; each rank's
 * leader polls for one at every tick of its fork team (TEAM_TICK_MS) and
 * stops its workers at once (their stop signal: the file goes, the loops
 * end), not at the next barrier.  The rank's process is free to poll
 * because it never sits in the workers' write(2); MPI is only ever called
 * from that one thread, and never from a worker (a child, which ends
 * with _exit).  Stop messages still in flight are received before the
 * end, counted by the final allreduce.
 *
 * Nobody calls MPI_Abort() before its fork team has ended (and so every
 * file of the rank is gone); only a rank that timed out does, after that.
 *
 * Clocks: the epoch is the moment the rank's leader saw the barrier
 * complete, on its own monotonic clock, passed to its workers in a
 * shared page before they are let go; workers report start and end of a
 * step relative to it, so the hosts' clock offsets cancel and the span
 * (earliest start to latest end) carries only the barrier's exit skew.
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

#include "error.h"
#include "team-fork.h"
#include "team.h"
#include "text.h"

const char team_backend[] = "mpi";

#define HOST_LEN	64
#define ERR_LEN		512
#define STOP_TAG	1

/* The default bound on a wait: env BONNIE_NG_MPI_TIMEOUT (seconds). */
#define WAIT_BASE_S	120.0

/*
 * A blob's state in a gather, in a header that keeps the blob after it
 * as aligned as malloc's memory (the blob holds 64-bit fields).
 */
enum { REC_FAILED = 0, REC_OK = 1, REC_ABSENT = 2 };
#define REC_HDR		16

/* What a rank tells rank 0 at the end: why its first failure failed. */
struct rank_report {
	char		error[ERR_LEN];	/* Its team_error() line, or "". */
	int32_t		signalled;	/* Or it died of this signal, */
	int32_t		exit_status;	/* or exited with this status. */
	int32_t		files_left;	/* Its workers' files left behind. */
};

/* The rank's process: it leads its fork team and talks to the ranks. */
struct rank {
	const struct team_config *cfg;
	int		 rank, size;
	int		 per;		/* Workers per rank (k). */
	volatile bn_time *epoch;	/* Shared with the workers. */
	int		 barriers;	/* Barriers passed. */
	int		 gathers;	/* Gathers done. */
	int		 got;		/* Blobs in for this step. */
	int		 saw_stop;	/* A barrier returned stop. */
	int		 failed;	/* A worker of this rank failed, */
	int		 first;		/* the first of them (global). */
	int		 timed_out;
	int		 peer_stop;	/* A stop message came. */
	int		 sent;		/* This rank sent stop messages. */
	int		 received;	/* Stop messages received. */
	MPI_Request	 stop_req;	/* The posted receive. */
	MPI_Request	*stop_sends;	/* size of them. */
	int		 stop_in;	/* Receive buffer. */
	int		 stop_out;
	/*
	 * A vote's buffers: here, not in vote()'s frame, since MPI may
	 * still write them after a wait timed out (until the rank gives
	 * up, MPI_Abort()).
	 */
	int		 vote_mine, vote_any;
	double		 longest;	/* Longest step so far, seconds. */
	double		 timeout;	/* Fixed by the environment, or 0. */
	unsigned char	*send;		/* per x (state + blob) */
	unsigned char	*all;		/* Rank 0: everyone's. */
	unsigned char	*hsend;		/* host_size: the host's account, */
	unsigned char	*hall;		/* rank 0: every host's, */
	int		*hcounts, *hdispls; /* from each rank (0: not a lead). */
	size_t		 rec;		/* Bytes per worker in a gather. */
	struct rank_report report;
};

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

/* The rank's side. */

/* Has a stop message come?  Counts it and posts the next receive. */
static int
stop_poll(struct rank *t)
{
	int	done = 0;

	if (t->stop_req == MPI_REQUEST_NULL)
		return t->peer_stop;
	while (MPI_Test(&t->stop_req, &done, MPI_STATUS_IGNORE) ==
	    MPI_SUCCESS && done) {
		t->received++;
		t->peer_stop = 1;
		MPI_Irecv(&t->stop_in, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG,
		    stop_comm, &t->stop_req);
		done = 0;
	}
	return t->peer_stop;
}

/* Tell every other rank to stop now. */
static void
stop_send(struct rank *t)
{
	int	r;

	if (t->sent)
		return;
	t->sent = 1;
	t->stop_out = t->rank;
	for (r = 0; r < t->size; r++) {
		if (r == t->rank) {
			t->stop_sends[r] = MPI_REQUEST_NULL;
			continue;
		}
		MPI_Isend(&t->stop_out, 1, MPI_INT, r, STOP_TAG, stop_comm,
		    &t->stop_sends[r]);
	}
}

/*
 * Wait for a request, polling; give up after the bound.  The stop flag
 * does not end the wait (the others are coming to the same collective
 * to hear about it), the bound does.
 */
static int
wait_bounded(struct rank *t, MPI_Request *req, const char *what)
{
	struct timespec	 nap = { 0, 200000 };
	bn_time		 t0 = time_now();
	double		 bound = t->timeout > 0 ? t->timeout :
			    WAIT_BASE_S + 4 * t->longest;
	int		 done = 0;

	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	    !done) {
		if (time_elapsed(t0, time_now()) > bound) {
			text_say("rank %d (%s): no word from "
			    "the other ranks for %.0f s at the %s; giving "
			    "up", t->rank, hosts + (size_t)t->rank *
			    HOST_LEN, bound, what);
			t->timed_out = 1;
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	return done ? 0 : -1;
}

/* The barrier with a vote: 1 if any rank wants to stop, -1 timed out. */
static int
vote(struct rank *t, int mine, const char *what)
{
	MPI_Request	req;

	if (t->timed_out)
		return -1;
	t->vote_mine = mine;
	t->vote_any = 0;
	MPI_Iallreduce(&t->vote_mine, &t->vote_any, 1, MPI_INT, MPI_MAX,
	    MPI_COMM_WORLD, &req);
	if (wait_bounded(t, &req, what) == -1)
		return -1;
	return t->vote_any != 0;
}

static int
wants_stop(struct rank *t)
{
	return *t->cfg->stop != 0 || t->failed || stop_poll(t);
}

/* The fork team's gate: every local worker is at the barrier. */
static int
rank_gate(void *arg)
{
	struct rank	*t = arg;
	bn_time		 now;
	int		 v;

	v = vote(t, wants_stop(t), "barrier");
	if (v != 0) {
		if (v == 1)
			t->saw_stop = 1;
		return -1;
	}
	now = time_now();
	t->epoch->ns = now.ns;
	t->barriers++;
	if (team_host_lead() && t->cfg->released != NULL)
		t->cfg->released(t->cfg->arg);
	return 0;
}

/*
 * Each host's account of the step: once every rank's workers are done
 * (a barrier), each host's lowest rank reads its own, and rank 0 gets
 * them all, host by host.  0, or -1 timed out.
 */
static int
host_gather(struct rank *t)
{
	const struct team_config *cfg = t->cfg;
	MPI_Request		 req;
	int			 h, len = (int)cfg->host_size, lead;

	if (cfg->host_end == NULL || cfg->host_gathered == NULL || len <= 0)
		return 0;
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	if (wait_bounded(t, &req, "end of the step") == -1)
		return -1;
	memset(t->hsend, 0, cfg->host_size);
	if ((lead = team_host_lead()))
		cfg->host_end(cfg->arg, t->hsend);
	/* Only the hosts' leads send: rank 0 holds one buffer a host. */
	MPI_Igatherv(t->hsend, lead ? len : 0, MPI_BYTE, t->hall, t->hcounts,
	    t->hdispls, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	if (wait_bounded(t, &req, "hosts' gather") == -1)
		return -1;
	for (h = 0; t->rank == 0 && h < nhosts; h++)
		cfg->host_gathered(cfg->arg, h, t->hall + (size_t)h *
		    cfg->host_size);
	return 0;
}

/* This step's gather of the rank's k blobs (absent ones marked). */
static void
rank_gather(struct rank *t)
{
	MPI_Request	 req;
	const unsigned char *p;
	bn_time		 e;
	int		 i, n, st, len;
	double		 step;

	e.ns = t->epoch->ns;
	step = time_elapsed(e, time_now());

	t->gathers = t->barriers;
	t->got = 0;
	if (t->timed_out)
		return;
	if (step > t->longest)
		t->longest = step;
	len = (int)(t->rec * (size_t)t->per);
	MPI_Igather(t->send, len, MPI_BYTE, t->all, len, MPI_BYTE, 0,
	    MPI_COMM_WORLD, &req);
	if (wait_bounded(t, &req, "gather") == -1)
		return;
	if (host_gather(t) == -1)
		return;
	n = t->size * t->per;
	if (t->rank == 0)
		for (i = 0; i < n; i++) {
			p = t->all + (size_t)i * t->rec;
			memcpy(&st, p, sizeof(st));
			if (st != REC_ABSENT)
				t->cfg->gathered(t->cfg->arg, i, st == REC_OK,
				    p + REC_HDR);
		}
	for (i = 0; i < t->per; i++) {
		st = REC_ABSENT;
		memcpy(t->send + (size_t)i * t->rec, &st, sizeof(st));
	}
}

/* The fork team's gather callback: local worker i handed in. */
static void
rank_gathered(void *arg, int i, int ok, const void *blob)
{
	struct rank	*t = arg;
	unsigned char	*p = t->send + (size_t)i * t->rec;
	int		 st = ok ? REC_OK : REC_FAILED;

	memcpy(p, &st, sizeof(st));
	memcpy(p + REC_HDR, blob, t->cfg->blob_size);
	/*
	 * A failure (not a stop): tell the others before this step's
	 * gather, which may wait for them to end the step.  The fork team
	 * says afterwards which worker it blames.
	 */
	if (!ok && !*t->cfg->stop && !t->peer_stop && !t->saw_stop)
		stop_send(t);
	if (++t->got == t->per)
		rank_gather(t);
}

/* The fork team's tick: tell the others of a failure, hear theirs. */
static int
rank_tick(void *arg, int failing)
{
	struct rank	*t = arg;

	if (failing && !*t->cfg->stop)
		stop_send(t);
	return stop_poll(t) ? -1 : 0;
}

/*
 * A worker: a child of the rank's process, local worker i of its fork
 * team, with the rank's epoch; team.c is its side of the team.
 */
static int
rank_body(struct fork_team *f, int i, void *arg)
{
	const struct rank	*up = arg;

	return team_member_run(f, up->cfg, up->rank * up->per + i, up->epoch);
}

/* Receive the stop messages still in flight; cancel the last receive. */
static void
stop_drain(struct rank *t, int senders)
{
	int	expect = senders - (t->sent ? 1 : 0);

	while (t->received < expect && t->stop_req != MPI_REQUEST_NULL) {
		if (wait_bounded(t, &t->stop_req, "stop messages") == -1)
			return;
		t->received++;
		MPI_Irecv(&t->stop_in, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG,
		    stop_comm, &t->stop_req);
	}
	if (t->stop_req != MPI_REQUEST_NULL) {
		MPI_Cancel(&t->stop_req);
		MPI_Wait(&t->stop_req, MPI_STATUS_IGNORE);
	}
	if (t->sent)
		MPI_Waitall(t->size, t->stop_sends, MPI_STATUSES_IGNORE);
}

static void __attribute__((noreturn))
give_up(void)
{
	/* Our files are gone; nobody else will come. */
	fflush(NULL);
	MPI_Abort(MPI_COMM_WORLD, 1);
	_exit(1);
}

int
team_run(const struct team_config *cfg, struct team_outcome *out,
    char **cause)
{
	struct fork_team_config	 fc;
	struct team_outcome	 lo;
	struct rank		 t;
	MPI_Request		 req;
	const char		*env = getenv("BONNIE_NG_MPI_TIMEOUT");
	struct rank_report	*reps = NULL;
	void			*map;
	char			*lcause = NULL;
	int			 lrv, v, r, i, st, mine[2], first[2];

	memset(out, 0, sizeof(*out));
	out->worker = -1;
	if (!mpi_started && team_init(NULL, NULL) == -1)
		return errorf(cause, "MPI_Init failed");
	if (cfg->n < mpi_size || cfg->n % mpi_size != 0 ||
	    cfg->n / mpi_size > TEAM_MAX)
		return errorf(cause, "a team of %d in a job of %d ranks",
		    cfg->n, mpi_size);
	memset(&t, 0, sizeof(t));
	t.cfg = cfg;
	t.rank = mpi_rank;
	t.size = mpi_size;
	t.per = cfg->n / mpi_size;
	host_per = t.per;
	t.timeout = env != NULL ? strtod(env, NULL) : 0;
	t.rec = REC_HDR + ((cfg->blob_size + REC_HDR - 1) & ~(size_t)(REC_HDR -
	    1));
	t.send = xcalloc((size_t)t.per, t.rec);
	for (i = 0; i < t.per; i++) {
		st = REC_ABSENT;
		memcpy(t.send + (size_t)i * t.rec, &st, sizeof(st));
	}
	if (mpi_rank == 0)
		t.all = xcalloc((size_t)cfg->n, t.rec);
	if (cfg->host_size > 0) {
		t.hsend = xcalloc(1, cfg->host_size);
		if (mpi_rank == 0) {
			t.hall = xcalloc((size_t)nhosts, cfg->host_size);
			t.hcounts = xcalloc((size_t)mpi_size, sizeof(int));
			t.hdispls = xcalloc((size_t)mpi_size, sizeof(int));
			for (r = 0; r < mpi_size; r++)
				if (host_lead[host_of[r]] == r) {
					t.hcounts[r] = (int)cfg->host_size;
					t.hdispls[r] = host_of[r] *
					    (int)cfg->host_size;
				}
		}
	}
	t.stop_sends = xcalloc((size_t)mpi_size, sizeof(MPI_Request));
	map = mmap(NULL, sizeof(*t.epoch), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANON, -1, 0);
	if (map == MAP_FAILED) {
		/* Every rank fails the same way here, or waits out the bound. */
		free(t.send);
		free(t.all);
		free(t.hsend);
		free(t.hall);
		free(t.hcounts);
		free(t.hdispls);
		free(t.stop_sends);
		return errorf(cause, "mmap: %s", strerror(errno));
	}
	t.epoch = map;
	t.epoch->ns = 0;
	MPI_Irecv(&t.stop_in, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG, stop_comm,
	    &t.stop_req);

	memset(&fc, 0, sizeof(fc));
	fc.n = t.per;
	fc.blob_size = cfg->blob_size;
	fc.gathered = rank_gathered;
	fc.gate = rank_gate;
	fc.tick = rank_tick;
	fc.arg = &t;
	fc.body = rank_body;
	fc.body_arg = &t;
	fc.stop = cfg->stop;
	fc.stop_signal = cfg->stop_signal;
	lrv = fork_team_run(&fc, &lo, &lcause);
	/* The fork team blames only a failure from before any stop. */
	if (lrv == -1 && lo.failed && !*cfg->stop) {
		t.failed = 1;
		t.first = t.rank * t.per + (lo.worker >= 0 ? lo.worker : 0);
		snprintf(t.report.error, sizeof(t.report.error), "%s",
		    lo.error);
		t.report.signalled = lo.signalled;
		t.report.exit_status = lo.exit_status;
	}
	free(lcause);
	t.report.files_left = lo.files_left;
	out->files_left = lo.files_left;
	if (t.failed)
		stop_send(&t);
	/* The step the team stopped in: its gather, absent blobs marked. */
	if (t.gathers < t.barriers)
		rank_gather(&t);
	/* The vote the others, still going, hold at their next barrier. */
	if (!t.saw_stop && !t.timed_out) {
		v = vote(&t, wants_stop(&t), "end of the run");
		if (v == 1)
			t.saw_stop = 1;
	}
	if (t.timed_out)
		give_up();
	/* Who failed first (lowest worker), and how many said stop. */
	mine[0] = t.failed ? 0 : 1;
	mine[1] = t.failed ? t.first : INT_MAX;
	MPI_Iallreduce(mine, first, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req);
	if (wait_bounded(&t, &req, "final count") == -1)
		give_up();
	MPI_Iallreduce(&t.sent, &st, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
	    &req);
	if (wait_bounded(&t, &req, "final count") == -1)
		give_up();
	stop_drain(&t, st);
	/* A stop message that never came: its receive is still posted. */
	if (t.timed_out)
		give_up();
	if (mpi_rank == 0)
		reps = xcalloc((size_t)mpi_size, sizeof(*reps));
	MPI_Igather(&t.report, (int)sizeof(t.report), MPI_BYTE, reps,
	    (int)sizeof(t.report), MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	if (wait_bounded(&t, &req, "final gather") == -1)
		give_up();
	if (first[0] == 0) {
		out->failed = 1;
		out->worker = first[1];
	} else if (t.saw_stop || t.peer_stop || *cfg->stop)
		out->stopped = 1;
	/* Rank 0 reports: every rank's files left count. */
	for (r = 0; reps != NULL && r < mpi_size; r++)
		if (r != 0)
			out->files_left += reps[r].files_left;
	if (reps != NULL && out->failed) {
		r = out->worker / t.per;
		reps[r].error[ERR_LEN - 1] = '\0';
		snprintf(out->error, sizeof(out->error), "%s", reps[r].error);
		out->signalled = reps[r].signalled;
		out->exit_status = reps[r].exit_status;
		snprintf(out->host, sizeof(out->host), "%s",
		    team_host(out->worker));
	}
	free(reps);
	free(t.send);
	free(t.all);
	free(t.hsend);
	free(t.hall);
	free(t.hcounts);
	free(t.hdispls);
	free(t.stop_sends);
	munmap(map, sizeof(*t.epoch));
	if (!out->failed && !out->stopped)
		return 0;
	if (out->failed) {
		char	who[128], how[600];

		if (t.per > 1)
			snprintf(who, sizeof(who), "rank %d (%s), worker %d",
			    out->worker / t.per, team_host(out->worker),
			    out->worker);
		else
			snprintf(who, sizeof(who), "rank %d (%s)",
			    out->worker, team_host(out->worker));
		if (out->error[0] != '\0')
			snprintf(how, sizeof(how), "failed: %.511s",
			    out->error);
		else if (out->signalled != 0)
			snprintf(how, sizeof(how), "killed by signal %d (%s)",
			    out->signalled, strsignal(out->signalled));
		else if (out->exit_status != 0)
			snprintf(how, sizeof(how), "exited with status %d",
			    out->exit_status);
		else
			snprintf(how, sizeof(how), "failed");
		errorf(cause, "%s %s", who, how);
	} else
		errorf(cause, "stopped");
	return -1;
}
