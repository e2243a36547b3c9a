/*
 * The system description: the helpers, the portable fields, and on Linux
 * the mount, device and vm settings, compared with what findmnt(8) and
 * uname(1) say.  As root, a tmpfs mounted on a directory whose name has a
 * space checks the mount table decoding and that a tmpfs has no device.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo.h"
#include "tap.h"

#ifndef BONNIE_NG_PLAT
#define BONNIE_NG_PLAT	"linux"	/* Built without the Makefile's rule. */
#endif

/* The first line a shell command prints, or "" when it fails. */
static const char *
sh1(const char *cmd)
{
	static char	 out[1024];
	FILE		*p;

	out[0] = '\0';
	if ((p = popen(cmd, "r")) == NULL)
		return out;
	if (fgets(out, sizeof(out), p) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (pclose(p) != 0)
		out[0] = '\0';
	return out;
}

static void
test_helpers(void)
{
	char	 s[64], path[] = "/tmp/bonnie-ng-t-sysinfo.XXXXXX";
	char	*line;
	FILE	*f;
	int	 fd;

	snprintf(s, sizeof(s), "a\\040b\\011c\\134d\\012");
	sysinfo_unescape(s);
	is_str(s, "a b\tc\\d\n", "octal escapes decoded");
	snprintf(s, sizeof(s), "x\\08\\4\\");
	sysinfo_unescape(s);
	is_str(s, "x\\08\\4\\", "incomplete escapes left alone");

	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		perror("mkstemp");
		exit(1);
	}
	fputs("123\nsecond\n", f);
	fclose(f);
	is_int(sysinfo_read_int(path), 123, "read a number");
	line = sysinfo_read_line(path);
	is_str(line, "123", "first line without newline");
	free(line);
	f = fopen(path, "w");
	fputs("12abc\n", f);
	fclose(f);
	is_int(sysinfo_read_int(path), -1, "trailing junk is unknown");
	f = fopen(path, "w");
	fputs("-5\n", f);
	fclose(f);
	is_int(sysinfo_read_int(path), -1, "negative is unknown");
	unlink(path);
	is_int(sysinfo_read_int(path), -1, "missing file is unknown");
	ok(sysinfo_read_line(path) == NULL, "missing file has no line");
}

static void
test_portable(void)
{
	struct sysinfo	*si = NULL;
	char		*cause = NULL, *cwd;

	ok(sysinfo_collect("/nonexistent/bonnie-ng", &si, &cause) == -1 &&
	    si == NULL && cause != NULL &&
	    strstr(cause, "/nonexistent/bonnie-ng") != NULL,
	    "a missing directory is an error naming it");
	free(cause);
	cause = NULL;

	if (sysinfo_collect(".", &si, &cause) == -1) {
		ok(0, "collect for .");
		printf("# %s\n", cause);
		free(cause);
		return;
	}
	ok(1, "collect for .");
	cwd = getcwd(NULL, 0);
	is_str(si->dir, cwd, "dir resolved to an absolute path");
	free(cwd);
	is_str(si->kernel_release, sh1("uname -r"), "kernel release is uname -r");
	is_str(si->os, sh1("uname -s"), "os is uname -s");
	is_str(si->machine, sh1("uname -m"), "machine is uname -m");
	ok(si->cpus >= 1, "at least one CPU");
	ok(si->block_size > 0, "block size known");
	ok(si->free_bytes >= 0, "free space known");
	sysinfo_free(si);
}

