// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_blocking.c - the blocking sites behind compare's "where tasks
 * block": a site is one (kernel, user) pair whichever strings name it,
 * sleeps add their time to the site they started at, a sleep that never
 * ended leaves no count, groups sum per site, the order is most time first,
 * and the bounds (sites per task, per trace) send the rest to "(other)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "blocking.h"

static void sleep_at(struct blocking_table *t, struct blocking_task *bt, const char *k, const char *u,
		     uint64_t ns)
{
	ck_assert_int_eq(blocking_sleep_start(t, bt, k, u), 0);
	blocking_sleep_end(bt, ns);
}

START_TEST(sites_sum_and_order)
{
	struct blocking_table t = { 0 };
	struct blocking_task a = { .open = BLK_NONE }, b = { .open = BLK_NONE };
	struct blocking_task never = { .open = BLK_NONE };
	const struct blocking_task *both[2] = { &a, &b }, *with_idle[2] = { &a, &never };
	struct srep_block_site out[8];
	char k[32];

	strcpy(k, "futex_wait_queue");		/* another copy of the same name: one site */
	sleep_at(&t, &a, "futex_wait_queue", "take_lock", 300);
	sleep_at(&t, &a, k, "take_lock", 200);
	sleep_at(&t, &a, "do_nanosleep", "clock_nanosleep", 700);
	sleep_at(&t, &a, "do_nanosleep", NULL, 1);		/* no user frame: its own site */
	sleep_at(&t, &b, "futex_wait_queue", "take_lock", 1000);
	sleep_at(&t, &b, NULL, "read", 5);			/* no kernel frame */
	/* a sleep in progress counts once it ends; a dropped one not at all */
	ck_assert_int_eq(blocking_sleep_start(&t, &b, "pipe_read", "read"), 0);
	blocking_sleep_drop(&b);
	blocking_sleep_end(&b, 99);					/* none open: nothing */

	ck_assert_uint_eq(blocking_collect(&t, both, 1, out, 8), 3);
	ck_assert_str_eq(out[0].kernel, "do_nanosleep");
	ck_assert_uint_eq(out[0].ns, 700);
	ck_assert_str_eq(out[1].kernel, "futex_wait_queue");
	ck_assert_str_eq(out[1].user, "take_lock");
	ck_assert_uint_eq(out[1].ns, 500);
	ck_assert_uint_eq(out[1].count, 2);
	ck_assert_ptr_null(out[2].user);

	ck_assert_uint_eq(blocking_collect(&t, both, 2, out, 2), 4);	/* four sites, two written */
	ck_assert_str_eq(out[0].kernel, "futex_wait_queue");
	ck_assert_uint_eq(out[0].ns, 1500);
	ck_assert_uint_eq(out[0].count, 3);
	ck_assert_uint_eq(blocking_collect(&t, both, 2, NULL, 0), 4);
	ck_assert_uint_eq(blocking_collect(&t, both, 0, NULL, 0), 0);
	/* a task that never slept has no array at all */
	ck_assert_uint_eq(blocking_collect(&t, with_idle, 2, out, 8), 3);
	ck_assert_uint_eq(blocking_collect(&t, with_idle + 1, 1, out, 8), 0);
	blocking_task_free(&a);
	blocking_task_free(&b);
	blocking_table_free(&t);
}
END_TEST

/* equal times: more sleeps first, then by name, unknown sides last */
START_TEST(ties)
{
	struct blocking_table t = { 0 };
	struct blocking_task a = { .open = BLK_NONE };
	const struct blocking_task *one[1] = { &a };
	struct srep_block_site out[4];

	sleep_at(&t, &a, "b", NULL, 10);
	sleep_at(&t, &a, "b", "u", 10);
	sleep_at(&t, &a, "a", "u", 5);
	sleep_at(&t, &a, "a", "u", 5);
	ck_assert_uint_eq(blocking_collect(&t, one, 1, out, 4), 3);
	ck_assert_str_eq(out[0].kernel, "a");
	ck_assert_str_eq(out[1].user, "u");
	ck_assert_ptr_null(out[2].user);
	blocking_task_free(&a);
	blocking_table_free(&t);
}
END_TEST

/* a task with more sites than it may keep: the rest go to "(other)" */
START_TEST(bounds)
{
	struct blocking_table t = { 0 };
	struct blocking_task a = { .open = BLK_NONE }, b = { .open = BLK_NONE };
	const struct blocking_task *one[1] = { &a }, *other[1] = { &b };
	struct srep_block_site *out = calloc(BLK_MAX_PER_TASK + 8, sizeof(*out));
	uint64_t total = 0;
	char name[32];
	size_t n, i;

	for (i = 0; i < BLK_MAX_PER_TASK + 10; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		sleep_at(&t, &a, name, NULL, 1000 + i);
	}
	n = blocking_collect(&t, one, 1, out, BLK_MAX_PER_TASK + 8);
	ck_assert_uint_eq(n, BLK_MAX_PER_TASK);
	for (i = 0; i < n; i++)
		total += out[i].ns;
	ck_assert_str_eq(out[0].kernel, BLK_OTHER_NAME);	/* 11 sleeps, the largest sum */
	ck_assert_uint_eq(out[0].count, 11);
	ck_assert_uint_eq(total, (BLK_MAX_PER_TASK + 10) * 1000 +
			  (BLK_MAX_PER_TASK + 10) * (BLK_MAX_PER_TASK + 9) / 2);
	/* "(other)" is never found by name: a real function of that name is its own site */
	sleep_at(&t, &b, BLK_OTHER_NAME, NULL, 1);
	ck_assert_uint_eq(blocking_collect(&t, other, 1, out, 2), 1);
	ck_assert_uint_eq(out[0].count, 1);
	ck_assert_uint_eq(blocking_collect(&t, one, 1, out, 1), BLK_MAX_PER_TASK);
	ck_assert_uint_eq(out[0].count, 11);
	free(out);
	blocking_task_free(&a);
	blocking_task_free(&b);
	blocking_table_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("blocking");
	TCase *tc = tcase_create("sites");

	tcase_add_test(tc, sites_sum_and_order);
	tcase_add_test(tc, ties);
	tcase_add_test(tc, bounds);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
