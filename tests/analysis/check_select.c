// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_select.c - task selection (src/select.c): the SEL syntax (pid,
 * tid:N, comm:NAME, comm or glob) with clear errors for bad specs, the
 * union of --only, --exclude, --children through parent links, and
 * resolution against a trace's task table (comm history included).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 8000000000ull

/*
 * init(1) forks 300 which execs "123" (a comm of digits); server(100) has
 * thread 101 renamed "srv-io" and forks client(200) -> helper(201) ->
 * helper2(202), each exec'ing; kworker/0:1(400) has no fork; 555 appears in
 * a switch only (its process unknown), the idle task (0) in another; tid 51
 * is used twice.
 */
static void family(struct fixture *fx)
{
	fixture_comm(fx, T0, 0, 1, 1, "init", false);
	fixture_comm(fx, T0 + 1, 0, 100, 100, "server", false);
	fixture_fork(fx, T0 + 2, 0, 100, 100, 101, 100);
	fixture_comm(fx, T0 + 3, 0, 100, 101, "srv-io", false);
	fixture_fork(fx, T0 + 4, 0, 200, 100, 200, 100);
	fixture_comm(fx, T0 + 5, 0, 200, 200, "client", true);
	fixture_fork(fx, T0 + 6, 1, 201, 200, 201, 200);
	fixture_comm(fx, T0 + 7, 1, 201, 201, "helper", true);
	fixture_fork(fx, T0 + 8, 1, 202, 201, 202, 201);
	fixture_comm(fx, T0 + 9, 1, 202, 202, "helper2", true);
	fixture_fork(fx, T0 + 10, 0, 300, 1, 300, 1);
	fixture_comm(fx, T0 + 11, 0, 300, 300, "123", true);
	fixture_comm(fx, T0 + 12, 1, 400, 400, "kworker/0:1", false);
	fixture_switch(fx, T0 + 20, 0, "srv-io", 101, 120, FIXTURE_STATE_S, "mystery", 555, 120);
	fixture_switch(fx, T0 + 21, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "helper2", 202, 120);
	fixture_fork(fx, T0 + 30, 0, 51, 1, 51, 1);
	fixture_comm(fx, T0 + 31, 0, 51, 51, "first", true);
	fixture_exit(fx, T0 + 32, 0, 51, 1, 51, 1);
	fixture_fork(fx, T0 + 33, 0, 51, 1, 51, 1);
	fixture_comm(fx, T0 + 34, 0, 51, 51, "second", true);
}

static struct srep_session *open_family(unsigned flags)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	uint8_t *buf = NULL;
	size_t len;

	family(fx);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, flags, NULL, &s, &err), 0);
	if (!(flags & SREP_OPEN_PRESCAN))
		ck_assert_int_eq(tu_collect(s, &ev, &err), 0);
	tu_events_free(&ev);
	fixture_free(fx);
	free(buf);
	return s;
}

/* the chosen tids, ascending, comma separated (each once) */
static const char *chosen(const struct srep_selection *sel, const struct srep_session *s)
{
	static char buf[256];
	int32_t last = -1;
	size_t i, j, n = srep_session__nr_tasks(s);
	int32_t tids[64];
	size_t nr = 0;

	for (i = 0; i < n && nr < 64; i++) {
		const struct srep_task *t = srep_session__task(s, i);

		/* has_tid answers for every task of the tid; has_task for this one */
		if (srep_selection__has_tid(sel, srep_task__tid(t)))
			tids[nr++] = srep_task__tid(t);
	}
	for (i = 1; i < nr; i++)		/* insertion sort: a few tids */
		for (j = i; j > 0 && tids[j - 1] > tids[j]; j--) {
			int32_t x = tids[j];

			tids[j] = tids[j - 1];
			tids[j - 1] = x;
		}
	buf[0] = '\0';
	for (i = 0; i < nr; i++) {
		if (tids[i] == last)
			continue;
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", buf[0] ? "," : "",
			 tids[i]);
		last = tids[i];
	}
	return buf;
}

struct case_ {
	const char *only[3], *exclude[2];
	bool children;
	const char *want;
};

