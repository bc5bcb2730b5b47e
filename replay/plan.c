// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan.c - recorded events -> one action list per selected task.
 *
 * The session's events are read once, in time order. Each planned task has
 * a small state (running since T, runnable, blocked since T, done) and an
 * open CPU burst; actions are appended as the state changes:
 *
 *  - on-CPU intervals (switch in .. switch out) add up into one RUN until
 *    the task blocks; a preemption does not end the burst, a migration
 *    does (so --cpu-map auto can follow it), as do a wakeup or a fork the
 *    task performs;
 *  - a blocked task woken by a selected task that is running at that
 *    moment gets a WAIT, and the waker a WAKE with the same id; woken by
 *    anything else (a task outside the selection, an interrupt on the idle
 *    task, an unknown waker, no wakeup event at all) it gets a timed SLEEP,
 *    so a selective replay never waits for a thread that does not exist;
 *  - a fork by a selected parent puts a SPAWN in the parent's list; the
 *    child of an unselected parent is started at its recorded time;
 *  - sched_process_exit marks the task; its last switch-out ends it (EXIT).
 *
 * Every dependency between lists (WAKE -> WAIT, SPAWN -> start) goes from an
 * earlier event to a later one and each list is in event order, so a replay
 * of a plan cannot deadlock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/* 16M actions (900 MB of temporary file): longer traces are better replayed by time slices */
#define RP_MAX_ACTIONS (16u << 20)
/* CPU numbers come from the file: beyond this they are treated as unknown */
#define RP_MAX_CPU_SLOTS 65536u

enum bstate { B_NONE = 0, B_RUNNING, B_RUNNABLE, B_BLOCKED, B_DONE };

/* the builder's bounded state of one planned task */
struct btask {
	enum bstate st;
	uint64_t since;			/* RUNNING: switched in; BLOCKED: blocked; RUNNABLE: woken/preempted */
	bool burst_open;
	uint64_t burst_start;		/* recorded start of the open RUN */
	uint64_t burst_cpu;		/* on-CPU ns in it so far */
	int32_t burst_cpuid;		/* its CPU, -1 not yet known */
	int32_t on_cpu;			/* RUNNING: where, -1 unknown */
	uint64_t seen_at;		/* not RUNNING: earliest sign of it running again, 0 none */
	bool exiting;
	uint64_t exit_time;		/* when it exited (its last switch-out may be missing) */
	size_t lat_action;		/* SLEEP/WAIT waiting for the next switch-in, SIZE_MAX none */
	uint64_t woken_at;
};

struct tid_key {
	int32_t tid;
	uint64_t fork_time;
	int32_t plan;			/* plan index, -1 not planned */
};

/* what the builder knows of a CPU */
struct bcpu {
	uint64_t last;			/* time of its last switch, 0 none */
	int32_t cur;			/* planned task switched in last, -1 none */
};

struct builder {
	struct rp_plan *p;
	struct btask *bt;
	struct tid_key *keys;
	size_t nr_keys;
	struct bcpu *cpus;
	size_t nr_cpu;
	uint64_t first, last;		/* of all timestamped events */
	uint64_t first_sched;		/* of the first switch or wakeup: side-band records can
					   start long before the scheduler tracepoints */
	int failed;			/* SREP_E_NOMEM, SREP_E_LIMIT or SREP_E_IO */
};

static uint64_t delta(uint64_t from, uint64_t to)
{
	return to > from ? to - from : 0;	/* late events never make time run backwards */
}

/* ---- actions ---- */

static struct rp_action *emit(struct builder *b, int32_t pi, enum rp_action_kind kind,
			      uint64_t rec_time)
{
	struct rp_action *a;
	int ret;

	if (b->p->nr_actions >= RP_MAX_ACTIONS) {
		b->failed = SREP_E_LIMIT;
		return NULL;
	}
	a = rp_actions__append(b->p, &b->p->tasks[pi], kind, &ret);
	if (!a) {
		b->failed = ret;
		return NULL;
	}
	a->rec_time = rec_time;
	b->p->nr_actions++;
	return a;
}

