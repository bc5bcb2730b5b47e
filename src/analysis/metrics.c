// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics.c - per-task, per-CPU and whole-trace figures computed in one
 * streaming pass over a session's events (definitions: docs/compare.md).
 *
 * Each task is in one state at a time: unknown (not seen switching yet),
 * running on a CPU, waiting for a CPU (woken, or switched out runnable),
 * sleeping (S or D) or other (stopped, dead). The transitions follow perf
 * sched latency's rules, so the wait figures equal perf's (a wakeup counts
 * only for a task that is not running or already waiting). Memory per task
 * is a fixed record plus a sparse histogram (hist.h) and, with a
 * symbolizer, its blocking sites (blocking.h); per CPU a fixed record, at
 * most MAX_FREQS frequencies and SREP_TIMELINE_BINS bins.
 */
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>
#include "hist.h"
#include "blocking.h"

#define MAX_FREQS	64	/* cpufreq tables have a few dozen entries at most */
#define FIRST_BIN_NS	1000u	/* timeline bins start at 1 us and double as needed */
#define MAX_CPU		8192	/* the largest NR_CPUS kernels are built with (x86 MAXSMP) */

enum tstate { TS_UNKNOWN = 0, TS_RUNNING, TS_WAITING, TS_SLEEP_S, TS_SLEEP_D, TS_OTHER };

struct task_acc {
	uint8_t state;
	int32_t cpu;			/* where it runs, or ran last; -1 never seen running */
	uint64_t since;			/* when the current state began */
	uint64_t cpu_ns, vol, invol, sleep_s, sleep_d, migrations;
	uint64_t wait_total, wait_unknown;
	struct hist wait;
	struct blocking_task blk;		/* where it slept, with a symbolizer */
};

struct freq_acc {
	uint64_t khz, ns;
};

struct bin {
	uint64_t busy, top_ns;
	int64_t top;			/* task index, -1 none */
};

struct cpu_acc {
	int64_t cur;			/* task index running here, -1 unknown */
	bool cur_idle;
	uint64_t since;
	uint64_t busy, idle, unknown;
	int64_t khz;			/* current frequency, -1 unknown */
	uint64_t khz_since;
	struct freq_acc *freqs;		/* ascending kHz */
	size_t nr_freqs;
	struct bin *bins;
};

struct srep_metrics {
	const struct srep_session *s;
	struct task_acc *tasks;		/* by task index */
	size_t nr_tasks;
	struct cpu_acc *cpus;
	size_t nr_cpus;
	uint64_t first, last;
	uint64_t bin_ns;		/* bins start at 'first' */
	bool finished;
	struct srep_symbolizer *sy;	/* NULL: no blocking sites */
	struct blocking_table sites;
};

int srep_metrics__new(struct srep_metrics **out, const struct srep_session *s,
		      struct srep_error *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for metrics");
	(*out)->s = s;
	(*out)->bin_ns = FIRST_BIN_NS;
	return 0;
}

void srep_metrics__delete(struct srep_metrics *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_tasks; i++) {
		hist_free(&m->tasks[i].wait);
		blocking_task_free(&m->tasks[i].blk);
	}
	blocking_table_free(&m->sites);
	for (i = 0; i < m->nr_cpus; i++) {
		free(m->cpus[i].freqs);
		free(m->cpus[i].bins);
	}
	free(m->tasks);
	free(m->cpus);
	free(m);
}

/* ---- lookups: the live task of a tid, by its index in the task table ---- */

static const struct srep_task *task_of(const struct srep_metrics *m, int32_t tid)
{
	const struct srep_task *t = tid >= 0 ? srep_session__current_task(m->s, tid) : NULL;

	return t || tid < 0 ? t : srep_session__find_task(m->s, tid);
}

static struct task_acc *acc_at(struct srep_metrics *m, size_t idx)
{
	if (idx >= m->nr_tasks) {
		size_t n = idx + 1 > 2 * m->nr_tasks ? idx + 1 : 2 * m->nr_tasks;
		struct task_acc *t = realloc(m->tasks, n * sizeof(*t));
		size_t i;

		if (!t)
			return NULL;
		for (i = m->nr_tasks; i < n; i++)
			t[i] = (struct task_acc){ .cpu = -1, .blk.open = BLK_NONE };
		m->tasks = t;
		m->nr_tasks = n;
	}
	return &m->tasks[idx];
}

