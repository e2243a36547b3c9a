/*
 * libFuzzer harness for parse_size(): any string either parses to exactly
 * the value a slow reference parser computes, or is refused with a
 * message; never both, never a crash.  The first byte picks the unit.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "units.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Reference: digits, then k/m/g/t with optional "i" and "b"; 0 or -1. */
static int
size_reference(const char *s, uint64_t unit, uint64_t *out)
{
	uint64_t	 n = 0, mult = unit;
	const char	*p = s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (n > UINT64_MAX / 10 || n * 10 > UINT64_MAX - d)
			return -1;
		n = n * 10 + d;
	}
	if (*p != '\0') {
		switch (tolower((unsigned char)*p)) {
		case 'k': mult = 1ULL << 10; break;
		case 'm': mult = 1ULL << 20; break;
		case 'g': mult = 1ULL << 30; break;
		case 't': mult = 1ULL << 40; break;
		default: return -1;
		}
		p++;
		if (tolower((unsigned char)*p) == 'i')
			p++;
		if (tolower((unsigned char)*p) == 'b')
			p++;
		if (*p != '\0')
			return -1;
	}
	if (mult != 0 && n > UINT64_MAX / mult)
		return -1;
	*out = n * mult;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t	units[] = { 1, 1 << 10, 1 << 20, 0 };
	char			*s, *cause = NULL;
	uint64_t		 unit, got = 0, want = 0;
	int			 r, ref;

	if (size < 1)
		return 0;
	unit = units[data[0] % 4];
	s = malloc(size);
	if (s == NULL)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (strlen(s) != size - 1) {	/* Embedded NUL: not a C string. */
		free(s);
		return 0;
	}

	r = parse_size(s, unit, &got, &cause);
	ref = size_reference(s, unit, &want);
	if (r != 0 && r != -1)
		abort();
	if ((r == 0) != (cause == NULL))
		abort();		/* A message exactly on failure. */
	if (r != ref)
		abort();
	if (r == 0 && got != want)
		abort();
	if (cause != NULL && (cause[0] == '\0' ||
	    (strchr(cause, '\n') != NULL && strchr(s, '\n') == NULL)))
		abort();		/* Not empty; one line unless the
				   value itself has a newline. */
	free(cause);
	free(s);
	return 0;
}
