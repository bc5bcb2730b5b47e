// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pthreads.c - threads named the way perf names them (pthreads.h), so that
 * the perf-style analyses print perf's task names: the session's own task
 * table also learns names from tracepoint comm fields, which perf ignores
 * (a kernel worker is "kworker/0:1" there but "kworker/0:1-eve" in the
 * COMM record perf synthesized from /proc).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pthreads.h"
#include "grow.h"

void pt_init(struct srep_perf_threads *pt, const struct srep_session *s, bool exit_removes)
{
	memset(pt, 0, sizeof(*pt));
	pt->s = s;
	pt->exit_removes = exit_removes;
}

void pt_free(struct srep_perf_threads *pt)
{
	free(pt->v);
	free(pt->keys);
	free(pt->vals);
	memset(pt, 0, sizeof(*pt));
}

static int rehash(struct srep_perf_threads *pt)
{
	size_t n = pt->slots ? pt->slots * 2 : 256, i, j;
	int32_t *keys = calloc(n, sizeof(*keys)), *ok = pt->keys;
	uint32_t *vals = calloc(n, sizeof(*vals)), *ov = pt->vals;
	size_t on = pt->slots;

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	pt->keys = keys;
	pt->vals = vals;
	pt->slots = n;
	for (i = 0; i < on; i++) {
		if (!ov[i])
			continue;
		j = pt_probe(pt, ok[i]);
		keys[j] = ok[i];
		vals[j] = ov[i];
	}
	free(ok);
	free(ov);
	return 0;
}

/* its comm or pid changed: a new gen (never 0, which caches take for none) */
static void changed(struct pthread *t)
{
	if (!++t->gen)
		t->gen = 1;
}

/* a new live thread for @tid (an older one of that tid is then replaced) */
static long pt_new(struct srep_perf_threads *pt, int32_t pid, int32_t tid)
{
	struct pthread *v, *t;
	size_t i;

	if ((pt->used + 1) * 2 > pt->slots && rehash(pt))
		return -1;
	v = grow_array(pt->v, &pt->cap, pt->nr, sizeof(*v), 256);
	if (!v)
		return -1;
	pt->v = v;
	t = &v[pt->nr];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->ppid = -1;
	t->gen = 1;
	if (tid == 0) {
		/* perf registers the idle thread as "swapper", pid 0 */
		t->pid = 0;
		t->comm_set = true;
		snprintf(t->comm, sizeof(t->comm), "swapper");
	} else {
		snprintf(t->comm, sizeof(t->comm), ":%d", tid);
	}
	i = pt_probe(pt, tid);
	if (pt->vals[i])
		v[pt->vals[i] - 1].removed = true;
	else
		pt->used++;
	pt->keys[i] = tid;
	pt->vals[i] = (uint32_t)(pt->nr + 1);
	return (long)pt->nr++;
}

/*
 * A thread never met: perf may have seen it forked by a FORK record, which
 * the session swallows when the fork tracepoint is the event but whose
 * tracepoint is missing (a fork while perf was starting). The session's
 * task table has that fork: name the thread after its parent, as perf did.
 */
static long pt_new_forked(struct srep_perf_threads *pt, int32_t pid, int32_t tid)
{
	const struct srep_task *t = pt->s ? srep_session__current_task(pt->s, tid) : NULL;
	long idx = pt_new(pt, pid, tid), p;

	if (idx < 0 || !t || !srep_task__fork_time(t) || srep_task__ptid(t) < 0 ||
	    srep_task__exit_time(t))
		return idx;
	p = pt_find(pt, srep_task__ptid(t));
	if (p >= 0 && pt->v[p].comm_set) {
		memcpy(pt->v[idx].comm, pt->v[p].comm, sizeof(pt->v[idx].comm));
		changed(&pt->v[idx]);
		pt->v[idx].comm_set = true;
	}
	pt->v[idx].ppid = srep_task__ptid(t);
	pt->v[idx].lazy = true;
	return idx;
}

long pt_findnew_slow(struct srep_perf_threads *pt, long idx, int32_t pid, int32_t tid)
{
	struct pthread *t;

	if (idx < 0)
		return pt_new_forked(pt, pid, tid);
	t = &pt->v[idx];
	if (t->pid == -1 && pid != -1) {
		t->pid = pid;
		changed(t);
	}
	return idx;
}

static void set_comm(struct pthread *t, const char *comm)
{
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->comm_set = true;
	changed(t);
}

