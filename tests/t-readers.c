/*
 * The readers: every fixture format parsed to exact numbers, the strict
 * JSON parser, and a FILE:LINE message for each kind of malformed input.
 */
#include <stdlib.h>
#include <string.h>

#include "jsonparse.h"
#include "resultset.h"
#include "rs-read.h"
#include "tap.h"

#define FIX	"tests/fixtures/"

static int
load(const char *name, struct result_set *rs)
{
	char	*cause = NULL;
	int	 r;

	r = rs_read_file(name, rs, &cause);
	if (r != 0) {
		printf("# %s: %s\n", name, cause);
		free(cause);
	}
	return r;
}

/* A column's state and value in one check. */
#define is_val(set, i_, c_, want, desc) do {				\
	const struct rs_value *v_ = &(set)->runs[i_].col[c_];		\
	ok(v_->state == RS_VALUE, desc " (measured)");			\
	is_near(v_->v, want, 1e-9, desc);				\
} while (0)

/*
 * An object of n members "k0" to "k<n-1>", one a line, and member dup
 * again at the end (dup < 0: none).
 */
static char *
keys_doc(int n, int dup)
{
	char	*doc = malloc((size_t)n * 24 + 64), *p = doc;
	int	 i;

	p += sprintf(p, "{");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s\"k%d\": %d\n", i > 0 ? "," : "", i, i);
	if (dup >= 0)
		p += sprintf(p, ",\"k%d\": 0\n", dup);
	sprintf(p, "}");
	return doc;
}

/*
 * Member names given twice are refused however many members an object
 * has: the small objects' linear search, the hash table it turns into
 * past 16 members, and its growth (bench/json-keys.sh times the sizes).
 */
static void
test_json_keys(void)
{
	static const int	 sizes[] = { 3, 15, 16, 17, 64, 65, 50000 };
	struct jv		*v;
	char			*doc, *cause, want[64], desc[80];
	size_t			 i;
	size_t			 len;
	int			 line, n, found, k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		n = sizes[i];
		doc = keys_doc(n, -1);
		cause = NULL;
		snprintf(desc, sizeof(desc), "JSON: %d members, each found", n);
		found = 0;
		len = 0;
		if (jv_parse(doc, strlen(doc), &v, &line, &cause) == 0) {
			len = v->len;
			for (k = 0; k < n; k += n > 100 ? 997 : 1) {
				snprintf(want, sizeof(want), "k%d", k);
				found += jv_get(v, want) != NULL &&
				    jv_get(v, want)->n == k;
			}
			jv_free(v);
		}
		ok(found == (n > 100 ? (n + 996) / 997 : n) && len == (size_t)n,
		    desc);
		free(cause);
		free(doc);
		for (k = 0; k < n; k += n - 1 > 0 ? n - 1 : 1) {
			doc = keys_doc(n, k);
			cause = NULL;
			snprintf(desc, sizeof(desc), "JSON: %d members, k%d "
			    "again refused on its line", n, k);
			snprintf(want, sizeof(want), "member \"k%d\" given "
			    "twice in one object", k);
			ok(jv_parse(doc, strlen(doc), &v, &line, &cause) == -1 &&
			    cause != NULL && strcmp(cause, want) == 0 &&
			    line == n + 1, desc);
			free(cause);
			free(doc);
		}
	}
}

/* Members left out: checked as strictly, read as null, the rest kept. */
static void
test_json_skip(void)
{
	static const char *const skip[] = { "kernel", NULL };
	static const char *const bad[] = {
		"{\"kernel\": {\"a\": 1, \"a\": 2}}",
		"{\"kernel\": [1e999]}",
		"{\"kernel\": \"\\x\"}",
		"{\"kernel\": [01]}",
		"{\"kernel\": {\"x\": [1,]}}",
	};
	const char	*doc = "{\"a\": 1, \"kernel\": {\"s\": \"x\\u00e9\", "
	    "\"n\": [1.5, -2e3, {\"kernel\": true}], \"o\": {}},\n"
	    "\"b\": \"two\", \"p\": {\"kernel\": [1, 2]}}";
	struct jv	*v;
	char		*cause = NULL;
	size_t		 i;
	int		 line;

	if (ok(jv_parse_skip(doc, strlen(doc), skip, &v, &line, &cause) == 0,
	    "JSON skip: a document with skipped members parses")) {
		ok(jv_get(v, "kernel") != NULL &&
		    jv_get(v, "kernel")->type == JV_NULL &&
		    jv_get(jv_get(v, "p"), "kernel")->type == JV_NULL,
		    "JSON skip: a skipped member reads as null, at any depth");
		ok(jv_get(v, "a")->n == 1 && strcmp(jv_str(v, "b"), "two") == 0 &&
		    jv_get(v, "b")->line == 2, "JSON skip: the rest as before, "
		    "lines counted through the skipped part");
		jv_free(v);
	}
	free(cause);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cause = NULL;
		ok(jv_parse_skip(bad[i], strlen(bad[i]), skip, &v, &line,
		    &cause) == -1 && cause != NULL, bad[i]);
		free(cause);
	}
}

