/*
 * A kernel made ready for bonnie-ng vm (include/vm-kernel.h): what the
 * file is, a Debian package unpacked, the modules the guest needs, the
 * initramfs written, and the files opened and removed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "moddep.h"
#include "sha256.h"
#include "spawn.h"
#include "tmptree.h"
#include "vm-kernel.h"

#define AR_MAGIC	"!<arch>\n"
#define AR_HEADER	60

void
vm_kernel_init(struct vm_kernel *k, const char *arg, const char *modules)
{
	memset(k, 0, sizeof(*k));
	k->arg = arg;
	k->modules_arg = modules;
	k->image_fd = -1;
	k->initrd_fd = -1;
}

void
vm_kernel_free(struct vm_kernel *k)
{
	if (k->dir != NULL)
		(void)tmptree_remove(k->dir);
	if (k->image_fd != -1)
		close(k->image_fd);
	if (k->initrd_fd != -1)
		close(k->initrd_fd);
	free(k->dir);
	free(k->image);
	free(k->tree);
	free(k->release);
	free(k->depmod);
	vm_kernel_init(k, NULL, NULL);
}

static int
read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t	n;

	while ((n = pread(fd, buf, len, off)) == -1 && errno == EINTR)
		;
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * A bzImage's own release, the first word of the version string its
 * setup header points to (kernel_version, at 0x20e, from 0x200).
 */
static char *
image_release(int fd)
{
	unsigned char	p[2];
	char		v[128];
	size_t		n;

	if (read_at(fd, p, 2, 0x20e) == -1 || (p[0] == 0 && p[1] == 0) ||
	    read_at(fd, v, sizeof(v) - 1, 0x200 + (p[0] | p[1] << 8)) == -1)
		return NULL;
	v[sizeof(v) - 1] = '\0';
	n = strcspn(v, " ");
	if (n == 0)
		return NULL;
	v[n] = '\0';
	return xstrdup(v);
}

/* 1 a bzImage, 0 not one, -1 unreadable. */
static int
is_bzimage(int fd)
{
	unsigned char	b[8];

	if (read_at(fd, b, 2, 0x1fe) == -1)
		return 0;
	if (b[0] != 0x55 || b[1] != 0xaa)
		return 0;
	if (read_at(fd, b, 4, 0x202) == -1)
		return 0;
	return memcmp(b, "HdrS", 4) == 0;
}

int
vm_kernel_check(struct vm_kernel *k, char **cause)
{
	char	magic[8];
	int	fd, rv = VMK_OK;

	if ((fd = open(k->arg, O_RDONLY | O_CLOEXEC)) == -1) {
		errorf(cause, "vm: --kernel: %s: %s", k->arg, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? VMK_USAGE :
		    VMK_FAIL;
	}
	if (read_at(fd, magic, 8, 0) == 0 && memcmp(magic, AR_MAGIC, 8) == 0)
		k->deb = 1;
	else if (!is_bzimage(fd)) {
		errorf(cause, "vm: --kernel: %s: not a kernel image (no bzImage "
		    "setup header) nor a Debian package", k->arg);
		rv = VMK_USAGE;
	}
	if (rv == VMK_OK && k->deb && k->modules_arg != NULL) {
		errorf(cause, "vm: --modules: %s: a Debian package (%s) brings "
		    "its own", k->modules_arg, k->arg);
		rv = VMK_USAGE;
	}
	close(fd);
	return rv;
}

/* A file's bytes (NUL-terminated), or NULL with errno. */
static char *
slurp(const char *path, size_t *len)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &st) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/*
 * The package's data.tar.* member copied to a file of its own, *out; its
 * compression's tar option into *z.  VMK_OK, or VMK_USAGE when the
 * package has none.
 */
