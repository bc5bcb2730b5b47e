// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schedmap.c - 'perf sched map', reproduced from perf 6.1 and 6.12's
 * tools/perf/builtin-sched.c (read, not copied): after each context
 * switch, who runs on every CPU, each task shown by a two-character name
 * given at its first switch-in (A0, B0, ... Z0, A1, ...; ". " for idle).
 *
 * One difference: perf draws as many columns as the machine it runs on has
 * CPUs (sysconf), so a trace of a larger machine loses columns; schedrep
 * draws the CPUs of the trace (its header, else the highest CPU seen).
 */
#include <stdlib.h>
#include <string.h>

#include "pthreads.h"

struct srep_schedmap {
	struct srep_schedmap_opts o;
	struct srep_perf_threads pt;
	char (*names)[3];		/* per perf thread: its two letters, "" none yet */
	size_t cap_names;
	long *curr;			/* per CPU: the thread switched in last, -1 none */
	size_t nr_cpus;
	int32_t *col_cpu;		/* the line's columns: their CPUs */
	char (*cols)[3];		/* kept up to date: a switch changes its CPU's column */
	size_t nr_cols;
	int32_t *col_of;		/* per CPU: its column, -1 none */
	bool relayout;			/* columns added: col_cpu and col_of to be made again */
	int32_t *order;			/* compact: CPUs in the order of their first switch */
	size_t nr_order;
	bool *seen;			/* compact: CPUs in order[] */
	char next1, next2;		/* the next name to give */
};

int srep_schedmap__new(struct srep_schedmap **out, const struct srep_session *s,
		       const struct srep_schedmap_opts *o, struct srep_error *err)
{
	struct srep_schedmap *m = calloc(1, sizeof(*m));
	int32_t n = o->nr_cpus;
	size_t i;

	*out = NULL;
	if (n <= 0)
		n = srep_session__meta(s)->nr_cpus_avail;
	if (n <= 0)
		n = srep_session__meta(s)->nr_cpus_online;
	if (n <= 0)
		n = srep_session__max_cpu(s) + 1;
	if (n <= 0)
		n = 1;
	if (!m || !(m->curr = malloc((size_t)n * sizeof(*m->curr))) ||
	    !(m->col_cpu = calloc((size_t)n, sizeof(*m->col_cpu))) ||
	    !(m->cols = calloc((size_t)n, sizeof(*m->cols))) ||
	    !(m->order = calloc((size_t)n, sizeof(*m->order))) ||
	    !(m->col_of = calloc((size_t)n, sizeof(*m->col_of))) ||
	    !(m->seen = calloc((size_t)n, sizeof(*m->seen)))) {
		srep_schedmap__delete(m);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the CPU map");
	}
	m->o = *o;
	m->nr_cpus = (size_t)n;
	m->relayout = true;
	for (i = 0; i < m->nr_cpus; i++)
		m->curr[i] = -1;
	pt_init(&m->pt, s, false);	/* perf sched map ignores EXIT records */
	m->next1 = 'A';
	m->next2 = '0';
	*out = m;
	return 0;
}

void srep_schedmap__delete(struct srep_schedmap *m)
{
	if (!m)
		return;
	pt_free(&m->pt);
	free(m->names);
	free(m->curr);
	free(m->col_cpu);
	free(m->cols);
	free(m->order);
	free(m->col_of);
	free(m->seen);
	free(m);
}

/* a CPU beyond those the trace announced: more columns */
static int grow_cpus(struct srep_schedmap *m, size_t n)
{
	long *c = realloc(m->curr, n * sizeof(*c));
	int32_t *cc, *order, *col_of;
	char (*cols)[3];
	bool *seen;
	size_t i;

	if (c)
		m->curr = c;
	cc = c ? realloc(m->col_cpu, n * sizeof(*cc)) : NULL;
	if (cc)
		m->col_cpu = cc;
	order = cc ? realloc(m->order, n * sizeof(*order)) : NULL;
	if (order)
		m->order = order;
	cols = order ? realloc(m->cols, n * sizeof(*cols)) : NULL;
	if (cols)
		m->cols = cols;
	col_of = cols ? realloc(m->col_of, n * sizeof(*col_of)) : NULL;
	if (col_of)
		m->col_of = col_of;
	seen = col_of ? realloc(m->seen, n * sizeof(*seen)) : NULL;
	if (!seen)
		return -1;
	m->seen = seen;
	for (i = m->nr_cpus; i < n; i++) {
		m->curr[i] = -1;
		m->seen[i] = false;
	}
	m->nr_cpus = n;
	m->relayout = true;
	return 0;
}

