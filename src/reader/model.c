// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - turns a delivered record into the neutral event and keeps the
 * task table up to date.
 *
 * One fact, one event: when the trace has the tracepoint for a fact
 * (sched_switch, sched_process_fork/exit/exec), the tracepoint is its source
 * and the matching side-band records (SWITCH, FORK, EXIT, COMM-exec) only
 * feed the task table; without the tracepoint the records become the events.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "reader.h"

#define HDR_SIZE 8

/* all SREP_COMM_MAX bytes are set: the event copies the whole array */
static void copy_comm(char *dst, const uint8_t *src, size_t max)
{
	const uint8_t *nul = memchr(src, '\0', max);
	size_t len = nul ? (size_t)(nul - src) : max;

	if (len >= SREP_COMM_MAX)
		len = SREP_COMM_MAX - 1;
	memcpy(dst, src, len);
	memset(dst + len, 0, SREP_COMM_MAX - len);
}

/* a string that lives until the next event */
static const char *keep_str(struct srep_session *s, const uint8_t *src, size_t max)
{
	const uint8_t *nul = memchr(src, '\0', max);
	size_t len = nul ? (size_t)(nul - src) : max;
	char *n;

	if (len + 1 > s->str_cap) {
		n = realloc(s->str_buf, len + 1);
		if (!n)
			return "";
		s->str_buf = n;
		s->str_cap = len + 1;
	}
	memcpy(s->str_buf, src, len);
	s->str_buf[len] = '\0';
	return s->str_buf;
}

/* ---- the task table ---- */

/*
 * comm: NULL, or an event's SREP_COMM_MAX bytes. Out of line, so that
 * note_task()'s common case pays none of the register saves its work needs.
 */
__attribute__((noinline))
static struct srep_task *note_task_update(struct srep_session *s, int32_t pid, int32_t tid,
					  const char *comm, uint64_t time)
{
	struct srep_task *t;

	if (tid < 0)
		return NULL;
	t = task_get(&s->tasks, tid);
	if (!t)
		return NULL;
	if (tid == 0) {
		/* the idle tasks of all CPUs share tid 0 ("swapper/N"): one task, one name */
		t->pid = 0;
		if (!t->nr_comms)
			task_set_comm(t, "swapper", time);
	} else {
		if (pid >= 0 && t->pid < 0)
			t->pid = pid;
		if (comm && comm[0] && !task_same_comm(t, comm))
			task_set_comm(t, comm, time);
	}
	task_seen(t, time);
	return t;
}

/* most events name a known task again: then only its times move */
static inline struct srep_task *note_task(struct srep_session *s, int32_t pid, int32_t tid,
					  const char *comm, uint64_t time)
{
	struct srep_task *t = tid > 0 ? task_find(&s->tasks, tid) : NULL;

	if (t && (pid < 0 || t->pid >= 0) && (!comm || !comm[0] || task_same_comm(t, comm))) {
		task_seen(t, time);
		return t;
	}
	return note_task_update(s, pid, tid, comm, time);
}

static int32_t pid_in(const struct srep_task *t)
{
	return t ? t->pid : -1;
}

static int32_t pid_of(struct srep_session *s, int32_t tid)
{
	struct srep_task *t = tid >= 0 ? task_find(&s->tasks, tid) : NULL;

	return t ? t->pid : -1;
}

static void comm_of(struct srep_session *s, int32_t tid, char *out)
{
	struct srep_task *t = tid >= 0 ? task_find(&s->tasks, tid) : NULL;

	snprintf(out, SREP_COMM_MAX, "%s", t ? srep_task__comm(t) : "");
}

/* ---- loss intervals (the data-loss figure: loss.h) ---- */

uint64_t model_lost_time(struct srep_session *s)
{
	return loss_total(&s->loss, s->stats.last_time);
}

void model_reset(struct srep_session *s)
{
	loss_tracker_reset(&s->loss);
}

/* ---- side-band records ---- */

static void from_comm(struct srep_session *s, struct srep_event *ev, const uint8_t *b,
		      size_t len, uint16_t misc)
{
	bool exec = misc & PERF_RECORD_MISC_COMM_EXEC;
	char comm[SREP_COMM_MAX];
	struct srep_task *t;

	ev->u.comm.pid = (int32_t)srep_get32(b, s->swap);
	ev->u.comm.tid = (int32_t)srep_get32(b + 4, s->swap);
	copy_comm(comm, b + 8, len - 8);
	t = note_task(s, ev->u.comm.pid, ev->u.comm.tid, comm, ev->time);
	if (t && t->pid != ev->u.comm.pid && ev->u.comm.pid >= 0)
		t->pid = ev->u.comm.pid;
	if (exec && !s->has_tp[TP_EXEC]) {
		ev->kind = SREP_EV_EXEC;
		ev->u.exec = (struct srep_exec){ .pid = ev->u.comm.pid, .tid = ev->u.comm.tid,
						 .old_tid = -1, .filename = "" };
		memcpy(ev->u.exec.comm, comm, sizeof(comm));
		return;
	}
	ev->kind = SREP_EV_COMM;
	memcpy(ev->u.comm.comm, comm, sizeof(comm));
	if (exec)
		ev->flags |= SREP_EVF_EXEC_COMM;
}