static void open_burst(struct btask *bt, uint64_t t, int32_t cpu)
{
	bt->burst_open = true;
	bt->burst_start = t;
	bt->burst_cpu = 0;
	bt->burst_cpuid = cpu;
}

/* the open burst becomes a RUN (when it used any CPU) */
static void close_burst(struct builder *b, int32_t pi)
{
	struct btask *bt = &b->bt[pi];
	struct rp_action *a;

	if (bt->burst_open && bt->burst_cpu) {
		a = emit(b, pi, RP_RUN, bt->burst_start);
		if (a) {
			a->cpu = bt->burst_cpuid;
			a->rec_ns = bt->burst_cpu;
			b->p->tasks[pi].cpu_ns += bt->burst_cpu;
		}
	}
	bt->burst_open = false;
}

/* a task that is done gets no more actions: they all go to the file, its memory is freed */
static void seal(struct builder *b, int32_t pi)
{
	int ret = rp_actions__seal(b->p, &b->p->tasks[pi]);

	if (ret && !b->failed)
		b->failed = ret;
}

/* a running task does something at t: what it ran so far is one RUN */
static void split_burst(struct builder *b, int32_t pi, uint64_t t)
{
	struct btask *bt = &b->bt[pi];
	int32_t cpu = bt->burst_cpuid;

	bt->burst_cpu += delta(bt->since, t);
	bt->since = t;
	close_burst(b, pi);
	open_burst(bt, t, cpu);
}

/* ---- task lookup: tids are reused, so the task is the one forked last before t ---- */

static int cmp_key(const void *x, const void *y)
{
	const struct tid_key *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->fork_time < b->fork_time ? -1 : a->fork_time > b->fork_time;
}

static int32_t lookup(const struct builder *b, int32_t tid, uint64_t t)
{
	size_t lo = 0, hi = b->nr_keys, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->keys[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == b->nr_keys || b->keys[lo].tid != tid)
		return -1;
	/* the first incarnation, or a later one forked before t */
	while (lo + 1 < b->nr_keys && b->keys[lo + 1].tid == tid && b->keys[lo + 1].fork_time <= t)
		lo++;
	return b->keys[lo].plan;
}

/* ---- CPUs: when their last switch was, who runs there ---- */

static struct bcpu *cpu_slot(struct builder *b, int32_t cpu)
{
	struct bcpu *v;
	size_t n, i;

	if (cpu < 0 || (uint32_t)cpu >= RP_MAX_CPU_SLOTS)
		return NULL;
	if ((size_t)cpu >= b->nr_cpu) {
		n = (size_t)cpu + 8;
		v = realloc(b->cpus, n * sizeof(*v));
		if (!v) {
			b->failed = SREP_E_NOMEM;
			return NULL;
		}
		for (i = b->nr_cpu; i < n; i++)
			v[i] = (struct bcpu){ 0, -1 };
		b->cpus = v;
		b->nr_cpu = n;
	}
	return &b->cpus[cpu];
}

static uint64_t running_since(struct builder *b, int32_t cpu)
{
	struct bcpu *c = cpu_slot(b, cpu);

	return c && c->last ? c->last : b->first_sched;
}

/*
 * A task seen first in its own context (switching out, waking, forking)
 * has been running on 'cpu' since that CPU's last switch, or since the
 * scheduler events began. Before they begin nothing is known.
 */
static bool ensure_running(struct builder *b, int32_t pi, uint64_t t, int32_t cpu)
{
	struct btask *bt = &b->bt[pi];
	uint64_t since;

	if (bt->st == B_NONE) {
		since = running_since(b, cpu);
		if (!since)
			return false;
		if (since > t)
			since = t;
		b->p->tasks[pi].start = since;
		open_burst(bt, since, cpu);
		bt->st = B_RUNNING;
		bt->since = since;
		bt->on_cpu = cpu;
	}
	return bt->st == B_RUNNING;
}

/* ---- event handlers ---- */

static void note_prio(struct rp_task *t, int32_t prio)
{
	if (t->prio == RP_NO_PRIO && prio != INT32_MIN)
		t->prio = prio;
}

