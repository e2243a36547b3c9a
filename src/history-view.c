/*
 * A history's change points and what changed at each: the columns'
 * series handed to changepoint.c together (so its false alarm rate holds
 * over all of them), then for each change point the two segments either
 * side compared as compare compares two sides, and the records nearest
 * it read again for the settings that changed and what moved in the
 * kernel's account.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "compare.h"
#include "compare-kernel.h"
#include "compare-view.h"
#include "error.h"
#include "history-view.h"
#include "resultset.h"
#include "rs-read.h"
#include "stats.h"

const char *
hist_by_words(enum hist_by by)
{
	switch (by) {
	case HIST_BY_TIME:
		return "by start";
	case HIST_BY_KERNEL:
		return "by kernel release";
	case HIST_BY_LABEL:
		return "by label";
	}
	return "?";
}

void
hist_segment(const struct hist_view *v, int col, int i, int *from, int *to)
{
	int	k;

	*from = 0;
	*to = v->h->n;
	for (k = 0; k < v->ncps; k++) {
		if (v->cps[k].col != col)
			continue;
		if (v->cps[k].index <= i)
			*from = v->cps[k].index;
		else if (v->cps[k].index < *to)
			*to = v->cps[k].index;
	}
}

/* The values of column col in records [a, b), in a new array. */
static int
values(const struct history *h, int col, int a, int b, double **out)
{
	int	i, n = 0;

	*out = xmalloc(sizeof(**out) * (size_t)(b > a ? b - a : 1));
	for (i = a; i < b; i++)
		if (!isnan(h->recs[i].v[col]))
			(*out)[n++] = h->recs[i].v[col];
	return n;
}

double
hist_segment_median(const struct hist_view *v, int col, int from, int to)
{
	double	*x, m = NAN;
	int	 n;

	if ((n = values(v->h, col, from, to, &x)) > 0)
		m = stats_median(x, n);
	free(x);
	return m;
}

/*
 * Records [a, b) read again and pooled into one set (the runs that
 * stopped early left out); the first's settings are the set's.  0, or -1
 * with why.
 */
static int
pool(const struct history *h, int a, int b, struct result_set *rs,
    char **cause)
{
	struct result_set	 one;
	int			 i, k, n;

	memset(rs, 0, sizeof(*rs));
	for (i = a; i < b; i++) {
		if (rs_read_file(h->recs[i].file, &one, cause) != 0) {
			rs_free(rs);
			return -1;
		}
		for (k = n = 0; k < one.nruns; k++) {
			if (one.runs[k].failed == NULL) {
				one.runs[n++] = one.runs[k];
				continue;
			}
			free(one.runs[k].label);
			free(one.runs[k].failed);
			rs_kernel_free(&one.runs[k]);
		}
		one.nruns = n;
		if (i == a) {
			*rs = one;
			continue;
		}
		rs_append(rs, &one);
		rs_free(&one);
	}
	return 0;
}

/* The settings that differ between the sets' first records. */
static void
settings_moved(struct hist_cp *cp, const struct result_set *before,
    const struct result_set *after)
{
	char	a[256], b[256];
	int	id, n = cmp_view_nsettings();

	for (id = 0; id < n; id++) {
		if (!cmp_view_listed(id))
			continue;
		cmp_view_show(&before->set, id, a, sizeof(a));
		cmp_view_show(&after->set, id, b, sizeof(b));
		if (strcmp(a, b) == 0)
			continue;
		cp->set = xrealloc(cp->set, sizeof(*cp->set) *
		    ((size_t)cp->nset + 1));
		cp->set[cp->nset].name = cmp_view_setting_name(id);
		cp->set[cp->nset].before = xstrdup(a);
		cp->set[cp->nset].after = xstrdup(b);
		cp->nset++;
	}
}

/*
 * What changed at cp: the settings of the last record before it and the
 * first after it, and what moved in the kernel's account from the
 * HIST_WINDOW records before it to as many after it (in its segments).
 */
