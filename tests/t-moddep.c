/*
 * The modules.dep closure (src/moddep.c): depmod's files made here, for
 * a kernel shaped as Debian's 6.1 (virtio as modules, ext4 with a soft
 * dependency on crc32c through an alias) and as 6.12 (virtio built in,
 * modules compressed); the load order, what is soft, what is built in,
 * and the refusals that name what is missing.  A module's .modinfo
 * (src/modinfo.c) from ELF objects made here (64-bit little-endian,
 * 32-bit big-endian), and the same text from a tree of them without
 * modules.dep (src/vm-modules.c): only the modules on the way read, the
 * aliases found, a compressed module read, what is missing named.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "moddep.h"
#include "modinfo.h"
#include "spawn.h"
#include "tmptree.h"
#include "vm-kernel.h"
#include "tap.h"

/* modules.dep, modules.alias and modules.softdep, as depmod -n prints them. */
static const char dep61[] =
    "kernel/fs/mbcache.ko:\n"
    "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko kernel/fs/mbcache.ko "
    "kernel/fs/jbd2/jbd2.ko\n"
    "kernel/fs/jbd2/jbd2.ko:\n"
    "kernel/lib/crc16.ko:\n"
    "kernel/crypto/crc32c_generic.ko:\n"
    "kernel/arch/x86/crypto/crc32c-intel.ko:\n"
    "kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko\n"
    "kernel/drivers/virtio/virtio_ring.ko:\n"
    "kernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
    "kernel/drivers/virtio/virtio_pci_legacy_dev.ko:\n"
    "kernel/drivers/virtio/virtio_pci.ko: "
    "kernel/drivers/virtio/virtio_pci_legacy_dev.ko "
    "kernel/drivers/virtio/virtio_pci_modern_dev.ko "
    "kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
    "kernel/drivers/block/virtio_blk.ko: kernel/drivers/virtio/virtio.ko "
    "kernel/drivers/virtio/virtio_ring.ko\n"
    "kernel/fs/xfs/xfs.ko: kernel/lib/libcrc32c.ko\n"
    "# Aliases extracted from modules themselves.\n"
    "alias fs-ext4 ext4\n"
    "alias fs-ext2 ext4\n"
    "alias crypto-crc32c crc32c_intel\n"
    "alias crypto-crc32c crc32c_generic\n"
    "alias pci:v00001AF4d*sv*sd*bc*sc*i* virtio_pci\n"
    "alias symbol:jbd2_journal_start jbd2\n"
    "# Soft dependencies extracted from modules themselves.\n"
    "softdep ext4 pre: crypto-crc32c\n"
    "softdep jbd2 pre: crypto-crc32c\n"
    "softdep nothere pre: crc32\n"
    "# Device nodes to trigger on-demand module loading.\n"
    "fuse fuse c10:229\n";

static const char dep612[] =
    "kernel/drivers/block/virtio_blk.ko.xz:\n"
    "kernel/fs/ext4/ext4.ko.xz: kernel/lib/crc16.ko.xz "
    "kernel/fs/mbcache.ko.xz kernel/fs/jbd2/jbd2.ko.xz\n"
    "kernel/fs/mbcache.ko.xz:\n"
    "kernel/fs/jbd2/jbd2.ko.xz:\n"
    "kernel/lib/crc16.ko.xz:";		/* No newline at the end. */

static const char builtin612[] =
    "kernel/drivers/virtio/virtio.ko\n"
    "kernel/drivers/virtio/virtio_ring.ko\n"
    "kernel/drivers/virtio/virtio_pci.ko\n";

/* "virtio_ring virtio ...", soft ones with a "~", for one compare. */
static char *
order(const struct moddep_load *l, size_t n)
{
	static char	s[1024];
	size_t		i;

	s[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(s, " ");
		if (l[i].soft)
			strcat(s, "~");
		strcat(s, l[i].mod->name);
	}
	return s;
}

