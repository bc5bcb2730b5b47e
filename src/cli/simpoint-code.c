// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint-code.c - names the code of each sample for "schedrep simpoint".
 *
 * Without branch stacks a sample names one function (or address block).
 * With them (perf record -b: LBR, BRBE) it shows the basic blocks that ran
 * just before it: between the target of one taken branch and the source of
 * the next, the code ran straight through. Each block is named by its start
 * (module and file offset, the same in every run whatever ASLR did) and
 * weighted by its length in bytes: instructions times their width, which
 * is fixed on arm64, s390x and most RISC (so the weights are exact there)
 * and an average on x86. The count of the sample is shared in proportion,
 * as SimPoint weights a block by the instructions it executed.
 */
#include <inttypes.h>
#include <stdio.h>

#include "simpoint-code.h"

/* longer straight-line code means the entries do not chain (a stack cut by an interrupt) */
#define SP_BLOCK_MAX_BYTES 4096

/* "MODULE+0xOFFSET" of the module holding @addr (user, then kernel), else "0xADDR" */
static const char *addr_key(struct srep_symbolizer *sy, int32_t pid, uint64_t addr,
			    uint64_t block, bool functions, char *buf, size_t size)
{
	struct srep_frame fr = { 0 };
	int got = 0;

	if (sy) {
		got = srep_symbolizer__resolve(sy, pid, SREP_FRAME_USER, addr, &fr);
		if (!fr.module)
			got = srep_symbolizer__resolve(sy, pid, SREP_FRAME_KERNEL, addr, &fr);
	}
	if (got > 0 && functions && fr.module)
		snprintf(buf, size, "%s:%s", fr.module, fr.symbol);
	else if (fr.module)
		snprintf(buf, size, "%s+0x%" PRIx64, fr.module, fr.module_addr & ~(block - 1));
	else
		snprintf(buf, size, "0x%" PRIx64, addr & ~(block - 1));
	return buf;
}

const char *sp_sample_key(struct srep_symbolizer *sy, const struct srep_event *ev,
			  uint64_t block, bool functions, char *buf, size_t size)
{
	return addr_key(sy, ev->pid, ev->ip, block, functions, buf, size);
}

/* the block [start, end] if it is one: in order and not too long */
static void add_block(struct sp_blocks *b, struct srep_symbolizer *sy, int32_t pid,
		      uint64_t start, uint64_t end)
{
	if (b->n == SP_BLOCKS_MAX || end < start || end - start >= SP_BLOCK_MAX_BYTES)
		return;
	b->keys[b->n] = addr_key(sy, pid, start, 1, false, b->names[b->n], SP_KEY_MAX);
	b->weights[b->n++] = end - start + 1;
}

size_t sp_blocks_of(struct sp_blocks *b, struct srep_symbolizer *sy, const struct srep_event *ev)
{
	const struct srep_branch *br = ev->branches;
	uint32_t i;

	b->n = 0;
	if (!ev->nr_branches)
		return 0;
	/* the newest: from the last branch's target to the sampled instruction */
	add_block(b, sy, ev->pid, br[0].to, ev->ip);
	for (i = 1; i < ev->nr_branches; i++)
		add_block(b, sy, ev->pid, br[i].to, br[i - 1].from);
	return b->n;
}
