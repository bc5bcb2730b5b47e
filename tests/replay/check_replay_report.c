// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_replay_report.c - the fidelity figures from known plans and results
 * (no threads): per-task errors, median and p95, span error, means over
 * repeated runs, partial reports, and the JSON document read back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "testutil.h"
#include "replay.h"

START_TEST(percentiles)
{
	double one[] = { 5 }, four[] = { 4, 1, 3, 2 }, hundred[100];
	int i;

	ck_assert(isnan(rp_percentile(NULL, 0, 50)));
	ck_assert(rp_percentile(one, 1, 95) == 5);
	ck_assert(fabs(rp_percentile(four, 4, 50) - 2.5) < 1e-12);
	ck_assert(four[0] == 1 && four[3] == 4);	/* sorted */
	ck_assert(rp_percentile(four, 4, 100) == 4);
	ck_assert(rp_percentile(four, 4, 0) == 1);
	for (i = 0; i < 100; i++)
		hundred[i] = 100 - i;
	ck_assert(fabs(rp_percentile(hundred, 100, 95) - 95.05) < 1e-9);
}
END_TEST

/* three planned tasks; the third never started */
static struct rp_plan *plan3(void)
{
	struct rp_plan *p = calloc(1, sizeof(*p));
	static const uint64_t cpu[] = { 1000, 2000, 500 }, span[] = { 4000, 3000, 1000 };
	int i;

	ck_assert_ptr_nonnull(p);
	p->tasks = calloc(3, sizeof(*p->tasks));
	p->nr_tasks = 3;
	p->origin = 100;
	p->end = 100 + 5000;
	p->expected_span = 5000;
	p->scale_run = p->scale_sleep = 1;
	for (i = 0; i < 3; i++) {
		struct rp_task *t = &p->tasks[i];

		t->tid = t->pid = 10 + i;
		snprintf(t->comm, sizeof(t->comm), "t%d", i);
		t->start = 100;
		t->end = 100 + span[i];
		t->cpu_ns = t->expected_cpu = cpu[i];
		t->expected_span = span[i];
		t->nr_waits = (uint32_t)i;
		t->nr_sleeps = 1;
		t->latency_sum_ns = 300;
		t->nr_latency = 3;
	}
	return p;
}

static struct rp_result result3(unsigned runs)
{
	struct rp_result res = { .nr_tasks = 3, .runs = runs, .runs_done = runs };
	static const uint64_t cpu[] = { 1100, 1900 }, span[] = { 4400, 2700 };
	int i;

	res.tasks = calloc(3, sizeof(*res.tasks));
	ck_assert_ptr_nonnull(res.tasks);
	for (i = 0; i < 2; i++) {
		res.tasks[i].state = RP_DONE;
		res.tasks[i].host_tid = 1000 + i;
		res.tasks[i].cpu_ns = cpu[i] * runs;
		res.tasks[i].span_ns = span[i] * runs;
		res.tasks[i].wakeups = 2ull * runs;
		res.tasks[i].latency_sum_ns = 80ull * runs;
		res.tasks[i].nr_latency = 2ull * runs;
		res.tasks[i].runs_done = runs;
	}
	res.span_sum_ns = 5500ull * runs;
	res.last_span_ns = 5500;
	return res;
}

START_TEST(figures)
{
	struct rp_plan *p = plan3();
	struct rp_result res = result3(_i ? 3 : 1);	/* means over three runs: the same */
	struct rp_report rep;
	struct srep_error err = { 0 };

	ck_assert_int_eq(rp_report__build(&rep, p, &res, &err), 0);
	ck_assert_uint_eq(rep.nr_rows, 3);
	ck_assert(fabs(rep.rows[0].cpu_error_pct - 10) < 1e-9);
	ck_assert(fabs(rep.rows[1].cpu_error_pct + 5) < 1e-9);
	ck_assert(isnan(rep.rows[2].cpu_error_pct));	/* never started: not compared */
	ck_assert(fabs(rep.rows[0].span_error_pct - 10) < 1e-9);
	ck_assert(fabs(rep.rows[1].span_error_pct + 10) < 1e-9);
	ck_assert(fabs(rep.rows[0].recorded_latency - 100) < 1e-9);
	ck_assert(fabs(rep.rows[0].replayed_latency - 40) < 1e-9);
	ck_assert(fabs(rep.rows[1].replayed_wakeups - 2) < 1e-9);
	ck_assert_uint_eq(rep.rows[0].replayed_cpu, 1100);
	ck_assert_uint_eq(rep.nr_compared, 2);
	ck_assert(fabs(rep.median_cpu_error_pct - 7.5) < 1e-9);
	ck_assert(fabs(rep.p95_cpu_error_pct - 9.75) < 1e-9);
	ck_assert(fabs(rep.span_error_pct - 10) < 1e-9);
	ck_assert_uint_eq(rep.recorded_span, 5000);
	ck_assert_uint_eq(rep.replayed_span, 5500);
	ck_assert_uint_eq(rep.recorded_cpu, 3500);
	ck_assert_uint_eq(rep.replayed_cpu, 3000);
	ck_assert(rep.complete);
	rp_report__free(&rep);
	rp_result__free(&res);
	rp_plan__delete(p);
}
END_TEST

