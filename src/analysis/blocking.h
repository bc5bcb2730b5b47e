/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocking.h - where tasks block, private to src/: time asleep per blocking
 * site, a site being the pair (kernel function slept in, first named user
 * frame) of a switch-out's callchain, both as srep_frame__label() names
 * them. metrics.c decides when a sleep starts and ends (docs/compare.md);
 * this file keeps the sites and the per-task sums.
 *
 * Memory is bounded: a trace has at most BLK_MAX_SITES sites and a task at
 * most BLK_MAX_PER_TASK; sleeps beyond go to site 0, "(other)".
 */
#ifndef SREP_BLOCKING_H
#define SREP_BLOCKING_H

#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>

#define BLK_MAX_SITES		65536	/* distinct sites per trace */
#define BLK_MAX_PER_TASK	64	/* distinct sites per task */
#define BLK_OTHER		0	/* the site of what did not fit */
#define BLK_OTHER_NAME		"(other)"
#define BLK_NONE		UINT32_MAX

/* the sites of a trace: interned label pairs */
struct blocking_table {
	struct blocking_site {
		char *kernel, *user;	/* NULL: that side unknown */
		uint64_t hash;
	} *sites;
	uint32_t nr;
	size_t cap;
	uint32_t *slots;		/* open addressing: site index + 1, 0 empty */
	size_t nr_slots;
};

/* one task's sums, per site */
struct blocking_task {
	struct blocking_entry {
		uint32_t site;
		uint64_t ns, count;
	} *v;
	uint32_t nr;
	size_t cap;
	uint32_t open;			/* entry of the sleep in progress, BLK_NONE none */
};

void blocking_table_free(struct blocking_table *t);
void blocking_task_free(struct blocking_task *bt);

/*
 * A sleep starts at a switch-out that blocked in (kernel, user) (either
 * NULL when unknown): counted now, its time added by blocking_sleep_end().
 * Returns 0 or SREP_E_NOMEM.
 */
int blocking_sleep_start(struct blocking_table *t, struct blocking_task *bt, const char *kernel,
			 const char *user);
/* the sleep in progress (if any) lasted 'ns' */
void blocking_sleep_end(struct blocking_task *bt, uint64_t ns);
/* the sleep in progress (if any) is not one: the task was seen running again */
void blocking_sleep_drop(struct blocking_task *bt);

/*
 * The sites of 'nr' tasks summed, most time first (then most sleeps, then
 * by name); the first 'max' into 'out'. Returns how many sites there are,
 * or (size_t)-1 when out of memory.
 */
size_t blocking_collect(const struct blocking_table *t, const struct blocking_task *const *tasks, size_t nr,
			struct srep_block_site *out, size_t max);

#endif /* SREP_BLOCKING_H */
