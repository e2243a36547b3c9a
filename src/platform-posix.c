/*
 * The platform layer on other POSIX systems (the BSDs, macOS): what POSIX
 * offers, and honest "unknown" for the rest.
 */
#include <sys/mman.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"

int
platform_odirect_flag(void)
{
#ifdef O_DIRECT
	return O_DIRECT;
#else
	return 0;		/* Built without O_DIRECT. */
#endif
}

int
platform_direct_align(const char *path, size_t *mem_align, size_t *io_align)
{
	(void)path;
	if (platform_odirect_flag() == 0) {
		errno = ENOSYS;
		return -1;
	}
	*mem_align = *io_align = 4096;
	return 0;
}

int
platform_drop_cache(int fd)
{
	if (fsync(fd) == -1)
		return -1;
#ifdef POSIX_FADV_DONTNEED
	{
		int	e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

		if (e != 0) {
			errno = e;
			return -1;
		}
	}
	return 0;
#else
	errno = ENOSYS;
	return -1;
#endif
}

int
platform_drop_all_check(const char **what)
{
	*what = "the system's caches";
	errno = ENOSYS;
	return -1;
}

int
platform_drop_all(void)
{
	errno = ENOSYS;
	return -1;
}

int
platform_drop_range(int fd, uint64_t off, uint64_t len, int dirty)
{
#ifdef POSIX_FADV_DONTNEED
	int	e;

	platform_page_span(&off, &len);
	if (dirty && fdatasync(fd) == -1)
		return -1;
	e = posix_fadvise(fd, (off_t)off, (off_t)len,
	    POSIX_FADV_DONTNEED);

	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
#else
	(void)fd;
	(void)off;
	(void)len;
	(void)dirty;
	errno = ENOSYS;
	return -1;
#endif
}

int
platform_advise_random(int fd)
{
#ifdef POSIX_FADV_RANDOM
	int	e = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);

	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
#else
	(void)fd;
	errno = ENOSYS;
	return -1;
#endif
}

int
platform_loop_info(dev_t dev, char **backing, int *dio, char *name,
    size_t namelen)
{
	(void)dev;
	if (namelen > 0)
		name[0] = '\0';
	*backing = NULL;
	*dio = -1;
	errno = ENOSYS;
	return -1;
}

const char *
platform_memory_fs(const char *path)
{
	(void)path;
	return NULL;
}

const char *
platform_pseudo_fs(int fd)
{
	(void)fd;
	return NULL;		/* Not known here: the open itself will tell. */
}

int
platform_residency(int fd, uint64_t size, double *fraction)
{
	size_t	 page = (size_t)sysconf(_SC_PAGESIZE), i, n;
	char	*vec;
	void	*m;
	uint64_t resident = 0;

	if (size == 0) {
		*fraction = 0;
		return 0;
	}
	if (size > (uint64_t)1 << 30) {
		errno = EFBIG;		/* Not sampled on this platform. */
		return -1;
	}
	n = ((size_t)size + page - 1) / page;
	if ((vec = malloc(n)) == NULL)
		return -1;
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED || mincore(m, (size_t)size, (void *)vec) == -1) {
		if (m != MAP_FAILED)
			munmap(m, (size_t)size);
		free(vec);
		return -1;
	}
	for (i = 0; i < n; i++)
		resident += vec[i] & 1;
	munmap(m, (size_t)size);
	free(vec);
	*fraction = (double)resident / (double)n;
	return 0;
}

int
platform_fd_path(int fd, char *buf, size_t len)
{
	(void)fd;
	(void)buf;
	(void)len;
	errno = ENOSYS;
	return -1;
}

/*
 * Without Linux's PR_SET_PDEATHSIG a thread of the child looks at
 * getppid() every 50 ms and sends the child the signal once the parent
 * that forked it is gone (a worker killed outright would otherwise leave
 * its seekers seeking).  The thread blocks every signal, so that they
 * all still go to the child's own thread and interrupt its calls.
 */
static pid_t	watch_parent;
static int	watch_signal;

static void *
watch_main(void *arg)
{
	struct timespec	tick = { 0, 50000000 };

	(void)arg;
	while (getppid() == watch_parent)
		nanosleep(&tick, NULL);
	kill(getpid(), watch_signal);
	return NULL;
}

void
platform_parent_death_signal(int sig)
{
	static pid_t	watcher_of;	/* A fork copies this, not the thread. */
	pthread_t	th;
	sigset_t	all, old;

	watch_signal = sig;
	if (watcher_of == getpid())
		return;
	watch_parent = getppid();
	sigfillset(&all);
	if (pthread_sigmask(SIG_SETMASK, &all, &old) != 0)
		return;
	if (pthread_create(&th, NULL, watch_main, NULL) == 0) {
		pthread_detach(th);
		watcher_of = getpid();
	}
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void
platform_die_with_parent(void)
{
	platform_parent_death_signal(SIGKILL);
}

int
platform_oom_victim_first(void)
{
	errno = ENOSYS;
	return -1;
}

int
platform_cpus_allowed(void)
{
	return platform_ncpu();
}

int
platform_cpu_ticks(uint64_t *busy, uint64_t *total)
{
	(void)busy;
	(void)total;
	errno = ENOSYS;
	return -1;
}

int
platform_dev_io(dev_t dev, uint64_t *rd, uint64_t *wr)
{
	(void)dev;
	(void)rd;
	(void)wr;
	errno = ENOSYS;
	return -1;
}

int
platform_mem_available(uint64_t *bytes)
{
	(void)bytes;
	errno = ENOSYS;
	return -1;
}

int
platform_cgroup_dir(int v2, char *dir, size_t len, char *name, size_t nlen)
{
	(void)v2;
	(void)dir;
	(void)len;
	(void)name;
	(void)nlen;
	errno = ENOSYS;
	return -1;
}

int
platform_cgroup_mem_limit(uint64_t *bytes)
{
	(void)bytes;
	errno = ENOSYS;
	return -1;
}

int
platform_cgroup_mem_room(uint64_t *bytes)
{
	(void)bytes;
	errno = ENOSYS;
	return -1;
}

int
platform_sync_fs(int fd)
{
	(void)fd;
	sync();
	return 0;
}

int
platform_lock_memory(void *p, size_t len)
{
	return mlock(p, len);
}

void *
platform_queue_map(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1,
	    0);
	return p == MAP_FAILED ? NULL : p;
}

size_t
platform_queue_align(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);	/* No portable huge pages. */
}

int
platform_claim_flag(void)
{
	return 0;	/* No portable way to open a device for oneself. */
}

int
platform_device_size(int fd, uint64_t *size)
{
	off_t	end = lseek(fd, 0, SEEK_END);

	if (end == -1 || lseek(fd, 0, SEEK_SET) == -1)
		return -1;
	*size = (uint64_t)end;
	return 0;
}

/* Held for the phase, each putc's own lock is a recursive one's re-entry. */
int
platform_stdio_own(FILE *f)
{
	flockfile(f);
	return 0;
}

void
platform_stdio_release(FILE *f, int owned)
{
	(void)owned;
	funlockfile(f);
}

void
platform_oom_kills(int64_t *cgroup, int64_t *machine)
{
	*cgroup = *machine = -1;
}

const char *
platform_dir_fixed(int fd)
{
	(void)fd;
	return NULL;
}