static int
deb_data(struct vm_kernel *k, char **out, char **cause)
{
	char		 h[AR_HEADER + 1], name[17], buf[65536], *sfx;
	off_t		 off = 8;
	long long	 size;
	ssize_t		 n;
	int		 fd, ofd = -1, rv = VMK_USAGE;

	*out = NULL;
	if ((fd = open(k->arg, O_RDONLY | O_CLOEXEC)) == -1) {
		errorf(cause, "vm: --kernel: %s: %s", k->arg, strerror(errno));
		return VMK_FAIL;
	}
	while (read_at(fd, h, AR_HEADER, off) == 0) {
		h[AR_HEADER] = '\0';
		memcpy(name, h, 16);
		name[16] = '\0';
		name[strcspn(name, " /")] = '\0';
		size = strtoll(h + 48, NULL, 10);
		if (memcmp(h + 58, "`\n", 2) != 0 || size < 0)
			break;
		off += AR_HEADER;
		if (strncmp(name, "data.tar", 8) == 0) {
			sfx = xasprintf("%s/%s", k->dir, name);
			ofd = open(sfx, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC, 0600);
			if (ofd == -1) {
				errorf(cause, "%s: %s", sfx, strerror(errno));
				free(sfx);
				rv = VMK_FAIL;
				break;
			}
			*out = sfx;
			rv = VMK_OK;
			while (size > 0 && rv == VMK_OK) {
				n = pread(fd, buf, size < (long long)sizeof(buf) ?
				    (size_t)size : sizeof(buf), off);
				if (n <= 0 || write(ofd, buf, (size_t)n) != n) {
					errorf(cause, "vm: --kernel: %s: %s", k->arg,
					    n < 0 ? strerror(errno) : "cut short");
					rv = VMK_FAIL;
					break;
				}
				size -= n;
				off += n;
			}
			if (close(ofd) == -1 && rv == VMK_OK) {
				errorf(cause, "%s: %s", *out, strerror(errno));
				rv = VMK_FAIL;
			}
			break;
		}
		off += (off_t)size + (size & 1);
	}
	close(fd);
	if (rv == VMK_USAGE)
		errorf(cause, "vm: --kernel: %s: a Debian package without its "
		    "data.tar member", k->arg);
	return rv;
}

/* The only entry of dir whose name starts with prefix, or NULL. */
static char *
only_entry(const char *dir, const char *prefix)
{
	DIR		*d;
	struct dirent	*e;
	char		*found = NULL;
	int		 n = 0;

	if ((d = opendir(dir)) == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 &&
		    strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    n++ == 0)
			found = xstrdup(e->d_name);
	closedir(d);
	if (n != 1) {
		free(found);
		return NULL;
	}
	return found;
}

/*
 * The program tar needs for the package's data member (its name's
 * suffix), there: VMK_OK, else VMK_USAGE naming Debian's package of it.
 */
static int
have_unpacker(const struct vm_kernel *k, const char *data, char **cause)
{
	static const struct {
		const char	*sfx, *prog, *package;
	} z[] = { { ".xz", "xz", "xz-utils" }, { ".zst", "zstd", "zstd" },
	    { ".gz", "gzip", "gzip" }, { ".bz2", "bzip2", "bzip2" } };
	size_t	i, n = strlen(data);

	for (i = 0; i < sizeof(z) / sizeof(z[0]); i++)
		if (n > strlen(z[i].sfx) &&
		    strcmp(data + n - strlen(z[i].sfx), z[i].sfx) == 0 &&
		    !spawn_found(z[i].prog)) {
			errorf(cause, "vm: --kernel: %s: no %s to unpack its "
			    "%s: install Debian's %s package", k->arg,
			    z[i].prog, strrchr(data, '/') + 1, z[i].package);
			return VMK_USAGE;
		}
	return VMK_OK;
}

