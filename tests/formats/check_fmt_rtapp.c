// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fmt_rtapp.c - the rt-app exporter on the replay fixtures, whose
 * plans check_replay_plan.c knows to the nanosecond: each task's events
 * (the mutexes of the wakeups it waits for, the start barrier, its start
 * time, bursts, sleeps, the handshakes of its wakeups), the default selection (the same tasks as replay's),
 * names made unique, the options (scale, priorities, CPU map, global
 * keys), totals exact to the µs however the bursts round, durations beyond
 * what rt-app's int holds. Running rt-app itself on the corpus is
 * tests/cli/rtapp.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fmtutil.h"
#include "replay_fixtures.h"
#include "rtapp.h"

static cJSON *convert(struct fixture *fx, const struct tu_convert *c, int *status)
{
	struct srep_error err = { 0 };
	char path[4096], *dir, *out = NULL;
	cJSON *root = NULL;
	size_t len;

	dir = tu_scenario_file(fx, path, sizeof(path));
	*status = tu_convert(path, &srep_exporter_rtapp, c, &out, &len, &err);
	if (*status == 0) {
		root = cJSON_Parse(out);
		ck_assert_msg(cJSON_IsObject(root), "not JSON: %.200s", out);
	}
	free(out);
	tu_rmdir(dir);
	free(dir);
	fixture_free(fx);
	return root;
}

static cJSON *convert_ok(struct fixture *fx, const struct tu_convert *c)
{
	int status;
	cJSON *root = convert(fx, c, &status);

	ck_assert_int_eq(status, 0);
	return root;
}

static const cJSON *task_of(const cJSON *root, const char *name)
{
	const cJSON *t = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "tasks"), name);

	ck_assert_msg(cJSON_IsObject(t), "no task '%s'", name);
	return t;
}

/* the task's events as "key=value", against 'want' (NULL-terminated) */
static void check_events(const cJSON *root, const char *name, const char *const *want)
{
	const cJSON *t = task_of(root, name), *ph, *ev;
	char got[128];
	size_t i = 0;

	ck_assert_int_eq(cJSON_GetObjectItem(t, "loop")->valueint, 1);
	ph = cJSON_GetObjectItem(t, "phases");
	ck_assert_int_eq(cJSON_GetArraySize(ph), 1);
	ph = cJSON_GetObjectItem(ph, "p0");
	ck_assert_ptr_nonnull(ph);
	cJSON_ArrayForEach(ev, ph) {
		if (!strcmp(ev->string, "loop") || !strcmp(ev->string, "cpus"))
			continue;
		if (cJSON_IsString(ev))
			snprintf(got, sizeof(got), "%s=%s", ev->string, ev->valuestring);
		else if (cJSON_IsObject(ev))	/* wait: "waitN=REF/MUTEX" */
			snprintf(got, sizeof(got), "%s=%s/%s", ev->string,
				 cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ref")),
				 cJSON_GetStringValue(cJSON_GetObjectItem(ev, "mutex")));
		else
			snprintf(got, sizeof(got), "%s=%.0f", ev->string, ev->valuedouble);
		ck_assert_msg(want[i], "%s: more events than expected: %s", name, got);
		ck_assert_msg(!strcmp(got, want[i]), "%s event %zu: %s, expected %s", name, i, got,
			      want[i]);
		i++;
	}
	ck_assert_msg(!want[i], "%s: %zu events, expected more (%s)", name, i, want[i]);
}

static const char *const server_client[] = { "server", "client", NULL };

/*
 * rf_wakeups in µs: the server runs 2000 and blocks, the client runs 2000
 * and wakes it (wakeup 0), runs 1000 and sleeps 1500 (its waker is the
 * outsider, not selected), runs 2200; the server runs 2500 and exits.
 */
START_TEST(wakeups_become_handshakes)
{
	const char *const server[] = {
		"lock0=m0", "barrier1=start", "run2=2000", "wait3=c0/m0", "unlock4=m0", "run5=2500",
		NULL,
	};
	const char *const client[] = {
		"barrier0=start", "sleep1=1000", "run2=2000", "lock3=m0", "unlock4=m0", "signal5=c0",
		"run6=1000", "sleep7=1500", "run8=2200", NULL,
	};
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct tu_convert c = { .only = server_client };
	const cJSON *g, *origin;
	cJSON *root;

	rf_wakeups(fx, 1000);
	root = convert_ok(fx, &c);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "tasks")), 2);
	check_events(root, "server", server);
	check_events(root, "client", client);
	/* no --keep-prio, no --cpu-map: neither is written */
	ck_assert_ptr_null(cJSON_GetObjectItem(task_of(root, "server"), "policy"));
	ck_assert_ptr_null(cJSON_GetObjectItem(task_of(root, "server"), "cpus"));
	g = cJSON_GetObjectItem(root, "global");
	/* span 8 ms: rounded up to 1 s, and one more */
	ck_assert_int_eq(cJSON_GetObjectItem(g, "duration")->valueint, 2);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "calibration")->valuestring, "CPU0");
	ck_assert_str_eq(cJSON_GetObjectItem(g, "logdir")->valuestring, ".");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(g, "lock_pages")));
	origin = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "schedrep"),
							 "tasks"), "client");
	ck_assert_int_eq(cJSON_GetObjectItem(origin, "tid")->valueint, 200);
	ck_assert_str_eq(cJSON_GetObjectItem(origin, "comm")->valuestring, "client");
	cJSON_Delete(root);
}
END_TEST

