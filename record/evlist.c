// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evlist.c - the events to open and their perf_event_attr, chosen as
 * 'perf sched record' does: every tracepoint samples each hit (period 1)
 * with IP|TID|TIME|CPU|PERIOD|RAW|IDENTIFIER and sample_id_all, and a last
 * "dummy" software event carries the side-band records (COMM, FORK, EXIT,
 * MMAP2), so the side-band does not depend on which events were asked for.
 * All events share one sample_id layout, which perf requires of a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_local.h"

/*
 * The scheduler set convert, replay and compare need; only sched_switch is
 * required. sched_wakeup only where the kernel lacks sched_waking, as perf
 * sched record does: perf sched latency takes both for wakeups, and a task
 * woken twice counts as a "context switch bug".
 */
static const char *const default_events[] = {
	"sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
	"sched:sched_wakeup_new", "sched:sched_migrate_task", "sched:sched_process_fork",
	"sched:sched_process_exec", "sched:sched_process_exit", "sched:sched_process_free",
	"sched:sched_stat_runtime",
};

#define SW_SAMPLE_FREQ 4000	/* perf record's default frequency */

static uint64_t sample_type_of(bool tracepoint, bool callchain)
{
	uint64_t t = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER;

	if (tracepoint)
		t |= PERF_SAMPLE_RAW;
	if (callchain)
		t |= PERF_SAMPLE_CALLCHAIN;
	return t;
}

static void common_attr(struct perf_event_attr *a, const struct srep_rec_opts *o)
{
	a->size = sizeof(*a);
	a->read_format = PERF_FORMAT_ID;
	a->disabled = 1;
	a->inherit = 1;
	a->sample_id_all = 1;
	/* a workload of our own: the kernel enables the counters at its exec */
	a->enable_on_exec = o->argv && !o->system_wide;
}

static struct rec_event *add_event(struct rec_evlist *el, const char *name, struct srep_error *err)
{
	struct rec_event *n = realloc(el->ev, (el->nr + 1) * sizeof(*n)), *e;

	if (!n)
		return NULL;
	el->ev = n;
	e = &el->ev[el->nr];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (!e->name) {
		srep_error__set(err, SREP_E_NOMEM, "no memory");
		return NULL;
	}
	el->nr++;
	return e;
}

static enum rec_tp_kind tp_kind(const char *sys, const char *tp)
{
	if (strcmp(sys, "sched"))
		return TPK_NONE;
	if (!strcmp(tp, "sched_switch"))
		return TPK_SWITCH;
	if (!strcmp(tp, "sched_wakeup"))
		return TPK_WAKEUP;
	if (!strcmp(tp, "sched_wakeup_new"))
		return TPK_WAKEUP_NEW;
	if (!strcmp(tp, "sched_waking"))
		return TPK_WAKING;
	return TPK_NONE;
}

static int add_tracepoint(struct rec_evlist *el, const char *name, const struct srep_rec_opts *o,
			  const char *tracefs, struct srep_error *err)
{
	const char *colon = strchr(name, ':');
	char *sys = strndup(name, (size_t)(colon - name));
	struct rec_event *e;
	uint64_t id = 0;
	int r;

	if (!sys)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	r = tracefs_event_id(tracefs, sys, colon + 1, &id, err);
	if (r || !(e = add_event(el, name, err))) {
		free(sys);
		return r ? r : srep_error__set(err, SREP_E_NOMEM, "no memory");
	}
	e->sys = sys;
	e->tp = strdup(colon + 1);
	if (!e->tp)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	e->tp_kind = tp_kind(sys, e->tp);
	common_attr(&e->attr, o);
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = id;
	e->attr.sample_period = 1;
	e->attr.sample_type = sample_type_of(true, o->callchain);
	el->has_tracepoints = true;
	return 0;
}

/* a software or hardware counter, sampled at perf record's frequency */
static int add_counter(struct rec_evlist *el, const char *name, const struct srep_rec_opts *o,
		       struct srep_error *err)
{
	struct srep_rec_counter c;
	struct rec_event *e;
	char full[64];

	if (srep_rec_counter__parse(name, &c, err))
		return err->code;
	snprintf(full, sizeof(full), "%s%s%s", c.name, c.modifiers[0] ? ":" : "", c.modifiers);
	e = add_event(el, full, err);
	if (!e)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	common_attr(&e->attr, o);
	e->attr.type = c.type;
	e->attr.config = c.config;
	e->attr.exclude_kernel = c.exclude_kernel;
	e->attr.exclude_user = c.exclude_user;
	e->attr.freq = 1;
	e->attr.sample_freq = SW_SAMPLE_FREQ;
	e->attr.sample_type = sample_type_of(false, o->callchain);
	return 0;
}

