// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * match.c - pairs the tasks of two traces. Pids differ between boards, so
 * "auto" pairs tasks of the same comm in creation order under parents that
 * are already paired, starting from the tasks whose parent is not in the
 * trace; what is left is paired by comm alone in creation order. "pid"
 * pairs equal tids (the n-th task of a tid with the n-th), "comm" pairs one
 * group per comm. The idle task is never paired: per-CPU figures cover it.
 */
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>
#include "grow.h"

#define ROOT SIZE_MAX		/* parent of a task whose parent is not a candidate */

struct cand {
	const struct srep_task *t;
	size_t parent;		/* task index of the parent candidate, ROOT if none */
	bool matched;
};

struct side {
	const struct srep_session *s;
	struct cand *c;		/* candidates, sorted for the current mode */
	size_t nr;
	size_t *pos;		/* task index -> position in c, SIZE_MAX if not a candidate */
	const struct srep_task **list;	/* tasks of the pairs, pair after pair */
	size_t nr_list, cap_list;
	const struct srep_task **unmatched;
	size_t nr_unmatched;
};

struct pair {
	size_t off[2], nr[2];
};

struct srep_matching {
	struct side side[2];
	struct pair *pairs;
	size_t nr_pairs, cap_pairs;
};

int srep_match_mode__parse(const char *name, enum srep_match_mode *out, struct srep_error *err)
{
	static const char *const names[] = { "auto", "comm", "pid" };
	size_t i;

	for (i = 0; i < 3; i++) {
		if (!strcmp(name, names[i])) {
			*out = (enum srep_match_mode)i;
			return 0;
		}
	}
	return srep_error__set(err, SREP_E_INVAL, "'%s': expected auto, comm or pid", name);
}

const char *srep_match_mode__name(enum srep_match_mode mode)
{
	return mode == SREP_MATCH_COMM ? "comm" : mode == SREP_MATCH_PID ? "pid" : "auto";
}

static uint64_t start_of(const struct srep_task *t)
{
	return srep_task__fork_time(t) ? srep_task__fork_time(t) : srep_task__first_seen(t);
}

/* creation order: fork (or first sight), then the order the trace named them */
static int cmp_created(const struct srep_task *x, const struct srep_task *y)
{
	size_t ix = srep_task__index(x), iy = srep_task__index(y);

	if (start_of(x) != start_of(y))
		return start_of(x) < start_of(y) ? -1 : 1;
	return ix < iy ? -1 : ix > iy;
}

static int cmp_comm_created(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(srep_task__comm(x->t), srep_task__comm(y->t));

	return c ? c : cmp_created(x->t, y->t);
}

static int cmp_parent(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return cmp_comm_created(a, b);
}

static int cmp_tid(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (srep_task__tid(x->t) != srep_task__tid(y->t))
		return srep_task__tid(x->t) < srep_task__tid(y->t) ? -1 : 1;
	return cmp_created(x->t, y->t);
}

/* ---- candidates ---- */

static int side_init(struct side *sd, const struct srep_session *s,
		     const struct srep_selection *sel)
{
	size_t n = srep_session__nr_tasks(s), i;

	sd->s = s;
	sd->c = calloc(n ? n : 1, sizeof(*sd->c));
	sd->pos = malloc((n ? n : 1) * sizeof(*sd->pos));
	sd->unmatched = calloc(n ? n : 1, sizeof(*sd->unmatched));
	if (!sd->c || !sd->pos || !sd->unmatched)
		return SREP_E_NOMEM;
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(s, i);

		sd->pos[i] = SIZE_MAX;
		if (srep_task__tid(t) == 0 || (sel && !srep_selection__has_task(sel, t)))
			continue;
		sd->pos[i] = sd->nr;
		sd->c[sd->nr++] = (struct cand){ .t = t, .parent = ROOT };
	}
	for (i = 0; i < sd->nr; i++) {
		const struct srep_task *p = srep_session__parent_task(s, sd->c[i].t);

		if (p && sd->pos[srep_task__index(p)] != SIZE_MAX)
			sd->c[i].parent = srep_task__index(p);
	}
	return 0;
}

