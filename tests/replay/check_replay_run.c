// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_replay_run.c - short replays of small fixtures (a few ms each):
 * every thread ran to its end, every paired wakeup was posted before the
 * WAIT it releases returned, a chain of wakeups keeps its recorded order,
 * timed sleeps never end early, a stop ends sleeping and spinning mockups,
 * and what must be refused (--max-threads, --cpu-map, --keep-prio) is
 * refused before any thread starts. Bounds are
 * structural (orderings, lower bounds), never timings: accuracy is
 * bench/replay.sh's business.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "replay_fixtures.h"

#define US 1000	/* fixture unit: microseconds */

static void run_plan(const struct rp_plan *p, const struct rp_run_opts *o, struct rp_result *res)
{
	struct rp_runner *r = NULL;
	struct srep_error err = { 0 };

	ck_assert_msg(rp_runner__new(&r, p, o, &err) == 0, "%s", err.msg);
	ck_assert_msg(rp_runner__run(r, res, &err) == 0, "%s", err.msg);
	rp_runner__delete(r);
}

/* every mockup finished, did what its list says and burned at least its CPU */
static void check_complete(const struct rp_plan *p, const struct rp_result *res, unsigned runs)
{
	size_t i, j;

	ck_assert(!res->interrupted);
	ck_assert_uint_eq(res->runs_done, runs);
	ck_assert_uint_eq(res->nr_tasks, p->nr_tasks);
	for (i = 0; i < p->nr_tasks; i++) {
		const struct rp_task *t = &p->tasks[i];
		const struct rp_task_result *tr = &res->tasks[i];
		uint64_t burn = 0;

		for (j = 0; j < t->nr_actions; j++)
			burn += rf_action(p, t, j).kind == RP_RUN ? rf_action(p, t, j).scaled : 0;
		ck_assert_msg(tr->state == RP_DONE, "task %d did not finish", t->tid);
		ck_assert_uint_eq(tr->runs_done, runs);
		ck_assert_int_gt(tr->host_tid, 0);
		ck_assert_uint_ge(tr->cpu_ns, burn * runs);
		ck_assert_uint_eq(tr->wakeups, (uint64_t)(t->nr_waits + t->nr_sleeps) * runs);
		for (j = 0; j < i; j++)
			ck_assert_int_ne(tr->host_tid, res->tasks[j].host_tid);
	}
	for (i = 0; i < res->nr_wakes; i++) {
		ck_assert_uint_gt(res->wake_returned_ns[i], 0);
		ck_assert_uint_ge(res->wake_returned_ns[i], res->wake_posted_ns[i]);
	}
}