static int add_sideband(struct rec_evlist *el, const struct srep_rec_opts *o, struct srep_error *err)
{
	struct rec_event *e = add_event(el, "dummy:HG", err);

	if (!e)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	common_attr(&e->attr, o);
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_DUMMY;
	e->attr.sample_period = 1;
	e->attr.sample_type = sample_type_of(false, false);
	e->attr.mmap = 1;
	e->attr.mmap2 = 1;
	e->attr.comm = 1;
	e->attr.comm_exec = 1;
	e->attr.task = 1;
	el->sideband = el->nr - 1;
	return 0;
}

/* "instructions:u" is a counter with a modifier, "sched:sched_switch" a tracepoint */
static bool is_counter(const char *name)
{
	struct srep_rec_counter c;

	return !srep_rec_counter__parse(name, &c, NULL);
}

static bool already(const struct rec_evlist *el, const char *name)
{
	size_t i;

	for (i = 0; i < el->nr; i++) {
		if (!strcmp(el->ev[i].name, name))
			return true;
	}
	return false;
}

static int note_skipped(struct rec_evlist *el, const char *name)
{
	size_t old = el->skipped ? strlen(el->skipped) : 0;
	char *n = realloc(el->skipped, old + strlen(name) + 3);

	if (!n)
		return -1;
	snprintf(n + old, strlen(name) + 3, "%s%s", old ? ", " : "", name);
	el->skipped = n;
	return 0;
}

static int add_defaults(struct rec_evlist *el, const struct srep_rec_opts *o, const char *tracefs,
			struct srep_error *err)
{
	size_t i;
	int r;

	bool waking = false;

	for (i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++) {
		if (waking && !strcmp(default_events[i], "sched:sched_wakeup"))
			continue;
		r = add_tracepoint(el, default_events[i], o, tracefs, err);
		waking |= !r && !strcmp(default_events[i], "sched:sched_waking");
		if (r == SREP_E_INVAL && i > 0) {
			if (note_skipped(el, default_events[i]))
				return srep_error__set(err, SREP_E_NOMEM, "no memory");
			continue;
		}
		if (r)
			return r;
	}
	return 0;
}

int evlist_build(struct rec_evlist *el, const struct srep_rec_opts *o, const char *tracefs,
		 struct srep_error *err)
{
	size_t i;
	int r = 0;

	memset(el, 0, sizeof(*el));
	if (!o->nr_events)
		r = add_defaults(el, o, tracefs, err);
	for (i = 0; !r && i < o->nr_events; i++) {
		if (already(el, o->events[i]))
			continue;
		if (strchr(o->events[i], ':') && !is_counter(o->events[i])) {
			if (!tracefs)
				return srep_error__set(err, SREP_E_INVAL, "tracepoint '%s' needs tracefs",
						       o->events[i]);
			r = add_tracepoint(el, o->events[i], o, tracefs, err);
		} else {
			r = add_counter(el, o->events[i], o, err);
		}
	}
	if (!r)
		r = add_sideband(el, o, err);
	if (!r && !el->skipped && !(el->skipped = strdup("")))
		r = srep_error__set(err, SREP_E_NOMEM, "no memory");
	if (r)
		evlist_free(el);
	return r;
}

static int cmp_id(const void *a, const void *b)
{
	const struct rec_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int evlist_index_ids(struct rec_evlist *el, struct srep_error *err)
{
	size_t i, j, n = 0;

	for (i = 0; i < el->nr; i++)
		n += el->ev[i].nr_ids;
	free(el->byid);
	el->byid = calloc(n ? n : 1, sizeof(*el->byid));
	if (!el->byid)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for event ids");
	el->nr_byid = 0;
	for (i = 0; i < el->nr; i++) {
		for (j = 0; j < el->ev[i].nr_ids; j++)
			el->byid[el->nr_byid++] = (struct rec_id){ el->ev[i].ids[j], (uint32_t)i };
	}
	qsort(el->byid, el->nr_byid, sizeof(*el->byid), cmp_id);
	return 0;
}

int evlist_put_attr(struct rec_buf *b, const struct perf_event_attr *a)
{
	uint8_t raw[REC_FILE_ATTR_SIZE] = { 0 };
	struct perf_event_attr copy = *a;

	/*
	 * The kernel's struct as the host lays it out (bitfields included), as
	 * perf writes it: readers undo the byte order. Cut to perf 6.1's size.
	 */
	copy.size = REC_FILE_ATTR_SIZE;
	memcpy(raw, &copy, sizeof(copy) < sizeof(raw) ? sizeof(copy) : sizeof(raw));
	return buf_put(b, raw, sizeof(raw));
}

int evlist_find(const struct rec_evlist *el, uint64_t id)
{
	size_t lo = 0, hi = el->nr_byid, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (el->byid[mid].id == id)
			return (int)el->byid[mid].idx;
		if (el->byid[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void evlist_free(struct rec_evlist *el)
{
	size_t i;

	for (i = 0; i < el->nr; i++) {
		free(el->ev[i].name);
		free(el->ev[i].sys);
		free(el->ev[i].tp);
		free(el->ev[i].ids);
	}
	free(el->ev);
	free(el->skipped);
	free(el->byid);
	memset(el, 0, sizeof(*el));
}
