/*
 * Unit tests: the self-identifying data (src/pattern.c) and the checker's
 * diagnoses, one per kind of damage a read can bring back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "tap.h"

#define CHUNK	16384
#define NCHUNK	64
#define SIZE	((uint64_t)CHUNK * NCHUNK)

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t
le64(const unsigned char *b)
{
	uint64_t	v = 0;
	int		i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static int
check1(const struct pattern *p, const unsigned char *buf, uint64_t off,
    size_t len, enum pattern_writer w, struct pattern_bad *b)
{
	return pattern_check(p, buf, off, len, &w, 1, b, 1);
}

static void
says(const struct pattern_bad *b, const char *word, const char *desc)
{
	char	line[512];

	pattern_describe(b, line, sizeof(line));
	if (!ok(strstr(line, word) != NULL, desc))
		printf("#   line: %s\n#   want: %s\n", line, word);
}

static void
test_tags(void)
{
	struct pattern		p;
	uint64_t		s, sector, x = 12345, hits = 0;
	enum pattern_writer	w, got;
	int			i, bad = 0;

	pattern_init(&p, 42, CHUNK, 0);
	for (w = PW_FILL; w < PW_COUNT; w++)
		for (s = 0; s < 100000; s += 7)
			if (pattern_untag(&p, pattern_tag(&p, s, w), &sector,
			    &got) != 0 || sector != s || got != w)
				bad++;
	is_int(bad, 0, "every tag decodes to its sector and writer");
	s = (uint64_t)1 << 55;
	ok(pattern_untag(&p, pattern_tag(&p, s, PW_SEEK), &sector, &got) == 0 &&
	    sector == s && got == PW_SEEK, "a sector number of 2^55 decodes");
	for (i = 0; i < 100000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		hits += pattern_untag(&p, x, &sector, &got) == 0;
	}
	ok(hits < 3000, "random words rarely look like tags of any size");
	pattern_init(&p, 42, CHUNK, SIZE);
	for (i = 0, hits = 0; i < 100000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		hits += pattern_untag(&p, x, &sector, &got) == 0;
	}
	is_int(hits, 0, "random words are not tags of a 1 MiB file");
	ok(pattern_untag(&p, pattern_tag(&p, SIZE / 512, PW_WRITE), &sector,
	    &got) == -1, "a sector past the end of the file is refused");
	is_int(pattern_gen(PW_WRITE), 1, "block write: generation 1");
	is_int(pattern_gen(PW_PUTC), 1, "per-char write: generation 1");
	is_int(pattern_gen(PW_FILL), 1, "fill: generation 1");
	is_int(pattern_gen(PW_REWRITE), 2, "rewrite: generation 2");
	is_int(pattern_gen(PW_SEEK), 3, "seeker write-back: generation 3");
}

static void
test_layout(void)
{
	struct pattern	 p, q;
	unsigned char	*a = malloc(SIZE), *b = malloc(CHUNK);
	uint64_t	*grams, g;
	size_t		 i, j, dups = 0, ones = 0, n, same = 0;

	pattern_init(&p, 7, CHUNK, SIZE);
	for (i = 0; i < NCHUNK; i++)
		pattern_fill(&p, a + i * CHUNK, i * CHUNK, PW_WRITE);
	ok(memcmp(a + 3 * CHUNK, "BNGV", 4) == 0, "a chunk starts with BNGV");
	is_int(a[3 * CHUNK + 4], 1, "then the generation");
	is_int(a[3 * CHUNK + 5], PW_WRITE, "the writer");
	is_int(a[3 * CHUNK + 6], 14, "the chunk size's log2");
	is_int(le64(a + 3 * CHUNK + 8), 7, "the seed, little endian");
	is_int(le64(a + 3 * CHUNK + 16), 3 * CHUNK, "the offset, little endian");
	pattern_fill(&p, b, 3 * CHUNK, PW_WRITE);
	ok(memcmp(a + 3 * CHUNK, b, CHUNK) == 0, "filling is repeatable");
	pattern_init(&q, 7, CHUNK, SIZE);
	pattern_fill(&q, b, 3 * CHUNK, PW_WRITE);
	ok(memcmp(a + 3 * CHUNK, b, CHUNK) == 0, "and depends on the seed "
	    "and the offset only");
	pattern_fill(&p, b, 3 * CHUNK, PW_REWRITE);
	for (i = 0; i < CHUNK; i += 8)
		same += memcmp(a + 3 * CHUNK + i, b + i, 8) == 0;
	is_int(same, 2, "a rewrite changes every word but the seed and offset");

	for (i = 0; i < SIZE; i++)
		ones += (size_t)__builtin_popcount(a[i]);
	ok(ones > SIZE * 8 * 0.49 && ones < SIZE * 8 * 0.51,
	    "half the bits are set");
	/*
	 * No 8-byte string at any byte position repeats in 1 MiB, but for
	 * the first 16 bytes of each header (magic, versions, seed): nothing
	 * for a compressor to find.
	 */
	grams = malloc(SIZE * sizeof(*grams));
	for (i = 0, n = 0; i + 8 <= SIZE; i++)
		if (i % CHUNK >= 16 && i % CHUNK <= CHUNK - 8)
			memcpy(&grams[n++], a + i, 8);
	qsort(grams, n, sizeof(*grams), cmp_u64);
	for (i = 1; i < n; i++)
		dups += grams[i] == grams[i - 1];
	is_int(dups, 0, "no 8-byte string repeats in 1 MiB but in headers");
	memcpy(&g, a + 8, 8);
	for (i = 0, j = 0; i < NCHUNK; i++)
		j += memcmp(a + i * CHUNK, a, 16) == 0;
	is_int(j, NCHUNK, "the headers' first 16 bytes are the same");
	ok(g == 7, "(they end with the seed)");
	free(grams);
	free(a);
	free(b);
}

