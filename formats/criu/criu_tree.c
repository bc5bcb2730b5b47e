// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * criu_tree.c - who is in the image set of an instant, in which state, and
 * the process tree CRIU expects: one root, every process under a process
 * of the set, no cycles whatever the trace says (docs/criu.md).
 */
#include <stdlib.h>
#include <string.h>

#include "criu_local.h"

/*
 * The task that carried 'tid' at 'time': tids are reused after an exit, and
 * the table lists each use in creation order, so it is the newest one
 * forked by then (or never seen forked: it existed when the trace began).
 */
size_t criu_task_at(const struct criu_state *st, int32_t tid, uint64_t time)
{
	size_t lo = 0, hi = st->nr_tasks, found = CRIU_NONE;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->by_tid[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < st->nr_tasks && st->by_tid[lo].tid == tid; lo++) {
		size_t idx = st->by_tid[lo].idx;

		if (found == CRIU_NONE || srep_task__fork_time(st->tasks[idx].t) <= time)
			found = idx;
	}
	return found;
}

/* the process of a task; a task whose process the trace never named is taken as one */
int32_t criu_pid_of(const struct srep_task *t)
{
	return srep_task__pid(t) >= 0 ? srep_task__pid(t) : srep_task__tid(t);
}

/* the comm it had at 'time'; before its first known comm, that one */
const char *criu_comm_at(const struct srep_task *t, uint64_t time)
{
	size_t n = srep_task__nr_comms(t), i;
	const char *best = n ? srep_task__comm_at(t, 0, NULL) : "";
	uint64_t when;

	for (i = 1; i < n; i++) {
		const char *c = srep_task__comm_at(t, i, &when);

		if (when <= time && c)
			best = c;
	}
	return best ? best : "";
}

bool criu_exited(const struct criu_task *ct, uint64_t time)
{
	uint64_t exit = srep_task__exit_time(ct->t);

	return exit && exit <= time;
}

/* a dead process stays until reaped: its parent's exit hands it to init, which reaps */
static bool parent_exited(const struct criu_state *st, const struct srep_task *t, uint64_t time)
{
	int32_t ppid = srep_task__ppid(t);
	size_t p;

	if (ppid <= 0 || ppid == srep_task__tid(t))
		return false;
	p = criu_task_at(st, ppid, time);
	return p != CRIU_NONE && criu_exited(&st->tasks[p], time);
}

/*
 * In the image set at 'time': selected, a real pid, forked by then (or
 * there from the start), its tid not reused yet, not released by the
 * kernel. An exited thread leaves at once (threads never linger as
 * zombies); an exited process stays, dead or zombie, until the trace shows
 * it released or its parent exited.
 */
bool criu_present(const struct criu_state *st, size_t idx, uint64_t time)
{
	const struct criu_task *ct = &st->tasks[idx];
	const struct srep_task *t = ct->t;
	size_t next = ct->next_same_tid;

	if (!ct->selected || srep_task__tid(t) <= 0 || criu_pid_of(t) <= 0)
		return false;
	if (srep_task__fork_time(t) > time)
		return false;
	if (next != CRIU_NONE && srep_task__fork_time(st->tasks[next].t) <= time)
		return false;
	if (ct->released && ct->released <= time)
		return false;
	if (!criu_exited(ct, time))
		return true;
	if (criu_pid_of(t) != srep_task__tid(t))
		return false;
	return !parent_exited(st, t, time);
}

/* DECISIONS.md: R, S, D (and the other running states) are alive; T and t stopped */
int criu_task_state(const struct criu_task *ct, uint64_t time)
{
	if (criu_exited(ct, time))
		return ct->letter == 'Z' ? CRIU_TASK_ZOMBIE : CRIU_TASK_DEAD;
	switch (ct->letter) {
	case 'T':
	case 't':
		return CRIU_TASK_STOPPED;
	case 'Z':
		return CRIU_TASK_ZOMBIE;
	case 'X':
		return CRIU_TASK_DEAD;
	default:
		return CRIU_TASK_ALIVE;
	}
}

/* ---- the snapshot ---- */

/* sort key of a thread: by process, the leader first, then by tid */
struct thread_key {
	int32_t pid, tid;
	bool leader;
	size_t idx;
};

static int cmp_thread(const void *a, const void *b)
{
	const struct thread_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->leader != y->leader)
		return x->leader ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *n;

	if (need <= *cap)
		return 0;
	n = realloc(*p, need * size);
	if (!n)
		return SREP_E_NOMEM;
	*p = n;
	*cap = need;
	return 0;
}

