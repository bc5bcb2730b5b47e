// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timehist.c - 'perf sched timehist', reproduced from perf 6.1 and 6.12's
 * tools/perf/builtin-sched.c (read, not copied). One line per sched_switch,
 * about the task leaving the CPU:
 *
 *   run time   = this switch - the CPU's previous switch (when it came in)
 *   wait time  = its switch-in - its last switch-out (off the CPU)
 *   sch delay  = its switch-in - its wakeup (perf 6.12 also: - its
 *                preemption, when it left runnable)
 *
 * plus wakeup (-w), migration (-M) and lost-event lines, a per-task summary
 * and per-CPU idle time. Threads are perf's (pthreads.h), so names and
 * "[tid/pid]" match what perf prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/text.h>

#include "pthreads.h"

/* perf's thread_runtime */
struct th_rt {
	uint64_t last_time, ready_to_run;
	uint64_t dt_run, dt_sleep, dt_iowait, dt_preempt, dt_delay;
	uint64_t n, min, max;		/* perf's struct stats of the runs */
	double mean, m2;
	uint64_t total_run, total_sleep, total_iowait, total_preempt, total_delay;
	char last_class;		/* 'R' preempted, 'D' iowait, else asleep */
	uint64_t migrations;
	long last_thread;		/* idle only (-I): the thread before idle, -1 none */
	uint32_t name_gen;		/* name_of's text below is of this pthread gen; 0 none */
	uint32_t name_len;
	char name[64];
};

struct srep_timehist {
	struct srep_timehist_opts o;
	const struct srep_session *s;
	struct srep_perf_threads pt;
	struct th_rt *rt;		/* per perf thread */
	size_t cap_rt;
	struct th_rt *idle;		/* per CPU */
	size_t nr_idle;
	uint64_t *last_switch;		/* per CPU: the last sched_switch, 0 none */
	size_t cap_last;
	bool waking_only;		/* sched_waking recorded: sched_wakeup ignored */
	int comm_width;
	int32_t max_cpu;
	uint64_t skipped;
	uint64_t hist_start, hist_end;
	char name[2][64];		/* the line's task names */
	struct srep_timehist_task *tasks;
	char (*task_names)[64];
	size_t nr_tasks;
	struct srep_timehist_totals tot;
};

static void rt_init(struct th_rt *r)
{
	memset(r, 0, sizeof(*r));
	r->min = UINT64_MAX;
	r->last_thread = -1;
}

static int grow_idle(struct srep_timehist *th, size_t n)
{
	struct th_rt *v;
	size_t i;

	if (n <= th->nr_idle)
		return 0;
	v = realloc(th->idle, n * sizeof(*v));
	if (!v)
		return -1;
	for (i = th->nr_idle; i < n; i++)
		rt_init(&v[i]);
	th->idle = v;
	th->nr_idle = n;
	return 0;
}

int srep_timehist__new(struct srep_timehist **out, const struct srep_session *s,
		       const struct srep_timehist_opts *o, struct srep_error *err)
{
	struct srep_timehist *th = calloc(1, sizeof(*th));
	int32_t ncpu = srep_session__meta(s)->nr_cpus_online;

	*out = NULL;
	if (!th)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for timehist");
	th->o = *o;
	th->s = s;
	pt_init(&th->pt, s, o->dialect != SREP_PERF_6_1);
	th->waking_only = pf_has_waking(s);
	th->comm_width = 30;
	/* perf sizes its idle table from the header, 4 CPUs when it says none */
	th->max_cpu = ncpu > 0 ? ncpu : 4;
	if (grow_idle(th, (size_t)th->max_cpu)) {
		free(th);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for timehist");
	}
	*out = th;
	return 0;
}

void srep_timehist__delete(struct srep_timehist *th)
{
	if (!th)
		return;
	pt_free(&th->pt);
	free(th->rt);
	free(th->idle);
	free(th->last_switch);
	free(th->tasks);
	free(th->task_names);
	free(th);
}

int srep_timehist__comm_width(const struct srep_timehist *th)
{
	return th->comm_width;
}

/* perf's runtime data of thread @idx, made on first use */
static struct th_rt *rt_of(struct srep_timehist *th, long idx)
{
	size_t old = th->cap_rt, i;

