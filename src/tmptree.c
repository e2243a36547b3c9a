/*
 * Temporary directories made and removed whole (include/tmptree.h).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "tmptree.h"

int
tmptree_make(const char *name, char **path, char **cause)
{
	const char	*tmp = getenv("TMPDIR");

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	*path = xasprintf("%s/%s.XXXXXX", tmp, name);
	if (mkdtemp(*path) == NULL) {
		errorf(cause, "%s: %s", *path, strerror(errno));
		free(*path);
		*path = NULL;
		return -1;
	}
	return 0;
}

/* Everything in the directory dfd (closed here), then nothing else. */
static int
empty_dir(int dfd)
{
	DIR		*d;
	struct dirent	*e;
	int		 fd, err = 0;

	if ((d = fdopendir(dfd)) == NULL) {
		err = errno;
		close(dfd);
		return err;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dfd, e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			if (err == 0)
				err = errno;
			continue;
		}
		fd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (fd == -1) {
			if (err == 0)
				err = errno;
			continue;
		}
		if ((fd = empty_dir(fd)) != 0 && err == 0)
			err = fd;
		if (unlinkat(dfd, e->d_name, AT_REMOVEDIR) == -1 && err == 0)
			err = errno;
	}
	closedir(d);
	return err;
}

int
tmptree_remove(const char *path)
{
	int	fd, err;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return errno == ENOENT ? 0 : -1;
	err = empty_dir(fd);
	if (rmdir(path) == -1 && err == 0)
		err = errno;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}
