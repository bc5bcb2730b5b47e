// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_tp_check.c - tests of src/reader/tp_check.c: the shapes of the
 * tracing data's texts that libtraceevent is trusted with (a format whose
 * __print_flags() names a missing field crashes it, a field without a type
 * leaks, a printk line without ':' is read past its end).
 */
#include <check.h>
#include <string.h>

#include "reader.h"
#include "testutil.h"

#define COMMON "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"

/* handed to libtraceevent whole (not skipped, nor cut before its print format) */
static bool check(const char *text, char *name, char *why)
{
	size_t use;

	return tp_check_format(text, strlen(text), &use, name, 64, why, 160) && use == strlen(text);
}

/* handed over only up to its print format, which starts at 'print' */
static bool print_dropped(const char *text, char *name, char *why)
{
	size_t use;

	return tp_check_format(text, strlen(text), &use, name, 64, why, 160) && why[0] &&
	       use == (size_t)(strstr(text, "print") - text);
}

/* an event 'name' with one int field 'a' and the print format '"%d", ARGS' */
static const char *with_args(char *text, size_t size, const char *name, const char *args)
{
	snprintf(text, size, "name: %s\nformat:\n" COMMON
		 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\nprint fmt: \"%%d\", %s\n", name, args);
	return text;
}

START_TEST(good_formats_pass)
{
	char name[64], why[160];

	ck_assert(check("name: a\nID: 1\nformat:\n" COMMON
			"\tfield:char comm[16];\toffset:2;\tsize:16;\tsigned:1;\n"
			"\tfield:__data_loc char[] msg;\toffset:18;\tsize:4;\tsigned:1;\n"
			"\tfield:const char * p;\toffset:22;\tsize:8;\tsigned:0;\n\n"
			"print fmt: \"%s %s REC->nope\", REC->comm, __get_str(msg), REC->p\n",
			name, why));
	ck_assert_str_eq(name, "a");
	/* the (REC)-> form and a format without a print format */
	ck_assert(check("name: b\nformat:\n" COMMON "\n", name, why));
}
END_TEST

START_TEST(print_flags_over_a_missing_field)
{
	char name[64], why[160];

	ck_assert(print_dropped("name: sched_switch\nID: 3\nformat:\n" COMMON
			 "\tfield:long prev_pid;\toffset:8;\tsize:8;\tsigned:1;\n\n"
			 "print fmt: \"%s\", __print_flags(REC->prev_state, \"|\", { 1, \"S\" })\n",
			 name, why));
	ck_assert_str_eq(name, "sched_switch");
	ck_assert_ptr_nonnull(strstr(why, "'prev_state'"));
}
END_TEST

START_TEST(field_without_type)
{
	char name[64], why[160];

	ck_assert(!check("name: x\nformat:\n" COMMON "\tfield:prev_pid;\toffset:8;\tsize:4;\n",
			 name, why));
	ck_assert_ptr_nonnull(strstr(why, "no type or name"));
	ck_assert(!check("name: x\nformat:\n\tfield: ;\toffset:8;\n", name, why));
}
END_TEST

/* libtraceevent divides without looking: only nonzero numbers and type sizes may divide */
START_TEST(divisors)
{
	static const char *const ok[] = { "REC->a / 1000", "REC->a % 0x10UL",
					  "(REC->a) / sizeof(u64)", "\"50%% / 0\", REC->a" };
	static const char *const bad[] = { "REC->a / 0", "0%x00000008", "REC->a % REC->a",
					   "REC->a / (2)", "REC->a / sizeof(REC->a)", "REC->a /" };
	char text[512], name[64], why[160];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ck_assert_msg(check(with_args(text, sizeof(text), "d", ok[i]), name, why),
			      "'%s' refused: %s", ok[i], why);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(print_dropped(with_args(text, sizeof(text), "d", bad[i]), name, why),
			      "'%s' accepted", bad[i]);
		ck_assert_ptr_nonnull(strstr(why, "divides by"));
	}
}
END_TEST