static struct cpu_acc *cpu_at(struct srep_metrics *m, int32_t cpu)
{
	if (cpu < 0 || cpu >= MAX_CPU)
		return NULL;
	if ((size_t)cpu >= m->nr_cpus) {
		size_t n = (size_t)cpu + 1, i;
		struct cpu_acc *c = realloc(m->cpus, n * sizeof(*c));

		if (!c)
			return NULL;
		for (i = m->nr_cpus; i < n; i++)
			c[i] = (struct cpu_acc){ .cur = -1, .khz = -1, .since = m->first };
		m->cpus = c;
		m->nr_cpus = n;
	}
	return &m->cpus[cpu];
}

/* ---- the timeline ---- */

static void rescale_bins(struct srep_metrics *m)
{
	size_t i, j;

	for (i = 0; i < m->nr_cpus; i++) {
		struct bin *b = m->cpus[i].bins;

		if (!b)
			continue;
		for (j = 0; j < SREP_TIMELINE_BINS / 2; j++) {
			const struct bin *x = &b[2 * j], *y = &b[2 * j + 1];
			struct bin n = y->top_ns > x->top_ns ? *y : *x;

			n.busy = x->busy + y->busy;
			b[j] = n;
		}
		for (; j < SREP_TIMELINE_BINS; j++)
			b[j] = (struct bin){ .top = -1 };
	}
	m->bin_ns *= 2;
}

static int bins_add(struct srep_metrics *m, struct cpu_acc *c, uint64_t from, uint64_t to,
		    int64_t task)
{
	size_t i;

	if (!c->bins) {
		c->bins = malloc(SREP_TIMELINE_BINS * sizeof(*c->bins));
		if (!c->bins)
			return SREP_E_NOMEM;
		for (i = 0; i < SREP_TIMELINE_BINS; i++)
			c->bins[i] = (struct bin){ .top = -1 };
	}
	while ((to - m->first) / m->bin_ns >= SREP_TIMELINE_BINS)
		rescale_bins(m);
	while (from < to) {
		uint64_t b = (from - m->first) / m->bin_ns;
		uint64_t end = m->first + (b + 1) * m->bin_ns;
		struct bin *bin = &c->bins[b];

		end = end < to ? end : to;
		bin->busy += end - from;
		if (end - from > bin->top_ns) {
			bin->top_ns = end - from;
			bin->top = task;
		}
		from = end;
	}
	return 0;
}

/* account what ran on the CPU from its 'since' to 't' */
static int cpu_close(struct srep_metrics *m, struct cpu_acc *c, uint64_t t)
{
	uint64_t d;

	if (t <= c->since)
		return 0;
	d = t - c->since;
	if (c->cur < 0) {
		c->unknown += d;
	} else if (c->cur_idle) {
		c->idle += d;
	} else {
		c->busy += d;
		if (bins_add(m, c, c->since, t, c->cur))
			return SREP_E_NOMEM;
	}
	c->since = t;
	return 0;
}

/* ---- switches and wakeups ---- */

static void run_ends(struct task_acc *a, uint64_t t)
{
	if (a->state == TS_RUNNING && t > a->since)
		a->cpu_ns += t - a->since;
}

static uint8_t state_after(char letter, bool preempt, struct task_acc *a)
{
	if (letter == 'R' || preempt) {
		a->invol++;
		return TS_WAITING;
	}
	if (letter == '?')
		return TS_UNKNOWN;
	a->vol++;
	return letter == 'S' || letter == 'I' ? TS_SLEEP_S : letter == 'D' ? TS_SLEEP_D : TS_OTHER;
}

