/*
 * A kernel module's .modinfo section (include/modinfo.h), from its ELF
 * header and section headers.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "modinfo.h"

/* Where an ELF class keeps the fields read here, and their widths. */
struct elf_layout {
	unsigned	ehsize;		/* The header's size. */
	unsigned	shoff, shentsize, shnum, shstrndx;
	unsigned	word;		/* An address's or offset's width. */
	unsigned	shsize;		/* A section header's least size. */
	unsigned	sh_offset, sh_size;
};

static const struct elf_layout elf32 = {
	.ehsize = 52, .shoff = 0x20, .shentsize = 0x2e, .shnum = 0x30,
	.shstrndx = 0x32, .word = 4, .shsize = 40, .sh_offset = 16,
	.sh_size = 20,
};

static const struct elf_layout elf64 = {
	.ehsize = 64, .shoff = 0x28, .shentsize = 0x3a, .shnum = 0x3c,
	.shstrndx = 0x3e, .word = 8, .shsize = 64, .sh_offset = 24,
	.sh_size = 32,
};

/* An n-byte field at p, little-endian (lsb) or big-endian. */
static uint64_t
field(const unsigned char *p, unsigned n, int lsb)
{
	uint64_t	v = 0;
	unsigned	i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[lsb ? n - 1 - i : i];
	return v;
}

/* len bytes at off, all of them, or -1 with errno (0: cut short). */
static int
read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t	n;
	size_t	got = 0;

	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

/* Whether [off, off + len) lies within a file of size bytes. */
static int
within(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* What a failed read_at() means. */
static int
read_error(char **cause)
{
	return errorf(cause, "%s", errno != 0 ? strerror(errno) :
	    "cut short");
}

/* An object being read: its layout, byte order, size and headers. */
struct elf {
	int			 fd;
	const struct elf_layout	*l;
	int			 lsb;
	uint64_t		 size;
	unsigned char		*sh;		/* Every section header. */
	unsigned		 n, es;		/* How many; each one's size. */
	char			*names;		/* Their names, NUL after. */
	size_t			 nlen;
};

/* Section i's field at off (sh_offset, sh_size). */
static uint64_t
sh_field(const struct elf *e, unsigned i, unsigned off)
{
	return field(e->sh + (size_t)i * e->es + off, e->l->word, e->lsb);
}

/* A section's bytes, with a NUL after: *len, or NULL with *cause. */
static char *
section(const struct elf *e, unsigned i, const char *what, size_t *len,
    char **cause)
{
	uint64_t	 off, slen;
	char		*s;

	off = sh_field(e, i, e->l->sh_offset);
	slen = sh_field(e, i, e->l->sh_size);
	if (!within(off, slen, e->size)) {
		errorf(cause, "%s past the file's end", what);
		return NULL;
	}
	s = xmalloc((size_t)slen + 1);
	if (read_at(e->fd, s, (size_t)slen, off) == -1) {
		(void)read_error(cause);
		free(s);
		return NULL;
	}
	s[slen] = '\0';
	*len = (size_t)slen;
	return s;
}

/* The section headers and their names' table, from the ELF header h. */
static int
read_headers(struct elf *e, const unsigned char *h, char **cause)
{
	const struct elf_layout	*l = e->l;
	uint64_t		 shoff;
	unsigned		 strndx;

	shoff = field(h + l->shoff, l->word, e->lsb);
	e->es = (unsigned)field(h + l->shentsize, 2, e->lsb);
	e->n = (unsigned)field(h + l->shnum, 2, e->lsb);
	strndx = (unsigned)field(h + l->shstrndx, 2, e->lsb);
	if (e->n == 0 || e->es < l->shsize || strndx >= e->n)
		return errorf(cause, "no section headers");
	if (!within(shoff, (uint64_t)e->n * e->es, e->size))
		return errorf(cause, "section headers past the file's end");
	e->sh = xmalloc((size_t)e->n * e->es);
	if (read_at(e->fd, e->sh, (size_t)e->n * e->es, shoff) == -1)
		return read_error(cause);
	e->names = section(e, strndx, "section names", &e->nlen, cause);
	return e->names != NULL ? 0 : -1;
}

char *
modinfo_read(int fd, size_t *len, char **cause)
{
	struct elf	 e;
	struct stat	 st;
	unsigned char	 h[64];
	char		*mi = NULL;
	uint64_t	 name;
	unsigned	 i;

	if (fstat(fd, &st) == -1) {
		errorf(cause, "%s", strerror(errno));
		return NULL;
	}
	if (read_at(fd, h, sizeof(h), 0) == -1 || memcmp(h, "\177ELF", 4) !=
	    0 || (h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2)) {
		errorf(cause, "not an ELF object");
		return NULL;
	}
	memset(&e, 0, sizeof(e));
	e.fd = fd;
	e.l = h[4] == 1 ? &elf32 : &elf64;
	e.lsb = h[5] == 1;
	e.size = (uint64_t)st.st_size;
	if (read_headers(&e, h, cause) == 0) {
		for (i = 0; i < e.n; i++) {
			name = field(e.sh + (size_t)i * e.es, 4, e.lsb);
			if (name < e.nlen && strcmp(e.names + name,
			    ".modinfo") == 0)
				break;
		}
		if (i == e.n)
			errorf(cause, "no .modinfo section");
		else
			mi = section(&e, i, ".modinfo", len, cause);
	}
	free(e.sh);
	free(e.names);
	return mi;
}

const char *
modinfo_next(const char *mi, size_t len, const char *key, size_t *at)
{
	const char	*s, *e;
	size_t		 klen = strlen(key);

	while (*at < len) {
		s = mi + *at;
		e = memchr(s, '\0', len - *at);
		if (e == NULL)
			e = mi + len;
		*at = (size_t)(e - mi) + 1;
		if ((size_t)(e - s) > klen && memcmp(s, key, klen) == 0 &&
		    s[klen] == '=')
			return s + klen + 1;
	}
	return NULL;
}
