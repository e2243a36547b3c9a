/*
 * The comparison as compare prints it: the inputs, the cells of every
 * column (or of every sweep point and phase) against the base, what is
 * shown, and the exit status.  The command (cmd-compare.c, with
 * compare-sweep.c for sweep records) computes it once; the printers
 * (compare-out-*.c, over compare-out.h) only read it, through the words
 * below that more than one of them says.
 */
#ifndef BONNIE_COMPARE_VIEW_H
#define BONNIE_COMPARE_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "compare-kernel.h"
#include "phase.h"
#include "resultset.h"

/* One point of a sweep and one phase, new set k against the base. */
struct cmp_point {
	int		 k;		/* The new set, 1 or more. */
	enum phase_id	 phase;
	int		 col;		/* Its rate column. */
	const struct rs_run *at;	/* The base point's first run. */
	char		 place[64];	/* "16M 4k", "16k files -j 2". */
	int		 shown;		/* A side has a value. */
	struct cmp_cell	 c;
	struct km_moved	 moved;		/* What moved in its phase's account. */
};

/*
 * A phase's table of new set k against the base: points [first,
 * first + n) of cmp_view.points, one for each of the base's points.  The
 * tables go by new set, then phase, each set's in the same phase order.
 */
struct cmp_table {
	int		 k;
	enum phase_id	 phase;
	int		 first, n;
};

struct cmp_view {
	double			 threshold;	/* Percent. */
	const int		*fail_on;	/* [RS_NCOLS]: the gate. */
	int			 nsets;		/* Base and the new sets. */
	struct result_set	*sets;
	int			*left_out;	/* Per set, runs left out. */
	char			**excluded;	/* Those runs, and why. */
	int			 nexcluded;
	int			 exit;		/* The exit status: 0, 1 a gate
						   failed, 3 --strict and a gated
						   column untold; --bisect's. */
	int			 strict;	/* --strict (or --bisect=strict). */

	/* Run records: a cell per column and new set. */
	struct cmp_cell		*cells;		/* [col][new] */
	int			 shown[RS_NCOLS];
	int			 latency_skipped; /* Differing kinds. */

	/* Sweep records (sweep is 1): the tables of cmp_sweep_view(). */
	int			 sweep;
	int			*npoints;	/* Per set, its points. */
	struct cmp_point	*points;
	int			 npoints_all;
	struct cmp_table	*tables;
	int			 ntables;
};

/* The cell of column col for new set i + 1 (i 0 for the first). */
struct cmp_cell	*cmp_view_cell(const struct cmp_view *, int col, int i);

/*
 * The settings compare lists: the settings table's rows that are listed
 * (RULE_MATCH, RULE_INFO) or must match, then the phases' own options,
 * numbered after them; their names, and a side's value as the table says
 * to show it ("-": none), controls escaped.
 */
int		 cmp_view_nsettings(void);
int		 cmp_view_listed(int id);
const char	*cmp_view_setting_name(int id);
void		 cmp_view_show(const struct rs_settings *, int id, char *,
		    size_t);
/* What a setting a side does not know is shown as. */
void		 cmp_view_unknown(const struct result_set *, int id, char *,
		    size_t);
/* "file system", "device PATH" or "-". */
void		 cmp_view_target(const struct rs_settings *, char *, size_t);
/*
 * Why new set k is not comparable with the base: the settings that must
 * match and do not, "chunk 16384 vs 8192, ...", in a new string; NULL
 * when they all match (or a side does not know one).
 */
char		*cmp_view_not_comparable(const struct cmp_view *, int k);
/* The same of any two sets (a side's files, to pool them). */
char		*cmp_view_mismatch(const struct result_set *,
		    const struct result_set *);