/* group the sorted threads into processes (sorted by pid) */
static int group(struct criu_snapshot *snap, const struct criu_state *st)
{
	size_t i;

	snap->nr_procs = 0;
	for (i = 0; i < snap->nr_threads; i++) {
		const struct srep_task *t = st->tasks[snap->threads[i]].t;
		int32_t pid = criu_pid_of(t);
		struct criu_proc *p = snap->nr_procs ? &snap->procs[snap->nr_procs - 1] : NULL;

		if (!p || p->pid != pid) {
			if (grow((void **)&snap->procs, &snap->cap_procs, snap->nr_procs + 2,
				 sizeof(*p)))
				return SREP_E_NOMEM;
			p = &snap->procs[snap->nr_procs++];
			*p = (struct criu_proc){ .pid = pid, .leader = CRIU_NONE, .first = i };
		}
		if (srep_task__tid(t) == pid)
			p->leader = snap->threads[i];
		p->nr++;
	}
	return 0;
}

static int cmp_proc_pid(const void *key, const void *elem)
{
	int32_t pid = *(const int32_t *)key, other = ((const struct criu_proc *)elem)->pid;

	return pid < other ? -1 : pid > other;
}

static size_t proc_find(const struct criu_snapshot *snap, int32_t pid)
{
	const struct criu_proc *p = bsearch(&pid, snap->procs, snap->nr_procs,
					     sizeof(*p), cmp_proc_pid);

	return p ? (size_t)(p - snap->procs) : CRIU_NONE;
}

/*
 * A thread whose tid is another process's pid cannot be (tids and pids
 * share one number space): only damaged or misattributed data says so.
 * Such threads are left out so that every core-<tid>.img is one task.
 */
static void drop_conflicts(struct criu_snapshot *snap, const struct criu_state *st)
{
	size_t i, kept = 0;

	for (i = 0; i < snap->nr_threads; i++) {
		const struct srep_task *t = st->tasks[snap->threads[i]].t;
		int32_t tid = srep_task__tid(t);

		if (tid != criu_pid_of(t) && (proc_find(snap, tid) != CRIU_NONE || tid == 1))
			continue;
		snap->threads[kept++] = snap->threads[i];
	}
	snap->nr_threads = kept;
}

/* pid 1 when the set has none: named after the trace's pid 1, else "init" */
static int add_root(struct criu_snapshot *snap, const struct criu_state *st)
{
	size_t i = proc_find(snap, 1), t;

	if (i != CRIU_NONE)
		return 0;
	if (grow((void **)&snap->procs, &snap->cap_procs, snap->nr_procs + 1, sizeof(*snap->procs)))
		return SREP_E_NOMEM;
	memmove(snap->procs + 1, snap->procs, snap->nr_procs * sizeof(*snap->procs));
	snap->procs[0] = (struct criu_proc){ .pid = 1, .leader = CRIU_NONE,
					     .first = snap->nr_threads };
	snap->nr_procs++;
	t = criu_task_at(st, 1, snap->time);
	snap->root_comm = t != CRIU_NONE ? criu_comm_at(st->tasks[t].t, snap->time) : "init";
	if (!*snap->root_comm)
		snap->root_comm = "init";
	return 0;
}

/* the parent process the trace names for p: its leader's, else a thread's */
static int32_t named_parent(const struct criu_snapshot *snap, const struct criu_state *st,
			    const struct criu_proc *p)
{
	size_t i;

	if (p->leader != CRIU_NONE)
		return srep_task__ppid(st->tasks[p->leader].t);
	for (i = 0; i < p->nr; i++) {
		int32_t ppid = srep_task__ppid(st->tasks[snap->threads[p->first + i]].t);

		if (ppid >= 0 && ppid != p->pid)
			return ppid;
	}
	return -1;
}

/* the nearest ancestor in the set, walking the trace's parents; else the root */
static size_t find_parent(const struct criu_snapshot *snap, const struct criu_state *st,
			  const struct criu_proc *p, size_t root)
{
	int32_t cand = named_parent(snap, st, p);
	size_t steps, i;

	for (steps = 0; cand > 0 && steps <= st->nr_tasks; steps++) {
		int32_t next;

		i = proc_find(snap, cand);
		if (i != CRIU_NONE && cand != p->pid)
			return i;
		i = criu_task_at(st, cand, snap->time);
		if (i == CRIU_NONE)
			break;
		next = srep_task__ppid(st->tasks[i].t);
		if (next == cand)
			break;
		cand = next;
	}
	return root;
}

