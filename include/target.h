/*
 * The target that --device names instead of a test file in a directory:
 * a block device, whose first SIZE bytes the phases overwrite, or a
 * regular file the user names, measured in place (never removed, never
 * truncated or made longer).  It is claimed once, before anything is
 * written, and held for the rest of the process: on Linux a block device
 * is opened with O_EXCL, so that nothing can mount it or build on it
 * while the run writes it.  Nothing here ever removes a file.
 */
#ifndef BONNIE_TARGET_H
#define BONNIE_TARGET_H

#include <sys/types.h>

#include <limits.h>
#include <stdint.h>

enum target_kind {
	TARGET_DEVICE,		/* A block device. */
	TARGET_IN_PLACE		/* A regular file, measured in place. */
};

struct target {
	enum target_kind kind;
	char		 path[PATH_MAX];  /* Resolved, absolute. */
	char		 dir[PATH_MAX];	  /* Its directory, */
	char		 name[NAME_MAX + 1]; /* and its name there. */
	dev_t		 st_dev;	  /* The node's identity. */
	ino_t		 st_ino;
	dev_t		 io_dev;	  /* The block device its I/O reaches:
					     the device itself, or the one
					     under the file's file system. */
	uint64_t	 size;		  /* Bytes: the device's, the file's. */
	int		 fd;		  /* Held all run (O_EXCL on Linux). */
};

enum target_verdict {
	TARGET_OK,
	TARGET_REFUSED,		/* Not a usable target: exit 2. */
	TARGET_FAILED		/* The system failed: exit 1. */
};

/*
 * Check and claim path for --device: refuse a directory, a character
 * device, anything but a block device or a regular file, a symbolic link
 * to a regular file, an empty file, and a block device that is mounted,
 * has a partition mounted, is held by another device (device mapper,
 * RAID), is used as swap, is the backing file of a loop device, or is
 * opened exclusively by another program, and a regular file that is an
 * active swap file or the backing file of a loop device.
 * On TARGET_OK the target is held until the process ends and *out points
 * at it; else *cause says why, in one line.  A second call returns the
 * target already held when path is the same.
 */
enum target_verdict target_claim(const char *path, const struct target **out,
	    char **cause);

/* The target held, or NULL when there is none. */
const struct target *target_held(void);

#endif
