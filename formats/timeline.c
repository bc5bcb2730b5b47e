// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timeline.c - task and CPU states from the event stream (see timeline.h).
 */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

#define CPU_MAX	65536	/* CPU numbers above are damage: no CPU state for them */

void tl_init(struct timeline *tl, const struct srep_export_ctx *ctx, const struct tl_hooks *hooks,
	     void *arg)
{
	memset(tl, 0, sizeof(*tl));
	tl->ctx = ctx;
	tl->hooks = hooks;
	tl->arg = arg;
}

void tl_free(struct timeline *tl)
{
	free(tl->tasks);
	free(tl->cpus);
	tl->tasks = NULL;
	tl->cpus = NULL;
}

/* ---- tables ---- */

static size_t slot_of(const struct timeline *tl, int32_t tid)
{
	size_t j = ((uint32_t)tid * 2654435761u) & (tl->nr_slots - 1);

	while (tl->tasks[j].tid != -1 && tl->tasks[j].tid != tid)
		j = (j + 1) & (tl->nr_slots - 1);
	return j;
}

static int grow_tasks(struct timeline *tl)
{
	size_t n = tl->nr_slots ? tl->nr_slots * 2 : 1024, old_n = tl->nr_slots, i;
	struct tl_task *old = tl->tasks;

	tl->tasks = malloc(n * sizeof(*tl->tasks));
	if (!tl->tasks) {
		tl->tasks = old;
		return -1;
	}
	for (i = 0; i < n; i++)
		tl->tasks[i].tid = -1;
	tl->nr_slots = n;
	for (i = 0; i < old_n; i++) {
		if (old[i].tid != -1)
			tl->tasks[slot_of(tl, old[i].tid)] = old[i];
	}
	free(old);
	for (i = 0; i < tl->nr_cpus; i++)
		tl->cpus[i].task = NULL;	/* the entries moved */
	return 0;
}

/* the task's pid, decided once so that all its events land on one thread */
static int32_t pid_for(const struct timeline *tl, int32_t tid, int32_t hint)
{
	const struct srep_task *t;

	if (hint >= 0)
		return hint;
	t = srep_session__find_task(tl->ctx->session, tid);
	return t && srep_task__pid(t) >= 0 ? srep_task__pid(t) : tid;
}

const struct tl_task *tl_find(const struct timeline *tl, int32_t tid)
{
	const struct tl_task *t;

	if (!tl->nr_slots)
		return NULL;
	t = &tl->tasks[slot_of(tl, tid)];
	return t->tid == tid ? t : NULL;
}

struct tl_task *tl_task(struct timeline *tl, int32_t tid, int32_t pid_hint)
{
	struct tl_task *t;

	if (tid <= 0 || !srep_export_has_tid(tl->ctx->sel, tid))
		return NULL;
	if ((tl->nr_tasks + 1) * 2 > tl->nr_slots && grow_tasks(tl)) {
		tl->nomem = true;
		return NULL;
	}
	t = &tl->tasks[slot_of(tl, tid)];
	if (t->tid == -1) {
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		t->pid = pid_for(tl, tid, pid_hint);
		t->waker = t->waker_cpu = -1;
		tl->nr_tasks++;
	}
	return t;
}

static struct tl_cpu *cpu(struct timeline *tl, int32_t c)
{
	struct tl_cpu *n;
	size_t i;

	if (c < 0 || c >= CPU_MAX)
		return NULL;
	if ((size_t)c >= tl->nr_cpus) {
		n = realloc(tl->cpus, ((size_t)c + 1) * sizeof(*n));
		if (!n) {
			tl->nomem = true;
			return NULL;
		}
		for (i = tl->nr_cpus; i <= (size_t)c; i++)
			n[i] = (struct tl_cpu){ .tid = -1 };
		tl->cpus = n;
		tl->nr_cpus = (size_t)c + 1;
	}
	tl->cpus[c].seen = true;
	return &tl->cpus[c];
}

static const char *comm_of(const struct timeline *tl, int32_t tid)
{
	const struct srep_task *t = srep_session__find_task(tl->ctx->session, tid);

	return t ? srep_task__comm(t) : "";
}