/* Unpack the package into k->dir/root; find its image and modules. */
static int
deb_unpack(struct vm_kernel *k, volatile sig_atomic_t *stop, char **cause)
{
	char	*data, *root, *name, *mods;
	char	*argv[] = { "tar", "-x", "--no-same-owner", "--no-same-permissions",
		    "--exclude=./usr/share", "-C", NULL, "-f", NULL, NULL };
	int	 rv;

	if ((rv = deb_data(k, &data, cause)) != VMK_OK)
		return rv;
	if ((rv = have_unpacker(k, data, cause)) != VMK_OK) {
		(void)unlink(data);
		free(data);
		return rv;
	}
	root = xasprintf("%s/root", k->dir);
	if (mkdir(root, 0700) == -1) {
		errorf(cause, "%s: %s", root, strerror(errno));
		rv = VMK_FAIL;
	} else {
		argv[6] = root;
		argv[8] = data;
		if (spawn_run(argv, -1, -1, stop, cause) == -1)
			rv = VMK_FAIL;
	}
	(void)unlink(data);
	free(data);
	if (rv == VMK_OK) {
		mods = xasprintf("%s/boot", root);
		if ((name = only_entry(mods, "vmlinuz-")) == NULL) {
			errorf(cause, "vm: --kernel: %s: no one boot/vmlinuz-* in the "
			    "package", k->arg);
			rv = VMK_USAGE;
		} else
			k->image = xasprintf("%s/%s", mods, name);
		free(name);
		free(mods);
	}
	/* lib/modules/RELEASE, or usr/lib/modules/RELEASE (merged /usr). */
	if (rv == VMK_OK) {
		mods = xasprintf("%s/lib/modules", root);
		if ((name = only_entry(mods, "")) == NULL) {
			free(mods);
			mods = xasprintf("%s/usr/lib/modules", root);
			name = only_entry(mods, "");
		}
		if (name != NULL)
			k->tree = xasprintf("%s/%s", mods, name);
		free(name);
		free(mods);
	}
	free(root);
	return rv;
}

/* What the guest needs before its file system's modules: virtio's disks. */
static const char *const virtio[] = { "virtio_pci", "virtio_blk" };

#define NVIRTIO	(sizeof(virtio) / sizeof(virtio[0]))

/*
 * The modules' dependencies as depmod's text: the tree's modules.dep,
 * modules.alias and modules.softdep one after the other, or when it has
 * no modules.dep (Debian ships none: depmod makes it at install) the
 * lines of the modules virtio's disks and the file systems fs[] need,
 * from their own .modinfo (vm_modules_text(), with the built-in lists of
 * b): *text (freed by the caller), VMK_OK, else VMK_USAGE / VMK_FAIL with
 * *cause.
 */
static int
deps_text(struct vm_kernel *k, const struct moddep *b, const char *const *fs,
    size_t nfs, char **text, size_t *tlen, volatile sig_atomic_t *stop,
    char **cause)
{
	static const char *const files[] = { "modules.dep", "modules.alias",
	    "modules.softdep" };
	struct vm_modules_req	 r;
	char			*path, *t, *why = NULL;
	size_t			 i, len;
	int			 rv;

	*text = NULL;
	path = xasprintf("%s/modules.dep", k->tree);
	if (access(path, R_OK) == 0) {
		free(path);
		*text = xstrdup("");
		*tlen = 0;
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			path = xasprintf("%s/%s", k->tree, files[i]);
			if ((t = slurp(path, &len)) != NULL) {
				*text = xrealloc(*text, *tlen + len + 2);
				memcpy(*text + *tlen, t, len);
				*tlen += len;
				(*text)[(*tlen)++] = '\n';
				(*text)[*tlen] = '\0';
			}
			free(t);
			free(path);
		}
		return VMK_OK;
	}
	free(path);
	r = (struct vm_modules_req){ .tree = k->tree, .builtin = b,
	    .want = virtio, .nwant = NVIRTIO, .fs = fs, .nfs = nfs,
	    .scratch = k->dir, .stop = stop };
	if ((rv = vm_modules_text(&r, text, tlen, &why)) != VMK_OK) {
		errorf(cause, "vm: --kernel: %s: %s", k->deb ? k->arg :
		    k->tree, why);
		free(why);
	}
	return rv;
}

/*
 * The modules' dependencies: the kernel cache's text, or deps_text()'s
 * for fs[].
 */
static int
read_deps(struct vm_kernel *k, struct moddep *d, const char *const *fs,
    size_t nfs, volatile sig_atomic_t *stop, char **cause)
{
	char	*text = NULL;
	size_t	 len = 0;
	int	 rv;

	if (k->depmod != NULL) {
		if ((text = slurp(k->depmod, &len)) == NULL) {
			errorf(cause, "vm: --kernel-cache: %s: %s", k->depmod,
			    strerror(errno));
			return VMK_FAIL;
		}
	} else if ((rv = deps_text(k, d, fs, nfs, &text, &len, stop,
	    cause)) != VMK_OK)
		return rv;
	rv = moddep_parse(d, text, len, cause) == 0 ? VMK_OK : VMK_USAGE;
	free(text);
	return rv;
}

