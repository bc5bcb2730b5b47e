// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pftrace-cpu.c - the Perfetto trace's per-CPU FtraceEventBundles.
 *
 * Each CPU fills a bundle: sched_switch and sched_waking in CompactSched
 * form (packed arrays, delta timestamps, comms interned per bundle), other
 * events as whole FtraceEvents. A bundle is written after
 * PFT_BUNDLE_EVENTS events or when its intern table is half full, so memory
 * is bounded by the number of CPUs.
 *
 * CompactSched leaves fields out that Perfetto infers from the CPU's
 * previous switch: prev_pid of a switch, the waker of a waking. Where that
 * inference would be wrong (the first switch of a CPU, whose prev Perfetto
 * would drop; a switch whose prev is not the task the last one put there,
 * after a selection or a loss; a waking before any switch or by another
 * task than the current one), the event is written whole instead.
 */
#include <stdlib.h>
#include <string.h>

#include "pftrace.h"

/* pft_cpu() for a CPU not seen yet */
struct pft_cpu *pft_cpu_grow(struct pft *p, int32_t cpu)
{
	struct pft_cpu **v, *c;
	size_t n;

	if (cpu < 0)
		return NULL;
	if ((size_t)cpu >= p->nr_cpus) {
		n = (size_t)cpu + 1;
		v = realloc(p->cpus, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + p->nr_cpus, 0, (n - p->nr_cpus) * sizeof(*v));
		p->cpus = v;
		p->nr_cpus = n;
	}
	if (p->cpus[cpu])
		return p->cpus[cpu];
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cur_tid = c->next_tid = -1;
	c->bundle = 1;	/* calloc'd slots are free */
	p->cpus[cpu] = c;
	return c;
}

bool pft_cpu_nomem(const struct pft_cpu *c)
{
	int i;

	for (i = 0; i < CS_NR; i++)
		if (c->cs[i].nomem)
			return true;
	return c->intern.nomem || c->events.nomem || c->ksyms.nomem;
}

uint32_t pft_str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static void comm_key(uint64_t key[PFT_COMM_WORDS], const char *comm)
{
	memset(key, 0, PFT_COMM_WORDS * sizeof(*key));
	memcpy(key, comm, strnlen(comm, SREP_COMM_MAX - 1));
}

static uint32_t key_hash(const uint64_t key[PFT_COMM_WORDS])
{
	uint64_t h = 0;
	int i;

	for (i = 0; i < PFT_COMM_WORDS; i++)
		h = (h ^ key[i]) * 0x9e3779b97f4a7c15u;
	return (uint32_t)(h >> 32);
}

/*
 * The comm's index in the bundle's intern table (no memory: 0, and
 * c->intern.nomem). Keys are compared as words, and slots of earlier
 * bundles are free without being cleared: a byte-wise hash and strncmp per
 * comm were a tenth of the encoder's instructions.
 */
static uint32_t intern(struct pft_cpu *c, const char *comm)
{
	uint64_t key[PFT_COMM_WORDS];
	uint32_t h;

	if (!c->slots) {
		c->slots = calloc(PFT_INTERN_SLOTS, sizeof(*c->slots));
		if (!c->slots) {
			c->intern.nomem = true;
			return 0;
		}
	}
	comm_key(key, comm);
	for (h = key_hash(key) % PFT_INTERN_SLOTS;; h = (h + 1) % PFT_INTERN_SLOTS) {
		struct pft_intern *s = &c->slots[h];

		if (s->bundle != c->bundle) {
			s->bundle = c->bundle;
			s->idx = c->nr_interned++;
			memcpy(s->key, key, sizeof(key));
			pbw_str(&c->intern, PF_CS_INTERN, comm, SREP_COMM_MAX);
			return s->idx;
		}
		if (!memcmp(s->key, key, sizeof(key)))
			return s->idx;
	}
}

/*
 * intern() behind a cache of the last comm each task had on this CPU:
 * most tasks switch in and wake up many times a bundle under one comm, and
 * the array compared whole (fixed size, a few word compares) saves making
 * the key. Bytes after the NUL may differ: then it is a miss, not an error.
 */
static uint32_t intern_task(struct pft_cpu *c, int32_t tid, const char comm[SREP_COMM_MAX])
{
	struct pft_comm_hit *e = &c->hits[(uint32_t)tid % PFT_COMM_HITS];

	if (e->bundle == c->bundle && e->tid == tid && !memcmp(e->comm, comm, SREP_COMM_MAX))
		return e->idx;
	e->idx = intern(c, comm);
	e->tid = tid;
	e->bundle = c->bundle;
	memcpy(e->comm, comm, SREP_COMM_MAX);
	return e->idx;
}

