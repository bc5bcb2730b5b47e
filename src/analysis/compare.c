// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - the comparison of two traces: tasks paired (match.c), each
 * side's metrics (metrics.c) scaled, and for every figure A, B, B-A, B/A,
 * how wide the difference is and whether it is significant (thresholds in
 * schedrep.h, explained in docs/compare.md). Text, JSON and HTML output
 * all read the same rows. Per pair, where its tasks blocked on each side
 * (the sites of srep_metrics__blocking), one row per site.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>

#define NR_TASK_DIFFS 12
#define NR_WORKLOAD_DIFFS 5
#define NR_CPU_FIXED 3

struct srep_compare {
	struct srep_matching *mt;
	struct srep_diff workload[NR_WORKLOAD_DIFFS];
	size_t nr_cpus;
	struct srep_diff **cpu;		/* per CPU: fixed diffs then one per frequency */
	size_t *cpu_nr;
	char **names;			/* "freq_<kHz>" metric names */
	size_t nr_names;
	struct srep_diff *pair;		/* nr_pairs x NR_TASK_DIFFS */
	struct srep_task_metrics *pm;	/* nr_pairs x 2 */
	struct srep_block_row **blk;	/* per pair: where its tasks blocked */
	size_t *nr_blk, nr_pairs;
	struct srep_compare_row *rows;
	size_t nr_rows, nr_significant;
};

static double floor_of(enum srep_unit unit)
{
	return unit == SREP_UNIT_NS ? SREP_SIGNIFICANT_NS :
	       unit == SREP_UNIT_COUNT ? SREP_SIGNIFICANT_COUNT : SREP_SIGNIFICANT_PERCENT;
}

void srep_diff__set(struct srep_diff *d, const char *metric, enum srep_unit unit, double a,
		    double b)
{
	double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	d->metric = metric;
	d->unit = unit;
	d->a = a;
	d->b = b;
	d->diff = b - a;
	d->ratio = a != 0 ? b / a : NAN;
	d->width = big > 0 ? fabs(b - a) / big : 0;
	d->significant = big > 0 && fabs(b - a) >= SREP_SIGNIFICANT_REL * big &&
			 fabs(b - a) >= floor_of(unit);
}

/* ---- per task ---- */

static double mean_wait(const struct srep_task_metrics *t)
{
	return t->wait_count ? (double)t->wait_total_ns / (double)t->wait_count : 0;
}

static double lifetime(const struct srep_task_metrics *t)
{
	return t->end > t->start ? (double)(t->end - t->start) : 0;
}

static void task_diffs(struct srep_diff *d, const struct srep_task_metrics *a, double sa,
		       const struct srep_task_metrics *b, double sb)
{
#define NS(name, field) srep_diff__set(d++, name, SREP_UNIT_NS, (double)a->field * sa, \
				       (double)b->field * sb)
#define COUNT(name, field) srep_diff__set(d++, name, SREP_UNIT_COUNT, (double)a->field, \
					  (double)b->field)
	NS("cpu_time", cpu_ns);
	COUNT("switches_voluntary", switches_voluntary);
	COUNT("switches_involuntary", switches_involuntary);
	srep_diff__set(d++, "wait_mean", SREP_UNIT_NS, mean_wait(a) * sa, mean_wait(b) * sb);
	NS("wait_p50", wait_p50_ns);
	NS("wait_p95", wait_p95_ns);
	NS("wait_max", wait_max_ns);
	NS("sleep_s", sleep_s_ns);
	NS("sleep_d", sleep_d_ns);
	COUNT("migrations", migrations);
	srep_diff__set(d++, "lifetime", SREP_UNIT_NS, lifetime(a) * sa, lifetime(b) * sb);
	NS("wait_total", wait_total_ns);	/* last: the HTML report indexes the others */
#undef NS
#undef COUNT
}

/* ---- where tasks block ---- */

static bool same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int cmp_name(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a == NULL) - (b == NULL);
}

