/*
 * Self-identifying data: what every writing phase puts in the test file,
 * and the checker that tells what a read brought back.
 *
 * The file is made of 512-byte sectors.  The last 8 bytes of every sector
 * are its tag: an invertible mix of the run's seed, the sector's number
 * in the file and the version (who wrote it), so that any sector found
 * anywhere names the offset and the version it was written for.  The other
 * 63 words are a 512-byte random pool (from the seed) XORed with the tag:
 * every sector of every chunk differs in every 8-byte word, so nothing
 * compresses or deduplicates.  The first 24 bytes of each chunk are its
 * header instead: the magic "BNGV", the generation, the writer and the
 * chunk size's log2, then the seed and the chunk's file offset (little
 * endian), for a human with a hex dump.
 *
 * Versions.  A whole-file write (block write, per-char write, or the
 * untimed fill before reading phases) is generation 1; the rewrite makes
 * generation 2; a seeker's write-back is generation 3.  The writer is kept
 * beside the generation, so data of the per-char write found after the
 * block write is still told apart.  All seekers write back the same bytes
 * for a chunk (generation 3 depends on the offset only), so seekers that
 * rewrite one chunk at the same time cannot mix two write-backs; a reader
 * may still see the chunk before and after a write-back, or a mix of both
 * (a read racing a write), which the checker accepts word by word when it
 * is given both versions.
 */
#ifndef BONNIE_PATTERN_H
#define BONNIE_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* --verify: off, count and describe every bad chunk, or stop at one. */
enum verify_mode { VERIFY_OFF, VERIFY_COUNT, VERIFY_FATAL };

#define PATTERN_SECTOR	512
#define PATTERN_WORDS	(PATTERN_SECTOR / 8)
#define PATTERN_HEADER	24		/* Bytes of header per chunk. */
#define PATTERN_MAGIC	"BNGV"

/* Who wrote the data; each writer has one generation. */
enum pattern_writer {
	PW_NONE,
	PW_FILL,		/* The untimed fill: generation 1. */
	PW_PUTC,		/* Per-char write: generation 1. */
	PW_WRITE,		/* Block write: generation 1. */
	PW_REWRITE,		/* Rewrite: generation 2. */
	PW_SEEK,		/* A seeker's write-back: generation 3. */
	PW_COUNT
};

/* The data of one run: immutable after pattern_init(), shareable. */
struct pattern {
	uint64_t	 seed;
	uint64_t	 seedmix;
	uint64_t	 size;		/* File size, for decoding; 0: any. */
	size_t		 chunk;		/* A power of two, >= PATTERN_SECTOR. */
	unsigned	 chunk_log2;
	uint64_t	 pool[PATTERN_WORDS];
};

/* What a checked chunk held. */
enum pattern_verdict {
	PV_OK,
	PV_DIFFERS,		/* Expected data, but a byte range differs. */
	PV_MISPLACED,		/* Data of another offset. */
	PV_STALE,		/* Another (older) version at the offset. */
	PV_ZERO,		/* All zeroes. */
	PV_UNKNOWN,		/* Unknown bytes. */
	PV_COUNT
};

/*
 * The diagnosis of one bad chunk (or of the part of it that was read).
 * For PV_DIFFERS, inner says what the differing sectors hold (PV_DIFFERS
 * itself when they are expected data with a few bytes changed) and the
 * found_* fields describe the first of them.
 */
struct pattern_bad {
	enum pattern_verdict	 verdict;
	enum pattern_verdict	 inner;
	uint64_t		 off;		/* Start of what was checked. */
	uint64_t		 len;
	uint64_t		 first;		/* First differing byte (file). */
	uint64_t		 last;		/* Last differing byte (file). */
	uint64_t		 nbytes;	/* Bytes that differ. */
	uint64_t		 found_off;	/* Where the data belongs. */
	enum pattern_writer	 found;		/* Its version, if known. */
	enum pattern_writer	 want;		/* The version due. */
	uint64_t		 chunks;	/* Bad chunks this covers: 1, or
					   more in a tally (see below). */
	int			 worker;	/* The team's worker whose file it
					   is, or -1 (see run-team.c). */
	/*
	 * The first differing byte: what came back and what was due (for a
	 * single changed byte, the bits that flipped); torn: the older
	 * version (found) holds only part of a sector, the rest the version
	 * due, as a write torn inside the sector leaves it.
	 */
	unsigned char		 got, due;
	int			 torn;
};

