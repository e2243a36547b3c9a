/*
 * libFuzzer harness for options_check(): random chunk, size, seekers,
 * phases and repeat.  An accepted set always has a power-of-two chunk in
 * range and a size of whole chunks, at least one, not above what was
 * asked; a refused one has a one-line message.
 *
 * Whole command lines, through cmd_run_parse(), are fuzz-cli's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "settings.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static uint64_t
take_bytes(const uint8_t **p, size_t *left, size_t n)
{
	uint64_t	v = 0;

	while (n-- > 0 && *left > 0) {
		v = v << 8 | **p;
		(*p)++;
		(*left)--;
	}
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options	 o;
	char		*cause = NULL;
	int		 r;

	settings_defaults(&o);
	o.chunk = (size_t)take_bytes(&data, &size, 4);
	o.size_asked = take_bytes(&data, &size, 8);
	o.seekers = (int)(int32_t)take_bytes(&data, &size, 4);
	o.phases = (unsigned)take_bytes(&data, &size, 1);
	o.repeat = (int)(int32_t)take_bytes(&data, &size, 4);

	r = options_check(&o, &cause);
	if ((r == 0) != (cause == NULL))
		abort();
	if (r == 0) {
		if (o.chunk < MIN_CHUNK || o.chunk > MAX_CHUNK ||
		    (o.chunk & (o.chunk - 1)) != 0)
			abort();
		if (o.size < o.chunk || o.size > o.size_asked ||
		    o.size % o.chunk != 0 || o.size_asked - o.size >= o.chunk)
			abort();
		if (o.seekers < 1 || o.seekers > MAX_SEEKERS || o.repeat < 1)
			abort();
	} else if (cause[0] == '\0' || strchr(cause, '\n') != NULL)
		abort();
	free(cause);
	return 0;
}
