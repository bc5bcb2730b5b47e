// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * criu.c - the CRIU exporter: the trace's process tree at chosen instants,
 * one CRIU image set per instant (criu_images.c) and timeline.json
 * (criu_timeline.c). The format and every field the trace cannot know:
 * docs/criu.md.
 *
 * Events arrive in time order; the exporter keeps one small record per task
 * of the session's (prescanned) table: last state letter, on-CPU time,
 * instructions. Before an event later than the next instant, that instant
 * is written from these records and the task table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "criu_local.h"

#define NSEC_PER_SEC		UINT64_C(1000000000)
#define PERF_TYPE_HARDWARE	0
#define HW_CPU_CYCLES		0
#define HW_INSTRUCTIONS		1
#define PERF_SAMPLE_PERIOD	(1u << 8)

/* ---- options ---- */

const struct srep_export_opt srep_criu_options[] = {
	{ "at", "<time>", "an instant: seconds from the trace start, or @<timestamp>; repeatable",
	  SREP_CRIU_OPT_AT },
	{ "every", "<duration>", "an instant every <duration> (10ms, 0.5s) from the trace start",
	  SREP_CRIU_OPT_EVERY },
	{ "every-instructions", "<n>",
	  "an instant every <n> instructions retired by the selected tasks",
	  SREP_CRIU_OPT_EVERY_INSTRUCTIONS },
	{ NULL, NULL, NULL, 0 },
};

static int parse_count(const char *arg, uint64_t *out, struct srep_error *err)
{
	uint64_t v = 0;
	const char *p;

	for (p = arg; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			break;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == arg || *p || !v)
		return srep_error__set(err, SREP_E_INVAL,
				       "'%s': expected a number of instructions above 0", arg);
	*out = v;
	return 0;
}

int srep_criu_opts__new(void **opts, struct srep_error *err)
{
	*opts = calloc(1, sizeof(struct srep_criu_opts));
	return *opts ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory for criu options");
}

static int add_at(struct srep_criu_opts *o, const char *arg, struct srep_error *err)
{
	uint64_t ignored;
	char **n;
	int ret;

	/* the syntax now; the value once the trace's start is known */
	ret = srep_time__parse(arg, 0, &ignored, err);
	if (ret)
		return ret;
	n = realloc(o->at, (o->nr_at + 1) * sizeof(*n));
	if (!n)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for --at");
	o->at = n;
	o->at[o->nr_at] = strdup(arg);
	if (!o->at[o->nr_at])
		return srep_error__set(err, SREP_E_NOMEM, "no memory for --at");
	o->nr_at++;
	return 0;
}

int srep_criu_opts__opt(void *opts, int id, const char *arg, struct srep_error *err)
{
	struct srep_criu_opts *o = opts;

	switch (id) {
	case SREP_CRIU_OPT_AT:
		return add_at(o, arg, err);
	case SREP_CRIU_OPT_EVERY:
		return srep_duration__parse(arg, &o->every_ns, err);
	case SREP_CRIU_OPT_EVERY_INSTRUCTIONS:
		return parse_count(arg, &o->every_instructions, err);
	default:
		return srep_error__set(err, SREP_E_INVAL, "criu has no option %d", id);
	}
}

void srep_criu_opts__free(void *opts)
{
	struct srep_criu_opts *o = opts;
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nr_at; i++)
		free(o->at[i]);
	free(o->at);
	free(o);
}

/* ---- instants ---- */

/* "0.200000": seconds after the trace start, microseconds, as directory names show it */
static void fmt_offset(char *buf, size_t size, uint64_t start, uint64_t t)
{
	uint64_t d = t >= start ? t - start : start - t;

	snprintf(buf, size, "%s%" PRIu64 ".%06" PRIu64, t >= start ? "" : "-", d / NSEC_PER_SEC,
		 d % NSEC_PER_SEC / 1000);
}

static int outside(const struct criu_state *st, const char *spec, uint64_t t,
		   struct srep_error *err)
{
	char at[48], lo[48], hi[48];

