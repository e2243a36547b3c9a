/*
 * The modules.dep closure (src/moddep.c): depmod's files made here, for
 * a kernel shaped as Debian's 6.1 (virtio as modules, ext4 with a soft
 * dependency on crc32c through an alias) and as 6.12 (virtio built in,
 * modules compressed); the load order, what is soft, what is built in,
 * and the refusals that name what is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moddep.h"
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

int
main(void)
{
	char	*s;

	(void)tap_skip;
	s = moddep_name("kernel/arch/x86/crypto/crc32c-intel.ko.zst");
	is_str(s, "crc32c_intel", "a module's name from its path");
	free(s);
	test_61();
	test_612();
	return done_testing();
}
