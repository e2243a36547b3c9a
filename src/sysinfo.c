/* Placeholder until the record work lands: nothing is known. */
#include <stddef.h>

#include "sysinfo.h"

int
sysinfo_collect(const char *dir, struct sysinfo **out, char **cause)
{
	(void)dir;
	(void)cause;
	*out = NULL;
	return 0;
}

void
sysinfo_free(struct sysinfo *si)
{
	(void)si;
}