/* a sleep starts: at which site, when the switch-out has a callchain to say */
static int sleep_site(struct srep_metrics *m, struct task_acc *a, const struct srep_event *ev)
{
	char kbuf[SREP_FRAME_LABEL_MAX], ubuf[SREP_FRAME_LABEL_MAX];
	struct srep_frame k, u;
	int found;

	if (!m->sy || !ev->nr_callchain || (a->state != TS_SLEEP_S && a->state != TS_SLEEP_D)) {
		blocking_sleep_drop(&a->blk);
		return 0;
	}
	found = srep_symbolizer__blocked_in(m->sy, ev, &k, &u);
	return blocking_sleep_start(&m->sites, &a->blk,
			       found & SREP_BLOCKED_KERNEL ? srep_frame__label(&k, kbuf, sizeof(kbuf)) : NULL,
			       found & SREP_BLOCKED_USER ? srep_frame__label(&u, ubuf, sizeof(ubuf)) : NULL);
}

/* the task this CPU shows running leaves it at 't': another task switched in or out here */
static void leave_cpu(struct srep_metrics *m, struct cpu_acc *c, int32_t cpu, uint64_t t)
{
	struct task_acc *cur;

	if (c->cur < 0 || c->cur_idle || (size_t)c->cur >= m->nr_tasks)
		return;
	cur = &m->tasks[c->cur];
	if (cur->state == TS_RUNNING && cur->cpu == cpu) {
		run_ends(cur, t);
		cur->state = TS_UNKNOWN;
		cur->since = t;
	}
}

static int switch_out(struct srep_metrics *m, struct cpu_acc *c, int32_t cpu,
		      const struct srep_event *ev, uint64_t t)
{
	const struct srep_task *task = task_of(m, ev->u.sw.prev_tid);
	bool idle = ev->u.sw.prev_tid == 0;
	struct task_acc *a = NULL;
	uint64_t since = c->since;
	int ret;

	if (!task)
		return 0;
	if (!idle && !(a = acc_at(m, srep_task__index(task))))
		return SREP_E_NOMEM;
	/* first seen running: it ran here since the CPU's last switch (or the trace start) */
	if (a && a->state == TS_RUNNING && a->cpu == cpu)
		since = a->since;
	else if (srep_task__fork_time(task) > since && srep_task__fork_time(task) <= t)
		since = srep_task__fork_time(task);
	/* not before it was seen elsewhere (it left another CPU, was woken): no task runs twice */
	if (a && a->state != TS_RUNNING && a->since > since && a->since <= t)
		since = a->since;
	if (c->cur != (int64_t)srep_task__index(task)) {
		leave_cpu(m, c, cpu, since);	/* what ran here did until 'task' came in */
		ret = cpu_close(m, c, since);
		if (ret)
			return ret;
		c->cur = (int64_t)srep_task__index(task);
		c->cur_idle = idle;
	}
	ret = cpu_close(m, c, t);
	c->cur = -1;	/* until the switch-in half, for SWITCH records */
	if (!a)
		return ret;
	if (!(a->state == TS_RUNNING && a->cpu == cpu)) {
		a->state = TS_RUNNING;
		a->since = since;
	}
	run_ends(a, t);
	a->cpu = cpu;
	a->since = t;
	a->state = state_after(ev->u.sw.prev_state, ev->flags & SREP_EVF_PREEMPT, a);
	if (!ret)
		ret = sleep_site(m, a, ev);
	return ret;
}

static void wait_ends(struct task_acc *a, uint64_t t)
{
	switch (a->state) {
	case TS_WAITING:
		a->wait_total += t - a->since;
		break;
	case TS_SLEEP_S:
		a->sleep_s += t - a->since;
		blocking_sleep_end(&a->blk, t - a->since);
		break;
	case TS_SLEEP_D:
		a->sleep_d += t - a->since;
		blocking_sleep_end(&a->blk, t - a->since);
		break;
	case TS_UNKNOWN:
		a->wait_unknown++;
		break;
	default:
		break;
	}
}

