/*
 * A team: N workers that run the same steps in lock-step, and a leader
 * that gathers what each worker hands in.  One interface, two back ends:
 * team-host.c forks the workers on this host (the default build: one fork
 * team, team-fork.c), team-mpi.c runs them across MPI ranks, n / ranks
 * forked workers in each (make mpi, a fork team per rank); both follow
 * team-plan.c's plan, the default build as a job of one rank.  Either way a
 * worker is a member of a fork team, so the worker side (team_barrier()
 * to team_error(), and team_stop_all()) is one, team.c's.  TEAM_MAX and
 * struct team_outcome come from team-fork.h.  The team knows nothing of
 * phases or files; what a worker hands in is an opaque blob of a size
 * fixed at the start.
 *
 * A worker's life: team_barrier() before each step (after its untimed
 * preparation), the step, then team_gather() with its blob and whether the
 * step went well; team_gather() returns once every worker (every rank's)
 * has handed in, so that no worker's next step, its preparation or the
 * removal of its file, runs while another is still timed.  When any worker fails, dies, or the leader is
 * signalled, every other worker is told to stop at once: the fork back end
 * sends each one SIGTERM, so a worker's own handler removes its file and
 * sets the stop flag that its loops poll; team_barrier() and team_gather()
 * then return -1.  A worker that dies outright leaves its registered file
 * (team_own_file()) for the leader to remove.
 *
 * Clocks: a worker reports its times relative to team_epoch(), the moment
 * it left the last barrier.  On one host (fork) the epoch is zero, since
 * every worker reads the same monotonic clock; across hosts (MPI) it is
 * the barrier's exit on that rank, so that the hosts' clock offsets never
 * enter a span (the error is the barrier's exit skew).
 */
#ifndef BONNIE_TEAM_H
#define BONNIE_TEAM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "team-fork.h"
#include "timer.h"

struct team;

struct team_config {
	/* Workers, 1..TEAM_MAX; MPI: a multiple of the ranks. */
	int		 n;
	size_t		 blob_size;	/* What team_gather() hands in. */
	/*
	 * Leader: a worker's blob for a step arrived (ok 0: the worker
	 * failed in it).  Called in order for each worker, never twice at
	 * once; the blob is only valid during the call.
	 */
	void		(*gathered)(void *arg, int worker, int ok,
			    const void *blob);
	/*
	 * Optional: every worker has arrived at a barrier and is about to
	 * be let go.  Called in the process that leads each host (fork:
	 * the leader; MPI: the host's lowest rank, as it leaves the
	 * barrier), so that each host can read its own counters there.
	 */
	void		(*released)(void *arg);
	/*
	 * Optional, each host's account of a step (host_size bytes): the
	 * process that leads a host fills buf in host_end() once every
	 * worker of the whole team has handed the step in (after
	 * released() at its start); the leader then gets each host's buf
	 * in host_gathered(), host 0 being its own, before the step's last
	 * gathered() call.
	 */
	size_t		 host_size;
	void		(*host_end)(void *arg, void *buf);
	void		(*host_gathered)(void *arg, int host, const void *buf);
	void		*arg;
	/*
	 * A worker's body: it runs in the worker (a child process, or the
	 * rank itself) and returns its exit status.
	 */
	int		(*body)(struct team *, int worker, void *arg);
	void		*body_arg;
	/* The flag a signal handler sets; the team polls it. */
	volatile sig_atomic_t *stop;
	/*
	 * Optional, MPI: rank 0 of several, stopped by a signal (mpirun
	 * sends SIGTERM when a rank died or it was told to stop, and
	 * SIGKILL a second later), as soon as it sees the stop: at its
	 * fork team's next tick (its own workers may still be ending), at
	 * its next exchange with ranks that may be gone, or in the middle
	 * of a wait on them: the leader writes what it has.  Called at
	 * most once.
	 */
	void		(*stopping)(void *arg);
	/* The signal that tells a worker to stop (the handler's). */
	int		 stop_signal;
};

/*
 * Run the team: start n workers, run body in each, let the leader gather,
 * and wait for every worker to end.  In the leader (the calling process
 * for fork; rank 0 for MPI) it returns 0 when every worker returned 0,
 * or -1 with *out saying who failed first and *cause one line; on other
 * MPI ranks it returns that rank's own status the same way.  Every
 * worker has ended (fork: been reaped) and every file it registered is
 * gone when it returns.
 */
int	team_run(const struct team_config *, struct team_outcome *out,
	    char **cause);

/*
 * Worker: wait until every worker has arrived.  0 to go on, -1 when the
 * team is stopping.  Sets the epoch.
 */
