/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - selective, scaled replay of recorded tasks as mockup threads.
 *
 * Three steps, each usable alone (docs/replay.md has the semantics):
 *
 *  1. plan (plan.c, defaults.c): the session's time-ordered events become
 *     one action list per selected task: run N ns of CPU, sleep until a
 *     selected task wakes it, sleep N ns when the waker is outside the
 *     selection (or unknown, or a timer), spawn a child, exit. No threads:
 *     unit tests check plans directly. rp_plan__scale() applies --scale.
 *  2. run (run.c): one thread of this process per planned task, named after
 *     its comm; CPU bursts measured in thread CPU time, timed sleeps on
 *     absolute deadlines, wakeups between mockups through futexes.
 *  3. report (report.c): recorded vs replayed CPU time, span, wakeups and
 *     wakeup latency per task, and a summary; JSON through cJSON.
 *
 * Like the library, this module never prints: the CLI does.
 */
#ifndef SREP_REPLAY_H
#define SREP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <schedrep/schedrep.h>

/* ------------------------------------------------------------------ */
/* Default selection                                                    */
/* ------------------------------------------------------------------ */

/*
 * Without --only, replay leaves out the idle task (pid 0), kernel threads
 * (pid 2 and its descendants) and the recording tool's own process. The
 * recording tool is the parent process of the workload perf record started
 * (the task first named "perf-exec"); without such a task, the first
 * process named "perf". perf bench workloads are named "perf" before they
 * rename themselves, so a comm alone never decides.
 */
struct rp_defaults {
	bool *excluded;			/* by task index (srep_task__index) */
	size_t nr;
	size_t nr_idle, nr_kernel, nr_recorder;	/* tasks excluded for each reason */
	int32_t recorder_pid;		/* -1: none found */
	int32_t workload_pid;		/* the "perf-exec" process, -1: none */
};

int rp_defaults__compute(struct rp_defaults *d, const struct srep_session *s,
			 struct srep_error *err);
void rp_defaults__free(struct rp_defaults *d);

/* ------------------------------------------------------------------ */
/* Plans                                                                */
/* ------------------------------------------------------------------ */

enum rp_action_kind {
	RP_RUN = 1,	/* burn rec_ns of CPU (scaled: 'scaled') */
	RP_SLEEP,	/* timed sleep: waker outside the selection, unknown or a timer */
	RP_WAIT,	/* sleep until the WAKE with the same id */
	RP_WAKE,	/* wake 'target' (its WAIT 'id') */
	RP_SPAWN,	/* start the mockup of task 'target' (recorded fork) */
	RP_EXIT,	/* the recorded task exited here */
};

struct rp_action {
	uint8_t kind;			/* enum rp_action_kind */
	int32_t cpu;			/* RUN: recorded CPU, -1 unknown */
	uint32_t id;			/* WAIT/WAKE: wakeup id */
	uint32_t target;		/* WAKE/SPAWN: plan task index */
	uint64_t rec_time;		/* recorded start (perf clock, ns) */
	uint64_t rec_ns;		/* RUN: CPU ns; SLEEP/WAIT: recorded sleep ns */
	uint64_t rec_latency_ns;	/* SLEEP/WAIT: recorded wakeup-to-run, RP_NO_LATENCY */
	/*
	 * Set by rp_plan__scale(): RUN: CPU ns to burn; SLEEP: the end of the
	 * sleep as an offset from the task's last anchor (its start or the
	 * end of its last WAIT), so deadlines are absolute and errors do not
	 * accumulate.
	 */
	uint64_t scaled;
};

#define RP_NO_LATENCY UINT64_MAX
#define RP_NO_PRIO INT32_MIN

/*
 * A task's actions (actions.c), so that a plan's memory does not grow with
 * the trace: the last ones in memory, each full block of RP_BLOCK_ACTIONS
 * written to the plan's unlinked temporary file. Read them in order with a
 * cursor (below).
 */
#define RP_BLOCK_ACTIONS 128u