static void switch_in(struct builder *b, int32_t pi, uint64_t t, int32_t cpu);

/*
 * Switched out but not seen switched in (per-task recordings see only
 * their tasks' switch-outs; events get lost): it came in when a sample
 * first showed it current, else at the CPU's previous switch (the
 * earliest it can have), after a sleep whose waker is unknown.
 */
static void switched_in_unseen(struct builder *b, int32_t pi, uint64_t t, int32_t cpu)
{
	struct btask *bt = &b->bt[pi];
	uint64_t in = bt->seen_at ? bt->seen_at : running_since(b, cpu);

	if (in < bt->since)
		in = bt->since;
	switch_in(b, pi, in < t ? in : t, cpu);
}

/*
 * A tracepoint sample is taken in the context of the task current on its
 * CPU: a sign that a task not running in our view runs again. A
 * sched_stat_runtime even says for how long it has.
 */
static void note_current(struct builder *b, const struct srep_event *ev)
{
	int32_t pi = ev->tid > 0 ? lookup(b, ev->tid, ev->time) : -1;
	uint64_t at = ev->time;
	struct btask *bt;

	if (pi < 0 || ev->source != SREP_SRC_TRACEPOINT)
		return;
	bt = &b->bt[pi];
	if (bt->st != B_BLOCKED && bt->st != B_RUNNABLE)
		return;
	if (ev->kind == SREP_EV_STAT && ev->u.stat.kind == SREP_STAT_RUNTIME &&
	    ev->u.stat.tid == ev->tid && ev->u.stat.value < at)
		at -= ev->u.stat.value;
	if (at < bt->since)
		at = bt->since;
	if (!bt->seen_at || at < bt->seen_at)
		bt->seen_at = at;
}

static void switch_out(struct builder *b, int32_t pi, uint64_t t, int32_t cpu, bool runnable)
{
	struct btask *bt = &b->bt[pi];

	if (bt->st == B_BLOCKED || bt->st == B_RUNNABLE)
		switched_in_unseen(b, pi, t, cpu);
	if (!ensure_running(b, pi, t, cpu))
		return;		/* done */
	bt->burst_cpu += delta(bt->since, t);
	bt->since = t;
	if (runnable) {
		bt->st = B_RUNNABLE;	/* preempted: the burst goes on when it is back */
		return;
	}
	close_burst(b, pi);
	if (!bt->exiting) {
		bt->st = B_BLOCKED;
		return;
	}
	if (emit(b, pi, RP_EXIT, t))
		b->p->tasks[pi].exited = true;
	b->p->tasks[pi].end = t;
	bt->st = B_DONE;
	seal(b, pi);
}

/* the wakeup-to-run latency of the last wakeup is known at the next switch-in */
static void note_latency(struct builder *b, int32_t pi, uint64_t t)
{
	struct btask *bt = &b->bt[pi];
	struct rp_task *task = &b->p->tasks[pi];

	if (bt->lat_action == SIZE_MAX)
		return;
	if (rp_actions__set_latency(b->p, task, bt->lat_action, delta(bt->woken_at, t)))
		b->failed = SREP_E_IO;
	task->latency_sum_ns += delta(bt->woken_at, t);
	task->nr_latency++;
	bt->lat_action = SIZE_MAX;
}

static void timed_sleep(struct builder *b, int32_t pi, uint64_t t)
{
	struct btask *bt = &b->bt[pi];
	struct rp_action *a = emit(b, pi, RP_SLEEP, bt->since);

	if (!a)
		return;
	a->rec_ns = delta(bt->since, t);
	b->p->tasks[pi].sleep_ns += a->rec_ns;
	b->p->tasks[pi].nr_sleeps++;
}

