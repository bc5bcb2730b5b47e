// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_runs.c - the exact Mann-Whitney U test behind compare's repeated
 * runs, against values worked out by hand from the U distribution (the same
 * as scipy.stats.mannwhitneyu(a, b, method="exact") gives without ties):
 * U, the two-sided p, symmetry, ties, the smallest p per sample sizes, and
 * the sizes refused.
 */
#include "testutil.h"

#include <schedrep/schedrep.h>

#define EPS 1e-12

static void mw(const double *a, size_t na, const double *b, size_t nb, double u, double p)
{
	struct srep_error err = { 0 };
	double gu = -1, gp = -1;

	ck_assert_int_eq(srep_mann_whitney(a, na, b, nb, &gu, &gp, &err), 0);
	ck_assert_double_eq_tol(gu, u, EPS);
	ck_assert_double_eq_tol(gp, p, EPS);
	/* B against A: U is the complement, p the same */
	ck_assert_int_eq(srep_mann_whitney(b, nb, a, na, &gu, &gp, &err), 0);
	ck_assert_double_eq_tol(gu, (double)(na * nb) - u, EPS);
	ck_assert_double_eq_tol(gp, p, EPS);
}

START_TEST(separated_samples)
{
	static const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	static const double a5[] = { 10, 11, 12, 13, 14 }, b5[] = { 20, 21, 22, 23, 24 };

	mw(a3, 3, b3, 3, 0, 2.0 / 20);		/* 2 of C(6,3) splits are this extreme */
	mw(a5, 5, b5, 5, 0, 2.0 / 252);		/* C(10,5) = 252 */
}
END_TEST

START_TEST(overlapping_samples)
{
	static const double a[] = { 1, 2, 3, 5 }, b[] = { 4, 6, 7, 8 };
	static const double odd[] = { 1, 3, 5, 7 }, even[] = { 2, 4, 6, 8 };

	/* U = 1: U in {0, 1, 15, 16} holds 1 + 1 + 1 + 1 of the 70 splits */
	mw(a, 4, b, 4, 1, 4.0 / 70);
	/* U = 6, mean 8: all but U in {7, 8, 9} (7 + 8 + 7 splits) */
	mw(odd, 4, even, 4, 6, 48.0 / 70);
}
END_TEST

START_TEST(unequal_sizes)
{
	static const double a[] = { 3, 1 }, b[] = { 2, 4, 5 };

	/* U = 1 (3 > 2); of the C(5,2) = 10 splits, one each has U = 0, 1, 5, 6 */
	mw(a, 2, b, 3, 1, 4.0 / 10);
}
END_TEST

START_TEST(ties_get_mid_ranks)
{
	static const double same[] = { 7, 7, 7 };
	static const double lo[] = { 1, 1, 1, 1 }, hi[] = { 2, 2, 2, 2 };

	mw(same, 3, same, 3, 4.5, 1);
	/* every split of the tied values is one of 70; two are this extreme */
	mw(lo, 4, hi, 4, 0, 2.0 / 70);
}
END_TEST

START_TEST(smallest_p)
{
	ck_assert_double_eq_tol(srep_mann_whitney__min_p(3, 3), 0.1, EPS);
	ck_assert_double_eq_tol(srep_mann_whitney__min_p(3, 4), 2.0 / 35, EPS);
	ck_assert_double_eq_tol(srep_mann_whitney__min_p(4, 4), 2.0 / 70, EPS);
	ck_assert_double_eq_tol(srep_mann_whitney__min_p(1, 1), 1, EPS);
	ck_assert(srep_mann_whitney__min_p(3, 3) > SREP_RUNS_ALPHA);
	ck_assert(srep_mann_whitney__min_p(4, 4) <= SREP_RUNS_ALPHA);
}
END_TEST

START_TEST(sizes_refused)
{
	double v[SREP_RUNS_MAX + 1] = { 0 }, u, p;
	struct srep_error err = { 0 };

	ck_assert_int_eq(srep_mann_whitney(v, 0, v, 3, &u, &p, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_mann_whitney(v, SREP_RUNS_MAX + 1, v, 3, &u, &p, &err),
			 SREP_E_INVAL);
	ck_assert_int_eq(srep_mann_whitney(v, SREP_RUNS_MAX, v, SREP_RUNS_MAX, &u, &p, &err), 0);
	ck_assert_double_eq_tol(p, 1, EPS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runs");
	TCase *tc = tcase_create("mann-whitney");

	tcase_add_test(tc, separated_samples);
	tcase_add_test(tc, overlapping_samples);
	tcase_add_test(tc, unequal_sizes);
	tcase_add_test(tc, ties_get_mid_ranks);
	tcase_add_test(tc, smallest_p);
	tcase_add_test(tc, sizes_refused);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