struct rp_action_list {
	size_t nr;			/* actions stored */
	struct rp_action *tail;		/* not spilled yet, up to RP_BLOCK_ACTIONS */
	size_t nr_tail, cap_tail;
	uint64_t *blocks;		/* file offsets of the spilled blocks */
	size_t nr_blocks, cap_blocks;
	bool sealed;			/* the tail went too: no more appends */
};

struct rp_task {
	int32_t pid, tid;
	char comm[SREP_COMM_MAX];	/* latest recorded comm */
	int32_t prio;			/* kernel prio (0..139) first recorded, RP_NO_PRIO */
	int32_t spawner;		/* plan index of the task whose SPAWN starts it, -1: at start */
	size_t task_index;		/* srep_task__index() in the session */
	uint64_t start, end;		/* recorded (perf clock, ns) */
	bool exited;			/* the trace shows its exit */
	struct rp_action_list stored;	/* read with a cursor */
	size_t nr_actions;		/* what a cursor yields (compaction drops some stored) */
	size_t nr_kind[RP_EXIT + 1];	/* of nr_actions, by kind */
	/* recorded totals */
	uint64_t cpu_ns;		/* sum of RUN */
	uint64_t sleep_ns;		/* sum of SLEEP (timed) */
	uint32_t nr_waits, nr_sleeps;	/* wakeups: by a selected task, timed */
	uint64_t latency_sum_ns;	/* over wakeups whose latency is known */
	uint32_t nr_latency;
	/* set by rp_plan__scale() */
	uint64_t start_off;		/* start, from the replay's origin */
	uint64_t expected_span;		/* end - start after scaling (an estimate for mixed scales) */
	uint64_t expected_cpu;
};

struct rp_plan {
	struct rp_task *tasks;
	size_t nr_tasks;
	uint64_t origin, end;		/* earliest start, latest end (recorded) */
	uint32_t nr_wakes;		/* wakeup ids are 0 .. nr_wakes - 1 */
	size_t nr_selected;		/* selected tasks, with or without activity */
	size_t nr_actions;
	uint64_t trace_first, trace_last;	/* timestamps of the whole trace */
	/* set by rp_plan__scale() */
	double scale_run, scale_sleep;
	uint64_t expected_span;		/* replay span the scaled plan aims at */
	/* action storage */
	FILE *spill;			/* the unlinked temporary file, NULL none yet */
	uint64_t spill_end;
	int32_t *renumber;		/* stored task index -> plan index (-1 dropped), NULL: same */
	size_t nr_renumber;
};

/* ---- action storage (actions.c) ---- */

/*
 * A new action of 'kind' at the end of 't' (other fields zero, cpu -1, no
 * latency), valid until the next append to 't'; NULL with *err set.
 */
struct rp_action *rp_actions__append(struct rp_plan *p, struct rp_task *t,
				     enum rp_action_kind kind, int *err);
/* set the recorded wakeup latency of stored action 'i' of 't' */
int rp_actions__set_latency(struct rp_plan *p, struct rp_task *t, size_t i, uint64_t ns);
size_t rp_actions__nr_stored(const struct rp_task *t);
/* 't' is complete: its last actions go to the file too, so a finished task holds no memory */
int rp_actions__seal(struct rp_plan *p, struct rp_task *t);
void rp_actions__free(struct rp_action_list *l);
void rp_actions__close(struct rp_plan *p);

/*
 * A task's actions in order, as the replay and the exporters see them:
 * compaction's renumbering applied, 'scaled' computed from the plan's
 * scale factors. Several cursors may read one plan at once (threads).
 */
struct rp_cursor {
	const struct rp_plan *p;
	const struct rp_task *t;
	size_t pos;			/* stored actions consumed */
	struct rp_action *block;	/* the spilled block being read, malloc'd */
	size_t block_nr;		/* which one, SIZE_MAX none */
	uint64_t anchor, slept;		/* scaling state (scale.c) */
};

void rp_cursor__init(struct rp_cursor *c, const struct rp_plan *p, const struct rp_task *t);
/* 1 and *a filled, 0 at the end, < 0 (SREP_E_NOMEM, SREP_E_IO) on error */
int rp_cursor__next(struct rp_cursor *c, struct rp_action *a);
void rp_cursor__fini(struct rp_cursor *c);

