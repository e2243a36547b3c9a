/*
 * The guest's initramfs (vm-kernel.h's vm_initrd_write()): this very
 * bonnie-ng as /init, with the shared libraries it has mapped and its
 * program interpreter, at the paths and through the symbolic links they
 * have on the host; the modules of the closure, decompressed here; the
 * list the guest loads them from.
 *
 * Why the running binary and its libraries rather than a static build:
 * the guest then runs exactly the code, version and build (sanitizers
 * included) of the host's bonnie-ng, which makes and reads its records,
 * with no second program to build, install or keep in step; the files
 * are what /proc/self/maps shows mapped (about 2.5 MB with glibc), and a
 * static bonnie-ng, which maps none, is carried alone.  Its copy leaves
 * out what no process reads (the debug information and symbol tables
 * after its loaded part), so no separate stripped build is needed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpio.h"
#include "error.h"
#include "moddep.h"
#include "vm-guest.h"
#include "vm-kernel.h"

#define MOD_DIR		"lib/modules/bonnie-ng"
#define LINKS_MAX	40

static int add_host_path(struct cpio *, const char *, int depth, char **);

/* A regular file of the host, at its own path. */
static int
add_host_file(struct cpio *c, const char *path, const struct stat *st,
    char **cause)
{
	int	fd, rv;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errorf(cause, "initramfs: %s: %s", path,
		    strerror(errno));
	rv = cpio_copy(c, path, st->st_mode & 07777, fd, path,
	    (uint64_t)st->st_size, cause);
	close(fd);
	return rv;
}

/*
 * path as the host has it: each directory on the way, each symbolic link
 * with what it points to (so that /lib64/ld-linux-x86-64.so.2 reaches
 * the loader through /lib64 -> usr/lib64 as on the host), the file.
 */
static int
add_host_path(struct cpio *c, const char *path, int depth, char **cause)
{
	struct stat	 st;
	char		*p, *s, target[PATH_MAX], *next;
	ssize_t		 n;
	int		 rv = 0, last;

	if (depth > LINKS_MAX)
		return errorf(cause, "initramfs: %s: too many symbolic links",
		    path);
	p = xstrdup(path);
	for (s = p + 1; rv == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		last = *s == '\0';
		*s = '\0';
		if (lstat(p, &st) == -1)
			rv = errorf(cause, "initramfs: %s: %s", p,
			    strerror(errno));
		else if (S_ISLNK(st.st_mode)) {
			if ((n = readlink(p, target, sizeof(target) - 1)) < 0) {
				rv = errorf(cause, "initramfs: %s: %s", p,
				    strerror(errno));
				break;
			}
			target[n] = '\0';
			if (!cpio_has(c, p))
				rv = cpio_symlink(c, p, target, cause);
			/* On through the link: its target, then the rest. */
			if (rv == 0) {
				if (target[0] == '/')
					next = xasprintf("%s%s%s", target,
					    last ? "" : "/", last ? "" : s + 1);
				else
					next = xasprintf("%.*s/%s%s%s",
					    (int)(strrchr(p, '/') - p), p,
					    target, last ? "" : "/",
					    last ? "" : s + 1);
				rv = add_host_path(c, next, depth + 1, cause);
				free(next);
			}
			break;
		} else if (S_ISDIR(st.st_mode))
			rv = cpio_dir(c, p, st.st_mode & 07777, cause);
		else if (!last)
			rv = errorf(cause, "initramfs: %s: not a directory", p);
		else if (S_ISREG(st.st_mode) && !cpio_has(c, p))
			rv = add_host_file(c, p, &st, cause);
		if (last)
			break;
		*s = '/';
	}
	free(p);
	return rv;
}

/*
 * The symbolic links beside a library that lead to it: its soname's
 * (libasan.so.8 -> libasan.so.8.0.0), which the loader looks for.
 */
static int
add_links_to(struct cpio *c, const char *path, char **cause)
{
	struct stat	 st, lst, to;
	DIR		*d;
	struct dirent	*e;
	char		*dir, *slash, *p;
	int		 rv = 0;

	if (stat(path, &st) == -1 || (slash = strrchr(path, '/')) == NULL)
		return 0;
	dir = xstrdup(path);
	dir[slash - path] = '\0';
	if ((d = opendir(*dir != '\0' ? dir : "/")) == NULL) {
		free(dir);
		return 0;
	}
	while (rv == 0 && (e = readdir(d)) != NULL) {
		p = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(p, &lst) == 0 && S_ISLNK(lst.st_mode) &&
		    stat(p, &to) == 0 && to.st_dev == st.st_dev &&
		    to.st_ino == st.st_ino && !cpio_has(c, p))
			rv = add_host_path(c, p, 0, cause);
		free(p);
	}
	closedir(d);
	free(dir);
	return rv;
}

