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
	uint32_t gen;			/* > 0, changes with comm or pid: text made of them can be kept */
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

/* the slot holding @tid, or the empty slot where it would go (pt->slots > 0) */
static inline size_t pt_probe(const struct srep_perf_threads *pt, int32_t tid)
{
	size_t mask = pt->slots - 1, i = ((uint32_t)tid * 2654435761u) & mask;

	while (pt->vals[i] && pt->keys[i] != tid)
		i = (i + 1) & mask;
	return i;
}

/* the live thread of @tid, -1 if none; inline: every event of an analysis asks */
static inline long pt_find(const struct srep_perf_threads *pt, int32_t tid)
{
	size_t i;

	if (!pt->slots)
		return -1;
	i = pt_probe(pt, tid);
	if (!pt->vals[i] || pt->v[pt->vals[i] - 1].removed)
		return -1;
	return (long)pt->vals[i] - 1;
}

/* pt_findnew's other cases: a new thread (-1 without memory), or the pid learnt */
long pt_findnew_slow(struct srep_perf_threads *pt, long idx, int32_t pid, int32_t tid);

/*
 * perf's machine__findnew_thread(pid, tid): the live thread of @tid, its pid
 * set if it had none, or a new one. Returns its index, or -1 without memory.
 */
static inline long pt_findnew(struct srep_perf_threads *pt, int32_t pid, int32_t tid)
{
	long idx = pt_find(pt, tid);

	if (idx >= 0 && (pid == -1 || pt->v[idx].pid != -1))
		return idx;
	return pt_findnew_slow(pt, idx, pid, tid);
}

static inline struct pthread *pt_at(const struct srep_perf_threads *pt, size_t idx)
{
	return &pt->v[idx];
}

/* @exit_removes: EXIT records remove the thread (perf 6.12's timehist and script) */
void pt_init(struct srep_perf_threads *pt, const struct srep_session *s, bool exit_removes);
void pt_free(struct srep_perf_threads *pt);
/* pt_event for the kinds it follows */
int pt_event_slow(struct srep_perf_threads *pt, const struct srep_event *ev,
		  struct srep_error *err);

/*
 * The events perf's machine follows; 0 or SREP_E_NOMEM. Inline: most events
 * (switches, wakeups, runtime) are none of them and cost a compare.
 */
static inline int pt_event(struct srep_perf_threads *pt, const struct srep_event *ev,
			   struct srep_error *err)
{
	switch (ev->kind) {
	case SREP_EV_FORK:
	case SREP_EV_COMM:
	case SREP_EV_EXEC:
	case SREP_EV_EXIT:
		return pt_event_slow(pt, ev, err);
	default:
		return 0;
	}
}

/* pt_side_grow when @idx is beyond *cap */
int pt_side_grow_slow(void **v, size_t *cap, size_t idx, size_t elem);

/*
 * Grow a side array of @elem-byte entries, zeroed, to cover thread @idx:
 * 0, or -1 without memory (the array is then unchanged).
 */
static inline int pt_side_grow(void **v, size_t *cap, size_t idx, size_t elem)
{
	return idx < *cap ? 0 : pt_side_grow_slow(v, cap, idx, elem);
}

/*
 * On the work of the events an analysis uses: kept out of the per-event
 * function, so that the events it returns early for (most) do not pay the
 * register saves the inlined work would need
 */
#define PT_OUT_OF_LINE __attribute__((noinline))

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