static void run_case(const struct srep_session *s, const struct case_ *c)
{
	struct srep_selection *sel = NULL;
	struct srep_error err = { 0 };
	size_t t, nr = 0;
	int i;

	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	for (i = 0; i < 3 && c->only[i]; i++)
		ck_assert_int_eq(srep_selection__add_only(sel, c->only[i], &err), 0);
	for (i = 0; i < 2 && c->exclude[i]; i++)
		ck_assert_int_eq(srep_selection__add_exclude(sel, c->exclude[i], &err), 0);
	srep_selection__set_children(sel, c->children);
	ck_assert_int_eq(srep_selection__resolve(sel, s, &err), 0);
	ck_assert_msg(!strcmp(chosen(sel, s), c->want), "only %s%s%s, exclude %s, children %d: "
		      "'%s', expected '%s'", c->only[0] ? c->only[0] : "-",
		      c->only[1] ? " + " : "", c->only[1] ? c->only[1] : "",
		      c->exclude[0] ? c->exclude[0] : "-", c->children, chosen(sel, s), c->want);
	for (t = 0; t < srep_session__nr_tasks(s); t++)
		nr += srep_selection__has_task(sel, srep_session__task(s, t));
	ck_assert_uint_eq(srep_selection__nr_tasks(sel), nr);
	srep_selection__delete(sel);
}

#define ALL "0,1,51,100,101,200,201,202,300,400,555"

static const struct case_ cases[] = {
	{ { NULL }, { NULL }, false, ALL },
	/* a pid is the whole process, not its children */
	{ { "100" }, { NULL }, false, "100,101" },
	{ { "tid:101" }, { NULL }, false, "101" },
	{ { "300" }, { NULL }, false, "300" },
	{ { "123" }, { NULL }, false, "" },			/* no pid 123 */
	{ { "comm:123" }, { NULL }, false, "300" },		/* the comm made of digits */
	/* comms match every name a task ever had: 101 and 200 were "server" before */
	{ { "server" }, { NULL }, false, "100,101,200" },
	{ { "srv-io" }, { NULL }, false, "101" },
	{ { "client" }, { NULL }, false, "200,201" },
	{ { "help*" }, { NULL }, false, "201,202" },
	{ { "helper?" }, { NULL }, false, "202" },
	{ { "kworker/*" }, { NULL }, false, "400" },
	{ { "comm:kworker/[0-9]:*" }, { NULL }, false, "400" },
	{ { "nobody" }, { NULL }, false, "" },
	/* the process unknown: the pid selects by tid */
	{ { "555" }, { NULL }, false, "555" },
	{ { "mystery" }, { NULL }, false, "555" },
	{ { "swapper" }, { NULL }, false, "0" },
	/* a reused tid: both tasks */
	{ { "tid:51" }, { NULL }, false, "51" },
	{ { "second" }, { NULL }, false, "51" },
	/* union */
	{ { "tid:101", "300", "kworker/*" }, { NULL }, false, "101,300,400" },
	{ { "100", "100" }, { NULL }, false, "100,101" },
	/* exclusion, with and without --only */
	{ { "server" }, { "tid:101" }, false, "100,200" },
	{ { NULL }, { "kworker/*", "0" }, false, "1,51,100,101,200,201,202,300,555" },
	{ { "100" }, { "100" }, false, "" },
	/* children through parent links, exclusion after them */
	{ { "200" }, { NULL }, true, "200,201,202" },
	{ { "helper" }, { NULL }, true, "201,202" },
	{ { "100" }, { NULL }, true, "100,101,200,201,202" },
	{ { "1" }, { NULL }, true, "1,51,300" },
	{ { "200" }, { "tid:202" }, true, "200,201" },
	/* init's children were "init" until they exec'd: they go too */
	{ { NULL }, { "init" }, true, "0,100,101,200,201,202,400,555" },
};

START_TEST(resolve_cases)
{
	unsigned flags;

	/* after reading, and before reading with the prescanned table */
	for (flags = 0; flags <= SREP_OPEN_PRESCAN; flags += SREP_OPEN_PRESCAN) {
		struct srep_session *s = open_family(flags);
		size_t i;

		ck_assert_uint_eq(srep_session__nr_tasks(s), 12);
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			run_case(s, &cases[i]);
		srep_session__delete(s);
	}
}
END_TEST

/* has_task tells the two tasks of a reused tid apart; has_tid cannot */
START_TEST(task_or_tid)
{
	struct srep_session *s = open_family(0);
	struct srep_selection *sel = NULL;
	struct srep_error err = { 0 };
	const struct srep_task *first = NULL, *second = srep_session__find_task(s, 51);
	size_t i;

	for (i = 0; i < srep_session__nr_tasks(s) && !first; i++)
		if (srep_task__tid(srep_session__task(s, i)) == 51)
			first = srep_session__task(s, i);
	ck_assert_ptr_ne(first, second);
	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	ck_assert_int_eq(srep_selection__add_only(sel, "first", &err), 0);
	ck_assert_int_eq(srep_selection__resolve(sel, s, &err), 0);
	ck_assert(srep_selection__has_task(sel, first));
	ck_assert(!srep_selection__has_task(sel, second));
	ck_assert(srep_selection__has_tid(sel, 51));
	ck_assert(!srep_selection__has_tid(sel, 52));
	ck_assert(!srep_selection__has_tid(sel, -1));
	/* resolved again after a change: the old answer is gone */
	ck_assert_int_eq(srep_selection__add_exclude(sel, "tid:51", &err), 0);
	ck_assert_int_eq(srep_selection__resolve(sel, s, &err), 0);
	ck_assert(!srep_selection__has_task(sel, first));
	ck_assert(!srep_selection__has_tid(sel, 51));
	srep_selection__delete(sel);
	srep_session__delete(s);
}
END_TEST

