/*
 * Reading classic Bonnie text reports as people paste them into mail:
 * prose before, quoting prefixes ("> ", ">> "), header lines with any
 * indentation, rows with or without the Machine and MB columns, values of
 * any width.  Rows are split on white space, never on columns.  bonnie-ng's
 * own "Latency" rows and the lines of its phases outside the classic row
 * ("Sync") are read; its "#median", "#min" and "#max" summary
 * rows are skipped, being derived from the runs above them.  A row that a
 * mail program wrapped onto a second line is joined again.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "phase.h"
#include "report.h"
#include "resultset.h"
#include "rs-read.h"
#include "units.h"

#define MAX_TOKENS	64

/* Strip white space and quoting characters from the start of a line. */
static const char *
unquote(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '>' || *p == '|'))
		p++;
	return p;
}

static int
tokenize(char *s, char **tok)
{
	int	n = 0;

	for (;;) {
		while (*s != '\0' && isspace((unsigned char)*s))
			*s++ = '\0';
		if (*s == '\0')
			return n;
		if (n == MAX_TOKENS)
			return n + 1;
		tok[n++] = s;
		while (*s != '\0' && !isspace((unsigned char)*s))
			s++;
	}
}

/* A field of a row: a number, "-" (not run) or "+++" (unmeasurable). */
static int
is_field(const char *s)
{
	double	v;

	if (strcmp(s, "-") == 0)
		return 1;
	if (*s == '+') {
		while (*s == '+')
			s++;
		return *s == '\0';
	}
	return units_parse_decimal(s, &v) == 0;
}

static void
field_value(const char *s, struct rs_value *v)
{
	if (strcmp(s, "-") == 0)
		v->state = RS_NONE;
	else if (*s == '+')
		v->state = RS_UNMEASURABLE;
	else {
		v->state = RS_VALUE;
		(void)units_parse_decimal(s, &v->v);
	}
}

static int
is_units_line(const char *s)
{
	return strstr(s, "K/sec") != NULL && strstr(s, "%CPU") != NULL;
}

/* The first two header lines, or a bonnie++ header: end of a table. */
static int
is_header_line(const char *s)
{
	return strstr(s, "Sequential") != NULL ||
	    strstr(s, "-Per Char-") != NULL || strstr(s, "-Per Chr-") != NULL;
}

static int
latency_row(const char *name, int line, char **tok, int n,
    struct rs_run *last, char **cause)
{
	double	v;
	int	i, first;

	/* "Latency", an optional size, then six durations or "-". */
	if (n == 8)
		first = 2;
	else if (n == 7)
		first = 1;
	else
		return errorf(cause, "%s:%d: Latency row has %d fields, expected "
		    "6 latencies", name, line, n - 1);
	for (i = 0; i < CLASSIC_NCOLS; i++) {
		if (strcmp(tok[first + i], "-") == 0)
			continue;
		if (units_parse_latency(tok[first + i], &v) != 0)
			return errorf(cause, "%s:%d: not a latency: '%s'", name,
			    line, tok[first + i]);
		if (last != NULL) {
			last->col[RS_LAT(classic_columns[i])].state = RS_VALUE;
			last->col[RS_LAT(classic_columns[i])].v = v;
		}
	}
	return 0;
}

/* The phase outside the classic row whose line starts with word, or -1. */
static int
extra_phase(const char *word, size_t len)
{
	int	id;

	for (id = 0; id < PH_COUNT; id++)
		if (!(report_classic_mask() & (1u << id)) &&
		    strlen(phase_table[id]->column) == len &&
		    strncmp(word, phase_table[id]->column, len) == 0)
			return id;
	return -1;
}

/*
 * The line of a phase outside the classic row, under a run's row: the
 * phase's column ("Sync"), the size, rate and %CPU, the unit, and perhaps
 * "latency p50 D p90 D p99 D p99.9 D".  Returns 1 when tok[0] names no
 * such phase, 0 when the line was read, -1 when it is malformed.
 */
