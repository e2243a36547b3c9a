/*
 * Text that came from outside (input files, host names): UTF-8 checked
 * where it enters, control characters escaped where it goes out to a
 * terminal, cut by characters and display width, never inside one.
 */
#ifndef BONNIE_TEXT_H
#define BONNIE_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Replace each byte of s that is not part of a valid UTF-8 sequence
 * (overlong forms, surrogates and code points above U+10FFFF included)
 * with '?', in place.  Returns how many bytes were replaced.
 */
size_t	text_utf8_fix(char *s);

/*
 * Copy s into buf (len bytes, always terminated) for a terminal: C0
 * controls, DEL and the C1 controls (U+0080..U+009F) are written as \n,
 * \t, \xNN or \u00NN, so that no byte of the input can move the cursor,
 * retitle the window or clear the screen.  Stops at a whole character or
 * escape when buf is full.  s must be valid UTF-8 (text_utf8_fix).
 */
void	text_escape(char *buf, size_t len, const char *s);

/*
 * 1 for a code point text_escape() shows escaped though it is printable:
 * a bidirectional control, U+2028 or U+2029, or a noncharacter (U+FFFE,
 * U+FDD0...), which XML does not allow either.
 */
int	text_invisible(unsigned cp);

/* 1 when s holds a control character (C0, DEL, C1), else 0. */
int	text_has_control(const char *s);
/*
 * Decode, in place, the octal escapes (\040 for a space) that the
 * system's mount and swap tables use.
 */
void	text_unoctal(char *s);

/* The columns s takes as text_escape() shows it. */
int	text_width(const char *s);

/* Write s to f as text_escape() shows it. */
void	text_put(FILE *f, const char *s);

/*
 * Write s to f as XML (SVG) or HTML character data or an attribute value:
 * the five special characters as references, a newline as &#10;, and '?'
 * for an invalid byte and for every code point XML 1.0 lacks or a reader
 * would not see (C0 and C1 controls, DEL, noncharacters such as U+FFFE,
 * bidirectional controls, U+2028, U+2029).
 */
void	text_xml(FILE *f, const char *s);

/*
 * Every message on stderr: "bonnie-ng: " and the formatted text, shown as
 * text_escape() shows it (a path holding escape sequences, bidi overrides
 * or line separators cannot reach the terminal raw), and a newline.
 */
void	text_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	text_vsay(const char *fmt, va_list)
	    __attribute__((format(printf, 1, 0)));

/*
 * Copy the longest start of s that fits in width columns into buf,
 * escaped as text_escape() does and cut at a character boundary, then pad
 * it with spaces to width columns when pad is set.  Returns the columns
 * written.
 */
int	text_cut(char *buf, size_t len, const char *s, int width, int pad);

#endif