static int switch_in(struct srep_metrics *m, struct cpu_acc *c, int32_t cpu, int32_t tid,
		     uint64_t t)
{
	const struct srep_task *task = task_of(m, tid);
	struct task_acc *a;
	int ret;

	if (!task)
		return 0;
	a = tid ? acc_at(m, srep_task__index(task)) : NULL;
	if (tid && !a)
		return SREP_E_NOMEM;
	if (a && a->state == TS_RUNNING && a->cpu == cpu)
		return 0;	/* both halves of a CPU-wide SWITCH record */
	if (c->cur != (int64_t)srep_task__index(task))
		leave_cpu(m, c, cpu, t);
	ret = cpu_close(m, c, t);
	c->cur = (int64_t)srep_task__index(task);
	c->cur_idle = tid == 0;
	if (!a)
		return ret;
	run_ends(a, t);
	if (a->state == TS_WAITING) {
		uint64_t d = t - a->since;

		if (hist_add(&a->wait, d))
			return SREP_E_NOMEM;
	}
	if (a->state != TS_RUNNING)
		wait_ends(a, t);
	if (a->cpu >= 0 && a->cpu != cpu)
		a->migrations++;
	a->state = TS_RUNNING;
	a->since = t;
	a->cpu = cpu;
	return ret;
}

static int on_switch(struct srep_metrics *m, const struct srep_event *ev, uint64_t t)
{
	struct cpu_acc *c = cpu_at(m, ev->cpu);
	int ret = 0;

	if (!c)
		return ev->cpu < 0 || ev->cpu >= MAX_CPU ? 0 : SREP_E_NOMEM;
	if (!(ev->flags & SREP_EVF_SWITCH_IN) && ev->u.sw.prev_tid >= 0)
		ret = switch_out(m, c, ev->cpu, ev, t);
	if (!ret && ev->u.sw.next_tid >= 0)
		ret = switch_in(m, c, ev->cpu, ev->u.sw.next_tid, t);
	return ret;
}

static int on_wakeup(struct srep_metrics *m, int32_t tid, uint64_t t)
{
	const struct srep_task *task = tid > 0 ? task_of(m, tid) : NULL;
	struct task_acc *a;

	if (!task)
		return 0;
	a = acc_at(m, srep_task__index(task));
	if (!a)
		return SREP_E_NOMEM;
	if (a->state == TS_RUNNING || a->state == TS_WAITING)
		return 0;	/* perf's rule: only a sleeping (or unseen) task starts waiting */
	if (a->state == TS_SLEEP_S || a->state == TS_SLEEP_D)
		wait_ends(a, t);
	a->state = TS_WAITING;
	a->since = t;
	return 0;
}

/* ---- frequencies ---- */

static int freq_add(struct cpu_acc *c, uint64_t khz, uint64_t ns)
{
	size_t i;

	for (i = 0; i < c->nr_freqs && c->freqs[i].khz < khz; i++)
		;
	if (i < c->nr_freqs && c->freqs[i].khz == khz) {
		c->freqs[i].ns += ns;
		return 0;
	}
	if (c->nr_freqs == MAX_FREQS)
		return 0;	/* beyond any real table: not shown */
	if (!c->freqs) {
		c->freqs = malloc(MAX_FREQS * sizeof(*c->freqs));
		if (!c->freqs)
			return SREP_E_NOMEM;
	}
	memmove(&c->freqs[i + 1], &c->freqs[i], (c->nr_freqs - i) * sizeof(*c->freqs));
	c->freqs[i] = (struct freq_acc){ khz, ns };
	c->nr_freqs++;
	return 0;
}

static int freq_close(struct cpu_acc *c, uint64_t t)
{
	int ret = 0;

	if (c->khz >= 0 && t >= c->khz_since)
		ret = freq_add(c, (uint64_t)c->khz, t - c->khz_since);
	c->khz_since = t;
	return ret;
}

static int on_freq(struct srep_metrics *m, const struct srep_event *ev, uint64_t t)
{
	struct cpu_acc *c = cpu_at(m, ev->u.cpu_state.cpu);
	int ret;

	if (!c)
		return ev->u.cpu_state.cpu < 0 || ev->u.cpu_state.cpu >= MAX_CPU ? 0 : SREP_E_NOMEM;
	ret = freq_close(c, t);
	c->khz = ev->u.cpu_state.state >= 0 ? ev->u.cpu_state.state : -1;
	return ret;
}

