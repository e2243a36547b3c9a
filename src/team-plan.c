/*
 * The team's plan across ranks (team-plan.h): the ranks' barriers, the
 * gathers to rank 0, the stops and who failed first, over a wire.  A
 * rank's own process does no benchmark I/O: it coordinates.  Its fork
 * team's gate joins the ranks' barrier on behalf of its workers (once
 * all of them have arrived), and its gathered callback hands the rank's
 * k blobs to rank 0 in one gather (once all of them are in).
 *
 * Stopping mid-step: when a worker fails, its rank sends a stop to every
 * other rank; each rank polls for one at every tick of its fork team
 * (TEAM_TICK_MS) and stops its workers at once (their stop signal: the
 * file goes, the loops end), not at the next barrier.  Stops still in
 * flight are received before the end, counted by the final sum.
 *
 * Nobody gives up before its fork team has ended (and so every file of
 * the rank is gone); only a rank that timed out does, after that.
 *
 * Clocks: the epoch is the moment the rank's process saw the barrier
 * complete, on its own monotonic clock, passed to its workers in a shared
 * page before they are let go; workers report start and end of a step
 * relative to it, so the hosts' clock offsets cancel and the span
 * (earliest start to latest end) carries only the barrier's exit skew.
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "team-fork.h"
#include "team-plan.h"
#include "team.h"
#include "timer.h"

#define ERR_LEN		512

/* The default bound on a wait, beside four times the longest step. */
#define WAIT_BASE_S	120.0

/*
 * A blob's state in a gather, in a header that keeps the blob after it
 * as aligned as malloc's memory (the blob holds 64-bit fields).
 */
enum { REC_FAILED = 0, REC_OK = 1, REC_ABSENT = 2 };
#define REC_HDR		16

/*
 * What a rank tells rank 0 at the end: the failure its fork team blames
 * (worker -1: none of its own), and why it failed.
 */
struct rank_report {
	struct team_fault fault;	/* Its worker numbered in the team. */
	char		error[ERR_LEN];	/* Its team_error() line, or "". */
	int32_t		signalled;	/* Or it died of this signal, */
	int32_t		exit_status;	/* or exited with this status. */
	int32_t		files_left;	/* Its workers' files left behind. */
};

struct team_plan {
	const struct team_wire	 *w;
	const struct team_config *cfg;
	int		 per;		/* Workers per rank (k). */
	volatile bn_time *epoch;	/* Shared with the workers. */
	int		 barriers;	/* Barriers passed. */
	int		 gathers;	/* Gathers done. */
	int		 got;		/* Blobs in for this step. */
	int		 saw_stop;	/* A barrier returned stop. */
	int		 failed;	/* A worker of this rank failed of
					   its own (report.fault). */
	int		 timed_out;
	int		 sent;		/* This rank sent its stops. */
	int		 stopped;	/* cfg->stopping() was called. */
	double		 longest;	/* Longest step so far, seconds. */
	double		 timeout;	/* Fixed by the caller, or 0. */
	unsigned char	*send;		/* per x (state + blob) */
	unsigned char	*all;		/* Rank 0: everyone's. */
	unsigned char	*hsend;		/* host_size: the host's account, */
	unsigned char	*hall;		/* rank 0: every host's. */
	size_t		 rec;		/* Bytes per worker in a gather. */
	struct rank_report report;
};

/* How long a wait may last before the rank gives up. */
static double
bound(const struct team_plan *t)
{
	return t->timeout > 0 ? t->timeout : WAIT_BASE_S + 4 * t->longest;
}

/* A collective's result: 0, or -1 (and the rank timed out). */
static int
waited(struct team_plan *t, int rc)
{
	if (rc == -1)
		t->timed_out = 1;
	return rc;
}

static int
peer_stop(const struct team_plan *t)
{
	return t->w->stop_received(t->w->arg) > 0;
}

/* Tell every other rank to stop now, once. */
static void
stop_send(struct team_plan *t)
{
	if (t->sent)
		return;
	t->sent = 1;
	t->w->stop_send(t->w->arg);
}

/*
 * Rank 0 of several, stopped by a signal: what it has is written as soon
 * as the stop is seen (cfg->stopping), once: at a tick of its fork team,
 * before an exchange with ranks that may be gone, and at every poll of a
 * wait on them (plan_waiting), where the signal may come while it waits
 * for a rank that will never come.
 */
static void
stopping(struct team_plan *t)
{
	if (t->w->rank != 0 || t->w->size < 2 || !*t->cfg->stop ||
	    t->cfg->stopping == NULL || t->stopped)
		return;
	t->stopped = 1;
	t->cfg->stopping(t->cfg->arg);
}

