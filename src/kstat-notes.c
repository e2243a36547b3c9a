/*
 * The notes that change what a phase's figures mean, each with its scope
 * (whose it is: the run's own, the device's, the machine's): swapping and
 * reclaim, saying whether the run itself waited or faulted (its own
 * cgroup's memory pressure, its processes' major faults) or only the
 * machine did; dirty throttling; a busy or idle device; requests smaller
 * than the chunk; a queue far shallower than --iodepth; and device reads
 * in a write phase (read-modify-write).  Portable: it reads only the
 * account (kstat.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstat.h"
#include "text.h"

/* Above this util (%) a device is saturated; below the other, idle. */
#define SATURATED_UTIL	95.0
#define IDLE_UTIL	30.0
/* A phase this CPU-bound (% of one core) with an idle device is noted. */
#define CPU_BOUND_PCT	90.0
/* The machine's memory pressure "full" above this (% of the span). */
#define STALL_FULL_PCT	2.0
/*
 * The run's own pressure "some" (its cgroup's: one of its processes
 * waiting) at or above this share of the phase (%): the run waited.
 */
#define RUN_WAIT_PCT	1.0
/* Timeline samples at the dirty limit, as a share, that make a phase's. */
#define THROTTLE_SHARE	0.10
/* A phase that wrote this many times the freerun ceiling went past it. */
#define OVER_CEILING	4
/* At the dirty limit, a rate under this share of the rate below it fell. */
#define FELL_SHARE	0.8
/* Requests smaller than the chunk by this factor are "much smaller". */
#define SMALL_FACTOR	4
/* An --iodepth of at least this that reached the device this shallow. */
#define QDEPTH_MIN	4
#define QDEPTH_SHARE	0.25
/* Device reads in a write phase: at least 1 MiB and this share. */
#define RMW_MIN		(1 << 20)
#define RMW_SHARE	(1.0 / 16)

