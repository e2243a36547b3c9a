/*
 * bonnie-ng as a bonnie-ng vm guest's only program, its PID 1: main.c asks
 * vm_guest_wanted() first; when so, vm_guest_start() makes the system
 * ready (mounts, the modules the host put in the initramfs, the test disk)
 * and hands back the run's command line from the request on the mailbox
 * disk, which main.c then runs as any command line, its standard output
 * kept in a file; vm_guest_end() writes the record, how the run ended and
 * what it printed (its report) on the mailbox disk and powers off.
 */
#ifndef BONNIE_VM_GUEST_H
#define BONNIE_VM_GUEST_H

/* The initramfs's list of modules to load: "hard PATH" or "soft PATH". */
#define VM_GUEST_MODULES	"/etc/bonnie-ng/modules"
/* Where the guest's run writes its record (its --json). */
#define VM_GUEST_RECORD		"/bonnie-ng-record.json"
/* Where the guest's run's standard output (its report) goes. */
#define VM_GUEST_REPORT		"/bonnie-ng-report"
/* The test disk's mount point. */
#define VM_GUEST_MNT		"/mnt"
/* The disks' virtio serial numbers (at most 20 bytes). */
#define VM_SERIAL_MAILBOX	"bonnie-ng-mailbox"
#define VM_SERIAL_TEST		"bonnie-ng-test"

/* Whether this process is a guest's init: PID 1, called "init". */
int	vm_guest_wanted(const char *argv0);
/*
 * Ready the guest; *argc and *argv become the run's command line.  0, or
 * -1 with *cause (then vm_guest_end() reports it).
 */
int	vm_guest_start(int *argc, char ***argv, char **cause);
/* Report status and cause (NULL: none) and the record; power off. */
void	vm_guest_end(int status, const char *cause) __attribute__((noreturn));

#endif
