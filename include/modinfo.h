/*
 * A kernel module's own description, its ELF .modinfo section: the
 * "key=value" strings, each ending in a NUL, that modpost and the
 * MODULE_*() macros put there ("depends=jbd2,mbcache,crc16",
 * "softdep=pre: crypto-crc32c", "alias=fs-ext2", "name=ext4"), which
 * depmod(8) and modinfo(8) read.  Read from an uncompressed module (a
 * relocatable ELF object, 32 or 64 bits, either byte order) open on a
 * descriptor: its header, its section headers, their names and the
 * section itself, nothing else.
 */
#ifndef BONNIE_MODINFO_H
#define BONNIE_MODINFO_H

#include <stddef.h>

/*
 * The .modinfo section of the object open on fd, with a NUL after it:
 * its bytes (freed by the caller) and *len, or NULL with *cause (not an
 * ELF object, no .modinfo, a header or section past the file's end, or
 * the system's error).
 */
char		*modinfo_read(int fd, size_t *len, char **cause);
/*
 * The next value of key in the section mi (len bytes) from offset *at on
 * (0 at first), *at moved past it: "jbd2,mbcache,crc16" for "depends";
 * NULL when there is none left.
 */
const char	*modinfo_next(const char *mi, size_t len, const char *key,
		    size_t *at);

#endif