static void
note(struct kstat_phase *k, enum ks_note n, enum ks_scope scope,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
note(struct kstat_phase *k, enum ks_note n, enum ks_scope scope,
    const char *fmt, ...)
{
	va_list	ap;

	k->notes |= 1u << n;
	k->note_scope[n] = (unsigned char)scope;
	va_start(ap, fmt);
	vsnprintf(k->note_text[n], sizeof(k->note_text[n]), fmt, ap);
	va_end(ap);
}

/* The run's own pressure "some" of resource r (% of the phase), or -1. */
static double
run_wait(const struct kstat_phase *k, enum ks_psi r)
{
	return k->rpsi_ok ? k->rpsi[r][0] : -1;
}

/* The run's major faults: its processes' (getrusage), else its cgroup's. */
static int64_t
run_majflt(const struct kstat_phase *k, const struct kstat_proc *p)
{
	if (p != NULL && p->ru_ok && p->workers > 0)
		return (int64_t)p->v[KC_MAJFLT];
	if (k->cg_ok && k->cg_own)
		return kstat_cg(k, "pgmajfault");
	return -1;
}

/*
 * What the run's own processes did, in words, for a note that says who
 * paid: "its memory pressure 0.0% of the phase, 0 major faults".
 */
static void
run_words(char *b, size_t n, const struct kstat_phase *k, enum ks_psi r,
    int64_t majflt)
{
	char	flt[48] = "";

	if (majflt >= 0)
		snprintf(flt, sizeof(flt), ", %lld major fault%s",
		    (long long)majflt, majflt == 1 ? "" : "s");
	if (run_wait(k, r) >= 0)
		snprintf(b, n, "its %s pressure %.1f%% of the phase%s",
		    kstat_psi_name[r], run_wait(k, r), flt);
	else
		snprintf(b, n, "its %s stall not known: %.120s%s",
		    kstat_psi_name[r], k->rpsi_why, flt);
}

/* Pages of the run's own cgroup that went to swap or came back. */
static int64_t
run_swapped(const struct kstat_phase *k)
{
	if (!k->cg_ok || !k->cg_own)
		return 0;
	if (k->cg_v2)
		return kstat_cg(k, "pswpin") + kstat_cg(k, "pswpout");
	/* v1's "swap" is bytes in swap, a level: any change moved pages. */
	return llabs(kstat_cg(k, "swap")) / 4096;
}

static void
note_swap(struct kstat_phase *k, const struct kstat_proc *p,
    const struct kstat_work *w)
{
	int64_t	in = kstat_vm(k, "pswpin"), out = kstat_vm(k, "pswpout");
	int64_t	flt = run_majflt(k, p), own = run_swapped(k);
	double	wait = run_wait(k, KP_MEMORY);
	char	words[256];

	if (in <= 0 && out <= 0)
		return;
	run_words(words, sizeof(words), k, KP_MEMORY, flt);
	if (own > 0)
		snprintf(words + strlen(words), sizeof(words) - strlen(words),
		    "; %lld of its cgroup's pages swapped", (long long)own);
	if (flt > 0 || wait >= RUN_WAIT_PCT || own > 0)
		note(k, KN_SWAP, KS_RUN, "phase %s: this run paid for swapping "
		    "(%s): its figures include paging; the machine swapped "
		    "pswpin %lld, pswpout %lld pages", w->phase, words,
		    (long long)in, (long long)out);
	else
		note(k, KN_SWAP, KS_MACHINE, "phase %s: the machine swapped "
		    "(pswpin %lld, pswpout %lld pages); this run's own "
		    "processes did not wait (%s)", w->phase, (long long)in,
		    (long long)out, words);
}

/* The memory cgroup whose limit bounds the run, escaped for a terminal. */
static void
limit_words(char *b, size_t n, const struct kstat_phase *k)
{
	char	raw[sizeof(k->lim_path)], path[64];

	b[0] = '\0';
	if (!k->lim_ok || k->lim_hits <= 0) {
		/* A record of a run without its own cgroup: its failcnt. */
		if (k->cg_ok && !k->cg_own && kstat_cg(k, "failcnt") > 0) {
			memcpy(raw, k->cg_path, sizeof(raw));
			text_utf8_fix(raw);
			text_escape(path, sizeof(path), raw);
			snprintf(b, n, "; the memory cgroup %s hit its limit "
			    "%lld times (failcnt)", path,
			    (long long)kstat_cg(k, "failcnt"));
		}
		return;
	}
	/* The cgroup's name is anyone's: escaped for the terminal. */
	memcpy(raw, k->lim_path, sizeof(raw));
	text_utf8_fix(raw);
	text_escape(path, sizeof(path), raw);
	snprintf(b, n, "; the memory cgroup %s that bounds the run hit its "
	    "limit %lld times (%s)", path, (long long)k->lim_hits, k->lim_v2 ?
	    "memory.events max" : "memory.failcnt");
}

static void
note_reclaim(struct kstat_phase *k, const struct kstat_proc *p,
    const struct kstat_work *w)
{
	int64_t	stall = kstat_vm_prefix(k, "allocstall_");
	int64_t	scan = kstat_reclaimed(k, "pgscan");
	int64_t	steal = kstat_reclaimed(k, "pgsteal");
	int64_t	hits = k->lim_ok ? k->lim_hits : !k->cg_own ?
		    kstat_cg(k, "failcnt") : 0;
	int64_t	direct = k->cg_ok && k->cg_own ? kstat_cg(k, "pgscan_direct") :
		    0;
	int64_t	refault = k->cg_ok ? kstat_cg(k, "workingset_refault_file") :
		    kstat_vm(k, "workingset_refault_file");
	double	full = k->psi_ok ? k->psi[KP_MEMORY][1] : -1;
	double	wait = run_wait(k, KP_MEMORY);
	char	lim[192], again[160], words[256];
	int	run;

	/*
	 * The machine's own stalls are said when someone stalled in direct
	 * reclaim; its pressure alone, only with the run's stall unknown.
	 */
	if (stall <= 0 && !(full > STALL_FULL_PCT && wait < 0) && hits <= 0 &&
	    direct <= 0 && wait < RUN_WAIT_PCT)
		return;
	limit_words(lim, sizeof(lim), k);
	again[0] = '\0';
	/* Pages read back in the phase after reclaim evicted them. */
	if (refault > 0)
		snprintf(again, sizeof(again), "; %lld pages were read again "
		    "after reclaim evicted them (workingset_refault_file%s)",
		    (long long)refault, !k->cg_ok ? ", the machine's" :
		    k->cg_own ? ", the run's cgroup's" : "");
	run_words(words, sizeof(words), k, KP_MEMORY, run_majflt(k, p));
	/*
	 * The run paid when it waited on memory itself; where its stall is
	 * not known, when its own allocations reclaimed (its limit's hits,
	 * its cgroup's direct scans).
	 */
	run = wait >= 0 ? wait >= RUN_WAIT_PCT : hits > 0 || direct > 0;
	if (run)
		note(k, KN_RECLAIM, KS_RUN, "phase %s: reclaim stalled this "
		    "run (%s; pgscan %lld, pgsteal %lld pages%s)%s", w->phase,
		    words, (long long)scan, (long long)steal, lim, again);
	else
		note(k, KN_RECLAIM, KS_MACHINE, "phase %s: the machine "
		    "reclaimed (allocstall %lld, pgscan %lld, pgsteal %lld "
		    "pages, memory pressure full %.1f%% of the phase%s); this "
		    "run's own processes did not wait (%s)", w->phase,
		    (long long)stall, (long long)scan, (long long)steal,
		    full > 0 ? full : 0, lim, words);
}

/*
 * The kernel lets a writer dirty pages freely below its freerun ceiling,
 * half way between the background and the dirty thresholds (mm/page-
 * writeback.c), and throttles it above: the share of the timeline's
 * samples with nr_dirty + nr_writeback there, and the rates at and below.
 */
static double
at_limit(const struct kstat_phase *k, double ceiling, double *rate_at,
    double *rate_off)
{
	const struct kstat_timeline	*tl = k->tl;
	double				 at = 0, at_t = 0, off = 0, off_t = 0;
	double				 dt, dd;
	int				 i, n = 0, hit = 0;

	*rate_at = *rate_off = -1;
	if (tl == NULL || tl->n < 4)
		return k->dirty_peak + k->wb_peak >= ceiling ? -1 : 0;
	for (i = 0; i < tl->n; i++) {
		if (tl->s[i].dirty < 0)
			continue;
		n++;
		hit += tl->s[i].dirty + tl->s[i].writeback >= ceiling;
		if (i == 0)
			continue;
		dt = tl->s[i].t - tl->s[i - 1].t;
		dd = tl->s[i].done - tl->s[i - 1].done;
		if (!(dt > 0) || tl->s[i].done < 0)
			continue;
		if (tl->s[i].dirty + tl->s[i].writeback >= ceiling) {
			at += dd;
			at_t += dt;
		} else {
			off += dd;
			off_t += dt;
		}
	}
	if (at_t > 0)
		*rate_at = at / at_t;
	if (off_t > 0)
		*rate_off = off / off_t;
	return n > 0 ? (double)hit / n : 0;
}

/*
 * Dirty throttling: a buffered write phase whose dirty pages were at the
 * kernel's limit, by the timeline's samples at or above the freerun
 * ceiling, or by the phase writing many times the ceiling while the
 * machine's dirty and writeback pages reached the background threshold
 * or the run waited on I/O (the writer had to wait for writeback to keep
 * up).  Whose: the run's
 * when its own cgroup's io pressure says its processes waited.
 */
static void
note_throttle(struct kstat_phase *k, const struct kstat_work *w)
{
	double	bg = k->dirty_bg_thresh >= 0 && k->dirty_bg_thresh <
		    k->dirty_thresh ? (double)k->dirty_bg_thresh :
		    (double)k->dirty_thresh / 2;
	double	ceiling = (bg + (double)k->dirty_thresh) / 2;
	double	share, r_at, r_off, over, wait = run_wait(k, KP_IO);
	long	page = sysconf(_SC_PAGESIZE);
	char	rate[128] = "", seen[200], limits[200], waited[96];
	int	fell, reached;

	if (!w->writes || w->direct || k->dirty_thresh <= 0 || !k->vm_ok)
		return;
	if (page <= 0)
		page = 4096;
	share = at_limit(k, ceiling, &r_at, &r_off);
	over = (double)w->bytes / (ceiling * (double)page);
	reached = k->dirty_peak + k->wb_peak >= bg;
	/* The gauges' samples may miss the peaks: the run's wait says it. */
	if (!(share >= THROTTLE_SHARE) && !(share < 0 && reached) &&
	    !(over >= OVER_CEILING && (reached || wait >= RUN_WAIT_PCT)))
		return;
	fell = r_at >= 0 && r_off > 0 && r_at < FELL_SHARE * r_off;
	if (r_at >= 0 && r_off >= 0)
		snprintf(rate, sizeof(rate), "; the rate was %.0f KiB/s while "
		    "at it, %.0f below it", r_at / 1024, r_off / 1024);
	snprintf(limits, sizeof(limits), "the kernel's freerun ceiling (%.0f "
	    "pages, between nr_dirty_background_threshold %.0f and "
	    "nr_dirty_threshold %lld)", ceiling, bg,
	    (long long)k->dirty_thresh);
	if (share >= 0)
		snprintf(seen, sizeof(seen), "nr_dirty + nr_writeback peaked "
		    "at %.0f pages, at or above it in %.0f%% of the samples",
		    k->dirty_peak + k->wb_peak, 100 * share);
	else
		snprintf(seen, sizeof(seen), "nr_dirty + nr_writeback peaked "
		    "at %.0f pages", k->dirty_peak + k->wb_peak);
	if (wait >= 0)
		snprintf(waited, sizeof(waited), "%.0f%% of the phase (its io "
		    "pressure)", wait);
	else
		snprintf(waited, sizeof(waited), "for a time not known (no "
		    "pressure of its own)");
	/*
	 * Whose: the run's when it waited (or, its wait not known, its rate
	 * fell at the limit); the machine's when the run did not wait, or
	 * when neither the run's wait nor a timeline is there to tell.
	 */
	if (wait < 0 && share >= 0 && !fell)
		return;
	if (wait >= RUN_WAIT_PCT || (wait < 0 && fell))
		note(k, KN_THROTTLE, KS_RUN, "phase %s: the writers were "
		    "throttled on dirty pages: the phase wrote %.0f times %s; "
		    "%s; this run waited on I/O %s%s", w->phase, over, limits,
		    seen, waited, rate);
	else
		note(k, KN_THROTTLE, KS_MACHINE, "phase %s: the machine's "
		    "dirty pages were at the limit (%s; %s); this run's own "
		    "writers waited on I/O %s%s", w->phase, limits, seen,
		    waited, rate);
}

static void
note_device(struct kstat_phase *k, const struct kstat_work *w)
{
	const struct ks_dev	*d;
	double			 sz, kb;

	if (k->ndev == 0)
		return;
	d = &k->dev[0];
	kb = (d->v[KI_RKBS] + d->v[KI_WKBS]) * k->span;
	/* A device that moved less than a tenth of the phase's bytes. */
	if (kb * 1024 < (double)w->bytes / 10)
		return;
	if (d->v[KI_UTIL] >= SATURATED_UTIL)
		/* iostat(1): util is saturation only for serial service. */
		note(k, KN_SATURATED, KS_DEVICE, "phase %s: %s was busy the "
		    "whole phase (util %.0f%%, aqu-sz %.1f): the phase waited "
		    "on it; a device that serves requests in parallel may do "
		    "more at 100%%", w->phase, d->name, d->v[KI_UTIL],
		    d->v[KI_AQUSZ]);
	else if (d->v[KI_UTIL] < IDLE_UTIL && w->cpu_pct >= CPU_BOUND_PCT)
		note(k, KN_IDLE, KS_DEVICE, "phase %s: %s was mostly idle "
		    "(util %.0f%%) while the tool was CPU-bound (%.0f%% CPU)",
		    w->phase, d->name, d->v[KI_UTIL], w->cpu_pct);
	if (!w->block || w->chunk < 8192)
		return;
	/* The larger of the two directions' request sizes that moved. */
	sz = d->v[KI_RKBS] >= d->v[KI_WKBS] ? d->v[KI_RAREQSZ] :
	    d->v[KI_WAREQSZ];
	if (sz > 0 && sz * 1024 * SMALL_FACTOR <= (double)w->chunk)
		note(k, KN_SMALL_REQ, KS_DEVICE, "phase %s: requests reached "
		    "%s much smaller than the %llu KiB chunk (%s %.1f KiB: "
		    "%s)", w->phase, d->name,
		    (unsigned long long)(w->chunk / 1024),
		    d->v[KI_RKBS] >= d->v[KI_WKBS] ? "rareq-sz" : "wareq-sz",
		    sz, d->v[KI_RKBS] >= d->v[KI_WKBS] ? "read-ahead, "
		    "max_sectors_kb or the record size" : "max_sectors_kb or "
		    "the record size; read-ahead shapes no write");
}

/*
 * --iodepth N that reached the device far less deep: aqu-sz, iostat's
 * mean queue (the requests in flight, weighted by time), against N.
 */
static void
note_qdepth(struct kstat_phase *k, const struct kstat_work *w)
{
	const struct ks_dev	*d;
	const char		*why;
	double			 kb;

	if (w->depth < QDEPTH_MIN || k->ndev == 0 || !w->block)
		return;
	d = &k->dev[0];
	kb = (d->v[KI_RKBS] + d->v[KI_WKBS]) * k->span;
	if (kb * 1024 < (double)w->bytes / 2 ||
	    d->v[KI_AQUSZ] >= QDEPTH_SHARE * w->depth)
		return;
	if (w->engine != NULL && strcmp(w->engine, "io_uring") != 0 &&
	    w->engine[0] != '\0')
		why = "the queue's engine keeps few requests in flight";
	else if (w->writes && !w->reads && !w->in_place)
		why = "a file system allocating a new file's blocks takes its "
		    "writes one at a time (ext4 and XFS serialise direct "
		    "writes that extend a file or fill its holes on the "
		    "inode's lock); a file written before, a preallocated "
		    "one or --device keeps the queue full";
	else if (w->writes)
		why = "the file system or the device serialises the writes "
		    "(journal, allocation, a device with one queue)";
	else
		why = "the file system or the device serialises the reads, or "
		    "they complete faster than they are queued";
	note(k, KN_QDEPTH, KS_DEVICE, "phase %s: --iodepth %d reached %s "
	    "about %.1f deep (aqu-sz %.2f): likely %s", w->phase, w->depth,
	    d->name, d->v[KI_AQUSZ], d->v[KI_AQUSZ], why);
}

/*
 * Reads in a write phase that does not read the file: a write of part of
 * a page the cache does not hold reads the page first.  The run's own
 * count (its processes' read_bytes) where known, else the device's.
 */
static void
note_rmw(struct kstat_phase *k, const struct kstat_proc *p,
    const struct kstat_work *w)
{
	const struct ks_dev	*d = k->ndev > 0 ? &k->dev[0] : NULL;
	long			 page = sysconf(_SC_PAGESIZE);
	double			 rd, reqs = 0, sz = 0;
	char			 how[200], cnt[96] = "";
	enum ks_scope		 scope = KS_RUN;

	if (!w->writes || w->reads || !w->block || w->bytes == 0)
		return;
	if (page <= 0)
		page = 4096;
	if (p != NULL && p->io_ok && p->workers > 0)
		rd = (double)p->v[KC_READ_BYTES];
	else if (d != NULL) {
		rd = d->v[KI_RKBS] * k->span * 1024;
		scope = KS_DEVICE;
	} else
		return;
	if (rd < RMW_MIN || rd < RMW_SHARE * (double)w->bytes)
		return;
	if (d != NULL && d->v[KI_RS] > 0) {
		reqs = d->v[KI_RS] * k->span;
		sz = d->v[KI_RAREQSZ];
		snprintf(cnt, sizeof(cnt), " in %.0f requests of %.1f KiB "
		    "(%s)", reqs, sz, d->name);
	}
	if (w->chunk < (uint64_t)page)
		snprintf(how, sizeof(how), "every %ld KiB page was read before "
		    "being written: chunks of %llu B are below the page size",
		    page / 1024, (unsigned long long)w->chunk);
	else if (w->chunk % (uint64_t)page != 0)
		snprintf(how, sizeof(how), "chunks of %llu B are not whole "
		    "%ld KiB pages: the page each one ends in was read first",
		    (unsigned long long)w->chunk, page / 1024);
	else
		snprintf(how, sizeof(how), "pages written in part were read "
		    "first, or the file system read its own blocks");
	note(k, KN_RMW, scope, "phase %s: read-modify-write: %s read %.1f MiB "
	    "from the device%s while writing %.1f MiB: %s", w->phase,
	    scope == KS_RUN ? "the run" : "the device", rd / (1 << 20), cnt,
	    (double)w->bytes / (1 << 20), how);
}

void
kstat_notes(struct kstat_phase *k, const struct kstat_proc *p,
    const struct kstat_work *w)
{
	if (!k->known)
		return;
	note_swap(k, p, w);
	note_reclaim(k, p, w);
	note_throttle(k, w);
	note_device(k, w);
	note_qdepth(k, w);
	note_rmw(k, p, w);
	if (k->tl_why[0] != '\0')
		note(k, KN_TIMELINE, KS_RUN, "phase %s: %s, so the phase has "
		    "no timeline", w->phase, k->tl_why);
}

void
kstat_say(FILE *f, const struct kstat_phase *k)
{
	int	n;

	for (n = 0; n < KN_COUNT; n++)
		if (k->notes & (1u << n))
			fprintf(f, "bonnie-ng: warning: %s%s\n", k->note_text[n],
			    k->note_scope[n] == KS_MACHINE ? " (machine)" : "");
}
