/*
 * Reading bonnie++ CSV lines, formats 1.96 and 1.97 (48 fields, one
 * layout) and 1.98 (50 fields), with or without the field-name header line that "bonnie++ -x"
 * prints.  "+++++" and "+++" mean the test was too fast to measure.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "phase.h"
#include "report.h"
#include "resultset.h"
#include "rs-read.h"
#include "units.h"

#define CSV_MAX_FIELDS	64

/*
 * Where the fields of each format are.  After the six classic pairs come
 * the file creation tests' five settings, then their six pairs; after
 * the six classic latencies their six latencies.
 */
struct csv_layout {
	const char	*version;
	int		 nfields;
	int		 seeks;		/* -1: not in this format. */
	int		 seekers;
	int		 pairs;		/* First rate field. */
	int		 latency;	/* First latency field. */
};
#define FILES_SET(L)	((L)->pairs + 2 * CLASSIC_NCOLS)
#define FILES_PAIRS(L)	(FILES_SET(L) + 5)
#define FILES_LAT(L)	((L)->latency + CLASSIC_NCOLS)

static const struct csv_layout layouts[] = {
	{ .version = "1.98", .nfields = 50, .seeks = 7, .seekers = 8,
	  .pairs = 9, .latency = 38 },
	{ .version = "1.97", .nfields = 48, .seeks = -1, .seekers = -1,
	  .pairs = 7, .latency = 36 },
	{ .version = "1.96", .nfields = 48, .seeks = -1, .seekers = -1,
	  .pairs = 7, .latency = 36 },
};

/*
 * Split line (modified in place) on commas into at most max fields;
 * returns how many fields the line has, which may be more.
 */