static void switch_in(struct builder *b, int32_t pi, uint64_t t, int32_t cpu)
{
	struct btask *bt = &b->bt[pi];

	switch (bt->st) {
	case B_NONE:		/* runnable since before the trace: starts now */
		b->p->tasks[pi].start = t;
		open_burst(bt, t, cpu);
		break;
	case B_BLOCKED:		/* woken without a wakeup event: waker unknown */
		timed_sleep(b, pi, t);
		open_burst(bt, t, cpu);
		break;
	case B_RUNNABLE:
		note_latency(b, pi, t);
		if (!bt->burst_open) {
			open_burst(bt, t, cpu);
		} else if (bt->burst_cpuid >= 0 && bt->burst_cpuid != cpu && bt->burst_cpu) {
			close_burst(b, pi);	/* migrated: one RUN per CPU */
			open_burst(bt, t, cpu);
		}
		bt->burst_cpuid = cpu;
		break;
	case B_RUNNING:		/* a lost switch-out: the unknown interval is dropped */
		break;
	case B_DONE:
		return;
	}
	bt->st = B_RUNNING;
	bt->since = t;
	bt->on_cpu = cpu;
	bt->seen_at = 0;
}

/*
 * A switch on a CPU whose previous task is not the one we saw switched in
 * there: that task left at a time the trace does not show (per-task
 * recordings see only their own tasks switching out; events get lost).
 * What it ran since is unknown and not counted; it is taken as blocked
 * since it was switched in, so its next wakeup or switch-in ends a sleep.
 */
static void left_unseen(struct builder *b, struct bcpu *c, int32_t cpu, int32_t prev)
{
	struct btask *bt;

	if (!c || c->cur < 0 || c->cur == prev)
		return;
	bt = &b->bt[c->cur];
	if (bt->st == B_RUNNING && bt->on_cpu == cpu) {
		close_burst(b, c->cur);
		bt->st = B_BLOCKED;
	}
	c->cur = -1;
}

static void on_switch(struct builder *b, const struct srep_event *ev)
{
	const struct srep_switch *sw = &ev->u.sw;
	bool out_only = ev->flags & SREP_EVF_SWITCH_OUT, in_only = ev->flags & SREP_EVF_SWITCH_IN;
	bool runnable = sw->prev_state == 'R' || (ev->flags & SREP_EVF_PREEMPT);
	struct bcpu *c = cpu_slot(b, ev->cpu);
	int32_t pi = -1;

	if (!in_only) {
		pi = sw->prev_tid > 0 ? lookup(b, sw->prev_tid, ev->time) : -1;
		left_unseen(b, c, ev->cpu, pi);
	}
	if (pi >= 0) {
		note_prio(&b->p->tasks[pi], sw->prev_prio);
		switch_out(b, pi, ev->time, ev->cpu, runnable);
	}
	pi = !out_only && sw->next_tid > 0 ? lookup(b, sw->next_tid, ev->time) : -1;
	if (pi >= 0) {
		note_prio(&b->p->tasks[pi], sw->next_prio);
		switch_in(b, pi, ev->time, ev->cpu);
	}
	if (c) {
		c->last = ev->time;
		if (!out_only)
			c->cur = pi;
	}
}

/* a real wakeup between two planned tasks: WAIT in the wakee, WAKE in the waker */
static void paired_wakeup(struct builder *b, int32_t wakee, int32_t waker, uint64_t t)
{
	struct btask *bt = &b->bt[wakee];
	struct rp_action *a;
	uint32_t id;

	if (b->p->nr_wakes == UINT32_MAX) {
		b->failed = SREP_E_LIMIT;
		return;
	}
	id = b->p->nr_wakes++;
	a = emit(b, wakee, RP_WAIT, bt->since);
	if (!a)
		return;
	a->id = id;
	a->rec_ns = delta(bt->since, t);
	b->p->tasks[wakee].nr_waits++;
	split_burst(b, waker, t);
	a = emit(b, waker, RP_WAKE, t);
	if (a) {
		a->id = id;
		a->target = (uint32_t)wakee;
	}
}

