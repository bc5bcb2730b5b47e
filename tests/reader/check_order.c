// SPDX-License-Identifier: GPL-2.0-or-later
/* check_order.c - the reorder queue: per-CPU merge, rounds, the window, late records */
#include <stdlib.h>

#include "testutil.h"
#include "reader.h"

/*
 * No ck_assert in these helpers: a passing Check assertion still records a
 * mark point, which for the window test's 200,000 records took seconds.
 */
static void push_sized(struct order_queue *q, uint64_t t, int32_t cpu, uint32_t size, bool *late)
{
	static uint8_t rec[4096];

	rec[0] = (uint8_t)t;
	if (order_push(q, t, cpu, 0, rec, size, t, NULL, late) != 0)
		ck_abort_msg("push of %llu failed", (unsigned long long)t);
}

static void push(struct order_queue *q, uint64_t t, int32_t cpu, bool *late)
{
	push_sized(q, t, cpu, 16, late);
}

static uint64_t pop(struct order_queue *q)
{
	const struct order_entry *e = order_peek(q);
	uint64_t t;

	if (!e)
		ck_abort_msg("nothing to pop");
	if (e->data[0] != (uint8_t)e->time)	/* the copy travels with it */
		ck_abort_msg("record of %llu lost its data", (unsigned long long)e->time);
	t = e->time;
	order_pop(q);
	return t;
}

START_TEST(merges_cpus_at_eof)
{
	static const uint64_t cpu0[] = { 10, 20, 30, 40 }, cpu1[] = { 5, 15, 25, 35, 45 };
	struct order_queue q;
	uint64_t last = 0, t;
	bool late;
	size_t i;

	order_init(&q, 0);
	/* perf writes one CPU's buffer, then the next's */
	for (i = 0; i < 4; i++)
		push(&q, cpu0[i], 0, &late);
	for (i = 0; i < 5; i++)
		push(&q, cpu1[i], 1, &late);
	ck_assert_ptr_null(order_peek(&q));	/* no round, window not full: nothing may go */
	order_flush_all(&q);
	for (i = 0; i < 9; i++) {
		t = pop(&q);
		ck_assert_uint_ge(t, last);
		last = t;
	}
	ck_assert_ptr_null(order_peek(&q));
	order_free(&q);
}
END_TEST

START_TEST(round_rule)
{
	struct order_queue q;
	bool late;

	order_init(&q, 0);
	push(&q, 100, 0, &late);
	push(&q, 200, 1, &late);
	order_round(&q);			/* first round: limit = 0, nothing goes */
	ck_assert_ptr_null(order_peek(&q));
	push(&q, 150, 0, &late);
	order_round(&q);			/* everything <= 200 (max at the previous round) */
	ck_assert_uint_eq(pop(&q), 100);
	ck_assert_uint_eq(pop(&q), 150);
	ck_assert_uint_eq(pop(&q), 200);
	ck_assert_ptr_null(order_peek(&q));
	order_free(&q);
}
END_TEST

START_TEST(within_cpu_inversion_sorted)
{
	struct order_queue q;
	bool late;

	order_init(&q, 0);
	push(&q, 30, 0, &late);
	push(&q, 10, 0, &late);
	push(&q, 20, 0, &late);
	push(&q, 20, 0, &late);
	order_flush_all(&q);
	ck_assert_uint_eq(pop(&q), 10);
	ck_assert_uint_eq(pop(&q), 20);
	ck_assert_uint_eq(pop(&q), 20);
	ck_assert_uint_eq(pop(&q), 30);
	order_free(&q);
}
END_TEST

START_TEST(equal_times_keep_arrival_order)
{
	struct order_queue q;
	const struct order_entry *e;
	bool late;
	uint64_t first;

	order_init(&q, 0);
	push(&q, 50, 1, &late);
	push(&q, 50, 0, &late);
	order_flush_all(&q);
	e = order_peek(&q);
	first = e->seq;
	ck_assert_int_eq(e->cpu, 1);
	order_pop(&q);
	ck_assert_uint_gt(order_peek(&q)->seq, first);
	order_free(&q);
}
END_TEST

