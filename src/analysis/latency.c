// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency.c - 'perf sched latency', its accounting reproduced from
 * tools/perf/builtin-sched.c of perf 6.1 and 6.12 (read, not copied):
 *
 *  - a task's runtime is the sum of its sched_stat_runtime events;
 *  - a task switched out runnable waits for a CPU from then; one switched
 *    out otherwise sleeps until a wakeup, from which it waits; a task first
 *    met when switched in waited since that instant (delay 0);
 *  - the next switch-in ends the wait: one measured delay (perf's
 *    "Switches" column counts these, not context switches);
 *  - perf 6.1 reads prev_state as an index into "RSDTtZXxKWP", so only a
 *    plain R (value 0) is runnable; preempted (R+) and idle (I) tasks look
 *    asleep, and it never sees sched_waking. perf 6.12 takes the letter
 *    from the trace's format (R+ is R) and prefers sched_waking.
 *
 * Only the last "atom" of perf's per-task list is ever looked at, so one
 * per task is kept. docs/perf-commands.md says where perf is off.
 */
#include <stdlib.h>
#include <string.h>

#include "pthreads.h"

enum atom_state { ST_SLEEPING = 0, ST_WAIT_CPU, ST_SCHED_IN, ST_IGNORE };

struct lat_task {
	bool has;			/* perf made atoms for it */
	bool has_atom;
	enum atom_state state;
	uint64_t sched_out, wake_up;
	uint64_t runtime, total_lat, max_lat, max_start, max_end, nb;
};

struct srep_latency {
	struct srep_latency_opts o;
	const struct srep_session *s;
	struct srep_perf_threads pt;
	struct lat_task *t;
	size_t cap_t;
	int32_t *curr;			/* per CPU: the task its last switch put on, -1 none */
	size_t cap_curr;
	bool waking, wakeup;		/* which wakeup events count */
	struct srep_latency_row *rows;
	size_t nr_rows;
	char (*comms)[SREP_COMM_MAX];	/* the rows' names */
	struct srep_latency_totals tot;
};

int srep_latency__new(struct srep_latency **out, const struct srep_session *s,
		      const struct srep_latency_opts *o, struct srep_error *err)
{
	struct srep_latency *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the latency table");
	l->o = *o;
	l->s = s;
	pt_init(&l->pt, s, false);	/* perf sched latency ignores EXIT records */
	if (o->dialect == SREP_PERF_6_1) {
		l->wakeup = true;	/* perf 6.1 has no handler for sched_waking */
	} else {
		l->waking = true;
		l->wakeup = !pf_has_waking(s);
	}
	*out = l;
	return 0;
}

void srep_latency__delete(struct srep_latency *l)
{
	if (!l)
		return;
	pt_free(&l->pt);
	free(l->t);
	free(l->curr);
	free(l->rows);
	free(l->comms);
	free(l);
}

/* perf's work_atoms of thread @tid (found or created) */
static struct lat_task *task_of(struct srep_latency *l, int32_t tid)
{
	long idx = pt_findnew(&l->pt, -1, tid);

	if (idx < 0 || pt_side_grow((void **)&l->t, &l->cap_t, (size_t)idx, sizeof(*l->t)))
		return NULL;
	return &l->t[idx];
}

static void sched_out(struct lat_task *t, bool runnable, uint64_t time)
{
	t->has_atom = true;
	t->sched_out = time;
	t->state = runnable ? ST_WAIT_CPU : ST_SLEEPING;
	t->wake_up = runnable ? time : 0;
}

static void sched_in(struct lat_task *t, uint64_t time)
{
	uint64_t delta;

	if (!t->has_atom || t->state != ST_WAIT_CPU)
		return;
	if (time < t->wake_up) {
		t->state = ST_IGNORE;
		return;
	}
	t->state = ST_SCHED_IN;
	delta = time - t->wake_up;
	t->total_lat += delta;
	if (delta > t->max_lat) {
		t->max_lat = delta;
		t->max_start = t->wake_up;
		t->max_end = time;
	}
	t->nb++;
}

