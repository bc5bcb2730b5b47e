// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loss.c - the data-loss figure (see loss.h for its definition).
 */
#include <stdlib.h>
#include <string.h>

#include "loss.h"
#include "grow.h"

#define LOSS_MAX_CPUS (1u << 20)	/* CPU numbers from files are capped before indexing */

void loss_tracker_init(struct loss_tracker *lt)
{
	memset(lt, 0, sizeof(*lt));
}

void loss_tracker_free(struct loss_tracker *lt)
{
	free(lt->cpus);
	free(lt->v);
	memset(lt, 0, sizeof(*lt));
}

void loss_tracker_reset(struct loss_tracker *lt)
{
	lt->nr = 0;
	if (lt->nr_cpus)
		memset(lt->cpus, 0, lt->nr_cpus * sizeof(*lt->cpus));
}

static struct loss_cpu *cpu_of(struct loss_tracker *lt, int32_t cpu)
{
	size_t slot = cpu < 0 || (uint32_t)cpu >= LOSS_MAX_CPUS ? 0 : (size_t)cpu + 1, n;
	struct loss_cpu *v;

	if (__builtin_expect(slot < lt->nr_cpus, 1))
		return &lt->cpus[slot];
	n = slot + 8;
	v = realloc(lt->cpus, n * sizeof(*v));
	if (!v)
		return NULL;
	memset(v + lt->nr_cpus, 0, (n - lt->nr_cpus) * sizeof(*v));
	lt->cpus = v;
	lt->nr_cpus = n;
	return &v[slot];
}

static int add_interval(struct loss_tracker *lt, uint64_t start, uint64_t end)
{
	struct loss_interval *n;

	n = grow_array(lt->v, &lt->cap, lt->nr, sizeof(*n), 16);
	if (!n)
		return -1;
	lt->v = n;
	lt->v[lt->nr++] = (struct loss_interval){ start, end };
	return 0;
}

static void close_at(struct loss_tracker *lt, struct loss_cpu *c, uint64_t time)
{
	if (c->open && add_interval(lt, c->open, time) == 0)
		c->open = 0;
}

/* a sample older than the loss waiting on its CPU came before it in time: it
 * moves the interval's start; a newer one ends the interval */
static void on_sample(struct loss_tracker *lt, struct loss_cpu *c, uint64_t time)
{
	if (c->open && time < c->lost_at) {
		if (!c->open_at_sample || time > c->open)
			c->open = time;
		c->open_at_sample = 1;
		return;
	}
	c->last_sample = time;
	close_at(lt, c, time);
}

void loss_on_sample_slow(struct loss_tracker *lt, int32_t cpu, uint64_t time)
{
	struct loss_cpu *c = cpu_of(lt, cpu);

	if (!c)
		return;
	on_sample(lt, c, time);
	if (cpu >= 0 && lt->cpus[0].open)
		on_sample(lt, &lt->cpus[0], time);
}

void loss_on_lost(struct loss_tracker *lt, int32_t cpu, uint64_t time)
{
	struct loss_cpu *c = cpu_of(lt, cpu);

	if (!c)
		return;
	if (!c->open) {
		c->open = c->last_sample ? c->last_sample : time;
		c->open_at_sample = c->last_sample != 0;
		c->lost_at = time;
	} else if (time > c->lost_at) {
		c->lost_at = time;
	}
}

static int cmp_start(const void *a, const void *b)
{
	const struct loss_interval *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static uint64_t union_of(struct loss_interval *v, size_t n)
{
	uint64_t total = 0, start = 0, stop = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_start);
	for (i = 0; i < n; i++) {
		if (i && v[i].start <= stop) {
			if (v[i].end > stop)
				stop = v[i].end;
			continue;
		}
		total += stop - start;
		start = v[i].start;
		stop = v[i].end;
	}
	return total + (stop - start);
}

uint64_t loss_total(struct loss_tracker *lt, uint64_t end)
{
	struct loss_interval *all;
	uint64_t total;
	size_t n = lt->nr, i;

	/* the open intervals join a copy: a later sample may still close them */
	all = malloc((lt->nr + lt->nr_cpus + 1) * sizeof(*all));
	if (!all)
		return lt->nr ? union_of(lt->v, lt->nr) : 0;
	if (lt->nr)
		memcpy(all, lt->v, lt->nr * sizeof(*all));
	for (i = 0; i < lt->nr_cpus; i++) {
		if (lt->cpus[i].open && end >= lt->cpus[i].open)
			all[n++] = (struct loss_interval){ lt->cpus[i].open, end };
	}
	total = n ? union_of(all, n) : 0;
	free(all);
	return total;
}
