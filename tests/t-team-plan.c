/*
 * The plan the MPI build's ranks follow (team-plan.c), without MPI: a
 * fake wire whose ranks are threads of this process, each driving the
 * plan's hooks as its fork team would (a gate per step, then each local
 * worker's blob), and ending it with its fork team's outcome.  Checked:
 * rank 0 gets every worker's blob in order and every host's account
 * before them; a failure in one rank stops every rank at the next
 * barrier, and rank 0 names the failed worker, its rank and host and its
 * line; a stop mid-step (a tick) ends the others' step, whose missing
 * blobs are left out, and the files left are counted over the ranks;
 * of several failures rank 0 blames by the one rule (team_fault_before()):
 * a worker's own before one the team's stop caused, then the first in time;
 * rank 0 stopped by a signal writes what it has (cfg->stopping) as soon as
 * it sees the stop: in the middle of a wait on ranks that have not come
 * (they come only once it has, or after a bound), and at its fork team's
 * tick, before any exchange.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "team-plan.h"
#include "team.h"
#include "tap.h"

#define RANKS	3
#define PER	2
#define N	(RANKS * PER)
#define STEPS	3
/* What rank 0 sees of the first step, every rank's blobs in. */
#define STEP0	" h0=0 h1=1 h2=2 w0=0 w1=1 w2=2 w3=3 w4=4 w5=5"

/* The fake wire: every collective meets at a generation barrier. */
struct fake {
	pthread_mutex_t	 m;
	pthread_cond_t	 c;
	int		 arrived;
	unsigned	 gen;
	int		 ints[RANKS][2];
	const void	*bufs[RANKS];
	size_t		 lens[RANKS];
	int		 stops[RANKS];	/* Stops sent to each rank. */
};

struct fake_rank {
	struct fake	*f;
	int		 rank;
	void		(*waiting)(void *);	/* The plan's hook, */
	void		*waiting_arg;		/* run at every poll. */
};

static struct fake	fake = { PTHREAD_MUTEX_INITIALIZER,
			    PTHREAD_COND_INITIALIZER, 0, 0, { { 0 } },
			    { NULL }, { 0 }, { 0 } };

/*
 * Every rank has arrived: then each reads what the others left.  Waited
 * for by polling, as MPI's wire does, the plan's hook at every poll.
 */
static void
meet(struct fake_rank *fr)
{
	struct fake	*f = fr->f;
	struct timespec	 ts;
	unsigned	 g;

	pthread_mutex_lock(&f->m);
	g = f->gen;
	if (++f->arrived == RANKS) {
		f->arrived = 0;
		f->gen++;
		pthread_cond_broadcast(&f->c);
	}
	while (g == f->gen) {
		if (fr->waiting != NULL) {
			pthread_mutex_unlock(&f->m);
			fr->waiting(fr->waiting_arg);
			pthread_mutex_lock(&f->m);
			if (g != f->gen)
				break;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&f->c, &f->m, &ts);
	}
	pthread_mutex_unlock(&f->m);
}

static void
fake_on_wait(void *arg, void (*fn)(void *), void *fnarg)
{
	struct fake_rank	*fr = arg;

	fr->waiting = fn;
	fr->waiting_arg = fnarg;
}

static int
fake_vote(void *arg, int mine, int *any, double bound, const char *what)
{
	struct fake_rank	*fr = arg;
	int			 r;

	(void)bound;
	(void)what;
	fr->f->ints[fr->rank][0] = mine;
	meet(fr);
	for (*any = 0, r = 0; r < RANKS; r++)
		*any |= fr->f->ints[r][0] != 0;
	meet(fr);
	return 0;
}

static int
fake_gather(void *arg, const void *send, size_t len, void *all, double bound,
    const char *what)
{
	struct fake_rank	*fr = arg;
	int			 r;

	(void)bound;
	(void)what;
	fr->f->bufs[fr->rank] = send;
	fr->f->lens[fr->rank] = len;
	meet(fr);
	for (r = 0; fr->rank == 0 && r < RANKS; r++)
		memcpy((char *)all + (size_t)r * len, fr->f->bufs[r],
		    fr->f->lens[r]);
	meet(fr);
	return 0;
}

static int
fake_barrier(void *arg, double bound, const char *what)
{
	(void)bound;
	(void)what;
	meet(arg);
	return 0;
}

