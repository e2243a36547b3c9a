/*
 * One guest's boot under qemu (include/vm-qemu.h).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "spawn.h"
#include "timer.h"
#include "vm-guest.h"
#include "vm-qemu.h"

/* The numbers the guest's files have in qemu. */
#define FD_KERNEL	3
#define FD_INITRD	4
#define FD_DISK		5
#define FD_MBOX		6
/* After SIGTERM, how long qemu has before SIGKILL. */
#define KILL_GRACE_S	5.0

int
vm_kvm_usable(void)
{
	int	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd == -1)
		return 0;
	close(fd);
	return 1;
}

char *
vm_qemu_version(const char *qemu)
{
	char	*argv[] = { (char *)qemu, "-version", NULL }, *cause = NULL;
	char	 buf[256], *s, *v = NULL;
	FILE	*f;
	int	 fd;

	if ((f = tmpfile()) == NULL)
		return NULL;
	fd = fileno(f);
	if (spawn_run(argv, -1, fd, NULL, &cause) == 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && fgets(buf, sizeof(buf), f) != NULL &&
	    (s = strstr(buf, "version ")) != NULL) {
		s += 8;
		s[strcspn(s, " \n")] = '\0';
		v = xstrdup(s);
	}
	free(cause);
	fclose(f);
	return v;
}

