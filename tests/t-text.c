/*
 * Text from outside: UTF-8 made valid, control characters escaped, cut at
 * character boundaries by display width (src/text.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "text.h"

int
main(void)
{
	char	buf[128], s[64];
	int	w;

	/* Validation where text enters. */
	strcpy(s, "ok \xc3\xa9 \xc3 \xff \xe2\x82 \xed\xa0\x80 \xc0\xaf end");
	is_int(text_utf8_fix(s), 9, "nine stray bytes replaced");
	is_str(s, "ok \xc3\xa9 ? ? ?? ??? ?? end",
	    "lone lead, 0xff, cut sequence, surrogate, overlong all '?'");
	strcpy(s, "\xf4\x8f\xbf\xbf \xf4\x90\x80\x80");
	text_utf8_fix(s);
	is_str(s, "\xf4\x8f\xbf\xbf ????", "U+10FFFF kept, above it not");

	/* Escapes for a terminal. */
	text_escape(buf, sizeof(buf), "a\x1b]0;pwned\x07\x1b[2Jb\n\t\x7f");
	is_str(buf, "a\\x1b]0;pwned\\x07\\x1b[2Jb\\n\\t\\x7f",
	    "ESC, BEL, newline, tab and DEL escaped");
	text_escape(buf, sizeof(buf), "x\xc2\x9b" "31mY\xc2\x85");
	is_str(buf, "x\\u009b31mY\\u0085", "C1 controls (CSI, NEL) escaped");
	text_escape(buf, sizeof(buf), "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5");
	is_str(buf, "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5", "printable UTF-8 kept");
	text_escape(buf, 6, "abc\x1b");
	is_str(buf, "abc", "a full buffer ends before a whole escape");

	/* Cutting by characters and columns. */
	w = text_cut(buf, sizeof(buf), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, 1);
	is_str(buf, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9", "nine e-acute cut to eight characters, not 8 bytes");
	is_int(w, 8, "eight columns");
	w = text_cut(buf, sizeof(buf), "ab", 8, 1);
	is_str(buf, "ab      ", "short label padded to eight columns");
	w = text_cut(buf, sizeof(buf), "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"
	    "\xe3\x83\xa9\xe3\x83\x99\xe3\x83\xab", 8, 1);
	is_str(buf, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\xa9",
	    "wide characters: four of two columns each");
	w = text_cut(buf, sizeof(buf), "abcdefg\xe6\x97\xa5", 8, 1);
	is_str(buf, "abcdefg ", "a wide character that does not fit is left "
	    "out, the column padded");
	w = text_cut(buf, sizeof(buf), "ab\x1b[2Jcdef", 8, 0);
	is_str(buf, "ab\\x1b[2", "an escape counts its own width");
	is_int(text_width("a\xe6\x97\xa5\x1b"), 7, "width: 1 + 2 + 4");

	return done_testing();
}