static int
fake_sum(void *arg, int mine, int *sum, double bound)
{
	struct fake_rank	*fr = arg;
	int			 r;

	(void)bound;
	fr->f->ints[fr->rank][0] = mine;
	meet(fr);
	for (*sum = 0, r = 0; r < RANKS; r++)
		*sum += fr->f->ints[r][0];
	meet(fr);
	return 0;
}

static void
fake_stop_send(void *arg)
{
	struct fake_rank	*fr = arg;
	int			 r;

	pthread_mutex_lock(&fr->f->m);
	for (r = 0; r < RANKS; r++)
		if (r != fr->rank)
			fr->f->stops[r]++;
	pthread_mutex_unlock(&fr->f->m);
}

static int
fake_stop_received(void *arg)
{
	struct fake_rank	*fr = arg;
	int			 n;

	pthread_mutex_lock(&fr->f->m);
	n = fr->f->stops[fr->rank];
	pthread_mutex_unlock(&fr->f->m);
	return n;
}

/* Every stop was sent before the final sum: they are all in. */
static int
fake_stop_drain(void *arg, int expect, double bound)
{
	(void)bound;
	return fake_stop_received(arg) >= expect ? 0 : -1;
}

static void __attribute__((noreturn))
fake_give_up(void *arg)
{
	(void)arg;
	fprintf(stderr, "the plan gave up: a fake rank never waits\n");
	abort();
}

static const char *
fake_host_name(void *arg, int rank)
{
	static const char *const names[RANKS] = { "h0", "h1", "h2" };

	(void)arg;
	return rank >= 0 && rank < RANKS ? names[rank] : "";
}

/* What rank 0's leader saw, in order. */
static char	seen[4096];
static size_t	nseen;

static void
say(const char *what, int a, int b, const char *mark)
{
	nseen += (size_t)snprintf(seen + nseen, sizeof(seen) - nseen,
	    " %s%d=%d%s", what, a, b, mark);
}

static void
gathered(void *arg, int worker, int ok, const void *blob)
{
	int	v;

	(void)arg;
	memcpy(&v, blob, sizeof(v));
	say("w", worker, v, ok ? "" : "!");
}

static void
host_gathered(void *arg, int host, const void *buf)
{
	int	v;

	(void)arg;
	memcpy(&v, buf, sizeof(v));
	say("h", host, v, "");
}

/* A worker that fails in a scenario's step: when, and by whose doing. */
struct fail {
	int	 rank, worker;
	int64_t	 ns;
	int	 by_stop;
};

/*
 * What each rank's fork team does in a scenario: in step fail_step, local
 * worker fail_worker of rank fail_rank fails (its blob says so), and so do
 * the workers of more; with tick_stop, the failing rank's tick tells the
 * others mid-step, and their workers of that step never hand in.
 */
struct scenario {
	int	 fail_rank, fail_worker, fail_step;
	int	 tick_stop;
	/*
	 * A signal to every rank in step sig_step: SIG_WAIT while rank 0
	 * waits alone in the step's barrier, the others held until it has
	 * written (or a bound); SIG_TICK once rank 0 is in the step, seen
	 * at its tick.
	 */
	int	 sig_step, sig_how;
	int	 files_left;		/* Each rank's. */
	struct fail more[3];
	int	 nmore;
};

static const struct scenario	*sc;

/* Whether local worker i of rank r fails in step, and how. */
static int
fails_here(int r, int i, int step, struct team_fault *f)
{
	int	k;

	f->ns = 0;
	f->by_stop = 0;
	f->worker = i;
	if (step != sc->fail_step)
		return 0;
	if (r == sc->fail_rank && i == sc->fail_worker)
		return 1;
	for (k = 0; k < sc->nmore; k++)
		if (sc->more[k].rank == r && sc->more[k].worker == i) {
			f->ns = sc->more[k].ns;
			f->by_stop = sc->more[k].by_stop;
			return 1;
		}
	return 0;
}

static volatile sig_atomic_t	 stop_flag;
static struct team_config	 cfg;

enum { SIG_NONE, SIG_WAIT, SIG_TICK };

/*
 * Rank 0's writes (cfg->stopping); whether each other rank saw one
 * before it joined the barrier (SIG_WAIT), and whether rank 0's tick
 * wrote before it returned (SIG_TICK).
 */
