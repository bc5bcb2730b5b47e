// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blocking.c - blocking sites and the time tasks slept at each (see
 * blocking.h). Sites are interned once per trace in a hash table: a
 * switch-out costs two hashes and a probe, and a task keeps a short array
 * of (site, time, sleeps): the few places it blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "blocking.h"
#include "grow.h"

void blocking_table_free(struct blocking_table *t)
{
	uint32_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->sites[i].kernel);
		free(t->sites[i].user);
	}
	free(t->sites);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

void blocking_task_free(struct blocking_task *bt)
{
	free(bt->v);
	bt->v = NULL;
	bt->nr = bt->cap = 0;
	bt->open = BLK_NONE;
}

/* ---- sites ---- */

static uint64_t hash_str(uint64_t h, const char *s)
{
	if (!s)
		return h * 1099511628211ull + 1;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull;	/* so that ("ab", "c") differs from ("a", "bc") */
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int grow_slots(struct blocking_table *t)
{
	size_t n = t->nr_slots ? 2 * t->nr_slots : 256, i, j;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return SREP_E_NOMEM;
	for (i = BLK_OTHER + 1; i < t->nr; i++) {
		for (j = t->sites[i].hash & (n - 1); s[j]; j = (j + 1) & (n - 1))
			;
		s[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nr_slots = n;
	return 0;
}

static int add_site(struct blocking_table *t, const char *kernel, const char *user, uint64_t h,
		    uint32_t *out)
{
	struct blocking_site *v;

	v = grow_array(t->sites, &t->cap, t->nr, sizeof(*v), 64);
	if (!v)
		return SREP_E_NOMEM;
	t->sites = v;
	v = &t->sites[t->nr];
	v->kernel = kernel ? strdup(kernel) : NULL;
	v->user = user ? strdup(user) : NULL;
	v->hash = h;
	if ((kernel && !v->kernel) || (user && !v->user)) {
		free(v->kernel);
		free(v->user);
		return SREP_E_NOMEM;
	}
	*out = t->nr++;
	return 0;
}

/* the site of (kernel, user), made at first sight; BLK_OTHER once the table is full */
static int intern(struct blocking_table *t, const char *kernel, const char *user, uint32_t *out)
{
	uint64_t h = hash_str(hash_str(14695981039346656037ull, kernel), user);
	size_t j;
	int ret;

	if (!t->nr && add_site(t, BLK_OTHER_NAME, NULL, 0, out))
		return SREP_E_NOMEM;	/* site 0 is "(other)", never found by name */
	if ((t->nr + 1) * 2 > t->nr_slots && grow_slots(t))
		return SREP_E_NOMEM;
	for (j = h & (t->nr_slots - 1); t->slots[j]; j = (j + 1) & (t->nr_slots - 1)) {
		const struct blocking_site *s = &t->sites[t->slots[j] - 1];

		if (s->hash == h && same(s->kernel, kernel) && same(s->user, user)) {
			*out = t->slots[j] - 1;
			return 0;
		}
	}
	if (t->nr >= BLK_MAX_SITES) {
		*out = BLK_OTHER;
		return 0;
	}
	ret = add_site(t, kernel, user, h, out);
	if (!ret)
		t->slots[j] = *out + 1;
	return ret;
}

/* ---- per task ---- */

static int entry_of(struct blocking_task *bt, uint32_t site, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i < bt->nr && bt->v[i].site != site; i++)
		;
	/* the last place is kept for "(other)" */
	if (i == bt->nr && bt->nr >= BLK_MAX_PER_TASK - 1 && site != BLK_OTHER)
		return entry_of(bt, BLK_OTHER, out);
	if (i == bt->nr) {
		struct blocking_entry *v = grow_array(bt->v, &bt->cap, bt->nr, sizeof(*v), 4);

		if (!v)
			return SREP_E_NOMEM;
		bt->v = v;
		bt->v[bt->nr++] = (struct blocking_entry){ .site = site };
	}
	*out = i;
	return 0;
}

int blocking_sleep_start(struct blocking_table *t, struct blocking_task *bt, const char *kernel,
			 const char *user)
{
	uint32_t site, e;
	int ret;

	blocking_sleep_drop(bt);
	ret = intern(t, kernel, user, &site);
	if (!ret)
		ret = entry_of(bt, site, &e);
	if (ret)
		return ret;
	bt->v[e].count++;
	bt->open = e;
	return 0;
}

void blocking_sleep_end(struct blocking_task *bt, uint64_t ns)
{
	if (bt->open == BLK_NONE)
		return;
	bt->v[bt->open].ns += ns;
	bt->open = BLK_NONE;
}

void blocking_sleep_drop(struct blocking_task *bt)
{
	if (bt->open == BLK_NONE)
		return;
	bt->v[bt->open].count--;
	bt->open = BLK_NONE;
}

/* ---- results ---- */

static int by_site(const void *x, const void *y)
{
	const struct blocking_entry *a = x, *b = y;

	return a->site < b->site ? -1 : a->site > b->site;
}

/* by name, an unknown one last */
static int cmp_name(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a == NULL) - (b == NULL);
}

static int by_time(const void *x, const void *y)
{
	const struct srep_block_site *a = x, *b = y;
	int c;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	c = cmp_name(a->kernel, b->kernel);
	return c ? c : cmp_name(a->user, b->user);
}

size_t blocking_collect(const struct blocking_table *t, const struct blocking_task *const *tasks,
			size_t nr, struct srep_block_site *out, size_t max)
{
	struct blocking_entry *all;
	struct srep_block_site *sites;
	size_t n = 0, i, j, k;

	for (i = 0; i < nr; i++)
		n += tasks[i]->nr;
	all = malloc((n ? n : 1) * sizeof(*all));
	sites = malloc((n ? n : 1) * sizeof(*sites));
	if (!all || !sites) {
		free(all);
		free(sites);
		return (size_t)-1;
	}
	for (i = 0, k = 0; i < nr; i++) {
		if (tasks[i]->nr)	/* a task that never slept has no array */
			memcpy(all + k, tasks[i]->v, tasks[i]->nr * sizeof(*all));
		k += tasks[i]->nr;
	}
	qsort(all, n, sizeof(*all), by_site);
	for (i = 0, k = 0; i < n; i = j) {
		struct srep_block_site *s = &sites[k];

		s->kernel = t->sites[all[i].site].kernel;
		s->user = t->sites[all[i].site].user;
		s->ns = s->count = 0;
		for (j = i; j < n && all[j].site == all[i].site; j++) {
			s->ns += all[j].ns;
			s->count += all[j].count;
		}
		k += s->count || s->ns;	/* a sleep that never was leaves nothing */
	}
	qsort(sites, k, sizeof(*sites), by_time);
	if (max && k)
		memcpy(out, sites, (k < max ? k : max) * sizeof(*out));
	free(all);
	free(sites);
	return k;
}
