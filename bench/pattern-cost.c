/*
 * bench/pattern-cost: the CPU cost of the data bonnie-ng writes and of
 * checking it, against the data it wrote before (one word changed per 512
 * bytes, kept here as the reference), in seconds per GiB of 16 KiB
 * chunks; and a dump of either kind of data for a compressor to try.
 *
 *   pattern-cost time [CHUNK]       seconds per GiB: old, fill, check
 *   pattern-cost dump old|new MIB   MIB MiB of that data on stdout
 *
 * Built and run by bench/verify-cost.sh (cc -O2 -Iinclude with the
 * library); it measures one core in a tight loop, no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pattern.h"

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The data before --verify: one 64-bit word changed per 512 bytes. */
static void
old_dirty(unsigned char *buf, size_t len, uint64_t serial)
{
	size_t		off, slot = (size_t)(serial % 63) * 8;
	uint64_t	w;

	for (off = 0; off + 512 <= len; off += 512) {
		memcpy(&w, buf + off + slot, sizeof(w));
		w += serial * 0x9E3779B97F4A7C15ull + off;
		memcpy(buf + off + slot, &w, sizeof(w));
	}
}

static volatile unsigned sink;

/* Random bytes, as bonnie-ng filled its buffer before changing words. */
static void
random_fill(unsigned char *buf, size_t len)
{
	uint64_t	x = 12345, z;
	size_t		i;

	for (i = 0; i + 8 <= len; i += 8) {
		z = (x += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		memcpy(buf + i, &z, 8);
	}
}

static int
time_all(size_t chunk)
{
	struct pattern		 p;
	struct pattern_bad	 bad[2];
	enum pattern_writer	 w = PW_WRITE;
	unsigned char		*buf;
	uint64_t		 i, n = ((uint64_t)1 << 30) / chunk;
	double			 t0, t1, t2, t3;
	int			 nbad = 0, r;

	if ((buf = aligned_alloc(4096, chunk)) == NULL)
		return 1;
	random_fill(buf, chunk);
	pattern_init(&p, 1, chunk, n * chunk);
	for (r = 0; r < 5; r++) {
		t0 = now();
		for (i = 0; i < n; i++) {
			old_dirty(buf, chunk, i);
			sink += buf[i % chunk];
		}
		t1 = now();
		for (i = 0; i < n; i++) {
			pattern_fill(&p, buf, i * chunk, PW_WRITE);
			sink += buf[i % chunk];
		}
		t2 = now();
		/* Check the last chunk filled, n times over. */
		for (i = 0; i < n; i++)
			nbad += pattern_check(&p, buf, (n - 1) * chunk, chunk, &w,
			    1, bad, 2);
		t3 = now();
		printf("old %.4f fill %.4f check %.4f\n", t1 - t0, t2 - t1,
		    t3 - t2);
	}
	free(buf);
	return nbad != 0;
}

static int
dump(int new, uint64_t mib)
{
	struct pattern	 p;
	size_t		 chunk = 16384;
	unsigned char	*buf = malloc(chunk);
	uint64_t	 i, n = (mib << 20) / chunk;

	if (buf == NULL)
		return 1;
	random_fill(buf, chunk);
	pattern_init(&p, 1, chunk, n * chunk);
	for (i = 0; i < n; i++) {
		if (new)
			pattern_fill(&p, buf, i * chunk, PW_WRITE);
		else
			old_dirty(buf, chunk, i);
		if (fwrite(buf, 1, chunk, stdout) != chunk)
			return 1;
	}
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "time") == 0)
		return time_all(argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) :
		    16384);
	if (argc == 4 && strcmp(argv[1], "dump") == 0)
		return dump(strcmp(argv[2], "new") == 0,
		    strtoull(argv[3], NULL, 10));
	fprintf(stderr, "usage: pattern-cost time [CHUNK] | dump old|new MIB\n");
	return 2;
}
