// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint_intervals.c - the execution cut into intervals of a fixed count:
 * each sample's period is added to the interval it falls in (split at a
 * boundary), under the name of the code it sampled.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/simpoint.h>
#include "grow.h"
#include "simpoint.h"

#define SP_FIRST_SLOTS 256u

int srep_simpoint__new(struct srep_simpoint **out, uint64_t interval, struct srep_error *err)
{
	struct srep_simpoint *sp;

	*out = NULL;
	if (!interval)
		return srep_error__set(err, SREP_E_INVAL, "the interval must be at least 1");
	sp = calloc(1, sizeof(*sp));
	if (sp)
		sp->slots = calloc(SP_FIRST_SLOTS, sizeof(*sp->slots));
	if (!sp || !sp->slots) {
		free(sp);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for intervals");
	}
	sp->nr_slots = SP_FIRST_SLOTS;
	sp->interval = interval;
	*out = sp;
	return 0;
}

void srep_simpoint__delete(struct srep_simpoint *sp)
{
	size_t i;

	if (!sp)
		return;
	for (i = 0; i < sp->nr_names; i++)
		free(sp->names[i]);
	for (i = 0; i < sp->nr_iv; i++) {
		free(sp->iv[i].threads);
		free(sp->iv[i].dims);
		free(sp->iv[i].counts);
	}
	free(sp->names);
	free(sp->slots);
	free(sp->acc);
	free(sp->touched);
	free(sp->tids);
	free(sp->iv);
	free(sp);
}

/* FNV-1a: short keys, a table we own; no need for more */
static uint64_t hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

/* the slot holding @key, or the empty one where it belongs */
static uint32_t *find_slot(const struct srep_simpoint *sp, const char *key)
{
	size_t mask = sp->nr_slots - 1, i = hash_name(key) & mask;

	while (sp->slots[i] && strcmp(sp->names[sp->slots[i] - 1], key))
		i = (i + 1) & mask;
	return &sp->slots[i];
}

/* twice the slots, every name placed again; keeps the load under a half */
static int rehash(struct srep_simpoint *sp)
{
	uint32_t *old = sp->slots;
	size_t i, n = sp->nr_slots;

	sp->slots = calloc(2 * n, sizeof(*sp->slots));
	if (!sp->slots) {
		sp->slots = old;
		return -1;
	}
	sp->nr_slots = 2 * n;
	for (i = 0; i < n; i++)
		if (old[i])
			*find_slot(sp, sp->names[old[i] - 1]) = old[i];
	free(old);
	return 0;
}

/* the dimension of @key, made on first sight; -1 without memory */
static int64_t intern(struct srep_simpoint *sp, const char *key)
{
	uint32_t *slot = find_slot(sp, key);
	char **names;
	double *acc;

	if (*slot)
		return *slot - 1;
	if (sp->nr_names >= UINT32_MAX - 1)
		return -1;
	names = grow_array(sp->names, &sp->cap_names, sp->nr_names, sizeof(*names), 64);
	if (!names)
		return -1;
	sp->names = names;
	if (sp->cap_acc < sp->cap_names) {
		acc = realloc(sp->acc, sp->cap_names * sizeof(*acc));
		if (!acc)
			return -1;
		memset(acc + sp->cap_acc, 0, (sp->cap_names - sp->cap_acc) * sizeof(*acc));
		sp->acc = acc;
		sp->cap_acc = sp->cap_names;
	}
	names[sp->nr_names] = strdup(key);
	if (!names[sp->nr_names])
		return -1;
	*slot = (uint32_t)++sp->nr_names;
	if (2 * sp->nr_names > sp->nr_slots && rehash(sp))
		return -1;
	return sp->nr_names - 1;
}

/* @tid among the open interval's threads, kept ascending */
static int add_tid(struct srep_simpoint *sp, int32_t tid)
{
	size_t i = sp->nr_tids;
	int32_t *t;

	while (i && sp->tids[i - 1] > tid)
		i--;
	if (i && sp->tids[i - 1] == tid)
		return 0;
	t = grow_array(sp->tids, &sp->cap_tids, sp->nr_tids, sizeof(*t), 8);
	if (!t)
		return -1;
	sp->tids = t;
	memmove(t + i + 1, t + i, (sp->nr_tids - i) * sizeof(*t));
	t[i] = tid;
	sp->nr_tids++;
	return 0;
}