static int
extra_row(const char *name, int line, char **tok, int n, struct rs_run *run,
    char **cause)
{
	double	v;
	int	id, i;

	if ((id = extra_phase(tok[0], strlen(tok[0]))) == -1)
		return 1;
	if (n < 4 || !is_field(tok[1]) || !is_field(tok[2]) ||
	    !is_field(tok[3]))
		return errorf(cause, "%s:%d: %s line: expected the size, the "
		    "rate and %%CPU", name, line, tok[0]);
	if (run == NULL)
		return 0;
	field_value(tok[2], &run->col[RS_RATE(id)]);
	field_value(tok[3], &run->col[RS_CPU(id)]);
	for (i = 4; i + 1 < n; i++)
		if (strcmp(tok[i], "p99") == 0) {
			if (units_parse_latency(tok[i + 1], &v) != 0)
				return errorf(cause, "%s:%d: not a latency: "
				    "'%s'", name, line, tok[i + 1]);
			run->col[RS_LAT(id)].state = RS_VALUE;
			run->col[RS_LAT(id)].v = v;
		}
	return 0;
}

/*
 * What the units line above the rows says comes before the 12 fields: a
 * Machine column (one or more words), an MB column, both or neither.
 */
struct text_shape {
	int	label;
	int	mb;
	int	line;		/* Of the units line. */
};

static void
shape_of(const char *units, int line, struct text_shape *sh)
{
	char	*copy = xstrdup(units), *tok[MAX_TOKENS + 1];
	int	 n, i;

	sh->label = sh->mb = 0;
	sh->line = line;
	n = tokenize(copy, tok);
	for (i = 0; i < n && i < MAX_TOKENS &&
	    strcmp(tok[i], "K/sec") != 0; i++) {
		if (strcmp(tok[i], "Machine") == 0)
			sh->label = 1;
		else if (strcmp(tok[i], "MB") == 0)
			sh->mb = 1;
	}
	free(copy);
}

/*
 * A result row: [label] [MB] and 12 fields, as the units line above it
 * says.  Returns 1 when the line is not a row at all, 0 when it was read,
 * -1 on a row of another shape: a field missing or extra would shift
 * every column after it.  A label's last word is not a number, unless
 * the label is the only word before the numbers.
 */
static int
data_row(const char *name, int line, char **tok, int n,
    const struct text_shape *sh, struct result_set *rs,
    struct rs_run **lastp, char **cause)
{
	struct rs_run	*r;
	char		 label[256];
	double		 mb = -1;
	int		 t, i, lab, want = 12 + sh->mb;

	for (t = 0; t < n && is_field(tok[n - 1 - t]); t++)
		;
	if (t < 6)
		return 1;
	if (sh->label && ((t == want && n > want) ||
	    (t == n && n == want + 1)))
		lab = n - want;
	else if (!sh->label && t == n && n == want)
		lab = 0;
	else
		return errorf(cause, "%s:%d: a row of %d words, %d of them "
		    "numbers, under the header on line %d, which has %s12 "
		    "numbers (six K/sec and %%CPU pairs)", name, line, n, t,
		    sh->line, sh->label && sh->mb ? "the machine, MB and " :
		    sh->label ? "the machine and " : sh->mb ? "MB and " : "");
	if (sh->mb && strcmp(tok[lab], "-") != 0)
		(void)units_parse_decimal(tok[lab], &mb);
	label[0] = '\0';
	for (i = 0; i < lab; i++) {
		if (i > 0)
			strncat(label, " ", sizeof(label) - strlen(label) - 1);
		strncat(label, tok[i], sizeof(label) - strlen(label) - 1);
	}
	if (label[0] == '#') {
		/* A summary row: derived from the runs, not a run. */
		*lastp = NULL;
		return 0;
	}
	r = rs_add_run(rs, label, line);
	if (mb >= 0 && mb < 0x1p44)	/* Else too large: unknown. */
		r->size = (uint64_t)(mb * 1024 * 1024);
	for (i = 0; i < CLASSIC_NCOLS; i++) {
		field_value(tok[n - 12 + 2 * i],
		    &r->col[RS_RATE(classic_columns[i])]);
		field_value(tok[n - 12 + 2 * i + 1],
		    &r->col[RS_CPU(classic_columns[i])]);
	}
	*lastp = r;
	return 0;
}