/*
 * What the checker says of data that is not the expected chunk's: another
 * offset's, an older version, zeroes off the sector boundaries, a torn
 * write, unknown bytes, two allowed versions mixed, short chunks; buf
 * holds the good data of off, o is room for a chunk.
 */
static void
test_checker_kinds(const struct pattern *good, unsigned char *buf,
    unsigned char *o, uint64_t off)
{
	struct pattern		 p = *good, q;
	struct pattern_bad	 b;
	enum pattern_writer	 both[2] = { PW_WRITE, PW_SEEK };
	uint64_t		 x = 99;
	size_t			 i;

	/* Data of another offset. */
	pattern_fill(&p, o, 9 * CHUNK, PW_WRITE);
	is_int(check1(&p, o, off, CHUNK, PW_WRITE, &b), 1, "another "
	    "offset's chunk");
	ok(b.verdict == PV_MISPLACED && b.found_off == 9 * CHUNK &&
	    b.found == PW_WRITE, "is misplaced data of that offset");
	says(&b, "data of offset 147456 (generation 1, write) instead of its "
	    "own: a misdirected write", "described as a misdirected write");
	pattern_fill(&p, o, 9 * CHUNK, PW_REWRITE);
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	ok(b.verdict == PV_MISPLACED && b.found == PW_REWRITE, "of any "
	    "version");
	memcpy(o, buf, CHUNK);
	pattern_fill(&p, buf + CHUNK, 20 * CHUNK, PW_WRITE);
	memcpy(o + 8192, buf + CHUNK + 4096, 4096);
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	ok(b.verdict == PV_DIFFERS && b.inner == PV_MISPLACED &&
	    b.found_off == 20 * CHUNK + 4096 && b.first == off + 8192,
	    "4 KiB of another chunk inside: the offset it belongs to");
	says(&b, "hold data of offset 331776", "described so");
	pattern_fill(&p, buf + CHUNK, off + CHUNK, PW_WRITE);

	/* An older generation at the right offset. */
	is_int(check1(&p, buf, off, CHUNK, PW_REWRITE, &b), 1, "generation 1 "
	    "where 2 is due");
	ok(b.verdict == PV_STALE && b.found == PW_WRITE &&
	    b.want == PW_REWRITE, "is stale");
	says(&b, "generation 1, write where generation 2, rewrite was due: a "
	    "lost or stale write", "described as a lost or stale write");
	pattern_fill(&p, o, off, PW_PUTC);
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	ok(b.verdict == PV_STALE && b.found == PW_PUTC, "the per-char write's "
	    "data after the block write is stale");
	memcpy(o, buf, CHUNK);
	pattern_fill(&p, buf + CHUNK, off, PW_REWRITE);
	memcpy(o, buf + CHUNK, 2048);
	check1(&p, o, off, CHUNK, PW_REWRITE, &b);
	ok(b.verdict == PV_DIFFERS && b.inner == PV_STALE &&
	    b.found == PW_WRITE && b.first >= off + 2048, "part stale: "
	    "differs, the older generation there");
	pattern_fill(&p, buf + CHUNK, off + CHUNK, PW_WRITE);

	/*
	 * Zeroes not on a sector boundary: bytes 700 to 1299, across the
	 * second and third sectors.
	 */
	memcpy(o, buf, CHUNK);
	memset(o + 700, 0, 600);
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	ok(b.verdict == PV_DIFFERS && b.inner == PV_ZERO &&
	    b.first >= off + 700 && b.last <= off + 1299, "600 zeroes off "
	    "the sector boundaries: zeroes there");
	says(&b, "zeroes instead of the expected data (generation 1, write): "
	    "a hole or a lost write", "described as zeroes, not corruption");

	/*
	 * A torn write: the seekers' version due, but half of one sector
	 * still the block write's.
	 */
	pattern_fill(&p, o, off, PW_SEEK);
	memcpy(o + 3 * 512 + 256, buf + 3 * 512 + 256, 256);
	check1(&p, o, off, CHUNK, PW_SEEK, &b);
	ok(b.verdict == PV_DIFFERS && b.inner == PV_STALE && b.torn &&
	    b.found == PW_WRITE && b.first >= off + 3 * 512 + 256 &&
	    b.last <= off + 4 * 512 - 1, "half a sector of the older "
	    "version: stale there, torn");
	says(&b, "hold generation 1, write where generation 3, seeks was due: "
	    "a torn write", "described as a torn write");

	/* Unknown bytes: noise, and another run's data. */
	for (i = 0; i < CHUNK; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		o[i] = (unsigned char)(x >> 56);
	}
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	is_int(b.verdict, PV_UNKNOWN, "noise is unknown bytes");
	says(&b, "unknown bytes: corruption", "described as corruption");
	pattern_init(&q, 4, CHUNK, SIZE);
	pattern_fill(&q, o, off, PW_WRITE);
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	is_int(b.verdict, PV_UNKNOWN, "another seed's data is unknown bytes");

	/*
	 * A read racing seekers' write-backs may see either version, sector
	 * by sector or within a sector; given both, all of it is fine.
	 */
	pattern_fill(&p, o, off, PW_SEEK);
	memcpy(o + 4096, buf + 4096, 4096 + 200);
	is_int(pattern_check(&p, o, off, CHUNK, both, 2, &b, 1), 0,
	    "a mix of two allowed versions checks out");
	ok(check1(&p, o, off, CHUNK, PW_SEEK, &b) == 1 &&
	    b.verdict == PV_DIFFERS && b.inner == PV_STALE,
	    "but not against the newer one alone");
	o[100] ^= 1;
	is_int(pattern_check(&p, o, off, CHUNK, both, 2, &b, 1), 1,
	    "a flip in the mix is found");

	/* Short and odd sizes. */
	pattern_init(&p, 3, 512, 512 * 8);
	pattern_fill(&p, o, 512 * 7, PW_WRITE);
	is_int(check1(&p, o, 512 * 7, 512, PW_WRITE, &b), 0, "512-byte chunks");
	pattern_fill(&p, o, 0, PW_WRITE);
	check1(&p, o, 512 * 7, 512, PW_WRITE, &b);
	ok(b.verdict == PV_MISPLACED && b.found_off == 0, "misplaced "
	    "512-byte chunk");
}

