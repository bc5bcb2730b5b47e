// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_fixtures.c - traces with known timings for the replay suites.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "replay_fixtures.h"

#define R FIXTURE_STATE_R
#define S FIXTURE_STATE_S
#define X FIXTURE_STATE_X
#define PRE FIXTURE_STATE_PREEMPT

void rf_wakeups(struct fixture *fx, uint64_t u)
{
	const uint64_t t = RF_T0;

	fixture_comm(fx, t, 0, 100, 100, "server", false);
	fixture_comm(fx, t, 1, 200, 200, "client", false);
	fixture_comm(fx, t, 0, 300, 300, "outsider", false);
	fixture_switch(fx, t + 1000 * u, 0, "swapper/0", 0, 120, R, "server", 100, 120);
	fixture_switch(fx, t + 2000 * u, 1, "swapper/1", 0, 120, R, "client", 200, 120);
	fixture_switch(fx, t + 3000 * u, 0, "server", 100, 120, S, "swapper/0", 0, 120);
	fixture_waking(fx, t + 4000 * u, 1, "server", 100, 120, 0);	/* by the client */
	fixture_switch(fx, t + 4500 * u, 0, "swapper/0", 0, 120, R, "server", 100, 120);
	fixture_switch(fx, t + 5000 * u, 1, "client", 200, 120, S, "swapper/1", 0, 120);
	fixture_switch(fx, t + 6000 * u, 0, "server", 100, 120, PRE, "outsider", 300, 110);
	fixture_waking(fx, t + 6500 * u, 0, "client", 200, 120, 1);	/* by the outsider */
	fixture_switch(fx, t + 6800 * u, 1, "swapper/1", 0, 120, R, "client", 200, 120);
	fixture_switch(fx, t + 7000 * u, 0, "outsider", 300, 110, S, "server", 100, 120);
	fixture_tp_exit(fx, t + 7900 * u, 0, "server", 100, 120);
	fixture_switch(fx, t + 8000 * u, 0, "server", 100, 120, X, "swapper/0", 0, 120);
	fixture_switch(fx, t + 9000 * u, 1, "client", 200, 120, S, "swapper/1", 0, 120);
}

static void fork_at(struct fixture *fx, uint64_t time, const char *parent_comm)
{
	fixture_fork(fx, time, 0, 101, 100, 101, 100);
	fixture_tp_fork(fx, time, 0, parent_comm, 100, parent_comm, 101);
	fixture_wakeup_new(fx, time, 0, parent_comm, 101, 120, 1);
}

void rf_fork(struct fixture *fx, uint64_t u)
{
	const uint64_t t = RF_T0;

	fixture_comm(fx, t, 0, 100, 100, "parent", false);
	fixture_switch(fx, t + 1000 * u, 0, "swapper/0", 0, 120, R, "parent", 100, 120);
	fork_at(fx, t + 2000 * u, "parent");
	fixture_switch(fx, t + 3000 * u, 0, "parent", 100, 120, S, "parent", 101, 120);
	fixture_comm(fx, t + 3100 * u, 0, 101, 101, "child", false);
	fixture_switch(fx, t + 4000 * u, 0, "child", 101, 120, PRE, "swapper/0", 0, 120);
	fixture_switch(fx, t + 4200 * u, 1, "swapper/1", 0, 120, R, "child", 101, 120);
	fixture_waking(fx, t + 4500 * u, 1, "parent", 100, 120, 0);	/* by the child */
	fixture_switch(fx, t + 4600 * u, 0, "swapper/0", 0, 120, R, "parent", 100, 120);
	fixture_tp_exit(fx, t + 4900 * u, 1, "child", 101, 120);
	fixture_exit(fx, t + 4950 * u, 1, 101, 100, 101, 100);
	fixture_switch(fx, t + 5000 * u, 1, "child", 101, 120, X, "swapper/1", 0, 120);
	fork_at(fx, t + 6000 * u, "parent");
	fixture_switch(fx, t + 6100 * u, 1, "swapper/1", 0, 120, R, "parent", 101, 120);
	fixture_tp_exit(fx, t + 6400 * u, 1, "parent", 101, 120);
	fixture_exit(fx, t + 6450 * u, 1, 101, 100, 101, 100);
	fixture_switch(fx, t + 6500 * u, 1, "parent", 101, 120, X, "swapper/1", 0, 120);
	fixture_switch(fx, t + 7000 * u, 0, "parent", 100, 120, S, "swapper/0", 0, 120);
}

