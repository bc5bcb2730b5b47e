// SPDX-License-Identifier: GPL-2.0-or-later
/* check_timefmt.c - time, range and duration arguments */
#include <stdio.h>

#include "testutil.h"

START_TEST(relative_and_absolute)
{
	struct srep_error err;
	uint64_t t;

	ck_assert_int_eq(srep_time__parse("0.5", 1000000000ull, &t, &err), 0);
	ck_assert_uint_eq(t, 1500000000ull);
	ck_assert_int_eq(srep_time__parse("@5170.123456789", 7, &t, &err), 0);
	ck_assert_uint_eq(t, 5170123456789ull);
	ck_assert_int_eq(srep_time__parse("2", 0, &t, &err), 0);
	ck_assert_uint_eq(t, 2000000000ull);
	ck_assert_int_eq(srep_time__parse(".25", 0, &t, &err), 0);
	ck_assert_uint_eq(t, 250000000ull);
	/* digits beyond nanoseconds are dropped, not rounded through a double */
	ck_assert_int_eq(srep_time__parse("0.0000000019", 0, &t, &err), 0);
	ck_assert_uint_eq(t, 1);
}
END_TEST

START_TEST(bad_times)
{
	static const char *const bad[] = { "", "-1", "1s", "abc", "@", "1.2.3", "99999999999999999999", NULL };
	struct srep_error err;
	uint64_t t;
	int i;

	for (i = 0; bad[i]; i++) {
		ck_assert_int_eq(srep_time__parse(bad[i], 0, &t, &err), SREP_E_TIME);
		ck_assert(err.msg[0]);
	}
}
END_TEST

START_TEST(ranges)
{
	struct srep_error err;
	uint64_t a, b;

	ck_assert_int_eq(srep_time__parse_range("0.5,1.5", 0, &a, &b, &err), 0);
	ck_assert_uint_eq(a, 500000000ull);
	ck_assert_uint_eq(b, 1500000000ull);
	ck_assert_int_eq(srep_time__parse_range(",2", 10, &a, &b, &err), 0);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 2000000010ull);
	ck_assert_int_eq(srep_time__parse_range("1,", 0, &a, &b, &err), 0);
	ck_assert_uint_eq(b, UINT64_MAX);
	ck_assert_int_eq(srep_time__parse_range("2,1", 0, &a, &b, &err), SREP_E_TIME);
	ck_assert_int_eq(srep_time__parse_range("2", 0, &a, &b, &err), SREP_E_TIME);
}
END_TEST

START_TEST(durations)
{
	struct srep_error err;
	uint64_t d;

	ck_assert_int_eq(srep_duration__parse("10ms", &d, &err), 0);
	ck_assert_uint_eq(d, 10000000ull);
	ck_assert_int_eq(srep_duration__parse("1.5s", &d, &err), 0);
	ck_assert_uint_eq(d, 1500000000ull);
	ck_assert_int_eq(srep_duration__parse("200us", &d, &err), 0);
	ck_assert_uint_eq(d, 200000ull);
	ck_assert_int_eq(srep_duration__parse("500ns", &d, &err), 0);
	ck_assert_uint_eq(d, 500);
	ck_assert_int_eq(srep_duration__parse("0.2", &d, &err), 0);
	ck_assert_uint_eq(d, 200000000ull);
	ck_assert_int_eq(srep_duration__parse("0", &d, &err), SREP_E_TIME);
	ck_assert_int_eq(srep_duration__parse("10 ms", &d, &err), SREP_E_TIME);
	ck_assert_int_eq(srep_duration__parse("5m", &d, &err), SREP_E_TIME);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("timefmt");
	TCase *tc = tcase_create("timefmt");

	tcase_add_test(tc, relative_and_absolute);
	tcase_add_test(tc, bad_times);
	tcase_add_test(tc, ranges);
	tcase_add_test(tc, durations);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
