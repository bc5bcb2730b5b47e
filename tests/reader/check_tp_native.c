// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_tp_native.c - tests of src/reader/tp_native.c: the text of every
 * sched_* event, printed natively, is byte for byte libtraceevent's
 * (tp_print_tep) for the same payload.
 *
 * Corpus traces bring real kernels' formats (6.1 and 6.12, 64-bit
 * big-endian s390x, 32-bit armhf, simpleperf's older sched_switch with
 * more state letters); fixtures bring the newer kernel's __data_loc comms in
 * both byte orders and word sizes, and every prev_state value below 0x400
 * (more distinct values than the memo keeps).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "tp_local.h"
#include "fixture.h"
#include "testutil.h"

#define TEXT_MAX 4096
#define OK(call) ck_assert_int_ge((call), 0)

struct tally {
	uint64_t sched, native;
};

/* every sched event of an open session: native text == libtraceevent's */
static void compare_all(struct srep_session *s, const char *what, struct tally *t)
{
	char got[TEXT_MAX], want[TEXT_MAX], small[8];
	const struct srep_event *ev;
	const struct ev_fields *f;
	struct srep_error err = { 0 };
	const char *name;
	int ret, n, m;

	while ((ret = srep_session__next_event(s, &ev, &err)) > 0) {
		f = ev->priv;
		name = ev->evsel >= 0 ? srep_session__evsel_name(s, (size_t)ev->evsel) : NULL;
		if (!f || !f->tpe || !name || strncmp(name, "sched:", 6))
			continue;
		t->sched++;
		n = tp_print_native(f->tpe, f->raw, f->raw_size, got, sizeof(got));
		ck_assert_msg(n >= 0, "%s: %s event %llu not printed natively", what, name,
			      (unsigned long long)t->sched);
		t->native++;
		m = tp_print_tep(f->tpe, f->raw, f->raw_size, ev->cpu, want, sizeof(want));
		ck_assert_msg(!strcmp(got, want), "%s: %s:\n native: '%s'\n libtraceevent: '%s'",
			      what, name, got, want);
		ck_assert_int_eq(n, m);
		/* snprintf rules: cut to the buffer, the full length returned */
		ck_assert_int_eq(tp_print_native(f->tpe, f->raw, f->raw_size, small, sizeof(small)), n);
		ck_assert_int_eq(strncmp(small, want, sizeof(small) - 1), 0);
		ck_assert_uint_eq(strlen(small), (size_t)n < sizeof(small) ? (size_t)n : sizeof(small) - 1);
	}
	ck_assert_msg(ret == 0, "%s: %s", what, err.msg);
}

/* ---- corpus traces ---- */

static const char *const corpus[] = {
	"emulated/x86_64-messaging.data",	/* 6.1, little-endian, 64-bit */
	"emulated/s390x-messaging.data",	/* 6.1, big-endian, 64-bit */
	"emulated/s390x-pipe.data",		/* the same in pipe mode */
	"emulated/armhf-messaging.data",	/* 6.1, 32-bit: prev_state is 4 bytes */
	"emulated/arm64-trixie-messaging.data",	/* 6.12 */
	"public/simpleperf__perf_with_tracepoint_event.data",	/* prev_state up to 2048 */
};

START_TEST(test_corpus)
{
	char *path = tu_corpus_path(corpus[_i]);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tally t = { 0, 0 };

	if (!path)
		TU_SKIP("no corpus (set SREP_CORPUS): %s not read", corpus[_i]);
	ck_assert_msg(srep_session__open(&s, path, NULL, &err) == 0, "%s: %s", path, err.msg);
	compare_all(s, corpus[_i], &t);
	ck_assert_uint_gt(t.sched, 0);
	ck_assert_uint_eq(t.native, t.sched);
	srep_session__delete(s);
	free(path);
}
END_TEST

/* ---- fixtures: every sched event the fixture writes ---- */

static const struct fixture_opts flavours[] = {
	{ .big_endian = false, .word_size = 8 },
	{ .big_endian = true, .word_size = 8 },
	{ .big_endian = false, .word_size = 4 },
	{ .big_endian = true, .word_size = 4 },
	{ .big_endian = false, .word_size = 8, .kernel = FIXTURE_KERNEL_6_18 },
	{ .big_endian = true, .word_size = 8, .kernel = FIXTURE_KERNEL_6_18 },
	{ .big_endian = false, .word_size = 4, .kernel = FIXTURE_KERNEL_6_18 },
};

