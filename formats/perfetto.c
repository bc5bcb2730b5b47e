// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfetto.c - Chrome Trace Event Format JSON for ui.perfetto.dev and
 * chrome://tracing.
 *
 * Each task's life becomes consecutive 'X' slices on its thread track:
 * Running, Runnable (woken by whom, how long it waited) and sleeping (S, D,
 * ...); a "CPUs" process has one track per CPU showing who ran there; flows
 * go from waker to wakee; fork, exec, exit, rename and migration are
 * instants; cpu_frequency and cpu_idle are counters. A slice is written when
 * it ends, so the state kept is the open slice of each task and each CPU:
 * bounded by the number of tasks and CPUs, never by the trace length.
 * Metadata (names) come last, from the session's task table.
 *
 * Timestamps are the perf clock in microseconds with three decimals
 * (DECISIONS.md), so they read like perf script's.
 */
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "emit.h"

/* the "CPUs" process: pid and tids above any kernel's PID_MAX_LIMIT (4M) */
#define CPUS_PID	1073741824
#define CPU_TID(cpu)	(CPUS_PID + 1 + (cpu))
#define CPU_MAX		65536	/* CPU numbers above are damage: no CPU track for them */

enum tstate { T_NONE = 0, T_RUNNING, T_RUNNABLE, T_SLEEPING };

struct pf_task {
	int32_t tid, pid;		/* tid -1: free slot */
	enum tstate state;
	uint64_t since;
	int32_t cpu;			/* running: where */
	int32_t prio;
	int32_t waker, waker_cpu;	/* runnable: who woke it (-1: preempted or unknown) */
	char waker_comm[SREP_COMM_MAX];
	char letter;			/* sleeping: the state letter */
	bool exited;
	char comm[SREP_COMM_MAX];	/* as the events last named it, "" not yet */
	char blocked_in[64];		/* sleeping: the function it blocked in, "" unknown */
};

struct pf_cpu {
	int32_t tid, pid;		/* running there, tid -1 nobody known */
	uint64_t since;
	char comm[SREP_COMM_MAX];
	bool seen;
};

struct pf {
	const struct srep_export_ctx *ctx;
	struct emit out;
	struct pf_task *tasks;		/* open addressing on tid */
	size_t nr_slots, nr_tasks;
	struct pf_cpu *cpus;
	size_t nr_cpus;
	uint64_t next_flow, last_time, first_time;
	bool nomem;
};

/* ---- state tables ---- */

static size_t slot_of(const struct pf *p, int32_t tid)
{
	size_t j = ((uint32_t)tid * 2654435761u) & (p->nr_slots - 1);

	while (p->tasks[j].tid != -1 && p->tasks[j].tid != tid)
		j = (j + 1) & (p->nr_slots - 1);
	return j;
}

static int grow_tasks(struct pf *p)
{
	size_t n = p->nr_slots ? p->nr_slots * 2 : 1024, old_n = p->nr_slots, i;
	struct pf_task *old = p->tasks;

	p->tasks = malloc(n * sizeof(*p->tasks));
	if (!p->tasks) {
		p->tasks = old;
		return -1;
	}
	for (i = 0; i < n; i++)
		p->tasks[i].tid = -1;
	p->nr_slots = n;
	for (i = 0; i < old_n; i++) {
		if (old[i].tid != -1)
			p->tasks[slot_of(p, old[i].tid)] = old[i];
	}
	free(old);
	return 0;
}

/* the task's pid, decided once so all its events land on one thread track */
static int32_t pid_for(const struct pf *p, int32_t tid, int32_t hint)
{
	const struct srep_task *t;

	if (hint >= 0)
		return hint;
	t = srep_session__find_task(p->ctx->session, tid);
	return t && srep_task__pid(t) >= 0 ? srep_task__pid(t) : tid;
}

/* the task's state; NULL for the idle task, unselected tasks, or no memory */
static struct pf_task *task(struct pf *p, int32_t tid, int32_t pid_hint)
{
	struct pf_task *t;

	if (tid <= 0 || !srep_export_has_tid(p->ctx->sel, tid))
		return NULL;
	if ((p->nr_tasks + 1) * 2 > p->nr_slots && grow_tasks(p)) {
		p->nomem = true;
		return NULL;
	}
	t = &p->tasks[slot_of(p, tid)];
	if (t->tid == -1) {
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		t->pid = pid_for(p, tid, pid_hint);
		t->waker = t->waker_cpu = -1;
		p->nr_tasks++;
	}
	return t;
}

