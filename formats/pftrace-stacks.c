// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pftrace-stacks.c - the callchains of a trace recorded with -g as
 * Perfetto's callstack samples: one PerfSample packet per event with a
 * callchain (a sched_switch's is where the task left the CPU), its frames
 * resolved by the convert's symbolizer, so that Perfetto's flame graph and
 * its perf_sample and stack_profile_* tables show where tasks block.
 *
 * Perfetto interns: a packet carries, in its InternedData, only the
 * function names, mappings, frames and callstacks no earlier packet of the
 * sequence defined, and refers to them by id. The keys here are the
 * symbolizer's string pointers (its strings live as long as it does, as
 * framecache.c relies on too) and the frames' module offsets. The tables
 * are bounded: when one is full the next packet clears the sequence's
 * incremental state and interning starts over, as Perfetto's own writers
 * do.
 */
#include <stdlib.h>
#include <string.h>

#include "pftrace.h"

#define STACK_SLOTS	(1u << 16)	/* per table; cleared when half full */
#define SEQ_INCREMENTAL_CLEARED	1
#define SEQ_NEEDS_INCREMENTAL	2
#define CPU_MODE_KERNEL		1
#define CPU_MODE_USER		2

/* one table: a key of three words to an iid (0: an empty slot) */
struct st_slot {
	uintptr_t a, b;
	uint64_t c;
	uint64_t iid;
};

struct pft_stacks {
	struct st_slot *names, *maps, *frames, *stacks;
	uint64_t next_iid;		/* one numbering for all tables: ids stay distinct */
	size_t used;			/* the fullest table's entries */
	bool clear;			/* the next packet clears the sequence's interned data */
	struct srep_frame *buf;
	size_t cap;
	uint64_t *ids;			/* the callstack's frame ids, root first */
	struct pbw data;		/* InternedData of the packet being made */
};

static uint64_t mix(uintptr_t a, uintptr_t b, uint64_t c)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ull ^ (uint64_t)b * 0xc2b2ae3d27d4eb4full ^ c;

	return (h ^ h >> 29) * 0xbf58476d1ce4e5b9ull;
}

/* the iid of (a, b, c), made (*fresh) on first sight; 0 without memory */
static uint64_t intern(struct pft_stacks *s, struct st_slot *t, uintptr_t a, uintptr_t b,
		       uint64_t c, bool *fresh)
{
	size_t i = mix(a, b, c) & (STACK_SLOTS - 1);

	while (t[i].iid && !(t[i].a == a && t[i].b == b && t[i].c == c))
		i = (i + 1) & (STACK_SLOTS - 1);
	*fresh = !t[i].iid;
	if (*fresh) {
		t[i] = (struct st_slot){ a, b, c, s->next_iid++ };
		s->used++;
	}
	return t[i].iid;
}

static void clear_tables(struct pft_stacks *s)
{
	memset(s->names, 0, STACK_SLOTS * sizeof(*s->names));
	memset(s->maps, 0, STACK_SLOTS * sizeof(*s->maps));
	memset(s->frames, 0, STACK_SLOTS * sizeof(*s->frames));
	memset(s->stacks, 0, STACK_SLOTS * sizeof(*s->stacks));
	s->next_iid = 1;
	s->used = 0;
	s->clear = true;
}

static struct pft_stacks *stacks_new(void)
{
	struct pft_stacks *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->names = calloc(STACK_SLOTS, sizeof(*s->names));
	s->maps = calloc(STACK_SLOTS, sizeof(*s->maps));
	s->frames = calloc(STACK_SLOTS, sizeof(*s->frames));
	s->stacks = calloc(STACK_SLOTS, sizeof(*s->stacks));
	if (!s->names || !s->maps || !s->frames || !s->stacks) {
		pft_stacks_free(s);
		return NULL;
	}
	clear_tables(s);
	s->clear = false;	/* the sequence's first packet clears it already */
	return s;
}

void pft_stacks_free(struct pft_stacks *s)
{
	if (!s)
		return;
	free(s->names);
	free(s->maps);
	free(s->frames);
	free(s->stacks);
	free(s->buf);
	free(s->ids);
	pbw_free(&s->data);
	free(s);
}

/* an InternedString entry (function_names, mapping_paths) */
static void interned_string(struct pbw *w, uint32_t field, uint64_t iid, const char *str)
{
	size_t m = pbw_begin(w, field);

	pbw_uint(w, 1, iid);
	pbw_str(w, 2, str, SIZE_MAX);
	pbw_end(w, m);
}

/* the mapping of @module: its path, the whole address space (frames carry offsets) */
static uint64_t mapping_of(struct pft_stacks *s, const char *module)
{
	const char *path = module ? module : "[unknown]";
	uint64_t path_iid, iid;
	bool fresh;
	size_t m;

	path_iid = intern(s, s->names, (uintptr_t)path, 1, 0, &fresh);
	if (fresh)
		interned_string(&s->data, PF_ID_MAPPING_PATHS, path_iid, path);
	iid = intern(s, s->maps, (uintptr_t)path, 0, 0, &fresh);
	if (fresh) {
		m = pbw_begin(&s->data, PF_ID_MAPPINGS);
		pbw_uint(&s->data, 1, iid);
		pbw_uint(&s->data, 4, 0);		/* start */
		pbw_uint(&s->data, 5, UINT64_MAX);	/* end */
		pbw_uint(&s->data, 7, path_iid);	/* path_string_ids */
		pbw_end(&s->data, m);
	}
	return iid;
}

