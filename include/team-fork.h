/*
 * The fork back end's own interface (src/team-fork.c): n workers forked
 * on this host, a leader that coordinates them.  team.h's interface is
 * made of it by team-plan.c's plan, each rank leading a fork team of its
 * workers and joining the other ranks' barriers and gathers on their
 * behalf, over src/team-host.c's wire of one rank (the default build: the
 * team is one fork team) or src/team-mpi.c's (make mpi: each rank's fork
 * team has its -j workers); src/team.c is the worker side of both, a member's
 * calls into its fork team.  The meanings are team.h's; what is added
 * here is what an enclosing team needs: a gate before each barrier is let
 * go, and a tick while the workers run.  The caller ignores SIGPIPE: the
 * leader writes to the pipes of workers that may have ended.
 */
#ifndef BONNIE_TEAM_FORK_H
#define BONNIE_TEAM_FORK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "timer.h"

/* Workers in one fork team. */
#define TEAM_MAX	1024
/*
 * A worker's exit status for "finished, but a file of mine could not be
 * removed" (it has said which): not a failure of the team, counted in
 * team_outcome.files_left.
 */
#define TEAM_EXIT_LEFT	3

/*
 * One worker's failure, as the team weighs it against another's to say
 * whom it blames: see team_fault_before().
 */
struct team_fault {
	int64_t		 ns;		/* When: the failed step's end, which
					   the worker says (team_fault()),
					   or when the leader saw it die;
					   from the epoch (team_epoch()). */
	int32_t		 by_stop;	/* The team's own stop caused it (it
					   had reached the worker first). */
	int32_t		 worker;	/* The worker, or -1: no failure. */
};

/*
 * The one rule of blame, for every team and every rank's leader: a
 * failure of a worker's own before one the team's stop caused, then the
 * first in time, then the lower worker.  1 when a is blamed before b (b
 * of worker -1: none yet).
 */
int	team_fault_before(const struct team_fault *a,
	    const struct team_fault *b);

/* What happened to the team as a whole, for the leader. */
struct team_outcome {
	int		 failed;	/* A worker failed or died. */
	int		 worker;	/* The one the team blames, or -1. */
	int64_t		 fail_ns;	/* Its failure's ns and by_stop */
	int		 fail_by_stop;	/* (struct team_fault). */
	int		 signalled;	/* The worker died by this signal. */
	int		 exit_status;	/* Or exited with this status. */
	int		 stopped;	/* The leader stopped the team. */
	int		 timed_out;	/* MPI: gave up waiting for a rank. */
	int		 files_left;	/* Workers that ended well but could
					   not remove a file (each said). */
	char		 host[64];	/* The failing worker's host. */
	char		 error[512];	/* Its team_error() line, or "". */
};

struct fork_team;

struct fork_team_config {
	int		 n;		/* Workers, 1..TEAM_MAX. */
	size_t		 blob_size;
	/* As team_config's. */
	void		(*gathered)(void *arg, int worker, int ok,
			    const void *blob);
	/*
	 * Optional: every worker has arrived at a barrier.  Returns 0 to
	 * let them go, -1 to stop the team (an enclosing team said stop).
	 * Called before released.
	 */
	int		(*gate)(void *arg);
	void		(*released)(void *arg);
	/*
	 * Optional: called by the leader at every tick (TEAM_TICK_MS)
	 * while the team runs, with whether a worker has failed; returns
	 * -1 to stop the team now (mid-step).
	 */
	int		(*tick)(void *arg, int failing);
	void		*arg;
	int		(*body)(struct fork_team *, int worker, void *arg);
	void		*body_arg;
	volatile sig_atomic_t *stop;
	int		 stop_signal;
	/*
	 * Optional: the clock the workers' times count from (team_epoch()),
	 * for when the leader sees a worker die; NULL: zero.
	 */
	const volatile bn_time *epoch;
};

/* As team_run(), in the calling process as the leader. */
int	fork_team_run(const struct fork_team_config *,
	    struct team_outcome *out, char **cause);
/* Worker side, as team_barrier(), team_gather() and so on. */
int	fork_team_barrier(struct fork_team *);
int	fork_team_gather(struct fork_team *, const void *blob, int ok);
void	fork_team_own_file(struct fork_team *, const char *path, dev_t,
	    ino_t);
void	fork_team_error(struct fork_team *, const char *line);
int	fork_team_fault(struct fork_team *, int64_t ns, int interrupted);
/* Leader: as team_stop_all(). */
void	fork_team_stop_all(void);

#endif