/* a task perf meets first in this event gets an initial atom */
static struct lat_task *met(struct srep_latency *l, int32_t tid, bool runnable, uint64_t time)
{
	struct lat_task *t = task_of(l, tid);

	if (t && !t->has) {
		t->has = true;
		sched_out(t, runnable, time);
	}
	return t;
}

static bool runnable(const struct srep_latency *l, const struct srep_switch *sw, uint32_t flags)
{
	if (l->o.dialect == SREP_PERF_6_1)
		return sw->prev_state == 'R' && !(flags & SREP_EVF_PREEMPT);
	return sw->prev_state == 'R';
}

static int on_switch(struct srep_latency *l, const struct srep_event *ev)
{
	const struct srep_switch *sw = &ev->u.sw;
	struct lat_task *out, *in;
	size_t cpu = (size_t)ev->cpu;

	if (pt_side_grow((void **)&l->curr, &l->cap_curr, cpu, sizeof(*l->curr)))
		return -1;
	/* the side array starts zeroed: keep tid + 1, 0 = nothing switched in yet */
	if (l->curr[cpu] && l->curr[cpu] - 1 != sw->prev_tid)
		l->tot.switch_bugs++;
	l->curr[cpu] = sw->next_tid + 1;
	l->tot.switches++;
	out = task_of(l, sw->prev_tid);
	if (!out)
		return -1;
	out->has = true;
	sched_out(out, runnable(l, sw, ev->flags), ev->time);
	in = met(l, sw->next_tid, true, ev->time);
	if (!in)
		return -1;
	sched_in(in, ev->time);
	return 0;
}

static int on_wakeup(struct srep_latency *l, const struct srep_event *ev)
{
	const struct srep_wakeup *w = &ev->u.wake;
	struct lat_task *t;

	if (w->kind == SREP_WAKE_WAKING ? !l->waking : w->kind == SREP_WAKE_WAKEUP && !l->wakeup)
		return 0;
	t = met(l, w->tid, false, ev->time);
	if (!t)
		return -1;
	/* perf does not move a wait already started (R, or woken twice) */
	if (t->state != ST_SLEEPING)
		return 0;
	l->tot.timestamps++;
	if (t->sched_out > ev->time) {
		l->tot.unordered++;
		return 0;
	}
	t->state = ST_WAIT_CPU;
	t->wake_up = ev->time;
	return 0;
}

int srep_latency__add(struct srep_latency *l, const struct srep_event *ev, struct srep_error *err)
{
	const struct srep_perf_filter *f = &l->o.filter;
	struct lat_task *t;
	int ret = 0;

	if (pt_event(&l->pt, ev, err))
		return SREP_E_NOMEM;
	if (!pf_time_ok(f, ev->time))
		return 0;
	switch (ev->kind) {
	case SREP_EV_SWITCH:
		if (ev->cpu >= 0 && pf_cpu_ok(f, ev->cpu) && ev->u.sw.prev_tid >= 0 &&
		    ev->u.sw.next_tid >= 0)
			ret = on_switch(l, ev);
		break;
	case SREP_EV_STAT:
		if (ev->u.stat.kind != SREP_STAT_RUNTIME || !pf_cpu_ok(f, ev->cpu) ||
		    ev->u.stat.tid < 0)
			break;
		t = met(l, ev->u.stat.tid, true, ev->time);
		if (t)
			t->runtime += ev->u.stat.value;
		ret = t ? 0 : -1;
		break;
	case SREP_EV_WAKEUP:
		if (ev->u.wake.tid >= 0)
			ret = on_wakeup(l, ev);
		break;
	default:
		break;
	}
	return ret ? srep_error__set(err, SREP_E_NOMEM, "no memory for the latency table") : 0;
}

/* ---- the rows: merged per comm unless per_task, then sorted ---- */

typedef int (*lat_cmp)(const struct srep_latency_row *a, const struct srep_latency_row *b);

#define CMP3(x, y) ((x) < (y) ? -1 : (x) > (y))