static void
test_json(void)
{
	struct result_set	rs;

	if (!ok(load(FIX "ng-base.json", &rs) == 0, "JSON with 5 runs reads"))
		return;
	is_int(rs.format, RS_FMT_JSON, "JSON: format told by content");
	is_int(rs.nruns, 5, "JSON: 5 runs");
	is_str(rs.runs[0].label, "vm1", "JSON: label");
	is_int(rs.set.size, 64 * 1048576, "JSON: size");
	is_int(rs.set.chunk, 16384, "JSON: chunk");
	is_int(rs.set.seekers, 3, "JSON: seekers");
	is_int(rs.set.seeks, 4000, "JSON: seeks");
	is_int(rs.set.ram, 4294967296ull, "JSON: RAM");
	is_str(rs.set.cache, "cold", "JSON: cache mode");
	is_str(rs.set.direct, "no", "JSON: direct");
	is_str(rs.set.kernel, "6.1.0-13-amd64", "JSON: kernel");
	is_str(rs.set.fs_type, "ext4", "JSON: file system");
	is_str(rs.set.mount_options, "rw,relatime", "JSON: mount options");
	is_str(rs.set.cpu_model, "Intel(R) Xeon(R) CPU \xc3\xa9 \"quoted\"",
	    "JSON: escapes and UTF-8 in strings");
	is_val(&rs, 0, RS_RATE(PH_WRITE), 102400.5, "JSON: run 0 write rate");
	is_val(&rs, 0, RS_CPU(PH_WRITE), 45.5, "JSON: run 0 write %CPU");
	is_val(&rs, 0, RS_LAT(PH_WRITE), 0.25, "JSON: run 0 write latency (max)");
	is_val(&rs, 4, RS_RATE(PH_SEEKS), 1018.1, "JSON: run 4 seeks");
	is_val(&rs, 4, RS_RATE(PH_READ), 204000, "JSON: run 4 read");
	rs_free(&rs);

	if (!ok(load(FIX "ng-single.json", &rs) == 0, "JSON, one run"))
		return;
	is_int(rs.nruns, 1, "JSON single: one run");
	is_int(rs.runs[0].col[RS_RATE(PH_GETC)].state, RS_NONE,
	    "JSON single: getc not run");
	is_int(rs.runs[0].col[RS_LAT(PH_GETC)].state, RS_NONE,
	    "JSON single: getc latency not run");
	is_val(&rs, 0, RS_RATE(PH_WRITE), 100000, "JSON single: write");
	rs_free(&rs);
}

