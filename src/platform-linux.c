/*
 * The platform layer on Linux: O_DIRECT with statx(2) alignment, page
 * cache control and residency, /proc/stat and /proc/diskstats.
 */
/* For sync_file_range(2). */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include <linux/fs.h>
#include <linux/loop.h>
#include <linux/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "text.h"

/* glibc shows O_DIRECT only with _GNU_SOURCE; its value is always here. */
#if !defined(O_DIRECT) && defined(__O_DIRECT)
#define O_DIRECT __O_DIRECT
#endif

int
platform_odirect_flag(void)
{
	return O_DIRECT;
}

/* Read one unsigned number from a sysfs or procfs file. */
static int
read_u64(const char *path, uint64_t *v)
{
	FILE	*f = fopen(path, "re");
	int	 r;

	if (f == NULL)
		return -1;
	r = fscanf(f, "%" SCNu64, v) == 1 ? 0 : -1;
	fclose(f);
	return r;
}

/*
 * The logical block size of the device holding path (or of path, a block
 * device), from sysfs.
 */
static size_t
logical_block_size(const char *path)
{
	struct stat	st;
	char		p[128];
	uint64_t	v;
	dev_t		dev;

	if (stat(path, &st) == -1)
		return 0;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/logical_block_size",
	    major(dev), minor(dev));
	if (read_u64(p, &v) == 0 && v > 0)
		return (size_t)v;
	/* A partition: its queue is its parent's. */
	snprintf(p, sizeof(p),
	    "/sys/dev/block/%u:%u/../queue/logical_block_size",
	    major(dev), minor(dev));
	if (read_u64(p, &v) == 0 && v > 0)
		return (size_t)v;
	return 0;
}

int
platform_direct_align(const char *path, size_t *mem_align, size_t *io_align)
{
	struct statx	stx;
	size_t		lbs;

	memset(&stx, 0, sizeof(stx));
	if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0) {
		*mem_align = stx.stx_dio_mem_align;
		*io_align = stx.stx_dio_offset_align;
		return 0;
	}
	lbs = logical_block_size(path);
	*mem_align = *io_align = lbs > 0 ? lbs : 4096;
	return 0;
}

int
platform_drop_cache(int fd)
{
	struct stat	st;
	int		e;

	if (fsync(fd) == -1)
		return -1;
	if ((e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		errno = e;
		return -1;
	}
	/*
	 * A block device: its buffer cache too (written back first).  Only
	 * root may; the fadvise above has done the same for its pages.
	 */
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
	    ioctl(fd, BLKFLSBUF, 0) == -1 && errno != EACCES &&
	    errno != EPERM)
		return -1;
	return 0;
}

#define DROP_CACHES	"/proc/sys/vm/drop_caches"