static int cmp_avg(const struct srep_latency_row *a, const struct srep_latency_row *b)
{
	return CMP3(a->delay_total_ns / a->delays, b->delay_total_ns / b->delays);
}

static int cmp_max(const struct srep_latency_row *a, const struct srep_latency_row *b)
{
	return CMP3(a->delay_max_ns, b->delay_max_ns);
}

static int cmp_switch(const struct srep_latency_row *a, const struct srep_latency_row *b)
{
	return CMP3(a->delays, b->delays);
}

static int cmp_runtime(const struct srep_latency_row *a, const struct srep_latency_row *b)
{
	return CMP3(a->runtime_ns, b->runtime_ns);
}

/* sort keys and the order rows entered perf's tree, for ties */
struct lat_sort {
	lat_cmp keys[8];
	size_t nr;
	const int32_t *key_tid;		/* pid key: the tid of the row's first task */
};

static int parse_sort(const char *spec, struct lat_sort *so, struct srep_error *err)
{
	static const struct { const char *name; lat_cmp fn; } known[] = {
		{ "avg", cmp_avg }, { "max", cmp_max }, { "switch", cmp_switch },
		{ "runtime", cmp_runtime }, { "pid", NULL },
	};
	const char *p = spec ? spec : "avg,max,switch,runtime";
	size_t len, i;

	so->nr = 0;
	while (*p) {
		p += strspn(p, " ,");
		len = strcspn(p, " ,");
		if (!len)
			break;
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			if (strlen(known[i].name) == len && !strncmp(known[i].name, p, len))
				break;
		}
		if (i == sizeof(known) / sizeof(known[0]))
			return srep_error__set(err, SREP_E_INVAL,
					       "'%.*s': sort keys are avg, max, switch, runtime and pid",
					       (int)len, p);
		if (so->nr < sizeof(so->keys) / sizeof(so->keys[0]))
			so->keys[so->nr++] = known[i].fn;
		p += len;
	}
	return 0;
}

/* a row with what orders it besides its figures */
struct sort_item {
	struct srep_latency_row row;
	int32_t key_tid;		/* "pid" key: the tid of the row's first task */
	const char *comm;		/* the first task's name (perf's merged entry) */
	size_t order;			/* when it entered perf's tree: ties keep it */
};

static int item_cmp(const struct sort_item *a, const struct sort_item *b, const struct lat_sort *so)
{
	size_t i;
	int c;

	for (i = 0; i < so->nr; i++) {
		c = so->keys[i] ? so->keys[i](&a->row, &b->row) : CMP3(a->key_tid, b->key_tid);
		if (c)
			return -c;	/* perf's tree puts the greater first */
	}
	return CMP3(a->order, b->order);
}

/* merge sort: qsort has no context argument in C99, and the keys are chosen at run time */
static void sort_items(struct sort_item *v, struct sort_item *tmp, size_t n,
		       const struct lat_sort *so)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	sort_items(v, tmp, h, so);
	sort_items(v + h, tmp, n - h, so);
	while (i < h && j < n)
		tmp[k++] = item_cmp(&v[j], &v[i], so) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static void add_task(struct sort_item *it, const struct lat_task *t, const struct pthread *p)
{
	it->row.nr_tasks++;
	it->row.runtime_ns += t->runtime;
	it->row.delays += t->nb;
	it->row.delay_total_ns += t->total_lat;
	if (it->row.delay_max_ns < t->max_lat) {
		it->row.delay_max_ns = t->max_lat;
		it->row.max_start = t->max_start;
		it->row.max_end = t->max_end;
	}
	if (it->row.nr_tasks == 1) {
		it->key_tid = p->tid;
		it->comm = p->comm;
		it->row.tid = p->tid;
	} else {
		it->row.tid = -1;
	}
}

/* a thread perf made atoms for, in the order perf's trees yield them */
struct lat_ref {
	const char *comm;		/* NULL: rows per task */
	int32_t tid;
	size_t idx;
};

