// SPDX-License-Identifier: GPL-2.0-or-later
/* check_emit.c - the exporters' hand-written number writers against printf */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "testutil.h"

typedef void (*emit_fn)(struct emit *e, uint64_t v);

/* what 'fn' writes for v, through a memory stream */
static void emitted(emit_fn fn, uint64_t v, char *out, size_t size)
{
	struct emit e;
	FILE *f = fmemopen(out, size, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(emit_init(&e, f), 0);
	fn(&e, v);
	ck_assert_int_eq(emit_flush(&e), 0);
	emit_free(&e);
	fclose(f);
}

static void emit_i64_bits(struct emit *e, uint64_t v)
{
	emit_i64(e, (int64_t)v);
}

/* every power of ten and its neighbours, the extremes, and pseudo-random values */
static uint64_t value(unsigned i)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;
	uint64_t p = 1;
	unsigned k;

	if (i < 60) {
		for (k = 0; k < i / 3; k++)
			p *= 10;
		return p + (i % 3) - 1;
	}
	if (i == 60)
		return UINT64_MAX;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x >> (i % 64);
}

START_TEST(u64_and_i64)
{
	char got[64], want[64];
	unsigned i;

	for (i = 0; i < 20000; i++) {
		uint64_t v = value(i);

		emitted(emit_u64, v, got, sizeof(got));
		snprintf(want, sizeof(want), "%" PRIu64, v);
		ck_assert_str_eq(got, want);
		emitted(emit_i64_bits, v, got, sizeof(got));
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

START_TEST(microseconds)
{
	char got[64], want[64];
	unsigned i;

	for (i = 0; i < 20000; i++) {
		uint64_t v = value(i);

		emitted(emit_us, v, got, sizeof(got));
		snprintf(want, sizeof(want), "%" PRIu64 ".%03u", v / 1000, (unsigned)(v % 1000));
		ck_assert_str_eq(got, want);
	}
}
END_TEST

START_TEST(hex)
{
	char got[64], want[64];
	unsigned i;

	for (i = 0; i < 2000; i++) {
		uint64_t v = value(i);

		emitted(emit_hex, v, got, sizeof(got));
		snprintf(want, sizeof(want), "0x%" PRIx64, v);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("numbers");

	tcase_add_test(tc, u64_and_i64);
	tcase_add_test(tc, microseconds);
	tcase_add_test(tc, hex);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
