/*
 * The JSON writer: escaping, nesting, numbers, and null for non-finite
 * doubles.  Each case writes into a memory stream and compares the text.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"

static FILE	*mf;
static char	*mbuf;
static size_t	 mlen;

static void
start(struct json *j, int pretty)
{
	mbuf = NULL;
	mlen = 0;
	mf = open_memstream(&mbuf, &mlen);
	if (mf == NULL) {
		perror("open_memstream");
		exit(1);
	}
	json_init(j, mf, pretty);
}

/* Finish the document; returns what json_finish() returned. */
static int
end(struct json *j)
{
	int	rc = json_finish(j);

	fclose(mf);
	return rc;
}

/* Write one string inside an array and return the text between [ and ]. */
static const char *
str1(const char *s)
{
	static char	out[256];
	struct json	j;
	size_t		n;

	start(&j, 0);
	json_array_start(&j, NULL);
	json_string(&j, NULL, s);
	json_array_end(&j);
	end(&j);
	n = strlen(mbuf);
	if (n >= 3 && n - 3 < sizeof(out)) {
		memcpy(out, mbuf + 1, n - 3);
		out[n - 3] = '\0';
	} else
		strcpy(out, "?");
	free(mbuf);
	return out;
}

static const char *
dbl1(double v)
{
	static char	out[64];
	struct json	j;

	start(&j, 0);
	json_double(&j, NULL, v);
	end(&j);
	snprintf(out, sizeof(out), "%s", mbuf);
	out[strcspn(out, "\n")] = '\0';
	free(mbuf);
	return out;
}

