// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * account.c - what the summary reports: records, samples per event, LOST and
 * LOST_SAMPLES counts, and the data-loss figure.
 *
 * The figure is defined once for every perf.data (docs/record.md, and
 * 'schedrep info' computes it the same way from a file): for each LOST or
 * LOST_SAMPLES record, the interval on its CPU from the last sample before
 * it to the first sample after it; lost time is the union of those
 * intervals. Each ring holds one CPU's records in time order, so walking
 * the rings as they drain sees exactly what a reader sees in time order.
 */
#include <stdlib.h>
#include <string.h>

#include "rec_local.h"

int account_init(struct rec_account *a, const struct rec_layout *lay, struct rec_evlist *el,
		 size_t nr_slots)
{
	memset(a, 0, sizeof(*a));
	a->lay = lay;
	a->el = el;
	a->nr_slots = nr_slots;
	a->last_sample = calloc(nr_slots ? nr_slots : 1, sizeof(uint64_t));
	a->open = calloc(nr_slots ? nr_slots : 1, sizeof(uint64_t));
	if (!a->last_sample || !a->open) {
		account_free(a);
		return -1;
	}
	return 0;
}

static void loss_sample(struct rec_account *a, size_t slot, uint64_t time)
{
	struct rec_span *n;

	a->last_sample[slot] = time;
	if (!a->open[slot])
		return;
	if (a->nr_spans == a->cap_spans) {
		size_t cap = a->cap_spans ? a->cap_spans * 2 : 16;

		n = realloc(a->spans, cap * sizeof(*n));
		if (!n)
			return;	/* the figure comes out low rather than the recording failing */
		a->spans = n;
		a->cap_spans = cap;
	}
	a->spans[a->nr_spans++] = (struct rec_span){ a->open[slot], time };
	a->open[slot] = 0;
}

static void loss_record(struct rec_account *a, size_t slot, uint64_t time)
{
	if (!a->open[slot])
		a->open[slot] = a->last_sample[slot] ? a->last_sample[slot] : time;
}

void account_record(struct rec_account *a, size_t slot, const uint8_t *p, uint32_t type,
		    uint16_t size)
{
	uint64_t time = layout_time(a->lay, p, type, size);
	int idx;

	a->records++;
	if (time) {
		if (!a->first_time || time < a->first_time)
			a->first_time = time;
		if (time > a->last_time)
			a->last_time = time;
	}
	if (slot >= a->nr_slots)
		slot = 0;
	switch (type) {
	case REC_SAMPLE:
		idx = size >= 16 ? evlist_find(a->el, layout_sample_id(p)) : -1;
		if (idx >= 0)
			a->el->ev[idx].samples++;
		if (time)
			loss_sample(a, slot, time);
		if (time > a->newest_sample)
			a->newest_sample = time;
		break;
	case REC_LOST:
		if (size >= 24)
			a->lost += srep_get64(p + 16, false);
		loss_record(a, slot, time);
		break;
	case REC_LOST_SAMPLES:
		if (size >= 16)
			a->lost_samples += srep_get64(p + 8, false);
		loss_record(a, slot, time);
		break;
	default:
		break;
	}
}

static int cmp_span(const void *x, const void *y)
{
	const struct rec_span *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

uint64_t account_lost_time(struct rec_account *a)
{
	uint64_t total = 0, start = 0, end = 0;
	size_t i;

	if (!a->nr_spans)
		return 0;
	qsort(a->spans, a->nr_spans, sizeof(*a->spans), cmp_span);
	start = a->spans[0].start;
	end = a->spans[0].end;
	for (i = 1; i < a->nr_spans; i++) {
		if (a->spans[i].start <= end) {
			if (a->spans[i].end > end)
				end = a->spans[i].end;
			continue;
		}
		total += end - start;
		start = a->spans[i].start;
		end = a->spans[i].end;
	}
	return total + (end - start);
}

void account_free(struct rec_account *a)
{
	free(a->last_sample);
	free(a->open);
	free(a->spans);
	a->last_sample = a->open = NULL;
	a->spans = NULL;
	a->nr_spans = a->cap_spans = 0;
}
