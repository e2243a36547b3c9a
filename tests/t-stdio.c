/*
 * The per-char phases' stream in a process that has had a second thread
 * (as an MPI rank has): owned by the caller, it reads and writes right,
 * and under glibc its putc and getc take the way of a process with one
 * thread while it is owned, and glibc's own way again once released.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "tap.h"

#define NBYTES	100000

static void *
nothing(void *arg)
{
	return arg;
}

/*
 * Under glibc, whether the stream takes the "needs locking" way (bit 128
 * of _flags2): -1 where that cannot be seen.
 */
static int
marked(FILE *f)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 27)
	return (f->_flags2 & 128) != 0;
#else
	(void)f;
	return -1;
#endif
}

int
main(void)
{
	pthread_t	 t;
	FILE		*f;
	int		 owned, c, i, bad, was, linux_half;

	linux_half = strcmp(BONNIE_NG_PLAT, "linux") == 0;
	ok(pthread_create(&t, NULL, nothing, NULL) == 0 &&
	    pthread_join(t, NULL) == 0, "a second thread came and went");
	if ((f = tmpfile()) == NULL) {
		perror("tmpfile");
		return 1;
	}
	was = marked(f);
	owned = platform_stdio_own(f);
	if (was == 1 && linux_half) {
		ok(owned != 0 && marked(f) == 0,
		    "owned: putc and getc take a one-thread process's way");
	} else
		tap_skip(was == -1 ? "this C library's way cannot be seen" :
		    "the portable half holds flockfile() instead");
	for (i = 0; i < NBYTES; i++)
		if (putc(i & 0xff, f) == EOF)
			break;
	ok(i == NBYTES && fflush(f) == 0, "owned: 100000 bytes written");
	rewind(f);
	bad = 0;
	for (i = 0; i < NBYTES && (c = getc(f)) != EOF; i++)
		bad += c != (i & 0xff);
	ok(i == NBYTES && bad == 0 && getc(f) == EOF,
	    "owned: the same bytes read back, then the end");
	platform_stdio_release(f, owned);
	ok(marked(f) == was, "released: the stream as the library made it");
	/* Another thread may use it again, with the library's lock. */
	ok(pthread_create(&t, NULL, nothing, NULL) == 0 &&
	    pthread_join(t, NULL) == 0 && putc('x', f) == 'x' &&
	    fclose(f) == 0, "released: putc and fclose as usual");
	return done_testing();
}
