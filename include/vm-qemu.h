/*
 * One boot of one guest under qemu-system-x86_64 for bonnie-ng vm: its
 * command line, the process (in a process group of its own, killed with
 * this one), the console copied to a log and shown to a callback, and its
 * end: powered off, failed, past its time, or stopped by a signal.
 *
 * Every file qemu uses is handed over open (the kernel, the initramfs,
 * the test disk, the mailbox disk, as /proc/self/fd/N): the tool removes
 * them before the boot, so that none is left whatever way it ends.
 */
#ifndef BONNIE_VM_QEMU_H
#define BONNIE_VM_QEMU_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define VM_QEMU		"qemu-system-x86_64"
#define VM_QEMU_PACKAGE	"qemu-system-x86"

enum vm_boot_end {
	BOOT_EXITED,		/* qemu ended by itself (exit_code). */
	BOOT_SIGNALED,		/* qemu was killed by a signal not ours. */
	BOOT_TIMEOUT,		/* Past timeout_s: killed. */
	BOOT_STOPPED		/* *stop was set: killed. */
};

struct vm_boot {
	const char	*qemu;		/* The program. */
	int		 kvm;		/* -accel kvm, else tcg. */
	const char	*cpu;		/* -cpu: vm_kvm_cpu()'s, or "max". */
	int		 vcpus;
	uint64_t	 mem_bytes;
	int		 kernel_fd;
	/* -1 for none: no -initrd; no drives (both go with the mailbox). */
	int		 initrd_fd, disk_fd, mbox_fd;
	const char	*append;	/* The whole kernel command line. */
	int		 console_fd;	/* The console's log, or -1. */
	double		 timeout_s;
	volatile sig_atomic_t *stop;
	/* Each piece of console output, as it comes. */
	void		(*console)(void *arg, const char *, size_t);
	void		*arg;
	int		 enough;	/* Set by console(): kill qemu. */
	/* What happened. */
	enum vm_boot_end end;
	int		 exit_code;	/* BOOT_EXITED's; the signal else. */
	double		 seconds;	/* From the start to the end. */
	char		 errors[1024];	/* qemu's last words on stderr. */
};

/*
 * qemu's argv for b (NULL-terminated; free with vm_boot_argv_free()):
 * the kernel and initramfs, virtio-blk disks with their serials (the
 * test disk with cache=none, O_DIRECT on the host), the console on
 * standard output, -no-reboot so that the guest's power-off, reboot or
 * panic (panic=-1) ends qemu.
 */
char	**vm_boot_argv(const struct vm_boot *);
void	vm_boot_argv_free(char **);
/*
 * Boot and wait for the end; qemu is killed (its whole group) at the
 * timeout or when *stop is set.  0 with b->end filled, or -1 with *cause
 * when qemu could not be started or waited for.
 */
int	vm_boot_run(struct vm_boot *, char **cause);
/* Whether /dev/kvm can be opened for use. */
int	vm_kvm_usable(void);
/*
 * The -cpu model under which the kernel of kernel_fd starts under KVM
 * here: with each model vm-qemu.c lists, best first, it is booted until
 * its banner ("Linux version") is on the console, and no further.  The
 * first model it starts with, or NULL.  *cause is why each model tried
 * before failed, joined by "; " (NULL when the first started).
 * When *stop becomes set meanwhile, qemu is killed.
 */
const char *vm_kvm_cpu(const char *qemu, int kernel_fd,
	    volatile sig_atomic_t *stop, char **cause);
/* The model a TCG guest gets: every feature the emulator has. */
#define VM_TCG_CPU	"max"
/* qemu's version ("7.2.22"), or NULL. */
char	*vm_qemu_version(const char *qemu);

#endif
