// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_sample.c - the user registers and stack of --call-graph dwarf
 * samples (REGS_USER, STACK_USER): parsed in both byte orders, the filled
 * part of the stack bounded by what the kernel copied, absent parts
 * accepted, and every truncation refused without reading past the record
 * (run it under ASan: --enable-sanitizers).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "internal.h"

#define MASK 0xbull			/* three registers: bits 0, 1 and 3 */

struct body {
	uint8_t b[256];
	size_t len;
	bool be;
};

static void put64(struct body *w, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		w->b[w->len + (size_t)i] = (uint8_t)(v >> (8 * (w->be ? 7 - i : i)));
	w->len += 8;
}

static void evsel_init(struct evsel *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER;
	ev->attr.sample_regs_user = MASK;
	evsel_layout(ev);
}

/* tid, time, abi, 3 registers, a 32-byte stack of which the kernel filled 'dyn' */
static void build(struct body *w, bool be, uint64_t abi, uint64_t stack, uint64_t dyn)
{
	uint64_t i;

	memset(w, 0, sizeof(*w));
	w->be = be;
	put64(w, 0x0000007b0000007bull);	/* pid 123, tid 123 */
	put64(w, 5000);
	put64(w, abi);
	if (abi) {
		put64(w, 0x1111);
		put64(w, 0x2222);
		put64(w, 0x4444);
	}
	put64(w, stack);
	if (stack) {
		for (i = 0; i < stack; i++)
			w->b[w->len++] = (uint8_t)i;
		put64(w, dyn);
	}
}

START_TEST(regs_and_stack)
{
	bool be = _i;
	struct sample s;
	struct evsel ev;
	struct body w;
	const char *why = "";

	evsel_init(&ev);
	build(&w, be, 2, 32, 24);
	ck_assert_int_eq(sample_parse(&ev, w.b, w.len, be != SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_uint_eq(s.regs_user_abi, 2);
	ck_assert_uint_eq(s.nr_regs_user, 3);
	ck_assert_uint_eq(srep_get64(s.regs_user + 16, be != SREP_HOST_BIG_ENDIAN), 0x4444);
	ck_assert_uint_eq(s.stack_user_size, 24);
	ck_assert_uint_eq(s.stack_user[5], 5);		/* the target's bytes, untouched */
	/* a dyn_size beyond the copy is cut to it */
	build(&w, be, 2, 32, 999);
	ck_assert_int_eq(sample_parse(&ev, w.b, w.len, be != SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_uint_eq(s.stack_user_size, 32);
	/* no registers (abi 0) and no stack (size 0, then no dyn_size) */
	build(&w, be, 0, 0, 0);
	ck_assert_int_eq(sample_parse(&ev, w.b, w.len, be != SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_uint_eq(s.regs_user_abi, 0);
	ck_assert_ptr_null(s.regs_user);
	ck_assert_ptr_null(s.stack_user);
	ck_assert_uint_eq(s.stack_user_size, 0);
}
END_TEST

/* every shorter body is refused, from a copy of exactly that size */
START_TEST(truncations)
{
	const char *why = "";
	struct sample s;
	struct evsel ev;
	struct body w;
	uint8_t *copy;
	size_t cut;

	evsel_init(&ev);
	build(&w, false, 2, 32, 24);
	for (cut = 0; cut < w.len; cut++) {
		copy = malloc(cut ? cut : 1);
		memcpy(copy, w.b, cut);
		ck_assert_msg(sample_parse(&ev, copy, cut, SREP_HOST_BIG_ENDIAN, &s, &why) != 0,
			      "%zu of %zu bytes accepted", cut, w.len);
		free(copy);
	}
	/* a stack size beyond the record */
	w.len = 0;
	put64(&w, 0x0000007b0000007bull);
	put64(&w, 5000);
	put64(&w, 0);
	put64(&w, UINT64_MAX - 4);
	ck_assert_int_ne(sample_parse(&ev, w.b, w.len, SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_str_eq(why, "user stack");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sample");
	TCase *tc = tcase_create("user stack");

	tcase_add_loop_test(tc, regs_and_stack, 0, 2);
	tcase_add_test(tc, truncations);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