static void side_free(struct side *sd)
{
	free(sd->c);
	free(sd->pos);
	free(sd->list);
	free(sd->unmatched);
}

/* ---- pairs ---- */

static int list_add(struct side *sd, const struct srep_task *t)
{
	const struct srep_task **n = grow_array(sd->list, &sd->cap_list, sd->nr_list, sizeof(*n), 64);

	if (!n)
		return SREP_E_NOMEM;
	sd->list = n;
	sd->list[sd->nr_list++] = t;
	return 0;
}

/* a new pair of the candidates ca (A) and cb (B), [0, na) and [0, nb) */
static int pair_add(struct srep_matching *mt, struct cand *ca, size_t na, struct cand *cb,
		    size_t nb)
{
	struct cand *c[2] = { ca, cb };
	size_t n[2] = { na, nb }, i;
	int side;

	struct pair *p = grow_array(mt->pairs, &mt->cap_pairs, mt->nr_pairs, sizeof(*p), 64);

	if (!p)
		return SREP_E_NOMEM;
	mt->pairs = p;
	for (side = 0; side < 2; side++) {
		mt->pairs[mt->nr_pairs].off[side] = mt->side[side].nr_list;
		mt->pairs[mt->nr_pairs].nr[side] = n[side];
		for (i = 0; i < n[side]; i++) {
			c[side][i].matched = true;
			if (list_add(&mt->side[side], c[side][i].t))
				return SREP_E_NOMEM;
		}
	}
	mt->nr_pairs++;
	return 0;
}

/* pair the unmatched candidates of two ranges sorted by comm, then creation */
static int pair_by_comm(struct srep_matching *mt, struct cand *a, size_t na, struct cand *b,
			size_t nb)
{
	size_t i = 0, j = 0;
	int c, ret;

	while (i < na && j < nb) {
		if (a[i].matched) {
			i++;
			continue;
		}
		if (b[j].matched) {
			j++;
			continue;
		}
		c = strcmp(srep_task__comm(a[i].t), srep_task__comm(b[j].t));
		if (c == 0 && (ret = pair_add(mt, &a[i], 1, &b[j], 1)))
			return ret;
		i += c <= 0;
		j += c >= 0;
	}
	return 0;
}

/* the candidates whose parent is 'parent' (a range of the parent-sorted array) */
static struct cand *children(struct side *sd, size_t parent, size_t *n)
{
	size_t lo = 0, hi = sd->nr, first;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sd->c[mid].parent < parent)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < sd->nr && sd->c[lo].parent == parent)
		lo++;
	*n = lo - first;
	return &sd->c[first];
}

static int match_auto(struct srep_matching *mt)
{
	struct side *a = &mt->side[0], *b = &mt->side[1];
	struct cand *ca, *cb;
	size_t na, nb, p;
	int ret;

	qsort(a->c, a->nr, sizeof(*a->c), cmp_parent);
	qsort(b->c, b->nr, sizeof(*b->c), cmp_parent);
	ca = children(a, ROOT, &na);
	cb = children(b, ROOT, &nb);
	ret = pair_by_comm(mt, ca, na, cb, nb);
	/* the pairs found so far are the queue: each one pairs its children */
	for (p = 0; !ret && p < mt->nr_pairs; p++) {
		ca = children(a, srep_task__index(a->list[mt->pairs[p].off[0]]), &na);
		cb = children(b, srep_task__index(b->list[mt->pairs[p].off[1]]), &nb);
		ret = pair_by_comm(mt, ca, na, cb, nb);
	}
	if (ret)
		return ret;
	/* parents that did not pair: their children pair by comm alone */
	qsort(a->c, a->nr, sizeof(*a->c), cmp_comm_created);
	qsort(b->c, b->nr, sizeof(*b->c), cmp_comm_created);
	return pair_by_comm(mt, a->c, a->nr, b->c, b->nr);
}

static int match_pid(struct srep_matching *mt)
{
	struct side *a = &mt->side[0], *b = &mt->side[1];
	size_t i = 0, j = 0;
	int ret;

	qsort(a->c, a->nr, sizeof(*a->c), cmp_tid);
	qsort(b->c, b->nr, sizeof(*b->c), cmp_tid);
	while (i < a->nr && j < b->nr) {
		int32_t x = srep_task__tid(a->c[i].t), y = srep_task__tid(b->c[j].t);

		if (x == y && (ret = pair_add(mt, &a->c[i], 1, &b->c[j], 1)))
			return ret;
		i += x <= y;
		j += x >= y;
	}
	return 0;
}