static void on_wakeup(struct builder *b, const struct srep_event *ev)
{
	int32_t pw = ev->u.wake.tid > 0 ? lookup(b, ev->u.wake.tid, ev->time) : -1, pk;
	struct btask *bt;

	if (pw < 0)
		return;
	bt = &b->bt[pw];
	if (ev->u.wake.kind == SREP_WAKE_NEW) {
		if (bt->st == B_NONE) {		/* its fork was not recorded */
			b->p->tasks[pw].start = ev->time;
			bt->st = B_RUNNABLE;
			bt->since = ev->time;
		}
		return;
	}
	if (bt->st == B_NONE) {			/* asleep since before the trace */
		b->p->tasks[pw].start = b->first_sched;
		bt->st = B_BLOCKED;
		bt->since = b->first_sched;
	}
	if (bt->st != B_BLOCKED)
		return;				/* already awake: nothing to replay */
	/* the waking task is the one current on the CPU (an interrupt on idle: pid 0) */
	pk = ev->tid > 0 ? lookup(b, ev->tid, ev->time) : -1;
	if (pk >= 0 && pk != pw && ensure_running(b, pk, ev->time, ev->cpu))
		paired_wakeup(b, pw, pk, ev->time);
	else
		timed_sleep(b, pw, ev->time);
	bt->lat_action = rp_actions__nr_stored(&b->p->tasks[pw]) - 1;
	bt->woken_at = ev->time;
	bt->st = B_RUNNABLE;
	open_burst(bt, ev->time, -1);
}

static void on_fork(struct builder *b, const struct srep_event *ev)
{
	const struct srep_fork *f = &ev->u.fork;
	int32_t pc = lookup(b, f->child_tid, ev->time), pp;
	struct btask *bt;
	struct rp_action *a;

	if (pc < 0 || b->bt[pc].st != B_NONE)
		return;
	bt = &b->bt[pc];
	b->p->tasks[pc].start = ev->time;
	bt->st = B_RUNNABLE;
	bt->since = ev->time;
	pp = f->parent_tid > 0 ? lookup(b, f->parent_tid, ev->time) : -1;
	if (pp < 0 || pp == pc || !ensure_running(b, pp, ev->time, ev->cpu))
		return;
	split_burst(b, pp, ev->time);
	a = emit(b, pp, RP_SPAWN, ev->time);
	if (a) {
		a->target = (uint32_t)pc;
		b->p->tasks[pc].spawner = pp;
	}
}

static void on_exit_event(struct builder *b, const struct srep_event *ev)
{
	int32_t pe = ev->u.exit.tid > 0 ? lookup(b, ev->u.exit.tid, ev->time) : -1;

	/* its last switch-out ends it; an exit alone (no switch seen) adds no CPU time */
	if (pe >= 0 && !b->bt[pe].exiting) {
		b->bt[pe].exiting = true;
		b->bt[pe].exit_time = ev->time;
	}
}

static void on_event(struct builder *b, const struct srep_event *ev)
{
	if (!ev->time)
		return;		/* synthesized records: the state before the trace */
	if (!b->first)
		b->first = ev->time;
	if (!b->first_sched && (ev->kind == SREP_EV_SWITCH || ev->kind == SREP_EV_WAKEUP))
		b->first_sched = ev->time;
	if (ev->time > b->last)
		b->last = ev->time;
	if (ev->kind != SREP_EV_SWITCH)
		note_current(b, ev);
	switch (ev->kind) {
	case SREP_EV_SWITCH:	on_switch(b, ev); break;
	case SREP_EV_WAKEUP:	on_wakeup(b, ev); break;
	case SREP_EV_FORK:	on_fork(b, ev); break;
	case SREP_EV_EXIT:	on_exit_event(b, ev); break;
	default:		break;
	}
}

/* ---- the end of the trace ---- */

static void finish_task(struct builder *b, int32_t pi)
{
	struct btask *bt = &b->bt[pi];
	struct rp_task *t = &b->p->tasks[pi];

	switch (bt->st) {
	case B_RUNNING:
		/* per-task SWITCH records stop at the exit: no last switch-out */
		t->end = bt->exiting ? bt->exit_time : b->last;
		bt->burst_cpu += delta(bt->since, t->end);
		close_burst(b, pi);
		break;
	case B_RUNNABLE:
	case B_BLOCKED:		/* a trailing sleep is not replayed */
		close_burst(b, pi);
		t->end = bt->since;
		break;
	default:
		return;
	}
	if (bt->exiting && t->nr_actions && emit(b, pi, RP_EXIT, t->end))
		t->exited = true;
}

