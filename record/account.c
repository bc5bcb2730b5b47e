// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * account.c - what the summary reports: records, samples per event, LOST and
 * LOST_SAMPLES counts, and the data-loss figure.
 *
 * The figure is defined once for every perf.data, in src/loss.c, which
 * 'schedrep info' uses too. Each ring holds one CPU's records in time
 * order, so walking the rings as they drain sees per CPU exactly what a
 * reader sees in time order.
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
	loss_tracker_init(&a->loss);
	return 0;
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
			loss_on_sample(&a->loss, (int32_t)slot, time);
		if (time > a->newest_sample)
			a->newest_sample = time;
		break;
	case REC_LOST:
		if (size >= 24)
			a->lost += srep_get64(p + 16, false);
		loss_on_lost(&a->loss, (int32_t)slot, time);
		break;
	case REC_LOST_SAMPLES:
		if (size >= 16)
			a->lost_samples += srep_get64(p + 8, false);
		loss_on_lost(&a->loss, (int32_t)slot, time);
		break;
	default:
		break;
	}
}

uint64_t account_lost_time(struct rec_account *a)
{
	return loss_total(&a->loss, a->last_time);
}

void account_free(struct rec_account *a)
{
	loss_tracker_free(&a->loss);
}