static void fork_task(struct srep_session *s, const struct srep_fork *f, uint64_t time)
{
	struct srep_task *parent = task_find(&s->tasks, f->parent_tid);
	struct srep_task *t = task_find(&s->tasks, f->child_tid);

	/*
	 * A tid seen forked or exited before is a new task (tids are reused);
	 * one forked at this very time is this fork, met first through the
	 * tracepoint (the FORK record is older, but may tie with it).
	 */
	if (!t || t->exited || (t->fork_time && t->fork_time != time))
		t = task_new(&s->tasks, f->child_tid);
	if (!t)
		return;
	if (f->child_pid >= 0)
		t->pid = f->child_pid;
	t->ppid = f->parent_pid >= 0 ? f->parent_pid : t->ppid;
	t->ptid = f->parent_tid;
	t->fork_time = time;
	if (!t->nr_comms && parent && parent->nr_comms)
		task_set_comm(t, srep_task__comm(parent), time);
	task_seen(t, time);
}

static void from_fork_exit(struct srep_session *s, struct srep_event *ev, const uint8_t *b,
			   uint32_t type)
{
	int32_t pid = (int32_t)srep_get32(b, s->swap), ppid = (int32_t)srep_get32(b + 4, s->swap);
	int32_t tid = (int32_t)srep_get32(b + 8, s->swap), ptid = (int32_t)srep_get32(b + 12, s->swap);
	struct srep_task *t;

	if (type == PERF_RECORD_FORK) {
		struct srep_fork f = { .parent_pid = ppid, .parent_tid = ptid,
				       .child_pid = pid, .child_tid = tid };

		fork_task(s, &f, ev->time);
		if (s->has_tp[TP_FORK])
			return;
		ev->kind = SREP_EV_FORK;
		ev->u.fork = f;
		comm_of(s, ptid, ev->u.fork.parent_comm);
		comm_of(s, tid, ev->u.fork.child_comm);
		return;
	}
	t = note_task(s, pid, tid, NULL, ev->time);
	if (t && !t->exited) {
		/* sched_process_exit, when recorded, came first and says when */
		t->exit_time = ev->time;
		t->exited = true;
	}
	if (s->has_tp[TP_EXIT])
		return;
	ev->kind = SREP_EV_EXIT;
	ev->u.exit = (struct srep_exit){ .pid = pid, .tid = tid, .ppid = ppid, .ptid = ptid,
					 .prio = INT32_MIN };
	comm_of(s, tid, ev->u.exit.comm);
}

static void from_mmap(struct srep_session *s, struct srep_event *ev, const uint8_t *b,
		      size_t len, uint32_t type, uint16_t misc)
{
	struct srep_mmap *m = &ev->u.mmap;
	size_t name_off = type == PERF_RECORD_MMAP2 ? 64 : 32;

	ev->kind = SREP_EV_MMAP;
	memset(m, 0, sizeof(*m));	/* not every record sets every field */
	m->pid = (int32_t)srep_get32(b, s->swap);
	m->tid = (int32_t)srep_get32(b + 4, s->swap);
	m->addr = srep_get64(b + 8, s->swap);
	m->len = srep_get64(b + 16, s->swap);
	m->pgoff = srep_get64(b + 24, s->swap);
	m->prot = m->flags = 0;		/* MMAP has neither, nor a build id */
	m->build_id_size = 0;
	if (type == PERF_RECORD_MMAP2) {
		if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && b[32] <= 20) {
			m->build_id_size = b[32];
			memcpy(m->build_id, b + 36, m->build_id_size);
		}
		m->prot = srep_get32(b + 56, s->swap);
		m->flags = srep_get32(b + 60, s->swap);
	}
	m->filename = keep_str(s, b + name_off, len - name_off);
}

