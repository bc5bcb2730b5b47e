// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_hist.c - the log-bucket histogram behind the wait percentiles:
 * buckets tile the whole u64 range without gaps, percentiles stay within
 * the documented 1/64 of the exact nearest-rank value, extremes and small
 * values are exact, and merging equals adding the values one by one.
 */
#include <stdlib.h>

#include "testutil.h"
#include "hist.h"

START_TEST(buckets_tile_the_range)
{
	uint32_t i;

	ck_assert_uint_eq(hist_bucket_low(0), 0);
	for (i = 0; i + 1 < HIST_NR_BUCKETS; i++) {
		uint64_t low = hist_bucket_low(i), w = hist_bucket_width(i);

		ck_assert_uint_eq(hist_bucket_low(i + 1), low + w);
		ck_assert_uint_eq(hist_bucket_of(low), i);
		ck_assert_uint_eq(hist_bucket_of(low + w - 1), i);
		/* a bucket is at most 1/32 of its lower bound wide */
		ck_assert(low < 32 || w * 32 <= low);
	}
	ck_assert_uint_eq(hist_bucket_of(UINT64_MAX), HIST_NR_BUCKETS - 1);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* exact nearest rank */
static uint64_t exact(const uint64_t *sorted, size_t n, unsigned pct)
{
	size_t rank = (pct * n + 99) / 100;

	return sorted[(rank ? rank : 1) - 1];
}

START_TEST(percentiles_within_one_64th)
{
	static uint64_t v[5000];
	struct hist h = { 0 };
	unsigned pct, seed = 12345;
	size_t i, n = 1 + (size_t)_i * 997 % 5000;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		/* durations from 1 ns to about 17 s, log-spread as waits are */
		v[i] = (uint64_t)1 << (seed >> 8) % 34;
		v[i] += (seed >> 3) % v[i];
		ck_assert_int_eq(hist_add(&h, v[i]), 0);
	}
	qsort(v, n, sizeof(v[0]), cmp_u64);
	ck_assert_uint_eq(h.count, n);
	ck_assert_uint_eq(hist_percentile(&h, 100), v[n - 1]);
	for (pct = 1; pct <= 100; pct++) {
		uint64_t want = exact(v, n, pct), got = hist_percentile(&h, pct);
		uint64_t err = got > want ? got - want : want - got;

		ck_assert_msg(err * 64 <= want, "p%u of %zu: %llu, exact %llu", pct, n,
			      (unsigned long long)got, (unsigned long long)want);
	}
	ck_assert_uint_le(h.nr, HIST_NR_BUCKETS);
	hist_free(&h);
}
END_TEST

START_TEST(small_and_extreme_values_are_exact)
{
	struct hist h = { 0 };

	ck_assert_uint_eq(hist_percentile(&h, 50), 0);
	hist_add(&h, 7);
	hist_add(&h, 31);
	hist_add(&h, 123456789);
	ck_assert_uint_eq(hist_percentile(&h, 1), 7);
	ck_assert_uint_eq(hist_percentile(&h, 50), 31);
	ck_assert_uint_eq(hist_percentile(&h, 95), 123456789);
	hist_free(&h);
	/* one value: every percentile is it */
	hist_add(&h, 987654321);
	ck_assert_uint_eq(hist_percentile(&h, 50), 987654321);
	hist_free(&h);
}
END_TEST

START_TEST(merge_equals_adding)
{
	struct hist a = { 0 }, b = { 0 }, all = { 0 };
	uint64_t v;
	unsigned pct;

	for (v = 1; v < 5000000; v = v * 3 + 1) {
		hist_add(v % 2 ? &a : &b, v);
		hist_add(&all, v);
	}
	ck_assert_int_eq(hist_merge(&a, &b), 0);
	ck_assert_uint_eq(a.count, all.count);
	ck_assert_uint_eq(a.min, all.min);
	ck_assert_uint_eq(a.max, all.max);
	for (pct = 1; pct <= 100; pct++)
		ck_assert_uint_eq(hist_percentile(&a, pct), hist_percentile(&all, pct));
	hist_free(&a);
	hist_free(&b);
	hist_free(&all);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");

	tcase_add_test(tc, buckets_tile_the_range);
	tcase_add_loop_test(tc, percentiles_within_one_64th, 0, 20);
	tcase_add_test(tc, small_and_extreme_values_are_exact);
	tcase_add_test(tc, merge_equals_adding);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
