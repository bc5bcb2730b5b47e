// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * task.c - the task table: every thread seen, with its process, parent,
 * comm history and lifetime. Tids can be reused after an exit, so a tid
 * maps to its newest task and older ones stay listed.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "grow.h"

void task_table_init(struct task_table *tt)
{
	memset(tt, 0, sizeof(*tt));
}

void task_table_reset(struct task_table *tt)
{
	size_t i;

	memset(tt->recent, 0, sizeof(tt->recent));
	for (i = 0; i < tt->nr; i++) {
		free(tt->tasks[i]->comms);
		free(tt->tasks[i]);
	}
	tt->nr = 0;
	if (tt->slots)
		memset(tt->slots, 0, tt->nr_slots * sizeof(*tt->slots));
}

void task_table_free(struct task_table *tt)
{
	task_table_reset(tt);
	free(tt->tasks);
	free(tt->slots);
	memset(tt, 0, sizeof(*tt));
}

static size_t tid_hash(int32_t tid, size_t nr_slots)
{
	return ((uint32_t)tid * 2654435761u) & (nr_slots - 1);
}

static size_t slot_of(const struct task_table *tt, int32_t tid)
{
	size_t j = tid_hash(tid, tt->nr_slots);

	while (tt->slots[j].idx && tt->slots[j].tid != tid)
		j = (j + 1) & (tt->nr_slots - 1);
	return j;
}

static int rehash(struct task_table *tt)
{
	size_t nr = tt->nr_slots ? tt->nr_slots * 2 : 1024, i;
	struct task_slot *old = tt->slots;
	size_t old_nr = tt->nr_slots;

	tt->slots = calloc(nr, sizeof(*tt->slots));
	if (!tt->slots) {
		tt->slots = old;
		return SREP_E_NOMEM;
	}
	tt->nr_slots = nr;
	for (i = 0; i < old_nr; i++) {
		if (old[i].idx)
			tt->slots[slot_of(tt, old[i].tid)] = old[i];
	}
	free(old);
	return 0;
}

struct srep_task *task_find_slow(const struct task_table *tt, int32_t tid)
{
	struct task_table *mut = (struct task_table *)tt;
	size_t r = (uint32_t)tid & 255, j;
	struct srep_task *t;

	if (!tt->nr_slots)
		return NULL;
	j = slot_of(tt, tid);
	t = tt->slots[j].idx ? tt->tasks[tt->slots[j].idx - 1] : NULL;
	if (t) {
		mut->recent[r].tid = tid;
		mut->recent[r].t = t;
	}
	return t;
}

struct srep_task *task_new(struct task_table *tt, int32_t tid)
{
	struct srep_task *t, **n;

	if ((tt->nr + 1) * 2 > tt->nr_slots && rehash(tt))
		return NULL;
	n = grow_array(tt->tasks, &tt->cap, tt->nr, sizeof(*n), 256);
	if (!n)
		return NULL;
	tt->tasks = n;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = t->ppid = t->ptid = -1;
	t->index = tt->nr;
	tt->tasks[tt->nr++] = t;
	tt->slots[slot_of(tt, tid)] = (struct task_slot){ tid, (uint32_t)tt->nr };
	tt->recent[(uint32_t)tid & 255].tid = tid;	/* the newest task of a tid wins */
	tt->recent[(uint32_t)tid & 255].t = t;
	return t;
}

struct srep_task *task_get(struct task_table *tt, int32_t tid)
{
	struct srep_task *t = task_find(tt, tid);

	return t ? t : task_new(tt, tid);
}

int task_set_comm(struct srep_task *t, const char *comm, uint64_t time)
{
	struct task_comm *c;

	if (!comm[0] || strcmp(t->comm, comm) == 0)
		return 0;
	c = grow_array(t->comms, &t->cap_comms, t->nr_comms, sizeof(*c), 2);
	if (!c)
		return SREP_E_NOMEM;
	t->comms = c;
	c = &t->comms[t->nr_comms++];
	c->time = time;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	/* zeros after the name: task_same_comm() compares whole words */
	memset(t->comm, 0, sizeof(t->comm));
	memcpy(t->comm, c->comm, strlen(c->comm));
	return 0;
}

bool task_same_comm(const struct srep_task *t, const char comm[SREP_COMM_MAX])
{
	/* a kernel comm (16 bytes, zero-padded) equal to the task's: no string walk */
	if (t->comm[15] == '\0' && memcmp(t->comm, comm, 16) == 0)
		return true;
	return strcmp(t->comm, comm) == 0;
}

void task_seen(struct srep_task *t, uint64_t time)
{
	if (!time)
		return;
	if (!t->first_seen || time < t->first_seen)
		t->first_seen = time;
	if (time > t->last_seen)
		t->last_seen = time;
}

/* ---- public accessors ---- */

int32_t srep_task__pid(const struct srep_task *t) { return t->pid; }
int32_t srep_task__tid(const struct srep_task *t) { return t->tid; }
int32_t srep_task__ppid(const struct srep_task *t) { return t->ppid; }
int32_t srep_task__ptid(const struct srep_task *t) { return t->ptid; }
uint64_t srep_task__first_seen(const struct srep_task *t) { return t->first_seen; }
uint64_t srep_task__last_seen(const struct srep_task *t) { return t->last_seen; }
uint64_t srep_task__fork_time(const struct srep_task *t) { return t->fork_time; }
uint64_t srep_task__exit_time(const struct srep_task *t) { return t->exit_time; }
size_t srep_task__index(const struct srep_task *t) { return t->index; }
size_t srep_task__nr_comms(const struct srep_task *t) { return t->nr_comms; }

const char *srep_task__comm(const struct srep_task *t)
{
	return t->comm;
}

const char *srep_task__comm_at(const struct srep_task *t, size_t idx, uint64_t *time)
{
	if (idx >= t->nr_comms)
		return NULL;
	if (time)
		*time = t->comms[idx].time;
	return t->comms[idx].comm;
}

bool srep_task__matches_comm(const struct srep_task *t, const char *pattern)
{
	size_t i;

	for (i = 0; i < t->nr_comms; i++) {
		if (fnmatch(pattern, t->comms[i].comm, 0) == 0)
			return true;
	}
	return false;
}
