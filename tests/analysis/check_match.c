// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_match.c - task matching between two fixture traces whose pids
 * differ: auto pairs by comm and creation order under paired parents (not by
 * creation order alone), pid pairs equal tids, comm pairs groups; tasks
 * found on one side only are listed; selections restrict both sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#define T0 5170000000000ull

static void task(struct fixture *fx, uint64_t t, int32_t tid, int32_t parent, const char *comm)
{
	if (parent >= 0)
		fixture_fork(fx, T0 + t, 0, tid, parent, tid, parent);
	fixture_comm(fx, T0 + t + 1, 0, tid, tid, comm, parent >= 0);
}

/*
 * A server forks three workers; two of them fork a helper each. In B (pids
 * + 400) the helpers come in the other order, so creation order alone would
 * pair them across parents.
 */
static char *write_side(bool b, bool extra, char *path, size_t size)
{
	struct fixture_opts o = { .big_endian = b };
	struct fixture *fx = fixture_new(&o);
	int32_t off = b ? 400 : 0;
	char *dir = tu_tmpdir();

	ck_assert_ptr_nonnull(fx);
	ck_assert_ptr_nonnull(dir);
	task(fx, 0, 100 + off, -1, "server");
	task(fx, 10, 101 + off, 100 + off, "worker");
	task(fx, 20, 102 + off, 100 + off, "worker");
	task(fx, 30, 103 + off, 100 + off, "worker");
	task(fx, b ? 45 : 35, 105 + off, 103 + off, "helper");
	task(fx, b ? 42 : 40, 104 + off, 101 + off, "helper");
	if (extra)
		task(fx, 50, b ? 600 : 20, -1, b ? "extra" : "kworker/0:1");
	snprintf(path, size, "%s/t.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	fixture_free(fx);
	return dir;
}

struct two {
	struct srep_session *s[2];
	char *dir[2];
};

static void open_two(struct two *t, bool b_offset)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_error err = { 0 };
	char path[4096];
	int k;

	for (k = 0; k < 2; k++) {
		t->dir[k] = write_side(k && b_offset, true, path, sizeof(path));
		ck_assert_msg(srep_session__open(&t->s[k], path, &oo, &err) == 0, "%s", err.msg);
	}
}

static void close_two(struct two *t)
{
	int k;

	for (k = 0; k < 2; k++) {
		srep_session__delete(t->s[k]);
		tu_rmdir(t->dir[k]);
		free(t->dir[k]);
	}
}

/* "tidA:tidB" of every pair, in order, and the unmatched tids per side */
static void describe(const struct srep_matching *mt, char *buf, size_t size)
{
	const struct srep_task *const *a, *const *b;
	size_t i, len = 0;
	int k;

	buf[0] = '\0';
	for (i = 0; i < srep_matching__nr_pairs(mt); i++) {
		size_t na = srep_matching__pair(mt, i, 0, &a), nb = srep_matching__pair(mt, i, 1, &b);

		len += (size_t)snprintf(buf + len, size - len, "%s%s%d:%d", i ? " " : "",
					na > 1 ? "*" : "", srep_task__tid(a[0]), srep_task__tid(b[0]));
		if (na > 1)
			len += (size_t)snprintf(buf + len, size - len, "(%zu/%zu)", na, nb);
	}
	for (k = 0; k < 2; k++) {
		len += (size_t)snprintf(buf + len, size - len, " | %c:", 'A' + k);
		for (i = 0; i < srep_matching__nr_unmatched(mt, k); i++)
			len += (size_t)snprintf(buf + len, size - len, " %d",
						srep_task__tid(srep_matching__unmatched(mt, k, i)));
	}
}

static void expect(enum srep_match_mode mode, bool b_offset, const char *only, const char *want)
{
	struct srep_selection *sel[2] = { NULL, NULL };
	struct srep_matching *mt;
	struct srep_error err = { 0 };
	struct two t;
	char got[1024];
	int k;

	open_two(&t, b_offset);
	for (k = 0; only && k < 2; k++) {
		ck_assert_int_eq(srep_selection__new(&sel[k], &err), 0);
		ck_assert_int_eq(srep_selection__add_only(sel[k], only, &err), 0);
		ck_assert_int_eq(srep_selection__resolve(sel[k], t.s[k], &err), 0);
	}
	ck_assert_int_eq(srep_matching__new(&mt, mode, t.s[0], sel[0], t.s[1], sel[1], &err), 0);
	describe(mt, got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "%s: got '%s', want '%s'", srep_match_mode__name(mode),
		      got, want);
	srep_matching__delete(mt);
	srep_selection__delete(sel[0]);
	srep_selection__delete(sel[1]);
	close_two(&t);
}

START_TEST(auto_follows_parents)
{
	expect(SREP_MATCH_AUTO, true, NULL,
	       "100:500 101:501 102:502 103:503 104:504 105:505 | A: 20 | B: 600");
}
END_TEST

START_TEST(auto_on_the_same_trace_pairs_every_task_with_itself)
{
	expect(SREP_MATCH_AUTO, false, NULL,
	       "20:20 100:100 101:101 102:102 103:103 104:104 105:105 | A: | B:");
}
END_TEST

START_TEST(pid_pairs_equal_tids)
{
	expect(SREP_MATCH_PID, false, NULL,
	       "20:20 100:100 101:101 102:102 103:103 104:104 105:105 | A: | B:");
	expect(SREP_MATCH_PID, true, NULL,
	       " | A: 100 101 102 103 105 104 20 | B: 500 501 502 503 504 505 600");
}
END_TEST

START_TEST(comm_pairs_groups)
{
	expect(SREP_MATCH_COMM, true, NULL, "*105:504(2/2) 100:500 *101:501(3/3) | A: 20 | B: 600");
}
END_TEST

START_TEST(selections_restrict_both_sides)
{
	/* the helpers were named worker before their exec: selected too */
	expect(SREP_MATCH_AUTO, true, "worker",
	       "101:501 102:502 103:503 104:504 105:505 | A: | B:");
	/* without their parents, helpers are roots: creation order alone */
	expect(SREP_MATCH_AUTO, true, "help*", "105:504 104:505 | A: | B:");
}
END_TEST

START_TEST(mode_names)
{
	enum srep_match_mode m;
	struct srep_error err = { 0 };

	ck_assert_int_eq(srep_match_mode__parse("comm", &m, &err), 0);
	ck_assert_int_eq(m, SREP_MATCH_COMM);
	ck_assert_str_eq(srep_match_mode__name(m), "comm");
	ck_assert_int_eq(srep_match_mode__parse("tid", &m, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "auto, comm or pid"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("match");
	TCase *tc = tcase_create("match");

	tcase_add_test(tc, auto_follows_parents);
	tcase_add_test(tc, auto_on_the_same_trace_pairs_every_task_with_itself);
	tcase_add_test(tc, pid_pairs_equal_tids);
	tcase_add_test(tc, comm_pairs_groups);
	tcase_add_test(tc, selections_restrict_both_sides);
	tcase_add_test(tc, mode_names);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
