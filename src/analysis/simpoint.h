/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simpoint.h - what the SimPoint files share: the interval table, the
 * random numbers and k-means over projected vectors.
 */
#ifndef SREP_SIMPOINT_LOCAL_H
#define SREP_SIMPOINT_LOCAL_H

#include <stddef.h>
#include <stdint.h>
#include <schedrep/simpoint.h>

/* one interval and the arrays it owns (pub points into them) */
struct sp_interval {
	struct srep_simpoint_interval pub;
	int32_t *threads;
	uint32_t *dims;
	double *counts;
};

struct srep_simpoint {
	uint64_t interval;		/* counts per interval */
	uint64_t pos;			/* counts added so far */
	uint64_t last_time;		/* of the previous sample */
	bool started;
	uint64_t open_time;		/* where the open interval starts */
	double open_samples;		/* samples in the open interval */
	/* dimension names, interned through an open-addressing table */
	char **names;
	size_t nr_names, cap_names;
	uint32_t *slots;		/* name index + 1, 0 empty */
	size_t nr_slots;
	/* the open interval: dense counts of the dimensions it touched */
	double *acc;
	size_t cap_acc;
	uint32_t *touched;
	size_t nr_touched, cap_touched;
	int32_t *tids;
	size_t nr_tids, cap_tids;
	/* closed intervals */
	struct sp_interval *iv;
	size_t nr_iv, cap_iv;
};

/*
 * Our own generator, not rand(3): the same sequence on every libc and
 * machine, so one seed gives one answer everywhere (splitmix64: small,
 * full period over 2^64 states, good enough for picking starts and drawing
 * projection directions).
 */
static inline uint64_t sp_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) from the top 53 bits */
static inline double sp_rand_unit(uint64_t *state)
{
	return (double)(sp_rand_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* SimPoint 3.2's own generator (simpoint_ran2.c), for --simpoint32's starts */
#define SP_RAN2_TABLE 32
struct sp_ran2 {
	int64_t s1, s2, y;
	int64_t table[SP_RAN2_TABLE];
};

void sp_ran2_seed(struct sp_ran2 *g, int64_t seed);
float sp_ran2_float(struct sp_ran2 *g);
int sp_ran2_int(struct sp_ran2 *g);	/* in [0, INT_MAX) as SimPoint's randInt */

/* SimPoint 3.2's default -seedkm: the first k-means start's seed */
#define SP_SIMPOINT32_SEEDKM 493575226

/*
 * A k-means problem: n points of d dimensions (row-major), weights summing
 * to 1, and the least variance the BIC may assume (0: none)
 */
struct sp_data {
	const double *x;
	const double *w;
	size_t n;
	unsigned d;
	double floor;
};

/* a clustering: k centres, their weights, each point's label */
struct sp_fit {
	unsigned k;
	double *centres;		/* [k * d] */
	double *cw;			/* [k] */
	int *labels;			/* [n] */
	double bic;
	double *sum;			/* [max(k * d, n)]: scratch */
};

/* allocate a fit for k clusters; 0 or -1 */
int sp_fit_alloc(struct sp_fit *f, const struct sp_data *data, unsigned k);
void sp_fit_free(struct sp_fit *f);
/*
 * k-means from @seed's random start (k-means++, or k points drawn
 * uniformly as SimPoint 3.2: @uniform), at most @iters rounds, then its
 * BIC score
 */
void sp_kmeans(const struct sp_data *data, struct sp_fit *f, uint64_t seed, unsigned iters,
	       bool uniform);
/* squared distance between two points of d dimensions */
double sp_dist2(const double *a, const double *b, unsigned d);

#endif /* SREP_SIMPOINT_LOCAL_H */