/* a comm into a comm array (snprintf's format parsing showed in profiles: twice a switch) */
static void copy_comm(char *dst, const char *src)
{
	size_t len = strnlen(src, SREP_COMM_MAX - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void name_task(const struct timeline *tl, struct tl_task *t, const char *comm)
{
	if (t && comm[0] && !tl->hooks->unnamed)
		copy_comm(t->comm, comm);
}

/* ---- closing intervals ---- */

static void task_close(struct timeline *tl, struct tl_task *t, uint64_t time)
{
	uint64_t end = time > t->since ? time : t->since;

	if (t->state != TL_NONE && tl->hooks->task_end)
		tl->hooks->task_end(tl->arg, t, end);
	t->state = TL_NONE;
	t->since = end;
}

static void cpu_close(struct timeline *tl, struct tl_cpu *c, int32_t cpu_nr, uint64_t time)
{
	uint64_t end = time > c->since ? time : c->since;

	if (c->tid > 0 && tl->hooks->cpu_end)
		tl->hooks->cpu_end(tl->arg, cpu_nr, c, end);
	c->tid = -1;
	c->task = NULL;
	c->since = end;
}

/*
 * The CPU's task leaves it without a switch-out (lost, or not recorded):
 * another task runs there now, so its run ends here too, in a state not
 * known until its next event (else it would run on for seconds, on a CPU
 * busy with others).
 */
static void evict(struct timeline *tl, struct tl_cpu *c, int32_t cpu_nr, uint64_t time)
{
	struct tl_task *t = c->task ? c->task :
			    c->tid > 0 ? (struct tl_task *)tl_find(tl, c->tid) : NULL;

	cpu_close(tl, c, cpu_nr, time);
	if (t && t->state == TL_RUNNING && t->cpu == cpu_nr)
		task_close(tl, t, time);
}

/* ---- scheduling ---- */

/*
 * tl_task() for a task that may be the one running on 'c' (a switch's
 * prev, a wakeup's waker): most are, and the CPU keeps its entry, which
 * saves a hash lookup and a selection check per event.
 */
static struct tl_task *task_on(struct timeline *tl, struct tl_cpu *c, int32_t tid, int32_t pid)
{
	if (c && c->task && c->tid == tid)
		return c->task;
	return tl_task(tl, tid, pid);
}

/* 'tid' starts running on 'cpu_nr' */
static void run_on(struct timeline *tl, int32_t cpu_nr, int32_t tid, int32_t pid, int32_t prio,
		   const char *comm, uint64_t time)
{
	struct tl_cpu *c = cpu(tl, cpu_nr);
	struct tl_task *t = tl_task(tl, tid, pid);

	if (c && c->tid != -1 && c->tid != tid)
		evict(tl, c, cpu_nr, time);
	else if (c && c->tid != -1)
		cpu_close(tl, c, cpu_nr, time);	/* switched in again, no switch-out between */
	if (!t)
		return;
	if (t->state == TL_RUNNING && t->cpu != cpu_nr && t->cpu >= 0 &&
	    (size_t)t->cpu < tl->nr_cpus && tl->cpus[t->cpu].tid == tid)
		cpu_close(tl, &tl->cpus[t->cpu], t->cpu, time);
	task_close(tl, t, time);
	t->state = TL_RUNNING;
	t->cpu = cpu_nr;
	t->prio = prio;
	name_task(tl, t, comm);
	if (!c)
		return;
	c->tid = tid;
	c->task = t;
	c->pid = t->pid;
	c->since = time > c->since ? time : c->since;
	if (!tl->hooks->unnamed)
		copy_comm(c->comm, t->comm[0] ? t->comm : comm_of(tl, tid));
}

/* the previous task of the switch leaves its CPU in 'state' */
static void stop(struct timeline *tl, const struct srep_event *ev, char state)
{
	struct tl_cpu *c = cpu(tl, ev->cpu);
	struct tl_task *t = task_on(tl, c, ev->u.sw.prev_tid, ev->u.sw.prev_pid);

	if (c && c->tid != -1 && c->tid != ev->u.sw.prev_tid)
		evict(tl, c, ev->cpu, ev->time);
	else if (c && c->tid != -1)
		cpu_close(tl, c, ev->cpu, ev->time);
	if (!t)
		return;
	name_task(tl, t, ev->u.sw.prev_comm);
	task_close(tl, t, ev->time);
	if (t->exited || state == 'X' || state == 'Z')
		return;			/* dead: nothing more to show */
	if (state == 'R' || (ev->flags & SREP_EVF_PREEMPT)) {
		t->state = TL_RUNNABLE;
		t->woken = false;
		t->waker = t->waker_cpu = -1;
		return;
	}
	t->state = TL_SLEEPING;
	t->letter = state;
	t->blocked = 0;
	if (tl->ctx->symbols && ev->nr_callchain)
		t->blocked = srep_symbolizer__blocked_in(tl->ctx->symbols, ev, &t->blocked_kernel,
							 &t->blocked_user);
}

static void on_switch(struct timeline *tl, const struct srep_event *ev)
{
	const struct srep_switch *sw = &ev->u.sw;

	if (!(ev->flags & SREP_EVF_SWITCH_IN))
		stop(tl, ev, sw->prev_state);
	if (!(ev->flags & SREP_EVF_SWITCH_OUT))
		run_on(tl, ev->cpu, sw->next_tid, sw->next_pid, sw->next_prio, sw->next_comm, ev->time);
}

static void on_wakeup(struct timeline *tl, const struct srep_event *ev)
{
	struct tl_task *t = tl_task(tl, ev->u.wake.tid, ev->u.wake.pid), *w;

	name_task(tl, t, ev->u.wake.comm);
	if (!t || t->state == TL_RUNNABLE || t->state == TL_RUNNING)
		return;			/* sched_wakeup after sched_waking: woken already */
	task_close(tl, t, ev->time);
	t->state = TL_RUNNABLE;
	t->woken = true;
	t->waker = ev->tid;		/* -1 when the sample did not say (an exiting task) */
	t->waker_cpu = ev->cpu;
	w = ev->tid > 0 ? task_on(tl, ev->cpu >= 0 && (size_t)ev->cpu < tl->nr_cpus ?
				  &tl->cpus[ev->cpu] : NULL, ev->tid, ev->pid) : NULL;
	if (!tl->hooks->unnamed)
		copy_comm(t->waker_comm, w && w->comm[0] ? w->comm : comm_of(tl, ev->tid));
	/* the waker is seen running around the wakeup: the exporter may link them */
	if (w && w->state == TL_RUNNING && w->since < ev->time && tl->hooks->wakeup)
		tl->hooks->wakeup(tl->arg, w, t, ev->time);
}

void tl_event(struct timeline *tl, const struct srep_event *ev)
{
	struct tl_task *t;

	switch (ev->kind) {
	case SREP_EV_SWITCH:
		on_switch(tl, ev);
		break;
	case SREP_EV_WAKEUP:
		on_wakeup(tl, ev);
		break;
	case SREP_EV_FORK:
		/* the child's process is known now: its thread goes there */
		name_task(tl, tl_task(tl, ev->u.fork.child_tid, ev->u.fork.child_pid),
			  ev->u.fork.child_comm);
		break;
	case SREP_EV_EXEC:
		name_task(tl, tl_task(tl, ev->u.exec.tid, ev->u.exec.pid), ev->u.exec.comm);
		break;
	case SREP_EV_COMM:
		name_task(tl, tl_task(tl, ev->u.comm.tid, ev->u.comm.pid), ev->u.comm.comm);
		break;
	case SREP_EV_EXIT:
		t = tl_task(tl, ev->u.exit.tid, ev->u.exit.pid);
		if (t)
			t->exited = true;
		/*
		 * Per-task SWITCH records say no CPU, and the task's events are
		 * closed before its last switch-out: nothing else ends its run.
		 */
		if (t && t->state == TL_RUNNING && t->cpu < 0)
			task_close(tl, t, ev->time);
		break;
	default:
		break;
	}
}

static int cmp_task(const void *a, const void *b)
{
	const struct tl_task *x = *(const struct tl_task *const *)a;
	const struct tl_task *y = *(const struct tl_task *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

struct tl_task **tl_sorted_tasks(struct timeline *tl)
{
	struct tl_task **v = malloc((tl->nr_tasks ? tl->nr_tasks : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < tl->nr_slots; i++) {
		if (tl->tasks[i].tid != -1)
			v[n++] = &tl->tasks[i];
	}
	qsort(v, n, sizeof(*v), cmp_task);
	return v;
}

void tl_finish(struct timeline *tl, uint64_t end)
{
	struct tl_task **v = tl_sorted_tasks(tl);
	size_t i;

	/* in a stable order: outputs are compared with golden files */
	for (i = 0; v && i < tl->nr_tasks; i++)
		task_close(tl, v[i], end);
	if (!v)
		tl->nomem = true;
	free(v);
	for (i = 0; i < tl->nr_cpus; i++)
		cpu_close(tl, &tl->cpus[i], (int32_t)i, end);
}
