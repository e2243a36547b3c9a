/*
 * bonnie-ng as a bonnie-ng vm guest's PID 1 (include/vm-guest.h): the
 * system made ready, the request read, the run's record and end written
 * back on the mailbox disk, the power switched off.  The system calls
 * are the platform layer's (vminit.h, Linux only).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "mailbox.h"
#include "sysinfo.h"
#include "text.h"
#include "vm-guest.h"
#include "vm-request.h"
#include "vminit.h"

/* How long the disks may take to appear after their driver loads. */
#define DISK_WAIT_S	60

static struct vm_request	 request;
static char			 mbox_dev[300];	/* "/dev/vda"; "" unknown. */
static char			 test_dev[300];
static int			 mounted;
static int			 console_fd = -1; /* Standard output's. */

int
vm_guest_wanted(const char *argv0)
{
	const char	*b;

	if (argv0 == NULL || !vminit_is_init())
		return 0;
	b = strrchr(argv0, '/');
	return strcmp(b != NULL ? b + 1 : argv0, "init") == 0;
}

/* Each module of the initramfs's list, in its order. */
static int
load_modules(char **cause)
{
	FILE	*f;
	char	 line[512], *path, *why = NULL;
	size_t	 n;
	int	 soft, rv = 0;

	if ((f = fopen(VM_GUEST_MODULES, "re")) == NULL)
		return errno == ENOENT ? 0 : errorf(cause, "%s: %s",
		    VM_GUEST_MODULES, strerror(errno));
	while (rv == 0 && fgets(line, sizeof(line), f) != NULL) {
		n = strcspn(line, "\n");
		line[n] = '\0';
		if (strncmp(line, "hard ", 5) == 0)
			soft = 0;
		else if (strncmp(line, "soft ", 5) == 0)
			soft = 1;
		else
			continue;
		path = line + 5;
		if (vminit_load_module(path, &why) == 0)
			continue;
		/* A soft dependency may fail, as under modprobe. */
		if (soft)
			text_say("vm guest: %s (a soft dependency: going on)",
			    why);
		else
			rv = errorf(cause, "vm guest: %s", why);
		free(why);
		why = NULL;
	}
	fclose(f);
	return rv;
}