/* the frame iid of @f: its function name, mapping and offset in the mapping */
static uint64_t frame_of(struct pft_stacks *s, const struct srep_frame *f)
{
	const char *name = f->symbol ? f->symbol : "[unknown]";
	uint64_t map = mapping_of(s, f->module), name_iid, iid;
	bool fresh;
	size_t m;

	name_iid = intern(s, s->names, (uintptr_t)name, 0, 0, &fresh);
	if (fresh)
		interned_string(&s->data, PF_ID_FUNCTION_NAMES, name_iid, name);
	iid = intern(s, s->frames, (uintptr_t)name, (uintptr_t)map, f->module_addr, &fresh);
	if (fresh) {
		m = pbw_begin(&s->data, PF_ID_FRAMES);
		pbw_uint(&s->data, 1, iid);
		pbw_uint(&s->data, 2, name_iid);
		pbw_uint(&s->data, 3, map);
		pbw_uint(&s->data, 4, f->module_addr);	/* rel_pc */
		pbw_end(&s->data, m);
	}
	return iid;
}

/* the callstack iid of @n frames, innermost first as the symbolizer gives them */
static uint64_t callstack_of(struct pft_stacks *s, const struct srep_frame *f, size_t n)
{
	uint64_t h = n, iid;
	bool fresh;
	size_t i, m;

	for (i = 0; i < n; i++) {		/* Perfetto wants the root first */
		s->ids[i] = frame_of(s, &f[n - 1 - i]);
		h = mix((uintptr_t)h, (uintptr_t)s->ids[i], i);
	}
	/* a hash key: two stacks that collide on all 64 bits share an id */
	iid = intern(s, s->stacks, (uintptr_t)h, (uintptr_t)n, s->ids[0], &fresh);
	if (fresh) {
		m = pbw_begin(&s->data, PF_ID_CALLSTACKS);
		pbw_uint(&s->data, 1, iid);
		for (i = 0; i < n; i++)			/* repeated, not packed, as Perfetto reads it */
			pbw_uint(&s->data, 2, s->ids[i]);
		pbw_end(&s->data, m);
	}
	return iid;
}

/* room for the event's frames; false without memory */
static bool room(struct pft_stacks *s, size_t need)
{
	struct srep_frame *f;
	uint64_t *ids;

	if (need <= s->cap)
		return true;
	f = realloc(s->buf, need * sizeof(*f));
	if (f)
		s->buf = f;
	ids = f ? realloc(s->ids, need * sizeof(*ids)) : NULL;
	if (ids)
		s->ids = ids;
	if (!f || !ids)
		return false;
	s->cap = need;
	return true;
}

void pft_stack_sample(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	size_t need = (size_t)ev->nr_callchain + SREP_UNWIND_MAX + 1, n, m;
	struct pft_stacks *s = p->stacks;
	uint64_t stack;

	if (!s && !(s = p->stacks = stacks_new())) {
		p->nomem = true;
		return;
	}
	if (!room(s, need)) {
		p->nomem = true;
		return;
	}
	n = srep_symbolizer__callchain(p->ctx->symbols, ev, s->buf, s->cap);
	if (!n)
		return;
	if (n > STACK_SLOTS / 8)	/* a stack fits a cleared table: keep its innermost */
		n = STACK_SLOTS / 8;
	if (s->used + 4 * n + 1 > STACK_SLOTS / 2)	/* each frame makes at most four */
		clear_tables(s);
	pbw_reset(&s->data);
	stack = callstack_of(s, s->buf, n);
	pft_packet_begin(p, ev->time);
	pbw_uint(&p->pkt, PF_PKT_SEQ_FLAGS,
		 SEQ_NEEDS_INCREMENTAL | (s->clear ? SEQ_INCREMENTAL_CLEARED : 0));
	s->clear = false;
	if (s->data.len)
		pbw_bytes(&p->pkt, PF_PKT_INTERNED_DATA, s->data.buf, s->data.len);
	m = pbw_begin(&p->pkt, PF_PKT_PERF_SAMPLE);
	pbw_uint(&p->pkt, 1, (uint64_t)cpu);
	pbw_uint(&p->pkt, 2, (uint64_t)(uint32_t)ev->pid);
	pbw_uint(&p->pkt, 3, (uint64_t)(uint32_t)ev->tid);
	pbw_uint(&p->pkt, 4, stack);
	pbw_uint(&p->pkt, 5, s->buf[0].mode == SREP_FRAME_KERNEL ? CPU_MODE_KERNEL : CPU_MODE_USER);
	pbw_end(&p->pkt, m);
	if (s->data.nomem)
		p->nomem = true;
	pft_packet_end(p);
}