	if (idx < 0 || pt_side_grow((void **)&th->rt, &th->cap_rt, (size_t)idx, sizeof(*th->rt)))
		return NULL;
	for (i = old; i < th->cap_rt; i++)
		rt_init(&th->rt[i]);
	return &th->rt[idx];
}

/* the idle task of @cpu, perf's table growing by powers of two as CPUs appear */
static struct th_rt *idle_of(struct srep_timehist *th, int32_t cpu)
{
	size_t n = 1;

	while (n <= (size_t)cpu)
		n *= 2;
	if ((size_t)cpu >= th->nr_idle && grow_idle(th, n))
		return NULL;
	return &th->idle[cpu];
}

/* v in decimal, sign included, from out on; returns the end */
static char *int_text(char *out, int32_t v)
{
	if (v < 0)
		*out++ = '-';
	return srep_u64_text(out, v < 0 ? 0 - (uint64_t)(int64_t)v : (uint64_t)v);
}

/* "comm[tid/pid]", "comm[tid]", or the comm alone for pid 0, into buf; returns its length */
static size_t make_name(char *buf, const struct pthread *p)
{
	size_t n = strnlen(p->comm, SREP_COMM_MAX - 1);

	memcpy(buf, p->comm, n);
	if (p->pid != 0) {
		buf[n++] = '[';
		n = (size_t)(int_text(buf + n, p->tid) - buf);
		if (p->tid != p->pid) {
			buf[n++] = '/';
			n = (size_t)(int_text(buf + n, p->pid) - buf);
		}
		buf[n++] = ']';
	}
	buf[n] = 0;
	return n;
}

/*
 * perf's timehist_get_commstr, for a line: made once per thread (a line
 * per switch names it again and again) and again when its comm or pid
 * change. A thread without runtime data yet is named in th->name[slot].
 */
static const char *name_of(struct srep_timehist *th, int slot, long idx)
{
	struct th_rt *r = idx >= 0 && (size_t)idx < th->cap_rt ? &th->rt[idx] : NULL;
	const struct pthread *p;
	const char *name;
	size_t n;

	/* a comm is shorter than SREP_COMM_MAX: two numbers fit after it */
	_Static_assert(sizeof(th->name[0]) >= SREP_COMM_MAX + 2 * 11 + 3, "name room");
	_Static_assert(sizeof(r->name) >= sizeof(th->name[0]), "name room");
	if (idx < 0) {
		name = "<idle>";
		n = 6;
	} else if (r) {
		p = pt_at(&th->pt, (size_t)idx);
		if (r->name_gen != p->gen) {
			r->name_len = (uint32_t)make_name(r->name, p);
			r->name_gen = p->gen;
		}
		name = r->name;
		n = r->name_len;
	} else {
		n = make_name(th->name[slot], pt_at(&th->pt, (size_t)idx));
		name = th->name[slot];
	}
	if ((int)n > th->comm_width)
		th->comm_width = (int)n;
	return name;
}

static void update_stats(struct th_rt *r, uint64_t val)
{
	double delta;

	r->n++;
	delta = (double)val - r->mean;
	r->mean += delta / (double)r->n;
	r->m2 += delta * ((double)val - r->mean);
	if (val > r->max)
		r->max = val;
	if (val < r->min)
		r->min = val;
}

/* perf's timehist_update_runtime_stats: the deltas of the run ending at t */
static void update_runtime(struct th_rt *r, uint64_t t, uint64_t tprev)
{
	uint64_t wait;

	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = r->dt_run = 0;
	if (tprev) {
		r->dt_run = t - tprev;
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			wait = tprev - r->last_time;
			if (r->last_class == 'R')
				r->dt_preempt = wait;
			else if (r->last_class == 'D')
				r->dt_iowait = wait;
			else
				r->dt_sleep = wait;
		}
	}
	update_stats(r, r->dt_run);
	r->total_run += r->dt_run;
	r->total_delay += r->dt_delay;
	r->total_sleep += r->dt_sleep;
	r->total_iowait += r->dt_iowait;
	r->total_preempt += r->dt_preempt;
}

