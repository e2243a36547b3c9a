/*
 * The units module: every size, rate, duration and latency format and
 * parse, with their edges (0, the largest values, rounding, suffixes).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "units.h"

#define KiB	((uint64_t)1 << 10)
#define MiB	((uint64_t)1 << 20)
#define GiB	((uint64_t)1 << 30)

/* Run a size formatter and compare its output and returned length. */
#define fmt_is(fn, v, want, desc) do {					\
	char b_[64];							\
	int n_ = fn(b_, sizeof(b_), v);					\
	is_str(b_, want, desc);						\
	is_int(n_, (int)strlen(want), desc " (length)");		\
} while (0)

static void
test_parse_size(void)
{
	uint64_t	 v = 0;
	char		*cause = NULL;

	ok(parse_size("512M", MiB, &v, NULL) == 0 && v == 512 * MiB,
	    "size 512M");
	ok(parse_size("4g", MiB, &v, NULL) == 0 && v == 4 * GiB, "size 4g");
	ok(parse_size("64k", MiB, &v, NULL) == 0 && v == 64 * KiB, "size 64k");
	ok(parse_size("2T", MiB, &v, NULL) == 0 && v == 2 * 1024 * GiB,
	    "size 2T");
	ok(parse_size("100", MiB, &v, NULL) == 0 && v == 100 * MiB,
	    "bare size in the given unit (MiB)");
	ok(parse_size("100", 1, &v, NULL) == 0 && v == 100,
	    "bare size in the given unit (bytes)");
	ok(parse_size("0", MiB, &v, NULL) == 0 && v == 0, "size 0");
	ok(parse_size("8KiB", 1, &v, NULL) == 0 && v == 8 * KiB, "KiB");
	ok(parse_size("8kb", 1, &v, NULL) == 0 && v == 8 * KiB, "kb");
	ok(parse_size("48208M", MiB, &v, NULL) == 0 && v == 48208 * MiB,
	    "bonnie++'s 48208M");
	ok(parse_size("12x", MiB, &v, &cause) == -1 && cause != NULL &&
	    strstr(cause, "unknown suffix") != NULL, "bad suffix, with why");
	free(cause);
	cause = NULL;
	ok(parse_size("", MiB, &v, NULL) == -1, "empty");
	ok(parse_size("-1", MiB, &v, NULL) == -1, "negative");
	ok(parse_size(" 1", MiB, &v, NULL) == -1, "leading blank");
	ok(parse_size("1.5g", MiB, &v, NULL) == -1, "fraction");
	ok(parse_size("1mm", MiB, &v, NULL) == -1, "two suffixes");
	ok(parse_size("512B", MiB, &v, NULL) == -1, "bare B");
	ok(parse_size("16777215T", MiB, &v, NULL) == 0 &&
	    v == (uint64_t)16777215 << 40, "largest T that fits");
	ok(parse_size("16777216T", MiB, &v, &cause) == -1 && cause != NULL &&
	    strstr(cause, "too large") != NULL, "first T that overflows");
	free(cause);
	cause = NULL;
	ok(parse_size("18446744073709551615", 1, &v, NULL) == 0 &&
	    v == UINT64_MAX, "UINT64_MAX bytes");
	ok(parse_size("18446744073709551616", 1, &v, NULL) == -1,
	    "UINT64_MAX + 1");
	ok(parse_size("17592186044416", MiB, &v, NULL) == -1,
	    "bare MiB that overflows");
}

static void
test_parse_count(void)
{
	uint64_t	v = 0;

	ok(parse_count("3", 1, 256, &v, NULL) == 0 && v == 3, "count");
	ok(parse_count("0", 0, 1, &v, NULL) == 0 && v == 0, "count 0");
	ok(parse_count("0", 1, 1, &v, NULL) == -1, "below min");
	ok(parse_count("2", 1, 1, &v, NULL) == -1, "above max");
	ok(parse_count("1k", 1, 10000, &v, NULL) == -1, "no suffix on counts");
	ok(parse_count("18446744073709551615", 0, UINT64_MAX, &v, NULL) == 0 &&
	    v == UINT64_MAX, "UINT64_MAX");
}

