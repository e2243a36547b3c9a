/*
 * Unit tests: cpu_between() splits the precise CPU amount into user and
 * system time without either part falling below zero or the sum leaving
 * the amount, whatever the rounding of the getrusage proportions.
 */
#include <stdint.h>

#include "tap.h"
#include "timer.h"

int
main(void)
{
	struct cpu_stamp	 a = { 0, 0, 0 }, b;
	struct cpu_times	 d;
	uint64_t		 ns;
	int			 neg = 0, over = 0, n = 0;
	double			 props[] = { 0.01, 0.03, 0.1, 0.3, 0.7, 1.3 };
	size_t			 i;

	/* No system time: user is all of it, system exactly 0, never < 0. */
	for (ns = 1; ns < 200000; ns += 7) {
		for (i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
			b.clock_ns = ns;
			b.ru_user = props[i];
			b.ru_sys = 0;
			cpu_between(&a, &b, &d);
			n++;
			if (d.sys < 0 || d.user < 0)
				neg++;
			if (d.user + d.sys > (double)ns / 1e9)
				over++;
		}
	}
	ok(n > 0 && neg == 0, "no negative user or system time");
	ok(over == 0, "user + system never exceeds the measured CPU");

	b.clock_ns = 2000000000;
	b.ru_user = 0.3;
	b.ru_sys = 0.1;
	cpu_between(&a, &b, &d);
	is_near(d.user, 1.5, 1e-9, "user gets its getrusage share");
	is_near(d.sys, 0.5, 1e-9, "system gets its getrusage share");
	return done_testing();
}
