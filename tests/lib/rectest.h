/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rectest.h - helpers for the recorder's Check suites: an evlist over the
 * tracefs copy in tests/data/tracefs with made-up ids (id = 1000 + 16 *
 * event + CPU), and builders for the records the kernel writes for it
 * (sample_type IP|TID|TIME|CPU|PERIOD|RAW|IDENTIFIER, sample_id_all). Tracepoint
 * payloads name task N "taskN".
 */
#ifndef SREP_TESTS_RECTEST_H
#define SREP_TESTS_RECTEST_H

#include "rec_local.h"

#define RT_TRACEFS SREP_TOP_SRCDIR "/tests/data/tracefs"
#define RT_NR_CPUS 2

/* sched_switch and sched_wakeup, or (waking_only) sched_waking and sched_wakeup_new as
 * the default set has them; and the dummy. Returns 0 */
int rt_evlist(struct rec_evlist *el, bool waking_only);
int rt_event(const struct rec_evlist *el, const char *name);	/* index, -1 none */
uint64_t rt_id(const struct rec_evlist *el, int idx, int cpu);

void rt_switch(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu,
	       int32_t prev, int32_t next);
/* sched_wakeup, or sched_waking when the evlist has only that */
void rt_wakeup(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu, int32_t tid);
void rt_comm(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu, int32_t pid,
	     const char *comm);
void rt_lost(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu, uint64_t lost);

/* a file-mode perf.data of these records, in one round */
void rt_write(const char *path, const struct rec_evlist *el, const struct rec_buf *records);
/* walk records: returns the next record's offset, or 0 at the end */
size_t rt_next(const struct rec_buf *b, size_t off);

#endif
