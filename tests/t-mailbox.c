/*
 * The mailbox's messages (src/mailbox.c) on an image made here: written
 * and read back whole (all three parts), an empty region told from a damaged one, and a
 * message too large refused before anything is written.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mailbox.h"
#include "tap.h"

int
main(void)
{
	struct mbox_msg	 m, r;
	char		 path[512], *cause = NULL;
	const char	*tmp = getenv("TMPDIR");
	unsigned char	 byte;
	int		 fd;

	(void)tap_skip;
	ok(mbox_crc32(0, "123456789", 9) == 0xcbf43926u,
	    "CRC-32 of \"123456789\" is the standard's check value");
	snprintf(path, sizeof(path), "%s/t-mailbox.XXXXXX",
	    tmp != NULL && *tmp != '\0' && strlen(tmp) < 400 ? tmp : "/tmp");
	if ((fd = mkstemp(path)) == -1 || ftruncate(fd, (off_t)MBOX_SIZE) == -1)
		return 1;
	ok(mbox_read(fd, path, MBOX_REPLY_OFF, MBOX_SIZE, MBOX_REPLY, &r,
	    &cause) == 0, "a fresh image's reply region is empty");
	memset(&m, 0, sizeof(m));
	m.a = "arg=bonnie-ng\0arg=-s\0arg=48m\0";
	m.alen = 29;
	ok(mbox_write(fd, path, 0, MBOX_REPLY_OFF, MBOX_REQUEST, &m,
	    &cause) == 0, "a request is written");
	m.status = 3;
	m.a = "{\"schema\": \"bonnie-ng/1\"}\n";
	m.alen = strlen(m.a);
	m.b = "bonnie-ng: block write: /mnt/x: No space left on device";
	m.blen = strlen(m.b);
	m.c = "Machine    MB K/sec %CPU\n(none)     32 24710 80.7\n";
	m.clen = strlen(m.c);
	ok(mbox_write(fd, path, MBOX_REPLY_OFF, MBOX_SIZE, MBOX_REPLY, &m,
	    &cause) == 0, "a reply is written");
	ok(mbox_read(fd, path, MBOX_REPLY_OFF, MBOX_SIZE, MBOX_REPLY, &r,
	    &cause) == 1 && r.status == 3 && r.alen == m.alen &&
	    strcmp(r.a, m.a) == 0 && r.blen == m.blen && strcmp(r.b, m.b) == 0 &&
	    r.clen == m.clen && strcmp(r.c, m.c) == 0,
	    "the reply reads back: status, record, message and report");
	mbox_msg_free(&r);
	ok(mbox_read(fd, path, 0, MBOX_REPLY_OFF, MBOX_REQUEST, &r,
	    &cause) == 1 && r.alen == 29 && memcmp(r.a, "arg=bonnie-ng\0arg=-s",
	    20) == 0 && r.b != NULL && r.blen == 0 && r.c != NULL && r.clen == 0,
	    "the request reads back, its NULs kept");
	mbox_msg_free(&r);
	ok(mbox_read(fd, path, 0, MBOX_REPLY_OFF, MBOX_REPLY, &r,
	    &cause) == -1 && cause != NULL && strstr(cause, "its magic is not "
	    "BNGVMRP1") != NULL, "a region holding the other kind of message "
	    "is refused");
	free(cause);
	cause = NULL;
	/* One byte of the record changed: the reply is damaged. */
	byte = 'X';
	if (pwrite(fd, &byte, 1, (off_t)(MBOX_REPLY_OFF + MBOX_DATA + 3)) != 1)
		return 1;
	ok(mbox_read(fd, path, MBOX_REPLY_OFF, MBOX_SIZE, MBOX_REPLY, &r,
	    &cause) == -1 && cause != NULL && strstr(cause, "damaged") != NULL &&
	    r.a == NULL, "a changed byte of the data is found");
	free(cause);
	cause = NULL;
	/* One byte of the header changed (the status). */
	byte = 9;
	if (pwrite(fd, &byte, 1, (off_t)(MBOX_REPLY_OFF + 12)) != 1)
		return 1;
	ok(mbox_read(fd, path, MBOX_REPLY_OFF, MBOX_SIZE, MBOX_REPLY, &r,
	    &cause) == -1 && cause != NULL && strstr(cause, "header") != NULL,
	    "a changed byte of the header is found");
	free(cause);
	cause = NULL;
	m.alen = MBOX_REPLY_OFF;
	ok(mbox_write(fd, path, 0, MBOX_REPLY_OFF, MBOX_REQUEST, &m,
	    &cause) == -1 && cause != NULL && strstr(cause, "does not fit") !=
	    NULL, "a message larger than its region is refused");
	free(cause);
	ok(mbox_read(fd, path, 0, MBOX_REPLY_OFF, MBOX_REQUEST, &r,
	    &cause) == 1, "and the request before it is still there");
	mbox_msg_free(&r);
	close(fd);
	unlink(path);
	return done_testing();
}
