/* Placeholder until the CSV work lands. */
#include <errno.h>

#include "record.h"

int
record_write_csv(FILE *f, const struct record *rec)
{
	(void)f;
	(void)rec;
	errno = ENOSYS;
	return -1;
}
