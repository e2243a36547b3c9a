/*
 * Wall and CPU time.  No other file calls clock_gettime(2) or getrusage(2)
 * (time_now() is inline, here).
 */
#ifndef BONNIE_TIMER_H
#define BONNIE_TIMER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* A point on the monotonic clock; opaque, compare with time_elapsed(). */
typedef struct { uint64_t ns; } bn_time;

/* An amount of CPU time in seconds, user and system. */
struct cpu_times {
	double	user;
	double	sys;
};

/*
 * A reading of the calling thread's CPU clocks: the precise thread CPU
 * clock (CLOCK_THREAD_CPUTIME_ID) and the kernel's user/system split
 * (getrusage), which is sampled at the scheduler tick and so is only good
 * for the proportion, not the amount, over short spans.
 */
struct cpu_stamp {
	uint64_t	clock_ns;
	double		ru_user;
	double		ru_sys;
};

/*
 * Now, on the monotonic clock.  Inline: every timed loop reads it once a
 * chunk, right after the system call (see hist_add() in hist.h).
 */
static inline bn_time
time_now(void)
{
	struct timespec	ts;
	bn_time		t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t.ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return t;
}

/* Seconds from a to b (negative if b is earlier). */
double	time_elapsed(bn_time a, bn_time b);
/* Nanoseconds from a to b, zero if b is earlier (inline, as time_now()). */
static inline uint64_t
time_elapsed_ns(bn_time a, bn_time b)
{
	return b.ns > a.ns ? b.ns - a.ns : 0;
}

/* Read the calling thread's CPU clocks. */
void	cpu_stamp_thread(struct cpu_stamp *);
/* The calling thread's CPU time so far, in ns (one clock read). */
uint64_t cpu_thread_ns(void);
/*
 * The CPU used between two readings of the same thread: the precise clock
 * gives the amount, the getrusage figures split it into user and system.
 */
void	cpu_between(const struct cpu_stamp *, const struct cpu_stamp *,
	    struct cpu_times *);
/* The process's own CPU so far (getrusage RUSAGE_SELF). */
void	cpu_self(struct cpu_times *);
/* a += b. */
void	cpu_add(struct cpu_times *, const struct cpu_times *);

/*
 * The process's voluntary and involuntary context switches and minor and
 * major faults so far, its own and its reaped children's (getrusage).
 * 0, or -1.
 */
int	cpu_counts(uint64_t *nvcsw, uint64_t *nivcsw, uint64_t *minflt,
	    uint64_t *majflt);

/*
 * Percent CPU: 100 x cpu seconds / elapsed seconds; 0 when the elapsed time
 * is not positive.
 */
double	cpu_percent(const struct cpu_times *, double elapsed);

/*
 * The wall-clock time now in UTC as "2026-12-01T04:17:14Z" (ISO 8601); an
 * empty string if the system cannot say.
 */
void	utc_now(char *buf, size_t len);

#endif
