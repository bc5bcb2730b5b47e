// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_linebuf.c - tests of src/cli/linebuf.c: every way it writes a
 * number or pads a string gives what printf gives for the same format,
 * over edge values and widths, through the linebuf or a reserved pointer;
 * a line survives growing; gathered lines are written in chunks, in order.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linebuf.h"
#include "testutil.h"

static const int64_t values[] = {
	0, 1, -1, 9, 10, -10, 99, 100, -100, 999, 1000, 12345, -12345, 99999, 100000,
	2147483647, -2147483647 - 1, 4294967296, 999999999999, INT64_MAX, INT64_MIN,
};
static const int widths[] = { 0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 16, 21, 25 };

#define NV (sizeof(values) / sizeof(values[0]))
#define NW (sizeof(widths) / sizeof(widths[0]))

/* the line so far as a C string (the buffer keeps room for it) */
static const char *text(struct linebuf *lb)
{
	lb_char(lb, 0);
	lb->len--;
	return lb->p;
}

static void expect(struct linebuf *lb, const char *want)
{
	ck_assert_str_eq(text(lb), want);
	ck_assert_uint_eq(lb->len, strlen(want));
	lb->len = 0;
}

START_TEST(test_int_as_printf)
{
	struct linebuf lb = { 0 };
	char want[64];
	size_t i, j;

	for (i = 0; i < NV; i++) {
		for (j = 0; j < NW; j++) {
			int64_t v = values[i];
			int w = widths[j];

			snprintf(want, sizeof(want), "%*" PRId64, w, v);
			lb_int(&lb, v, w, false);
			expect(&lb, want);
			snprintf(want, sizeof(want), "%-*" PRId64, w, v);
			lb_int(&lb, v, -w, false);
			expect(&lb, want);
			snprintf(want, sizeof(want), "%0*" PRId64, w, v);
			lb_int(&lb, v, w, true);
			expect(&lb, want);
			snprintf(want, sizeof(want), "%*" PRIu64, w, (uint64_t)v);
			lb_uint(&lb, (uint64_t)v, w, false);
			expect(&lb, want);
			snprintf(want, sizeof(want), "%0*" PRIu64, w, (uint64_t)v);
			lb_uint(&lb, (uint64_t)v, w, true);
			expect(&lb, want);
		}
	}
	lb_free(&lb);
}
END_TEST

START_TEST(test_strings_and_times)
{
	static const char *const strs[] = { "", "a", "sched-messaging", "a longer name than sixteen" };
	static const uint64_t times[] = { 0, 999, 1000, 999999999, 1000000000, 123456789012345,
					  UINT64_MAX };
	struct linebuf lb = { 0 };
	char want[64], t[40];
	size_t i, j;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		for (j = 0; j < NW; j++) {
			snprintf(want, sizeof(want), "%*s", widths[j], strs[i]);
			lb_pad_str(&lb, strs[i], widths[j]);
			expect(&lb, want);
			snprintf(want, sizeof(want), "%-*s", widths[j], strs[i]);
			lb_pad_str(&lb, strs[i], -widths[j]);
			expect(&lb, want);
		}
	}
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, times[i] / 1000000000u,
			 times[i] % 1000000000u / 1000u);
		for (j = 0; j < NW; j++) {
			snprintf(want, sizeof(want), "%*s", widths[j], t);
			lb_sec_usec(&lb, times[i], widths[j]);
			expect(&lb, want);
		}
	}
	lb_fill(&lb, '-', 5);
	lb_mem(&lb, "ab", 2);
	lb_str(&lb, "cd");
	expect(&lb, "-----abcd");
	lb_free(&lb);
}
END_TEST

