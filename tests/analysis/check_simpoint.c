// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_simpoint.c - SimPoint-style analysis: samples split at interval
 * boundaries with their instants interpolated; three synthetic phases with
 * sampling noise found exactly, the same for one seed; bad requests
 * refused; a fixed-period (-c N) profile written in all four byte orders
 * and word sizes gives one and the same answer.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include <schedrep/simpoint.h>
#include "simpoint.h"	/* the library's own: SimPoint 3.2's generator */

START_TEST(samples_split_at_boundaries)
{
	struct srep_error err = { 0 };
	const struct srep_simpoint_interval *iv;
	struct srep_simpoint *sp;

	ck_assert_int_eq(srep_simpoint__new(&sp, 100, &err), 0);
	ck_assert_int_eq(srep_simpoint__add(sp, 1000, 7, 60, "f", &err), 0);
	/* 40 fill interval 0 at 1000 + 40/100 of the way to 1100; 60 go on */
	ck_assert_int_eq(srep_simpoint__add(sp, 1100, 8, 100, "g", &err), 0);
	ck_assert_int_eq(srep_simpoint__add(sp, 1200, 7, 250, "f", &err), 0);
	ck_assert_int_eq(srep_simpoint__finish(sp, &err), 0);
	ck_assert_uint_eq(srep_simpoint__total(sp), 410);
	ck_assert_uint_eq(srep_simpoint__nr_intervals(sp), 5);
	iv = srep_simpoint__interval(sp, 0);
	ck_assert_uint_eq(iv->start, 0);
	ck_assert_uint_eq(iv->end, 100);
	ck_assert_uint_eq(iv->time_ns, 1000);
	ck_assert_uint_eq(iv->nr_dims, 2);
	ck_assert_str_eq(srep_simpoint__dim_name(sp, iv->dims[0]), "f");
	ck_assert(iv->counts[0] == 60 && iv->counts[1] == 40);
	ck_assert_uint_eq(iv->nr_threads, 2);
	ck_assert(iv->threads[0] == 7 && iv->threads[1] == 8);
	iv = srep_simpoint__interval(sp, 1);
	ck_assert_uint_eq(iv->time_ns, 1040);
	ck_assert(iv->nr_dims == 2 && iv->counts[0] == 40 && iv->counts[1] == 60);
	/* the 250 of the third sample: 40 here, 100, 100, then 10 in a short last */
	iv = srep_simpoint__interval(sp, 2);
	ck_assert_uint_eq(iv->time_ns, 1100 + 100 * 40 / 250);
	ck_assert(iv->nr_dims == 1 && iv->counts[0] == 100);
	iv = srep_simpoint__interval(sp, 4);
	ck_assert_uint_eq(iv->start, 400);
	ck_assert_uint_eq(iv->end, 410);
	ck_assert_uint_eq(iv->nr_threads, 1);
	ck_assert_ptr_null(srep_simpoint__interval(sp, 5));
	srep_simpoint__delete(sp);
}
END_TEST

/* a sample shared among blocks by size: exact parts, split at a boundary in order */
START_TEST(parts_share_a_sample)
{
	static const char *const keys[] = { "b1", "b2", "b3" };
	static const uint64_t w[] = { 1, 0, 2 };
	const struct srep_simpoint_interval *iv;
	struct srep_error err = { 0 };
	struct srep_simpoint *sp;

	ck_assert_int_eq(srep_simpoint__new(&sp, 100, &err), 0);
	/* 7 counts: 2 to b1 (7 / 3, rounded down at its end), none to b2, 5 to b3 */
	ck_assert_int_eq(srep_simpoint__add_parts(sp, 1000, 1, 7, keys, w, 3, &err), 0);
	/* 150 counts: b1's 50 and 43 of b3's fill interval 0, b3's other 57 go on */
	ck_assert_int_eq(srep_simpoint__add_parts(sp, 2000, 1, 150, keys, w, 3, &err), 0);
	ck_assert_int_eq(srep_simpoint__finish(sp, &err), 0);
	ck_assert_uint_eq(srep_simpoint__total(sp), 157);
	ck_assert_uint_eq(srep_simpoint__nr_intervals(sp), 2);
	iv = srep_simpoint__interval(sp, 0);
	ck_assert_uint_eq(iv->nr_dims, 2);
	ck_assert_str_eq(srep_simpoint__dim_name(sp, iv->dims[0]), "b1");
	ck_assert(iv->counts[0] == 52 && iv->counts[1] == 48);
	/* the boundary falls 93 counts into the 150: that far from 1000 to 2000 */
	iv = srep_simpoint__interval(sp, 1);
	ck_assert_uint_eq(iv->time_ns, 1000 + 1000 * 93 / 150);
	ck_assert(iv->nr_dims == 1 && iv->counts[0] == 57);
	ck_assert_int_eq(srep_simpoint__add_parts(sp, 3000, 1, 5, keys + 1, w + 1, 1, &err),
			 SREP_E_INVAL);
	srep_simpoint__delete(sp);
}
END_TEST

