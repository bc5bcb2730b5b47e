// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint_ran2.c - SimPoint 3.2's random numbers, for --simpoint32.
 *
 * SimPoint draws its k-means starts with L'Ecuyer's combined generator
 * (two multiplicative congruential generators, moduli 2^31-85 and 2^31-249,
 * their difference shuffled through Bays and Durham's 32-entry table, as
 * "ran2" of Numerical Recipes does) and returns floats in (0, 1). Drawing
 * the same numbers from the same seeds is the only way the two tools can
 * start k-means from the same points, so that their clusterings can be
 * compared point for point (docs/simpoint.md); this is written from the
 * published algorithm. schedrep's own draws use splitmix64 (simpoint.h).
 */
#include "simpoint.h"

#define M1	2147483563ll		/* 2^31 - 85 */
#define M2	2147483399ll		/* 2^31 - 249 */
#define A1	40014ll
#define A2	40692ll
#define SHUFFLE_DIV (1 + (M1 - 1) / SP_RAN2_TABLE)
#define TOP	(1.0 - 1.2e-7)		/* the largest value returned: never 1 */

void sp_ran2_seed(struct sp_ran2 *g, int64_t seed)
{
	int j;

	/* SimPoint makes a seed s > 1 negative and the first draw positive again */
	g->s1 = seed > 0 ? seed : seed < 0 ? -seed : 1;
	g->s2 = g->s1;
	/* eight warm-up steps, then the table filled from the last 32 */
	for (j = SP_RAN2_TABLE + 7; j >= 0; j--) {
		g->s1 = A1 * g->s1 % M1;
		if (j < SP_RAN2_TABLE)
			g->table[j] = g->s1;
	}
	g->y = g->table[0];
}

float sp_ran2_float(struct sp_ran2 *g)
{
	int j = (int)(g->y / SHUFFLE_DIV);
	float f;

	g->s1 = A1 * g->s1 % M1;
	g->s2 = A2 * g->s2 % M2;
	g->y = g->table[j] - g->s2;
	g->table[j] = g->s1;
	if (g->y < 1)
		g->y += M1 - 1;
	f = (float)((1.0 / (double)M1) * (double)g->y);
	return f > TOP ? (float)TOP : f;
}

int sp_ran2_int(struct sp_ran2 *g)
{
	/* SimPoint's (int)(randFloat() * INT_MAX): a product in float precision */
	return (int)(sp_ran2_float(g) * (float)2147483647);
}