static int by_blocked(const void *x, const void *y)
{
	const struct srep_block_row *a = x, *b = y;
	double ma = fmax(a->blocked.a, a->blocked.b), mb = fmax(b->blocked.a, b->blocked.b);
	int c;

	if (ma != mb)
		return ma > mb ? -1 : 1;
	c = cmp_name(a->kernel, b->kernel);
	return c ? c : cmp_name(a->user, b->user);
}

/* one side's sites of a pair, all of them (malloc'd); NULL when out of memory */
static struct srep_block_site *sites_of(const struct srep_metrics *m,
					const struct srep_task *const *tasks, size_t nr, size_t *n)
{
	struct srep_block_site *v;

	*n = srep_metrics__blocking(m, tasks, nr, NULL, 0);
	if (*n == (size_t)-1)
		return NULL;
	v = malloc((*n ? *n : 1) * sizeof(*v));
	if (v && srep_metrics__blocking(m, tasks, nr, v, *n) == (size_t)-1) {
		free(v);
		v = NULL;
	}
	return v;
}

/* rows from both sides' sites: A's, then B's added to A's row of the same names */
static int block_rows(struct srep_compare *c, const struct srep_compare_side *side[2],
		      size_t pair, struct srep_block_site *s[2], const size_t n[2])
{
	struct srep_block_row *rows = calloc(n[0] + n[1] + 1, sizeof(*rows));
	uint64_t *ns = calloc(2 * (n[0] + n[1]) + 2, sizeof(*ns));
	size_t nr = 0, i, j;
	int k;

	if (!rows || !ns) {
		free(rows);
		free(ns);
		return SREP_E_NOMEM;
	}
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n[k]; i++) {
			for (j = 0; k && j < nr && !(same_name(rows[j].kernel, s[k][i].kernel) &&
						     same_name(rows[j].user, s[k][i].user)); j++)
				;
			if (!k || j == nr) {
				j = nr++;
				rows[j].kernel = s[k][i].kernel;
				rows[j].user = s[k][i].user;
			}
			rows[j].count[k] = s[k][i].count;
			ns[2 * j + k] = s[k][i].ns;
		}
	}
	for (j = 0; j < nr; j++)
		srep_diff__set(&rows[j].blocked, "blocked", SREP_UNIT_NS,
			       (double)ns[2 * j] * side[0]->scale, (double)ns[2 * j + 1] * side[1]->scale);
	qsort(rows, nr, sizeof(*rows), by_blocked);
	free(ns);
	c->blk[pair] = rows;
	c->nr_blk[pair] = nr;
	return 0;
}

