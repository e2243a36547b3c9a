/*
 * What bonnie-ng needs of the system to be a guest's only program, its
 * PID 1 (src/vm-guest.c): the file systems every program expects, the
 * kernel's modules, a mount of the test disk, and the power switch.
 * Linux only (vminit-linux.c); elsewhere each refuses, saying so
 * (vminit-posix.c).  Each returns 0, or -1 with *cause in the system's
 * words.
 */
#ifndef BONNIE_VMINIT_H
#define BONNIE_VMINIT_H

/* Whether this process is the system's first (PID 1). */
int	vminit_is_init(void);
/* proc on /proc, sysfs on /sys, devtmpfs on /dev (each made if missing). */
int	vminit_mounts(char **cause);
/* Load a module from its file (finit_module(2)); loaded already is 0. */
int	vminit_load_module(const char *path, char **cause);
/* Mount dev on dir (made if missing) as fstype with the options given. */
int	vminit_mount(const char *dev, const char *dir, const char *fstype,
	    const char *options, char **cause);
int	vminit_umount(const char *dir, char **cause);
/* Flush every file system and power the machine off; no return. */
void	vminit_power_off(void) __attribute__((noreturn));

#endif