/* The virtio disk whose serial is serial, into dev: 1, or 0 not yet. */
static int
find_disk(const char *serial, char *dev, size_t len)
{
	DIR		*d;
	struct dirent	*e;
	char		 path[300], got[64];
	FILE		*f;
	int		 found = 0;

	if ((d = opendir("/sys/block")) == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "vd", 2) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/serial", e->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		if (fgets(got, sizeof(got), f) != NULL) {
			got[strcspn(got, "\n")] = '\0';
			if (strcmp(got, serial) == 0) {
				snprintf(dev, len, "/dev/%s", e->d_name);
				found = access(dev, F_OK) == 0;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* Both disks, waited for (their probe and node may come after the load). */
static int
find_disks(char **cause)
{
	struct timespec	ts = { 0, 20 * 1000 * 1000 };
	int		i, mb = 0, test = 0;

	for (i = 0; i < DISK_WAIT_S * 50 && !(mb && test); i++) {
		if (i > 0)
			nanosleep(&ts, NULL);
		mb = mb || find_disk(VM_SERIAL_MAILBOX, mbox_dev,
		    sizeof(mbox_dev));
		test = test || find_disk(VM_SERIAL_TEST, test_dev,
		    sizeof(test_dev));
	}
	if (!mb)
		mbox_dev[0] = '\0';
	if (!mb || !test)
		return errorf(cause, "vm guest: no virtio disk with serial "
		    "%s after %d s (is virtio_blk loaded or built in?)",
		    !mb ? VM_SERIAL_MAILBOX : VM_SERIAL_TEST, DISK_WAIT_S);
	return 0;
}

static int
read_request(char **cause)
{
	struct mbox_msg	m;
	int		fd, rv;

	if ((fd = open(mbox_dev, O_RDONLY | O_CLOEXEC)) == -1)
		return errorf(cause, "vm guest: %s: %s", mbox_dev,
		    strerror(errno));
	rv = mbox_read(fd, mbox_dev, 0, MBOX_REPLY_OFF, MBOX_REQUEST, &m,
	    cause);
	close(fd);
	if (rv == 0)
		return errorf(cause, "vm guest: %s: no request on the mailbox "
		    "disk", mbox_dev);
	if (rv == -1)
		return -1;
	rv = vm_request_decode(&request, m.a, m.alen, cause);
	mbox_msg_free(&m);
	return rv;
}

/*
 * The run's standard output into a file of the guest's root, for the
 * reply (the console gets it too, at the end).  Where that cannot be, it
 * stays on the console alone.
 */
static void
report_to_file(void)
{
	int	fd;

	fflush(stdout);
	if ((fd = open(VM_GUEST_REPORT, O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) == -1) {
		text_say("vm guest: %s: %s (the report stays on the console)",
		    VM_GUEST_REPORT, strerror(errno));
		return;
	}
	if ((console_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) == -1 ||
	    dup2(fd, STDOUT_FILENO) == -1) {
		text_say("vm guest: standard output: %s (the report stays on "
		    "the console)", strerror(errno));
		if (console_fd != -1)
			close(console_fd);
		console_fd = -1;
	}
	close(fd);
}

int
vm_guest_start(int *argc, char ***argv, char **cause)
{
	struct sysinfo_guest	*g = &request.guest;
	int			 i;

	vm_request_init(&request);
	if (vminit_mounts(cause) == -1 || load_modules(cause) == -1 ||
	    find_disks(cause) == -1 || read_request(cause) == -1)
		return -1;
	if (g->fs != NULL && strcmp(g->fs, "none") != 0) {
		if (vminit_mount(test_dev, VM_GUEST_MNT, g->fs,
		    g->mount_options != NULL ? g->mount_options : "",
		    cause) == -1)
			return -1;
		mounted = 1;
	}
	for (i = 0; i < request.argc; i++)
		if (strcmp(request.argv[i], VM_TEST_DISK) == 0) {
			free(request.argv[i]);
			request.argv[i] = xstrdup(test_dev);
		}
	sysinfo_set_guest(g);
	*argc = request.argc;
	*argv = request.argv;
	report_to_file();
	return 0;
}

/* A file the run wrote (its record, its report), or NULL (none). */
static char *
slurp(const char *path, size_t *len)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd;

	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &st) == -1) {
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size && (n = read(fd, buf + got,
	    (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	*len = got;
	return buf;
}

void
vm_guest_end(int status, const char *cause)
{
	struct mbox_msg	 m;
	char		*why = NULL;
	int		 fd;

	fflush(stdout);
	fflush(stderr);
	if (mounted && vminit_umount(VM_GUEST_MNT, &why) == -1) {
		text_say("%s", why);
		free(why);
		why = NULL;
	}
	memset(&m, 0, sizeof(m));
	m.status = status;
	m.a = slurp(VM_GUEST_RECORD, &m.alen);
	m.b = (char *)(cause != NULL ? cause : "");
	m.blen = strlen(m.b);
	if (console_fd != -1) {
		/* The report on the console too, as a run's would be. */
		m.c = slurp(VM_GUEST_REPORT, &m.clen);
		dup2(console_fd, STDOUT_FILENO);
		if (m.c != NULL)
			(void)fwrite(m.c, 1, m.clen, stdout);
		fflush(stdout);
	}
	if (mbox_dev[0] == '\0')
		text_say("vm guest: no mailbox disk: nothing to report on");
	else if ((fd = open(mbox_dev, O_WRONLY | O_CLOEXEC)) == -1)
		text_say("vm guest: %s: %s", mbox_dev, strerror(errno));
	else {
		if (mbox_write(fd, mbox_dev, MBOX_REPLY_OFF, MBOX_SIZE,
		    MBOX_REPLY, &m, &why) == -1) {
			text_say("%s", why);
			free(why);
		}
		close(fd);
	}
	free(m.a);
	free(m.c);
	vminit_power_off();
}
