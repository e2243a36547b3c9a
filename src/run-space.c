/*
 * The free space around a run (run-team.c's run_team()): measured before
 * the first file and after the last is removed, to tell when a removal
 * gave back less than the file held (a descriptor still open, a file
 * system that does not free), the rule run.h states with RUN_SPACE_SLACK.
 */
#include <sys/statvfs.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "phase.h"
#include "platform.h"
#include "run-space.h"
#include "run.h"
#include "text.h"

/* The free space of dir's file system, or -1. */
int64_t
run_space_free(const char *dir)
{
	struct statvfs	sv;
	uint64_t	unit;

	if (statvfs(dir, &sv) == -1)
		return -1;
	unit = sv.f_frsize > 0 ? sv.f_frsize : sv.f_bsize;
	if (unit == 0 || (uint64_t)sv.f_bavail > (uint64_t)INT64_MAX / unit)
		return -1;
	return (int64_t)((uint64_t)sv.f_bavail * unit);
}

/* The free-space check's bound: 1% of what the run made, plus slack. */
static uint64_t
space_slack(const struct options *opt, int n)
{
	uint64_t	made;

	if (opt->phases & ~phase_flag_mask(PHASE_META))
		made = opt->size * (uint64_t)n;
	else
		made = opt->files_n * opt->files_max;
	return made / 100 + RUN_SPACE_SLACK;
}

static void	space_warn(const struct options *, struct run_result *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));

/*
 * The space stays in use: noted in the record, and said once per
 * invocation, unless the run is quiet or failed (a failed run's one line
 * stays one line: the record has it).
 */
static void
space_warn(const struct options *opt, struct run_result *res,
    const char *fmt, ...)
{
	static int	said;
	va_list		ap;

	res->space_leak = 1;
	if (opt->quiet || said || res->err.set || res->interrupted)
		return;
	said = 1;
	va_start(ap, fmt);
	text_vsay(fmt, ap);
	va_end(ap);
}

/*
 * The removal gave back less than the file held, by more than the slack:
 * space that stays in use (a descriptor still open, a file system that
 * does not free).  The free space of the whole run, which other programs
 * change too, is said alongside, for information.
 */
static void
removal_check(const struct options *opt, struct run_result *res)
{
	int64_t	held = res->space_held, freed = res->space_freed;

	if (held - freed <= held / 100 + (int64_t)RUN_SPACE_SLACK)
		return;
	space_warn(opt, res, "warning: the file system has %lld MiB "
	    "less free space after the test file was removed than the file "
	    "held (%s: its removal gave back %lld of %lld MiB; the whole run "
	    "went from %lld to %lld MiB free)",
	    (long long)((held - freed) >> 20), opt->dir,
	    (long long)(freed >> 20), (long long)(held >> 20),
	    (long long)(res->space_before >> 20),
	    (long long)(res->space_after >> 20));
}

/*
 * After the run: the free space again and, when it dropped by more than
 * the slack, again after writing the file system back, for up to a
 * second (some file systems free a removed file's space late).
 */
void
run_space_after(const struct options *opt, struct run_result *res, int n,
    int64_t before)
{
	uint64_t	slack = space_slack(opt, n);
	int64_t		after;
	int		fd, tries;

	res->space_before = before;
	res->space_after = after = run_space_free(opt->dir);
	res->space_leak = 0;
	/* A lone run measured its removal itself; a team's leader did not. */
	if (n > 1 || !(res->space_held > 0) || res->space_freed < 0)
		res->space_held = res->space_freed = -1;
	if (res->file_left)
		return;
	if (res->space_held > 0) {
		removal_check(opt, res);
		return;
	}
	if (before < 0 || after < 0)
		return;
	for (tries = 0; before - after > (int64_t)slack && tries < 10;
	    tries++) {
		if ((fd = open(opt->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) !=
		    -1) {
			platform_sync_fs(fd);
			close(fd);
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
		if ((after = run_space_free(opt->dir)) < 0)
			return;
		res->space_after = after;
	}
	if (before - after <= (int64_t)slack)
		return;
	space_warn(opt, res, "warning: the file system has %lld MiB "
	    "less free space after the test file was removed (%s: %lld MiB "
	    "free before the run, %lld MiB after)",
	    (long long)((before - after) >> 20), opt->dir,
	    (long long)(before >> 20), (long long)(after >> 20));
}

/* A run on a device: no file system's space to watch. */
void
run_space_none(struct run_result *res)
{
	res->space_before = res->space_after = -1;
	res->space_held = res->space_freed = -1;
	res->space_leak = 0;
}
