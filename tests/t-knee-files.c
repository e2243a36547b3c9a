/*
 * The files knee (sweep --files): the file count beyond which files/s
 * falls by more than the threshold and stays there; the --files list.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "knee.h"
#include "options.h"
#include "settings.h"
#include "sweep.h"
#include "tap.h"
#include "units.h"

int
main(void)
{
	/* Fast while the files fit the caches, then a cliff. */
	const double	cliff[] = { 30000, 29500, 30100, 14400, 12000 };
	const double	gradual[] = { 100, 80, 64, 51 };
	const double	flat[] = { 100, 90, 95, 85 };
	const double	back[] = { 100, 50, 100, 98 };
	const double	holes[] = { 200, NAN, 190, 60, NAN, 50 };
	const double	rises[] = { 100, 200, 400 };
	const double	last[] = { 100, 100, 100, 60 };
	const double	one[] = { 100 };
	struct knee	k;
	struct options	o;
	uint64_t	files[16];
	char		buf[256], *cause = NULL;
	int		n;

	is_int(knee_files(cliff, 5, 30, &k), 2,
	    "a cliff after the third count: the knee is the third");
	ok(k.from == 2 && k.to == 3, "from the knee to the first fallen count");
	is_near(k.before, 30100, 1e-9, "the best up to the knee");
	is_near(k.after, 14400, 1e-9, "the rate at the first fallen count");
	is_near(k.pct, 100.0 * (30100 - 14400) / 30100, 1e-9,
	    "the fall in percent of the best");
	is_int(k.confirmed, 1, "the one later count stayed down");

	is_int(knee_files(gradual, 4, 30, &k), 1,
	    "a slow decline: the knee is the count before the rate is 30% "
	    "below the best");
	ok(k.to == 2 && k.before == 100, "measured against the best (100)");
	is_int(knee_files(flat, 4, 30, &k), -1, "within 30%: no knee");
	is_int(knee_files(back, 4, 30, &k), -1,
	    "a dip that comes back is not a knee");
	is_int(knee_files(holes, 6, 30, &k), 2,
	    "unmeasured counts are skipped");
	is_int(k.to, 3, "the first fallen count is the next measured one");
	is_int(knee_files(rises, 3, 30, &k), -1, "rising: no knee");
	is_int(knee_files(last, 4, 30, &k), 2,
	    "a fall at the last count counts, with nothing to confirm it");
	is_int(k.confirmed, 0, "and nothing confirmed it");
	is_int(knee_files(one, 1, 30, &k), -1, "one point: no knee");
	is_int(knee_files(cliff, 5, 0, &k), -1, "a threshold of 0: none");

	is_int(knee_files(cliff, 5, 30, &k), 2, "the cliff again");
	knee_files_format(buf, sizeof(buf), "create", "", 16384, 32768, &k,
	    30);
	is_str(buf, "sequential create: files/s falls 52% beyond 16k files "
	    "(best up to there 30100/s, 14400/s at 32k files; threshold 30%)",
	    "the knee in words");
	knee_files_format(buf, sizeof(buf), "rstat", "-j 2", 16384, 32768, &k,
	    30);
	ok(strncmp(buf, "random stat, -j 2: files/s falls 52%", 36) == 0,
	    "with the job count");

	units_files(buf, sizeof(buf), 16384);
	is_str(buf, "16k", "16384 files are 16k");
	units_files(buf, sizeof(buf), 1000);
	is_str(buf, "1000", "1000 files are 1000");

	settings_defaults(&o);
	n = sweep_parse_files("4,1,2,2:4k:1k:3", files, 16, &o, &cause);
	ok(n == 3 && files[0] == 1024 && files[1] == 2048 &&
	    files[2] == 4096, "--files 4,1,2,2: sorted, without repeats, in "
	    "files");
	ok(o.files_max == 4096 && o.files_min == 1024 && o.files_dirs == 3 &&
	    o.files_given, "the sizes and directories hold for every count");
	ok(sweep_parse_files("0", files, 16, &o, &cause) == -1 &&
	    cause != NULL && strstr(cause, "'0'") != NULL,
	    "a count of 0 is refused, named");
	free(cause);
	cause = NULL;
	ok(sweep_parse_files("1,x", files, 16, &o, &cause) == -1,
	    "a word is refused");
	free(cause);
	cause = NULL;
	ok(sweep_parse_files("1,2:1k:4k", files, 16, &o, &cause) == -1,
	    "MIN above MAX is refused");
	free(cause);
	cause = NULL;
	ok(sweep_parse_files("1,2,3", files, 2, &o, &cause) == -1,
	    "more counts than the sweep holds are refused");
	free(cause);
	cause = NULL;
	ok(sweep_parse_files("1:0:0:0:5", files, 16, &o, &cause) == -1,
	    "too many fields are refused");
	free(cause);
	return done_testing();
}