int srep_metrics__add(struct srep_metrics *m, const struct srep_event *ev, struct srep_error *err)
{
	uint64_t t = ev->time;
	int ret = 0;

	if (!t || m->finished)
		return 0;	/* untimed records (synthesized at start) change no interval */
	if (!m->first)
		m->first = t;
	/* an event later than the reorder window (SREP_EVF_LATE) happens now: no interval
	   may end before it began */
	if (t < m->last)
		t = m->last;
	m->last = t;
	switch (ev->kind) {
	case SREP_EV_SWITCH:
		ret = on_switch(m, ev, t);
		break;
	case SREP_EV_WAKEUP:
		ret = on_wakeup(m, ev->u.wake.tid, t);
		break;
	case SREP_EV_CPU_FREQ:
		ret = on_freq(m, ev, t);
		break;
	default:
		break;
	}
	return ret ? srep_error__set(err, ret, "no memory for metrics") : 0;
}

void srep_metrics__finish(struct srep_metrics *m)
{
	size_t i;

	if (m->finished)
		return;
	for (i = 0; i < m->nr_cpus; i++) {
		cpu_close(m, &m->cpus[i], m->last);
		freq_close(&m->cpus[i], m->last);
	}
	for (i = 0; i < m->nr_tasks; i++) {
		struct task_acc *a = &m->tasks[i];

		run_ends(a, m->last);
		if (a->state == TS_SLEEP_S || a->state == TS_SLEEP_D)
			wait_ends(a, m->last);
	}
	m->finished = true;
}

/* ---- results ---- */

static uint64_t task_start(const struct srep_task *t)
{
	return srep_task__fork_time(t) ? srep_task__fork_time(t) : srep_task__first_seen(t);
}

static uint64_t task_end(const struct srep_task *t)
{
	return srep_task__exit_time(t) ? srep_task__exit_time(t) : srep_task__last_seen(t);
}

static void sum_acc(struct srep_task_metrics *o, const struct task_acc *a)
{
	o->cpu_ns += a->cpu_ns;
	o->switches_voluntary += a->vol;
	o->switches_involuntary += a->invol;
	o->wait_total_ns += a->wait_total;
	o->wait_unknown += a->wait_unknown;
	o->sleep_s_ns += a->sleep_s;
	o->sleep_d_ns += a->sleep_d;
	o->migrations += a->migrations;
}

int srep_metrics__tasks(const struct srep_metrics *m, const struct srep_task *const *tasks,
			size_t nr, struct srep_task_metrics *out)
{
	struct hist wait = { 0 };
	size_t i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr; i++) {
		const struct srep_task *t = tasks[i];
		size_t idx = srep_task__index(t);
		const struct task_acc *a = idx < m->nr_tasks ? &m->tasks[idx] : NULL;

		if (!out->start || (task_start(t) && task_start(t) < out->start))
			out->start = task_start(t);
		if (task_end(t) > out->end)
			out->end = task_end(t);
		out->nr_tasks++;
		if (!a)
			continue;
		sum_acc(out, a);
		if (!ret)
			ret = nr == 1 ? 0 : hist_merge(&wait, &a->wait);
	}
	if (nr == 1 && srep_task__index(tasks[0]) < m->nr_tasks)
		wait = m->tasks[srep_task__index(tasks[0])].wait;	/* borrowed, not freed below */
	out->wait_count = wait.count;
	out->wait_max_ns = wait.max;
	out->wait_p50_ns = hist_percentile(&wait, 50);
	out->wait_p95_ns = hist_percentile(&wait, 95);
	if (nr != 1)
		hist_free(&wait);
	return ret;
}

void srep_metrics__set_symbolizer(struct srep_metrics *m, struct srep_symbolizer *sy)
{
	m->sy = sy;
}

size_t srep_metrics__blocking(const struct srep_metrics *m, const struct srep_task *const *tasks,
			      size_t nr, struct srep_block_site *out, size_t max)
{
	const struct blocking_task **v = malloc((nr ? nr : 1) * sizeof(*v));
	size_t i, n = 0, ret;

	if (!v)
		return (size_t)-1;
	for (i = 0; i < nr; i++) {
		if (srep_task__index(tasks[i]) < m->nr_tasks)
			v[n++] = &m->tasks[srep_task__index(tasks[i])].blk;
	}
	ret = blocking_collect(&m->sites, v, n, out, max);
	free(v);
	return ret;
}