	fmt_offset(at, sizeof(at), st->start, t);
	fmt_offset(lo, sizeof(lo), st->start, st->lo);
	fmt_offset(hi, sizeof(hi), st->start, st->hi);
	return srep_error__set(err, SREP_E_TIME,
			       "--at '%s': instant %s s (@%" PRIu64 ".%09" PRIu64 ") is outside the "
			       "trace (%s .. %s s)", spec, at, t / NSEC_PER_SEC, t % NSEC_PER_SEC, lo, hi);
}

static int cmp_instant(const void *a, const void *b)
{
	const struct criu_instant *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* --every D: lo + D, lo + 2D, ... up to hi */
static int every_count(const struct criu_state *st, uint64_t every, size_t *n,
		       struct srep_error *err)
{
	uint64_t count = (st->hi - st->lo) / every;
	char span[48];

	fmt_offset(span, sizeof(span), st->lo, st->hi);
	if (!count)
		return srep_error__set(err, SREP_E_TIME, "--every %" PRIu64 " ns: no instant inside "
				       "the trace (%s s long)", every, span);
	if (count > CRIU_MAX_INSTANTS)
		return srep_error__set(err, SREP_E_LIMIT, "--every %" PRIu64 " ns: %" PRIu64
				       " instants, more than %d", every, count, CRIU_MAX_INSTANTS);
	*n = (size_t)count;
	return 0;
}

static int instants_init(struct criu_state *st, const struct srep_criu_opts *o,
			 struct srep_error *err)
{
	size_t n_every = 0, i, k;
	uint64_t t;
	int ret;

	if (o->every_ns && (ret = every_count(st, o->every_ns, &n_every, err)))
		return ret;
	if (o->nr_at + n_every > CRIU_MAX_INSTANTS)
		return srep_error__set(err, SREP_E_LIMIT, "more than %d instants", CRIU_MAX_INSTANTS);
	st->instants = calloc(o->nr_at + n_every + 1, sizeof(*st->instants));
	if (!st->instants)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for instants");
	for (i = 0; i < o->nr_at; i++) {
		ret = srep_time__parse(o->at[i], st->start, &t, err);
		if (ret)
			return ret;
		if (t < st->lo || t > st->hi)
			return outside(st, o->at[i], t, err);
		st->instants[st->nr_instants++] = (struct criu_instant){ t, CRIU_R_AT };
	}
	for (i = 1; i <= n_every; i++)
		st->instants[st->nr_instants++] =
			(struct criu_instant){ st->lo + i * o->every_ns, CRIU_R_EVERY };
	qsort(st->instants, st->nr_instants, sizeof(*st->instants), cmp_instant);
	/* one instant per time, with every reason that asked for it */
	for (i = 0, k = 0; i < st->nr_instants; i++) {
		if (k && st->instants[k - 1].time == st->instants[i].time)
			st->instants[k - 1].reasons |= st->instants[i].reasons;
		else
			st->instants[k++] = st->instants[i];
	}
	st->nr_instants = k;
	return 0;
}

/* the first instructions event with periods; else cycles stand in (docs/criu.md) */
static int counter_init(struct criu_state *st, const struct srep_criu_opts *o,
			struct srep_error *err)
{
	size_t n = srep_session__nr_evsels(st->session), i;
	int cycles = -1;

	st->counter_evsel = -1;
	for (i = 0; i < n && st->counter_evsel < 0; i++) {
		uint64_t config = srep_session__evsel_config(st->session, i) & 0xffffffffu;

		if (srep_session__evsel_type(st->session, i) != PERF_TYPE_HARDWARE ||
		    !(srep_session__evsel_sample_type(st->session, i) & PERF_SAMPLE_PERIOD))
			continue;
		if (config == HW_INSTRUCTIONS)
			st->counter_evsel = (int)i;
		else if (config == HW_CPU_CYCLES && cycles < 0)
			cycles = (int)i;
	}
	if (st->counter_evsel < 0)
		st->counter_evsel = cycles;
	st->insn_every = o->every_instructions;
	st->insn_next = st->insn_every;
	if (st->insn_every && st->counter_evsel < 0)
		return srep_error__set(err, SREP_E_UNSUPPORTED, "--every-instructions: the trace has "
				       "no instructions or cycles samples with periods");
	return 0;
}

/* ---- the per-task records ---- */

static int cmp_tid(const void *a, const void *b)
{
	const struct criu_tid *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int tasks_init(struct criu_state *st, struct srep_error *err)
{
	size_t n = srep_session__nr_tasks(st->session), i;

	st->tasks = calloc(n + 1, sizeof(*st->tasks));
	st->by_tid = calloc(n + 1, sizeof(*st->by_tid));
	if (!st->tasks || !st->by_tid)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for %zu tasks", n);
	st->nr_tasks = n;
	for (i = 0; i < n; i++) {
		struct criu_task *ct = &st->tasks[i];

		ct->t = srep_session__task(st->session, i);
		ct->selected = !st->sel || srep_selection__has_task(st->sel, ct->t);
		ct->letter = ct->was_letter = '?';
		ct->prio = INT32_MIN;
		ct->next_same_tid = CRIU_NONE;
		st->by_tid[i] = (struct criu_tid){ srep_task__tid(ct->t), i };
	}
	qsort(st->by_tid, n, sizeof(*st->by_tid), cmp_tid);
	for (i = 1; i < n; i++) {
		if (st->by_tid[i].tid == st->by_tid[i - 1].tid)
			st->tasks[st->by_tid[i - 1].idx].next_same_tid = st->by_tid[i].idx;
	}
	return 0;
}

static struct criu_task *task_of(struct criu_state *st, int32_t tid, uint64_t time)
{
	size_t i = tid > 0 ? criu_task_at(st, tid, time) : CRIU_NONE;

	return i == CRIU_NONE ? NULL : &st->tasks[i];
}

static void note_prio(struct criu_task *ct, int32_t prio)
{
	if (prio != INT32_MIN)
		ct->prio = prio;
}

static void switch_out(struct criu_state *st, const struct srep_event *ev)
{
	struct criu_task *ct = task_of(st, ev->u.sw.prev_tid, ev->time);

	if (!ct)
		return;
	if (ct->on_cpu && ev->time >= ct->on_since)
		ct->cpu_ns += ev->time - ct->on_since;
	else if (!ct->switched && ev->time >= st->start)
		ct->cpu_ns += ev->time - st->start;	/* on its CPU since the trace began */
	ct->on_cpu = false;
	ct->switched = true;
	ct->letter = ev->flags & SREP_EVF_PREEMPT ? 'R' : ev->u.sw.prev_state;
	note_prio(ct, ev->u.sw.prev_prio);
	/* X: the kernel released it at once (a thread, or a parent ignoring SIGCHLD) */
	if (ct->letter == 'X' && !ct->released)
		ct->released = ev->time;
}

static void switch_in(struct criu_state *st, const struct srep_event *ev)
{
	struct criu_task *ct = task_of(st, ev->u.sw.next_tid, ev->time);

	if (!ct)
		return;
	ct->on_cpu = ct->switched = true;
	ct->on_since = ev->time;
	ct->letter = 'R';
	note_prio(ct, ev->u.sw.next_prio);
}

static void woken(struct criu_state *st, int32_t tid, int32_t prio, uint64_t time)
{
	struct criu_task *ct = task_of(st, tid, time);

	if (!ct)
		return;
	if (!ct->on_cpu)
		ct->letter = 'R';
	note_prio(ct, prio);
}

static void note_exec(struct criu_state *st, const struct srep_event *ev)
{
	struct criu_task *ct = task_of(st, ev->u.exec.tid, ev->time);
	struct criu_exec *x;

	if (!ct || !ct->selected)
		return;
	if (st->nr_execs == CRIU_MAX_EXECS) {
		st->execs_dropped++;
		return;
	}
	if (st->nr_execs == st->cap_execs) {
		size_t cap = st->cap_execs ? st->cap_execs * 2 : 16;

		x = realloc(st->execs, cap * sizeof(*x));
		if (!x) {
			st->execs_dropped++;
			return;
		}
		st->execs = x;
		st->cap_execs = cap;
	}
	x = &st->execs[st->nr_execs];
	*x = (struct criu_exec){ .time = ev->time, .pid = ev->u.exec.pid, .tid = ev->u.exec.tid };
	snprintf(x->comm, sizeof(x->comm), "%s", ev->u.exec.comm);
	x->filename = ev->u.exec.filename && *ev->u.exec.filename ?
		      strdup(ev->u.exec.filename) : NULL;
	st->nr_execs++;
}

/* instructions: the sample's period, for its task and (selected, inside the window) the total */
static void count_sample(struct criu_state *st, const struct srep_event *ev)
{
	struct criu_task *ct = task_of(st, ev->tid, ev->time);

	if (!ct)
		return;
	ct->counted += ev->period;
	if (!ct->selected || ev->time < st->lo || ev->time > st->hi)
		return;
	st->insn_total += ev->period;
	if (st->insn_every && st->insn_total >= st->insn_next) {
		/* a late sample (beyond the reorder window) cannot go back before a written instant */
		st->insn_pending = ev->time > st->prev_time ? ev->time : st->prev_time + 1;
		st->insn_next = (st->insn_total / st->insn_every + 1) * st->insn_every;
		if (st->insn_next <= st->insn_total)	/* wrapped: no further instant */
			st->insn_next = UINT64_MAX;
	}
}

static void track(struct criu_state *st, const struct srep_event *ev)
{
	struct criu_task *ct;

	switch (ev->kind) {
	case SREP_EV_SWITCH:
		st->nr_switches++;
		if (!(ev->flags & SREP_EVF_SWITCH_IN))
			switch_out(st, ev);
		if (!(ev->flags & SREP_EVF_SWITCH_OUT))
			switch_in(st, ev);
		break;
	case SREP_EV_WAKEUP:
		woken(st, ev->u.wake.tid, ev->u.wake.prio, ev->time);
		break;
	case SREP_EV_MIGRATE:
		ct = task_of(st, ev->u.migrate.tid, ev->time);
		if (ct)
			note_prio(ct, ev->u.migrate.prio);
		break;
	case SREP_EV_FORK:
		woken(st, ev->u.fork.child_tid, INT32_MIN, ev->time);
		break;
	case SREP_EV_EXEC:
		note_exec(st, ev);
		break;
	case SREP_EV_FREE:
		ct = task_of(st, ev->u.exit.tid, ev->time);
		if (ct && !ct->released)
			ct->released = ev->time;
		break;
	case SREP_EV_SAMPLE:
		if (ev->evsel >= 0 && ev->evsel == st->counter_evsel)
			count_sample(st, ev);
		break;
	default:
		break;
	}
}

/* ---- writing instants ---- */

static void remember(struct criu_state *st, uint64_t time)
{
	size_t i;

	for (i = 0; i < st->nr_tasks; i++) {
		struct criu_task *ct = &st->tasks[i];

		ct->was_present = ct->present;
		ct->was_letter = ct->letter;
		ct->was_comm = criu_comm_at(ct->t, time);
	}
	for (i = 0; i < st->nr_execs; i++)
		free(st->execs[i].filename);
	st->nr_execs = 0;
	st->execs_dropped = 0;
	st->prev_time = time;
}

static int write_instant(struct criu_state *st, uint64_t time, unsigned reasons,
			 struct srep_error *err)
{
	char name[64], off[48], path[4096];
	int ret;

	if (st->nr_written >= CRIU_MAX_INSTANTS)
		return srep_error__set(err, SREP_E_LIMIT, "more than %d instants", CRIU_MAX_INSTANTS);
	fmt_offset(off, sizeof(off), st->start, time);
	snprintf(name, sizeof(name), "%03zu-%ss", st->nr_written, off);
	snprintf(path, sizeof(path), "%s/%s", st->out_dir, name);
	if (mkdir(path, 0755))
		return srep_error__set(err, SREP_E_IO, "cannot create '%s': %s", path, strerror(errno));
	ret = criu_snapshot_build(st, time, err);
	if (!ret)
		ret = criu_images_write(st, path, err);
	if (!ret)
		ret = criu_timeline_instant(st, name, reasons, err);
	if (ret)
		return ret;
	remember(st, time);
	st->nr_written++;
	return 0;
}

/* write every instant due before 'limit' (exclusive) */
static int flush_until(struct criu_state *st, uint64_t limit, struct srep_error *err)
{
	for (;;) {
		uint64_t t = UINT64_MAX;
		unsigned reasons = 0;
		int ret;

		if (st->next_instant < st->nr_instants)
			t = st->instants[st->next_instant].time;
		if (st->insn_pending && st->insn_pending < t)
			t = st->insn_pending;
		if (t >= limit || t == UINT64_MAX)
			return 0;
		if (st->next_instant < st->nr_instants && st->instants[st->next_instant].time == t)
			reasons |= st->instants[st->next_instant++].reasons;
		if (st->insn_pending == t) {
			reasons |= CRIU_R_INSN;
			st->insn_pending = 0;
		}
		ret = write_instant(st, t, reasons, err);
		if (ret)
			return ret;
	}
}

/* ---- the exporter ---- */

static void criu_destroy(void *state)
{
	struct criu_state *st = state;
	size_t i;

	if (!st)
		return;
	if (st->timeline)
		fclose(st->timeline);
	for (i = 0; i < st->nr_execs; i++)
		free(st->execs[i].filename);
	free(st->execs);
	criu_snapshot_free(&st->snap);
	free(st->instants);
	free(st->tasks);
	free(st->by_tid);
	free(st->out_dir);
	free(st);
}

static int span_init(struct criu_state *st, const struct srep_export_ctx *ctx,
		     struct srep_error *err)
{
	if (!srep_session__time_span(st->session, &st->start, &st->end))
		return srep_error__set(err, SREP_E_UNSUPPORTED,
				       "the trace has no timestamps: no instant can be placed");
	st->lo = ctx->from > st->start ? ctx->from : st->start;
	st->hi = ctx->to < st->end ? ctx->to : st->end;
	if (st->lo > st->hi)
		return srep_error__set(err, SREP_E_TIME, "the time window holds no part of the trace");
	st->prev_time = st->lo - 1;	/* changes are listed from the start on */
	return 0;
}

static int criu_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	const struct srep_criu_opts defaults = { 0 };
	const struct srep_criu_opts *o = ctx->opts ? ctx->opts : &defaults;
	struct criu_state *st = calloc(1, sizeof(*st));
	int ret;

	*state = st;
	if (!st)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the criu exporter");
	if (!ctx->out_dir)
		return srep_error__set(err, SREP_E_INVAL, "the criu exporter writes a directory");
	st->out_dir = strdup(ctx->out_dir);
	if (!st->out_dir)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the criu exporter");
	st->session = ctx->session;
	st->sel = ctx->sel;
	st->input = srep_session__meta(st->session)->path;
	st->march = criu_march(srep_session__meta(st->session)->arch);
	ret = span_init(st, ctx, err);
	if (!ret)
		ret = tasks_init(st, err);
	if (!ret)
		ret = counter_init(st, o, err);
	if (!ret)
		ret = instants_init(st, o, err);
	if (!ret && !st->nr_instants && !st->insn_every)
		st->instants[st->nr_instants++] = (struct criu_instant){ st->hi, CRIU_R_END };
	if (!ret)
		ret = criu_timeline_begin(st, err);
	return ret;
}

static int criu_event(void *state, const struct srep_event *ev, struct srep_error *err)
{
	struct criu_state *st = state;
	int ret;

	if (!(ev->flags & SREP_EVF_NO_TIME) && ev->time) {
		ret = flush_until(st, ev->time, err);
		if (ret)
			return ret;
	}
	track(st, ev);
	return 0;
}

static int criu_end(void *state, struct srep_error *err)
{
	struct criu_state *st = state;
	int ret = flush_until(st, UINT64_MAX, err);

	if (ret)
		return ret;
	if (st->insn_every && st->insn_total < st->insn_every)
		return srep_error__set(err, SREP_E_TIME, "--every-instructions %" PRIu64 ": the "
				       "selected tasks retired only %" PRIu64 " (%s samples)",
				       st->insn_every, st->insn_total,
				       srep_session__evsel_name(st->session,
								(size_t)st->counter_evsel));
	return criu_timeline_end(st, err);
}

const struct srep_exporter srep_exporter_criu = {
	.name = "criu",
	.suffix = ".criu",
	.summary = "CRIU image sets of the process tree at chosen instants, and timeline.json",
	.flags = SREP_EXPORT_PRESCAN | SREP_EXPORT_DIRECTORY | SREP_EXPORT_WHOLE_TASKS,
	.options = srep_criu_options,
	.opts_new = srep_criu_opts__new,
	.opt = srep_criu_opts__opt,
	.opts_free = srep_criu_opts__free,
	.begin = criu_begin,
	.event = criu_event,
	.end = criu_end,
	.destroy = criu_destroy,
};
