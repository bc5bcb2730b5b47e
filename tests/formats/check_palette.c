// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_palette.c - the task colours (formats/palette.c), measured back in
 * OKLab from the "#rrggbb" they give (this file's own conversion, the
 * inverse of the one under test): neighbours in a listing differ clearly,
 * so do any two of the first eight (the legends), none fades into the
 * white or light grey backgrounds, and a colour is the same every time.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exporter.h"
#include "testutil.h"

/*
 * ΔE in OKLab: about 0.02 is barely visible; the report's old hashed
 * colours hsl(205/209,65%,50%) were 0.031 apart, hsl(293/300,…) 0.038.
 */
#define NEIGHBOURS_MIN	0.20
#define LEGEND_MIN	0.10	/* any two of the first LEGEND */
#define LEGEND		8
#define BACKGROUND_MIN	0.20
#define CHECKED		500

struct lab {
	double L, a, b;
};

static double linear(unsigned c8)
{
	double c = c8 / 255.0;

	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static struct lab lab_of_rgb(unsigned r8, unsigned g8, unsigned b8)
{
	double r = linear(r8), g = linear(g8), b = linear(b8);
	double l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
	double m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
	double s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);

	return (struct lab){ 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
			     1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
			     0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s };
}

static struct lab colour(size_t i)
{
	char buf[SREP_EXPORT_COLOUR_SIZE];
	unsigned r, g, b;

	srep_export_colour(i, buf);
	ck_assert_int_eq(strlen(buf), 7);
	ck_assert_int_eq(sscanf(buf, "#%2x%2x%2x", &r, &g, &b), 3);
	return lab_of_rgb(r, g, b);
}

static double delta_e(struct lab x, struct lab y)
{
	return sqrt((x.L - y.L) * (x.L - y.L) + (x.a - y.a) * (x.a - y.a) +
		    (x.b - y.b) * (x.b - y.b));
}

START_TEST(neighbours_differ)
{
	size_t i;

	for (i = 0; i + 1 < CHECKED; i++)
		ck_assert_msg(delta_e(colour(i), colour(i + 1)) >= NEIGHBOURS_MIN,
			      "colours %zu and %zu are %.3f apart", i, i + 1,
			      delta_e(colour(i), colour(i + 1)));
}
END_TEST

START_TEST(legend_differs)
{
	size_t i, j;

	for (i = 0; i < LEGEND; i++)
		for (j = i + 1; j < LEGEND; j++)
			ck_assert_msg(delta_e(colour(i), colour(j)) >= LEGEND_MIN,
				      "colours %zu and %zu are %.3f apart", i, j,
				      delta_e(colour(i), colour(j)));
}
END_TEST

START_TEST(visible_on_backgrounds)
{
	struct lab white = lab_of_rgb(255, 255, 255), grey = lab_of_rgb(0xf2, 0xf2, 0xf2);
	size_t i;

	for (i = 0; i < CHECKED; i++) {
		ck_assert_msg(delta_e(colour(i), white) >= BACKGROUND_MIN, "colour %zu: pale", i);
		ck_assert_msg(delta_e(colour(i), grey) >= BACKGROUND_MIN, "colour %zu: pale", i);
	}
}
END_TEST

START_TEST(stable)
{
	char a[SREP_EXPORT_COLOUR_SIZE], b[SREP_EXPORT_COLOUR_SIZE];
	size_t i;

	for (i = 0; i < CHECKED; i++) {
		srep_export_colour(i, a);
		srep_export_colour(i, b);
		ck_assert_str_eq(a, b);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("palette");
	TCase *tc = tcase_create("palette");

	tcase_add_test(tc, neighbours_differ);
	tcase_add_test(tc, legend_differs);
	tcase_add_test(tc, visible_on_backgrounds);
	tcase_add_test(tc, stable);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