int
platform_drop_all_check(const char **what)
{
	int	fd;

	*what = DROP_CACHES;
	if ((fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	close(fd);
	return 0;
}

int
platform_drop_all(void)
{
	ssize_t	n;
	int	fd, e;

	sync();
	if ((fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	if ((n = write(fd, "3\n", 2)) != 2) {
		e = n == -1 ? errno : EIO;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int
platform_drop_range(int fd, uint64_t off, uint64_t len, int dirty)
{
	int	e;

	platform_page_span(&off, &len);
	if (dirty && sync_file_range(fd, (off_t)off, (off_t)len,
	    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
	    SYNC_FILE_RANGE_WAIT_AFTER) == -1)
		return -1;
	if ((e = posix_fadvise(fd, (off_t)off, (off_t)len,
	    POSIX_FADV_DONTNEED)) != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * glibc locks a stream per call once a process has had a second thread;
 * FSETLOCKING_BYCALLER turns that off for this stream.  musl's
 * __fsetlocking does nothing, but its putc and getc skip the lock for the
 * thread that holds flockfile().
 *
 * BYCALLER only skips the lock: glibc's putc and getc still take their
 * "needs locking" way (its _IO_FLAGS2_NEED_LOCK, 128 in _flags2 from 2.27
 * to this day, set on every stream once the process has had a second
 * thread, as under MPI), 25 instructions a byte for putc against 20 (a
 * plain run's), 0.71 of its rate.  That mark only chooses between two
 * ways to the same unlocked code when the caller holds the stream, so it
 * is cleared while the phase owns the stream and put back before
 * fclose: every run's putc and getc are a one-threaded process's.
 */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 27)
#define GLIBC_NEED_LOCK	128
#endif

int
platform_stdio_own(FILE *f)
{
#ifdef __GLIBC__
	int	owned = 0;

	(void)__fsetlocking(f, FSETLOCKING_BYCALLER);
#ifdef GLIBC_NEED_LOCK
	if (f->_flags2 & GLIBC_NEED_LOCK) {
		f->_flags2 &= ~GLIBC_NEED_LOCK;
		owned = GLIBC_NEED_LOCK;
	}
#endif
	return owned;
#else
	flockfile(f);
	return 0;
#endif
}

void
platform_stdio_release(FILE *f, int owned)
{
#ifdef __GLIBC__
#ifdef GLIBC_NEED_LOCK
	f->_flags2 |= owned & GLIBC_NEED_LOCK;
#else
	(void)owned;
#endif
	(void)__fsetlocking(f, FSETLOCKING_INTERNAL);
#else
	(void)owned;
	funlockfile(f);
#endif
}

int
platform_advise_random(int fd)
{
	int	e;

	if ((e = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)) != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

int
platform_loop_info(dev_t dev, char **backing, int *dio, char *name,
    size_t namelen)
{
	char	 path[128], *real, *s, *nl;
	FILE	*f;
	size_t	 len;
	uint64_t v;

	*backing = NULL;
	*dio = -1;
	if (major(dev) == 0) {
		errno = ENODEV;
		return -1;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
	    minor(dev));
	if ((real = realpath(path, NULL)) == NULL)
		return -1;
	/* A partition of a loop device: the loop directory is its parent's. */
	len = strlen(real) + 32;
	if ((s = malloc(len)) == NULL) {
		free(real);
		return -1;
	}
	snprintf(s, len, "%s/loop/backing_file", real);
	if (access(s, R_OK) == -1 && (nl = strrchr(real, '/')) != NULL) {
		*nl = '\0';
		snprintf(s, len, "%s/loop/backing_file", real);
	}
	f = fopen(s, "re");
	if (f == NULL) {
		free(s);
		free(real);
		errno = ENODEV;
		return -1;
	}
	*backing = malloc(4097);
	if (*backing == NULL || fgets(*backing, 4097, f) == NULL) {
		fclose(f);
		free(*backing);
		*backing = NULL;
		free(s);
		free(real);
		errno = ENODEV;
		return -1;
	}
	fclose(f);
	if ((nl = strchr(*backing, '\n')) != NULL)
		*nl = '\0';
	nl = strrchr(real, '/');
	snprintf(name, namelen, "%s", nl != NULL ? nl + 1 : real);
	snprintf(s, len, "%s/loop/dio", real);
	if (read_u64(s, &v) == 0)
		*dio = v != 0;
	free(s);
	free(real);
	return 0;
}

const char *
platform_memory_fs(const char *path)
{
	struct statfs	sf;

	if (statfs(path, &sf) == -1)
		return NULL;
	switch ((unsigned long)sf.f_type) {
	case 0x01021994ul:
		return "tmpfs";
	case 0x858458f6ul:
		return "ramfs";
	case 0x958458f6ul:
		return "hugetlbfs";
	}
	return NULL;
}

const char *
platform_pseudo_fs(int fd)
{
	struct statfs	sf;

	if (fstatfs(fd, &sf) == -1)
		return NULL;
	switch ((unsigned long)sf.f_type) {
	case 0x9fa0ul:
		return "proc";
	case 0x62656572ul:
		return "sysfs";
	case 0x64626720ul:
		return "debugfs";
	case 0x74726163ul:
		return "tracefs";
	case 0x73636673ul:
		return "securityfs";
	case 0x27e0ebul:
		return "cgroup";
	case 0x63677270ul:
		return "cgroup2";
	case 0x62656570ul:
		return "configfs";
	case 0xcafe4a11ul:
		return "bpf";
	case 0xde5e81e4ul:
		return "efivarfs";
	case 0x6165676cul:
		return "pstore";
	}
	return NULL;
}

/* Count resident pages in [off, off + len) of fd. */
static int
count_resident(int fd, uint64_t off, size_t len, size_t page,
    unsigned char *vec, uint64_t *resident, uint64_t *pages)
{
	void	*m;
	size_t	 i, n = (len + page - 1) / page;

	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (m == MAP_FAILED)
		return -1;
	if (mincore(m, len, vec) == -1) {
		munmap(m, len);
		return -1;
	}
	for (i = 0; i < n; i++)
		*resident += vec[i] & 1;
	*pages += n;
	munmap(m, len);
	return 0;
}

/*
 * Residency by mincore(2) over an mmap of the file, 16 MiB at a time so
 * that the memory used does not grow with the file: all of it up to
 * 1 GiB, else 64 evenly spread 16 MiB windows.
 */
int
platform_residency(int fd, uint64_t size, double *fraction)
{
	const uint64_t	 window = 16u << 20;
	const int	 windows = 64;
	size_t		 page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char	*vec;
	uint64_t	 resident = 0, pages = 0, off, step, len;
	int		 i, r = 0;

	if (size == 0) {
		*fraction = 0;
		return 0;
	}
	if ((vec = malloc((size_t)(window / page))) == NULL)
		return -1;
	if (size <= (uint64_t)1 << 30) {
		for (off = 0; off < size && r == 0; off += window) {
			len = size - off < window ? size - off : window;
			r = count_resident(fd, off, (size_t)len, page, vec,
			    &resident, &pages);
		}
	} else {
		step = (size - window) / (uint64_t)(windows - 1);
		step -= step % page;
		for (i = 0; i < windows && r == 0; i++) {
			off = (uint64_t)i * step;
			r = count_resident(fd, off, (size_t)window, page, vec,
			    &resident, &pages);
		}
	}
	free(vec);
	if (r == -1)
		return -1;
	*fraction = pages ? (double)resident / (double)pages : 0;
	return 0;
}

int
platform_fd_path(int fd, char *buf, size_t len)
{
	char	link[64];
	ssize_t	n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (len == 0 || (n = readlink(link, buf, len - 1)) == -1)
		return -1;
	if ((size_t)n == len - 1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

void
platform_die_with_parent(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

void
platform_parent_death_signal(int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
}

int
platform_oom_victim_first(void)
{
	int	fd, rv = 0;

	if ((fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	if (write(fd, "1000\n", 5) != 5)
		rv = -1;
	close(fd);
	return rv;
}

int
platform_cpus_allowed(void)
{
	cpu_set_t	set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == -1)
		return -1;
	return CPU_COUNT(&set);
}

int
platform_cpu_ticks(uint64_t *busy, uint64_t *total)
{
	FILE		*f = fopen("/proc/stat", "re");
	uint64_t	 v[8] = { 0 };
	int		 n;

	if (f == NULL)
		return -1;
	/* user nice system idle iowait irq softirq steal */
	n = fscanf(f, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	    " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1],
	    &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4) {
		errno = EINVAL;
		return -1;
	}
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*total = *busy + v[3] + v[4];
	return 0;
}

int
platform_claim_flag(void)
{
	return O_EXCL;
}

int
platform_device_size(int fd, uint64_t *size)
{
	return ioctl(fd, BLKGETSIZE64, size) == -1 ? -1 : 0;
}

int
platform_dev_io(dev_t dev, uint64_t *rd, uint64_t *wr)
{
	FILE		*f;
	char		 line[512], name[64];
	unsigned	 maj, mnr;
	uint64_t	 rios, rmerge, rsect, rticks, wios, wmerge, wsect;
	int		 found = 0;

	if (major(dev) == 0) {
		errno = ENODEV;		/* tmpfs, btrfs subvolumes, ... */
		return -1;
	}
	if ((f = fopen("/proc/diskstats", "re")) == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64
		    " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &maj, &mnr,
		    name, &rios, &rmerge, &rsect, &rticks, &wios, &wmerge,
		    &wsect) == 10 && maj == major(dev) && mnr == minor(dev)) {
			/* Sectors here are always 512 bytes. */
			*rd = rsect * 512;
			*wr = wsect * 512;
			found = 1;
		}
	}
	fclose(f);
	if (!found) {
		errno = ENODEV;
		return -1;
	}
	return 0;
}

int
platform_mem_available(uint64_t *bytes)
{
	FILE			*f = fopen("/proc/meminfo", "re");
	char			 line[256];
	unsigned long long	 kb;
	int			 found = 0;

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1 &&
		    kb <= UINT64_MAX / 1024) {
			*bytes = (uint64_t)kb * 1024;
			found = 1;
		}
	fclose(f);
	if (!found) {
		errno = ENOSYS;		/* Before Linux 3.14. */
		return -1;
	}
	return 0;
}

/* A v1 limit this high (the kernel's page counter maximum) is no limit. */
#define CGROUP_NO_LIMIT	(UINT64_C(1) << 62)

/* Whether the comma-separated list has the word. */
static int
has_word(const char *list, const char *word)
{
	size_t		 n = strlen(word);
	const char	*s;

	for (s = list; (s = strstr(s, word)) != NULL; s += n)
		if ((s == list || s[-1] == ',') && (s[n] == ',' || s[n] == '\0'))
			return 1;
	return 0;
}

/*
 * Where the cgroup hierarchy is mounted and which of its cgroups the
 * mount shows at its top: v2 (cgroup2), or v1 with the memory controller.
 */
static int
cgroup_mount(int v2, char *mnt, size_t mlen, char *root, size_t rlen)
{
	FILE	*f = fopen("/proc/self/mountinfo", "re");
	char	 line[4096], r[1024], m[1024], type[64], super[1024], *dash;
	int	 found = 0;

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%*s %*s %*s %1023s %1023s", r, m) != 2 ||
		    (dash = strstr(line, " - ")) == NULL ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2)
			continue;
		if (v2 ? strcmp(type, "cgroup2") == 0 :
		    strcmp(type, "cgroup") == 0 && has_word(super, "memory")) {
			snprintf(mnt, mlen, "%s", m);
			snprintf(root, rlen, "%s", strcmp(r, "/") == 0 ? "" : r);
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

/* This process's cgroup in the v2 hierarchy, or the v1 memory one. */
static int
cgroup_path(int v2, char *path, size_t len)
{
	FILE	*f = fopen("/proc/self/cgroup", "re");
	char	 line[4096], *c, *p;
	int	 found = 0;

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((c = strchr(line, ':')) == NULL ||
		    (p = strchr(c + 1, ':')) == NULL)
			continue;
		*p++ = '\0';
		*c = '\0';
		if (v2 ? strcmp(line, "0") == 0 && c[1] == '\0' :
		    has_word(c + 1, "memory")) {
			snprintf(path, len, "%s", p);
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

/* The first number in a cgroup file: 0 with *v, -1 ("max", unreadable). */
static int
cgroup_number(const char *dir, const char *name, uint64_t *v)
{
	char	 file[3300], line[64];
	FILE	*f;
	int	 rv = -1;

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	if ((f = fopen(file, "re")) == NULL)
		return -1;
	if (fgets(line, sizeof(line), f) != NULL &&
	    sscanf(line, "%" SCNu64, v) == 1)
		rv = 0;
	fclose(f);
	return rv;
}

/*
 * The smallest limit of one hierarchy, from this process's cgroup up to
 * the mount's top: 0 with *limit (UINT64_MAX when none), -1 unreadable.
 * With room, also the smallest headroom, a limit less the cgroup's usage
 * (v2 memory.current, v1 memory.usage_in_bytes), at each level with a
 * limit (UINT64_MAX when none).
 */
static int
cgroup_limit(int v2, uint64_t *limit, uint64_t *room)
{
	char		 mnt[1024], root[1024], cg[1024], dir[3200], file[3300];
	char		 line[64], *slash;
	FILE		*f;
	size_t		 n, top;
	uint64_t	 v, used;
	int		 seen = 0;

	if (cgroup_mount(v2, mnt, sizeof(mnt), root, sizeof(root)) == -1 ||
	    cgroup_path(v2, cg, sizeof(cg)) == -1)
		return -1;
	n = strlen(root);
	if (strncmp(cg, root, n) != 0 || (cg[n] != '/' && cg[n] != '\0'))
		return -1;		/* Outside what the mount shows. */
	snprintf(dir, sizeof(dir), "%s%s", mnt, cg + n);
	top = strlen(mnt);
	*limit = UINT64_MAX;
	if (room != NULL)
		*room = UINT64_MAX;
	for (;;) {
		n = strlen(dir);
		while (n > top && dir[n - 1] == '/')
			dir[--n] = '\0';
		snprintf(file, sizeof(file), "%s/%s", dir, v2 ? "memory.max" :
		    "memory.limit_in_bytes");
		if ((f = fopen(file, "re")) != NULL) {
			if (fgets(line, sizeof(line), f) != NULL) {
				seen = 1;
				if (sscanf(line, "%" SCNu64, &v) == 1 &&
				    v < CGROUP_NO_LIMIT && v < *limit)
					*limit = v;
				if (room != NULL &&
				    sscanf(line, "%" SCNu64, &v) == 1 &&
				    v < CGROUP_NO_LIMIT &&
				    cgroup_number(dir, v2 ? "memory.current" :
				    "memory.usage_in_bytes", &used) == 0 &&
				    (used < v ? v - used : 0) < *room)
					*room = used < v ? v - used : 0;
			}
			fclose(f);
		}
		if (n <= top || (slash = strrchr(dir, '/')) == NULL ||
		    (size_t)(slash - dir) < top)
			break;
		*slash = '\0';
	}
	return seen ? 0 : -1;
}

int
platform_cgroup_dir(int v2, char *dir, size_t len, char *name, size_t nlen)
{
	char	mnt[1024], root[1024], cg[1024];
	size_t	n;

	if (cgroup_mount(v2, mnt, sizeof(mnt), root, sizeof(root)) == -1 ||
	    cgroup_path(v2, cg, sizeof(cg)) == -1)
		return -1;
	n = strlen(root);
	if (strncmp(cg, root, n) != 0 || (cg[n] != '/' && cg[n] != '\0'))
		return -1;		/* Outside what the mount shows. */
	snprintf(dir, len, "%.1000s%.1000s", mnt, cg + n);
	snprintf(name, nlen, "%s", cg);
	return 0;
}

/*
 * The tighter of the v2 and v1 hierarchies' limits, or with room set of
 * what they leave (limit less usage): 0 with *bytes, 1 when none limits,
 * -1 when neither can be read.
 */
static int
cgroup_tighter(int room, uint64_t *bytes)
{
	uint64_t	l1 = UINT64_MAX, l2 = UINT64_MAX;
	uint64_t	m1 = UINT64_MAX, m2 = UINT64_MAX;
	int		r1, r2;

	r2 = cgroup_limit(1, &l2, room ? &m2 : NULL);
	r1 = cgroup_limit(0, &l1, room ? &m1 : NULL);
	if (r1 == -1 && r2 == -1)
		return -1;
	if (!room) {
		m1 = l1;
		m2 = l2;
	}
	if (r1 == -1 || (r2 == 0 && m2 < m1))
		m1 = m2;
	if (m1 == UINT64_MAX)
		return 1;
	*bytes = m1;
	return 0;
}

int
platform_cgroup_mem_limit(uint64_t *bytes)
{
	return cgroup_tighter(0, bytes);
}

int
platform_cgroup_mem_room(uint64_t *bytes)
{
	return cgroup_tighter(1, bytes);
}

int
platform_sync_fs(int fd)
{
	return syncfs(fd);
}

int
platform_lock_memory(void *p, size_t len)
{
	return (int)syscall(SYS_mlock, p, len);
}

void *
platform_queue_map(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1,
	    0);
	if (p == MAP_FAILED)
		return NULL;
	if (madvise(p, len, MADV_DONTFORK) == -1) {
		munmap(p, len);
		return NULL;
	}
	/* Advice: without huge pages the buffers still work. */
	(void)madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* The PMD's huge page (2 MiB on x86-64); a page where THP is off. */
size_t
platform_queue_align(void)
{
	FILE		*f;
	char		 line[64] = "";
	uint64_t	 n;

	if ((f = fopen("/sys/kernel/mm/transparent_hugepage/enabled",
	    "re")) != NULL) {
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	if (strstr(line, "[never]") != NULL || read_u64(
	    "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", &n) == -1 ||
	    n == 0 || (n & (n - 1)) != 0 || n > (1u << 30))
		return (size_t)sysconf(_SC_PAGESIZE);
	return (size_t)n;
}

/* The value of the line "KEY N" in FILE, or -1. */
static int64_t
keyed_count(const char *file, const char *key)
{
	FILE		*f;
	char		 line[256];
	size_t		 n = strlen(key);
	long long	 v = -1;

	if ((f = fopen(file, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, n) == 0 && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

void
platform_oom_kills(int64_t *cgroup, int64_t *machine)
{
	char	dir[1024], name[1024], file[1100];

	*cgroup = -1;
	if (platform_cgroup_dir(1, dir, sizeof(dir), name, sizeof(name)) == 0) {
		snprintf(file, sizeof(file), "%s/memory.events", dir);
		*cgroup = keyed_count(file, "oom_kill");
	}
	if (*cgroup == -1 && platform_cgroup_dir(0, dir, sizeof(dir), name,
	    sizeof(name)) == 0) {
		snprintf(file, sizeof(file), "%s/memory.oom_control", dir);
		*cgroup = keyed_count(file, "oom_kill");
	}
	*machine = keyed_count("/proc/vmstat", "oom_kill");
}

const char *
platform_dir_fixed(int fd)
{
	int	flags = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == -1)
		return NULL;
	if (flags & FS_IMMUTABLE_FL)
		return "immutable";
	if (flags & FS_APPEND_FL)
		return "append-only";
	return NULL;
}