static void
test_61(void)
{
	struct moddep		 d;
	struct moddep_load	*l = NULL;
	const struct moddep_mod	*m;
	const char		*want[] = { "virtio_pci", "virtio_blk", "fs-ext2" };
	const char		*bad[] = { "virtio-blk", "btrfs", "virtio_pci",
				    "fs-zfs" };
	char			*cause = NULL;
	size_t			 n = 0;

	moddep_init(&d);
	ok(moddep_parse(&d, dep61, sizeof(dep61) - 1, &cause) == 0,
	    "6.1's depmod text parses");
	is_int((int)d.nmods, 13, "thirteen modules (a devname line is not one)");
	m = moddep_find(&d, "crc32c_intel");
	ok(m != NULL && strcmp(m->path,
	    "kernel/arch/x86/crypto/crc32c-intel.ko") == 0,
	    "crc32c-intel.ko is the module crc32c_intel, its path kept");
	m = moddep_find(&d, "ext4");
	ok(m != NULL && m->ndeps == 3 && m->npre == 1 &&
	    strcmp(m->pre[0], "crypto_crc32c") == 0,
	    "ext4: three dependencies and its soft one");
	is_int((int)d.naliases, 4, "four aliases kept (not the pattern nor "
	    "the symbol)");
	ok(moddep_closure(&d, want, 3, &l, &n, &cause) == 0, "the closure of "
	    "virtio_pci, virtio_blk and fs-ext2");
	is_str(order(l, n), "virtio_pci_legacy_dev virtio_pci_modern_dev "
	    "virtio_ring virtio virtio_pci virtio_blk ~crc32c_intel "
	    "~crc32c_generic crc16 mbcache jbd2 ext4",
	    "each module after what it needs, once; the alias's modules soft "
	    "and first");
	free(l);
	/* A soft one needed by a later wanted name becomes hard. */
	want[0] = "fs-ext4";
	want[1] = "crc32c-generic";
	ok(moddep_closure(&d, want, 2, &l, &n, &cause) == 0 &&
	    strcmp(order(l, n), "~crc32c_intel crc32c_generic crc16 mbcache "
	    "jbd2 ext4") == 0, "a soft module wanted later is loaded as hard");
	free(l);
	ok(moddep_closure(&d, bad, 4, &l, &n, &cause) == -1 && cause != NULL &&
	    strstr(cause, "btrfs, fs-zfs:") != NULL &&
	    strstr(cause, "virtio-blk") == NULL, "the names neither there nor "
	    "built in are named, each once, the others found ('-' is '_')");
	printf("# %s\n", cause);
	free(cause);
	cause = NULL;
	ok(l == NULL && n == 0, "and nothing is returned");
	moddep_free(&d);
}

static void
test_612(void)
{
	struct moddep		 d;
	struct moddep_load	*l = NULL;
	const char		*want[] = { "virtio_pci", "virtio_blk", "ext4" };
	char			*cause = NULL;
	static const char	 bmi[] = "virtio.file=drivers/virtio/virtio\0"
				    "ext2.alias=fs-ext2\0xyz.alias=pci:*\0";
	size_t			 n = 0;

	moddep_init(&d);
	ok(moddep_parse(&d, dep612, sizeof(dep612) - 1, &cause) == 0,
	    "6.12's modules.dep parses");
	moddep_parse_builtin(&d, builtin612, sizeof(builtin612) - 1);
	moddep_parse_builtin_modinfo(&d, bmi, sizeof(bmi) - 1);
	ok(moddep_is_builtin(&d, "virtio_pci") && !moddep_is_builtin(&d,
	    "virtio_blk"), "modules.builtin: virtio_pci is built in");
	ok(moddep_is_builtin(&d, "fs-ext2") && !moddep_is_builtin(&d,
	    "pci:*"), "modules.builtin.modinfo: a built-in alias");
	ok(moddep_closure(&d, want, 3, &l, &n, &cause) == 0, "the closure of "
	    "6.12's");
	is_str(order(l, n), "virtio_blk crc16 mbcache jbd2 ext4",
	    "what is built in is not loaded; compressed paths are modules");
	ok(n > 0 && strcmp(l[0].mod->path,
	    "kernel/drivers/block/virtio_blk.ko.xz") == 0, "the path as "
	    "modules.dep has it, .xz and all");
	free(l);
	moddep_free(&d);
	moddep_init(&d);
	ok(moddep_parse(&d, "kernel/a.ko\n", 12, &cause) == -1 &&
	    cause != NULL && strstr(cause, "\"kernel/a.ko\"") != NULL,
	    "a modules.dep line without its colon is refused, named");
	free(cause);
	cause = NULL;
	ok(moddep_parse(&d, "kernel/a.ko: kernel/b.ko\n", 25, &cause) == 0 &&
	    moddep_closure(&d, want + 2, 0, &l, &n, &cause) == 0 && n == 0,
	    "nothing wanted, nothing loaded");
	free(l);
	want[0] = "a";
	ok(moddep_closure(&d, want, 1, &l, &n, &cause) == -1 &&
	    cause != NULL && strstr(cause, "b (which a needs)") != NULL,
	    "a dependency not in modules.dep names the module that needs it");
	free(cause);
	moddep_free(&d);
}