/*
 * --simpoint32 draws its starts as SimPoint 3.2 does: the first numbers of
 * its Random(seed).randInt() and randFloat(), printed by SimPoint's own
 * Utilities.cpp (a driver built beside it, bench/simpoint-ref.sh's copy)
 */
START_TEST(simpoint32_draws_simpoints_numbers)
{
	static const struct { int64_t seed; int first[5]; } want[] = {
		{ 493575226, { 765416960, 694719424, 1378034944, 1106638848, 1090779008 } },
		{ 493575233, { 1640022528, 1045432960, 1429076480, 1846587008, 712468800 } },
		{ 2042712918, { 158198832, 619518528, 983050944, 1989604864, 1647788160 } },
	};
	static const float floats[] = { 0.356425047f, 0.323503941f, 0.641697526f };
	struct sp_ran2 g;
	size_t i, j;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		sp_ran2_seed(&g, want[i].seed);
		for (j = 0; j < 5; j++)
			ck_assert_int_eq(sp_ran2_int(&g), want[i].first[j]);
	}
	sp_ran2_seed(&g, 493575226);
	for (j = 0; j < 3; j++)
		ck_assert_float_eq(sp_ran2_float(&g), floats[j]);
}
END_TEST

/* the phase of interval i: A B A C A B, 20 intervals each */
static int phase_of(size_t i)
{
	static const int seq[] = { 0, 1, 0, 2, 0, 1 };

	return seq[i / 20];
}

/* 120 intervals of 100 samples, each mostly its phase's function, the rest noise */
static struct srep_simpoint *synthetic_phases(uint64_t seed)
{
	static const char *const fn[] = { "A", "B", "C", "shared", "libc" };
	struct srep_error err = { 0 };
	struct srep_simpoint *sp;
	uint64_t t = 0, x = seed;
	size_t i, j;
	const char *key;

	ck_assert_int_eq(srep_simpoint__new(&sp, 100 * 1000, &err), 0);
	for (i = 0; i < 120; i++)
		for (j = 0; j < 100; j++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			key = (x >> 33) % 10 < 8 ? fn[phase_of(i)] : fn[3 + (x >> 40) % 2];
			ck_assert_int_eq(srep_simpoint__add(sp, t += 1000, 1, 1000, key, &err), 0);
		}
	ck_assert_int_eq(srep_simpoint__finish(sp, &err), 0);
	return sp;
}

START_TEST(phases_are_found)
{
	struct srep_simpoint_opts o = { .max_k = 10, .bic_threshold = 0.9, .seed = 42 };
	struct srep_simpoint_result r, again;
	struct srep_error err = { 0 };
	struct srep_simpoint *sp = synthetic_phases(1);
	int map[3] = { -1, -1, -1 }, c;
	size_t i;

	ck_assert_int_eq(srep_simpoint__cluster(sp, &o, &r, &err), 0);
	ck_assert_uint_eq(r.k, 3);
	ck_assert_uint_eq(r.nr_points, 3);
	for (i = 0; i < 120; i++) {
		c = srep_simpoint__interval(sp, i)->cluster;
		if (map[phase_of(i)] < 0)
			map[phase_of(i)] = c;
		ck_assert_int_eq(c, map[phase_of(i)]);
	}
	ck_assert(map[0] != map[1] && map[1] != map[2] && map[0] != map[2]);
	/* A runs 60 of 120 intervals; each point is a member of its cluster */
	for (i = 0; i < r.nr_points; i++) {
		ck_assert_int_eq(srep_simpoint__interval(sp, r.points[i].index)->cluster,
				 r.points[i].cluster);
		if (r.points[i].cluster == map[0])
			ck_assert(r.points[i].weight > 0.4999 && r.points[i].weight < 0.5001);
	}
	ck_assert(r.noise_floor > 0);
	/* one seed, one answer */
	ck_assert_int_eq(srep_simpoint__cluster(sp, &o, &again, &err), 0);
	ck_assert_uint_eq(again.k, r.k);
	ck_assert_mem_eq(again.points, r.points, r.nr_points * sizeof(*r.points));
	ck_assert_mem_eq(again.bic, r.bic, r.max_k * sizeof(*r.bic));
	srep_simpoint_result__free(&r);
	srep_simpoint_result__free(&again);
	srep_simpoint__delete(sp);
}
END_TEST