static void
test_csv(void)
{
	struct result_set	rs;

	if (!ok(load(FIX "pp-198.csv", &rs) == 0, "CSV 1.98 reads"))
		return;
	is_int(rs.format, RS_FMT_CSV, "CSV: format told by content");
	is_int(rs.nruns, 2, "CSV 1.98: two lines");
	is_str(rs.runs[0].label, "default2xram", "CSV: name");
	is_int(rs.runs[0].size, 48208ull * 1048576, "CSV: size 48208M");
	is_int(rs.set.seeks, 8192, "CSV: seeks");
	is_int(rs.set.seekers, 5, "CSV: seekers");
	is_int(rs.set.chunk, 0, "CSV: empty chunk is unknown");
	is_val(&rs, 0, RS_RATE(PH_PUTC), 569, "CSV: putc");
	is_val(&rs, 0, RS_CPU(PH_PUTC), 99, "CSV: putc %CPU");
	is_val(&rs, 0, RS_RATE(PH_WRITE), 550751, "CSV: put_block");
	is_val(&rs, 0, RS_RATE(PH_READ), 562808, "CSV: get_block");
	is_val(&rs, 0, RS_RATE(PH_SEEKS), 1081, "CSV: seeks");
	is_val(&rs, 0, RS_CPU(PH_SEEKS), 22, "CSV: seeks %CPU");
	is_val(&rs, 0, RS_LAT(PH_PUTC), 0.019803, "CSV: latency in us");
	is_val(&rs, 0, RS_LAT(PH_REWRITE), 0.939, "CSV: latency in ms");
	is_int(rs.runs[1].col[RS_RATE(PH_PUTC)].state, RS_UNMEASURABLE,
	    "CSV: +++++ is unmeasurable, not zero");
	is_int(rs.runs[1].col[RS_CPU(PH_PUTC)].state, RS_UNMEASURABLE,
	    "CSV: +++ is unmeasurable");
	is_val(&rs, 1, RS_RATE(PH_WRITE), 1195170, "CSV: wide put_block");
	is_val(&rs, 1, RS_RATE(PH_SEEKS), 17050.3, "CSV: fractional seeks");
	is_int(rs.runs[1].size, 512ull * 1048576, "CSV: size 512M");
	rs_free(&rs);

	if (!ok(load(FIX "pp-198-header.csv", &rs) == 0,
	    "CSV 1.98 with header reads"))
		return;
	is_int(rs.nruns, 1, "CSV header line is skipped");
	is_val(&rs, 0, RS_RATE(PH_REWRITE), 440348, "CSV with header: rewrite");
	rs_free(&rs);

	if (!ok(load(FIX "pp-197.csv", &rs) == 0, "CSV 1.97 reads"))
		return;
	is_int(rs.nruns, 1, "CSV 1.97: one line");
	is_str(rs.runs[0].label, "oldhost", "CSV 1.97: name");
	is_int(rs.runs[0].size, 8ull << 30, "CSV 1.97: size 8G");
	is_int(rs.set.seeks, 0, "CSV 1.97 has no seek count");
	is_val(&rs, 0, RS_RATE(PH_PUTC), 565, "CSV 1.97: putc");
	is_val(&rs, 0, RS_RATE(PH_GETC), 2830, "CSV 1.97: getc");
	is_val(&rs, 0, RS_RATE(PH_SEEKS), 279.4, "CSV 1.97: seeks");
	is_val(&rs, 0, RS_CPU(PH_SEEKS), 4, "CSV 1.97: seeks %CPU");
	is_val(&rs, 0, RS_LAT(PH_WRITE), 1.43, "CSV 1.97: write latency");
	is_val(&rs, 0, RS_LAT(PH_SEEKS), 0.437, "CSV 1.97: seeks latency");
	rs_free(&rs);
}