static void
explain(const struct hist_view *v, struct hist_cp *cp)
{
	struct result_set	 before, after, last;
	char			*why = NULL;
	int			 a, b, k;

	a = cp->index - HIST_WINDOW > cp->from ? cp->index - HIST_WINDOW :
	    cp->from;
	b = cp->index + HIST_WINDOW < cp->to ? cp->index + HIST_WINDOW :
	    cp->to;
	if (pool(v->h, a, cp->index, &before, &why) != 0) {
		cp->unread = why;
		return;
	}
	if (pool(v->h, cp->index, b, &after, &why) != 0) {
		cp->unread = why;
		rs_free(&before);
		return;
	}
	if (cp->index - 1 > a && pool(v->h, cp->index - 1, cp->index, &last,
	    &why) == 0) {
		settings_moved(cp, &last, &after);
		rs_free(&last);
	} else {
		free(why);
		settings_moved(cp, &before, &after);
	}
	km_column(&before, &after, cp->col, (int)cp->c.verdict, &cp->moved);
	/* The names live in the sets, which go now. */
	for (k = 0; k < cp->moved.n; k++)
		cp->moved.f[k].name = xstrdup(cp->moved.f[k].name);
	cp->explained = 1;
	rs_free(&before);
	rs_free(&after);
}

/* The series of every shown column, for changepoint.c. */
static int
series(struct hist_view *v, struct cp_series *s, int *cols, int **at,
    double **val)
{
	const struct history	*h = v->h;
	int			 col, i, ns = 0;

	for (col = 0; col < RS_NCOLS; col++) {
		for (i = 0; i < h->n && isnan(h->recs[i].v[col]); i++)
			;
		if (i == h->n)
			continue;
		v->shown[col] = 1;
		at[ns] = xmalloc(sizeof(**at) * (size_t)h->n);
		val[ns] = xmalloc(sizeof(**val) * (size_t)h->n);
		s[ns].n = 0;
		for (i = 0; i < h->n; i++)
			if (!isnan(h->recs[i].v[col])) {
				at[ns][s[ns].n] = i;
				val[ns][s[ns].n++] = h->recs[i].v[col];
			}
		s[ns].at = at[ns];
		s[ns].v = val[ns];
		cols[ns++] = col;
	}
	return ns;
}

/* Each change point's segments, compared, and explained. */
static void
describe(struct hist_view *v)
{
	struct hist_cp	*cp;
	double		*x, *y;
	int		 k, nx, ny, last;

	for (k = 0; k < v->ncps; k++) {
		cp = &v->cps[k];
		hist_segment(v, cp->col, cp->index - 1, &cp->from, &last);
		hist_segment(v, cp->col, cp->index, &last, &cp->to);
		nx = values(v->h, cp->col, cp->from, cp->index, &x);
		ny = values(v->h, cp->col, cp->index, cp->to, &y);
		cmp_values(x, nx, y, ny, v->threshold,
		    rs_col_lower_better(cp->col), &cp->c);
		free(x);
		free(y);
		explain(v, cp);
		/* The newest segment of a gated column, worse: exit 1. */
		if (cp->to == v->h->n && v->fail_on[cp->col] &&
		    cp->c.verdict == CMP_WORSE && v->exit == 0) {
			v->exit = 1;
			v->worse_col = cp->col;
		}
	}
}

int
hist_analyse(struct hist_view *v, char **cause)
{
	struct cp_series	 s[RS_NCOLS];
	struct cp_found		*f;
	int			 cols[RS_NCOLS], *at[RS_NCOLS], ns, n, k;
	double			*val[RS_NCOLS];

	v->exit = 0;
	v->worse_col = -1;
	memset(v->shown, 0, sizeof(v->shown));
	ns = series(v, s, cols, at, val);
	n = cp_detect(s, ns, v->h->n, &v->opts, &f, &v->cost, cause);
	for (k = 0; k < ns; k++) {
		free(at[k]);
		free(val[k]);
	}
	if (n < 0)
		return -1;
	v->ncps = n;
	v->cps = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*v->cps));
	for (k = 0; k < n; k++) {
		v->cps[k].col = cols[f[k].series];
		v->cps[k].index = f[k].index;
		v->cps[k].step = f[k].step;
		v->cps[k].p = f[k].p;
	}
	free(f);
	describe(v);
	return 0;
}

void
hist_view_free(struct hist_view *v)
{
	int	k, i;

	for (k = 0; k < v->ncps; k++) {
		for (i = 0; i < v->cps[k].nset; i++) {
			free(v->cps[k].set[i].before);
			free(v->cps[k].set[i].after);
		}
		free(v->cps[k].set);
		if (v->cps[k].explained)
			for (i = 0; i < v->cps[k].moved.n; i++)
				free((char *)v->cps[k].moved.f[i].name);
		free(v->cps[k].unread);
	}
	free(v->cps);
	v->cps = NULL;
	v->ncps = 0;
}
