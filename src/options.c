/*
 * Option defaults, value parsers and the checks between options.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "options.h"
#include "result.h"

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
	o->jobs = 1;
	o->seeks = DEFAULT_SEEKS;
	o->seeker_mode = SEEKERS_FORK;
	o->cache = CACHE_MODE_COLD;
	o->phases = (1u << PH_COUNT) - 1;
	o->repeat = 1;
	o->format = OUT_TEXT;
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
