/*
 * The mailbox: a small disk image that carries bonnie-ng vm's request into
 * the guest and the guest's reply (the record and how the run ended) back
 * out, whole and checked, rather than scraped from the console.
 *
 * The image holds two messages, each a header at the start of its region
 * and its data MBOX_DATA bytes after it: the request at offset 0 (the
 * host writes it before the boot), the reply at MBOX_REPLY_OFF (the guest
 * writes it, data first, then the header, then fsync).  A header, in
 * little-endian order:
 *
 *	0	8 bytes	magic: "BNGVMRQ1" (request) or "BNGVMRP1" (reply)
 *	8	u32	the format's version, 2
 *	12	i32	status: the run's exit status (reply), 0 (request)
 *	16	u64	length of the first part (the request's strings, the
 *			reply's record)
 *	24	u64	length of the second part (the reply's message: the
 *			run's one-line error, or empty)
 *	32	u64	length of the third part (the reply's report: what the
 *			run wrote on its standard output; empty in a request)
 *	40	u32	CRC-32 (IEEE 802.3) of the three parts, one after the
 *			other
 *	44	u32	CRC-32 of bytes 0-43
 *
 * A region whose first 8 bytes are zero holds no message: a guest that
 * never got as far as writing (a panic, a hang, an init that did not
 * start) leaves the reply's so.
 */
#ifndef BONNIE_MAILBOX_H
#define BONNIE_MAILBOX_H

#include <stddef.h>
#include <stdint.h>

#define MBOX_REQUEST	"BNGVMRQ1"
#define MBOX_REPLY	"BNGVMRP1"
#define MBOX_VERSION	2
#define MBOX_DATA	4096u			/* Data after the header. */
#define MBOX_REPLY_OFF	((uint64_t)1 << 20)	/* The reply's region. */
#define MBOX_SIZE	((uint64_t)64 << 20)	/* The image. */

struct mbox_msg {
	int	 status;
	char	*a;		/* First part, NUL-terminated on read. */
	size_t	 alen;
	char	*b;		/* Second part, NUL-terminated on read. */
	size_t	 blen;
	char	*c;		/* Third part, NUL-terminated on read. */
	size_t	 clen;
};

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()) of len bytes. */
uint32_t mbox_crc32(uint32_t crc, const void *, size_t len);
/*
 * Write a message at off of fd (path names it): its data, then its
 * header, then fsync().  The message must fit before limit (the end of
 * its region).  0, or -1 with *cause.
 */
int	mbox_write(int fd, const char *path, uint64_t off, uint64_t limit,
	    const char *magic, const struct mbox_msg *, char **cause);
/*
 * Read the message at off: 1 with *m filled (free with mbox_msg_free()),
 * 0 when the region is empty, -1 with *cause when it is damaged (a wrong
 * magic, version or length, a checksum that does not match).
 */
int	mbox_read(int fd, const char *path, uint64_t off, uint64_t limit,
	    const char *magic, struct mbox_msg *, char **cause);
void	mbox_msg_free(struct mbox_msg *);

#endif
