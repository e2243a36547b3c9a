/*
 * Units: the one home of every size, rate, duration and latency format and
 * parse.  See include/units.h for what each one prints.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "units.h"

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

/* The decimal at the start of s, as units_parse_decimal(); its end. */
static const char *
decimal_end(const char *s)
{
	const char	*p = s;

	while (isdigit((unsigned char)*p))
		p++;
	if (p == s)
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)p[1]))
			return NULL;
		for (p++; isdigit((unsigned char)*p); p++)
			;
	}
	return p;
}

int
units_parse_decimal(const char *s, double *v)
{
	const char	*p = decimal_end(s);
	char		*end;

	if (p == NULL || *p != '\0')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (*end != '\0' || errno != 0 || !isfinite(*v))
		return -1;
	return 0;
}

int
units_parse_latency(const char *s, double *seconds)
{
	const char	*end;
	char		 num[64];
	double		 v;

	if ((end = decimal_end(s)) == NULL || (size_t)(end - s) >= sizeof(num))
		return -1;
	memcpy(num, s, (size_t)(end - s));
	num[end - s] = '\0';
	if (units_parse_decimal(num, &v) == -1)
		return -1;
	if (strcmp(end, "ns") == 0)
		v /= 1e9;
	else if (strcmp(end, "us") == 0)
		v /= 1e6;
	else if (strcmp(end, "ms") == 0)
		v /= 1e3;
	else if (strcmp(end, "s") != 0)
		return -1;
	*seconds = v;
	return 0;
}

/*
 * v in the largest of the units that divides it exactly: unit[i] names
 * 1024^i bytes, for i below n.
 */
static int
exact(char *buf, size_t len, uint64_t v, const char *const unit[], int n)
{
	int	i = 0;

	while (i + 1 < n && v >= (uint64_t)1 << (10 * (i + 1)) &&
	    v % ((uint64_t)1 << (10 * (i + 1))) == 0)
		i++;
	return snprintf(buf, len, "%llu%s",
	    (unsigned long long)(v >> (10 * i)), unit[i]);
}

int
units_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "", "K", "M", "G" };

	if (bytes == 0)
		return snprintf(buf, len, "-");
	return exact(buf, len, bytes, unit, 4);
}

int
units_size_csv(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "K", "M", "G", "T", "P" };

	if (bytes == 0)
		return snprintf(buf, len, "0M");
	if (bytes % 1024 != 0)
		return snprintf(buf, len, "%lluK",
		    (unsigned long long)(bytes / 1024));
	return exact(buf, len, bytes >> 10, unit, 5);
}

int
units_chunk(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "", "k", "m" };

	return exact(buf, len, bytes, unit, 3);
}

int
units_size_words(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { " bytes", " KiB", " MiB" };

	return exact(buf, len, bytes, unit, 3);
}

int
units_size_short(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "KMGTPE";
	double	v = (double)bytes;
	int	u = -1;

	while (v >= 1024 && u < (int)sizeof(units) - 2) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		return snprintf(buf, len, "%llu", (unsigned long long)bytes);
	if (v == floor(v))
		return snprintf(buf, len, "%.0f%c", v, units[u]);
	return snprintf(buf, len, "%.1f%c", v, units[u]);
}

int
units_files(char *buf, size_t len, uint64_t files)
{
	if (files >= 1024 && files % 1024 == 0)
		return snprintf(buf, len, "%lluk",
		    (unsigned long long)(files / 1024));
	return snprintf(buf, len, "%llu", (unsigned long long)files);
}

int
units_ram(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= (1u << 30))
		return snprintf(buf, len, "%.1f GiB", (double)bytes /
		    (1u << 30));
	return snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
}

long long
units_kps(double kib_per_s)
{
	if (!(kib_per_s > 0))
		return 0;
	if (kib_per_s >= 0x1p63)	/* Read from a file, not measured. */
		return LLONG_MAX;
	return (long long)floor(kib_per_s);
}

long long
units_per_sec(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 0x1p62)	/* Read from a file, not measured. */
		return (long long)0x1p62;
	return (long long)floor(v + 0.5);
}

int
units_cpu(char *buf, size_t len, double pct, int doubtful, int decimals)
{
	if (doubtful)
		return snprintf(buf, len, "+++");
	if (!(pct > 0))
		pct = 0;
	if (pct >= 1e9)		/* Read from a file, not measured. */
		pct = 1e9;
	if (decimals > 0)
		return snprintf(buf, len, "%.1f", pct);
	return snprintf(buf, len, "%.0f", floor(pct + 0.5));
}

