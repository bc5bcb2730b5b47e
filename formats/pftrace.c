// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pftrace.c - Perfetto's native protobuf trace: the scheduler events as
 * the ftrace events Perfetto's own recorder writes, so its UI draws CPU
 * tracks and thread states and its trace processor fills the sched,
 * thread_state, thread and process tables.
 *
 * The file is a stream of TracePackets: system info (kernel release, from
 * which Perfetto decodes prev_state; machine; CPU count) and a clock
 * snapshot first, per-CPU FtraceEventBundles as the events come
 * (pftrace-cpu.c), then the process tree from the session's task table,
 * the loss counts and the trace's facts. Timestamps stay in the perf
 * clock, written as Perfetto's default clock (BOOTTIME): sched.ts equals
 * perf script's times.
 *
 * Traces with SWITCH records instead of the sched_switch tracepoint get
 * the switches those records describe: a switch-out writes prev -> next
 * (next the idle task when the record does not name it: per-task records),
 * a switch-in that no switch-out announced writes current -> next. What a
 * switch-out record cannot tell, S or D, is written S (the reader's rule).
 * Records without the CPU (per-task recording without CPU in sample_id)
 * belong on no CPU track and are left out.
 *
 * Events with a callchain (-g) also become callstack samples, their frames
 * resolved with the symbol options (pftrace-stacks.c), and a switch-out
 * into a sleep also says where the task blocked (pftrace-blocked.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "pftrace.h"

/* ProcessTree entries per packet: Perfetto's own writer splits them too */
#define PFT_TASKS_PER_PACKET	1024
#define CLONE_THREAD		0x00010000
#define CLOCK_BOOTTIME		6	/* Perfetto's BuiltinClock numbers */
#define CLOCK_REALTIME		1
#define SEQ_INCREMENTAL_CLEARED	1

bool pft_nomem(const struct pft *p)
{
	size_t i;

	if (p->nomem || p->pkt.nomem)
		return true;
	for (i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i] && pft_cpu_nomem(p->cpus[i]))
			return true;
	return false;
}

void pft_packet_begin(struct pft *p, uint64_t ts)
{
	pbw_reset(&p->pkt);
	if (ts)
		pbw_uint(&p->pkt, PF_PKT_TIMESTAMP, ts);
	pbw_uint(&p->pkt, PF_PKT_SEQ_ID, 1);
	if (!p->first_packet_done) {
		pbw_uint(&p->pkt, PF_PKT_SEQ_FLAGS, SEQ_INCREMENTAL_CLEARED);
		pbw_uint(&p->pkt, PF_PKT_FIRST_ON_SEQ, 1);
		p->first_packet_done = true;
	}
}

void pft_packet_end(struct pft *p)
{
	uint8_t head[16], *o = head;

	if (p->pkt.nomem)
		return;
	*o++ = PF_TRACE_PACKET << 3 | PBW_LEN;
	o = pbw_put_varint(o, p->pkt.len);
	emit_raw(&p->out, (const char *)head, (size_t)(o - head));
	emit_raw(&p->out, (const char *)p->pkt.buf, p->pkt.len);
}

/* ---- prev_state in the recording kernel's sched_switch encoding ---- */

static bool kernel_at_least(const struct pft *p, int major, int minor)
{
	return p->kernel[0] > major || (p->kernel[0] == major && p->kernel[1] >= minor);
}

/*
 * The bits sched_switch reports for a state letter. Up to 0x20 (Z) they
 * never changed; 4.14 reordered the rest and reports preemption as
 * TASK_REPORT_MAX (0x100); before, preemption was TASK_STATE_MAX (0x1000
 * from 4.8, 0x800 before). Perfetto decodes them with the release of the
 * system info. Perfetto has no unknown state (it counts an invalid one as
 * an import error): what the records cannot tell is written R, the
 * kernel's 0.
 */
static int64_t prev_state(const struct pft *p, char letter, bool preempt)
{
	bool v414 = kernel_at_least(p, 4, 14);

	if (preempt)
		return v414 ? 0x100 : kernel_at_least(p, 4, 8) ? 0x1000 : 0x800;
	switch (letter) {
	case 'R': return 0;
	case 'S': return 0x1;
	case 'D': return 0x2;
	case 'T': return 0x4;
	case 't': return 0x8;
	case 'X': return 0x10;
	case 'Z': return 0x20;
	case 'P': return v414 ? 0x40 : 0x200;
	case 'I': return v414 ? 0x80 : 0x402;	/* before: D | TASK_NOLOAD */
	default:  return 0;
	}
}

/* ---- events ---- */

static void task_event_fields(struct pbw *w, const char *comm, int32_t tid, int32_t prio)
{
	pbw_str(w, 1, comm, SREP_COMM_MAX);
	pbw_int(w, 2, tid);
	pbw_int(w, 3, prio == INT32_MIN ? 120 : prio);
}

/* EVENT(...) { fields } writes one whole FtraceEvent: the statement runs once, between
   pft_event_begin() and pft_event_end() */
#define EVENT(p, cpu, ts, pid, field)						\
	for (size_t outer_, inner_ = pft_event_begin(p, cpu, ts, pid, field, &outer_), once_ = 1; \
	     once_; once_ = 0, pft_event_end(p, cpu, inner_, outer_))

static struct pbw *events_of(struct pft *p, int32_t cpu)
{
	return &p->cpus[cpu]->events;
}

static void on_wakeup(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	const struct srep_wakeup *wk = &ev->u.wake;

	if (wk->kind == SREP_WAKE_NEW) {
		EVENT(p, cpu, ev->time, ev->tid, PF_EV_SCHED_WAKEUP_NEW) {
			task_event_fields(events_of(p, cpu), wk->comm, wk->tid, wk->prio);
			pbw_int(events_of(p, cpu), 4, 1);
			pbw_int(events_of(p, cpu), 5, wk->target_cpu >= 0 ? wk->target_cpu : cpu);
		}
	}
	/* every wakeup starts a Runnable state, in Perfetto as in schedrep's metrics */
	pft_waking(p, cpu, ev->time, ev->tid, wk);
}

static void on_fork(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	const struct srep_fork *f = &ev->u.fork;
	struct pbw *w;

	/* task_newtask is what Perfetto builds its thread and process tables from */
	EVENT(p, cpu, ev->time, f->parent_tid, PF_EV_TASK_NEWTASK) {
		w = events_of(p, cpu);
		pbw_int(w, 1, f->child_tid);
		pbw_str(w, 2, f->child_comm, SREP_COMM_MAX);
		pbw_uint(w, 3, f->child_pid == f->parent_pid ? CLONE_THREAD : 0);
	}
	EVENT(p, cpu, ev->time, f->parent_tid, PF_EV_SCHED_PROCESS_FORK) {
		w = events_of(p, cpu);
		pbw_str(w, 1, f->parent_comm, SREP_COMM_MAX);
		pbw_int(w, 2, f->parent_tid);
		pbw_str(w, 3, f->child_comm, SREP_COMM_MAX);
		pbw_int(w, 4, f->child_tid);
	}
}

static void on_task_event(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	struct pbw *w;

	switch (ev->kind) {
	case SREP_EV_MIGRATE:
		EVENT(p, cpu, ev->time, ev->tid, PF_EV_SCHED_MIGRATE_TASK) {
			w = events_of(p, cpu);
			task_event_fields(w, ev->u.migrate.comm, ev->u.migrate.tid, ev->u.migrate.prio);
			pbw_int(w, 4, ev->u.migrate.orig_cpu);
			pbw_int(w, 5, ev->u.migrate.dest_cpu);
		}
		break;
	case SREP_EV_EXEC:
		EVENT(p, cpu, ev->time, ev->u.exec.tid, PF_EV_SCHED_PROCESS_EXEC) {
			w = events_of(p, cpu);
			pbw_str(w, 1, ev->u.exec.filename, SIZE_MAX);
			pbw_int(w, 2, ev->u.exec.tid);
			pbw_int(w, 3, ev->u.exec.old_tid);
		}
		break;
	case SREP_EV_COMM:
		EVENT(p, cpu, ev->time, ev->u.comm.tid, PF_EV_TASK_RENAME) {
			w = events_of(p, cpu);
			pbw_int(w, 1, ev->u.comm.tid);
			pbw_str(w, 3, ev->u.comm.comm, SREP_COMM_MAX);
		}
		break;
	case SREP_EV_EXIT:
		EVENT(p, cpu, ev->time, ev->u.exit.tid, PF_EV_SCHED_PROCESS_EXIT) {
			w = events_of(p, cpu);
			pbw_str(w, 1, ev->u.exit.comm, SREP_COMM_MAX);
			pbw_int(w, 2, ev->u.exit.tid);
			pbw_int(w, 3, ev->u.exit.pid);
			pbw_int(w, 4, ev->u.exit.prio == INT32_MIN ? 120 : ev->u.exit.prio);
		}
		break;
	case SREP_EV_FREE:
		EVENT(p, cpu, ev->time, ev->tid, PF_EV_SCHED_PROCESS_FREE)
			task_event_fields(events_of(p, cpu), ev->u.exit.comm, ev->u.exit.tid,
					  ev->u.exit.prio);
		break;
	default:
		break;
	}
}

static void on_cpu_state(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	uint32_t field = ev->kind == SREP_EV_CPU_FREQ ? PF_EV_CPU_FREQUENCY : PF_EV_CPU_IDLE;

	EVENT(p, cpu, ev->time, ev->tid, field) {
		/* leaving idle is state -1: the kernel's u32 4294967295 */
		pbw_uint(events_of(p, cpu), 1, (uint32_t)ev->u.cpu_state.state);
		pbw_uint(events_of(p, cpu), 2, (uint32_t)ev->u.cpu_state.cpu);
	}
}

static void comm_of(const struct pft *p, int32_t tid, char comm[SREP_COMM_MAX])
{
	const struct srep_task *t = srep_session__current_task(p->ctx->session, tid);

	snprintf(comm, SREP_COMM_MAX, "%s", t ? srep_task__comm(t) : "");
}

/*
 * A task switched in here while the records left it running on another
 * CPU (its switch-out there is missing): schedrep's metrics end that run
 * now, so the other CPU gets a switch to the idle task, the state unknown
 * (the time that CPU's next switch fills in is counted from its last real
 * switch, so that one keeps its time).
 */
static void leave_elsewhere(struct pft *p, const struct srep_event *ev, int32_t cpu, int32_t tid)
{
	/* found, not made: a task the timeline has not seen runs nowhere */
	const struct tl_task *t = tid > 0 ? tl_find(&p->tl, tid) : NULL;
	struct srep_switch sw;
	struct pft_cpu *other;
	uint64_t switched;

	if (!t || t->state != TL_RUNNING || t->cpu == cpu || t->cpu < 0 ||
	    (size_t)t->cpu >= p->nr_cpus || !p->cpus[t->cpu] || p->cpus[t->cpu]->next_tid != tid)
		return;
	sw = (struct srep_switch){ .prev_pid = -1, .prev_tid = tid, .prev_prio = INT32_MIN,
				   .next_pid = 0, .next_tid = 0, .next_prio = INT32_MIN };
	other = p->cpus[t->cpu];
	comm_of(p, tid, sw.prev_comm);
	snprintf(sw.next_comm, sizeof(sw.next_comm), "swapper/%d", t->cpu);
	switched = other->switched;
	pft_switch(p, t->cpu, ev->time, &sw, prev_state(p, '?', false));
	other->switched = switched;
}

/*
 * A switch whose prev is not the task the CPU's last switch put there (the
 * idle task before the CPU's first switch): switches went missing, lost or
 * before the trace. Perfetto would leave the slice it knew there open to
 * the end, and show nothing of prev before; schedrep's metrics take prev
 * to have run since the CPU's last switch (or the trace's start), or since
 * its fork or it was last seen elsewhere when later. A switch current ->
 * prev at that time, the state of current unknown, says the same to Perfetto.
 */
static void fill_gap(struct pft *p, const struct srep_event *ev, int32_t cpu,
		     const struct srep_switch *sw)
{
	const struct pft_cpu *c = p->cpus[cpu];
	int32_t cur_tid = c->next_tid >= 0 ? c->next_tid : 0;
	uint64_t since = c->next_tid >= 0 ? c->switched : p->first_time;
	const struct srep_task *cur, *task;
	struct srep_switch gap;
	const struct tl_task *t;

	if (sw->prev_tid < 0 || sw->prev_tid == cur_tid)
		return;
	task = srep_session__current_task(p->ctx->session, sw->prev_tid);
	if (task && srep_task__fork_time(task) > since && srep_task__fork_time(task) <= ev->time)
		since = srep_task__fork_time(task);
	t = tl_find(&p->tl, sw->prev_tid);	/* one not seen yet has no time to tell */
	if (t && t->state != TL_RUNNING && t->since > since && t->since <= ev->time)
		since = t->since;
	cur = srep_session__current_task(p->ctx->session, cur_tid);
	gap = (struct srep_switch){
		.prev_pid = -1, .prev_tid = cur_tid, .prev_prio = INT32_MIN,
		.next_pid = sw->prev_pid, .next_tid = sw->prev_tid, .next_prio = sw->prev_prio,
	};
	snprintf(gap.prev_comm, sizeof(gap.prev_comm), "%s", cur ? srep_task__comm(cur) : "");
	memcpy(gap.next_comm, sw->prev_comm, sizeof(gap.next_comm));
	pft_switch(p, cpu, since, &gap, prev_state(p, cur_tid ? '?' : 'R', false));
}

/* one half of a SWITCH record (see the top of the file) */
static void on_switch_half(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	struct srep_switch sw = ev->u.sw;
	const struct pft_cpu *c = p->cpus[cpu];
	int32_t cur = c->next_tid >= 0 ? c->next_tid : 0;	/* idle before the first */
	int64_t state;

	if (ev->flags & SREP_EVF_SWITCH_OUT) {
		state = prev_state(p, sw.prev_state, ev->flags & SREP_EVF_PREEMPT);
		if (sw.next_tid < 0) {
			sw.next_tid = sw.next_pid = 0;
			snprintf(sw.next_comm, sizeof(sw.next_comm), "swapper/%d", cpu);
		}
		/* an exiting task's last switch-out names nobody: the CPU's current task died */
		if (sw.prev_tid < 0) {
			sw.prev_tid = cur;
			comm_of(p, cur, sw.prev_comm);
			state = prev_state(p, 'X', false);
		}
		fill_gap(p, ev, cpu, &sw);
		leave_elsewhere(p, ev, cpu, sw.next_tid);
		pft_switch(p, cpu, ev->time, &sw, state);
		return;
	}
	if (c->next_tid == sw.next_tid)
		return;			/* announced by its switch-out (CPU-wide records) */
	sw.prev_tid = cur;
	comm_of(p, cur, sw.prev_comm);
	leave_elsewhere(p, ev, cpu, sw.next_tid);
	/* the idle task is runnable when it leaves; another unannounced task is unknown */
	pft_switch(p, cpu, ev->time, &sw, prev_state(p, cur ? '?' : 'R', false));
}

static void on_event(struct pft *p, const struct srep_event *ev, int32_t cpu)
{
	switch (ev->kind) {
	case SREP_EV_SWITCH:
		/* per-task SWITCH records without the CPU belong on no CPU track */
		if (ev->cpu < 0)
			break;
		if (ev->flags & (SREP_EVF_SWITCH_OUT | SREP_EVF_SWITCH_IN))
			on_switch_half(p, ev, cpu);
		else {
			fill_gap(p, ev, cpu, &ev->u.sw);
			leave_elsewhere(p, ev, cpu, ev->u.sw.next_tid);
			pft_switch(p, cpu, ev->time, &ev->u.sw,
				   prev_state(p, ev->u.sw.prev_state, ev->flags & SREP_EVF_PREEMPT));
			pft_blocked_reason(p, ev, cpu);
		}
		break;
	case SREP_EV_WAKEUP:
		on_wakeup(p, ev, cpu);
		break;
	case SREP_EV_FORK:
		on_fork(p, ev, cpu);
		break;
	case SREP_EV_CPU_IDLE:
	case SREP_EV_CPU_FREQ:
		on_cpu_state(p, ev, cpu);
		break;
	case SREP_EV_LOST:
		p->cpus[cpu]->lost = true;
		p->cpus[cpu]->lost_events += ev->u.lost.lost;
		break;
	default:
		on_task_event(p, ev, cpu);
		break;
	}
}

static int pft_event(void *state, const struct srep_event *ev, struct srep_error *err)
{
	struct pft *p = state;
	int32_t cpu = ev->cpu >= 0 ? ev->cpu : 0;	/* a bundle needs one */

	/* untimed records (perf's synthesized tasks) live in the process tree */
	if (!ev->time || ev->time < p->ctx->from || ev->time > p->ctx->to)
		return 0;
	/* the trace starts at its first event, read or not (stat_unread()) */
	if (!p->first_time)
		p->first_time = p->stat_unread ? srep_session__stats(p->ctx->session)->first_time :
			        ev->time;
	if (ev->time > p->last_time)
		p->last_time = ev->time;
	if (!pft_cpu(p, cpu))
		p->nomem = true;	/* made here: the writers below may take it as there */
	else if (ev->kind == SREP_EV_STAT && !ev->nr_callchain)
		return 0;	/* half of a perf sched record's events: no Perfetto event, no state */
	else
		on_event(p, ev, cpu);
	if (ev->nr_callchain && p->ctx->symbols)
		pft_stack_sample(p, ev, cpu);
	tl_event(&p->tl, ev);
	/* a CPU's buffers are checked when its bundle is written (pftrace-cpu.c):
	   checking every buffer of every CPU here was 7% of a conversion's instructions */
	if (p->nomem || p->pkt.nomem || p->tl.nomem)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the trace packets");
	return p->out.failed ? emit_error(&p->out, err) : 0;
}

/* ---- the trace's facts ---- */

static void system_info(struct pft *p)
{
	const struct srep_meta *m = srep_session__meta(p->ctx->session);
	struct pbw *w = &p->pkt;
	int32_t cpus = m->nr_cpus_avail > 0 ? m->nr_cpus_avail : srep_session__max_cpu(p->ctx->session) + 1;
	size_t body, uts;

	pft_packet_begin(p, 0);
	body = pbw_begin(w, PF_PKT_SYSTEM_INFO);
	uts = pbw_begin(w, 1);
	pbw_str(w, 1, "Linux", SIZE_MAX);
	if (m->osrelease)
		pbw_str(w, 3, m->osrelease, SIZE_MAX);
	if (m->arch)
		pbw_str(w, 4, m->arch, SIZE_MAX);
	pbw_end(w, uts);
	if (m->tracing_page_size > 0)
		pbw_uint(w, 6, (uint32_t)m->tracing_page_size);
	if (cpus > 0)
		pbw_uint(w, 8, (uint32_t)cpus);
	if (m->hostname)
		pbw_str(w, 17, m->hostname, SIZE_MAX);
	pbw_end(w, body);
	pft_packet_end(p);
}

/*
 * perf's recording command line (the CMDLINE feature). TraceConfig has no
 * field for a producer's command line; the free-form string of a data
 * source's config (DataSourceConfig.legacy_config) carries it, under a data
 * source named "perf record": trace processor shows the config as text in
 * its metadata table (trace_config_pbtxt). Pipe-mode files tell it in a
 * record of the stream: then it is written at the end.
 */
static void recording_cmdline(struct pft *p)
{
	const struct srep_meta *m = srep_session__meta(p->ctx->session);
	struct pbw *w = &p->pkt, line = { 0 };
	size_t cfg, ds, dsc;
	int i;

	if (p->cmdline_done || !m->cmdline || m->nr_cmdline <= 0)
		return;
	p->cmdline_done = true;
	for (i = 0; i < m->nr_cmdline; i++) {
		if (!m->cmdline[i])
			continue;
		if (line.len)
			pbw_raw(&line, " ", 1);
		pbw_raw(&line, m->cmdline[i], strlen(m->cmdline[i]));
	}
	pft_packet_begin(p, 0);
	cfg = pbw_begin(w, PF_PKT_TRACE_CONFIG);
	ds = pbw_begin(w, 2);		/* data_sources */
	dsc = pbw_begin(w, 1);		/* config */
	pbw_str(w, 1, "perf record", SIZE_MAX);
	pbw_bytes(w, 1000, line.buf, line.len);	/* legacy_config */
	pbw_end(w, dsc);
	pbw_end(w, ds);
	pbw_end(w, cfg);
	if (line.nomem)
		p->nomem = true;
	else
		pft_packet_end(p);
	pbw_free(&line);
}

static void clock(struct pbw *w, uint32_t id, uint64_t ts)
{
	size_t body = pbw_begin(w, 1);

	pbw_uint(w, 1, id);
	pbw_uint(w, 2, ts);
	pbw_end(w, body);
}

/*
 * The perf clock is written as BOOTTIME, the clock Perfetto reads ftrace
 * timestamps in; with perf's CLOCK_DATA the snapshot also ties it to the
 * wall clock, so the UI can show real time.
 */
static void clock_snapshot(struct pft *p)
{
	const struct srep_meta *m = srep_session__meta(p->ctx->session);
	struct pbw *w = &p->pkt;
	size_t body;

	pft_packet_begin(p, m->has_clock_data ? m->clock_ref_ns : 0);
	body = pbw_begin(w, PF_PKT_CLOCK_SNAPSHOT);
	clock(w, CLOCK_BOOTTIME, m->has_clock_data ? m->clock_ref_ns : 0);
	if (m->has_clock_data)
		clock(w, CLOCK_REALTIME, m->clock_wall_ns);
	pbw_uint(w, 2, CLOCK_BOOTTIME);		/* primary_trace_clock */
	pbw_end(w, body);
	pft_packet_end(p);
}

/* ---- the process tree, from the session's task table ---- */

static void process_entry(struct pbw *w, const struct srep_session *s, const struct srep_task *t)
{
	const struct srep_task *main = srep_session__find_task(s, srep_task__pid(t));
	size_t body = pbw_begin(w, 1);

	pbw_int(w, 1, srep_task__pid(t));
	if (srep_task__ppid(t) >= 0)
		pbw_int(w, 2, srep_task__ppid(t));
	/* the main thread's comm stands for the command line, which perf does not record */
	pbw_str(w, 3, srep_task__comm(main ? main : t), SREP_COMM_MAX);
	pbw_uint(w, 9, 1);	/* cmdline_is_comm */
	pbw_end(w, body);
}

static void thread_entry(struct pbw *w, const struct srep_task *t)
{
	size_t body = pbw_begin(w, 2);

	pbw_int(w, 1, srep_task__tid(t));
	pbw_str(w, 2, srep_task__comm(t), SREP_COMM_MAX);
	if (srep_task__pid(t) >= 0)
		pbw_int(w, 3, srep_task__pid(t));
	pbw_end(w, body);
}

/*
 * The tasks that exist when the trace starts: those forked later come
 * from their task_newtask event, at their fork (a process tree claiming
 * them from the start would make Perfetto see two threads).
 */
static bool before_trace(const struct pft *p, const struct srep_task *t)
{
	uint64_t fork = srep_task__fork_time(t);

	return srep_task__tid(t) > 0 && srep_export_has_tid(p->ctx->sel, srep_task__tid(t)) &&
	       (!fork || fork < p->ctx->from || fork < p->first_time);
}

static void process_tree(struct pft *p)
{
	const struct srep_session *s = p->ctx->session;
	size_t i, n = srep_session__nr_tasks(s), in_packet = 0, body = 0;
	const struct srep_task *t;

	for (i = 0; i < n; i++) {
		t = srep_session__task(s, i);
		if (!before_trace(p, t))
			continue;
		if (!in_packet) {
			pft_packet_begin(p, p->first_time);
			body = pbw_begin(&p->pkt, PF_PKT_PROCESS_TREE);
		}
		if (srep_task__pid(t) == srep_task__tid(t))
			process_entry(&p->pkt, s, t);
		thread_entry(&p->pkt, t);
		if (++in_packet == PFT_TASKS_PER_PACKET) {
			pbw_end(&p->pkt, body);
			pft_packet_end(p);
			in_packet = 0;
		}
	}
	if (in_packet) {
		pbw_end(&p->pkt, body);
		pft_packet_end(p);
	}
}

/*
 * LOST records as ftrace's overrun counters at the start (0) and the end
 * of the trace: Perfetto shows their difference per CPU in its stats
 * (ftrace_cpu_overrun_delta), beside the data loss flagged on the bundles.
 */
static void loss_stats(struct pft *p)
{
	size_t i, body, cpu;
	int phase;
	bool any = false;

	for (i = 0; i < p->nr_cpus; i++)
		any |= p->cpus[i] && p->cpus[i]->lost_events > 0;
	if (!any)
		return;
	for (phase = 1; phase <= 2; phase++) {
		pft_packet_begin(p, phase == 1 ? p->first_time : p->last_time);
		body = pbw_begin(&p->pkt, PF_PKT_FTRACE_STATS);
		pbw_uint(&p->pkt, 1, (uint64_t)phase);
		for (i = 0; i < p->nr_cpus; i++) {
			cpu = pbw_begin(&p->pkt, 2);
			pbw_uint(&p->pkt, 1, i);
			pbw_uint(&p->pkt, 3, phase == 1 || !p->cpus[i] ? 0 : p->cpus[i]->lost_events);
			pbw_end(&p->pkt, cpu);
		}
		pbw_end(&p->pkt, body);
		pft_packet_end(p);
	}
}

/* ---- begin, end ---- */

/* the timeline serves lookups of states only (fill_gap, leave_elsewhere) */
static const struct tl_hooks no_hooks = { .unnamed = true };

/*
 * sched_stat_* events have no place in Perfetto's tables (its thread states
 * come from the switches), and they are half of a 'perf sched record'
 * trace: left unread, when nothing else needs them. The trace's first and
 * last event, which may be one, bound the tracks: the session's statistics
 * count unread events too, but only for the whole trace, not for a --time
 * window. With symbols, their callchains would be stack samples.
 */
static bool stat_unread(const struct srep_export_ctx *ctx)
{
	size_t i;

	if (ctx->from || ctx->to != UINT64_MAX)
		return false;
	for (i = 0; ctx->symbols && i < srep_session__nr_evsels(ctx->session); i++)
		if (srep_session__evsel_sample_type(ctx->session, i) & PERF_SAMPLE_CALLCHAIN)
			return false;
	return true;
}

static int pft_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	struct pft *p = calloc(1, sizeof(*p));
	const struct srep_meta *m = srep_session__meta(ctx->session);

	*state = p;
	if (!p || emit_init(&p->out, ctx->out))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the trace writer");
	p->ctx = ctx;
	tl_init(&p->tl, ctx, &no_hooks, p);
	/* Perfetto's default when no release is known */
	p->kernel[0] = 4;
	p->kernel[1] = 4;
	if (m->osrelease && sscanf(m->osrelease, "%d.%d", &p->kernel[0], &p->kernel[1]) != 2) {
		p->kernel[0] = 4;
		p->kernel[1] = 4;
	}
	p->stat_unread = stat_unread(ctx);
	if (p->stat_unread)
		srep_session__set_interest(ctx->session, ~SREP_EV_BIT(SREP_EV_STAT));
	system_info(p);
	recording_cmdline(p);
	clock_snapshot(p);
	if (pft_nomem(p))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the trace packets");
	return 0;
}

