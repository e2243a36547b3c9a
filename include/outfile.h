/*
 * Output files made as safely as the test file, and the standard
 * descriptors made safe before any file is opened.
 */
#ifndef BONNIE_OUTFILE_H
#define BONNIE_OUTFILE_H

#include <sys/types.h>

#include <stdio.h>

/*
 * Make sure descriptors 0, 1 and 2 are open, to /dev/null when closed, so
 * that no file opened later takes their place and receives the tables
 * or the progress text.  Call first thing in main().  0 or -1.
 */
int	std_fds_open(void);

/* An output file (--json, --svg), open from before the first phase. */
struct outfile {
	const char	*what;		/* "--json", for messages. */
	const char	*path;
	FILE		*f;
	int		 created;	/* Made by this open (O_EXCL). */
	int		 whole;		/* A regular file, replaced whole by
					   outfile_replace(). */
	dev_t		 dev;		/* The file now at path, */
	ino_t		 ino;		/* as last made or replaced, */
	mode_t		 mode;		/* and its mode. */
};

/*
 * Open path for writing now, so that a bad one is refused before any
 * work: a new file is made with O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666
 * less the umask; a final symbolic link is never followed; an existing
 * regular file is replaced (truncated) only when it has no other hard
 * link, the real user may write it, and, in a sticky directory such as
 * /tmp, it is the user's own; a pipe, a terminal and /dev/null are
 * written to; any other device is refused.  0, or -1 with "WHAT: PATH:
 * reason" in *cause.
 */
int	outfile_open(struct outfile *, const char *what, const char *path,
	    char **cause);
/*
 * Flush and close it; rc is what writing it returned (0 or -1 with
 * errno).  0, or -1 with "WHAT: PATH: error" in *cause.
 */
int	outfile_close(struct outfile *, int rc, char **cause);
/*
 * Write the file whole through put(f, arg) (0, or -1 with errno), so that
 * it holds a complete document after every call, even when the process
 * is killed: a regular file is written to a temporary file in the same
 * directory (".NAME.XXXXXX", of the file's mode) and renamed over path,
 * unless path now names a file other than the one this open made or last
 * renamed there (refused, nothing replaced).  A pipe, a terminal or
 * /dev/null cannot be replaced: it is written once, only when final is
 * set.  0, or -1 with "WHAT: PATH: reason" in *cause (the temporary file
 * removed).
 */
int	outfile_replace(struct outfile *, int (*put)(FILE *, const void *),
	    const void *arg, int final, char **cause);
/* Close it unwritten, removing it when this run made it. */
void	outfile_discard(struct outfile *);

#endif
