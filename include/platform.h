/*
 * The platform layer: everything that differs between Linux and other
 * POSIX systems.  platform-linux.c and platform-posix.c each implement all
 * of it but the portable part in platform.c; a feature a system lacks returns -1 with errno ENOSYS (or a
 * documented fallback), never a made-up value.
 */
#ifndef BONNIE_PLATFORM_H
#define BONNIE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Number of online CPUs, or -1 if unknown, and physical RAM in bytes, or 0
 * if unknown.  These two are portable (platform.c), not per system.
 */
int	platform_ncpu(void);
uint64_t platform_ram(void);
/*
 * The CPUs this process may run on (its affinity: taskset, a cpuset, an
 * mpirun binding), or -1 if unknown; without a way to ask, platform_ncpu().
 */
int	platform_cpus_allowed(void);

/*
 * Make the calling thread the only user of stream f until
 * platform_stdio_release(), so that putc(3) and getc(3) on it take no
 * lock per byte in a process that has other threads (MPI starts some):
 * __fsetlocking(FSETLOCKING_BYCALLER) where the C library has it, else
 * flockfile(3) held for the whole time, which makes each call's own lock
 * the cheap one of a thread that holds it already.  Under glibc the
 * stream also takes the same way through putc and getc as in a process
 * with one thread.  Call release, with what own returned, before
 * fclose(3).
 */
int	platform_stdio_own(FILE *f);
void	platform_stdio_release(FILE *f, int owned);

/* The O_DIRECT open flag, or 0 where the system has none. */
int	platform_odirect_flag(void);
/*
 * The alignment O_DIRECT needs for buffers, offsets and lengths on the
 * file system holding path (a directory or a file), or on path itself
 * when it is a block device: statx STATX_DIOALIGN, else the device's
 * logical block size, else 4096.  Returns 0 or -1 (ENOSYS when
 * built without O_DIRECT).
 */
int	platform_direct_align(const char *path, size_t *mem_align,
	    size_t *io_align);

/*
 * Write back and drop the cached pages of the open file fd (for a block
 * device also its buffer cache, BLKFLSBUF on Linux).  Returns 0 or -1
 * with errno.
 */
int	platform_drop_cache(int fd);
/*
 * Drop the cached pages holding [off, off + len) of fd, the whole pages
 * even when the range is smaller than one; when dirty is set, write that
 * range back first and wait for it (else dirty pages stay).  0 or -1 with
 * errno.
 */
int	platform_drop_range(int fd, uint64_t off, uint64_t len, int dirty);
/* Widen a byte range to the whole pages holding it (platform.c). */
void	platform_page_span(uint64_t *off, uint64_t *len);
/*
 * The whole system's caches (--cache=global): platform_drop_all_check()
 * says whether this process may drop them, 0, or -1 with errno and the
 * path it could not open in *what (ENOSYS where the system has no such
 * control); platform_drop_all() writes every dirty page back (sync(2))
 * and then drops the clean pages, dentries and inodes the kernel can
 * free (Linux: "3" into /proc/sys/vm/drop_caches).  0 or -1 with errno.
 */
int	platform_drop_all_check(const char **what);
int	platform_drop_all(void);
/* Tell the system fd is read at random: no read-ahead.  0 or -1. */
int	platform_advise_random(int fd);
/*
 * When the block device dev is a loop device (or a partition of one): 0,
 * with name set to the loop device's name ("loop3"), *backing its
 * backing file (a new string, to free) and *dio 1 when it uses direct
 * I/O on that file, 0 when not, -1 unknown.  -1 when dev is no loop
 * device or the system has none.
 */
int	platform_loop_info(dev_t dev, char **backing, int *dio, char *name,
	    size_t namelen);
/*
 * The name of the memory file system (tmpfs, ramfs, ...) holding path, or
 * NULL when it is not one or that is unknown.
 */
const char *platform_memory_fs(const char *path);
/*
 * The name of the kernel's interface file system (proc, sysfs, debugfs,
 * cgroup ...) that the directory fd is on, where no output file belongs,
 * or NULL when it is none or that is unknown.
 */
const char *platform_pseudo_fs(int fd);
/*
 * Whether the directory fd lets no name in it be replaced or removed (an
 * append-only or immutable directory: chattr +a, +i), so that an output's
 * temporary could not be renamed into place: "append-only" or
 * "immutable", or NULL (not so, or not known: every other system).
 */
const char *platform_dir_fixed(int fd);

/*
 * The fraction of the file's pages that are resident, sampled over at
 * most max_samples evenly spread windows.  Returns 0, or -1 with errno
 * (ENOSYS where mincore is missing).
 */
int	platform_residency(int fd, uint64_t size, double *fraction);

/*
 * The path an open descriptor names now (after any rename), from
 * /proc/self/fd on Linux.  Returns 0, or -1 (ENOSYS elsewhere).
 */
int	platform_fd_path(int fd, char *buf, size_t len);

/* Make a forked child die with its parent (Linux); no-op elsewhere. */
void	platform_die_with_parent(void);
/* The same with a signal of one's choice, so a handler can clean up. */
void	platform_parent_death_signal(int sig);
/*
 * Offer the calling process (a forked seeker or worker) to the OOM killer
 * ahead of the process that holds the run's results: Linux raises its
 * /proc/self/oom_score_adj to 1000, which needs no privilege.  0, or -1
 * (ENOSYS elsewhere, where the killer's choice is not known); a failure
 * only leaves the choice to the sizes, as before.
 */
