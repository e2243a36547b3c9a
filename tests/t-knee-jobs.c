/*
 * The concurrency knee (sweep --jobs): the job count beyond which more
 * workers raise the aggregate by less than the threshold.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "knee.h"
#include "sweep.h"
#include "tap.h"

int
main(void)
{
	const double	rising[] = { 100, 200, 390, 760 };
	const double	flat[] = { 100, 190, 200, 205 };
	const double	falls[] = { 100, 90, 80 };
	const double	late[] = { 100, 120, 125, 200 };
	const double	holes[] = { 100, NAN, 150, 151 };
	const double	one[] = { 100 };
	char		buf[256], *cause = NULL;
	double		gain;
	int		jobs[16], n;

	is_int(knee_jobs(rising, 4, 30, &gain), -1,
	    "still rising by more than 30% at every step: no knee");
	is_int(knee_jobs(flat, 4, 30, &gain), 1,
	    "190 -> 200 -> 205: the knee is at the second count");
	is_near(gain, 100.0 * (200 - 190) / 190, 1e-9,
	    "the most a later count added over the best so far");
	is_int(knee_jobs(falls, 3, 30, &gain), 0,
	    "falling from the first: the knee is the first count");
	ok(gain < 0, "and the gain beyond it is negative");
	is_int(knee_jobs(late, 4, 30, &gain), -1,
	    "a late rise of 60% means no knee before it");
	is_int(knee_jobs(holes, 4, 30, &gain), 2,
	    "unmeasured counts are skipped");
	is_int(knee_jobs(one, 1, 30, &gain), -1, "one point: no knee");

	knee_jobs_format(buf, sizeof(buf), "read", (uint64_t)1 << 30, 16384,
	    4, 3.2, 30);
	is_str(buf, "block read, 1024 MiB, chunk 16k: the aggregate stops "
	    "rising at 4 jobs (beyond: at most +3%, under 30%)",
	    "the knee in words");

	n = sweep_parse_jobs("8,1,2,4,2", jobs, 16, &cause);
	ok(n == 4 && jobs[0] == 1 && jobs[1] == 2 && jobs[2] == 4 &&
	    jobs[3] == 8, "--jobs is sorted, without repeats");
	ok(sweep_parse_jobs("0", jobs, 16, &cause) == -1 && cause != NULL &&
	    strstr(cause, "'0'") != NULL && strstr(cause, "--jobs") == NULL,
	    "--jobs 0 is refused, naming the value (the parser names the "
	    "option)");
	free(cause);
	cause = NULL;
	ok(sweep_parse_jobs("1025", jobs, 16, &cause) == -1,
	    "--jobs above 1024 is refused");
	free(cause);
	cause = NULL;
	ok(sweep_parse_jobs("1,2,x", jobs, 16, &cause) == -1,
	    "--jobs with a word is refused");
	free(cause);
	cause = NULL;
	ok(sweep_parse_jobs("1,2,3", jobs, 2, &cause) == -1,
	    "more job counts than the sweep holds are refused");
	free(cause);
	return done_testing();
}
