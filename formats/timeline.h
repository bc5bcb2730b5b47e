/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeline.h - what each task and each CPU is doing, from the event stream:
 * the state machine the timeline exporters (perfetto, svg) share.
 *
 * Switches (tracepoints, or the halves of SWITCH records), wakeups, forks,
 * execs, exits and renames move each task between Running, Runnable and
 * sleeping, and each CPU between a task and nobody. When an interval ends,
 * a hook gets it, with what the exporter shows about it (who woke the task,
 * the state letter, where it blocked: srep_symbolizer__blocked_in() on its
 * switch-out, when the export context has a symbolizer). Only the open interval of
 * each task and CPU is kept: memory grows with tasks and CPUs, not events.
 * Times never go backwards within a task or CPU (late events are clamped).
 * A task that another one replaces on its CPU without a switch-out stops
 * running there (its state unknown until its next event); so does one that
 * exits running on no known CPU (per-task SWITCH records).
 */
#ifndef SREP_TIMELINE_H
#define SREP_TIMELINE_H

#include "exporter.h"

enum tl_state { TL_NONE = 0, TL_RUNNING, TL_RUNNABLE, TL_SLEEPING };

struct tl_task {
	int32_t tid, pid;		/* tid -1: a free slot; pid decided once, at first sight */
	enum tl_state state;
	uint64_t since;			/* start of the open interval */
	int32_t cpu;			/* running: where */
	int32_t prio;			/* running: INT32_MIN unknown */
	bool woken;			/* runnable: by a wakeup (else preempted) */
	int32_t waker, waker_cpu;	/* woken: by whom (0 idle or an interrupt), -1 unknown */
	char waker_comm[SREP_COMM_MAX];
	char letter;			/* sleeping: the state letter (S, D, I, T, t, P, ?) */
	bool exited;
	char comm[SREP_COMM_MAX];	/* as the events last named it, "" not yet */
	/* sleeping: where it blocked (SREP_BLOCKED_* bits; 0 without ctx->symbols) */
	int blocked;
	struct srep_frame blocked_kernel, blocked_user;
};

struct tl_cpu {
	int32_t tid, pid;		/* running there; tid -1 nobody known */
	struct tl_task *task;		/* tid's entry, found once (NULL: not yet) */
	uint64_t since;
	char comm[SREP_COMM_MAX];
	bool seen;
};

struct tl_hooks {
	/* the open interval of 't' ends at 'end' (t->state, t->since say what it was) */
	void (*task_end)(void *arg, const struct tl_task *t, uint64_t end);
	/* 'c->tid' stops running on CPU 'cpu' at 'end' */
	void (*cpu_end)(void *arg, int32_t cpu, const struct tl_cpu *c, uint64_t end);
	/* 'waker' (running since before 'time') woke 'wakee'; NULL hook: not wanted */
	void (*wakeup)(void *arg, const struct tl_task *waker, const struct tl_task *wakee,
		       uint64_t time);
	/* the exporter reads no comm (of a task, a CPU or a waker): none is copied */
	bool unnamed;
};

struct timeline {
	const struct srep_export_ctx *ctx;
	const struct tl_hooks *hooks;
	void *arg;
	struct tl_task *tasks;		/* open addressing on tid */
	size_t nr_slots, nr_tasks;
	struct tl_cpu *cpus;
	size_t nr_cpus;
	bool nomem;			/* a table could not grow: the caller reports it */
};

void tl_init(struct timeline *tl, const struct srep_export_ctx *ctx, const struct tl_hooks *hooks,
	     void *arg);
void tl_free(struct timeline *tl);
/* move the states on by one event (events of every kind are welcome) */
void tl_event(struct timeline *tl, const struct srep_event *ev);
/* a selected task's state, made at first sight; NULL for the idle task, unselected ones, ENOMEM */
struct tl_task *tl_task(struct timeline *tl, int32_t tid, int32_t pid_hint);
/* a task's state if it has one (never made here) */
const struct tl_task *tl_find(const struct timeline *tl, int32_t tid);
/* end every open interval at 'end' */
void tl_finish(struct timeline *tl, uint64_t end);
/* the tasks, by process then thread (malloc'd; NULL on ENOMEM) */
struct tl_task **tl_sorted_tasks(struct timeline *tl);

#endif /* SREP_TIMELINE_H */
