/*
 * Reading result files: the readers in a table, each with a sniff that
 * tells its format from one line, and the loop that picks the reader by
 * the file's content, not its name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "rs-read.h"

/* The start of the line after p, or end. */
static const char *
next_line(const char *p, const char *end)
{
	const char	*nl = memchr(p, '\n', (size_t)(end - p));

	return nl != NULL ? nl + 1 : end;
}

/* Does [p, e) start with w? */
static int
starts(const char *p, const char *e, const char *w)
{
	size_t	n = strlen(w);

	return (size_t)(e - p) >= n && memcmp(p, w, n) == 0;
}

/* Does [p, e) contain the word w? */
static int
has(const char *p, const char *e, const char *w)
{
	size_t	n = strlen(w);

	for (; (size_t)(e - p) >= n; p++)
		if (memcmp(p, w, n) == 0)
			return 1;
	return 0;
}

/* JSON: the first non-blank character of the file is a brace. */
static int
sniff_json(const char *s, const char *e, int first)
{
	(void)e;
	return first && *s == '{';
}

/* bonnie++ CSV: a line starting with a format version or field names. */
static int
sniff_csv(const char *s, const char *e, int first)
{
	(void)first;
	return starts(s, e, "1.97,") || starts(s, e, "1.98,") ||
	    starts(s, e, "format_version,") || starts(s, e, "name,");
}

/* bonnie++'s own text report, which is not read but named. */
static int
sniff_pp_text(const char *s, const char *e, int first)
{
	(void)first;
	return has(s, e, "/sec %CP ") || has(s, e, "Name:Size etc");
}

/* The classic Bonnie report: the header's units line. */
static int
sniff_text(const char *s, const char *e, int first)
{
	(void)first;
	return has(s, e, "K/sec") && has(s, e, "%CPU");
}

static const struct rs_reader reader_json = {
	.name = "bonnie-ng JSON",
	.format = RS_FMT_JSON,
	.sniff = sniff_json,
	.read = rs_read_json,
};
static const struct rs_reader reader_csv = {
	.name = "bonnie++ CSV",
	.format = RS_FMT_CSV,
	.sniff = sniff_csv,
	.read = rs_read_csv,
};
static const struct rs_reader reader_pp_text = {
	.name = "bonnie++ text",
	.sniff = sniff_pp_text,
	.refuse = "a bonnie++ text report; compare reads bonnie++'s CSV line "
	    "(the last line bonnie++ prints) instead",
};
static const struct rs_reader reader_text = {
	.name = "Bonnie text",
	.format = RS_FMT_TEXT,
	.sniff = sniff_text,
	.read = rs_read_text,
};

const struct rs_reader *const rs_readers[] = {
	&reader_json,
	&reader_csv,
	&reader_pp_text,
	&reader_text,
	NULL
};

const char *
rs_format_name(enum rs_format f)
{
	const struct rs_reader *const	*rd;

	for (rd = rs_readers; *rd != NULL; rd++)
		if ((*rd)->read != NULL && (*rd)->format == f)
			return (*rd)->name;
	return "unknown";
}

int
rs_read_buf(const char *name, const char *buf, size_t len,
    struct result_set *rs, char **cause)
{
	const struct rs_reader *const	*rd;
	const char			*p = buf, *end = buf + len, *e, *s;
	int				 line = 1, first = 0, r;

	memset(rs, 0, sizeof(*rs));
	rs->file = xstrdup(name);
	if (memchr(buf, '\0', len) != NULL) {
		errorf(cause, "%s:1: binary file, not a result", name);
		goto bad;
	}
	/* The first line that a reader's sniff knows picks the reader. */
	for (; p < end; p = next_line(p, end), line++) {
		e = next_line(p, end);
		for (s = p; s < e && isspace((unsigned char)*s); s++)
			;
		if (s == e)
			continue;
		if (first == 0)
			first = line;
		for (rd = rs_readers; *rd != NULL; rd++) {
			if (!(*rd)->sniff(s, e, first == line))
				continue;
			if ((*rd)->read == NULL) {
				errorf(cause, "%s:%d: %s", name, line,
				    (*rd)->refuse);
				goto bad;
			}
			rs->format = (*rd)->format;
			r = (*rd)->read(name, buf, len, rs, cause);
			goto done;
		}
	}
	if (first == 0)
		errorf(cause, "%s:1: empty file", name);
	else
		errorf(cause, "%s:%d: not a bonnie-ng JSON record, bonnie++ CSV "
		    "or classic Bonnie report", name, first);
	goto bad;
done:
	if (r != 0)
		goto bad;
	if (rs->nruns == 0) {
		errorf(cause, "%s:%d: no results in the file", name,
		    first ? first : 1);
		goto bad;
	}
	if (rs->set.size == 0)
		rs->set.size = rs->runs[0].size;
	return 0;
bad:
	rs_free(rs);
	return -1;
}

int
rs_read_file(const char *path, struct result_set *rs, char **cause)
{
	FILE	*f;
	char	*buf;
	size_t	 len = 0, cap = 65536, n;
	int	 r;

	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "r")) == NULL)
		return errorf(cause, "%s: %s", path, strerror(errno));
	buf = xmalloc(cap);
	for (;;) {
		if (cap - len < 65536) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		r = errorf(cause, "%s: %s", path, strerror(errno));
		if (f != stdin)
			fclose(f);
		free(buf);
		return r;
	}
	if (f != stdin)
		fclose(f);
	r = rs_read_buf(path, buf, len, rs, cause);
	free(buf);
	return r;
}

