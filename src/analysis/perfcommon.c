// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfcommon.c - what the perf-style analyses share besides the threads:
 * the perf version whose accounting they reproduce, and the trace facts
 * that change perf's choices.
 */
#include <string.h>

#include "pthreads.h"

int srep_perf_dialect__parse(const char *s, enum srep_perf_dialect *out, struct srep_error *err)
{
	if (!strcmp(s, "6.12"))
		*out = SREP_PERF_6_12;
	else if (!strcmp(s, "6.1"))
		*out = SREP_PERF_6_1;
	else
		return srep_error__set(err, SREP_E_INVAL,
				       "'%s': the perf versions reproduced are 6.1 and 6.12", s);
	return 0;
}

const char *srep_perf_dialect__name(enum srep_perf_dialect d)
{
	return d == SREP_PERF_6_1 ? "6.1" : "6.12";
}

bool pf_has_waking(const struct srep_session *s)
{
	size_t i, n = srep_session__nr_evsels(s);
	const char *name;

	for (i = 0; i < n; i++) {
		name = srep_session__evsel_name(s, i);
		if (name && !strcmp(name, "sched:sched_waking"))
			return true;
	}
	return false;
}

bool srep_perf_filter__has_event(const struct srep_perf_filter *f, const struct srep_event *ev)
{
	return pf_time_ok(f, ev->time) && pf_cpu_ok(f, ev->cpu) && pf_tid_ok(f, ev->tid);
}
