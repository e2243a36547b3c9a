/*
 * Output files made as safely as the test file, and the standard
 * descriptors made safe before any file is opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "outfile.h"

int
std_fds_open(void)
{
	int	fd, i;

	for (i = 0; i <= 2; i++) {
		if (fcntl(i, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* The lowest free number: i itself, as those below are open. */
		if ((fd = open("/dev/null", O_RDWR)) == -1)
			return -1;
		if (fd != i) {
			close(fd);
			errno = EBADF;
			return -1;
		}
	}
	return 0;
}
