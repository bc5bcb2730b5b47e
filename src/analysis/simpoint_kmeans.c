// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint_kmeans.c - weighted k-means (Lloyd) from a random start and the
 * Bayesian information criterion of the result, as SimPoint 3 scores it
 * (docs/simpoint.md gives the formula).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simpoint.h"

int sp_fit_alloc(struct sp_fit *f, const struct sp_data *data, unsigned k)
{
	memset(f, 0, sizeof(*f));
	f->k = k;
	f->centres = calloc((size_t)k * data->d, sizeof(*f->centres));
	f->cw = calloc(k, sizeof(*f->cw));
	f->labels = calloc(data->n, sizeof(*f->labels));
	/* scratch for the means, and for the distances while starting */
	f->sum = calloc((size_t)k * data->d > data->n ? (size_t)k * data->d : data->n,
			sizeof(*f->sum));
	if (f->centres && f->cw && f->labels && f->sum)
		return 0;
	sp_fit_free(f);
	return -1;
}

void sp_fit_free(struct sp_fit *f)
{
	free(f->centres);
	free(f->cw);
	free(f->labels);
	free(f->sum);
	memset(f, 0, sizeof(*f));
}

double sp_dist2(const double *a, const double *b, unsigned d)
{
	double s = 0, t;
	unsigned i;

	for (i = 0; i < d; i++) {
		t = a[i] - b[i];
		s += t * t;
	}
	return s;
}

/*
 * The first centres by k-means++ (Arthur and Vassilvitskii): one point at
 * random, then each next one drawn with probability proportional to its
 * squared distance to the nearest centre so far. SimPoint draws all k
 * uniformly; this start lands in a better optimum far more often, which
 * steadies the BIC curve k chooses from. The scratch holds each point's
 * distance to its nearest centre meanwhile.
 */
static void init_centres(const struct sp_data *data, struct sp_fit *f, uint64_t seed)
{
	double *dist = f->sum, total, r, d;
	uint64_t state = seed;
	size_t i, pick = (size_t)(sp_rand_next(&state) % data->n);
	unsigned c;

	for (c = 0; c < f->k; c++) {
		memcpy(f->centres + (size_t)c * data->d, data->x + pick * data->d,
		       data->d * sizeof(double));
		for (total = 0, i = 0; i < data->n; i++) {
			d = sp_dist2(data->x + i * data->d, f->centres + (size_t)c * data->d, data->d);
			dist[i] = !c || d < dist[i] ? d : dist[i];
			total += dist[i] * data->w[i];
		}
		r = sp_rand_unit(&state) * total;
		for (pick = 0, i = 0; i < data->n && total > 0; i++) {
			pick = i;
			r -= dist[i] * data->w[i];
			if (r < 0)
				break;
		}
		if (total <= 0)	/* every point is a centre already: any will do */
			pick = (size_t)(sp_rand_next(&state) % data->n);
	}
}

/*
 * SimPoint 3.2's "samp" start: k points drawn uniformly with its own
 * generator and seed (as it does, maybe twice one)
 */
static void init_uniform(const struct sp_data *data, struct sp_fit *f, uint64_t seed)
{
	struct sp_ran2 g;
	size_t pick;
	unsigned c;

	sp_ran2_seed(&g, (int64_t)seed);
	for (c = 0; c < f->k; c++) {
		pick = (size_t)sp_ran2_int(&g) % data->n;
		memcpy(f->centres + (size_t)c * data->d, data->x + pick * data->d,
		       data->d * sizeof(double));
	}
}

/* each point to its nearest centre; returns how many labels changed */
static size_t assign(const struct sp_data *data, struct sp_fit *f)
{
	size_t i, changed = 0;
	unsigned c, best;
	double d, bd;

	for (i = 0; i < data->n; i++) {
		best = 0;
		bd = sp_dist2(data->x + i * data->d, f->centres, data->d);
		for (c = 1; c < f->k; c++) {
			d = sp_dist2(data->x + i * data->d, f->centres + (size_t)c * data->d, data->d);
			if (d < bd) {
				bd = d;
				best = c;
			}
		}
		changed += f->labels[i] != (int)best;
		f->labels[i] = (int)best;
	}
	return changed;
}

/*
 * centres = weighted means of their points; an empty cluster keeps its
 * centre, or with @origin goes to the origin, as SimPoint 3.2's does
 */
static void update(const struct sp_data *data, struct sp_fit *f, double *sum, bool origin)
{
	size_t i;
	unsigned c, j;
	double *x, w;

	memset(sum, 0, (size_t)f->k * data->d * sizeof(*sum));
	memset(f->cw, 0, f->k * sizeof(*f->cw));
	for (i = 0; i < data->n; i++) {
		c = (unsigned)f->labels[i];
		x = sum + (size_t)c * data->d;
		w = data->w[i];
		for (j = 0; j < data->d; j++)
			x[j] += w * data->x[i * data->d + j];
		f->cw[c] += w;
	}
	for (c = 0; c < f->k; c++)
		if (f->cw[c] > 0 || origin)
			for (j = 0; j < data->d; j++)
				f->centres[(size_t)c * data->d + j] = f->cw[c] > 0 ?
					sum[(size_t)c * data->d + j] / f->cw[c] : 0;
}

/*
 * SimPoint 3's score: the log-likelihood of the points under k spherical
 * Gaussians of one shared variance, mixed in the clusters' weights, minus
 * (number of parameters) / 2 * log(n).
 */
static double bic(const struct sp_data *data, const struct sp_fit *f)
{
	double dist = 0, wsum = 0, like, sigma2, params;
	size_t i;

	for (i = 0; i < data->n; i++) {
		dist += data->w[i] * sp_dist2(data->x + i * data->d,
					      f->centres + (size_t)f->labels[i] * data->d, data->d);
		wsum += data->w[i];
	}
	dist /= wsum / (double)data->n;
	/* identical points fit exactly: a floor keeps the score finite, so that
	   the threshold between the worst and the best k stays a number; the
	   sampling noise floor (simpoint_cluster.c) is the usual one */
	sigma2 = fmax(dist / ((double)data->d * (double)data->n), fmax(data->floor, 1e-300));
	like = -(double)data->d * (log(2.0 * M_PI * sigma2) + 1.0) / 2.0 - log(wsum);
	for (i = 0; i < data->n; i++)
		if (f->cw[f->labels[i]] > 0)
			like += log(f->cw[f->labels[i]]) * data->w[i] / wsum;
	like *= (double)data->n;
	params = (double)(f->k - 1) + (double)f->k * data->d + 1.0;
	return like - params / 2.0 * log((double)data->n);
}

void sp_kmeans(const struct sp_data *data, struct sp_fit *f, uint64_t seed, unsigned iters,
	       bool uniform)
{
	unsigned it;

	if (uniform)
		init_uniform(data, f, seed);
	else
		init_centres(data, f, seed);
	memset(f->labels, 0xff, data->n * sizeof(*f->labels));
	for (it = 0; it < iters; it++) {
		if (!assign(data, f))
			break;
		update(data, f, f->sum, uniform);
	}
	if (it == iters)
		assign(data, f);
	update(data, f, f->sum, uniform);
	f->bic = bic(data, f);
}
