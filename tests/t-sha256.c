/*
 * SHA-256 (src/sha256.c) against FIPS 180-4's examples and sha256sum(1).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "tap.h"

static void
digest_is(const char *msg, size_t len, size_t step, const char *want,
    const char *desc)
{
	struct sha256	s;
	char		out[65];
	size_t		i;

	sha256_init(&s);
	for (i = 0; i < len; i += step)
		sha256_add(&s, msg + i, len - i < step ? len - i : step);
	sha256_hex(&s, out);
	is_str(out, want, desc);
}

int
main(void)
{
	static char	big[1000000];
	char		path[512], out[65], cmd[600], line[100];
	const char	*tmp = getenv("TMPDIR");
	FILE		*p;
	int		fd;

	digest_is("abc", 3, 3, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad", "\"abc\"");
	digest_is("", 0, 1, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855", "the empty message");
	digest_is("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    56, 7, "248d6a61d20638b8e5c026930c3e6039"
	    "a33ce45964ff2167f6ecedd419db06c1",
	    "two blocks (56 bytes, the padding's own block), fed 7 at a time");
	memset(big, 'a', sizeof(big));
	digest_is(big, sizeof(big), 4093, "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0", "a million 'a's");
	snprintf(path, sizeof(path), "%s/t-sha256.XXXXXX",
	    tmp != NULL && *tmp != '\0' && strlen(tmp) < 400 ? tmp : "/tmp");
	if ((fd = mkstemp(path)) == -1 ||
	    write(fd, big, 12345) != 12345)
		return 1;
	ok(sha256_fd(fd, out) == 0, "a file's digest, from its start");
	snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
	if ((p = popen(cmd, "r")) != NULL && fgets(line, sizeof(line), p) !=
	    NULL && strlen(line) > 64) {
		line[64] = '\0';
		is_str(out, line, "as sha256sum(1) makes it");
	} else
		tap_skip("no sha256sum");
	if (p != NULL)
		pclose(p);
	close(fd);
	unlink(path);
	return done_testing();
}
