// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unwind.c - user frames that the recorded callchain lacks, found the way
 * the target's perf found them, from the user registers and stack a sample
 * carries (dso.c unwinds with libdw; this file hands it the registers
 * and the process's mappings):
 *  - --call-graph dwarf samples: the kernel records kernel frames only;
 *    the user stack copy is unwound from the sampled registers;
 *  - perf -g on arm64 (perf 6.1 samples the link register alone): the
 *    caller of the first user frame, which frame pointers miss when that
 *    frame is a leaf, is unwound one step from the link register
 *    (perf's get_leaf_frame_caller_aarch64()).
 * perf builds a Dwfl per stack, reopening every module and parsing its CFI
 * again each time; here each process keeps its unwinder (a few, the least
 * recently used goes) until its mappings change.
 */
#include <stdlib.h>
#include <string.h>

#include "symbolizer.h"

#define EM_AARCH64_	183
#define ARM64_LR_BIT	(1ull << 30)

struct sym_unwinder {
	struct srep_symbolizer *sy;
	int32_t pid;
	uint64_t last_use;
	struct dso_unwind_ops ops;	/* the unwinder keeps a pointer to it */
	struct dso_unwinder *uw;
};

static bool module_at(void *arg, uint64_t addr, const char **path, uint64_t *base,
		      uint64_t *file_off)
{
	struct sym_unwinder *c = arg;
	const struct map_entry *m = maps_find(&c->sy->maps, c->pid, addr);
	struct sym_dso *d;

	if (!m)
		return false;
	d = c->sy->dsos[m->dso];
	if (d->state == SREP_MODULE_UNUSED && !d->kernel)
		symbolizer_load_dso(c->sy, d);
	*path = d->state == SREP_MODULE_FOUND ? d->host_path : NULL;
	*base = m->start - m->pgoff;
	*file_off = addr - m->start + m->pgoff;
	return true;
}

static void drop(struct sym_unwinder *c)
{
	dso_unwinder_free(c->uw);
	free(c);
}

void unwind_forget(struct srep_symbolizer *sy, int32_t pid)
{
	size_t i;

	for (i = 0; i < SYM_MAX_UNWINDERS; i++) {
		if (sy->unwinders[i] && (sy->unwinders[i]->pid == pid || pid == -1)) {
			drop(sy->unwinders[i]);
			sy->unwinders[i] = NULL;
		}
	}
}

/* the process's unwinder: kept, or new in a free or the least recently used slot */
static struct dso_unwinder *unwinder_of(struct srep_symbolizer *sy, int32_t pid)
{
	struct sym_unwinder *c;
	size_t i, slot = 0;

	for (i = 0; i < SYM_MAX_UNWINDERS; i++) {
		c = sy->unwinders[i];
		if (c && c->pid == pid) {
			c->last_use = ++sy->unwind_clock;
			return c->uw;
		}
		if (!c || (sy->unwinders[slot] && c->last_use < sy->unwinders[slot]->last_use))
			slot = i;
	}
	if (sy->unwinders[slot])
		drop(sy->unwinders[slot]);
	sy->unwinders[slot] = c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	*c = (struct sym_unwinder){ .sy = sy, .pid = pid, .last_use = ++sy->unwind_clock,
				    .ops = { module_at, c } };
	c->uw = dso_unwinder_new(&c->ops);
	if (!c->uw) {
		free(c);
		sy->unwinders[slot] = NULL;
		return NULL;
	}
	return c->uw;
}

/* the event's registers for the unwinder; false when it has none it can use */
static bool regs_of(const struct srep_symbolizer *sy, const struct srep_event *ev,
		    struct dso_unwind_in *in, unsigned *machine)
{
	struct unwind_regs_in ri = { ev->user_regs_abi, ev->user_regs_mask, ev->user_regs,
				     ev->nr_user_regs };

	memset(in, 0, sizeof(*in));
	*machine = regs_machine(srep_session__meta(sy->s)->arch, ev->user_regs_abi);
	if (!ev->user_regs_abi || !regs_to_dwarf(*machine, &ri, &in->regs))
		return false;
	in->big_endian = srep_session__meta(sy->s)->big_endian;
	return true;
}

size_t unwind_user(struct srep_symbolizer *sy, const struct srep_event *ev,
		   uint64_t *pcs, size_t max)
{
	struct dso_unwinder *uw;
	struct dso_unwind_in in;
	unsigned machine;

	/* perf unwinds nothing when the kernel could not copy the stack */
	if (!ev->user_stack || !ev->user_stack_size || !regs_of(sy, ev, &in, &machine))
		return 0;
	uw = unwinder_of(sy, ev->pid);
	if (!uw)
		return 0;
	in.stack = ev->user_stack;
	in.stack_size = ev->user_stack_size;
	return dso_unwind(uw, &in, pcs, max);
}

uint64_t unwind_leaf_caller(struct srep_symbolizer *sy, const struct srep_event *ev,
			    uint64_t first_user_ip)
{
	struct dso_unwinder *uw;
	struct dso_unwind_in in;
	uint64_t pcs[2];
	unsigned machine;

	if (ev->user_regs_mask != ARM64_LR_BIT || !regs_of(sy, ev, &in, &machine) ||
	    machine != EM_AARCH64_)
		return 0;
	uw = unwinder_of(sy, ev->pid);
	if (!uw)
		return 0;
	/* perf: the PC is the callchain's first user entry, SP 0, no stack */
	in.regs.pc = in.regs.ip = first_user_ip;
	return dso_unwind(uw, &in, pcs, 2) == 2 ? pcs[1] : 0;
}
