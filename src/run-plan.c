/*
 * Before a run: whether it prefills the file, what it plans to write,
 * each repeat's seed, and the checks of the target before any file is
 * made.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "options.h"
#include "phase.h"
#include "platform.h"
#include "run.h"

int
run_prefills(unsigned phases)
{
	unsigned	fillers = phase_flag_mask(PHASE_FILLS);
	unsigned	meta = phase_flag_mask(PHASE_META);

	return (phases & fillers) == 0 && (phases & ~fillers & ~meta) != 0;
}

uint64_t
run_planned_bytes(const struct options *o, int *partial)
{
	const struct phase	*p;
	uint64_t		 one = 0;
	int			 i;

	*partial = 0;
	if (run_prefills(o->phases))
		one += o->size;
	for (i = 0; i < PH_COUNT; i++) {
		if (!(o->phases & (1u << i)))
			continue;
		p = phase_table[i];
		if (!(p->flags & PHASE_WHOLE)) {
			if (p->flags & PHASE_WRITES)
				*partial = 1;
			continue;
		}
		if (p->flags & PHASE_META)
			one += o->files_n * ((o->files_min + o->files_max) / 2);
		else
			one += o->size;
	}
	return one * (uint64_t)(o->jobs > 1 ? o->jobs : 1);
}

uint64_t
run_seed(uint64_t base, int index)
{
	uint64_t	z;

	if (index == 0)
		return base;
	/* splitmix64's finalizer over the base and the index. */
	z = base + (uint64_t)index * UINT64_C(0x9E3779B97F4A7C15);
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	z ^= z >> 31;
	return z & ((UINT64_C(1) << 53) - 1);
}

static enum preflight	system_fault(char **, const char *, ...)
			    __attribute__((format(printf, 2, 3)));

/* A fault of the system for run_preflight(): the cause, and say so. */
static enum preflight
system_fault(char **cause, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	verrorf(cause, fmt, ap);
	va_end(ap);
	return PREFLIGHT_SYSTEM;
}

/* -d names a device: refused, with the way to name one. */
static enum preflight
dir_is_device(const struct stat *st, const char *dir, char **cause)
{
	errorf(cause, "-d %s: a %s device, not a directory (--device PATH "
	    "runs on a block device, overwriting it)", dir,
	    S_ISBLK(st->st_mode) ? "block" : "character");
	return PREFLIGHT_OPTIONS;
}

int
run_space_check(const struct options *opt, const char *when, char **cause)
{
	struct statvfs	vfs;
	uint64_t	avail, need;

	if (opt->no_space_check || opt->device != NULL ||
	    statvfs(opt->dir, &vfs) == -1)
		return 0;
	avail = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
	need = opt->size * (uint64_t)(opt->jobs > 1 ? opt->jobs : 1);
	/* Only the file creation phases: no test file. */
	if ((opt->phases & ~phase_flag_mask(PHASE_META)) == 0 || avail >= need)
		return 0;
	return errorf(cause, "%s: the %s %llu MiB but %s has %llu MiB free "
	    "(--no-space-check tries anyway)", when != NULL ? when :
	    "invalid value for -s, --size", opt->jobs > 1 ? "files need" :
	    "file needs", (unsigned long long)(need >> 20), opt->dir,
	    (unsigned long long)(avail >> 20));
}

enum preflight
run_preflight(const struct options *opt, char **cause)
{
	struct stat	st;
	struct statvfs	vfs;
	size_t		mem_align, io_align;
	const char	*target = opt->device != NULL ? opt->device : opt->dir;
	const char	*what;

	/* A device's size is its bound (checked when it was claimed). */
	if (opt->device != NULL)
		goto direct;
	if (stat(opt->dir, &st) == -1)
		return system_fault(cause, "%s: %s", opt->dir,
		    strerror(errno));
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))
		return dir_is_device(&st, opt->dir, cause);
	if (!S_ISDIR(st.st_mode))
		return system_fault(cause, "%s: %s", opt->dir,
		    strerror(ENOTDIR));
	if (access(opt->dir, W_OK | X_OK) == -1)
		return system_fault(cause, "%s: %s", opt->dir,
		    strerror(errno));
	if (statvfs(opt->dir, &vfs) == 0) {
		if (vfs.f_flag & ST_RDONLY)
			return system_fault(cause, "%s: %s", opt->dir,
			    strerror(EROFS));
		if (run_space_check(opt, NULL, cause) == -1)
			return PREFLIGHT_OPTIONS;
	}
direct:
	if (opt->cache == CACHE_MODE_GLOBAL &&
	    platform_drop_all_check(&what) == -1) {
		errorf(cause, "invalid value for --cache: global: %s: %s "
		    "(dropping every cache needs root on Linux)", what,
		    strerror(errno));
		return PREFLIGHT_OPTIONS;
	}
	if (opt->direct) {
		if (platform_odirect_flag() == 0) {
			errorf(cause, "--direct: built without O_DIRECT on "
			    "this system");
			return PREFLIGHT_OPTIONS;
		}
		if (platform_direct_align(target, &mem_align, &io_align) ==
		    -1) {
			errorf(cause, "--direct: cannot find the alignment for "
			    "%s: %s", target, strerror(errno));
			return PREFLIGHT_OPTIONS;
		}
		if (opt->chunk % io_align != 0) {
			errorf(cause, "--direct: a chunk of %zu bytes is not a "
			    "multiple of the %zu-byte alignment that O_DIRECT "
			    "needs on %s", opt->chunk, io_align, target);
			return PREFLIGHT_OPTIONS;
		}
	}
	return PREFLIGHT_OK;
}