static void
read_builtin(struct vm_kernel *k, struct moddep *d)
{
	char	*path, *text;
	size_t	 len;

	path = xasprintf("%s/modules.builtin", k->tree);
	if ((text = slurp(path, &len)) != NULL)
		moddep_parse_builtin(d, text, len);
	free(text);
	free(path);
	path = xasprintf("%s/modules.builtin.modinfo", k->tree);
	if ((text = slurp(path, &len)) != NULL)
		moddep_parse_builtin_modinfo(d, text, len);
	free(text);
	free(path);
}

/* The module of that name, or the one "fs-NAME" stands for. */
static char *
fs_module(const struct moddep *d, const char *fs)
{
	return moddep_find(d, fs) != NULL || moddep_is_builtin(d, fs) ?
	    xstrdup(fs) : xasprintf("fs-%s", fs);
}

/* The modules for virtio's disk and fs, and the initramfs with them. */
static int
modules_and_initrd(struct vm_kernel *k, const char *const *fs, int nfs,
    const char *initrd, volatile sig_atomic_t *stop, char **cause)
{
	struct moddep		 d;
	struct moddep_load	*l = NULL;
	const char		**want;
	char			**fsmod, *why = NULL;
	size_t			 n = 0, nwant = NVIRTIO;
	int			 rv = VMK_OK, i;

	moddep_init(&d);
	want = xcalloc((size_t)nfs + NVIRTIO, sizeof(*want));
	fsmod = xcalloc((size_t)nfs + 1, sizeof(*fsmod));
	memcpy(want, virtio, sizeof(virtio));
	if (k->tree != NULL) {
		read_builtin(k, &d);
		rv = read_deps(k, &d, fs, (size_t)nfs, stop, cause);
	}
	if (rv == VMK_OK && k->tree != NULL) {
		for (i = 0; i < nfs; i++) {
			if (strcmp(fs[i], "none") == 0)
				continue;
			fsmod[i] = fs_module(&d, fs[i]);
			want[nwant++] = fsmod[i];
		}
		if (moddep_closure(&d, want, nwant, &l, &n, &why) == -1) {
			errorf(cause, "vm: --kernel: %s: %s (in %s)", k->arg, why,
			    k->tree);
			free(why);
			rv = VMK_USAGE;
		}
	}
	if (rv == VMK_OK)
		rv = vm_initrd_write(initrd, k->tree, l, n, k->dir, stop, cause);
	k->nmodules = n;
	free(l);
	for (i = 0; i < nfs; i++)
		free(fsmod[i]);
	free(fsmod);
	free(want);
	moddep_free(&d);
	return rv;
}

/*
 * The kernel cache (--kernel-cache DIR): a Debian package made ready once,
 * kept as DIR/SHA-256-of-the-package, a tree as the package has it with
 * only what the guests need: boot/vmlinuz-*, lib/modules/RELEASE with
 * its modules.builtin files and the modules of virtio's disks and of
 * every file system vm knows (their closures), and depmod.txt, their
 * dependencies in depmod's text (deps_text()'s; an entry of a version
 * that ran depmod -n has every module's).  A later command with the same
 * package neither unpacks it nor reads a module's .modinfo.
 */
static const char *const kcache_fs[] = { "ext4", "ext2", "xfs" };

/* Copy from to a new file to (never over one). 0, or -1 with *cause. */
static int
copy_new(const char *from, const char *to, char **cause)
{
	char	 buf[65536];
	ssize_t	 n;
	int	 in, out, rv = 0;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) == -1)
		return errorf(cause, "%s: %s", from, strerror(errno));
	if ((out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0644)) == -1) {
		close(in);
		return errorf(cause, "%s: %s", to, strerror(errno));
	}
	while (rv == 0 && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || write(out, buf, (size_t)n) != n)
			rv = errorf(cause, "%s: %s", n == -1 ? from : to,
			    strerror(errno));
	}
	close(in);
	if (close(out) == -1 && rv == 0)
		rv = errorf(cause, "%s: %s", to, strerror(errno));
	return rv;
}

