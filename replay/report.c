// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - how faithful a replay was: per task, the CPU time and wall
 * span the scaled recording asked for against what the mockup did, wakeups
 * and their latency; over all tasks, the median and 95th percentile of the
 * CPU-time error and the error of the whole replay's span. JSON through
 * cJSON (schema: docs/replay.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "replay.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double rp_percentile(double *v, size_t n, double q)
{
	double pos;
	size_t lo;

	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	pos = q / 100.0 * (double)(n - 1);
	lo = (size_t)pos;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

static double error_pct(uint64_t got, uint64_t want)
{
	return want ? ((double)got - (double)want) / (double)want * 100.0 : NAN;
}

static double mean(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : NAN;
}

/* runs whose figures are in the sums: the completed ones and an interrupted last one */
static unsigned runs_seen(const struct rp_result *res)
{
	unsigned n = res->runs_done + (res->runs_done < res->runs ? 1 : 0);

	return n ? n : 1;
}

static void fill_row(struct rp_report_row *row, const struct rp_task *t,
		     const struct rp_task_result *tr, unsigned runs)
{
	bool finished = tr->runs_done == runs && tr->state == RP_DONE;

	row->task = t;
	row->res = tr;
	row->replayed_cpu = tr->cpu_ns / runs;
	row->replayed_span = tr->span_ns / runs;
	row->replayed_wakeups = (double)tr->wakeups / runs;
	row->cpu_error_pct = finished ? error_pct(row->replayed_cpu, t->expected_cpu) : NAN;
	row->span_error_pct = finished ? error_pct(row->replayed_span, t->expected_span) : NAN;
	row->recorded_latency = mean(t->latency_sum_ns, t->nr_latency);
	row->replayed_latency = mean(tr->latency_sum_ns, tr->nr_latency);
}

int rp_report__build(struct rp_report *rep, const struct rp_plan *p, const struct rp_result *res,
		     struct srep_error *err)
{
	unsigned runs = runs_seen(res);
	double *errs;
	size_t i;

	memset(rep, 0, sizeof(*rep));
	rep->rows = calloc(p->nr_tasks ? p->nr_tasks : 1, sizeof(*rep->rows));
	errs = calloc(p->nr_tasks ? p->nr_tasks : 1, sizeof(*errs));
	if (!rep->rows || !errs) {
		free(errs);
		rp_report__free(rep);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the report");
	}
	rep->nr_rows = p->nr_tasks;
	for (i = 0; i < p->nr_tasks && i < res->nr_tasks; i++) {
		struct rp_report_row *row = &rep->rows[i];

		fill_row(row, &p->tasks[i], &res->tasks[i], runs);
		rep->recorded_cpu += p->tasks[i].cpu_ns;
		rep->expected_cpu += p->tasks[i].expected_cpu;
		rep->replayed_cpu += row->replayed_cpu;
		if (!isnan(row->cpu_error_pct))
			errs[rep->nr_compared++] = fabs(row->cpu_error_pct);
	}
	rep->median_cpu_error_pct = rp_percentile(errs, rep->nr_compared, 50);
	rep->p95_cpu_error_pct = rp_percentile(errs, rep->nr_compared, 95);
	free(errs);
	rep->recorded_span = p->end - p->origin;
	rep->expected_span = p->expected_span;
	rep->replayed_span = res->runs_done ? res->span_sum_ns / res->runs_done : res->last_span_ns;
	rep->complete = !res->interrupted && res->runs_done == res->runs;
	rep->span_error_pct = rep->complete ? error_pct(rep->replayed_span, rep->expected_span) : NAN;
	return 0;
}

void rp_report__free(struct rp_report *rep)
{
	free(rep->rows);
	memset(rep, 0, sizeof(*rep));
}

/* ---- JSON ---- */

static void add_num(cJSON *o, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

static const char *state_name(enum rp_task_state s)
{
	return s == RP_DONE ? "done" : s == RP_STOPPED ? "stopped" : "not_started";
}

static cJSON *row_json(const struct rp_report_row *row, const struct rp_plan *p)
{
	const struct rp_task *t = row->task;
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	add_num(o, "pid", t->pid);
	add_num(o, "tid", t->tid);
	cJSON_AddStringToObject(o, "comm", t->comm);
	add_num(o, "replay_tid", row->res->host_tid ? row->res->host_tid : NAN);
	cJSON_AddStringToObject(o, "state", state_name(row->res->state));
	add_num(o, "recorded_start_ns", (double)(t->start - p->origin));
	add_num(o, "expected_start_ns", (double)t->start_off);
	add_num(o, "replayed_start_ns", row->res->state == RP_NOT_STARTED ? NAN :
		(double)row->res->start_ns);
	add_num(o, "recorded_cpu_ns", (double)t->cpu_ns);
	add_num(o, "expected_cpu_ns", (double)t->expected_cpu);
	add_num(o, "replayed_cpu_ns", (double)row->replayed_cpu);
	add_num(o, "cpu_error_pct", row->cpu_error_pct);
	add_num(o, "recorded_span_ns", (double)(t->end - t->start));
	add_num(o, "expected_span_ns", (double)t->expected_span);
	add_num(o, "replayed_span_ns", (double)row->replayed_span);
	add_num(o, "span_error_pct", row->span_error_pct);
	add_num(o, "wakeups", (double)(t->nr_waits + t->nr_sleeps));
	add_num(o, "paired_wakeups", (double)t->nr_waits);
	add_num(o, "replayed_wakeups", row->replayed_wakeups);
	add_num(o, "recorded_wakeup_latency_ns", row->recorded_latency);
	add_num(o, "replayed_wakeup_latency_ns", row->replayed_latency);
	return o;
}

static cJSON *summary_json(const struct rp_report *rep)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	add_num(o, "tasks", (double)rep->nr_rows);
	add_num(o, "tasks_compared", (double)rep->nr_compared);
	add_num(o, "median_cpu_error_pct", rep->median_cpu_error_pct);
	add_num(o, "p95_cpu_error_pct", rep->p95_cpu_error_pct);
	add_num(o, "span_error_pct", rep->span_error_pct);
	add_num(o, "recorded_span_ns", (double)rep->recorded_span);
	add_num(o, "expected_span_ns", (double)rep->expected_span);
	add_num(o, "replayed_span_ns", (double)rep->replayed_span);
	add_num(o, "recorded_cpu_ns", (double)rep->recorded_cpu);
	add_num(o, "expected_cpu_ns", (double)rep->expected_cpu);
	add_num(o, "replayed_cpu_ns", (double)rep->replayed_cpu);
	return o;
}

static const char *map_name(enum rp_cpu_map m)
{
	return m == RP_CPU_MAP_AUTO ? "auto" : m == RP_CPU_MAP_LIST ? "list" : "none";
}

char *rp_report__json(const struct rp_report *rep, const struct rp_plan *p,
		      const struct rp_run_opts *o, const char *trace)
{
	cJSON *root = cJSON_CreateObject(), *tasks, *row;
	char *text = NULL;
	size_t i;
	bool ok;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "format", "schedrep-replay-report");
	add_num(root, "version", 1);
	cJSON_AddStringToObject(root, "trace", trace);
	cJSON_AddBoolToObject(root, "complete", rep->complete);
	add_num(root, "scale_run", p->scale_run);
	add_num(root, "scale_sleep", p->scale_sleep);
	add_num(root, "repeat", o->repeat ? o->repeat : 1);
	cJSON_AddStringToObject(root, "cpu_map", map_name(o->cpu_map));
	cJSON_AddBoolToObject(root, "keep_prio", o->keep_prio);
	ok = cJSON_AddItemToObject(root, "summary", summary_json(rep));
	tasks = cJSON_AddArrayToObject(root, "tasks");
	for (i = 0; ok && tasks && i < rep->nr_rows; i++) {
		row = row_json(&rep->rows[i], p);
		ok = row && cJSON_AddItemToArray(tasks, row);
	}
	if (ok && tasks)
		text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}