static void
test_parse_latency(void)
{
	double	s = -1;

	ok(units_parse_latency("939ms", &s) == 0 && fabs(s - 0.939) < 1e-12,
	    "latency ms");
	ok(units_parse_latency("14740us", &s) == 0 &&
	    fabs(s - 0.01474) < 1e-12, "latency us");
	ok(units_parse_latency("3s", &s) == 0 && s == 3, "latency s");
	ok(units_parse_latency("800ns", &s) == 0 && fabs(s - 8e-7) < 1e-18,
	    "latency ns");
	ok(units_parse_latency("2.5us", &s) == 0 && fabs(s - 2.5e-6) < 1e-18,
	    "latency with a fraction");
	ok(units_parse_latency("0us", &s) == 0 && s == 0, "latency 0");
	ok(units_parse_latency("3", &s) == -1, "latency needs a unit");
	ok(units_parse_latency("3m", &s) == -1, "minutes are not a unit");
	ok(units_parse_latency("us", &s) == -1, "unit alone");
	ok(units_parse_latency("-3s", &s) == -1, "negative latency");
	ok(units_parse_latency("1e999s", &s) == -1, "infinite latency");
	ok(units_parse_latency("3uss", &s) == -1, "junk after the unit");
}

static void
test_sizes(void)
{
	char	b[8];

	fmt_is(units_size, 0, "-", "size 0 is unknown");
	fmt_is(units_size, 1000, "1000", "size in bytes");
	fmt_is(units_size, 1536 * KiB, "1536K", "size in K");
	fmt_is(units_size, 64 * MiB, "64M", "size in M");
	fmt_is(units_size, 4 * GiB, "4G", "size in G");
	fmt_is(units_size, 1024 * GiB, "1024G", "G is the largest unit");
	fmt_is(units_size, UINT64_MAX, "18446744073709551615",
	    "size UINT64_MAX");
	fmt_is(units_size, 3 * GiB / 2, "1536M", "1.5G in M, exactly");

	fmt_is(units_size_csv, 512 * MiB, "512M", "CSV size in M");
	fmt_is(units_size_csv, 1024 * MiB, "1G", "CSV size 1G, not 1024M");
	fmt_is(units_size_csv, 3072 * MiB, "3G", "CSV size 3G");
	fmt_is(units_size_csv, 1536 * MiB, "1536M", "CSV size 1536M");
	fmt_is(units_size_csv, 1536 * KiB, "1536K", "CSV size in K");
	fmt_is(units_size_csv, 1536 * KiB + 1000, "1536K",
	    "CSV size rounds down to K");
	fmt_is(units_size_csv, 0, "0M", "CSV size 0");

	fmt_is(units_chunk, 512, "512", "chunk 512");
	fmt_is(units_chunk, 64 * KiB, "64k", "chunk 64k");
	fmt_is(units_chunk, MiB, "1m", "chunk 1m");
	fmt_is(units_chunk, 0, "0", "chunk 0");
	fmt_is(units_chunk, 1536 * KiB, "1536k", "chunk not whole m");
	fmt_is(units_chunk, 4 * GiB, "4096m", "m is the largest chunk unit");

	fmt_is(units_size_words, 32 * GiB, "32768 MiB", "size in words, MiB");
	fmt_is(units_size_words, 512 * KiB, "512 KiB", "size in words, KiB");
	fmt_is(units_size_words, 100, "100 bytes", "size in words, bytes");
	fmt_is(units_size_words, 0, "0 bytes", "size in words, 0");

	fmt_is(units_size_short, 64 * MiB, "64M", "short 64M");
	fmt_is(units_size_short, 3 * GiB / 2, "1.5G", "short 1.5G");
	fmt_is(units_size_short, 1000, "1000", "short in bytes");
	fmt_is(units_size_short, 1023, "1023", "short below 1K");
	fmt_is(units_size_short, KiB, "1K", "short 1K");
	fmt_is(units_size_short, 0, "0", "short 0");
	fmt_is(units_size_short, MiB + 1, "1.0M",
	    "short: not whole, one decimal");
	fmt_is(units_size_short, UINT64_MAX, "16E", "short UINT64_MAX");
	fmt_is(units_size_short, (uint64_t)1 << 62, "4E", "short 4E");

	fmt_is(units_ram, 24 * GiB, "24.0 GiB", "RAM in GiB");
	fmt_is(units_ram, GiB + GiB / 3, "1.3 GiB", "RAM rounded to 0.1");
	fmt_is(units_ram, 512 * MiB, "512 MiB", "RAM below a GiB");
	fmt_is(units_ram, 0, "0 MiB", "RAM 0");

	/* A short buffer: cut, NUL-terminated, full length returned. */
	is_int(units_size_words(b, sizeof(b), 32 * GiB), 9,
	    "short buffer: the length needed");
	is_str(b, "32768 M", "short buffer: cut and terminated");
}

