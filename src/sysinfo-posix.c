/*
 * The platform part of the system description on systems other than
 * Linux.  The BSDs name the file system, its mount point and its source
 * in statfs(2) (statvfs(2) on NetBSD); everything else that only Linux
 * exposes (CPU model, hypervisor, block device, writeback settings) stays
 * unknown rather than guessed.
 */
#include <sys/types.h>
#include <sys/stat.h>

#if defined(__NetBSD__)
#include <sys/statvfs.h>
#define SYSINFO_MOUNT	1
typedef struct statvfs	mount_stat;
#define get_mount_stat	statvfs
#elif defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__DragonFly__)
#include <sys/param.h>
#include <sys/mount.h>
#define SYSINFO_MOUNT	1
typedef struct statfs	mount_stat;
#define get_mount_stat	statfs
#endif

#include <stdlib.h>

#include "error.h"
#include "sysinfo.h"

void
sysinfo_platform(struct sysinfo *si, const struct stat *st)
{
	(void)st;
#ifdef SYSINFO_MOUNT
	{
		mount_stat	ms;

		if (get_mount_stat(si->dir, &ms) == 0) {
			si->fs_type = xstrdup(ms.f_fstypename);
			si->mount_point = xstrdup(ms.f_mntonname);
			si->mount_source = xstrdup(ms.f_mntfromname);
		}
	}
#else
	(void)si;
#endif
}
