// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_record_account.c - the recorder's counts and data-loss figure
 * (account.c) equal what the reader computes from the file written with
 * the same records: one definition of lost time for every perf.data.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "rectest.h"

#define T0 5170000000000ull

/* rings drained one after the other: CPU 0's records, then CPU 1's */
static void losses(struct rec_buf *b, const struct rec_evlist *el, size_t *cpu1_at)
{
	rt_switch(b, el, T0 + 10, 0, 1, 2);
	rt_switch(b, el, T0 + 20, 0, 2, 1);
	rt_lost(b, el, T0 + 25, 0, 3);
	rt_switch(b, el, T0 + 40, 0, 1, 2);	/* interval 20..40 */
	rt_lost(b, el, T0 + 45, 0, 1);
	rt_lost(b, el, T0 + 46, 0, 1);
	rt_switch(b, el, T0 + 70, 0, 2, 1);	/* 40..70, once for two LOSTs */
	*cpu1_at = b->len;
	rt_lost(b, el, T0 + 5, 1, 2);		/* no sample before: from the LOST itself */
	rt_wakeup(b, el, T0 + 15, 1, 3);	/* 5..15 */
	rt_switch(b, el, T0 + 30, 1, 3, 4);
	rt_lost(b, el, T0 + 35, 1, 4);
	rt_switch(b, el, T0 + 60, 1, 4, 3);	/* 30..60, overlaps CPU 0's 40..70 */
	rt_lost(b, el, T0 + 80, 1, 9);		/* none after: 60..80, the trace's end */
}

START_TEST(loss_figure_matches_reader)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct rec_account a;
	struct rec_layout lay;
	struct rec_evlist el;
	struct rec_buf b = { 0 };
	const struct srep_stats *st;
	size_t off = 0, cpu1_at;
	char *dir, path[512];

	rt_evlist(&el, false);
	layout_init(&lay, el.ev[0].attr.sample_type);
	losses(&b, &el, &cpu1_at);
	ck_assert_int_eq(account_init(&a, &lay, &el, RT_NR_CPUS), 0);
	do {
		account_record(&a, off >= cpu1_at, b.p + off, srep_get32(b.p + off, false),
			       srep_get16(b.p + off + 6, false));
	} while ((off = rt_next(&b, off)));
	/* 5..15, 20..80 */
	ck_assert_uint_eq(account_lost_time(&a), 10 + 60);
	ck_assert_uint_eq(a.lost, 3 + 1 + 1 + 2 + 4 + 9);
	ck_assert_uint_eq(a.records, 13);
	ck_assert_uint_eq(a.first_time, T0 + 5);
	ck_assert_uint_eq(a.last_time, T0 + 80);
	ck_assert_uint_eq(el.ev[0].samples, 6);
	ck_assert_uint_eq(el.ev[1].samples, 1);

	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/loss.data", dir);
	rt_write(path, &el, &b);
	ck_assert_int_eq(tu_read_all(path, 0, &s, &err), 0);
	st = srep_session__stats(s);
	ck_assert_uint_eq(st->lost_time_ns, account_lost_time(&a));
	ck_assert_uint_eq(st->lost, a.lost);
	srep_session__delete(s);
	tu_rmdir(dir);
	free(dir);
	account_free(&a);
	evlist_free(&el);
	buf_free(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_account");
	TCase *tc = tcase_create("loss");

	tcase_add_test(tc, loss_figure_matches_reader);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