/* the lb_put_* writers through lb_reserve, as printf's formats (sec.usec, msec.usec: perf's) */
START_TEST(test_put_as_printf)
{
	static const uint64_t times[] = { 0, 999, 1000, 999999999, 1000000000, 123456789012345,
					  170363770123456, UINT64_MAX };
	struct linebuf lb = { 0 };
	char want[96], t[40], *o;
	size_t i, j;

	for (i = 0; i < NV; i++) {
		for (j = 0; j < NW; j++) {
			uint64_t v = (uint64_t)values[i];
			unsigned w = (unsigned)widths[j];

			snprintf(want, sizeof(want), "%*" PRIu64 "|%0*" PRIu64 "|%" PRId64, (int)w, v,
				 (int)w, v, values[i]);
			o = lb_reserve(&lb, 2 * (w + LB_INT_MAX) + 2 + LB_INT_MAX);
			ck_assert_ptr_nonnull(o);
			o = lb_put_uint(o, v, w, ' ');
			*o++ = '|';
			o = lb_put_uint(o, v, w, '0');
			*o++ = '|';
			o = lb_put_int(o, values[i]);
			lb_commit(&lb, o);
			expect(&lb, want);
		}
	}
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		for (j = 0; j < NW; j++) {
			snprintf(want, sizeof(want), "%*" PRIu64 ".%03" PRIu64, widths[j],
				 times[i] / 1000000u, times[i] % 1000000u / 1000u);
			o = lb_reserve(&lb, (size_t)widths[j] + LB_MS_MAX);
			ck_assert_ptr_nonnull(o);
			lb_commit(&lb, lb_put_ms(o, times[i], (unsigned)widths[j]));
			expect(&lb, want);
		}
		snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, times[i] / 1000000000u,
			 times[i] % 1000000000u / 1000u);
		ck_assert_uint_le(strlen(t), LB_SEC_USEC_MAX);
		for (j = 0; j < NW; j++) {
			snprintf(want, sizeof(want), "%*s", widths[j], t);
			o = lb_reserve(&lb, (size_t)widths[j] + LB_SEC_USEC_MAX);
			ck_assert_ptr_nonnull(o);
			lb_commit(&lb, lb_put_sec_usec(o, times[i], (unsigned)widths[j]));
			expect(&lb, want);
		}
	}
	lb_free(&lb);
}
END_TEST

/* lines gathered until a chunk is full, then written in order; the rest at lb_write */
START_TEST(test_write_chunk)
{
	struct linebuf lb = { 0 };
	char *got = NULL;
	size_t size = 0, i;
	FILE *f = open_memstream(&got, &size);

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 1000; i++) {
		lb_uint(&lb, i, 3, true);
		lb_char(&lb, '\n');
		ck_assert_int_eq(lb_write_chunk(&lb, f, 100), 0);
		ck_assert_uint_lt(lb.len, 100);		/* written once 100 bytes are held */
	}
	ck_assert_int_eq(lb_write(&lb, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_eq(size, 4000);
	for (i = 0; i < 1000; i++) {
		char want[8];

		snprintf(want, sizeof(want), "%03zu\n", i);
		ck_assert_int_eq(memcmp(got + 4 * i, want, 4), 0);
	}
	free(got);
	lb_free(&lb);
}
END_TEST

/* a line much longer than the first allocation, written whole */
START_TEST(test_grow_and_write)
{
	struct linebuf lb = { 0 };
	char *got = NULL;
	size_t size = 0, i;
	FILE *f = open_memstream(&got, &size);

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 10000; i++)
		lb_uint(&lb, i % 10, 0, false);
	lb_char(&lb, '\n');
	ck_assert_int_eq(lb_write(&lb, f), 0);
	ck_assert_uint_eq(lb.len, 0);
	lb_str(&lb, "second\n");
	ck_assert_int_eq(lb_write(&lb, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_eq(size, 10001 + 7);
	for (i = 0; i < 10000; i++)
		ck_assert_int_eq(got[i], (char)('0' + i % 10));
	ck_assert_str_eq(got + 10000, "\nsecond\n");
	free(got);
	lb_free(&lb);
}
END_TEST

static Suite *linebuf_suite(void)
{
	Suite *su = suite_create("linebuf");
	TCase *tc = tcase_create("linebuf");

	tcase_add_test(tc, test_int_as_printf);
	tcase_add_test(tc, test_strings_and_times);
	tcase_add_test(tc, test_grow_and_write);
	tcase_add_test(tc, test_put_as_printf);
	tcase_add_test(tc, test_write_chunk);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run_suite(linebuf_suite());
}