static void
test_text(void)
{
	struct result_set	rs;

	if (!ok(load(FIX "text-classic.txt", &rs) == 0,
	    "classic text with prose around reads"))
		return;
	is_int(rs.format, RS_FMT_TEXT, "text: format told by content");
	is_int(rs.nruns, 2, "text: two rows");
	is_str(rs.runs[0].label, "ext4", "text: machine");
	is_int(rs.runs[0].size, 2047ull * 1048576, "text: MB");
	is_val(&rs, 0, RS_RATE(PH_PUTC), 61234, "text: putc");
	is_val(&rs, 0, RS_RATE(PH_WRITE), 1195170, "text: wide K/sec");
	is_val(&rs, 0, RS_CPU(PH_WRITE), 89.1, "text: %CPU");
	is_val(&rs, 0, RS_RATE(PH_READ), 2385920, "text: read");
	is_val(&rs, 0, RS_RATE(PH_SEEKS), 17050.3, "text: seeks 17050.3");
	is_val(&rs, 0, RS_CPU(PH_SEEKS), 97.2, "text: seeks %CPU");
	is_val(&rs, 1, RS_RATE(PH_SEEKS), 1014.1, "text: seeks 1014.1");
	is_str(rs.runs[1].label, "xfs", "text: second machine");
	rs_free(&rs);

	if (!ok(load(FIX "text-quoted.txt", &rs) == 0,
	    "text quoted with > and >> reads"))
		return;
	is_int(rs.nruns, 2, "quoted: both tables");
	is_str(rs.runs[0].label, "oldkern", "quoted: first machine");
	is_str(rs.runs[1].label, "newkern", "quoted: second machine");
	is_val(&rs, 0, RS_RATE(PH_REWRITE), 5432, "quoted: rewrite");
	is_val(&rs, 1, RS_RATE(PH_SEEKS), 260.0, "quoted: seeks");
	is_val(&rs, 1, RS_CPU(PH_SEEKS), 3.3, "quoted: seeks %CPU");
	rs_free(&rs);

	if (!ok(load(FIX "text-wrapped.txt", &rs) == 0,
	    "text rows wrapped by a mail program read"))
		return;
	is_int(rs.nruns, 2, "wrapped: two rows");
	is_val(&rs, 0, RS_RATE(PH_READ), 2385920, "wrapped: the value before the break");
	is_val(&rs, 0, RS_CPU(PH_READ), 99.0, "wrapped: the value after the break");
	is_val(&rs, 0, RS_RATE(PH_SEEKS), 17050.3, "wrapped: seeks");
	is_val(&rs, 1, RS_RATE(PH_SEEKS), 1014.1, "wrapped: second row's seeks");
	is_int(rs.runs[1].line, 5, "wrapped: the row starts on line 5");
	rs_free(&rs);

	if (!ok(load(FIX "text-bare.txt", &rs) == 0,
	    "text without Machine and MB reads"))
		return;
	is_int(rs.nruns, 1, "bare: one row");
	is_str(rs.runs[0].label, "", "bare: no machine");
	is_int(rs.runs[0].size, 0, "bare: size unknown");
	is_val(&rs, 0, RS_RATE(PH_PUTC), 5678, "bare: putc");
	is_val(&rs, 0, RS_CPU(PH_GETC), 92.0, "bare: getc %CPU");
	is_val(&rs, 0, RS_RATE(PH_SEEKS), 333.3, "bare: seeks");
	rs_free(&rs);

	if (!ok(load(FIX "text-ng.txt", &rs) == 0,
	    "bonnie-ng text with Latency and summary rows reads"))
		return;
	is_int(rs.nruns, 3, "ng text: summary rows skipped");
	is_val(&rs, 1, RS_RATE(PH_WRITE), 98304, "ng text: run 1 write");
	is_val(&rs, 0, RS_LAT(PH_WRITE), 0.25, "ng text: latency row, ms");
	is_val(&rs, 2, RS_LAT(PH_PUTC), 14e-6, "ng text: latency row, us");
	is_val(&rs, 2, RS_LAT(PH_GETC), 0.0047, "ng text: run 2 getc latency");
	rs_free(&rs);
}

struct bad {
	const char	*file;
	const char	*cause;
};

static const struct bad bad_files[] = {
	{ "bad-syntax.json", FIX "bad-syntax.json:4: bad JSON: expected a "
	    "member name at '}'" },
	{ "bad-schema.json", FIX "bad-schema.json:1: not a bonnie-ng/1 or "
	    "bonnie-ng-sweep/1 record (schema is something-else/2)" },
	{ "bad-fields.csv", FIX "bad-fields.csv:1: bonnie++ CSV 1.98 line has "
	    "12 fields, expected 50" },
	{ "bad-value.csv", FIX "bad-value.csv:2: field 12 (put_block) is not "
	    "a number: 'fast'" },
	{ "bad-row.txt", FIX "bad-row.txt:2: a row of 10 words, 9 of them "
	    "numbers, under the header on line 1, which has the machine, MB "
	    "and 12 numbers (six K/sec and %CPU pairs)" },
	{ "bad-prose.txt", FIX "bad-prose.txt:1: not a bonnie-ng JSON record, "
	    "bonnie++ CSV or classic Bonnie report" },
	{ "empty.txt", FIX "empty.txt:1: empty file" },
	{ "bad-bonnie++-text.txt", FIX "bad-bonnie++-text.txt:3: a bonnie++ "
	    "text report; compare reads bonnie++'s CSV line (the last line "
	    "bonnie++ prints) instead" },
};

static void
test_bad(void)
{
	struct result_set	 rs;
	char			 path[256], *cause;
	size_t			 i;

	for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		snprintf(path, sizeof(path), FIX "%s", bad_files[i].file);
		cause = NULL;
		ok(rs_read_file(path, &rs, &cause) == -1, bad_files[i].file);
		is_str(cause, bad_files[i].cause, "FILE:LINE message");
		free(cause);
	}
}

