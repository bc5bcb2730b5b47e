/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ff_local.h - what the fast-forward modules share. Never included outside
 * fastforward/ (the CLI sees fastforward.h only).
 */
#ifndef SREP_FF_LOCAL_H
#define SREP_FF_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastforward.h"
#include "record.h"

/* ---- counter.c: the one counter on the workload ---- */

struct ff_counter {
	int fd;				/* -1: not open */
	struct srep_rec_counter c;
	char name[64];			/* as asked, for messages */
};

/* open on the held child 'pid', disabled until its exec; overflow raises SIGIO */
int counter_open(struct ff_counter *k, const char *event, int pid, bool inherit,
		 uint64_t period, struct srep_error *err);
int counter_read(const struct ff_counter *k, uint64_t *value, struct srep_error *err);
/* the next overflow 'period' from now (the task's own counter) */
int counter_set_period(const struct ff_counter *k, uint64_t period, struct srep_error *err);
int counter_enable(const struct ff_counter *k, struct srep_error *err);
int counter_disable(const struct ff_counter *k, struct srep_error *err);
void counter_close(struct ff_counter *k);

/* ---- tree.c: stopping and resuming the workload's process tree ---- */

struct ff_tree {
	int *pids;			/* processes stopped by the last tree_stop */
	size_t nr, cap;
	unsigned nr_threads;
};

/*
 * SIGSTOP every process descending from 'root' (or orphaned to us, the
 * subreaper) and wait until each of their threads is stopped. Processes
 * that exit meanwhile are dropped. On error the tree is resumed.
 */
int tree_stop(struct ff_tree *t, int root, struct srep_error *err);
void tree_resume(const struct ff_tree *t);
void tree_kill(const struct ff_tree *t);
void tree_free(struct ff_tree *t);

#endif /* SREP_FF_LOCAL_H */
