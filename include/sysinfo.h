/*
 * What the result record says about the machine and the file system a
 * run used.  sysinfo.c gathers the portable part (uname(2), statvfs(3));
 * sysinfo-linux.c and sysinfo-posix.c add what only the platform knows.
 * Anything that cannot be read stays NULL or -1 and is written as null:
 * nothing is guessed.
 *
 * The name struct sysinfo is also used by Linux's <sys/sysinfo.h>; no
 * file that includes this header may include that one.
 */
#ifndef BONNIE_SYSINFO_H
#define BONNIE_SYSINFO_H

#include <stdint.h>
#include <sys/stat.h>

/* The block device behind the target directory (Linux). */
struct sysinfo_device {
	char		*name;		/* The whole disk: "sda", "nvme0n1". */
	char		*scheduler;	/* The active I/O scheduler. */
	int		 rotational;	/* 1, 0, or -1 unknown. */
	int64_t		 read_ahead_kb;	/* -1 unknown. */
	int64_t		 max_sectors_kb; /* The largest request; -1 unknown. */
	int64_t		 logical_block_size; /* Bytes; -1 unknown. */
	int64_t		 physical_block_size; /* Bytes; -1 unknown. */
	char		*model;		/* The disk's model, when it says. */
	int64_t		 size_bytes;	/* Of the device (the partition when
					   it is one); -1 unknown. */
	char		*loop_backing;	/* A loop device's backing file. */
	int		 loop_dio;	/* Its direct I/O: 1, 0, -1 unknown. */
};

/* The vm.dirty_* writeback settings (Linux); -1 unknown. */
struct sysinfo_vm {
	int64_t		 dirty_ratio;
	int64_t		 dirty_background_ratio;
	int64_t		 dirty_bytes;
	int64_t		 dirty_background_bytes;
	int64_t		 dirty_expire_centisecs;
	int64_t		 dirty_writeback_centisecs;
};

/*
 * The machine a bonnie-ng vm guest is, as the host made it (the request on
 * the mailbox disk, src/vm-guest.c): the record's "guest" object.  NULL
 * text and -1 are unknown or not given.
 */
struct sysinfo_guest {
	char		*accel;		/* "kvm" or "tcg". */
	char		*cpu;		/* qemu's -cpu: "host", "max", ... */
	int64_t		 vcpus;
	int64_t		 memory_bytes;	/* qemu's -m. */
	int64_t		 disk_bytes;	/* The test disk's image. */
	char		*disk_cache;	/* qemu's cache= for it: "none". */
	char		*fs;		/* --fs: "ext4", ..., "none". */
	char		*mkfs_options;
	char		*mount_options;
	char		*append;	/* --append. */
	char		*qemu;		/* qemu's program. */
	char		*qemu_version;
	char		*kernel_image;	/* --kernel: the image or the .deb. */
	char		*kernel_sha256;	/* Of the image booted. */
	char		*host_kernel;	/* The host's uname -r. */
	char		*host_command;	/* The host's command line, its words
					   joined by NULs. */
	int64_t		 host_command_len;
	int64_t		 cell;		/* Its place in the order, from 1. */
	int64_t		 cells;		/* Boots in all. */
	int64_t		 round;		/* From 1. */
};

struct sysinfo {
	/* The system. */
	char		*os;		/* uname -s */
	char		*kernel_release; /* uname -r */
	char		*kernel_version; /* uname -v */
	char		*machine;	/* uname -m */
	char		*hostname;
	char		*cpu_model;
	int		 cpus;		/* Online CPUs; -1 unknown. */
	int64_t		 ram_bytes;	/* Physical RAM; -1 unknown. */
	int64_t		 mem_available;	/* Available before the run; -1
					   unknown. */
	int64_t		 cgroup_mem_limit; /* The cgroup's memory limit; -1
					   none or unknown. */
	int64_t		 cgroup_mem_room; /* What it may still take (limit
					   less usage); -1 none or unknown. */
	int		 hypervisor;	/* 1, 0, or -1 unknown. */
	char		*hypervisor_vendor; /* "xen", or the DMI vendor. */
	/*
	 * Free page reporting: a virtio balloon that reports the guest's
	 * free memory to the host, which takes it back, so that the next use
	 * of it faults on the host.  1 it reports, 0 it does not (no such
	 * balloon, or the order above every free block), -1 unknown.  The
	 * order of the free blocks it reports; -1 unknown.
	 */
	int		 page_reporting;
	int		 page_reporting_order;
	/*
	 * How an idle CPU waits (cpuidle): the driver ("haltpoll",
	 * "intel_idle", "acpi_idle", ...) and governor, NULL unknown; when
	 * haltpoll is the driver, how long an idle vCPU polls before it
	 * halts (guest_halt_poll_ns; 0: it halts at once, and a completion
	 * that finds it halted waits for the host to wake it), else -1.
	 */
	char		*cpuidle_driver;
	char		*cpuidle_governor;
	int64_t		 halt_poll_ns;
	/* The guest's machine under bonnie-ng vm, or NULL. */
	const struct sysinfo_guest *guest;

	/*
	 * The target: a directory for the test file, or what --device
	 * names (a block device, or a file measured in place, whose
	 * directory's file system is then described).
	 */
	int		 target_device;	/* --device named a block device. */
	char		*target_path;	/* What --device named, resolved;
					   NULL for a test file in dir. */
	char		*dir;		/* Resolved absolute path. */
	char		*fs_type;
	char		*mount_point;
	char		*mount_source;
	char		*mount_options;	/* Per-mount options. */
	char		*super_options;	/* File system options (Linux). */
	int64_t		 block_size;	/* statvfs f_bsize; -1 unknown. */
	int64_t		 free_bytes;	/* Free to this user; -1 unknown. */
	int		 has_device;
	struct sysinfo_device device;
	int		 has_vm;
	struct sysinfo_vm vm;
};

/*
 * Gather everything about this system and the file system holding dir
 * (which must exist), or, when dir is a block device or a regular file
 * (--device), about that device or the file's file system.  Call it before the run, so that free_bytes is the
 * space free before the test file was made.  Fields that cannot be read
 * are left unknown; only a dir that cannot be stat(2)ed is an error.
 * Returns 0 with *out set (free it with sysinfo_free), or -1 with a
 * message in *cause.
 */
int	sysinfo_collect(const char *dir, struct sysinfo **out, char **cause);
/*
 * In a bonnie-ng vm guest: the guest's machine, which every sysinfo
 * collected from then on points to (it must outlive them).
 */
void	sysinfo_set_guest(const struct sysinfo_guest *);
void	sysinfo_free(struct sysinfo *);

/*
 * The platform's part, called by sysinfo_collect() after the portable
 * fields are filled in: CPU model, RAM, hypervisor, mount, device and vm
 * settings.  st is the stat(2) of si->dir.  Fills what it can.
 */
void	sysinfo_platform(struct sysinfo *si, const struct stat *st);

/*
 * Helpers shared with the platform files.  sysinfo_unescape() decodes
 * the octal escapes (\040 for a space) that mount tables use, in place.
 * sysinfo_read_line() reads the first line of a small file, without its
 * newline, into a new string, or returns NULL.  sysinfo_read_int() reads
 * a whole number from a file; -1 when it cannot.
 */
void	 sysinfo_unescape(char *);
char	*sysinfo_read_line(const char *path);
int64_t	 sysinfo_read_int(const char *path);

#endif