START_TEST(bad_requests_are_refused)
{
	struct srep_simpoint_opts o = { .max_k = 121, .bic_threshold = 0.9, .seed = 1 };
	struct srep_simpoint_result r;
	struct srep_error err = { 0 };
	struct srep_simpoint *sp = synthetic_phases(2), *none;

	ck_assert_int_eq(srep_simpoint__cluster(sp, &o, &r, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "120 intervals, fewer than the 121 clusters"));
	o.max_k = 0;		/* the default: 30 */
	ck_assert_int_eq(srep_simpoint__cluster(sp, &o, &r, &err), 0);
	ck_assert_uint_eq(r.max_k, 30);
	srep_simpoint_result__free(&r);
	ck_assert_int_eq(srep_simpoint__new(&none, 100, &err), 0);
	ck_assert_int_eq(srep_simpoint__finish(none, &err), 0);
	ck_assert_int_eq(srep_simpoint__cluster(none, &o, &r, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "no interval"));
	srep_simpoint__delete(none);
	/* a damaged period: refused before it makes millions of intervals */
	ck_assert_int_eq(srep_simpoint__new(&none, 100, &err), 0);
	ck_assert_int_eq(srep_simpoint__add(none, 1, 1, UINT64_MAX / 2, "f", &err), SREP_E_LIMIT);
	ck_assert_uint_eq(srep_simpoint__nr_intervals(none), 0);
	srep_simpoint__delete(none);
	ck_assert_int_eq(srep_simpoint__new(&none, 0, &err), SREP_E_INVAL);
	ck_assert_ptr_null(none);
	srep_simpoint__delete(sp);
}
END_TEST

/*
 * A profile of "instructions" with fixed periods (no PERF_SAMPLE_PERIOD
 * in the samples: the reader must give the attr's), three code regions in
 * phases; written as variant @v (byte order, word size); returns the labels
 * and points as text.
 */
static char *fixed_period_answer(int v)
{
	struct fixture_opts fo = { .big_endian = v & 1, .word_size = v & 2 ? 4 : 8 };
	struct srep_simpoint_opts o = { .max_k = 8, .bic_threshold = 0.9, .seed = 3 };
	struct fixture *fx = fixture_new(&fo);
	struct srep_simpoint_event ev = { 0 };
	struct srep_simpoint_result r;
	const struct srep_event *e;
	struct srep_error err = { 0 };
	struct srep_session *s = NULL;
	struct srep_simpoint *sp;
	char *text = calloc(1, 4096), key[32];
	uint64_t x = 9, period;
	size_t i, len = 0;
	int insn;
	uint8_t *buf;

	ck_assert_ptr_nonnull(fx);
	insn = fixture_add_event(fx, 0 /* HARDWARE */, 1 /* instructions */, 0);
	ck_assert_int_eq(fixture_event_fixed_period(fx, insn, 1000), 0);
	/* 40 intervals of 50 samples: phases of 6 or 7 intervals, A B A C A B */
	for (i = 0; i < 40 * 50; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		ck_assert_int_eq(fixture_sample(fx, insn, 1000000 + i * 1000, 0, 10, 10,
						0x401000 + 0x100 * (uint64_t)phase_of(i * 3 / 50) +
						((x >> 40) % 16) * 8, 0, 0, NULL), 0);
	}
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(srep_session__open_mem(&s, buf, len, "fixed", NULL, &err), 0);
	ck_assert_int_eq(srep_simpoint_event__find(&ev, s, NULL, &err), 0);
	ck_assert_str_eq(ev.unit, "instructions");
	ck_assert_int_eq(srep_simpoint__new(&sp, 50 * 1000, &err), 0);
	while (srep_session__next_event(s, &e, &err) > 0)
		if ((period = srep_simpoint_event__period(&ev, e))) {
			snprintf(key, sizeof(key), "0x%llx", (unsigned long long)(e->ip & ~63ull));
			ck_assert_int_eq(srep_simpoint__add(sp, e->time, e->tid, period, key, &err), 0);
		}
	ck_assert_int_eq(srep_simpoint__finish(sp, &err), 0);
	/* 2,000 samples of the attr's period 1000, in intervals of 50,000 */
	ck_assert_uint_eq(srep_simpoint__nr_intervals(sp), 40);
	ck_assert_int_eq(srep_simpoint__cluster(sp, &o, &r, &err), 0);
	/* the three phases, and maybe the intervals that straddle two */
	ck_assert(r.k >= 3 && r.k <= 5);
	for (i = 0; i < 40; i++)
		len = strlen(text), snprintf(text + len, 4096 - len, "%d ",
					     srep_simpoint__interval(sp, i)->cluster);
	for (i = 0; i < r.nr_points; i++)
		len = strlen(text), snprintf(text + len, 4096 - len, "| %zu %d %.6f",
					     r.points[i].index, r.points[i].cluster, r.points[i].weight);
	srep_simpoint_result__free(&r);
	srep_simpoint__delete(sp);
	srep_session__delete(s);
	free(buf);
	fixture_free(fx);
	return text;
}

START_TEST(byte_orders_agree)
{
	char *le64 = fixed_period_answer(0), *other = fixed_period_answer(_i);

	ck_assert_str_eq(other, le64);
	free(le64);
	free(other);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("simpoint");
	TCase *tc = tcase_create("simpoint");

	tcase_add_test(tc, samples_split_at_boundaries);
	tcase_add_test(tc, parts_share_a_sample);
	tcase_add_test(tc, simpoint32_draws_simpoints_numbers);
	tcase_add_test(tc, phases_are_found);
	tcase_add_test(tc, bad_requests_are_refused);
	tcase_add_loop_test(tc, byte_orders_agree, 1, 4);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
