// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency.c - the latency trigger: watch sched_wakeup (or sched_waking when
 * that is all there is) and sched_switch as they stream, and report when a
 * task waited more than the threshold between its wakeup and getting a CPU.
 *
 * Rings are drained one CPU after the other, so a wakeup on one CPU can
 * arrive after the switch on another that it caused. The monitor therefore
 * orders events as perf orders a file: at the end of each drain pass, what
 * is older than the newest event of the previous pass is complete and is
 * processed in time order; the rest waits for the next pass.
 */
#include <stdlib.h>
#include <string.h>

#include "rec_local.h"

enum mon_kind { MON_NONE = 0, MON_WAKE, MON_SWITCH };

struct mon_event {
	uint64_t time;
	int32_t tid, prev_tid;		/* SWITCH: next and prev; WAKE: the woken */
	enum mon_kind kind;
};

struct mon_source {
	enum mon_kind kind;
	struct rec_field tid, prev;	/* pid / next_pid, prev_pid */
};

struct rec_latency {
	uint64_t threshold;
	struct mon_source *src;		/* per event index */
	size_t nr_src;
	struct mon_event *ev;		/* waiting to be ordered */
	size_t nr_ev, cap_ev;
	uint64_t limit, newest;		/* previous pass's newest, this pass's */
	struct wait_slot { int32_t tid; uint64_t since; } *waits;	/* open addressing */
	size_t nr_waits, cap_waits;
};

static int field_of(const char *tracefs, const struct rec_event *e, const char *name,
		    struct rec_field *f, struct srep_error *err)
{
	return tracefs_field(tracefs, e->sys, e->tp, name, f, err);
}

static int setup_sources(struct rec_latency *m, const struct rec_evlist *el, const char *tracefs,
			 struct srep_error *err)
{
	bool have_wakeup = false, have_switch = false;
	size_t i;

	for (i = 0; i < el->nr; i++)
		have_wakeup |= el->ev[i].tp_kind == TPK_WAKEUP;	/* wakeup_new is no substitute */
	for (i = 0; i < el->nr; i++) {
		const struct rec_event *e = &el->ev[i];
		struct mon_source *s = &m->src[i];

		if (e->tp_kind == TPK_SWITCH) {
			s->kind = MON_SWITCH;
			have_switch = true;
			if (field_of(tracefs, e, "next_pid", &s->tid, err) ||
			    field_of(tracefs, e, "prev_pid", &s->prev, err))
				return err->code;
		} else if (e->tp_kind == TPK_WAKEUP || e->tp_kind == TPK_WAKEUP_NEW ||
			   (e->tp_kind == TPK_WAKING && !have_wakeup)) {
			s->kind = MON_WAKE;
			if (field_of(tracefs, e, "pid", &s->tid, err))
				return err->code;
		}
	}
	for (i = 0; i < el->nr && m->src[i].kind != MON_WAKE; i++)
		;
	if (!have_switch || i == el->nr)
		return srep_error__set(err, SREP_E_INVAL, "--trigger latency needs the events "
				       "sched:sched_switch and sched:sched_wakeup (or sched:sched_waking)");
	return 0;
}

int latency_new(struct rec_latency **out, const struct rec_evlist *el, const char *tracefs,
		uint64_t threshold_ns, struct srep_error *err)
{
	struct rec_latency *m = calloc(1, sizeof(*m));

	if (!m || !(m->src = calloc(el->nr, sizeof(*m->src)))) {
		free(m);
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	}
	m->nr_src = el->nr;
	m->threshold = threshold_ns;
	if (!tracefs) {
		latency_free(m);
		return srep_error__set(err, SREP_E_INVAL, "--trigger latency needs tracefs");
	}
	if (setup_sources(m, el, tracefs, err)) {
		latency_free(m);
		return err->code;
	}
	*out = m;
	return 0;
}

static bool read_tid(const struct rec_field *f, const uint8_t *raw, uint32_t raw_size, int32_t *tid)
{
	if (f->size != 4 || f->offset > raw_size || raw_size - f->offset < 4)
		return false;
	*tid = (int32_t)srep_get32(raw + f->offset, false);
	return true;
}

