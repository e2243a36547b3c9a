/*
 * Text that came from outside: UTF-8 checked where it enters, control
 * characters escaped where it goes to a terminal, cut by characters.
 */
#define _XOPEN_SOURCE	700	/* wcwidth(3) */

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "text.h"

/*
 * The code point at s and its length in bytes (1 to 4), or 0 when s does
 * not start a valid UTF-8 sequence: no overlong forms, no surrogates,
 * nothing above U+10FFFF.
 */
static int
utf8_decode(const unsigned char *s, unsigned *cp)
{
	unsigned	c = s[0], min;
	int		n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

size_t
text_utf8_fix(char *s)
{
	unsigned char	*p = (unsigned char *)s;
	unsigned	 cp;
	size_t		 fixed = 0;
	int		 n;

	while (*p != '\0') {
		if ((n = utf8_decode(p, &cp)) == 0) {
			*p++ = '?';
			fixed++;
		} else
			p += n;
	}
	return fixed;
}

/*
 * The UTF-8 locale cp_width() makes the first time it is needed, freed at
 * exit: the program holds nothing then (make check-asan's leak check
 * reports a block that only a global points at).
 */
static locale_t	utf8;

static void
utf8_free(void)
{
	freelocale(utf8);
}

/* Columns of a printable code point: wcwidth() under a UTF-8 locale. */
static int
cp_width(unsigned cp)
{
	static int	 tried;
	locale_t	 old;
	int		 w;

	if (cp < 0x80)
		return 1;
	if (!tried) {
		tried = 1;
		utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
		if (utf8 == (locale_t)0)
			utf8 = newlocale(LC_CTYPE_MASK, "en_US.UTF-8",
			    (locale_t)0);
		if (utf8 != (locale_t)0)
			(void)atexit(utf8_free);
	}
	if (utf8 == (locale_t)0)
		return 1;
	old = uselocale(utf8);
	w = wcwidth((wchar_t)cp);
	uselocale(old);
	return w < 0 ? 1 : w;
}

/*
 * Code points that reorder or break the line a terminal shows, or that
 * are no characters at all: the bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069), the line and paragraph
 * separators (U+2028, U+2029) and the noncharacters (U+FDD0..U+FDEF and
 * the last two of every plane).  They are shown escaped.
 */
int
text_invisible(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

/*
 * The next piece of s as it goes out: the character itself, or its
 * escape.  Returns the bytes of s used (0 at the end), with the piece in
 * out (at most 10 bytes and a NUL) and its columns in *width.
 */
static int
next_piece(const char *s, char out[12], int *width)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned		 cp;
	int			 n;

	if (*p == '\0')
		return 0;
	if ((n = utf8_decode(p, &cp)) == 0) {
		/* Not checked on the way in: shown as its byte. */
		snprintf(out, 12, "\\x%02x", *p);
		*width = 4;
		return 1;
	}
	if (cp == '\n')
		snprintf(out, 12, "\\n");
	else if (cp == '\t')
		snprintf(out, 12, "\\t");
	else if (cp < 0x20 || cp == 0x7f)
		snprintf(out, 12, "\\x%02x", cp);
	else if ((cp >= 0x80 && cp <= 0x9f) || text_invisible(cp))
		snprintf(out, 12, cp > 0xffff ? "\\U%08x" : "\\u%04x", cp);
	else {
		memcpy(out, s, (size_t)n);
		out[n] = '\0';
		*width = cp_width(cp);
		return n;
	}
	*width = (int)strlen(out);
	return n;
}

int
text_cut(char *buf, size_t len, const char *s, int width, int pad)
{
	char	piece[12];
	size_t	o = 0, pl;
	int	used = 0, w, n;

	if (len == 0)
		return 0;
	while ((n = next_piece(s, piece, &w)) > 0) {
		pl = strlen(piece);
		if ((width >= 0 && used + w > width) || o + pl >= len)
			break;
		memcpy(buf + o, piece, pl);
		o += pl;
		used += w;
		s += n;
	}
	while (pad && used < width && o + 1 < len) {
		buf[o++] = ' ';
		used++;
	}
	buf[o] = '\0';
	return used;
}

void
text_escape(char *buf, size_t len, const char *s)
{
	text_cut(buf, len, s, -1, 0);
}

int
text_width(const char *s)
{
	char	piece[12];
	int	used = 0, w, n;

	while ((n = next_piece(s, piece, &w)) > 0) {
		used += w;
		s += n;
	}
	return used;
}

void
text_put(FILE *f, const char *s)
{
	char	piece[12];
	int	w, n;

	while ((n = next_piece(s, piece, &w)) > 0) {
		fputs(piece, f);
		s += n;
	}
}

void
text_xml(FILE *f, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned		 cp;
	int			 n;

	while (*p != '\0') {
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\n':
			fputs("&#10;", f);
			break;
		case '\t':
			fputc('\t', f);
			break;
		default:
			n = utf8_decode(p, &cp);
			/* What XML 1.0 lacks or a reader cannot see: '?'. */
			if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			    text_invisible(cp)) {
				fputc('?', f);
				p += n > 0 ? n : 1;
			} else {
				fwrite(p, 1, (size_t)n, f);
				p += n;
			}
			continue;
		}
		p++;
	}
}

void
text_vsay(const char *fmt, va_list ap)
{
	char	buf[4096], esc[4 * sizeof(buf)];

	/*
	 * The line whole in one buffer and one write, so that the lines of
	 * workers and seekers sharing stderr never interleave.
	 */
	vsnprintf(buf, sizeof(buf), fmt, ap);
	text_escape(esc, sizeof(esc), buf);
	fprintf(stderr, "bonnie-ng: %s\n", esc);
}

void
text_say(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	text_vsay(fmt, ap);
	va_end(ap);
}

int
text_has_control(const char *s)
{
	char	piece[12];
	int	w, n;

	while ((n = next_piece(s, piece, &w)) > 0) {
		if (piece[0] == '\\' && *s != '\\')
			return 1;
		s += n;
	}
	return 0;
}

void
text_unoctal(char *s)
{
	char	*w = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
			    (s[3] - '0'));
			s += 4;
		} else
			*w++ = *s++;
	}
	*w = '\0';
}
