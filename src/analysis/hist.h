/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.h - a sparse log-bucket histogram of durations (ns) for percentiles
 * with bounded memory, private to src/. Buckets are 1 ns wide below 32 ns
 * and 1/32 of an octave above, so a percentile is reported within 1/64
 * (1.6%) of the exact nearest-rank value; only buckets that hold a value are
 * stored (at most HIST_NR_BUCKETS of them).
 */
#ifndef SREP_HIST_H
#define SREP_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS	5				/* 32 sub-buckets per octave */
#define HIST_NR_BUCKETS	((64 - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

struct hist_bucket {
	uint32_t index;
	uint64_t count;
};

struct hist {
	struct hist_bucket *b;		/* sorted by index */
	size_t nr, cap;
	uint64_t count, min, max;
};

void hist_free(struct hist *h);
/* returns 0 or SREP_E_NOMEM */
int hist_add(struct hist *h, uint64_t v);
int hist_merge(struct hist *into, const struct hist *from);
/* nearest-rank percentile (0 < pct <= 100); exact for the first and last rank; 0 if empty */
uint64_t hist_percentile(const struct hist *h, unsigned pct);
/* bucket arithmetic, exposed for the tests */
uint32_t hist_bucket_of(uint64_t v);
uint64_t hist_bucket_low(uint32_t index);
uint64_t hist_bucket_width(uint32_t index);

#endif /* SREP_HIST_H */