/* perf 6.1 indexes "RSDTtZXxKWP" by the lowest bit set of the raw prev_state */
static char state_6_1(const struct srep_event *ev, bool idle)
{
	static const char letters[] = "RSDTtZXxKWP";
	struct srep_field f;
	int64_t v = 0;
	int bit;

	if (idle)
		return 'I';
	if (srep_event__field_by_name(ev, "prev_state", &f) == 1)
		v = f.kind == SREP_FIELD_INT ? f.i : (int64_t)f.u;
	else
		return ev->u.sw.prev_state;
	bit = (int)(v & 0xffffffff) ? __builtin_ffs((int)(v & 0xffffffff)) : 0;
	return bit < (int)sizeof(letters) - 1 ? letters[bit] : '?';
}

/* what perf decides with the state: R (runnable), D (iowait) or anything else */
static char state_class(const struct srep_timehist *th, const struct srep_event *ev)
{
	char c = ev->u.sw.prev_state;

	if (th->o.dialect == SREP_PERF_6_1 && c == 'R' && (ev->flags & SREP_EVF_PREEMPT))
		return 'P';	/* 6.1 compares the raw value with 0: preempted is not */
	return c;
}

/* perf's timehist_skip_sample */
static bool skip(struct srep_timehist *th, long idx, const struct srep_event *ev)
{
	bool rc = false;

	/* the idle task (idx -1) is tid 0 for the selection, as perf's pid filter */
	if (!pf_tid_ok(&th->o.filter, idx >= 0 ? pt_at(&th->pt, (size_t)idx)->tid : 0)) {
		rc = true;
		th->skipped++;
	}
	if (th->o.idle_hist &&
	    (ev->kind != SREP_EV_SWITCH || (ev->u.sw.prev_tid != 0 && ev->u.sw.next_tid != 0)))
		rc = true;
	return rc;
}

static int grow_last(struct srep_timehist *th, int32_t cpu)
{
	return pt_side_grow((void **)&th->last_switch, &th->cap_last, (size_t)cpu,
			    sizeof(*th->last_switch));
}

/* the window's end as perf keeps it: 0 = open */
static uint64_t win_end(const struct srep_perf_filter *f)
{
	return f->to == UINT64_MAX ? 0 : f->to;
}

static void switch_line(struct srep_timehist *th, const struct srep_event *ev, long idx,
			const struct th_rt *r, uint64_t t, struct srep_timehist_line *line)
{
	const struct pthread *p = idx >= 0 ? pt_at(&th->pt, (size_t)idx) : NULL;

	memset(line, 0, sizeof(*line));
	line->kind = SREP_TH_SWITCH;
	line->time = t;
	line->cpu = ev->cpu;
	line->idle = idx < 0;
	line->task = name_of(th, 0, idx);
	line->tid = p ? p->tid : 0;
	line->pid = p ? p->pid : 0;
	line->wait_ns = r->dt_sleep + r->dt_iowait + r->dt_preempt;
	line->delay_ns = r->dt_delay;
	line->run_ns = r->dt_run;
	if (th->o.state)
		line->state = th->o.dialect == SREP_PERF_6_1 ? state_6_1(ev, idx < 0) :
			      ev->u.sw.prev_state;
}

/* -I: the idle time just ended is charged to the task that ran before it */
static void charge_idle(struct srep_timehist *th, struct th_rt *idle, uint64_t t, uint64_t tprev)
{
	struct th_rt *lr = rt_of(th, idle->last_thread);

	idle->last_thread = -1;
	if (!lr)
		return;
	update_runtime(lr, t, tprev);
	/* only its totals count: perf clears the deltas so no line shows them */
	lr->dt_run = lr->dt_delay = lr->dt_sleep = lr->dt_iowait = lr->dt_preempt = 0;
}

/* perf's timehist_sched_change_event; returns 1 with a line, 0 without, -1 no memory */
static int on_switch(struct srep_timehist *th, const struct srep_event *ev,
		     struct srep_timehist_line *line)
{
	const struct srep_perf_filter *f = &th->o.filter;
	bool idle = ev->u.sw.prev_tid == 0, print = false, new_perf = th->o.dialect != SREP_PERF_6_1;
	uint64_t t = ev->time, tprev, end = win_end(f);
	int32_t cpu = ev->cpu;
	struct th_rt *r = NULL, *ir;
	long idx = -1;
	char cls = state_class(th, ev);

