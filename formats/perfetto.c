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
 * With symbols, a sleep slice names where the task blocked (the kernel
 * function and the first named user frame of its switch-out's callchain),
 * and every event with a callchain is an instant on its thread whose args
 * hold the stack, frame by frame as perf script prints them.
 *
 * Timestamps are the perf clock in microseconds with three decimals
 * (DECISIONS.md), so they read like perf script's.
 */
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "emit.h"
#include "framecache.h"
#include "timeline.h"

/* the "CPUs" process: pid and tids above any kernel's PID_MAX_LIMIT (4M) */
#define CPUS_PID	1073741824
#define CPU_TID(cpu)	(CPUS_PID + 1 + (cpu))

/*
 * ',"pid":P,"tid":T' as written, for the pairs seen last: every line has
 * one, and a lookup here costs a fraction of formatting two numbers
 * (direct-mapped on the tid; a collision only means formatting again).
 */
#define PID_TID_SLOTS	1024
#define PID_TID_MAX	(sizeof(",\"pid\":-2147483648,\"tid\":-2147483648") - 1)

struct pid_tid_text {
	int32_t pid, tid;
	uint8_t len;			/* 0: empty */
	char text[PID_TID_MAX];
};

struct pf {
	const struct srep_export_ctx *ctx;
	struct emit out;
	struct timeline tl;
	uint64_t next_flow, last_time, first_time;
	struct srep_frame *frames;	/* the callchain of the event at hand */
	size_t frames_cap;
	char *text;			/* one frame's text */
	size_t text_cap;
	struct frame_cache texts;	/* every frame's text, rendered once */
	struct pid_tid_text ids[PID_TID_SLOTS];
	bool nomem;
};

/* ---- writing events ---- */

static bool in_window(const struct pf *p, uint64_t t)
{
	return t >= p->ctx->from && t <= p->ctx->to;
}

static void emit_pid_tid(struct pf *p, int32_t pid, int32_t tid)
{
	struct pid_tid_text *c = &p->ids[(uint32_t)tid % PID_TID_SLOTS];
	struct emit *e = &p->out;
	size_t start;

	if (c->len && c->pid == pid && c->tid == tid) {
		emit_raw(e, c->text, c->len);
		return;
	}
	/* room for the text and the numbers' scratch: no drain in between */
	if (!emit_room(e, 2 * EMIT_MAX_ATOM))
		return;
	start = e->len;
	emit_lit(e, ",\"pid\":");
	emit_i64(e, pid);
	emit_lit(e, ",\"tid\":");
	emit_i64(e, tid);
	if (e->len - start <= PID_TID_MAX) {
		c->pid = pid;
		c->tid = tid;
		c->len = (uint8_t)(e->len - start);
		memcpy(c->text, e->buf + start, c->len);
	}
}

/*
 * '{"ph":"X","name":"Running","pid":1,"tid":2,"ts":3.000' - the caller goes
 * on. Our own names are plain ASCII and go as they are; a comm is escaped.
 */
static void head(struct pf *p, char ph, const char *name, bool ours, int32_t pid, int32_t tid,
		 uint64_t ts)
{
	struct emit *e = &p->out;

	emit_lit(e, "{\"ph\":\"");
	emit_char(e, ph);
	emit_lit(e, "\",\"name\":");
	if (ours) {
		emit_char(e, '"');
		emit_cstr(e, name);
		emit_char(e, '"');
	} else {
		emit_json_cstr(e, name);
	}
	emit_pid_tid(p, pid, tid);
	emit_lit(e, ",\"ts\":");
	emit_us(e, ts);
}

/* an 'X' slice clipped to the window; false (nothing written) when none of it is inside */
static bool slice(struct pf *p, const char *name, bool ours, int32_t pid, int32_t tid,
		  uint64_t start, uint64_t end)
{
	if (start < p->ctx->from)
		start = p->ctx->from;
	if (end > p->ctx->to)
		end = p->ctx->to;
	if (end < start || (end == start && !in_window(p, start)))
		return false;
	head(p, 'X', name, ours, pid, tid, start);
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

/* "comm (tid)", without snprintf: once per Runnable slice */
static void who_is(char out[SREP_COMM_MAX + 16], const char *comm, int32_t tid)
{
	size_t len = strnlen(comm, SREP_COMM_MAX - 1);
	char digits[16], *d = digits + sizeof(digits);
	uint32_t v = tid < 0 ? 0u - (uint32_t)tid : (uint32_t)tid;

	memcpy(out, comm, len);
	out[len++] = ' ';
	out[len++] = '(';
	do {
		*--d = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (tid < 0)
		out[len++] = '-';
	memcpy(out + len, d, (size_t)(digits + sizeof(digits) - d));
	len += (size_t)(digits + sizeof(digits) - d);
	out[len++] = ')';
	out[len] = '\0';
}

/* where a sleeping task blocked: the kernel function and the user frame */
static void blocked_args(struct pf *p, const struct tl_task *t)
{
	char label[SREP_FRAME_LABEL_MAX];

	if (t->blocked & SREP_BLOCKED_KERNEL) {
		emit_lit(&p->out, ",\"blocked_in\":");
		emit_json_cstr(&p->out, srep_frame__label(&t->blocked_kernel, label, sizeof(label)));
	}
	if (t->blocked & SREP_BLOCKED_USER) {
		emit_lit(&p->out, ",\"user_frame\":");
		emit_json_cstr(&p->out, srep_frame__label(&t->blocked_user, label, sizeof(label)));
	}
}

/* the slice of a task's state that just ended */
static void task_slice(void *arg, const struct tl_task *t, uint64_t end)
{
	struct pf *p = arg;
	char who[SREP_COMM_MAX + 16];

	switch (t->state) {
	case TL_RUNNING:
		if (slice(p, "Running", true, t->pid, t->tid, t->since, end)) {
			arg_int(p, "cpu", t->cpu, true);
			if (t->prio != INT32_MIN)
				arg_int(p, "prio", t->prio, false);
			tail(p, true);
		}
		break;
	case TL_RUNNABLE:
		if (slice(p, t->woken ? "Runnable" : "Runnable (preempted)", true, t->pid, t->tid,
			  t->since, end)) {
			arg_int(p, "wait_ns", (int64_t)(end - t->since), true);
			if (t->woken) {
				if (t->waker >= 0)
					who_is(who, t->waker ? t->waker_comm : "idle/irq", t->waker);
				arg_str(p, "woken_by", t->waker >= 0 ? who : "unknown", false);
				arg_int(p, "waker_cpu", t->waker_cpu, false);
			}
			tail(p, true);
		}
		break;
	default:
		if (slice(p, sleep_name(t->letter), true, t->pid, t->tid, t->since, end)) {
			emit_lit(&p->out, ",\"args\":{\"state\":\"");
			emit_char(&p->out, t->letter);
			emit_char(&p->out, '"');
			blocked_args(p, t);
			emit_lit(&p->out, "}},\n");
		}
		break;
	}
}

/* a CPU track's slice: named after the task that ran */
static void cpu_slice(void *arg, int32_t cpu, const struct tl_cpu *c, uint64_t end)
{
	struct pf *p = arg;

	if (slice(p, c->comm, false, CPUS_PID, CPU_TID(cpu), c->since, end)) {
		arg_int(p, "tid", c->tid, true);
		arg_int(p, "pid", c->pid, false);
		tail(p, true);
	}
}

/* waker -> wakee: a flow from the waker's Running slice to the wakee's next slice */
static void flow(void *arg, const struct tl_task *from, const struct tl_task *to, uint64_t time)
{
	struct pf *p = arg;
	uint64_t id;

	if (!in_window(p, time))
		return;
	id = ++p->next_flow;
	head(p, 's', "wakeup", true, from->pid, from->tid, time);
	emit_lit(&p->out, ",\"cat\":\"sched\",\"id\":");
	emit_u64(&p->out, id);
	tail(p, false);
	/*
	 * "bp":"e": the flow ends in the wakee's slice that encloses the wakeup
	 * (the Runnable slice starting then). Without it a flow end binds to
	 * the next slice starting strictly later, and the trace's last flow,
	 * with no slice after it, was dropped.
	 */
	head(p, 'f', "wakeup", true, to->pid, to->tid, time);
	emit_lit(&p->out, ",\"bp\":\"e\",\"cat\":\"sched\",\"id\":");
	emit_u64(&p->out, id);
	tail(p, false);
}

static const struct tl_hooks pf_hooks = { task_slice, cpu_slice, flow, false };

/* ---- instants and counters ---- */

static bool instant(struct pf *p, const char *name, const struct tl_task *t, uint64_t time)
{
	if (!t || !in_window(p, time))
		return false;
	head(p, 'i', name, true, t->pid, t->tid, time);
	emit_lit(&p->out, ",\"s\":\"t\"");
	return true;
}

/* before the timeline moves on: a rename still knows the old name */
static void on_task_event(struct pf *p, const struct srep_event *ev)
{
	struct timeline *tl = &p->tl;
	char who[SREP_COMM_MAX + 16];
	struct tl_task *t;

	switch (ev->kind) {
	case SREP_EV_FORK:
		if (instant(p, "fork", tl_task(tl, ev->u.fork.parent_tid, ev->u.fork.parent_pid),
			    ev->time)) {
			snprintf(who, sizeof(who), "%s (%d)", ev->u.fork.child_comm, ev->u.fork.child_tid);
			arg_str(p, "child", who, true);
			tail(p, true);
		}
		break;
	case SREP_EV_EXEC:
		if (instant(p, "exec", tl_task(tl, ev->u.exec.tid, ev->u.exec.pid), ev->time)) {
			arg_str(p, "comm", ev->u.exec.comm, true);
			if (ev->u.exec.filename[0])	/* COMM records do not say */
				arg_str(p, "filename", ev->u.exec.filename, false);
			tail(p, true);
		}
		break;
	case SREP_EV_EXIT:
		if (instant(p, "exit", tl_task(tl, ev->u.exit.tid, ev->u.exit.pid), ev->time))
			tail(p, false);
		break;
	case SREP_EV_COMM:
		/* a task known by another name takes this one (exec's own COMM is no news) */
		t = tl_task(tl, ev->u.comm.tid, ev->u.comm.pid);
		if (t && t->comm[0] && strcmp(t->comm, ev->u.comm.comm) &&
		    !(ev->flags & SREP_EVF_EXEC_COMM) && instant(p, "rename", t, ev->time)) {
			arg_str(p, "from", t->comm, true);
			arg_str(p, "to", ev->u.comm.comm, false);
			tail(p, true);
		}
		break;
	case SREP_EV_MIGRATE:
		if (instant(p, "migrate", tl_task(tl, ev->u.migrate.tid, ev->u.migrate.pid), ev->time)) {
			arg_int(p, "from_cpu", ev->u.migrate.orig_cpu, true);
			arg_int(p, "to_cpu", ev->u.migrate.dest_cpu, false);
			tail(p, true);
		}
		break;
	default:
		break;
	}
}

/* ---- callchains ---- */

/*
 * A frame as perf script prints it: "ADDR SYM+0xOFF (DSO)", "[unknown]" for
 * what did not resolve, "  FILE:LINE" after it with --lines; as a JSON
 * string. Rendered once per frame (framecache.h), by hand into a buffer
 * sized for it.
 */
static void put_frame(struct pf *p, const struct srep_frame *f)
{
	const char *sym = f->symbol ? f->symbol : "[unknown]";
	const char *dso = f->module ? f->module : "[unknown]";
	struct srep_frame key = *f;
	size_t need, len;
	const char *done;
	char *o, *n;

	key.addr = 0;		/* not in the text: one entry for every process */
	done = fc_find(&p->texts, &key, &len);
	if (done) {
		emit_raw(&p->out, done, len);
		return;
	}
	need = 64 + strlen(sym) + strlen(dso) + (f->file ? strlen(f->file) : 0);
	if (need > p->text_cap) {
		n = realloc(p->text, need);
		if (!n) {
			p->nomem = true;
			return;
		}
		p->text = n;
		p->text_cap = need;
	}
	o = p->text;
	*o++ = '"';
	o = fmt_hex(o, f->module_addr);
	*o++ = ' ';
	o = fc_str(o, sym);
	if (f->symbol) {
		o = fc_str(o, "+0x");
		o = fmt_hex(o, f->symbol_offset);
	}
	o = fc_str(o, " (");
	o = fc_str(o, dso);
	*o++ = ')';
	if (f->file) {
		o = fc_str(o, "  ");
		o = fc_str(o, f->file);
		*o++ = ':';
		o = fmt_dec(o, f->line);
	}
	*o++ = '"';
	if (fc_plain(sym) && fc_plain(dso) && (!f->file || fc_plain(f->file))) {
		fc_keep(&p->texts, &key, p->text, (size_t)(o - p->text));
		emit_raw(&p->out, p->text, (size_t)(o - p->text));
	} else {
		/* bytes JSON must escape (or not UTF-8): the slow way, every time */
		emit_json_str(&p->out, p->text + 1, (size_t)(o - p->text) - 2);
	}
}

/* an event with a callchain: an instant on its thread carrying the resolved stack */
static void stack_instant(struct pf *p, const struct srep_event *ev)
{
	struct tl_task *t = tl_task(&p->tl, ev->tid, ev->pid);
	size_t need = (size_t)ev->nr_callchain + SREP_UNWIND_MAX + 1, n, i;
	const char *name = ev->evsel >= 0 ?
			   srep_session__evsel_name(p->ctx->session, (size_t)ev->evsel) : NULL;
	struct srep_frame *f;

	if (!t || !in_window(p, ev->time))
		return;
	if (need > p->frames_cap) {
		f = realloc(p->frames, need * sizeof(*f));
		if (!f) {
			p->nomem = true;
			return;
		}
		p->frames = f;
		p->frames_cap = need;
	}
	n = srep_symbolizer__callchain(p->ctx->symbols, ev, p->frames, p->frames_cap);
	head(p, 'i', name ? name : srep_event_kind_name(ev->kind), false, t->pid, t->tid, ev->time);
	emit_lit(&p->out, ",\"s\":\"t\",\"args\":{\"stack\":[");
	for (i = 0; i < n; i++) {
		if (i)
			emit_char(&p->out, ',');
		put_frame(p, &p->frames[i]);
	}
	emit_lit(&p->out, "]}},\n");
}

static void on_cpu_event(struct pf *p, const struct srep_event *ev)
{
	char name[48];

	if (!in_window(p, ev->time))
		return;
	if (ev->kind == SREP_EV_LOST) {
		head(p, 'i', ev->u.lost.samples ? "lost samples" : "lost events", true, CPUS_PID,
		     CPUS_PID, ev->time);
		emit_lit(&p->out, ",\"s\":\"g\"");
		arg_int(p, "lost", (int64_t)ev->u.lost.lost, true);
		arg_int(p, "cpu", ev->cpu, false);
		tail(p, true);
		return;
	}
	snprintf(name, sizeof(name), "cpu%d %s", ev->u.cpu_state.cpu,
		 ev->kind == SREP_EV_CPU_FREQ ? "frequency" : "idle");
	head(p, 'C', name, true, CPUS_PID, CPUS_PID, ev->time);
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
	if (ev->kind == SREP_EV_CPU_IDLE || ev->kind == SREP_EV_CPU_FREQ || ev->kind == SREP_EV_LOST)
		on_cpu_event(p, ev);
	else
		on_task_event(p, ev);
	if (ev->nr_callchain && p->ctx->symbols)
		stack_instant(p, ev);
	tl_event(&p->tl, ev);
	if (p->tl.nomem || p->nomem)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline state");
	return p->out.failed ? emit_error(&p->out, err) : 0;
}

/* ---- the frame: begin, names at the end, otherData ---- */

static int pf_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	struct pf *p = calloc(1, sizeof(*p));

	*state = p;
	if (!p || emit_init(&p->out, ctx->out))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline");
	p->ctx = ctx;
	tl_init(&p->tl, ctx, &pf_hooks, p);
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

static void names(struct pf *p, struct tl_task **v)
{
	const struct srep_task *t;
	char label[SREP_EXPORT_LABEL_MAX];
	size_t i;

	for (i = 0; i < p->tl.nr_tasks; i++) {
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
	for (i = 0; i < p->tl.nr_cpus; i++) {
		if (!p->tl.cpus[i].seen)
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
	struct tl_task **v;

	/* what is still open ends with the trace */
	tl_finish(&p->tl, p->last_time);
	v = tl_sorted_tasks(&p->tl);
	if (!v || p->tl.nomem) {
		free(v);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline names");
	}
	names(p, v);
	free(v);
	other_data(p);
	if (emit_flush(&p->out))
		return emit_error(&p->out, err);
	return 0;
}

static void pf_destroy(void *state)
{
	struct pf *p = state;

	if (!p)
		return;
	emit_free(&p->out);
	tl_free(&p->tl);
	free(p->frames);
	free(p->text);
	fc_free(&p->texts);
	free(p);
}

const struct srep_exporter srep_exporter_perfetto = {
	.name = "perfetto",
	.suffix = ".json",
	.summary = "Chrome Trace Event JSON for ui.perfetto.dev and chrome://tracing",
	.flags = SREP_EXPORT_SYMBOLS,
	.begin = pf_begin,
	.event = pf_event,
	.end = pf_end,
	.destroy = pf_destroy,
};
