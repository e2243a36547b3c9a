/*
 * Replay every saved fuzz input (each file under tests/fuzz/corpus/NAME) through its
 * harness, so the corpus, and every crash once saved there, is a
 * regression test in make check without clang or libFuzzer.  A harness
 * aborts on a wrong answer, which fails this test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define LLVMFuzzerTestOneInput fuzz_size
#include "fuzz/fuzz-size.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_count
#include "fuzz/fuzz-count.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_options
#include "fuzz/fuzz-options.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_cli
#include "fuzz/fuzz-cli.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_jsonparse
#include "fuzz/fuzz-jsonparse.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_json
#include "fuzz/fuzz-json.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_csv
#include "fuzz/fuzz-csv.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_text
#include "fuzz/fuzz-text.c"
#undef LLVMFuzzerTestOneInput

static const struct {
	const char	*name;
	int		(*fn)(const uint8_t *, size_t);
} harnesses[] = {
	{ "size", fuzz_size },
	{ "count", fuzz_count },
	{ "options", fuzz_options },
	{ "cli", fuzz_cli },
	{ "jsonparse", fuzz_jsonparse },
	{ "json", fuzz_json },
	{ "csv", fuzz_csv },
	{ "text", fuzz_text },
};

/*
 * Run one input file; 0, or -1 if it cannot be read.  The harness gets a
 * buffer of exactly the input's size, as under libFuzzer, so that an
 * AddressSanitizer build sees a read past its end.
 */
static int
replay(const char *path, int (*fn)(const uint8_t *, size_t))
{
	FILE		*f;
	uint8_t		*buf, *exact;
	size_t		 n;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	buf = malloc(1 << 16);
	if (buf == NULL) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	if ((exact = malloc(n > 0 ? n : 1)) == NULL) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, n);
	free(buf);
	fn(exact, n);
	free(exact);
	return 0;
}

int
main(void)
{
	char		 dir[512], path[1024];
	DIR		*d;
	struct dirent	*e;
	size_t		 i;
	int		 n, bad;

	for (i = 0; i < sizeof(harnesses) / sizeof(harnesses[0]); i++) {
		snprintf(dir, sizeof(dir), "tests/fuzz/corpus/%s",
		    harnesses[i].name);
		if ((d = opendir(dir)) == NULL) {
			tap_skip(dir);
			continue;
		}
		n = bad = 0;
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (replay(path, harnesses[i].fn) == -1)
				bad++;
			n++;
		}
		closedir(d);
		printf("# %s: %d inputs\n", harnesses[i].name, n);
		ok(n > 0 && bad == 0, harnesses[i].name);
	}
	return done_testing();
}