static void packed(struct pbw *pkt, uint32_t field, const struct pbw *arr)
{
	if (arr->len)
		pbw_bytes(pkt, field, arr->buf, arr->len);
}

static void compact_sched(struct pbw *w, struct pft_cpu *c)
{
	static const uint32_t fields[CS_NR] = {
		PF_CS_SWITCH_TS, PF_CS_SWITCH_PREV_STATE, PF_CS_SWITCH_NEXT_PID,
		PF_CS_SWITCH_NEXT_PRIO, PF_CS_SWITCH_NEXT_COMM, PF_CS_WAKING_TS,
		PF_CS_WAKING_PID, PF_CS_WAKING_CPU, PF_CS_WAKING_PRIO, PF_CS_WAKING_COMM,
		PF_CS_WAKING_FLAGS,
	};
	size_t body = pbw_begin(w, PF_BUNDLE_COMPACT);
	int i;

	pbw_raw(w, c->intern.buf, c->intern.len);
	for (i = 0; i < CS_NR; i++)
		packed(w, fields[i], &c->cs[i]);
	pbw_end(w, body);
}

/* write @cpu's bundle out (nothing when it is empty and has no loss to tell) */
static void flush(struct pft *p, size_t cpu)
{
	struct pft_cpu *c = p->cpus[cpu];
	size_t body;
	int i;

	if (pft_cpu_nomem(c))
		p->nomem = true;	/* the bytes are handed on here: pbwire.h */
	if (!c->nr_events && !c->lost)
		return;
	pft_packet_begin(p, 0);
	body = pbw_begin(&p->pkt, PF_PKT_FTRACE_EVENTS);
	pbw_uint(&p->pkt, PF_BUNDLE_CPU, cpu);
	if (c->lost)
		pbw_uint(&p->pkt, PF_BUNDLE_LOST, 1);
	if (c->cs[CS_SW_TS].len || c->cs[CS_WK_TS].len)
		compact_sched(&p->pkt, c);
	pbw_raw(&p->pkt, c->events.buf, c->events.len);
	pbw_end(&p->pkt, body);
	/* the kernel symbols the bundle names: read before its events, as Perfetto's recorder writes them */
	if (c->ksyms.len)
		pbw_bytes(&p->pkt, PF_PKT_INTERNED_DATA, c->ksyms.buf, c->ksyms.len);
	pft_packet_end(p);
	pft_ksyms_bundle_done(c);
	for (i = 0; i < CS_NR; i++)
		pbw_reset(&c->cs[i]);
	pbw_reset(&c->intern);
	pbw_reset(&c->events);
	c->bundle++;
	c->nr_interned = c->nr_events = 0;
	c->last_sw = c->last_wk = 0;
	c->lost = false;
}

/* one more event in the bundle; written out when it is full */
static void counted(struct pft *p, int32_t cpu, struct pft_cpu *c)
{
	if (++c->nr_events >= PFT_BUNDLE_EVENTS || c->nr_interned >= PFT_INTERN_SLOTS / 2)
		flush(p, (size_t)cpu);
}

/* the delta from the array's last timestamp; a time going back starts a new bundle */
static uint64_t delta(struct pft *p, int32_t cpu, uint64_t *last, uint64_t ts)
{
	uint64_t d;

	if (*last && ts < *last)
		flush(p, (size_t)cpu);
	d = *last ? ts - *last : ts;
	*last = ts;
	return d;
}

static int32_t prio_or_default(int32_t prio)
{
	return prio == INT32_MIN ? 120 : prio;	/* a normal task's kernel prio */
}

static void settle(struct pft *p, int32_t cpu, struct pft_cpu *c, bool whole);

size_t pft_event_begin(struct pft *p, int32_t cpu, uint64_t ts, int32_t pid, uint32_t field,
		       size_t *outer)
{
	struct pft_cpu *c = pft_cpu(p, cpu);
	struct pbw *w;

	if (!c) {
		*outer = 0;
		return 0;
	}
	/* what is held at this time goes whole before it, in the same stream;
	   an event dated back (hold()) leaves the latest time's events as they are */
	if (ts >= c->tie_ts) {
		if (c->nr_pend)
			settle(p, cpu, c, c->pend[0].ts == ts);
		c->tie_ts = ts;
		c->tie_whole = true;
	}
	w = &c->events;
	*outer = pbw_begin(w, PF_BUNDLE_EVENT);
	pbw_uint(w, PF_EV_TIMESTAMP, ts);	/* first: Perfetto's fast path looks for it there */
	pbw_uint(w, PF_EV_PID, (uint32_t)(pid < 0 ? 0 : pid));
	return pbw_begin(w, field);
}

