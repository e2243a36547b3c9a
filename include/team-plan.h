/*
 * A team's plan across its ranks (team.h's team_run() in both builds):
 * every rank leads a fork team of its k workers (team-fork.h), and the
 * ranks step in lock-step: at each barrier they vote whether to go on,
 * after each step rank 0 gathers every worker's blob (and each host's
 * account), a failure anywhere stops every rank at once, and at the end
 * rank 0 says whom the team blames (team_fault_before()).  The plan
 * knows nothing of MPI: the ranks talk over a wire (struct team_wire),
 * whose back ends are MPI's (team-mpi.c), one rank's (team-host.c, the
 * default build: every collective is its own) and the fake ranks of
 * tests/t-team-plan.c, threads of one process, which run the same plan
 * without MPI.
 *
 * The ranks call the wire's collectives in the same order:
 *
 *   per step:  vote(stop?)        the barrier; any stop ends the team
 *              gather(k blobs)    to rank 0
 *              with host_end:
 *              barrier            every rank's workers are done
 *              host_gather        each host's account (read by its
 *                                 lowest rank) to rank 0, which calls
 *                                 host_gathered() and then gathered()
 *   at the end, only ranks that have not yet seen a stop in a barrier:
 *              vote(stop?)        matches the others' next barrier
 *   then every rank:
 *              vote(failed?)      whether a rank failed of its own
 *              sum                how many said stop
 *              gather(report)     each rank's failure, when and why, so
 *                                 rank 0 can name the first
 *
 * A rank whose team stopped inside a step (its workers did not all hand
 * in) still joins that step's gather, with the missing blobs marked
 * absent, so nobody waits in a collective another will not join.
 */
#ifndef BONNIE_TEAM_PLAN_H
#define BONNIE_TEAM_PLAN_H
#include <stddef.h>
#include "team.h"

/*
 * How the ranks talk.  A collective returns 0 once every rank has joined
 * it, or -1 when none came within bound seconds (the wire has said so on
 * standard error, naming what); what is waited for is named by what.
 */
struct team_wire {
	int	 rank, size;		/* This rank; the ranks. */
	int	 hosts;			/* Hosts; this rank leads its host */
	int	 host_lead;		/* (its lowest rank). */
	void	*arg;
	/* Any rank's mine set: *any 1. */
	int	(*vote)(void *, int mine, int *any, double bound,
		    const char *what);
	/* len bytes from each rank, in rank order into all (rank 0's). */
	int	(*gather)(void *, const void *send, size_t len, void *all,
		    double bound, const char *what);
	int	(*barrier)(void *, double bound, const char *what);
	/*
	 * Each host's lead sends len bytes (the others nothing), into
	 * all + host x len on rank 0.
	 */
	int	(*host_gather)(void *, const void *send, size_t len, void *all,
		    double bound, const char *what);
	/* The sum of every rank's mine. */
	int	(*sum)(void *, int mine, int *sum, double bound);
	/* Tell every other rank to stop now; the stops received so far. */
	void	(*stop_send)(void *);
	int	(*stop_received)(void *);
	/* Receive until expect stops came; -1 when they did not in time. */
	int	(*stop_drain)(void *, int expect, double bound);
	/* After a wait timed out, once this rank's files are gone; never
	 * returns (not marked: cppcheck cannot read the attribute on a
	 * member). */
	void	(*give_up)(void *);
	/* A rank's host name. */
	const char *(*host_name)(void *, int rank);
	/*
	 * Optional: have fn(fnarg) called at every poll while this rank
	 * waits in a collective or for stop messages (fn NULL: none).  The
	 * plan's, so that rank 0 stopped by a signal in the middle of a
	 * wait writes what it has then, not once ranks that may be gone
	 * have come.
	 */
	void	(*on_wait)(void *, void (*fn)(void *), void *fnarg);
};

/* One rank's part of the plan. */
struct team_plan;

/*
 * The rank's part, for cfg's team of cfg->n workers, cfg->n / size in
 * each rank; timeout, when above 0, bounds every wait (else 120 s plus
 * four times the longest step).  NULL with *cause when it cannot be had.
 */
struct team_plan *team_plan_new(const struct team_wire *,
	    const struct team_config *, double timeout, char **cause);
/*
 * The rank's fork team's hooks (team-fork.h): its gate, its gathered
 * (local worker i), its tick, and a worker's body.
 */
int	team_plan_gate(void *plan);
void	team_plan_gathered(void *plan, int i, int ok, const void *blob);
int	team_plan_tick(void *plan, int failing);
int	team_plan_body(struct fork_team *, int i, void *plan);
/*
 * After the rank's fork team ended (it returned lrv, with its outcome
 * local): the end's collectives, and the team's outcome as team_run()
 * says it (on rank 0 the whole team's; another rank names only a worker
 * of its own).  A rank whose only failures were the team's stop's doing
 * was stopped, not failed.  Frees the plan.
 */
int	team_plan_end(struct team_plan *, int lrv,
	    const struct team_outcome *local, struct team_outcome *out,
	    char **cause);
/* All of it: the rank's fork team under the plan. */
int	team_plan_run(const struct team_wire *, const struct team_config *,
	    double timeout, struct team_outcome *out, char **cause);

#endif