/* the thread's two letters, given now if it has none; true when new */
static bool name_thread(struct srep_schedmap *m, long idx)
{
	char *n = m->names[idx];

	if (n[0])
		return false;
	if (!strcmp(pt_at(&m->pt, (size_t)idx)->comm, "swapper")) {
		memcpy(n, ". ", 3);
		return true;
	}
	n[0] = m->next1;
	n[1] = m->next2;
	n[2] = '\0';
	if (m->next1 < 'Z') {
		m->next1++;
	} else {
		m->next1 = 'A';
		m->next2 = m->next2 < '9' ? (char)(m->next2 + 1) : '0';
	}
	return true;
}

/* compact: a column for @cpu at its first switch; true then */
static bool add_column(struct srep_schedmap *m, int32_t cpu)
{
	if (!m->o.compact || m->seen[cpu])
		return false;
	m->seen[cpu] = true;
	m->order[m->nr_order++] = cpu;
	m->relayout = true;
	return true;
}

/* the columns made again, when CPUs were added to them */
static void lay_out(struct srep_schedmap *m)
{
	const struct srep_perf_filter *f = &m->o.filter;
	bool keep_all = m->o.dialect != SREP_PERF_6_1;	/* 6.12 no longer drops columns */
	size_t i, c;

	for (i = 0; i < m->nr_cpus; i++)
		m->col_of[i] = -1;
	for (i = 0, c = 0; i < (m->o.compact ? m->nr_order : m->nr_cpus); i++) {
		int32_t col = m->o.compact ? m->order[i] : (int32_t)i;

		if (!keep_all && !pf_cpu_ok(f, col))
			continue;
		m->col_cpu[c] = col;
		m->col_of[col] = (int32_t)c;
		if (m->curr[col] >= 0)
			memcpy(m->cols[c], m->names[m->curr[col]], 3);
		else
			m->cols[c][0] = '\0';
		c++;
	}
	m->nr_cols = c;
	m->relayout = false;
}

/* the columns after a switch on @cpu: only its own changed, unless CPUs were added */
static void update_cols(struct srep_schedmap *m, int32_t cpu)
{
	if (m->relayout)
		lay_out(m);
	else if (m->col_of[cpu] >= 0)
		memcpy(m->cols[m->col_of[cpu]], m->names[m->curr[cpu]], 3);
}

/* perf's map_switch_event */
static PT_OUT_OF_LINE int on_switch(struct srep_schedmap *m, const struct srep_event *ev,
		     struct srep_schedmap_line *line)
{
	int32_t cpu = ev->cpu;
	struct pthread *p;
	bool named, new_cpu;
	long idx;

	if ((size_t)cpu >= m->nr_cpus && grow_cpus(m, (size_t)cpu + 1))
		return -1;
	idx = pt_findnew(&m->pt, -1, ev->u.sw.next_tid);
	if (idx < 0 || pt_side_grow((void **)&m->names, &m->cap_names, (size_t)idx, 3))
		return -1;
	new_cpu = add_column(m, cpu);
	m->curr[cpu] = idx;
	named = name_thread(m, idx);
	update_cols(m, cpu);
	p = pt_at(&m->pt, (size_t)idx);
	/* perf 6.12 prints nothing for a CPU --cpus leaves out; 6.1 the columns alone */
	if (m->o.dialect != SREP_PERF_6_1 && !pf_cpu_ok(&m->o.filter, cpu))
		return 0;
	/* --only: the switches of the selected tasks, in or out */
	if (m->o.filter.sel && !pf_tid_ok(&m->o.filter, ev->u.sw.next_tid) &&
	    !pf_tid_ok(&m->o.filter, ev->u.sw.prev_tid))
		return 0;
	memset(line, 0, sizeof(*line));
	line->time = ev->time;
	line->cpu = cpu;
	line->nr_cols = m->nr_cols;
	line->col_cpu = m->col_cpu;
	line->cols = (const char (*)[3])m->cols;
	line->print = pf_cpu_ok(&m->o.filter, cpu);
	line->named = line->print && (named || p->comm_changed);
	line->name = m->names[idx];
	line->comm = p->comm;
	line->tid = p->tid;
	line->new_cpu = line->print && m->o.compact && new_cpu;
	if (line->named)
		p->comm_changed = false;
	return 1;
}

int srep_schedmap__add(struct srep_schedmap *m, const struct srep_event *ev,
		       struct srep_schedmap_line *line, struct srep_error *err)
{
	int ret;

	/* a switch names no thread for pt_event: the common events return early */
	if (ev->kind != SREP_EV_SWITCH)
		return pt_event(&m->pt, ev, err) ? SREP_E_NOMEM : 0;
	if (ev->cpu < 0 || ev->u.sw.next_tid < 0 || ev->u.sw.prev_tid < 0 ||
	    !pf_time_ok(&m->o.filter, ev->time))
		return 0;
	ret = on_switch(m, ev, line);
	return ret < 0 ? srep_error__set(err, SREP_E_NOMEM, "no memory for the CPU map") : ret;
}
