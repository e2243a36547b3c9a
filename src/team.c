/*
 * The worker side of the team (include/team.h), the same in both back
 * ends: a worker is a member of a fork team (team-fork.c), of its host's
 * in the default build (team-host.c), of its rank's under MPI
 * (team-mpi.c), so its barrier, gather and the rest are that fork
 * team's.  A back end starts each worker's body through team_member_run().
 */
#include <stddef.h>

#include "team-fork.h"
#include "team.h"

/* What a worker's body gets: its fork team, its place and its clock. */
struct team {
	struct fork_team	*f;
	const struct team_config *cfg;
	int			 worker;
	const volatile bn_time	*epoch;
};

int
team_member_run(struct fork_team *f, const struct team_config *cfg,
    int worker, const volatile bn_time *epoch)
{
	struct team	t;

	t.f = f;
	t.cfg = cfg;
	t.worker = worker;
	t.epoch = epoch;
	return cfg->body(&t, worker, cfg->body_arg);
}

int
team_barrier(struct team *t)
{
	return fork_team_barrier(t->f);
}

int
team_gather(struct team *t, const void *blob, int ok)
{
	return fork_team_gather(t->f, blob, ok);
}

bn_time
team_epoch(const struct team *t)
{
	bn_time	e = { 0 };

	/* None: on one host every worker reads the same monotonic clock. */
	if (t->epoch != NULL)
		e.ns = t->epoch->ns;
	return e;
}

int
team_worker(const struct team *t)
{
	return t->worker;
}

int
team_size(const struct team *t)
{
	return t->cfg->n;
}

void
team_own_file(struct team *t, const char *path, dev_t dev, ino_t ino)
{
	fork_team_own_file(t->f, path, dev, ino);
}

void
team_error(struct team *t, const char *line)
{
	fork_team_error(t->f, line);
}

int
team_fault(struct team *t, int64_t ns, int interrupted)
{
	return fork_team_fault(t->f, ns, interrupted);
}

void
team_stop_all(void)
{
	/*
	 * The workers of this process's fork team; under MPI the signal
	 * reaches every rank (mpirun).
	 */
	fork_team_stop_all();
}
