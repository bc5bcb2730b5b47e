// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtapp_names.c - rt-app task names: each task's recorded comm, made unique.
 *
 * rt-app names a thread after its key in "tasks" (pthread_setname_np: a
 * longer name fails and the thread stays "rt-app"), names its log file
 * after it, and the keys of a JSON object must differ. A comm that only one
 * task had is kept; tasks that share one become COMM-TID (the comm cut to
 * fit 15 bytes); the rare clash left after that (a reused tid) gets COMM-iN,
 * N the task's index in the plan, which no other name can have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtapp.h"

#define LEVEL_TID 1
#define LEVEL_INDEX 2

struct entry {
	char name[RTAPP_NAME_MAX + 1];
	size_t task;
	int level;
};

/* '/' would make a log path, quotes and controls JSON escapes: '_' instead */
static char safe(unsigned char c)
{
	return c > ' ' && c < 0x7f && c != '"' && c != '\\' && c != '/' ? (char)c : '_';
}

static void make_name(struct entry *en, const struct rp_task *t)
{
	const char *comm = t->comm[0] ? t->comm : "task";
	char suffix[32] = "";
	size_t room, n, i;

	if (en->level == LEVEL_TID)
		snprintf(suffix, sizeof(suffix), "-%d", t->tid);
	else if (en->level == LEVEL_INDEX)
		snprintf(suffix, sizeof(suffix), "-i%zu", en->task);
	room = RTAPP_NAME_MAX - strlen(suffix);	/* the suffix has 12 bytes at most */
	n = strnlen(comm, room);
	for (i = 0; i < n; i++)
		en->name[i] = safe((unsigned char)comm[i]);
	memcpy(en->name + n, suffix, strlen(suffix) + 1);
}

static int cmp_name(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->task < y->task ? -1 : x->task > y->task;
}

/* every task of a group sharing a name goes one level up; true when any did */
static bool spread(struct entry *v, size_t n)
{
	size_t i, j, k;
	bool changed = false;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[i].name, v[j].name); j++)
			;
		for (k = i; j - i > 1 && k < j; k++) {
			if (v[k].level < LEVEL_INDEX) {
				v[k].level++;
				changed = true;
			}
		}
	}
	return changed;
}

int rtapp_names(const struct rp_plan *p, char (**out)[RTAPP_NAME_MAX + 1],
		struct srep_error *err)
{
	size_t n = p->nr_tasks, i;
	struct entry *v = calloc(n ? n : 1, sizeof(*v));
	char (*names)[RTAPP_NAME_MAX + 1] = calloc(n ? n : 1, sizeof(*names));
	bool changed = true;

	*out = NULL;
	if (!v || !names) {
		free(v);
		free(names);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the task names");
	}
	for (i = 0; i < n; i++)
		v[i].task = i;
	/* levels only go up, to LEVEL_INDEX at most, whose names are all distinct */
	while (changed) {
		for (i = 0; i < n; i++)
			make_name(&v[i], &p->tasks[v[i].task]);
		qsort(v, n, sizeof(*v), cmp_name);
		changed = spread(v, n);
	}
	for (i = 0; i < n; i++)
		memcpy(names[v[i].task], v[i].name, sizeof(names[0]));
	free(v);
	*out = names;
	return 0;
}