	if (grow_last(th, cpu) || !(ir = idle_of(th, cpu)))
		return -1;
	if (!idle) {
		idx = pt_findnew(&th->pt, ev->pid, ev->tid ? ev->tid : ev->pid);
		if (idx < 0)
			return -1;
		if (th->o.idle_hist)
			ir->last_thread = idx;
	}
	if (skip(th, idx, ev))
		goto out;
	r = idle ? ir : rt_of(th, idx);
	if (!r)
		return -1;
	tprev = th->last_switch[cpu];
	if (f->from && f->from > t)
		goto out;
	if (tprev && f->from > tprev)
		tprev = f->from;
	if (end) {
		if (!tprev || tprev > end)
			goto out;
		if (t > end)
			t = end;
	}
	if (!th->o.idle_hist || idle) {
		if (pf_cpu_ok(f, cpu))
			update_runtime(r, t, tprev);
		if (th->o.idle_hist) {
			if (r->last_thread < 0)
				goto out;
			charge_idle(th, r, t, tprev);
		}
		print = new_perf;
	}
	print = (print || !new_perf) && pf_cpu_ok(f, cpu);
	if (print)
		switch_line(th, ev, idx, r, t, line);
out:
	if (!th->hist_start && t >= f->from)
		th->hist_start = t;
	if (!end || t <= end)
		th->hist_end = t;
	if (r) {
		r->last_time = ev->time;
		r->last_class = cls;
		r->ready_to_run = new_perf && cls == 'R' ? t : 0;
	}
	th->last_switch[cpu] = ev->time;
	return print;
}

/* a wakeup's or a migration's line: the event's task w, the other task idx */
static void pair_line(struct srep_timehist *th, struct srep_timehist_line *line,
		      enum srep_timehist_kind kind,
		      const struct srep_event *ev, long w, long idx)
{
	memset(line, 0, sizeof(*line));
	line->kind = kind;
	line->time = ev->time;
	line->cpu = ev->cpu;
	line->task = name_of(th, 0, w);
	line->tid = pt_at(&th->pt, (size_t)w)->tid;
	line->pid = pt_at(&th->pt, (size_t)w)->pid;
	line->other = name_of(th, 1, idx);
}

/* perf's timehist_sched_wakeup_event */
static int on_wakeup(struct srep_timehist *th, const struct srep_event *ev,
		     struct srep_timehist_line *line)
{
	const struct srep_perf_filter *f = &th->o.filter;
	long idx, w;
	struct th_rt *r;
	uint64_t end = win_end(f);

	if (ev->u.wake.kind == SREP_WAKE_WAKEUP && th->waking_only)
		return 0;
	idx = pt_findnew(&th->pt, 0, ev->u.wake.tid);
	r = rt_of(th, idx);
	if (!r)
		return -1;
	if (!r->ready_to_run)
		r->ready_to_run = ev->time;
	if (!th->o.wakeups || (f->from && ev->time < f->from) || (end && ev->time > end))
		return 0;
	w = pt_findnew(&th->pt, ev->pid, ev->tid);
	if (w < 0)
		return -1;
	if (skip(th, w, ev) && skip(th, idx, ev))
		return 0;
	pair_line(th, line, SREP_TH_WAKEUP, ev, w, idx);
	return 1;
}

/* perf's timehist_migrate_task_event (only with -M, as perf counts them) */
static int on_migrate(struct srep_timehist *th, const struct srep_event *ev,
		      struct srep_timehist_line *line)
{
	long idx = pt_findnew(&th->pt, 0, ev->u.migrate.tid), w;
	struct th_rt *r = rt_of(th, idx);

	if (!r)
		return -1;
	r->migrations++;
	w = pt_findnew(&th->pt, ev->pid, ev->tid);
	if (w < 0)
		return -1;
	if (skip(th, w, ev) && skip(th, idx, ev))
		return 0;
	pair_line(th, line, SREP_TH_MIGRATE, ev, w, idx);
	line->orig_cpu = ev->u.migrate.orig_cpu;
	line->dest_cpu = ev->u.migrate.dest_cpu;
	return 1;
}

