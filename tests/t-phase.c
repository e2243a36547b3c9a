/*
 * Unit tests: the phase table, the random numbers, and the data the
 * phases write: different in every 512-byte sector of every chunk.
 */
#include <stdlib.h>
#include <string.h>

#include "phase-ctx.h"
#include "phase.h"
#include "report.h"
#include "tap.h"

/* A cheap fingerprint of one sector. */
static uint64_t
fp(const unsigned char *p)
{
	uint64_t	h = 1469598103934665603ull;
	int		i;

	for (i = 0; i < 512; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int
main(void)
{
	enum { CHUNK = 16384, CHUNKS = 256, SECT = CHUNK / 512 };
	unsigned char	*buf = malloc(CHUNK), *copy = malloc(CHUNK);
	uint64_t	*h = malloc(sizeof(*h) * CHUNKS * SECT);
	struct rng	 r1, r2;
	struct pattern	 pat;
	char		*cause = NULL;
	unsigned	 m;
	size_t		 i, j, dups = 0, ones = 0;
	uint64_t	 a, b;

	ok(phase_table_check(&cause) == 0, "the phase table checks out");
	{
		struct phase		 twin = *phase_table[PH_WRITE];
		const struct phase	*two[] = { phase_table[PH_READ], &twin,
					    NULL };

		twin.name = "twin";
		twin.colour = phase_table[PH_READ]->colour;
		ok(phase_colours_check(two, &cause) == -1 && cause != NULL &&
		    strstr(cause, "the same colour") != NULL,
		    "two phases with one colour are refused");
		free(cause);
		cause = NULL;
		ok(phase_colours_check(phase_table, &cause) == 0,
		    "every phase has a colour of its own");
	}
	is_int(phase_table[PH_COUNT] == NULL, 1, "the table ends in NULL");
	for (i = 0; i < PH_COUNT; i++)
		ok(phase_id_by_name(phase_table[i]->name) == (int)i &&
		    phase_by_name(phase_id_name((enum phase_id)i)) ==
		    phase_table[i], phase_id_name((enum phase_id)i));
	ok(phase_by_name("nope") == NULL, "unknown names are not phases");
	ok(phases_parse("write,read", &m, &cause) == 0 &&
	    m == ((1u << PH_WRITE) | (1u << PH_READ)), "a list of phases");
	ok(phases_parse("all", &m, &cause) == 0 &&
	    m == (1u << PH_COUNT) - 1, "all is every phase");
	ok(phases_parse("write,nope", &m, &cause) == -1 &&
	    strncmp(cause, "unknown phase 'nope' (putc, ", 28) == 0,
	    "an unknown phase is named");
	free(cause);
	cause = NULL;
	ok(phases_parse("write,", &m, &cause) == -1,
	    "an empty name is refused");
	free(cause);
	cause = NULL;
	ok((PH_DEFAULT_MASK & report_classic_mask()) ==
	    report_classic_mask(), "the classic phases run by default");
	ok(phase_flag_mask(PHASE_FILLS) == ((1u << PH_PUTC) |
	    (1u << PH_WRITE)), "putc and write fill the file");
	{
		/* Built here from the table, so that a phase added
		 * anywhere in it changes both sides. */
		char	 names[512], want[512] = "";
		size_t	 k;

		for (k = 0; phase_table[k] != NULL; k++) {
			if (k > 0)
				strcat(want, ", ");
			strcat(want, phase_table[k]->name);
		}
		phase_names(names, sizeof(names));
		ok(strcmp(names, want) == 0,
		    "the phase list for messages, in table order");
	}
	ok(phase_table[PH_PUTC] == &phase_putc &&
	    phase_table[PH_SEEKS] == &phase_seeks &&
	    PH_PUTC < PH_WRITE && PH_WRITE < PH_REWRITE &&
	    PH_REWRITE < PH_GETC && PH_GETC < PH_READ && PH_READ < PH_SEEKS,
	    "the classic phases run in Bonnie's order");
	ok((phase_seeks.flags & PHASE_SPAN) &&
	    (phase_seeks.flags & PHASE_WORKERS), "seeks set their own span");
	ok((phase_putc.flags & PHASE_PERCHAR) &&
	    (phase_getc.flags & PHASE_PERCHAR) &&
	    !(phase_write.flags & PHASE_PERCHAR), "per-char flags");
	ok((phase_rewrite.flags & PHASE_READS) &&
	    (phase_rewrite.flags & PHASE_WRITES), "rewrite reads and writes");

	rng_seed(&r1, 7);
	rng_seed(&r2, 7);
	a = rng_next(&r1);
	b = rng_next(&r2);
	ok(a == b, "the same seed gives the same numbers");
	rng_seed(&r2, 8);
	ok(rng_next(&r2) != a, "another seed gives others");

	rng_seed(&r1, 42);
	rng_fill(&r1, buf, CHUNK);
	for (i = 0; i < CHUNK; i++)
		ones += (size_t)__builtin_popcount(buf[i]);
	ok(ones > CHUNK * 8 * 0.48 && ones < CHUNK * 8 * 0.52,
	    "random fill has half its bits set");

	pattern_init(&pat, 42, CHUNK, (uint64_t)CHUNK * CHUNKS);
	for (i = 0; i < CHUNKS; i++) {
		pattern_fill(&pat, buf, i * CHUNK, PW_WRITE);
		for (j = 0; j < SECT; j++)
			h[i * SECT + j] = fp(buf + j * 512);
	}
	qsort(h, CHUNKS * SECT, sizeof(*h), cmp_u64);
	for (i = 1; i < CHUNKS * SECT; i++)
		dups += h[i] == h[i - 1];
	is_int(dups, 0, "no two 512-byte sectors written are the same");

	memcpy(copy, buf, CHUNK);
	pattern_fill(&pat, buf, (CHUNKS - 1) * CHUNK, PW_REWRITE);
	for (j = 0, dups = 0; j < SECT; j++)
		dups += memcmp(copy + j * 512, buf + j * 512, 512) == 0;
	is_int(dups, 0, "rewriting changes every sector of the chunk");
	ok(phase_write.writer == PW_WRITE && phase_putc.writer == PW_PUTC &&
	    phase_rewrite.writer == PW_REWRITE && phase_read.writer == PW_NONE,
	    "the writing phases name the version they leave");
	free(buf);
	free(copy);
	free(h);
	free(cause);
	return done_testing();
}
