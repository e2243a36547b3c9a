/*
 * Self-identifying data and its checker (see include/pattern.h for the
 * layout).  Filling a chunk is one XOR of a 512-byte pool per sector, in
 * 32-byte vectors the compiler maps to what the machine has; checking a
 * whole sector is the same XOR folded into an OR, and only a sector that
 * fails it is looked at byte by byte to say what it holds.
 */
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "pattern.h"
#include "phase-id.h"

#define GOLDEN		0x9E3779B97F4A7C15ull
#define MIX1		0xBF58476D1CE4E5B9ull
#define MIX2		0x94D049BB133111EBull

/* 16 bytes: a native register on amd64 (SSE2), arm64 and ppc64. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* The splitmix64 finalizer: a bijection of 64-bit words. */
static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * MIX1;
	z = (z ^ (z >> 27)) * MIX2;
	return z ^ (z >> 31);
}

/* The inverse of y = x ^ (x >> s). */
static uint64_t
unshift(uint64_t y, int s)
{
	uint64_t	x = y;
	int		k;

	for (k = s; k < 64; k += s)
		x ^= y >> k;
	return x;
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t
inverse(uint64_t m)
{
	uint64_t	x = m;
	int		i;

	for (i = 0; i < 5; i++)
		x *= 2 - m * x;
	return x;
}

static uint64_t
unmix64(uint64_t z)
{
	z = unshift(z, 31);
	z *= inverse(MIX2);
	z = unshift(z, 27);
	z *= inverse(MIX1);
	return unshift(z, 30);
}

static const int gens[PW_COUNT] = {
	[PW_NONE] = 0, [PW_FILL] = 1, [PW_PUTC] = 1, [PW_WRITE] = 1,
	[PW_REWRITE] = 2, [PW_SEEK] = 3
};
/*
 * A writer's name: the phase that writes it, by its name in phase-list.h
 * (which phase.c checks against each phase's struct, and its writer
 * against this); the fill and none are no phase.
 */
static const char *const phase_names[PH_COUNT] = {
#define PHASE(id, sym, on)	[PH_##id] = #sym,
#include "phase-list.h"
#undef PHASE
};
static const int writer_phases[PW_COUNT] = {
	[PW_NONE] = -1, [PW_FILL] = -1, [PW_PUTC] = PH_PUTC,
	[PW_WRITE] = PH_WRITE, [PW_REWRITE] = PH_REWRITE, [PW_SEEK] = PH_SEEKS
};
static const char *const writer_names[PW_COUNT] = {
	[PW_NONE] = "none", [PW_FILL] = "fill"
};
static const char *const verdict_names[PV_COUNT] = {
	[PV_OK] = "ok", [PV_DIFFERS] = "differs", [PV_MISPLACED] = "misplaced",
	[PV_STALE] = "stale", [PV_ZERO] = "zero", [PV_UNKNOWN] = "unknown"
};

int
pattern_gen(enum pattern_writer w)
{
	return (unsigned)w < PW_COUNT ? gens[w] : 0;
}

const char *
pattern_writer_name(enum pattern_writer w)
{
	if ((unsigned)w >= PW_COUNT)
		return "?";
	return writer_phases[w] >= 0 ? phase_names[writer_phases[w]] :
	    writer_names[w];
}

const char *
pattern_verdict_name(enum pattern_verdict v)
{
	return (unsigned)v < PV_COUNT ? verdict_names[v] : "?";
}

void
pattern_init(struct pattern *p, uint64_t seed, size_t chunk, uint64_t size)
{
	uint64_t	x = seed ^ 0x6A09E667F3BCC909ull;
	int		i;

	memset(p, 0, sizeof(*p));
	p->seed = seed;
	p->seedmix = mix64(seed ^ 0xBB67AE8584CAA73Bull);
	p->size = size;
	p->chunk = chunk;
	while (((size_t)1 << p->chunk_log2) < chunk)
		p->chunk_log2++;
	for (i = 0; i < PATTERN_WORDS; i++) {
		x += GOLDEN;
		p->pool[i] = mix64(x);
	}
}

static unsigned
version_byte(enum pattern_writer w)
{
	return (unsigned)pattern_gen(w) << 4 | (unsigned)w;
}

uint64_t
pattern_tag(const struct pattern *p, uint64_t sector, enum pattern_writer w)
{
	return mix64((sector << 8 | version_byte(w)) ^ p->seedmix);
}

int
pattern_untag(const struct pattern *p, uint64_t tag, uint64_t *sector,
    enum pattern_writer *w)
{
	uint64_t	x = unmix64(tag) ^ p->seedmix;
	unsigned	v = (unsigned)(x & 0xff);

	*sector = x >> 8;
	*w = (enum pattern_writer)(v & 0xf);
	if (*w == PW_NONE || *w >= PW_COUNT || version_byte(*w) != v)
		return -1;
	if (p->size != 0 && *sector >= p->size / PATTERN_SECTOR)
		return -1;
	return 0;
}

static void
put_le64(unsigned char *b, uint64_t v)
{
	int	i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

/* The 24-byte header of the chunk at off. */
static void
header(const struct pattern *p, unsigned char *h, uint64_t off,
    enum pattern_writer w)
{
	memcpy(h, PATTERN_MAGIC, 4);
	h[4] = (unsigned char)pattern_gen(w);
	h[5] = (unsigned char)w;
	h[6] = (unsigned char)p->chunk_log2;
	h[7] = 0;
	put_le64(h + 8, p->seed);
	put_le64(h + 16, off);
}

/* 16 bytes from anywhere. */
static inline u64x2
vload(const void *p)
{
	u64x2	v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Vector i / 2 of a sector: the pool XOR the tag, the tag last. */
static inline u64x2
sector_vec(const struct pattern *p, int i, uint64_t t)
{
	u64x2	tv = { t, t }, a;

	memcpy(&a, &p->pool[i], sizeof(a));
	a ^= tv;
	if (i == PATTERN_WORDS - 2)
		a[1] = t;
	return a;
}

static void
fill_sector(const struct pattern *p, unsigned char *out, uint64_t t)
{
	u64x2	a;
	int	i;

	for (i = 0; i < PATTERN_WORDS; i += 2) {
		a = sector_vec(p, i, t);
		memcpy(out + i * 8, &a, sizeof(a));
	}
}

void
pattern_fill(const struct pattern *p, unsigned char *buf, uint64_t off,
    enum pattern_writer w)
{
	uint64_t	sector = off / PATTERN_SECTOR;
	size_t		i, n = p->chunk / PATTERN_SECTOR;

	for (i = 0; i < n; i++)
		fill_sector(p, buf + i * PATTERN_SECTOR,
		    pattern_tag(p, sector + i, w));
	header(p, buf, off, w);
}

#if defined(__SSE2__)
/* fill_sector() with streaming stores; out 16-byte aligned. */
static void
stream_sector(const struct pattern *p, unsigned char *out, uint64_t t)
{
	int	i;

	for (i = 0; i < PATTERN_WORDS; i += 2)
		_mm_stream_si128((__m128i *)(void *)(out + i * 8),
		    (__m128i)sector_vec(p, i, t));
}
#endif

/*
 * Under a hypervisor the host reads an O_DIRECT buffer (or writes it, for
 * a read) from another core: overwriting it with ordinary stores takes
 * every cache line back first, which cost 3 to 8 us of a 16 KiB chunk's
 * write here (perf: a quarter of a -j 4 --direct write's samples).
 * Streaming stores skip that; the same bytes.
 */
void
pattern_fill_direct(const struct pattern *p, unsigned char *buf, uint64_t off,
    enum pattern_writer w)
{
#if defined(__SSE2__)
	uint64_t	sector = off / PATTERN_SECTOR;
	size_t		i, n = p->chunk / PATTERN_SECTOR;

	if (((uintptr_t)buf & 15) == 0) {
		for (i = 0; i < n; i++)
			stream_sector(p, buf + i * PATTERN_SECTOR,
			    pattern_tag(p, sector + i, w));
		_mm_sfence();
		header(p, buf, off, w);
		return;
	}
#endif
	pattern_fill(p, buf, off, w);
}

/* The whole expected sector number sector as written by w. */
static void
expected_sector(const struct pattern *p, unsigned char *out, uint64_t sector,
    enum pattern_writer w)
{
	uint64_t	off = sector * PATTERN_SECTOR;

	fill_sector(p, out, pattern_tag(p, sector, w));
	if (off % p->chunk == 0)
		header(p, out, off, w);
}

/*
 * Is the whole sector at sec, number sector, what w wrote?  The fast
 * path: the body folded into one OR, the header compared apart.
 */
static int
sector_is(const struct pattern *p, const unsigned char *sec, uint64_t sector,
    enum pattern_writer w)
{
	uint64_t	t = pattern_tag(p, sector, w), last, acc;
	u64x2		tv = { t, t }, or = { 0, 0 };
	unsigned char	h[PATTERN_HEADER];
	int		i, from = 0;

	memcpy(&last, sec + PATTERN_SECTOR - 8, 8);
	if (last != t)
		return 0;
	if ((sector * PATTERN_SECTOR) % p->chunk == 0) {
		header(p, h, sector * PATTERN_SECTOR, w);
		if (memcmp(sec, h, sizeof(h)) != 0)
			return 0;
		from = 4;	/* Word 3 is checked below. */
		memcpy(&acc, sec + 24, 8);
		if ((acc ^ p->pool[3] ^ t) != 0)
			return 0;
	}
	/* Four vectors a turn (the compiler does not unroll at -O2). */
	for (i = from; i + 8 <= PATTERN_WORDS - 2; i += 8) {
		or |= vload(sec + i * 8) ^ vload(&p->pool[i]) ^ tv;
		or |= vload(sec + i * 8 + 16) ^ vload(&p->pool[i + 2]) ^ tv;
		or |= vload(sec + i * 8 + 32) ^ vload(&p->pool[i + 4]) ^ tv;
		or |= vload(sec + i * 8 + 48) ^ vload(&p->pool[i + 6]) ^ tv;
	}
	for (; i < PATTERN_WORDS - 2; i += 2)
		or |= vload(sec + i * 8) ^ vload(&p->pool[i]) ^ tv;
	acc = or[0] | or[1];
	for (i = PATTERN_WORDS - 2; i < PATTERN_WORDS - 1; i++) {
		memcpy(&last, sec + i * 8, 8);
		acc |= last ^ p->pool[i] ^ t;
	}
	return acc == 0;
}

/* What one sector (or the part of it that was read) holds. */
struct sector_look {
	int			 bad;		/* Bytes that differ. */
	int			 first, last;	/* In the sector. */
	enum pattern_verdict	 what;
	uint64_t		 from;		/* Sector it belongs to. */
	enum pattern_writer	 found;
	int			 partial;	/* what holds only for
						   [first, last]. */
	unsigned char		 got, due;	/* At first. */
};

/* The shortest run of zeroes or of an older version that is named so. */
#define MIN_RUN	8

/* Are bytes [first, last] of the sector (data[0] is byte a) all zero? */
static int
zero_run(const unsigned char *data, int a, int first, int last)
{
	int	i;

	for (i = first; i <= last; i++)
		if (data[i - a] != 0)
			return 0;
	return 1;
}

/*
 * Does an older version, one writer not in ok, account for every byte of
 * [first, last] that none of ok does?  Returns that writer or PW_NONE.
 */
static enum pattern_writer
older_run(const struct pattern *p, const unsigned char *data, int a,
    int first, int last, uint64_t sector, const enum pattern_writer *ok,
    int nok, unsigned char exp[][PATTERN_SECTOR])
{
	unsigned char	other[PATTERN_SECTOR];
	int		i, k, w, good, fits;

	for (w = PW_FILL; w < PW_COUNT; w++) {
		for (k = 0; k < nok && ok[k] != (enum pattern_writer)w; k++)
			;
		if (k < nok)
			continue;
		expected_sector(p, other, sector, (enum pattern_writer)w);
		for (i = first, fits = 1; i <= last && fits; i++) {
			for (k = 0, good = 0; k < nok && !good; k++)
				good = data[i - a] == exp[k][i];
			fits = good || data[i - a] == other[i];
		}
		if (fits)
			return (enum pattern_writer)w;
	}
	return PW_NONE;
}

#define MAX_OK	4

/*
 * The slow path: bytes [a, e) of sector number sector, read into data
 * (data[0] is the sector's byte a).
 */
static void
look_sector(const struct pattern *p, const unsigned char *data, int a, int e,
    uint64_t sector, const enum pattern_writer *ok, int nok,
    struct sector_look *l)
{
	unsigned char	exp[MAX_OK][PATTERN_SECTOR], other[PATTERN_SECTOR];
	uint64_t	tag, from;
	enum pattern_writer w;
	int		i, k, zero = 1, good;

	memset(l, 0, sizeof(*l));
	l->first = -1;
	if (nok > MAX_OK)
		nok = MAX_OK;
	for (k = 0; k < nok; k++)
		expected_sector(p, exp[k], sector, ok[k]);
	for (i = a; i < e; i++) {
		for (k = 0, good = 0; k < nok && !good; k++)
			good = data[i - a] == exp[k][i];
		if (data[i - a] != 0)
			zero = 0;
		if (good)
			continue;
		if (l->first == -1)
			l->first = i;
		l->last = i;
		l->bad++;
	}
	if (l->bad == 0) {
		l->what = PV_OK;
		return;
	}
	l->got = data[l->first - a];
	l->due = nok > 0 ? exp[0][l->first] : 0;
	if (zero) {
		l->what = PV_ZERO;
		return;
	}
	/* Zeroes from anywhere to anywhere, not only whole sectors. */
	if (l->last - l->first + 1 >= MIN_RUN &&
	    zero_run(data, a, l->first, l->last)) {
		l->what = PV_ZERO;
		l->partial = 1;
		return;
	}
	if (e == PATTERN_SECTOR && a <= PATTERN_SECTOR - 8) {
		memcpy(&tag, data + (PATTERN_SECTOR - 8 - a), 8);
		if (pattern_untag(p, tag, &from, &w) == 0) {
			expected_sector(p, other, from, w);
			if (memcmp(data, other + a, (size_t)(e - a)) == 0) {
				l->what = from == sector ? PV_STALE :
				    PV_MISPLACED;
				l->from = from;
				l->found = w;
				return;
			}
		}
	}
	/* An older version in part of the sector: a torn write. */
	if (l->last - l->first + 1 >= MIN_RUN && (w = older_run(p, data, a,
	    l->first, l->last, sector, ok, nok, exp)) != PW_NONE) {
		l->what = PV_STALE;
		l->from = sector;
		l->found = w;
		l->partial = 1;
		return;
	}
	l->what = 2 * l->bad <= e - a ? PV_DIFFERS : PV_UNKNOWN;
}

/*
 * Check bytes [off, off + len) that lie in one chunk.  Returns 1 and
 * fills *b when any of them is wrong.
 */
static int
check_piece(const struct pattern *p, const unsigned char *buf, uint64_t off,
    size_t len, const enum pattern_writer *ok, int nok, struct pattern_bad *b)
{
	struct sector_look	l;
	uint64_t		sector, end = off + len, s0, s1, pos;
	int64_t			delta = 0;
	int			a, e, k, nbad = 0, nsect = 0, same = 1;
	enum pattern_verdict	what = PV_OK;
	enum pattern_writer	found = PW_NONE;

	memset(b, 0, sizeof(*b));
	for (pos = off; pos < end; pos = s1) {
		sector = pos / PATTERN_SECTOR;
		s0 = sector * PATTERN_SECTOR;
		s1 = s0 + PATTERN_SECTOR < end ? s0 + PATTERN_SECTOR : end;
		a = (int)(pos - s0);
		e = (int)(s1 - s0);
		nsect++;
		if (a == 0 && e == PATTERN_SECTOR) {
			for (k = 0; k < nok; k++)
				if (sector_is(p, buf + (s0 - off), sector, ok[k]))
					break;
			if (k < nok)
				continue;
		}
		look_sector(p, buf + (pos - off), a, e, sector, ok, nok, &l);
		if (l.what == PV_OK)
			continue;
		if (nbad++ == 0) {
			b->first = s0 + (uint64_t)l.first;
			what = l.what;
			found = l.found;
			delta = (int64_t)(l.from - sector);
			b->inner = l.what;
			b->found = l.found;
			b->found_off = l.from * PATTERN_SECTOR + (uint64_t)l.first;
			b->got = l.got;
			b->due = l.due;
			b->torn = l.what == PV_STALE && l.partial;
		} else if (l.what != what || l.found != found ||
		    (what == PV_MISPLACED &&
		    (int64_t)(l.from - sector) != delta))
			same = 0;
		/* A run that holds for part of a sector is not the chunk's. */
		if (l.partial)
			same = 0;
		b->last = s0 + (uint64_t)l.last;
		b->nbytes += (uint64_t)l.bad;
	}
	if (nbad == 0)
		return 0;
	b->off = off;
	b->len = len;
	b->chunks = 1;
	b->worker = -1;
	b->want = nok > 0 ? ok[0] : PW_NONE;
	if (nbad == nsect && same && what != PV_DIFFERS) {
		b->verdict = what;
		if (what == PV_MISPLACED)
			b->found_off = (uint64_t)((int64_t)off +
			    delta * PATTERN_SECTOR);
		else if (what != PV_STALE) {
			b->found = PW_NONE;
			b->found_off = 0;
		}
	} else
		b->verdict = PV_DIFFERS;
	return 1;
}

int
pattern_check(const struct pattern *p, const unsigned char *buf,
    uint64_t off, size_t len, const enum pattern_writer *ok, int nok,
    struct pattern_bad *bad, int nbad)
{
	struct pattern_bad	b;
	uint64_t		pos, end = off + len, next;
	int			n = 0;

	for (pos = off; pos < end; pos = next) {
		next = (pos / p->chunk + 1) * p->chunk;
		if (next > end)
			next = end;
		if (check_piece(p, buf + (pos - off), pos, (size_t)(next - pos),
		    ok, nok, &b) == 0)
			continue;
		if (n < nbad)
			bad[n] = b;
		n++;
	}
	return n;
}

/* "1 byte", "2 bytes" */
static const char *
bytes_word(uint64_t n)
{
	return n == 1 ? "byte" : "bytes";
}

/* "generation 2, rewrite" */
static void
version_words(enum pattern_writer w, char *buf, size_t len)
{
	snprintf(buf, len, "generation %d, %s", pattern_gen(w),
	    pattern_writer_name(w));
}

/*
 * One changed byte: what came back, what was due, and the bit that
 * flipped (or the bits that differ).
 */
static void
flip_words(const struct pattern_bad *b, const char *at, const char *want,
    char *buf, size_t len)
{
	unsigned	x = (unsigned)(b->got ^ b->due), bit = 0;

	if (x != 0 && (x & (x - 1)) == 0) {
		while ((x >> bit) != 1)
			bit++;
		snprintf(buf, len, "%s: byte %llu is 0x%02x where the expected "
		    "data (%s) has 0x%02x: bit %u flipped: corruption", at,
		    (unsigned long long)b->first, b->got, want, b->due, bit);
	} else
		snprintf(buf, len, "%s: byte %llu is 0x%02x where the expected "
		    "data (%s) has 0x%02x: bits 0x%02x differ: corruption", at,
		    (unsigned long long)b->first, b->got, want, b->due, x);
}

void
pattern_describe(const struct pattern_bad *b, char *buf, size_t len)
{
	char	found[64], want[64], at[96], range[128];

	version_words(b->found, found, sizeof(found));
	version_words(b->want, want, sizeof(want));
	if (b->chunks > 1)
		snprintf(at, sizeof(at), "at byte %llu (%llu bytes, %llu "
		    "chunks)", (unsigned long long)b->off,
		    (unsigned long long)b->len, (unsigned long long)b->chunks);
	else
		snprintf(at, sizeof(at), "at byte %llu (%llu %s)",
		    (unsigned long long)b->off, (unsigned long long)b->len,
		    bytes_word(b->len));
	if (b->first == b->last)
		snprintf(range, sizeof(range), "byte %llu",
		    (unsigned long long)b->first);
	else
		snprintf(range, sizeof(range), "bytes %llu-%llu (%llu %s)",
		    (unsigned long long)b->first, (unsigned long long)b->last,
		    (unsigned long long)b->nbytes, bytes_word(b->nbytes));
	switch (b->verdict) {
	case PV_MISPLACED:
		snprintf(buf, len, "%s: data of offset %llu (%s) instead of "
		    "its own: a misdirected write", at,
		    (unsigned long long)b->found_off, found);
		return;
	case PV_STALE:
		snprintf(buf, len, "%s: %s where %s was due: a lost or stale "
		    "write", at, found, want);
		return;
	case PV_ZERO:
		snprintf(buf, len, "%s: all zeroes: a hole or a lost write", at);
		return;
	case PV_UNKNOWN:
		snprintf(buf, len, "%s: unknown bytes: corruption", at);
		return;
	default:
		break;
	}
	switch (b->inner) {
	case PV_ZERO:
		snprintf(buf, len, "%s: %s zeroes instead of the expected data "
		    "(%s): a hole or a lost write", at, range, want);
		break;
	case PV_MISPLACED:
		snprintf(buf, len, "%s: %s hold data of offset %llu (%s): a "
		    "misdirected write", at, range,
		    (unsigned long long)b->found_off, found);
		break;
	case PV_STALE:
		snprintf(buf, len, "%s: %s hold %s where %s was due: %s", at,
		    range, found, want, b->torn ? "a torn write (part of a "
		    "sector the older version, the rest the version due)" :
		    "a lost or stale write");
		break;
	case PV_UNKNOWN:
		snprintf(buf, len, "%s: %s hold unknown bytes: corruption", at,
		    range);
		break;
	default:
		if (b->first == b->last)
			flip_words(b, at, want, buf, len);
		else
			snprintf(buf, len, "%s: %s of the expected data (%s) "
			    "differ: corruption", at, range, want);
		break;
	}
}

/* Does b continue l: the next chunks, the same whole-chunk diagnosis? */
static int
continues(const struct pattern_bad *l, const struct pattern_bad *b)
{
	if (l->off + l->len != b->off || l->verdict != b->verdict ||
	    l->verdict == PV_DIFFERS || l->found != b->found ||
	    l->want != b->want || l->worker != b->worker)
		return 0;
	return l->verdict != PV_MISPLACED ||
	    l->found_off + l->len == b->found_off;
}

/* Keep b, or extend the last entry kept with it. */
static void
keep(struct pattern_tally *t, const struct pattern_bad *b)
{
	struct pattern_bad	*l;

	if (t->nkept > 0 && continues(l = &t->kept[t->nkept - 1], b)) {
		l->len += b->len;
		l->last = b->last;
		l->nbytes += b->nbytes;
		l->chunks += b->chunks;
	} else if (t->nkept < PATTERN_KEEP)
		t->kept[t->nkept++] = *b;
}

void
pattern_tally_add(struct pattern_tally *t, const struct pattern_bad *bad,
    int nbad, int n)
{
	int	i;

	t->chunks += (uint64_t)n;
	for (i = 0; i < nbad && i < n; i++) {
		t->bytes += bad[i].nbytes;
		t->kinds[bad[i].verdict]++;
		keep(t, &bad[i]);
	}
}

uint64_t
pattern_tally_listed(const struct pattern_tally *t)
{
	uint64_t	n = 0;
	int		i;

	for (i = 0; i < t->nkept; i++)
		n += t->kept[i].chunks;
	return n;
}

void
pattern_tally_merge(struct pattern_tally *t, const struct pattern_tally *u)
{
	int	i;

	t->chunks += u->chunks;
	t->bytes += u->bytes;
	t->checked += u->checked;
	t->ns += u->ns;
	for (i = 0; i < PV_COUNT; i++)
		t->kinds[i] += u->kinds[i];
	for (i = 0; i < u->nkept; i++)
		keep(t, &u->kept[i]);
}
