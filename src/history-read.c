/*
 * Reading a history: the records named, or found in the directories
 * named, each read whole (rs_read_file()) and kept as a few fields and
 * its columns' medians, then freed, so that the memory a history holds
 * grows by about 450 bytes a record whatever the records hold (the
 * change points' tables of ranks take about as much again).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "error.h"
#include "history.h"
#include "resultset.h"
#include "rs-read.h"
#include "settings.h"
#include "stats.h"

double
hist_value(const struct result_set *rs, int col)
{
	double	*v, m = NAN;
	int	 n, unmeasured;

	n = cmp_collect(rs, col, &v, &unmeasured);
	if (n > 0)
		m = stats_median(v, n);
	free(v);
	return m;
}

static void
skip(struct history *h, char *why)
{
	h->skipped = xrealloc(h->skipped, sizeof(*h->skipped) *
	    ((size_t)h->nskipped + 1));
	h->skipped[h->nskipped++] = why;
}

/*
 * Whether the file st is of was read already: 1 with it listed in
 * skipped as read once, else 0.  A linear look (10,000 records: 5e7
 * comparisons, some 30 ms, beside seconds of reading).
 */
static int
read_already(struct history *h, const char *path, const struct stat *st)
{
	int	i;

	for (i = 0; i < h->n; i++)
		if (h->recs[i].has_id && h->recs[i].dev == st->st_dev &&
		    h->recs[i].ino == st->st_ino) {
			skip(h, xasprintf("%s: the same file as %s: read once",
			    path, h->recs[i].file));
			return 1;
		}
	return 0;
}

/*
 * Read one file into a new record (st its stat, NULL for standard
 * input): 0, or -1 with why it is not a usable run record in *cause.
 */