static void from_switch(struct srep_session *s, struct srep_event *ev, const uint8_t *b,
			size_t len, uint32_t type, uint16_t misc)
{
	struct srep_switch *sw = &ev->u.sw;
	bool out = misc & PERF_RECORD_MISC_SWITCH_OUT;
	int32_t other_pid = -1, other_tid = -1;

	ev->kind = SREP_EV_SWITCH;
	sw->prev_pid = sw->prev_tid = sw->next_pid = sw->next_tid = -1;
	sw->prev_prio = sw->next_prio = INT32_MIN;
	sw->prev_state = '?';
	if (type == PERF_RECORD_SWITCH_CPU_WIDE && len >= 8) {
		other_pid = (int32_t)srep_get32(b, s->swap);
		other_tid = (int32_t)srep_get32(b + 4, s->swap);
	}
	if (out) {
		/* voluntary switch-outs do not say S or D: S is reported */
		bool preempt = misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;

		ev->flags |= SREP_EVF_SWITCH_OUT | (preempt ? SREP_EVF_PREEMPT : 0);
		sw->prev_state = preempt ? 'R' : 'S';
		sw->prev_pid = ev->pid;
		sw->prev_tid = ev->tid;
		sw->next_pid = other_pid;
		sw->next_tid = other_tid;
	} else {
		ev->flags |= SREP_EVF_SWITCH_IN;
		sw->next_pid = ev->pid;
		sw->next_tid = ev->tid;
		sw->prev_pid = other_pid;
		sw->prev_tid = other_tid;
	}
	comm_of(s, sw->prev_tid, sw->prev_comm);
	comm_of(s, sw->next_tid, sw->next_comm);
}

static void from_lost(struct srep_session *s, struct srep_event *ev, const uint8_t *b,
		      uint32_t type)
{
	ev->kind = SREP_EV_LOST;
	ev->u.lost = (struct srep_lost){ .samples = type == PERF_RECORD_LOST_SAMPLES };
	if (ev->u.lost.samples) {
		ev->u.lost.id = 0;
		ev->u.lost.lost = srep_get64(b, s->swap);
	} else {
		ev->u.lost.id = srep_get64(b, s->swap);
		ev->u.lost.lost = srep_get64(b + 8, s->swap);
	}
	loss_on_lost(&s->loss, ev->cpu, ev->time);
}

/* minimum body sizes, so the readers above never leave the record */
static size_t min_body(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:		return 8;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:		return 16;
	case PERF_RECORD_MMAP:		return 32;
	case PERF_RECORD_MMAP2:		return 64;
	case PERF_RECORD_LOST:		return 16;
	case PERF_RECORD_LOST_SAMPLES:	return 8;
	default:			return 0;
	}
}

static void from_record(struct srep_session *s, struct srep_event *ev, const uint8_t *rec,
			size_t size, const struct evsel *evs)
{
	uint32_t type = srep_get32(rec, s->swap);
	uint16_t misc = srep_get16(rec + 4, s->swap);
	const uint8_t *b = rec + HDR_SIZE;
	size_t len = size - HDR_SIZE;
	struct sample sid;

	if (evs && sample_id_parse(evs, b, len, s->swap, &sid) == 0 && evs->trailer_size <= len) {
		len -= evs->trailer_size;
		ev->pid = sid.pid;
		ev->tid = sid.tid;
	}
	if (len < min_body(type))
		return;
	ev->source = SREP_SRC_RECORD;
	switch (type) {
	case PERF_RECORD_COMM:	from_comm(s, ev, b, len, misc); break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:	from_fork_exit(s, ev, b, type); break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:	from_mmap(s, ev, b, len, type, misc); break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES: from_lost(s, ev, b, type); break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (!s->has_tp[TP_SWITCH])
			from_switch(s, ev, b, len, type, misc);
		break;
	default:
		break;
	}
}

/* ---- tracepoint samples: fill processes from the task table, keep it current ---- */

static void exec_comm(const char *filename, char *out)
{
	const char *base = strrchr(filename, '/');

	/* the kernel names a task after the basename of what it executed */
	snprintf(out, 16, "%s", base ? base + 1 : filename);
}

/*
 * A switch's previous task and a runtime's task are the task the sample
 * was taken in: after_tp notes it once, with the sample's pid, instead of
 * twice (the commonest events: a third of a whole read was task notes).
 */
static bool names_sampled_task(const struct srep_event *ev)
{
	return (ev->kind == SREP_EV_SWITCH && ev->u.sw.prev_tid == ev->tid) ||
	       (ev->kind == SREP_EV_STAT && ev->u.stat.tid == ev->tid);
}

/* the sample's pid for its own task (see above), else unknown */
static int32_t sampled_pid(const struct srep_event *ev, int32_t tid)
{
	return tid == ev->tid ? ev->pid : -1;
}