/* stored SPAWNs of 't' that start a task compaction drops ('to' < 0) */
static int dropped_spawns(const struct rp_plan *p, const struct rp_task *t, const int32_t *to,
			  size_t *n)
{
	struct rp_cursor c;
	struct rp_action a;
	int ret;

	*n = 0;
	rp_cursor__init(&c, p, t);
	while ((ret = rp_cursor__next(&c, &a)) > 0)
		*n += a.kind == RP_SPAWN && to[a.target] < 0;
	rp_cursor__fini(&c);
	return ret;
}

/*
 * Drop planned tasks that never ran, and the SPAWNs of them. The stored
 * actions keep the old task indices: cursors renumber them as they read.
 */
static int compact(struct rp_plan *p)
{
	size_t i, n = 0, drop;
	int32_t *to;
	int ret;

	for (i = 0; i < p->nr_tasks; i++)
		n += p->tasks[i].nr_actions > 0;
	if (n == p->nr_tasks)
		return 0;
	to = malloc(p->nr_tasks * sizeof(*to));
	if (!to)
		return SREP_E_NOMEM;
	for (i = n = 0; i < p->nr_tasks; i++)
		to[i] = p->tasks[i].nr_actions ? (int32_t)n++ : -1;
	for (i = 0; i < p->nr_tasks; i++) {
		struct rp_task *t = &p->tasks[i];

		if (!t->nr_kind[RP_SPAWN])
			continue;
		ret = dropped_spawns(p, t, to, &drop);
		if (ret) {
			free(to);
			return ret;
		}
		p->nr_actions -= drop;
		t->nr_actions -= drop;
		t->nr_kind[RP_SPAWN] -= drop;
	}
	p->renumber = to;
	p->nr_renumber = p->nr_tasks;
	for (i = 0; i < p->nr_tasks; i++) {
		struct rp_task *t = &p->tasks[i];

		if (t->spawner >= 0)
			t->spawner = to[t->spawner];
		if (to[i] < 0)
			rp_actions__free(&t->stored);
		else
			p->tasks[to[i]] = *t;
	}
	p->nr_tasks = n;
	return 0;
}

/* ---- building ---- */

static bool planned(const struct srep_task *t, const struct srep_selection *sel,
		    const struct rp_defaults *def)
{
	size_t i = srep_task__index(t);

	if (srep_task__tid(t) <= 0 || (sel && !srep_selection__has_task(sel, t)))
		return false;
	return !def || i >= def->nr || !def->excluded[i];
}

static int setup(struct builder *b, const struct srep_session *s,
		 const struct srep_selection *sel, const struct rp_defaults *def)
{
	size_t n = srep_session__nr_tasks(s), i;
	struct rp_plan *p = b->p;

	p->tasks = calloc(n ? n : 1, sizeof(*p->tasks));
	b->bt = calloc(n ? n : 1, sizeof(*b->bt));
	b->keys = calloc(n ? n : 1, sizeof(*b->keys));
	if (!p->tasks || !b->bt || !b->keys)
		return SREP_E_NOMEM;
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(s, i);
		struct tid_key *k = &b->keys[b->nr_keys++];

		k->tid = srep_task__tid(t);
		k->fork_time = srep_task__fork_time(t);
		k->plan = -1;
		if (!planned(t, sel, def))
			continue;
		k->plan = (int32_t)p->nr_tasks;
		p->tasks[p->nr_tasks] = (struct rp_task){
			.pid = srep_task__pid(t), .tid = k->tid, .prio = RP_NO_PRIO, .spawner = -1,
			.task_index = i,
		};
		snprintf(p->tasks[p->nr_tasks].comm, SREP_COMM_MAX, "%s", srep_task__comm(t));
		b->bt[p->nr_tasks].lat_action = SIZE_MAX;
		p->nr_tasks++;
	}
	p->nr_selected = p->nr_tasks;
	qsort(b->keys, b->nr_keys, sizeof(*b->keys), cmp_key);
	return 0;
}