/* ping on CPU 0, pong on CPU 1: each runs 'run', wakes the other and blocks */
void rf_pingpong(struct fixture *fx, uint64_t u, int rounds, uint64_t run)
{
	uint64_t t = RF_T0;
	int i;

	fixture_comm(fx, t, 0, 100, 100, "ping", false);
	fixture_comm(fx, t, 1, 200, 200, "pong", false);
	t += 100 * u;
	fixture_switch(fx, t, 0, "swapper/0", 0, 120, R, "ping", 100, 120);
	for (i = 0; i < rounds; i++) {
		int me = i % 2, cpu = me;
		int32_t tid = me ? 200 : 100, other = me ? 100 : 200;
		const char *comm = me ? "pong" : "ping", *ocomm = me ? "ping" : "pong";

		t += run * u;
		fixture_waking(fx, t, cpu, ocomm, other, 120, !cpu);
		fixture_switch(fx, t + 10 * u, !cpu, me ? "swapper/0" : "swapper/1", 0, 120, R,
			       ocomm, other, 120);
		fixture_switch(fx, t + 20 * u, cpu, comm, tid, 120, S, me ? "swapper/1" : "swapper/0",
			       0, 120);
		t += 10 * u;
	}
}

struct rp_plan *rf_build(struct fixture *fx, const char *const *only, const char *const *exclude)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *s = NULL;
	struct srep_selection *sel = NULL;
	struct rp_defaults def = { 0 };
	struct srep_error err = { 0 };
	struct rp_plan *p = NULL;
	char path[4096], *dir = tu_tmpdir();

	ck_assert_ptr_nonnull(dir);
	snprintf(path, sizeof(path), "%s/t.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	ck_assert_msg(srep_session__open(&s, path, &oo, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	for (; only && *only; only++)
		ck_assert_int_eq(srep_selection__add_only(sel, *only, &err), 0);
	for (; exclude && *exclude; exclude++)
		ck_assert_int_eq(srep_selection__add_exclude(sel, *exclude, &err), 0);
	ck_assert_int_eq(srep_selection__resolve(sel, s, &err), 0);
	if (!only)
		ck_assert_int_eq(rp_defaults__compute(&def, s, &err), 0);
	ck_assert_msg(rp_plan__build(&p, s, sel, def.excluded ? &def : NULL, &err) == 0, "%s",
		      err.msg);
	rp_defaults__free(&def);
	srep_selection__delete(sel);
	srep_session__delete(s);
	tu_rmdir(dir);
	free(dir);
	return p;
}

const struct rp_task *rf_task(const struct rp_plan *p, int32_t tid, int nth)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++) {
		if (p->tasks[i].tid == tid && nth-- == 0)
			return &p->tasks[i];
	}
	return NULL;
}

uint32_t rf_index(const struct rp_plan *p, const struct rp_task *t)
{
	return (uint32_t)(t - p->tasks);
}

struct rp_action rf_action(const struct rp_plan *p, const struct rp_task *t, size_t i)
{
	struct rp_cursor c;
	struct rp_action a;
	size_t n = 0;
	int ret;

	rp_cursor__init(&c, p, t);
	while ((ret = rp_cursor__next(&c, &a)) > 0 && n < i)
		n++;
	rp_cursor__fini(&c);
	ck_assert_msg(ret > 0, "task %d: no action %zu (cursor: %d)", t->tid, i, ret);
	return a;
}