/* The directories of rel (a path under base) made. 0, or -1. */
static int
make_dirs(const char *base, const char *rel, char **cause)
{
	char	*p, *s;
	int	 rv = 0;

	p = xasprintf("%s/%s", base, rel);
	for (s = p + strlen(base) + 1; rv == 0 && (s = strchr(s, '/')) !=
	    NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST)
			rv = errorf(cause, "%s: %s", p, strerror(errno));
		*s = '/';
	}
	free(p);
	return rv;
}

/* Whether tree/rel is there. */
static int
kcache_has(const char *tree, const char *rel)
{
	char	*p;
	int	 there;

	p = xasprintf("%s/%s", tree, rel);
	there = access(p, F_OK) == 0;
	free(p);
	return there;
}

/* Copy tree/rel to new/rel, its directories made. 0, or -1. */
static int
copy_rel(const char *tree, const char *new, const char *rel, char **cause)
{
	char	*from, *to;
	int	 rv;

	if (make_dirs(new, rel, cause) == -1)
		return -1;
	from = xasprintf("%s/%s", tree, rel);
	to = xasprintf("%s/%s", new, rel);
	rv = copy_new(from, to, cause);
	free(from);
	free(to);
	return rv;
}

/*
 * The modules every file system needs, into the new tree newtree: each
 * file system's closure with virtio's (one a package lacks is left out:
 * a cell asking for it is refused as without the cache).
 */
static int
kcache_modules(struct vm_kernel *k, struct moddep *d, const char *newtree,
    char **cause)
{
	struct moddep_load	*l;
	const char		*want[NVIRTIO + 1];
	char			*why = NULL, *fsmod;
	size_t			 n, i, j;
	int			 rv = 0;

	memcpy(want, virtio, sizeof(virtio));
	for (i = 0; rv == 0 && i < sizeof(kcache_fs) / sizeof(kcache_fs[0]);
	    i++) {
		want[NVIRTIO] = fsmod = fs_module(d, kcache_fs[i]);
		l = NULL;
		n = 0;
		if (moddep_closure(d, want, NVIRTIO + 1, &l, &n, &why) == -1) {
			free(why);
			why = NULL;
			n = 0;
		}
		for (j = 0; rv == 0 && j < n; j++)
			if (!kcache_has(newtree, l[j].mod->path))
				rv = copy_rel(k->tree, newtree, l[j].mod->path,
				    cause);
		free(l);
		free(fsmod);
	}
	return rv;
}

/* Write len bytes of text to a new file path. 0, or -1 with *cause. */
static int
write_new(const char *path, const char *text, size_t len, char **cause)
{
	int	fd, rv = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0644)) == -1)
		return errorf(cause, "%s: %s", path, strerror(errno));
	if (write(fd, text, len) != (ssize_t)len)
		rv = errorf(cause, "%s: %s", path, strerror(errno));
	if (close(fd) == -1 && rv == 0)
		rv = errorf(cause, "%s: %s", path, strerror(errno));
	return rv;
}

/*
 * The unpacked package's entry, written in new (a directory of the
 * cache's, renamed into place by the caller): its image, depmod.txt, the
 * builtin lists and the modules.  VMK_OK, or VMK_* with *cause.
 */
