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

double
time_elapsed(bn_time a, bn_time b)
{
	if (b.ns >= a.ns)
		return (double)(b.ns - a.ns) / 1e9;
	return -(double)(a.ns - b.ns) / 1e9;
}

static double
tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

uint64_t
cpu_thread_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
cpu_stamp_thread(struct cpu_stamp *c)
{
	struct timespec	ts;
	struct rusage	ru;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	c->clock_ns = (uint64_t)ts.tv_sec * 1000000000u +
	    (uint64_t)ts.tv_nsec;
#ifdef RUSAGE_THREAD
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		c->ru_user = tv_seconds(&ru.ru_utime);
		c->ru_sys = tv_seconds(&ru.ru_stime);
		return;
	}
#endif
	/* No per-thread split here: the process's is the best proportion. */
	getrusage(RUSAGE_SELF, &ru);
	c->ru_user = tv_seconds(&ru.ru_utime);
	c->ru_sys = tv_seconds(&ru.ru_stime);
}

void
cpu_self(struct cpu_times *c)
{
	struct rusage	ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1) {
		c->user = c->sys = 0;
		return;
	}
	c->user = tv_seconds(&ru.ru_utime);
	c->sys = tv_seconds(&ru.ru_stime);
}

void
cpu_between(const struct cpu_stamp *a, const struct cpu_stamp *b,
    struct cpu_times *d)
{
	double	total = 0, du, ds;

	if (b->clock_ns > a->clock_ns)
		total = (double)(b->clock_ns - a->clock_ns) / 1e9;
	du = b->ru_user - a->ru_user;
	ds = b->ru_sys - a->ru_sys;
	if (du < 0)
		du = 0;
	if (ds < 0)
		ds = 0;
	if (du + ds <= 0) {
		/* Too short for a tick: use the proportion so far. */
		du = b->ru_user;
		ds = b->ru_sys;
	}
	if (du + ds > 0) {
		/*
		 * total * du / (du + ds) can round above total when ds is
		 * 0: keep both parts within [0, total].
		 */
		d->user = total * du / (du + ds);
		if (d->user > total)
			d->user = total;
		d->sys = total - d->user;
		if (d->sys < 0)
			d->sys = 0;
	} else {
		d->user = total;
		d->sys = 0;
	}
}

void
cpu_add(struct cpu_times *a, const struct cpu_times *b)
{
	a->user += b->user;
	a->sys += b->sys;
}

double
cpu_percent(const struct cpu_times *c, double elapsed)
{
	if (!(elapsed > 0))
		return 0;
	return 100.0 * (c->user + c->sys) / elapsed;
}

void
utc_now(char *buf, size_t len)
{
	time_t		t = time(NULL);
	struct tm	tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		buf[0] = '\0';
}

int
cpu_counts(uint64_t *nvcsw, uint64_t *nivcsw, uint64_t *minflt,
    uint64_t *majflt)
{
	struct rusage	self, kids;

	if (getrusage(RUSAGE_SELF, &self) == -1 ||
	    getrusage(RUSAGE_CHILDREN, &kids) == -1)
		return -1;
	*nvcsw = (uint64_t)self.ru_nvcsw + (uint64_t)kids.ru_nvcsw;
	*nivcsw = (uint64_t)self.ru_nivcsw + (uint64_t)kids.ru_nivcsw;
	*minflt = (uint64_t)self.ru_minflt + (uint64_t)kids.ru_minflt;
	*majflt = (uint64_t)self.ru_majflt + (uint64_t)kids.ru_majflt;
	return 0;
}