/* The line at p without its quoting, in a new string; *nl is its end. */
static char *
line_text(const char *p, const char *end, const char **nl)
{
	const char	*s, *e;
	char		*text;

	*nl = memchr(p, '\n', (size_t)(end - p));
	e = *nl != NULL ? *nl : end;
	s = unquote(p, e);
	text = xmalloc((size_t)(e - s) + 1);
	memcpy(text, s, (size_t)(e - s));
	text[e - s] = '\0';
	return text;
}

/* The number of tokens in s, and in *trailing the fields at its end. */
static int
count_fields(const char *s, int *trailing)
{
	char	*copy = xstrdup(s), *tok[MAX_TOKENS + 1];
	int	 n, t;

	n = tokenize(copy, tok);
	if (n > MAX_TOKENS)
		n = MAX_TOKENS;
	for (t = 0; t < n && is_field(tok[n - 1 - t]); t++)
		;
	free(copy);
	*trailing = t;
	return n;
}

/*
 * A row that a mail program wrapped: when the line after a short row
 * holds nothing but the missing fields, join the two.  Returns the text
 * to use (text itself, or a new string with the next line consumed).
 */
static char *
unwrap(char *text, const char *end, const char **nl, int *line)
{
	const char	*nl2;
	char		*more, *joined;
	int		 n, t, n2, t2;

	if (*nl == NULL || strncmp(text, "Latency", 7) == 0 ||
	    extra_phase(text, strcspn(text, " \t")) != -1)
		return text;
	n = count_fields(text, &t);
	if (n == 0 || t >= 12)
		return text;
	more = line_text(*nl + 1, end, &nl2);
	n2 = count_fields(more, &t2);
	if (n2 == 0 || n2 != t2 || t + t2 < 12 || t + t2 > 13 ||
	    (n == t && t + t2 == 13 && n + n2 != 13)) {
		free(more);
		return text;
	}
	joined = xasprintf("%s %s", text, more);
	free(more);
	free(text);
	*nl = nl2;
	(*line)++;
	return joined;
}

int
rs_read_text(const char *name, const char *buf, size_t len,
    struct result_set *rs, char **cause)
{
	const char	*p = buf, *end = buf + len, *nl;
	struct text_shape shape = { 0, 0, 0 };
	struct rs_run	*last = NULL, *run = NULL;
	char		*text, *tok[MAX_TOKENS + 1];
	int		 line = 0, in = 0, rows = 0, header = 0, hdr, n, r;
	int		 row_line;

	rs->format = RS_FMT_TEXT;
	rs->set.version = xstrdup("Bonnie text report");
	rs->set.latency = "p99";
	for (; p < end; p = nl != NULL ? nl + 1 : end) {
		line++;
		text = line_text(p, end, &nl);
		r = 0;
		if (is_units_line(text)) {
			in = 1;
			rows = 0;
			header = line;
			shape_of(text, line, &shape);
			last = run = NULL;
			goto next;
		}
		if (!in)
			goto next;
		hdr = is_header_line(text);
		row_line = line;
		if (!hdr)
			text = unwrap(text, end, &nl, &line);
		n = tokenize(text, tok);
		if (n == 0) {
			/* A blank line ends a table that has rows. */
			if (rows > 0)
				in = 0;
			goto next;
		}
		if (n > MAX_TOKENS) {
			r = errorf(cause, "%s:%d: too many fields for a result "
			    "row", name, row_line);
			goto next;
		}
		if (strcmp(tok[0], "Latency") == 0) {
			r = latency_row(name, row_line, tok, n, last, cause);
			last = NULL;
			goto next;
		}
		if ((r = extra_row(name, row_line, tok, n, run, cause)) != 1)
			goto next;
		r = data_row(name, row_line, tok, n, &shape, rs, &last, cause);
		run = last;
		if (r == 0)
			rows++;
		else if (r == 1) {
			/* Prose or a new header after the rows ends the table. */
			if (rows > 0 || hdr) {
				in = 0;
				r = 0;
			} else
				r = errorf(cause, "%s:%d: expected a result row "
				    "after the header on line %d", name, row_line,
				    header);
		}
next:
		free(text);
		if (r != 0)
			return -1;
	}
	if (in && rows == 0)
		return errorf(cause, "%s:%d: header without result rows", name,
		    header);
	return 0;
}
