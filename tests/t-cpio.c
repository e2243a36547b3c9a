/*
 * The cpio "newc" writer (src/cpio.c), against archives made here: read
 * back by a reader of the test's own (every header field, the padding,
 * the trailer), and listed and unpacked by GNU cpio when it is installed,
 * as the kernel's unpacker would take them.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpio.h"
#include "tap.h"

struct entry {
	char		name[256];
	unsigned	mode, nlink, size, rmajor, rminor, ino;
	const unsigned char *data;
};

static unsigned
hex8(const unsigned char *p)
{
	char	b[9];

	memcpy(b, p, 8);
	b[8] = '\0';
	return (unsigned)strtoul(b, NULL, 16);
}

/*
 * The next entry at *off of buf (len bytes): 1, 0 at the trailer, -1 when
 * malformed (a bad magic, a name without its NUL, data past the end, an
 * offset not a multiple of 4).
 */
static int
next_entry(const unsigned char *buf, size_t len, size_t *off, struct entry *e)
{
	size_t		o = *off, nsz;

	if (o % 4 != 0 || o + 110 > len || memcmp(buf + o, "070701", 6) != 0)
		return -1;
	e->ino = hex8(buf + o + 6);
	e->mode = hex8(buf + o + 14);
	e->nlink = hex8(buf + o + 38);
	e->size = hex8(buf + o + 54);
	e->rmajor = hex8(buf + o + 78);
	e->rminor = hex8(buf + o + 86);
	nsz = hex8(buf + o + 94);
	if (hex8(buf + o + 102) != 0 || nsz == 0 || nsz > sizeof(e->name) ||
	    o + 110 + nsz > len || buf[o + 110 + nsz - 1] != '\0')
		return -1;
	memcpy(e->name, buf + o + 110, nsz);
	o = (o + 110 + nsz + 3) & ~(size_t)3;
	if (o + e->size > len)
		return -1;
	e->data = buf + o;
	*off = (o + e->size + 3) & ~(size_t)3;
	return strcmp(e->name, "TRAILER!!!") != 0;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE		*f = fopen(path, "rb");
	unsigned char	*b;
	long		 n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) {
		if (f != NULL)
			fclose(f);
		return NULL;
	}
	rewind(f);
	b = malloc((size_t)n + 1);
	if (b != NULL && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static const char payload[] = "0123456789abcdef0";	/* 17: pads 3. */

/* Writes the test's archive at path; 0 when every call succeeded. */
static int
write_archive(const char *path, const char *from, char **cause)
{
	struct cpio	c;
	struct stat	st;
	int		fd, src, rv = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	src = open(from, O_RDONLY);
	if (fd == -1 || src == -1 || fstat(src, &st) == -1)
		return -1;
	cpio_init(&c, fd, path);
	if (cpio_dir(&c, "/dev", 0755, cause) == -1 ||
	    cpio_node(&c, "/dev/console", S_IFCHR | 0600, 5, 1, cause) == -1 ||
	    cpio_file(&c, "/lib/modules/01-a.ko", 0644, payload,
	    sizeof(payload) - 1, cause) == -1 ||
	    cpio_copy(&c, "bin/copied", 0755, src, from, (uint64_t)st.st_size,
	    cause) == -1 ||
	    cpio_symlink(&c, "/lib64", "lib", cause) == -1 ||
	    cpio_dir(&c, "lib", 0700, cause) == -1 ||
	    cpio_file(&c, "e", 0600, "", 0, cause) == -1 ||
	    cpio_finish(&c, cause) == -1)
		rv = -1;
	cpio_free(&c);
	close(src);
	close(fd);
	return rv;
}

static void
test_refusals(const char *dir)
{
	struct cpio	 c;
	char		 path[512], *cause = NULL;
	int		 fd;

	snprintf(path, sizeof(path), "%s/refuse.cpio", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cpio_init(&c, fd, path);
	ok(cpio_file(&c, "a", 0644, "x", 1, &cause) == 0, "a first file");
	ok(cpio_file(&c, "/a", 0644, "y", 1, &cause) == -1 && cause != NULL &&
	    strstr(cause, "a is in the archive already") != NULL,
	    "a second entry of the same name is refused");
	free(cause);
	cause = NULL;
	ok(cpio_file(&c, "TRAILER!!!", 0644, "", 0, &cause) == -1,
	    "an entry named as the trailer is refused");
	free(cause);
	cause = NULL;
	ok(cpio_node(&c, "n", S_IFREG | 0644, 1, 1, &cause) == -1,
	    "a node that is not a device is refused");
	free(cause);
	cpio_free(&c);
	close(fd);
	/* A write that fails names the archive and the system's words. */
	fd = open("/dev/full", O_WRONLY);
	if (fd == -1) {
		tap_skip("no /dev/full");
		return;
	}
	cpio_init(&c, fd, "/dev/full");
	cause = NULL;
	ok(cpio_file(&c, "a", 0644, "x", 1, &cause) == -1 && cause != NULL &&
	    strstr(cause, "/dev/full: No space left on device") != NULL,
	    "a failed write names the archive and the error");
	free(cause);
	cpio_free(&c);
	close(fd);
}

/* GNU cpio lists the archive and unpacks the same bytes. */
static void
test_gnu_cpio(const char *dir, const char *arch, const char *from)
{
	char	 cmd[2048], path[600];
	FILE	*p;
	char	 line[300], got[2048] = "";
	unsigned char *a, *b;
	size_t	 la, lb;

	if (system("command -v cpio >/dev/null 2>&1") != 0) {
		tap_skip("GNU cpio is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "cpio -it --quiet < '%s'", arch);
	p = popen(cmd, "r");
	while (p != NULL && fgets(line, sizeof(line), p) != NULL)
		strncat(got, line, sizeof(got) - strlen(got) - 1);
	ok(p != NULL && pclose(p) == 0, "GNU cpio reads the archive");
	is_str(got, "dev\ndev/console\nlib\nlib/modules\n"
	    "lib/modules/01-a.ko\nbin\nbin/copied\nlib64\ne\n",
	    "GNU cpio lists the entries in order, parents first");
	snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir x && cd x && "
	    "cpio -id --quiet --no-absolute-filenames 'bin/*' "
	    "'lib/modules/*' 'lib64' < '%s'", dir, arch);
	ok(system(cmd) == 0, "GNU cpio unpacks it");
	snprintf(path, sizeof(path), "%s/x/bin/copied", dir);
	a = slurp(path, &la);
	b = slurp(from, &lb);
	ok(a != NULL && b != NULL && la == lb && memcmp(a, b, la) == 0,
	    "the copied file unpacks as the bytes it was made from");
	free(a);
	free(b);
	snprintf(path, sizeof(path), "%s/x/lib/modules/01-a.ko", dir);
	a = slurp(path, &la);
	ok(a != NULL && la == sizeof(payload) - 1 &&
	    memcmp(a, payload, la) == 0, "the file given as bytes unpacks");
	free(a);
	snprintf(path, sizeof(path), "%s/x/lib64", dir);
	la = (size_t)readlink(path, line, sizeof(line) - 1);
	ok(la == 3 && memcmp(line, "lib", 3) == 0,
	    "the symbolic link unpacks with its target");
}

int
main(void)
{
	char		 dir[420], arch[600], from[600];
	char		 cmd[700], *cause = NULL;
	unsigned char	*buf;
	size_t		 len, off = 0;
	struct entry	 e;
	unsigned	 ino = 0, n = 0;
	int		 r, good = 1, fd;
	const char	*tmp = getenv("TMPDIR");

	if (tmp == NULL || *tmp == '\0' || strlen(tmp) > 400)
		tmp = "/tmp";
	snprintf(dir, sizeof(dir), "%s/t-cpio.XXXXXX", tmp);
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(arch, sizeof(arch), "%s/a.cpio", dir);
	snprintf(from, sizeof(from), "%s/from", dir);
	fd = open(from, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	for (r = 0; r < 5000; r++)
		if (write(fd, &r, 3) != 3)
			good = 0;
	close(fd);
	ok(good && write_archive(arch, from, &cause) == 0, "the archive is "
	    "written");
	buf = slurp(arch, &len);
	ok(buf != NULL && len % 512 == 0, "its length is a multiple of 512");
	/* Each entry in order, with its fields. */
	while (buf != NULL && (r = next_entry(buf, len, &off, &e)) == 1) {
		n++;
		if (e.ino <= ino)
			good = 0;
		ino = e.ino;
		if (strcmp(e.name, "dev") == 0)
			ok(e.mode == (S_IFDIR | 0755) && e.nlink == 2,
			    "a directory: its mode and two links");
		else if (strcmp(e.name, "dev/console") == 0)
			ok(e.mode == (S_IFCHR | 0600) && e.rmajor == 5 &&
			    e.rminor == 1 && e.size == 0,
			    "a device node: its mode and numbers");
		else if (strcmp(e.name, "lib/modules/01-a.ko") == 0)
			ok(e.size == sizeof(payload) - 1 &&
			    memcmp(e.data, payload, e.size) == 0 &&
			    e.mode == (S_IFREG | 0644),
			    "a file from bytes: its size, data and mode");
		else if (strcmp(e.name, "bin/copied") == 0)
			ok(e.size == 15000 && e.mode == (S_IFREG | 0755),
			    "a file copied from a descriptor: its size");
		else if (strcmp(e.name, "lib64") == 0)
			ok(e.mode == (S_IFLNK | 0777) && e.size == 3 &&
			    memcmp(e.data, "lib", 3) == 0,
			    "a symbolic link: its target as its data");
		else if (strcmp(e.name, "lib") == 0)
			ok(e.mode == (S_IFDIR | 0755),
			    "a parent made first keeps its mode; a later "
			    "cpio_dir() of it is a no-op");
		else if (strcmp(e.name, "e") == 0)
			ok(e.size == 0, "an empty file");
	}
	ok(buf != NULL && r == 0, "the entries end at the trailer, each at "
	    "a multiple of 4");
	is_int(n, 9, "nine entries (the parents lib, lib/modules and bin "
	    "made once)");
	ok(good, "inode numbers rise");
	ok(off <= len && off + 512 > len, "only padding after the trailer");
	free(buf);
	test_gnu_cpio(dir, arch, from);
	test_refusals(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return done_testing();
}
