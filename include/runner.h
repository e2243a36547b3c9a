/*
 * Inside the core (run.c and the parts it is split into): the state of one
 * run, and what each part does for the phase loop.  Only run*.c include
 * it.  It does not include run.h: the parts include run.h and run.c
 * includes this, so the include graph has no cycle.
 */
#ifndef BONNIE_RUNNER_H
#define BONNIE_RUNNER_H

#include <sys/types.h>

#include <stdatomic.h>
#include <stdint.h>

#include "pattern.h"
#include "result.h"

struct cpu_times;
struct hist;
struct kstat_run;
struct options;
struct phase;
struct phase_ctx;
struct run_hooks;
struct run_result;
struct target;
struct timeline;

/* The state of one run. */
struct runner {
	const struct options	*opt;
	struct run_result	*res;
	int			 fd;		/* O_RDWR, held all run. */
	dev_t			 dev;
	ino_t			 ino;
	dev_t			 io_dev;	/* The block device its I/O
						   reaches (/proc/diskstats). */
	const struct target	*target;	/* --device, or NULL. */
	unsigned char		*buf;
	unsigned char		**bufs;		/* buf (io_buffers()). */
	struct pattern		 pat;
	enum pattern_writer	 ok[4];		/* What the file holds now. */
	int			 nok;
	size_t			 align;
	struct hist		*hist;
	int			 ncpu;
	const struct run_hooks	*hooks;		/* A team's worker, or NULL. */
	const char		*memfs;		/* "tmpfs" and the like, or NULL. */
	char			*loop_backing;	/* The loop device's backing file. */
	int			 loop_dio;	/* 1, 0, or -1 unknown. */
	char			 loop_name[64];	/* "loop3" */
	struct kstat_run	*ks;		/* The kernel's account; NULL
						   in a team's worker. */
	struct timeline		*tl;		/* Its sampler, or NULL. */
	_Atomic uint64_t	 progress;	/* Without one, the timed
						   loops' store goes here. */
};


/* Counters of the whole machine, sampled around a phase. */
struct machine_sample {
	int		cpu_ok, dev_ok;
	uint64_t	busy, total, rd, wr;
};

/*
 * run-file.c: the test file's life.  create_file() makes a fresh one in
 * opt->dir, open_target() opens --device's, remove_file() removes it (if
 * still ours) and says so when it could not be; file_check_direct() finds
 * out whether the file system takes O_DIRECT.  file_begin() forgets the
 * last run's file; file_phase() names the phase for the out-of-memory
 * handler's line; file_where() gives the file's path, its directory held
 * open and its name there.
 */
int	create_file(struct runner *);
int	open_target(struct runner *);
void	remove_file(struct runner *);
int	file_check_direct(struct runner *);
void	file_begin(void);
void	file_phase(const char *);
void	file_where(const char **path, int *dirfd, const char **name);
/*
 * The run's first failure as one line (phase, test file, call, the
 * system's words, offset); -1.  Warnings on stderr unless quiet.
 */
int	run_fail(struct runner *, const char *phase, const char *what,
	    int64_t offset, int errnum, const char *detail);
void	warn_run(const struct options *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* run-cache.c: the cache drops. */
enum cache_state first_state(const struct options *, const struct phase *,
	    int direct);
int	drop_cache(struct runner *, const struct phase *,
	    struct phase_result *);
int	drop_all(struct runner *, const struct phase *, struct phase_result *);
void	target_memory(struct runner *);
/* An in-place target's cache dropped and checked at the run's start. */
void	drop_target(struct runner *);

/* run-account.c: the accounting of a phase. */
void	machine_sample(struct runner *, struct machine_sample *);
void	machine_delta(const struct machine_sample *,
	    const struct machine_sample *, struct phase_result *);
void	phase_account(struct runner *, const struct phase *,
	    const struct phase_ctx *, double elapsed, const struct cpu_times *,
	    struct phase_result *);
void	show_bad(const struct runner *, const struct phase *,
	    const struct pattern_tally *);
void	kstat_open(struct runner *);

#endif