static void
test_rates(void)
{
	is_int(units_kps(1023.999), 1023, "K/sec rounds down");
	is_int(units_kps(0.5), 0, "below 1 K/sec is 0");
	is_int(units_kps(0), 0, "0 K/sec");
	is_int(units_kps(-5), 0, "negative rates print 0");
	ok(units_kps(NAN) == 0, "NaN prints 0");
	ok(units_kps(INFINITY) == LLONG_MAX, "infinity is the largest");
	ok(units_kps(1e300) == LLONG_MAX, "a huge rate is the largest");
	ok(units_kps(0x1p62) == (long long)1 << 62, "2^62 exactly");

	fmt_is(units_rate_short, 2.5e6, "2.5M", "tick 2.5M");
	fmt_is(units_rate_short, 40000, "40k", "tick 40k");
	fmt_is(units_rate_short, 0.5, "0.5", "tick 0.5");
	fmt_is(units_rate_short, 0, "0", "tick 0");
	fmt_is(units_rate_short, 999, "999", "tick below 1k");
	fmt_is(units_rate_short, 1e3, "1k", "tick 1k");
	fmt_is(units_rate_short, 3e9, "3G", "tick 3G");
	fmt_is(units_rate_short, 1234567, "1.23457M", "tick to six digits");

	fmt_is(units_rate_bytes, 1073741824.0, "1 GiB/s", "1 GiB/s");
	fmt_is(units_rate_bytes, 512.0 * 1048576, "512 MiB/s", "512 MiB/s");
	fmt_is(units_rate_bytes, 1.25 * 1073741824, "1.25 GiB/s",
	    "a quarter step of GiB");
	fmt_is(units_rate_bytes, 768.0 * 1048576, "768 MiB/s",
	    "below a GiB stays in MiB");
	fmt_is(units_rate_bytes, 1023, "1023 B/s", "below a KiB in bytes");
	fmt_is(units_rate_bytes, 1024, "1 KiB/s", "1 KiB/s");
	fmt_is(units_rate_bytes, 3.0 * 1099511627776, "3 TiB/s", "TiB/s");
	fmt_is(units_rate_bytes, 0, "0 B/s", "0 B/s");
	fmt_is(units_rate_bytes, -1, "0 B/s", "negative is 0 B/s");
	fmt_is(units_rate_bytes, NAN, "0 B/s", "NaN is 0 B/s");
	fmt_is(units_size_binary, (uint64_t)7 << 20, "7 MiB", "7 MiB");
	fmt_is(units_size_binary, (uint64_t)3 << 29, "1.5 GiB", "1.5 GiB");
	fmt_is(units_size_binary, 800, "800 B", "800 B");
	fmt_is(units_size_binary, 0, "0 B", "0 B");
}

/*
 * bonnie++ 2.00a's rule for a latency of L seconds (bon_time.cpp,
 * print_latency), written out as the format's fact: L > 99.999999 gives
 * int(L) "s", L > 0.099999 int(L * 1000) "ms", else int(L * 1000000)
 * "us".  bonnie-ng applies it to the latency's exact value, its whole
 * nanoseconds: bonnie++'s double cuts 0.00023 s to 229us (0.00023 *
 * 1e6 is 229.99999...), one unit low (issue 43), which bonnie-ng does
 * not copy.  Checked against units_latency() from 1 ns to 1000 s, ten
 * points a decade and either side of each threshold; how often bonnie++'s
 * own doubles differ is said.
 */
static void
bonnie_rule(char *buf, size_t len, double l)
{
	long long	ns = llround(l * 1e9);

	if (ns > 99999999000LL)
		snprintf(buf, len, "%llds", ns / 1000000000);
	else if (ns > 99999000)
		snprintf(buf, len, "%lldms", ns / 1000000);
	else
		snprintf(buf, len, "%lldus", ns / 1000);
}

/* The same rule on bonnie++'s double, for the count of units it loses. */
static void
bonnie_double(char *buf, size_t len, double l)
{
	if (l > 99.999999)
		snprintf(buf, len, "%ds", (int)l);
	else if (l > 0.099999)
		snprintf(buf, len, "%dms", (int)(l * 1000.0));
	else
		snprintf(buf, len, "%dus", (int)(l * 1000000.0));
}

