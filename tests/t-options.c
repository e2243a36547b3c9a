/*
 * Unit tests: size and count parsing, and the checks between options.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "settings.h"
#include "tap.h"
#include "units.h"

static int
size_is(const char *s, uint64_t unit, uint64_t want)
{
	uint64_t	v = 0;
	char		*cause = NULL;
	int		r = parse_size(s, unit, &v, &cause);

	free(cause);
	return r == 0 && v == want;
}

static int
size_refused(const char *s, const char *words)
{
	uint64_t	v = 0;
	char		*cause = NULL;
	int		r = parse_size(s, 1, &v, &cause);
	int		good = r == -1 && cause != NULL &&
			    strstr(cause, words) != NULL &&
			    strstr(cause, s) != NULL;

	if (!good)
		printf("# '%s': r=%d cause=%s\n", s, r, cause ? cause : "-");
	free(cause);
	return good;
}

int
main(void)
{
	struct options	o;
	uint64_t	v;
	char		*cause = NULL;
	const uint64_t	MiB = 1 << 20;

	ok(size_is("2048", MiB, 2048 * MiB), "bare -s is MiB");
	ok(size_is("16384", 1, 16384), "bare -c is bytes");
	ok(size_is("16k", 1, 16384), "k suffix");
	ok(size_is("16K", 1, 16384), "K suffix");
	ok(size_is("512m", MiB, 512 * MiB), "m suffix ignores the unit");
	ok(size_is("4g", MiB, 4ull << 30), "g suffix");
	ok(size_is("1t", MiB, 1ull << 40), "t suffix");
	ok(size_is("4GiB", 1, 4ull << 30), "GiB spelling");
	ok(size_is("4gb", 1, 4ull << 30), "gb spelling");
	ok(size_is("0", MiB, 0), "zero parses (the range check is later)");
	ok(size_is("16777215t", 1, 16777215ull << 40), "largest t that fits");

	ok(size_refused("", "not a size"), "empty refused");
	ok(size_refused("-5", "not a size"), "negative refused");
	ok(size_refused("+5", "not a size"), "plus sign refused");
	ok(size_refused(" 5", "not a size"), "leading space refused");
	ok(size_refused("5 ", "unknown suffix"), "trailing space refused");
	ok(size_refused("12x", "unknown suffix"), "junk suffix refused");
	ok(size_refused("1kk", "unknown suffix"), "double suffix refused");
	ok(size_refused("1.5g", "unknown suffix"), "fractions refused");
	ok(size_refused("k", "not a size"), "suffix alone refused");
	ok(size_refused("18446744073709551616", "too large"),
	    "2^64 overflows");
	ok(size_refused("16777216t", "too large"), "suffix overflow caught");
	ok(size_refused("99999999999999999999t", "too large"),
	    "huge overflow caught");

	ok(parse_count("3", 1, 256, &v, &cause) == 0 && v == 3, "count 3");
	ok(parse_count("0", 1, 256, &v, &cause) == -1 &&
	    strstr(cause, "out of range") != NULL, "count below minimum");
	ok(parse_count("257", 1, 256, &v, &cause) == -1, "count above max");
	ok(parse_count("3x", 1, 256, &v, &cause) == -1 &&
	    strstr(cause, "not a whole number") != NULL, "count junk");
	ok(parse_count("-1", 0, 256, &v, &cause) == -1, "count negative");
	ok(parse_count("18446744073709551615", 0, UINT64_MAX, &v, &cause) ==
	    0 && v == UINT64_MAX, "count of 2^64-1");
	ok(parse_count("18446744073709551616", 0, UINT64_MAX, &v, &cause) ==
	    -1 && strstr(cause, "too large") != NULL, "count overflow");

	settings_defaults(&o);
	is_int(o.size, 1024 * MiB, "default size 1 GiB");
	is_int(o.chunk, 16384, "default chunk 16384");
	is_int(o.seekers, 3, "default 3 seekers");
	is_int(o.seeks, 4000, "default 4000 seeks");
	ok(options_check(&o, &cause) == 0, "defaults pass the checks");

	o.size_asked = 10 * 1024 * 1024 + 1000;
	o.chunk = 4096;
	ok(options_check(&o, &cause) == 0 && o.size == 10 * MiB,
	    "size rounded down to whole chunks");
	o.size_asked = 1000;
	ok(options_check(&o, &cause) == -1 &&
	    strstr(cause, "smaller than one chunk") != NULL,
	    "size below one chunk refused");
	o.size_asked = MiB;
	o.chunk = 3000;
	ok(options_check(&o, &cause) == -1 &&
	    strstr(cause, "power of two") != NULL, "chunk not a power of two");
	o.chunk = 256;
	ok(options_check(&o, &cause) == -1, "chunk below 512 refused");
	o.chunk = 32u << 20;
	ok(options_check(&o, &cause) == -1, "chunk above 16 MiB refused");
	o.chunk = 512;
	o.seekers = 0;
	ok(options_check(&o, &cause) == -1 &&
	    strstr(cause, "--seekers") != NULL, "zero seekers refused");

	/* --lock-mem and the effective RAM (options_memory()). */
	settings_defaults(&o);
	ok(lock_mem_parse("avail-1g", &o, &cause) == 0 && o.lock_avail &&
	    o.lock_size == 1024 * MiB, "avail-1g parsed");
	ok(options_memory(&o, 8192LL * MiB, 4096LL * MiB, -1, -1, &cause) == 0 &&
	    o.lock_bytes == 3072 * MiB && o.ram == 5120 * MiB &&
	    o.ram_source == RAM_LOCK, "avail-1g of 4 GiB available locks 3 GiB; "
	    "RAM 8 GiB less the lock");
	ok(lock_mem_parse("512", &o, &cause) == 0 && !o.lock_avail &&
	    o.lock_size == 512 * MiB, "a bare size is MiB");
	ok(options_memory(&o, 8192LL * MiB, 4096LL * MiB, 2048LL * MiB, -1,
	    &cause) == 0 && o.ram == 1536 * MiB, "the cgroup's limit less the "
	    "lock when it is the smaller");
	ok(options_memory(&o, 8192LL * MiB, 700LL * MiB, -1, -1, &cause) == -1 &&
	    strstr(cause, "at least 256 MiB must stay") != NULL,
	    "a lock leaving under 256 MiB available refused");
	ok(options_memory(&o, 8192LL * MiB, 4096LL * MiB, 700LL * MiB, -1,
	    &cause) == -1 && strstr(cause, "the cgroup allows") != NULL,
	    "a lock leaving under 256 MiB of the cgroup refused");
	o.lock_arg = NULL;
	ok(options_memory(&o, 8192LL * MiB, 4096LL * MiB, 2048LL * MiB, -1,
	    &cause) == 0 && o.lock_bytes == 0 && o.ram == 2048 * MiB &&
	    o.ram_source == RAM_CGROUP, "no lock: the cgroup's limit");
	o.ram = 100 * MiB;
	o.ram_given = 1;
	ok(options_memory(&o, 8192LL * MiB, 4096LL * MiB, 2048LL * MiB, -1,
	    &cause) == 0 && o.ram == 100 * MiB && o.ram_source == RAM_GIVEN,
	    "--ram wins");
	o.ram_given = 0;
	ok(lock_mem_parse("avail-1g", &o, &cause) == 0 &&
	    options_memory(&o, 8192LL * MiB, -1, -1, -1, &cause) == -1 &&
	    strstr(cause, "unknown") != NULL, "avail- with the available "
	    "memory unknown refused");
	/* In a container: 20 GiB available on the host, a cgroup limit of 2
	   GiB of which 512 MiB is used: avail-512m counts from 1.5 GiB. */
	ok(lock_mem_parse("avail-512m", &o, &cause) == 0 &&
	    options_memory(&o, 24576LL * MiB, 20480LL * MiB, 2048LL * MiB,
	    1536LL * MiB, &cause) == 0 && o.lock_bytes == 1024 * MiB &&
	    o.ram == 1024 * MiB, "avail-512m in a cgroup with 1.5 GiB of "
	    "headroom locks 1 GiB, not the host's 19.5 GiB");
	ok(options_memory(&o, 24576LL * MiB, 20480LL * MiB, 2048LL * MiB,
	    200LL * MiB, &cause) == -1 &&
	    strstr(cause, "the cgroup leaves") != NULL,
	    "avail- with 200 MiB of headroom refused, and says the cgroup's");
	ok(options_memory(&o, 24576LL * MiB, 1024LL * MiB, 2048LL * MiB,
	    1536LL * MiB, &cause) == 0 && o.lock_bytes == 512 * MiB,
	    "the system's available memory when it is the tighter");
	free(cause);
	return done_testing();
}
