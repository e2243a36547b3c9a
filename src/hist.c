/*
 * Log-linear latency histogram (see hist.h for the layout).
 */
#include <string.h>

#include "hist.h"

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* The midpoint of bucket b, in ns. */
static uint64_t
bucket_mid(unsigned b)
{
	unsigned	p, sub;
	uint64_t	lo, width;

	if (b < HIST_SUB)
		return b;
	p = (b - HIST_SUB) / HIST_SUB + HIST_SUB_BITS;
	sub = (b - HIST_SUB) % HIST_SUB;
	width = (uint64_t)1 << (p - HIST_SUB_BITS);
	lo = ((uint64_t)HIST_SUB + sub) * width;
	return lo + width / 2;
}

void
hist_merge(struct hist *h, const struct hist *o)
{
	unsigned	i;

	if (o->count == 0)
		return;
	h->count += o->count;
	h->over += o->over;
	if (o->min < h->min)
		h->min = o->min;
	if (o->max > h->max)
		h->max = o->max;
	for (i = 0; i < HIST_BUCKETS; i++)
		h->bucket[i] += o->bucket[i];
}

uint64_t
hist_quantile(const struct hist *h, double q)
{
	uint64_t	rank, seen = 0, v;
	unsigned	i;

	if (h->count == 0)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	/* The smallest value with at least q of the values at or below it. */
	rank = (uint64_t)(q * (double)h->count);
	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank == 0)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			v = bucket_mid(i);
			/* Never report outside what was seen. */
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

void
hist_summary(const struct hist *h, struct latency *l)
{
	memset(l, 0, sizeof(*l));
	l->count = h->count;
	if (h->count == 0)
		return;
	l->min = (double)h->min / 1e9;
	l->max = (double)h->max / 1e9;
	l->p50 = (double)hist_quantile(h, 0.50) / 1e9;
	l->p90 = (double)hist_quantile(h, 0.90) / 1e9;
	l->p99 = (double)hist_quantile(h, 0.99) / 1e9;
	l->p999 = (double)hist_quantile(h, 0.999) / 1e9;
}