static int
read_record(struct history *h, const char *path, const struct stat *st,
    char **cause)
{
	struct result_set	 rs;
	struct hist_rec		*r;
	char			*value;
	int			 i, n = 0, col;

	memset(&rs, 0, sizeof(rs));
	if (rs_read_file_flags(path, RS_READ_LEAN, &rs, cause) != 0)
		return -1;
	if (rs.format != RS_FMT_JSON || rs.sweep != NULL) {
		errorf(cause, "%s: not a run record (%s)", path,
		    rs.sweep != NULL ? "a sweep record" : "a history needs "
		    "JSON records, which say when they ran");
		rs_free(&rs);
		return -1;
	}
	/* The runs that stopped on an error or a signal are left out. */
	for (i = 0; i < rs.nruns; i++) {
		if (rs.runs[i].failed == NULL) {
			rs.runs[n++] = rs.runs[i];
			continue;
		}
		free(rs.runs[i].label);
		free(rs.runs[i].failed);
		rs_kernel_free(&rs.runs[i]);
	}
	rs.nruns = n;
	if (n == 0) {
		errorf(cause, "%s: no usable run", path);
		rs_free(&rs);
		return -1;
	}
	h->recs = xrealloc(h->recs, sizeof(*h->recs) * ((size_t)h->n + 1));
	r = &h->recs[h->n++];
	memset(r, 0, sizeof(*r));
	r->file = xstrdup(path);
	if (st != NULL) {
		r->has_id = 1;
		r->dev = st->st_dev;
		r->ino = st->st_ino;
	}
	value = rs.set.value[SET_START];
	r->start = value != NULL ? xstrdup(value) : NULL;
	r->label = xstrdup(rs.runs[0].label);
	r->kernel = rs.set.kernel != NULL ? xstrdup(rs.set.kernel) : NULL;
	r->runs = n;
	for (col = 0; col < RS_NCOLS; col++)
		r->v[col] = hist_value(&rs, col);
	rs_free(&rs);
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
ends_json(const char *name)
{
	size_t	n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

/* A directory's entries, in name order, then each one's records. */
static int
read_dir(struct history *h, const char *dir, int depth, char **cause)
{
	struct dirent	*e;
	struct stat	 st;
	DIR		*d;
	char		**names = NULL, *path, *why;
	size_t		 n = 0, i;
	int		 r = 0;

	if (depth > 16)
		return errorf(cause, "history: %s: directories nested too "
		    "deeply", dir);
	if ((d = opendir(dir)) == NULL)
		return errorf(cause, "history: %s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, sizeof(*names) * (n + 1));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		if (stat(path, &st) != 0)
			skip(h, xasprintf("%s: %s", path, strerror(errno)));
		else if (S_ISDIR(st.st_mode)) {
			if (r == 0)
				r = read_dir(h, path, depth + 1, cause);
		} else if (S_ISREG(st.st_mode) && ends_json(names[i]) &&
		    !read_already(h, path, &st)) {
			why = NULL;
			if (read_record(h, path, &st, &why) != 0)
				skip(h, why);
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return r;
}

int
hist_read(int n, char *const *paths, struct history *h, char **cause)
{
	struct stat	st;
	int		i;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < n; i++) {
		if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0) {
			/* Standard input, or the reader says why not. */
			if (read_record(h, paths[i], NULL, cause) != 0)
				goto bad;
		} else if (S_ISDIR(st.st_mode)) {
			if (read_dir(h, paths[i], 0, cause) != 0)
				goto bad;
		} else if (!read_already(h, paths[i], &st) &&
		    read_record(h, paths[i], &st, cause) != 0)
			goto bad;
	}
	return 0;
bad:
	hist_free(h);
	return -1;
}

void
hist_free(struct history *h)
{
	int	i;

	for (i = 0; i < h->n; i++) {
		free(h->recs[i].file);
		free(h->recs[i].start);
		free(h->recs[i].label);
		free(h->recs[i].kernel);
	}
	free(h->recs);
	for (i = 0; i < h->nskipped; i++)
		free(h->skipped[i]);
	free(h->skipped);
	memset(h, 0, sizeof(*h));
}

int
hist_has_column(const struct history *h, int col)
{
	int	i;

	for (i = 0; i < h->n; i++)
		if (!isnan(h->recs[i].v[col]))
			return 1;
	return 0;
}

int
hist_version_cmp(const char *a, const char *b)
{
	const char	*da, *db;
	size_t		 la, lb;

	while (*a != '\0' && *b != '\0') {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			/* Two numbers: the longer (without leading 0s) wins. */
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			for (da = a; *da >= '0' && *da <= '9'; da++)
				;
			for (db = b; *db >= '0' && *db <= '9'; db++)
				;
			la = (size_t)(da - a);
			lb = (size_t)(db - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			if (la > 0 && memcmp(a, b, la) != 0)
				return memcmp(a, b, la) < 0 ? -1 : 1;
			a = da;
			b = db;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != '\0') - (*b != '\0');
}

/* NULL (unknown) after everything known. */
static int
known_cmp(const char *a, const char *b, int version)
{
	if (a == NULL || b == NULL)
		return (a == NULL) - (b == NULL);
	return version ? hist_version_cmp(a, b) : strcmp(a, b);
}

static enum hist_by	sort_by;

static int
rec_cmp(const void *pa, const void *pb)
{
	const struct hist_rec	*a = pa, *b = pb;
	int			 c = 0;

	if (sort_by == HIST_BY_KERNEL)
		c = known_cmp(a->kernel, b->kernel, 1);
	else if (sort_by == HIST_BY_LABEL)
		c = known_cmp(a->label, b->label, 1);
	/* ISO 8601 times of one form sort as text. */
	if (c == 0)
		c = known_cmp(a->start, b->start, 0);
	if (c == 0)
		c = strcmp(a->file, b->file);
	return c;
}

void
hist_sort(struct history *h, enum hist_by by)
{
	sort_by = by;
	if (h->n > 1)
		qsort(h->recs, (size_t)h->n, sizeof(*h->recs), rec_cmp);
}
