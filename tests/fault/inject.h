/*
 * The fault injector's parts (tests/fault/inject.c, the hooks of the
 * file calls and stdio and the library's start; inject-spec.c, BN_FAULT's
 * specs read and said; inject-other.c, the hooks of the process's other
 * calls): what they share.  Hidden: only the hooks are the library's.
 */
#ifndef BONNIE_INJECT_H
#define BONNIE_INJECT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define INJ_HIDDEN	__attribute__((visibility("hidden")))

enum kind {
	K_OPEN, K_READ, K_WRITE, K_PREAD, K_PWRITE, K_FSYNC, K_FDATASYNC,
	K_CLOSE, K_PUTC, K_GETC, K_FFLUSH, K_FCLOSE, K_UNLINK, K_FORK,
	K_THREAD, K_PIPE, K_CPUCLOCK, K_COUNT
};

enum action {
	A_ERRNO, A_SHORT, A_EOF, A_SLEEP, A_FLIP, A_ZERO, A_OTHER, A_HOLE,
	A_MISDIRECT, A_HOLD, A_SCALE
};

struct spec {
	enum kind	 kind;
	unsigned long	 first;		/* First call that faults. */
	unsigned long	 every;		/* Then every this many; 0: once. */
	enum action	 action;
	int		 err;		/* A_ERRNO */
	long		 usec;		/* A_SLEEP */
	char		 wait[256];	/* A_SLEEP: until it exists. */
	long long	 delta;		/* A_OTHER, A_MISDIRECT, A_SCALE */
	long long	 at_least;	/* @OFFSET: only at or past it; -1. */
	atomic_int	 logged;
};

#define MAX_SPECS	16

INJ_HIDDEN extern const char *const kind_names[K_COUNT];
/* Which kinds a spec names. */
INJ_HIDDEN extern int	active[K_COUNT];

/* The real function of a hook, found lazily so it works before init. */
INJ_HIDDEN void	*inject_real(void **slot, const char *name);
#define REAL(type, name)	((type)inject_real(&real_##name, #name))
typedef int	(*pthread_create_fn)(pthread_t *, const pthread_attr_t *,
		    void *(*)(void *), void *);

/* Read one SPEC of BN_FAULT: 0, or -1 when it is not one. */
INJ_HIDDEN int	parse_spec(char *text, struct spec *);
/* A spec's action in the log's words. */
INJ_HIDDEN const char *action_text(const struct spec *, char *buf,
		    size_t len);
/* This call of kind k's spec when it faults, else NULL. */
INJ_HIDDEN struct spec *fault_for(enum kind);
INJ_HIDDEN void	log_fault(struct spec *, int fd, long long offset);
INJ_HIDDEN void	do_sleep(const struct spec *);
/* A path names a test file. */
INJ_HIDDEN int	is_test_name(const char *path);

#endif