static void
test_latency_table(void)
{
	static const double edges[] = { 0.099999, 99.999999, 1e-5, 1e-6 };
	char	want[32], got[32], dbl[32];
	double	l;
	int	d, k, e, bad = 0, n = 0, dot = 0, lost = 0;

	for (d = -9; d <= 3; d++)
		for (k = 10; k < 100; k++) {
			l = k / 10.0 * pow(10, d);
			bonnie_rule(want, sizeof(want), l);
			bonnie_double(dbl, sizeof(dbl), l);
			lost += strcmp(want, dbl) != 0;
			units_latency(got, sizeof(got), l);
			n++;
			if (strchr(got, '.') != NULL)
				dot++;
			if (strcmp(want, got) != 0 && bad++ < 3)
				printf("# %.12g s: bonnie++ %s, bonnie-ng "
				    "%s\n", l, want, got);
		}
	for (e = 0; e < 4; e++)
		for (k = -3; k <= 3; k++) {
			l = edges[e] * (1 + k * 1e-9);
			bonnie_rule(want, sizeof(want), l);
			units_latency(got, sizeof(got), l);
			n++;
			if (strcmp(want, got) != 0 && bad++ < 3)
				printf("# %.12g s: bonnie++ %s, bonnie-ng "
				    "%s\n", l, want, got);
		}
	printf("# %d latencies, %d differ (bonnie++'s doubles lose a unit in "
	    "%d of the first %d)\n", n, bad, lost, n - 28);
	ok(bad == 0, "latencies from 1 ns to 1000 s by bonnie++'s rule, on their exact values");
	ok(dot == 0, "no latency has a decimal point");
}

static void
test_latencies(void)
{
	fmt_is(units_latency, 0.01474, "14740us", "bonnie++ us");
	fmt_is(units_latency, 0.939, "939ms", "bonnie++ ms");
	fmt_is(units_latency, 0.0999989, "99998us", "below 0.099999 s in us");
	fmt_is(units_latency, 0.0999995, "99ms", "past 0.099999 s: ms, cut");
	fmt_is(units_latency, 0.099999, "99999us", "0.099999 s itself: us");
	fmt_is(units_latency, 0.1, "100ms", "100 ms");
	fmt_is(units_latency, 150, "150s", "seconds");
	fmt_is(units_latency, 99.9994, "99999ms", "below 100 s in ms");
	fmt_is(units_latency, 99.9999995, "99s", "past 99.999999 s: s, cut");
	fmt_is(units_latency, 9.9e-6, "9us", "9.9 us is 9us, no decimal");
	fmt_is(units_latency, 8.2e-6, "8us", "8.2 us is 8us");
	fmt_is(units_latency, 4e-6, "4us", "whole below 10 us");
	fmt_is(units_latency, 0.4e-6, "0us", "below 1 us is 0us");
	fmt_is(units_latency, 0, "0us", "latency 0");
	fmt_is(units_latency, -1, "0us", "negative latency is 0");
	fmt_is(units_latency, NAN, "0us", "NaN latency is 0");
	fmt_is(units_latency, 12.5e-6, "12us", "12.5 us is cut to 12");
	fmt_is(units_latency, 12.9e-6, "12us", "12.9 us is cut to 12");
	test_latency_table();

	fmt_is(units_latency_short, 0.0000045, "4.5us", "-L 4.5 us");
	fmt_is(units_latency_short, 0.000230, "230us", "-L 230 us");
	fmt_is(units_latency_short, 0.0099999, "9999us", "-L rounds us down");
	fmt_is(units_latency_short, 0.014740, "14ms", "-L 14.74 ms is 14ms");
	fmt_is(units_latency_short, 9.999, "9999ms", "-L rounds ms down");
	fmt_is(units_latency_short, 12.9, "12s", "-L seconds round down");
	fmt_is(units_latency_short, 0, "0.0us", "-L 0");

	fmt_is(units_span, 0, "under a second", "span 0");
	fmt_is(units_span, 0.49, "under a second", "span below half");
	fmt_is(units_span, 0.5, "1s", "span rounds to a second");
	fmt_is(units_span, 42, "42s", "span 42 s");
	fmt_is(units_span, 200, "3m 20s", "span minutes");
	fmt_is(units_span, 3600 + 5 * 60 + 29, "1h 05m", "span hours");
	fmt_is(units_span, -5, "under a second", "negative span");
	fmt_is(units_span, 100 * 3600, "100h 00m", "span of 100 hours");
}

int
main(void)
{
	(void)tap_skip;		/* Nothing here is ever skipped. */
	test_parse_size();
	test_parse_count();
	test_parse_latency();
	test_sizes();
	test_rates();
	test_latencies();
	return done_testing();
}
