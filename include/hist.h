/*
 * A log-linear latency histogram: fixed memory, no allocation and no
 * division in hist_add(), relative error under 1% from 100 ns to well over
 * an hour.  Values are nanoseconds.
 */
#ifndef BONNIE_HIST_H
#define BONNIE_HIST_H

#include <stdint.h>

/*
 * Each power of two from 2^HIST_MIN_SHIFT ns up is split into HIST_SUB
 * linear buckets; values below the first power share the first buckets
 * exactly.  With 64 sub-buckets the bucket width is at most 1/64 of its
 * lower bound, and reporting the bucket's midpoint keeps the error within
 * 1/128 (0.8%).
 */
#define HIST_SUB_BITS	6
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_MIN_SHIFT	6		/* 64 ns: exact below this. */
#define HIST_POWERS	37		/* up to 2^43 ns, about 2.4 hours */
#define HIST_BUCKETS	(HIST_SUB + HIST_POWERS * HIST_SUB)

struct hist {
	uint64_t	count;
	uint64_t	min;
	uint64_t	max;
	uint64_t	over;		/* Values beyond the last bucket. */
	uint64_t	bucket[HIST_BUCKETS];
};

/* Summary, in seconds. */
struct latency {
	uint64_t	count;
	double		min, p50, p90, p99, p999, max;
};

void	hist_init(struct hist *);

/* The bucket of v: exact below HIST_SUB, then HIST_SUB per power of two. */
static inline unsigned
hist_bucket_of(uint64_t v)
{
	unsigned	p;

	if (v < HIST_SUB)
		return (unsigned)v;
	p = 63u - (unsigned)__builtin_clzll(v);	/* p >= HIST_SUB_BITS */
	return HIST_SUB + (p - HIST_SUB_BITS) * HIST_SUB +
	    (unsigned)((v >> (p - HIST_SUB_BITS)) - HIST_SUB);
}

/*
 * Add one value.  Inline: it runs in every timed loop, right after the
 * system call, where each other function's code is one more page to find
 * again (issue 45: on a guest whose every system call flushes the TLB,
 * a page touched after the call costs more than the add).
 */
static inline void
hist_add(struct hist *h, uint64_t v)
{
	unsigned	b = hist_bucket_of(v);

	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (b < HIST_BUCKETS)
		h->bucket[b]++;
	else
		h->over++;
}
void	hist_merge(struct hist *, const struct hist *);
/* The value (ns) at quantile q in [0, 1]; 0 when empty. */
uint64_t hist_quantile(const struct hist *, double q);
void	hist_summary(const struct hist *, struct latency *);

#endif
