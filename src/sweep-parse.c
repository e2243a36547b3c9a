/*
 * The option values of "bonnie-ng sweep" (size ranges, chunk and job
 * lists) and the accessor of its grid of points.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "options.h"
#include "phase.h"
#include "sweep.h"
#include "units.h"

int
sweep_parse_sizes(const char *arg, uint64_t *lo, uint64_t *hi, char **cause)
{
	const char	*dots;
	char		*first, *why = NULL;
	int		 rc = 0;

	if ((dots = strstr(arg, "..")) == NULL) {
		*hi = 0;
		if (parse_size(arg, (uint64_t)1 << 20, lo, &why) == -1)
			rc = -1;
	} else {
		first = xstrdup(arg);
		first[dots - arg] = '\0';
		if (parse_size(first, (uint64_t)1 << 20, lo, &why) == -1 ||
		    parse_size(dots + 2, (uint64_t)1 << 20, hi, &why) == -1)
			rc = -1;
		free(first);
	}
	if (rc == -1) {
		errorf(cause, "%s", why);
		free(why);
		return -1;
	}
	if (*lo == 0)
		return errorf(cause, "'%s' (the smallest size must be above "
		    "zero)", arg);
	if (*hi != 0 && *lo > *hi)
		return errorf(cause, "'%s' (the lower bound is above the "
		    "upper one)", arg);
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int
sweep_parse_chunks(const char *arg, uint64_t *out, int max, char **cause)
{
	char		*copy, *s, *next, *why = NULL;
	uint64_t	 c;
	int		 n = 0, i, j;

	copy = xstrdup(arg);
	for (s = copy; s != NULL; s = next) {
		if ((next = strchr(s, ',')) != NULL)
			*next++ = '\0';
		if (chunk_parse(s, &c, &why) == -1) {
			errorf(cause, "%s", why);
			goto fail;
		}
		if (n == max) {
			errorf(cause, "'%s' (at most %d chunk sizes)", arg,
			    max);
			goto fail;
		}
		out[n++] = c;
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_u64);
	for (i = j = 0; i < n; i++) {
		if (j == 0 || out[j - 1] != out[i])
			out[j++] = out[i];
	}
	free(copy);
	return j;

fail:
	free(why);
	free(copy);
	return -1;
}

static int
cmp_int(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int
sweep_parse_jobs(const char *arg, int *out, int max, char **cause)
{
	char		*copy, *s, *next, *why = NULL;
	int		 v, n = 0, i, j;

	copy = xstrdup(arg);
	for (s = copy; s != NULL; s = next) {
		if ((next = strchr(s, ',')) != NULL)
			*next++ = '\0';
		if (jobs_parse(s, &v, &why) == -1) {
			errorf(cause, "invalid value for --jobs: %s", why);
			goto fail;
		}
		if (n == max) {
			errorf(cause, "invalid value for --jobs: '%s' (at "
			    "most %d job counts)", arg, max);
			goto fail;
		}
		out[n++] = v;
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_int);
	for (i = j = 0; i < n; i++) {
		if (j == 0 || out[j - 1] != out[i])
			out[j++] = out[i];
	}
	free(copy);
	return j;

fail:
	free(why);
	free(copy);
	return -1;
}

int
sweep_size_list(uint64_t lo, uint64_t hi, uint64_t *out, int max)
{
	uint64_t	s;
	int		n = 0;

	for (s = lo; s != 0 && s <= hi && n < max; s *= 2) {
		out[n++] = s;
		if (s > UINT64_MAX / 2)
			break;
	}
	return n;
}

double
sweep_rate(const struct sweep_result *r, enum phase_id id, int i, int k)
{
	return sweep_rate_jobs(r, id, i, k, 0);
}

double
sweep_rate_jobs(const struct sweep_result *r, enum phase_id id, int i,
    int k, int j)
{
	int				 nj = r->njobs > 0 ? r->njobs : 1;
	int				 p = (i * r->nchunks + k) * nj + j;
	const struct phase_result	*ph;

	if (i < 0 || i >= r->nsizes || k < 0 || k >= r->nchunks ||
	    j < 0 || j >= nj || p >= r->npoints)
		return NAN;
	ph = &r->points[p].res.ph[id];
	if (!ph->ran || !(ph->rate > 0))
		return NAN;
	return ph->rate;
}
