/*
 * The mailbox disk's messages (include/mailbox.h): written by the host
 * (the request) and by the guest (the reply), read by the other side.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "mailbox.h"

#define HEADER_LEN	40

uint32_t
mbox_crc32(uint32_t crc, const void *p, size_t len)
{
	static uint32_t		 table[256];
	static int		 made;
	const unsigned char	*b = p;
	uint32_t		 c;
	int			 i, k;

	if (!made) {
		for (i = 0; i < 256; i++) {
			c = (uint32_t)i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		made = 1;
	}
	crc = ~crc;
	while (len-- > 0)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void
put32(unsigned char *p, uint32_t v)
{
	int	i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void
put64(unsigned char *p, uint64_t v)
{
	int	i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static int
pwrite_all(int fd, const char *path, const void *p, size_t len, uint64_t off,
    char **cause)
{
	const char	*b = p;
	ssize_t		 n;

	while (len > 0) {
		n = pwrite(fd, b, len, (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return errorf(cause, "mailbox: %s: %s (at %llu bytes)",
			    path, n == 0 ? "wrote nothing" : strerror(errno),
			    (unsigned long long)off);
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int
pread_all(int fd, const char *path, void *p, size_t len, uint64_t off,
    char **cause)
{
	char	*b = p;
	ssize_t	 n;

	while (len > 0) {
		n = pread(fd, b, len, (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return errorf(cause, "mailbox: %s: %s (at %llu bytes)",
			    path, n == 0 ? "shorter than its message" :
			    strerror(errno), (unsigned long long)off);
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int
mbox_write(int fd, const char *path, uint64_t off, uint64_t limit,
    const char *magic, const struct mbox_msg *m, char **cause)
{
	unsigned char	h[HEADER_LEN];
	uint32_t	crc;

	if (off + MBOX_DATA + m->alen + m->blen > limit ||
	    m->alen + m->blen < m->alen)
		return errorf(cause, "mailbox: %s: a message of %llu bytes "
		    "does not fit in its %llu", path,
		    (unsigned long long)m->alen + m->blen,
		    (unsigned long long)(limit - off - MBOX_DATA));
	crc = mbox_crc32(0, m->a, m->alen);
	crc = mbox_crc32(crc, m->b, m->blen);
	memset(h, 0, sizeof(h));
	memcpy(h, magic, 8);
	put32(h + 8, MBOX_VERSION);
	put32(h + 12, (uint32_t)m->status);
	put64(h + 16, m->alen);
	put64(h + 24, m->blen);
	put32(h + 32, crc);
	put32(h + 36, mbox_crc32(0, h, 36));
	if (pwrite_all(fd, path, m->a, m->alen, off + MBOX_DATA, cause) == -1 ||
	    pwrite_all(fd, path, m->b, m->blen, off + MBOX_DATA + m->alen,
	    cause) == -1 ||
	    pwrite_all(fd, path, h, sizeof(h), off, cause) == -1)
		return -1;
	if (fsync(fd) == -1)
		return errorf(cause, "mailbox: %s: fsync: %s", path,
		    strerror(errno));
	return 0;
}

int
mbox_read(int fd, const char *path, uint64_t off, uint64_t limit,
    const char *magic, struct mbox_msg *m, char **cause)
{
	static const unsigned char	zero[8];
	unsigned char			h[HEADER_LEN];
	uint64_t			alen, blen;
	uint32_t			crc;

	memset(m, 0, sizeof(*m));
	if (pread_all(fd, path, h, sizeof(h), off, cause) == -1)
		return -1;
	if (memcmp(h, zero, 8) == 0)
		return 0;
	if (memcmp(h, magic, 8) != 0)
		return errorf(cause, "mailbox: %s: no message at %llu bytes "
		    "(its magic is not %s)", path, (unsigned long long)off,
		    magic);
	if (get32(h + 36) != mbox_crc32(0, h, 36))
		return errorf(cause, "mailbox: %s: the header at %llu bytes "
		    "is damaged (its checksum does not match)", path,
		    (unsigned long long)off);
	if (get32(h + 8) != MBOX_VERSION)
		return errorf(cause, "mailbox: %s: format version %u, not "
		    "%u", path, get32(h + 8), MBOX_VERSION);
	alen = get64(h + 16);
	blen = get64(h + 24);
	if (alen > limit || blen > limit ||
	    off + MBOX_DATA + alen + blen > limit)
		return errorf(cause, "mailbox: %s: a message of %llu bytes "
		    "past the end of its region", path,
		    (unsigned long long)alen + blen);
	m->status = (int)get32(h + 12);
	m->alen = (size_t)alen;
	m->blen = (size_t)blen;
	m->a = xmalloc(m->alen + 1);
	m->b = xmalloc(m->blen + 1);
	m->a[m->alen] = '\0';
	m->b[m->blen] = '\0';
	if (pread_all(fd, path, m->a, m->alen, off + MBOX_DATA, cause) == -1 ||
	    pread_all(fd, path, m->b, m->blen, off + MBOX_DATA + m->alen,
	    cause) == -1) {
		mbox_msg_free(m);
		return -1;
	}
	crc = mbox_crc32(mbox_crc32(0, m->a, m->alen), m->b, m->blen);
	if (crc != get32(h + 32)) {
		mbox_msg_free(m);
		return errorf(cause, "mailbox: %s: the message at %llu bytes "
		    "is damaged (its checksum does not match)", path,
		    (unsigned long long)off);
	}
	return 1;
}

void
mbox_msg_free(struct mbox_msg *m)
{
	free(m->a);
	free(m->b);
	memset(m, 0, sizeof(*m));
}
