/*
 * Result sets: column names, reading a file and telling its format by
 * its content, and the unit parsers the readers share.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "resultset.h"
#include "units.h"

static const char *const col_names[RS_NCOLS] = {
	"putc", "write", "rewrite", "getc", "read", "seeks",
	"putc_cpu", "write_cpu", "rewrite_cpu", "getc_cpu", "read_cpu",
	"seeks_cpu",
	"putc_lat", "write_lat", "rewrite_lat", "getc_lat", "read_lat",
	"seeks_lat"
};

const char *
rs_col_name(int col)
{
	if (col < 0 || col >= RS_NCOLS)
		return NULL;
	return col_names[col];
}

int
rs_col_by_name(const char *name)
{
	int	i;

	for (i = 0; i < RS_NCOLS; i++)
		if (strcmp(col_names[i], name) == 0)
			return i;
	return -1;
}

int
rs_col_lower_better(int col)
{
	return RS_KIND(col) != RS_KIND_RATE;
}

const char *
rs_format_name(enum rs_format f)
{
	switch (f) {
	case RS_FMT_JSON:
		return "bonnie-ng JSON";
	case RS_FMT_CSV:
		return "bonnie++ CSV";
	case RS_FMT_TEXT:
		return "Bonnie text";
	}
	return "unknown";
}

struct rs_run *
rs_add_run(struct result_set *rs, const char *label, int line)
{
	struct rs_run	*r;

	rs->runs = xrealloc(rs->runs, sizeof(*rs->runs) *
	    (size_t)(rs->nruns + 1));
	r = &rs->runs[rs->nruns++];
	memset(r, 0, sizeof(*r));
	r->label = xstrdup(label != NULL ? label : "");
	r->line = line;
	return r;
}

void
rs_free(struct result_set *rs)
{
	struct rs_settings	*s = &rs->set;
	int			 i;

	for (i = 0; i < rs->nruns; i++)
		free(rs->runs[i].label);
	free(rs->runs);
	free(rs->file);
	free(s->cache);
	free(s->direct);
	free(s->hostname);
	free(s->os);
	free(s->kernel);
	free(s->cpu_model);
	free(s->fs_type);
	free(s->mount_options);
	free(s->device);
	free(s->scheduler);
	free(s->version);
	memset(rs, 0, sizeof(*rs));
}

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

int
rs_read_buf(const char *name, const char *buf, size_t len,
    struct result_set *rs, char **cause)
{
	const char	*p = buf, *end = buf + len, *e, *s;
	int		 line = 1, first = 0, r;

	memset(rs, 0, sizeof(*rs));
	rs->file = xstrdup(name);
	if (memchr(buf, '\0', len) != NULL) {
		errorf(cause, "%s:1: binary file, not a result", name);
		goto bad;
	}
	/*
	 * The first non-blank character tells JSON; a line starting with a
	 * CSV format version or field-name header tells CSV; the classic
	 * header's units line tells text.
	 */
	for (; p < end; p = next_line(p, end), line++) {
		e = next_line(p, end);
		for (s = p; s < e && isspace((unsigned char)*s); s++)
			;
		if (s == e)
			continue;
		if (first == 0)
			first = line;
		if (first == line && *s == '{') {
			rs->format = RS_FMT_JSON;
			r = rs_read_json(name, buf, len, rs, cause);
			goto done;
		}
		if (starts(s, e, "1.97,") || starts(s, e, "1.98,") ||
		    starts(s, e, "format_version,") || starts(s, e, "name,")) {
			rs->format = RS_FMT_CSV;
			r = rs_read_csv(name, buf, len, rs, cause);
			goto done;
		}
		if (has(s, e, "/sec %CP ") || has(s, e, "Name:Size etc")) {
			errorf(cause, "%s:%d: a bonnie++ text report; compare "
			    "reads bonnie++'s CSV line (the last line bonnie++ "
			    "prints) instead", name, line);
			goto bad;
		}
		if (has(s, e, "K/sec") && has(s, e, "%CPU")) {
			rs->format = RS_FMT_TEXT;
			r = rs_read_text(name, buf, len, rs, cause);
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

void
rs_format_value(char *buf, size_t len, int col, enum rs_state state, double v)
{
	if (state == RS_NONE)
		snprintf(buf, len, "-");
	else if (state == RS_UNMEASURABLE)
		snprintf(buf, len, "%s",
		    RS_KIND(col) == RS_KIND_CPU ? "+++" : "+++++");
	else if (RS_KIND(col) == RS_KIND_LAT)
		units_latency(buf, len, v);
	else if (RS_KIND(col) == RS_KIND_CPU || col == RS_SEEKS)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%lld", units_kps(v));
}