static void after_tp(struct srep_session *s, struct srep_event *ev)
{
	struct srep_task *t;
	uint64_t time = ev->time;

	switch (ev->kind) {
	case SREP_EV_SWITCH:
		ev->u.sw.prev_pid = pid_in(note_task(s, sampled_pid(ev, ev->u.sw.prev_tid),
						     ev->u.sw.prev_tid, ev->u.sw.prev_comm, time));
		ev->u.sw.next_pid = pid_in(note_task(s, -1, ev->u.sw.next_tid, ev->u.sw.next_comm, time));
		break;
	case SREP_EV_WAKEUP:
		ev->u.wake.pid = pid_in(note_task(s, -1, ev->u.wake.tid, ev->u.wake.comm, time));
		break;
	case SREP_EV_MIGRATE:
		ev->u.migrate.pid = pid_in(note_task(s, -1, ev->u.migrate.tid, ev->u.migrate.comm, time));
		break;
	case SREP_EV_FORK:
		ev->u.fork.parent_pid = pid_of(s, ev->u.fork.parent_tid);
		/* the FORK record, stamped a little earlier, may have made the task already */
		t = task_find(&s->tasks, ev->u.fork.child_tid);
		if (!t || t->exited || !t->fork_time)
			fork_task(s, &ev->u.fork, time);
		ev->u.fork.child_pid = pid_of(s, ev->u.fork.child_tid);
		break;
	case SREP_EV_EXEC:
		exec_comm(ev->u.exec.filename, ev->u.exec.comm);
		note_task(s, ev->pid, ev->u.exec.tid, ev->u.exec.comm, time);
		ev->u.exec.pid = pid_of(s, ev->u.exec.tid);
		break;
	case SREP_EV_EXIT:
	case SREP_EV_FREE:
		t = note_task(s, -1, ev->u.exit.tid, NULL, time);
		if (t && ev->kind == SREP_EV_EXIT && !t->exited) {
			t->exit_time = time;
			t->exited = true;
		}
		ev->u.exit.pid = pid_of(s, ev->u.exit.tid);
		if (t) {
			ev->u.exit.ppid = t->ppid;
			ev->u.exit.ptid = t->ptid;
		}
		break;
	case SREP_EV_COMM:
		note_task(s, -1, ev->u.comm.tid, ev->u.comm.comm, time);
		ev->u.comm.pid = pid_of(s, ev->u.comm.tid);
		break;
	case SREP_EV_STAT:
		ev->u.stat.pid = pid_in(note_task(s, sampled_pid(ev, ev->u.stat.tid), ev->u.stat.tid,
						  ev->u.stat.comm, time));
		break;
	default:
		break;
	}
}

static int copy_callchain(struct srep_session *s, struct srep_event *ev, const struct sample *smp)
{
	uint64_t i, *n = grow_to(s->chain_buf, &s->chain_cap, smp->nr_callchain, sizeof(*n));

	if (!n)
		return SREP_E_NOMEM;
	s->chain_buf = n;
	for (i = 0; i < smp->nr_callchain; i++)
		s->chain_buf[i] = srep_get64(smp->callchain + 8 * i, s->swap);
	ev->callchain = s->chain_buf;
	ev->nr_callchain = (uint32_t)smp->nr_callchain;
	return 0;
}

/* from and to of each entry (the flags word after them is a bitfield: not decoded) */
static int copy_branches(struct srep_session *s, struct srep_event *ev, const struct sample *smp)
{
	struct srep_branch *n = grow_to(s->branch_buf, &s->branch_cap, smp->nr_branches, sizeof(*n));
	uint64_t i;

	if (!n)
		return SREP_E_NOMEM;
	s->branch_buf = n;
	for (i = 0; i < smp->nr_branches; i++) {
		const uint8_t *p = smp->branches + i * smp->branch_each;

		s->branch_buf[i].from = srep_get64(p, s->swap);
		s->branch_buf[i].to = srep_get64(p + 8, s->swap);
	}
	ev->branches = s->branch_buf;
	ev->nr_branches = (uint32_t)smp->nr_branches;
	return 0;
}

/* registers to host order (a mask has at most 64 bits); the stack stays the target's bytes */
static void copy_user_regs(struct srep_session *s, struct srep_event *ev, const struct evsel *evs,
			   const struct sample *smp)
{
	uint32_t i;

	if (smp->regs_user_abi && smp->nr_regs_user <= 64) {
		for (i = 0; i < smp->nr_regs_user; i++)
			s->regs_buf[i] = srep_get64(smp->regs_user + 8 * i, s->swap);
		ev->user_regs_abi = smp->regs_user_abi;
		ev->user_regs_mask = evs->attr.sample_regs_user;
		ev->user_regs = s->regs_buf;
		ev->nr_user_regs = smp->nr_regs_user;
	}
	ev->user_stack = smp->stack_user;
	ev->user_stack_size = smp->stack_user_size;
}