static int
kcache_write(struct vm_kernel *k, const char *new, volatile sig_atomic_t *stop,
    char **cause)
{
	static const char *const lists[] = { "modules.builtin",
	    "modules.builtin.modinfo" };
	struct moddep	 d;
	char		*text = NULL, *tree, *p;
	size_t		 len = 0, i;
	int		 rv;

	moddep_init(&d);
	read_builtin(k, &d);
	if ((rv = deps_text(k, &d, kcache_fs, sizeof(kcache_fs) /
	    sizeof(kcache_fs[0]), &text, &len, stop, cause)) != VMK_OK) {
		moddep_free(&d);
		return rv;
	}
	if (moddep_parse(&d, text, len, cause) == -1)
		rv = VMK_USAGE;
	p = xasprintf("%s/depmod.txt", new);
	if (rv == VMK_OK && write_new(p, text, len, cause) == -1)
		rv = VMK_FAIL;
	free(p);
	free(text);
	/* boot/vmlinuz-RELEASE, and lib/modules/RELEASE. */
	p = xasprintf("%s/boot/%s", new, strrchr(k->image, '/') + 1);
	tree = xasprintf("lib/modules/%s/", strrchr(k->tree, '/') + 1);
	if (rv == VMK_OK && (make_dirs(new, "boot/", cause) == -1 ||
	    copy_new(k->image, p, cause) == -1 ||
	    make_dirs(new, tree, cause) == -1))
		rv = VMK_FAIL;
	free(p);
	p = tree;
	tree = xasprintf("%s/%s", new, p);
	free(p);
	for (i = 0; rv == VMK_OK && i < sizeof(lists) / sizeof(lists[0]); i++)
		if (kcache_has(k->tree, lists[i]) &&
		    copy_rel(k->tree, tree, lists[i], cause) == -1)
			rv = VMK_FAIL;
	if (rv == VMK_OK && kcache_modules(k, &d, tree, cause) == -1)
		rv = VMK_FAIL;
	moddep_free(&d);
	free(tree);
	return rv;
}

/* k made ready from the entry dir: its image, tree and depmod.txt. */
static int
kcache_use(struct vm_kernel *k, const char *dir, char **cause)
{
	char	*sub, *name;

	free(k->image);
	free(k->tree);
	free(k->depmod);
	k->image = k->tree = k->depmod = NULL;
	sub = xasprintf("%s/boot", dir);
	if ((name = only_entry(sub, "vmlinuz-")) != NULL)
		k->image = xasprintf("%s/%s", sub, name);
	free(name);
	free(sub);
	sub = xasprintf("%s/lib/modules", dir);
	if ((name = only_entry(sub, "")) != NULL)
		k->tree = xasprintf("%s/%s", sub, name);
	free(name);
	free(sub);
	k->depmod = xasprintf("%s/depmod.txt", dir);
	if (k->image == NULL || k->tree == NULL || access(k->depmod, R_OK)) {
		errorf(cause, "vm: --kernel-cache: %s: not a kernel made ready "
		    "by bonnie-ng (remove it)", dir);
		return VMK_FAIL;
	}
	return VMK_OK;
}

/*
 * The package unpacked and written into the cache as entry: in a new
 * directory beside it, renamed into place when whole (another command
 * that filled it first wins, ours removed).
 */
static int
kcache_fill(struct vm_kernel *k, const char *entry, const char *hex,
    volatile sig_atomic_t *stop, char **cause)
{
	char	*new;
	int	 rv;

	if ((rv = deb_unpack(k, stop, cause)) != VMK_OK)
		return rv;
	if (k->tree == NULL)
		return VMK_OK;		/* No modules: nothing worth keeping. */
	new = xasprintf("%s/.new-%s.%ld", k->cache, hex, (long)getpid());
	if (mkdir(new, 0755) == -1) {
		errorf(cause, "vm: --kernel-cache: %s: %s", new,
		    strerror(errno));
		free(new);
		return VMK_FAIL;
	}
	rv = kcache_write(k, new, stop, cause);
	if (rv == VMK_OK && rename(new, entry) == -1 && errno != EEXIST &&
	    errno != ENOTEMPTY) {
		errorf(cause, "vm: --kernel-cache: %s: %s", entry,
		    strerror(errno));
		rv = VMK_FAIL;
	}
	(void)tmptree_remove(new);	/* Gone when renamed. */
	free(new);
	if (rv == VMK_OK && (rv = kcache_use(k, entry, cause)) == VMK_OK)
		k->cached = 2;
	return rv;
}

