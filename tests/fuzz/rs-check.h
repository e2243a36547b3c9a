/*
 * What the result-set reader harnesses (fuzz-json, fuzz-csv, fuzz-text)
 * assert about an answer: a refusal is one message "NAME:LINE: what" with
 * LINE a line of the input, and an accepted input gives runs whose lines
 * are in the input and whose values are finite and not negative.
 * Each check abort()s on a violation.
 */
#ifndef FUZZ_RS_CHECK_H
#define FUZZ_RS_CHECK_H

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "resultset.h"
#include "rs-read.h"
#include "units.h"

#define RS_FUZZ_NAME	"fuzz.in"

/* The number of lines in the input: newlines, plus one. */
static long
rs_fuzz_lines(const uint8_t *data, size_t size)
{
	long	n = 1;
	size_t	i;

	for (i = 0; i < size; i++)
		if (data[i] == '\n')
			n++;
	return n;
}

/*
 * A refusal: "NAME:LINE: what", LINE in 1..lines, a non-empty what, and
 * no newline unless the input could spell one inside a JSON string.
 */
static void
rs_fuzz_check_cause(const char *cause, const uint8_t *data, size_t size)
{
	const char	*p;
	size_t		 n = strlen(RS_FUZZ_NAME);
	long		 line = 0;

	if (cause == NULL || strncmp(cause, RS_FUZZ_NAME ":", n + 1) != 0)
		abort();
	p = cause + n + 1;
	if (!isdigit((unsigned char)*p))
		abort();
	for (; isdigit((unsigned char)*p); p++)
		if ((line = line * 10 + (*p - '0')) > rs_fuzz_lines(data,
		    size))
			abort();
	if (line < 1 || p[0] != ':' || p[1] != ' ' || p[2] == '\0')
		abort();
	if (strchr(cause, '\n') != NULL && memchr(data, '\\', size) == NULL)
		abort();
}

/* An accepted input: every run and value makes sense. */
static void
rs_fuzz_check_set(const struct result_set *rs, const uint8_t *data,
    size_t size)
{
	const struct rs_run	*r;
	char			 buf[64];
	long			 lines = rs_fuzz_lines(data, size);
	int			 i, c;

	if (rs->nruns < 0 || (rs->nruns > 0 && rs->runs == NULL))
		abort();
	for (i = 0; i < rs->nruns; i++) {
		r = &rs->runs[i];
		if (r->label == NULL || r->line < 1 || r->line > lines)
			abort();
		for (c = 0; c < RS_NCOLS; c++) {
			switch (r->col[c].state) {
			case RS_NONE:
			case RS_UNMEASURABLE:
				break;
			case RS_VALUE:
				if (!isfinite(r->col[c].v) || r->col[c].v < 0)
					abort();
				break;
			default:
				abort();
			}
			rs_format_value(buf, sizeof(buf), c, r->col[c].state,
			    r->col[c].v);
		}
	}
	units_size(buf, sizeof(buf), rs->set.size);
}

/*
 * Run one reader on the input, then the format-sniffing rs_read_buf(),
 * checking both answers and freeing both result sets.
 */
static void
rs_fuzz_one(int (*reader)(const char *, const char *, size_t,
    struct result_set *, char **), const uint8_t *data, size_t size)
{
	struct result_set	 rs;
	char			*cause = NULL;

	memset(&rs, 0, sizeof(rs));
	if (reader(RS_FUZZ_NAME, (const char *)data, size, &rs, &cause) == 0) {
		if (cause != NULL)
			abort();
		rs_fuzz_check_set(&rs, data, size);
	} else
		rs_fuzz_check_cause(cause, data, size);
	rs_free(&rs);
	free(cause);
	cause = NULL;

	if (rs_read_buf(RS_FUZZ_NAME, (const char *)data, size, &rs,
	    &cause) == 0) {
		if (cause != NULL || rs.nruns < 1 || rs.file == NULL ||
		    strcmp(rs.file, RS_FUZZ_NAME) != 0)
			abort();
		rs_fuzz_check_set(&rs, data, size);
		rs_free(&rs);
	} else {
		rs_fuzz_check_cause(cause, data, size);
		/* A refusal leaves nothing to free. */
		if (rs.nruns != 0 || rs.runs != NULL || rs.file != NULL)
			abort();
	}
	free(cause);
}

#endif
