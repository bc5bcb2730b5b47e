// SPDX-License-Identifier: GPL-2.0-or-later
/* check_bytes.c - the byte-order helpers and the bounded cursor */
#include "testutil.h"
#include "bytes.h"

START_TEST(get_both_orders)
{
	static const uint8_t be[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	bool swap_be = srep_swap_for(true), swap_le = srep_swap_for(false);

	ck_assert_uint_eq(srep_get16(be, swap_be), 0x0102);
	ck_assert_uint_eq(srep_get16(be, swap_le), 0x0201);
	ck_assert_uint_eq(srep_get32(be, swap_be), 0x01020304u);
	ck_assert_uint_eq(srep_get32(be, swap_le), 0x04030201u);
	ck_assert_uint_eq(srep_get64(be, swap_be), 0x0102030405060708ull);
	ck_assert_uint_eq(srep_get64(be, swap_le), 0x0807060504030201ull);
}
END_TEST

START_TEST(put_round_trips)
{
	uint8_t buf[8];
	int big;

	for (big = 0; big < 2; big++) {
		srep_put64(buf, 0x1122334455667788ull, big);
		ck_assert_uint_eq(buf[0], big ? 0x11 : 0x88);
		ck_assert_uint_eq(srep_get64(buf, srep_swap_for(big)), 0x1122334455667788ull);
		srep_put32(buf, 0xa1b2c3d4u, big);
		ck_assert_uint_eq(srep_get32(buf, srep_swap_for(big)), 0xa1b2c3d4u);
		srep_put16(buf, 0xbeef, big);
		ck_assert_uint_eq(srep_get16(buf, srep_swap_for(big)), 0xbeef);
	}
}
END_TEST

START_TEST(uint_sizes_and_sign)
{
	static const uint8_t p[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe };
	uint64_t v;

	ck_assert(srep_get_uint(p, 1, false, &v));
	ck_assert_uint_eq(v, 0xff);
	ck_assert_int_eq(srep_sign_extend(v, 1), -1);
	ck_assert(srep_get_uint(p, 4, false, &v));
	ck_assert_int_eq(srep_sign_extend(v, 4), -1);
	ck_assert(srep_get_uint(p, 8, srep_swap_for(true), &v));
	ck_assert_int_eq(srep_sign_extend(v, 8), -2);
	ck_assert(!srep_get_uint(p, 3, false, &v));
	ck_assert_uint_eq(v, 0);
}
END_TEST

START_TEST(cursor_bounds)
{
	static const uint8_t data[12] = { 0 };
	struct srep_cur c;
	const uint8_t *p;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	srep_cur_init(&c, data, sizeof(data), 100, false);
	ck_assert(srep_cur_u64(&c, &v64));
	ck_assert_uint_eq(c.off, 108);
	ck_assert(!srep_cur_u64(&c, &v64));	/* 4 left: refused, nothing consumed */
	ck_assert_uint_eq(srep_cur_left(&c), 4);
	ck_assert(srep_cur_u16(&c, &v16));
	ck_assert(!srep_cur_u32(&c, &v32));
	ck_assert(srep_cur_bytes(&c, 2, &p));
	ck_assert(!srep_cur_skip(&c, 1));
	ck_assert_uint_eq(c.off, 112);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bytes");
	TCase *tc = tcase_create("bytes");

	tcase_add_test(tc, get_both_orders);
	tcase_add_test(tc, put_round_trips);
	tcase_add_test(tc, uint_sizes_and_sign);
	tcase_add_test(tc, cursor_bounds);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