static int pft_end(void *state, struct srep_error *err)
{
	struct pft *p = state;
	size_t i;

	if (p->stat_unread && srep_session__stats(p->ctx->session)->last_time > p->last_time)
		p->last_time = srep_session__stats(p->ctx->session)->last_time;
	for (i = 0; i < p->nr_cpus; i++)
		pft_finish_cpu(p, i);
	recording_cmdline(p);
	process_tree(p);
	loss_stats(p);
	if (pft_nomem(p))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the trace packets");
	if (emit_flush(&p->out))
		return emit_error(&p->out, err);
	return 0;
}

static void pft_destroy(void *state)
{
	struct pft *p = state;

	if (!p)
		return;
	emit_free(&p->out);
	pbw_free(&p->pkt);
	pft_free_cpus(p);
	pft_stacks_free(p->stacks);
	pft_ksyms_free(p->ksyms);
	tl_free(&p->tl);
	free(p);
}

const struct srep_exporter srep_exporter_pftrace = {
	.name = "pftrace",
	.suffix = ".pftrace",
	.summary = "Perfetto's protobuf trace: CPU tracks, thread states, SQL tables",
	.flags = SREP_EXPORT_SYMBOLS,
	.begin = pft_begin,
	.event = pft_event,
	.end = pft_end,
	.destroy = pft_destroy,
};
