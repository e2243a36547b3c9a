/*
 * The signals that end a run, in one list.
 */
#include <sys/resource.h>

#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "error.h"
#include "signals.h"

/* A row of the tables below: the signal and its name, as C spells it. */
#define SIGNAL(s)	{ .sig = (s), .name = #s }

/* Asynchronous signals whose default action ends the process. */
static const struct {
	int		 sig;
	const char	*name;
} stop_signals[] = {
	SIGNAL(SIGHUP),
	SIGNAL(SIGINT),
	SIGNAL(SIGQUIT),
	SIGNAL(SIGTERM),
	SIGNAL(SIGUSR1),
	SIGNAL(SIGUSR2),
	SIGNAL(SIGALRM),
	SIGNAL(SIGVTALRM),
	SIGNAL(SIGPROF),
	SIGNAL(SIGXCPU),
#ifdef SIGPWR
	SIGNAL(SIGPWR),
#endif
#ifdef SIGPOLL
	SIGNAL(SIGPOLL),
#endif
#ifdef SIGSTKFLT
	SIGNAL(SIGSTKFLT),
#endif
#ifdef SIGEMT
	SIGNAL(SIGEMT),
#endif
#ifdef SIGLOST
	SIGNAL(SIGLOST),
#endif
};
#define NSTOP	(sizeof(stop_signals) / sizeof(stop_signals[0]))

/* Signals of a program fault (or sent as if one happened). */
static const struct {
	int		 sig;
	const char	*name;
} fault_signals[] = {
	SIGNAL(SIGABRT),
	SIGNAL(SIGSEGV),
	SIGNAL(SIGBUS),
	SIGNAL(SIGILL),
	SIGNAL(SIGFPE),
	SIGNAL(SIGTRAP),
	SIGNAL(SIGSYS),
};
#define NFAULT	(sizeof(fault_signals) / sizeof(fault_signals[0]))

/* Signals that only stop or go on, and others named in messages. */
static const struct {
	int		 sig;
	const char	*name;
} other_signals[] = {
	SIGNAL(SIGSTOP),
	SIGNAL(SIGTSTP),
	SIGNAL(SIGTTIN),
	SIGNAL(SIGTTOU),
	SIGNAL(SIGCONT),
	SIGNAL(SIGKILL),
	SIGNAL(SIGPIPE),
	SIGNAL(SIGXFSZ),
	SIGNAL(SIGCHLD),
};

#define NOTHER	(sizeof(other_signals) / sizeof(other_signals[0]))

/* The set of every signal in both lists, real-time ones included. */
static void
signals_set(sigset_t *set)
{
	size_t	i;
#ifdef SIGRTMIN
	int	s;
#endif

	sigemptyset(set);
	for (i = 0; i < NSTOP; i++)
		sigaddset(set, stop_signals[i].sig);
	for (i = 0; i < NFAULT; i++)
		sigaddset(set, fault_signals[i].sig);
#ifdef SIGRTMIN
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
#endif
}

/*
 * A CPU-time limit whose soft value is its hard one (bash's "ulimit -t N"
 * sets both) brings SIGXCPU and SIGKILL together, and the test file
 * stays.  The soft value is lowered by a second (by two from 20 s), so
 * that SIGXCPU, which the stop handler catches, comes while there is time
 * to clean up.
 */
static void
cpu_limit_margin(void)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_CPU, &rl) == -1 || rl.rlim_max == RLIM_INFINITY ||
	    rl.rlim_cur != rl.rlim_max || rl.rlim_max < 2)
		return;
	rl.rlim_cur = rl.rlim_max - (rl.rlim_max >= 20 ? 2 : 1);
	(void)setrlimit(RLIMIT_CPU, &rl);
}

int
signals_cpu_limit_check(char **cause)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_CPU, &rl) == -1 || rl.rlim_max == RLIM_INFINITY ||
	    rl.rlim_cur != rl.rlim_max || rl.rlim_max >= 2)
		return 0;
	return errorf(cause, "the CPU-time limit (ulimit -t) is %llu s, soft "
	    "and hard alike: SIGKILL would come with SIGXCPU and leave the "
	    "test file behind; raise the hard limit to 2 s or more (ulimit "
	    "-H -t)", (unsigned long long)rl.rlim_max);
}

void
signals_install(void (*stop)(int), void (*fault)(int))
{
	struct sigaction	sa, old;
	size_t			i;
#ifdef SIGRTMIN
	int			s;
#endif

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stop;
	/* One handler at a time; no SA_RESTART: waits are interrupted. */
	signals_set(&sa.sa_mask);
	sa.sa_flags = 0;
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i].sig, &sa, NULL);
#ifdef SIGRTMIN
	/* glibc keeps the first few for itself, below SIGRTMIN. */
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaction(s, &sa, NULL);
#endif
	sa.sa_handler = fault;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (i = 0; i < NFAULT; i++) {
		/* A sanitizer's own handler reports better than we can. */
		if (sigaction(fault_signals[i].sig, NULL, &old) == 0 &&
		    old.sa_handler != SIG_DFL)
			continue;
		sigaction(fault_signals[i].sig, &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	cpu_limit_margin();
}

void
signals_default(void)
{
	size_t	i;
#ifdef SIGRTMIN
	int	s;
#endif

	for (i = 0; i < NSTOP; i++)
		signal(stop_signals[i].sig, SIG_DFL);
#ifdef SIGRTMIN
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		signal(s, SIG_DFL);
#endif
	signal(SIGPIPE, SIG_DFL);
}

void
signals_block(sigset_t *old)
{
	sigset_t	set;

	signals_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void
signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

const char *
signal_name(int sig)
{
	static const char *const rt[] = {
		"SIGRTMIN", "SIGRTMIN+1", "SIGRTMIN+2", "SIGRTMIN+3",
		"SIGRTMIN+4", "SIGRTMIN+5", "SIGRTMIN+6", "SIGRTMIN+7",
		"SIGRTMIN+8", "SIGRTMIN+9", "SIGRTMIN+10", "SIGRTMIN+11",
		"SIGRTMIN+12", "SIGRTMIN+13", "SIGRTMIN+14", "SIGRTMIN+15",
	};
	size_t	i;

	for (i = 0; i < NSTOP; i++)
		if (stop_signals[i].sig == sig)
			return stop_signals[i].name;
	for (i = 0; i < NFAULT; i++)
		if (fault_signals[i].sig == sig)
			return fault_signals[i].name;
	for (i = 0; i < NOTHER; i++)
		if (other_signals[i].sig == sig)
			return other_signals[i].name;
#ifdef SIGRTMIN
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		if ((size_t)(sig - SIGRTMIN) < sizeof(rt) / sizeof(rt[0]))
			return rt[sig - SIGRTMIN];
		return "a real-time signal";
	}
#endif
	(void)rt;
	return "a signal";
}
