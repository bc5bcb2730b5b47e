// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint_cluster.c - SimPoint 3's choice of representative intervals:
 * vectors normalised and randomly projected, k-means for every k with
 * several starts, k chosen by BIC, one interval per cluster.
 */
#include <float.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/simpoint.h>
#include "simpoint.h"

/* the options with their defaults filled in, checked against @n intervals */
static int settle_opts(const struct srep_simpoint_opts *o, size_t n, struct srep_simpoint_opts *out,
		       struct srep_error *err)
{
	*out = *o;
	if (!out->dims)
		out->dims = SREP_SIMPOINT_DIMS;
	if (!out->inits)
		out->inits = SREP_SIMPOINT_INITS;
	if (!out->iters)
		out->iters = SREP_SIMPOINT_ITERS;
	if (!n)
		return srep_error__set(err, SREP_E_INVAL, "no interval: no selected sample has a period");
	if (!out->max_k)
		out->max_k = n < SREP_SIMPOINT_MAX_K ? (unsigned)n : SREP_SIMPOINT_MAX_K;
	if (n < out->max_k)
		return srep_error__set(err, SREP_E_INVAL, "%zu intervals, fewer than the %u clusters "
				       "asked for: use a smaller interval or --max-k", n, out->max_k);
	if (!(out->bic_threshold >= 0 && out->bic_threshold <= 1))
		return srep_error__set(err, SREP_E_INVAL, "the BIC threshold must be within 0..1");
	return 0;
}

/* SimPoint's projection: every original dimension a random row in [-1, 1] */
static double *projection(size_t nr_dims, unsigned dims, uint64_t seed)
{
	double *p = malloc((nr_dims ? nr_dims : 1) * dims * sizeof(*p));
	uint64_t state = seed;
	size_t i;

	for (i = 0; p && i < nr_dims * dims; i++)
		p[i] = sp_rand_unit(&state) * 2.0 - 1.0;
	return p;
}

/* each interval's vector divided by its sum, projected; its weight its share of @total */
static void project(const struct srep_simpoint *sp, const double *proj, unsigned dims,
		    double *x, double *w)
{
	const struct srep_simpoint_interval *iv;
	double sum, v;
	size_t i, j;
	unsigned c;

	for (i = 0; i < sp->nr_iv; i++) {
		iv = &sp->iv[i].pub;
		sum = 0;
		for (j = 0; j < iv->nr_dims; j++)
			sum += iv->counts[j];
		memset(x + i * dims, 0, dims * sizeof(*x));
		for (j = 0; j < iv->nr_dims && sum > 0; j++) {
			v = iv->counts[j] / sum;
			for (c = 0; c < dims; c++)
				x[i * dims + c] += v * proj[(size_t)iv->dims[j] * dims + c];
		}
		w[i] = (double)(iv->end - iv->start) / (double)sp->pos;
	}
}

/*
 * The variance sampling alone puts into a projected coordinate. An
 * interval's vector is its N samples' shares: share j varies by
 * p(1-p)/(N-1) around the true one (binomial, estimated from the shares
 * seen), and coordinate c sums them weighted by proj[j][c]^2 (the small
 * covariances of a multinomial left out). Averaged over intervals and
 * coordinates. SimPoint's BIC, made for exact basic-block vectors, takes
 * any lower distortion as a better fit; with sampled vectors, intervals
 * of one phase differ by this noise (many are even identical, a few
 * samples apart), and splitting the phase along it scores better without
 * being a phase: the floor stops that.
 */
static double noise_floor(const struct srep_simpoint *sp, const double *proj, unsigned dims)
{
	const struct srep_simpoint_interval *iv;
	double acc = 0, sum, p, row;
	size_t i, j;
	unsigned c;

	for (i = 0; i < sp->nr_iv; i++) {
		iv = &sp->iv[i].pub;
		for (sum = 0, j = 0; j < iv->nr_dims; j++)
			sum += iv->counts[j];
		for (j = 0; j < iv->nr_dims && iv->samples > 1; j++) {
			p = iv->counts[j] / sum;
			for (row = 0, c = 0; c < dims; c++)
				row += proj[(size_t)iv->dims[j] * dims + c] * proj[(size_t)iv->dims[j] * dims + c];
			acc += row * p * (1 - p) / (iv->samples - 1);
		}
	}
	return acc / ((double)sp->nr_iv * dims);
}

/*
 * The seed of start @init for @k: distinct streams from one user seed; with
 * --simpoint32, SimPoint 3.2's own for k = 1, 2, ... in order: it adds the
 * trial's number to a seed that also grows by one after every trial
 */
static uint64_t init_seed(const struct srep_simpoint_opts *o, unsigned k, unsigned init)
{
	uint64_t s = o->seed ^ ((uint64_t)k << 32 | init);

	if (o->simpoint32)
		return SP_SIMPOINT32_SEEDKM + (uint64_t)(k - 1) * o->inits + 2u * init;
	return sp_rand_next(&s);
}

/* the best of o->inits starts for each k into fits[k - 1] */
static int fit_all(const struct sp_data *data, const struct srep_simpoint_opts *o,
		   struct sp_fit *fits)
{
	struct sp_fit trial;
	unsigned k, i;

