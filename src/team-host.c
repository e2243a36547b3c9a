/*
 * The default build's team: one fork team (team-fork.c) on this host, its
 * workers the whole team, led by the same plan as make mpi's ranks
 * (team-plan.c) over a wire of one rank: every collective is this rank's
 * alone and returns at once, no stop comes from another rank, and no wait
 * can time out.  The worker side is team.c's.  make mpi links team-mpi.c
 * (the MPI wire) in place of this file.
 */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "team-fork.h"
#include "team-plan.h"
#include "team.h"

const char team_backend[] = "fork";

/* The one rank's vote: its own. */
static int
solo_vote(void *arg, int mine, int *any, double bound, const char *what)
{
	(void)arg;
	(void)bound;
	(void)what;
	*any = mine;
	return 0;
}

/* A gather (and the hosts' gather) of one rank: its own bytes. */
static int
solo_gather(void *arg, const void *send, size_t len, void *all, double bound,
    const char *what)
{
	(void)arg;
	(void)bound;
	(void)what;
	if (len > 0)
		memcpy(all, send, len);
	return 0;
}

static int
solo_barrier(void *arg, double bound, const char *what)
{
	(void)arg;
	(void)bound;
	(void)what;
	return 0;
}

static int
solo_sum(void *arg, int mine, int *sum, double bound)
{
	(void)arg;
	(void)bound;
	*sum = mine;
	return 0;
}

/* No other rank to tell, none to hear from. */
static void
solo_stop_send(void *arg)
{
	(void)arg;
}

static int
solo_stop_received(void *arg)
{
	(void)arg;
	return 0;
}

static int
solo_stop_drain(void *arg, int expect, double bound)
{
	(void)arg;
	(void)bound;
	return expect > 0 ? -1 : 0;
}

/* Never called: no collective of one rank waits, none times out. */
static void __attribute__((noreturn))
solo_give_up(void *arg)
{
	(void)arg;
	abort();
}

static const char *
solo_host_name(void *arg, int rank)
{
	(void)arg;
	return team_host(rank);
}

int
team_run(const struct team_config *cfg, struct team_outcome *out,
    char **cause)
{
	const struct team_wire	w = {
		.rank = 0,
		.size = 1,
		.hosts = 1,
		.host_lead = 1,
		.vote = solo_vote,
		.gather = solo_gather,
		.barrier = solo_barrier,
		.host_gather = solo_gather,
		.sum = solo_sum,
		.stop_send = solo_stop_send,
		.stop_received = solo_stop_received,
		.stop_drain = solo_stop_drain,
		.give_up = solo_give_up,
		.host_name = solo_host_name
	};

	return team_plan_run(&w, cfg, 0, out, cause);
}

int
team_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

void
team_finish(void)
{
}

int
team_ranks(void)
{
	return 1;
}

int
team_rank(void)
{
	return 0;
}

int
team_start_agree(const char *err, const uint64_t *digest, int n,
    struct team_disagree *td)
{
	(void)err;
	(void)digest;
	(void)n;
	memset(td, 0, sizeof(*td));
	td->index = -1;
	return 0;
}

int
team_start_pending(void)
{
	return 0;
}

const char *
team_host(int worker)
{
	static char	host[64];

	(void)worker;
	if (host[0] == '\0' && gethostname(host, sizeof(host) - 1) == -1)
		host[0] = '\0';
	return host;
}

int
team_hosts(void)
{
	return 1;
}

int
team_worker_host(int worker)
{
	(void)worker;
	return 0;
}

const char *
team_host_name(int host)
{
	(void)host;
	return team_host(0);
}

int
team_host_ranks(int host, int *ranks, int max)
{
	(void)host;
	if (max > 0)
		ranks[0] = 0;
	return 1;
}

int
team_host_lead(void)
{
	return 1;
}

int
team_host_slot(int worker)
{
	return worker;
}

int
team_host_workers(int n)
{
	return n;
}

void *
team_host_map(size_t len)
{
	void	*p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED |
		    MAP_ANON, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}
