/*
 * A small JSON writer.  The caller says what to write; this file places
 * the commas, the indentation and the escapes, and keeps the output valid
 * JSON and valid UTF-8 whatever bytes it is given.
 *
 * A misuse (too deep, an end without a start) puts the writer in a broken
 * state, marked by a negative depth: everything after it is ignored and
 * json_finish() fails with EINVAL, so a bad document is never reported as
 * written.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define JSON_BROKEN	(-1)

void
json_init(struct json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	j->pretty = pretty;
}

static void
indent(struct json *j)
{
	int	i;

	putc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Write one code point below 0x10000 as a \u escape. */
static void
put_u(FILE *f, unsigned cp)
{
	fprintf(f, "\\u%04x", cp);
}

/*
 * The length of the valid UTF-8 sequence at s (at most n bytes), and its
 * code point in *cp; 0 when the bytes there are not valid UTF-8 (a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or a
 * sequence cut short).
 */
static size_t
utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned	c = s[0], min, v;
	size_t		len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
		min = 0x10000;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/*
 * Write s as a JSON string.  Quote and backslash are escaped, and so is
 * every control character (C0, DEL and C1) and the two line separators
 * that JavaScript treats as line ends; other valid UTF-8 passes through
 * unchanged.  A byte that is not part of valid UTF-8 becomes U+FFFD, the
 * replacement character, so the document is always valid UTF-8.
 */
static void
put_string(FILE *f, const char *str)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 n = strlen(str), len;
	unsigned		 cp;

	putc('"', f);
	while (n > 0) {
		len = utf8_seq(s, n, &cp);
		if (len == 0) {
			put_u(f, 0xfffd);
			s++;
			n--;
			continue;
		}
		switch (cp) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			    cp == 0x2028 || cp == 0x2029)
				put_u(f, cp);
			else
				fwrite(s, 1, len, f);
			break;
		}
		s += len;
		n -= len;
	}
	putc('"', f);
}

/*
 * Start a value: the comma after the previous member, the line break and
 * indentation, and the key.  Returns -1 when the writer is broken.
 */
static int
member(struct json *j, const char *key)
{
	if (j->depth < 0)
		return -1;
	if (j->depth == 0 && !j->first[0]) {
		/* A second document at the top level. */
		j->depth = JSON_BROKEN;
		return -1;
	}
	if (!j->first[j->depth])
		fputs(j->pretty && j->row > 0 ? ", " : ",", j->f);
	if (j->pretty && j->depth > 0 && j->row == 0)
		indent(j);
	j->first[j->depth] = 0;
	if (key != NULL && j->depth > 0) {
		put_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
	return 0;
}

static void
open_container(struct json *j, const char *key, int c)
{
	if (member(j, key) == -1)
		return;
	if (j->depth + 1 >= JSON_MAX_DEPTH) {
		j->depth = JSON_BROKEN;
		return;
	}
	putc(c, j->f);
	j->depth++;
	j->first[j->depth] = 1;
}

static void
close_container(struct json *j, int c)
{
	int	empty, flat;

	if (j->depth <= 0) {
		j->depth = JSON_BROKEN;
		return;
	}
	empty = j->first[j->depth];
	flat = j->row > 0;
	if (j->row == j->depth)
		j->row = 0;
	j->depth--;
	if (j->pretty && !empty && !flat)
		indent(j);
	putc(c, j->f);
}

void
json_object_start(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void
json_object_end(struct json *j)
{
	close_container(j, '}');
}

void
json_array_start(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void
json_row_start(struct json *j, const char *key)
{
	open_container(j, key, '[');
	if (j->depth > 0 && j->row == 0)
		j->row = j->depth;
}

void
json_array_end(struct json *j)
{
	close_container(j, ']');
}

/* A NULL string is written as null. */
void
json_string(struct json *j, const char *key, const char *value)
{
	if (member(j, key) == -1)
		return;
	if (value == NULL)
		fputs("null", j->f);
	else
		put_string(j->f, value);
}

/*
 * Format a finite double with the fewest significant digits (15 to 17)
 * that read back as the same value, with a '.' as the decimal point
 * whatever the locale says.
 */
static void
format_double(char *buf, size_t len, double v)
{
	const char	*dp;
	char		*p;
	int		 prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, len, "%.17g", v);
	dp = localeconv()->decimal_point;
	if (dp != NULL && dp[0] != '\0' && strcmp(dp, ".") != 0 &&
	    (p = strstr(buf, dp)) != NULL) {
		*p = '.';
		memmove(p + 1, p + strlen(dp), strlen(p + strlen(dp)) + 1);
	}
}

void
json_double(struct json *j, const char *key, double value)
{
	char	buf[64];

	if (member(j, key) == -1)
		return;
	if (!isfinite(value)) {
		fputs("null", j->f);
		return;
	}
	format_double(buf, sizeof(buf), value);
	fputs(buf, j->f);
}

void
json_int(struct json *j, const char *key, int64_t value)
{
	if (member(j, key) == -1)
		return;
	fprintf(j->f, "%" PRId64, value);
}

void
json_uint(struct json *j, const char *key, uint64_t value)
{
	if (member(j, key) == -1)
		return;
	fprintf(j->f, "%" PRIu64, value);
}

void
json_bool(struct json *j, const char *key, int value)
{
	if (member(j, key) == -1)
		return;
	fputs(value ? "true" : "false", j->f);
}

void
json_null(struct json *j, const char *key)
{
	if (member(j, key) == -1)
		return;
	fputs("null", j->f);
}

int
json_finish(struct json *j)
{
	if (j->depth != 0 || j->first[0]) {
		errno = EINVAL;
		return -1;
	}
	putc('\n', j->f);
	if (fflush(j->f) == EOF)
		return -1;
	if (ferror(j->f)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

void
json_int_or_null(struct json *j, const char *key, int64_t v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_int(j, key, v);
}

void
json_double_or_null(struct json *j, const char *key, double v)
{
	if (!(v >= 0))
		json_null(j, key);
	else
		json_double(j, key, v);
}

void
json_bool_or_null(struct json *j, const char *key, int v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_bool(j, key, v);
}