int
units_pp_rate(char *buf, size_t len, double v, int kib)
{
	if (!(v > 0))
		v = 0;
	if (v >= 0x1p62)	/* Read from a file, not measured. */
		v = 0x1p62;
	if (!kib) {
		long long n = units_per_sec(v);

		return n < 100000 ? snprintf(buf, len, "%lld", n) :
		    snprintf(buf, len, "%lldk", n / 1000);
	}
	if (v < 10000)
		return snprintf(buf, len, "%.0fk", floor(v));
	if (v / 1024 < 1000)
		return snprintf(buf, len, "%.0fm", floor(v / 1024));
	if (v / (1024 * 1024) < 10)
		return snprintf(buf, len, "%.1fg",
		    floor(v / (1024 * 1024) * 10) / 10);
	return snprintf(buf, len, "%.0fg", floor(v / (1024 * 1024)));
}

int
units_rate_short(char *buf, size_t len, double v)
{
	if (v >= 1e9)
		return snprintf(buf, len, "%gG", v / 1e9);
	if (v >= 1e6)
		return snprintf(buf, len, "%gM", v / 1e6);
	if (v >= 1e3)
		return snprintf(buf, len, "%gk", v / 1e3);
	return snprintf(buf, len, "%g", v);
}

/* bytes in the largest binary unit it reaches, then tail ("/s" or ""). */
static int
binary(char *buf, size_t len, double bytes, const char *tail)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
	    "PiB", "EiB" };
	double	v = bytes;
	int	u = 0;

	if (!(v > 0) || !isfinite(v))
		return snprintf(buf, len, "0 B%s", tail);
	while (v >= 1024 && u < (int)(sizeof(unit) / sizeof(unit[0])) - 1) {
		v /= 1024;
		u++;
	}
	return snprintf(buf, len, "%.4g %s%s", v, unit[u], tail);
}

int
units_size_binary(char *buf, size_t len, uint64_t bytes)
{
	return binary(buf, len, (double)bytes, "");
}

int
units_rate_bytes(char *buf, size_t len, double bytes_per_s)
{
	return binary(buf, len, bytes_per_s, "/s");
}

/*
 * Whole nanoseconds, the clock's unit: a latency measured in them and
 * carried in seconds (a double, a record's max_s, a CSV's "8105us") comes
 * back to the count it was, so that cutting it down to a unit never loses
 * one to a float's error (8105us read back is not 8104us).  -1 beyond
 * what an int64_t holds (read from a file, not measured).
 */
static int64_t
latency_ns(double seconds)
{
	if (!(seconds > 0))
		return 0;
	if (seconds >= 9e9)
		return -1;
	return (int64_t)llround(seconds * 1e9);
}

int
units_latency(char *buf, size_t len, double seconds)
{
	int64_t	ns = latency_ns(seconds);

	/*
	 * bonnie++ 2.00a's rule, thresholds and all: above 99.999999 s whole
	 * seconds, above 0.099999 s whole milliseconds, else whole
	 * microseconds, each cut down (its int()), never rounded.
	 */
	if (ns == 0)
		return snprintf(buf, len, "0us");
	if (ns == -1)
		return snprintf(buf, len, "%.0fs", floor(seconds));
	if (ns > INT64_C(99999999000))
		return snprintf(buf, len, "%llds", (long long)(ns / 1000000000));
	if (ns > 99999000)
		return snprintf(buf, len, "%lldms", (long long)(ns / 1000000));
	return snprintf(buf, len, "%lldus", (long long)(ns / 1000));
}

int
units_latency_short(char *buf, size_t len, double s)
{
	int64_t	ns = latency_ns(s);

	if (ns == -1)
		return snprintf(buf, len, "%.0fs", floor(s));
	if (ns < 10000)
		return snprintf(buf, len, "%lld.%lldus", (long long)(ns / 1000),
		    (long long)(ns / 100 % 10));
	if (ns < 10000000)
		return snprintf(buf, len, "%lldus", (long long)(ns / 1000));
	if (ns < INT64_C(10000000000))
		return snprintf(buf, len, "%lldms", (long long)(ns / 1000000));
	return snprintf(buf, len, "%llds", (long long)(ns / 1000000000));
}

int
units_span(char *buf, size_t len, double s)
{
	long	t = s > 0 ? (long)(s + 0.5) : 0;

	if (t >= 3600)
		return snprintf(buf, len, "%ldh %02ldm", t / 3600,
		    t / 60 % 60);
	if (t >= 60)
		return snprintf(buf, len, "%ldm %02lds", t / 60, t % 60);
	if (t >= 1)
		return snprintf(buf, len, "%lds", t);
	return snprintf(buf, len, "under a second");
}