void pft_event_end(struct pft *p, int32_t cpu, size_t inner, size_t outer)
{
	struct pft_cpu *c = pft_cpu(p, cpu);

	if (!c)
		return;
	pbw_end(&c->events, inner);
	pbw_end(&c->events, outer);
	counted(p, cpu, c);
}

static void whole_switch(struct pft *p, int32_t cpu, const struct pft_pend *e)
{
	size_t outer, inner = pft_event_begin(p, cpu, e->ts, e->u.sw.prev_tid, PF_EV_SCHED_SWITCH,
					      &outer);
	struct pbw *w = &p->cpus[cpu]->events;

	pbw_str(w, 1, e->u.sw.prev_comm, SREP_COMM_MAX);
	pbw_int(w, 2, e->u.sw.prev_tid);
	pbw_int(w, 3, prio_or_default(e->u.sw.prev_prio));
	pbw_int(w, 4, e->state);
	pbw_str(w, 5, e->u.sw.next_comm, SREP_COMM_MAX);
	pbw_int(w, 6, e->u.sw.next_tid);
	pbw_int(w, 7, prio_or_default(e->u.sw.next_prio));
	pft_event_end(p, cpu, inner, outer);
}

static void write_switch(struct pft *p, int32_t cpu, struct pft_cpu *c, const struct pft_pend *e,
			 bool whole)
{
	const struct srep_switch *sw = &e->u.sw;
	uint32_t comm;
	uint64_t d;

	/* prev unknown before the CPU's first switch: Perfetto starts from next */
	whole = whole || (c->cur_tid >= 0 ? c->cur_tid != sw->prev_tid : sw->prev_tid >= 0);
	c->sw_written = e->ts;
	c->sw_written_whole = whole;
	if (whole) {
		whole_switch(p, cpu, e);
		c->cur_tid = sw->next_tid;
		return;
	}
	/* the delta first: a time going back writes the bundle, and its comms with it */
	d = delta(p, cpu, &c->last_sw, e->ts);
	comm = intern_task(c, sw->next_tid, sw->next_comm);
	pbw_varint(&c->cs[CS_SW_TS], d);
	pbw_varint(&c->cs[CS_SW_STATE], (uint64_t)e->state);
	pbw_varint(&c->cs[CS_SW_PID], (uint64_t)(int64_t)sw->next_tid);
	pbw_varint(&c->cs[CS_SW_PRIO], (uint64_t)(int64_t)prio_or_default(sw->next_prio));
	pbw_varint(&c->cs[CS_SW_COMM], comm);
	c->cur_tid = sw->next_tid;
	counted(p, cpu, c);
}

static void whole_waking(struct pft *p, int32_t cpu, const struct pft_pend *e)
{
	const struct srep_wakeup *wk = &e->u.wk;
	size_t outer, inner = pft_event_begin(p, cpu, e->ts, e->waker, PF_EV_SCHED_WAKING, &outer);
	struct pbw *w = &p->cpus[cpu]->events;

	pbw_str(w, 1, wk->comm, SREP_COMM_MAX);
	pbw_int(w, 2, wk->tid);
	pbw_int(w, 3, prio_or_default(wk->prio));
	pbw_int(w, 4, 1);
	pbw_int(w, 5, wk->target_cpu >= 0 ? wk->target_cpu : cpu);
	pft_event_end(p, cpu, inner, outer);
}

static void write_waking(struct pft *p, int32_t cpu, struct pft_cpu *c, const struct pft_pend *e,
			 bool whole)
{
	const struct srep_wakeup *wk = &e->u.wk;
	uint32_t comm;
	uint64_t d;

	/* Perfetto takes the CPU's current task as the waker of a compact waking */
	if (whole || c->cur_tid < 0 || c->cur_tid != e->waker) {
		whole_waking(p, cpu, e);
		return;
	}
	d = delta(p, cpu, &c->last_wk, e->ts);
	comm = intern_task(c, wk->tid, wk->comm);
	pbw_varint(&c->cs[CS_WK_TS], d);
	pbw_varint(&c->cs[CS_WK_PID], (uint64_t)(int64_t)wk->tid);
	pbw_varint(&c->cs[CS_WK_CPU], (uint64_t)(int64_t)(wk->target_cpu >= 0 ? wk->target_cpu : cpu));
	pbw_varint(&c->cs[CS_WK_PRIO], (uint64_t)(int64_t)prio_or_default(wk->prio));
	pbw_varint(&c->cs[CS_WK_COMM], comm);
	pbw_varint(&c->cs[CS_WK_FLAGS], 0);
	counted(p, cpu, c);
}