static int pair_blocking(struct srep_compare *c, const struct srep_compare_side *side[2],
			 size_t pair)
{
	struct srep_block_site *s[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	int k, ret = 0;

	for (k = 0; k < 2 && !ret; k++) {
		const struct srep_task *const *tasks;
		size_t nr = srep_matching__pair(c->mt, pair, k, &tasks);

		s[k] = sites_of(side[k]->metrics, tasks, nr, &n[k]);
		ret = s[k] ? 0 : SREP_E_NOMEM;
	}
	if (!ret)
		ret = block_rows(c, side, pair, s, n);
	free(s[0]);
	free(s[1]);
	return ret;
}

static int compare_pairs(struct srep_compare *c, const struct srep_compare_side *side[2])
{
	size_t n = srep_matching__nr_pairs(c->mt), i;
	int k, ret;

	c->pair = calloc(n ? n * NR_TASK_DIFFS : 1, sizeof(*c->pair));
	c->pm = calloc(n ? 2 * n : 1, sizeof(*c->pm));
	c->blk = calloc(n ? n : 1, sizeof(*c->blk));
	c->nr_blk = calloc(n ? n : 1, sizeof(*c->nr_blk));
	if (!c->pair || !c->pm || !c->blk || !c->nr_blk)
		return SREP_E_NOMEM;
	c->nr_pairs = n;
	for (i = 0; i < n; i++) {
		for (k = 0; k < 2; k++) {
			const struct srep_task *const *tasks;
			size_t nr = srep_matching__pair(c->mt, i, k, &tasks);

			ret = srep_metrics__tasks(side[k]->metrics, tasks, nr, &c->pm[2 * i + k]);
			if (ret)
				return ret;
		}
		task_diffs(&c->pair[i * NR_TASK_DIFFS], &c->pm[2 * i], side[0]->scale,
			   &c->pm[2 * i + 1], side[1]->scale);
		ret = pair_blocking(c, side, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- whole workload ---- */

static void compare_workload(struct srep_compare *c, const struct srep_compare_side *side[2])
{
	struct srep_workload_metrics w[2];
	struct srep_diff *d = c->workload;
	int k;

	for (k = 0; k < 2; k++)
		srep_metrics__workload(side[k]->metrics, side[k]->sel, &w[k]);
	srep_diff__set(d++, "makespan", SREP_UNIT_NS, (double)w[0].makespan_ns * side[0]->scale,
		       (double)w[1].makespan_ns * side[1]->scale);
	srep_diff__set(d++, "cpu_time", SREP_UNIT_NS, (double)w[0].cpu_ns * side[0]->scale,
		       (double)w[1].cpu_ns * side[1]->scale);
	srep_diff__set(d++, "switches", SREP_UNIT_COUNT, (double)w[0].switches,
		       (double)w[1].switches);
	srep_diff__set(d++, "tasks", SREP_UNIT_COUNT, (double)w[0].nr_tasks, (double)w[1].nr_tasks);
	srep_diff__set(d++, "lost", SREP_UNIT_COUNT, (double)w[0].lost, (double)w[1].lost);
}

/* ---- per CPU ---- */

static const char *freq_name(struct srep_compare *c, uint64_t khz)
{
	char **n = realloc(c->names, (c->nr_names + 1) * sizeof(*n));

	if (!n)
		return NULL;
	c->names = n;
	if (asprintf(&n[c->nr_names], "freq_%llukhz", (unsigned long long)khz) < 0)
		return NULL;
	return n[c->nr_names++];
}

static double freq_share(const struct srep_metrics *m, int32_t cpu, uint64_t khz)
{
	struct srep_cpu_metrics cm;
	uint64_t f, ns, total = 0, at = 0;
	size_t i;

	if (srep_metrics__cpu(m, cpu, &cm))
		return 0;
	for (i = 0; i < cm.nr_freqs && !srep_metrics__cpu_freq(m, cpu, i, &f, &ns); i++) {
		total += ns;
		at += f == khz ? ns : 0;
	}
	return total ? 100.0 * (double)at / (double)total : 0;
}

/* the union of both sides' frequencies of a CPU, ascending */
static size_t freq_union(const struct srep_compare_side *side[2], int32_t cpu, uint64_t *out,
			 size_t max)
{
	struct srep_cpu_metrics cm;
	uint64_t khz = 0, ns = 0;
	size_t n = 0, i, j;
	int k;

	for (k = 0; k < 2; k++) {
		srep_metrics__cpu(side[k]->metrics, cpu, &cm);
		for (i = 0; i < cm.nr_freqs; i++) {
			srep_metrics__cpu_freq(side[k]->metrics, cpu, i, &khz, &ns);
			for (j = 0; j < n && out[j] < khz; j++)
				;
			if ((j < n && out[j] == khz) || n == max)
				continue;
			memmove(&out[j + 1], &out[j], (n - j) * sizeof(*out));
			out[j] = khz;
			n++;
		}
	}
	return n;
}

static double utilisation(const struct srep_cpu_metrics *m)
{
	uint64_t span = m->busy_ns + m->idle_ns + m->unknown_ns;

	return span ? 100.0 * (double)m->busy_ns / (double)span : 0;
}

static int compare_cpu(struct srep_compare *c, const struct srep_compare_side *side[2],
		       size_t cpu)
{
	uint64_t freqs[128];
	struct srep_cpu_metrics m[2];
	size_t nf = freq_union(side, (int32_t)cpu, freqs, 128), i;
	struct srep_diff *d = calloc(NR_CPU_FIXED + nf, sizeof(*d));
	int k;

	if (!d)
		return SREP_E_NOMEM;
	c->cpu[cpu] = d;
	c->cpu_nr[cpu] = NR_CPU_FIXED + nf;
	for (k = 0; k < 2; k++)
		srep_metrics__cpu(side[k]->metrics, (int32_t)cpu, &m[k]);
	srep_diff__set(d++, "busy", SREP_UNIT_NS, (double)m[0].busy_ns * side[0]->scale,
		       (double)m[1].busy_ns * side[1]->scale);
	srep_diff__set(d++, "idle", SREP_UNIT_NS, (double)m[0].idle_ns * side[0]->scale,
		       (double)m[1].idle_ns * side[1]->scale);
	srep_diff__set(d++, "utilisation", SREP_UNIT_PERCENT, utilisation(&m[0]),
		       utilisation(&m[1]));
	for (i = 0; i < nf; i++) {
		const char *name = freq_name(c, freqs[i]);

		if (!name)
			return SREP_E_NOMEM;
		srep_diff__set(d++, name, SREP_UNIT_PERCENT,
			       freq_share(side[0]->metrics, (int32_t)cpu, freqs[i]),
			       freq_share(side[1]->metrics, (int32_t)cpu, freqs[i]));
	}
	return 0;
}

static int compare_cpus(struct srep_compare *c, const struct srep_compare_side *side[2])
{
	size_t na = srep_metrics__nr_cpus(side[0]->metrics);
	size_t nb = srep_metrics__nr_cpus(side[1]->metrics), i;
	int ret;

	c->nr_cpus = na > nb ? na : nb;
	c->cpu = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*c->cpu));
	c->cpu_nr = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*c->cpu_nr));
	if (!c->cpu || !c->cpu_nr)
		return SREP_E_NOMEM;
	for (i = 0; i < c->nr_cpus; i++) {
		ret = compare_cpu(c, side, i);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * ---- rows, by impact on the workload ----
 * Significant rows first; among them time differences (durations) before
 * counts and shares, since a 150 ms longer wait matters more than 0 vs 3
 * migrations; durations by absolute difference, largest first; counts and
 * shares by width, widest first.
 */
static int by_size(double x, double y)
{
	return x != y ? (x > y ? -1 : 1) : 0;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct srep_diff *a = ((const struct srep_compare_row *)x)->diff;
	const struct srep_diff *b = ((const struct srep_compare_row *)y)->diff;
	size_t pa = ((const struct srep_compare_row *)x)->pair;
	size_t pb = ((const struct srep_compare_row *)y)->pair;
	int order;

	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	if (a->unit != b->unit)
		return a->unit < b->unit ? -1 : 1;	/* SREP_UNIT_NS first */
	order = a->unit == SREP_UNIT_NS ? 0 : by_size(a->width, b->width);
	if (!order)
		order = by_size(fabs(a->diff), fabs(b->diff));
	if (order)
		return order;
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int make_rows(struct srep_compare *c)
{
	size_t n = srep_matching__nr_pairs(c->mt) * NR_TASK_DIFFS, i, j;

	c->rows = calloc(n ? n : 1, sizeof(*c->rows));
	if (!c->rows)
		return SREP_E_NOMEM;
	for (i = 0; i < n; i++)
		c->rows[i] = (struct srep_compare_row){ i / NR_TASK_DIFFS, &c->pair[i] };
	c->nr_rows = n;
	qsort(c->rows, n, sizeof(*c->rows), cmp_rows);
	for (i = 0; i < n; i++)
		c->nr_significant += c->pair[i].significant;
	for (i = 0; i < NR_WORKLOAD_DIFFS; i++)
		c->nr_significant += c->workload[i].significant;
	for (i = 0; i < c->nr_cpus; i++) {
		for (j = 0; j < c->cpu_nr[i]; j++)
			c->nr_significant += c->cpu[i][j].significant;
	}
	return 0;
}

int srep_compare__new(struct srep_compare **out, const struct srep_compare_side *a,
		      const struct srep_compare_side *b, enum srep_match_mode mode,
		      struct srep_error *err)
{
	const struct srep_compare_side *side[2] = { a, b };
	struct srep_compare *c;
	int ret;

	*out = NULL;
	if (!(a->scale > 0) || !(b->scale > 0) || isinf(a->scale) || isinf(b->scale))
		return srep_error__set(err, SREP_E_INVAL, "scales must be positive numbers");
	c = calloc(1, sizeof(*c));
	if (!c)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a comparison");
	ret = srep_matching__new(&c->mt, mode, a->session, a->sel, b->session, b->sel, err);
	if (ret) {
		srep_compare__delete(c);
		return ret;
	}
	compare_workload(c, side);
	ret = compare_pairs(c, side);
	if (!ret)
		ret = compare_cpus(c, side);
	if (!ret)
		ret = make_rows(c);
	if (ret) {
		srep_compare__delete(c);
		return srep_error__set(err, ret, "no memory for a comparison");
	}
	*out = c;
	return 0;
}

void srep_compare__delete(struct srep_compare *c)
{
	size_t i;

	if (!c)
		return;
	srep_matching__delete(c->mt);
	for (i = 0; c->cpu && i < c->nr_cpus; i++)
		free(c->cpu[i]);
	for (i = 0; i < c->nr_names; i++)
		free(c->names[i]);
	free(c->names);
	free(c->cpu);
	free(c->cpu_nr);
	for (i = 0; c->blk && i < c->nr_pairs; i++)
		free(c->blk[i]);
	free(c->blk);
	free(c->nr_blk);
	free(c->pair);
	free(c->pm);
	free(c->rows);
	free(c);
}

const struct srep_matching *srep_compare__matching(const struct srep_compare *c)
{
	return c->mt;
}

const struct srep_diff *srep_compare__workload(const struct srep_compare *c, size_t *nr)
{
	*nr = NR_WORKLOAD_DIFFS;
	return c->workload;
}

size_t srep_compare__nr_cpus(const struct srep_compare *c)
{
	return c->nr_cpus;
}

const struct srep_diff *srep_compare__cpu(const struct srep_compare *c, size_t cpu, size_t *nr)
{
	*nr = cpu < c->nr_cpus ? c->cpu_nr[cpu] : 0;
	return cpu < c->nr_cpus ? c->cpu[cpu] : NULL;
}

const struct srep_diff *srep_compare__pair(const struct srep_compare *c, size_t pair, size_t *nr)
{
	bool ok = pair < srep_matching__nr_pairs(c->mt);

	*nr = ok ? NR_TASK_DIFFS : 0;
	return ok ? &c->pair[pair * NR_TASK_DIFFS] : NULL;
}

const struct srep_task_metrics *srep_compare__pair_metrics(const struct srep_compare *c,
							   size_t pair, int side)
{
	if (pair >= srep_matching__nr_pairs(c->mt) || side < 0 || side > 1)
		return NULL;
	return &c->pm[2 * pair + side];
}

const struct srep_compare_row *srep_compare__rows(const struct srep_compare *c, size_t *nr)
{
	*nr = c->nr_rows;
	return c->rows;
}

size_t srep_compare__nr_significant(const struct srep_compare *c)
{
	return c->nr_significant;
}

const struct srep_block_row *srep_compare__blocking(const struct srep_compare *c, size_t pair,
						    size_t *nr)
{
	bool ok = pair < srep_matching__nr_pairs(c->mt);

	*nr = ok ? c->nr_blk[pair] : 0;
	return ok ? c->blk[pair] : NULL;
}
