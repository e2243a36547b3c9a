/*
 * The MPI team, run by tests/t-mpi.sh under mpirun: lock-step steps with
 * every rank's blob at rank 0, and one rank's failure ending every rank.
 * Usage: mpi-team plain|jobs|fail|prepfail|cost (jobs: two workers in each
 * rank; cost: the time of a step).  Rank 0 prints TAP.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "team.h"
#include "timer.h"

#define STEPS	3
#define MAXR	64

static volatile sig_atomic_t stop;
static int	nseen[MAXR], bad, fails;
static const char *mode;

struct blob {
	int		rank, step;
	double		start;		/* Relative to the epoch. */
	uint64_t	epoch_ns;	/* cost: the epoch, on one host. */
	double		cost_us;	/* cost: the mean step so far. */
};

/* cost: the spread of the ranks' epochs per step (one host, one clock). */
static uint64_t	ep_min, ep_max;
static double	skew_sum, skew_max;
static int	skew_n, ep_got;
/* cost: worker 0's mean step (a worker is a child: it hands it in). */
static double	cost_us;

static void
gathered(void *arg, int w, int ok, const void *p)
{
	const struct blob *b = p;

	(void)arg;
	if (b->epoch_ns != 0) {
		if (ep_got == 0 || b->epoch_ns < ep_min)
			ep_min = b->epoch_ns;
		if (ep_got == 0 || b->epoch_ns > ep_max)
			ep_max = b->epoch_ns;
		if (w == 0)
			cost_us = b->cost_us;
		if (++ep_got == team_ranks()) {
			double us = (double)(ep_max - ep_min) / 1e3;

			skew_sum += us;
			if (us > skew_max)
				skew_max = us;
			skew_n++;
			ep_got = 0;
		}
		return;
	}
	if (!ok)
		fails++;
	if (w >= MAXR || b->rank != w || b->step != nseen[w])
		bad++;
	else
		nseen[w]++;
}

/* cost: many empty steps with a blob the size of the run's, timed. */
#define COST_STEPS	200
#define COST_BLOB	24576

static int
cost_body(struct team *t, int w, void *arg)
{
	static unsigned char	blob[COST_BLOB];
	struct blob		b;
	bn_time			t0;
	int			step;

	(void)arg;
	t0 = time_now();
	for (step = 0; step < COST_STEPS; step++) {
		if (team_barrier(t) == -1)
			return 1;
		memset(&b, 0, sizeof(b));
		b.rank = w;
		b.step = step;
		b.epoch_ns = team_epoch(t).ns;
		b.cost_us = step == 0 ? 0 :
		    time_elapsed(t0, time_now()) * 1e6 / step;
		memcpy(blob, &b, sizeof(b));
		if (team_gather(t, blob, 1) == -1)
			return 1;
	}
	return 0;
}

static int
body(struct team *t, int w, void *arg)
{
	struct blob	b;
	int		step;

	(void)arg;
	if (strcmp(mode, "prepfail") == 0 && w == 1) {
		team_error(t, "rank 1 could not prepare");
		return 1;
	}
	for (step = 0; step < STEPS; step++) {
		if (team_barrier(t) == -1)
			return 1;
		memset(&b, 0, sizeof(b));
		b.rank = w;
		b.step = step;
		b.start = time_elapsed(team_epoch(t), time_now());
		if (strcmp(mode, "fail") == 0 && step == 1 && w == 2) {
			team_error(t, "rank 2 failed on purpose");
			team_gather(t, &b, 0);
			return 1;
		}
		if (team_gather(t, &b, 1) == -1)
			return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct team_config	cfg;
	struct team_outcome	out;
	char			*cause = NULL;
	int			 rv, r, all, n;

	/* As bonnie-ng does: the leader writes to pipes of ended workers. */
	signal(SIGPIPE, SIG_IGN);
	if (team_init(&argc, &argv) == -1)
		return 1;
	mode = argc > 1 ? argv[1] : "plain";
	/*
	 * mpi-team MODE FILE: rank 0's TAP goes to FILE, not through
	 * mpirun's forwarding of its stdout, which a loaded machine's
	 * mpirun 4.1 can end before the last lines (the plan) arrive.
	 */
	if (argc > 2 && team_rank() == 0 &&
	    freopen(argv[2], "w", stdout) == NULL) {
		perror(argv[2]);
		return 1;
	}
	n = team_ranks();
	memset(&cfg, 0, sizeof(cfg));
	cfg.n = strcmp(mode, "jobs") == 0 ? 2 * n : n;
	cfg.blob_size = sizeof(struct blob);
	cfg.gathered = gathered;
	cfg.body = body;
	if (strcmp(mode, "cost") == 0) {
		cfg.body = cost_body;
		cfg.blob_size = COST_BLOB;
	}
	cfg.stop = &stop;
	cfg.stop_signal = SIGTERM;
	rv = team_run(&cfg, &out, &cause);
	if (team_rank() == 0) {
		is_str(team_backend, "mpi", "the MPI back end");
		ok(n >= 2 && n <= MAXR, "more than one rank");
		if (strcmp(mode, "cost") == 0) {
			ok(rv == 0, "cost: every step went well");
			printf("# ranks %d: barrier + gather of %d bytes: "
			    "%.0f us a step; barrier exit spread %.0f us mean, "
			    "%.0f us max\n", n, COST_BLOB, cost_us,
			    skew_n ? skew_sum / skew_n : 0, skew_max);
		} else if (strcmp(mode, "plain") == 0 ||
		    strcmp(mode, "jobs") == 0) {
			for (r = 0, all = 1; r < cfg.n; r++)
				all = all && nseen[r] == STEPS;
			is_int(rv, 0, "every rank well");
			ok(all && bad == 0, "rank 0 got every worker's blob "
			    "for every step, in order");
		} else if (strcmp(mode, "fail") == 0) {
			ok(rv == -1 && out.failed && out.worker == 2,
			    "rank 2's failure ends the team, named");
			is_int(fails, 1, "its failed blob reached rank 0");
			ok(cause != NULL && strstr(cause,
			    "rank 2 failed on purpose") != NULL,
			    "with its own words");
			printf("# %s\n", cause ? cause : "");
		} else {
			ok(rv == -1 && out.failed && out.worker == 1,
			    "rank 1 failing before the first barrier ends "
			    "the team");
			is_int(nseen[0], 0, "nobody ran a step");
			printf("# %s\n", cause ? cause : "");
		}
		for (r = 0; r < cfg.n; r++)
			ok(team_host(r)[0] != '\0', "every worker's host known");
		rv = done_testing();
	} else
		rv = 0;
	free(cause);
	/*
	 * Rank 0's TAP, fully buffered, is written before MPI_Finalize: to
	 * mpirun's pipe (without FILE), a loaded machine's mpirun may have
	 * closed its end when exit flushes it (seen: every line lost).
	 */
	fflush(stdout);
	team_finish();
	return rv;
}
