// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runs.c - compare several runs of a workload on board A with several on
 * board B: per metric (whole workload, and per comm present in every run)
 * the median, min and max of each side and an exact two-sided Mann-Whitney
 * U test, so that a difference counts only when it exceeds the noise
 * between runs of the same board (docs/compare.md).
 *
 * The test is small enough to write here: the exact null distribution of
 * the rank sum, ties mid-ranked, counted by dynamic programming over the
 * pooled values (at most SREP_RUNS_MAX per side), no library needed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>

/* one metric of one group, its value in each run of each side */
struct series {
	char *group;
	const char *metric;		/* a string literal */
	enum srep_unit unit;
	double v[2][SREP_RUNS_MAX];
	size_t n[2];
};

struct srep_runs {
	struct series *series;
	size_t nr_series;
	size_t runs[2];
	struct srep_runs_stat *stats;
	size_t nr_stats, nr_significant;
};

/* ---- the test ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* twice the mid-rank of each pooled value (integers: ranks of ties end in .5) */
static void doubled_ranks(const double *pool, size_t n, long *rank2)
{
	double sorted[2 * SREP_RUNS_MAX];
	size_t i, lo, hi;

	memcpy(sorted, pool, n * sizeof(*pool));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (i = 0; i < n; i++) {
		for (lo = 0; lo < n && sorted[lo] < pool[i]; lo++)
			;
		for (hi = lo; hi < n && sorted[hi] == pool[i]; hi++)
			;
		rank2[i] = (long)(lo + 1 + hi);	/* (lo+1 + hi) / 2, doubled */
	}
}

/*
 * ways[k][s]: subsets of k of the pooled values whose doubled ranks sum to s.
 * The doubled rank sum is at most 2 * n * n; n <= 2 * SREP_RUNS_MAX.
 */
#define MAX_SUM (2 * (2 * SREP_RUNS_MAX) * (2 * SREP_RUNS_MAX) + 1)

int srep_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
		      double *p, struct srep_error *err)
{
	static const size_t cap = SREP_RUNS_MAX;
	double pool[2 * SREP_RUNS_MAX], (*ways)[MAX_SUM], total = 0, extreme = 0;
	long rank2[2 * SREP_RUNS_MAX], w = 0, centre, dev;
	size_t n = na + nb, i, k, s;

	if (!na || !nb || na > cap || nb > cap)
		return srep_error__set(err, SREP_E_INVAL, "the exact test takes 1 to %zu runs per "
				       "side, not %zu and %zu", cap, na, nb);
	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	doubled_ranks(pool, n, rank2);
	for (i = 0; i < na; i++)
		w += rank2[i];
	ways = calloc(na + 1, sizeof(*ways));
	if (!ways)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the exact test");
	ways[0][0] = 1;
	for (i = 0; i < n; i++)		/* each value in A or not; k downwards: used once */
		for (k = i + 1 < na ? i + 1 : na; k >= 1; k--)
			for (s = (size_t)rank2[i]; s < MAX_SUM; s++)
				ways[k][s] += ways[k - 1][s - (size_t)rank2[i]];
	/* the rank sum's mean, doubled: na * (n + 1); two-sided: as far from it or farther */
	centre = (long)(na * (n + 1));
	dev = labs(w - centre);
	for (s = 0; s < MAX_SUM; s++) {
		total += ways[na][s];
		if (labs((long)s - centre) >= dev)
			extreme += ways[na][s];
	}
	free(ways);
	*u = (double)w / 2 - (double)(na * (na + 1)) / 2;
	*p = extreme / total;
	return 0;
}

double srep_mann_whitney__min_p(size_t na, size_t nb)
{
	double c = 1;
	size_t i;

	/* C(na + nb, na): the two most extreme splits of distinct values */
	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return c > 2 ? 2 / c : 1;
}

/* ---- the runs' values ---- */

int srep_runs__new(struct srep_runs **out, struct srep_error *err)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory for the runs");
}

void srep_runs__delete(struct srep_runs *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_series; i++)
		free(r->series[i].group);
	free(r->series);
	free(r->stats);
	free(r);
}

