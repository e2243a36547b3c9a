/*
 * The accounting of a phase that ran: the machine's counters around it,
 * its figures from the clocks and the CPU (and whether they can be
 * trusted), the share of its reads the cache served, the kernel's
 * account, and the bad chunks --verify found.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "kstat.h"
#include "options.h"
#include "phase-ctx.h"
#include "phase.h"
#include "platform.h"
#include "run.h"
#include "runner.h"
#include "text.h"
#include "timeline.h"
#include "timer.h"


/* How many bad chunks are described on stderr, per phase. */
#define SHOW_BAD	5

/*
 * Describe the first bad chunks a phase found, and the count, on stderr:
 * not warnings but errors of the file system, so shown even with -q.
 */
void
show_bad(const struct runner *r, const struct phase *p,
    const struct pattern_tally *t)
{
	char	line[512], kinds[256] = "", who[128] = "";
	size_t	used = 0;
	int	i;

	/* A team's worker names itself: each checks its own file. */
	if (r->hooks != NULL)
		snprintf(who, sizeof(who), " (worker %s)", r->hooks->name_tag);
	for (i = 0; i < t->nkept && i < SHOW_BAD; i++) {
		pattern_describe(&t->kept[i], line, sizeof(line));
		text_say("phase %s%s: bad data %s",
		    p->name, who, line);
	}
	for (i = PV_DIFFERS; i < PV_COUNT; i++)
		if (t->kinds[i] != 0 && used < sizeof(kinds))
			used += (size_t)snprintf(kinds + used,
			    sizeof(kinds) - used, "%s%llu %s",
			    used ? ", " : "", (unsigned long long)t->kinds[i],
			    pattern_verdict_name((enum pattern_verdict)i));
	text_say("phase %s%s: %llu bad chunk%s read (%s), "
	    "%llu byte%s differ%s", p->name, who,
	    (unsigned long long)t->chunks,
	    t->chunks == 1 ? "" : "s", kinds, (unsigned long long)t->bytes,
	    t->bytes == 1 ? "" : "s", t->bytes == 1 ? "s" : "");
}


void
machine_sample(struct runner *r, struct machine_sample *m)
{
	m->cpu_ok = platform_cpu_ticks(&m->busy, &m->total) == 0;
	m->dev_ok = platform_dev_io(r->io_dev, &m->rd, &m->wr) == 0;
}

void
machine_delta(const struct machine_sample *a, const struct machine_sample *b,
    struct phase_result *ph)
{
	ph->machine_busy = -1;
	ph->dev_read = ph->dev_written = -1;
	if (a->cpu_ok && b->cpu_ok && b->total > a->total)
		ph->machine_busy = 100.0 * (double)(b->busy - a->busy) /
		    (double)(b->total - a->total);
	if (a->dev_ok && b->dev_ok) {
		ph->dev_read = (int64_t)(b->rd - a->rd);
		ph->dev_written = (int64_t)(b->wr - a->wr);
	}
}

/*
 * What share of a buffered reading phase's reads the cache served: the
 * bytes it read against what the device read meanwhile (other I/O on the
 * device only makes the share look smaller).  On a loop device that
 * reads its backing file through the cache, a chunk read again came from
 * that cache whatever the loop device counted.  In cold mode, more than
 * WARM_LIMIT marks the phase warm.
 */
static void
hit_fraction(struct runner *r, const struct phase *p,
    const struct phase_ctx *ctx, struct phase_result *ph)
{
	double	hits = -1;
	int	backing = 0;	/* The hits are the backing file's cache. */

	ph->hit_fraction = -1;
	if (!(p->flags & PHASE_READS) || ph->direct || ctx->bytes == 0)
		return;
	if (r->memfs != NULL)
		hits = 1;
	else if (ph->dev_read >= 0) {
		hits = 1 - (double)ph->dev_read / (double)ctx->bytes;
		if (hits < 0)
			hits = 0;
		if (r->loop_backing != NULL && r->loop_dio != 1 && ctx->ops > 0 &&
		    (double)ctx->repeats / (double)ctx->ops > hits) {
			hits = (double)ctx->repeats / (double)ctx->ops;
			backing = 1;
		}
	}
	ph->hit_fraction = hits;
	if (!(hits > WARM_LIMIT && ph->cache == CSTATE_COLD))
		return;
	ph->cache = CSTATE_WARM;
	/*
	 * Through a loop device the loop device reads every byte, but from
	 * the page cache of the file system holding its backing file: both
	 * are named, or the figures read as a contradiction.
	 */
	if (backing)
		warn_run(r->opt, "phase %s: %.0f%% of its reads were of chunks "
		    "read before, which the page cache kept for %s's backing "
		    "file %s (%s read %lld of %llu bytes, from that cache, not "
		    "from the device under the backing file); marked warm",
		    p->name, 100 * hits, r->loop_name, r->loop_backing,
		    r->loop_name, (long long)(ph->dev_read > 0 ? ph->dev_read :
		    0), (unsigned long long)ctx->bytes);
	else
		warn_run(r->opt, "phase %s: %.0f%% of its reads were cache hits "
		    "(the device read %lld of %llu bytes); marked warm", p->name,
		    100 * hits, (long long)(ph->dev_read > 0 ? ph->dev_read : 0),
		    (unsigned long long)ctx->bytes);
}