int	platform_oom_victim_first(void);

/*
 * The memory the system reports as available for new work without
 * swapping, in bytes (Linux: MemAvailable in /proc/meminfo).  0, or -1
 * (ENOSYS elsewhere).
 */
int	platform_mem_available(uint64_t *bytes);
/*
 * The memory limit of the cgroup this process runs in, the smallest along
 * its ancestors (Linux: cgroup v2 memory.max, else v1
 * memory.limit_in_bytes, of the cgroup /proc/self/cgroup names): 0 with
 * *bytes set, 1 when no cgroup limits the memory, -1 when unknown
 * (ENOSYS elsewhere).
 */
int	platform_cgroup_mem_limit(uint64_t *bytes);
/*
 * The directory of this process's cgroup in the v2 hierarchy (v2 1) or
 * the v1 memory one (v2 0), and its path as /proc/self/cgroup names it:
 * 0, or -1 when there is none or it is outside what the mount shows.
 */
int	platform_cgroup_dir(int v2, char *dir, size_t len, char *name,
	    size_t nlen);
/*
 * The kernel's count of processes its OOM killer has killed: in this
 * process's memory cgroup (Linux: v2 memory.events, v1
 * memory.oom_control, "oom_kill") and in the machine (/proc/vmstat
 * "oom_kill"), each -1 when unknown; a process that died of SIGKILL while
 * one moved was the OOM killer's.
 */
void	platform_oom_kills(int64_t *cgroup, int64_t *machine);
/*
 * Whether one of those counts moved since before (cgroup, machine, as
 * platform_oom_kills() read them): 1 with which and from what to what in
 * why ("the memory cgroup's oom_kill 0 -> 1"), else 0.
 */
int	platform_oom_since(const int64_t *before, char *why, size_t len);
/*
 * The memory this process's cgroup may still take: the smallest of a
 * limit less the usage along its ancestors (Linux: memory.max less
 * memory.current, or v1 memory.limit_in_bytes less memory.usage_in_bytes):
 * 0 with *bytes set, 1 when no cgroup limits the memory, -1 when unknown
 * (ENOSYS elsewhere).
 */
int	platform_cgroup_mem_room(uint64_t *bytes);
/*
 * Lock [p, p + len) in memory, as mlock(2) (Linux: the system call
 * itself, which a sanitizer's interceptor would make a no-op).  0 or -1.
 */
int	platform_lock_memory(void *p, size_t len);
/*
 * The memory of a queue's buffers (queue_buffers()): len bytes, zeroed by
 * the kernel, that a fork neither copies nor leaves copy-on-write; NULL
 * with errno.  Linux: a private anonymous mapping kept out of children
 * (MADV_DONTFORK) and asked for in transparent huge pages (MADV_HUGEPAGE),
 * so that a buffer of a MiB is one physical segment or a few and goes to
 * the device as one request, where buffers of scattered pages are cut at
 * the queue's max_segments (254 pages for virtio-blk) and so split
 * depending on where the pages fell; elsewhere one shared anonymous
 * mapping, which the portable queue's worker processes share.  Freed with
 * munmap(2).  platform_queue_align(): the alignment that lets the kernel
 * use its huge pages there (a page where there are none).
 */
void	*platform_queue_map(size_t len);
size_t	 platform_queue_align(void);
/*
 * Write back the file system holding the open descriptor fd, so that it
 * settles what it frees late (syncfs(2); sync(2) elsewhere).  0 or -1.
 */
int	platform_sync_fs(int fd);

/*
 * Whole-machine CPU counters: busy and total jiffies over all cores, from
 * /proc/stat.  -1 with ENOSYS elsewhere.
 */
int	platform_cpu_ticks(uint64_t *busy, uint64_t *total);
/*
 * A block device named as the target (--device).  platform_claim_flag()
 * is the open flag that claims a block device for this process alone
 * (O_EXCL on Linux: it fails with EBUSY while the device is mounted, a
 * member of a device mapper, RAID or swap, or claimed by another
 * program, and keeps them off while held), 0 where there is none.
 * platform_device_in_use() says who uses the device rdev: it returns 1
 * with the reason in why ("mounted on /mnt", "held by dm-0", "its
 * partition loop3p1 is mounted on /mnt", "used as swap", "the backing
 * file of the loop device /dev/loop3; ..."), 0 when no one it can see
 * does, -1 with errno (ENOSYS where the system cannot tell).
 * platform_file_in_use() says the same of the regular file whose st_dev
 * and st_ino are dev and ino: 1 when it is an active swap file or the
 * backing file of an attached loop device (Linux: /proc/swaps, then
 * LOOP_GET_STATUS64 or /sys/block/loopN/loop/backing_file, compared by
 * device and inode, never by path), 0, or -1 with errno (ENOSYS where
 * that is not known: nothing is refused then).
 * platform_device_size() is the size in bytes of the open device fd.
 */
int	platform_claim_flag(void);
int	platform_device_in_use(dev_t rdev, char *why, size_t len);
int	platform_file_in_use(dev_t dev, ino_t ino, char *why, size_t len);
int	platform_device_size(int fd, uint64_t *size);

/*
 * Bytes read and written so far by the block device behind dev (the
 * st_dev of the test file), from /proc/diskstats.  -1 when unknown.
 */
int	platform_dev_io(dev_t dev, uint64_t *read, uint64_t *written);

#endif