/* A package through the cache: its entry used, or made. */
static int
kcache_prepare(struct vm_kernel *k, volatile sig_atomic_t *stop,
    char **cause)
{
	struct stat	 st;
	char		 hex[65], *entry;
	int		 fd, rv, there;

	if ((fd = open(k->arg, O_RDONLY | O_CLOEXEC)) == -1 ||
	    sha256_fd(fd, hex) == -1) {
		errorf(cause, "vm: --kernel: %s: %s", k->arg, strerror(errno));
		if (fd != -1)
			close(fd);
		return VMK_FAIL;
	}
	close(fd);
	if (mkdir(k->cache, 0755) == -1 && errno != EEXIST) {
		errorf(cause, "vm: --kernel-cache: %s: %s", k->cache,
		    strerror(errno));
		return VMK_FAIL;
	}
	entry = xasprintf("%s/%s", k->cache, hex);
	there = lstat(entry, &st) == 0;
	if (there && S_ISDIR(st.st_mode)) {
		if ((rv = kcache_use(k, entry, cause)) == VMK_OK)
			k->cached = 1;
	} else if (!there && errno == ENOENT)
		rv = kcache_fill(k, entry, hex, stop, cause);
	else {
		errorf(cause, "vm: --kernel-cache: %s: %s", entry, there ?
		    "not a directory" : strerror(errno));
		rv = VMK_FAIL;
	}
	free(entry);
	return rv;
}

int
vm_kernel_prepare(struct vm_kernel *k, const char *top, int index,
    const char *const *fs, int nfs, volatile sig_atomic_t *stop,
    char **cause)
{
	struct stat	 st;
	char		*initrd;
	int		 rv = VMK_OK;

	k->dir = xasprintf("%s/kernel%d", top, index);
	if (mkdir(k->dir, 0700) == -1) {
		errorf(cause, "%s: %s", k->dir, strerror(errno));
		free(k->dir);
		k->dir = NULL;
		return VMK_FAIL;
	}
	if (k->deb && k->cache != NULL)
		rv = kcache_prepare(k, stop, cause);
	else if (k->deb)
		rv = deb_unpack(k, stop, cause);
	else {
		k->image = xstrdup(k->arg);
		if (k->modules_arg != NULL)
			k->tree = xstrdup(k->modules_arg);
	}
	if (rv == VMK_OK && k->tree != NULL && stat(k->tree, &st) == -1) {
		errorf(cause, "vm: --modules: %s: %s", k->tree, strerror(errno));
		rv = VMK_USAGE;
	} else if (rv == VMK_OK && k->tree != NULL && !S_ISDIR(st.st_mode)) {
		errorf(cause, "vm: --modules: %s: not a directory", k->tree);
		rv = VMK_USAGE;
	}
	if (rv == VMK_OK && (k->image_fd = open(k->image, O_RDONLY |
	    O_CLOEXEC)) == -1) {
		errorf(cause, "%s: %s", k->image, strerror(errno));
		rv = VMK_FAIL;
	}
	if (rv == VMK_OK && !is_bzimage(k->image_fd)) {
		errorf(cause, "vm: --kernel: %s: not a kernel image (no bzImage "
		    "setup header)", k->image);
		rv = VMK_USAGE;
	}
	if (rv == VMK_OK && sha256_fd(k->image_fd, k->sha256) == -1) {
		errorf(cause, "%s: %s", k->image, strerror(errno));
		rv = VMK_FAIL;
	}
	if (rv == VMK_OK)
		k->release = k->tree != NULL ?
		    xstrdup(strrchr(k->tree, '/') + 1) :
		    image_release(k->image_fd);
	if (rv == VMK_OK && k->release == NULL)
		k->release = xstrdup("unknown");
	initrd = xasprintf("%s/initrd.cpio", k->dir);
	if (rv == VMK_OK)
		rv = modules_and_initrd(k, fs, nfs, initrd, stop, cause);
	if (rv == VMK_OK && (k->initrd_fd = open(initrd, O_RDONLY |
	    O_CLOEXEC)) == -1) {
		errorf(cause, "%s: %s", initrd, strerror(errno));
		rv = VMK_FAIL;
	}
	if (rv == VMK_OK && fstat(k->initrd_fd, &st) == 0)
		k->initrd_bytes = (uint64_t)st.st_size;
	free(initrd);
	/* Open now: the files themselves are no longer needed. */
	if (tmptree_remove(k->dir) == -1 && rv == VMK_OK) {
		errorf(cause, "%s: %s", k->dir, strerror(errno));
		rv = VMK_FAIL;
	}
	free(k->dir);
	k->dir = NULL;
	return rv;
}