static struct pf_cpu *cpu(struct pf *p, int32_t c)
{
	struct pf_cpu *n;
	size_t i;

	if (c < 0 || c >= CPU_MAX)
		return NULL;
	if ((size_t)c >= p->nr_cpus) {
		n = realloc(p->cpus, ((size_t)c + 1) * sizeof(*n));
		if (!n) {
			p->nomem = true;
			return NULL;
		}
		for (i = p->nr_cpus; i <= (size_t)c; i++)
			n[i] = (struct pf_cpu){ .tid = -1 };
		p->cpus = n;
		p->nr_cpus = (size_t)c + 1;
	}
	p->cpus[c].seen = true;
	return &p->cpus[c];
}

/* ---- writing events ---- */

static bool in_window(const struct pf *p, uint64_t t)
{
	return t >= p->ctx->from && t <= p->ctx->to;
}

/* '{"ph":"X","name":"Running","pid":1,"tid":2,"ts":3.000' - the caller goes on */
static void head(struct pf *p, char ph, const char *name, int32_t pid, int32_t tid, uint64_t ts)
{
	struct emit *e = &p->out;

	emit_lit(e, "{\"ph\":\"");
	emit_char(e, ph);
	emit_lit(e, "\",\"name\":");
	emit_json_cstr(e, name);
	emit_lit(e, ",\"pid\":");
	emit_i64(e, pid);
	emit_lit(e, ",\"tid\":");
	emit_i64(e, tid);
	emit_lit(e, ",\"ts\":");
	emit_us(e, ts);
}

/* an 'X' slice clipped to the window; false (nothing written) when none of it is inside */
static bool slice(struct pf *p, const char *name, int32_t pid, int32_t tid, uint64_t start,
		  uint64_t end)
{
	if (start < p->ctx->from)
		start = p->ctx->from;
	if (end > p->ctx->to)
		end = p->ctx->to;
	if (end < start || (end == start && !in_window(p, start)))
		return false;
	head(p, 'X', name, pid, tid, start);
	emit_lit(&p->out, ",\"dur\":");
	emit_us(&p->out, end - start);
	return true;
}

static void arg_int(struct pf *p, const char *key, int64_t v, bool first)
{
	emit_lit(&p->out, ",\"");
	if (first)
		emit_lit(&p->out, "args\":{\"");
	emit_cstr(&p->out, key);
	emit_lit(&p->out, "\":");
	emit_i64(&p->out, v);
}

static void arg_str(struct pf *p, const char *key, const char *v, bool first)
{
	emit_lit(&p->out, ",\"");
	if (first)
		emit_lit(&p->out, "args\":{\"");
	emit_cstr(&p->out, key);
	emit_lit(&p->out, "\":");
	emit_json_cstr(&p->out, v);
}

/* the end of an event; 'args' when an args object was opened */
static void tail(struct pf *p, bool args)
{
	if (args)
		emit_lit(&p->out, "}},\n");
	else
		emit_lit(&p->out, "},\n");
}

static const char *comm_of(const struct pf *p, int32_t tid)
{
	const struct srep_task *t = srep_session__find_task(p->ctx->session, tid);

	return t ? srep_task__comm(t) : "";
}

static const char *sleep_name(char letter)
{
	switch (letter) {
	case 'S': return "Sleeping (S)";
	case 'D': return "Blocked (D)";
	case 'I': return "Idle (I)";
	case 'T': return "Stopped (T)";
	case 't': return "Traced (t)";
	case 'P': return "Parked (P)";
	default:  return "Not running (?)";
	}
}

