// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pftrace-blocked.c - sched_blocked_reason: where a task that switched out
 * asleep blocked, so that Perfetto's thread_state names it
 * (blocked_function, io_wait).
 *
 * Perfetto reads the event's caller as the id of a kernel symbol interned
 * on the packet's sequence (InternedData.kernel_symbols), as its recorder
 * writes it with symbolize_ksyms: each bundle's packet carries the names
 * its events use, so a bundle stays readable when the sequence's interned
 * state is cleared meanwhile (pftrace-stacks.c does that when its tables
 * fill). A name keeps one id for the whole file; the table holds
 * PFT_KSYMS_MAX names, and sleeps in functions beyond them get no event.
 */
#include <stdlib.h>
#include <string.h>

#include "pftrace.h"

#define PFT_KSYMS_MAX	4096
#define KSYM_SLOTS	(2 * PFT_KSYMS_MAX)

struct pft_ksyms {
	char *names[KSYM_SLOTS];	/* open addressing on the name's hash */
	uint32_t iids[KSYM_SLOTS];	/* their ids, from 1 */
	uint32_t nr;
};

/* the name's id; 0 when the table is full or without memory (p->nomem) */
static uint32_t ksym_iid(struct pft *p, const char *name)
{
	struct pft_ksyms *k = p->ksyms;
	uint32_t h;

	if (!k && !(k = p->ksyms = calloc(1, sizeof(*k)))) {
		p->nomem = true;
		return 0;
	}
	for (h = pft_str_hash(name) % KSYM_SLOTS; k->names[h]; h = (h + 1) % KSYM_SLOTS)
		if (!strcmp(k->names[h], name))
			return k->iids[h];
	if (k->nr == PFT_KSYMS_MAX)
		return 0;
	if (!(k->names[h] = strdup(name))) {
		p->nomem = true;
		return 0;
	}
	k->iids[h] = ++k->nr;
	return k->iids[h];
}

/* @iid named in @c's bundle: its InternedData gets the name once */
static void ksym_in_bundle(struct pft *p, struct pft_cpu *c, uint32_t iid, const char *name)
{
	size_t m;

	if (!c->ksym_seen && !(c->ksym_seen = calloc(PFT_KSYMS_MAX / 8 + 1, 1))) {
		p->nomem = true;
		return;
	}
	if (c->ksym_seen[iid / 8] & (1u << iid % 8))
		return;
	c->ksym_seen[iid / 8] |= (uint8_t)(1u << iid % 8);
	m = pbw_begin(&c->ksyms, PF_ID_KERNEL_SYMBOLS);
	pbw_uint(&c->ksyms, 1, iid);
	pbw_str(&c->ksyms, 2, name, SIZE_MAX);
	pbw_end(&c->ksyms, m);
}

void pft_ksyms_bundle_done(struct pft_cpu *c)
{
	pbw_reset(&c->ksyms);
	if (c->ksym_seen)
		memset(c->ksym_seen, 0, PFT_KSYMS_MAX / 8 + 1);
}

/*
 * Whether the task slept in io_schedule*(), which sets the kernel's
 * in_iowait, what the real event reports: a scheduler frame of the
 * callchain before @blocked, the kernel frame it blocked in.
 */
static bool in_iowait(struct pft *p, const struct srep_event *ev, uint64_t blocked)
{
	bool kernel = false;
	struct srep_frame f;
	uint32_t i;

	for (i = 0; i < ev->nr_callchain; i++) {
		if (ev->callchain[i] >= SREP_CONTEXT_MAX) {
			kernel = ev->callchain[i] == SREP_CONTEXT_KERNEL;
			continue;
		}
		if (!kernel || ev->callchain[i] == blocked)
			break;
		if (srep_symbolizer__resolve(p->ctx->symbols, ev->pid, SREP_FRAME_KERNEL,
					     ev->callchain[i], &f) &&
		    !strncmp(f.symbol, "io_schedule", strlen("io_schedule")))
			return true;
	}
	return false;
}

void pft_blocked_reason(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	char state = ev->u.sw.prev_state, label[SREP_FRAME_LABEL_MAX];
	struct srep_frame kernel, user;
	struct pft_cpu *c;
	const char *name;
	size_t outer, inner;
	uint32_t iid;

	if (!p->ctx->symbols || !ev->nr_callchain || ev->u.sw.prev_tid <= 0 ||
	    (ev->flags & SREP_EVF_PREEMPT) || (state != 'S' && state != 'D' && state != 'I') ||
	    !(c = pft_cpu(p, cpu)))
		return;
	if (!(srep_symbolizer__blocked_in(p->ctx->symbols, ev, &kernel, &user) & SREP_BLOCKED_KERNEL))
		return;
	name = srep_frame__label(&kernel, label, sizeof(label));
	iid = ksym_iid(p, name);
	if (!iid)
		return;
	/*
	 * At the switch's time, whole: what is held at that time then goes
	 * whole before it (pftrace-cpu.c), so Perfetto reads it after the
	 * switch-out and before a switch-in at the same time (schedrep puts
	 * a missing one there), while the sleep is the thread's latest state.
	 */
	inner = pft_event_begin(p, cpu, ev->time, ev->u.sw.prev_tid, PF_EV_SCHED_BLOCKED_REASON,
				&outer);
	/* after the begin, which may have written the bundle out */
	ksym_in_bundle(p, c, iid, name);
	pbw_int(&c->events, 1, ev->u.sw.prev_tid);
	pbw_uint(&c->events, 2, iid);
	pbw_uint(&c->events, 3, in_iowait(p, ev, kernel.addr));
	pft_event_end(p, cpu, inner, outer);
}

void pft_ksyms_free(struct pft_ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < KSYM_SLOTS; i++)
		free(k->names[i]);
	free(k);
}
