// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_model.c - records and samples turned into neutral events
 * (src/model.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "internal.h"

#define T0 2000000000ull

/* build with 'fn', read every event */
static void read_fixture(const struct fixture_opts *o, void (*fn)(struct fixture *),
			 struct tu_events *ev, struct srep_session **out)
{
	struct fixture *fx = fixture_new(o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	uint8_t *buf = NULL;
	size_t len;

	ck_assert_ptr_nonnull(fx);
	fn(fx);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	ck_assert_msg(tu_collect(s, ev, &err) == 0, "%s", err.msg);
	fixture_free(fx);
	free(buf);
	if (out)
		*out = s;
	else
		srep_session__delete(s);
}

static void two_comms(struct fixture *fx)
{
	fixture_comm(fx, T0, 0, 10, 10, "abcdefghijklmnopqrstuvwxyz01234", false);
	fixture_comm(fx, T0 + 1, 0, 11, 11, "b", false);
	fixture_comm(fx, T0 + 2, 0, 11, 11, "cc", true);
}

/* a comm is defined to its last byte: events are the same bytes on every read */
START_TEST(comm_bytes_defined)
{
	struct fixture_opts o = { .word_size = 8 };
	struct tu_events ev = { 0 };
	static const char zero[SREP_COMM_MAX];

	read_fixture(&o, two_comms, &ev, NULL);
	ck_assert_uint_eq(ev.n, 3);
	ck_assert_str_eq(ev.v[0].u.comm.comm, "abcdefghijklmnopqrstuvwxyz01234");
	ck_assert_str_eq(ev.v[1].u.comm.comm, "b");
	ck_assert_msg(memcmp(ev.v[1].u.comm.comm + 1, zero, SREP_COMM_MAX - 1) == 0,
		      "bytes after the comm: '%.31s'", ev.v[1].u.comm.comm + 2);
	ck_assert_int_eq(ev.v[2].kind, SREP_EV_EXEC);
	ck_assert_str_eq(ev.v[2].u.exec.comm, "cc");
	ck_assert(memcmp(ev.v[2].u.exec.comm + 2, zero, SREP_COMM_MAX - 2) == 0);
	tu_events_free(&ev);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, comm_bytes_defined);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
