/*
 * The team over MPI: one worker per rank, rank 0 the leader (and a worker
 * too).  Built only by `make mpi` into bonnie-ng-mpi, in place of team.c.
 *
 * Every collective is non-blocking and waited for by polling, so that a
 * rank notices its own stop flag while it waits and gives up after a
 * bounded time when another rank is gone.  The ranks call the same
 * collectives in the same order:
 *
 *   per step:  allreduce(stop?)   the barrier; any stop ends the body
 *              gather(ok, blob)   to rank 0, which calls gathered()
 *   at the end, only ranks that have not yet seen a stop in a barrier:
 *              allreduce(stop?)   matches the others' next barrier
 *   then every rank:
 *              gather(error line) so rank 0 can name the failure
 *
 * A failing rank so never leaves the others waiting in a collective it
 * will not join.  Nobody calls MPI_Abort() before its body has returned
 * (and so removed its file); only a rank that timed out does, after that.
 *
 * Clocks: team_epoch() is the moment this rank saw the barrier complete,
 * on its own monotonic clock; the run layer reports start and end of a
 * step relative to it, so the hosts' clock offsets cancel and the span
 * (earliest start to latest end) carries only the barrier's exit skew.
 */
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "team.h"

const char team_backend[] = "mpi";

#define HOST_LEN	64
#define ERR_LEN		512

/* The default bound on a wait: env BONNIE_NG_MPI_TIMEOUT (seconds). */
#define WAIT_BASE_S	120.0

struct team {
	const struct team_config *cfg;
	int		 rank, size;
	bn_time		 epoch;
	int		 saw_stop;	/* A barrier returned stop. */
	int		 failed;	/* This rank failed. */
	int		 timed_out;
	double		 longest;	/* Longest step so far, seconds. */
	double		 timeout;	/* Fixed by the environment, or 0. */
	unsigned char	*send;		/* ok + blob */
	unsigned char	*all;		/* Rank 0: every rank's ok + blob. */
	size_t		 rec;		/* Bytes per rank in a gather. */
	char		 error[ERR_LEN];
};

static int	mpi_rank, mpi_size = 1, mpi_started;
static char	*hosts;			/* Rank 0: size x HOST_LEN. */

int
team_init(int *argc, char ***argv)
{
	char	 host[HOST_LEN];
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
	return 0;
}

void
team_finish(void)
{
	int	flag = 0;

	free(hosts);
	hosts = NULL;
	if (!mpi_started)
		return;
	MPI_Finalized(&flag);
	if (!flag)
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
	if (hosts == NULL || worker < 0 || worker >= mpi_size)
		return "";
	return hosts + (size_t)worker * HOST_LEN;
}

int
team_worker(const struct team *t)
{
	return t->rank;
}

int
team_size(const struct team *t)
{
	return t->size;
}

bn_time
team_epoch(const struct team *t)
{
	return t->epoch;
}

void
team_own_file(struct team *t, const char *path, dev_t dev, ino_t ino)
{
	/* Each rank removes its own; a rank killed outright cannot. */
	(void)t;
	(void)path;
	(void)dev;
	(void)ino;
}

void
team_error(struct team *t, const char *line)
{
	snprintf(t->error, sizeof(t->error), "%s", line);
}

void
team_stop_all(void)
{
	/* The signal reaches every rank through mpirun; see team_barrier. */
}

/*
 * Wait for a request, polling; give up after the bound.  The stop flag
 * does not end the wait (the others are coming to the same collective
 * to hear about it), the bound does.
 */