START_TEST(forks_and_wakeups)
{
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	struct rp_run_opts o = { 0 };
	struct rp_result res;
	struct rp_plan *p;

	rf_fork(fx, US);
	p = rf_build(fx, NULL, NULL);
	ck_assert_uint_eq(p->nr_tasks, 3);
	ck_assert_uint_eq(p->nr_wakes, 1);
	run_plan(p, &o, &res);
	check_complete(p, &res, 1);
	rp_result__free(&res);
	/* twice, with the mockups following the recorded CPUs */
	ck_assert_int_eq(rp_cpu_map__parse("auto", &o, NULL), 0);
	o.repeat = 2;
	run_plan(p, &o, &res);
	check_complete(p, &res, 2);
	rp_result__free(&res);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* --cpu-map: each burst runs on the host CPU the map gives its recorded CPU */
START_TEST(cpu_map_pins)
{
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	struct rp_run_opts o = { 0 };
	const struct rp_task *c1;
	struct rp_result res;
	struct rp_plan *p;
	cpu_set_t allowed;
	int32_t cpus[2] = { -1, -1 };
	char spec[32];
	size_t c, n = 0, i;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[n++] = (int32_t)c;
	rf_fork(fx, US);
	p = rf_build(fx, NULL, NULL);
	/* every recorded CPU on the last usable host CPU */
	snprintf(spec, sizeof(spec), "0=%d,1=%d", cpus[n - 1], cpus[n - 1]);
	ck_assert_int_eq(rp_cpu_map__parse(spec, &o, NULL), 0);
	run_plan(p, &o, &res);
	check_complete(p, &res, 1);
	for (i = 0; i < p->nr_tasks; i++)
		ck_assert_int_eq(res.tasks[i].last_cpu, cpus[n - 1]);
	rp_result__free(&res);
	/* auto: the first child's last burst was on recorded CPU 1 */
	ck_assert_int_eq(rp_cpu_map__parse("auto", &o, NULL), 0);
	run_plan(p, &o, &res);
	c1 = rf_task(p, 101, 0);
	ck_assert_int_eq(rf_action(p, c1, c1->nr_actions - 2).cpu, 1);
	ck_assert_int_eq(res.tasks[rf_index(p, c1)].last_cpu, cpus[1 % n]);
	rp_result__free(&res);
	free(o.map);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* ping wakes pong wakes ping...: the replay posts the wakeups in the recorded order */
START_TEST(wakeup_chain_order)
{
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	struct rp_run_opts o = { 0 };
	struct rp_result res;
	struct rp_plan *p;
	size_t i;

	rf_pingpong(fx, US, 12, 150);
	p = rf_build(fx, NULL, NULL);
	ck_assert_uint_eq(p->nr_wakes, 12);
	run_plan(p, &o, &res);
	check_complete(p, &res, 1);
	for (i = 1; i < res.nr_wakes; i++)
		ck_assert_msg(res.wake_posted_ns[i] >= res.wake_returned_ns[i - 1],
			      "wakeup %zu was posted before wakeup %zu released its waker", i, i - 1);
	rp_result__free(&res);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* the client's timed sleep (its waker is not replayed) ends at its deadline, never before */
START_TEST(timed_sleep_deadline)
{
	static const char *const only[] = { "server", "client", NULL };
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	struct rp_run_opts o = { 0 };
	struct srep_error err = { 0 };
	const struct rp_task *c;
	struct rp_result res;
	struct rp_plan *p;

	rf_wakeups(fx, US);
	p = rf_build(fx, only, NULL);
	ck_assert_int_eq(rp_plan__scale(p, 2, 2, &err), 0);
	c = rf_task(p, 200, 0);
	ck_assert_int_eq(rf_action(p, c, 3).kind, RP_SLEEP);
	run_plan(p, &o, &res);
	check_complete(p, &res, 1);
	ck_assert_uint_ge(res.tasks[rf_index(p, c)].span_ns, rf_action(p, c, 3).scaled);
	ck_assert_uint_ge(res.tasks[rf_index(p, c)].start_ns, c->start_off);
	rp_result__free(&res);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* ---- stopping ---- */

struct stopper {
	struct rp_runner *r;
};

static void *stop_soon(void *arg)
{
	struct stopper *st = arg;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	rp_runner__stop(st->r);
	return NULL;
}

/* one task: runs 'run' ns of CPU, then sleeps 'sleep' ns on a timer, then runs again */
static struct rp_plan *long_task(uint64_t run, uint64_t sleep)
{
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	uint64_t t = RF_T0 + 1000;
	struct rp_plan *p;

	fixture_comm(fx, RF_T0, 0, 100, 100, "long", false);
	fixture_switch(fx, t, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "long", 100, 120);
	fixture_switch(fx, t + run, 0, "long", 100, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_waking(fx, t + run + sleep, 0, "long", 100, 120, 0);
	fixture_switch(fx, t + run + sleep, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "long", 100, 120);
	fixture_switch(fx, t + 2 * run + sleep, 0, "long", 100, 120, FIXTURE_STATE_S,
		       "swapper/0", 0, 120);
	p = rf_build(fx, NULL, NULL);
	fixture_free(fx);
	return p;
}

static void stop_and_check(struct rp_plan *p)
{
	struct rp_run_opts o = { 0 };
	struct srep_error err = { 0 };
	struct stopper st = { 0 };
	struct rp_result res;
	pthread_t th;

	ck_assert_int_eq(rp_runner__new(&st.r, p, &o, &err), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, stop_soon, &st), 0);
	/* without the stop this takes a minute: Check's timeout fails the test */
	ck_assert_int_eq(rp_runner__run(st.r, &res, &err), 0);
	pthread_join(th, NULL);
	ck_assert(res.interrupted);
	ck_assert_uint_eq(res.runs_done, 0);
	ck_assert_int_eq(res.tasks[0].state, RP_STOPPED);
	rp_result__free(&res);
	rp_runner__delete(st.r);
}

START_TEST(stop_while_sleeping)
{
	struct rp_plan *p = long_task(1000000, 60000000000ull);

	ck_assert_int_eq(rf_action(p, &p->tasks[0], 1).kind, RP_SLEEP);
	stop_and_check(p);
	rp_plan__delete(p);
}
END_TEST

START_TEST(stop_while_running)
{
	struct rp_plan *p = long_task(60000000000ull, 1000000);

	ck_assert_int_eq(rf_action(p, &p->tasks[0], 0).kind, RP_RUN);
	stop_and_check(p);
	rp_plan__delete(p);
}
END_TEST

/* ---- refused before anything starts ---- */

START_TEST(cpu_map_options)
{
	static const char *const bad[] = { "", "0=", "=1", "0=1,", "0=1,0=2", "a=b", "0=99999",
					   "4096=0", "0:1", "0=1;1=2", NULL };
	struct rp_run_opts o = { 0 };
	struct srep_error err = { 0 };
	int i;

	ck_assert_int_eq(rp_cpu_map__parse("auto", &o, &err), 0);
	ck_assert_int_eq(o.cpu_map, RP_CPU_MAP_AUTO);
	ck_assert_int_eq(rp_cpu_map__parse("none", &o, &err), 0);
	ck_assert_int_eq(o.cpu_map, RP_CPU_MAP_NONE);
	ck_assert_int_eq(rp_cpu_map__parse("0=2,1=3", &o, &err), 0);
	ck_assert_int_eq(o.cpu_map, RP_CPU_MAP_LIST);
	ck_assert_uint_eq(o.nr_map, 2);
	ck_assert_int_eq(o.map[0], 2);
	ck_assert_int_eq(o.map[1], 3);
	ck_assert_int_eq(rp_cpu_map__parse("3=1", &o, &err), 0);
	ck_assert_uint_eq(o.nr_map, 4);
	ck_assert_int_eq(o.map[0], -1);		/* unlisted: not pinned */
	ck_assert_int_eq(o.map[3], 1);
	for (i = 0; bad[i]; i++) {
		ck_assert_msg(rp_cpu_map__parse(bad[i], &o, &err) == SREP_E_INVAL, "'%s'", bad[i]);
		ck_assert(strstr(err.msg, "--cpu-map"));
	}
	free(o.map);
}
END_TEST

START_TEST(refusals)
{
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	struct rp_run_opts o = { .max_threads = 2 };
	struct srep_error err = { 0 };
	struct rp_runner *r = NULL;
	cpu_set_t allowed;
	struct rp_plan *p;
	char spec[32];

	rf_fork(fx, US);
	p = rf_build(fx, NULL, NULL);
	ck_assert_int_eq(rp_runner__new(&r, p, &o, &err), SREP_E_LIMIT);
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(err.msg, "3 tasks") && strstr(err.msg, "--max-threads 2"), "%s",
		      err.msg);
	o.max_threads = 3;
	ck_assert_int_eq(rp_runner__new(&r, p, &o, &err), 0);
	rp_runner__delete(r);
	/* a host CPU this process cannot use */
	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	if (!CPU_ISSET(CPU_SETSIZE - 1, &allowed)) {
		snprintf(spec, sizeof(spec), "0=%d", CPU_SETSIZE - 1);
		ck_assert_int_eq(rp_cpu_map__parse(spec, &o, &err), 0);
		ck_assert_int_eq(rp_runner__new(&r, p, &o, &err), SREP_E_INVAL);
		ck_assert_ptr_nonnull(strstr(err.msg, "not available"));
	}
	free(o.map);
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

/* --keep-prio: the outsider was recorded at nice -10; either it is applied or refused clearly */
START_TEST(keep_prio)
{
	struct fixture_opts fo = { 0 };
	struct fixture *fx = fixture_new(&fo);
	struct rp_run_opts o = { .keep_prio = true };
	struct srep_error err = { 0 };
	struct rp_runner *r = NULL;
	struct rp_result res;
	struct rp_plan *p;

	rf_wakeups(fx, US);
	p = rf_build(fx, NULL, NULL);
	ck_assert_int_eq(rf_task(p, 300, 0)->prio, 110);
	if (rp_runner__new(&r, p, &o, &err)) {
		ck_assert_int_eq(err.code, SREP_E_UNSUPPORTED);
		ck_assert_msg(strstr(err.msg, "--keep-prio") && strstr(err.msg, "nice -10"), "%s",
			      err.msg);
	} else {
		ck_assert_int_eq(rp_runner__run(r, &res, &err), 0);
		check_complete(p, &res, 1);
		rp_result__free(&res);
		rp_runner__delete(r);
	}
	rp_plan__delete(p);
	fixture_free(fx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_run");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 10);	/* sanitizers slow thread creation down */
	tcase_add_test(tc, forks_and_wakeups);
	tcase_add_test(tc, cpu_map_pins);
	tcase_add_test(tc, wakeup_chain_order);
	tcase_add_test(tc, timed_sleep_deadline);
	tcase_add_test(tc, stop_while_sleeping);
	tcase_add_test(tc, stop_while_running);
	tcase_add_test(tc, cpu_map_options);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, keep_prio);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