START_TEST(empty_and_lifetime)
{
	struct srep_selection *sel = NULL;
	struct srep_error err = { 0 };
	struct srep_session *s = open_family(0);

	srep_selection__delete(NULL);
	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	ck_assert(srep_selection__is_empty(sel));
	srep_selection__set_children(sel, true);		/* alone, asks for nothing */
	ck_assert(srep_selection__is_empty(sel));
	/* before resolving: nothing is known to be chosen */
	ck_assert(!srep_selection__has_tid(sel, 100));
	ck_assert(!srep_selection__has_task(sel, srep_session__find_task(s, 100)));
	ck_assert_int_eq(srep_selection__add_exclude(sel, "1", &err), 0);
	ck_assert(!srep_selection__is_empty(sel));
	ck_assert(!srep_selection__has_only(sel));	/* replay's defaults still apply */
	srep_selection__delete(sel);
	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	ck_assert_int_eq(srep_selection__add_only(sel, "x", &err), 0);
	ck_assert(!srep_selection__is_empty(sel));
	ck_assert(srep_selection__has_only(sel));
	srep_selection__delete(sel);
	srep_session__delete(s);
}
END_TEST

/* bad specs: SREP_E_SELECT, saying what was wrong, and the selection unchanged */
START_TEST(bad_specs)
{
	static const struct { const char *spec, *msg; } bad[] = {
		{ "", "empty task selection" },
		{ "tid:", "'tid:': expected a thread id after 'tid:'" },
		{ "tid:abc", "'tid:abc': expected a thread id after 'tid:'" },
		{ "tid:-5", "'tid:-5': expected a thread id after 'tid:'" },
		{ "tid:12x", "'tid:12x': expected a thread id after 'tid:'" },
		{ "tid: 7", "'tid: 7': expected a thread id after 'tid:'" },
		{ "tid:99999999999", "'tid:99999999999': expected a thread id after 'tid:'" },
		{ "2147483648", "'2147483648': pid out of range" },
		{ "99999999999999999999999", "'99999999999999999999999': pid out of range" },
		{ "comm:", "empty comm in task selection" },
	};
	struct srep_selection *sel = NULL;
	struct srep_error err;
	size_t i;

	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		ck_assert_int_eq(srep_selection__add_only(sel, bad[i].spec, &err), SREP_E_SELECT);
		ck_assert_int_eq(err.code, SREP_E_SELECT);
		ck_assert_str_eq(err.msg, bad[i].msg);
		ck_assert_int_eq(srep_selection__add_exclude(sel, bad[i].spec, &err), SREP_E_SELECT);
	}
	ck_assert_int_eq(srep_selection__add_only(sel, NULL, &err), SREP_E_SELECT);
	ck_assert(srep_selection__is_empty(sel));
	/* the largest pid and tid are fine, and so is a comm that looks like an option */
	ck_assert_int_eq(srep_selection__add_only(sel, "2147483647", &err), 0);
	ck_assert_int_eq(srep_selection__add_only(sel, "tid:0", &err), 0);
	ck_assert_int_eq(srep_selection__add_only(sel, "comm:tid:5", &err), 0);
	ck_assert_int_eq(srep_selection__add_only(sel, "-x", &err), 0);
	srep_selection__delete(sel);
}
END_TEST

/* an empty task table (a pipe without records): every selection resolves */
START_TEST(empty_table)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_selection *sel = NULL;
	struct srep_error err = { 0 };
	uint8_t *buf = NULL;
	size_t len;

	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, SREP_OPEN_PRESCAN, NULL, &s, &err), 0);
	ck_assert_uint_eq(srep_session__nr_tasks(s), 0);
	ck_assert_int_eq(srep_selection__new(&sel, &err), 0);
	ck_assert_int_eq(srep_selection__add_only(sel, "x*", &err), 0);
	srep_selection__set_children(sel, true);
	ck_assert_int_eq(srep_selection__resolve(sel, s, &err), 0);
	ck_assert(!srep_selection__has_tid(sel, 0));
	srep_selection__delete(sel);
	srep_session__delete(s);
	fixture_free(fx);
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("select");

	tcase_add_test(tc, resolve_cases);
	tcase_add_test(tc, task_or_tid);
	tcase_add_test(tc, empty_and_lifetime);
	tcase_add_test(tc, bad_specs);
	tcase_add_test(tc, empty_table);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
