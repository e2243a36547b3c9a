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

#define HEADER_LEN	48
#define CRC_AT		40	/* The data's CRC, then the header's. */

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

/* The three parts of a message, in their order on the disk. */
#define NPARTS		3

int
mbox_write(int fd, const char *path, uint64_t off, uint64_t limit,
    const char *magic, const struct mbox_msg *m, char **cause)
{
	unsigned char	 h[HEADER_LEN];
	const char	*p[NPARTS] = { m->a, m->b, m->c };
	const size_t	 len[NPARTS] = { m->alen, m->blen, m->clen };
	uint64_t	 total = 0, at;
	uint32_t	 crc = 0;
	int		 i;

	for (i = 0; i < NPARTS; i++) {
		if (total + len[i] < total)
			total = UINT64_MAX;
		else
			total += len[i];
	}
	if (off + MBOX_DATA > limit || total > limit - off - MBOX_DATA)
		return errorf(cause, "mailbox: %s: a message of %llu bytes "
		    "does not fit in its %llu", path,
		    (unsigned long long)total,
		    (unsigned long long)(limit - off - MBOX_DATA));
	memset(h, 0, sizeof(h));
	memcpy(h, magic, 8);
	put32(h + 8, MBOX_VERSION);
	put32(h + 12, (uint32_t)m->status);
	at = off + MBOX_DATA;
	for (i = 0; i < NPARTS; i++) {
		put64(h + 16 + 8 * i, len[i]);
		crc = mbox_crc32(crc, p[i], len[i]);
		if (len[i] > 0 && pwrite_all(fd, path, p[i], len[i], at,
		    cause) == -1)
			return -1;
		at += len[i];
	}
	put32(h + CRC_AT, crc);
	put32(h + CRC_AT + 4, mbox_crc32(0, h, CRC_AT + 4));
	if (pwrite_all(fd, path, h, sizeof(h), off, cause) == -1)
		return -1;
	if (fsync(fd) == -1)
		return errorf(cause, "mailbox: %s: fsync: %s", path,
		    strerror(errno));
	return 0;
}

/* The header's checks: 0, or -1 with *cause. */
static int
check_header(const unsigned char *h, const char *path, uint64_t off,
    const char *magic, char **cause)
{
	if (memcmp(h, magic, 8) != 0)
		return errorf(cause, "mailbox: %s: no message at %llu bytes "
		    "(its magic is not %s)", path, (unsigned long long)off,
		    magic);
	if (get32(h + CRC_AT + 4) != mbox_crc32(0, h, CRC_AT + 4))
		return errorf(cause, "mailbox: %s: the header at %llu bytes "
		    "is damaged (its checksum does not match)", path,
		    (unsigned long long)off);
	if (get32(h + 8) != MBOX_VERSION)
		return errorf(cause, "mailbox: %s: format version %u, not "
		    "%u", path, get32(h + 8), MBOX_VERSION);
	return 0;
}

int
mbox_read(int fd, const char *path, uint64_t off, uint64_t limit,
    const char *magic, struct mbox_msg *m, char **cause)
{
	static const unsigned char	zero[8];
	unsigned char			h[HEADER_LEN];
	char				*p[NPARTS];
	uint64_t			len[NPARTS], total = 0, at;
	uint32_t			crc = 0;
	int				i, rv = 0;

	memset(m, 0, sizeof(*m));
	if (pread_all(fd, path, h, sizeof(h), off, cause) == -1)
		return -1;
	if (memcmp(h, zero, 8) == 0)
		return 0;
	if (check_header(h, path, off, magic, cause) == -1)
		return -1;
	for (i = 0; i < NPARTS; i++) {
		len[i] = get64(h + 16 + 8 * i);
		total = len[i] > limit || total > limit ? UINT64_MAX :
		    total + len[i];
	}
	if (off + MBOX_DATA > limit || total > limit - off - MBOX_DATA)
		return errorf(cause, "mailbox: %s: a message of %llu bytes "
		    "past the end of its region", path,
		    (unsigned long long)total);
	at = off + MBOX_DATA;
	for (i = 0; i < NPARTS; i++) {
		p[i] = xmalloc((size_t)len[i] + 1);
		p[i][len[i]] = '\0';
		if (rv == 0 && pread_all(fd, path, p[i], (size_t)len[i], at,
		    cause) == -1)
			rv = -1;
		if (rv == 0)
			crc = mbox_crc32(crc, p[i], (size_t)len[i]);
		at += len[i];
	}
	m->status = (int)get32(h + 12);
	m->a = p[0];
	m->alen = (size_t)len[0];
	m->b = p[1];
	m->blen = (size_t)len[1];
	m->c = p[2];
	m->clen = (size_t)len[2];
	if (rv == 0 && crc != get32(h + CRC_AT))
		rv = errorf(cause, "mailbox: %s: the message at %llu bytes "
		    "is damaged (its checksum does not match)", path,
		    (unsigned long long)off);
	if (rv == -1)
		mbox_msg_free(m);
	return rv == -1 ? -1 : 1;
}

void
mbox_msg_free(struct mbox_msg *m)
{
	free(m->a);
	free(m->b);
	free(m->c);
	memset(m, 0, sizeof(*m));
}
