// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * palette.c - colours for tasks, shared by the SVG timeline and the compare
 * HTML report (exporter.h, srep_export_colour).
 *
 * Hues hashed from names landed close together (205 and 209 degrees look
 * the same), so colour i of a listing is made to differ from its
 * neighbours instead: hues step by the golden angle and lightness cycles
 * through three levels, in OKLab (Björn Ottosson's perceptual space, whose
 * distances follow what the eye sees, unlike HSL's). Neighbours then differ
 * by 137.5 degrees of hue and a lightness step. Written here rather than
 * taken from a colour library: it is two matrix products.
 */
#include <math.h>
#include <stdio.h>

#include "exporter.h"

#define GOLDEN_ANGLE	2.39996322972865332	/* radians: pi (3 - sqrt 5) */
#define FIRST_HUE	4.2			/* radians: a blue first */
#define CHROMA		0.125			/* vivid, yet mostly inside sRGB */

static const double lightness[3] = { 0.62, 0.78, 0.50 };

/* linear light to the sRGB transfer curve, clipped into 0..255 */
static unsigned to_srgb8(double c)
{
	c = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
	c = c < 0 ? 0 : c > 1 ? 1 : c;
	return (unsigned)lround(c * 255);
}

void srep_export_colour(size_t i, char buf[SREP_EXPORT_COLOUR_SIZE])
{
	double h = FIRST_HUE + GOLDEN_ANGLE * (double)(i % 1000), L = lightness[i % 3];
	double a = CHROMA * cos(h), b = CHROMA * sin(h);
	/* OKLab to LMS (cube roots), cubed, then LMS to linear sRGB */
	double l = L + 0.3963377774 * a + 0.2158037573 * b;
	double m = L - 0.1055613458 * a - 0.0638541728 * b;
	double s = L - 0.0894841775 * a - 1.2914855480 * b;

	l = l * l * l;
	m = m * m * m;
	s = s * s * s;
	snprintf(buf, SREP_EXPORT_COLOUR_SIZE, "#%02x%02x%02x",
		 to_srgb8(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
		 to_srgb8(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
		 to_srgb8(-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s));
}