static void
test_checker(void)
{
	struct pattern		 p;
	struct pattern_bad	 b, bb[8];
	enum pattern_writer	 both[2] = { PW_WRITE, PW_SEEK };
	unsigned char		*buf = malloc(4 * CHUNK), *o = malloc(CHUNK);
	uint64_t		 off = 5 * CHUNK;
	size_t			 i;

	pattern_init(&p, 3, CHUNK, SIZE);
	for (i = 0; i < 4; i++)
		pattern_fill(&p, buf + i * CHUNK, off + i * CHUNK, PW_WRITE);
	is_int(check1(&p, buf, off, 4 * CHUNK, PW_WRITE, &b), 0,
	    "four good chunks check out");
	is_int(check1(&p, buf + 100, off + 100, 3000, PW_WRITE, &b), 0,
	    "so does a piece at an odd offset");
	is_int(check1(&p, buf + CHUNK - 700, off + CHUNK - 700, 1400,
	    PW_WRITE, &b), 0, "and one across a chunk boundary");

	/* One flipped bit. */
	buf[1000] ^= 0x10;
	is_int(check1(&p, buf, off, CHUNK, PW_WRITE, &b), 1, "a flipped bit "
	    "makes one bad chunk");
	is_int(b.verdict, PV_DIFFERS, "expected data that differs");
	is_int(b.inner, PV_DIFFERS, "by a few bytes");
	ok(b.first == off + 1000 && b.last == off + 1000 && b.nbytes == 1,
	    "at exactly the flipped byte");
	says(&b, "byte 82920 is 0x", "described with the value read");
	ok((b.got ^ b.due) == 0x10, "the bit that flipped is kept");
	says(&b, "bit 4 flipped: corruption", "described with the bit");
	is_int(check1(&p, buf + 990, off + 990, 20, PW_WRITE, &b), 1,
	    "a 20-byte read over it finds it");
	ok(b.first == off + 1000 && b.off == off + 990 && b.len == 20,
	    "with the read's own range");
	buf[1000] ^= 0x10;
	buf[CHUNK - 3] ^= 1;		/* In a tag. */
	is_int(check1(&p, buf, off, CHUNK, PW_WRITE, &b), 1, "a bit in a tag");
	ok(b.verdict == PV_DIFFERS && b.nbytes == 1, "is one differing byte");
	buf[CHUNK - 3] ^= 1;
	buf[2] ^= 4;			/* In the header's magic. */
	is_int(check1(&p, buf, off, CHUNK, PW_WRITE, &b), 1, "a bit in the "
	    "header");
	ok(b.verdict == PV_DIFFERS && b.first == off + 2, "is found there");
	buf[2] ^= 4;

	/* Two bad chunks, reported in order; more than fit are counted. */
	buf[CHUNK + 7] ^= 1;
	buf[3 * CHUNK + 9] ^= 1;
	is_int(pattern_check(&p, buf, off, 4 * CHUNK, &both[0], 1, bb, 8), 2,
	    "two bad chunks of four");
	ok(bb[0].first == off + CHUNK + 7 && bb[1].first == off + 3 * CHUNK + 9,
	    "in file order");
	is_int(pattern_check(&p, buf, off, 4 * CHUNK, &both[0], 1, bb, 1), 2,
	    "counted beyond the room for descriptions");
	buf[CHUNK + 7] ^= 1;
	buf[3 * CHUNK + 9] ^= 1;

	/* All zeroes, and zeroes in the middle. */
	memset(o, 0, CHUNK);
	is_int(check1(&p, o, off, CHUNK, PW_WRITE, &b), 1, "a zero chunk");
	is_int(b.verdict, PV_ZERO, "is all zeroes");
	says(&b, "all zeroes: a hole", "described as a hole");
	memcpy(o, buf, CHUNK);
	memset(o + 4096, 0, 4096);
	check1(&p, o, off, CHUNK, PW_WRITE, &b);
	ok(b.verdict == PV_DIFFERS && b.inner == PV_ZERO, "4 KiB of zeroes "
	    "inside: differs, zeroes there");
	ok(b.first >= off + 4096 && b.first < off + 4096 + 8 &&
	    b.last <= off + 8191 && b.last > off + 8191 - 8 &&
	    b.nbytes > 4000 && b.nbytes <= 4096, "over that range");
	says(&b, "zeroes instead of the expected data", "described so");

	test_checker_kinds(&p, buf, o, off);
	free(buf);
	free(o);
}