/* parents named by the trace can form a loop: cut each loop under the root */
static void break_cycles(struct criu_snapshot *snap, size_t root, unsigned char *mark,
			 size_t *path)
{
	size_t i, j, n;

	memset(mark, 0, snap->nr_procs);
	mark[root] = 2;
	for (i = 0; i < snap->nr_procs; i++) {
		n = 0;
		for (j = i; !mark[j]; j = snap->procs[j].parent) {
			mark[j] = 1;
			path[n++] = j;
		}
		if (mark[j] == 1)
			snap->procs[path[n - 1]].parent = root;
		while (n)
			mark[path[--n]] = 2;
	}
}

/* depth first from the root, children by pid, as CRIU writes pstree.img */
static int order_tree(struct criu_snapshot *snap, size_t root)
{
	size_t n = snap->nr_procs, i, sp = 0, k = 0;
	size_t *start = calloc(n + 1, sizeof(*start)), *kids = malloc(n * sizeof(*kids));
	size_t *stack = malloc(n * sizeof(*stack)), *fill = calloc(n + 1, sizeof(*fill));
	int ret = SREP_E_NOMEM;

	if (!start || !kids || !stack || !fill)
		goto out;
	for (i = 0; i < n; i++)
		if (i != root)
			start[snap->procs[i].parent + 1]++;
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	memcpy(fill, start, (n + 1) * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (i != root)
			kids[fill[snap->procs[i].parent]++] = i;
	stack[sp++] = root;
	while (sp) {
		size_t p = stack[--sp], c;

		snap->order[k++] = p;
		/* pushed in reverse so that the smallest pid comes out first */
		for (c = start[p + 1]; c > start[p]; c--)
			stack[sp++] = kids[c - 1];
	}
	ret = 0;
out:
	free(start);
	free(kids);
	free(stack);
	free(fill);
	return ret;
}

static int link_tree(struct criu_snapshot *snap, const struct criu_state *st)
{
	size_t root = proc_find(snap, 1), i;
	unsigned char *mark;
	int ret;

	for (i = 0; i < snap->nr_procs; i++)
		snap->procs[i].parent = i == root ? CRIU_NONE : find_parent(snap, st, &snap->procs[i], root);
	snap->order = realloc(snap->order, snap->nr_procs * sizeof(*snap->order));
	mark = malloc(snap->nr_procs);
	if (!snap->order || !mark) {
		free(mark);
		return SREP_E_NOMEM;
	}
	break_cycles(snap, root, mark, snap->order);
	free(mark);
	ret = order_tree(snap, root);
	for (i = 0; i < snap->nr_procs; i++)
		snap->procs[i].ppid = i == root ? 0 : snap->procs[snap->procs[i].parent].pid;
	return ret;
}

/* the present tasks, grouped by process, the leader first */
static int sort_present(const struct criu_state *st, struct criu_snapshot *snap)
{
	struct thread_key *keys = malloc((st->nr_tasks + 1) * sizeof(*keys));
	size_t i, n = 0;

	if (!keys)
		return SREP_E_NOMEM;
	for (i = 0; i < st->nr_tasks; i++) {
		const struct srep_task *t = st->tasks[i].t;

		if (!criu_present(st, i, snap->time))
			continue;
		keys[n++] = (struct thread_key){ .pid = criu_pid_of(t), .tid = srep_task__tid(t),
						 .leader = criu_pid_of(t) == srep_task__tid(t),
						 .idx = i };
	}
	qsort(keys, n, sizeof(*keys), cmp_thread);
	for (i = 0; i < n; i++)
		snap->threads[i] = keys[i].idx;
	snap->nr_threads = n;
	free(keys);
	return 0;
}

int criu_snapshot_build(struct criu_state *st, uint64_t time, struct srep_error *err)
{
	struct criu_snapshot *snap = &st->snap;
	size_t i;
	int ret;

	snap->time = time;
	snap->nr_threads = 0;
	snap->root_comm = NULL;
	if (grow((void **)&snap->threads, &snap->cap_threads, st->nr_tasks + 1,
		 sizeof(*snap->threads)))
		goto nomem;
	if (sort_present(st, snap))
		goto nomem;
	if (group(snap, st))
		goto nomem;
	drop_conflicts(snap, st);
	for (i = 0; i < st->nr_tasks; i++)
		st->tasks[i].present = false;
	for (i = 0; i < snap->nr_threads; i++)
		st->tasks[snap->threads[i]].present = true;
	if (group(snap, st) || add_root(snap, st))
		goto nomem;
	ret = link_tree(snap, st);
	if (ret)
		goto nomem;
	return 0;
nomem:
	return srep_error__set(err, SREP_E_NOMEM, "no memory for the process tree of an instant");
}

void criu_snapshot_free(struct criu_snapshot *snap)
{
	free(snap->threads);
	free(snap->procs);
	free(snap->order);
	memset(snap, 0, sizeof(*snap));
}