/* the events with lines */
static PT_OUT_OF_LINE int add_sched(struct srep_timehist *th, const struct srep_event *ev,
		     struct srep_timehist_line *line, struct srep_error *err)
{
	int ret = 0;

	switch (ev->kind) {
	case SREP_EV_SWITCH:
		if (ev->cpu >= 0 && ev->u.sw.prev_tid >= 0 && ev->u.sw.next_tid >= 0)
			ret = on_switch(th, ev, line);
		break;
	case SREP_EV_WAKEUP:
		if (ev->u.wake.tid >= 0)
			ret = on_wakeup(th, ev, line);
		break;
	case SREP_EV_MIGRATE:
		if (th->o.migrations && ev->u.migrate.tid >= 0)
			ret = on_migrate(th, ev, line);
		break;
	case SREP_EV_LOST:
		if (ev->u.lost.samples)
			break;
		memset(line, 0, sizeof(*line));
		line->kind = SREP_TH_LOST;
		line->time = ev->time;
		line->cpu = ev->cpu;
		line->lost = ev->u.lost.lost;
		ret = 1;
		break;
	default:
		break;
	}
	return ret < 0 ? srep_error__set(err, SREP_E_NOMEM, "no memory for timehist") : ret;
}

int srep_timehist__add(struct srep_timehist *th, const struct srep_event *ev,
		       struct srep_timehist_line *line, struct srep_error *err)
{
	if ((ev->source == SREP_SRC_TRACEPOINT || ev->source == SREP_SRC_SAMPLE) &&
	    ev->cpu > th->max_cpu)
		th->max_cpu = ev->cpu;
	/* pt_event follows none of these: the others (runtime most) return early */
	switch (ev->kind) {
	case SREP_EV_SWITCH:
	case SREP_EV_WAKEUP:
	case SREP_EV_MIGRATE:
	case SREP_EV_LOST:
		return add_sched(th, ev, line, err);
	default:
		return pt_event(&th->pt, ev, err) ? SREP_E_NOMEM : 0;
	}
}

/* ---- the summary ---- */

struct th_ref {
	long idx;
	bool dead;
};

/*
 * perf walks its thread table: 256 buckets by tid, each a tree by tid then
 * the list of threads replaced by a newer one; perf 6.1 walks it twice,
 * live threads then exited ones.
 */
