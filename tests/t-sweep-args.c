/*
 * The value parsers of "bonnie-ng sweep" and its list of sizes; the
 * messages as the command line gives them, through the sweep command's
 * parse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "options.h"
#include "phase.h"
#include "result.h"
#include "sweep.h"
#include "tap.h"
#include "units.h"

#define MiB	((uint64_t)1 << 20)

/*
 * Parse "sweep -d /nonexistent OPTION VALUE" and return the message of
 * the refusal (NULL when accepted); the caller frees it.
 */
static char *
sweep_refusal(const char *option, const char *value)
{
	char			*argv[] = { (char *)"sweep", (char *)"-d",
				    (char *)"/nonexistent", (char *)option,
				    (char *)value, NULL };
	char			*files[6], *cause = NULL;
	void			*state;
	int			 n;

	state = calloc(1, cmd_sweep_entry.size);
	if (cmd_parse(&cmd_sweep_entry, 5, argv, state, files, &n, &cause) ==
	    ARGS_OK) {
		free(cause);
		cause = NULL;
	}
	free(state);
	return cause;
}

static void
test_sizes(void)
{
	uint64_t	 lo, hi, list[SWEEP_MAX_SIZES];
	char		*cause = NULL;

	ok(sweep_parse_sizes("64m..32g", &lo, &hi, &cause) == 0, "64m..32g");
	ok(lo == 64 * MiB && hi == 32768 * MiB, "64m..32g: bounds");
	is_int(sweep_size_list(lo, hi, list, SWEEP_MAX_SIZES), 10,
	    "64m..32g: ten sizes");
	ok(list[9] == 32768 * MiB, "the last size is the upper bound");
	is_int(sweep_size_list(MiB, 3 * MiB, list, SWEEP_MAX_SIZES), 2,
	    "1m..3m: doubling stops at 2m");
	ok(sweep_parse_sizes("256", &lo, &hi, &cause) == 0 && lo == 256 * MiB &&
	    hi == 0, "a single bare size is in MiB, the top left open");

	ok(sweep_parse_sizes("1g..64m", &lo, &hi, &cause) == -1,
	    "1g..64m refused");
	free(cause);
	cause = sweep_refusal("--sizes", "1g..64m");
	is_str(cause, "sweep: invalid value for --sizes: '1g..64m' (the lower "
	    "bound is above the upper one)", "1g..64m: the message");
	free(cause);
	cause = sweep_refusal("--sizes", "1x..2g");
	ok(cause != NULL && strstr(cause, "--sizes") != NULL &&
	    strstr(cause, "'1x'") != NULL,
	    "junk refused, naming the option and value");
	ok(sweep_parse_sizes("64m..", &lo, &hi, &cause) == -1,
	    "a missing upper bound refused");
	ok(sweep_parse_sizes("0..1g", &lo, &hi, &cause) == -1,
	    "a zero lower bound refused");
	free(cause);
}

static void
test_chunks(void)
{
	uint64_t	 c[SWEEP_MAX_CHUNKS];
	char		*cause = NULL;

	is_int(sweep_parse_chunks("64k,4k,16k,4k", c, SWEEP_MAX_CHUNKS,
	    &cause), 3, "chunks: three distinct");
	ok(c[0] == 4096 && c[1] == 16384 && c[2] == 65536, "chunks: sorted");
	is_int(sweep_parse_chunks("512", c, SWEEP_MAX_CHUNKS, &cause), 1,
	    "a bare chunk is in bytes");
	ok(c[0] == 512, "512 bytes");
	is_int(sweep_parse_chunks("3k", c, SWEEP_MAX_CHUNKS, &cause), -1,
	    "not a power of two");
	free(cause);
	cause = sweep_refusal("--chunks", "3k");
	is_str(cause, "sweep: invalid value for --chunks: '3k' (a power of two "
	    "from 512 to 16777216 bytes)", "the message names the option");
	is_int(sweep_parse_chunks("4k,,8k", c, SWEEP_MAX_CHUNKS, &cause), -1,
	    "an empty item refused");
	is_int(sweep_parse_chunks("1k,2k,4k", c, 2, &cause), -1,
	    "too many refused");
	free(cause);
}

static void
test_phases(void)
{
	char		 names[512], want[700];
	unsigned	 m;
	char		*cause = NULL;

	ok(phases_parse(SWEEP_DEFAULT_PHASES, &m, &cause) == 0,
	    "the default phases");
	is_int(m, (1u << PH_WRITE) | (1u << PH_REWRITE) | (1u << PH_READ) |
	    (1u << PH_SEEKS), "the default: block phases and seeks");
	ok(phases_parse("write,bogus", &m, &cause) == -1,
	    "an unknown phase refused");
	free(cause);
	/* The same words as a single run's -p (they differed once). */
	cause = sweep_refusal("--phases", "write,bogus");
	phase_names(names, sizeof(names));
	snprintf(want, sizeof(want), "sweep: invalid value for -p, --phases: "
	    "unknown phase 'bogus' (%s, all)", names);
	is_str(cause, want, "its message");
	free(cause);
}

int
main(void)
{
	(void)tap_skip;		/* Nothing here is ever skipped. */
	test_sizes();
	test_chunks();
	test_phases();
	return done_testing();
}