static void
test_strings(void)
{
	char	all[32];
	int	i;

	is_str(str1("plain"), "\"plain\"", "plain string");
	is_str(str1(""), "\"\"", "empty string");
	is_str(str1("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"",
	    "quote and backslash escaped, slash left");
	is_str(str1("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"", "short escapes");
	for (i = 1; i < 32; i++)
		all[i - 1] = (char)i;
	all[31] = '\0';
	is_str(str1(all),
	    "\"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n"
	    "\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014"
	    "\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d"
	    "\\u001e\\u001f\"", "every C0 control character escaped");
	is_str(str1("del\x7f"), "\"del\\u007f\"", "DEL escaped");
	is_str(str1("c1\xc2\x85"), "\"c1\\u0085\"", "C1 control (NEL) escaped");
	is_str(str1("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
	    "valid 2, 3 and 4 byte UTF-8 passes through");
	is_str(str1("ls\xe2\x80\xa8ps\xe2\x80\xa9"), "\"ls\\u2028ps\\u2029\"",
	    "line and paragraph separators escaped");
	is_str(str1("bad\xff"), "\"bad\\ufffd\"", "invalid byte replaced");
	is_str(str1("\xc0\xaf"), "\"\\ufffd\\ufffd\"",
	    "overlong encoding replaced byte by byte");
	is_str(str1("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"",
	    "UTF-16 surrogate replaced");
	is_str(str1("cut\xe2\x82"), "\"cut\\ufffd\\ufffd\"",
	    "truncated sequence replaced");
	is_str(str1("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	    "beyond U+10FFFF replaced");
	is_str(str1("/mnt/a\\040b"), "\"/mnt/a\\\\040b\"",
	    "backslash sequences in input are escaped, not interpreted");
}

static void
test_numbers(void)
{
	struct json	j;

	is_str(dbl1(0.1), "0.1", "0.1 written shortest");
	is_str(dbl1(1.0 / 3), "0.3333333333333333",
	    "1/3 with the 16 digits it needs");
	is_str(dbl1(0.1 + 0.2), "0.30000000000000004",
	    "0.1 + 0.2 with the 17 digits it needs");
	is_str(dbl1(53280.125), "53280.125", "exact binary fraction");
	is_str(dbl1(2.0), "2", "whole double");
	is_str(dbl1(1e-7), "1e-07", "tiny value in exponent form");
	is_str(dbl1(1.5e300), "1.5e+300", "huge value in exponent form");
	is_str(dbl1(NAN), "null", "NaN is null");
	is_str(dbl1(INFINITY), "null", "infinity is null");
	is_str(dbl1(-INFINITY), "null", "minus infinity is null");
	ok(strtod(dbl1(0.123456789012345678), NULL) == 0.123456789012345678,
	    "double reads back exactly");

	start(&j, 0);
	json_array_start(&j, NULL);
	json_int(&j, NULL, INT64_MIN);
	json_int(&j, NULL, -1);
	json_uint(&j, NULL, UINT64_MAX);
	json_bool(&j, NULL, 1);
	json_bool(&j, NULL, 0);
	json_null(&j, NULL);
	json_string(&j, NULL, NULL);
	json_array_end(&j);
	is_int(end(&j), 0, "array of scalars finishes");
	is_str(mbuf, "[-9223372036854775808,-1,18446744073709551615,"
	    "true,false,null,null]\n", "integers, bools and nulls");
	free(mbuf);
}

static void
test_nesting(void)
{
	struct json	j;
	int		i;

	start(&j, 0);
	json_object_start(&j, NULL);
	json_string(&j, "a", "x");
	json_object_start(&j, "o");
	json_object_end(&j);
	json_array_start(&j, "arr");
	json_object_start(&j, NULL);
	json_int(&j, "k", 1);
	json_object_end(&j);
	json_array_start(&j, NULL);
	json_array_end(&j);
	json_array_end(&j);
	json_string(&j, "k\"ey", "v");
	json_object_end(&j);
	is_int(end(&j), 0, "compact document finishes");
	is_str(mbuf, "{\"a\":\"x\",\"o\":{},\"arr\":[{\"k\":1},[]],"
	    "\"k\\\"ey\":\"v\"}\n", "compact nesting, escaped key");
	free(mbuf);

	start(&j, 1);
	json_object_start(&j, NULL);
	json_int(&j, "n", 1);
	json_array_start(&j, "l");
	json_int(&j, NULL, 2);
	json_int(&j, NULL, 3);
	json_array_end(&j);
	json_object_start(&j, "e");
	json_object_end(&j);
	json_object_end(&j);
	is_int(end(&j), 0, "pretty document finishes");
	is_str(mbuf, "{\n  \"n\": 1,\n  \"l\": [\n    2,\n    3\n  ],\n"
	    "  \"e\": {}\n}\n", "pretty printing");
	free(mbuf);

	/* A row: one line, nested values too; the lines go on after it. */
	start(&j, 1);
	json_object_start(&j, NULL);
	json_array_start(&j, "rows");
	json_row_start(&j, NULL);
	json_double(&j, NULL, 0.5);
	json_null(&j, NULL);
	json_object_start(&j, NULL);
	json_int(&j, "k", 1);
	json_object_end(&j);
	json_row_start(&j, NULL);
	json_array_end(&j);
	json_array_end(&j);
	json_row_start(&j, NULL);
	json_int(&j, NULL, 7);
	json_array_end(&j);
	json_array_end(&j);
	json_int(&j, "n", 2);
	json_object_end(&j);
	is_int(end(&j), 0, "document with rows finishes");
	is_str(mbuf, "{\n  \"rows\": [\n    [0.5, null, {\"k\": 1}, []],\n"
	    "    [7]\n  ],\n  \"n\": 2\n}\n", "a row on one line when pretty");
	free(mbuf);
	start(&j, 0);
	json_row_start(&j, NULL);
	json_int(&j, NULL, 1);
	json_int(&j, NULL, 2);
	json_array_end(&j);
	is_int(end(&j), 0, "compact row finishes");
	is_str(mbuf, "[1,2]\n", "a compact row as any array");
	free(mbuf);

	/* Misuse is reported, not written as a broken document. */
	start(&j, 0);
	json_object_start(&j, NULL);
	errno = 0;
	ok(end(&j) == -1 && errno == EINVAL, "unclosed object fails");
	free(mbuf);

	start(&j, 0);
	json_object_start(&j, NULL);
	json_object_end(&j);
	json_array_end(&j);
	ok(end(&j) == -1, "extra end fails");
	free(mbuf);

	start(&j, 0);
	ok(end(&j) == -1, "empty document fails");
	free(mbuf);

	start(&j, 0);
	json_int(&j, NULL, 1);
	json_int(&j, NULL, 2);
	ok(end(&j) == -1, "two top-level values fail");
	free(mbuf);

	start(&j, 0);
	for (i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_array_start(&j, NULL);
	for (i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_array_end(&j);
	ok(end(&j) == -1, "nesting deeper than JSON_MAX_DEPTH fails");
	free(mbuf);

	start(&j, 0);
	for (i = 0; i < JSON_MAX_DEPTH - 1; i++)
		json_array_start(&j, NULL);
	for (i = 0; i < JSON_MAX_DEPTH - 1; i++)
		json_array_end(&j);
	ok(end(&j) == 0, "nesting to JSON_MAX_DEPTH - 1 works");
	free(mbuf);
}

static void
test_stream_error(void)
{
	struct json	 j;
	FILE		*f;

	f = fopen("/dev/full", "w");
	if (f == NULL) {
		tap_skip("no /dev/full");
		return;
	}
	json_init(&j, f, 0);
	json_object_start(&j, NULL);
	json_string(&j, "k", "v");
	json_object_end(&j);
	ok(json_finish(&j) == -1, "a full device makes json_finish fail");
	fclose(f);
}

int
main(void)
{
	test_strings();
	test_numbers();
	test_nesting();
	test_stream_error();
	return done_testing();
}
