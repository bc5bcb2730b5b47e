/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simpoint-code.h - the code a sample of "schedrep simpoint" stands for: its
 * function or address block, or the basic blocks of its branch stack.
 */
#ifndef SREP_SIMPOINT_CODE_H
#define SREP_SIMPOINT_CODE_H

#include "cli.h"

#define SP_KEY_MAX	512
#define SP_BLOCKS_MAX	64	/* blocks per branch stack: deeper stacks keep their newest */

/*
 * The dimension of the sampled address: "MODULE:FUNCTION" when a symbol
 * resolves and @functions, else "MODULE+0xBLOCK" (file offset aligned to
 * @block), else "0xBLOCK" where no mapping covers it
 */
const char *sp_sample_key(struct srep_symbolizer *sy, const struct srep_event *ev,
			  uint64_t block, bool functions, char *buf, size_t size);

/* a branch stack's basic blocks: names and sizes, for srep_simpoint__add_parts() */
struct sp_blocks {
	size_t n;
	const char *keys[SP_BLOCKS_MAX];
	uint64_t weights[SP_BLOCKS_MAX];
	char names[SP_BLOCKS_MAX][SP_KEY_MAX];
};

/* the blocks of @ev's branch stack that chain (0: none, use the sample's key) */
size_t sp_blocks_of(struct sp_blocks *b, struct srep_symbolizer *sy, const struct srep_event *ev);

#endif /* SREP_SIMPOINT_CODE_H */