/* interrupted: no span error, stopped tasks are not compared */
START_TEST(partial)
{
	struct rp_plan *p = plan3();
	struct rp_result res = result3(1);
	struct rp_report rep;
	struct srep_error err = { 0 };

	res.runs_done = 0;
	res.span_sum_ns = 0;
	res.interrupted = true;
	res.tasks[1].state = RP_STOPPED;
	res.tasks[1].runs_done = 0;
	ck_assert_int_eq(rp_report__build(&rep, p, &res, &err), 0);
	ck_assert(!rep.complete);
	ck_assert(isnan(rep.span_error_pct));
	ck_assert(isnan(rep.rows[1].cpu_error_pct));
	ck_assert_uint_eq(rep.nr_compared, 1);	/* task 0 had finished: its figures are whole */
	ck_assert(fabs(rep.median_cpu_error_pct - 10) < 1e-9);
	ck_assert_uint_eq(rep.replayed_span, 5500);	/* the partial run's */
	rp_report__free(&rep);
	rp_result__free(&res);
	rp_plan__delete(p);
}
END_TEST

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	ck_assert_msg(v != NULL, "no key '%s'", key);
	if (cJSON_IsNull(v))
		return NAN;
	ck_assert_msg(cJSON_IsNumber(v), "'%s' is not a number", key);
	return v->valuedouble;
}

START_TEST(json)
{
	struct rp_plan *p = plan3();
	struct rp_result res = result3(1);
	struct rp_run_opts o = { .cpu_map = RP_CPU_MAP_AUTO };
	struct srep_error err = { 0 };
	struct rp_report rep;
	const cJSON *sum, *tasks, *t;
	cJSON *doc;
	char *text;

	ck_assert_int_eq(rp_report__build(&rep, p, &res, &err), 0);
	text = rp_report__json(&rep, p, &o, "trace.data");
	ck_assert_ptr_nonnull(text);
	doc = cJSON_Parse(text);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "format")->valuestring, "schedrep-replay-report");
	ck_assert(num(doc, "version") == 1);
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "trace")->valuestring, "trace.data");
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "cpu_map")->valuestring, "auto");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
	sum = cJSON_GetObjectItem(doc, "summary");
	ck_assert(fabs(num(sum, "median_cpu_error_pct") - 7.5) < 1e-9);
	ck_assert(fabs(num(sum, "p95_cpu_error_pct") - 9.75) < 1e-9);
	ck_assert(fabs(num(sum, "span_error_pct") - 10) < 1e-9);
	ck_assert(num(sum, "replayed_span_ns") == 5500);
	tasks = cJSON_GetObjectItem(doc, "tasks");
	ck_assert_int_eq(cJSON_GetArraySize(tasks), 3);
	t = cJSON_GetArrayItem(tasks, 0);
	ck_assert(num(t, "tid") == 10);
	ck_assert(num(t, "replay_tid") == 1000);
	ck_assert(num(t, "wakeups") == 1);
	ck_assert(num(t, "recorded_wakeup_latency_ns") == 100);
	ck_assert(num(t, "expected_start_ns") == 0);
	ck_assert(num(t, "replayed_start_ns") == 0);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "state")->valuestring, "done");
	t = cJSON_GetArrayItem(tasks, 2);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "state")->valuestring, "not_started");
	ck_assert(isnan(num(t, "cpu_error_pct")));	/* null */
	ck_assert(isnan(num(t, "replay_tid")));
	ck_assert(isnan(num(t, "replayed_start_ns")));
	cJSON_Delete(doc);
	free(text);
	rp_report__free(&rep);
	rp_result__free(&res);
	rp_plan__delete(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_report");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, percentiles);
	tcase_add_loop_test(tc, figures, 0, 2);
	tcase_add_test(tc, partial);
	tcase_add_test(tc, json);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