	for (k = 1; k <= o->max_k; k++) {
		if (sp_fit_alloc(&fits[k - 1], data, k) || sp_fit_alloc(&trial, data, k))
			return -1;
		for (i = 0; i < o->inits; i++) {
			sp_kmeans(data, &trial, init_seed(o, k, i), o->iters, o->simpoint32);
			if (!i || trial.bic > fits[k - 1].bic) {
				struct sp_fit t = fits[k - 1];

				fits[k - 1] = trial;
				trial = t;
			}
		}
		sp_fit_free(&trial);
	}
	return 0;
}

/* SimPoint's rule: the smallest k scoring at least threshold of the way from worst to best */
static unsigned choose_k(const double *bic, unsigned max_k, double threshold)
{
	double lo = bic[0], hi = bic[0], cut;
	unsigned k;

	for (k = 1; k < max_k; k++) {
		lo = bic[k] < lo ? bic[k] : lo;
		hi = bic[k] > hi ? bic[k] : hi;
	}
	cut = lo + (hi - lo) * threshold;
	for (k = 0; k < max_k; k++)
		if (bic[k] >= cut)
			break;
	return k + 1;
}

/*
 * Label every interval with its nearest centre, clusters renumbered in the
 * order they first appear; per cluster the interval nearest to its centre
 * (the first on a tie) and the weight of its members.
 */
static int pick_points(struct srep_simpoint *sp, const struct sp_data *data, const struct sp_fit *f,
		       struct srep_simpoint_result *r)
{
	int *renum = malloc(f->k * sizeof(*renum));
	double *best = malloc(f->k * sizeof(*best)), d, bd;
	unsigned c, bc, used = 0;
	size_t i;

	r->points = calloc(f->k, sizeof(*r->points));
	if (!renum || !best || !r->points) {
		free(renum);
		free(best);
		return -1;
	}
	for (c = 0; c < f->k; c++)
		renum[c] = -1;
	for (i = 0; i < data->n; i++) {
		bc = 0;
		bd = DBL_MAX;
		for (c = 0; c < f->k; c++) {
			d = sp_dist2(data->x + i * data->d, f->centres + (size_t)c * data->d, data->d);
			if (d < bd) {
				bd = d;
				bc = c;
			}
		}
		if (renum[bc] < 0) {
			renum[bc] = (int)used;
			r->points[used] = (struct srep_simpoint_point){ i, (int)used, 0 };
			best[used++] = bd;
		}
		c = (unsigned)renum[bc];
		sp->iv[i].pub.cluster = (int)c;
		r->points[c].weight += data->w[i];
		if (bd < best[c]) {
			best[c] = bd;
			r->points[c].index = i;
		}
	}
	r->nr_points = used;
	r->k = f->k;
	free(renum);
	free(best);
	return 0;
}

/* projected data and all fits made, k chosen, points picked */
static int run(struct srep_simpoint *sp, const struct srep_simpoint_opts *o, double *x, double *w,
	       struct sp_fit *fits, struct srep_simpoint_result *r)
{
	struct sp_data data = { x, w, sp->nr_iv, o->dims, 0 };
	unsigned k;

	project(sp, r->projection, o->dims, x, w);
	if (!o->simpoint32)
		data.floor = noise_floor(sp, r->projection, o->dims);
	r->noise_floor = data.floor;
	if (fit_all(&data, o, fits))
		return -1;
	for (k = 0; k < o->max_k; k++)
		r->bic[k] = fits[k].bic;
	k = choose_k(r->bic, o->max_k, o->bic_threshold);
	return pick_points(sp, &data, &fits[k - 1], r);
}

int srep_simpoint__cluster(struct srep_simpoint *sp, const struct srep_simpoint_opts *opts,
			   struct srep_simpoint_result *out, struct srep_error *err)
{
	struct srep_simpoint_opts o;
	struct sp_fit *fits = NULL;
	double *x = NULL, *w = NULL;
	unsigned k;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = settle_opts(opts, sp->nr_iv, &o, err);
	if (ret)
		return ret;
	out->max_k = o.max_k;
	out->dims = o.dims;
	out->bic = calloc(o.max_k, sizeof(*out->bic));
	out->projection = projection(sp->nr_names, o.dims, o.seed);
	fits = calloc(o.max_k, sizeof(*fits));
	x = malloc(sp->nr_iv * o.dims * sizeof(*x));
	w = malloc(sp->nr_iv * sizeof(*w));
	if (!out->bic || !out->projection || !fits || !x || !w || run(sp, &o, x, w, fits, out)) {
		srep_simpoint_result__free(out);
		ret = srep_error__set(err, SREP_E_NOMEM, "no memory to cluster %zu intervals",
				      sp->nr_iv);
	}
	for (k = 0; fits && k < o.max_k; k++)
		sp_fit_free(&fits[k]);
	free(fits);
	free(x);
	free(w);
	return ret;
}

void srep_simpoint_result__free(struct srep_simpoint_result *r)
{
	free(r->bic);
	free(r->points);
	free(r->projection);
	memset(r, 0, sizeof(*r));
}