static int	stopping_calls, written_before[RANKS], tick_wrote;
/* Over every run, for the scenarios without a signal. */
static int	stopping_ever;

static void
plan_stopping(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&fake.m);
	stopping_calls++;
	stopping_ever++;
	pthread_mutex_unlock(&fake.m);
}

static int
locked_int(const int *p)
{
	int	v;

	pthread_mutex_lock(&fake.m);
	v = *p;
	pthread_mutex_unlock(&fake.m);
	return v;
}

/*
 * SIG_WAIT, a rank but 0: once rank 0 waits in the barrier (it alone has
 * arrived), the signal; then this rank comes once rank 0 has written, or
 * after 10 s (then too late: the check says so).
 */
static void
signal_while_rank0_waits(int r)
{
	struct timespec	nap = { 0, 1000000 };
	int		i;

	while (locked_int(&fake.arrived) < 1)
		nanosleep(&nap, NULL);
	stop_flag = 1;
	for (i = 0; i < 10000 && locked_int(&stopping_calls) == 0; i++)
		nanosleep(&nap, NULL);
	written_before[r] = locked_int(&stopping_calls) > 0;
}

struct ranked {
	struct fake_rank	 fr;
	struct team_wire	 w;
	struct team_outcome	 out;
	char			*cause;
	int			 rv;
};

/* One rank: its fork team's part, then the plan's end. */
static void *
rank_main(void *arg)
{
	struct ranked		*rk = arg;
	struct team_outcome	 lo;
	struct team_plan	*t;
	struct team_fault	 f, mine = { 0, 0, -1 };
	int			 step, i, v, ok, r = rk->fr.rank, lrv = 0;

	t = team_plan_new(&rk->w, &cfg, 0, &rk->cause);
	if (t == NULL)
		return NULL;
	memset(&lo, 0, sizeof(lo));
	lo.worker = -1;
	for (step = 0; step < STEPS; step++) {
		if (sc->sig_how == SIG_WAIT && step == sc->sig_step && r != 0)
			signal_while_rank0_waits(r);
		if (team_plan_gate(t) == -1) {
			lo.stopped = 1;
			lrv = -1;
			break;
		}
		if (sc->sig_how == SIG_TICK && step == sc->sig_step &&
		    r == 0) {
			stop_flag = 1;
			team_plan_tick(t, 0);
			tick_wrote = locked_int(&stopping_calls);
		}
		if (sc->tick_stop && step == sc->fail_step) {
			if (r == sc->fail_rank)
				team_plan_tick(t, 1);
			/* The others' tick hears it: their step ends now. */
			else {
				while (team_plan_tick(t, 0) == 0)
					;
				lo.stopped = 1;
				lrv = -1;
				break;
			}
		}
		for (i = 0; i < PER; i++) {
			ok = !fails_here(r, i, step, &f);
			v = step * 100 + r * PER + i;
			team_plan_gathered(t, i, ok, &v);
			/* The fork team blames by the rule, as the plan. */
			if (!ok && team_fault_before(&f, &mine)) {
				mine = f;
				lo.failed = 1;
				lo.worker = i;
				lo.fail_ns = f.ns;
				lo.fail_by_stop = f.by_stop;
				snprintf(lo.error, sizeof(lo.error),
				    "%s in worker %d", f.by_stop ?
				    "interrupted by SIGTERM" : "disk full", i);
			}
			if (!ok)
				lrv = -1;
		}
		if (lrv == -1)
			break;
	}
	lo.files_left = sc->files_left;
	rk->rv = team_plan_end(t, lrv, &lo, &rk->out, &rk->cause);
	return NULL;
}

/* The host's account a rank leads: its own rank, through host_end. */
static __thread int	this_rank;

static void
host_end_rank(void *arg, void *buf)
{
	(void)arg;
	memcpy(buf, &this_rank, sizeof(this_rank));
}

static void *
rank_thread(void *arg)
{
	this_rank = ((struct ranked *)arg)->fr.rank;
	return rank_main(arg);
}

