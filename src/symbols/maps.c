// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maps.c - where each process had each module mapped, as the MMAP/MMAP2
 * records of the trace say, kept current while events stream by.
 *
 * A process has a sorted array of non-overlapping mappings (tens of them:
 * the executable, its libraries, the loader, the vdso); a new mapping
 * replaces the parts of older ones it overlaps, as mmap(MAP_FIXED) does in
 * the kernel. A forked process starts with a copy of its parent's
 * mappings; exec empties them. Threads share their process's (pid) maps.
 * Processes are never forgotten before their pid is reused: a late sample
 * of an exited process still resolves.
 */
#include <stdlib.h>
#include <string.h>

#include "sym_local.h"
#include "grow.h"

void maps_init(struct maps *m)
{
	memset(m, 0, sizeof(*m));
}

void maps_free(struct maps *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		free(m->procs[i].e);
	free(m->procs);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static size_t slot_of(int32_t pid, size_t nr_slots)
{
	return ((uint32_t)pid * 2654435761u) & (nr_slots - 1);
}

static struct proc_maps *find_proc(const struct maps *m, int32_t pid)
{
	size_t i;

	if (!m->nr_slots)
		return NULL;
	for (i = slot_of(pid, m->nr_slots); m->slots[i]; i = (i + 1) & (m->nr_slots - 1)) {
		if (m->procs[m->slots[i] - 1].pid == pid)
			return &m->procs[m->slots[i] - 1];
	}
	return NULL;
}

static int rehash(struct maps *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : 64, i, j;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return SREP_E_NOMEM;
	for (i = 0; i < m->nr; i++) {
		for (j = slot_of(m->procs[i].pid, n); s[j]; j = (j + 1) & (n - 1))
			;
		s[j] = (uint32_t)i + 1;
	}
	free(m->slots);
	m->slots = s;
	m->nr_slots = n;
	return 0;
}

static struct proc_maps *get_proc(struct maps *m, int32_t pid)
{
	struct proc_maps *p = find_proc(m, pid), *n;
	size_t i;

	if (p)
		return p;
	if (m->nr == UINT32_MAX - 1)
		return NULL;
	n = grow_array(m->procs, &m->cap, m->nr, sizeof(*n), 16);
	if (!n)
		return NULL;
	m->procs = n;
	p = &m->procs[m->nr++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	/* keep the table at most half full so probes stay short */
	if (2 * m->nr > m->nr_slots) {
		if (rehash(m)) {
			m->nr--;
			return NULL;
		}
		return p;
	}
	for (i = slot_of(pid, m->nr_slots); m->slots[i]; i = (i + 1) & (m->nr_slots - 1))
		;
	m->slots[i] = (uint32_t)m->nr;
	return p;
}

static int reserve(struct proc_maps *p, size_t extra)
{
	struct map_entry *n;
	size_t cap;

	if (p->nr + extra <= p->cap)
		return 0;
	cap = p->cap ? p->cap * 2 : 8;
	while (cap < p->nr + extra)
		cap *= 2;
	n = realloc(p->e, cap * sizeof(*n));
	if (!n)
		return SREP_E_NOMEM;
	p->e = n;
	p->cap = cap;
	return 0;
}

/* index of the first mapping that ends after 'addr' */
static size_t first_after(const struct proc_maps *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->e[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Cut [start, end) out of the mappings: an older mapping keeps what lies
 * outside, possibly as two pieces. Returns where the new one goes.
 */
static size_t punch(struct proc_maps *p, uint64_t start, uint64_t end)
{
	size_t i = first_after(p, start), j;
	struct map_entry tail;

	if (i < p->nr && p->e[i].start < start && p->e[i].end > end) {
		/* one mapping covers the hole on both sides: split it */
		tail = p->e[i];
		tail.pgoff += end - tail.start;
		tail.start = end;
		p->e[i].end = start;
		memmove(&p->e[i + 2], &p->e[i + 1], (p->nr - i - 1) * sizeof(*p->e));
		p->e[i + 1] = tail;
		p->nr++;
		return i + 1;
	}
	if (i < p->nr && p->e[i].start < start) {
		p->e[i].end = start;
		i++;
	}
	for (j = i; j < p->nr && p->e[j].end <= end; j++)
		;
	if (j < p->nr && p->e[j].start < end) {
		p->e[j].pgoff += end - p->e[j].start;
		p->e[j].start = end;
	}
	memmove(&p->e[i], &p->e[j], (p->nr - j) * sizeof(*p->e));
	p->nr -= j - i;
	return i;
}

int maps_insert(struct maps *m, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		uint32_t dso)
{
	struct proc_maps *p = get_proc(m, pid);
	uint64_t end = start + len;
	size_t at;

	if (!p)
		return SREP_E_NOMEM;
	if (!len)
		return 0;
	if (end < start)
		end = UINT64_MAX;	/* a length running past the top of the address space */
	/* room for a split (one more) and the new entry */
	if (reserve(p, 2))
		return SREP_E_NOMEM;
	at = punch(p, start, end);
	memmove(&p->e[at + 1], &p->e[at], (p->nr - at) * sizeof(*p->e));
	p->e[at] = (struct map_entry){ .start = start, .end = end, .pgoff = pgoff, .dso = dso };
	p->nr++;
	return 0;
}

int maps_fork(struct maps *m, int32_t parent_pid, int32_t child_pid)
{
	struct proc_maps *parent, *child;
	size_t nr;

	if (parent_pid == child_pid)
		return 0;
	child = get_proc(m, child_pid);
	if (!child)
		return SREP_E_NOMEM;
	child->nr = 0;
	/* get_proc may have moved the array: look the parent up afterwards */
	parent = find_proc(m, parent_pid);
	nr = parent ? parent->nr : 0;
	if (!nr)
		return 0;
	if (reserve(child, nr))
		return SREP_E_NOMEM;
	memcpy(child->e, parent->e, nr * sizeof(*child->e));
	child->nr = nr;
	return 0;
}

void maps_clear(struct maps *m, int32_t pid)
{
	struct proc_maps *p = find_proc(m, pid);

	if (p)
		p->nr = 0;
}

const struct map_entry *maps_find(struct maps *m, int32_t pid, uint64_t addr)
{
	const struct proc_maps *p;
	size_t i;

	/* the frames of a callchain are one process's: remember it (procs never go away) */
	if (m->last && m->procs[m->last - 1].pid == pid) {
		p = &m->procs[m->last - 1];
	} else {
		p = find_proc(m, pid);
		if (!p)
			return NULL;
		m->last = (size_t)(p - m->procs) + 1;
	}
	i = first_after(p, addr);
	return i < p->nr && p->e[i].start <= addr ? &p->e[i] : NULL;
}
