// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_compare.c - the comparison rules: when a difference is significant
 * (relative and absolute thresholds per unit), ratios and widths, scaling,
 * the order of the per-task rows, and bad scales.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "fixture.h"

#define T0 5170000000000ull
#define US 1000ull

START_TEST(significance_thresholds)
{
	struct srep_diff d;

	srep_diff__set(&d, "x", SREP_UNIT_NS, 1000000, 1120000);	/* 10.7% of the larger */
	ck_assert(d.significant);
	ck_assert_double_eq_tol(d.ratio, 1.12, 1e-12);
	ck_assert_double_eq_tol(d.width, 120000.0 / 1120000.0, 1e-12);
	srep_diff__set(&d, "x", SREP_UNIT_NS, 1000000, 1100000);	/* +10% of A: 9.1% of B */
	ck_assert(!d.significant);
	srep_diff__set(&d, "x", SREP_UNIT_NS, 1120000, 1000000);	/* symmetric */
	ck_assert(d.significant);
	srep_diff__set(&d, "x", SREP_UNIT_NS, 1000, 9000);		/* 9x, but 8 us */
	ck_assert(!d.significant);
	srep_diff__set(&d, "x", SREP_UNIT_NS, 0, 10000);		/* from nothing, 10 us */
	ck_assert(d.significant);
	ck_assert(isnan(d.ratio));
	ck_assert_double_eq(d.width, 1);
	srep_diff__set(&d, "x", SREP_UNIT_COUNT, 1, 2);			/* 2x, but 1 event */
	ck_assert(!d.significant);
	srep_diff__set(&d, "x", SREP_UNIT_COUNT, 10, 12);
	ck_assert(d.significant);
	srep_diff__set(&d, "x", SREP_UNIT_PERCENT, 5, 5.9);		/* 15%, 0.9 points */
	ck_assert(!d.significant);
	srep_diff__set(&d, "x", SREP_UNIT_PERCENT, 50, 40);
	ck_assert(d.significant);
	ck_assert_double_eq(d.diff, -10);
	srep_diff__set(&d, "x", SREP_UNIT_NS, 0, 0);
	ck_assert(!d.significant);
	ck_assert_double_eq(d.width, 0);
}
END_TEST

/* one task running 'run' us on CPU 0 */
static char *write_trace(uint64_t run, char *path, size_t size)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	char *dir = tu_tmpdir();

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, T0, 0, 100, 100, "solo", false);
	fixture_switch(fx, T0 + 100 * US, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "solo", 100, 120);
	fixture_switch(fx, T0 + (100 + run) * US, 0, "solo", 100, 120, FIXTURE_STATE_S,
		       "swapper/0", 0, 120);
	snprintf(path, size, "%s/t.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	fixture_free(fx);
	return dir;
}

struct side {
	struct srep_session *s;
	struct srep_metrics *m;
	char *dir;
};

static void read_side(struct side *sd, uint64_t run)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	const struct srep_event *ev;
	struct srep_error err = { 0 };
	char path[4096];

	sd->dir = write_trace(run, path, sizeof(path));
	ck_assert_int_eq(srep_session__open(&sd->s, path, &oo, &err), 0);
	ck_assert_int_eq(srep_metrics__new(&sd->m, sd->s, &err), 0);
	while (srep_session__next_event(sd->s, &ev, &err) > 0)
		srep_metrics__add(sd->m, ev, &err);
	srep_metrics__finish(sd->m);
}

static void free_side(struct side *sd)
{
	srep_metrics__delete(sd->m);
	srep_session__delete(sd->s);
	tu_rmdir(sd->dir);
	free(sd->dir);
}

START_TEST(scaling_and_rows)
{
	struct side a, b;
	struct srep_compare_side ca, cb;
	struct srep_compare *c;
	struct srep_error err = { 0 };
	const struct srep_compare_row *rows;
	const struct srep_diff *d;
	size_t n, i;

	read_side(&a, 1000);
	read_side(&b, 3000);
	ca = (struct srep_compare_side){ a.s, a.m, NULL, 1 };
	cb = (struct srep_compare_side){ b.s, b.m, NULL, 1 };
	ck_assert_int_eq(srep_compare__new(&c, &ca, &cb, SREP_MATCH_AUTO, &err), 0);
	d = srep_compare__pair(c, 0, &n);
	ck_assert_uint_eq(n, 11);
	ck_assert_str_eq(d[0].metric, "cpu_time");
	ck_assert_double_eq(d[0].a, 1000 * US);
	ck_assert_double_eq(d[0].b, 3000 * US);
	ck_assert(d[0].significant);
	/* rows: significant first, then widest first */
	rows = srep_compare__rows(c, &n);
	for (i = 1; i < n; i++) {
		ck_assert(rows[i - 1].diff->significant >= rows[i].diff->significant);
		if (rows[i - 1].diff->significant == rows[i].diff->significant)
			ck_assert(rows[i - 1].diff->width >= rows[i].diff->width);
	}
	srep_compare__delete(c);
	/* B three times slower: scaled by 1/3 the CPU time is the same */
	cb.scale = 1.0 / 3;
	ck_assert_int_eq(srep_compare__new(&c, &ca, &cb, SREP_MATCH_AUTO, &err), 0);
	d = srep_compare__pair(c, 0, &n);
	ck_assert_double_eq_tol(d[0].b, 1000 * US, 1e-6);
	ck_assert(!d[0].significant);
	ck_assert_uint_eq(srep_compare__pair_metrics(c, 0, 1)->cpu_ns, 3000 * US);	/* unscaled */
	srep_compare__delete(c);
	cb.scale = 0;
	ck_assert_int_eq(srep_compare__new(&c, &ca, &cb, SREP_MATCH_AUTO, &err), SREP_E_INVAL);
	ck_assert_ptr_null(c);
	free_side(&a);
	free_side(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_test(tc, significance_thresholds);
	tcase_add_test(tc, scaling_and_rows);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