/* a print format cut inside a call or a string: libtraceevent dereferences NULL */
START_TEST(unclosed_brackets)
{
	static const char *const bad[] = {
		"REC->a ? __print_flags(REC->a, \"|\", { 1, \"S\" }",
		"REC->a ? __print_flags(REC->a", "(REC->a]", "REC->a)", "\"unterminated",
	};
	char text[512], name[64], why[160];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(print_dropped(with_args(text, sizeof(text), "u", bad[i]), name, why),
			      "'%s' accepted", bad[i]);
		ck_assert_msg(strstr(why, "bracket") || strstr(why, "string"), "'%s': %s", bad[i], why);
	}
	ck_assert(check("name: u\nformat:\n" COMMON "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
			"\nprint fmt: \"%s (x)\", __print_symbolic(REC->a, { 1, \"(\" }, { 2, \"]\" })\n",
			name, why));
	/* libtraceevent reads "print fmt:" whatever the white space: so does the check */
	ck_assert(print_dropped("name: u\nformat:\n" COMMON "\tfield:int a;\toffset:8;\tsize:4;\n"
				"\nprint\n fmt :\"\",REC->a?__print_flags(REC->a", name, why));
}
END_TEST

/*
 * After "a ? b : c", a token that neither continues the expression nor
 * ends the argument makes libtraceevent dereference NULL; the kernels'
 * own conditionals pass.
 */
START_TEST(conditionals)
{
	static const char *const ok[] = {
		"REC->a ? \"x\" : \"y\"", "REC->a ? REC->a : -1", "(REC->a ? 1 : 2)",
		("REC->a ? __print_flags(REC->a, \"|\", { 1, \"S\" }) : \"R\", "
		 "REC->a & 0x100 ? \"+\" : \"\""),
		"REC->a ? 1 : (int)REC->a + 2", "REC->a ? 1 : REC->a ? 2 : 3",
		"REC->a ? 1 : sizeof(int) * 2", "REC->a ? 1 : ((char *)REC->a)[0]",
		"REC->a ? 1 : __get_str(a)", "REC->a ?\n 1 :\n 2\n",
	};
	static const char *const bad[] = {
		"REC->a ? 1 : 2; REC->a", "REC->a ? 1 : 2;", "REC->a ? 1 : 2 REC->a",
		"(REC->a ? 1 : 2; 3)", "REC->a ? 1 : 2}", "REC->a ? 1 : 2] REC->a",
		"REC->a ? 1 : 2 ? 3 : 4;", "REC->a ? 1 :", "REC->a ? 1 : ;",
	};
	char text[512], name[64], why[160];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ck_assert_msg(check(with_args(text, sizeof(text), "c", ok[i]), name, why),
			      "'%s' refused: %s", ok[i], why);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(print_dropped(with_args(text, sizeof(text), "c", bad[i]), name, why),
			      "'%s' accepted", bad[i]);
		ck_assert_msg(strstr(why, "conditional") || strstr(why, "bracket"), "'%s': %s",
			      bad[i], why);
	}
}
END_TEST

START_TEST(binary_is_not_a_format)
{
	static const char text[] = "name: y\nformat:\n" COMMON "\x01\x80";
	char name[64], why[160];
	size_t use;

	ck_assert(!tp_check_format(text, sizeof(text) - 1, &use, name, sizeof(name), why,
				   sizeof(why)));
	ck_assert_str_eq(name, "y");
	ck_assert_str_eq(why, "it is not text");
}
END_TEST

START_TEST(printk_lines_without_a_colon_dropped)
{
	char text[] = "0x1 : \"one\"\nnocolon\n0x2:\n:x\n\n0x3:\"three\"";

	char nul[] = "0x4 : \"four\"\n0x5 :\0 \"hidden\"\n0x6 : \"six\"";

	ck_assert_uint_eq(tp_check_printk(text, strlen(text)), 3);
	ck_assert_str_eq(text, "0x1 : \"one\"\n0x3:\"three\"\n");
	/* what follows a NUL is not seen by libtraceevent: "0x5 :" ends there */
	ck_assert_uint_eq(tp_check_printk(nul, sizeof(nul) - 1), 1);
	ck_assert_str_eq(nul, "0x4 : \"four\"\n");
}
END_TEST

static Suite *tp_check_suite(void)
{
	Suite *s = suite_create("tp_check");
	TCase *tc = tcase_create("shapes");

	tcase_add_test(tc, good_formats_pass);
	tcase_add_test(tc, print_flags_over_a_missing_field);
	tcase_add_test(tc, field_without_type);
	tcase_add_test(tc, divisors);
	tcase_add_test(tc, unclosed_brackets);
	tcase_add_test(tc, conditionals);
	tcase_add_test(tc, binary_is_not_a_format);
	tcase_add_test(tc, printk_lines_without_a_colon_dropped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run_suite(tp_check_suite());
}