/* An n-byte field at p, little-endian or big-endian. */
static void
put_field(unsigned char *p, unsigned n, uint64_t v, int lsb)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		p[lsb ? i : n - 1 - i] = (unsigned char)(v >> (8 * i));
}

/*
 * An ELF relocatable object at path whose .modinfo is the len bytes of
 * mi (strings with their NULs), 64-bit little-endian or 32-bit
 * big-endian: the header, .modinfo, the section names, three section
 * headers (none, .modinfo, .shstrtab).  0, or -1.
 */
static int
write_elf(const char *path, const char *mi, size_t len, int is64)
{
	static const char	 names[] = "\0.modinfo\0.shstrtab";
	unsigned char		 buf[4096];
	unsigned		 eh = is64 ? 64 : 52, es = is64 ? 64 : 40;
	unsigned		 w = is64 ? 8 : 4, lsb = is64, off, i;
	size_t			 shoff;
	FILE			*f;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, "\177ELF", 4);
	buf[4] = is64 ? 2 : 1;
	buf[5] = is64 ? 1 : 2;
	buf[6] = 1;
	put_field(buf + 16, 2, 1, lsb);				/* ET_REL */
	memcpy(buf + eh, mi, len);
	memcpy(buf + eh + len, names, sizeof(names));
	shoff = (eh + len + sizeof(names) + 7) & ~(size_t)7;
	if (shoff + 3 * es > sizeof(buf))
		return -1;
	put_field(buf + (is64 ? 0x28 : 0x20), w, shoff, lsb);	/* e_shoff */
	put_field(buf + (is64 ? 0x34 : 0x28), 2, eh, lsb);	/* e_ehsize */
	put_field(buf + (is64 ? 0x3a : 0x2e), 2, es, lsb);
	put_field(buf + (is64 ? 0x3c : 0x30), 2, 3, lsb);
	put_field(buf + (is64 ? 0x3e : 0x32), 2, 2, lsb);
	for (i = 1; i < 3; i++) {
		unsigned char	*sh = buf + shoff + i * es;

		off = i == 1 ? eh : eh + (unsigned)len;
		put_field(sh, 4, i == 1 ? 1 : 10, lsb);		/* sh_name */
		put_field(sh + 4, 4, i == 1 ? 1 : 3, lsb);	/* PROGBITS, STRTAB */
		put_field(sh + (is64 ? 24 : 16), w, off, lsb);
		put_field(sh + (is64 ? 32 : 20), w, i == 1 ? len :
		    sizeof(names), lsb);
	}
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	if (fwrite(buf, 1, shoff + 3 * es, f) != shoff + 3 * es) {
		fclose(f);
		return -1;
	}
	return fclose(f) == 0 ? 0 : -1;
}

static void
test_modinfo(const char *dir)
{
	static const char	 mi[] = "license=GPL\0depends=jbd2,mbcache,crc16"
				    "\0\0\0alias=fs-ext2\0softdep=pre: crypto-crc32c"
				    "\0alias=ext2\0depends=";
	const char		*v;
	char			*path, *got, *cause = NULL;
	size_t			 len = 0, at;
	int			 is64, fd;

	path = malloc(strlen(dir) + 16);
	for (is64 = 1; is64 >= 0; is64--) {
		sprintf(path, "%s/m%d.ko", dir, is64);
		ok(write_elf(path, mi, sizeof(mi), is64) == 0, "an object made");
		fd = open(path, O_RDONLY);
		got = modinfo_read(fd, &len, &cause);
		ok(got != NULL && len == sizeof(mi) &&
		    memcmp(got, mi, len) == 0, is64 ? ".modinfo of a 64-bit "
		    "little-endian object" : ".modinfo of a 32-bit big-endian "
		    "object");
		close(fd);
		at = 0;
		v = got != NULL ? modinfo_next(got, len, "depends", &at) : NULL;
		is_str(v, "jbd2,mbcache,crc16", "depends=, the first");
		v = got != NULL ? modinfo_next(got, len, "depends", &at) : NULL;
		is_str(v, "", "depends=, the second, empty (past NULs between)");
		ok(got != NULL && modinfo_next(got, len, "depends", &at) ==
		    NULL, "then none");
		at = 0;
		v = got != NULL ? modinfo_next(got, len, "alias", &at) : NULL;
		v = got != NULL ? modinfo_next(got, len, "alias", &at) : NULL;
		is_str(v, "ext2", "alias=, the second");
		free(got);
	}
	fd = open(path, O_RDWR);
	ok(fd != -1 && ftruncate(fd, 100) == 0 && modinfo_read(fd, &len,
	    &cause) == NULL && cause != NULL && strcmp(cause,
	    "section headers past the file's end") == 0,
	    "an object cut short is refused, saying so");
	free(cause);
	cause = NULL;
	close(fd);
	fd = open(path, O_WRONLY | O_TRUNC);
	ok(fd != -1 && write(fd, "ko\n", 3) == 3, "a text file");
	close(fd);
	fd = open(path, O_RDONLY);
	ok(modinfo_read(fd, &len, &cause) == NULL && cause != NULL &&
	    strcmp(cause, "not an ELF object") == 0, "... is not an object");
	free(cause);
	close(fd);
	free(path);
}