static int
wait_bounded(struct team *t, MPI_Request *req, const char *what)
{
	struct timespec	 nap = { 0, 200000 };
	bn_time		 t0 = time_now();
	double		 bound = t->timeout > 0 ? t->timeout :
			    WAIT_BASE_S + 4 * t->longest;
	int		 done = 0;

	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	    !done) {
		if (time_elapsed(t0, time_now()) > bound) {
			fprintf(stderr, "bonnie-ng: rank %d (%s): no word from "
			    "the other ranks for %.0f s at the %s; giving "
			    "up\n", t->rank, team_host(t->rank), bound, what);
			t->timed_out = 1;
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	return done ? 0 : -1;
}

/* The barrier with a vote: 1 if any rank wants to stop, -1 timed out. */
static int
vote(struct team *t, int mine, const char *what)
{
	MPI_Request	req;
	int		any = 0;

	if (t->timed_out)
		return -1;
	MPI_Iallreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
	if (wait_bounded(t, &req, what) == -1)
		return -1;
	return any != 0;
}

int
team_barrier(struct team *t)
{
	int	v = vote(t, *t->cfg->stop != 0 || t->failed, "barrier");

	if (v != 0) {
		t->saw_stop = 1;
		return -1;
	}
	t->epoch = time_now();
	if (t->rank == 0 && t->cfg->released != NULL)
		t->cfg->released(t->cfg->arg);
	return 0;
}

int
team_gather(struct team *t, const void *blob, int ok)
{
	MPI_Request	req;
	int		r, rok;
	double		step = time_elapsed(t->epoch, time_now());

	if (t->timed_out)
		return -1;
	if (step > t->longest)
		t->longest = step;
	rok = ok;
	memcpy(t->send, &rok, sizeof(rok));
	memcpy(t->send + sizeof(int), blob, t->cfg->blob_size);
	MPI_Igather(t->send, (int)t->rec, MPI_BYTE, t->all, (int)t->rec,
	    MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	if (wait_bounded(t, &req, "gather") == -1)
		return -1;
	if (t->rank == 0)
		for (r = 0; r < t->size; r++) {
			memcpy(&rok, t->all + (size_t)r * t->rec, sizeof(rok));
			t->cfg->gathered(t->cfg->arg, r, rok, t->all +
			    (size_t)r * t->rec + sizeof(int));
		}
	if (!ok)
		t->failed = 1;
	return ok && !*t->cfg->stop ? 0 : -1;
}

int
team_run(const struct team_config *cfg, struct team_outcome *out,
    char **cause)
{
	struct team	 t;
	MPI_Request	 req;
	const char	*env = getenv("BONNIE_NG_MPI_TIMEOUT");
	char		*errs = NULL;
	int		 status, v, r, mine[2], first[2];

	memset(out, 0, sizeof(*out));
	out->worker = -1;
	if (!mpi_started && team_init(NULL, NULL) == -1)
		return errorf(cause, "MPI_Init failed");
	if (cfg->n != mpi_size)
		return errorf(cause, "a team of %d in a job of %d ranks",
		    cfg->n, mpi_size);
	memset(&t, 0, sizeof(t));
	t.cfg = cfg;
	t.rank = mpi_rank;
	t.size = mpi_size;
	t.timeout = env != NULL ? strtod(env, NULL) : 0;
	t.rec = sizeof(int) + cfg->blob_size;
	t.send = xcalloc(1, t.rec);
	if (mpi_rank == 0)
		t.all = xcalloc((size_t)mpi_size, t.rec);

	status = cfg->body(&t, mpi_rank, cfg->body_arg);
	/* Ending after a stop is not a failure of one's own. */
	if (status != 0 && !t.saw_stop)
		t.failed = 1;
	/* The vote the others, still going, hold at their next barrier. */
	if (!t.saw_stop && !t.timed_out) {
		v = vote(&t, t.failed || *cfg->stop != 0, "end of the run");
		if (v == 1)
			t.saw_stop = 1;
	}
	if (t.timed_out) {
		/* Our files are gone; nobody else will come. */
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	/* Who failed first (lowest rank), and why. */
	mine[0] = t.failed && !*cfg->stop ? 0 : 1;
	mine[1] = t.failed && !*cfg->stop ? mpi_rank : INT_MAX;
	MPI_Iallreduce(mine, first, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req);
	if (wait_bounded(&t, &req, "final count") == -1) {
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (mpi_rank == 0)
		errs = xcalloc((size_t)mpi_size, ERR_LEN);
	MPI_Igather(t.error, ERR_LEN, MPI_CHAR, errs, ERR_LEN, MPI_CHAR, 0,
	    MPI_COMM_WORLD, &req);
	if (wait_bounded(&t, &req, "final gather") == -1) {
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (first[0] == 0) {
		out->failed = 1;
		out->worker = first[1];
	} else if (t.saw_stop || *cfg->stop)
		out->stopped = 1;
	if (mpi_rank == 0 && out->failed) {
		r = out->worker;
		snprintf(out->error, sizeof(out->error), "%s",
		    errs + (size_t)r * ERR_LEN);
		snprintf(out->host, sizeof(out->host), "%s", team_host(r));
	}
	free(errs);
	free(t.send);
	free(t.all);
	if (!out->failed && !out->stopped)
		return 0;
	if (out->failed)
		errorf(cause, "rank %d (%s) failed%s%s", out->worker,
		    team_host(out->worker), out->error[0] ? ": " : "",
		    out->error);
	else
		errorf(cause, "stopped");
	return -1;
}
