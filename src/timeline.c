/*
 * The timeline's sampler: a process forked just before a phase's clock
 * starts, sampling into a shared mapping until the run closes its pipe.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "error.h"
#include "kstat.h"
#include "platform.h"
#include "cgroup.h"
#include "signals.h"
#include "timeline.h"
#include "timer.h"
#include "units.h"

/* The mapping both sides see; the counters follow it. */
struct tl_shared {
	struct kstat_timeline	 tl;
	int			 ncounters;
	_Atomic uint64_t	 counter[];
};

struct timeline {
	double			 interval;
	size_t			 len;		/* Of the mapping. */
	struct tl_shared	*sh;
	pid_t			 pid;
	int			 fd;		/* The pipe's write end. */
	char			 why[KS_WHY];	/* Why the phase has none. */
};

/* What the sampler reads. */
struct tl_what {
	const char	*dev;
	const unsigned char *base;
	size_t		 stride;
	int		 n;
};

size_t
timeline_size(int counters)
{
	/* Each counter on its own cache line: workers store, never share. */
	return sizeof(struct tl_shared) + (size_t)(counters > 0 ? counters :
	    0) * 64;
}

struct timeline *
timeline_new(double interval, int counters)
{
	void	*p;

	if (!(interval > 0) || counters < 1)
		return NULL;
	p = mmap(NULL, timeline_size(counters), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANON, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	return timeline_new_at(interval, counters, p);
}

struct timeline *
timeline_new_at(double interval, int counters, void *p)
{
	struct timeline	*t;
	size_t		 len = timeline_size(counters);

	if (p == NULL)
		return NULL;
	if (!(interval > 0) || counters < 1) {
		munmap(p, len);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->interval = interval;
	t->len = len;
	t->sh = p;
	t->sh->ncounters = counters;
	t->pid = -1;
	t->fd = -1;
	return t;
}

void
timeline_free(struct timeline *t)
{
	if (t == NULL)
		return;
	free(timeline_stop(t));
	munmap(t->sh, t->len);
	free(t);
}

/* Counter i, a cache line (8 of them) from the one before. */
_Atomic uint64_t *
timeline_counter(struct timeline *t, int i)
{
	return &t->sh->counter[(size_t)i * 8];
}

static double
progress(const struct tl_shared *sh, const struct tl_what *w)
{
	uint64_t	sum = 0;
	int		i;

	if (w->n < 0)
		return -1;		/* Not known to the sampler. */
	if (w->base == NULL) {
		for (i = 0; i < sh->ncounters; i++)
			sum += atomic_load_explicit(&sh->counter[(size_t)i *
			    8], memory_order_relaxed);
		return (double)sum;
	}
	for (i = 0; i < w->n; i++)
		sum += __atomic_load_n((const uint64_t *)(const void *)(w->base +
		    (size_t)i * w->stride), __ATOMIC_RELAXED);
	return (double)sum;
}

/* Two neighbours as one: the later's counters, the gauges' mean. */
static void
merge(struct kstat_timeline *tl)
{
	struct tl_sample	*a, *b;
	int			 i;

	for (i = 0; i < tl->n / 2; i++) {
		a = &tl->s[2 * i];
		b = &tl->s[2 * i + 1];
		tl->s[i] = *b;
		tl->s[i].dirty = (a->dirty + b->dirty) / 2;
		tl->s[i].writeback = (a->writeback + b->writeback) / 2;
		tl->s[i].inflight = (a->inflight + b->inflight) / 2;
	}
	tl->n /= 2;
	tl->merged *= 2;
}

/* The raw samples not yet kept: merged of them make one. */
struct tl_acc {
	struct tl_sample	 s;
	int			 c;
	double			 dirty, writeback, inflight;
};

static void
sample(struct tl_shared *sh, const struct tl_what *w, bn_time t0,
    struct tl_acc *acc, int last)
{
	struct kstat_timeline	*tl = &sh->tl;
	struct tl_sample	 s;
	uint64_t		 d, wb, inf, sect;

	s.t = time_elapsed(t0, time_now());
	s.done = progress(sh, w);
	s.dirty = s.writeback = s.inflight = s.sectors = -1;
	if (kstat_sys_gauges(&d, &wb) == 0) {
		s.dirty = (double)d;
		s.writeback = (double)wb;
		tl->gauges++;
		tl->dirty_sum += s.dirty;
		tl->wb_sum += s.writeback;
		if (s.dirty > tl->dirty_peak)
			tl->dirty_peak = s.dirty;
		if (s.writeback > tl->wb_peak)
			tl->wb_peak = s.writeback;
	}
	if (kstat_sys_dev_now(w->dev, &inf, &sect) == 0) {
		s.inflight = (double)inf;
		s.sectors = (double)sect;
	}
	tl->taken++;
	acc->s = s;
	acc->dirty += s.dirty;
	acc->writeback += s.writeback;
	acc->inflight += s.inflight;
	if (++acc->c < tl->merged && !last)
		return;
	/* The last sample's counters, the gauges' mean over the merged. */
	s.dirty = acc->dirty / acc->c;
	s.writeback = acc->writeback / acc->c;
	s.inflight = acc->inflight / acc->c;
	memset(acc, 0, sizeof(*acc));
	if (tl->n == TL_MAX)
		merge(tl);
	tl->s[tl->n++] = s;
}

static void __attribute__((noreturn))
sampler(struct tl_shared *sh, const struct tl_what *w, int fd, double iv,
    bn_time t0)
{
	struct pollfd	pfd = { fd, POLLIN, 0 };
	struct tl_acc	acc;
	int		ms = (int)lround(iv * 1000), r;

	memset(&acc, 0, sizeof(acc));
	for (;;) {
		sample(sh, w, t0, &acc, 0);
		r = poll(&pfd, 1, ms);
		if (r > 0 || (r == -1 && errno != EINTR))
			break;
	}
	sample(sh, w, t0, &acc, 1);
	_exit(0);
}

int
timeline_start(struct timeline *t, const char *dev, const void *base,
    size_t stride, int n)
{
	struct tl_what	 w;
	bn_time		 t0;
	sigset_t	 old;
	int		 p[2], i;
	pid_t		 pid;

	if (t == NULL || t->pid != -1)
		return -1;
	t->why[0] = '\0';
	memset(&t->sh->tl, 0, sizeof(t->sh->tl));
	t->sh->tl.interval = t->interval;
	t->sh->tl.merged = 1;
	for (i = 0; i < t->sh->ncounters; i++)
		atomic_store_explicit(timeline_counter(t, i), 0,
		    memory_order_relaxed);
	if (pipe(p) == -1) {
		snprintf(t->why, sizeof(t->why), "the timeline's sampler "
		    "could not be started: pipe: %s", strerror(errno));
		return -1;
	}
	w.dev = dev;
	w.base = base;
	w.stride = stride;
	w.n = n;
	t0 = time_now();
	/* As a seeker: the run's handlers never run in the sampler. */
	signals_block(&old);
	pid = fork();
	if (pid == 0) {
		signals_default();
		platform_die_with_parent();
		signals_restore(&old);
		close(p[1]);
		sampler(t->sh, &w, p[0], t->interval, t0);
	}
	signals_restore(&old);
	close(p[0]);
	if (pid == -1) {
		snprintf(t->why, sizeof(t->why), "the timeline's sampler "
		    "could not be started: fork: %s", strerror(errno));
		close(p[1]);
		return -1;
	}
	/* The sampler is not the run: out of the run's cgroup. */
	(void)cgroup_exclude(pid);
	t->pid = pid;
	t->fd = p[1];
	return 0;
}

struct kstat_timeline *
timeline_stop(struct timeline *t)
{
	struct kstat_timeline	*out;
	char			 who[64];
	int			 status = 0, stopsig, r;

	if (t == NULL || t->pid == -1)
		return NULL;
	close(t->fd);
	t->fd = -1;
	/*
	 * It ends as soon as it sees the pipe closed; one stopped (SIGSTOP,
	 * a debugger) would hold the run, so it is waited for a bounded
	 * time.  Killed, stopped, or reaped already by a wait for any
	 * child: no timeline, and the reason for the phase's note.
	 */
	r = child_end(t->pid, CHILD_END_MS, &status, &stopsig);
	snprintf(who, sizeof(who), "the timeline's sampler (process %ld)",
	    (long)t->pid);
	t->pid = -1;
	child_words(t->why, sizeof(t->why), who, r, status, stopsig,
	    CHILD_END_MS);
	if (t->why[0] != '\0')
		return NULL;
	out = xmalloc(sizeof(*out));
	memcpy(out, &t->sh->tl, sizeof(*out));
	return out;
}

const char *
timeline_why(const struct timeline *t)
{
	return t != NULL && t->why[0] != '\0' ? t->why : NULL;
}

int
timeline_interval_parse(const char *arg, double *seconds, char **why)
{
	double	 v;

	if (strcmp(arg, "0") == 0) {
		*seconds = 0;
		return 0;
	}
	if (units_parse_latency(arg, &v) == -1) {
		if (units_parse_decimal(arg, &v) == -1)
			return errorf(why, "%s: not a duration (100ms, 0.5s, "
			    "bare milliseconds, 0 for off)", arg);
		v /= 1000;
	}
	if (v < TL_MIN_S || v > TL_MAX_S)
		return errorf(why, "%s: out of range (%g ms to %g s, or 0 for "
		    "off)", arg, TL_MIN_S * 1000, TL_MAX_S);
	*seconds = v;
	return 0;
}
