/*
 * --lock-mem: a helper process that holds memory locked (mlock(2)) for a
 * whole run, so that the page cache has that much less.  The helper is
 * forked with every signal blocked: it ends when lockmem_end() closes the
 * pipe it waits on, or when this process dies (the platform's parent
 * death signal, and everywhere the end of file on that pipe, whose only
 * writer is this process: forked children close it).
 */
#ifndef BONNIE_LOCKMEM_H
#define BONNIE_LOCKMEM_H

#include <stdint.h>
#include <sys/types.h>

struct lockmem {
	pid_t		pid;		/* The helper, or 0 when none. */
	uint64_t	bytes;		/* What it locked. */
	int		status;		/* Its wait status once it died. */
	int		died;		/* It ended before lockmem_end(). */
	int		late;		/* It did not end in time: killed. */
	int		stop_sig;	/* The signal that had stopped it. */
};

/*
 * Fork the helper and wait until it has locked bytes of memory, every
 * page touched.  Returns 0, or -1 with the reason in *cause and *limited
 * set when RLIMIT_MEMLOCK forbids the lock (the helper raises its soft
 * limit to the hard one first; only a privileged process may pass that).
 */
int	lockmem_start(struct lockmem *, uint64_t bytes, int *limited,
	    char **cause);
/* 1 while the helper holds its lock, 0 when it has died (reaped). */
int	lockmem_alive(struct lockmem *);
/*
 * End the helper and reap it; nothing when there is none.  Returns what
 * lockmem_alive() said just before.
 */
int	lockmem_end(struct lockmem *);

#endif