static uint64_t
le(const unsigned char *p, int n)
{
	uint64_t	v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/* The program interpreter an ELF64 file asks for (PT_INTERP), or NULL. */
static char *
elf_interp(int fd)
{
	unsigned char	 h[64], ph[56];
	uint64_t	 phoff, off, len;
	unsigned	 phnum, phsize, i;
	char		*s;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, "\177ELF", 4) != 0 || h[4] != 2 || h[5] != 1)
		return NULL;
	phoff = le(h + 0x20, 8);
	phsize = (unsigned)le(h + 0x36, 2);
	phnum = (unsigned)le(h + 0x38, 2);
	if (phsize < sizeof(ph))
		return NULL;
	for (i = 0; i < phnum; i++) {
		if (pread(fd, ph, sizeof(ph), (off_t)(phoff + i * phsize)) !=
		    (ssize_t)sizeof(ph))
			return NULL;
		if (le(ph, 4) != 3)		/* PT_INTERP */
			continue;
		off = le(ph + 8, 8);
		len = le(ph + 32, 8);
		if (len == 0 || len > PATH_MAX)
			return NULL;
		s = xmalloc((size_t)len + 1);
		if (pread(fd, s, (size_t)len, (off_t)off) != (ssize_t)len) {
			free(s);
			return NULL;
		}
		s[len] = '\0';
		return s;
	}
	return NULL;
}

/*
 * Where an ELF64 file's loaded part ends: past every byte a program header
 * names (the loaded segments, the headers, the notes), when the section
 * headers and all after them lie beyond it, as a linker lays them out
 * (.comment, .debug_*, .symtab, .strtab: nothing the loader or the
 * program reads); else 0, the whole file to be kept.
 */
static uint64_t
elf_loaded_end(int fd, uint64_t size)
{
	unsigned char	 h[64], ph[56];
	uint64_t	 phoff, shoff, end, off, len;
	unsigned	 phnum, phsize, i;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, "\177ELF", 4) != 0 || h[4] != 2 || h[5] != 1)
		return 0;
	phoff = le(h + 0x20, 8);
	shoff = le(h + 0x28, 8);
	phsize = (unsigned)le(h + 0x36, 2);
	phnum = (unsigned)le(h + 0x38, 2);
	if (phsize < sizeof(ph) || phnum == 0 || phnum == 0xffff ||
	    phoff > size || (uint64_t)phnum * phsize > size - phoff)
		return 0;
	end = phoff + (uint64_t)phnum * phsize;
	if (end < sizeof(h))
		end = sizeof(h);
	for (i = 0; i < phnum; i++) {
		if (pread(fd, ph, sizeof(ph), (off_t)(phoff + i * phsize)) !=
		    (ssize_t)sizeof(ph))
			return 0;
		off = le(ph + 8, 8);
		len = le(ph + 32, 8);
		if (off > size || len > size - off)
			return 0;
		if (len > 0 && off + len > end)
			end = off + len;
	}
	return shoff >= end && end < size ? end : 0;
}

/*
 * The program as /init: its loaded part alone when the rest can go (its
 * debug information, ~1.9 of 2.5 MB here, unpacked by every boot for
 * nothing), the ELF header then naming no section headers, as the ELF
 * format allows (e_shoff 0); else the whole file.
 */
static int
add_init(struct cpio *c, int fd, uint64_t size, char **cause)
{
	unsigned char	*buf;
	uint64_t	 end;
	int		 rv;

	if ((end = elf_loaded_end(fd, size)) == 0)
		return cpio_copy(c, "init", 0755, fd, "/proc/self/exe", size,
		    cause);
	buf = xmalloc((size_t)end);
	if (pread(fd, buf, (size_t)end, 0) != (ssize_t)end) {
		free(buf);
		return errorf(cause, "initramfs: /proc/self/exe: %s",
		    strerror(errno));
	}
	memset(buf + 0x28, 0, 8);	/* e_shoff */
	memset(buf + 0x3c, 0, 4);	/* e_shnum, e_shstrndx */
	rv = cpio_file(c, "init", 0755, buf, (size_t)end, cause);
	free(buf);
	return rv;
}

