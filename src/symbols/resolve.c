// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resolve.c - callchain frames to module, symbol, offset and source line,
 * with a cache per (module, address).
 *
 * The mode of a frame comes from the callchain's context markers only: on
 * s390x the kernel and user address spaces overlap, so an address alone
 * cannot say. Before any marker a frame is taken as user space, as perf
 * does. Kernel frames are looked up in the vmlinux, then in kallsyms; user
 * frames through the process's mappings at that moment, in the module's
 * ELF file. Every answer, unresolved ones included, is cached by module
 * and file offset, so a frame seen again costs one hash probe: blocking
 * callchains repeat the same few addresses thousands of times.
 */
#include <stdlib.h>
#include <string.h>

#include "symbolizer.h"
#include "grow.h"

#define NO_DSO UINT32_MAX

/* ---- the cache ---- */

static size_t cache_hash(uint32_t dso, uint64_t addr, size_t slots)
{
	uint64_t h = (addr ^ ((uint64_t)dso << 40)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 31)) & (slots - 1);
}

/* the slot holding (dso, addr), or the empty slot where it would go */
static struct sym_cached *cache_slot(const struct srep_symbolizer *sy, uint32_t dso,
				     uint64_t addr)
{
	size_t i;

	if (!sy->cache_slots)
		return NULL;
	for (i = cache_hash(dso, addr, sy->cache_slots); sy->cache[i].dso;
	     i = (i + 1) & (sy->cache_slots - 1)) {
		if (sy->cache[i].dso == dso + 1 && sy->cache[i].addr == addr)
			break;
	}
	return &sy->cache[i];
}

static int cache_grow(struct srep_symbolizer *sy)
{
	size_t n = sy->cache_slots ? sy->cache_slots * 2 : 4096, i, j;
	struct sym_cached *c;

	if (n > SYM_MAX_CACHE) {
		/* bounded: start over rather than grow without end */
		memset(sy->cache, 0, sy->cache_slots * sizeof(*sy->cache));
		sy->cache_used = 0;
		return 0;
	}
	c = calloc(n, sizeof(*c));
	if (!c)
		return SREP_E_NOMEM;
	for (i = 0; i < sy->cache_slots; i++) {
		if (!sy->cache[i].dso)
			continue;
		for (j = cache_hash(sy->cache[i].dso - 1, sy->cache[i].addr, n); c[j].dso;
		     j = (j + 1) & (n - 1))
			;
		c[j] = sy->cache[i];
	}
	free(sy->cache);
	sy->cache = c;
	sy->cache_slots = n;
	return 0;
}

static void cache_put(struct srep_symbolizer *sy, const struct sym_cached *c)
{
	struct sym_cached *slot;

	/* at most half full; without memory the answer is just not kept */
	if (2 * (sy->cache_used + 1) > sy->cache_slots && cache_grow(sy))
		return;
	slot = cache_slot(sy, c->dso - 1, c->addr);
	if (!slot->dso)
		sy->cache_used++;
	*slot = *c;
}

/* ---- lookups ---- */

static void lookup_kernel(struct srep_symbolizer *sy, uint64_t addr, struct sym_cached *c)
{
	const struct sym_entry *e = NULL;
	uint64_t v;
	int line = 0;

	if (!sy->kernel_loaded)
		symkernel_load(sy);
	v = addr - sy->vmlinux_reloc;
	if (sy->vmlinux && (e = dso_find(sy->vmlinux, v)) != NULL) {
		c->symbol = e->name;
		c->symbol_offset = v - e->start;
		if (sy->lines && dso_srcline(sy->vmlinux, v, &c->file, &line))
			c->line = (uint32_t)line;
		return;
	}
	if (sy->have_ksyms && (e = symtab_find(&sy->ksyms.tab, addr)) != NULL) {
		c->symbol = e->name;
		c->symbol_offset = addr - e->start;
		if (e->module)
			c->module = e->module;
	}
}

static void lookup_user(struct srep_symbolizer *sy, struct sym_dso *d, uint64_t off,
			struct sym_cached *c)
{
	const struct sym_entry *e;
	uint64_t v;
	int line = 0;

	if (d->state == SREP_MODULE_UNUSED)
		symbolizer_load_dso(sy, d);
	if (!d->elf || !dso_vaddr(d->elf, off, &v))
		return;
	e = dso_find(d->elf, v);
	if (e) {
		c->symbol = e->name;
		c->symbol_offset = v - e->start;
	}
	if (sy->lines && dso_srcline(d->elf, v, &c->file, &line))
		c->line = (uint32_t)line;
}

static void fill(struct srep_frame *out, const struct sym_cached *c)
{
	out->module = c->module;
	out->symbol = c->symbol;
	out->symbol_offset = c->symbol_offset;
	out->file = c->file;
	out->line = c->file ? c->line : 0;
}

static void fill_cached(struct srep_symbolizer *sy, struct srep_frame *out,
			const struct sym_cached *slot)
{
	sy->stats.cache_hits++;
	fill(out, slot);
}

/*
 * Kernel frames are cached by address alone (one kernel): the cache is
 * asked before the kernel maps; user frames need their process's mapping
 * first, as an address means another file in another process.
 */
