// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_task.c - the task table (src/task.c): tids mapped to their newest
 * task with older ones kept (tid reuse), the comm history and glob
 * matching, first/last seen, and the cache of recent tids staying coherent
 * with task_new(); then tid reuse as a trace shows it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

START_TEST(get_find_new)
{
	struct task_table tt;
	struct srep_task *a, *b, *c;

	task_table_init(&tt);
	ck_assert_ptr_null(task_find(&tt, 42));
	a = task_get(&tt, 42);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(srep_task__tid(a), 42);
	ck_assert_int_eq(srep_task__pid(a), -1);
	ck_assert_int_eq(srep_task__ppid(a), -1);
	ck_assert_int_eq(srep_task__ptid(a), -1);
	ck_assert_str_eq(srep_task__comm(a), "");
	ck_assert_uint_eq(srep_task__nr_comms(a), 0);
	ck_assert_uint_eq(srep_task__first_seen(a), 0);
	ck_assert_uint_eq(srep_task__fork_time(a), 0);
	ck_assert_uint_eq(srep_task__exit_time(a), 0);
	ck_assert_uint_eq(srep_task__index(a), 0);
	ck_assert_ptr_eq(task_get(&tt, 42), a);
	ck_assert_ptr_eq(task_find(&tt, 42), a);
	/* a tid reused: the new task is found, the old one stays listed */
	b = task_new(&tt, 42);
	ck_assert_ptr_ne(a, b);
	ck_assert_ptr_eq(task_find(&tt, 42), b);
	ck_assert_ptr_eq(task_get(&tt, 42), b);
	ck_assert_uint_eq(srep_task__index(b), 1);
	ck_assert_uint_eq(tt.nr, 2);
	ck_assert_ptr_eq(tt.tasks[0], a);
	c = task_get(&tt, 0);
	ck_assert_uint_eq(srep_task__index(c), 2);
	ck_assert_ptr_eq(task_find(&tt, 0), c);
	ck_assert_ptr_eq(task_find(&tt, 42), b);
	task_table_free(&tt);
}
END_TEST

/* the recent-tid cache: tids 256 apart share a slot; task_new() must win over it */
START_TEST(recent_cache_coherent)
{
	struct task_table tt;
	struct srep_task *a, *b, *a2, *neg;
	int i;

	task_table_init(&tt);
	a = task_get(&tt, 7);
	b = task_get(&tt, 7 + 256);
	for (i = 0; i < 3; i++) {
		ck_assert_ptr_eq(task_find(&tt, 7), a);
		ck_assert_ptr_eq(task_find(&tt, 7 + 256), b);
	}
	ck_assert_ptr_eq(task_find(&tt, 7), a);		/* a in the cache */
	a2 = task_new(&tt, 7);
	ck_assert_ptr_eq(task_find(&tt, 7), a2);
	ck_assert_ptr_eq(task_find(&tt, 7 + 256), b);	/* b took the slot back... */
	ck_assert_ptr_eq(task_find(&tt, 7), a2);	/* ...and a2 is still the one */
	b = task_new(&tt, 7 + 256);			/* renewed while a2 holds the slot */
	ck_assert_ptr_eq(task_find(&tt, 7 + 256), b);
	ck_assert_ptr_eq(task_find(&tt, 7), a2);
	/* tids the cache has never seen, and tids that look like others through it */
	ck_assert_ptr_null(task_find(&tt, 7 + 512));
	neg = task_get(&tt, -1);			/* slot 255 */
	ck_assert_ptr_nonnull(neg);
	ck_assert_ptr_null(task_find(&tt, 255));
	ck_assert_ptr_eq(task_find(&tt, -1), neg);
	task_table_free(&tt);
}
END_TEST

/* thousands of tids: the hash grows and everything is found, in creation order */
START_TEST(many_tids)
{
	struct task_table tt;
	int32_t tid;
	size_t i;

	task_table_init(&tt);
	for (tid = 1; tid <= 20000; tid++) {
		struct srep_task *t = task_get(&tt, tid * 37);

		if (!t || t->index != (size_t)(tid - 1))
			ck_abort_msg("tid %d", tid * 37);
	}
	for (tid = 1; tid <= 20000; tid++) {
		struct srep_task *t = task_find(&tt, tid * 37);

		if (!t || t->tid != tid * 37)
			ck_abort_msg("tid %d lost", tid * 37);
	}
	for (i = 0; i < tt.nr; i++)
		if (tt.tasks[i]->index != i)
			ck_abort_msg("index %zu", i);
	ck_assert_ptr_null(task_find(&tt, 38));
	task_table_free(&tt);
}
END_TEST