int	team_barrier(struct team *);
/*
 * Worker: hand in this step's blob (blob_size bytes) and whether the step
 * went well.  0 to go on; -1 when the team is stopping (this worker
 * failed, or another did).
 */
int	team_gather(struct team *, const void *blob, int ok);
/* Worker: the clock the times it reports are relative to. */
bn_time	team_epoch(const struct team *);
/* Worker: this worker's index and the team's size. */
int	team_worker(const struct team *);
int	team_size(const struct team *);
/*
 * Worker: the file it made (or none, path NULL), for the leader to remove
 * if the worker dies before it can: only if the path still names that
 * file (device and inode).  Call with the stop signal blocked.
 */
void	team_own_file(struct team *, const char *path, dev_t, ino_t);

/*
 * Leader: stop every worker now (async-signal-safe; for the leader's
 * signal handler).  A no-op outside a running team.
 */
void	team_stop_all(void);

/*
 * Once per process, before anything else (MPI_Init) and at the end
 * (MPI_Finalize); no-ops for fork.  team_init returns 0 or -1.
 */
int	team_init(int *argc, char ***argv);
void	team_finish(void);
/*
 * The process's place: ranks in the job and this one's rank (1 and 0 for
 * fork).  Only rank 0 prints and writes the record.
 */
int	team_ranks(void);
int	team_rank(void);
/* Leader, after team_run(): the host name of a worker ("" if unknown). */
const char *team_host(int worker);
/*
 * The job's hosts: its ranks grouped by host name, host 0 rank 0's, the
 * others in the order of their lowest ranks (1 for fork).  A worker's
 * host (during and after team_run()), a host's name and its ranks
 * (lowest first, at most max of them written; the count returned), and
 * whether this process leads its host (its lowest rank).
 */
int	team_hosts(void);
int	team_worker_host(int worker);
/*
 * A worker's place among its host's workers (0 up), and how many workers
 * this process's host runs (n: the team's size).
 */
int	team_host_slot(int worker);
int	team_host_workers(int n);
/*
 * Collective, before team_run(): len zeroed bytes that every process of
 * this host (and the workers they fork) shares, MAP_SHARED; NULL when
 * they cannot be had on some host (every process then gets NULL).  MPI:
 * the host's lowest rank makes a POSIX shared memory object that its
 * host's other ranks open, and removes its name once they have.
 */
void	*team_host_map(size_t len);
const char *team_host_name(int host);
int	team_host_ranks(int host, int *ranks, int max);
int	team_host_lead(void);

/*
 * Before the first phase, every rank's start-up (err: NULL, or the line
 * saying why it cannot run) and its settings (digest: n hashes, one per
 * setting that shapes the work) are brought together.  0 when every rank
 * can run and all agree with rank 0; else -1 with the first failing rank
 * (lowest number), its host and its line, or the first setting (index)
 * and rank that differ.  Always 0 for fork.
 */
struct team_disagree {
	int		 rank;
	char		 host[64];
	char		 error[512];	/* Its start-up line, or "". */
	int		 index;		/* The differing setting, or -1. */
};
int	team_start_agree(const char *err, const uint64_t *digest, int n,
	    struct team_disagree *);
/*
 * 1 while this rank has still to take part in team_start_agree(): a
 * command that fails before it (a bad option) calls it with its line, so
 * that the other ranks hear of it at once.  Always 0 for fork.
 */
int	team_start_pending(void);

/*
 * Worker: one line saying why it failed, for the leader's message when it
 * cannot gather a blob (MPI: a rank that failed before a barrier).
 */
void	team_error(struct team *, const char *line);
/*
 * Worker: its failure in this step, said before team_gather() with ok 0:
 * when (ns from team_epoch(): the failed step's end) and whether a stop
 * signal had interrupted it before it failed.  Returns whether the
 * team's own stop caused it (interrupted after the team had told its
 * workers to stop), as the team weighs it: team_fault_before() puts the
 * failures of the workers' own first.  A failure not said is weighed as
 * of when the leader saw it.
 */
int	team_fault(struct team *, int64_t ns, int interrupted);

/*
 * For the back ends only: run cfg's body as worker (the whole team's
 * index), a member of fork team f, whose epoch the back end keeps at
 * *epoch (NULL: always zero, on one host).  Returns the body's status.
 */
int	team_member_run(struct fork_team *f, const struct team_config *cfg,
	    int worker, const volatile bn_time *epoch);

/* Which back end this build has: "fork" or "mpi". */
extern const char team_backend[];

#endif