/* The tree of test_tree(): a path under kernel/, its .modinfo. */
static const struct {
	const char	*rel;
	const char	*mi;
	size_t		 len;
} tree61[] = {
#define M(rel, mi)	{ rel, mi, sizeof(mi) }
	M("kernel/drivers/virtio/virtio.ko", "depends=virtio_ring"),
	M("kernel/drivers/virtio/virtio_ring.ko", "depends="),
	M("kernel/drivers/virtio/virtio_pci.ko", "alias=pci:v00001AF4d*\0"
	    "depends=virtio,virtio_ring"),
	M("kernel/drivers/block/virtio_blk.ko", "depends=virtio,virtio_ring"),
	M("kernel/fs/ext4/ext4.ko", "softdep=pre: crypto-crc32c\0"
	    "alias=fs-ext4\0alias=fs-ext2\0depends=jbd2,mbcache,crc16"),
	M("kernel/fs/jbd2/jbd2.ko", "softdep=pre: crypto-crc32c\0depends="),
	M("kernel/fs/mbcache.ko", "depends="),
	M("kernel/lib/crc16.ko", "depends="),
	M("updates/crc16.ko", "depends="),
	M("kernel/crypto/crc32c_generic.ko", "alias=crc32c\0"
	    "alias=crypto-crc32c\0depends="),
	M("kernel/arch/x86/crypto/crc32c-intel.ko", "alias=crc32c\0"
	    "alias=crypto-crc32c\0depends="),
	M("kernel/fs/xfs/xfs.ko", "alias=fs-xfs\0depends=libcrc32c,nothere"),
	M("kernel/lib/libcrc32c.ko", "softdep=pre: crc32c\0depends="),
	M("kernel/drivers/extcon/extcon-usb.ko", "depends="),
	M("kernel/net/other.ko", "alias=net-pf-99\0depends="),
#undef M
};

/* The text vm_modules_text() gives for want and fs; VMK_*. */
static int
tree_text(const char *top, const char *const *want, size_t nwant,
    const char *const *fs, size_t nfs, struct moddep *d, char **text,
    char **cause)
{
	static volatile sig_atomic_t	stop;
	struct vm_modules_req		r;
	size_t				len = 0;
	char				*tree;
	int				rv;

	tree = malloc(strlen(top) + 8);
	sprintf(tree, "%s/tree", top);
	r = (struct vm_modules_req){ .tree = tree, .builtin = d,
	    .want = want, .nwant = nwant, .fs = fs, .nfs = nfs,
	    .scratch = top, .stop = &stop };
	*text = NULL;
	rv = vm_modules_text(&r, text, &len, cause);
	if (rv == VMK_OK)
		rv = moddep_parse(d, *text, len, cause) == 0 ? VMK_OK : -1;
	free(tree);
	return rv;
}