/* close the open slice of a task at 't' (never before it began) */
static void task_close(struct pf *p, struct pf_task *t, uint64_t time)
{
	uint64_t end = time > t->since ? time : t->since;
	char who[SREP_COMM_MAX + 16];

	switch (t->state) {
	case T_RUNNING:
		if (slice(p, "Running", t->pid, t->tid, t->since, end)) {
			arg_int(p, "cpu", t->cpu, true);
			if (t->prio != INT32_MIN)
				arg_int(p, "prio", t->prio, false);
			tail(p, true);
		}
		break;
	case T_RUNNABLE:
		if (slice(p, t->waker >= 0 ? "Runnable" : "Runnable (preempted)", t->pid, t->tid,
			  t->since, end)) {
			arg_int(p, "wait_ns", (int64_t)(end - t->since), true);
			if (t->waker >= 0) {
				snprintf(who, sizeof(who), "%s (%d)", t->waker ? t->waker_comm :
					 "idle/irq", t->waker);
				arg_str(p, "woken_by", who, false);
				arg_int(p, "waker_cpu", t->waker_cpu, false);
			}
			tail(p, true);
		}
		break;
	case T_SLEEPING:
		if (slice(p, sleep_name(t->letter), t->pid, t->tid, t->since, end)) {
			emit_lit(&p->out, ",\"args\":{\"state\":\"");
			emit_char(&p->out, t->letter);
			emit_char(&p->out, '"');
			if (t->blocked_in[0]) {
				emit_lit(&p->out, ",\"blocked_in\":");
				emit_json_cstr(&p->out, t->blocked_in);
			}
			emit_lit(&p->out, "}},\n");
		}
		break;
	default:
		break;
	}
	t->state = T_NONE;
	t->since = end;
}

static void cpu_close(struct pf *p, struct pf_cpu *c, int32_t cpu_nr, uint64_t time)
{
	uint64_t end = time > c->since ? time : c->since;

	if (c->tid > 0 && slice(p, c->comm, CPUS_PID, CPU_TID(cpu_nr), c->since, end)) {
		arg_int(p, "tid", c->tid, true);
		arg_int(p, "pid", c->pid, false);
		tail(p, true);
	}
	c->tid = -1;
	c->since = end;
}

/* ---- scheduling ---- */