/* after a reset nothing is found, not even through the cache; the table works again */
START_TEST(reset)
{
	struct task_table tt;
	struct srep_task *t;

	task_table_init(&tt);
	task_get(&tt, 5);
	task_set_comm(task_get(&tt, 6), "six", 1);
	ck_assert_ptr_nonnull(task_find(&tt, 5));
	task_table_reset(&tt);
	ck_assert_uint_eq(tt.nr, 0);
	ck_assert_ptr_null(task_find(&tt, 5));
	ck_assert_ptr_null(task_find(&tt, 6));
	t = task_get(&tt, 6);
	ck_assert_uint_eq(srep_task__index(t), 0);
	ck_assert_uint_eq(srep_task__nr_comms(t), 0);
	task_table_reset(&tt);
	task_table_free(&tt);
	task_table_free(&tt);			/* twice is fine: it was zeroed */
}
END_TEST

START_TEST(comm_history)
{
	struct task_table tt;
	struct srep_task *t;
	uint64_t when = 0;
	char longc[64];

	task_table_init(&tt);
	t = task_get(&tt, 100);
	ck_assert_ptr_null(srep_task__comm_at(t, 0, &when));
	ck_assert_int_eq(task_set_comm(t, "bash", 10), 0);
	ck_assert_int_eq(task_set_comm(t, "bash", 20), 0);	/* unchanged: no entry */
	ck_assert_int_eq(task_set_comm(t, "", 25), 0);		/* empty: ignored */
	ck_assert_int_eq(task_set_comm(t, "worker", 30), 0);
	ck_assert_int_eq(task_set_comm(t, "bash", 40), 0);	/* back: a new entry */
	ck_assert_uint_eq(srep_task__nr_comms(t), 3);
	ck_assert_str_eq(srep_task__comm(t), "bash");
	ck_assert_str_eq(srep_task__comm_at(t, 0, &when), "bash");
	ck_assert_uint_eq(when, 10);
	ck_assert_str_eq(srep_task__comm_at(t, 1, &when), "worker");
	ck_assert_uint_eq(when, 30);
	ck_assert_str_eq(srep_task__comm_at(t, 2, NULL), "bash");
	ck_assert_ptr_null(srep_task__comm_at(t, 3, &when));
	/* longer than a comm holds: cut and terminated */
	memset(longc, 'x', sizeof(longc) - 1);
	longc[sizeof(longc) - 1] = '\0';
	ck_assert_int_eq(task_set_comm(t, longc, 50), 0);
	ck_assert_uint_eq(strlen(srep_task__comm(t)), SREP_COMM_MAX - 1);
	ck_assert_uint_eq(strlen(srep_task__comm_at(t, 3, NULL)), SREP_COMM_MAX - 1);
	task_table_free(&tt);
}
END_TEST

/* the word compare of kernel comms agrees with a string compare, padding or not */
START_TEST(same_comm)
{
	char ev[SREP_COMM_MAX], longer[SREP_COMM_MAX + 1];
	struct task_table tt;
	struct srep_task *t;

	task_table_init(&tt);
	t = task_get(&tt, 7);
	task_set_comm(t, "sched-messaging", 1);
	memset(ev, 0, sizeof(ev));
	strcpy(ev, "sched-messaging");
	ck_assert(task_same_comm(t, ev));
	ev[15] = 'x';		/* 16 characters: not the same */
	ck_assert(!task_same_comm(t, ev));
	memset(ev, 0, sizeof(ev));
	strcpy(ev, "sched");
	memcpy(ev + 6, "junk", 4);	/* an old kernel's bytes after the NUL */
	ck_assert(!task_same_comm(t, ev));
	task_set_comm(t, "sched", 2);
	ck_assert(task_same_comm(t, ev));
	/* a name longer than a kernel comm (JSON input): no word compare */
	memset(longer, 'a', SREP_COMM_MAX);
	longer[SREP_COMM_MAX - 1] = '\0';
	task_set_comm(t, longer, 3);
	memcpy(ev, longer, 16);
	memset(ev + 16, 0, SREP_COMM_MAX - 16);
	ck_assert(!task_same_comm(t, ev));
	memcpy(ev, longer, SREP_COMM_MAX);
	ck_assert(task_same_comm(t, ev));
	task_table_free(&tt);
}
END_TEST

START_TEST(matches_comm)
{
	struct task_table tt;
	struct srep_task *t, *none;

	task_table_init(&tt);
	t = task_get(&tt, 1);
	none = task_get(&tt, 2);
	task_set_comm(t, "perf", 1);
	task_set_comm(t, "kworker/0:1", 2);
	task_set_comm(t, "my app", 3);
	/* exact, against every comm ever had */
	ck_assert(srep_task__matches_comm(t, "perf"));
	ck_assert(srep_task__matches_comm(t, "my app"));
	ck_assert(!srep_task__matches_comm(t, "per"));
	ck_assert(!srep_task__matches_comm(t, "Perf"));
	/* globs as fnmatch(3) reads them */
	ck_assert(srep_task__matches_comm(t, "kworker/*"));
	ck_assert(srep_task__matches_comm(t, "kworker/?:?"));
	ck_assert(srep_task__matches_comm(t, "[mp]*"));
	ck_assert(srep_task__matches_comm(t, "*"));
	ck_assert(!srep_task__matches_comm(t, "kworker"));
	ck_assert(!srep_task__matches_comm(t, "[!mkp]*"));
	/* a task without any comm matches nothing, not even '*' */
	ck_assert(!srep_task__matches_comm(none, "*"));
	task_table_free(&tt);
}
END_TEST

