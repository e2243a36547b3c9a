/*
 * bench/bare-loop: the limit of a synchronous tool.  The same work as
 * bonnie-ng's block phases and seeks with nothing but the system calls:
 * one buffer filled once, no data made per chunk, no checks, one clock
 * read at each end.  Prints "RATE CPU" (KiB/s, or seeks/s; %CPU of one
 * core) as bench/lib.sh's measuring functions do.
 *
 *   bare-loop write|rewrite|read FILE SIZE CHUNK [direct]
 *   bare-loop seeks FILE SIZE CHUNK SEEKERS SEEKS [direct]
 *
 * write makes FILE (O_TRUNC) and times the writes, fsync and close, as
 * bonnie-ng's block write does; rewrite reads each chunk, seeks back one
 * chunk and writes it (fsync and close timed); read reads FILE to the
 * end.  seeks forks SEEKERS processes that share SEEKS preads of one
 * chunk at uniform random offsets, one in ten followed by a pwrite of it,
 * and the rate is seeks over the span from the first start to the last
 * end.  Built by the bench scripts with cc -O2.
 *
 * BARE_RING=N in the environment: write and rewrite take their chunks from
 * a ring of N buffers (each filled once, with other bytes), as bonnie-ng's
 * fill ahead does, not from one (the guess to check: the kernel's copy
 * from a ring that leaves L1 costs more than from one buffer that stays).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
cpu_self(int who)
{
	struct rusage	ru;

	getrusage(who, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static void
full(int wr, int fd, unsigned char *buf, size_t len)
{
	ssize_t	n;

	n = wr ? write(fd, buf, len) : read(fd, buf, len);
	if (n != (ssize_t)len)
		die(wr ? "write" : "read");
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One seeker: n seeks; the span's ends go to t[0] and t[1]. */
static void
seeker(const char *path, int flags, uint64_t size, size_t chunk, long n,
    unsigned char *buf, int id, double *t)
{
	uint64_t	s = 0x9E3779B97F4A7C15ull * (uint64_t)(id + 1), off;
	long		i;
	int		fd;

	if ((fd = open(path, O_RDWR | flags)) == -1)
		die("open");
	t[0] = now();
	for (i = 0; i < n; i++) {
		off = xorshift(&s) % (size / chunk) * chunk;
		if (pread(fd, buf, chunk, (off_t)off) != (ssize_t)chunk)
			die("pread");
		if (i % 10 == 0 && pwrite(fd, buf, chunk, (off_t)off) !=
		    (ssize_t)chunk)
			die("pwrite");
	}
	t[1] = now();
	close(fd);
}

int
main(int argc, char **argv)
{
	unsigned char	*buf, *ring;
	const char	*mode, *path, *e;
	size_t		 nring = 1, r = 0;
	uint64_t	 size, got;
	size_t		 chunk;
	double		 t0, t1, c0, c1, *span;
	long		 seeks = 0;
	int		 fd, flags = 0, i, seekers = 0, direct_arg = 5;

	if (argc < 5)
		goto usage;
	mode = argv[1];
	path = argv[2];
	size = strtoull(argv[3], NULL, 10);
	chunk = (size_t)strtoul(argv[4], NULL, 10);
	if (strcmp(mode, "seeks") == 0) {
		if (argc < 7)
			goto usage;
		seekers = atoi(argv[5]);
		seeks = atol(argv[6]);
		direct_arg = 7;
	}
	if (argc > direct_arg && strcmp(argv[direct_arg], "direct") == 0)
		flags = O_DIRECT;
	if ((e = getenv("BARE_RING")) != NULL && atoi(e) > 1)
		nring = (size_t)atoi(e);
	if (chunk == 0 || size < chunk ||
	    posix_memalign((void **)&ring, 4096, chunk * nring) != 0)
		goto usage;
	for (got = 0; got < chunk * nring; got++)
		ring[got] = (unsigned char)(got * 131 + 7 + got / chunk);
	buf = ring;
	c0 = cpu_self(RUSAGE_SELF);
	if (strcmp(mode, "write") == 0) {
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | flags,
		    0600)) == -1)
			die("open");
		t0 = now();
		for (got = 0; got + chunk <= size; got += chunk) {
			full(1, fd, ring + r * chunk, chunk);
			r = r + 1 < nring ? r + 1 : 0;
		}
		if (fsync(fd) == -1 || close(fd) == -1)
			die("fsync");
		t1 = now();
	} else if (strcmp(mode, "rewrite") == 0) {
		if ((fd = open(path, O_RDWR | flags)) == -1)
			die("open");
		t0 = now();
		for (got = 0; got + chunk <= size; got += chunk) {
			full(0, fd, buf, chunk);
			if (lseek(fd, -(off_t)chunk, SEEK_CUR) == -1)
				die("lseek");
			full(1, fd, ring + r * chunk, chunk);
			r = r + 1 < nring ? r + 1 : 0;
		}
		if (fsync(fd) == -1 || close(fd) == -1)
			die("fsync");
		t1 = now();
	} else if (strcmp(mode, "read") == 0) {
		if ((fd = open(path, O_RDONLY | flags)) == -1)
			die("open");
		t0 = now();
		for (got = 0; got + chunk <= size; got += chunk)
			full(0, fd, buf, chunk);
		t1 = now();
		close(fd);
	} else if (seekers > 0 && seeks > 0) {
		span = mmap(NULL, sizeof(double) * 2 * (size_t)seekers,
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (span == MAP_FAILED)
			die("mmap");
		for (i = 0; i < seekers; i++) {
			switch (fork()) {
			case -1:
				die("fork");
			case 0:
				seeker(path, flags, size, chunk,
				    seeks / seekers + (i < seeks % seekers),
				    buf, i, span + 2 * i);
				_exit(0);
			}
		}
		for (i = 0; i < seekers; i++)
			if (wait(NULL) == -1)
				die("wait");
		t0 = span[0];
		t1 = span[1];
		for (i = 1; i < seekers; i++) {
			if (span[2 * i] < t0)
				t0 = span[2 * i];
			if (span[2 * i + 1] > t1)
				t1 = span[2 * i + 1];
		}
		c1 = cpu_self(RUSAGE_CHILDREN);
		printf("%.1f %.1f\n", (double)seeks / (t1 - t0),
		    100 * c1 / (t1 - t0));
		return 0;
	} else
		goto usage;
	c1 = cpu_self(RUSAGE_SELF);
	printf("%.1f %.1f\n", (double)(size / chunk * chunk) / 1024 / (t1 - t0),
	    100 * (c1 - c0) / (t1 - t0));
	return 0;
usage:
	fprintf(stderr, "usage: bare-loop write|rewrite|read FILE SIZE CHUNK "
	    "[direct]\n       bare-loop seeks FILE SIZE CHUNK SEEKERS SEEKS "
	    "[direct]\n");
	return 2;
}
