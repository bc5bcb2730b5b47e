// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_ff_action.c - fastforward's small parts: counts with decimal
 * suffixes, the action template's substitutions, and running the action
 * (exit status, captured output, only its last 64 KiB kept).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"
#include "fastforward.h"

START_TEST(counts)
{
	struct srep_error err = { 0 };
	uint64_t v;

	ck_assert_int_eq(srep_ff_parse_count("1G", &v, &err), 0);
	ck_assert_uint_eq(v, 1000000000u);
	ck_assert_int_eq(srep_ff_parse_count("250k", &v, &err), 0);
	ck_assert_uint_eq(v, 250000u);
	ck_assert_int_eq(srep_ff_parse_count("0", &v, &err), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(srep_ff_parse_count("18446744073709551615", &v, &err), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(srep_ff_parse_count("20000000000T", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_ff_parse_count("-1", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_ff_parse_count("1.5G", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_ff_parse_count("1Gi", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_ff_parse_count("", &v, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected a number"));
}
END_TEST

START_TEST(substitutions)
{
	struct srep_ff_subst s = { 4242, 3, 100000123, "out/003-100000000" };
	char *t;

	t = srep_ff_expand("criu dump -t {pid} -D {dir} # {n}: {count} {pid}", &s);
	ck_assert_str_eq(t, "criu dump -t 4242 -D out/003-100000000 # 3: 100000123 4242");
	free(t);
	/* unknown or broken braces stay as written */
	t = srep_ff_expand("{x} {pid {} {{n}}", &s);
	ck_assert_str_eq(t, "{x} {pid {} {3}");
	free(t);
	t = srep_ff_expand("", &s);
	ck_assert_str_eq(t, "");
	free(t);
}
END_TEST

START_TEST(run_action)
{
	struct srep_ff_action_result r;
	struct srep_error err = { 0 };

	ck_assert_int_eq(srep_ff_action_run("echo out; echo err >&2; read x || echo eof; exit 7", &r, &err), 0);
	ck_assert(WIFEXITED(r.status));
	ck_assert_int_eq(WEXITSTATUS(r.status), 7);
	ck_assert_str_eq(r.output, "out\nerr\neof\n");	/* stdin is /dev/null */
	ck_assert_uint_eq(r.len, 12);
	srep_ff_action_result_free(&r);
	/* 100,000 lines of "N\n": only the end is kept, whole */
	ck_assert_int_eq(srep_ff_action_run("seq 100000", &r, &err), 0);
	ck_assert_uint_eq(r.len, 64u << 10);
	ck_assert_ptr_nonnull(strstr(r.output, "\n99999\n100000\n"));
	ck_assert_uint_eq(strlen(r.output), r.len);
	srep_ff_action_result_free(&r);
	ck_assert_int_eq(srep_ff_action_run("kill -9 $$", &r, &err), 0);
	ck_assert(WIFSIGNALED(r.status));
	srep_ff_action_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ff_action");
	TCase *tc = tcase_create("action");

	tcase_add_test(tc, counts);
	tcase_add_test(tc, substitutions);
	tcase_add_test(tc, run_action);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
