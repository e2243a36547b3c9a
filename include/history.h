/*
 * A history: many run records (and bonnie-ng vm's cells, which are run
 * records too) read for "bonnie-ng history" (history-read.c), keeping
 * of each only what the history needs: where it came from, when it ran,
 * its label and kernel, how many runs it used, and each column's median
 * over those runs.  Neither the kernel's account nor the timelines are
 * kept: a change point's explanation reads its neighbours again.
 */
#ifndef BONNIE_HISTORY_H
#define BONNIE_HISTORY_H

#include <sys/types.h>

#include "resultset.h"

/* The order of the records. */
enum hist_by {
	HIST_BY_TIME,		/* The records' start. */
	HIST_BY_KERNEL,		/* Kernel releases in version order. */
	HIST_BY_LABEL		/* Labels in version order. */
};

struct hist_rec {
	char		*file;
	char		*start;		/* As recorded; NULL unknown. */
	char		*label;
	char		*kernel;	/* system.kernel_release; NULL unknown. */
	int		 runs;		/* Those used (not stopped early). */
	int		 has_id;	/* dev and ino known (not stdin). */
	dev_t		 dev;
	ino_t		 ino;
	double		 v[RS_NCOLS];	/* Medians (a %CPU column's cost);
					   NAN none. */
};

struct history {
	int		 n;
	struct hist_rec	*recs;
	int		 nskipped;	/* Files of a directory that are not
					   usable run records, and why. */
	char		**skipped;
};

/*
 * Read the records named: a file is read whatever its name and must be a
 * usable run record; a directory is walked (its subdirectories too, in
 * name order) for files named *.json, and one that is not a usable run
 * record is listed in skipped, as is a file met again (named twice, or
 * named and in a directory named: the same device and inode), read once.  -1 with a cause on a named file that
 * cannot be used or a directory that cannot be read.
 */
int	hist_read(int n, char *const *paths, struct history *, char **cause);
void	hist_free(struct history *);
/* Has any record a value in column col? */
int	hist_has_column(const struct history *, int col);
/* Put the records in order, ties broken by start, then file name. */
void	hist_sort(struct history *, enum hist_by);
/* Version order: digits compared as numbers ("6.9" < "6.12"). */
int	hist_version_cmp(const char *, const char *);
/* A record's value of column col: the median of its runs', or NAN. */
double	hist_value(const struct result_set *, int col);

#endif