/* Read a buffer; return the cause (to free) or NULL on success. */
static char *
read_str(const char *text, struct result_set *rs)
{
	char	*cause = NULL;

	if (rs_read_buf("buf", text, strlen(text), rs, &cause) == 0)
		return NULL;
	return cause;
}

static void
test_buffers(void)
{
	struct result_set	 rs;
	struct jv		*v;
	const char		*doc;
	char			*cause;
	int			 line;
	size_t			 i;
	static const char *const bad_json[] = {
		"[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[\"\\ud800\"]",
		"[\"a\tb\"]", "[tru]", "{} x", "[1e]", "{\"a\" 1}", "[-]",
	};

	/* CRLF line ends and a trailing blank line in a CSV file. */
	cause = read_str("1.98,2.00a,crlf,1,7,1G,4096,8192,5,1,2,3,4,5,6,7,8,"
	    "9,10,11.5,12,,,,,,,,,,,,,,,,,,1us,2us,3ms,4ms,5s,6s,,,,,,\r\n\r\n",
	    &rs);
	if (ok(cause == NULL, "CSV with CRLF reads")) {
		is_int(rs.runs[0].size, 1ull << 30, "CSV: size 1G");
		is_int(rs.set.chunk, 4096, "CSV: chunk filled in");
		is_near(rs.runs[0].col[RS_RATE(PH_SEEKS)].v, 11.5, 1e-9, "CSV: seeks");
		is_near(rs.runs[0].col[RS_LAT(PH_SEEKS)].v, 6, 1e-9,
		    "CSV: latency in s");
		rs_free(&rs);
	}
	free(cause);

	/* A bare numeric row with a numeric machine name. */
	cause = read_str("Machine MB K/sec %CPU\n7 10 1 2 3 4 5 6 7 8 9 10 11 12\n",
	    &rs);
	if (ok(cause == NULL, "text row with a numeric machine name")) {
		is_str(rs.runs[0].label, "7", "numeric machine name");
		is_near(rs.runs[0].col[RS_RATE(PH_SEEKS)].v, 11, 1e-9, "its seeks");
		rs_free(&rs);
	}
	free(cause);

	/* A row with "-" for a phase that did not run. */
	cause = read_str("Machine MB K/sec %CPU\nbox 10 1 2 - - 3 4 5 6 7 8 9 10\n",
	    &rs);
	if (ok(cause == NULL, "text row with '-' fields")) {
		is_int(rs.runs[0].col[RS_RATE(PH_WRITE)].state, RS_NONE, "'-' not run");
		rs_free(&rs);
	}
	free(cause);

	cause = read_str("K/sec %CPU\n\n", &rs);
	is_str(cause, "buf:1: header without result rows", "header, no rows");
	free(cause);

	for (i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++) {
		cause = NULL;
		ok(jv_parse(bad_json[i], strlen(bad_json[i]), &v, &line,
		    &cause) == -1, bad_json[i]);
		free(cause);
	}
	cause = NULL;
	doc = "{\"s\": \"\\u00e9\\ud83d\\ude00\\n\", \"n\": -1.5e2,"
	    "\n\"a\": [true, false, null]}";
	if (ok(jv_parse(doc, strlen(doc), &v, &line, &cause) == 0,
	    "JSON: valid document parses")) {
		is_str(jv_str(v, "s"), "\xc3\xa9\xf0\x9f\x98\x80\n",
		    "JSON: \\u escapes and surrogate pairs to UTF-8");
		is_near(jv_get(v, "n")->n, -150, 0, "JSON: number");
		is_int(jv_get(v, "a")->len, 3, "JSON: array");
		is_int(jv_get(v, "a")->line, 2, "JSON: line numbers");
		jv_free(v);
	}
	free(cause);
	cause = NULL;
	ok(jv_parse("[1,\n2,\n,3]", 10, &v, &line, &cause) == -1 && line == 3,
	    "JSON: error line");
	free(cause);
	test_json_keys();
	test_json_skip();
}

int
main(void)
{
	(void)tap_skip;
	test_json();
	test_csv();
	test_text();
	test_bad();
	test_buffers();
	return done_testing();
}