/* Runs of bad chunks with one diagnosis are kept as one entry. */
static void
test_tally(void)
{
	static struct pattern_tally	 t;
	struct pattern			 p;
	struct pattern_bad		 b;
	enum pattern_writer		 w = PW_WRITE;
	unsigned char			*z = calloc(1, CHUNK), *o = malloc(CHUNK);
	int				 i;

	pattern_init(&p, 5, CHUNK, SIZE);
	for (i = 0; i < 3; i++) {
		check1(&p, z, (uint64_t)(2 + i) * CHUNK, CHUNK, w, &b);
		pattern_tally_add(&t, &b, 1, 1);
	}
	ok(t.nkept == 1 && t.kept[0].chunks == 3 &&
	    t.kept[0].len == 3 * CHUNK && t.kept[0].off == 2 * CHUNK,
	    "three zeroed chunks in a row are one entry");
	says(&t.kept[0], "at byte 32768 (49152 bytes, 3 chunks): all zeroes",
	    "described as a run");
	check1(&p, z, 9 * CHUNK, CHUNK, w, &b);
	pattern_tally_add(&t, &b, 1, 1);
	is_int(t.nkept, 2, "a zeroed chunk further on starts another");
	/* Chunks 10 and 11 hold the data of 20 and 21: one run. */
	for (i = 0; i < 2; i++) {
		pattern_fill(&p, o, (uint64_t)(20 + i) * CHUNK, PW_WRITE);
		check1(&p, o, (uint64_t)(10 + i) * CHUNK, CHUNK, w, &b);
		pattern_tally_add(&t, &b, 1, 1);
	}
	ok(t.nkept == 3 && t.kept[2].chunks == 2 &&
	    t.kept[2].found_off == 20 * CHUNK, "misplaced data of the next "
	    "offsets in a row is one entry");
	pattern_fill(&p, o, 40 * CHUNK, PW_WRITE);
	check1(&p, o, 12 * CHUNK, CHUNK, w, &b);
	pattern_tally_add(&t, &b, 1, 1);
	is_int(t.nkept, 4, "misplaced data of another range starts another");
	pattern_fill(&p, o, 13 * CHUNK, PW_WRITE);
	o[5] ^= 1;
	check1(&p, o, 13 * CHUNK, CHUNK, w, &b);
	pattern_tally_add(&t, &b, 1, 1);
	pattern_fill(&p, o, 14 * CHUNK, PW_WRITE);
	o[5] ^= 1;
	check1(&p, o, 14 * CHUNK, CHUNK, w, &b);
	pattern_tally_add(&t, &b, 1, 1);
	is_int(t.nkept, 6, "chunks that differ in places stay apart");
	ok(t.chunks == 9 && pattern_tally_listed(&t) == 9 &&
	    t.kinds[PV_ZERO] == 4 && t.kinds[PV_MISPLACED] == 3 &&
	    t.kinds[PV_DIFFERS] == 2, "every bad chunk counted and listed");
	free(z);
	free(o);
}

