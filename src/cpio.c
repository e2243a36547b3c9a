/*
 * The cpio "newc" writer (include/cpio.h): what bonnie-ng vm writes as
 * the guest's initramfs.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpio.h"
#include "error.h"

#define CPIO_HEADER	110
#define CPIO_COPY_BUF	(256 * 1024)

void
cpio_init(struct cpio *c, int fd, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->path = path;
}

/* name without its leading slashes. */
static const char *
bare(const char *name)
{
	while (*name == '/')
		name++;
	return name;
}

int
cpio_has(const struct cpio *c, const char *name)
{
	size_t	i;

	name = bare(name);
	for (i = 0; i < c->nnames; i++)
		if (strcmp(c->names[i], name) == 0)
			return 1;
	return 0;
}

static int
put(struct cpio *c, const void *p, size_t len, char **cause)
{
	const char	*b = p;
	ssize_t		 n;

	while (len > 0) {
		n = write(c->fd, b, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return errorf(cause, "initramfs: %s: %s (at %llu "
			    "bytes)", c->path, strerror(errno),
			    (unsigned long long)c->off);
		b += n;
		len -= (size_t)n;
		c->off += (uint64_t)n;
	}
	return 0;
}

/* Zeros up to the next multiple of 4 (of to, for the trailer). */
static int
pad(struct cpio *c, unsigned to, char **cause)
{
	static const char	zero[512];
	size_t			n = (size_t)((to - c->off % to) % to);

	return put(c, zero, n, cause);
}

/* An entry's header and name, padded: what comes before its data. */
static int
header(struct cpio *c, const char *name, unsigned mode, uint64_t size,
    unsigned rmajor, unsigned rminor, char **cause)
{
	char	h[CPIO_HEADER + 1];
	size_t	nlen = strlen(name) + 1;

	if (size > 0xffffffffu)
		return errorf(cause, "initramfs: %s: %s is over 4 GiB, more "
		    "than cpio's newc format holds", c->path, name);
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X"
	    "%08X%08X%08X%08X", ++c->ino, mode, 0u, 0u,
	    S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)size, 0u, 0u, rmajor,
	    rminor, (unsigned)nlen, 0u);
	if (put(c, h, CPIO_HEADER, cause) == -1 ||
	    put(c, name, nlen, cause) == -1)
		return -1;
	return pad(c, 4, cause);
}

static void
remember(struct cpio *c, const char *name)
{
	c->names = xrealloc(c->names, (c->nnames + 1) * sizeof(*c->names));
	c->names[c->nnames++] = xstrdup(name);
}

/* Every parent directory of name not yet in the archive. */
static int
parents(struct cpio *c, const char *name, char **cause)
{
	char	*p, *s;
	int	 rv = 0;

	p = xstrdup(name);
	for (s = strchr(p, '/'); s != NULL && rv == 0; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (*p != '\0' && !cpio_has(c, p)) {
			rv = header(c, p, S_IFDIR | 0755, 0, 0, 0, cause);
			if (rv == 0)
				remember(c, p);
		}
		*s = '/';
	}
	free(p);
	return rv;
}

/*
 * The start of any entry: its name checked and its parents written.
 * 1 when a directory is there already (nothing to do), 0 to go on.
 */
static int
begin(struct cpio *c, const char **name, int dir, char **cause)
{
	*name = bare(*name);
	if (**name == '\0' || strcmp(*name, "TRAILER!!!") == 0)
		return errorf(cause, "initramfs: %s: an entry may not be "
		    "named \"%s\"", c->path, *name);
	if (cpio_has(c, *name)) {
		if (dir)
			return 1;
		return errorf(cause, "initramfs: %s: %s is in the archive "
		    "already", c->path, *name);
	}
	return parents(c, *name, cause);
}

int
cpio_dir(struct cpio *c, const char *name, unsigned perm, char **cause)
{
	int	rv;

	if ((rv = begin(c, &name, 1, cause)) != 0)
		return rv == 1 ? 0 : -1;
	if (header(c, name, S_IFDIR | (perm & 07777), 0, 0, 0, cause) == -1)
		return -1;
	remember(c, name);
	return 0;
}

int
cpio_file(struct cpio *c, const char *name, unsigned perm, const void *data,
    size_t len, char **cause)
{
	if (begin(c, &name, 0, cause) == -1 ||
	    header(c, name, S_IFREG | (perm & 07777), len, 0, 0, cause) == -1 ||
	    put(c, data, len, cause) == -1 || pad(c, 4, cause) == -1)
		return -1;
	remember(c, name);
	return 0;
}

int
cpio_copy(struct cpio *c, const char *name, unsigned perm, int fd,
    const char *from, uint64_t size, char **cause)
{
	char		*buf;
	uint64_t	 left = size;
	ssize_t		 n;
	int		 rv = 0;

	if (begin(c, &name, 0, cause) == -1 ||
	    header(c, name, S_IFREG | (perm & 07777), size, 0, 0, cause) == -1)
		return -1;
	buf = xmalloc(CPIO_COPY_BUF);
	while (left > 0 && rv == 0) {
		n = read(fd, buf, left < CPIO_COPY_BUF ? (size_t)left :
		    CPIO_COPY_BUF);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			rv = errorf(cause, "initramfs: %s: %s (at %llu of "
			    "%llu bytes)", from, n == 0 ? "shorter than it "
			    "was" : strerror(errno),
			    (unsigned long long)(size - left),
			    (unsigned long long)size);
		else {
			rv = put(c, buf, (size_t)n, cause);
			left -= (uint64_t)n;
		}
	}
	free(buf);
	if (rv == -1 || pad(c, 4, cause) == -1)
		return -1;
	remember(c, name);
	return 0;
}

int
cpio_symlink(struct cpio *c, const char *name, const char *target,
    char **cause)
{
	size_t	len = strlen(target);

	if (begin(c, &name, 0, cause) == -1 ||
	    header(c, name, S_IFLNK | 0777, len, 0, 0, cause) == -1 ||
	    put(c, target, len, cause) == -1 || pad(c, 4, cause) == -1)
		return -1;
	remember(c, name);
	return 0;
}

int
cpio_node(struct cpio *c, const char *name, unsigned mode, unsigned major,
    unsigned minor, char **cause)
{
	if (!S_ISCHR(mode) && !S_ISBLK(mode))
		return errorf(cause, "initramfs: %s: %s: not a device node",
		    c->path, bare(name));
	if (begin(c, &name, 0, cause) == -1 ||
	    header(c, name, mode, 0, major, minor, cause) == -1)
		return -1;
	remember(c, name);
	return 0;
}

int
cpio_finish(struct cpio *c, char **cause)
{
	if (header(c, "TRAILER!!!", 0, 0, 0, 0, cause) == -1)
		return -1;
	return pad(c, 512, cause);
}

void
cpio_free(struct cpio *c)
{
	size_t	i;

	for (i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	c->names = NULL;
	c->nnames = 0;
}