static void name_task(struct pf_task *t, const char *comm)
{
	if (t && comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/* the function a task blocked in: the first frame that is not the scheduler itself */
static void blocked_in(const struct pf *p, const struct srep_event *ev, char *out, size_t size)
{
	static const char *const sched_prefixes[] = {
		"schedule", "__schedule", "io_schedule", "preempt_schedule", "__switch_to",
		"context_switch", "finish_task_switch", "__traceiter_", "__bpf_trace_",
		"perf_trace_", "trace_event_", "__perf_event_overflow", "perf_tp_event",
	};
	const char *name;
	uint32_t i;
	size_t k;

	out[0] = '\0';
	if (!p->ctx->symbolize)
		return;
	for (i = 0; i < ev->nr_callchain; i++) {
		if (ev->callchain[i] >= SREP_CONTEXT_MAX)
			continue;	/* a context marker, not an address */
		name = p->ctx->symbolize(p->ctx->symbolize_arg, ev->callchain[i]);
		if (!name)
			return;
		for (k = 0; k < sizeof(sched_prefixes) / sizeof(sched_prefixes[0]); k++) {
			if (!strncmp(name, sched_prefixes[k], strlen(sched_prefixes[k])))
				break;
		}
		if (k == sizeof(sched_prefixes) / sizeof(sched_prefixes[0])) {
			snprintf(out, size, "%s", name);
			return;
		}
	}
}

/* 'tid' starts running on 'cpu_nr' */
static void run_on(struct pf *p, int32_t cpu_nr, int32_t tid, int32_t pid, int32_t prio,
		   const char *comm, uint64_t time)
{
	struct pf_cpu *c = cpu(p, cpu_nr);
	struct pf_task *t = task(p, tid, pid);

	if (c && c->tid != -1)
		cpu_close(p, c, cpu_nr, time);	/* its switch-out was not recorded */
	if (!t)
		return;
	if (t->state == T_RUNNING && t->cpu != cpu_nr && t->cpu >= 0 &&
	    (size_t)t->cpu < p->nr_cpus && p->cpus[t->cpu].tid == tid)
		cpu_close(p, &p->cpus[t->cpu], t->cpu, time);
	task_close(p, t, time);
	t->state = T_RUNNING;
	t->cpu = cpu_nr;
	t->prio = prio;
	name_task(t, comm);
	if (!c)
		return;
	c->tid = tid;
	c->pid = t->pid;
	c->since = time > c->since ? time : c->since;
	snprintf(c->comm, sizeof(c->comm), "%s", t->comm[0] ? t->comm : comm_of(p, tid));
}

/* the previous task of the switch leaves its CPU in 'state' */
static void stop(struct pf *p, const struct srep_event *ev, char state)
{
	struct pf_cpu *c = cpu(p, ev->cpu);
	struct pf_task *t = task(p, ev->u.sw.prev_tid, ev->u.sw.prev_pid);

	if (c && c->tid != -1)
		cpu_close(p, c, ev->cpu, ev->time);
	if (!t)
		return;
	name_task(t, ev->u.sw.prev_comm);
	task_close(p, t, ev->time);
	if (t->exited || state == 'X' || state == 'Z')
		return;			/* dead: nothing more to show */
	if (state == 'R' || (ev->flags & SREP_EVF_PREEMPT)) {
		t->state = T_RUNNABLE;
		t->waker = t->waker_cpu = -1;
		return;
	}
	t->state = T_SLEEPING;
	t->letter = state;
	blocked_in(p, ev, t->blocked_in, sizeof(t->blocked_in));
}

static void on_switch(struct pf *p, const struct srep_event *ev)
{
	const struct srep_switch *sw = &ev->u.sw;

	if (!(ev->flags & SREP_EVF_SWITCH_IN))
		stop(p, ev, sw->prev_state);
	if (!(ev->flags & SREP_EVF_SWITCH_OUT))
		run_on(p, ev->cpu, sw->next_tid, sw->next_pid, sw->next_prio, sw->next_comm, ev->time);
}

static void flow(struct pf *p, const struct pf_task *from, const struct pf_task *to, uint64_t time)
{
	uint64_t id = ++p->next_flow;

	head(p, 's', "wakeup", from->pid, from->tid, time);
	emit_lit(&p->out, ",\"cat\":\"sched\",\"id\":");
	emit_u64(&p->out, id);
	tail(p, false);
	/* no "bp": the flow ends at the wakee's next slice (Runnable, or Running) */
	head(p, 'f', "wakeup", to->pid, to->tid, time);
	emit_lit(&p->out, ",\"cat\":\"sched\",\"id\":");
	emit_u64(&p->out, id);
	tail(p, false);
}

static void on_wakeup(struct pf *p, const struct srep_event *ev)
{
	struct pf_task *t = task(p, ev->u.wake.tid, ev->u.wake.pid), *w;

	name_task(t, ev->u.wake.comm);
	if (!t || t->state == T_RUNNABLE || t->state == T_RUNNING)
		return;			/* sched_wakeup after sched_waking: woken already */
	task_close(p, t, ev->time);
	t->state = T_RUNNABLE;
	t->waker = ev->tid;
	t->waker_cpu = ev->cpu;
	/* a flow needs the waker's Running slice around it */
	w = ev->tid > 0 ? task(p, ev->tid, ev->pid) : NULL;
	snprintf(t->waker_comm, sizeof(t->waker_comm), "%s",
		 w && w->comm[0] ? w->comm : comm_of(p, ev->tid));
	if (w && w->state == T_RUNNING && w->since < ev->time && in_window(p, ev->time))
		flow(p, w, t, ev->time);
}

/* ---- instants and counters ---- */

static bool instant(struct pf *p, const char *name, const struct pf_task *t, uint64_t time)
{
	if (!t || !in_window(p, time))
		return false;
	head(p, 'i', name, t->pid, t->tid, time);
	emit_lit(&p->out, ",\"s\":\"t\"");
	return true;
}

static void on_task_event(struct pf *p, const struct srep_event *ev)
{
	char who[SREP_COMM_MAX + 16];
	struct pf_task *t;

	switch (ev->kind) {
	case SREP_EV_FORK:
		/* the child's process is known now: its thread track goes there */
		name_task(task(p, ev->u.fork.child_tid, ev->u.fork.child_pid), ev->u.fork.child_comm);
		if (instant(p, "fork", task(p, ev->u.fork.parent_tid, ev->u.fork.parent_pid), ev->time)) {
			snprintf(who, sizeof(who), "%s (%d)", ev->u.fork.child_comm, ev->u.fork.child_tid);
			arg_str(p, "child", who, true);
			tail(p, true);
		}
		break;
	case SREP_EV_EXEC:
		t = task(p, ev->u.exec.tid, ev->u.exec.pid);
		name_task(t, ev->u.exec.comm);
		if (instant(p, "exec", t, ev->time)) {
			arg_str(p, "comm", ev->u.exec.comm, true);
			if (ev->u.exec.filename[0])	/* COMM records do not say */
				arg_str(p, "filename", ev->u.exec.filename, false);
			tail(p, true);
		}
		break;
	case SREP_EV_EXIT:
		t = task(p, ev->u.exit.tid, ev->u.exit.pid);
		if (t)
			t->exited = true;
		if (instant(p, "exit", t, ev->time))
			tail(p, false);
		break;
	case SREP_EV_COMM:
		/* a task known by another name takes this one (exec's own COMM is no news) */
		t = task(p, ev->u.comm.tid, ev->u.comm.pid);
		if (t && t->comm[0] && strcmp(t->comm, ev->u.comm.comm) &&
		    !(ev->flags & SREP_EVF_EXEC_COMM) && instant(p, "rename", t, ev->time)) {
			arg_str(p, "from", t->comm, true);
			arg_str(p, "to", ev->u.comm.comm, false);
			tail(p, true);
		}
		name_task(t, ev->u.comm.comm);
		break;
	case SREP_EV_MIGRATE:
		if (instant(p, "migrate", task(p, ev->u.migrate.tid, ev->u.migrate.pid), ev->time)) {
			arg_int(p, "from_cpu", ev->u.migrate.orig_cpu, true);
			arg_int(p, "to_cpu", ev->u.migrate.dest_cpu, false);
			tail(p, true);
		}
		break;
	default:
		break;
	}
}

static void on_cpu_event(struct pf *p, const struct srep_event *ev)
{
	char name[48];

	if (!in_window(p, ev->time))
		return;
	if (ev->kind == SREP_EV_LOST) {
		head(p, 'i', ev->u.lost.samples ? "lost samples" : "lost events", CPUS_PID, CPUS_PID,
		     ev->time);
		emit_lit(&p->out, ",\"s\":\"g\"");
		arg_int(p, "lost", (int64_t)ev->u.lost.lost, true);
		arg_int(p, "cpu", ev->cpu, false);
		tail(p, true);
		return;
	}
	snprintf(name, sizeof(name), "cpu%d %s", ev->u.cpu_state.cpu,
		 ev->kind == SREP_EV_CPU_FREQ ? "frequency" : "idle");
	head(p, 'C', name, CPUS_PID, CPUS_PID, ev->time);
	arg_int(p, ev->kind == SREP_EV_CPU_FREQ ? "kHz" : "state", ev->u.cpu_state.state, true);
	tail(p, true);
}

static int pf_event(void *state, const struct srep_event *ev, struct srep_error *err)
{
	struct pf *p = state;

	if (ev->time > p->last_time)
		p->last_time = ev->time;
	if (ev->time && !p->first_time)
		p->first_time = ev->time;
	switch (ev->kind) {
	case SREP_EV_SWITCH:	on_switch(p, ev); break;
	case SREP_EV_WAKEUP:	on_wakeup(p, ev); break;
	case SREP_EV_CPU_IDLE:
	case SREP_EV_CPU_FREQ:
	case SREP_EV_LOST:	on_cpu_event(p, ev); break;
	default:		on_task_event(p, ev); break;
	}
	if (p->nomem)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline state");
	return p->out.failed ? srep_error__set(err, SREP_E_IO, "cannot write the output") : 0;
}

/* ---- the frame: begin, names at the end, otherData ---- */

static int pf_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	struct pf *p = calloc(1, sizeof(*p));

	*state = p;
	if (!p || emit_init(&p->out, ctx->out))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline");
	p->ctx = ctx;
	emit_lit(&p->out, "{\"traceEvents\":[\n");
	return 0;
}

static void meta_name(struct pf *p, const char *what, int32_t pid, int32_t tid, const char *name,
		      bool last)
{
	emit_lit(&p->out, "{\"ph\":\"M\",\"name\":\"");
	emit_cstr(&p->out, what);
	emit_lit(&p->out, "\",\"pid\":");
	emit_i64(&p->out, pid);
	emit_lit(&p->out, ",\"tid\":");
	emit_i64(&p->out, tid);
	emit_lit(&p->out, ",\"args\":{\"name\":");
	emit_json_cstr(&p->out, name);
	emit_lit(&p->out, "}}");
	emit_cstr(&p->out, last ? "\n" : ",\n");
}

static int cmp_task(const void *a, const void *b)
{
	const struct pf_task *x = *(const struct pf_task *const *)a, *y = *(const struct pf_task *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* the tasks shown, by process then thread */
static struct pf_task **sorted_tasks(struct pf *p)
{
	struct pf_task **v = malloc((p->nr_tasks ? p->nr_tasks : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < p->nr_slots; i++) {
		if (p->tasks[i].tid != -1)
			v[n++] = &p->tasks[i];
	}
	qsort(v, n, sizeof(*v), cmp_task);
	return v;
}

static void names(struct pf *p, struct pf_task **v)
{
	const struct srep_task *t;
	char label[SREP_EXPORT_LABEL_MAX];
	size_t i;

	for (i = 0; i < p->nr_tasks; i++) {
		t = srep_session__find_task(p->ctx->session, v[i]->tid);
		if (t && srep_task__nr_comms(t)) {
			srep_export_task_label(t, label, sizeof(label));
			meta_name(p, "thread_name", v[i]->pid, v[i]->tid, label, false);
		}
		if (i && v[i - 1]->pid == v[i]->pid)
			continue;
		/* a process is named after its main thread, else after its first thread */
		t = srep_session__find_task(p->ctx->session, v[i]->pid);
		if (!t || srep_task__pid(t) != v[i]->pid)
			t = srep_session__find_task(p->ctx->session, v[i]->tid);
		if (t && srep_task__nr_comms(t)) {
			srep_export_task_label(t, label, sizeof(label));
			meta_name(p, "process_name", v[i]->pid, v[i]->pid, label, false);
		}
	}
	for (i = 0; i < p->nr_cpus; i++) {
		if (!p->cpus[i].seen)
			continue;
		snprintf(label, sizeof(label), "CPU %zu", i);
		meta_name(p, "thread_name", CPUS_PID, CPU_TID((int32_t)i), label, false);
	}
	meta_name(p, "process_name", CPUS_PID, CPUS_PID, "CPUs", true);
}

static void other_str(struct pf *p, const char *key, const char *v)
{
	emit_lit(&p->out, ",\n\"");
	emit_cstr(&p->out, key);
	emit_lit(&p->out, "\":");
	if (v)
		emit_json_cstr(&p->out, v);
	else
		emit_lit(&p->out, "null");
}

static void other_int(struct pf *p, const char *key, int64_t v)
{
	emit_lit(&p->out, ",\n\"");
	emit_cstr(&p->out, key);
	emit_lit(&p->out, "\":");
	emit_i64(&p->out, v);
}

/* the trace's facts: where it was recorded, and the first timestamp */
static void other_data(struct pf *p)
{
	const struct srep_meta *m = srep_session__meta(p->ctx->session);
	const struct srep_stats *st = srep_session__stats(p->ctx->session);

	emit_lit(&p->out, "],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"schedrep\"");
	other_str(p, "arch", m->arch);
	other_str(p, "byte_order", m->big_endian ? "big" : "little");
	other_int(p, "word_size", m->word_size);
	other_str(p, "kernel", m->osrelease);
	other_str(p, "hostname", m->hostname);
	other_str(p, "perf_version", m->perf_version);
	other_str(p, "cpu", m->cpudesc);
	other_int(p, "cpus_online", m->nr_cpus_online);
	other_int(p, "cpus_available", m->nr_cpus_avail);
	other_int(p, "clockid", m->clockid);
	other_int(p, "first_timestamp_ns", (int64_t)p->first_time);
	other_int(p, "lost_events", (int64_t)st->lost);
	other_int(p, "lost_samples", (int64_t)st->lost_samples);
	emit_lit(&p->out, ",\n\"timestamps\":\"perf clock, microseconds\"}}\n");
}

static int pf_end(void *state, struct srep_error *err)
{
	struct pf *p = state;
	struct pf_task **v = sorted_tasks(p);
	size_t i;

	if (!v)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline names");
	/* what is still open ends with the trace */
	for (i = 0; i < p->nr_tasks; i++)
		task_close(p, v[i], p->last_time);
	for (i = 0; i < p->nr_cpus; i++)
		cpu_close(p, &p->cpus[i], (int32_t)i, p->last_time);
	names(p, v);
	free(v);
	other_data(p);
	if (emit_flush(&p->out))
		return srep_error__set(err, SREP_E_IO, "cannot write the output: %s",
				       p->out.err_no ? strerror(p->out.err_no) : "no memory");
	return 0;
}

static void pf_destroy(void *state)
{
	struct pf *p = state;

	if (!p)
		return;
	emit_free(&p->out);
	free(p->tasks);
	free(p->cpus);
	free(p);
}

const struct srep_exporter srep_exporter_perfetto = {
	.name = "perfetto",
	.suffix = ".json",
	.summary = "Chrome Trace Event JSON for ui.perfetto.dev and chrome://tracing",
	.begin = pf_begin,
	.event = pf_event,
	.end = pf_end,
	.destroy = pf_destroy,
};