static void
run(const struct scenario *s, struct ranked *rk)
{
	pthread_t	th[RANKS];
	int		r;

	sc = s;
	nseen = 0;
	seen[0] = '\0';
	stop_flag = 0;
	stopping_calls = tick_wrote = 0;
	memset(written_before, 0, sizeof(written_before));
	memset(&fake.stops, 0, sizeof(fake.stops));
	for (r = 0; r < RANKS; r++) {
		memset(&rk[r], 0, sizeof(rk[r]));
		rk[r].fr.f = &fake;
		rk[r].fr.rank = r;
		rk[r].w.rank = r;
		rk[r].w.size = RANKS;
		/* Each rank a host of its own: its account is its rank's. */
		rk[r].w.hosts = RANKS;
		rk[r].w.host_lead = 1;
		rk[r].w.arg = &rk[r].fr;
		rk[r].w.vote = fake_vote;
		rk[r].w.gather = fake_gather;
		rk[r].w.barrier = fake_barrier;
		rk[r].w.host_gather = fake_gather;
		rk[r].w.sum = fake_sum;
		rk[r].w.stop_send = fake_stop_send;
		rk[r].w.stop_received = fake_stop_received;
		rk[r].w.stop_drain = fake_stop_drain;
		rk[r].w.give_up = fake_give_up;
		rk[r].w.host_name = fake_host_name;
		rk[r].w.on_wait = fake_on_wait;
	}
	for (r = 0; r < RANKS; r++)
		pthread_create(&th[r], NULL, rank_thread, &rk[r]);
	for (r = 0; r < RANKS; r++)
		pthread_join(th[r], NULL);
}