void latency_sample(struct rec_latency *m, int idx, uint64_t time, const uint8_t *raw,
		    uint32_t raw_size)
{
	const struct mon_source *s;
	struct mon_event e = { time, 0, -1, MON_NONE };

	if (idx < 0 || (size_t)idx >= m->nr_src || !(s = &m->src[idx])->kind)
		return;
	if (!read_tid(&s->tid, raw, raw_size, &e.tid) ||
	    (s->kind == MON_SWITCH && !read_tid(&s->prev, raw, raw_size, &e.prev_tid)))
		return;
	e.kind = s->kind;
	if (m->nr_ev == m->cap_ev) {
		size_t cap = m->cap_ev ? m->cap_ev * 2 : 4096;
		struct mon_event *n = realloc(m->ev, cap * sizeof(*n));

		if (!n)
			return;	/* the trigger may miss a late task, the recording goes on */
		m->ev = n;
		m->cap_ev = cap;
	}
	m->ev[m->nr_ev++] = e;
	if (time > m->newest)
		m->newest = time;
}

/* ---- when each task began to wait ---- */

static size_t slot_of(const struct rec_latency *m, int32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (m->cap_waits - 1);

	while (m->waits[i].tid && m->waits[i].tid != tid)
		i = (i + 1) & (m->cap_waits - 1);
	return i;
}

static struct wait_slot *wait_of(struct rec_latency *m, int32_t tid)
{
	struct wait_slot *old = m->waits, *s;
	size_t i, cap = m->cap_waits;

	if (2 * (m->nr_waits + 1) > m->cap_waits) {
		m->cap_waits = cap ? cap * 2 : 1024;
		m->waits = calloc(m->cap_waits, sizeof(*m->waits));
		if (!m->waits) {
			m->waits = old;
			m->cap_waits = cap;
			return NULL;
		}
		for (i = 0; i < cap; i++) {
			if (old[i].tid)
				m->waits[slot_of(m, old[i].tid)] = old[i];
		}
		free(old);
	}
	s = &m->waits[slot_of(m, tid)];
	if (!s->tid) {
		s->tid = tid;
		s->since = 0;
		m->nr_waits++;
	}
	return s;
}

static bool process(struct rec_latency *m, const struct mon_event *e, struct latency_hit *hit)
{
	struct wait_slot *w;
	bool late = false;

	if (e->kind == MON_WAKE) {
		if (e->tid > 0 && (w = wait_of(m, e->tid)) && !w->since)
			w->since = e->time;
		return false;
	}
	/* a wakeup seen while the task still ran means nothing once it leaves */
	if (e->prev_tid > 0 && (w = wait_of(m, e->prev_tid)))
		w->since = 0;
	if (e->tid > 0 && (w = wait_of(m, e->tid)) && w->since) {
		if (e->time > w->since && e->time - w->since > m->threshold) {
			*hit = (struct latency_hit){ e->time, e->tid, e->time - w->since };
			late = true;
		}
		w->since = 0;
	}
	return late;
}

static int cmp_event(const void *x, const void *y)
{
	const struct mon_event *a = x, *b = y;

	return a->time < b->time ? -1 : a->time > b->time;
}

bool latency_round(struct rec_latency *m, struct latency_hit *hit)
{
	struct latency_hit h;
	bool late = false;
	size_t i, keep = 0;

	qsort(m->ev, m->nr_ev, sizeof(*m->ev), cmp_event);
	for (i = 0; i < m->nr_ev; i++) {
		if (m->ev[i].time > m->limit) {
			m->ev[keep++] = m->ev[i];
			continue;
		}
		if (process(m, &m->ev[i], &h) && !late) {
			*hit = h;
			late = true;
		}
	}
	m->nr_ev = keep;
	m->limit = m->newest;
	return late;
}

void latency_free(struct rec_latency *m)
{
	if (!m)
		return;
	free(m->src);
	free(m->ev);
	free(m->waits);
	free(m);
}
