// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_record_flight.c - the flight recorder's memory (flight.c): the
 * newest samples stay, the oldest go, records of every size wrap whole,
 * side-band records are never dropped, a snapshot sorts into time order and
 * knows its newest sample.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "rectest.h"

#define T0 5170000000000ull
#define CAP (256u << 10)

static struct rec_evlist el;
static struct rec_layout lay;

static void setup(void)
{
	rt_evlist(&el, false);
	layout_init(&lay, el.ev[0].attr.sample_type);
}

static void teardown(void)
{
	evlist_free(&el);
}

static void add_all(struct rec_flight *f, const struct rec_buf *b)
{
	struct srep_error err = { 0 };
	size_t off = 0;

	do {
		ck_assert_int_eq(flight_add(f, b->p + off, srep_get32(b->p + off, false),
					    srep_get16(b->p + off + 6, false), &err), 0);
	} while ((off = rt_next(b, off)));
}

/* samples of the snapshot, in order: their times */
static size_t sample_times(const struct rec_buf *snap, uint64_t *times, size_t max)
{
	size_t off = 0, n = 0;

	do {
		uint32_t type = srep_get32(snap->p + off, false);
		uint16_t size = srep_get16(snap->p + off + 6, false);

		if (type == REC_SAMPLE && n < max)
			times[n++] = layout_time(&lay, snap->p + off, type, size);
	} while ((off = rt_next(snap, off)));
	return n;
}

START_TEST(keeps_the_newest)
{
	struct srep_error err = { 0 };
	struct rec_buf b = { 0 }, snap = { 0 };
	struct rec_flight f;
	uint64_t *times = calloc(20000, sizeof(*times));
	size_t n, i;

	ck_assert_int_eq(flight_init(&f, CAP, &err), 0);
	rt_comm(&b, &el, T0, 0, 7, "early");
	for (i = 0; i < 10000; i++) {
		/* two sizes, so records end at every alignment of the ring */
		if (i % 3)
			rt_switch(&b, &el, T0 + 10 + i, (int)(i % 2), 7, 8);
		else
			rt_wakeup(&b, &el, T0 + 10 + i, (int)(i % 2), 8);
	}
	add_all(&f, &b);
	ck_assert_int_eq(flight_snapshot(&f, &snap, &err), 0);
	/* the side-band record is first, then samples oldest first */
	ck_assert_int_eq(srep_get32(snap.p, false), REC_COMM);
	n = sample_times(&snap, times, 20000);
	ck_assert_uint_eq(n + f.dropped, 10000);
	ck_assert_uint_eq(f.samples, n);
	ck_assert_uint_eq(times[n - 1], T0 + 10 + 9999);
	for (i = 1; i < n; i++)
		ck_assert_uint_eq(times[i], times[i - 1] + 1);
	/* nearly full: less than one record's worth of room (plus a pad) is unused */
	ck_assert_uint_le(f.used, CAP);
	ck_assert_uint_ge(f.used + 2 * 128, CAP);
	flight_free(&f);
	buf_free(&b);
	buf_free(&snap);
	free(times);
}
END_TEST

START_TEST(sideband_is_never_dropped)
{
	struct srep_error err = { 0 };
	struct rec_buf b = { 0 }, snap = { 0 };
	struct rec_flight f;
	size_t i, off = 0, comms = 0;

	ck_assert_int_eq(flight_init(&f, CAP, &err), 0);
	for (i = 0; i < 5000; i++) {
		rt_comm(&b, &el, T0 + i, 0, (int32_t)i, "task");
		rt_switch(&b, &el, T0 + i, 0, (int32_t)i, 0);
	}
	add_all(&f, &b);
	ck_assert_int_eq(flight_snapshot(&f, &snap, &err), 0);
	do {
		comms += srep_get32(snap.p + off, false) == REC_COMM;
	} while ((off = rt_next(&snap, off)));
	ck_assert_uint_eq(comms, 5000);
	ck_assert_uint_gt(f.dropped, 0);
	flight_free(&f);
	buf_free(&b);
	buf_free(&snap);
}
END_TEST

/* a snapshot (CPU 1's records after CPU 0's) comes out in time order */
START_TEST(sort_orders_by_time)
{
	struct srep_error err = { 0 };
	struct rec_buf b = { 0 }, sorted = { 0 };
	uint64_t samples, first, last, prev = 0, t;
	size_t off = 0;
	int i;

	for (i = 0; i < 50; i++)
		rt_switch(&b, &el, T0 + 2 * (uint64_t)i, 0, 1, 2);
	for (i = 0; i < 50; i++)
		rt_switch(&b, &el, T0 + 2 * (uint64_t)i + 1, 1, 3, 4);
	rt_comm(&b, &el, 0, 0, 9, "synthesized");
	ck_assert_int_eq(flight_sort(&lay, &b, &sorted, &samples, &first, &last, &err), 0);
	ck_assert_uint_eq(sorted.len, b.len);
	ck_assert_uint_eq(samples, 100);
	ck_assert_uint_eq(first, T0);
	ck_assert_uint_eq(last, T0 + 99);
	/* the timeless record first, then every time in order */
	ck_assert_int_eq(srep_get32(sorted.p, false), REC_COMM);
	while ((off = rt_next(&sorted, off))) {
		t = layout_time(&lay, sorted.p + off, REC_SAMPLE, srep_get16(sorted.p + off + 6, false));
		ck_assert_uint_ge(t, prev);
		prev = t;
	}
	buf_free(&b);
	buf_free(&sorted);
}
END_TEST

/*
 * One drain round bigger than the ring: CPU 0's records, the newest of
 * them the newest drained, then CPU 1's older ones push them out. A dump
 * is named after the newest sample it holds, which is CPU 1's last.
 */
START_TEST(newest_sample_of_a_snapshot)
{
	struct srep_error err = { 0 };
	struct rec_buf b = { 0 }, snap = { 0 }, none = { 0 };
	struct rec_flight f;
	uint64_t times[4];
	int i;

	ck_assert_int_eq(flight_init(&f, CAP, &err), 0);
	for (i = 0; i < 4000; i++)
		rt_switch(&b, &el, T0 + 1000000 + (uint64_t)i, 0, 1, 2);
	for (i = 0; i < 4000; i++)
		rt_switch(&b, &el, T0 + (uint64_t)i, 1, 3, 4);
	add_all(&f, &b);
	ck_assert_uint_gt(f.dropped, 4000);	/* every CPU 0 record is gone */
	ck_assert_int_eq(flight_snapshot(&f, &snap, &err), 0);
	ck_assert_uint_eq(flight_newest_sample(&lay, &snap), T0 + 3999);
	ck_assert_uint_ge(sample_times(&snap, times, 4), 1);
	ck_assert_uint_lt(times[0], T0 + 1000000);
	rt_comm(&none, &el, T0, 0, 9, "no sample");
	ck_assert_uint_eq(flight_newest_sample(&lay, &none), 0);
	flight_free(&f);
	buf_free(&b);
	buf_free(&snap);
	buf_free(&none);
}
END_TEST

START_TEST(too_small_a_ring)
{
	struct srep_error err = { 0 };
	struct rec_flight f;

	ck_assert_int_eq(flight_init(&f, 64 << 10, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "--ring needs at least"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_flight");
	TCase *tc = tcase_create("ring");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, keeps_the_newest);
	tcase_add_test(tc, sideband_is_never_dropped);
	tcase_add_test(tc, sort_orders_by_time);
	tcase_add_test(tc, newest_sample_of_a_snapshot);
	tcase_add_test(tc, too_small_a_ring);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
