/*
 * perchar-ref: the limit a per-char phase can reach.  It does nothing but
 * the stdio loop that bonnie-ng's per-char phases time, over a file of the
 * same size:
 *
 *   write: fopen "w" (untimed); timed: putc SIZE bytes, fflush, fsync,
 *          fclose.
 *   drop:  (untimed, unless -k) open, fsync, posix_fadvise DONTNEED, close,
 *          so that the read starts cold as in bonnie-ng's default mode.
 *   read:  fopen "r" (untimed); timed: getc until EOF, fclose.
 *
 * Usage: perchar-ref [-k] [-u] [-b BYTES] FILE SIZE-BYTES
 *   -b  give each stream a buffer of BYTES with setvbuf (bonnie-ng uses
 *       one chunk); without it stdio picks its own size
 *   -k  keep the cache between write and read (bonnie-ng --cache=keep)
 *   -u  use putc_unlocked/getc_unlocked instead of putc/getc
 *
 * Prints two lines, "putc KIB_PER_S CPU_PCT" and "getc KIB_PER_S CPU_PCT",
 * and removes FILE.  Part of bench/, not of bonnie-ng: it reads its own
 * clocks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "perchar-ref";
static volatile unsigned sink;	/* keeps the read loop's sum alive */

struct mark {
	double	wall;
	double	cpu;
};

static void
mark(struct mark *m)
{
	struct timespec ts;
	struct rusage ru;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	getrusage(RUSAGE_SELF, &ru);
	m->wall = ts.tv_sec + ts.tv_nsec / 1e9;
	m->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void
report(const char *what, uint64_t size, const struct mark *a,
    const struct mark *b)
{
	double el = b->wall - a->wall;

	printf("%s %.1f %.1f\n", what, el > 0 ? size / 1024.0 / el : 0.0,
	    el > 0 ? 100.0 * (b->cpu - a->cpu) / el : 0.0);
}

static int
fail(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s: %s: %s\n", prog, what, path,
	    strerror(errno));
	return -1;
}

/* The timed write: putc loop, fflush, fsync, fclose. */
static int
write_loop(FILE *f, uint64_t size, int unlocked)
{
	uint64_t i;

	if (unlocked) {
		for (i = 0; i < size; i++)
			if (putc_unlocked((int)(i & 0x7f), f) == EOF)
				return -1;
	} else {
		for (i = 0; i < size; i++)
			if (putc((int)(i & 0x7f), f) == EOF)
				return -1;
	}
	if (fflush(f) == EOF || fsync(fileno(f)) == -1)
		return -1;
	return fclose(f) == EOF ? -1 : 0;
}

/* The timed read: getc until EOF, fclose.  Returns the bytes read. */
static int64_t
read_loop(FILE *f, int unlocked, unsigned *sum)
{
	int64_t n = 0;
	unsigned s = 0;
	int c;

	if (unlocked) {
		while ((c = getc_unlocked(f)) != EOF) {
			s += (unsigned)c;
			n++;
		}
	} else {
		while ((c = getc(f)) != EOF) {
			s += (unsigned)c;
			n++;
		}
	}
	if (ferror(f))
		return -1;
	*sum = s;
	return fclose(f) == EOF ? -1 : n;
}

/* Open PATH with stdio and, when bufsize is set, a buffer of that size. */
static FILE *
open_stream(const char *path, const char *mode, size_t bufsize)
{
	FILE *f;

	if ((f = fopen(path, mode)) == NULL)
		return NULL;
	if (bufsize > 0 && setvbuf(f, NULL, _IOFBF, bufsize) != 0) {
		fclose(f);
		return NULL;
	}
	return f;
}

static int
drop_cache(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd == -1)
		return fail("open", path);
	if (fsync(fd) == -1 ||
	    (errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		close(fd);
		return fail("drop cache", path);
	}
	return close(fd);
}

int
main(int argc, char **argv)
{
	struct mark a, b;
	const char *path;
	uint64_t size;
	int64_t got;
	unsigned sum = 0;
	size_t bufsize = 0;
	int keep = 0, unlocked = 0, c;
	FILE *f;

	while ((c = getopt(argc, argv, "b:ku")) != -1) {
		switch (c) {
		case 'b': bufsize = strtoul(optarg, NULL, 10); break;
		case 'k': keep = 1; break;
		case 'u': unlocked = 1; break;
		default: goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	path = argv[optind];
	size = strtoull(argv[optind + 1], NULL, 10);
	if (size == 0)
		goto usage;

	if ((f = open_stream(path, "w", bufsize)) == NULL)
		return fail("fopen", path), 1;
	mark(&a);
	if (write_loop(f, size, unlocked) == -1)
		return fail("write", path), 1;
	mark(&b);
	report("putc", size, &a, &b);

	if (!keep && drop_cache(path) == -1)
		return 1;

	if ((f = open_stream(path, "r", bufsize)) == NULL)
		return fail("fopen", path), 1;
	mark(&a);
	got = read_loop(f, unlocked, &sum);
	mark(&b);
	if (got != (int64_t)size) {
		fprintf(stderr, "%s: read: %s: got %lld of %llu bytes\n", prog,
		    path, (long long)got, (unsigned long long)size);
		return 1;
	}
	report("getc", size, &a, &b);
	sink = sum;
	unlink(path);
	return 0;

usage:
	fprintf(stderr, "usage: %s [-k] [-u] [-b bytes] file size-bytes\n", prog);
	return 2;
}
