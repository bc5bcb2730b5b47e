// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c - task selection, written once for convert, replay and compare:
 * pids (whole processes), "tid:N", "comm:NAME", comms and globs; repeated
 * --only is a union, --exclude removes, --children adds descendants.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>

enum sel_kind { SEL_PID, SEL_TID, SEL_COMM };

struct sel_spec {
	enum sel_kind kind;
	int32_t id;
	char *pattern;
};

struct srep_selection {
	struct sel_spec *only, *exclude;
	size_t nr_only, nr_exclude;
	bool children;
	bool *chosen;			/* by task index, after resolve */
	size_t nr_chosen;
	int32_t *tids;			/* sorted tids of chosen tasks */
	size_t nr_tids;
};

int srep_selection__new(struct srep_selection **out, struct srep_error *err)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory for a selection");
}

static void free_specs(struct sel_spec *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].pattern);
	free(v);
}

void srep_selection__delete(struct srep_selection *sel)
{
	if (!sel)
		return;
	free_specs(sel->only, sel->nr_only);
	free_specs(sel->exclude, sel->nr_exclude);
	free(sel->chosen);
	free(sel->tids);
	free(sel);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
	}
	return true;
}

static int parse_id(const char *s, int32_t *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!all_digits(s) || errno || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int parse_spec(const char *spec, struct sel_spec *out, struct srep_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return srep_error__set(err, SREP_E_SELECT, "empty task selection");
	if (strncmp(spec, "tid:", 4) == 0) {
		out->kind = SEL_TID;
		if (parse_id(spec + 4, &out->id))
			return srep_error__set(err, SREP_E_SELECT,
					       "'%s': expected a thread id after 'tid:'", spec);
		return 0;
	}
	if (all_digits(spec)) {
		out->kind = SEL_PID;
		if (parse_id(spec, &out->id))
			return srep_error__set(err, SREP_E_SELECT, "'%s': pid out of range", spec);
		return 0;
	}
	out->kind = SEL_COMM;
	if (strncmp(spec, "comm:", 5) == 0)
		spec += 5;
	if (!*spec)
		return srep_error__set(err, SREP_E_SELECT, "empty comm in task selection");
	out->pattern = strdup(spec);
	return out->pattern ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory");
}

static int add_spec(struct sel_spec **v, size_t *n, const char *spec, struct srep_error *err)
{
	struct sel_spec one, *nv;
	int ret = parse_spec(spec, &one, err);

	if (ret)
		return ret;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		free(one.pattern);
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	}
	nv[(*n)++] = one;
	*v = nv;
	return 0;
}

int srep_selection__add_only(struct srep_selection *sel, const char *spec, struct srep_error *err)
{
	return add_spec(&sel->only, &sel->nr_only, spec, err);
}

int srep_selection__add_exclude(struct srep_selection *sel, const char *spec,
				struct srep_error *err)
{
	return add_spec(&sel->exclude, &sel->nr_exclude, spec, err);
}

void srep_selection__set_children(struct srep_selection *sel, bool children)
{
	sel->children = children;
}

bool srep_selection__is_empty(const struct srep_selection *sel)
{
	return !sel->nr_only && !sel->nr_exclude;
}

bool srep_selection__has_only(const struct srep_selection *sel)
{
	return sel->nr_only != 0;
}

static bool spec_matches(const struct sel_spec *sp, const struct srep_task *t)
{
	switch (sp->kind) {
	case SEL_PID:
		return srep_task__pid(t) == sp->id || (srep_task__pid(t) < 0 && srep_task__tid(t) == sp->id);
	case SEL_TID:
		return srep_task__tid(t) == sp->id;
	default:
		return srep_task__matches_comm(t, sp->pattern);
	}
}

static bool any_matches(const struct sel_spec *v, size_t n, const struct srep_task *t)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (spec_matches(&v[i], t))
			return true;
	}
	return false;
}

static void add_children(struct srep_selection *sel, const struct srep_session *s)
{
	bool changed = true;
	size_t i;

	while (changed) {
		changed = false;
		for (i = 0; i < sel->nr_chosen; i++) {
			const struct srep_task *t = srep_session__task(s, i), *p;

			if (sel->chosen[i])
				continue;
			p = srep_session__parent_task(s, t);
			if (p && sel->chosen[srep_task__index(p)]) {
				sel->chosen[i] = true;
				changed = true;
			}
		}
	}
}

static int cmp_tid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

int srep_selection__resolve(struct srep_selection *sel, const struct srep_session *s,
			    struct srep_error *err)
{
	size_t n = srep_session__nr_tasks(s), i;

	free(sel->chosen);
	free(sel->tids);
	sel->chosen = calloc(n ? n : 1, sizeof(*sel->chosen));
	sel->tids = calloc(n ? n : 1, sizeof(*sel->tids));
	if (!sel->chosen || !sel->tids)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a selection");
	sel->nr_chosen = n;
	for (i = 0; i < n; i++)
		sel->chosen[i] = !sel->nr_only || any_matches(sel->only, sel->nr_only,
							      srep_session__task(s, i));
	if (sel->children && sel->nr_only)
		add_children(sel, s);
	sel->nr_tids = 0;
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(s, i);

		if (sel->chosen[i] && any_matches(sel->exclude, sel->nr_exclude, t))
			sel->chosen[i] = false;
		if (sel->chosen[i])
			sel->tids[sel->nr_tids++] = srep_task__tid(t);
	}
	qsort(sel->tids, sel->nr_tids, sizeof(*sel->tids), cmp_tid);
	return 0;
}

bool srep_selection__has_task(const struct srep_selection *sel, const struct srep_task *t)
{
	size_t i = srep_task__index(t);

	return i < sel->nr_chosen && sel->chosen[i];
}

size_t srep_selection__nr_tasks(const struct srep_selection *sel)
{
	return sel->nr_tids;
}

bool srep_selection__has_tid(const struct srep_selection *sel, int32_t tid)
{
	/* nothing resolved yet: no array to search (bsearch() wants one) */
	return sel->nr_tids && bsearch(&tid, sel->tids, sel->nr_tids, sizeof(tid), cmp_tid) != NULL;
}
