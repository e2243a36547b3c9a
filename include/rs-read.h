/*
 * Reading result files: the table of format readers, and the two calls
 * that tell a file's format by its content and read it into a result set.
 * This sits above the readers (read-*.c), which sit above resultset.c:
 * the result set knows nothing of the formats it is read from.
 */
#ifndef BONNIE_RS_READ_H
#define BONNIE_RS_READ_H

#include <stddef.h>

#include "resultset.h"

/* One reader: its data and two functions. */
struct rs_reader {
	const char	*name;
	enum rs_format	 format;
	/*
	 * Does the line [s, e) (its first non-blank character at s) tell this
	 * format?  first is 1 on the first non-blank line of the file.
	 */
	int		(*sniff)(const char *s, const char *e, int first);
	/*
	 * Read the whole buffer into rs (its file already set); 0, or -1 with
	 * "NAME:LINE: what is wrong" in *cause.  NULL for a format recognised
	 * only to be refused with the words in refuse.
	 */
	int		(*read)(const char *name, const char *buf, size_t len,
			    struct result_set *rs, char **cause);
	const char	*refuse;
};

/* The readers in the order they are tried on each line. */
extern const struct rs_reader *const rs_readers[];

/* "bonnie-ng JSON", "bonnie++ CSV", "Bonnie text": the reader's name. */
const char	*rs_format_name(enum rs_format);

/*
 * Read a file ("-" for standard input), its format told by its content,
 * not its name, into rs.  On failure returns -1 with "FILE:LINE: what is
 * wrong" in *cause and leaves rs empty.  A result file is kilobytes:
 * one larger than RS_MAX_BYTES is refused, so is anything but a regular
 * file or a pipe (or a terminal on standard input), and binary data at
 * its first block, before it is all read.
 */
#define RS_MAX_BYTES	(16 << 20)
int	rs_read_file(const char *path, struct result_set *rs, char **cause);
/*
 * The same, leaving out what flags say: RS_READ_LEAN, the kernel's
 * account of each phase and its timeline (JSON records), which a reader
 * of many records does not need (history).
 */
#define RS_READ_LEAN	0x1
int	rs_read_file_flags(const char *path, unsigned flags,
	    struct result_set *rs, char **cause);
/*
 * Read n files, each as rs_read_file() does, into a new array of n result
 * sets in *sets (free it with rs_free_sets()).  On the first failure the
 * sets read so far are freed and -1 returned with its cause.
 */
int	rs_read_files(int n, char *const *files, struct result_set **sets,
	    char **cause);
void	rs_free_sets(struct result_set *, int n);
/* The same on a buffer already in memory; name is used in messages. */
int	rs_read_buf(const char *name, const char *buf, size_t len,
	    struct result_set *rs, char **cause);

/* The format readers, for the table and the tests. */
int	rs_read_json(const char *name, const char *buf, size_t len,
	    struct result_set *, char **cause);
int	rs_read_csv(const char *name, const char *buf, size_t len,
	    struct result_set *, char **cause);
int	rs_read_text(const char *name, const char *buf, size_t len,
	    struct result_set *, char **cause);

#endif