/* fill a->scaled (RUN, SLEEP) and advance the task's scaling state */
void rp_scale__action(const struct rp_plan *p, uint64_t *anchor, uint64_t *slept,
		      struct rp_action *a);

/*
 * Build a plan from 'sel' (resolved against 's'; NULL: every task) minus
 * 'def' (NULL: no default exclusions, as with --only). 's' must be positioned at its first
 * event (a fresh session, PRESCAN or not); all events are read. The plan is
 * scaled by 1 until rp_plan__scale() is called.
 */
int rp_plan__build(struct rp_plan **out, struct srep_session *s,
		   const struct srep_selection *sel, const struct rp_defaults *def,
		   struct srep_error *err);
void rp_plan__delete(struct rp_plan *p);

/*
 * The same plan, one event at a time, for callers that read the session
 * themselves (the rt-app exporter gets its events from schedrep convert).
 * Give rp_builder__event() every event in time order, selected or not: the
 * builder needs every CPU's switches. 's' must have its task table
 * complete (PRESCAN) when the builder is made. After rp_builder__finish()
 * (success or not), only rp_builder__delete() may follow.
 */
struct rp_builder;

int rp_builder__new(struct rp_builder **out, const struct srep_session *s,
		    const struct srep_selection *sel, const struct rp_defaults *def,
		    struct srep_error *err);
int rp_builder__event(struct rp_builder *b, const struct srep_event *ev, struct srep_error *err);
int rp_builder__finish(struct rp_builder *b, struct rp_plan **out, struct srep_error *err);
void rp_builder__delete(struct rp_builder *b);

/* Divide recorded CPU bursts by 'run' and timed sleeps by 'sleep' (finite, > 0). */
int rp_plan__scale(struct rp_plan *p, double run, double sleep, struct srep_error *err);

/* "2", "0.5", "1e1": a finite factor > 0; 'what' names the option in errors */
int rp_scale__parse(const char *spec, const char *what, double *out, struct srep_error *err);

/* ns / factor, rounded to the nearest ns (saturating) */
uint64_t rp_scale__ns(uint64_t ns, double factor);

/* actions of 'kind' in task 't' */
size_t rp_task__count(const struct rp_task *t, enum rp_action_kind kind);

/* ------------------------------------------------------------------ */
/* Running                                                              */
/* ------------------------------------------------------------------ */

enum rp_cpu_map { RP_CPU_MAP_NONE = 0, RP_CPU_MAP_AUTO, RP_CPU_MAP_LIST };

#define RP_MAX_THREADS_DEFAULT 1024

struct rp_run_opts {
	enum rp_cpu_map cpu_map;
	/* LIST: recorded CPU i runs on host CPU map[i] (-1: not pinned) */
	int32_t *map;
	size_t nr_map;
	bool keep_prio;			/* apply recorded nice / RT priorities */
	unsigned repeat;		/* runs, >= 1 (0 = 1) */
	size_t max_threads;		/* 0 = RP_MAX_THREADS_DEFAULT */
};

/* "auto", "none" or "REC=HOST,..." into 'o' (o->map is malloc'd, free it) */
int rp_cpu_map__parse(const char *spec, struct rp_run_opts *o, struct srep_error *err);

/*
 * --keep-prio: can this process give its threads the recorded priorities?
 * Tried on a short-lived probe thread with the most demanding RT priority
 * and the lowest nice value of the plan; SREP_E_UNSUPPORTED with a message
 * naming the task and what is missing when not.
 */
int rp_prio__check(const struct rp_plan *p, struct srep_error *err);
/* apply a recorded kernel prio to the calling thread: 0 or an errno */
int rp_prio__apply(int32_t prio);

enum rp_policy { RP_POLICY_NONE = 0, RP_POLICY_FIFO, RP_POLICY_OTHER };
/*
 * What a recorded kernel prio becomes (rp_prio__apply() applies it, the
 * rt-app exporter writes it): SCHED_FIFO with *value the RT priority 1..99,
 * or SCHED_OTHER with *value the nice value -20..19; NONE for RP_NO_PRIO.
 */
