// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_error.c - error codes and their texts, srep_error__set() and the
 * formatting of struct srep_error with and without a path and an offset.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

START_TEST(codes_and_texts)
{
	int code, other;

	/* every code has its own text, and none can be mistaken for an errno */
	for (code = SREP_E_BASE + 1; code < SREP_E_MAX; code++) {
		const char *t = srep_strerror(code);

		ck_assert_int_lt(code, -4096);
		ck_assert_msg(t[0] && strcmp(t, "unknown error") != 0, "code %d has no text", code);
		for (other = SREP_E_BASE + 1; other < code; other++)
			ck_assert_str_ne(srep_strerror(other), t);
	}
	ck_assert_str_eq(srep_strerror(SREP_E_TRUNCATED), "file is truncated");
	ck_assert_str_eq(srep_strerror(SREP_E_NOT_PERF), "not a perf.data file");
	ck_assert_str_eq(srep_strerror(SREP_E_LIMIT), "limit exceeded");
	ck_assert_str_eq(srep_strerror(0), "success");
	ck_assert_str_eq(srep_strerror(-1), "unknown error");
	ck_assert_str_eq(srep_strerror(SREP_E_BASE), "unknown error");
	ck_assert_str_eq(srep_strerror(SREP_E_MAX), "unknown error");
	ck_assert_str_eq(srep_strerror(5), "unknown error");
}
END_TEST

START_TEST(set_fills_and_resets)
{
	struct srep_error err;
	char longmsg[1000];

	memset(&err, 0x55, sizeof(err));
	ck_assert_int_eq(srep_error__set(&err, SREP_E_CORRUPT, "record %d of %s", 7, "x"),
			 SREP_E_CORRUPT);
	ck_assert_int_eq(err.code, SREP_E_CORRUPT);
	ck_assert_str_eq(err.msg, "record 7 of x");
	/* what set() does not know is cleared, not left from before */
	ck_assert(!err.has_offset);
	ck_assert_uint_eq(err.offset, 0);
	ck_assert_int_eq(err.record_type, -1);
	ck_assert_str_eq(err.path, "");
	/* a NULL error is fine: the code still comes back */
	ck_assert_int_eq(srep_error__set(NULL, SREP_E_IO, "ignored"), SREP_E_IO);
	/* long messages are cut to the field, terminated */
	memset(longmsg, 'a', sizeof(longmsg) - 1);
	longmsg[sizeof(longmsg) - 1] = '\0';
	srep_error__set(&err, SREP_E_INVAL, "%s", longmsg);
	ck_assert_uint_eq(strlen(err.msg), SREP_ERR_MSG_MAX - 1);
}
END_TEST

START_TEST(format_parts)
{
	struct srep_error err;
	char buf[512];
	int n;

	srep_error__set(&err, SREP_E_TRUNCATED, "record needs %d bytes", 56);
	snprintf(err.path, sizeof(err.path), "arm.data");
	err.has_offset = true;
	err.offset = 0x3a2f10;
	n = srep_error__format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "'arm.data': offset 0x3a2f10: record needs 56 bytes");
	ck_assert_int_eq(n, (int)strlen(buf));

	err.has_offset = false;			/* path only */
	srep_error__format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "'arm.data': record needs 56 bytes");

	err.path[0] = '\0';			/* offset only; offset 0 is an offset too */
	err.has_offset = true;
	err.offset = 0;
	srep_error__format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "offset 0x0: record needs 56 bytes");

	err.has_offset = false;			/* neither */
	srep_error__format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "record needs 56 bytes");

	err.msg[0] = '\0';			/* no message: the code's text */
	snprintf(err.path, sizeof(err.path), "-");
	srep_error__format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "'-': file is truncated");
}
END_TEST

/* like snprintf: the whole length comes back, the text is cut and terminated */
START_TEST(format_small_buffers)
{
	struct srep_error err;
	char buf[512], small[12];
	int full, n;

	srep_error__set(&err, SREP_E_CORRUPT, "bad record");
	snprintf(err.path, sizeof(err.path), "trace.data");
	err.has_offset = true;
	err.offset = 0x40;
	full = srep_error__format(&err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "'trace.data': offset 0x40: bad record");

	memset(small, 'x', sizeof(small));
	n = srep_error__format(&err, small, sizeof(small));
	ck_assert_int_eq(n, full);
	ck_assert_str_eq(small, "'trace.data");
	/* measuring only, as with snprintf(NULL, 0, ...) */
	ck_assert_int_eq(srep_error__format(&err, NULL, 0), full);
	small[0] = 'x';
	ck_assert_int_eq(srep_error__format(&err, small, 1), full);
	ck_assert_int_eq(small[0], '\0');
}
END_TEST

int main(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("error");

	tcase_add_test(tc, codes_and_texts);
	tcase_add_test(tc, set_fills_and_resets);
	tcase_add_test(tc, format_parts);
	tcase_add_test(tc, format_small_buffers);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