/* Fill in the result of a phase that ran. */
void
phase_account(struct runner *r, const struct phase *p,
    const struct phase_ctx *ctx, double elapsed, const struct cpu_times *cpu,
    struct phase_result *ph)
{
	int	bound;

	ph->ran = 1;
	ph->bytes = ctx->bytes;
	ph->ops = ctx->ops;
	ph->elapsed = elapsed;
	ph->user = cpu->user;
	ph->sys = cpu->sys;
	/* The fill ahead (fill_s) is off the clock, but its CPU is in cpu. */
	ph->cpu_pct = cpu_percent(cpu, elapsed + ctx->filled);
	ph->workers = ctx->workers;
	if (p->flags & PHASE_OPS)
		ph->rate = elapsed > 0 ? (double)ctx->ops / elapsed : 0;
	else
		ph->rate = elapsed > 0 ?
		    (double)ctx->bytes / 1024.0 / elapsed : 0;
	hist_summary(r->hist, &ph->lat);
	hit_fraction(r, p, ctx, ph);
	if (elapsed < PRECISE_SECONDS) {
		ph->imprecise = 1;
		warn_run(r->opt, "phase %s ran %.3f s, under %.1f s: its "
		    "figures are imprecise (use a larger -s)", p->name, elapsed,
		    PRECISE_SECONDS);
	}
	/*
	 * Each thread's CPU clock runs at most as fast as the wall clock and
	 * at most ncpu of them run at once: more than either is a meter that
	 * lied.
	 */
	bound = (p->flags & PHASE_WORKERS) ? ctx->workers : 1;
	if (bound < 1 || bound > r->ncpu)
		bound = r->ncpu;
	if (ph->cpu_pct > 100.0 * bound + 1) {
		ph->cpu_doubtful = 1;
		warn_run(r->opt, "phase %s: %.1f%% CPU is more than %d thread%s "
		    "on %d core%s can use; the CPU figure is doubtful", p->name,
		    ph->cpu_pct, (p->flags & PHASE_WORKERS) ? ctx->workers : 1,
		    (p->flags & PHASE_WORKERS) && ctx->workers != 1 ? "s" : "",
		    r->ncpu, r->ncpu == 1 ? "" : "s");
	}
}

/*
 * The kernel's account, read by the run itself when it is alone (a team's
 * leader reads it for the team): of the device the file's I/O reaches.
 */
void
kstat_open(struct runner *r)
{
	struct stat	st;
	dev_t		dev = r->io_dev;

	if (dev == 0 && stat(r->opt->dir, &st) == 0)
		dev = st.st_dev;
	r->ks = kstat_run_new(dev, r->memfs);
	r->res->ks = xcalloc(PH_COUNT, sizeof(*r->res->ks));
	r->tl = timeline_new(r->opt->interval_ms / 1000.0, 1);
}

void
run_kstat_notes(const struct options *opt, enum phase_id id,
    const struct phase_result *ph, struct kstat_phase *ks)
{
	const struct phase	*p = phase_table[id];
	struct kstat_work	 w;

	memset(&w, 0, sizeof(w));
	w.phase = p->name;
	w.chunk = opt->chunk;
	w.block = !(p->flags & (PHASE_PERCHAR | PHASE_META)) &&
	    (p->flags & (PHASE_READS | PHASE_WRITES));
	w.writes = (p->flags & PHASE_WRITES) != 0;
	w.reads = (p->flags & PHASE_READS) != 0;
	w.in_place = opt->device != NULL;
	w.direct = ph->direct;
	w.depth = ph->depth;
	w.engine = ph->engine;
	w.bytes = ph->bytes;
	w.cpu_pct = ph->cpu_pct;
	kstat_notes(ks, &ph->kp, &w);
	if (!opt->quiet)
		kstat_say(stderr, ks);
}