enum rp_policy rp_prio__policy(int32_t prio, int32_t *value);

enum rp_task_state { RP_NOT_STARTED = 0, RP_STOPPED, RP_DONE };

/* what one mockup did, summed over the runs */
struct rp_task_result {
	enum rp_task_state state;	/* of the last run */
	int32_t host_tid;		/* the mockup thread's tid (last run) */
	uint64_t start_ns, end_ns;	/* the thread's, from the run's origin (last run) */
	uint64_t span_ns;		/* sum over runs of end - anchor (its start as planned:
					   a late start counts in the span) */
	uint64_t cpu_ns;		/* sum over runs of thread CPU time */
	uint64_t wakeups;		/* completed WAIT + SLEEP, summed */
	uint64_t latency_sum_ns;	/* wakeup-to-run: from the post or the deadline */
	uint64_t nr_latency;
	unsigned runs_done;		/* runs in which the task finished */
	int32_t last_cpu;		/* the host CPU its last burst ended on (last run), -1 none */
};

struct rp_result {
	struct rp_task_result *tasks;	/* one per plan task */
	size_t nr_tasks;
	unsigned runs, runs_done;	/* asked for, completed */
	uint64_t span_sum_ns;		/* over completed runs: origin to the last thread's end */
	uint64_t last_span_ns;		/* of the last (maybe partial) run */
	bool interrupted;
	/* paired wakeups of the last run, by id, from its origin (0: did not happen) */
	uint64_t *wake_posted_ns;	/* when the waker posted it */
	uint64_t *wake_returned_ns;	/* when the wakee's WAIT returned */
	size_t nr_wakes;
};

struct rp_runner;

/*
 * Check everything that can fail before a thread starts: thread count
 * against max_threads, CPUs of the map, and with keep_prio whether the
 * recorded priorities can be applied (SREP_E_LIMIT / SREP_E_INVAL /
 * SREP_E_UNSUPPORTED with a message saying what to change).
 */
int rp_runner__new(struct rp_runner **out, const struct rp_plan *p, const struct rp_run_opts *o,
		   struct srep_error *err);
/* Replay (blocking). 'res' is filled even when interrupted (partial). */
int rp_runner__run(struct rp_runner *r, struct rp_result *res, struct srep_error *err);
/* Stop every mockup soon; async-signal-safe (for SIGINT/SIGTERM handlers). */
void rp_runner__stop(struct rp_runner *r);
void rp_runner__delete(struct rp_runner *r);
void rp_result__free(struct rp_result *res);

/* ------------------------------------------------------------------ */
/* Fidelity report                                                      */
/* ------------------------------------------------------------------ */

struct rp_report_row {
	const struct rp_task *task;
	const struct rp_task_result *res;
	uint64_t replayed_cpu, replayed_span;	/* means over completed runs */
	double cpu_error_pct, span_error_pct;	/* NAN when there is nothing to compare */
	double recorded_latency, replayed_latency;	/* mean ns, NAN if none */
	double replayed_wakeups;		/* mean per run */
};

struct rp_report {
	struct rp_report_row *rows;
	size_t nr_rows;
	size_t nr_compared;		/* rows in the CPU-error statistics */
	double median_cpu_error_pct;	/* of |cpu_error_pct|, NAN without rows */
	double p95_cpu_error_pct;
	double span_error_pct;		/* replay span vs expected span (signed) */
	uint64_t recorded_span, expected_span, replayed_span;
	uint64_t recorded_cpu, expected_cpu, replayed_cpu;
	bool complete;
};

int rp_report__build(struct rp_report *rep, const struct rp_plan *p, const struct rp_result *res,
		     struct srep_error *err);
void rp_report__free(struct rp_report *rep);
/* JSON text (schema: docs/replay.md), malloc'd; NULL when out of memory */
char *rp_report__json(const struct rp_report *rep, const struct rp_plan *p,
		      const struct rp_run_opts *o, const char *trace);
/* percentile 'q' (0..100) of v[0..n) by linear interpolation; sorts v; NAN if n == 0 */
double rp_percentile(double *v, size_t n, double q);

#endif /* SREP_REPLAY_H */
