/*
 * What one run measured: a result per phase, and the error that stopped
 * the run, if any.  Formatting code reads these and touches no clocks.
 */
#ifndef BONNIE_RESULT_H
#define BONNIE_RESULT_H

#include <stdint.h>

#include "hist.h"
#include "kstat.h"
#include "pattern.h"
#include "phase-id.h"

/*
 * --cache: drop the test file's pages (cold), leave every cache alone
 * (keep), or also drop the whole system's caches before each reading or
 * lookup phase (global; Linux, root).  Names: cache_mode_name(), whose
 * cold and keep are the states' (cache_state_name()).
 */
enum cache_mode {
	CACHE_MODE_COLD,
	CACHE_MODE_KEEP,
	CACHE_MODE_GLOBAL,
	CACHE_MODE_COUNT
};

/* The cache state a phase ran in. */
enum cache_state {
	CSTATE_COLD,		/* Dropped and verified not resident. */
	CSTATE_WARM,		/* Asked to drop, but >5% stayed resident. */
	CSTATE_KEEP,		/* --cache=keep: left alone. */
	CSTATE_DIRECT,		/* O_DIRECT: the cache is bypassed. */
	CSTATE_DROPPED,		/* A file phase after --cache=global's
				   drop of every cache (not checkable per
				   file). */
	CSTATE_UNDROPPED	/* A file phase no drop reaches: its files'
				   dentries and inodes are as the phase
				   before left them. */
};

struct phase_result {
	int		 ran;		/* 0: skipped or not reached. */
	uint64_t	 bytes;		/* Bytes moved (seeks: bytes read). */
	uint64_t	 ops;		/* Operations (seeks: seeks). */
	double		 elapsed;	/* Seconds. */
	double		 user;		/* CPU seconds, user. */
	double		 sys;		/* CPU seconds, system. */
	double		 cpu_pct;	/* 100 x (user+sys) / elapsed. */
	double		 rate;		/* KiB/s, or seeks/s for seeks. */
	struct latency	 lat;		/* Per operation (per-char: per
					   stdio buffer). */
	double		 resident;	/* Fraction cached before; <0 unknown. */
	double		 drop_seconds;	/* Cache drops, not timed. */
	double		 fill_seconds;	/* Data made ahead, not timed. */
	int		 depth;		/* Requests in flight (--iodepth). */
	char		 engine[16];	/* depth > 1: ioq_engine(). */
	char		 fallback[160];	/* Why not io_uring, or "". */
	double		 hit_fraction;	/* Reads served by the cache, from the
					   device counters; <0 unknown. */
	double		 backing_resident; /* Loop device: fraction of its
					   backing file cached before; <0 n/a. */
	enum cache_state cache;
	int		 direct;	/* Used O_DIRECT. */
	int		 imprecise;	/* Ran under PRECISE_SECONDS (run.h). */
	int		 cpu_doubtful;	/* CPU above what the cores allow. */
	int64_t		 dev_read;	/* Device bytes read; <0 unknown. */
	int64_t		 dev_written;	/* Device bytes written; <0 unknown. */
	double		 machine_busy;	/* Whole machine busy %, 100 = all
					   cores; <0 unknown. */
	int		 workers;	/* Seekers that ran (seeks only). */
	double		 skew;		/* -j: latest end minus earliest end
					   over the span; <0 one worker. */
	int		 verified;	/* --verify checked every byte read
					   (the check is inside elapsed). */
	struct pattern_tally verify;	/* What the checks found. */
	struct kstat_proc kp;		/* The process's counters over the
					   span, its seekers' in; a team's:
					   every worker's summed. */
};

/* One worker's own figures for a phase (-j, MPI). */
struct worker_phase {
	int		 ran;
	uint64_t	 bytes;
	uint64_t	 ops;
	double		 elapsed;	/* Its own span, seconds. */
	double		 rate;		/* KiB/s, or seeks/s. */
	double		 cpu_pct;	/* Over elapsed plus fill. */
	double		 fill;		/* Its fill_s, seconds. */
	struct latency	 lat;
	double		 ready;		/* At the barrier, <= 0. */
	double		 start, end;	/* Seconds from the phase's earliest
					   start. */
	int64_t		 ready_ns, start_ns, end_ns; /* From the team's
					   epoch. */
	struct kstat_proc kp;		/* Its process counters. */
};

/* Where a worker ran. */
struct worker_info {
	char		 host[64];
	int		 rank;		/* MPI: its rank, 0 on one host. */
	int		 rank_worker;	/* Its index among its rank's. */
	uint64_t	 fs_id;		/* statvfs f_fsid of the directory. */
	int		 cpus_allowed;	/* Its CPU affinity's size, -1 unknown. */
	int		 host_cpus;	/* Its host's online CPUs, -1 unknown. */
	/* MPI: the rank's own host, "" unknown. */
	char		 kernel[64];
	char		 fs_type[32];
	char		 mount_options[256];
	char		 device[32];
};

/* Why a run stopped early. */
struct run_error {
	int		 set;
	const char	*phase;		/* Phase name, or "setup". */
	char		 path[1024];
	int64_t		 offset;	/* Byte offset, or -1. */
	int		 errnum;	/* errno, or 0. */
	char		 message[1600];	/* The whole one-line message. */
	/*
	 * Recorded once a stop signal had come: the stop's doing (an
	 * interrupted call), not a failure of the run's own.
	 */
	int		 after_stop;
};

struct run_result {
	struct phase_result ph[PH_COUNT];
	uint64_t	 seed;
	char		 start_utc[32];	/* ISO 8601, e.g. 2026-11-29T18:00:00Z */
	int		 interrupted;	/* Signal number, or 0. */
	uint64_t	 bad_chunks;	/* --verify: bad chunks, all phases. */
	int		 file_removed;	/* The test file was removed. */
	int		 file_left;	/* Files not removed (each said on
					   stderr with its path). */
	/*
	 * The free space of the target file system (statvfs f_bavail)
	 * before the test file was made and after it was removed; -1
	 * unknown.  space_leak: after is lower than before by more than
	 * 1% of the files' size plus 1 MiB (RUN_SPACE_SLACK).
	 */
	int64_t		 space_before;
	int64_t		 space_after;
	/*
	 * The removal itself: the space the test file held (st_blocks) just
	 * before its unlink, and the free space the unlink and the file
	 * system's write-back (syncfs) gave back; -1 unknown (a team's
	 * leader, --device).  When both are known, space_leak is held less
	 * freed above the slack: what other programs did to the file system
	 * meanwhile does not count.
	 */
	int64_t		 space_held;
	int64_t		 space_freed;
	int		 space_leak;
	struct run_error err;
	int		 jobs;		/* Workers; 0 or 1: a lone run. */
	struct worker_phase *wph;	/* jobs x PH_COUNT, or NULL. */
	struct worker_info *workers;	/* jobs, or NULL. */
	struct kstat_phase *ks;		/* PH_COUNT: the kernel's account of
					   each phase (kstat.h), or NULL. */
	/*
	 * MPI: each host's account of each phase (phase id's nhosts at
	 * hks + id * nhosts), ks then the sum; NULL on one host's team.
	 * host_ranks holds the ranks the hosts point into.
	 */
	int		 nhosts;
	struct kstat_host *hks;
	int		*host_ranks;
};

/*
 * Names used on the command line, in the report and in the JSON record;
 * "unknown" out of range.
 */
const char	*cache_state_name(enum cache_state);
const char	*cache_mode_name(enum cache_mode);

#endif
