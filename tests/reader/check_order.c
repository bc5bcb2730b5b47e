// SPDX-License-Identifier: GPL-2.0-or-later
/* check_order.c - the reorder queue: per-CPU merge, rounds, the window, late records */
#include <stdlib.h>

#include "testutil.h"
#include "reader.h"

/*
 * No ck_assert in these helpers: a passing Check assertion still records a
 * mark point, which for the window test's 200,000 records took seconds.
 */
static void push(struct order_queue *q, uint64_t t, int32_t cpu, bool *late)
{
	uint8_t rec[16] = { 0 };

	rec[0] = (uint8_t)t;
	if (order_push(q, t, cpu, 0, rec, sizeof(rec), t, NULL, late) != 0)
		ck_abort_msg("push of %llu failed", (unsigned long long)t);
}

static uint64_t pop(struct order_queue *q)
{
	const struct order_entry *e = order_peek(q);
	uint64_t t;

	if (!e)
		ck_abort_msg("nothing to pop");
	if (e->data[0] != (uint8_t)e->time)	/* the copy travels with it */
		ck_abort_msg("record of %llu lost its data", (unsigned long long)e->time);
	t = e->time;
	order_pop(q);
	return t;
}

START_TEST(merges_cpus_at_eof)
{
	static const uint64_t cpu0[] = { 10, 20, 30, 40 }, cpu1[] = { 5, 15, 25, 35, 45 };
	struct order_queue q;
	uint64_t last = 0, t;
	bool late;
	size_t i;

	order_init(&q, 0);
	/* perf writes one CPU's buffer, then the next's */
	for (i = 0; i < 4; i++)
		push(&q, cpu0[i], 0, &late);
	for (i = 0; i < 5; i++)
		push(&q, cpu1[i], 1, &late);
	ck_assert_ptr_null(order_peek(&q));	/* no round, window not full: nothing may go */
	order_flush_all(&q);
	for (i = 0; i < 9; i++) {
		t = pop(&q);
		ck_assert_uint_ge(t, last);
		last = t;
	}
	ck_assert_ptr_null(order_peek(&q));
	order_free(&q);
}
END_TEST

START_TEST(round_rule)
{
	struct order_queue q;
	bool late;

	order_init(&q, 0);
	push(&q, 100, 0, &late);
	push(&q, 200, 1, &late);
	order_round(&q);			/* first round: limit = 0, nothing goes */
	ck_assert_ptr_null(order_peek(&q));
	push(&q, 150, 0, &late);
	order_round(&q);			/* everything <= 200 (max at the previous round) */
	ck_assert_uint_eq(pop(&q), 100);
	ck_assert_uint_eq(pop(&q), 150);
	ck_assert_uint_eq(pop(&q), 200);
	ck_assert_ptr_null(order_peek(&q));
	order_free(&q);
}
END_TEST

START_TEST(within_cpu_inversion_sorted)
{
	struct order_queue q;
	bool late;

	order_init(&q, 0);
	push(&q, 30, 0, &late);
	push(&q, 10, 0, &late);
	push(&q, 20, 0, &late);
	push(&q, 20, 0, &late);
	order_flush_all(&q);
	ck_assert_uint_eq(pop(&q), 10);
	ck_assert_uint_eq(pop(&q), 20);
	ck_assert_uint_eq(pop(&q), 20);
	ck_assert_uint_eq(pop(&q), 30);
	order_free(&q);
}
END_TEST

START_TEST(equal_times_keep_arrival_order)
{
	struct order_queue q;
	const struct order_entry *e;
	bool late;
	uint64_t first;

	order_init(&q, 0);
	push(&q, 50, 1, &late);
	push(&q, 50, 0, &late);
	order_flush_all(&q);
	e = order_peek(&q);
	first = e->seq;
	ck_assert_int_eq(e->cpu, 1);
	order_pop(&q);
	ck_assert_uint_gt(order_peek(&q)->seq, first);
	order_free(&q);
}
END_TEST

START_TEST(window_forces_and_reports_late)
{
	struct order_queue q;
	uint64_t t, n = 0;
	bool late = false;

	/* a tiny window: two arena chunks */
	order_init(&q, 2u << 20);
	for (t = 1000; t < 1000 + 200000; t++)
		push(&q, t, 0, &late);
	ck_assert_ptr_nonnull(order_peek(&q));	/* over the window: the oldest must go */
	while (order_peek(&q)) {
		pop(&q);
		n++;
	}
	ck_assert_uint_gt(n, 0);
	push(&q, 5, 1, &late);		/* older than what was delivered */
	ck_assert(late);
	ck_assert_uint_eq(pop(&q), 5);	/* delivered at once, marked late */
	order_free(&q);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("order");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, merges_cpus_at_eof);
	tcase_add_test(tc, round_rule);
	tcase_add_test(tc, within_cpu_inversion_sorted);
	tcase_add_test(tc, equal_times_keep_arrival_order);
	tcase_add_test(tc, window_forces_and_reports_late);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