static void
test_tree(const char *top)
{
	struct moddep		 d;
	struct moddep_load	*l = NULL;
	const char		*want[] = { "virtio_pci", "virtio_blk", "fs-ext2" };
	const char		*fs[] = { "ext2", "none" }, *fs2[] = { "xfs" };
	const char		*fs3[] = { "btrfs" };
	char			*path, *text, *cause = NULL, *argv[4];
	size_t			 i, n = 0;
	int			 made = 0;

	path = malloc(strlen(top) + 64);
	sprintf(path, "%s/tree", top);
	(void)mkdir(path, 0755);
	for (i = 0; i < sizeof(tree61) / sizeof(tree61[0]); i++) {
		const char	*rel = tree61[i].rel, *s;

		for (s = strchr(rel, '/'); s != NULL; s = strchr(s + 1, '/')) {
			sprintf(path, "%s/tree/%.*s", top, (int)(s - rel), rel);
			(void)mkdir(path, 0755);
		}
		sprintf(path, "%s/tree/%s", top, rel);
		made += write_elf(path, tree61[i].mi, tree61[i].len, 1) == 0;
	}
	is_int(made, sizeof(tree61) / sizeof(tree61[0]), "a tree of modules "
	    "made, no modules.dep");
	/* ext4 compressed, when gzip is there. */
	sprintf(path, "%s/tree/kernel/fs/ext4/ext4.ko", top);
	argv[0] = "gzip";
	argv[1] = "-n";
	argv[2] = path;
	argv[3] = NULL;
	if (spawn_found("gzip") && spawn_run(argv, -1, -1, NULL, &cause) == 0)
		ok(1, "ext4.ko.gz");
	else
		tap_skip("no gzip: ext4.ko stays uncompressed");
	moddep_init(&d);
	ok(tree_text(top, want, 2, fs, 2, &d, &text, &cause) == VMK_OK,
	    "its text: virtio's, and ext2's (none needs none)");
	ok(strstr(text, "kernel/fs/ext4/ext4.ko") != NULL &&
	    strstr(text, "kernel/net/other.ko") == NULL &&
	    strstr(text, "kernel/fs/xfs") == NULL, "only the modules on the "
	    "way read (ext4 for fs-ext2), not the others");
	ok(strstr(text, " updates/crc16.ko") != NULL, "a dependency's file "
	    "under updates/ before kernel/'s");
	ok(moddep_closure(&d, want, 3, &l, &n, &cause) == 0, "its closure");
	is_str(order(l, n), "virtio_ring virtio virtio_pci virtio_blk "
	    "~crc32c_generic ~crc32c_intel jbd2 mbcache crc16 ext4",
	    "the modules as from depmod's text, the alias's soft ones found by "
	    "their names (crc32c)");
	free(l);
	free(text);
	moddep_free(&d);
	moddep_init(&d);
	ok(tree_text(top, want, 0, fs2, 1, &d, &text, &cause) == VMK_OK &&
	    moddep_closure(&d, fs2, 1, &l, &n, &cause) == -1 &&
	    cause != NULL && strstr(cause, "nothere (which xfs needs)") !=
	    NULL, "a dependency not in the tree is named with what needs it");
	printf("# %s\n", cause);
	free(cause);
	cause = NULL;
	free(text);
	moddep_free(&d);
	moddep_init(&d);
	ok(tree_text(top, want, 0, fs3, 1, &d, &text, &cause) == VMK_OK &&
	    strstr(text, "kernel/net/other.ko") != NULL, "a file system "
	    "found by no name: every module read for its alias");
	want[0] = "fs-btrfs";
	ok(moddep_closure(&d, want, 1, &l, &n, &cause) == -1 &&
	    cause != NULL && strstr(cause, "fs-btrfs") != NULL,
	    "and the closure names it");
	free(cause);
	cause = NULL;
	free(text);
	moddep_free(&d);
	/* A module needed that is not one: refused, naming it. */
	sprintf(path, "%s/tree/kernel/fs/mbcache.ko", top);
	ok(truncate(path, 10) == 0, "mbcache.ko cut short");
	moddep_init(&d);
	want[0] = "fs-ext4";
	ok(tree_text(top, want, 1, fs, 0, &d, &text, &cause) == VMK_USAGE &&
	    cause != NULL && strstr(cause, "mbcache.ko: not an ELF object") !=
	    NULL, "a module needed that cannot be read: refused, named");
	printf("# %s\n", cause);
	free(cause);
	moddep_free(&d);
	free(path);
}

int
main(void)
{
	char	*s, *top = NULL, *cause = NULL;

	s = moddep_name("kernel/arch/x86/crypto/crc32c-intel.ko.zst");
	is_str(s, "crc32c_intel", "a module's name from its path");
	free(s);
	test_61();
	test_612();
	if (tmptree_make("t-moddep", &top, &cause) == -1) {
		ok(0, cause);
		return done_testing();
	}
	test_modinfo(top);
	test_tree(top);
	(void)tmptree_remove(top);
	free(top);
	return done_testing();
}
