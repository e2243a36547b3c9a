/*
 * libFuzzer harness for the strict JSON parser, jv_parse().  A refusal
 * has a line of the input and a one-line message.  An accepted value has
 * every node's line in the input, and goes round the writer (json.h):
 * written, it parses again to the same tree (strings compared where the
 * input's were valid UTF-8; the writer replaces bad bytes by U+FFFD), and
 * writing that tree gives the same text (when the input's strings were
 * all valid UTF-8: the writer escapes U+FFFD it made itself, and writes
 * the one it reads back as it is).  A tree deeper than the writer allows
 * must make json_finish() fail instead.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jsonparse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Is s valid UTF-8 (no overlong forms, surrogates, or > U+10FFFF)? */
static int
jp_fuzz_utf8(const char *str)
{
	const unsigned char	*s = (const unsigned char *)str;
	unsigned		 c, v, min;
	int			 len, i;

	while ((c = *s) != 0) {
		if (c < 0x80) {
			s++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			len = 2, v = c & 0x1f, min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3, v = c & 0x0f, min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4, v = c & 0x07, min = 0x10000;
		} else
			return 0;
		for (i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			v = v << 6 | (s[i] & 0x3f);
		}
		if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			return 0;
		s += len;
	}
	return 1;
}

/* The nesting of containers: 0 for a scalar, 1 for [] ... */
static int
jp_fuzz_depth(const struct jv *v)
{
	size_t	i;
	int	d, max = 0;

	if (v->type != JV_ARRAY && v->type != JV_OBJECT)
		return 0;
	for (i = 0; i < v->len; i++)
		if ((d = jp_fuzz_depth(&v->items[i])) > max)
			max = d;
	return max + 1;
}

/* Every node starts on a line of the input. */
static void
jp_fuzz_lines(const struct jv *v, int lines)
{
	size_t	i;

	if (v->line < 1 || v->line > lines)
		abort();
	if (v->type == JV_OBJECT && v->len > 0 && v->keys == NULL)
		abort();
	for (i = 0; i < v->len; i++) {
		if (v->type == JV_OBJECT && v->keys[i] == NULL)
			abort();
		jp_fuzz_lines(&v->items[i], lines);
	}
}

/* Strings of the input that were not valid UTF-8, seen by jp_fuzz_same. */
static int	jp_fuzz_lossy;

static int
jp_fuzz_same_str(const char *orig, const char *back)
{
	if (!jp_fuzz_utf8(orig)) {
		jp_fuzz_lossy = 1;
		return 1;
	}
	return strcmp(orig, back) == 0;
}

/* Is b (read back from the writer's text) the tree a? */
static int
jp_fuzz_same(const struct jv *a, const struct jv *b)
{
	size_t	i;

	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case JV_NULL:
		return 1;
	case JV_BOOL:
		return a->b == b->b;
	case JV_NUMBER:
		return a->n == b->n;
	case JV_STRING:
		return jp_fuzz_same_str(a->s, b->s);
	case JV_ARRAY:
	case JV_OBJECT:
		if (a->len != b->len)
			return 0;
		for (i = 0; i < a->len; i++) {
			if (a->type == JV_OBJECT &&
			    !jp_fuzz_same_str(a->keys[i], b->keys[i]))
				return 0;
			if (!jp_fuzz_same(&a->items[i], &b->items[i]))
				return 0;
		}
		return 1;
	}
	return 0;
}

static void
jp_fuzz_write(struct json *j, const char *key, const struct jv *v)
{
	size_t	i;

	switch (v->type) {
	case JV_NULL:
		json_null(j, key);
		break;
	case JV_BOOL:
		json_bool(j, key, v->b);
		break;
	case JV_NUMBER:
		json_double(j, key, v->n);
		break;
	case JV_STRING:
		json_string(j, key, v->s);
		break;
	case JV_ARRAY:
		json_array_start(j, key);
		for (i = 0; i < v->len; i++)
			jp_fuzz_write(j, NULL, &v->items[i]);
		json_array_end(j);
		break;
	case JV_OBJECT:
		json_object_start(j, key);
		for (i = 0; i < v->len; i++)
			jp_fuzz_write(j, v->keys[i], &v->items[i]);
		json_object_end(j);
		break;
	}
}

/* Write v to a new string; NULL when the writer refused it. */
static char *
jp_fuzz_text(const struct jv *v, int pretty, size_t *len)
{
	struct json	 j;
	FILE		*f;
	char		*buf = NULL;
	int		 r;

	if ((f = open_memstream(&buf, len)) == NULL)
		abort();
	json_init(&j, f, pretty);
	jp_fuzz_write(&j, NULL, v);
	r = json_finish(&j);
	fclose(f);
	if (r != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jv	*v = NULL, *back = NULL;
	char		*cause = NULL, *t1, *t2;
	size_t		 i, len1, len2;
	int		 line = 0, lines = 1, pretty;

	for (i = 0; i < size; i++)
		if (data[i] == '\n')
			lines++;
	if (jv_parse((const char *)data, size, &v, &line, &cause) != 0) {
		if (cause == NULL || cause[0] == '\0' ||
		    strchr(cause, '\n') != NULL || line < 1 || line > lines)
			abort();
		free(cause);
		return 0;
	}
	if (v == NULL || cause != NULL)
		abort();
	jp_fuzz_lines(v, lines);

	pretty = size > 0 && (data[0] & 1);
	t1 = jp_fuzz_text(v, pretty, &len1);
	if (jp_fuzz_depth(v) >= JSON_MAX_DEPTH) {
		if (t1 != NULL)
			abort();	/* Too deep: the writer must refuse. */
		jv_free(v);
		return 0;
	}
	if (t1 == NULL)
		abort();
	if (jv_parse(t1, len1, &back, &line, &cause) != 0)
		abort();		/* The writer wrote bad JSON. */
	jp_fuzz_lossy = 0;
	if (!jp_fuzz_same(v, back))
		abort();
	if ((t2 = jp_fuzz_text(back, pretty, &len2)) == NULL)
		abort();
	if (!jp_fuzz_lossy && (len1 != len2 || memcmp(t1, t2, len1) != 0))
		abort();
	free(t2);
	free(t1);
	jv_free(back);
	jv_free(v);
	return 0;
}