/* a FORK: the tid starts a new thread named after its parent (thread__fork) */
static int on_fork(struct srep_perf_threads *pt, const struct srep_fork *f)
{
	long p = pt_findnew(pt, f->parent_pid, f->parent_tid), c = pt_find(pt, f->child_tid);
	char comm[SREP_COMM_MAX];
	bool named;

	if (p < 0)
		return -1;
	if (c >= 0 && pt->v[c].lazy) {
		pt->v[c].lazy = false;	/* this is the fork it was made from */
		return 0;
	}
	named = pt->v[p].comm_set;
	memcpy(comm, pt->v[p].comm, sizeof(comm));
	c = pt_new(pt, f->child_pid, f->child_tid);
	if (c < 0)
		return -1;
	if (named)
		set_comm(&pt->v[c], comm);
	pt->v[c].ppid = f->parent_tid;
	return 0;
}

/*
 * A COMM record (or the EXEC it became): the thread's new name. perf sched
 * map flags as renamed the thread its sample fields name: the thread itself
 * for the kernel's records, the idle task (zeroes) for those perf
 * synthesized when it started.
 */
static int on_comm(struct srep_perf_threads *pt, const struct srep_event *ev, int32_t pid,
		   int32_t tid, const char *comm)
{
	long idx = pt_findnew(pt, pid, tid), flag;

	if (idx < 0)
		return -1;
	set_comm(&pt->v[idx], comm);
	/* perf registers the idle thread at the start: it is always there to flag */
	flag = ev->tid == 0 ? pt_findnew(pt, 0, 0) : ev->tid > 0 ? pt_find(pt, ev->tid) : idx;
	if (flag >= 0)
		pt->v[flag].comm_changed = true;
	return 0;
}

int pt_event_slow(struct srep_perf_threads *pt, const struct srep_event *ev,
		  struct srep_error *err)
{
	long idx;
	int ret = 0;

	switch (ev->kind) {
	case SREP_EV_FORK:
		if (ev->u.fork.child_tid >= 0 && ev->u.fork.parent_tid >= 0)
			ret = on_fork(pt, &ev->u.fork);
		break;
	case SREP_EV_COMM:
		/* tracepoint renames (task_rename) are not COMM records: perf ignores them */
		if (ev->source == SREP_SRC_RECORD || ev->source == SREP_SRC_JSON)
			ret = on_comm(pt, ev, ev->u.comm.pid, ev->u.comm.tid, ev->u.comm.comm);
		break;
	case SREP_EV_EXEC:
		if (ev->source != SREP_SRC_TRACEPOINT && ev->u.exec.comm[0])
			ret = on_comm(pt, ev, ev->u.exec.pid, ev->u.exec.tid, ev->u.exec.comm);
		break;
	case SREP_EV_EXIT:
		idx = pt_find(pt, ev->u.exit.tid);
		if (idx >= 0) {
			pt->v[idx].dead = true;
			pt->v[idx].removed = pt->exit_removes;
		}
		break;
	default:
		break;
	}
	return ret ? srep_error__set(err, SREP_E_NOMEM, "no memory for perf's thread table") : 0;
}

int pt_side_grow_slow(void **v, size_t *cap, size_t idx, size_t elem)
{
	size_t n = *cap ? *cap : 256;
	void *p;

	while (n <= idx) {
		if (n > SIZE_MAX / 2 / elem)
			return -1;
		n *= 2;
	}
	p = realloc(*v, n * elem);
	if (!p)
		return -1;
	memset((char *)p + *cap * elem, 0, (n - *cap) * elem);
	*v = p;
	*cap = n;
	return 0;
}

/* ---- public face ---- */

int srep_perf_threads__new(struct srep_perf_threads **out, const struct srep_session *s,
			   enum srep_perf_dialect d, struct srep_error *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for perf's thread table");
	pt_init(*out, s, d != SREP_PERF_6_1);
	return 0;
}

void srep_perf_threads__delete(struct srep_perf_threads *pt)
{
	if (!pt)
		return;
	pt_free(pt);
	free(pt);
}

int srep_perf_threads__add(struct srep_perf_threads *pt, const struct srep_event *ev,
			   struct srep_error *err)
{
	return pt_event(pt, ev, err);
}

const char *srep_perf_threads__comm(struct srep_perf_threads *pt, int32_t tid)
{
	long idx = pt_findnew(pt, -1, tid);

	return idx < 0 ? "" : pt->v[idx].comm;
}
