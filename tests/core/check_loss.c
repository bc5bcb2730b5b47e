// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_loss.c - the data-loss figure (src/loss.c), the one definition the
 * reader and the recorder share: per-CPU intervals from the last sample
 * before a loss to the first after it, open ones ending at the trace's end,
 * CPU-less losses closed by any CPU, and the union of them all.
 */
#include "testutil.h"
#include "loss.h"

START_TEST(one_cpu_intervals)
{
	struct loss_tracker lt;

	loss_tracker_init(&lt);
	loss_on_sample(&lt, 0, 100);
	loss_on_lost(&lt, 0, 150);
	loss_on_lost(&lt, 0, 160);		/* the same gap: counted once */
	loss_on_sample(&lt, 0, 200);		/* [100, 200] */
	loss_on_sample(&lt, 0, 300);
	ck_assert_uint_eq(loss_total(&lt, 300), 100);
	loss_on_lost(&lt, 0, 350);		/* from the last sample */
	ck_assert_uint_eq(loss_total(&lt, 400), 100 + 100);	/* open: [300, 400] for now */
	ck_assert_uint_eq(loss_total(&lt, 400), 200);		/* asking again changes nothing */
	/* as a ring holds them: samples in flight when the loss was written
	 * follow it, older: in time they came before it, so they move the start */
	loss_on_sample(&lt, 0, 320);
	loss_on_sample(&lt, 0, 310);
	ck_assert_uint_eq(loss_total(&lt, 400), 100 + 80);	/* [320, 400] */
	loss_on_sample(&lt, 0, 390);		/* the first sample after it ends it */
	ck_assert_uint_eq(loss_total(&lt, 500), 100 + 70);
	loss_tracker_free(&lt);
}
END_TEST

/* the same records in time order and in ring order give the same figure */
START_TEST(ring_order_as_time_order)
{
	struct loss_tracker sorted, ring;

	loss_tracker_init(&sorted);
	loss_tracker_init(&ring);
	/* a loss with no sample before it in the ring, and one sample in flight */
	loss_on_sample(&sorted, 2, 40);
	loss_on_lost(&sorted, 2, 50);
	loss_on_sample(&sorted, 2, 90);
	loss_on_lost(&ring, 2, 50);
	loss_on_sample(&ring, 2, 40);
	loss_on_sample(&ring, 2, 90);
	ck_assert_uint_eq(loss_total(&sorted, 100), 50);
	ck_assert_uint_eq(loss_total(&ring, 100), 50);
	/* two losses in a row, a sample in flight after the first */
	loss_on_sample(&sorted, 2, 100);
	loss_on_sample(&sorted, 2, 105);
	loss_on_lost(&sorted, 2, 110);
	loss_on_lost(&sorted, 2, 130);
	loss_on_sample(&sorted, 2, 140);
	loss_on_sample(&ring, 2, 100);
	loss_on_lost(&ring, 2, 110);
	loss_on_sample(&ring, 2, 105);
	loss_on_lost(&ring, 2, 130);
	loss_on_sample(&ring, 2, 140);
	ck_assert_uint_eq(loss_total(&sorted, 200), 50 + 35);	/* [105, 140] */
	ck_assert_uint_eq(loss_total(&ring, 200), 50 + 35);
	loss_tracker_free(&sorted);
	loss_tracker_free(&ring);
}
END_TEST

START_TEST(union_over_cpus)
{
	struct loss_tracker lt;

	loss_tracker_init(&lt);
	loss_on_lost(&lt, 1, 50);		/* no sample before on CPU 1: [50, 150] */
	loss_on_sample(&lt, 1, 150);
	loss_on_sample(&lt, 2, 100);
	loss_on_lost(&lt, 2, 110);
	loss_on_sample(&lt, 2, 180);		/* [100, 180] overlaps CPU 1's */
	loss_on_sample(&lt, 3, 500);
	loss_on_lost(&lt, 3, 510);
	loss_on_sample(&lt, 3, 520);		/* [500, 520] apart */
	ck_assert_uint_eq(loss_total(&lt, 600), 130 + 20);
	loss_tracker_reset(&lt);
	ck_assert_uint_eq(loss_total(&lt, 600), 0);
	loss_tracker_free(&lt);
}
END_TEST

START_TEST(cpu_less_losses)
{
	struct loss_tracker lt;

	loss_tracker_init(&lt);
	loss_on_sample(&lt, -1, 10);		/* a sample without a CPU */
	loss_on_lost(&lt, -1, 20);		/* [10, next sample anywhere] */
	loss_on_sample(&lt, 5, 70);
	ck_assert_uint_eq(loss_total(&lt, 100), 60);
	/* CPU numbers past the cap count as "no CPU" rather than indexing far */
	loss_on_lost(&lt, 1 << 30, 80);
	loss_on_sample(&lt, 0, 90);
	ck_assert_uint_eq(loss_total(&lt, 100), 60 + 20);
	loss_tracker_free(&lt);
}
END_TEST

START_TEST(many_intervals)
{
	struct loss_tracker lt;
	uint64_t t;

	loss_tracker_init(&lt);
	for (t = 0; t < 100000; t += 10) {
		loss_on_sample(&lt, (int32_t)(t % 7), 1000 + t);
		loss_on_lost(&lt, (int32_t)(t % 7), 1000 + t + 1);
	}
	/* every CPU's gaps chain into one interval from the first sample to the end */
	ck_assert_uint_eq(loss_total(&lt, 1000 + 100000), 100000);
	loss_tracker_free(&lt);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loss");
	TCase *tc = tcase_create("loss");

	tcase_add_test(tc, one_cpu_intervals);
	tcase_add_test(tc, ring_order_as_time_order);
	tcase_add_test(tc, union_over_cpus);
	tcase_add_test(tc, cpu_less_losses);
	tcase_add_test(tc, many_intervals);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