static int resolve(struct srep_symbolizer *sy, int32_t pid, enum srep_frame_mode mode,
		   uint64_t addr, struct srep_frame *out, uint32_t *dso_out)
{
	const struct map_entry *m = NULL;
	struct sym_cached *slot, c;
	uint64_t key = addr;
	uint32_t dso = SYM_KERNEL_DSO;

	memset(out, 0, sizeof(*out));
	out->addr = out->module_addr = addr;
	out->mode = mode;
	*dso_out = NO_DSO;
	if (mode == SREP_FRAME_KERNEL) {
		slot = cache_slot(sy, SYM_KERNEL_DSO, key);
		if (slot && slot->dso) {
			*dso_out = slot->map_dso;
			fill_cached(sy, out, slot);
			return out->symbol != NULL;
		}
		m = maps_find(&sy->maps, -1, addr);
		dso = m ? m->dso : SYM_KERNEL_DSO;
	} else if (mode == SREP_FRAME_USER && (m = maps_find(&sy->maps, pid, addr)) != NULL) {
		dso = m->dso;
		key = out->module_addr = addr - m->start + m->pgoff;
		slot = cache_slot(sy, dso, key);
		if (slot && slot->dso) {
			*dso_out = dso;
			fill_cached(sy, out, slot);
			return out->symbol != NULL;
		}
	} else {
		return 0;	/* guest or hypervisor frames, or no mapping */
	}
	*dso_out = dso;
	sy->stats.cache_misses++;
	memset(&c, 0, sizeof(c));
	c.dso = (mode == SREP_FRAME_KERNEL ? SYM_KERNEL_DSO : dso) + 1;
	c.map_dso = dso;
	c.addr = key;
	c.module = sy->dsos[dso]->name;
	if (mode == SREP_FRAME_KERNEL)
		lookup_kernel(sy, addr, &c);
	else
		lookup_user(sy, sy->dsos[dso], key, &c);
	cache_put(sy, &c);
	fill(out, &c);
	return out->symbol != NULL;
}

int srep_symbolizer__resolve(struct srep_symbolizer *sy, int32_t pid,
			     enum srep_frame_mode mode, uint64_t addr, struct srep_frame *out)
{
	uint32_t dso;

	return resolve(sy, pid, mode, addr, out, &dso);
}

/* ---- callchains ---- */

static enum srep_frame_mode marker_mode(uint64_t marker, enum srep_frame_mode mode)
{
	switch (marker) {
	case SREP_CONTEXT_HV:		return SREP_FRAME_HV;
	case SREP_CONTEXT_KERNEL:	return SREP_FRAME_KERNEL;
	case SREP_CONTEXT_USER:		return SREP_FRAME_USER;
	case SREP_CONTEXT_GUEST:
	case SREP_CONTEXT_GUEST_KERNEL:	return SREP_FRAME_GUEST_KERNEL;
	case SREP_CONTEXT_GUEST_USER:	return SREP_FRAME_GUEST_USER;
	default:			return mode;	/* a marker this reader does not know */
	}
}

static void count(struct srep_symbolizer *sy, enum srep_frame_mode mode, int ok, uint32_t dso)
{
	struct srep_symbol_stats *st = &sy->stats;

	st->frames++;
	st->resolved += ok != 0;
	if (mode == SREP_FRAME_KERNEL) {
		st->kernel_frames++;
		st->kernel_resolved += ok != 0;
	} else if (mode == SREP_FRAME_USER) {
		st->user_frames++;
		st->user_resolved += ok != 0;
		st->unmapped += dso == NO_DSO;
	}
	if (dso != NO_DSO) {
		sy->dsos[dso]->frames++;
		sy->dsos[dso]->resolved += ok != 0;
	}
}

static int raw_push(struct srep_symbolizer *sy, enum srep_frame_mode mode, uint64_t addr)
{
	struct sym_raw *n = grow_array(sy->raw, &sy->cap_raw, sy->nr_raw, sizeof(*n), 256);

	if (!n)
		return SREP_E_NOMEM;
	sy->raw = n;
	sy->raw[sy->nr_raw++] = (struct sym_raw){ addr, mode };
	return 0;
}

/* the next recorded entry that is a frame, 0 if none */
static uint64_t next_ip(const struct srep_event *ev, uint32_t i)
{
	for (i++; i < ev->nr_callchain; i++) {
		if (ev->callchain[i] < SREP_CONTEXT_MAX)
			return ev->callchain[i];
	}
	return 0;
}

/* the recorded frames, arm64's leaf caller after the first user frame */
static void raw_recorded(struct srep_symbolizer *sy, const struct srep_event *ev)
{
	enum srep_frame_mode mode = SREP_FRAME_USER;
	bool first_user = true;
	uint64_t leaf;
	uint32_t i;

	for (i = 0; i < ev->nr_callchain; i++) {
		if (ev->callchain[i] >= SREP_CONTEXT_MAX) {
			mode = marker_mode(ev->callchain[i], mode);
			continue;
		}
		if (raw_push(sy, mode, ev->callchain[i]))
			return;
		if (mode != SREP_FRAME_USER || !first_user)
			continue;
		first_user = false;
		leaf = unwind_leaf_caller(sy, ev, ev->callchain[i]);
		if (leaf && leaf != next_ip(ev, i))
			raw_push(sy, SREP_FRAME_USER, leaf);
	}
}

