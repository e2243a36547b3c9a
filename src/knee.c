/*
 * The knee finder: steps in throughput across file sizes and bad chunk
 * sizes across chunks.  The rules are spelled out in include/knee.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "knee.h"
#include "phase.h"
#include "units.h"

/* A point that was measured: finite and positive. */
static int
measured(double x)
{
	return isfinite(x) && x > 0;
}

/*
 * Whether "to" has moved from "from" by more than the fraction p in the
 * direction dir, measured against "from".
 */
static int
moved(double from, double to, double p, enum knee_dir dir)
{
	if (dir == KNEE_FALLS)
		return to < from * (1 - p);
	return to > from * (1 + p);
}

int
knee_sizes(const double *v, int n, double pct, struct knee *out, int max)
{
	double		 p = pct / 100, a, b;
	enum knee_dir	 dir;
	int		 i, j, k, found = 0, ok, later;

	if (!(p > 0 && p < 1))
		return 0;
	for (i = 0; i < n; i++) {
		if (!measured(v[i]))
			continue;
		for (j = i + 1; j < n && !measured(v[j]); j++)
			;
		if (j >= n)
			break;
		a = v[i];
		b = v[j];
		if (moved(a, b, p, KNEE_FALLS))
			dir = KNEE_FALLS;
		else if (moved(a, b, p, KNEE_RISES))
			dir = KNEE_RISES;
		else
			continue;

		/* It stays: no later point comes back to within p of a. */
		ok = 1;
		later = 0;
		for (k = j + 1; k < n && ok; k++) {
			if (!measured(v[k]))
				continue;
			if (moved(a, v[k], p, dir))
				later++;
			else
				ok = 0;
		}
		/* It undoes nothing: every earlier point is beyond p of b. */
		for (k = 0; k < i && ok; k++) {
			if (measured(v[k]) && !moved(v[k], b, p, dir))
				ok = 0;
		}
		if (!ok)
			continue;

		if (found < max) {
			memset(&out[found], 0, sizeof(out[found]));
			out[found].from = i;
			out[found].to = j;
			out[found].dir = dir;
			out[found].pct = fabs(b - a) / a * 100;
			out[found].before = a;
			out[found].after = b;
			out[found].confirmed = later;
		}
		found++;
	}
	return found;
}

int
knee_chunks(const double *v, int n, double pct, struct knee_chunk *out,
    int max)
{
	double	p = pct / 100, slower;
	int	i, l, r, found = 0;

	if (!(p > 0 && p < 1))
		return 0;
	for (i = 0; i < n; i++) {
		if (!measured(v[i]))
			continue;
		for (l = i - 1; l >= 0 && !measured(v[l]); l--)
			;
		for (r = i + 1; r < n && !measured(v[r]); r++)
			;
		if (l < 0 || r >= n)
			continue;
		if (!moved(v[l], v[i], p, KNEE_FALLS) ||
		    !moved(v[r], v[i], p, KNEE_FALLS))
			continue;
		slower = v[l] < v[r] ? v[l] : v[r];
		if (found < max) {
			memset(&out[found], 0, sizeof(out[found]));
			out[found].index = i;
			out[found].left = l;
			out[found].right = r;
			out[found].pct = (slower - v[i]) / slower * 100;
		}
		found++;
	}
	return found;
}

int
knee_chunk_cliffs(const double *v, const uint64_t *chunks, int n,
    double pct, struct knee_cliff *out, int max)
{
	double	p = pct / 100, a, b;
	int	i, j, found = 0;

	if (!(p > 0 && p < 1))
		return 0;
	for (i = 0; i < n; i++) {
		if (!measured(v[i]) || chunks[i] == 0)
			continue;
		for (j = i + 1; j < n && !measured(v[j]); j++)
			;
		if (j >= n || chunks[j] <= chunks[i])
			continue;
		a = v[i] / (double)chunks[i];
		b = v[j] / (double)chunks[j];
		if (!moved(a, b, p, KNEE_RISES))
			continue;
		if (found < max) {
			memset(&out[found], 0, sizeof(out[found]));
			out[found].from = i;
			out[found].to = j;
			out[found].ratio = b / a;
		}
		found++;
	}
	return found;
}

int
knee_cliff_format(char *buf, size_t len, const char *phase, uint64_t size,
    const struct knee_cliff *k, uint64_t from, uint64_t to)
{
	const struct phase	*p = phase_by_name(phase);
	long			 page = sysconf(_SC_PAGESIZE);
	char			 s[32], f[32], t[32];
	int			 rmw;

	/* A write below the page size over a page not cached reads it. */
	rmw = p != NULL && (p->flags & PHASE_WRITES) && page > 0 &&
	    from < (uint64_t)page && to >= (uint64_t)page;
	units_size_words(s, sizeof(s), size);
	units_chunk(f, sizeof(f), from);
	units_chunk(t, sizeof(t), to);
	return snprintf(buf, len, "%s, %s: a cliff between chunk %s and %s: "
	    "%.1f times the calls a second at %s (each smaller call paid for "
	    "more than its bytes%s%s)", knee_phase_words(phase), s, f, t,
	    k->ratio, t, rmw ? ": below the page size, read-modify-write" :
	    "", k->single ? "; single run" : "");
}

const char *
knee_phase_words(const char *name)
{
	const struct phase	*p = phase_by_name(name);

	return p != NULL ? p->words : name;
}