static struct series *find_series(struct srep_runs *r, const char *group, const char *metric,
				  enum srep_unit unit)
{
	struct series *s;
	size_t i;

	for (i = 0; i < r->nr_series; i++) {
		s = &r->series[i];
		if (s->metric == metric && !strcmp(s->group, group))
			return s;
	}
	s = realloc(r->series, (r->nr_series + 1) * sizeof(*s));
	if (!s)
		return NULL;
	r->series = s;
	s = &r->series[r->nr_series];
	memset(s, 0, sizeof(*s));
	s->group = strdup(group);
	if (!s->group)
		return NULL;
	s->metric = metric;
	s->unit = unit;
	r->nr_series++;
	return s;
}

/* the value of run r->runs[side] (the one being added) */
static int put(struct srep_runs *r, int side, const char *group, const char *metric,
	       enum srep_unit unit, double v)
{
	struct series *s = find_series(r, group, metric, unit);

	if (!s)
		return -1;
	/* a value for every earlier run: else a hole, and the series is left out */
	if (s->n[side] == r->runs[side])
		s->v[side][s->n[side]++] = v;
	return 0;
}

static int put_workload(struct srep_runs *r, int side, const struct srep_compare_side *run)
{
	struct srep_workload_metrics w;
	double sc = run->scale;

	srep_metrics__workload(run->metrics, run->sel, &w);
	return put(r, side, "workload", "makespan", SREP_UNIT_NS, (double)w.makespan_ns * sc) ||
	       put(r, side, "workload", "cpu_time", SREP_UNIT_NS, (double)w.cpu_ns * sc) ||
	       put(r, side, "workload", "switches", SREP_UNIT_COUNT, (double)w.switches) ||
	       put(r, side, "workload", "tasks", SREP_UNIT_COUNT, (double)w.nr_tasks);
}

static int put_comm(struct srep_runs *r, int side, const char *comm, double sc,
		    const struct srep_task_metrics *t)
{
	return put(r, side, comm, "cpu_time", SREP_UNIT_NS, (double)t->cpu_ns * sc) ||
	       put(r, side, comm, "wait_p50", SREP_UNIT_NS, (double)t->wait_p50_ns * sc) ||
	       put(r, side, comm, "wait_p95", SREP_UNIT_NS, (double)t->wait_p95_ns * sc) ||
	       put(r, side, comm, "wait_max", SREP_UNIT_NS, (double)t->wait_max_ns * sc) ||
	       put(r, side, comm, "sleep", SREP_UNIT_NS, (double)(t->sleep_s_ns + t->sleep_d_ns) * sc) ||
	       put(r, side, comm, "switches", SREP_UNIT_COUNT,
		   (double)(t->switches_voluntary + t->switches_involuntary)) ||
	       put(r, side, comm, "migrations", SREP_UNIT_COUNT, (double)t->migrations) ||
	       put(r, side, comm, "tasks", SREP_UNIT_COUNT, (double)t->nr_tasks);
}

static int cmp_task_comm(const void *a, const void *b)
{
	return strcmp(srep_task__comm(*(const struct srep_task *const *)a),
		      srep_task__comm(*(const struct srep_task *const *)b));
}

/* the selected tasks (the idle task aside) grouped by their last comm */
static int put_comms(struct srep_runs *r, int side, const struct srep_compare_side *run)
{
	size_t n = srep_session__nr_tasks(run->session), nr = 0, i, j;
	const struct srep_task **tasks = calloc(n ? n : 1, sizeof(*tasks));
	struct srep_task_metrics tm;
	int ret = tasks ? 0 : -1;

	for (i = 0; !ret && i < n; i++) {
		const struct srep_task *t = srep_session__task(run->session, i);

		if (srep_task__tid(t) && (!run->sel || srep_selection__has_task(run->sel, t)))
			tasks[nr++] = t;
	}
	if (!ret)
		qsort(tasks, nr, sizeof(*tasks), cmp_task_comm);
	for (i = 0; !ret && i < nr; i = j) {
		for (j = i + 1; j < nr && !cmp_task_comm(&tasks[i], &tasks[j]); j++)
			;
		ret = srep_metrics__tasks(run->metrics, tasks + i, j - i, &tm) ||
		      put_comm(r, side, srep_task__comm(tasks[i]), run->scale, &tm) ? -1 : 0;
	}
	free(tasks);
	return ret;
}

