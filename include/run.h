/*
 * Running the benchmark: the phases on one test file, as many times as
 * asked.
 */
#ifndef BONNIE_RUN_H
#define BONNIE_RUN_H

#include <sys/types.h>

#include <stdatomic.h>
#include <stdint.h>

#include "hist.h"
#include "options.h"
#include "result.h"
#include "timer.h"

/*
 * Create a fresh test file in opt->dir, run the phases selected in
 * opt->phases in order, and remove the file.  The result holds every
 * phase that completed.  Returns 0, or -1 with res->err filled in (and
 * res->interrupted set when a signal stopped the run).
 */
int	run_once(const struct options *, struct run_result *);

/* What a worker of a team hands in after each phase. */
struct run_phase_report {
	int			 ok;
	const struct phase_result *ph;	/* Its own figures. */
	bn_time			 start, end;	/* Its timed span. */
	const struct hist	*hist;
	const struct run_error	*err;	/* When not ok. */
};

/*
 * How a run that is one of a team's workers (run-team.c) meets the
 * others.  ready() is called after a phase's untimed preparation, just
 * before its clock starts (-1: stop); done() after the phase, ok or not,
 * whenever ready() returned 0 (-1: stop).  own_file() is told the test
 * file when it is made and NULL when it is gone, with the signals
 * blocked.  name_tag goes into the test file's name.
 */
struct run_hooks {
	const char	*name_tag;
	int		(*ready)(void *, enum phase_id);
	int		(*done)(void *, enum phase_id,
			    const struct run_phase_report *);
	void		(*own_file)(void *, const char *, dev_t, ino_t);
	void		*arg;
	/* The leader's timeline counter of this worker, or NULL. */
	_Atomic uint64_t *progress;
};

/* run_once() as one worker of a team. */
int	run_worker(const struct options *, struct run_result *,
	    const struct run_hooks *);

/*
 * Run opt->jobs workers (under MPI, every rank's: ranks x -j) in
 * lock-step and make one result of theirs (run-team.c); with one worker
 * on one rank, run_once().
 * progress: print a line per phase.  res->wph and res->workers are
 * allocated; run_result_free() frees them.
 */
int	run_team(const struct options *, struct run_result *, int progress);
/*
 * run_team() also measures the free space of opt->dir's file system
 * before the first file and after the last is removed (res->space_*).
 * When it is lower after by more than 1% of the files' size plus this,
 * the run is marked (space_leak) and, unless quiet, the first such run
 * of the invocation says so on stderr.  A drop is measured again after
 * writing the file system back, for up to a second, since some free the
 * space of a removed file late (btrfs, XFS).
 */
#define RUN_SPACE_SLACK	(UINT64_C(1) << 20)
/*
 * Above this fraction cached after a drop (or of cache hits, for a team's
 * cold phase), a phase is marked warm; a phase shorter than this many
 * seconds is marked imprecise.  run-cache.c, run-account.c and run-team.c
 * judge by them.
 */
#define WARM_LIMIT	0.05
#define PRECISE_SECONDS	0.5
void	run_result_free(struct run_result *);

/*
 * The seed of run index (0-based) of a series whose base seed is base:
 * run 0 uses base itself, each later run its own seed derived from base
 * (53 bits, so the record's readers keep it exact).  So every repeat is
 * an independent sample and -z reproduces the whole series.
 */
uint64_t run_seed(uint64_t base, int index);

/*
 * Whether a run of these phases (a mask) fills the test file before its
 * first phase: some phase uses the file and none fills it (PHASE_FILLS).
 */
int	run_prefills(unsigned phases);

/*
 * The bytes a run of o plans to write, for a plan made before it runs:
 * for each worker, the test file once per PHASE_WHOLE phase and once more
 * when it is prefilled, and the files of --files once per PHASE_WHOLE
 * file phase at their mean size.  What the seekers and the sync phase
 * write back is not in it (*partial is set when such a phase runs).
 */
uint64_t run_planned_bytes(const struct options *o, int *partial);

/*
 * Check the target before any file is made: the directory exists, is a
 * directory and is writable, there is room for the file (unless
 * --no-space-check), and --direct can use the chunk.  Returns
 * PREFLIGHT_OK, or with *cause set PREFLIGHT_OPTIONS when the fault is
 * in the options (exit 2) or PREFLIGHT_SYSTEM when it is in the system
 * (exit 1).
 */
enum preflight {
	PREFLIGHT_OK,
	PREFLIGHT_OPTIONS,
	PREFLIGHT_SYSTEM
};
enum preflight run_preflight(const struct options *, char **cause);
/*
 * The room for the test file (-s, times -j) in -d's file system, as the
 * preflight checks it, again before each later repeat and sweep point
 * (a leak or a neighbour may have taken it meanwhile): 0, or -1 with
 * "WHEN: the file needs N MiB but DIR has M MiB free" (WHEN NULL: the
 * preflight's words).  Nothing to check under --no-space-check or on a
 * device.
 */
int	run_space_check(const struct options *, const char *when,
	    char **cause);

/*
 * After a phase: the notes of the kernel's account that change what the
 * phase's figures mean (kstat_notes()), said on stderr unless quiet.
 */
struct kstat_phase;
void	run_kstat_notes(const struct options *, enum phase_id,
	    const struct phase_result *, struct kstat_phase *);

/* Catch SIGINT, SIGTERM and SIGHUP so the test file is always removed. */
void	run_signals_install(void);

/*
 * Under MPI, rank 0 of several stopped by a signal calls fn(arg), the
 * run's result saying it was interrupted, before it waits on ranks that
 * may be gone (struct team_config's stopping): the caller writes the rows
 * and the record it has.  NULL: none.
 */
void	run_set_stopping(void (*fn)(void *), void *arg);

/*
 * After each phase that completed, outside its clocks (in the process of
 * run_once(), or in a team's leader once every worker has handed the
 * phase in, before the next one is released), fn(arg, id) is called with
 * the run's result holding phase id: the caller rewrites the record of
 * what has been measured so far.  NULL: none.  run_phase_done() is the
 * call.
 */
void	run_set_phase_done(void (*fn)(void *, enum phase_id), void *arg);
void	run_phase_done(enum phase_id);

/* Progress on stderr: 0 quiet, 1 line per phase, 2 live on a terminal. */
void	run_set_progress(int level);

#endif
