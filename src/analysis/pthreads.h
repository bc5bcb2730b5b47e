/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pthreads.h - threads as perf's machine keeps them (util/machine.c read,
 * not copied): found or created by tid, named by COMM records, children
 * named after their parent at the fork, a tid forked again starting a new
 * thread. Shared by the perf-style analyses (latency.c, timehist.c,
 * schedmap.c) and behind srep_perf_threads.
 */
#ifndef SREP_PTHREADS_H
#define SREP_PTHREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>

/* one perf thread; 'index' numbers them in creation order, for side arrays */
struct pthread {
	int32_t tid, pid, ppid;		/* pid -1 until known; ppid -1 unless forked */
	bool comm_set;			/* named by a record (else ":TID") */
	bool dead;			/* an EXIT record was seen */
	bool removed;			/* no longer in perf's table: replaced (fork) or exited (6.12) */
	bool comm_changed;		/* a COMM record named it since the flag was cleared (map) */
	bool lazy;			/* made from the session's fork facts (pt_new), no FORK event yet */
	char comm[SREP_COMM_MAX];
};

struct srep_perf_threads {
	const struct srep_session *s;	/* its task table knows the forks it swallowed */
	struct pthread *v;
	size_t nr, cap;
	bool exit_removes;		/* perf 6.12 forgets a thread at its EXIT record */
	int32_t *keys;			/* open addressing: tid -> index + 1 of the newest thread */
	uint32_t *vals;
	size_t slots, used;
};

/*
 * perf's machine__findnew_thread(pid, tid): the live thread of @tid, its pid
 * set if it had none, or a new one. Returns its index, or -1 without memory.
 */
long pt_findnew(struct srep_perf_threads *pt, int32_t pid, int32_t tid);
/* the live thread of @tid, -1 if none */
long pt_find(const struct srep_perf_threads *pt, int32_t tid);

static inline struct pthread *pt_at(const struct srep_perf_threads *pt, size_t idx)
{
	return &pt->v[idx];
}

/* @exit_removes: EXIT records remove the thread (perf 6.12's timehist and script) */
void pt_init(struct srep_perf_threads *pt, const struct srep_session *s, bool exit_removes);
void pt_free(struct srep_perf_threads *pt);
/* the events perf's machine follows; 0 or SREP_E_NOMEM */
int pt_event(struct srep_perf_threads *pt, const struct srep_event *ev, struct srep_error *err);

/*
 * Grow a side array of @elem-byte entries, zeroed, to cover thread @idx:
 * 0, or -1 without memory (the array is then unchanged).
 */
int pt_side_grow(void **v, size_t *cap, size_t idx, size_t elem);

/* ---- the filters every perf-style analysis takes (struct srep_perf_filter) ---- */

static inline bool pf_time_ok(const struct srep_perf_filter *f, uint64_t t)
{
	return !(f->from || f->to) || (t >= f->from && t <= f->to);
}

static inline bool pf_cpu_ok(const struct srep_perf_filter *f, int32_t cpu)
{
	return !f->cpus || (cpu >= 0 && (size_t)cpu < f->nr_cpus && f->cpus[cpu]);
}

static inline bool pf_tid_ok(const struct srep_perf_filter *f, int32_t tid)
{
	return !f->sel || srep_selection__has_tid(f->sel, tid);
}

/* the session records sched:sched_waking (perf 6.12 then ignores sched_wakeup) */
bool pf_has_waking(const struct srep_session *s);

#endif /* SREP_PTHREADS_H */