#ifdef __linux__
static void
test_linux(void)
{
	struct sysinfo	*si = NULL;
	char		*cause = NULL, cmd[1024];
	int64_t		 lbs;

	if (sysinfo_collect("/", &si, &cause) == -1) {
		ok(0, "collect for /");
		free(cause);
		return;
	}
	ok(si->fs_type != NULL, "fs_type for / known");
	is_str(si->mount_point, "/", "mount point of / is /");
	ok(si->mount_options != NULL &&
	    strncmp(si->mount_options, "r", 1) == 0,
	    "mount options start with rw or ro");
	ok(si->ram_bytes > 0, "RAM known");
	ok(si->hypervisor >= -1 && si->hypervisor <= 1, "hypervisor flag");
	ok(si->has_vm && si->vm.dirty_ratio >= 0 &&
	    si->vm.dirty_expire_centisecs >= 0, "vm.dirty_* read");
	sysinfo_free(si);

	if (sysinfo_collect(".", &si, &cause) == -1) {
		ok(0, "collect for .");
		free(cause);
		return;
	}
	snprintf(cmd, sizeof(cmd), "findmnt -n -o FSTYPE -T '%s'", si->dir);
	if (*sh1("command -v findmnt") == '\0')
		tap_skip("findmnt not installed");
	else
		is_str(si->fs_type, sh1(cmd), "fs_type agrees with findmnt");
	snprintf(cmd, sizeof(cmd), "findmnt -n -o TARGET -T '%s'", si->dir);
	if (*sh1("command -v findmnt") == '\0')
		tap_skip("findmnt not installed");
	else
		is_str(si->mount_point, sh1(cmd),
		    "mount point agrees with findmnt");
	if (!si->has_device) {
		tap_skip("no block device behind the build directory");
	} else {
		lbs = si->device.logical_block_size;
		ok(si->device.name != NULL &&
		    strchr(si->device.name, '/') == NULL &&
		    (si->device.scheduler == NULL ||
		    strpbrk(si->device.scheduler, "[] ") == NULL) &&
		    si->device.rotational >= -1 && si->device.rotational <= 1 &&
		    (lbs == -1 || (lbs >= 512 && (lbs & (lbs - 1)) == 0)),
		    "device name, bracket-free scheduler, block size");
	}
	sysinfo_free(si);
}

/* As root: a tmpfs on a directory named with a space. */
static void
test_tmpfs(void)
{
	struct sysinfo	*si = NULL;
	char		 base[] = "/tmp/bonnie-ng-t-sysinfo.XXXXXX";
	char		 mnt[256], cmd[600], *cause = NULL;

	if (geteuid() != 0) {
		tap_skip("tmpfs mount needs root");
		return;
	}
	if (mkdtemp(base) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(mnt, sizeof(mnt), "%s/my disk", base);
	mkdir(mnt, 0700);
	snprintf(cmd, sizeof(cmd),
	    "mount -t tmpfs -o size=1m,mode=0700 bonnie-ng-test '%s' 2>/dev/null",
	    mnt);
	if (system(cmd) != 0) {
		tap_skip("cannot mount tmpfs here");
		rmdir(mnt);
		rmdir(base);
		return;
	}
	if (sysinfo_collect(mnt, &si, &cause) == 0) {
		is_str(si->fs_type, "tmpfs", "tmpfs detected");
		is_str(si->mount_point, mnt, "mount point with a space decoded");
		is_str(si->mount_source, "bonnie-ng-test", "mount source");
		ok(!si->has_device, "no block device behind tmpfs");
		ok(si->free_bytes > 0 && si->free_bytes <= 1024 * 1024,
		    "free space of the 1 MiB tmpfs");
		sysinfo_free(si);
	} else {
		ok(0, "collect on tmpfs");
		free(cause);
	}
	/* Lazily when another process holds it, as tests/lib.sh does. */
	snprintf(cmd, sizeof(cmd), "umount '%s' 2>/dev/null || umount -l '%s'",
	    mnt, mnt);
	if (system(cmd) != 0)
		printf("# could not unmount %s\n", mnt);
	rmdir(mnt);
	rmdir(base);
}
#endif

int
main(void)
{
	test_helpers();
	test_portable();
#ifdef __linux__
	/* The portable half built on Linux (make UNAME_S=FreeBSD). */
	if (strcmp(BONNIE_NG_PLAT, "linux") == 0) {
		test_linux();
		test_tmpfs();
	} else
		tap_skip("the portable build reads none of Linux's /proc and "
		    "/sys");
#endif
	return done_testing();
}
