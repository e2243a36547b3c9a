/*
 * SHA-256 (FIPS 180-4): the digest bonnie-ng vm records of each kernel
 * image it boots, so that two builds with the same release name (a
 * bisection's) are told apart.
 */
#ifndef BONNIE_SHA256_H
#define BONNIE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t	h[8];
	uint64_t	len;		/* Bytes so far. */
	unsigned char	buf[64];
	size_t		nbuf;
};

void	sha256_init(struct sha256 *);
void	sha256_add(struct sha256 *, const void *, size_t);
/* The digest as 64 lowercase hex digits and a NUL. */
void	sha256_hex(struct sha256 *, char out[65]);
/* Of a file's bytes from fd's start: 0, or -1 with errno. */
int	sha256_fd(int fd, char out[65]);

#endif