/* The wire's hook while a collective is waited for. */
static void
plan_waiting(void *arg)
{
	stopping(arg);
}

/* The barrier with a vote: 1 if any rank wants to stop, -1 timed out. */
static int
vote(struct team_plan *t, int mine, const char *what)
{
	int	any = 0;

	stopping(t);
	if (t->timed_out)
		return -1;
	if (waited(t, t->w->vote(t->w->arg, mine, &any, bound(t), what)) ==
	    -1)
		return -1;
	return any != 0;
}

static int
wants_stop(struct team_plan *t)
{
	return *t->cfg->stop != 0 || t->failed || peer_stop(t);
}

static void
mark_absent(struct team_plan *t)
{
	int	i, st = REC_ABSENT;

	for (i = 0; i < t->per; i++)
		memcpy(t->send + (size_t)i * t->rec, &st, sizeof(st));
}

struct team_plan *
team_plan_new(const struct team_wire *w, const struct team_config *cfg,
    double timeout, char **cause)
{
	struct team_plan	*t;
	void			*map;

	if (cfg->n < w->size || cfg->n % w->size != 0 ||
	    cfg->n / w->size > TEAM_MAX) {
		errorf(cause, "a team of %d in a job of %d ranks", cfg->n,
		    w->size);
		return NULL;
	}
	map = mmap(NULL, sizeof(*t->epoch), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANON, -1, 0);
	if (map == MAP_FAILED) {
		/* Every rank fails the same way here, or waits out the bound. */
		errorf(cause, "mmap: %s", strerror(errno));
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->w = w;
	t->cfg = cfg;
	t->per = cfg->n / w->size;
	t->timeout = timeout;
	t->epoch = map;
	t->epoch->ns = 0;
	t->rec = REC_HDR + ((cfg->blob_size + REC_HDR - 1) &
	    ~(size_t)(REC_HDR - 1));
	t->send = xcalloc((size_t)t->per, t->rec);
	mark_absent(t);
	if (w->rank == 0)
		t->all = xcalloc((size_t)cfg->n, t->rec);
	if (cfg->host_size > 0) {
		t->hsend = xcalloc(1, cfg->host_size);
		if (w->rank == 0)
			t->hall = xcalloc((size_t)w->hosts, cfg->host_size);
	}
	if (w->on_wait != NULL)
		w->on_wait(w->arg, plan_waiting, t);
	return t;
}

static void
plan_free(struct team_plan *t)
{
	if (t->w->on_wait != NULL)
		t->w->on_wait(t->w->arg, NULL, NULL);
	munmap((void *)t->epoch, sizeof(*t->epoch));
	free(t->send);
	free(t->all);
	free(t->hsend);
	free(t->hall);
	free(t);
}

/* The fork team's gate: every local worker is at the barrier. */
int
team_plan_gate(void *arg)
{
	struct team_plan	*t = arg;
	bn_time			 now;
	int			 v;

	v = vote(t, wants_stop(t), "barrier");
	if (v != 0) {
		if (v == 1)
			t->saw_stop = 1;
		return -1;
	}
	now = time_now();
	t->epoch->ns = now.ns;
	t->barriers++;
	if (t->w->host_lead && t->cfg->released != NULL)
		t->cfg->released(t->cfg->arg);
	return 0;
}

/*
 * Each host's account of the step: once every rank's workers are done
 * (a barrier), each host's lowest rank reads its own, and rank 0 gets
 * them all, host by host.  0, or -1 timed out.
 */
static int
host_gather(struct team_plan *t)
{
	const struct team_config *cfg = t->cfg;
	const struct team_wire	 *w = t->w;
	int			  h;

	if (cfg->host_end == NULL || cfg->host_gathered == NULL ||
	    cfg->host_size == 0)
		return 0;
	if (waited(t, w->barrier(w->arg, bound(t), "end of the step")) == -1)
		return -1;
	memset(t->hsend, 0, cfg->host_size);
	if (w->host_lead)
		cfg->host_end(cfg->arg, t->hsend);
	/* Only the hosts' leads send: rank 0 holds one buffer a host. */
	if (waited(t, w->host_gather(w->arg, t->hsend, w->host_lead ?
	    cfg->host_size : 0, t->hall, bound(t), "hosts' gather")) == -1)
		return -1;
	for (h = 0; w->rank == 0 && h < w->hosts; h++)
		cfg->host_gathered(cfg->arg, h, t->hall + (size_t)h *
		    cfg->host_size);
	return 0;
}

/* This step's gather of the rank's k blobs (absent ones marked). */
static void
rank_gather(struct team_plan *t)
{
	const unsigned char	*p;
	bn_time			 e;
	double			 step;
	int			 i, st;

	e.ns = t->epoch->ns;
	step = time_elapsed(e, time_now());
	t->gathers = t->barriers;
	t->got = 0;
	if (t->timed_out)
		return;
	stopping(t);
	if (step > t->longest)
		t->longest = step;
	if (waited(t, t->w->gather(t->w->arg, t->send, t->rec *
	    (size_t)t->per, t->all, bound(t), "gather")) == -1)
		return;
	if (host_gather(t) == -1)
		return;
	for (i = 0; t->w->rank == 0 && i < t->cfg->n; i++) {
		p = t->all + (size_t)i * t->rec;
		memcpy(&st, p, sizeof(st));
		if (st != REC_ABSENT)
			t->cfg->gathered(t->cfg->arg, i, st == REC_OK,
			    p + REC_HDR);
	}
	mark_absent(t);
}

/* The fork team's gathered callback: local worker i handed in. */
void
team_plan_gathered(void *arg, int i, int ok, const void *blob)
{
	struct team_plan	*t = arg;
	unsigned char		*p = t->send + (size_t)i * t->rec;
	int			 st = ok ? REC_OK : REC_FAILED;

	memcpy(p, &st, sizeof(st));
	memcpy(p + REC_HDR, blob, t->cfg->blob_size);
	/*
	 * A failure (not a stop): tell the others before this step's
	 * gather, which may wait for them to end the step.  The fork team
	 * says afterwards which worker it blames.
	 */
	if (!ok && !*t->cfg->stop && !peer_stop(t) && !t->saw_stop)
		stop_send(t);
	if (++t->got == t->per)
		rank_gather(t);
}

/*
 * The fork team's tick: rank 0's stop written, the others told of a
 * failure, theirs heard.
 */
int
team_plan_tick(void *arg, int failing)
{
	struct team_plan	*t = arg;

	stopping(t);
	if (failing && !*t->cfg->stop)
		stop_send(t);
	return peer_stop(t) ? -1 : 0;
}

/*
 * A worker: a child of the rank's process, local worker i of its fork
 * team, with the rank's epoch; team.c is its side of the team.
 */
int
team_plan_body(struct fork_team *f, int i, void *arg)
{
	const struct team_plan	*t = arg;

	return team_member_run(f, t->cfg, t->w->rank * t->per + i, t->epoch);
}

/*
 * The end's collectives; *failed 1 when a rank failed of its own, and on
 * rank 0 every rank's report.
 */
static void
plan_finish(struct team_plan *t, int *failed, struct rank_report *reps)
{
	const struct team_wire	*w = t->w;
	int			 v, senders = 0;

	/* The step the team stopped in: its gather, absent blobs marked. */
	if (t->gathers < t->barriers)
		rank_gather(t);
	/* The vote the others, still going, hold at their next barrier. */
	if (!t->saw_stop && !t->timed_out) {
		v = vote(t, wants_stop(t), "end of the run");
		if (v == 1)
			t->saw_stop = 1;
	}
	if (t->timed_out)
		w->give_up(w->arg);
	/*
	 * Whether any rank failed of its own (who did is the reports'),
	 * and how many said stop.
	 */
	if (w->vote(w->arg, t->failed, failed, bound(t), "final count") ==
	    -1 || w->sum(w->arg, t->sent, &senders, bound(t)) == -1)
		w->give_up(w->arg);
	/* A stop message that never came: its receive is still posted. */
	if (w->stop_drain(w->arg, senders - t->sent, bound(t)) == -1)
		w->give_up(w->arg);
	if (w->gather(w->arg, &t->report, sizeof(t->report), reps, bound(t),
	    "final gather") == -1)
		w->give_up(w->arg);
}

/*
 * The worker the team blames: on rank 0 the first failure of every
 * rank's by team_fault_before() (each rank's the first of its fork
 * team's by the same rule); elsewhere this rank's, or -1.
 */
static int
blamed(const struct team_plan *t, const struct rank_report *reps)
{
	struct team_fault	f = t->report.fault;
	int			r;

	for (r = 0; reps != NULL && r < t->w->size; r++)
		if (team_fault_before(&reps[r].fault, &f))
			f = reps[r].fault;
	return f.worker;
}

/* The one line that says who failed and how, or that the team stopped. */
static int
plan_cause(const struct team_plan *t, const struct team_outcome *out,
    char **cause)
{
	const char	*host;
	char		 who[128], how[600];

	if (!out->failed)
		return errorf(cause, "stopped");
	/* A rank but 0 knows only its own failure. */
	if (out->worker < 0)
		return errorf(cause, "another rank failed");
	host = t->w->host_name(t->w->arg, out->worker / t->per);
	/* One rank (the default build's team): its workers by number. */
	if (t->w->size == 1)
		snprintf(who, sizeof(who), "worker %d", out->worker);
	else if (t->per > 1)
		snprintf(who, sizeof(who), "rank %d (%s), worker %d",
		    out->worker / t->per, host, out->worker);
	else
		snprintf(who, sizeof(who), "rank %d (%s)", out->worker, host);
	if (out->error[0] != '\0')
		snprintf(how, sizeof(how), "failed: %.511s", out->error);
	else if (out->signalled != 0)
		snprintf(how, sizeof(how), "killed by signal %d (%s)",
		    out->signalled, strsignal(out->signalled));
	else if (out->exit_status != 0)
		snprintf(how, sizeof(how), "exited with status %d",
		    out->exit_status);
	else
		snprintf(how, sizeof(how), "failed");
	return errorf(cause, "%s %s", who, how);
}

int
team_plan_end(struct team_plan *t, int lrv, const struct team_outcome *lo,
    struct team_outcome *out, char **cause)
{
	const struct team_wire	*w = t->w;
	struct rank_report	*reps = NULL, *rp;
	int			 r, failed = 0;

	memset(out, 0, sizeof(*out));
	out->worker = -1;
	/*
	 * The failure the fork team blames, unless it was the team's stop's
	 * doing (another rank's failure or a signal stopped this one).
	 */
	t->report.fault.worker = -1;
	if (lrv == -1 && lo->failed && !lo->fail_by_stop && !*t->cfg->stop) {
		t->failed = 1;
		t->report.fault.worker = w->rank * t->per + (lo->worker >= 0 ?
		    lo->worker : 0);
		t->report.fault.ns = lo->fail_ns;
		t->report.fault.by_stop = 0;
		snprintf(t->report.error, sizeof(t->report.error), "%s",
		    lo->error);
		t->report.signalled = lo->signalled;
		t->report.exit_status = lo->exit_status;
	}
	t->report.files_left = lo->files_left;
	out->files_left = lo->files_left;
	if (t->failed)
		stop_send(t);
	if (w->rank == 0)
		reps = xcalloc((size_t)w->size, sizeof(*reps));
	stopping(t);
	plan_finish(t, &failed, reps);
	if (failed) {
		out->failed = 1;
		out->worker = blamed(t, reps);
	} else if (t->saw_stop || peer_stop(t) || *t->cfg->stop)
		out->stopped = 1;
	/* Rank 0 reports: every rank's files left count. */
	for (r = 1; reps != NULL && r < w->size; r++)
		out->files_left += reps[r].files_left;
	if (reps != NULL && out->failed && out->worker >= 0) {
		rp = &reps[out->worker / t->per];
		rp->error[ERR_LEN - 1] = '\0';
		snprintf(out->error, sizeof(out->error), "%s", rp->error);
		out->signalled = rp->signalled;
		out->exit_status = rp->exit_status;
		snprintf(out->host, sizeof(out->host), "%s",
		    w->host_name(w->arg, out->worker / t->per));
	}
	free(reps);
	r = out->failed || out->stopped ? plan_cause(t, out, cause) : 0;
	plan_free(t);
	return r;
}

int
team_plan_run(const struct team_wire *w, const struct team_config *cfg,
    double timeout, struct team_outcome *out, char **cause)
{
	struct fork_team_config	 fc;
	struct team_outcome	 lo;
	struct team_plan	*t;
	char			*lcause = NULL;
	int			 lrv;

	memset(out, 0, sizeof(*out));
	out->worker = -1;
	if ((t = team_plan_new(w, cfg, timeout, cause)) == NULL)
		return -1;
	memset(&fc, 0, sizeof(fc));
	fc.n = t->per;
	fc.blob_size = cfg->blob_size;
	fc.gathered = team_plan_gathered;
	fc.gate = team_plan_gate;
	fc.tick = team_plan_tick;
	fc.arg = t;
	fc.body = team_plan_body;
	fc.body_arg = t;
	fc.stop = cfg->stop;
	fc.stop_signal = cfg->stop_signal;
	fc.epoch = t->epoch;
	lrv = fork_team_run(&fc, &lo, &lcause);
	free(lcause);
	return team_plan_end(t, lrv, &lo, out, cause);
}
