/*
 * libFuzzer harness for the reader of bonnie++ CSV lines (rs_read_csv),
 * then for rs_read_buf(), which tells the format by the content: each
 * input is either read, into runs whose lines are in the input and whose
 * values are finite and not negative, or refused with one message
 * "NAME:LINE: what is wrong" (see rs-check.h).  Result sets are freed, so
 * LeakSanitizer sees a leak on any path.
 */
#include <stdint.h>
#include <stddef.h>

#include "resultset.h"
#include "fuzz/rs-check.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rs_fuzz_one(rs_read_csv, data, size);
	return 0;
}
