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
#include "signals.h"
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

/*
 * The -cpu models tried under KVM, best first.  "host" passes every feature
 * of the host's CPU through, as a guest kernel expects of a real machine.
 * Some hosts' KVM, itself nested, offers IA32_ARCH_CAPABILITIES (MSR
 * 0x10a) and then refuses the value qemu writes there: qemu 7.2 aborts
 * before the guest's first instruction ("failed to set MSR 0x10a", seen
 * on this project's AMD build machines and on GitHub's runners); without
 * that one feature the guest starts, and learns of the CPU's speculation
 * bugs from its model instead.
 */
static const char *const kvm_cpus[] = {
	"host",
	"host,-arch-capabilities",
};
#define NKVM_CPUS	(sizeof(kvm_cpus) / sizeof(kvm_cpus[0]))

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

/* A raw image of ours as a virtio-blk disk with that id and serial. */
static void
push_drive(char ***vp, int *np, int fd, const char *id, const char *opts,
    const char *serial)
{
	push(vp, np, xstrdup("-drive"));
	push(vp, np, xasprintf("file=/proc/self/fd/%d,format=raw,if=none,"
	    "id=%s%s", fd, id, opts));
	push(vp, np, xstrdup("-device"));
	push(vp, np, xasprintf("virtio-blk-pci,drive=%s,serial=%s", id,
	    serial));
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
	push(&v, &n, xstrdup("-cpu"));
	push(&v, &n, xstrdup(b->cpu));
	push(&v, &n, xstrdup("-smp"));
	push(&v, &n, xasprintf("%d", b->vcpus));
	push(&v, &n, xstrdup("-m"));
	push(&v, &n, xasprintf("%lluM", (unsigned long long)
	    (b->mem_bytes >> 20)));
	push(&v, &n, xstrdup("-kernel"));
	push(&v, &n, xasprintf("/proc/self/fd/%d", FD_KERNEL));
	if (b->initrd_fd != -1) {
		push(&v, &n, xstrdup("-initrd"));
		push(&v, &n, xasprintf("/proc/self/fd/%d", FD_INITRD));
	}
	push(&v, &n, xstrdup("-append"));
	push(&v, &n, xstrdup(b->append));
	/* The disks go with the mailbox: the test disk with the host's page
	   cache out of the way (O_DIRECT on the image). */
	if (b->mbox_fd != -1) {
		push_drive(&v, &n, FD_MBOX, "mailbox", "", VM_SERIAL_MAILBOX);
		push_drive(&v, &n, FD_DISK, "test", ",cache=none",
		    VM_SERIAL_TEST);
	}
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

/* A descriptor for qemu, unless there is none (-1). */
static void
add_fd(struct spawn_fd *fds, int *nfds, int from, int to)
{
	if (from == -1)
		return;
	fds[*nfds].from = from;
	fds[*nfds].to = to;
	(*nfds)++;
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
	int		 logfail = 0, nfds;

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
	nfds = 0;
	add_fd(fds, &nfds, b->kernel_fd, FD_KERNEL);
	add_fd(fds, &nfds, b->initrd_fd, FD_INITRD);
	add_fd(fds, &nfds, b->disk_fd, FD_DISK);
	add_fd(fds, &nfds, b->mbox_fd, FD_MBOX);
	argv = vm_boot_argv(b);
	t0 = time_now();
	pid = spawn_start(argv, -1, out[1], err[1], fds, nfds, 1, cause);
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
		if (((b->stop != NULL && *b->stop) || b->enough) &&
		    killed == 0)
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
			if (!logfail && b->console_fd != -1 &&
			    write_all(b->console_fd, buf,
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

/* The kernel's banner, the first line it prints (init/version.c). */
#define BANNER		"Linux version "
/* How long a kernel under KVM has to print it. */
#define KVM_START_S	15.0

struct banner_seen {
	struct vm_boot	*b;
	char		 tail[sizeof(BANNER)];	/* The last bytes seen. */
	size_t		 len;
};

/* The console's output: enough once the banner is in it. */
static void
banner_console(void *arg, const char *s, size_t n)
{
	struct banner_seen	*bs = arg;
	char			 buf[sizeof(bs->tail) + 8192];
	size_t			 len, keep;

	if (n > 8192) {
		s += n - 8192;
		n = 8192;
	}
	memcpy(buf, bs->tail, bs->len);
	memcpy(buf + bs->len, s, n);
	len = bs->len + n;
	buf[len] = '\0';
	/* The console may hold NULs: look in each piece between them. */
	for (keep = 0; keep < len; keep += strlen(buf + keep) + 1)
		if (strstr(buf + keep, BANNER) != NULL)
			bs->b->enough = 1;
	keep = len < sizeof(BANNER) - 1 ? len : sizeof(BANNER) - 1;
	memcpy(bs->tail, buf + len - keep, keep);
	bs->len = keep;
}

/* qemu's words on one line: its lines joined by " / ". */
static char *
one_line(const char *s)
{
	char	*out = xmalloc(3 * strlen(s) + 1), *o = out;

	for (; *s != '\0'; s++) {
		if (*s != '\n' && *s != '\r')
			*o++ = *s;
		else if (s[1] != '\0' && s[1] != '\n' && s[1] != '\r') {
			memcpy(o, " / ", 3);
			o += 3;
		}
	}
	*o = '\0';
	return out;
}

/*
 * Whether the kernel starts under KVM with that -cpu: 1 (its banner came),
 * 0 with *why, or -1 with *why when it hung (the next model would too) or
 * it could not be tried.
 */
static int
kvm_starts(const char *qemu, int kernel_fd, const char *cpu,
    volatile sig_atomic_t *stop, char **why)
{
	struct vm_boot		b;
	struct banner_seen	bs;
	char			*cause = NULL, *said;
	int			 r;

	memset(&b, 0, sizeof(b));
	memset(&bs, 0, sizeof(bs));
	bs.b = &b;
	b.qemu = qemu;
	b.kvm = 1;
	b.cpu = cpu;
	b.vcpus = 1;
	b.mem_bytes = (uint64_t)128 << 20;
	b.kernel_fd = kernel_fd;
	b.initrd_fd = b.disk_fd = b.mbox_fd = b.console_fd = -1;
	b.append = "console=ttyS0 panic=-1";
	b.timeout_s = KVM_START_S;
	b.stop = stop;
	b.console = banner_console;
	b.arg = &bs;
	if (vm_boot_run(&b, &cause) == -1) {
		*why = cause;
		return -1;
	}
	if (b.enough)
		return 1;
	said = one_line(b.errors);
	switch (b.end) {
	case BOOT_TIMEOUT:
		*why = xasprintf("-cpu %s: qemu ran, and the kernel printed "
		    "nothing in %.0f s", cpu, KVM_START_S);
		r = -1;
		break;
	case BOOT_STOPPED:
		*why = xstrdup("stopped");
		r = -1;
		break;
	case BOOT_SIGNALED:
		*why = xasprintf("-cpu %s: qemu was killed by %s%s%s", cpu,
		    signal_name(b.exit_code), *said != '\0' ? ": " : "", said);
		r = 0;
		break;
	default:
		*why = xasprintf("-cpu %s: qemu ended (exit %d) before the "
		    "kernel's first line%s%s", cpu, b.exit_code,
		    *said != '\0' ? ": " : "", said);
		r = 0;
		break;
	}
	free(said);
	return r;
}

const char *
vm_kvm_cpu(const char *qemu, int kernel_fd, volatile sig_atomic_t *stop,
    char **cause)
{
	char	*why = NULL, *all;
	size_t	 i;
	int	 r;

	*cause = NULL;
	for (i = 0; i < NKVM_CPUS; i++) {
		r = kvm_starts(qemu, kernel_fd, kvm_cpus[i], stop, &why);
		if (r == 1)
			return kvm_cpus[i];
		if (*cause == NULL)
			*cause = why;
		else {
			all = xasprintf("%s; %s", *cause, why);
			free(*cause);
			free(why);
			*cause = all;
		}
		why = NULL;
		if (r == -1)
			break;
	}
	return NULL;
}