/* comm descending (the merged tree), then tid descending (the atom tree) */
static int ref_cmp(const void *a, const void *b)
{
	const struct lat_ref *x = a, *y = b;
	int c = x->comm ? strcmp(y->comm, x->comm) : 0;

	if (c)
		return c;
	if (x->tid != y->tid)
		return x->tid > y->tid ? -1 : 1;
	return x->idx > y->idx ? -1 : x->idx < y->idx;
}

/* the selected threads with atoms, ordered as perf merges and inserts them */
static size_t collect(struct srep_latency *l, struct lat_ref *refs)
{
	size_t i, n = 0;
	const struct pthread *p;

	for (i = 0; i < l->pt.nr && i < l->cap_t; i++) {
		p = pt_at(&l->pt, i);
		if (!l->t[i].has || !pf_tid_ok(&l->o.filter, p->tid))
			continue;
		refs[n++] = (struct lat_ref){ l->o.per_task ? NULL : p->comm, p->tid, i };
	}
	qsort(refs, n, sizeof(*refs), ref_cmp);
	return n;
}

/* one item per task, or per comm (perf_sched__merge_lat); returns how many */
static size_t gather(struct srep_latency *l, const struct lat_ref *refs, size_t n,
		     struct sort_item *items)
{
	size_t i, nr = 0;

	for (i = 0; i < n; i++) {
		if (!nr || !refs[i].comm || strcmp(refs[i].comm, refs[i - 1].comm)) {
			memset(&items[nr], 0, sizeof(items[nr]));
			items[nr].order = nr;
			nr++;
		}
		add_task(&items[nr - 1], &l->t[refs[i].idx], pt_at(&l->pt, refs[i].idx));
	}
	return nr;
}

/* perf prints rows with a measured delay, and never the idle task: the others leave */
static size_t drop_silent(struct sort_item *items, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (items[i].row.delays && strcmp(items[i].comm, "swapper"))
			items[k++] = items[i];
	}
	return k;
}

static void keep_rows(struct srep_latency *l, const struct sort_item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		l->rows[i] = items[i].row;
		memcpy(l->comms[i], items[i].comm, SREP_COMM_MAX);
		l->rows[i].comm = l->comms[i];
		l->tot.runtime_ns += items[i].row.runtime_ns;
		l->tot.delays += items[i].row.delays;
	}
	l->nr_rows = n;
}

int srep_latency__finish(struct srep_latency *l, const char *sort, struct srep_error *err)
{
	const struct srep_stats *st = srep_session__stats(l->s);
	struct sort_item *items = NULL, *tmp = NULL;
	struct lat_ref *refs = NULL;
	struct lat_sort so;
	size_t n = l->pt.nr ? l->pt.nr : 1;
	int ret;

	l->tot.runtime_ns = l->tot.delays = 0;
	ret = parse_sort(sort, &so, err);
	if (ret)
		return ret;
	refs = calloc(n, sizeof(*refs));
	items = calloc(n, sizeof(*items));
	tmp = calloc(n, sizeof(*tmp));
	free(l->rows);
	free(l->comms);
	l->rows = calloc(n, sizeof(*l->rows));
	l->comms = calloc(n, sizeof(*l->comms));
	if (!refs || !items || !tmp || !l->rows || !l->comms) {
		ret = srep_error__set(err, SREP_E_NOMEM, "no memory for the latency table");
		goto out;
	}
	n = drop_silent(items, gather(l, refs, collect(l, refs), items));
	sort_items(items, tmp, n, &so);
	keep_rows(l, items, n);
	l->tot.lost = st->lost;
	l->tot.records = st->total_records;
	l->tot.lost_chunks = st->records[2];	/* PERF_RECORD_LOST */
out:
	free(refs);
	free(items);
	free(tmp);
	return ret;
}

size_t srep_latency__nr_rows(const struct srep_latency *l)
{
	return l->nr_rows;
}

const struct srep_latency_row *srep_latency__row(const struct srep_latency *l, size_t idx)
{
	return idx < l->nr_rows ? &l->rows[idx] : NULL;
}

const struct srep_latency_totals *srep_latency__totals(const struct srep_latency *l)
{
	return &l->tot;
}
