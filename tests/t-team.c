/*
 * The fork team: lock-step barriers, gathering, and stopping everyone at
 * once when one worker fails, dies or the leader is signalled, with every
 * registered file removed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#define MAXW	64

static volatile sig_atomic_t stop;

static void
on_sig(int sig)
{
	stop = sig;
	team_stop_all();
}

struct blob {
	int		worker;
	int		step;
	uint64_t	arrive;		/* Before the barrier. */
	uint64_t	leave;		/* After it. */
	double		looped;		/* Seconds spent before stopping. */
};

/* What the leader saw. */
static struct blob	seen[MAXW][STEPS];
static int		nseen[MAXW], bad_order, fails_seen;

static void
gathered(void *arg, int w, int ok, const void *p)
{
	const struct blob	*b = p;

	(void)arg;
	if (!ok)
		fails_seen++;
	if (b->worker != w || b->step != nseen[w] || nseen[w] >= STEPS) {
		bad_order++;
		return;
	}
	seen[w][nseen[w]++] = *b;
}

enum mode { M_PLAIN, M_FAIL, M_KILL, M_SIGNAL_LEADER };
static enum mode	mode;
static char		dir[] = "/tmp/t-team.XXXXXX";

/* Spin until stopped or max seconds pass; the seconds spun. */
static double
spin(double max)
{
	bn_time	t0 = time_now();

	while (!stop && time_elapsed(t0, time_now()) < max)
		;
	return time_elapsed(t0, time_now());
}

static int
body(struct team *t, int w, void *arg)
{
	struct blob	b;
	char		path[256];
	struct stat	st;
	sigset_t	set, old;
	int		fd, step, rv = 0;

	(void)arg;
	snprintf(path, sizeof(path), "%s/w%d", dir, w);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd != -1 && fstat(fd, &st) == 0)
		team_own_file(t, path, st.st_dev, st.st_ino);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd == -1)
		return 1;
	for (step = 0; step < STEPS; step++) {
		memset(&b, 0, sizeof(b));
		b.worker = w;
		b.step = step;
		b.arrive = time_now().ns;
		if (team_barrier(t) == -1) {
			rv = 1;
			break;
		}
		b.leave = time_now().ns;
		if (mode == M_KILL && step == 1 && w == 1)
			raise(SIGKILL);
		if (mode == M_SIGNAL_LEADER && step == 1 && w == 0)
			kill(getppid(), SIGTERM);
		if (mode != M_PLAIN && step == 1 && !(mode == M_FAIL && w == 2))
			b.looped = spin(5.0);
		if (team_gather(t, &b, !(mode == M_FAIL && step == 1 &&
		    w == 2)) == -1) {
			rv = 1;
			break;
		}
	}
	close(fd);
	unlink(path);
	team_own_file(t, NULL, 0, 0);
	return rv;
}

static int
run(enum mode m, int n, struct team_outcome *out, char **cause)
{
	struct team_config	cfg;

	mode = m;
	stop = 0;
	memset(seen, 0, sizeof(seen));
	memset(nseen, 0, sizeof(nseen));
	bad_order = fails_seen = 0;
	memset(&cfg, 0, sizeof(cfg));
	cfg.n = n;
	cfg.blob_size = sizeof(struct blob);
	cfg.gathered = gathered;
	cfg.body = body;
	cfg.stop = &stop;
	cfg.stop_signal = SIGTERM;
	*cause = NULL;
	return team_run(&cfg, out, cause);
}

static int
dir_empty(void)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	int		 n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	if (d != NULL)
		closedir(d);
	return d != NULL && n == 0;
}

/* Lock-step: nobody left barrier k before everyone had arrived at it. */
static int
lock_step(int n)
{
	int		w, k;
	uint64_t	last_arrive, first_leave;

	for (k = 0; k < STEPS; k++) {
		last_arrive = 0;
		first_leave = UINT64_MAX;
		for (w = 0; w < n; w++) {
			if (seen[w][k].arrive > last_arrive)
				last_arrive = seen[w][k].arrive;
			if (seen[w][k].leave < first_leave)
				first_leave = seen[w][k].leave;
		}
		if (first_leave < last_arrive)
			return 0;
	}
	return 1;
}

static double
max_looped(int n, int step)
{
	double	m = 0;
	int	w;

	for (w = 0; w < n; w++)
		if (seen[w][step].looped > m)
			m = seen[w][step].looped;
	return m;
}

int
main(void)
{
	struct team_outcome	out;
	struct sigaction	sa;
	char			*cause = NULL;
	int			 w, all, rv;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	is_str(team_backend, "fork", "the default build has the fork back end");
	ok(run(M_PLAIN, 0, &out, &cause) == -1 && cause != NULL,
	    "a team of 0 is refused");
	free(cause);
	ok(run(M_PLAIN, TEAM_MAX + 1, &out, &cause) == -1, "a team above "
	    "TEAM_MAX is refused");
	free(cause);

	rv = run(M_PLAIN, 4, &out, &cause);
	is_int(rv, 0, "4 workers, 3 steps: all well");
	for (w = 0, all = 1; w < 4; w++)
		all = all && nseen[w] == STEPS;
	ok(all && bad_order == 0, "the leader got every blob, in order");
	ok(lock_step(4), "no worker left a barrier before all had arrived");
	ok(dir_empty(), "every file removed");
	free(cause);

	rv = run(M_PLAIN, MAXW, &out, &cause);
	for (w = 0, all = 1; w < MAXW; w++)
		all = all && nseen[w] == STEPS;
	ok(rv == 0 && all && lock_step(MAXW), "64 workers in lock-step");
	ok(dir_empty(), "every file removed (64 workers)");
	free(cause);

	rv = run(M_FAIL, 4, &out, &cause);
	ok(rv == -1 && out.failed && out.worker == 2, "worker 2's failure is "
	    "the team's, named");
	is_int(fails_seen, 1, "its failed blob reached the leader");
	ok(max_looped(4, 1) < 2.0, "the others stopped at once, mid-step "
	    "(not after their 5 s)");
	ok(dir_empty(), "every file removed after a failure");
	printf("# cause: %s; longest spin %.3f s\n", cause ? cause : "(none)",
	    max_looped(4, 1));
	free(cause);

	rv = run(M_KILL, 4, &out, &cause);
	ok(rv == -1 && out.failed && out.worker == 1 &&
	    out.signalled == SIGKILL, "a worker killed outright is named, "
	    "with its signal");
	ok(cause != NULL && strstr(cause, "worker 1 killed by signal 9"),
	    "the cause says so");
	ok(max_looped(4, 1) < 2.0, "the others stopped at once");
	ok(dir_empty(), "the dead worker's file removed by the leader");
	free(cause);

	rv = run(M_SIGNAL_LEADER, 4, &out, &cause);
	ok(rv == -1 && out.stopped && !out.failed, "a signal to the leader "
	    "stops the team");
	ok(max_looped(4, 1) < 2.0, "every worker stopped at once");
	ok(dir_empty(), "every file removed after the signal");
	free(cause);

	rmdir(dir);
	return done_testing();
}