int
knee_format(char *buf, size_t len, const char *phase, uint64_t chunk,
    const struct knee *k, uint64_t size_from, uint64_t size_to,
    uint64_t ram)
{
	char	c[32], from[32], to[32], r[80] = "";

	if (ram != 0) {
		units_ram(c, sizeof(c), ram);
		snprintf(r, sizeof(r), " (RAM is %s%s)", c, k->single ?
		    "; single run" : "");
	} else if (k->single)
		snprintf(r, sizeof(r), " (single run)");
	units_chunk(c, sizeof(c), chunk);
	units_size_words(from, sizeof(from), size_from);
	units_size_words(to, sizeof(to), size_to);
	return snprintf(buf, len, "%s, chunk %s: %s %.0f%% between %s and %s%s",
	    knee_phase_words(phase), c,
	    k->dir == KNEE_FALLS ? "falls" : "rises", k->pct, from, to, r);
}

int
knee_chunk_format(char *buf, size_t len, const char *phase, uint64_t size,
    const struct knee_chunk *k, uint64_t chunk, uint64_t left,
    uint64_t right)
{
	char	s[32], c[32], l[32], r[32];

	units_size_words(s, sizeof(s), size);
	units_chunk(c, sizeof(c), chunk);
	units_chunk(l, sizeof(l), left);
	units_chunk(r, sizeof(r), right);
	return snprintf(buf, len, "%s, %s: chunk %s is %.0f%% below both "
	    "neighbours (%s and %s%s)", knee_phase_words(phase), s, c, k->pct,
	    l, r, k->single ? "; single run" : "");
}

int
knee_jobs(const double *v, int n, double pct, double *gain)
{
	double	best, g, worst;
	int	i, m, last = -1, measured = 0;

	*gain = 0;
	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > 0) {
			measured++;
			last = i;
		}
	if (measured < 2)
		return -1;
	/* From each candidate, the largest gain of any later point. */
	for (i = 0; i < last; i++) {
		if (isnan(v[i]) || !(v[i] > 0))
			continue;
		best = v[i];
		worst = -HUGE_VAL;
		for (m = i + 1; m <= last; m++) {
			if (isnan(v[m]) || !(v[m] > 0))
				continue;
			g = 100 * (v[m] - best) / best;
			if (g > worst)
				worst = g;
			if (v[m] > best)
				best = v[m];
		}
		if (worst < pct) {
			*gain = worst;
			return i;
		}
	}
	return -1;
}

int
knee_jobs_format(char *buf, size_t len, const char *phase, uint64_t size,
    uint64_t chunk, int jobs, double gain, double pct)
{
	char	s[32], c[32], w[80];

	units_size_words(s, sizeof(s), size);
	units_chunk(c, sizeof(c), chunk);
	snprintf(w, sizeof(w), "%s, chunk %s", s, c);
	return knee_jobs_say(buf, len, phase, w, jobs, gain, pct, 0);
}

int
knee_jobs_say(char *buf, size_t len, const char *phase, const char *where,
    int jobs, double gain, double pct, int single)
{
	return snprintf(buf, len, "%s%s%s: the aggregate stops rising at %d "
	    "job%s (beyond: at most %+.0f%%, under %.0f%%%s)",
	    knee_phase_words(phase), *where != '\0' ? ", " : "", where, jobs,
	    jobs == 1 ? "" : "s", gain, pct, single ? "; single run" : "");
}

int
knee_files(const double *v, int n, double pct, struct knee *out)
{
	double	p = pct / 100, best = 0;
	int	m, k, last = -1, ok, later;

	if (!(p > 0 && p < 1))
		return -1;
	for (m = 0; m < n; m++) {
		if (!measured(v[m]))
			continue;
		/* A fall below the best before it, by more than p. */
		if (last >= 0 && moved(best, v[m], p, KNEE_FALLS)) {
			/* It stays: every later count is as far below. */
			ok = 1;
			later = 0;
			for (k = m + 1; k < n && ok; k++) {
				if (!measured(v[k]))
					continue;
				if (moved(best, v[k], p, KNEE_FALLS))
					later++;
				else
					ok = 0;
			}
			if (ok) {
				memset(out, 0, sizeof(*out));
				out->from = last;
				out->to = m;
				out->dir = KNEE_FALLS;
				out->pct = (best - v[m]) / best * 100;
				out->before = best;
				out->after = v[m];
				out->confirmed = later;
				return last;
			}
		}
		if (v[m] > best)
			best = v[m];
		last = m;
	}
	return -1;
}

int
knee_files_format(char *buf, size_t len, const char *phase,
    const char *where, uint64_t files, uint64_t files_to,
    const struct knee *k, double pct)
{
	const struct phase	*p = phase_by_name(phase);
	char			 at[32], to[32];

	units_files(at, sizeof(at), files);
	units_files(to, sizeof(to), files_to);
	return snprintf(buf, len, "%s%s%s: %s/s falls %.0f%% beyond %s files "
	    "(best up to there %.0f/s, %.0f/s at %s files; threshold "
	    "%.0f%%%s)", knee_phase_words(phase), *where != '\0' ? ", " : "",
	    where, p != NULL && p->unit != NULL ? p->unit : "KiB", k->pct, at,
	    k->before, k->after, to, pct, k->single ? "; single run" : "");
}