static void plan_bounds(struct rp_plan *p)
{
	size_t i;

	p->origin = p->end = 0;
	for (i = 0; i < p->nr_tasks; i++) {
		if (!i || p->tasks[i].start < p->origin)
			p->origin = p->tasks[i].start;
		if (p->tasks[i].end > p->end)
			p->end = p->tasks[i].end;
	}
}

struct rp_builder {
	struct builder b;
};

int rp_builder__new(struct rp_builder **out, const struct srep_session *s,
		    const struct srep_selection *sel, const struct rp_defaults *def,
		    struct srep_error *err)
{
	struct rp_builder *rb = calloc(1, sizeof(*rb));

	*out = NULL;
	if (rb)
		rb->b.p = calloc(1, sizeof(*rb->b.p));
	if (!rb || !rb->b.p || setup(&rb->b, s, sel, def)) {
		rp_builder__delete(rb);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a replay plan");
	}
	*out = rb;
	return 0;
}

static int builder_error(const struct builder *b, struct srep_error *err)
{
	if (b->failed == SREP_E_LIMIT)
		return srep_error__set(err, b->failed, "the plan exceeds %u actions or 2^32 wakeups: "
				       "select fewer tasks", RP_MAX_ACTIONS);
	if (b->failed == SREP_E_IO) {
		const char *dir = getenv("TMPDIR");

		srep_error__set(err, b->failed, "cannot create, write or read the plan's temporary "
				"file here ($TMPDIR, else /tmp)");
		if (err)	/* the directory, not the output the caller would name */
			snprintf(err->path, sizeof(err->path), "%s", dir && *dir ? dir : "/tmp");
		return b->failed;
	}
	return srep_error__set(err, b->failed, "no memory for a replay plan");
}

int rp_builder__event(struct rp_builder *rb, const struct srep_event *ev, struct srep_error *err)
{
	if (!rb->b.failed)
		on_event(&rb->b, ev);
	return rb->b.failed ? builder_error(&rb->b, err) : 0;
}

int rp_builder__finish(struct rp_builder *rb, struct rp_plan **out, struct srep_error *err)
{
	struct builder *b = &rb->b;
	size_t i;
	int ret;

	*out = NULL;
	for (i = 0; !b->failed && i < b->p->nr_tasks; i++) {
		finish_task(b, (int32_t)i);
		if (!b->p->tasks[i].stored.sealed)
			seal(b, (int32_t)i);
	}
	if (!b->failed)
		b->failed = compact(b->p);
	if (b->failed)
		return builder_error(b, err);
	plan_bounds(b->p);
	b->p->trace_first = b->first;
	b->p->trace_last = b->last;
	ret = rp_plan__scale(b->p, 1.0, 1.0, err);
	if (ret)
		return ret;
	*out = b->p;
	b->p = NULL;
	return 0;
}

void rp_builder__delete(struct rp_builder *rb)
{
	if (!rb)
		return;
	rp_plan__delete(rb->b.p);
	free(rb->b.bt);
	free(rb->b.keys);
	free(rb->b.cpus);
	free(rb);
}

int rp_plan__build(struct rp_plan **out, struct srep_session *s,
		   const struct srep_selection *sel, const struct rp_defaults *def,
		   struct srep_error *err)
{
	struct rp_builder *rb;
	const struct srep_event *ev;
	int ret;

	*out = NULL;
	ret = rp_builder__new(&rb, s, sel, def, err);
	while (!ret && (ret = srep_session__next_event(s, &ev, err)) > 0)
		ret = rp_builder__event(rb, ev, err);
	if (!ret)
		ret = rp_builder__finish(rb, out, err);
	rp_builder__delete(rb);
	return ret;
}

void rp_plan__delete(struct rp_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_tasks; i++)
		rp_actions__free(&p->tasks[i].stored);
	rp_actions__close(p);
	free(p->renumber);
	free(p->tasks);
	free(p);
}

size_t rp_task__count(const struct rp_task *t, enum rp_action_kind kind)
{
	return t->nr_kind[kind];
}
