/*
 * Units: every size, rate, duration and latency that bonnie-ng prints or
 * reads, formatted and parsed in one place.  Pure functions: no clocks,
 * no files, no allocation.
 *
 * The formatters write a NUL-terminated string to buf (cut to len like
 * snprintf(3)) and return the length the whole string needs.  Sizes are
 * binary: K is 1024 bytes, M 1024 K, and so on.
 */
#ifndef BONNIE_UNITS_H
#define BONNIE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* --- Parsing ----------------------------------------------------------- */

/*
 * A size: a decimal number with an optional binary suffix k, m, g or t
 * (either case, optionally followed by "b" or "ib"); a bare number is in
 * units of unit bytes (1 for the command line's chunk, 1 << 20 for sizes
 * and for bonnie++'s CSV size field).  Returns 0, or -1 with a message in
 * *cause (which may be NULL) for junk, a bad suffix or an overflow.
 */
int	parse_size(const char *, uint64_t unit, uint64_t *, char **cause);

/* A whole decimal number in [min, max]; 0, or -1 with *cause. */
int	parse_count(const char *, uint64_t min, uint64_t max, uint64_t *,
	    char **cause);

/*
 * A non-negative decimal number, the whole string, as bonnie++ writes
 * them: digits with at most one point between digits (strtod alone would
 * take 0x10, 1e5, 0x3Cp0 and inf).  The one rule of every reader of rows
 * (CSV, text) and of durations.  0 or -1.
 */
int	units_parse_decimal(const char *, double *);
/*
 * A latency with its unit as bonnie++ writes it ("14740us", "939ms",
 * "12s", "800ns") into seconds, its number a decimal as
 * units_parse_decimal() reads it.  A bare number has no unit and is
 * refused.  0 or -1.
 */
int	units_parse_latency(const char *, double *seconds);

/* --- Sizes ------------------------------------------------------------- */

/*
 * "4G", "64M", "1536K", "1000": in the largest unit that divides it
 * exactly (up to G); 0, an unknown size, is "-".
 */
int	units_size(char *buf, size_t len, uint64_t bytes);
/*
 * bonnie++'s CSV size field in its shortest form, the largest binary unit
 * that divides it: "1G" (not "1024M", which leaves bon_csv2txt no room for
 * the machine name), "64M", anything else as whole KiB, rounded down, as
 * "1536K".
 */
int	units_size_csv(char *buf, size_t len, uint64_t bytes);
/* "16k", "1m", "512": a chunk size as the command line takes it. */
int	units_chunk(char *buf, size_t len, uint64_t bytes);
/* "16384 MiB", "512 KiB", "100 bytes": a size in words, exactly. */
int	units_size_words(char *buf, size_t len, uint64_t bytes);
/*
 * "64M", "512K", "32G", "1.5G", "1000": a size in one short word, with one
 * decimal when it is not a whole number of its unit (up to E).
 */
int	units_size_short(char *buf, size_t len, uint64_t bytes);
/*
 * "7 MiB", "1.5 GiB", "800 B": a size in the largest binary unit it
 * reaches, to four significant digits (a sweep's plan).
 */
int	units_size_binary(char *buf, size_t len, uint64_t bytes);
/*
 * "16k", "1000": a count of files, in bonnie++'s units of 1024 files
 * (--files N) when it is a whole number of them.
 */
int	units_files(char *buf, size_t len, uint64_t files);
/* "23.4 GiB", or "512 MiB" below a GiB: a RAM size. */
int	units_ram(char *buf, size_t len, uint64_t bytes);

/* --- Rates ------------------------------------------------------------- */

/*
 * K/sec as every table prints it: whole KiB per second, rounded down; 0
 * for anything not positive, LLONG_MAX for anything too large to hold.
 */
long long units_kps(double kib_per_s);

/*
 * "2.5M", "40k", "0.5": a rate for an axis tick, in decimal thousands
 * (k, M, G) with %g's six significant digits.
 */
int	units_rate_short(char *buf, size_t len, double v);

/*
 * "1 GiB/s", "512 MiB/s", "1.25 GiB/s", "800 B/s": bytes per second as
 * units_size_binary() writes bytes, then "/s"; an axis tick of a plot of
 * throughput.  Not positive (or not finite) is "0 B/s".
 */
int	units_rate_bytes(char *buf, size_t len, double bytes_per_s);

/*
 * A figure of bonnie++'s text report (bonnie-ng pp), at most five
 * characters where it can: with kib set, KiB/s as "663k" below 10000k,
 * then MiB/s as "318m" below 1000m, then GiB/s as "2.4g" (one decimal
 * below 10g); without, a count per second as "4614", or "123k" from
 * 100000 on.  Each rounded down; 0 for anything not positive.
 */
int	units_pp_rate(char *buf, size_t len, double v, int kib);
/*
 * A files/s (or ops/s) figure as a whole number, rounded to the nearest,
 * half up: the one rule of the CSV, the text rows and pp's report.
 */
long long units_per_sec(double v);
/*
 * A %CPU figure: "+++" when doubtful (the phase's CPU meter read more than
 * its threads can use, as for a 2.5 ms file phase: bonnie++ prints "+++"
 * for a figure it cannot measure), else whole, rounded half up, or (decimals
 * 1) with one decimal.
 */
int	units_cpu(char *buf, size_t len, double pct, int doubtful,
	    int decimals);

/* --- Durations and latencies ------------------------------------------- */

/*
 * A latency as bonnie++ 2.00a writes it, always a whole number with its
 * unit: whole seconds above 99.999999 s, whole milliseconds above
 * 0.099999 s, else whole microseconds; each cut down, never rounded
 * (9.9 us is "9us").  Zero, negative or NaN is "0us" (bonnie++ leaves a
 * zero latency's field empty: its writers, record-csv.c and report-pp.c,
 * do the same).
 */
int	units_latency(char *buf, size_t len, double seconds);
/*
 * A latency in the classic report's -L row: "4.5us" below 10 us, then
 * whole microseconds below 10 ms, whole milliseconds below 10 s, whole
 * seconds; each rounded down.
 */
int	units_latency_short(char *buf, size_t len, double seconds);
/*
 * A wall-clock span for people: "1h 05m", "3m 20s", "42s", "under a
 * second"; rounded to the nearest second.
 */
int	units_span(char *buf, size_t len, double seconds);

#endif
