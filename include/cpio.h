/*
 * A cpio "newc" archive writer, the format of a Linux initramfs (the
 * kernel's Documentation/driver-api/early-userspace/buffer-format.rst):
 * per entry a 110-byte header of "070701" and thirteen 8-digit hex
 * fields, the name with its NUL, padded to 4 bytes, then the data,
 * padded to 4 bytes; a last entry named "TRAILER!!!".  Names are kept
 * without a leading "/"; every entry's parent directories are written
 * before it, once.  The kernel makes device nodes from the archive, so
 * no privilege is needed on the host to give the guest a /dev/console.
 */
#ifndef BONNIE_CPIO_H
#define BONNIE_CPIO_H

#include <stddef.h>
#include <stdint.h>

struct cpio {
	int		 fd;
	const char	*path;		/* For messages. */
	uint64_t	 off;		/* Bytes written. */
	uint32_t	 ino;		/* The last inode number given. */
	char		**names;	/* Every entry so far, in order. */
	size_t		 nnames;
};

/* Start an archive on fd (open for writing, empty); path names it. */
void	cpio_init(struct cpio *, int fd, const char *path);
/* Whether name (with or without its leading "/") is in the archive. */
int	cpio_has(const struct cpio *, const char *name);
/*
 * An entry: a directory, a regular file with the given bytes or with
 * size bytes read from fd, a symbolic link, a character or block device
 * node (mode holds S_IFCHR or S_IFBLK).  perm is the permission bits.
 * A name already in the archive is refused, but for a directory, which
 * is left as it is.  0, or -1 with *cause.
 */
int	cpio_dir(struct cpio *, const char *name, unsigned perm, char **cause);
int	cpio_file(struct cpio *, const char *name, unsigned perm,
	    const void *data, size_t len, char **cause);
int	cpio_copy(struct cpio *, const char *name, unsigned perm, int fd,
	    const char *from, uint64_t size, char **cause);
int	cpio_symlink(struct cpio *, const char *name, const char *target,
	    char **cause);
int	cpio_node(struct cpio *, const char *name, unsigned mode,
	    unsigned major, unsigned minor, char **cause);
/* The trailer; the archive's length padded to 512 bytes, as cpio's. */
int	cpio_finish(struct cpio *, char **cause);
void	cpio_free(struct cpio *);

#endif