static int from_sample(struct srep_session *s, struct srep_event *ev, const struct order_entry *e,
		       bool *has_event, struct srep_error *err)
{
	struct evsel *evs = &s->evsels[e->evsel];
	struct sample *smp = &s->cur_sample;
	struct ev_fields *f = &s->cur_fields;
	const char *why = "";
	bool decoded;

	if (sample_parse(evs, e->data + HDR_SIZE, e->size - HDR_SIZE, s->swap, smp, &why)) {
		diag_warn(s, SREP_E_CORRUPT, e->file_off, PERF_RECORD_SAMPLE,
			  "sample of '%s' is too short for its %s (sample_type 0x%" PRIx64
			  ", %u bytes): skipped", evs->name, why, evs->attr.sample_type, e->size);
		s->stats.skipped_records++;
		return 0;
	}
	ev->pid = smp->pid;
	ev->tid = smp->tid;
	ev->ip = smp->ip;
	ev->period = smp->period;
	ev->addr = smp->addr;
	if (smp->nr_callchain && copy_callchain(s, ev, smp))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for callchains");
	if (smp->nr_branches && copy_branches(s, ev, smp))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for branch stacks");
	copy_user_regs(s, ev, evs, smp);
	memset(f, 0, sizeof(*f));
	if (evs->tp && smp->raw) {
		f->fmt = s->fmt;
		f->tpe = evs->tp;
		f->raw = smp->raw;
		f->raw_size = smp->raw_size;
		ev->priv = f;
	}
	decoded = f->tpe && evs->kind != TP_NONE &&
		  tp_decode(evs->tp, evs->kind, smp->raw, smp->raw_size, ev, &s->str_buf, &s->str_cap);
	if (!decoded || !names_sampled_task(ev))
		note_task(s, smp->pid, smp->tid, NULL, ev->time);
	if (decoded)
		after_tp(s, ev);
	else
		ev->kind = SREP_EV_SAMPLE;
	ev->source = f->tpe ? SREP_SRC_TRACEPOINT : SREP_SRC_SAMPLE;
	loss_on_sample(&s->loss, ev->cpu, ev->time);
	*has_event = true;
	return 0;
}

/*
 * Everything before the union back to zero, field by field: a memset of
 * that size became a string store that cost 4 % of a whole read.
 */
static void clear_head(struct srep_event *ev)
{
	ev->kind = 0;
	ev->source = 0;
	ev->ip = ev->period = ev->addr = 0;
	ev->nr_callchain = 0;
	ev->callchain = NULL;
	ev->user_regs_abi = ev->user_regs_mask = 0;
	ev->user_regs = NULL;
	ev->nr_user_regs = 0;
	ev->user_stack = NULL;
	ev->user_stack_size = 0;
	ev->nr_branches = 0;
	ev->branches = NULL;
	ev->priv = NULL;	/* after the union: set again by tracepoint samples only */
}

int model_decode(struct srep_session *s, const struct order_entry *e, bool *has_event,
		 struct srep_error *err)
{
	struct srep_event *ev = &s->ev;
	uint32_t type = srep_get32(e->data, s->swap);

	clear_head(ev);
	ev->time = e->time;
	ev->cpu = e->cpu;
	if (e->cpu >= 0 && (uint32_t)e->cpu >= SREP_MAX_CPUS) {
		/* a CPU number no machine has: unknown, rather than an index into nowhere */
		if (!s->warned_cpu)
			diag_warn(s, SREP_E_CORRUPT, e->file_off, (int64_t)type,
				  "CPU %d is beyond %u CPUs: taken as unknown (warned once)",
				  e->cpu, SREP_MAX_CPUS);
		s->warned_cpu = true;
		ev->cpu = -1;
	}
	ev->evsel = e->evsel;
	ev->pid = ev->tid = -1;
	ev->flags = (e->late ? SREP_EVF_LATE : 0) | (e->time ? 0 : SREP_EVF_NO_TIME);
	*has_event = false;
	if (type == PERF_RECORD_SAMPLE)
		return e->evsel < 0 ? 0 : from_sample(s, ev, e, has_event, err);
	from_record(s, ev, e->data, e->size, e->evsel >= 0 ? &s->evsels[e->evsel] : NULL);
	*has_event = ev->kind != 0;
	return 0;
}
