// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_replay_plan.c - action lists from fixtures with known timings: runs,
 * paired and timed wakeups, forks with tid reuse, migrations, exits; what
 * the selection does to them (wakers outside it become timed sleeps); the
 * default exclusions; the same plan from every byte order and word size;
 * scale arithmetic and the validation of scale factors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "replay_fixtures.h"

#define T(x) (RF_T0 + (x))

/* one expected action: kind, recorded start, ns, cpu (RUN) or peer tid (WAKE/SPAWN) */
struct want {
	enum rp_action_kind kind;
	uint64_t at, ns;
	int32_t cpu_or_tid;
};

static void check_actions(const struct rp_plan *p, const struct rp_task *t,
			  const struct want *w, size_t n)
{
	size_t i;

	ck_assert_ptr_nonnull(t);
	ck_assert_msg(t->nr_actions == n, "task %d: %zu actions, expected %zu", t->tid,
		      t->nr_actions, n);
	for (i = 0; i < n; i++) {
		const struct rp_action a_ = rf_action(p, t, i), *a = &a_;

		ck_assert_msg(a->kind == w[i].kind, "task %d action %zu: kind %d, expected %d",
			      t->tid, i, a->kind, w[i].kind);
		ck_assert_msg(a->rec_time == T(w[i].at), "task %d action %zu: at T+%llu, expected "
			      "T+%llu", t->tid, i, (unsigned long long)(a->rec_time - RF_T0),
			      (unsigned long long)w[i].at);
		if (a->kind == RP_RUN || a->kind == RP_SLEEP || a->kind == RP_WAIT)
			ck_assert_uint_eq(a->rec_ns, w[i].ns);
		if (a->kind == RP_RUN)
			ck_assert_int_eq(a->cpu, w[i].cpu_or_tid);
		if (a->kind == RP_WAKE || a->kind == RP_SPAWN)
			ck_assert_int_eq(p->tasks[a->target].tid, w[i].cpu_or_tid);
	}
}

static const char *const server_client[] = { "server", "client", NULL };

START_TEST(paired_and_timed_wakeups)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want server[] = {
		{ RP_RUN, 1000, 2000, 0 }, { RP_WAIT, 3000, 1000, 0 },
		{ RP_RUN, 4000, 2500, 0 },	/* preempted at 6000, back at 7000: one burst */
		{ RP_EXIT, 8000, 0, 0 },
	};
	const struct want client[] = {
		{ RP_RUN, 2000, 2000, 1 }, { RP_WAKE, 4000, 0, 100 }, { RP_RUN, 4000, 1000, 1 },
		{ RP_SLEEP, 5000, 1500, 0 },	/* woken by the outsider: not selected */
		{ RP_RUN, 6500, 2200, 1 },
	};
	const struct rp_task *s, *c;
	struct rp_plan *p;

	rf_wakeups(fx, 1);
	p = rf_build(fx, server_client, NULL);
	ck_assert_uint_eq(p->nr_tasks, 2);
	ck_assert_uint_eq(p->nr_wakes, 1);
	s = rf_task(p, 100, 0);
	c = rf_task(p, 200, 0);
	check_actions(p, s, server, 4);
	check_actions(p, c, client, 5);
	/* the pair shares its id; latencies are wakeup to switch-in */
	ck_assert_uint_eq(rf_action(p, s, 1).id, rf_action(p, c, 1).id);
	ck_assert_uint_eq(rf_action(p, s, 1).rec_latency_ns, 500);
	ck_assert_uint_eq(rf_action(p, c, 3).rec_latency_ns, 300);
	ck_assert_uint_eq(s->start, T(1000));
	ck_assert_uint_eq(s->end, T(8000));
	ck_assert(s->exited);
	ck_assert(!c->exited);
	ck_assert_uint_eq(c->end, T(9000));
	ck_assert_uint_eq(s->cpu_ns, 4500);
	ck_assert_uint_eq(c->cpu_ns, 5200);
	ck_assert_uint_eq(s->nr_waits, 1);
	ck_assert_uint_eq(c->nr_sleeps, 1);
	ck_assert_int_eq(s->prio, 120);
	ck_assert_uint_eq(p->origin, T(1000));
	ck_assert_uint_eq(p->end, T(9000));
	ck_assert_uint_eq(p->expected_span, 8000);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* the same trace, everything selected: the outsider's wakeup is a real one */
