// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_emit.c - the exporters' writer: its hand-written numbers (also the
 * char-buffer ones) against printf, and the order of what it writes across buffer hand-overs to its
 * writer thread.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "testutil.h"

#define NR_VALUES	20000	/* about 400 KB of text: more than one buffer */

typedef void (*emit_fn)(struct emit *e, uint64_t v);
typedef int (*print_fn)(char *buf, size_t size, uint64_t v);

/* where the writers change method: 32 bits, the 8-digit blocks, signed limits */
static const uint64_t edges[] = {
	UINT64_MAX, UINT64_MAX - 1, UINT32_MAX, UINT32_MAX + 1ull, (1ull << 53) - 1,
	1ull << 53, (1ull << 53) + 1, INT64_MAX, (uint64_t)INT64_MAX + 1,
	(uint64_t)INT64_MAX + 2, 99999999ull * 100000000 + 99999999, 100000000ull * 100000000 - 1,
	1844ull * 10000000000000000 + 6744073709551615, 10000000000000000ull + 1,
	100000001ull * 100000000, 12345678901234567890ull,
};
#define NR_EDGES	(sizeof(edges) / sizeof(edges[0]))
#define NR_SMALL	3000	/* 0..2999: every fraction of a microsecond, both sides of 1000 */

/*
 * Every power of ten and its neighbours, the edges above, every small value,
 * and pseudo-random values of every length.
 */
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
	i -= 60;
	if (i < NR_EDGES)
		return edges[i];
	i -= NR_EDGES;
	if (i < NR_SMALL)
		return i;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x >> (i % 64);
}

/* NR_VALUES values, a line each, written by 'fn' and by 'print': the same text */
static void check_writer(emit_fn fn, print_fn print)
{
	char *got = NULL, *want = malloc(NR_VALUES * 32), line[32];
	size_t got_len = 0, want_len = 0;
	FILE *f = open_memstream(&got, &got_len);
	struct emit e;
	unsigned i;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(emit_init(&e, f), 0);
	for (i = 0; i < NR_VALUES; i++) {
		uint64_t v = value(i);
		int n = print(line, sizeof(line), v);

		fn(&e, v);
		emit_char(&e, '\n');
		memcpy(want + want_len, line, (size_t)n);
		want_len += (size_t)n;
		want[want_len++] = '\n';
	}
	ck_assert_int_eq(emit_flush(&e), 0);
	emit_free(&e);
	fclose(f);
	ck_assert_uint_eq(got_len, want_len);
	ck_assert(!memcmp(got, want, want_len));
	free(got);
	free(want);
}

static void emit_i64_bits(struct emit *e, uint64_t v)
{
	emit_i64(e, (int64_t)v);
}

static int print_u64(char *buf, size_t size, uint64_t v)
{
	return snprintf(buf, size, "%" PRIu64, v);
}

static int print_i64(char *buf, size_t size, uint64_t v)
{
	return snprintf(buf, size, "%" PRId64, (int64_t)v);
}

static int print_us(char *buf, size_t size, uint64_t v)
{
	return snprintf(buf, size, "%" PRIu64 ".%03u", v / 1000, (unsigned)(v % 1000));
}

static int print_hex(char *buf, size_t size, uint64_t v)
{
	return snprintf(buf, size, "0x%" PRIx64, v);
}

START_TEST(decimal)
{
	check_writer(emit_u64, print_u64);
	check_writer(emit_i64_bits, print_i64);
}
END_TEST

START_TEST(microseconds)
{
	check_writer(emit_us, print_us);
}
END_TEST

START_TEST(hex)
{
	check_writer(emit_hex, print_hex);
}
END_TEST

/* the char-buffer writers the frame texts use: the same digits, no "0x" */
START_TEST(char_buffer)
{
	char got[32], want[32];
	unsigned i;

	for (i = 0; i < NR_VALUES; i++) {
		uint64_t v = value(i);

		*fmt_hex(got, v) = '\0';
		snprintf(want, sizeof(want), "%" PRIx64, v);
		ck_assert_str_eq(got, want);
		*fmt_dec(got, v) = '\0';
		snprintf(want, sizeof(want), "%" PRIu64, v);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

/* a string longer than half a buffer goes straight to the file, after what came before */
START_TEST(long_string_in_order)
{
	size_t long_len = EMIT_BUF_SIZE, got_len = 0;
	char *got = NULL, *s = malloc(long_len);
	FILE *f = open_memstream(&got, &got_len);
	struct emit e;

	ck_assert_ptr_nonnull(s);
	memset(s, 'x', long_len);
	ck_assert_int_eq(emit_init(&e, f), 0);
	emit_lit(&e, "before");
	emit_raw(&e, s, long_len);
	emit_lit(&e, "after");
	ck_assert_int_eq(emit_flush(&e), 0);
	emit_free(&e);
	fclose(f);
	ck_assert_uint_eq(got_len, long_len + 11);
	ck_assert(!memcmp(got, "before", 6));
	ck_assert(!memcmp(got + 6, s, long_len));
	ck_assert(!memcmp(got + 6 + long_len, "after", 5));
	free(got);
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("emit");

	tcase_add_test(tc, decimal);
	tcase_add_test(tc, microseconds);
	tcase_add_test(tc, hex);
	tcase_add_test(tc, char_buffer);
	tcase_add_test(tc, long_string_in_order);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
