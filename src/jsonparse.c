/*
 * A strict JSON parser: recursive descent over a buffer, building a tree
 * of struct jv.  It accepts exactly RFC 8259 (no comments, no trailing
 * commas, no leading zeros, no control characters in strings).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsonparse.h"

struct jp {
	const char	*p;
	const char	*end;
	int		 line;
	char		**cause;
	const char *const *skip;	/* Members left out, or NULL. */
	int		 skipping;	/* Inside one: check, keep nothing. */
};

static int	parse_value(struct jp *, struct jv *, int depth);
static void	jv_clear(struct jv *);

/* Is a member of this name to be left out? */
static int
skipped_name(const struct jp *jp, const char *key)
{
	const char *const	*k;

	for (k = jp->skip; k != NULL && *k != NULL; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

/* realloc(3) that cannot fail. */
static void *
grow(void *p, size_t n)
{
	return xrealloc(p, n);
}

static int
fail(struct jp *jp, const char *what)
{
	if (jp->p >= jp->end)
		return errorf(jp->cause, "%s at end of input", what);
	if ((unsigned char)*jp->p >= 0x20 && (unsigned char)*jp->p < 0x7f)
		return errorf(jp->cause, "%s at '%c'", what, *jp->p);
	return errorf(jp->cause, "%s", what);
}

static void
skip_ws(struct jp *jp)
{
	const char	*p = jp->p, *end = jp->end;

	/* Locals, so that the loop keeps them in registers. */
	for (; p < end; p++) {
		if (*p == ' ')
			continue;
		if (*p == '\n')
			jp->line++;
		else if (*p != '\t' && *p != '\r')
			break;
	}
	jp->p = p;
}

static int
literal(struct jp *jp, const char *word)
{
	size_t	n = strlen(word);

	if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, word, n) != 0)
		return fail(jp, "unexpected character");
	jp->p += n;
	return 0;
}

/* Grow a byte buffer by one byte (s NULL: a string not kept). */
static void
put_byte(char **s, size_t *len, size_t *cap, int c)
{
	if (s == NULL)
		return;
	if (*len + 1 >= *cap) {
		*cap = *cap ? *cap * 2 : 32;
		*s = grow(*s, *cap);
	}
	(*s)[(*len)++] = (char)c;
}

/* Append n bytes, with room left for one more. */
static void
put_bytes(char **s, size_t *len, size_t *cap, const char *b, size_t n)
{
	if (*len + n + 1 >= *cap) {
		while (*len + n + 1 >= *cap)
			*cap = *cap ? *cap * 2 : 32;
		*s = grow(*s, *cap);
	}
	memcpy(*s + *len, b, n);
	*len += n;
}

static void
put_utf8(char **s, size_t *len, size_t *cap, unsigned long cp)
{
	if (s == NULL)
		return;
	if (cp < 0x80)
		put_byte(s, len, cap, (int)cp);
	else if (cp < 0x800) {
		put_byte(s, len, cap, (int)(0xc0 | (cp >> 6)));
		put_byte(s, len, cap, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		put_byte(s, len, cap, (int)(0xe0 | (cp >> 12)));
		put_byte(s, len, cap, (int)(0x80 | ((cp >> 6) & 0x3f)));
		put_byte(s, len, cap, (int)(0x80 | (cp & 0x3f)));
	} else {
		put_byte(s, len, cap, (int)(0xf0 | (cp >> 18)));
		put_byte(s, len, cap, (int)(0x80 | ((cp >> 12) & 0x3f)));
		put_byte(s, len, cap, (int)(0x80 | ((cp >> 6) & 0x3f)));
		put_byte(s, len, cap, (int)(0x80 | (cp & 0x3f)));
	}
}

static int
hex4(struct jp *jp, unsigned long *cp)
{
	int	i, c;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		if (jp->p >= jp->end)
			return fail(jp, "short \\u escape");
		c = (unsigned char)*jp->p;
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return fail(jp, "bad \\u escape");
		*cp = *cp * 16 + (unsigned long)c;
		jp->p++;
	}
	return 0;
}

