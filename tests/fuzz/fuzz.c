// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz.c - helpers of the libFuzzer targets: read a session the way the
 * commands do, so that every decoder and accessor is reached.
 */
#include "fuzz.h"

static void touch_fields(const struct srep_event *ev)
{
	struct srep_field f;
	int i, n = srep_event__nr_fields(ev);
	uint32_t k;

	for (i = 0; i < n; i++) {
		if (srep_event__field(ev, i, &f) != 0)
			continue;
		for (k = 0; k < f.nr_elems && k < 64; k++)
			(void)srep_field__elem(&f, k);
	}
	(void)srep_event__field_by_name(ev, "prev_state", &f);
}

int fuzz_read_all(struct srep_session *s)
{
	const struct srep_event *ev;
	struct srep_error err;
	size_t i;
	int ret;

	while ((ret = srep_session__next_event(s, &ev, &err)) > 0) {
		touch_fields(ev);
		(void)srep_session__current_task(s, ev->tid);
	}
	for (i = 0; i < srep_session__nr_tasks(s); i++)
		(void)srep_session__parent_task(s, srep_session__task(s, i));
	(void)srep_session__stats(s);
	return ret;
}
