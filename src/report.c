/*
 * The classic Bonnie text report.  Pure formatting: no clocks, no files.
 */
#include <math.h>
#include <stdio.h>

#include "report.h"

const char report_header[] =
"              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
"              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
"Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n";

long long
report_kps(double kib_per_s)
{
	if (!(kib_per_s > 0))
		return 0;
	return (long long)floor(kib_per_s);
}

/* Append to buf at *off, tracking the length snprintf would need. */
#define APPEND(...) do {						\
	int n_ = snprintf(*off < len ? buf + *off : NULL,		\
	    *off < len ? len - *off : 0, __VA_ARGS__);			\
	if (n_ > 0)							\
		*off += (size_t)n_;					\
} while (0)

static void
pair(char *buf, size_t len, size_t *off, const struct phase_result *p,
    int seeks)
{
	if (!p->ran)
		APPEND("%5s %4s", "-", "-");
	else if (seeks)
		APPEND("%5.1f %4.1f", p->rate, p->cpu_pct);
	else
		APPEND("%5lld %4.1f", report_kps(p->rate), p->cpu_pct);
}

int
report_row(char *buf, size_t len, const char *label, uint64_t size_mib,
    const struct phase_result ph[PH_COUNT])
{
	size_t	o = 0, *off = &o;
	int	i;

	APPEND("%-8.8s %4llu ", label, (unsigned long long)size_mib);
	for (i = 0; i < PH_COUNT; i++) {
		pair(buf, len, off, &ph[i], i == PH_SEEKS);
		APPEND("%s", i == PH_COUNT - 1 ? "\n" : " ");
	}
	return (int)o;
}

int
report_duration(char *buf, size_t len, double s)
{
	double	us = s * 1e6;

	if (us < 10)
		return snprintf(buf, len, "%.1fus", us);
	if (us < 10000)
		return snprintf(buf, len, "%.0fus", floor(us));
	if (s < 10)
		return snprintf(buf, len, "%.0fms", floor(s * 1e3));
	return snprintf(buf, len, "%.0fs", floor(s));
}

int
report_latency_row(char *buf, size_t len, uint64_t size_mib,
    const struct phase_result ph[PH_COUNT])
{
	size_t	o = 0, *off = &o;
	char	d[32];
	int	i;

	APPEND("%-8.8s %4llu ", "Latency", (unsigned long long)size_mib);
	for (i = 0; i < PH_COUNT; i++) {
		if (ph[i].ran && ph[i].lat.count > 0)
			report_duration(d, sizeof(d), ph[i].lat.p99);
		else
			snprintf(d, sizeof(d), "-");
		APPEND("%10s%s", d, i == PH_COUNT - 1 ? "\n" : " ");
	}
	return (int)o;
}