static int ref_cmp(const void *a, const void *b, const struct srep_perf_threads *pt, bool split)
{
	const struct th_ref *x = a, *y = b;
	const struct pthread *p = pt_at(pt, (size_t)x->idx), *q = pt_at(pt, (size_t)y->idx);

	if (split && x->dead != y->dead)
		return x->dead ? 1 : -1;
	if ((uint32_t)p->tid % 256 != (uint32_t)q->tid % 256)
		return (uint32_t)p->tid % 256 < (uint32_t)q->tid % 256 ? -1 : 1;
	if (p->removed != q->removed)
		return p->removed ? 1 : -1;
	if (!p->removed && p->tid != q->tid)
		return p->tid < q->tid ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* insertion of refs in order (a few thousand tasks: simple and stable) */
static void sort_refs(struct th_ref *v, size_t n, const struct srep_perf_threads *pt, bool split)
{
	struct th_ref key;
	size_t i, j;

	for (i = 1; i < n; i++) {
		key = v[i];
		for (j = i; j > 0 && ref_cmp(&v[j - 1], &key, pt, split) > 0; j--)
			v[j] = v[j - 1];
		v[j] = key;
	}
}

/*
 * perf learns a parent from FORK records, also those it synthesized for the
 * threads running when it started; the session keeps those in its task table
 * when the fork tracepoint is the event (pthreads.c sees only the event).
 */
static int32_t ppid_of(const struct srep_timehist *th, const struct pthread *p)
{
	const struct srep_task *t;

	if (p->ppid >= 0 || p->removed)
		return p->ppid;
	t = srep_session__find_task(th->s, p->tid);
	return t ? srep_task__ptid(t) : -1;
}

static void fill_task(struct srep_timehist *th, size_t k, long idx, bool dead)
{
	const struct th_rt *r = &th->rt[idx];
	struct srep_timehist_task *t = &th->tasks[k];
	double sd = 0.0;

	memset(t, 0, sizeof(*t));
	snprintf(th->task_names[k], sizeof(th->task_names[k]), "%s", name_of(th, 0, idx));
	t->task = th->task_names[k];
	t->tid = pt_at(&th->pt, (size_t)idx)->tid;
	t->ppid = ppid_of(th, pt_at(&th->pt, (size_t)idx));
	t->dead = dead;
	t->count = r->n;
	t->run_ns = r->total_run;
	t->min_ns = r->min;
	t->max_ns = r->max;
	t->mean_ns = r->mean;
	if (r->n >= 2)
		sd = sqrt(r->m2 / (double)(r->n - 1) / (double)r->n);
	/* perf keeps the relative deviation in a float */
	t->stddev_pct = r->mean != 0.0 ? (double)(float)(100.0 * sd / r->mean) : 0.0;
	t->migrations = r->migrations;
	t->sleep_ns = r->total_sleep;
	t->iowait_ns = r->total_iowait;
	t->preempt_ns = r->total_preempt;
	t->delay_ns = r->total_delay;
	th->tot.tasks++;
	th->tot.switches += r->n;
	th->tot.run_ns += r->total_run;
}

int srep_timehist__finish(struct srep_timehist *th, struct srep_error *err)
{
	size_t i, n = 0, cap = th->pt.nr ? th->pt.nr : 1;
	struct th_ref *refs = calloc(cap, sizeof(*refs));

	free(th->tasks);
	free(th->task_names);
	th->tasks = calloc(cap, sizeof(*th->tasks));
	th->task_names = calloc(cap, sizeof(*th->task_names));
	if (!refs || !th->tasks || !th->task_names) {
		free(refs);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timehist summary");
	}
	memset(&th->tot, 0, sizeof(th->tot));
	for (i = 0; i < th->pt.nr && i < th->cap_rt; i++) {
		/* perf 6.12 frees the threads it removes: they are not listed */
		if (th->o.dialect != SREP_PERF_6_1 && pt_at(&th->pt, i)->removed)
			continue;
		if (th->rt[i].n && pf_tid_ok(&th->o.filter, pt_at(&th->pt, i)->tid))
			refs[n++] = (struct th_ref){ (long)i, pt_at(&th->pt, i)->dead };
	}
	sort_refs(refs, n, &th->pt, th->o.dialect == SREP_PERF_6_1);
	for (i = 0; i < n; i++)
		fill_task(th, i, refs[i].idx, refs[i].dead);
	th->nr_tasks = n;
	free(refs);
	th->tot.idle_valid = !(th->skipped && !th->o.idle_hist);
	for (i = 0; th->tot.idle_valid && i < th->nr_idle; i++) {
		if (pf_cpu_ok(&th->o.filter, (int32_t)i))
			th->tot.switches += th->idle[i].n;
	}
	th->tot.span_ns = th->hist_end - th->hist_start;
	/* samples the session left unread (SREP_TIMEHIST_EVENTS) count too, as in perf */
	th->tot.max_cpu = th->max_cpu > srep_session__max_sample_cpu(th->s) ?
			  th->max_cpu : srep_session__max_sample_cpu(th->s);
	return 0;
}

size_t srep_timehist__nr_tasks(const struct srep_timehist *th)
{
	return th->nr_tasks;
}

const struct srep_timehist_task *srep_timehist__task(const struct srep_timehist *th, size_t idx)
{
	return idx < th->nr_tasks ? &th->tasks[idx] : NULL;
}

size_t srep_timehist__nr_cpus(const struct srep_timehist *th)
{
	return th->nr_idle;
}

void srep_timehist__idle(const struct srep_timehist *th, size_t cpu, uint64_t *idle_ns,
			 uint64_t *runs)
{
	*idle_ns = cpu < th->nr_idle ? th->idle[cpu].total_run : 0;
	*runs = cpu < th->nr_idle ? th->idle[cpu].n : 0;
}

const struct srep_timehist_totals *srep_timehist__totals(const struct srep_timehist *th)
{
	return &th->tot;
}
