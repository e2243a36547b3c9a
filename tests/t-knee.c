/*
 * The knee finder on synthetic curves.
 */
#include <math.h>
#include <stdint.h>

#include "knee.h"
#include "tap.h"

#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))

static void
test_cliff(void)
{
	/* Cache speed up to 16 GiB, disk speed from 32 GiB (RAM 23.4). */
	double		v[] = { 2.0e6, 2.1e6, 1.9e6, 2.05e6, 2.0e6, 3.4e5,
			    3.3e5 };
	uint64_t	sizes[7];
	struct knee	k[4];
	char		buf[160];
	int		i, n;

	for (i = 0; i < 7; i++)
		sizes[i] = (uint64_t)1024 << (20 + i);
	n = knee_sizes(v, N(v), 30, k, 4);
	is_int(n, 1, "cache cliff: one knee");
	is_int(k[0].from, 4, "cliff: from the size before the fall");
	is_int(k[0].to, 5, "cliff: to the size after the fall");
	is_int(k[0].dir, KNEE_FALLS, "cliff: it falls");
	is_near(k[0].pct, 83, 0.01, "cliff: by 83%");
	is_int(k[0].confirmed, 1, "cliff: confirmed by the last point");
	knee_format(buf, sizeof(buf), "read", 16384, &k[0], sizes[4],
	    sizes[5], (uint64_t)(23.4 * 1073741824.0));
	is_str(buf, "block read, chunk 16k: falls 83% between 16384 MiB and "
	    "32768 MiB (RAM is 23.4 GiB)", "cliff: in words");
	knee_format(buf, sizeof(buf), "write", 4096, &k[0], 1u << 19,
	    1u << 20, 0);
	is_str(buf, "block write, chunk 4k: falls 83% between 512 KiB and "
	    "1 MiB", "in words without RAM");
}

static void
test_last_pair(void)
{
	/* The example: the fall is between the last two sizes. */
	double		v[] = { 100, 104, 98, 17 };
	struct knee	k[2];

	is_int(knee_sizes(v, N(v), 30, k, 2), 1, "fall at the last pair");
	is_int(k[0].from, 2, "last pair: from");
	is_int(k[0].confirmed, 0, "last pair: nothing later to confirm");
}

static void
test_plateau(void)
{
	/* A plateau with noise of +-10%: the worst step is 18%. */
	double		v[] = { 100, 110, 90, 108, 91, 110, 90, 100, 95, 109 };
	struct knee	k[4];

	is_int(knee_sizes(v, N(v), 30, k, 4), 0, "noisy plateau: no knee");
	is_int(knee_sizes(v, N(v), 15, k, 4), 0,
	    "noisy plateau at 15%: steps that come back are no knee");
}

static void
test_recovers(void)
{
	double		dip[] = { 100, 100, 40, 100, 100 };
	double		late[] = { 100, 100, 40, 45, 90 };
	double		ok2[] = { 100, 100, 40, 45, 50 };
	struct knee	k[4];

	is_int(knee_sizes(dip, N(dip), 30, k, 4), 0,
	    "a single slow point: neither the fall nor the recovery counts");
	is_int(knee_sizes(late, N(late), 30, k, 4), 0,
	    "a fall that comes back later is no knee");
	is_int(knee_sizes(ok2, N(ok2), 30, k, 4), 1,
	    "the same fall staying down is a knee");
}

static void
test_rise_and_steps(void)
{
	double		rise[] = { 50, 52, 49, 120, 118, 125 };
	double		stairs[] = { 1000, 1000, 500, 480, 100, 95 };
	double		gaps[] = { 1000, NAN, 980, 0, 150, NAN, 140 };
	struct knee	k[4];

	is_int(knee_sizes(rise, N(rise), 30, k, 4), 1, "a rise is a knee");
	is_int(k[0].dir, KNEE_RISES, "rise: it rises");
	is_int(k[0].from, 2, "rise: from");
	is_near(k[0].pct, 144.9, 0.1, "rise: by 145%");
	is_int(knee_sizes(stairs, N(stairs), 30, k, 4), 2,
	    "two steps down: two knees");
	is_int(k[0].from * 10 + k[1].from, 13, "stairs: at 1-2 and 3-4");
	is_int(knee_sizes(gaps, N(gaps), 30, k, 4), 1,
	    "points not measured are skipped");
	is_int(k[0].from * 10 + k[0].to, 24, "gaps: between measured ones");
	is_int(knee_sizes(stairs, N(stairs), 30, k, 1), 2,
	    "the count goes beyond max");
	is_int(knee_sizes(stairs, N(stairs), 0, k, 4), 0, "0% finds nothing");
	is_int(knee_sizes(stairs, 1, 30, k, 4), 0, "one point: nothing");
}

static void
test_chunks(void)
{
	/* 1k 2k 4k 8k 16k: 4k is ten times slower than its neighbours. */
	double			v[] = { 300, 520, 52, 600, 610 };
	double			smooth[] = { 300, 520, 560, 600, 610 };
	double			ends[] = { 30, 520, 560, 600, 61 };
	double			gap[] = { 300, 520, NAN, 50, 610 };
	struct knee_chunk	k[4];
	char			buf[160];

	is_int(knee_chunks(v, N(v), 30, k, 4), 1, "one bad chunk size");
	is_int(k[0].index, 2, "bad chunk: the 4k one");
	is_near(k[0].pct, 90, 0.01, "bad chunk: 90% below the slower one");
	knee_chunk_format(buf, sizeof(buf), "read", 256u << 20, &k[0], 4096,
	    2048, 8192);
	is_str(buf, "block read, 256 MiB: chunk 4k is 90% below both "
	    "neighbours (2k and 8k)", "bad chunk in words");
	is_int(knee_chunks(smooth, N(smooth), 30, k, 4), 0,
	    "rising chunks: none bad");
	is_int(knee_chunks(ends, N(ends), 30, k, 4), 0,
	    "the smallest and largest chunk are not judged");
	is_int(knee_chunks(gap, N(gap), 30, k, 4), 1,
	    "bad chunk next to one not measured");
	is_int(k[0].left * 10 + k[0].right, 14, "gap: measured neighbours");
}

static void
test_names(void)
{
	is_str(knee_phase_words("getc"), "per-char read", "phase words");
}

int
main(void)
{
	(void)tap_skip;		/* Nothing here is ever skipped. */
	test_cliff();
	test_last_pair();
	test_plateau();
	test_recovers();
	test_rise_and_steps();
	test_chunks();
	test_names();
	return done_testing();
}