START_TEST(window_forces_and_reports_late)
{
	struct order_queue q;
	uint64_t t, n = 0;
	bool late = false;

	/* a tiny window: two arena chunks */
	order_init(&q, 2u << 20);
	for (t = 1000; t < 1000 + 200000; t++)
		push(&q, t, 0, &late);
	ck_assert_ptr_nonnull(order_peek(&q));	/* over the window: the oldest must go */
	while (order_peek(&q)) {
		pop(&q);
		n++;
	}
	ck_assert_uint_gt(n, 0);
	push(&q, 5, 1, &late);		/* older than what was delivered */
	ck_assert(late);
	ck_assert_uint_eq(pop(&q), 5);	/* delivered at once, marked late */
	order_free(&q);
}
END_TEST

/*
 * The merge against a reference: the queued records kept in a plain list,
 * the next to go being the least (time, arrival). Per-CPU runs of mostly
 * ascending times (ties, short inversions, a CPU-less record now and then)
 * arrive in chunks with rounds between them; whenever the queue hands out
 * a record, it must be the reference's least, including records forced out
 * by a small window and late ones.
 */
struct ref_rec {
	uint64_t time, seq;
};

struct ref_queue {
	struct ref_rec *r;
	size_t n;
	uint64_t max_time, round_pending, round_limit, last_out;
	bool flushed;
	size_t nr_forced, nr_late;	/* the cases a small window makes */
};

static size_t ref_least(const struct ref_queue *ref)
{
	size_t i, m = 0;

	for (i = 1; i < ref->n; i++) {
		if (ref->r[i].time < ref->r[m].time ||
		    (ref->r[i].time == ref->r[m].time && ref->r[i].seq < ref->r[m].seq))
			m = i;
	}
	return m;
}

/* deliver what the queue lets go; with a roomy window also check that it lets go what it must */
static void drain_and_compare(struct order_queue *q, struct ref_queue *ref, bool roomy)
{
	const struct order_entry *e;
	size_t m;

	while ((e = order_peek(q))) {
		if (!ref->n)
			ck_abort_msg("the queue hands out a record the reference does not hold");
		m = ref_least(ref);
		if (e->data[0] != (uint8_t)e->time)
			ck_abort_msg("record of %llu lost its data", (unsigned long long)e->time);
		if (e->seq != ref->r[m].seq || e->time != ref->r[m].time)
			ck_abort_msg("delivered (%llu, #%llu), expected (%llu, #%llu)",
				     (unsigned long long)e->time, (unsigned long long)e->seq,
				     (unsigned long long)ref->r[m].time,
				     (unsigned long long)ref->r[m].seq);
		if (!ref->flushed && e->time > ref->round_limit && e->time > ref->last_out)
			ref->nr_forced++;
		if (e->time > ref->last_out)
			ref->last_out = e->time;
		ref->r[m] = ref->r[--ref->n];
		order_pop(q);
	}
	if (roomy && ref->n) {
		m = ref_least(ref);
		if (ref->r[m].time <= ref->round_limit || ref->r[m].time <= ref->last_out)
			ck_abort_msg("record of %llu held back", (unsigned long long)ref->r[m].time);
	}
}

