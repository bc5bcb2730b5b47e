// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_record_latency.c - the latency trigger (latency.c): a task that
 * waits longer than the threshold between its wakeup and its switch-in is
 * reported once, with its tid and wait; shorter waits are not; events that
 * arrive out of order across rings (a CPU drained after another) are put
 * back in order first; sched_waking serves when sched_wakeup is absent.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "rectest.h"

#define T0 5170000000000ull
#define MS 1000000ull

struct mon {
	struct rec_evlist el;
	struct rec_layout lay;
	struct rec_latency *m;
};

static void mon_init(struct mon *x, bool waking_only, uint64_t threshold)
{
	struct srep_error err = { 0 };

	rt_evlist(&x->el, waking_only);
	layout_init(&x->lay, x->el.ev[0].attr.sample_type);
	ck_assert_int_eq(latency_new(&x->m, &x->el, RT_TRACEFS, threshold, &err), 0);
}

static void mon_free(struct mon *x)
{
	latency_free(x->m);
	evlist_free(&x->el);
}

/* feed the samples of 'b' as one drain pass; true when a task was late */
static bool pass(struct mon *x, struct rec_buf *b, struct latency_hit *hit)
{
	const uint8_t *raw;
	uint32_t raw_size;
	size_t off = 0;

	if (b->len) {
		do {
			const uint8_t *p = b->p + off;
			uint16_t size = srep_get16(p + 6, false);

			ck_assert(layout_raw(&x->lay, p, size, &raw, &raw_size));
			latency_sample(x->m, evlist_find(&x->el, layout_sample_id(p)),
				       layout_time(&x->lay, p, REC_SAMPLE, size), raw, raw_size);
		} while ((off = rt_next(b, off)));
	}
	b->len = 0;
	return latency_round(x->m, hit);
}

START_TEST(late_task_is_reported)
{
	struct latency_hit hit = { 0 };
	struct rec_buf b = { 0 };
	struct mon x;

	mon_init(&x, false, 20 * MS);
	rt_wakeup(&b, &x.el, T0, 1, 42);
	rt_switch(&b, &x.el, T0 + 25 * MS, 0, 7, 42);
	ck_assert(!pass(&x, &b, &hit));		/* newer than the previous pass: not yet */
	ck_assert(pass(&x, &b, &hit));
	ck_assert_int_eq(hit.tid, 42);
	ck_assert_uint_eq(hit.waited, 25 * MS);
	ck_assert_uint_eq(hit.time, T0 + 25 * MS);
	ck_assert(!pass(&x, &b, &hit));		/* reported once */
	mon_free(&x);
	buf_free(&b);
}
END_TEST

START_TEST(prompt_tasks_are_not)
{
	struct latency_hit hit;
	struct rec_buf b = { 0 };
	struct mon x;
	int i;

	mon_init(&x, false, 20 * MS);
	for (i = 0; i < 100; i++) {
		rt_wakeup(&b, &x.el, T0 + (uint64_t)i * 30 * MS, 1, 42);
		rt_switch(&b, &x.el, T0 + (uint64_t)i * 30 * MS + 19 * MS, 0, 0, 42);
		rt_switch(&b, &x.el, T0 + (uint64_t)i * 30 * MS + 20 * MS, 0, 42, 0);
		ck_assert(!pass(&x, &b, &hit));
	}
	ck_assert(!pass(&x, &b, &hit));
	mon_free(&x);
	buf_free(&b);
}
END_TEST

