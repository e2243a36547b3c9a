/*
 * compare's outputs: one printer per format of -o (compare-out-text.c,
 * -json.c, -junit.c, -md.c), each a const struct of its name and its
 * functions, listed in cmd-compare.c.  A printer reads the comparison
 * (compare-view.h) and writes it to f; it decides nothing.
 */
#ifndef BONNIE_COMPARE_OUT_H
#define BONNIE_COMPARE_OUT_H

#include <stdio.h>

#include "compare-view.h"

struct cmp_printer {
	const char	*name;		/* For -o. */
	/* Run records; 0, or -1 on a write error. */
	int		(*runs)(FILE *, const struct cmp_view *);
	/* Sweep records (the view's points and tables); the same. */
	int		(*sweeps)(FILE *, const struct cmp_view *);
	/*
	 * A comparison that could not be made (exit status: 2; with
	 * --bisect 125 or 255), why being the one line said on standard
	 * error; NULL when the output then has nothing to say.
	 */
	void		(*refused)(FILE *, const char *why, int status);
};

extern const struct cmp_printer cmp_out_text, cmp_out_json, cmp_out_junit,
	    cmp_out_markdown;
/* Every printer, NULL-ended (cmd-compare.c): -o takes their names. */
extern const struct cmp_printer *const cmp_printers[];

/*
 * The settings that differ, the comparability warnings and, where the
 * targets differ, the file system's cost, as the text table has them
 * (the Markdown output quotes them); returns the lines printed.
 */
int	cmp_out_text_settings(FILE *, const struct cmp_view *);

#endif
