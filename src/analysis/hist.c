// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hist.c - sparse log-bucket histograms (see hist.h). A task that waited a
 * few times keeps a few buckets; one that waited millions of times keeps at
 * most HIST_NR_BUCKETS, whatever the trace length. Merging adds counts, so
 * groups of tasks (compare --match comm) get exact group histograms.
 */
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>
#include "hist.h"

#define SUB (1u << HIST_SUB_BITS)

uint32_t hist_bucket_of(uint64_t v)
{
	unsigned e;

	if (v < SUB)
		return (uint32_t)v;
	e = 63u - (unsigned)__builtin_clzll(v);	/* e >= HIST_SUB_BITS */
	return (e - HIST_SUB_BITS + 1) * SUB + (uint32_t)((v >> (e - HIST_SUB_BITS)) & (SUB - 1));
}

uint64_t hist_bucket_low(uint32_t index)
{
	unsigned e;

	if (index < SUB)
		return index;
	e = index / SUB + HIST_SUB_BITS - 1;
	return (uint64_t)(SUB + index % SUB) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_width(uint32_t index)
{
	return index < SUB ? 1 : 1ull << (index / SUB - 1);
}

void hist_free(struct hist *h)
{
	free(h->b);
	memset(h, 0, sizeof(*h));
}

/* the position of 'index' in h->b, or where it would go */
static size_t find(const struct hist *h, uint32_t index)
{
	size_t lo = 0, hi = h->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->b[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int add_count(struct hist *h, uint32_t index, uint64_t n)
{
	size_t at = find(h, index);

	if (at < h->nr && h->b[at].index == index) {
		h->b[at].count += n;
		return 0;
	}
	if (h->nr == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 4;
		struct hist_bucket *nb;

		if (cap > HIST_NR_BUCKETS)
			cap = HIST_NR_BUCKETS;
		nb = realloc(h->b, cap * sizeof(*nb));
		if (!nb)
			return SREP_E_NOMEM;
		h->b = nb;
		h->cap = cap;
	}
	memmove(&h->b[at + 1], &h->b[at], (h->nr - at) * sizeof(*h->b));
	h->b[at] = (struct hist_bucket){ index, n };
	h->nr++;
	return 0;
}

static void note_range(struct hist *h, uint64_t min, uint64_t max, uint64_t n)
{
	if (!h->count || min < h->min)
		h->min = min;
	if (!h->count || max > h->max)
		h->max = max;
	h->count += n;
}

int hist_add(struct hist *h, uint64_t v)
{
	int ret = add_count(h, hist_bucket_of(v), 1);

	if (!ret)
		note_range(h, v, v, 1);
	return ret;
}

int hist_merge(struct hist *into, const struct hist *from)
{
	size_t i;
	int ret;

	for (i = 0; i < from->nr; i++) {
		ret = add_count(into, from->b[i].index, from->b[i].count);
		if (ret)
			return ret;
	}
	if (from->count)
		note_range(into, from->min, from->max, from->count);
	return 0;
}

uint64_t hist_percentile(const struct hist *h, unsigned pct)
{
	uint64_t rank, seen = 0, v;
	size_t i;

	if (!h->count)
		return 0;
	/* integers: 0.95 * 20 in floating point rounds up to rank 20 */
	rank = (pct * h->count + 99) / 100;
	if (rank <= 1)
		return h->min;
	if (rank >= h->count)
		return h->max;
	for (i = 0; i < h->nr; i++) {
		seen += h->b[i].count;
		if (seen >= rank)
			break;
	}
	if (i == h->nr)
		return h->max;
	/* the middle of the bucket: at most half a bucket (1/64) from any value in it */
	v = hist_bucket_low(h->b[i].index) + hist_bucket_width(h->b[i].index) / 2;
	return v < h->min ? h->min : v > h->max ? h->max : v;
}