/* CPU 0's switch-in drained before CPU 1's older wakeup reaches the monitor */
START_TEST(order_across_rings)
{
	struct latency_hit hit;
	struct rec_buf b = { 0 };
	struct mon x;

	mon_init(&x, false, 20 * MS);
	rt_switch(&b, &x.el, T0, 0, 0, 1);		/* sets the first pass's newest time */
	ck_assert(!pass(&x, &b, &hit));
	rt_switch(&b, &x.el, T0 + 30 * MS, 0, 0, 42);	/* ring 0 drained first... */
	rt_wakeup(&b, &x.el, T0 + 5 * MS, 1, 42);	/* ...ring 1 holds the wakeup */
	rt_switch(&b, &x.el, T0 + 40 * MS, 1, 0, 9);
	ck_assert(!pass(&x, &b, &hit));
	ck_assert(pass(&x, &b, &hit));
	ck_assert_int_eq(hit.tid, 42);
	ck_assert_uint_eq(hit.waited, 25 * MS);
	mon_free(&x);
	buf_free(&b);
}
END_TEST

/* a wakeup seen while the task still ran is forgotten when it switches out */
START_TEST(wakeup_while_running_is_forgotten)
{
	struct latency_hit hit;
	struct rec_buf b = { 0 };
	struct mon x;

	mon_init(&x, false, 20 * MS);
	rt_wakeup(&b, &x.el, T0, 1, 42);
	rt_switch(&b, &x.el, T0 + 1 * MS, 0, 42, 0);
	rt_switch(&b, &x.el, T0 + 100 * MS, 0, 0, 42);
	ck_assert(!pass(&x, &b, &hit));
	ck_assert(!pass(&x, &b, &hit));
	mon_free(&x);
	buf_free(&b);
}
END_TEST

START_TEST(waking_serves_without_wakeup)
{
	struct latency_hit hit;
	struct rec_buf b = { 0 };
	struct mon x;

	mon_init(&x, true, 20 * MS);
	rt_wakeup(&b, &x.el, T0, 1, 42);		/* a sched_waking here */
	rt_switch(&b, &x.el, T0 + 21 * MS, 0, 0, 42);
	ck_assert(!pass(&x, &b, &hit));
	ck_assert(pass(&x, &b, &hit));
	ck_assert_int_eq(hit.tid, 42);
	mon_free(&x);
	buf_free(&b);
}
END_TEST

/* many tasks: the table grows and keeps every wait */
START_TEST(many_tasks)
{
	struct latency_hit hit;
	struct rec_buf b = { 0 };
	struct mon x;
	int i;

	mon_init(&x, false, 20 * MS);
	for (i = 1; i <= 5000; i++)
		rt_wakeup(&b, &x.el, T0 + (uint64_t)i, 1, i);
	ck_assert(!pass(&x, &b, &hit));
	rt_switch(&b, &x.el, T0 + 10 * MS, 0, 0, 2500);
	rt_switch(&b, &x.el, T0 + 30 * MS, 0, 2500, 4999);
	ck_assert(!pass(&x, &b, &hit));
	ck_assert(pass(&x, &b, &hit));
	ck_assert_int_eq(hit.tid, 4999);
	mon_free(&x);
	buf_free(&b);
}
END_TEST

START_TEST(needs_switch_and_wakeup)
{
	static const char *const only_wakeup[] = { "sched:sched_wakeup" };
	struct srep_rec_opts o = { .events = only_wakeup, .nr_events = 1, .system_wide = true };
	struct srep_error err = { 0 };
	struct rec_latency *m = NULL;
	struct rec_evlist el;

	ck_assert_int_eq(evlist_build(&el, &o, RT_TRACEFS, &err), 0);
	ck_assert_int_eq(latency_new(&m, &el, RT_TRACEFS, MS, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "sched:sched_switch"));
	evlist_free(&el);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_latency");
	TCase *tc = tcase_create("monitor");

	tcase_add_test(tc, late_task_is_reported);
	tcase_add_test(tc, prompt_tasks_are_not);
	tcase_add_test(tc, order_across_rings);
	tcase_add_test(tc, wakeup_while_running_is_forgotten);
	tcase_add_test(tc, waking_serves_without_wakeup);
	tcase_add_test(tc, many_tasks);
	tcase_add_test(tc, needs_switch_and_wakeup);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