static int
parse_string(struct jp *jp, char **out)
{
	char		*s = NULL, **sp = out != NULL ? &s : NULL;
	const char	*q;
	size_t		 len = 0, cap = 0;
	unsigned long	 cp, lo;
	int		 c;

	jp->p++;	/* The opening quote. */
	for (;;) {
		/* A run of plain bytes at once. */
		for (q = jp->p; q < jp->end && *q != '"' && *q != '\\' &&
		    (unsigned char)*q >= 0x20; q++)
			;
		if (q > jp->p) {
			if (sp != NULL)
				put_bytes(sp, &len, &cap, jp->p,
				    (size_t)(q - jp->p));
			jp->p = q;
		}
		if (jp->p >= jp->end) {
			free(s);
			return fail(jp, "unterminated string");
		}
		c = (unsigned char)*jp->p;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(s);
			return fail(jp, "control character in string");
		}
		jp->p++;
		if (c != '\\') {
			put_byte(sp, &len, &cap, c);
			continue;
		}
		if (jp->p >= jp->end) {
			free(s);
			return fail(jp, "unterminated string");
		}
		c = (unsigned char)*jp->p++;
		switch (c) {
		case '"': case '\\': case '/':
			put_byte(sp, &len, &cap, c);
			break;
		case 'b':
			put_byte(sp, &len, &cap, '\b');
			break;
		case 'f':
			put_byte(sp, &len, &cap, '\f');
			break;
		case 'n':
			put_byte(sp, &len, &cap, '\n');
			break;
		case 'r':
			put_byte(sp, &len, &cap, '\r');
			break;
		case 't':
			put_byte(sp, &len, &cap, '\t');
			break;
		case 'u':
			if (hex4(jp, &cp) != 0) {
				free(s);
				return -1;
			}
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (jp->end - jp->p < 2 || jp->p[0] != '\\' ||
				    jp->p[1] != 'u') {
					free(s);
					return fail(jp, "lone surrogate");
				}
				jp->p += 2;
				if (hex4(jp, &lo) != 0) {
					free(s);
					return -1;
				}
				if (lo < 0xdc00 || lo >= 0xe000) {
					free(s);
					return fail(jp, "lone surrogate");
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				free(s);
				return fail(jp, "lone surrogate");
			}
			if (cp == 0) {
				free(s);
				return fail(jp, "NUL in string");
			}
			put_utf8(sp, &len, &cap, cp);
			break;
		default:
			jp->p--;
			free(s);
			return fail(jp, "bad escape");
		}
	}
	jp->p++;	/* The closing quote. */
	if (out != NULL) {
		put_byte(sp, &len, &cap, '\0');
		*out = s;
	}
	return 0;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
parse_number(struct jp *jp, double *n)
{
	const char	*start = jp->p, *q = jp->p;
	char		 tmp[64];
	char		*endp;
	double		 d;

	if (q < jp->end && *q == '-')
		q++;
	if (q >= jp->end || !is_digit(*q)) {
		jp->p = q;
		return fail(jp, "bad number");
	}
	if (*q == '0') {
		q++;
		if (q < jp->end && is_digit(*q)) {
			jp->p = q;
			return fail(jp, "leading zero in number");
		}
	} else
		while (q < jp->end && is_digit(*q))
			q++;
	if (q < jp->end && *q == '.') {
		q++;
		if (q >= jp->end || !is_digit(*q)) {
			jp->p = q;
			return fail(jp, "bad number");
		}
		while (q < jp->end && is_digit(*q))
			q++;
	}
	if (q < jp->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < jp->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= jp->end || !is_digit(*q)) {
			jp->p = q;
			return fail(jp, "bad number");
		}
		while (q < jp->end && is_digit(*q))
			q++;
	}
	if ((size_t)(q - start) >= sizeof(tmp))
		return fail(jp, "number too long");
	/* Not kept: only an exponent can take it out of range. */
	if (n == NULL && memchr(start, 'e', (size_t)(q - start)) == NULL &&
	    memchr(start, 'E', (size_t)(q - start)) == NULL) {
		jp->p = q;
		return 0;
	}
	memcpy(tmp, start, (size_t)(q - start));
	tmp[q - start] = '\0';
	errno = 0;
	d = strtod(tmp, &endp);
	if (errno == ERANGE && (d > 1 || d < -1))
		return fail(jp, "number out of range");
	if (n != NULL)
		*n = d;
	jp->p = q;
	return 0;
}

