// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * defaults.c - what replay leaves out when no --only is given: the idle
 * task, kernel threads and the recording tool's own process (the "nested
 * system" noise that perf sched replay replays too).
 */
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/* parent chains longer than this are treated as "not a descendant" (loops in damaged traces) */
#define MAX_ANCESTRY 256

static bool had_comm(const struct srep_task *t, const char *comm)
{
	size_t i, n = srep_task__nr_comms(t);

	for (i = 0; i < n; i++) {
		if (strcmp(srep_task__comm_at(t, i, NULL), comm) == 0)
			return true;
	}
	return false;
}

static int32_t process_of(const struct srep_task *t)
{
	return srep_task__pid(t) >= 0 ? srep_task__pid(t) : srep_task__tid(t);
}

/* the task that created t: its parent thread, else its parent process */
static const struct srep_task *parent_of(const struct srep_session *s, const struct srep_task *t)
{
	const struct srep_task *p = NULL;

	if (srep_task__ptid(t) >= 0 && srep_task__ptid(t) != srep_task__tid(t))
		p = srep_session__find_task(s, srep_task__ptid(t));
	if (!p && srep_task__ppid(t) >= 0 && srep_task__ppid(t) != srep_task__tid(t))
		p = srep_session__find_task(s, srep_task__ppid(t));
	return p;
}

/* true when t belongs to process 'pid' or descends from it */
static bool descends_from(const struct srep_session *s, const struct srep_task *t, int32_t pid)
{
	int depth;

	for (depth = 0; t && depth < MAX_ANCESTRY; depth++) {
		if (process_of(t) == pid)
			return true;
		t = parent_of(s, t);
	}
	return false;
}

static const struct srep_task *first_with_comm(const struct srep_session *s, const char *comm,
					       int32_t not_under_pid)
{
	size_t i, n = srep_session__nr_tasks(s);

	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(s, i);

		if (process_of(t) > 0 && had_comm(t, comm) &&
		    (not_under_pid < 0 || !descends_from(s, t, not_under_pid)))
			return t;
	}
	return NULL;
}

/*
 * perf record forks the workload and names it "perf-exec" until it execs:
 * its parent is the recorder. Without a workload (perf record -a, -p) the
 * recorder is the first "perf" process.
 */
static void find_recorder(struct rp_defaults *d, const struct srep_session *s)
{
	const struct srep_task *w = first_with_comm(s, "perf-exec", -1), *r;

	d->workload_pid = w ? process_of(w) : -1;
	d->recorder_pid = -1;
	if (w && srep_task__ppid(w) > 0 && srep_task__ppid(w) != d->workload_pid) {
		d->recorder_pid = srep_task__ppid(w);
		return;
	}
	r = first_with_comm(s, "perf", d->workload_pid);
	if (r)
		d->recorder_pid = process_of(r);
}

int rp_defaults__compute(struct rp_defaults *d, const struct srep_session *s,
			 struct srep_error *err)
{
	size_t i, n = srep_session__nr_tasks(s);

	memset(d, 0, sizeof(*d));
	d->excluded = calloc(n ? n : 1, sizeof(*d->excluded));
	if (!d->excluded)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the default selection");
	d->nr = n;
	find_recorder(d, s);
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(s, i);

		if (srep_task__tid(t) == 0 || srep_task__pid(t) == 0) {
			d->nr_idle++;
		} else if (descends_from(s, t, 2)) {
			d->nr_kernel++;
		} else if (d->recorder_pid > 0 && process_of(t) == d->recorder_pid) {
			d->nr_recorder++;
		} else {
			continue;
		}
		d->excluded[i] = true;
	}
	return 0;
}

void rp_defaults__free(struct rp_defaults *d)
{
	free(d->excluded);
	memset(d, 0, sizeof(*d));
}
