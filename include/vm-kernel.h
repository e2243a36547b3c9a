/*
 * A kernel for bonnie-ng vm, made ready to boot: its image (a bzImage, or
 * the one in a Debian linux-image-*.deb, unpacked into a temporary
 * directory of the tool's and never installed), its release, the modules
 * the guest needs for virtio and the file system (resolved through
 * modules.dep, or, where the tree has none, through the modules' own
 * .modinfo: vm-modules.c) and the initramfs that carries them with
 * bonnie-ng itself (vm-initrd.c).
 *
 * Once ready, the kernel is two open descriptors (the image and the
 * initramfs) whose files are already removed: nothing of it lies on disk
 * while the guests run, whatever way the tool ends.
 */
#ifndef BONNIE_VM_KERNEL_H
#define BONNIE_VM_KERNEL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct moddep;
struct moddep_load;

struct vm_kernel {
	const char	*arg;		/* --kernel as given. */
	const char	*modules_arg;	/* --modules, or NULL. */
	int		 deb;		/* arg is a Debian package. */
	char		*dir;		/* Its temporary directory. */
	char		*image;		/* The image's path. */
	char		*tree;		/* lib/modules/RELEASE, or NULL. */
	char		*release;	/* "6.1.0-57-amd64". */
	char		 sha256[65];	/* Of the image. */
	int		 image_fd;	/* -1 until open. */
	int		 initrd_fd;
	uint64_t	 initrd_bytes;
	size_t		 nmodules;	/* Loaded by the guest. */
	const char	*cache;		/* --kernel-cache, or NULL. */
	char		*depmod;	/* The cache's depmod.txt, or NULL. */
	int		 cached;	/* 1 from the cache, 2 put in it. */
};

/* The outcome of a step: as enum cmd_status, 2 for the input's fault. */
#define VMK_OK		0
#define VMK_FAIL	1
#define VMK_USAGE	2

void	vm_kernel_init(struct vm_kernel *, const char *arg,
	    const char *modules);
/*
 * What arg is, checked before anything is made: VMK_OK (a kernel image
 * or a Debian package), VMK_USAGE with *cause (missing, neither), or
 * VMK_FAIL (unreadable).
 */
int	vm_kernel_check(struct vm_kernel *, char **cause);
/*
 * Make it ready in a directory of its own under top: unpack, find the
 * modules for virtio's disks and the nfs file systems fs[] ("none" needs
 * none), write the initramfs, open both files and remove them.  stop:
 * the tools are stopped when it is set.  VMK_OK, or VMK_USAGE / VMK_FAIL
 * with *cause.
 */
int	vm_kernel_prepare(struct vm_kernel *, const char *top, int index,
	    const char *const *fs, int nfs, volatile sig_atomic_t *stop,
	    char **cause);
void	vm_kernel_free(struct vm_kernel *);

/*
 * The initramfs (src/vm-initrd.c): bonnie-ng as /init with the shared
 * libraries it has mapped and its program interpreter, the directories
 * and /dev/console, the modules of the closure (decompressed on the host)
 * and their list (vm-guest.h).  Written to path.  VMK_OK, or VMK_FAIL
 * with *cause.
 */
int	vm_initrd_write(const char *path, const char *tree,
	    const struct moddep_load *, size_t n, const char *scratch,
	    volatile sig_atomic_t *stop, char **cause);

/*
 * The modules' dependencies without modules.dep (src/vm-modules.c): what
 * want[] (names or aliases) and the file systems fs[] ("none" needs none;
 * each the module of its name, else the one "fs-NAME" stands for) need,
 * read from the modules' own .modinfo under tree, only the modules on the
 * way; what is built in (builtin's lists) needs nothing.  *text is their
 * modules.dep, modules.alias and modules.softdep lines, as depmod -n
 * prints them, for moddep_parse() (*len bytes, freed by the caller).
 * VMK_OK; VMK_USAGE with *cause when a module needed cannot be read as
 * one (or decompressed: no xz, zstd or gzip); VMK_FAIL for the system's
 * errors.  A module not found is left to moddep_closure(), which names it.
 */
struct vm_modules_req {
	const char		 *tree;		/* lib/modules/RELEASE. */
	const struct moddep	 *builtin;	/* Its built-in lists. */
	const char *const	 *want;
	size_t			  nwant;
	const char *const	 *fs;
	size_t			  nfs;
	const char		 *scratch;	/* A directory of the tool's. */
	volatile sig_atomic_t	 *stop;
};

int	vm_modules_text(const struct vm_modules_req *, char **text,
	    size_t *len, char **cause);
/*
 * A module's file open for reading: itself, or when it is compressed
 * (.ko.xz, .ko.zst, .ko.gz) decompressed into a file of scratch's that is
 * removed at once.  The descriptor; -1 with *cause; -2 with *cause naming
 * Debian's package when the decompressor is not there.
 */
int	vm_module_open(const char *path, const char *scratch,
	    volatile sig_atomic_t *stop, char **cause);

#endif
