/*
 * Option defaults, value parsers and the checks between options.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "options.h"
#include "phase.h"

const char *
options_default_label(void)
{
	static char	 host[256];
	char		*dot;

	if (gethostname(host, sizeof(host) - 1) == -1 || host[0] == '\0')
		return "bonnie";
	host[sizeof(host) - 1] = '\0';
	if ((dot = strchr(host, '.')) != NULL)
		*dot = '\0';
	return host;
}

void
options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->size = o->size_asked = (uint64_t)DEFAULT_SIZE_MIB << 20;
	o->chunk = DEFAULT_CHUNK;
	o->label = NULL;
	o->seekers = DEFAULT_SEEKERS;
	o->seeks = DEFAULT_SEEKS;
	o->seeker_mode = SEEKERS_FORK;
	o->cache = CACHE_MODE_COLD;
	o->phases = phase_default_mask();
	o->repeat = 1;
	o->format = OUT_TEXT;
}

/* Read a decimal number at *sp, advancing it; -1 on overflow or none. */
static int
read_decimal(const char **sp, uint64_t *v)
{
	const char	*s = *sp;
	uint64_t	 n = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (n > (UINT64_MAX - d) / 10) {
			errno = ERANGE;
			return -1;
		}
		n = n * 10 + d;
	}
	*sp = s;
	*v = n;
	return 0;
}

int
parse_size(const char *arg, uint64_t unit, uint64_t *out, char **cause)
{
	const char	*s = arg;
	uint64_t	 n, mult = unit;

	errno = 0;
	if (read_decimal(&s, &n) == -1) {
		if (errno == ERANGE)
			return errorf(cause, "'%s' is too large", arg);
		return errorf(cause, "'%s' is not a size (a whole number "
		    "with an optional k, m, g or t suffix)", arg);
	}
	if (*s != '\0') {
		switch (tolower((unsigned char)*s)) {
		case 'k':
			mult = (uint64_t)1 << 10;
			break;
		case 'm':
			mult = (uint64_t)1 << 20;
			break;
		case 'g':
			mult = (uint64_t)1 << 30;
			break;
		case 't':
			mult = (uint64_t)1 << 40;
			break;
		default:
			goto junk;
		}
		s++;
		if (tolower((unsigned char)*s) == 'i')
			s++;
		if (tolower((unsigned char)*s) == 'b')
			s++;
		if (*s != '\0')
			goto junk;
	}
	if (mult != 0 && n > UINT64_MAX / mult)
		return errorf(cause, "'%s' is too large", arg);
	*out = n * mult;
	return 0;

junk:
	return errorf(cause, "'%s' has an unknown suffix (use k, m, g or t)",
	    arg);
}

int
parse_count(const char *arg, uint64_t min, uint64_t max, uint64_t *out,
    char **cause)
{
	const char	*s = arg;
	uint64_t	 n;

	errno = 0;
	if (read_decimal(&s, &n) == -1 || *s != '\0') {
		if (errno == ERANGE)
			return errorf(cause, "'%s' is too large (at most "
			    "%llu)", arg, (unsigned long long)max);
		return errorf(cause, "'%s' is not a whole number", arg);
	}
	if (n < min || n > max)
		return errorf(cause, "'%s' is out of range (%llu to %llu)",
		    arg, (unsigned long long)min, (unsigned long long)max);
	*out = n;
	return 0;
}

int
options_check(struct options *o, char **cause)
{
	size_t	c = o->chunk;

	if (c < MIN_CHUNK || c > MAX_CHUNK || (c & (c - 1)) != 0)
		return errorf(cause, "invalid value for -c, --chunk: %zu "
		    "(a power of two from %u to %u bytes)", c, MIN_CHUNK,
		    MAX_CHUNK);
	if (o->size_asked < c)
		return errorf(cause, "invalid value for -s, --size: %llu "
		    "bytes is smaller than one chunk (%zu bytes)",
		    (unsigned long long)o->size_asked, c);
	o->size = o->size_asked - o->size_asked % c;
	if (o->seekers < 1 || o->seekers > MAX_SEEKERS)
		return errorf(cause, "invalid value for -S, --seekers: %d "
		    "(1 to %d)", o->seekers, MAX_SEEKERS);
	if (o->phases == 0)
		return errorf(cause, "no phase selected");
	if (o->repeat < 1)
		return errorf(cause, "invalid value for -x, --repeat: %d",
		    o->repeat);
	return 0;
}