/*
 * The event's frames before resolution, innermost first: the recorded
 * ones, then the user stack unwound (--call-graph dwarf). Kept for the
 * event last asked about: callchain and blocked_in on one event unwind once.
 */
static void raw_frames(struct srep_symbolizer *sy, const struct srep_event *ev)
{
	uint64_t pcs[SREP_UNWIND_MAX];
	size_t i, n;

	/* the session reuses its event and buffers: the same event matches on all of these */
	if (sy->raw_ev == ev && sy->raw_time == ev->time && sy->raw_tid == ev->tid &&
	    sy->raw_kind == ev->kind && sy->raw_nr == ev->nr_callchain &&
	    sy->raw_chain == ev->callchain && sy->raw_stack == ev->user_stack)
		return;
	sy->raw_ev = ev;
	sy->raw_time = ev->time;
	sy->raw_tid = ev->tid;
	sy->raw_kind = ev->kind;
	sy->raw_nr = ev->nr_callchain;
	sy->raw_chain = ev->callchain;
	sy->raw_stack = ev->user_stack;
	sy->nr_raw = 0;
	raw_recorded(sy, ev);
	n = ev->user_stack ? unwind_user(sy, ev, pcs, SREP_UNWIND_MAX) : 0;
	sy->stats.dwarf_unwound += n > 0;
	for (i = 0; i < n; i++)
		raw_push(sy, SREP_FRAME_USER, pcs[i]);
}

size_t srep_symbolizer__callchain(struct srep_symbolizer *sy, const struct srep_event *ev,
				  struct srep_frame *frames, size_t max)
{
	size_t n, i;
	uint32_t dso;
	int ok;

	raw_frames(sy, ev);
	n = sy->nr_raw < max ? sy->nr_raw : max;
	for (i = 0; i < n; i++) {
		ok = resolve(sy, ev->pid, sy->raw[i].mode, sy->raw[i].addr, &frames[i], &dso);
		count(sy, sy->raw[i].mode, ok, dso);
	}
	sy->stats.callchains++;
	return n;
}

/* the scheduler's own functions: where every switch-out is, not why */
static bool sched_function(const char *name)
{
	static const char *const prefixes[] = { "__schedule", "schedule", "preempt_schedule",
						"io_schedule", "__cond_resched", "_cond_resched" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	}
	return false;
}

/*
 * The user side is the first user frame with a name: the first one is often
 * a libc internal whose symbol only the stripped-away .symtab had (the
 * futex wait under pthread_mutex_lock), which says less than its caller.
 */
int srep_symbolizer__blocked_in(struct srep_symbolizer *sy, const struct srep_event *ev,
				struct srep_frame *kernel, struct srep_frame *user)
{
	struct srep_frame f;
	bool any_user = false;
	int found = 0;
	uint32_t dso;
	size_t i;

	raw_frames(sy, ev);
	for (i = 0; i < sy->nr_raw && found != (SREP_BLOCKED_KERNEL | SREP_BLOCKED_USER); i++) {
		if (sy->raw[i].mode == SREP_FRAME_KERNEL && !(found & SREP_BLOCKED_KERNEL)) {
			resolve(sy, ev->pid, SREP_FRAME_KERNEL, sy->raw[i].addr, &f, &dso);
			if (!f.symbol || !sched_function(f.symbol)) {
				*kernel = f;
				found |= SREP_BLOCKED_KERNEL;
			}
		} else if (sy->raw[i].mode == SREP_FRAME_USER && !(found & SREP_BLOCKED_USER)) {
			resolve(sy, ev->pid, SREP_FRAME_USER, sy->raw[i].addr, &f, &dso);
			if (!any_user || f.symbol)
				*user = f;
			any_user = true;
			if (f.symbol)
				found |= SREP_BLOCKED_USER;
		}
	}
	return found | (any_user ? SREP_BLOCKED_USER : 0);
}

/* "0x" and the hex digits of 'v' at 'p' (room for 19 bytes); returns the end */
static char *put_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	*p++ = '0';
	*p++ = 'x';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* without snprintf: the exporters call it for every unresolved blocking frame */
const char *srep_frame__label(const struct srep_frame *f, char *buf, size_t size)
{
	const char *base;
	size_t len;
	char *p;

	if (f->symbol)
		return f->symbol;
	if (size < SREP_FRAME_LABEL_MIN) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	p = buf;
	if (f->module && f->module[0] != '[') {
		base = strrchr(f->module, '/');
		base = base ? base + 1 : f->module;
		len = strlen(base);
		if (len > size - 20)
			len = size - 20;	/* the offset always fits */
		memcpy(p, base, len);
		p += len;
		*p++ = '+';
		p = put_hex(p, f->module_addr);
	} else {
		p = put_hex(p, f->addr);
	}
	*p = '\0';
	return buf;
}
