/*
 * A guest's PID 1 on Linux (include/vminit.h): mount(2), finit_module(2),
 * reboot(2).
 */
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "vminit.h"

int
vminit_is_init(void)
{
	return getpid() == 1;
}

static int
mount_at(const char *src, const char *dir, const char *fstype,
    unsigned long flags, const char *options, char **cause)
{
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		return errorf(cause, "mkdir: %s: %s", dir, strerror(errno));
	if (mount(src, dir, fstype, flags, options) == -1)
		return errorf(cause, "mount %s on %s (%s%s%s): %s", src, dir,
		    fstype, options != NULL && *options != '\0' ? ", " : "",
		    options != NULL ? options : "", strerror(errno));
	return 0;
}

int
vminit_mounts(char **cause)
{
	if (mount_at("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL, cause) == -1 ||
	    mount_at("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL, cause) == -1)
		return -1;
	/* The kernel may have mounted devtmpfs on /dev itself (EBUSY). */
	if (mkdir("/dev", 0755) == -1 && errno != EEXIST)
		return errorf(cause, "mkdir: /dev: %s", strerror(errno));
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) == -1 &&
	    errno != EBUSY)
		return errorf(cause, "mount devtmpfs on /dev: %s",
		    strerror(errno));
	return 0;
}

int
vminit_load_module(const char *path, char **cause)
{
	int	fd, rv;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errorf(cause, "module %s: %s", path, strerror(errno));
	rv = (int)syscall(SYS_finit_module, fd, "", 0);
	if (rv == -1 && errno != EEXIST) {
		errorf(cause, "module %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
vminit_mount(const char *dev, const char *dir, const char *fstype,
    const char *options, char **cause)
{
	return mount_at(dev, dir, fstype, 0, options, cause);
}

int
vminit_umount(const char *dir, char **cause)
{
	if (umount(dir) == -1)
		return errorf(cause, "umount %s: %s", dir, strerror(errno));
	return 0;
}

void
vminit_power_off(void)
{
	sync();
	(void)reboot(RB_POWER_OFF);
	/* PID 1 leaving makes the kernel panic: with panic=-1, a reset,
	   which qemu's -no-reboot turns into its exit. */
	_exit(1);
}