START_TEST(first_last_seen)
{
	struct task_table tt;
	struct srep_task *t;

	task_table_init(&tt);
	t = task_get(&tt, 9);
	task_seen(t, 0);				/* no time: nothing */
	ck_assert_uint_eq(srep_task__first_seen(t), 0);
	task_seen(t, 500);
	task_seen(t, 300);				/* earlier, delivered later */
	task_seen(t, 900);
	task_seen(t, 0);
	task_seen(t, 700);
	ck_assert_uint_eq(srep_task__first_seen(t), 300);
	ck_assert_uint_eq(srep_task__last_seen(t), 900);
	task_table_free(&tt);
}
END_TEST

/* ---- tid reuse in a trace ---- */

#define T0 6000000000ull

static struct srep_session *read_trace(void (*fn)(struct fixture *), unsigned flags)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	uint8_t *buf = NULL;
	size_t len;

	fn(fx);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, flags, NULL, &s, &err), 0);
	ck_assert_msg(tu_collect(s, &ev, &err) == 0, "%s", err.msg);
	tu_events_free(&ev);
	fixture_free(fx);
	free(buf);
	return s;
}

/* a shell runs two commands in turn; the second gets the first one's tid */
static void reuse(struct fixture *fx)
{
	fixture_comm(fx, T0, 0, 50, 50, "sh", false);
	fixture_fork(fx, T0 + 10, 0, 51, 50, 51, 50);
	fixture_comm(fx, T0 + 20, 0, 51, 51, "ls", true);
	fixture_exit(fx, T0 + 30, 0, 51, 50, 51, 50);
	fixture_fork(fx, T0 + 40, 1, 51, 50, 51, 50);
	fixture_comm(fx, T0 + 50, 1, 51, 51, "cat", true);
	fixture_exit(fx, T0 + 60, 1, 51, 50, 51, 50);
	fixture_exit(fx, T0 + 70, 0, 50, 1, 50, 1);
}

START_TEST(tid_reuse_in_a_trace)
{
	unsigned flags;

	for (flags = 0; flags <= SREP_OPEN_PRESCAN; flags += SREP_OPEN_PRESCAN) {
		struct srep_session *s = read_trace(reuse, flags);
		const struct srep_task *first = NULL, *second, *sh;
		size_t i, n = 0;

		for (i = 0; i < srep_session__nr_tasks(s); i++) {
			const struct srep_task *t = srep_session__task(s, i);

			ck_assert_uint_eq(srep_task__index(t), i);
			if (srep_task__tid(t) == 51 && n++ == 0)
				first = t;
		}
		ck_assert_uint_eq(n, 2);
		second = srep_session__find_task(s, 51);
		ck_assert_ptr_ne(first, second);
		ck_assert_uint_gt(srep_task__index(second), srep_task__index(first));
		ck_assert_str_eq(srep_task__comm(first), "ls");
		ck_assert_uint_eq(srep_task__fork_time(first), T0 + 10);
		ck_assert_uint_eq(srep_task__exit_time(first), T0 + 30);
		ck_assert_uint_eq(srep_task__first_seen(first), T0 + 10);
		ck_assert_uint_eq(srep_task__last_seen(first), T0 + 30);
		ck_assert_str_eq(srep_task__comm(second), "cat");
		/* the child starts with its parent's comm, then execs */
		ck_assert_str_eq(srep_task__comm_at(second, 0, NULL), "sh");
		ck_assert_uint_eq(srep_task__nr_comms(second), 2);
		ck_assert_uint_eq(srep_task__fork_time(second), T0 + 40);
		ck_assert_uint_eq(srep_task__exit_time(second), T0 + 60);
		ck_assert_int_eq(srep_task__pid(second), 51);
		ck_assert_int_eq(srep_task__ppid(second), 50);
		ck_assert_int_eq(srep_task__ptid(second), 50);
		sh = srep_session__find_task(s, 50);
		ck_assert_uint_eq(srep_task__first_seen(sh), T0);
		ck_assert_uint_eq(srep_task__last_seen(sh), T0 + 70);
		srep_session__delete(s);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("task");
	TCase *tc = tcase_create("task");

	tcase_add_test(tc, get_find_new);
	tcase_add_test(tc, recent_cache_coherent);
	tcase_add_test(tc, many_tids);
	tcase_add_test(tc, reset);
	tcase_add_test(tc, comm_history);
	tcase_add_test(tc, same_comm);
	tcase_add_test(tc, matches_comm);
	tcase_add_test(tc, first_last_seen);
	tcase_add_test(tc, tid_reuse_in_a_trace);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