static void merge_vs_reference(unsigned seed, size_t window, size_t *nr_forced, size_t *nr_late)
{
	enum { NR_CPUS = 6, NR_RECS = 20000 };
	uint64_t clock[NR_CPUS] = { 0 }, t, seq = 0;
	struct ref_queue ref = { 0 };
	struct order_queue q;
	size_t i, k, run;
	int32_t cpu;
	bool late;

	srand(seed);
	ref.r = malloc(NR_RECS * sizeof(*ref.r));
	ck_assert_ptr_nonnull(ref.r);
	order_init(&q, window);
	for (i = 0; i < NR_RECS; i += run) {
		cpu = rand() % NR_CPUS;
		run = 1 + (size_t)(rand() % 40);
		for (k = 0; k < run && i + k < NR_RECS; k++) {
			clock[cpu] += (uint64_t)(rand() % 4);	/* ties within and across CPUs */
			t = clock[cpu] + 1;
			if (rand() % 16 == 0 && t > 3)
				t -= (uint64_t)(rand() % 3);	/* a short inversion within the CPU */
			if (rand() % 500 == 0)
				t = 1 + (uint64_t)(rand() % 50);	/* very late */
			push_sized(&q, t, rand() % 50 ? cpu - 1 : -1, window ? 4096 : 16, &late);
			ck_assert(late == (t < ref.last_out));
			ref.nr_late += late;
			ref.r[ref.n++] = (struct ref_rec){ t, seq++ };
			if (t > ref.max_time)
				ref.max_time = t;
			drain_and_compare(&q, &ref, !window);
		}
		if (rand() % 4 == 0) {
			order_round(&q);
			ref.round_limit = ref.round_pending;
			ref.round_pending = ref.max_time;
			drain_and_compare(&q, &ref, !window);
		}
	}
	order_flush_all(&q);
	ref.flushed = true;
	drain_and_compare(&q, &ref, true);
	ck_assert_uint_eq(ref.n, 0);
	*nr_forced += ref.nr_forced;
	*nr_late += ref.nr_late;
	order_free(&q);
	free(ref.r);
}

START_TEST(merge_matches_reference)
{
	size_t forced = 0, late = 0;
	unsigned seed;

	for (seed = 1; seed <= 20; seed++)
		merge_vs_reference(seed, 0, &forced, &late);
	ck_assert_uint_eq(forced, 0);
	ck_assert_uint_gt(late, 0);	/* the 'very late' ones, after a round let others go */
	/* big records, a window of 1.5 arena chunks: records are forced out, more arrive late */
	forced = late = 0;
	for (seed = 1; seed <= 5; seed++)
		merge_vs_reference(seed, 3u << 19, &forced, &late);
	ck_assert_uint_gt(forced, 0);
	ck_assert_uint_gt(late, 0);
}
END_TEST

/* no rounds, everything fits: the whole output is the stable sort by time */
START_TEST(flush_is_stable_sort)
{
	enum { NR = 5000 };
	uint64_t times[NR], clock[4] = { 0 }, seqs[NR], t;
	struct order_queue q;
	const struct order_entry *e;
	size_t i, j, n = 0;
	bool late;

	srand(7);
	order_init(&q, 0);
	while (n < NR) {
		int32_t cpu = rand() % 4;
		size_t run = 1 + (size_t)(rand() % 30);

		for (j = 0; j < run && n < NR; j++, n++) {
			clock[cpu] += (uint64_t)(rand() % 3);
			times[n] = clock[cpu];
			push(&q, times[n], cpu, &late);
		}
	}
	for (i = 0; i < NR; i++)		/* insertion sort: stable */
		seqs[i] = i;
	for (i = 1; i < NR; i++) {
		uint64_t s = seqs[i];

		for (j = i; j && times[seqs[j - 1]] > times[s]; j--)
			seqs[j] = seqs[j - 1];
		seqs[j] = s;
	}
	order_flush_all(&q);
	for (i = 0; i < NR; i++) {
		e = order_peek(&q);
		ck_assert_ptr_nonnull(e);
		t = e->seq;
		if (t != seqs[i])
			ck_abort_msg("record %zu: #%llu, expected #%llu", i, (unsigned long long)t,
				     (unsigned long long)seqs[i]);
		order_pop(&q);
	}
	ck_assert_ptr_null(order_peek(&q));
	order_free(&q);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("order");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, merges_cpus_at_eof);
	tcase_add_test(tc, round_rule);
	tcase_add_test(tc, within_cpu_inversion_sorted);
	tcase_add_test(tc, equal_times_keep_arrival_order);
	tcase_add_test(tc, window_forces_and_reports_late);
	tcase_add_test(tc, merge_matches_reference);
	tcase_add_test(tc, flush_is_stable_sort);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
