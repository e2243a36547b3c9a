/*
 * Linked into every program of the AddressSanitizer build (make
 * check-asan: bonnie-ng and the C tests in build-asan/), never into
 * another build.
 *
 * LeakSanitizer's check at exit counts a block as reachable when a
 * pointer to it lies in a module's writable data; finding those pointers
 * takes a read of every page of that data, and in clang's static runtime
 * most of it is the runtime's own stack depot tables, 8.4 MiB of zeros
 * that nothing else touches: about 2100 page faults and four fifths of
 * the check's CPU (--version 73 ms, 36 without the check), though no
 * pointer can be there.
 * LSAN_OPTIONS=use_globals=0 leaves the data unread.  The check is then
 * stricter, not weaker: a block that only a global still points at when
 * the process exits is reported as leaked.  bonnie-ng frees what it
 * holds before it exits (make check-valgrind asks the same, with
 * "still reachable" an error), and glibc frees what it keeps for the
 * process (stdio's buffers, the time zone, NSS's results) when
 * __libc_freeres() is called, as valgrind and mtrace call it.  So the
 * option is the build's default, and the call is made at exit, before
 * the check: the runtime registers its check with atexit() before any
 * constructor runs, and atexit() handlers run last registered first.
 * LSAN_OPTIONS=use_globals=1 in the environment scans the data again.
 */
#include <stdlib.h>

#ifdef __GLIBC__
const char	*__lsan_default_options(void);
void		 __libc_freeres(void);

/* Read by the sanitizer runtime as it starts, before any constructor. */
const char *
__lsan_default_options(void)
{
	return "use_globals=0";
}

static void
free_libc(void)
{
	__libc_freeres();
}

__attribute__((constructor)) static void
lsan_exit_init(void)
{
	if (atexit(free_libc) != 0)
		abort();
}
#endif
