// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_schema.c - tests of src/reader/schema.c: the one list of the event
 * union's members that the JSON writer, its reader and the tests follow.
 */
#include <check.h>
#include <string.h>

#include <schedrep/schedrep.h>
#include "testutil.h"

/* the writer relies on each kind's members standing together, kinds in enum order */
START_TEST(kinds_are_contiguous_and_ordered)
{
	const struct srep_member *m;
	size_t i, nr;
	int last = -1;

	m = srep_event_schema(&nr);
	ck_assert_uint_gt(nr, 0);
	for (i = 0; i < nr; i++) {
		ck_assert_int_ge((int)m[i].kind, last);
		ck_assert_int_lt((int)m[i].kind, SREP_EV_MAX);
		ck_assert_int_eq(srep_event_kind__union(m[i].kind), m[i].kind);
		ck_assert_uint_lt(m[i].offset, sizeof(struct srep_event));
		last = (int)m[i].kind;
	}
}
END_TEST

/* a change to any one member makes events unequal on that member only */
START_TEST(each_member_is_compared)
{
	const struct srep_member *m;
	struct srep_event a, b;
	size_t i, j, nr;

	m = srep_event_schema(&nr);
	for (i = 0; i < nr; i++) {
		const char *other = "y";

		memset(&a, 0, sizeof(a));
		a.kind = m[i].kind;
		a.u.exec.filename = a.u.mmap.filename = "x";
		b = a;
		if (m[i].type == SREP_MT_CSTR)
			memcpy((char *)&b + m[i].offset, &other, sizeof(other));
		else if (m[i].type == SREP_MT_BUILD_ID)
			b.u.mmap.build_id_size = 1;
		else
			((char *)&b)[m[i].offset] = 1;
		ck_assert_msg(!srep_member__equal(&m[i], &a, &b), "%s not compared", m[i].key);
		for (j = 0; j < nr; j++)
			if (j != i && m[j].kind == m[i].kind && m[j].type != SREP_MT_CSTR &&
			    m[i].type != SREP_MT_CSTR && m[j].offset != m[i].offset)
				ck_assert_msg(srep_member__equal(&m[j], &a, &b), "%s changed %s",
					      m[i].key, m[j].key);
	}
}
END_TEST

START_TEST(enum_names_round_trip)
{
	enum srep_wakeup_kind w;
	enum srep_stat_kind st;

	ck_assert(srep_wakeup_kind__parse(srep_wakeup_kind_name(SREP_WAKE_NEW), &w));
	ck_assert_int_eq(w, SREP_WAKE_NEW);
	ck_assert(srep_stat_kind__parse(srep_stat_kind_name(SREP_STAT_BLOCKED), &st));
	ck_assert_int_eq(st, SREP_STAT_BLOCKED);
	ck_assert(!srep_stat_kind__parse("nap", &st));
	ck_assert(!srep_wakeup_kind__parse(NULL, &w));
	ck_assert_str_eq(srep_stat_kind_name((enum srep_stat_kind)99), "?");
}
END_TEST

static Suite *schema_suite(void)
{
	Suite *s = suite_create("schema");
	TCase *tc = tcase_create("members");

	tcase_add_test(tc, kinds_are_contiguous_and_ordered);
	tcase_add_test(tc, each_member_is_compared);
	tcase_add_test(tc, enum_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run_suite(schema_suite());
}