/* bonnie-ng as /init, its interpreter and every file it has mapped. */
static int
add_program(struct cpio *c, char **cause)
{
	struct stat	 self, st;
	FILE		*f;
	char		 line[PATH_MAX + 128], *path, *interp;
	int		 fd, rv;

	if ((fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &self) == -1) {
		if (fd != -1)
			close(fd);
		return errorf(cause, "initramfs: /proc/self/exe: %s",
		    strerror(errno));
	}
	rv = add_init(c, fd, (uint64_t)self.st_size, cause);
	interp = elf_interp(fd);
	close(fd);
	if (rv == 0 && interp != NULL)
		rv = add_host_path(c, interp, 0, cause);
	free(interp);
	if (rv == -1)
		return -1;
	if ((f = fopen("/proc/self/maps", "re")) == NULL)
		return errorf(cause, "initramfs: /proc/self/maps: %s",
		    strerror(errno));
	while (rv == 0 && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((path = strchr(line, '/')) == NULL ||
		    strstr(path, " (deleted)") != NULL)
			continue;
		/* The program itself is /init already. */
		if (stat(path, &st) == 0 && st.st_dev == self.st_dev &&
		    st.st_ino == self.st_ino)
			continue;
		if (!cpio_has(c, path) &&
		    (rv = add_host_path(c, path, 0, cause)) == 0)
			rv = add_links_to(c, path, cause);
	}
	fclose(f);
	return rv;
}

/* One module, decompressed through scratch when it must be. */
static int
add_module(struct cpio *c, const char *src, const char *name,
    const char *scratch, volatile sig_atomic_t *stop, char **cause)
{
	struct stat	 st;
	char		*why = NULL;
	int		 fd, rv = 0;

	if ((fd = vm_module_open(src, scratch, stop, &why)) < 0) {
		rv = errorf(cause, "initramfs: %s", why);
		free(why);
		return rv;
	}
	if (fstat(fd, &st) == -1 || lseek(fd, 0, SEEK_SET) == -1)
		rv = errorf(cause, "initramfs: %s: %s", src, strerror(errno));
	if (rv == 0)
		rv = cpio_copy(c, name, 0644, fd, src, (uint64_t)st.st_size,
		    cause);
	close(fd);
	return rv;
}

static int
add_modules(struct cpio *c, const char *tree, const struct moddep_load *l,
    size_t n, const char *scratch, volatile sig_atomic_t *stop, char **cause)
{
	char	*list = xstrdup(""), *src, *name, *s;
	size_t	 i;
	int	 rv = 0;

	for (i = 0; i < n && rv == 0; i++) {
		src = l[i].mod->path[0] == '/' ? xstrdup(l[i].mod->path) :
		    xasprintf("%s/%s", tree, l[i].mod->path);
		name = xasprintf("%s/%02zu-%s.ko", MOD_DIR, i + 1,
		    l[i].mod->name);
		rv = add_module(c, src, name, scratch, stop, cause);
		s = xasprintf("%s%s /%s\n", list, l[i].soft ? "soft" : "hard",
		    name);
		free(list);
		list = s;
		free(name);
		free(src);
	}
	if (rv == 0)
		rv = cpio_file(c, VM_GUEST_MODULES, 0644, list, strlen(list),
		    cause);
	free(list);
	return rv;
}

int
vm_initrd_write(const char *path, const char *tree,
    const struct moddep_load *l, size_t n, const char *scratch,
    volatile sig_atomic_t *stop, char **cause)
{
	static const char *const dirs[] = { "dev", "proc", "sys", "mnt", "tmp",
	    "etc/bonnie-ng" };
	struct cpio	c;
	size_t		i;
	int		fd, rv = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		errorf(cause, "initramfs: %s: %s", path, strerror(errno));
		return VMK_FAIL;
	}
	cpio_init(&c, fd, path);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && rv == 0; i++)
		rv = cpio_dir(&c, dirs[i], 0755, cause);
	if (rv == 0)
		rv = cpio_node(&c, "dev/console", S_IFCHR | 0600, 5, 1, cause);
	if (rv == 0)
		rv = add_program(&c, cause);
	if (rv == 0)
		rv = add_modules(&c, tree, l, n, scratch, stop, cause);
	if (rv == 0)
		rv = cpio_finish(&c, cause);
	cpio_free(&c);
	if (close(fd) == -1 && rv == 0)
		rv = errorf(cause, "initramfs: %s: %s", path, strerror(errno));
	return rv == 0 ? VMK_OK : VMK_FAIL;
}
