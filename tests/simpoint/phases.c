// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * phases.c - a workload with known phases for "schedrep simpoint": the
 * phases A B A C A B, each a different loop in its own function, each
 * lasting the same CPU time (argument, ms; default 300) whatever the load,
 * or, with a second argument, the same number of rounds of its loop (the
 * same instructions in every run: for comparisons with exact basic-block
 * vectors, bench/simpoint-bbv.sh).
 * Prints "PHASE NAME START_NS" (CLOCK_MONOTONIC)
 * as each starts and "END END_NS" at the end: record it with
 * perf record -k CLOCK_MONOTONIC and those times are the trace's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;
static uint32_t table[1 << 16];

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* phases end after CPU time, so that each gets its samples on a busy machine */
static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static uint64_t rounds;		/* rounds per phase; 0: phases end by time */

/* one more round of a phase that started at round 0 and ends at @until (CPU ns) */
static int go_on(uint64_t *round, uint64_t until)
{
	return rounds ? (*round)++ < rounds : now_ns() < until;
}

/* A: integer mixing */
__attribute__((noinline)) static void phase_a(uint64_t until)
{
	uint64_t x = 1, i, r = 0;

	while (go_on(&r, until))
		for (i = 0; i < 20000; i++)
			x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15ull + i;
	sink = x;
}

/* B: floating point */
__attribute__((noinline)) static void phase_b(uint64_t until)
{
	double y = 1.0;
	uint64_t r = 0;
	int i;

	while (go_on(&r, until))
		for (i = 0; i < 20000; i++)
			y = y * 1.0000001 + 0.5 / (y + (double)i);
	sink = (uint64_t)y;
}

/* C: a dependent walk through a table */
__attribute__((noinline)) static void phase_c(uint64_t until)
{
	uint32_t j = 0;
	uint64_t r = 0;
	int i;

	while (go_on(&r, until))
		for (i = 0; i < 20000; i++)
			j = table[j & 0xffff] + (uint32_t)i;
	sink = j;
}

int main(int argc, char **argv)
{
	static const char order[] = "ABACAB";
	uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 300, t;
	size_t i;

	rounds = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		table[i] = (uint32_t)(i * 2654435761u);
	for (i = 0; order[i]; i++) {
		t = now_ns();
		printf("PHASE %c %llu\n", order[i], (unsigned long long)clock_ns(CLOCK_MONOTONIC));
		if (order[i] == 'A')
			phase_a(t + ms * 1000000);
		else if (order[i] == 'B')
			phase_b(t + ms * 1000000);
		else
			phase_c(t + ms * 1000000);
	}
	printf("END %llu\n", (unsigned long long)clock_ns(CLOCK_MONOTONIC));
	return 0;
}