size_t srep_metrics__nr_cpus(const struct srep_metrics *m)
{
	return m->nr_cpus;
}

int srep_metrics__cpu(const struct srep_metrics *m, int32_t cpu, struct srep_cpu_metrics *out)
{
	const struct cpu_acc *c;

	memset(out, 0, sizeof(*out));
	if (cpu < 0 || (size_t)cpu >= m->nr_cpus)
		return SREP_E_INVAL;
	c = &m->cpus[cpu];
	out->busy_ns = c->busy;
	out->idle_ns = c->idle;
	out->unknown_ns = c->unknown;
	out->nr_freqs = c->nr_freqs;
	return 0;
}

int srep_metrics__cpu_freq(const struct srep_metrics *m, int32_t cpu, size_t idx,
			   uint64_t *khz, uint64_t *ns)
{
	if (cpu < 0 || (size_t)cpu >= m->nr_cpus || idx >= m->cpus[cpu].nr_freqs)
		return SREP_E_INVAL;
	*khz = m->cpus[cpu].freqs[idx].khz;
	*ns = m->cpus[cpu].freqs[idx].ns;
	return 0;
}

void srep_metrics__timeline(const struct srep_metrics *m, uint64_t *start, uint64_t *bin_ns,
			    size_t *nr)
{
	uint64_t n = m->last > m->first ? (m->last - m->first) / m->bin_ns + 1 : 0;

	*start = m->first;
	*bin_ns = m->bin_ns;
	*nr = n < SREP_TIMELINE_BINS ? (size_t)n : SREP_TIMELINE_BINS;
}

int srep_metrics__timeline_bin(const struct srep_metrics *m, int32_t cpu, size_t bin,
			       uint64_t *busy_ns, const struct srep_task **top)
{
	const struct bin *b;

	*busy_ns = 0;
	*top = NULL;
	if (cpu < 0 || (size_t)cpu >= m->nr_cpus || bin >= SREP_TIMELINE_BINS)
		return SREP_E_INVAL;
	if (!m->cpus[cpu].bins)
		return 0;
	b = &m->cpus[cpu].bins[bin];
	*busy_ns = b->busy;
	*top = b->top >= 0 ? srep_session__task(m->s, (size_t)b->top) : NULL;
	return 0;
}

/* kthreadd (pid 2) and its children */
static bool kernel_thread(const struct srep_task *t)
{
	return srep_task__pid(t) == 2 || srep_task__tid(t) == 2 || srep_task__ppid(t) == 2;
}

void srep_metrics__workload(const struct srep_metrics *m, const struct srep_selection *sel,
			    struct srep_workload_metrics *out)
{
	const struct srep_stats *st = srep_session__stats(m->s);
	size_t i, n = srep_session__nr_tasks(m->s);

	memset(out, 0, sizeof(*out));
	out->first = m->first;
	out->last = m->last;
	out->lost = st->lost + st->lost_samples;
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(m->s, i);
		const struct task_acc *a = i < m->nr_tasks ? &m->tasks[i] : NULL;

		if (srep_task__tid(t) == 0 || (sel && !srep_selection__has_task(sel, t)))
			continue;
		out->nr_tasks++;
		if (a) {
			out->cpu_ns += a->cpu_ns;
			out->switches += a->vol + a->invol;
		}
		if (!srep_task__fork_time(t) || kernel_thread(t))
			continue;
		/* perf forks the workload before it enables the events: start at the first event */
		if (!out->start || srep_task__fork_time(t) < out->start)
			out->start = srep_task__fork_time(t) > m->first ? srep_task__fork_time(t) : m->first;
		if (task_end(t) > out->end)
			out->end = task_end(t);
	}
	if (!out->start) {
		out->start = m->first;
		out->end = m->last;
	}
	out->makespan_ns = out->end > out->start ? out->end - out->start : 0;
}
