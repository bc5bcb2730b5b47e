// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_compare.c - the comparison rules: when a difference is significant
 * (relative and absolute thresholds per unit), ratios and widths, scaling,
 * the order of the per-task rows, bad scales, and the "where tasks block"
 * rows (one per site of either side, scaled, the larger side's time first).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#define T0 5170000000000ull
#define US 1000ull

/* the ranking of srep_compare__rows(): impact on the workload */
static bool rows_in_order(const struct srep_diff *a, const struct srep_diff *b)
{
	if (a->significant != b->significant)
		return a->significant;
	if (a->unit != b->unit)
		return a->unit < b->unit;
	if (a->unit == SREP_UNIT_NS)
		return fabs(a->diff) >= fabs(b->diff);
	return a->width >= b->width;
}

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
	ck_assert_uint_eq(n, 12);
	ck_assert_str_eq(d[0].metric, "cpu_time");
	ck_assert_double_eq(d[0].a, 1000 * US);
	ck_assert_double_eq(d[0].b, 3000 * US);
	ck_assert(d[0].significant);
	/* rows: significant first; durations first, largest first; then widest first */
	rows = srep_compare__rows(c, &n);
	for (i = 1; i < n; i++)
		ck_assert(rows_in_order(rows[i - 1].diff, rows[i].diff));
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

/* ---- where tasks block ---- */

#define KBASE	0xffffffff81000000ull

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T __schedule\n"
	"ffffffff81002000 T pipe_read\n"
	"ffffffff81003000 T do_nanosleep\n"
	"ffffffff81004000 T futex_wait_queue\n";

/* solo sleeps in 'fn' (a kallsyms address) at 'at' us for 'us' us, then runs again */
static void sleep_in(struct fixture *fx, uint64_t fn, uint64_t at, uint64_t us)
{
	uint64_t chain[] = { (uint64_t)-128, KBASE + 0x1010, fn + 0x10 };

	fixture_next_callchain(fx, 3, chain);
	fixture_switch(fx, T0 + at * US, 0, "solo", 100, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_waking(fx, T0 + (at + us) * US, 0, "solo", 100, 120, 0);
	fixture_switch(fx, T0 + (at + us + 1) * US, 0, "swapper/0", 0, 120, FIXTURE_STATE_R,
		       "solo", 100, 120);
}

/* two sleeps: 'us1' in pipe_read, 'us2' in 'fn2' */
static void read_blocking_side(struct side *sd, uint64_t us1, uint64_t fn2, uint64_t us2)
{
	struct fixture_opts o = { .tp_callchain = true };
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct fixture *fx = fixture_new(&o);
	struct srep_symbolizer *sy = NULL;
	const struct srep_event *ev;
	struct srep_error err = { 0 };
	char path[4096], kallsyms[4200];

	sd->dir = tu_tmpdir();
	fixture_comm(fx, T0, 0, 100, 100, "solo", false);
	fixture_switch(fx, T0 + 100 * US, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "solo", 100, 120);
	sleep_in(fx, KBASE + 0x2000, 200, us1);
	sleep_in(fx, fn2, 10000, us2);
	snprintf(path, sizeof(path), "%s/t.data", sd->dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	fixture_free(fx);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", sd->dir);
	ck_assert_int_eq(tu_write_file(kallsyms, kallsyms_text, strlen(kallsyms_text)), 0);
	so.kallsyms = kallsyms;
	ck_assert_int_eq(srep_session__open(&sd->s, path, &oo, &err), 0);
	ck_assert_int_eq(srep_metrics__new(&sd->m, sd->s, &err), 0);
	ck_assert_int_eq(srep_symbolizer__new(&sy, sd->s, &so, &err), 0);
	srep_metrics__set_symbolizer(sd->m, sy);
	while (srep_session__next_event(sd->s, &ev, &err) > 0) {
		srep_symbolizer__observe(sy, ev);
		srep_metrics__add(sd->m, ev, &err);
	}
	srep_metrics__finish(sd->m);
	srep_symbolizer__delete(sy);
}

/* the significant differences of the workload, the CPUs and the pairs' metrics */
static size_t significant_without_sites(const struct srep_compare *c)
{
	const struct srep_diff *d;
	size_t n, i, k, total = 0;

	for (d = srep_compare__workload(c, &n), i = 0; i < n; i++)
		total += d[i].significant;
	for (k = 0; k < srep_compare__nr_cpus(c); k++)
		for (d = srep_compare__cpu(c, k, &n), i = 0; i < n; i++)
			total += d[i].significant;
	for (k = 0; k < srep_matching__nr_pairs(srep_compare__matching(c)); k++)
		for (d = srep_compare__pair(c, k, &n), i = 0; i < n; i++)
			total += d[i].significant;
	return total;
}

START_TEST(blocking_rows)
{
	struct side a, b;
	struct srep_compare_side ca, cb;
	struct srep_compare *c;
	struct srep_error err = { 0 };
	const struct srep_block_row *r;
	size_t n;

	read_blocking_side(&a, 1000, KBASE + 0x3000, 200);
	read_blocking_side(&b, 3000, KBASE + 0x4000, 500);
	ca = (struct srep_compare_side){ a.s, a.m, NULL, 1 };
	cb = (struct srep_compare_side){ b.s, b.m, NULL, 1 };
	ck_assert_int_eq(srep_compare__new(&c, &ca, &cb, SREP_MATCH_AUTO, &err), 0);
	r = srep_compare__blocking(c, 0, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(r[0].kernel, "pipe_read");		/* on both sides: one row */
	ck_assert_ptr_null(r[0].user);
	ck_assert_double_eq(r[0].blocked.a, 1000 * US);
	ck_assert_double_eq(r[0].blocked.b, 3000 * US);
	ck_assert(r[0].blocked.significant);
	ck_assert_uint_eq(r[0].count[0], 1);
	ck_assert_uint_eq(r[0].count[1], 1);
	ck_assert_str_eq(r[1].kernel, "futex_wait_queue");	/* B only: 500 us */
	ck_assert_double_eq(r[1].blocked.a, 0);
	ck_assert_uint_eq(r[1].count[0], 0);
	ck_assert_str_eq(r[2].kernel, "do_nanosleep");		/* A only: 200 us */
	ck_assert_double_eq(r[2].blocked.b, 0);
	ck_assert_uint_eq(srep_compare__nr_significant(c), significant_without_sites(c));
	ck_assert_ptr_null(srep_compare__blocking(c, 1, &n));
	ck_assert_uint_eq(n, 0);
	srep_compare__delete(c);
	/* B three times slower: scaled, pipe_read is the same and futex falls behind */
	cb.scale = 1.0 / 3;
	ck_assert_int_eq(srep_compare__new(&c, &ca, &cb, SREP_MATCH_AUTO, &err), 0);
	r = srep_compare__blocking(c, 0, &n);
	ck_assert_double_eq_tol(r[0].blocked.b, 1000 * US, 1e-6);
	ck_assert(!r[0].blocked.significant);
	ck_assert_str_eq(r[1].kernel, "do_nanosleep");
	ck_assert_str_eq(r[2].kernel, "futex_wait_queue");
	srep_compare__delete(c);
	free_side(&a);
	free_side(&b);
}
END_TEST

/* without symbolizers: no rows */
START_TEST(no_blocking_rows)
{
	struct side a, b;
	struct srep_compare_side ca, cb;
	struct srep_compare *c;
	struct srep_error err = { 0 };
	size_t n = 1;

	read_side(&a, 1000);
	read_side(&b, 3000);
	ca = (struct srep_compare_side){ a.s, a.m, NULL, 1 };
	cb = (struct srep_compare_side){ b.s, b.m, NULL, 1 };
	ck_assert_int_eq(srep_compare__new(&c, &ca, &cb, SREP_MATCH_AUTO, &err), 0);
	ck_assert_ptr_nonnull(srep_compare__blocking(c, 0, &n));
	ck_assert_uint_eq(n, 0);
	srep_compare__delete(c);
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
	tcase_add_test(tc, blocking_rows);
	tcase_add_test(tc, no_blocking_rows);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