/* without --only, the tasks replay plans (the outsider too), each its own handshakes */
START_TEST(default_selection_is_replays)
{
	const char *const outsider[] = { "barrier0=start", "sleep1=5000", "run2=500", "lock3=m1",
					 "unlock4=m1", "signal5=c1", "run6=500", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o), *fx2 = fixture_new(&o);
	struct rp_plan *p;
	cJSON *root;

	rf_wakeups(fx, 1000);
	rf_wakeups(fx2, 1000);
	p = rf_build(fx2, NULL, NULL);
	fixture_free(fx2);
	root = convert_ok(fx, NULL);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "tasks")), (int)p->nr_tasks);
	ck_assert_uint_eq(p->nr_tasks, 3);
	check_events(root, "outsider", outsider);
	rp_plan__delete(p);
	cJSON_Delete(root);
}
END_TEST

/*
 * rf_fork: two tasks named "parent" (the parent, and the second child with
 * the first one's tid, never renamed): COMM-TID; a child starts at its
 * fork, so it sleeps that long after the start barrier.
 */
START_TEST(forks_and_shared_names)
{
	/* 1000 µs on CPU 0, preempted, 300 on CPU 1: one "run" */
	const char *const child[] = { "barrier0=start", "sleep1=1000", "run2=1300", "lock3=m0",
				      "unlock4=m0", "signal5=c0", "run6=500", NULL };
	const char *const second[] = { "barrier0=start", "sleep1=5000", "run2=400", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	cJSON *root;

	rf_fork(fx, 1000);
	root = convert_ok(fx, NULL);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "tasks")), 3);
	task_of(root, "parent-100");
	check_events(root, "child", child);
	check_events(root, "parent-101", second);
	cJSON_Delete(root);
}
END_TEST

START_TEST(options)
{
	const char *const server[] = {
		"lock0=m0", "barrier1=start", "run2=1000", "wait3=c0/m0", "unlock4=m0", "run5=1250",
		NULL,
	};
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct rtapp_opts ro = { .scale = 2, .calibration = 30, .duration = -1,
				 .log_dir = "/tmp/\"logs\"" };
	struct tu_convert c = { .opts = &ro };
	struct srep_error err = { 0 };
	const cJSON *t, *g;
	cJSON *root;

	ck_assert_int_eq(rp_cpu_map__parse("0=3,1=2", &ro.run, &err), 0);
	ro.run.keep_prio = true;
	rf_wakeups(fx, 1000);
	root = convert_ok(fx, &c);
	check_events(root, "server", server);
	t = task_of(root, "server");	/* every burst on CPU 0 */
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(t, "cpus")), 1);
	ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(t, "cpus"), 0)->valueint, 3);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "policy")->valuestring, "SCHED_OTHER");
	ck_assert_int_eq(cJSON_GetObjectItem(t, "priority")->valueint, 0);
	t = task_of(root, "outsider");	/* prio 110: nice -10 */
	ck_assert_int_eq(cJSON_GetObjectItem(t, "priority")->valueint, -10);
	ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(task_of(root, "client"), "cpus"),
					    0)->valueint, 2);
	g = cJSON_GetObjectItem(root, "global");
	ck_assert_int_eq(cJSON_GetObjectItem(g, "duration")->valueint, -1);
	ck_assert_int_eq(cJSON_GetObjectItem(g, "calibration")->valueint, 30);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "logdir")->valuestring, "/tmp/\"logs\"");
	ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "schedrep"),
						"scale_run")->valuedouble, 2);
	free(ro.run.map);
	cJSON_Delete(root);
}
END_TEST