/*
 * Append a member to an array or object value.  The arrays double when
 * their length reaches a power of two (the length is the only count
 * kept), so that a value of n members costs O(n) copies, not O(n^2).
 */
static struct jv *
add_item(struct jv *v, char *key)
{
	size_t	cap;

	if (v->len >= 4 && (v->len & (v->len - 1)) == 0)
		cap = v->len * 2;
	else if (v->len == 0)
		cap = 4;
	else
		cap = 0;
	if (cap != 0) {
		v->items = grow(v->items, sizeof(*v->items) * cap);
		if (v->type == JV_OBJECT)
			v->keys = grow(v->keys, sizeof(*v->keys) * cap);
	}
	if (v->type == JV_OBJECT)
		v->keys[v->len] = key;
	memset(&v->items[v->len], 0, sizeof(*v->items));
	return &v->items[v->len++];
}

/*
 * The member names seen so far in one object, for the check that none is
 * given twice: a linear search while the object is small, then an
 * open-addressed hash table of their indexes (plus one; 0 is empty), kept
 * at most half full, so that an object of n members is checked in O(n).
 */
#define SEEN_LINEAR	16

struct seen {
	size_t	*slot;
	size_t	 cap;		/* A power of two, or 0 while linear. */
};

static size_t
seen_hash(const char *k)
{
	size_t	h = 2166136261u;	/* FNV-1a. */

	for (; *k != '\0'; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h;
}

static void
seen_put(struct seen *sn, const struct jv *v, size_t i)
{
	size_t	h = seen_hash(v->keys[i]) & (sn->cap - 1);

	while (sn->slot[h] != 0)
		h = (h + 1) & (sn->cap - 1);
	sn->slot[h] = i + 1;
}

/* Was key given before in v (whose first v->len names sn holds)? */
static int
seen_has(struct seen *sn, const struct jv *v, const char *key)
{
	size_t	i, h;

	if (sn->cap == 0 && v->len < SEEN_LINEAR) {
		for (i = 0; i < v->len; i++)
			if (strcmp(v->keys[i], key) == 0)
				return 1;
		return 0;
	}
	if (v->len * 2 >= sn->cap) {
		free(sn->slot);
		sn->cap = sn->cap == 0 ? 4 * SEEN_LINEAR : sn->cap * 2;
		sn->slot = xcalloc(sn->cap, sizeof(*sn->slot));
		for (i = 0; i < v->len; i++)
			seen_put(sn, v, i);
	}
	for (h = seen_hash(key) & (sn->cap - 1); sn->slot[h] != 0;
	    h = (h + 1) & (sn->cap - 1))
		if (strcmp(v->keys[sn->slot[h] - 1], key) == 0)
			return 1;
	return 0;
}

/* A member name given twice in one object: named when it is printable. */
static int
twice(struct jp *jp, char *key)
{
	const char	*k;
	int		 r;

	for (k = key; *k != '\0' && (unsigned char)*k >= 0x20 &&
	    (unsigned char)*k < 0x7f; k++)
		;
	if (*k == '\0' && k - key <= 64)
		r = errorf(jp->cause, "member \"%s\" given twice in one "
		    "object", key);
	else
		r = errorf(jp->cause, "a member name given twice in one "
		    "object");
	free(key);
	return r;
}

/* The members of an array or object, from its opening bracket on. */
static int
parse_members(struct jp *jp, struct jv *v, int depth, struct seen *sn)
{
	struct jv	*item;
	char		 close = v->type == JV_OBJECT ? '}' : ']';
	char		*key;
	int		 r, skipped;

	jp->p++;
	skip_ws(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		return 0;
	}
	for (;;) {
		key = NULL;
		if (v->type == JV_OBJECT) {
			if (jp->p >= jp->end || *jp->p != '"')
				return fail(jp, "expected a member name");
			if (parse_string(jp, &key) != 0)
				return -1;
			if (key == NULL)
				return fail(jp, "expected a member name");
			skip_ws(jp);
			if (jp->p >= jp->end || *jp->p != ':') {
				free(key);
				return fail(jp, "expected ':'");
			}
			jp->p++;
			skip_ws(jp);
			/*
			 * jq and Python take the last of two members of one
			 * name, other readers the first: a record that says
			 * two things is refused.
			 */
			if (seen_has(sn, v, key))
				return twice(jp, key);
		}
		item = add_item(v, key);
		skipped = !jp->skipping && key != NULL && skipped_name(jp, key);
		jp->skipping += skipped;
		r = parse_value(jp, item, depth + 1);
		jp->skipping -= skipped;
		if (r != 0)
			return -1;
		if (skipped || jp->skipping) {
			/* Checked, not kept: a skipped member reads as null. */
			jv_clear(item);
			memset(item, 0, sizeof(*item));
			item->type = JV_NULL;
		}
		if (sn->cap != 0)
			seen_put(sn, v, v->len - 1);
		skip_ws(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			skip_ws(jp);
			continue;
		}
		if (jp->p < jp->end && *jp->p == close) {
			jp->p++;
			return 0;
		}
		return fail(jp, v->type == JV_OBJECT ?
		    "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int
parse_container(struct jp *jp, struct jv *v, int depth)
{
	struct seen	 sn = { NULL, 0 };
	int		 r;

	r = parse_members(jp, v, depth, &sn);
	free(sn.slot);
	return r;
}

static int
parse_value(struct jp *jp, struct jv *v, int depth)
{
	if (depth > JV_MAX_DEPTH)
		return fail(jp, "nested too deeply");
	v->line = jp->line;
	if (jp->p >= jp->end)
		return fail(jp, "expected a value");
	switch (*jp->p) {
	case '{':
		v->type = JV_OBJECT;
		return parse_container(jp, v, depth);
	case '[':
		v->type = JV_ARRAY;
		return parse_container(jp, v, depth);
	case '"':
		v->type = JV_STRING;
		return parse_string(jp, jp->skipping ? NULL : &v->s);
	case 't':
		v->type = JV_BOOL;
		v->b = 1;
		return literal(jp, "true");
	case 'f':
		v->type = JV_BOOL;
		return literal(jp, "false");
	case 'n':
		v->type = JV_NULL;
		return literal(jp, "null");
	default:
		v->type = JV_NUMBER;
		return parse_number(jp, jp->skipping ? NULL : &v->n);
	}
}

static void
jv_clear(struct jv *v)
{
	size_t	i;

	for (i = 0; i < v->len; i++) {
		jv_clear(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->s);
}

void
jv_free(struct jv *v)
{
	if (v == NULL)
		return;
	jv_clear(v);
	free(v);
}

int
jv_parse(const char *buf, size_t len, struct jv **out, int *line,
    char **cause)
{
	return jv_parse_skip(buf, len, NULL, out, line, cause);
}

int
jv_parse_skip(const char *buf, size_t len, const char *const *skip,
    struct jv **out, int *line, char **cause)
{
	struct jp	 jp;
	struct jv	*v;

	jp.p = buf;
	jp.end = buf + len;
	jp.line = 1;
	jp.cause = cause;
	jp.skip = skip;
	jp.skipping = 0;
	v = xcalloc(1, sizeof(*v));
	skip_ws(&jp);
	if (parse_value(&jp, v, 0) != 0)
		goto bad;
	skip_ws(&jp);
	if (jp.p != jp.end) {
		fail(&jp, "text after the JSON value");
		goto bad;
	}
	*out = v;
	return 0;
bad:
	*line = jp.line;
	jv_free(v);
	return -1;
}

const struct jv *
jv_get(const struct jv *v, const char *key)
{
	size_t	i;

	if (v == NULL || v->type != JV_OBJECT)
		return NULL;
	for (i = 0; i < v->len; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

const char *
jv_str(const struct jv *v, const char *key)
{
	const struct jv	*m = jv_get(v, key);

	return m != NULL && m->type == JV_STRING ? m->s : NULL;
}

int
jv_num(const struct jv *v, const char *key, double *n)
{
	const struct jv	*m = jv_get(v, key);

	if (m == NULL || m->type != JV_NUMBER)
		return -1;
	*n = m->n;
	return 0;
}
