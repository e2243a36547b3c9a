/*
 * The signals that end a run.  Every signal whose default action ends
 * the process and that a process may catch is in one list: the run
 * catches them all, so that the test file is removed whichever one
 * comes, and children put them back to their defaults.
 */
#ifndef BONNIE_SIGNALS_H
#define BONNIE_SIGNALS_H

#include <signal.h>

/*
 * Catch every asynchronous terminating signal (SIGHUP, SIGINT, SIGQUIT,
 * SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
 * SIGPWR, SIGPOLL, SIGSTKFLT, the real-time signals) with stop, and the
 * program-fault signals (SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGTRAP, SIGSYS) with fault, unless a sanitizer already holds them;
 * ignore SIGPIPE and SIGXFSZ so that they become plain errors.  fault is
 * installed with SA_RESETHAND | SA_NODEFER: it cleans up and re-raises.
 */
void	signals_install(void (*stop)(int), void (*fault)(int));
/*
 * A CPU-time limit whose soft and hard values are alike and under 2 s
 * (ulimit -t 1) leaves no second between SIGXCPU and SIGKILL to remove
 * the test file: -1 with the reason, before anything is made; 0 else.
 */
int	signals_cpu_limit_check(char **cause);
/* In a child: every signal in the lists back to its default action. */
void	signals_default(void);
/* Block (and later restore) every signal in the lists. */
void	signals_block(sigset_t *old);
void	signals_restore(const sigset_t *old);
/* "SIGINT", "SIGUSR1", "SIGRTMIN+3", ...; "a signal" when unknown. */
const char *signal_name(int);

#endif
