/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/simpoint.h - SimPoint-style phase analysis of a sampled profile:
 * the execution cut into intervals of a fixed count of one event, a code
 * signature per interval, k-means over their random projections, and one
 * representative interval per cluster (docs/simpoint.md).
 */
#ifndef SCHEDREP_SIMPOINT_H
#define SCHEDREP_SIMPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/error.h>
#include <schedrep/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- which event counts the execution (simpoint_source.c) ---- */

/**
 * struct srep_simpoint_event - the sampled event intervals are counted in
 * @evsel: its index in the session
 * @name: perf's name ("instructions:u", "cpu-clock")
 * @unit: what one count is: "instructions", "cycles", "ns" (cpu-clock,
 *	task-clock), else "events"
 * @fixed_period: the attr's period when samples do not carry theirs, else 0
 */
struct srep_simpoint_event {
	size_t evsel;
	const char *name;
	const char *unit;
	uint64_t fixed_period;
};

/*
 * The event to count: the one named @name (perf's evsel name, NULL for the
 * first event whose samples have a period, fixed or their own). 0, or
 * SREP_E_UNSUPPORTED naming the trace when no such event exists.
 */
SREP_API int srep_simpoint_event__find(struct srep_simpoint_event *out,
				       const struct srep_session *s, const char *name,
				       struct srep_error *err);
/* the count a sample of that event stands for: its period (0: not of it) */
SREP_API uint64_t srep_simpoint_event__period(const struct srep_simpoint_event *e,
					      const struct srep_event *ev);

/* ---- intervals and their vectors (simpoint_intervals.c) ---- */

struct srep_simpoint;

/* one interval: [start, end) counts of the unit from the first selected sample */
struct srep_simpoint_interval {
	uint64_t start, end;
	uint64_t time_ns;		/* trace time where it starts (interpolated) */
	double samples;			/* samples in it (a split sample counts in part) */
	const int32_t *threads;		/* tids that ran in it, ascending */
	size_t nr_threads;
	const uint32_t *dims;		/* its vector: dimension ids, ascending, */
	const double *counts;		/* and the count of each */
	size_t nr_dims;
	int cluster;			/* after srep_simpoint__cluster(), else -1 */
};

/* at most this many intervals: a damaged period cannot make memory explode */
#define SREP_SIMPOINT_MAX_INTERVALS	(1u << 22)

/* Cut intervals of @interval counts (> 0). 0, or SREP_E_NOMEM / SREP_E_INVAL. */
SREP_API int srep_simpoint__new(struct srep_simpoint **out, uint64_t interval,
				struct srep_error *err);
SREP_API void srep_simpoint__delete(struct srep_simpoint *sp);	/* NULL is fine */

/*
 * One sample in time order: @period counts ending at @time, attributed to
 * the code @key (a function or an address block: any string naming one
 * dimension), split at interval boundaries. 0, or SREP_E_NOMEM, or
 * SREP_E_LIMIT beyond SREP_SIMPOINT_MAX_INTERVALS intervals.
 */
SREP_API int srep_simpoint__add(struct srep_simpoint *sp, uint64_t time, int32_t tid,
				uint64_t period, const char *key, struct srep_error *err);

/*
 * One sample whose count is shared among several pieces of code: @n @keys
 * with @weights (their sizes: the basic blocks of a branch stack), the
 * period split in proportion, exactly (the parts add up to @period). Errors
 * as srep_simpoint__add(), and SREP_E_INVAL when the weights sum to 0.
 */
SREP_API int srep_simpoint__add_parts(struct srep_simpoint *sp, uint64_t time, int32_t tid,
				      uint64_t period, const char *const *keys,
				      const uint64_t *weights, size_t n, struct srep_error *err);

/* after the last sample: close the last interval, however short. 0, or SREP_E_NOMEM */
SREP_API int srep_simpoint__finish(struct srep_simpoint *sp, struct srep_error *err);

SREP_API size_t srep_simpoint__nr_intervals(const struct srep_simpoint *sp);
SREP_API const struct srep_simpoint_interval *srep_simpoint__interval(const struct srep_simpoint *sp,
								      size_t idx);
SREP_API size_t srep_simpoint__nr_dims(const struct srep_simpoint *sp);
SREP_API const char *srep_simpoint__dim_name(const struct srep_simpoint *sp, uint32_t dim);
/* counts added so far */
SREP_API uint64_t srep_simpoint__total(const struct srep_simpoint *sp);

/* ---- clustering (simpoint_cluster.c, simpoint_kmeans.c) ---- */

#define SREP_SIMPOINT_DIMS	15	/* SimPoint 3's projected dimensions */
#define SREP_SIMPOINT_MAX_K	30
#define SREP_SIMPOINT_INITS	5	/* random initialisations per k */
#define SREP_SIMPOINT_ITERS	100	/* k-means iterations at most */

/**
 * struct srep_simpoint_opts - how to cluster
 * @max_k: try k = 1..max_k; 0: SREP_SIMPOINT_MAX_K, or the number of
 *	intervals when there are fewer
 * @bic_threshold: the smallest k whose BIC reaches this fraction of the
 *	span from the worst to the best score (SimPoint's rule; 0.9)
 * @seed: seeds the projection and the initialisations
 * @inits, @iters, @dims: 0 for the defaults above
 * @simpoint32: SimPoint 3.2's method exactly: k uniformly drawn points as
 *	starts (not k-means++) and no sampling-noise floor on the variance
 *	(docs/simpoint.md says why schedrep's default differs)
 */
struct srep_simpoint_opts {
	unsigned max_k;
	double bic_threshold;
	uint64_t seed;
	unsigned inits, iters, dims;
	bool simpoint32;
};

/* one chosen interval: the member of its cluster nearest to the centroid */
struct srep_simpoint_point {
	size_t index;			/* interval */
	int cluster;
	double weight;			/* the cluster's share of the total count */
};

struct srep_simpoint_result {
	unsigned k;			/* chosen */
	unsigned max_k;			/* k tried: 1..max_k */
	double *bic;			/* [max_k]: the best score of each k */
	struct srep_simpoint_point *points;	/* k of them (non-empty clusters), by cluster */
	size_t nr_points;
	double *projection;		/* [nr_dims x dims], row-major: SimPoint's matrix */
	unsigned dims;
	double noise_floor;		/* the variance floor used, 0 with simpoint32 */
};

/*
 * Normalise each interval's vector to sum 1, project it on @dims random
 * directions, run k-means for every k, keep the best of @inits starts by
 * BIC, choose k by the threshold and label every interval. 0, or
 * SREP_E_INVAL naming what is missing (no interval; fewer intervals than
 * max_k), SREP_E_NOMEM. The result is freed by srep_simpoint_result__free().
 */
SREP_API int srep_simpoint__cluster(struct srep_simpoint *sp, const struct srep_simpoint_opts *o,
				    struct srep_simpoint_result *out, struct srep_error *err);
SREP_API void srep_simpoint_result__free(struct srep_simpoint_result *r);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_SIMPOINT_H */
