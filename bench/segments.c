/*
 * bench/segments: how many requests the device gets for reads of one
 * chunk with O_DIRECT, by where the buffer's pages come from.  Reads FILE
 * (a file bench/segments does not make or change) from start to end in
 * chunks of CHUNK bytes, at depth 1, into a buffer of MODE:
 *
 *   shared   a shared anonymous mapping (bonnie-ng's queue before 36e8758)
 *   private  a private anonymous mapping (malloc of a large buffer: fio's
 *            default iomem=malloc)
 *   huge     a private one aligned to 2 MiB with MADV_HUGEPAGE (bonnie-ng's
 *            queue since 36e8758, where the kernel has transparent huge
 *            pages)
 *
 * and prints "MODE CHUNKS REQUESTS": the chunks read and the reads the
 * device DEV completed meanwhile (/proc/diskstats' fourth field; other
 * I/O on DEV counts too).  A chunk whose pages are more segments than the
 * queue takes (/sys/block/DEV/queue/max_segments) goes as two requests.
 *
 *   segments FILE CHUNK DEV shared|private|huge
 *
 * Built by hand: cc -O2 -o /tmp/segments bench/segments.c (RESULTS.md,
 * session 10).
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HUGE	(2UL << 20)

/* The reads DEV completed so far, or -1. */
static long long
dev_reads(const char *dev)
{
	FILE		*f;
	char		 name[64];
	long long	 n, v = -1;
	int		 maj, min;

	if ((f = fopen("/proc/diskstats", "r")) == NULL)
		return -1;
	while (fscanf(f, "%d %d %63s %lld%*[^\n]", &maj, &min, name, &n) == 4)
		if (strcmp(name, dev) == 0)
			v = n;
	fclose(f);
	return v;
}

int
main(int argc, char **argv)
{
	size_t		 chunk, len;
	unsigned char	*map, *buf;
	long long	 r0, r1, chunks = 0;
	ssize_t		 n;
	off_t		 off = 0;
	int		 fd, shared;

	if (argc != 5 || (chunk = strtoul(argv[2], NULL, 10)) == 0 ||
	    chunk % 4096 != 0) {
		fprintf(stderr, "usage: segments FILE CHUNK DEV "
		    "shared|private|huge (CHUNK a multiple of 4096)\n");
		return 2;
	}
	shared = strcmp(argv[4], "shared") == 0;
	len = chunk + HUGE;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_ANONYMOUS |
	    (shared ? MAP_SHARED : MAP_PRIVATE), -1, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	buf = map + (HUGE - (uintptr_t)map % HUGE) % HUGE;
	if (strcmp(argv[4], "huge") == 0 && madvise(map, len,
	    MADV_HUGEPAGE) == -1)
		perror("madvise (MADV_HUGEPAGE)");
	memset(buf, 0, chunk);
	if ((fd = open(argv[1], O_RDONLY | O_DIRECT)) == -1) {
		perror(argv[1]);
		return 1;
	}
	r0 = dev_reads(argv[3]);
	while ((n = pread(fd, buf, chunk, off)) > 0) {
		off += n;
		chunks++;
	}
	r1 = dev_reads(argv[3]);
	if (n == -1 || r0 < 0 || r1 < 0) {
		fprintf(stderr, "segments: %s\n", n == -1 ? "pread failed" :
		    "no such device in /proc/diskstats");
		return 1;
	}
	printf("%s %lld %lld\n", argv[4], chunks, r1 - r0);
	close(fd);
	munmap(map, len);
	return 0;
}