static int add_count(struct srep_simpoint *sp, uint32_t dim, double count)
{
	uint32_t *t;

	if (sp->acc[dim] == 0) {
		t = grow_array(sp->touched, &sp->cap_touched, sp->nr_touched, sizeof(*t), 64);
		if (!t)
			return -1;
		sp->touched = t;
		t[sp->nr_touched++] = dim;
	}
	sp->acc[dim] += count;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* the open interval becomes interval nr_iv; the next one starts at @next_time */
static int close_interval(struct srep_simpoint *sp, uint64_t next_time)
{
	struct sp_interval *iv = grow_array(sp->iv, &sp->cap_iv, sp->nr_iv, sizeof(*iv), 64);
	size_t i, n = sp->nr_touched;

	if (!iv)
		return -1;
	sp->iv = iv;
	iv += sp->nr_iv;
	memset(iv, 0, sizeof(*iv));
	iv->dims = malloc((n ? n : 1) * sizeof(*iv->dims));
	iv->counts = malloc((n ? n : 1) * sizeof(*iv->counts));
	iv->threads = malloc((sp->nr_tids ? sp->nr_tids : 1) * sizeof(*iv->threads));
	if (!iv->dims || !iv->counts || !iv->threads) {
		free(iv->dims);
		free(iv->counts);
		free(iv->threads);
		return -1;
	}
	qsort(sp->touched, n, sizeof(*sp->touched), cmp_u32);
	for (i = 0; i < n; i++) {
		iv->dims[i] = sp->touched[i];
		iv->counts[i] = sp->acc[sp->touched[i]];
		sp->acc[sp->touched[i]] = 0;
	}
	memcpy(iv->threads, sp->tids, sp->nr_tids * sizeof(*iv->threads));
	iv->pub = (struct srep_simpoint_interval){
		.start = sp->nr_iv * sp->interval, .end = sp->pos, .time_ns = sp->open_time,
		.samples = sp->open_samples,
		.threads = iv->threads, .nr_threads = sp->nr_tids,
		.dims = iv->dims, .counts = iv->counts, .nr_dims = n, .cluster = -1,
	};
	sp->nr_iv++;
	sp->nr_touched = sp->nr_tids = 0;
	sp->open_time = next_time;
	sp->open_samples = 0;
	return 0;
}

/* one sample being added: its end, the previous sample's time, its thread and count */
struct sp_sample {
	uint64_t time, prev, period;
	int32_t tid;
};

/* counts [*done, *done + part) of the sample into @dim, closing intervals on the way */
static int add_part(struct srep_simpoint *sp, const struct sp_sample *x, uint64_t *done,
		    uint64_t part, uint32_t dim)
{
	uint64_t room, take;

	while (part) {
		room = (sp->nr_iv + 1) * sp->interval - sp->pos;
		take = part < room ? part : room;
		if (add_count(sp, dim, (double)take))
			return -1;
		sp->pos += take;
		sp->open_samples += (double)take / (double)x->period;
		part -= take;
		*done += take;
		if (take < room)
			break;
		/* the boundary's instant, between the previous sample and this one */
		if (close_interval(sp, x->prev + (uint64_t)((double)(x->time - x->prev) *
							    (double)*done / (double)x->period)) ||
		    (*done < x->period && add_tid(sp, x->tid)))
			return -1;
	}
	return 0;
}

/* where the parts up to cumulative weight @cum end: exact at the last one */
static uint64_t part_end(uint64_t period, uint64_t cum, uint64_t total, uint64_t floor_)
{
	uint64_t end = cum == total ? period
				    : (uint64_t)((double)period * ((double)cum / (double)total));

	return end < floor_ ? floor_ : end > period ? period : end;
}

int srep_simpoint__add_parts(struct srep_simpoint *sp, uint64_t time, int32_t tid,
			     uint64_t period, const char *const *keys, const uint64_t *weights,
			     size_t n, struct srep_error *err)
{
	struct sp_sample x = { .time = time, .prev = sp->started ? sp->last_time : time,
			       .period = period, .tid = tid };
	uint64_t total = 0, cum = 0, done = 0, end;
	size_t i;
	int64_t dim;

	for (i = 0; i < n; i++) {
		if (weights[i] > UINT64_MAX - total)
			return srep_error__set(err, SREP_E_INVAL, "the parts' weights overflow");
		total += weights[i];
	}
	if (!total)
		return srep_error__set(err, SREP_E_INVAL, "a sample with no part to count");
	if (period > UINT64_MAX - sp->pos ||
	    (sp->pos + period) / sp->interval >= SREP_SIMPOINT_MAX_INTERVALS)
		return srep_error__set(err, SREP_E_LIMIT, "more than %u intervals (a period of %"
				       PRIu64 " at count %" PRIu64 "): use a longer interval",
				       SREP_SIMPOINT_MAX_INTERVALS, period, sp->pos);
	if (add_tid(sp, tid))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for interval vectors");
	if (x.prev > time)	/* a late event: no going back in time */
		x.prev = time;
	if (!sp->started)
		sp->open_time = time;
	sp->started = true;
	for (i = 0; i < n; i++) {
		cum += weights[i];
		end = part_end(period, cum, total, done);
		if (end == done)
			continue;
		dim = intern(sp, keys[i]);
		if (dim < 0 || add_part(sp, &x, &done, end - done, (uint32_t)dim))
			return srep_error__set(err, SREP_E_NOMEM, "no memory for intervals");
	}
	sp->last_time = time;
	return 0;
}

int srep_simpoint__add(struct srep_simpoint *sp, uint64_t time, int32_t tid, uint64_t period,
		       const char *key, struct srep_error *err)
{
	const uint64_t one = 1;

	return srep_simpoint__add_parts(sp, time, tid, period, &key, &one, 1, err);
}

int srep_simpoint__finish(struct srep_simpoint *sp, struct srep_error *err)
{
	if (sp->pos > sp->nr_iv * sp->interval && close_interval(sp, sp->last_time))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for intervals");
	return 0;
}

size_t srep_simpoint__nr_intervals(const struct srep_simpoint *sp)
{
	return sp->nr_iv;
}

const struct srep_simpoint_interval *srep_simpoint__interval(const struct srep_simpoint *sp,
							     size_t idx)
{
	return idx < sp->nr_iv ? &sp->iv[idx].pub : NULL;
}

size_t srep_simpoint__nr_dims(const struct srep_simpoint *sp)
{
	return sp->nr_names;
}

const char *srep_simpoint__dim_name(const struct srep_simpoint *sp, uint32_t dim)
{
	return dim < sp->nr_names ? sp->names[dim] : NULL;
}

uint64_t srep_simpoint__total(const struct srep_simpoint *sp)
{
	return sp->pos;
}