/*
 * What the checks of one phase (or one seeker) found: every bad chunk
 * counted, by diagnosis, and the first PATTERN_KEEP of them kept, where a
 * bad chunk that continues the last one kept (the next offset, the same
 * whole-chunk diagnosis, for misplaced data the next offset's data too)
 * extends it instead: a run of a thousand zeroed chunks is one entry.
 * Holds no pointers: seekers fill it in shared memory.
 */
#define PATTERN_KEEP	64

struct pattern_tally {
	uint64_t		 chunks;	/* Bad chunks. */
	uint64_t		 bytes;		/* Bytes that differ in them. */
	uint64_t		 kinds[PV_COUNT];
	uint64_t		 checked;	/* Bytes checked. */
	uint64_t		 ns;		/* Time spent checking. */
	int			 nkept;
	struct pattern_bad	 kept[PATTERN_KEEP];
};

/*
 * Add the n bad chunks one pattern_check() found; bad[] holds nbad of
 * them, which should be all (a read of one chunk touches two at most).
 */
void	pattern_tally_add(struct pattern_tally *, const struct pattern_bad *,
	    int nbad, int n);
/* How many bad chunks the entries kept cover. */
uint64_t pattern_tally_listed(const struct pattern_tally *);
/* Add one tally to another. */
void	pattern_tally_merge(struct pattern_tally *,
	    const struct pattern_tally *);

/* Set up the data of a run; chunk is a power of two >= 512. */
void	pattern_init(struct pattern *, uint64_t seed, size_t chunk,
	    uint64_t size);

/* The generation of a writer (1, 2 or 3); 0 for PW_NONE. */
int	pattern_gen(enum pattern_writer);
/* The writer's name: "fill", "putc", "write", "rewrite", "seeks". */
const char *pattern_writer_name(enum pattern_writer);
/* "ok", "differs", "misplaced", "stale", "zero", "unknown". */
const char *pattern_verdict_name(enum pattern_verdict);

/*
 * Fill buf with the chunk at off (a multiple of the chunk size) as
 * written by w.  Fast: about the cost of copying the chunk.
 */
void	pattern_fill(const struct pattern *, unsigned char *buf, uint64_t off,
	    enum pattern_writer w);
/*
 * The same bytes, for a buffer that the device reads directly (O_DIRECT):
 * streaming stores where the machine has them, so that the lines the
 * host's core has just read are not taken back one by one.
 */
void	pattern_fill_direct(const struct pattern *, unsigned char *buf,
	    uint64_t off, enum pattern_writer w);

/*
 * Check len bytes read from file offset off (any offset and length)
 * against the versions in ok[0..nok): a byte is right when it is that
 * byte of any of them.  Returns the number of bad chunks, each described
 * in bad[] up to nbad entries (in file order).
 */
int	pattern_check(const struct pattern *, const unsigned char *buf,
	    uint64_t off, size_t len, const enum pattern_writer *ok, int nok,
	    struct pattern_bad *bad, int nbad);

/*
 * One line describing a bad chunk, without a final newline, e.g.
 * "at byte 65536 (16384 bytes): data of offset 131072 (generation 1,
 * block write): a misdirected write".
 */
void	pattern_describe(const struct pattern_bad *, char *buf, size_t len);

/* The sector tag and its inverse; exposed for the tests. */
uint64_t pattern_tag(const struct pattern *, uint64_t sector,
	    enum pattern_writer);
/* 0 and the sector and writer, or -1 when the word is no valid tag. */
int	pattern_untag(const struct pattern *, uint64_t tag, uint64_t *sector,
	    enum pattern_writer *);

#endif