static int
split(char *line, char **f, int max)
{
	int	n = 0;
	char	*p = line, *c;

	for (;;) {
		if (n < max)
			f[n] = p;
		n++;
		if ((c = strchr(p, ',')) == NULL)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

static int
all_plus(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s != '+')
			return 0;
	return 1;
}

static int
field_value(const char *name, int line, int idx, const char *what,
    const char *s, struct rs_value *out, char **cause)
{
	if (*s == '\0')
		out->state = RS_NONE;
	else if (all_plus(s))
		out->state = RS_UNMEASURABLE;
	else if (units_parse_decimal(s, &out->v) == 0)
		out->state = RS_VALUE;
	else
		return errorf(cause, "%s:%d: field %d (%s) is not a number: "
		    "'%s'", name, line, idx + 1, what, s);
	return 0;
}

/* One phase's rate, %CPU and worst latency, from fields rate and lat. */
static int
phase_fields(const char *name, int line, char **f, int rate, int lat,
    enum phase_id id, struct rs_run *r, char **cause)
{
	const char	*word = phase_table[id]->bonnie_name;
	char		 what[32];
	double		 v;

	if (field_value(name, line, rate, word, f[rate], &r->col[RS_RATE(id)],
	    cause) != 0)
		return -1;
	snprintf(what, sizeof(what), "%s_cpu", word);
	if (field_value(name, line, rate + 1, what, f[rate + 1],
	    &r->col[RS_CPU(id)], cause) != 0)
		return -1;
	snprintf(what, sizeof(what), "%s_latency", word);
	if (*f[lat] == '\0')
		return 0;
	if (all_plus(f[lat]))
		r->col[RS_LAT(id)].state = RS_UNMEASURABLE;
	else if (units_parse_latency(f[lat], &v) == 0) {
		r->col[RS_LAT(id)].state = RS_VALUE;
		r->col[RS_LAT(id)].v = v;
	} else
		return errorf(cause, "%s:%d: field %d (%s) is not a latency: "
		    "'%s'", name, line, lat + 1, what, f[lat]);
	return 0;
}

/*
 * The file creation tests' settings: N (x 1024 files), MAX, MIN, then
 * DIRS, which bonnie++ 2.00a writes one field later (where its header
 * names file_chunk_size) and bon_csv2txt shows either way.  0 when the
 * tests did not run (N empty).
 */
static int
files_settings(const char *name, int line, char **f, int at,
    struct rs_settings *s, char **cause)
{
	const char *const	 words[] = { "num_files", "max_size",
				    "min_size", "num_dirs" };
	uint64_t		*out[] = { &s->files, &s->files_max,
				    &s->files_min, &s->files_dirs };
	const char		*v;
	double			 d;
	int			 k, idx;

	if (*f[at] == '\0')
		return 0;
	for (k = 0; k < 4; k++) {
		idx = at + k;
		if (k == 3 && *f[idx] == '\0')
			idx++;
		v = f[idx];
		if (*v == '\0')
			continue;
		if (units_parse_decimal(v, &d) != 0 || d >= 0x1p53 ||
		    d != (double)(uint64_t)d)
			return errorf(cause, "%s:%d: field %d (%s) is not a "
			    "count: '%s'", name, line, idx + 1, words[k], v);
		*out[k] = (uint64_t)d;
	}
	s->files *= 1024;
	return 0;
}

static int
parse_line(const char *name, int line, char *text, struct result_set *rs,
    char **cause)
{
	const struct csv_layout	*L = NULL;
	struct rs_run		*r;
	char			*f[CSV_MAX_FIELDS + 1] = { NULL };
	uint64_t		 size, u;
	double			 v;
	size_t			 i;
	int			 n, k;

	n = split(text, f, CSV_MAX_FIELDS);
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (strcmp(f[0], layouts[i].version) == 0)
			L = &layouts[i];
	if (L == NULL)
		return errorf(cause, "%s:%d: not a bonnie++ CSV line (format "
		    "version '%.20s', expected 1.96, 1.97 or 1.98)", name, line,
		    f[0]);
	if (n != L->nfields)
		return errorf(cause, "%s:%d: bonnie++ CSV %s line has %d fields, "
		    "expected %d", name, line, L->version, n, L->nfields);
	/* Empty under bonnie++ -s 0 (only the file creation tests ran). */
	if (f[5] == NULL || *f[5] == '\0')
		size = 0;
	else if (parse_size(f[5], (uint64_t)1 << 20, &size, NULL) != 0)
		return errorf(cause, "%s:%d: field 6 (file_size) is not a size: "
		    "'%s'", name, line, f[5]);
	r = rs_add_run(rs, f[2], line);
	r->size = size;
	for (k = 0; k < CLASSIC_NCOLS; k++)
		if (phase_fields(name, line, f, L->pairs + 2 * k,
		    L->latency + k, classic_columns[k], r, cause) != 0)
			return -1;
	for (k = 0; k < FILES_NCOLS; k++)
		if (phase_fields(name, line, f, FILES_PAIRS(L) + 2 * k,
		    FILES_LAT(L) + k, files_columns[k], r, cause) != 0)
			return -1;
	if (rs->nruns == 1) {
		if (files_settings(name, line, f, FILES_SET(L), &rs->set,
		    cause) != 0)
			return -1;
		rs->set.size = size;
		rs->set.version = xasprintf("bonnie++ CSV %s (%s)",
		    L->version, f[1]);
		/*
		 * A bare chunk size is in bytes, not MiB as sizes are.  Empty:
		 * bonnie-ng's own lines leave bonnie++'s chunk out; bonnie++
		 * leaves every chunk out (not known).
		 */
		if (*f[6] == '\0') {
			if (strncmp(f[1], "bonnie-ng-", 10) == 0)
				rs->set.chunk =
				    settings_table[SET_CHUNK].pp_def;
		}
		else if (units_parse_decimal(f[6], &v) == 0 && v < 0x1p64)
			rs->set.chunk = (uint64_t)v;
		else if (parse_size(f[6], (uint64_t)1 << 20, &u, NULL) == 0)
			rs->set.chunk = u;
		else
			return errorf(cause, "%s:%d: field 7 (io_chunk_size) "
			    "is not a size: '%s'", name, line, f[6]);
		if (L->seeks >= 0 && units_parse_decimal(f[L->seeks], &v) == 0 &&
		    v < 0x1p64)
			rs->set.seeks = (uint64_t)v;
		if (L->seekers >= 0 && units_parse_decimal(f[L->seekers], &v) == 0 &&
		    v <= INT_MAX)
			rs->set.seekers = (int)v;
		/* Field 3, concurrency: bonnie++ -c, bonnie-ng -j. */
		if (units_parse_decimal(f[3], &v) == 0 && v >= 1 && v <= INT_MAX)
			rs->set.jobs = (int)v;
	}
	return 0;
}

int
rs_read_csv(const char *name, const char *buf, size_t len,
    struct result_set *rs, char **cause)
{
	const char	*p = buf, *end = buf + len, *nl;
	char		*text;
	size_t		 n;
	int		 line = 0, r;

	rs->format = RS_FMT_CSV;
	rs->set.latency = "max";
	for (; p < end; p = nl != NULL ? nl + 1 : end) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl != NULL ? nl : end) - p);
		while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' ||
		    p[n - 1] == '\t'))
			n--;
		while (n > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		if (n == 0)
			continue;
		if ((n >= 15 && strncmp(p, "format_version,", 15) == 0) ||
		    (n >= 5 && strncmp(p, "name,", 5) == 0))
			continue;
		text = xmalloc(n + 1);
		memcpy(text, p, n);
		text[n] = '\0';
		r = parse_line(name, line, text, rs, cause);
		free(text);
		if (r != 0)
			return -1;
	}
	return 0;
}