int
main(void)
{
	static const struct scenario	all_ok = { .fail_rank = -1,
	    .fail_worker = -1, .fail_step = -1 };
	static const struct scenario	sig_wait = { .fail_rank = -1,
	    .fail_worker = -1, .fail_step = -1, .sig_step = 1,
	    .sig_how = SIG_WAIT };
	static const struct scenario	sig_tick = { .fail_rank = -1,
	    .fail_worker = -1, .fail_step = -1, .sig_step = 1,
	    .sig_how = SIG_TICK };
	static const struct scenario	fails = { .fail_rank = 1,
	    .fail_worker = 1, .fail_step = 1, .files_left = 1 };
	static const struct scenario	ticked = { .fail_rank = 2,
	    .fail_worker = 0, .fail_step = 1, .tick_stop = 1 };
	/*
	 * Three failures in step 1: rank 0's worker 0 the first in time but
	 * the team's stop's doing, then team workers 4 (rank 2's 0) and 3
	 * (rank 1's 1), each its own, the later-numbered first in time.
	 */
	static const struct scenario	several = { .fail_rank = -1,
	    .fail_worker = -1, .fail_step = 1, .more = {
		{ .rank = 0, .worker = 0, .ns = 100, .by_stop = 1 },
		{ .rank = 1, .worker = 1, .ns = 300 },
		{ .rank = 2, .worker = 0, .ns = 200 } }, .nmore = 3 };
	struct team_fault		a, b;
	struct ranked			rk[RANKS];
	int				r, all;

	memset(&cfg, 0, sizeof(cfg));
	cfg.n = N;
	cfg.blob_size = sizeof(int);
	cfg.gathered = gathered;
	cfg.host_size = sizeof(int);
	cfg.host_end = host_end_rank;
	cfg.host_gathered = host_gathered;
	cfg.stop = &stop_flag;
	cfg.stopping = plan_stopping;

	run(&all_ok, rk);
	for (all = 1, r = 0; r < RANKS; r++)
		all &= rk[r].rv == 0 && !rk[r].out.failed &&
		    !rk[r].out.stopped;
	ok(all, "every step done: every rank ends well");
	is_str(seen, STEP0
	    " h0=0 h1=1 h2=2 w0=100 w1=101 w2=102 w3=103 w4=104 w5=105"
	    " h0=0 h1=1 h2=2 w0=200 w1=201 w2=202 w3=203 w4=204 w5=205",
	    "rank 0 gets each host's account, then every blob in order");

	run(&fails, rk);
	ok(rk[0].rv == -1 && rk[0].out.failed && rk[0].out.worker == 3,
	    "a failure in rank 1 (its worker 1): rank 0 names worker 3");
	is_str(rk[0].cause != NULL ? rk[0].cause : "",
	    "rank 1 (h1), worker 3 failed: disk full in worker 1",
	    "the line: the rank, its host, the worker and its own line");
	is_str(rk[0].out.host, "h1", "the failed worker's host");
	is_int(rk[0].out.files_left, RANKS, "files left: every rank's");
	is_str(seen, STEP0
	    " h0=0 h1=1 h2=2 w0=100 w1=101 w2=102 w3=103! w4=104 w5=105",
	    "the failed step is gathered, its failure marked; no step after");
	for (all = 1, r = 1; r < RANKS; r++)
		all &= rk[r].rv == -1;
	ok(all, "and every other rank stops too");
	ok(rk[2].out.failed && !rk[2].out.stopped && rk[2].out.worker == -1,
	    "a rank with no failure of its own hears that one failed");
	is_str(rk[2].cause != NULL ? rk[2].cause : "", "another rank failed",
	    "  and says so, naming none");
	for (r = 0; r < RANKS; r++)
		free(rk[r].cause);	/* run() starts the ranks afresh. */

	run(&ticked, rk);
	ok(rk[0].rv == -1 && rk[0].out.failed && rk[0].out.worker == 4,
	    "a failure told mid-step (a tick): rank 0 names rank 2's worker 4");
	is_str(seen, STEP0 " h0=0 h1=1 h2=2 w4=104! w5=105",
	    "the stopped ranks' blobs of that step are left out, rank 2's kept");
	is_str(rk[0].cause != NULL ? rk[0].cause : "",
	    "rank 2 (h2), worker 4 failed: disk full in worker 0",
	    "and the line names it");
	for (r = 0; r < RANKS; r++)
		free(rk[r].cause);

	run(&several, rk);
	ok(rk[0].rv == -1 && rk[0].out.failed && rk[0].out.worker == 4,
	    "several fail: rank 0 names the first in time of the workers' "
	    "own (worker 4, before worker 3), not the stop's earlier one");
	is_str(rk[0].cause != NULL ? rk[0].cause : "",
	    "rank 2 (h2), worker 4 failed: disk full in worker 0",
	    "and the line is its own");
	for (r = 0; r < RANKS; r++)
		free(rk[r].cause);

	ok(stopping_ever == 0, "no signal: rank 0 never wrote as stopped");

	/*
	 * mpirun's SIGTERM to every rank while rank 0 waits alone in a
	 * barrier (the others still in their step, or gone): it writes
	 * there, before they come.
	 */
	run(&sig_wait, rk);
	ok(written_before[1] && written_before[2],
	    "a signal while rank 0 waits in a barrier: it writes what it has "
	    "before the other ranks come");
	is_int(stopping_calls, 1, "once");
	ok(rk[0].rv == -1 && rk[0].out.stopped && !rk[0].out.failed,
	    "and the team stops");
	is_str(seen, STEP0, "with the step before the signal gathered");
	for (r = 0; r < RANKS; r++)
		free(rk[r].cause);

	/* Seen at a tick, inside a step: written before any exchange. */
	run(&sig_tick, rk);
	ok(tick_wrote == 1, "a signal seen at rank 0's tick: written there, "
	    "before its workers hand in and before any exchange");
	is_int(stopping_calls, 1, "once");
	ok(rk[0].rv == -1 && rk[0].out.stopped && !rk[0].out.failed,
	    "and the team stops at the next barrier");
	for (r = 0; r < RANKS; r++)
		free(rk[r].cause);

	/* The rule itself, as a fork team's leader weighs its workers. */
	a = (struct team_fault){ .ns = 500, .by_stop = 0, .worker = 3 };
	b = (struct team_fault){ .ns = 100, .by_stop = 1, .worker = 0 };
	ok(team_fault_before(&a, &b) && !team_fault_before(&b, &a),
	    "a failure of a worker's own before an earlier one of the stop");
	b.by_stop = 0;
	ok(team_fault_before(&b, &a) && !team_fault_before(&a, &b),
	    "of two of their own, the first in time");
	b.ns = a.ns;
	ok(team_fault_before(&b, &a) && !team_fault_before(&a, &a),
	    "at one time, the lower worker; none before itself");
	b.worker = -1;
	ok(team_fault_before(&a, &b) && !team_fault_before(&b, &a),
	    "any failure before none");
	return done_testing();
}
