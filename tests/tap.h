/*
 * A tiny TAP producer for the C unit tests.  Each check prints "ok N" or
 * "not ok N" with a description; done_testing() prints the plan and
 * returns the exit status.
 */
#ifndef BONNIE_TAP_H
#define BONNIE_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static int __attribute__((unused))
tap_ok(int cond, const char *file, int line, const char *desc)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, desc);
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}

#define ok(cond, desc) tap_ok(!!(cond), __FILE__, __LINE__, (desc))

#define is_str(got, want, desc) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (!tap_ok(g_ != NULL && strcmp(g_, w_) == 0, __FILE__,	\
	    __LINE__, (desc)))						\
		printf("#   got:  '%s'\n#   want: '%s'\n",		\
		    g_ ? g_ : "(null)", w_);				\
} while (0)

#define is_int(got, want, desc) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!tap_ok(g_ == w_, __FILE__, __LINE__, (desc)))		\
		printf("#   got:  %lld\n#   want: %lld\n", g_, w_);	\
} while (0)

#define is_near(got, want, tol, desc) do {				\
	double g_ = (got), w_ = (want);					\
	if (!tap_ok(fabs(g_ - w_) <= (tol), __FILE__, __LINE__, (desc)))\
		printf("#   got:  %.9g\n#   want: %.9g (within %g)\n",	\
		    g_, w_, (double)(tol));				\
} while (0)

static void __attribute__((unused))
tap_skip(const char *why)
{
	tap_n++;
	printf("ok %d # skip %s\n", tap_n, why);
}

static int __attribute__((unused))
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