int srep_runs__add(struct srep_runs *r, int side, const struct srep_compare_side *run,
		   struct srep_error *err)
{
	if (side < 0 || side > 1 || r->runs[side] >= SREP_RUNS_MAX)
		return srep_error__set(err, SREP_E_INVAL, "at most %d runs per side",
				       SREP_RUNS_MAX);
	if (put_workload(r, side, run) || put_comms(r, side, run))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the runs' figures");
	r->runs[side]++;
	return 0;
}

/* ---- the statistics ---- */

static double median(const double *v, size_t n)
{
	double s[SREP_RUNS_MAX];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void spread(const double *v, size_t n, double *lo, double *hi)
{
	size_t i;

	*lo = *hi = v[0];
	for (i = 1; i < n; i++) {
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
	}
}

static int stat_of(const struct series *s, struct srep_runs_stat *st, struct srep_error *err)
{
	int k;

	memset(st, 0, sizeof(*st));
	st->group = s->group;
	st->metric = s->metric;
	st->unit = s->unit;
	for (k = 0; k < 2; k++) {
		st->values[k] = s->v[k];
		st->n[k] = s->n[k];
		st->median[k] = median(s->v[k], s->n[k]);
		spread(s->v[k], s->n[k], &st->min[k], &st->max[k]);
	}
	st->diff = st->median[1] - st->median[0];
	if (srep_mann_whitney(s->v[0], s->n[0], s->v[1], s->n[1], &st->u, &st->p, err))
		return -1;
	st->significant = st->p <= SREP_RUNS_ALPHA;
	return 0;
}

/* significant first; then durations before counts, largest |B-A| of the medians first */
static int cmp_stat(const void *x, const void *y)
{
	const struct srep_runs_stat *a = x, *b = y;
	double da = fabs(a->diff), db = fabs(b->diff);

	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	if ((a->unit == SREP_UNIT_NS) != (b->unit == SREP_UNIT_NS))
		return a->unit == SREP_UNIT_NS ? -1 : 1;
	if (!strcmp(a->group, "workload") != !strcmp(b->group, "workload"))
		return !strcmp(a->group, "workload") ? -1 : 1;
	return da > db ? -1 : da < db;
}

static bool all_zero(const struct series *s)
{
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < s->n[k]; i++)
			if (s->v[k][i] != 0)
				return false;
	return true;
}

int srep_runs__finish(struct srep_runs *r, struct srep_error *err)
{
	size_t i;

	if (!r->runs[0] || !r->runs[1])
		return srep_error__set(err, SREP_E_INVAL, "no run on one side");
	r->stats = calloc(r->nr_series ? r->nr_series : 1, sizeof(*r->stats));
	if (!r->stats)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the runs' statistics");
	for (i = 0; i < r->nr_series; i++) {
		const struct series *s = &r->series[i];

		/* a comm missing from a run has no series to compare; zeros everywhere, nothing */
		if (s->n[0] != r->runs[0] || s->n[1] != r->runs[1] || all_zero(s))
			continue;
		if (stat_of(s, &r->stats[r->nr_stats], err))
			return err->code;
		r->nr_significant += r->stats[r->nr_stats++].significant;
	}
	qsort(r->stats, r->nr_stats, sizeof(*r->stats), cmp_stat);
	return 0;
}

const struct srep_runs_stat *srep_runs__stats(const struct srep_runs *r, size_t *nr)
{
	*nr = r->nr_stats;
	return r->stats;
}

size_t srep_runs__nr_runs(const struct srep_runs *r, int side)
{
	return side == 0 || side == 1 ? r->runs[side] : 0;
}

size_t srep_runs__nr_significant(const struct srep_runs *r)
{
	return r->nr_significant;
}

size_t srep_runs__nr_partial(const struct srep_runs *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_series; i++)
		n += r->series[i].n[0] != r->runs[0] || r->series[i].n[1] != r->runs[1];
	return n;
}
