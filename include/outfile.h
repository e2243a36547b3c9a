/*
 * Output files made as safely as the test file, and the standard
 * descriptors made safe before any file is opened.
 */
#ifndef BONNIE_OUTFILE_H
#define BONNIE_OUTFILE_H

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
	int		 dirfd;		/* Its directory, or -1. */
	char		*name;		/* Its name in dirfd. */
	char		*tmp;		/* The temporary written, or NULL. */
	int		 held;		/* The name made empty, to hold it. */
	int		 replaces;	/* A file was there before. */
	int		 is_stdout;	/* "-": standard output. */
	int		 whole;		/* A regular file: outfile_replace()
					   renames a whole copy into place. */
};

/*
 * Open path for writing now, so that a bad one is refused before any
 * work.  "-" is standard output.  The directory is reached without
 * following a symbolic link that another user owns in a sticky,
 * world-writable directory (as fs.protected_symlinks would); one on
 * proc, sysfs or another kernel interface is refused.  A new file, or an
 * existing regular file (replaced only when it has no other hard link,
 * the real user may write it, and, in a sticky directory such as /tmp,
 * it is the user's own), is written by outfile_replace() as a temporary
 * file in the same directory, O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666
 * less the umask, and renamed into place (one is made and removed here,
 * to prove it can be; none lies there between writes, so a process
 * killed by SIGKILL leaves none behind); a final symbolic link is never
 * followed; a pipe (that has a reader), a terminal and /dev/null are
 * written to; any other device is refused.  0, or -1 with "WHAT: PATH:
 * reason" in *cause.
 */
int	outfile_open(struct outfile *, const char *what, const char *path,
	    char **cause);
/* Do two open outputs name the same file?  1 or 0. */
int	outfile_same(const struct outfile *, const struct outfile *);
/*
 * Flush and close it and rename the temporary into place (a regular
 * file's is made by outfile_replace(): call that instead); rc is what
 * writing it returned (0 or -1 with errno).  0, or -1 with "WHAT: PATH:
 * error" in *cause (the temporary removed, a file there before left as
 * it was; a temporary removed during the run is said so).
 */
int	outfile_close(struct outfile *, int rc, char **cause);
/*
 * Write the file whole through put(f, arg) (0, or -1 with errno), so that
 * it holds a complete document after every call, even when the process
 * is killed: a regular file's temporary is written, checked and renamed
 * into place as outfile_close() does, and the next call writes a fresh
 * temporary (made only then, so that none lies beside the file between
 * calls); when final, that is the close.  Standard output, a pipe, a
 * terminal and /dev/null are written once, only when final is set.  0, or
 * -1 with "WHAT: PATH: reason" in *cause (the temporary removed, the last
 * complete copy left in place).
 */
int	outfile_replace(struct outfile *, int (*put)(FILE *, const void *),
	    const void *arg, int final, char **cause);
/*
 * Between the final writes: a regular file's whole copy through put(),
 * in a temporary renamed into place, as outfile_replace() writes one.  A
 * failure removes the temporary (it is no complete record) and leaves
 * the file open as it was, for the final write to try again.  Anything
 * but a regular file is left for the final write.  0, or -1 with "WHAT:
 * PATH: reason" in *cause.
 */
int	outfile_checkpoint(struct outfile *, int (*put)(FILE *, const void *),
	    const void *arg, char **cause);
/* Close it unwritten, removing what this run made (its temporary). */
void	outfile_discard(struct outfile *);

#endif