/* How many selected columns (or sweep points) are inconclusive. */
int		 cmp_view_untold(const struct cmp_view *);
/* A setting's value as a terminal may show it: controls escaped. */
void		 cmp_view_escape(char *, size_t);
/* A result of bonnie++ itself (not bonnie-ng's CSV)? */
int		 cmp_view_is_bonnie_pp(const struct result_set *);
/* A bonnie-ng vm guest's runs on an emulated CPU (guest.accel tcg)? */
int		 cmp_view_is_emulated(const struct result_set *);

/*
 * Do the base and new set k measure different targets, a file system and
 * a block device?  Then the file system's side is *fs (0 the base, 1
 * new).  cmp_view_fs_ratio(): the file system's cost in column col, its
 * rate over the device's or its CPU cost over the device's; NAN when a
 * side lacks it, for latency, and when the targets do not differ.
 */
int		 cmp_view_targets_differ(const struct cmp_view *, int k,
		    int *fs);
double		 cmp_view_fs_ratio(const struct cmp_view *, int col, int k);

/*
 * Is column col selected by the gate and worse or missing in c (or, with
 * --strict, inconclusive)?
 */
int		 cmp_view_fails(const struct cmp_view *, int col,
		    const struct cmp_cell *);
/* "K/sec", "/sec", a cost's unit or "lat". */
const char	*cmp_view_unit(int col);
/*
 * A median as the tables print it (a %CPU column's cost with the raw
 * %CPU beside it: "8.89 (38.8%)"); cmp_view_value() prints a latency in
 * the one unit that suits its row.
 */
void		 cmp_view_median(char *, size_t, int col, int n,
		    int unmeasured, double v, double cpu);
void		 cmp_view_value(char *, size_t, const struct cmp_view *,
		    int col, int n, int unmeasured, double v, double cpu);
/* "thr 5%", "MW -21.6..-18.4%" (the change's interval), "boot ...", "+++++". */
void		 cmp_view_method(char *, size_t, const struct cmp_view *,
		    const struct cmp_cell *);
/* A side's spread (a coefficient of variation), or blank. */
void		 cmp_view_cv(char *, size_t, double cv);
/* "b:IW n:W": which side has imprecise (I) or warm (W) runs. */
void		 cmp_view_flags(char *, size_t, unsigned fb, unsigned fn);
/*
 * One line on a change, in a new string: "write: 100352 -> 80281 K/sec
 * (-20.0%), worse by MW p=0.008", what being its subject ("write", "read
 * at 1M 64k").
 */
char		*cmp_view_change(const struct cmp_view *, const char *what,
		    int col, const struct cmp_cell *);
/* A sweep point's medians and change, as the tables print them. */
struct cmp_point_words {
	char	base[32], new[32], change[16];
};
void		 cmp_view_point_words(const struct cmp_point *,
		    struct cmp_point_words *);
/*
 * -F's list of columns ("write,read_cpu", "rates", "all") into sel[] and
 * the columns named one by one into named[] (RS_NCOLS each): 0, or -1
 * with the cause; a list that names no column is refused.
 */
int		 cmp_view_parse_columns(const char *, int *sel, int *named,
		    char **cause);
/* How a verdict is reached, in lines for a terminal. */
void		 cmp_view_rule(FILE *, const struct cmp_view *);
/*
 * The result, in a new string: "ok (...)", or which selected columns (or
 * sweep points) got worse or are missing.
 */
char		*cmp_view_result(const struct cmp_view *);
/*
 * What moved in the kernel's account of column col's phase for new set
 * k, as a line: "read -75.3% worse: rareq-sz 508 -> 4.0 KiB (-99%), ...
 * (single runs)".  0 with the line; -1 when the column has no verdict or
 * a side no account.  cmp_view_moved_next(): the next such line of a
 * shown column from *at on (start at 0); 0 when there are no more.
 */
int		 cmp_view_moved(const struct cmp_view *, int col, int k,
		    char *, size_t);
int		 cmp_view_moved_next(const struct cmp_view *, int *at, char *,
		    size_t);

#endif
