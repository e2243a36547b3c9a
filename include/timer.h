/*
 * Wall and CPU time.  No other file calls clock_gettime(2) or getrusage(2).
 */
#ifndef BONNIE_TIMER_H
#define BONNIE_TIMER_H

#include <stdint.h>
#include <sys/resource.h>

/* A point on the monotonic clock; opaque, compare with time_elapsed(). */
typedef struct { uint64_t ns; } bn_time;

/* CPU time in seconds, split as the kernel reports it. */
struct cpu_times {
	double	user;
	double	sys;
};

bn_time	time_now(void);
/* Seconds from a to b (negative if b is earlier). */
double	time_elapsed(bn_time a, bn_time b);
/* Nanoseconds from a to b, zero if b is earlier. */
uint64_t time_elapsed_ns(bn_time a, bn_time b);

/*
 * CPU used by the calling thread so far.  On systems without a per-thread
 * user/system split the whole figure is reported as user time.
 */
void	cpu_thread(struct cpu_times *);
/* CPU of the whole process (all threads) so far. */
void	cpu_process(struct cpu_times *);
/* Convert the rusage that wait4(2) returns. */
void	cpu_from_rusage(const struct rusage *, struct cpu_times *);
/* a += b, and d = b - a. */
void	cpu_add(struct cpu_times *, const struct cpu_times *);
void	cpu_diff(const struct cpu_times *a, const struct cpu_times *b,
	    struct cpu_times *d);

/*
 * Percent CPU: 100 x cpu seconds / elapsed seconds; 0 when the elapsed time
 * is not positive.
 */
double	cpu_percent(const struct cpu_times *, double elapsed);

#endif
