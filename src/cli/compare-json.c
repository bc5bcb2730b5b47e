// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-json.c - "schedrep compare --json": the whole comparison as one
 * JSON document (schema: docs/compare.md). Built as a cJSON tree: it is one
 * entry per matched task, small next to the traces.
 */
#include <math.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "compare.h"

static const char *unit_name(enum srep_unit u)
{
	return u == SREP_UNIT_NS ? "ns" : u == SREP_UNIT_COUNT ? "count" : "percent";
}

/* durations to whole ns, the rest to a fixed precision: stable output */
static double rounded(double v, enum srep_unit u)
{
	return u == SREP_UNIT_PERCENT ? round(v * 1000) / 1000 : round(v);
}

static void add_diffs(cJSON *obj, const struct srep_diff *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *m = cJSON_AddObjectToObject(obj, d[i].metric);

		cJSON_AddStringToObject(m, "unit", unit_name(d[i].unit));
		cJSON_AddNumberToObject(m, "a", rounded(d[i].a, d[i].unit));
		cJSON_AddNumberToObject(m, "b", rounded(d[i].b, d[i].unit));
		cJSON_AddNumberToObject(m, "diff", rounded(d[i].diff, d[i].unit));
		if (isnan(d[i].ratio))
			cJSON_AddNullToObject(m, "ratio");
		else
			cJSON_AddNumberToObject(m, "ratio", round(d[i].ratio * 1e6) / 1e6);
		cJSON_AddBoolToObject(m, "significant", d[i].significant);
	}
}

static void add_name(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* the pair's "where tasks block" rows, all of them */
static void add_blocking(cJSON *p, const struct srep_compare *c, size_t pair)
{
	cJSON *arr = cJSON_AddArrayToObject(p, "blocking");
	size_t i, n;
	const struct srep_block_row *r = srep_compare__blocking(c, pair, &n);

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		add_name(o, "kernel", r[i].kernel);
		add_name(o, "user", r[i].user);
		add_diffs(o, &r[i].blocked, 1);
		cJSON_AddNumberToObject(o, "sleeps_a", (double)r[i].count[0]);
		cJSON_AddNumberToObject(o, "sleeps_b", (double)r[i].count[1]);
		cJSON_AddItemToArray(arr, o);
	}
}

static cJSON *task_json(const struct srep_task *t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "pid", srep_task__pid(t));
	cJSON_AddNumberToObject(o, "tid", srep_task__tid(t));
	cJSON_AddStringToObject(o, "comm", srep_task__comm(t));
	return o;
}

static cJSON *side_json(const struct compare_run *r, int k)
{
	const struct srep_meta *m = srep_session__meta(r->s[k]);
	struct srep_workload_metrics w;
	cJSON *o = cJSON_CreateObject();

	srep_metrics__workload(r->m[k], NULL, &w);
	cJSON_AddStringToObject(o, "path", r->path[k]);
	if (m->arch)
		cJSON_AddStringToObject(o, "arch", m->arch);
	else
		cJSON_AddNullToObject(o, "arch");
	cJSON_AddStringToObject(o, "byte_order", m->big_endian ? "big" : "little");
	if (m->nr_cpus_online >= 0)
		cJSON_AddNumberToObject(o, "nr_cpus", m->nr_cpus_online);
	else
		cJSON_AddNullToObject(o, "nr_cpus");
	cJSON_AddNumberToObject(o, "scale", r->scale[k]);
	cJSON_AddNumberToObject(o, "first", (double)w.first);
	cJSON_AddNumberToObject(o, "last", (double)w.last);
	return o;
}

static void add_pairs(cJSON *root, const struct srep_compare *c)
{
	const struct srep_matching *mt = srep_compare__matching(c);
	cJSON *arr = cJSON_AddArrayToObject(root, "matched");
	size_t i, j, n;
	int k;

	for (i = 0; i < srep_matching__nr_pairs(mt); i++) {
		cJSON *p = cJSON_CreateObject();
		const struct srep_diff *d = srep_compare__pair(c, i, &n);

		for (k = 0; k < 2; k++) {
			const struct srep_task *const *tasks;
			size_t nr = srep_matching__pair(mt, i, k, &tasks);
			cJSON *side = cJSON_AddArrayToObject(p, k ? "b" : "a");

			for (j = 0; j < nr; j++)
				cJSON_AddItemToArray(side, task_json(tasks[j]));
		}
		add_diffs(cJSON_AddObjectToObject(p, "metrics"), d, n);
		add_blocking(p, c, i);
		cJSON_AddItemToArray(arr, p);
	}
	for (k = 0; k < 2; k++) {
		arr = cJSON_AddArrayToObject(root, k ? "unmatched_b" : "unmatched_a");
		for (i = 0; i < srep_matching__nr_unmatched(mt, k); i++)
			cJSON_AddItemToArray(arr, task_json(srep_matching__unmatched(mt, k, i)));
	}
}

static void add_cpus(cJSON *root, const struct srep_compare *c)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "cpus");
	size_t cpu, n;

	for (cpu = 0; cpu < srep_compare__nr_cpus(c); cpu++) {
		const struct srep_diff *d = srep_compare__cpu(c, cpu, &n);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "cpu", (double)cpu);
		add_diffs(cJSON_AddObjectToObject(o, "metrics"), d, n);
		cJSON_AddItemToArray(arr, o);
	}
}

static cJSON *significance(void)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "relative", SREP_SIGNIFICANT_REL);
	cJSON_AddNumberToObject(o, "ns", SREP_SIGNIFICANT_NS);
	cJSON_AddNumberToObject(o, "count", SREP_SIGNIFICANT_COUNT);
	cJSON_AddNumberToObject(o, "percent", SREP_SIGNIFICANT_PERCENT);
	return o;
}

int compare_json(FILE *f, const struct compare_run *r)
{
	cJSON *root = cJSON_CreateObject();
	const struct srep_diff *d;
	size_t n;

	cJSON_AddStringToObject(root, "format", "schedrep-compare");
	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "match", srep_match_mode__name(r->mode));
	cJSON_AddItemToObject(root, "significance", significance());
	cJSON_AddItemToObject(root, "a", side_json(r, 0));
	cJSON_AddItemToObject(root, "b", side_json(r, 1));
	cJSON_AddNumberToObject(root, "significant", (double)srep_compare__nr_significant(r->c));
	d = srep_compare__workload(r->c, &n);
	add_diffs(cJSON_AddObjectToObject(root, "workload"), d, n);
	add_cpus(root, r->c);
	add_pairs(root, r->c);
	return cli_json_print(f, root);
}
