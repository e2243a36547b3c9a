/*
 * Running the benchmark: the phases on one test file, as many times as
 * asked.
 */
#ifndef BONNIE_RUN_H
#define BONNIE_RUN_H

#include "options.h"
#include "result.h"

/*
 * Create a fresh test file in opt->dir, run the phases selected in
 * opt->phases in order, and remove the file.  The result holds every
 * phase that completed.  Returns 0, or -1 with res->err filled in (and
 * res->interrupted set when a signal stopped the run).
 */
int	run_once(const struct options *, struct run_result *);

/*
 * The seed of run index (0-based) of a series whose base seed is base:
 * run 0 uses base itself, each later run its own seed derived from base
 * (53 bits, so the record's readers keep it exact).  So every repeat is
 * an independent sample and -z reproduces the whole series.
 */
uint64_t run_seed(uint64_t base, int index);

/*
 * Check the target before any file is made: the directory exists, is a
 * directory and is writable, there is room for the file (unless
 * --no-space-check), and --direct can use the chunk.  Returns 0, or -1
 * with *cause set and *usage set to 1 when the fault is in the options
 * (exit 2) rather than the system (exit 1).
 */
int	run_preflight(const struct options *, int *usage, char **cause);

/* Catch SIGINT, SIGTERM and SIGHUP so the test file is always removed. */
void	run_signals_install(void);

/* Progress on stderr: 0 quiet, 1 line per phase, 2 live on a terminal. */
void	run_set_progress(int level);

#endif
