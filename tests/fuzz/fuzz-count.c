/*
 * libFuzzer harness for parse_count(): the first 16 bytes give the range,
 * the rest is the string.  A success is a plain decimal inside the range,
 * a refusal comes with a one-line message.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "units.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static uint64_t
take64(const uint8_t *p)
{
	uint64_t	v = 0;
	int		i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*s, *cause = NULL;
	uint64_t	 min, max, got = 0, n = 0;
	size_t		 i, len;
	int		 r, digits = 1, big = 0;

	if (size < 16)
		return 0;
	min = take64(data);
	max = take64(data + 8);
	len = size - 16;
	if ((s = malloc(len + 1)) == NULL)
		return 0;
	memcpy(s, data + 16, len);
	s[len] = '\0';
	if (strlen(s) != len) {
		free(s);
		return 0;
	}
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			digits = 0;
		else if (n > (UINT64_MAX - 9) / 10)
			big = 1;
		else
			n = n * 10 + (uint64_t)(s[i] - '0');
	}
	if (len == 0)
		digits = 0;

	r = parse_count(s, min, max, &got, &cause);
	if ((r == 0) != (cause == NULL))
		abort();
	if (r == 0) {
		if (!digits || got < min || got > max)
			abort();
		if (!big && got != n)
			abort();
	} else if (digits && !big && n >= min && n <= max)
		abort();		/* Refused a good value. */
	if (cause != NULL && (cause[0] == '\0' ||
	    (strchr(cause, '\n') != NULL && strchr(s, '\n') == NULL)))
		abort();
	free(cause);
	free(s);
	return 0;
}