/* The streaming fill writes the same bytes, aligned buffer or not. */
static void
test_direct(void)
{
	static const enum pattern_writer ws[] = { PW_FILL, PW_WRITE,
	    PW_REWRITE, PW_SEEK };
	static const size_t chunks[] = { 512, 4096, 16384, 1048576 };
	struct pattern	 p;
	unsigned char	*a, *b;
	size_t		 i, j, bad = 0;

	a = malloc(1048576);
	b = malloc(1048576 + 16);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		for (j = 0; j < sizeof(ws) / sizeof(ws[0]); j++) {
			pattern_init(&p, 99 + i, chunks[i], 1ull << 34);
			pattern_fill(&p, a, 5 * chunks[i], ws[j]);
			pattern_fill_direct(&p, b, 5 * chunks[i], ws[j]);
			bad += memcmp(a, b, chunks[i]) != 0;
			/* Not 16-byte aligned: the ordinary fill. */
			pattern_fill_direct(&p, b + 8, 5 * chunks[i], ws[j]);
			bad += memcmp(a, b + 8, chunks[i]) != 0;
		}
	is_int(bad, 0, "pattern_fill_direct() writes pattern_fill()'s bytes "
	    "(4 chunk sizes, 4 writers, aligned and not)");
	free(a);
	free(b);
}

int
main(void)
{
	test_tally();
	test_direct();
	test_tags();
	test_layout();
	test_checker();
	return done_testing();
}