/* the run of candidates from 'i' that share its comm */
static size_t comm_run(const struct side *sd, size_t i)
{
	size_t j = i + 1;

	while (j < sd->nr && !strcmp(srep_task__comm(sd->c[j].t), srep_task__comm(sd->c[i].t)))
		j++;
	return j - i;
}

static int match_comm(struct srep_matching *mt)
{
	struct side *a = &mt->side[0], *b = &mt->side[1];
	size_t i = 0, j = 0;
	int ret;

	qsort(a->c, a->nr, sizeof(*a->c), cmp_comm_created);
	qsort(b->c, b->nr, sizeof(*b->c), cmp_comm_created);
	while (i < a->nr && j < b->nr) {
		size_t na = comm_run(a, i), nb = comm_run(b, j);
		int c = strcmp(srep_task__comm(a->c[i].t), srep_task__comm(b->c[j].t));

		if (c == 0 && (ret = pair_add(mt, &a->c[i], na, &b->c[j], nb)))
			return ret;
		i += c <= 0 ? na : 0;
		j += c >= 0 ? nb : 0;
	}
	return 0;
}

static int by_created(const void *x, const void *y)
{
	return cmp_created(*(const struct srep_task *const *)x, *(const struct srep_task *const *)y);
}

static void collect_unmatched(struct side *sd)
{
	size_t i;

	for (i = 0; i < sd->nr; i++) {
		if (!sd->c[i].matched)
			sd->unmatched[sd->nr_unmatched++] = sd->c[i].t;
	}
	qsort(sd->unmatched, sd->nr_unmatched, sizeof(*sd->unmatched), by_created);
}

int srep_matching__new(struct srep_matching **out, enum srep_match_mode mode,
		       const struct srep_session *a, const struct srep_selection *sel_a,
		       const struct srep_session *b, const struct srep_selection *sel_b,
		       struct srep_error *err)
{
	struct srep_matching *mt = calloc(1, sizeof(*mt));
	int ret;

	*out = NULL;
	if (!mt)
		return srep_error__set(err, SREP_E_NOMEM, "no memory to match tasks");
	ret = side_init(&mt->side[0], a, sel_a);
	if (!ret)
		ret = side_init(&mt->side[1], b, sel_b);
	if (!ret)
		ret = mode == SREP_MATCH_PID ? match_pid(mt) :
		      mode == SREP_MATCH_COMM ? match_comm(mt) : match_auto(mt);
	if (ret) {
		srep_matching__delete(mt);
		return srep_error__set(err, ret, "no memory to match tasks");
	}
	collect_unmatched(&mt->side[0]);
	collect_unmatched(&mt->side[1]);
	*out = mt;
	return 0;
}

void srep_matching__delete(struct srep_matching *mt)
{
	if (!mt)
		return;
	side_free(&mt->side[0]);
	side_free(&mt->side[1]);
	free(mt->pairs);
	free(mt);
}

size_t srep_matching__nr_pairs(const struct srep_matching *mt)
{
	return mt->nr_pairs;
}

size_t srep_matching__pair(const struct srep_matching *mt, size_t idx, int side,
			   const struct srep_task *const **tasks)
{
	if (idx >= mt->nr_pairs || side < 0 || side > 1) {
		*tasks = NULL;
		return 0;
	}
	*tasks = &mt->side[side].list[mt->pairs[idx].off[side]];
	return mt->pairs[idx].nr[side];
}

size_t srep_matching__nr_unmatched(const struct srep_matching *mt, int side)
{
	return side == 0 || side == 1 ? mt->side[side].nr_unmatched : 0;
}

const struct srep_task *srep_matching__unmatched(const struct srep_matching *mt, int side,
						 size_t idx)
{
	if ((side != 0 && side != 1) || idx >= mt->side[side].nr_unmatched)
		return NULL;
	return mt->side[side].unmatched[idx];
}
