/*
 * Wall time from the monotonic clock and CPU time from getrusage(2): the
 * only file that reads either.
 */
#include <sys/time.h>
#include <sys/resource.h>

#include <time.h>

#include "timer.h"

/* glibc names Linux's per-thread rusage only under _GNU_SOURCE. */
#if defined(__linux__) && !defined(RUSAGE_THREAD)
#define RUSAGE_THREAD	1
#endif

bn_time
time_now(void)
{
	struct timespec	ts;
	bn_time		t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t.ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return t;
}

double
time_elapsed(bn_time a, bn_time b)
{
	if (b.ns >= a.ns)
		return (double)(b.ns - a.ns) / 1e9;
	return -(double)(a.ns - b.ns) / 1e9;
}

uint64_t
time_elapsed_ns(bn_time a, bn_time b)
{
	return b.ns > a.ns ? b.ns - a.ns : 0;
}

static double
tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void
cpu_from_rusage(const struct rusage *ru, struct cpu_times *c)
{
	c->user = tv_seconds(&ru->ru_utime);
	c->sys = tv_seconds(&ru->ru_stime);
}

void
cpu_thread(struct cpu_times *c)
{
#ifdef RUSAGE_THREAD
	struct rusage	ru;

	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		cpu_from_rusage(&ru, c);
		return;
	}
#endif
	struct timespec	ts;

	/* No user/system split for one thread here: report it all as user. */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	c->user = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	c->sys = 0;
}

void
cpu_process(struct cpu_times *c)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	cpu_from_rusage(&ru, c);
}

void
cpu_add(struct cpu_times *a, const struct cpu_times *b)
{
	a->user += b->user;
	a->sys += b->sys;
}

void
cpu_diff(const struct cpu_times *a, const struct cpu_times *b,
    struct cpu_times *d)
{
	d->user = b->user - a->user;
	d->sys = b->sys - a->sys;
	if (d->user < 0)
		d->user = 0;
	if (d->sys < 0)
		d->sys = 0;
}

double
cpu_percent(const struct cpu_times *c, double elapsed)
{
	if (!(elapsed > 0))
		return 0;
	return 100.0 * (c->user + c->sys) / elapsed;
}