/*
 * Perfetto sorts each CPU's compact switches, compact wakings and whole
 * events as three streams, and among equal timestamps takes one stream's
 * events before another's: the order within a nanosecond is lost across
 * kinds (coarse clocks, emulators, give many events one timestamp). So the
 * switches and wakings of one timestamp are held until the next
 * timestamp shows whether they are all of one kind: then they go compact,
 * else all whole, in order, in one stream.
 */
static void settle(struct pft *p, int32_t cpu, struct pft_cpu *c, bool whole)
{
	size_t i, n = c->nr_pend;

	c->nr_pend = 0;
	for (i = 1; i < n && !whole; i++)
		whole = c->pend[i].waking != c->pend[0].waking;
	for (i = 0; i < n; i++) {
		if (c->pend[i].waking)
			write_waking(p, cpu, c, &c->pend[i], whole);
		else
			write_switch(p, cpu, c, &c->pend[i], whole);
	}
}

/*
 * Where the switch or waking at @ts is built: the next held slot, or
 * c->now when it is to be written at once (hold_done()). Built in place:
 * copying each event into the held ones showed in profiles.
 */
static struct pft_pend *hold_slot(struct pft *p, int32_t cpu, struct pft_cpu *c, uint64_t ts)
{
	/*
	 * Dated before the CPU's latest event (a missing switch put at the
	 * time of the CPU's last switch): in the stream that switch went in,
	 * after it; whole when its time has no switch.
	 */
	if (ts < c->tie_ts) {
		c->now_whole = ts != c->sw_written || c->sw_written_whole;
		return &c->now;
	}
	if (c->nr_pend && c->pend[0].ts != ts)
		settle(p, cpu, c, false);
	if (c->tie_ts != ts)
		c->tie_whole = false;
	c->tie_ts = ts;
	if (!c->pend) {
		c->pend = malloc(PFT_HELD_MAX * sizeof(*c->pend));
		if (!c->pend) {
			p->nomem = true;
			return NULL;
		}
	}
	/* a timestamp with more events than we hold: all of them whole */
	if (c->nr_pend == PFT_HELD_MAX) {
		settle(p, cpu, c, true);
		c->tie_whole = true;
	}
	if (c->tie_whole) {
		c->now_whole = true;
		return &c->now;
	}
	return &c->pend[c->nr_pend];
}

/* the event built in @e (from hold_slot()) held, or written */
static void hold_done(struct pft *p, int32_t cpu, struct pft_cpu *c, const struct pft_pend *e)
{
	if (e != &c->now)
		c->nr_pend++;
	else if (e->waking)
		write_waking(p, cpu, c, e, true);
	else
		write_switch(p, cpu, c, e, c->now_whole);
}

void pft_switch(struct pft *p, int32_t cpu, uint64_t ts, const struct srep_switch *sw,
		int64_t prev_state)
{
	struct pft_cpu *c = pft_cpu(p, cpu);
	struct pft_pend *e;

	if (!c)
		return;
	c->next_tid = sw->next_tid;
	c->switched = ts;
	if (!(e = hold_slot(p, cpu, c, ts)))
		return;
	e->waking = false;
	e->ts = ts;
	e->state = prev_state;
	e->u.sw = *sw;
	hold_done(p, cpu, c, e);
}

void pft_waking(struct pft *p, int32_t cpu, uint64_t ts, int32_t waker,
		const struct srep_wakeup *wk)
{
	struct pft_cpu *c = pft_cpu(p, cpu);
	struct pft_pend *e;

	if (!c || !(e = hold_slot(p, cpu, c, ts)))
		return;
	e->waking = true;
	e->ts = ts;
	e->waker = waker;
	e->u.wk = *wk;
	hold_done(p, cpu, c, e);
}

void pft_finish_cpu(struct pft *p, size_t cpu)
{
	struct pft_cpu *c = p->cpus[cpu];

	if (!c)
		return;
	if (c->nr_pend)
		settle(p, (int32_t)cpu, c, false);
	flush(p, cpu);
}

void pft_free_cpus(struct pft *p)
{
	size_t i;
	int j;

	for (i = 0; i < p->nr_cpus; i++) {
		struct pft_cpu *c = p->cpus[i];

		if (!c)
			continue;
		for (j = 0; j < CS_NR; j++)
			pbw_free(&c->cs[j]);
		pbw_free(&c->intern);
		pbw_free(&c->events);
		pbw_free(&c->ksyms);
		free(c->ksym_seen);
		free(c->slots);
		free(c->pend);
		free(c);
	}
	free(p->cpus);
	p->cpus = NULL;
	p->nr_cpus = 0;
}
