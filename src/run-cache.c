/*
 * The cache drops around a phase: the test file's pages (and a loop
 * device's backing file's) dropped and measured before a reading phase,
 * --cache=global's drop of every cache, the state a phase starts in, and
 * what under the file keeps data in memory whatever the drops do.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "phase.h"
#include "platform.h"
#include "run.h"
#include "runner.h"
#include "target.h"
#include "timer.h"

/* The memory file system note is given once per invocation. */
static int	memfs_said;


/*
 * A loop device without direct I/O reads its backing file through the
 * page cache: write that file back, drop its pages and measure what
 * stayed.  Marks the phase warm, with the reason, when it cannot.
 */
static int
drop_backing(struct runner *r, const struct phase *p, struct phase_result *ph)
{
	struct stat	st;
	double		res = -1;
	int		fd, tries;

	fd = open(r->loop_backing, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd == -1 || fstat(fd, &st) == -1) {
		ph->cache = CSTATE_WARM;
		warn_run(r->opt, "cannot drop the cache of %s's backing file "
		    "%s before phase %s: %s; marked warm", r->loop_name,
		    r->loop_backing, p->name, strerror(errno));
		if (fd != -1)
			close(fd);
		return 0;
	}
	for (tries = 0; tries < 2; tries++) {
		if (platform_drop_cache(fd) == -1 ||
		    platform_residency(fd, (uint64_t)st.st_size, &res) == -1) {
			res = -1;
			break;
		}
		if (res <= WARM_LIMIT)
			break;
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	close(fd);
	ph->backing_resident = res;
	if (res > WARM_LIMIT || res < 0) {
		ph->cache = CSTATE_WARM;
		if (res < 0)
			warn_run(r->opt, "cannot drop or check the cache of "
			    "%s's backing file %s before phase %s; marked warm",
			    r->loop_name, r->loop_backing, p->name);
		else
			warn_run(r->opt, "%.0f%% of %s's backing file %s is "
			    "still cached before phase %s; marked warm",
			    100 * res, r->loop_name, r->loop_backing, p->name);
	}
	return 0;
}


/*
 * Drop the file's cached pages and measure what stayed; retry once.
 * Sets the phase's cache state, residency and drop time.
 */
int
drop_cache(struct runner *r, const struct phase *p, struct phase_result *ph)
{
	bn_time		 t0 = time_now();
	double		 res = -1;
	int		 tries, why = 0;
	const char	*step = "";

	for (tries = 0; tries < 2; tries++) {
		if (platform_drop_cache(r->fd) == -1) {
			if (errno == ENOSYS || errno == EINVAL) {
				why = errno;
				step = "drop";
				break;
			}
			return run_fail(r, p->name, "drop cache", -1, errno,
			    NULL);
		}
		if (platform_residency(r->fd, r->opt->size, &res) == -1) {
			why = errno;
			step = "mincore";
			res = -1;
			break;
		}
		if (res <= WARM_LIMIT)
			break;
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	if (res >= 0 && res <= WARM_LIMIT && r->loop_backing != NULL &&
	    r->loop_dio != 1 && drop_backing(r, p, ph) == -1)
		return -1;
	ph->drop_seconds += time_elapsed(t0, time_now());
	ph->resident = res;
	if (r->memfs != NULL) {
		/* Said once, at the start of the run. */
		ph->cache = CSTATE_WARM;
	} else if (res > WARM_LIMIT) {
		ph->cache = CSTATE_WARM;
		warn_run(r->opt, "%.0f%% of the file is still cached before "
		    "phase %s; marked warm", 100 * res, p->name);
	} else if (res < 0) {
		ph->cache = CSTATE_WARM;
		warn_run(r->opt, "cannot check that the cache was dropped "
		    "before phase %s (%s: %s); marked warm", p->name, step,
		    strerror(why));
	}
	return 0;
}

/*
 * --cache=global: write every dirty page back and drop the whole
 * system's clean pages, dentries and inodes, untimed, counted in the
 * phase's drop time.  A file phase has no file to check, so its state
 * says only that the drop was made; a block phase's residency is still
 * checked by drop_cache() after.
 */
int
drop_all(struct runner *r, const struct phase *p, struct phase_result *ph)
{
	bn_time		 t0 = time_now();
	char		 detail[256];
	const char	*what = "";
	int		 e;

	if (platform_drop_all_check(&what) == -1 || platform_drop_all() ==
	    -1) {
		e = errno;
		snprintf(detail, sizeof(detail), "%s: drop every cache: %s",
		    what, strerror(e));
		return run_fail(r, p->name, "drop every cache", -1, e, detail);
	}
	ph->drop_seconds += time_elapsed(t0, time_now());
	/* A memory file system's files stay, whatever the drop does. */
	if (p->flags & PHASE_META)
		ph->cache = platform_memory_fs(r->opt->dir) != NULL ?
		    CSTATE_WARM : CSTATE_DROPPED;
	return 0;
}

/*
 * A run on a target that holds data before it (--device, a file measured
 * in place) starts with none of it cached, as a new file does, whatever
 * the cache mode: otherwise a run (a sweep's point, a repeat) would find
 * the pages an earlier one left, and a write below the page size would
 * not read them.  Checked: a target still cached is said.
 */
void
drop_target(struct runner *r)
{
	double	res = -1;
	int	tries;

	if (r->target == NULL || r->fd == -1 || r->memfs != NULL)
		return;
	for (tries = 0; tries < 2; tries++) {
		if (platform_drop_cache(r->fd) == -1 ||
		    platform_residency(r->fd, r->opt->size, &res) == -1) {
			res = -1;
			break;
		}
		if (res <= WARM_LIMIT)
			break;
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	if (res > WARM_LIMIT)
		warn_run(r->opt, "%.0f%% of %s is still cached at the start of "
		    "the run, after a drop: its first phase finds it cached",
		    100 * res, r->opt->device);
	else if (res < 0)
		warn_run(r->opt, "cannot drop or check the cache of %s at the "
		    "start of the run: %s", r->opt->device, strerror(errno));
}

/* The cache state a phase starts in, before any drop. */
enum cache_state
first_state(const struct options *opt, const struct phase *p, int direct)
{
	if (opt->cache == CACHE_MODE_KEEP)
		return CSTATE_KEEP;
	if (p->flags & PHASE_META)
		return CSTATE_UNDROPPED;
	return direct ? CSTATE_DIRECT : CSTATE_COLD;
}


/*
 * Find what under the test file keeps data in memory whatever the drops
 * do: a memory file system (said once), or a loop device whose backing
 * file the drops must reach too.
 */
void
target_memory(struct runner *r)
{
	const char	*dir = r->target != NULL ? r->target->dir : r->opt->dir;

	if ((r->target == NULL || r->target->kind == TARGET_IN_PLACE) &&
	    (r->memfs = platform_memory_fs(dir)) != NULL) {
		if (!memfs_said && r->opt->cache != CACHE_MODE_KEEP)
			warn_run(r->opt, "%s is on %s, a memory file system: "
			    "every phase reads and writes memory, not a disk; "
			    "the reading phases are marked warm", dir,
			    r->memfs);
		memfs_said = 1;
		return;
	}
	if (platform_loop_info(r->io_dev, &r->loop_backing, &r->loop_dio,
	    r->loop_name, sizeof(r->loop_name)) == -1)
		r->loop_backing = NULL;
}