/* an RT task: SCHED_FIFO with the recorded priority (kernel prio 89: rtprio 10) */
START_TEST(rt_priority)
{
	const uint64_t t = RF_T0;
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct rtapp_opts ro = { .run.keep_prio = true };
	struct tu_convert c = { .opts = &ro };
	const cJSON *task;
	cJSON *root;

	fixture_comm(fx, t, 0, 100, 100, "rt", false);
	fixture_switch(fx, t + 1000, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "rt", 100, 89);
	fixture_switch(fx, t + 3000, 0, "rt", 100, 89, FIXTURE_STATE_S, "swapper/0", 0, 120);
	root = convert_ok(fx, &c);
	task = task_of(root, "rt");
	ck_assert_str_eq(cJSON_GetObjectItem(task, "policy")->valuestring, "SCHED_FIFO");
	ck_assert_int_eq(cJSON_GetObjectItem(task, "priority")->valueint, 10);
	cJSON_Delete(root);
}
END_TEST

static uint64_t sum_of(const cJSON *root, const char *name, const char *kind)
{
	const cJSON *ev, *ph = cJSON_GetObjectItem(cJSON_GetObjectItem(task_of(root, name),
									"phases"), "p0");
	uint64_t sum = 0;

	cJSON_ArrayForEach(ev, ph) {
		if (!strncmp(ev->string, kind, strlen(kind)) && strcmp(ev->string, "loop")) {
			ck_assert_msg(ev->valuedouble > 0, "%s: %s is 0", name, ev->string);
			sum += (uint64_t)ev->valuedouble;
		}
	}
	return sum;
}

/* 15 bursts of 0.333 µs: some round to 0 µs, some to 1, the sum to 5 (4.995) */
START_TEST(rounding_keeps_totals)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	cJSON *root;

	rf_pingpong(fx, 1, 30, 333);
	root = convert_ok(fx, NULL);
	ck_assert_uint_eq(sum_of(root, "ping", "run"), 5);
	ck_assert_uint_eq(sum_of(root, "pong", "run"), 5);
	cJSON_Delete(root);
}
END_TEST

/* rt-app reads an int: a 2200 s burst is two events (then 20 s until ping blocks) */
START_TEST(long_bursts_are_split)
{
	const char *const ping[] = { "barrier0=start", "run1=2147483647", "run2=52516353",
				     "lock3=m0", "unlock4=m0", "signal5=c0", "run6=20000000", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	cJSON *root;

	rf_pingpong(fx, 1000000000, 1, 2200);
	root = convert_ok(fx, NULL);
	check_events(root, "ping", ping);
	cJSON_Delete(root);
}
END_TEST

START_TEST(nothing_selected)
{
	static const char *const nobody[] = { "nobody", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct tu_convert c = { .only = nobody };
	int status;

	rf_wakeups(fx, 1000);
	ck_assert_ptr_null(convert(fx, &c, &status));
	ck_assert_int_eq(status, SREP_E_SELECT);
}
END_TEST

static void set_task(struct rp_task *t, int32_t tid, const char *comm)
{
	memset(t, 0, sizeof(*t));
	t->tid = t->pid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/* unique comms kept, shared ones COMM-TID, a reused tid COMM-iN, all safe and short */
START_TEST(unique_names)
{
	struct rp_task tasks[7];
	struct rp_plan p = { .tasks = tasks, .nr_tasks = 7 };
	const char *const want[] = { "sched-messa-119", "sched-messa-120", "kworker_0:1",
				     "x-i3", "x-i4", "averyveryverylo", "task" };
	char (*names)[RTAPP_NAME_MAX + 1];
	struct srep_error err = { 0 };
	size_t i;

	set_task(&tasks[0], 119, "sched-messaging");
	set_task(&tasks[1], 120, "sched-messaging");
	set_task(&tasks[2], 7, "kworker/0:1");
	set_task(&tasks[3], 5, "x");
	set_task(&tasks[4], 5, "x");	/* the tid again, after an exit */
	set_task(&tasks[5], 9, "averyveryverylongcomm");
	set_task(&tasks[6], 11, "");
	ck_assert_int_eq(rtapp_names(&p, &names, &err), 0);
	for (i = 0; i < 7; i++)
		ck_assert_str_eq(names[i], want[i]);
	free(names);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt_rtapp");
	TCase *tc = tcase_create("fixtures");

	tcase_add_test(tc, wakeups_become_handshakes);
	tcase_add_test(tc, default_selection_is_replays);
	tcase_add_test(tc, forks_and_shared_names);
	tcase_add_test(tc, options);
	tcase_add_test(tc, rt_priority);
	tcase_add_test(tc, rounding_keeps_totals);
	tcase_add_test(tc, long_bursts_are_split);
	tcase_add_test(tc, nothing_selected);
	tcase_add_test(tc, unique_names);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