static void scenario(struct fixture *fx, bool stat_delays)
{
	static const char *const comms[] = { "", "a", "sched-messaging", "fifteen_chars__" };
	static const int32_t ints[] = { 0, 1, -1, 7, 99, 100, 123, 1234, 2147483647,
					-2147483647 - 1 };
	/* tids name tasks of the fixture's table: not negative */
	static const int32_t tids[] = { 0, 1, 7, 42, 99, 100, 123, 1234, 65535, 2147483647 };
	static const uint64_t u64s[] = { 0, 9, 10, 4294967296ull, 18446744073709551615ull };
	uint64_t time = 1000000000;
	int64_t state;
	size_t i;

	for (state = 0; state < 0x400; state++)
		OK(fixture_switch(fx, time++, (int)(state & 1), comms[state % 4], (int32_t)state,
				  120, state, comms[(state + 1) % 4], (int32_t)state + 1, 100));
	OK(fixture_switch(fx, time++, 0, "neg", 1, -1, -1, "neg", 2, -100));
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		const char *c = comms[i % 4];

		OK(fixture_waking(fx, time++, 0, c, tids[i], ints[(i + 1) % 10], ints[i]));
		OK(fixture_wakeup(fx, time++, 1, c, tids[i], 120, ints[(i + 3) % 10]));
		OK(fixture_wakeup_new(fx, time++, 0, c, tids[i], 120, ints[(i + 5) % 10]));
		OK(fixture_migrate(fx, time++, 1, c, tids[i], 120, ints[(i + 2) % 10], ints[i]));
		/* the fixture keeps a task table: forks name real tids */
		OK(fixture_tp_fork(fx, time++, 0, c, 500 + (int32_t)i, comms[(i + 1) % 4],
				   1000 + (int32_t)i));
		OK(fixture_exec(fx, time++, 1, i % 2 ? "/usr/bin/perf" : "", tids[i], tids[i]));
		OK(fixture_tp_exit(fx, time++, 0, c, tids[i], ints[(i + 4) % 10]));
		OK(fixture_tp_free(fx, time++, 1, c, tids[i], 120));
		OK(fixture_stat_runtime(fx, time++, 0, c, tids[i], u64s[i % 5], u64s[(i + 1) % 5]));
		if (!stat_delays)
			continue;	/* the newer kernel has no sched_stat_wait & co */
		OK(fixture_stat_delay(fx, "sched_stat_wait", time++, 1, c, tids[i], u64s[i % 5]));
		OK(fixture_stat_delay(fx, "sched_stat_sleep", time++, 0, c, tids[i], u64s[i % 5]));
	}
}

START_TEST(test_fixture)
{
	struct fixture *fx = fixture_new(&flavours[_i]);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tally t = { 0, 0 };
	uint8_t *buf = NULL;
	size_t len = 0;
	char what[32];

	ck_assert_ptr_nonnull(fx);
	scenario(fx, flavours[_i].kernel == FIXTURE_KERNEL_6_1);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	fixture_free(fx);
	ck_assert_int_eq(srep_session__open_mem(&s, buf, len, "fixture", NULL, &err), 0);
	snprintf(what, sizeof(what), "fixture %d", _i);
	compare_all(s, what, &t);
	ck_assert_uint_ge(t.sched, 0x400 + 10 * 9);
	ck_assert_uint_eq(t.native, t.sched);
	srep_session__delete(s);
	free(buf);
}
END_TEST

/*
 * Damaged payloads: bytes of each sched event changed at random. Whatever
 * tp_print makes of one (native or not) is libtraceevent's text, or an error.
 * The copy has exactly the payload's bytes, plus a NUL past them for
 * libtraceevent, which prints a __data_loc string up to its NUL wherever it is.
 */
static void compare_damaged(struct srep_session *s, uint32_t *seed, uint64_t *printed)
{
	char got[TEXT_MAX], want[TEXT_MAX];
	const struct srep_event *ev;
	const struct ev_fields *f;
	struct srep_error err = { 0 };
	uint8_t *copy;
	int ret, k, j, n, m;

	while ((ret = srep_session__next_event(s, &ev, &err)) > 0) {
		f = ev->priv;
		if (!f || !f->tpe || !f->raw_size)
			continue;
		copy = malloc(f->raw_size + 1);
		ck_assert_ptr_nonnull(copy);
		for (k = 0; k < 8; k++) {
			memcpy(copy, f->raw, f->raw_size);
			copy[f->raw_size] = 0;
			for (j = 0; j <= k % 3; j++) {
				*seed = *seed * 1103515245u + 12345u;
				copy[(*seed >> 8) % f->raw_size] = (uint8_t)(*seed >> 24);
			}
			n = tp_print(f->tpe, copy, f->raw_size, ev->cpu, got, sizeof(got));
			if (n < 0)
				continue;	/* refused as damaged: nothing printed */
			m = tp_print_tep(f->tpe, copy, f->raw_size, ev->cpu, want, sizeof(want));
			ck_assert_msg(!strcmp(got, want), "native: '%s'\nlibtraceevent: '%s'", got,
				      want);
			ck_assert_int_eq(n, m);
			(*printed)++;
		}
		free(copy);
	}
	ck_assert_int_eq(ret, 0);
}

START_TEST(test_damaged)
{
	struct fixture *fx = fixture_new(&flavours[_i]);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	uint32_t seed = 12345u + (uint32_t)_i;
	uint64_t printed = 0;
	uint8_t *buf = NULL;
	size_t len = 0;

	ck_assert_ptr_nonnull(fx);
	scenario(fx, flavours[_i].kernel == FIXTURE_KERNEL_6_1);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	fixture_free(fx);
	ck_assert_int_eq(srep_session__open_mem(&s, buf, len, "fixture", NULL, &err), 0);
	compare_damaged(s, &seed, &printed);
	ck_assert_uint_gt(printed, 1000);
	srep_session__delete(s);
	free(buf);
}
END_TEST

static Suite *tp_native_suite(void)
{
	Suite *su = suite_create("tp_native");
	TCase *fx = tcase_create("fixture");
	TCase *corp = tcase_create("corpus");

	tcase_add_loop_test(fx, test_fixture, 0, (int)(sizeof(flavours) / sizeof(flavours[0])));
	tcase_add_loop_test(fx, test_damaged, 0, (int)(sizeof(flavours) / sizeof(flavours[0])));
	tcase_set_timeout(fx, 60);
	suite_add_tcase(su, fx);
	tcase_add_loop_test(corp, test_corpus, 0, (int)(sizeof(corpus) / sizeof(corpus[0])));
	tcase_set_timeout(corp, 120);
	suite_add_tcase(su, corp);
	return su;
}

int main(void)
{
	return tu_run_suite(tp_native_suite());
}