static void
push(char ***v, int *n, char *s)
{
	*v = xrealloc(*v, (size_t)(*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

char **
vm_boot_argv(const struct vm_boot *b)
{
	char	**v = NULL;
	int	  n = 0;

	push(&v, &n, xstrdup(b->qemu));
	push(&v, &n, xstrdup("-nodefaults"));
	push(&v, &n, xstrdup("-nographic"));
	push(&v, &n, xstrdup("-no-reboot"));
	push(&v, &n, xstrdup("-monitor"));
	push(&v, &n, xstrdup("none"));
	push(&v, &n, xstrdup("-accel"));
	push(&v, &n, xstrdup(b->kvm ? "kvm" : "tcg"));
	/* Every feature the accelerator has, as a guest kernel expects. */
	push(&v, &n, xstrdup("-cpu"));
	push(&v, &n, xstrdup(b->kvm ? "host" : "max"));
	push(&v, &n, xstrdup("-smp"));
	push(&v, &n, xasprintf("%d", b->vcpus));
	push(&v, &n, xstrdup("-m"));
	push(&v, &n, xasprintf("%lluM", (unsigned long long)
	    (b->mem_bytes >> 20)));
	push(&v, &n, xstrdup("-kernel"));
	push(&v, &n, xasprintf("/proc/self/fd/%d", FD_KERNEL));
	push(&v, &n, xstrdup("-initrd"));
	push(&v, &n, xasprintf("/proc/self/fd/%d", FD_INITRD));
	push(&v, &n, xstrdup("-append"));
	push(&v, &n, xstrdup(b->append));
	push(&v, &n, xstrdup("-drive"));
	push(&v, &n, xasprintf("file=/proc/self/fd/%d,format=raw,if=none,"
	    "id=mailbox", FD_MBOX));
	push(&v, &n, xstrdup("-device"));
	push(&v, &n, xstrdup("virtio-blk-pci,drive=mailbox,serial="
	    VM_SERIAL_MAILBOX));
	/* The host's page cache out of the way: O_DIRECT on the image. */
	push(&v, &n, xstrdup("-drive"));
	push(&v, &n, xasprintf("file=/proc/self/fd/%d,format=raw,if=none,"
	    "id=test,cache=none", FD_DISK));
	push(&v, &n, xstrdup("-device"));
	push(&v, &n, xstrdup("virtio-blk-pci,drive=test,serial="
	    VM_SERIAL_TEST));
	push(&v, &n, xstrdup("-chardev"));
	push(&v, &n, xstrdup("stdio,id=console,signal=off"));
	push(&v, &n, xstrdup("-serial"));
	push(&v, &n, xstrdup("chardev:console"));
	return v;
}

void
vm_boot_argv_free(char **v)
{
	char	**s;

	for (s = v; s != NULL && *s != NULL; s++)
		free(*s);
	free(v);
}

/* The last bytes of qemu's error output, kept whole lines. */
static void
keep_errors(struct vm_boot *b, const char *s, size_t n)
{
	size_t	len = strlen(b->errors), room = sizeof(b->errors) - 1;

	if (n >= room) {
		s += n - room;
		n = room;
	}
	if (len + n > room) {
		memmove(b->errors, b->errors + (len + n - room), room - n);
		len = room - n;
	}
	memcpy(b->errors + len, s, n);
	b->errors[len + n] = '\0';
}

static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, s, n)) == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Kill qemu's group: SIGTERM, then SIGKILL after the grace. */
static void
kill_group(pid_t pid, bn_time *sent, int *killed)
{
	if (*killed == 0) {
		(void)kill(-pid, SIGTERM);
		(void)kill(-pid, SIGCONT);	/* Should it be stopped. */
		*sent = time_now();
		*killed = 1;
	} else if (*killed == 1 &&
	    time_elapsed(*sent, time_now()) > KILL_GRACE_S) {
		(void)kill(-pid, SIGKILL);
		*killed = 2;
	}
}

int
vm_boot_run(struct vm_boot *b, char **cause)
{
	struct spawn_fd	 fds[4];
	struct pollfd	 pfd[2];
	char		**argv, buf[8192];
	bn_time		 t0, sent = { 0 };
	pid_t		 pid, got;
	ssize_t		 n;
	int		 out[2], err[2], status, open_fds = 2, killed = 0, i;
	int		 logfail = 0;

	b->errors[0] = '\0';
	if (pipe(out) == -1)
		return errorf(cause, "vm: pipe: %s", strerror(errno));
	if (pipe(err) == -1) {
		close(out[0]);
		close(out[1]);
		return errorf(cause, "vm: pipe: %s", strerror(errno));
	}
	for (i = 0; i < 2; i++) {
		(void)fcntl(out[i], F_SETFD, FD_CLOEXEC);
		(void)fcntl(err[i], F_SETFD, FD_CLOEXEC);
	}
	fds[0].from = b->kernel_fd;
	fds[0].to = FD_KERNEL;
	fds[1].from = b->initrd_fd;
	fds[1].to = FD_INITRD;
	fds[2].from = b->disk_fd;
	fds[2].to = FD_DISK;
	fds[3].from = b->mbox_fd;
	fds[3].to = FD_MBOX;
	argv = vm_boot_argv(b);
	t0 = time_now();
	pid = spawn_start(argv, -1, out[1], err[1], fds, 4, 1, cause);
	vm_boot_argv_free(argv);
	close(out[1]);
	close(err[1]);
	if (pid == -1) {
		close(out[0]);
		close(err[0]);
		return -1;
	}
	pfd[0].fd = out[0];
	pfd[1].fd = err[0];
	pfd[0].events = pfd[1].events = POLLIN;
	b->end = BOOT_EXITED;
	/* Until both pipes end (qemu and any child of its are gone). */
	while (open_fds > 0) {
		if (b->stop != NULL && *b->stop && killed == 0)
			b->end = BOOT_STOPPED;
		else if (b->timeout_s > 0 && killed == 0 &&
		    time_elapsed(t0, time_now()) > b->timeout_s)
			b->end = BOOT_TIMEOUT;
		if (b->end != BOOT_EXITED)
			kill_group(pid, &sent, &killed);
		if (poll(pfd, 2, 200) <= 0)
			continue;
		for (i = 0; i < 2; i++) {
			if (pfd[i].fd < 0 || pfd[i].revents == 0)
				continue;
			n = read(pfd[i].fd, buf, sizeof(buf));
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 1) {
				keep_errors(b, buf, (size_t)n);
				continue;
			}
			if (!logfail && write_all(b->console_fd, buf,
			    (size_t)n) == -1)
				logfail = errno != 0 ? errno : EIO;
			if (b->console != NULL)
				b->console(b->arg, buf, (size_t)n);
		}
	}
	/* Anything of its group still there goes too (qemu, unreaped,
	   still holds the group's number). */
	(void)kill(-pid, SIGKILL);
	while ((got = waitpid(pid, &status, 0)) == -1 && errno == EINTR)
		;
	b->seconds = time_elapsed(t0, time_now());
	if (got == -1)
		return errorf(cause, "vm: waitpid: %s", strerror(errno));
	if (b->end == BOOT_EXITED && WIFSIGNALED(status)) {
		b->end = BOOT_SIGNALED;
		b->exit_code = WTERMSIG(status);
	} else if (b->end == BOOT_EXITED)
		b->exit_code = WEXITSTATUS(status);
	if (logfail)
		return errorf(cause, "vm: the console's log: %s",
		    strerror(logfail));
	return 0;
}
