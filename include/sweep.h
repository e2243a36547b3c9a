/*
 * "bonnie-ng sweep": the parsers for its option values and the list of
 * file sizes, kept apart from cmd-sweep.c so that they are unit-testable
 * without the engine.
 */
#ifndef BONNIE_SWEEP_H
#define BONNIE_SWEEP_H

#include <stdint.h>

#define SWEEP_DEFAULT_LO	((uint64_t)64 << 20)
#define SWEEP_MAX_SIZES		48
#define SWEEP_MAX_CHUNKS	16
#define SWEEP_DEFAULT_CHUNKS	"4k,16k,64k"
#define SWEEP_DEFAULT_PHASES	"write,rewrite,read,seeks"

/*
 * Parse --sizes: "LO..HI" or a single size "LO" (then *hi is 0, meaning
 * "up to the default").  A bare number is in MiB, as for -s.  The message
 * in *cause names the option and the value.  0 or -1.
 */
int	sweep_parse_sizes(const char *, uint64_t *lo, uint64_t *hi,
	    char **cause);

/*
 * Parse --chunks: a comma-separated list of powers of two from MIN_CHUNK
 * to MAX_CHUNK bytes (a bare number is in bytes).  The list comes back
 * sorted, without repeats; returns how many, or -1 with *cause.
 */
int	sweep_parse_chunks(const char *, uint64_t *out, int max, char **cause);

/* Parse --phases: comma-separated phase names into a bit mask.  0 or -1. */
int	sweep_parse_phases(const char *, unsigned *mask, char **cause);

/*
 * The sizes of the sweep: lo, 2 lo, 4 lo, ... while not above hi, at most
 * max of them.  Returns how many.
 */
int	sweep_size_list(uint64_t lo, uint64_t hi, uint64_t *out, int max);

#endif