START_TEST(selected_waker_pairs)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want outsider[] = {
		{ RP_RUN, 6000, 500, 0 }, { RP_WAKE, 6500, 0, 200 }, { RP_RUN, 6500, 500, 0 },
	};
	const struct rp_task *c;
	struct rp_plan *p;

	rf_wakeups(fx, 1);
	p = rf_build(fx, NULL, NULL);
	ck_assert_uint_eq(p->nr_tasks, 3);
	ck_assert_uint_eq(p->nr_wakes, 2);
	c = rf_task(p, 200, 0);
	ck_assert_int_eq(rf_action(p, c, 3).kind, RP_WAIT);
	ck_assert_uint_eq(rf_action(p, c, 3).rec_ns, 1500);
	check_actions(p, rf_task(p, 300, 0), outsider, 3);
	ck_assert_int_eq(rf_task(p, 300, 0)->prio, 110);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* only the server: its waker is gone, so its wait is a timed sleep of the same length */
START_TEST(unselected_waker_sleeps)
{
	static const char *const only[] = { "100", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want server[] = {
		{ RP_RUN, 1000, 2000, 0 }, { RP_SLEEP, 3000, 1000, 0 }, { RP_RUN, 4000, 2500, 0 },
		{ RP_EXIT, 8000, 0, 0 },
	};
	struct rp_plan *p;

	rf_wakeups(fx, 1);
	p = rf_build(fx, only, NULL);
	ck_assert_uint_eq(p->nr_tasks, 1);
	ck_assert_uint_eq(p->nr_wakes, 0);
	check_actions(p, rf_task(p, 100, 0), server, 4);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

START_TEST(exclude_wins)
{
	static const char *const excl[] = { "client", "tid:300", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct rp_plan *p;

	rf_wakeups(fx, 1);
	p = rf_build(fx, server_client, excl);
	ck_assert_uint_eq(p->nr_tasks, 1);
	ck_assert_ptr_nonnull(rf_task(p, 100, 0));
	ck_assert_int_eq(rf_action(p, rf_task(p, 100, 0), 1).kind, RP_SLEEP);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* forks: SPAWN in the parent, tid reuse gives a second task, a migration splits a burst */
START_TEST(forks_and_tid_reuse)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want parent[] = {
		{ RP_RUN, 1000, 1000, 0 }, { RP_SPAWN, 2000, 0, 101 }, { RP_RUN, 2000, 1000, 0 },
		{ RP_WAIT, 3000, 1500, 0 }, { RP_RUN, 4500, 1400, 0 }, { RP_SPAWN, 6000, 0, 101 },
		{ RP_RUN, 6000, 1000, 0 },
	};
	const struct want child[] = {
		{ RP_RUN, 3000, 1000, 0 }, { RP_RUN, 4200, 300, 1 }, { RP_WAKE, 4500, 0, 100 },
		{ RP_RUN, 4500, 500, 1 }, { RP_EXIT, 5000, 0, 0 },
	};
	const struct want second[] = { { RP_RUN, 6100, 400, 1 }, { RP_EXIT, 6500, 0, 0 } };
	const struct rp_task *pa, *c1, *c2;
	struct rp_plan *p;

	rf_fork(fx, 1);
	p = rf_build(fx, NULL, NULL);
	ck_assert_uint_eq(p->nr_tasks, 3);
	pa = rf_task(p, 100, 0);
	c1 = rf_task(p, 101, 0);
	c2 = rf_task(p, 101, 1);
	check_actions(p, pa, parent, 7);
	check_actions(p, c1, child, 5);
	check_actions(p, c2, second, 2);
	ck_assert_uint_eq(rf_action(p, pa, 1).target, rf_index(p, c1));
	ck_assert_uint_eq(rf_action(p, pa, 5).target, rf_index(p, c2));
	ck_assert_int_eq(c1->spawner, (int32_t)rf_index(p, pa));
	ck_assert_int_eq(c2->spawner, (int32_t)rf_index(p, pa));
	ck_assert_int_eq(pa->spawner, -1);
	ck_assert_uint_eq(c1->start, T(2000));
	ck_assert_uint_eq(c2->start, T(6000));
	ck_assert_str_eq(c1->comm, "child");
	ck_assert_uint_eq(rf_action(p, pa, 3).rec_latency_ns, 100);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* a child whose parent is not selected starts at its recorded time */
START_TEST(unselected_parent)
{
	static const char *const only[] = { "tid:101", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want child[] = {
		{ RP_RUN, 3000, 1000, 0 }, { RP_RUN, 4200, 800, 1 }, { RP_EXIT, 5000, 0, 0 },
	};
	struct rp_plan *p;

	rf_fork(fx, 1);
	p = rf_build(fx, only, NULL);
	ck_assert_uint_eq(p->nr_tasks, 2);
	check_actions(p, rf_task(p, 101, 0), child, 3);
	ck_assert_int_eq(rf_task(p, 101, 0)->spawner, -1);
	ck_assert_int_eq(rf_task(p, 101, 1)->spawner, -1);
	ck_assert_uint_eq(rf_task(p, 101, 1)->start_off, 4000);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* the plan is the same from every byte order, word size, container and compression */
START_TEST(every_format)
{
	struct fixture_opts o = {
		.big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8, .pipe = _i & 4,
		.compressed = _i & 8, .kernel = _i & 16 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1,
	};
	struct fixture *fx = fixture_new(&o);
	struct rp_plan *p;
	const struct rp_task *s, *c;

	ck_assert_ptr_nonnull(fx);
	rf_wakeups(fx, 1);
	p = rf_build(fx, server_client, NULL);
	s = rf_task(p, 100, 0);
	c = rf_task(p, 200, 0);
	ck_assert_uint_eq(p->nr_tasks, 2);
	ck_assert_uint_eq(s->nr_actions, 4);
	ck_assert_uint_eq(c->nr_actions, 5);
	ck_assert_uint_eq(s->cpu_ns, 4500);
	ck_assert_uint_eq(c->cpu_ns, 5200);
	ck_assert_uint_eq(rf_action(p, c, 3).rec_ns, 1500);
	ck_assert(s->exited);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/*
 * No tracepoints, only per-task PERF_RECORD_SWITCH: no wakeups, so every
 * sleep is timed; and no switch-out after the exit (perf removes per-task
 * events at the exit), so the EXIT record ends the last burst.
 */
START_TEST(switch_records_only)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want task[] = {
		{ RP_RUN, 1000, 1000, 0 }, { RP_SLEEP, 2000, 3000, 0 }, { RP_RUN, 5000, 1300, 0 },
		{ RP_EXIT, 6800, 0, 0 },
	};
	struct rp_plan *p;

	fixture_comm(fx, T(0), 0, 100, 100, "rec", false);
	fixture_switch_record(fx, T(1000), 0, 100, 100, false, false);
	fixture_switch_record(fx, T(2000), 0, 100, 100, true, false);
	fixture_switch_record(fx, T(5000), 0, 100, 100, false, false);
	fixture_switch_record(fx, T(6000), 0, 100, 100, true, true);
	fixture_switch_record(fx, T(6500), 0, 100, 100, false, false);
	fixture_exit(fx, T(6800), 0, 100, 1, 100, 1);
	fixture_comm(fx, T(9000), 0, 200, 200, "later", false);	/* the trace goes on */
	p = rf_build(fx, NULL, NULL);
	check_actions(p, rf_task(p, 100, 0), task, 4);
	ck_assert_uint_eq(rf_task(p, 100, 0)->end, T(6800));
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/*
 * A per-task recording (perf record -e sched:sched_switch -- CMD) sees only
 * its tasks switching out: a task seen switching out after blocking came
 * in at the CPU's previous switch (the earliest it can have), after a timed
 * sleep, unless a sample showed it running later (sched_stat_runtime: for
 * how long); a task switched to that never shows up again left at an
 * unknown time and is not charged for it.
 */
START_TEST(switch_outs_only)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want a[] = { { RP_SLEEP, 1000, 2000, 0 }, { RP_RUN, 3000, 2000, 0 } };
	const struct want b[] = {
		{ RP_RUN, 1000, 2000, 0 }, { RP_SLEEP, 3000, 3500, 0 }, { RP_RUN, 6500, 600, 0 },
	};
	struct rp_plan *p;

	fixture_comm(fx, T(0), 0, 100, 100, "a", false);
	fixture_comm(fx, T(0), 0, 200, 200, "b", false);
	fixture_comm(fx, T(0), 0, 300, 300, "other", false);
	fixture_switch(fx, T(1000), 0, "a", 100, 120, FIXTURE_STATE_S, "other", 300, 120);
	fixture_switch(fx, T(3000), 0, "b", 200, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_switch(fx, T(5000), 0, "a", 100, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	/* b again: the sample at 7000 says it has run 500 ns there */
	fixture_set_current(fx, 0, 200, 200);
	fixture_stat_runtime(fx, T(7000), 0, "b", 200, 500, 0);
	fixture_switch(fx, T(7100), 0, "b", 200, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	p = rf_build(fx, NULL, NULL);
	ck_assert_uint_eq(p->nr_tasks, 2);
	ck_assert_ptr_null(rf_task(p, 300, 0));
	check_actions(p, rf_task(p, 100, 0), a, 2);
	check_actions(p, rf_task(p, 200, 0), b, 3);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/*
 * perf's side-band records can start well before the scheduler tracepoints
 * (tests/data/sample-x86_64.data: 70 ms): a task seen only forking and
 * exiting there never ran as far as the trace knows, and adds no CPU time.
 */
START_TEST(records_before_tracepoints)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const struct want runner[] = { { RP_RUN, 1000, 1000, 0 } };
	struct rp_plan *p;

	/* with the fork tracepoint in the trace, FORK records only feed the task table */
	ck_assert_int_ge(fixture_add_tracepoint(fx, "sched", "sched_process_fork"), 0);
	fixture_comm(fx, T(0), 0, 100, 100, "runner", false);
	fixture_fork(fx, T(100), 0, 400, 100, 400, 100);
	fixture_exit(fx, T(200), 0, 400, 100, 400, 100);
	fixture_switch(fx, T(1000), 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "runner", 100, 120);
	fixture_switch(fx, T(2000), 0, "runner", 100, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	p = rf_build(fx, NULL, NULL);
	ck_assert_uint_eq(p->nr_tasks, 1);
	check_actions(p, rf_task(p, 100, 0), runner, 1);
	ck_assert_uint_eq(p->origin, T(1000));
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* a perf sched record of a perf bench: idle, kernel threads and perf record go, the bench stays */
static void perf_recording(struct fixture *fx, bool with_workload)
{
	const char *w = with_workload ? "perf-exec" : "perf";

	fixture_fork(fx, 0, 0, 1, 0, 1, 0);
	fixture_comm(fx, 0, 0, 1, 1, "init", false);
	fixture_fork(fx, 0, 0, 2, 0, 2, 0);
	fixture_comm(fx, 0, 0, 2, 2, "kthreadd", false);
	fixture_fork(fx, 0, 0, 10, 2, 10, 2);
	fixture_comm(fx, 0, 0, 10, 10, "kworker/0:1", false);
	fixture_fork(fx, 0, 0, 50, 1, 50, 1);
	fixture_comm(fx, 0, 0, 50, 50, "perf", false);
	fixture_fork(fx, 0, 0, 50, 50, 51, 50);
	fixture_comm(fx, 0, 0, 50, 51, "perf", false);
	fixture_fork(fx, 0, 0, 60, 50, 60, 50);
	fixture_comm(fx, 0, 0, 60, 60, w, false);
	fixture_switch(fx, T(1000), 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "perf", 50, 120);
	fixture_waking(fx, T(1100), 0, w, 60, 120, 0);
	fixture_switch(fx, T(1200), 0, "perf", 50, 120, FIXTURE_STATE_S, w, 60, 120);
	fixture_comm(fx, T(1300), 0, 60, 60, "perf", true);
	fixture_exec(fx, T(1300), 0, "/usr/bin/perf", 60, 60);
	fixture_fork(fx, T(1400), 0, 61, 60, 61, 60);
	fixture_tp_fork(fx, T(1400), 0, "perf", 60, "perf", 61);
	fixture_comm(fx, T(1500), 0, 60, 60, "sched-messaging", false);
	fixture_switch(fx, T(1600), 0, "sched-messaging", 60, 120, FIXTURE_STATE_S, "perf", 61, 120);
	fixture_switch(fx, T(1700), 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "kworker/0:1", 10, 120);
	fixture_switch(fx, T(1800), 1, "kworker/0:1", 10, 120, FIXTURE_STATE_I, "perf", 51, 120);
	fixture_switch(fx, T(1900), 1, "perf", 51, 120, FIXTURE_STATE_S, "swapper/1", 0, 120);
	fixture_switch(fx, T(2000), 0, "perf", 61, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
}

START_TEST(default_exclusions)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct rp_plan *p;

	perf_recording(fx, true);
	p = rf_build(fx, NULL, NULL);
	ck_assert_ptr_null(rf_task(p, 50, 0));		/* perf record and its thread */
	ck_assert_ptr_null(rf_task(p, 51, 0));
	ck_assert_ptr_null(rf_task(p, 10, 0));		/* a kernel thread */
	ck_assert_ptr_nonnull(rf_task(p, 60, 0));	/* perf bench: named perf too */
	ck_assert_ptr_nonnull(rf_task(p, 61, 0));
	ck_assert_uint_eq(p->nr_tasks, 2);
	/* perf record was outside the selection: the bench's first wakeup is timed */
	ck_assert_int_eq(rf_action(p, rf_task(p, 60, 0), 0).kind, RP_SLEEP);
	ck_assert_int_eq(rf_action(p, rf_task(p, 60, 0), 0).rec_time, T(1000));
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

static void defaults_of(struct fixture *fx, struct rp_defaults *d)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	char path[4096], *dir = tu_tmpdir();

	snprintf(path, sizeof(path), "%s/t.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	ck_assert_int_eq(srep_session__open(&s, path, &oo, &err), 0);
	ck_assert_int_eq(rp_defaults__compute(d, s, &err), 0);
	srep_session__delete(s);
	tu_rmdir(dir);
	free(dir);
}

START_TEST(recorder_found)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct rp_defaults d;

	perf_recording(fx, true);
	defaults_of(fx, &d);
	ck_assert_int_eq(d.recorder_pid, 50);
	ck_assert_int_eq(d.workload_pid, 60);
	ck_assert_uint_eq(d.nr_recorder, 2);
	ck_assert_uint_eq(d.nr_kernel, 2);	/* kthreadd and the kworker */
	ck_assert_uint_eq(d.nr_idle, 1);
	rp_defaults__free(&d);
	fixture_free(fx);
	/* no "perf-exec" (perf record -a): the first perf process */
	fx = fixture_new(&o);
	perf_recording(fx, false);
	defaults_of(fx, &d);
	ck_assert_int_eq(d.workload_pid, -1);
	ck_assert_int_eq(d.recorder_pid, 50);
	rp_defaults__free(&d);
	fixture_free(fx);
}
END_TEST

/* ---- scaling ---- */

START_TEST(scale_arithmetic)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct srep_error err = { 0 };
	const struct rp_task *s, *c;
	struct rp_plan *p;

	ck_assert_uint_eq(rp_scale__ns(1000000, 3), 333333);
	ck_assert_uint_eq(rp_scale__ns(2, 4), 1);	/* 0.5 rounds up */
	ck_assert_uint_eq(rp_scale__ns(1, 4), 0);
	ck_assert_uint_eq(rp_scale__ns(1000, 0.5), 2000);
	ck_assert_uint_eq(rp_scale__ns(UINT64_MAX, 0.5), UINT64_MAX);
	rf_wakeups(fx, 1000);	/* microseconds */
	p = rf_build(fx, server_client, NULL);
	ck_assert_int_eq(rp_plan__scale(p, 2, 4, &err), 0);
	s = rf_task(p, 100, 0);
	c = rf_task(p, 200, 0);
	ck_assert_uint_eq(rf_action(p, c, 0).scaled, 1000000);	/* 2 ms of CPU / 2 */
	ck_assert_uint_eq(rf_action(p, c, 2).scaled, 500000);
	ck_assert_uint_eq(rf_action(p, c, 4).scaled, 1100000);
	/* the sleep ends 4.5 ms after the client's start: 3 ms not asleep / 2 + 1.5 ms / 4 */
	ck_assert_uint_eq(rf_action(p, c, 3).scaled, 1875000);
	ck_assert_uint_eq(c->start_off, 500000);
	ck_assert_uint_eq(c->expected_span, 5500000 / 2 + 1500000 / 4);
	ck_assert_uint_eq(s->expected_cpu, 2250000);
	ck_assert_uint_eq(p->expected_span, 500000 + 3125000);
	/* one factor: everything is the recording divided by it */
	ck_assert_int_eq(rp_plan__scale(p, 10, 10, &err), 0);
	ck_assert_uint_eq(p->expected_span, (p->end - p->origin) / 10);
	ck_assert_uint_eq(rf_action(p, c, 3).scaled, 450000);
	ck_assert_uint_eq(s->start_off, 0);
	/* factors are checked */
	ck_assert_int_eq(rp_plan__scale(p, 0, 1, &err), SREP_E_INVAL);
	ck_assert_int_eq(rp_plan__scale(p, 1, -2, &err), SREP_E_INVAL);
	ck_assert_int_eq(rp_plan__scale(p, NAN, 1, &err), SREP_E_INVAL);
	ck_assert_int_eq(rp_plan__scale(p, 1, INFINITY, &err), SREP_E_INVAL);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* a sleep after a WAIT is anchored at the end of the WAIT, not at the task's start */
START_TEST(scale_anchor_after_wait)
{
	static const char *const only[] = { "ping", "pong", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct srep_error err = { 0 };
	struct rp_plan *p;
	const struct rp_task *t;
	size_t i;

	fixture_comm(fx, T(0), 0, 300, 300, "timer", false);
	rf_pingpong(fx, 1, 2, 100);
	/* pong (woken by ping at T 200) sleeps on a timer from T 330 (its block) to T 1330 */
	fixture_waking(fx, T(1330), 1, "pong", 200, 120, 1);
	fixture_switch(fx, T(1340), 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "pong", 200, 120);
	fixture_switch(fx, T(1400), 1, "pong", 200, 120, FIXTURE_STATE_S, "swapper/1", 0, 120);
	p = rf_build(fx, only, NULL);
	ck_assert_int_eq(rp_plan__scale(p, 10, 1, &err), 0);
	t = rf_task(p, 200, 0);
	for (i = 0; i < t->nr_actions && rf_action(p, t, i).kind != RP_SLEEP; i++)
		;
	ck_assert_uint_lt(i, t->nr_actions);
	ck_assert_int_eq(rf_action(p, t, 0).kind, RP_WAIT);
	ck_assert_uint_eq(rf_action(p, t, 0).rec_time + rf_action(p, t, 0).rec_ns, T(200));
	/* from the anchor (T 200): 130 not asleep / 10 + 1000 asleep / 1 */
	ck_assert_uint_eq(rf_action(p, t, i).scaled, 13 + 1000);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* a task's actions beyond one block go to the plan's file and come back unchanged */
START_TEST(actions_spill_and_read_back)
{
	const size_t n = 3 * RP_BLOCK_ACTIONS + 5;
	struct rp_plan *p = calloc(1, sizeof(*p));
	struct rp_action *a, got;
	struct rp_cursor c;
	size_t i;
	int ret;

	ck_assert_ptr_nonnull(p);
	p->tasks = calloc(1, sizeof(*p->tasks));
	ck_assert_ptr_nonnull(p->tasks);
	p->nr_tasks = 1;
	p->scale_run = 2;
	p->scale_sleep = 1;
	for (i = 0; i < n; i++) {
		a = rp_actions__append(p, &p->tasks[0], i % 2 ? RP_SLEEP : RP_RUN, &ret);
		ck_assert_ptr_nonnull(a);
		a->rec_time = i;
		a->rec_ns = 2 * i;
	}
	ck_assert_ptr_nonnull(p->spill);
	ck_assert_uint_eq(p->tasks[0].stored.nr_blocks, 3);
	ck_assert_int_eq(rp_actions__set_latency(p, &p->tasks[0], 1, 77), 0);	/* spilled */
	/* sealed: the 5 last go to the file as a short block, nothing can follow */
	ck_assert_int_eq(rp_actions__seal(p, &p->tasks[0]), 0);
	ck_assert_uint_eq(p->tasks[0].stored.nr_blocks, 4);
	ck_assert_ptr_null(p->tasks[0].stored.tail);
	ck_assert_ptr_null(rp_actions__append(p, &p->tasks[0], RP_RUN, &ret));
	ck_assert_int_eq(ret, SREP_E_INVAL);
	ck_assert_int_eq(rp_actions__set_latency(p, &p->tasks[0], n - 1, 88), 0);
	rp_cursor__init(&c, p, &p->tasks[0]);
	for (i = 0; (ret = rp_cursor__next(&c, &got)) > 0; i++) {
		ck_assert_int_eq(got.kind, i % 2 ? RP_SLEEP : RP_RUN);
		ck_assert_uint_eq(got.rec_time, i);
		ck_assert_uint_eq(got.rec_ns, 2 * i);
		ck_assert_uint_eq(got.rec_latency_ns, i == 1 ? 77 : i == n - 1 ? 88 : RP_NO_LATENCY);
		if (got.kind == RP_RUN)
			ck_assert_uint_eq(got.scaled, i);	/* CPU / 2 */
	}
	rp_cursor__fini(&c);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(i, n);
	ck_assert_uint_eq(rp_task__count(&p->tasks[0], RP_RUN), (n + 1) / 2);
	rp_plan__delete(p);
}
END_TEST

/* a plan long enough to spill: every wakeup paired once, in order, its latency kept */
START_TEST(long_plan_spills)
{
	static const char *const only[] = { "ping", "pong", NULL };
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const int rounds = 4 * RP_BLOCK_ACTIONS;
	struct rp_plan *p;
	struct rp_cursor c;
	struct rp_action a;
	uint32_t *wait_in, *wake_in, j;
	size_t i, n;
	uint64_t last;
	int ret;

	rf_pingpong(fx, 1, rounds, 100);
	p = rf_build(fx, only, NULL);
	ck_assert_ptr_nonnull(p->spill);
	ck_assert_uint_eq(p->nr_wakes, (uint32_t)rounds);
	wait_in = calloc(p->nr_wakes, sizeof(*wait_in));
	wake_in = calloc(p->nr_wakes, sizeof(*wake_in));
	ck_assert(wait_in && wake_in);
	for (i = 0; i < p->nr_tasks; i++) {
		rp_cursor__init(&c, p, &p->tasks[i]);
		for (n = 0, last = 0; (ret = rp_cursor__next(&c, &a)) > 0; n++) {
			ck_assert_uint_ge(a.rec_time, last);
			last = a.rec_time;
			if (a.kind == RP_WAIT) {
				ck_assert_uint_eq(a.rec_latency_ns, 10);
				wait_in[a.id] += (uint32_t)i + 1;
			} else if (a.kind == RP_WAKE) {
				ck_assert_uint_ne(a.target, i);
				wake_in[a.id] += (uint32_t)i + 1;
			}
		}
		rp_cursor__fini(&c);
		ck_assert_int_eq(ret, 0);
		ck_assert_uint_eq(n, p->tasks[i].nr_actions);
		ck_assert_uint_gt(n, 2 * RP_BLOCK_ACTIONS);
	}
	for (j = 0; j < p->nr_wakes; j++) {	/* once each, in two different tasks */
		ck_assert(wait_in[j] == 1 || wait_in[j] == 2);
		ck_assert_uint_eq(wait_in[j] + wake_in[j], 3);
	}
	free(wait_in);
	free(wake_in);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

START_TEST(scale_options)
{
	static const char *const good[] = { "10", "0.5", "1e1", ".25", "3.0", NULL };
	static const double value[] = { 10, 0.5, 10, 0.25, 3 };
	static const char *const bad[] = { "", "0", "-1", "nan", "inf", "1x", " 2", "1e400",
					   "0.0", "+3", "1e-400", NULL };
	struct srep_error err = { 0 };
	double v;
	int i;

	for (i = 0; good[i]; i++) {
		ck_assert_msg(rp_scale__parse(good[i], "--scale", &v, &err) == 0, "%s", good[i]);
		ck_assert(v == value[i]);
	}
	for (i = 0; bad[i]; i++) {
		ck_assert_msg(rp_scale__parse(bad[i], "--scale", &v, &err) == SREP_E_INVAL, "%s",
			      bad[i]);
		ck_assert(strstr(err.msg, "--scale") && strstr(err.msg, "greater than 0"));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_plan");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, paired_and_timed_wakeups);
	tcase_add_test(tc, selected_waker_pairs);
	tcase_add_test(tc, unselected_waker_sleeps);
	tcase_add_test(tc, exclude_wins);
	tcase_add_test(tc, forks_and_tid_reuse);
	tcase_add_test(tc, unselected_parent);
	tcase_add_loop_test(tc, every_format, 0, 32);
	tcase_add_test(tc, switch_records_only);
	tcase_add_test(tc, records_before_tracepoints);
	tcase_add_test(tc, switch_outs_only);
	tcase_add_test(tc, default_exclusions);
	tcase_add_test(tc, recorder_found);
	suite_add_tcase(s, tc);
	tc = tcase_create("scale");
	tcase_add_test(tc, scale_arithmetic);
	tcase_add_test(tc, scale_anchor_after_wait);
	tcase_add_test(tc, scale_options);
	tcase_add_test(tc, actions_spill_and_read_back);
	tcase_add_test(tc, long_plan_spills);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
