/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loss.h - the data-loss figure, defined once for every perf.data and used
 * by the reader (schedrep info) and the recorder's summary alike: for each
 * LOST or LOST_SAMPLES record, the interval on its CPU from the last sample
 * before it to the first sample after it (the end of the trace when none
 * follows); a record without a CPU uses the samples of any CPU. Lost time is
 * the union of those intervals. Feed events in time order per CPU, or as a
 * ring holds them (the recorder): there the samples in flight when the
 * kernel wrote the LOST record follow it, older than it, and count as
 * before it, as a reader sorting by time sees them.
 *
 * Dependency-free: the recorder-only build links it too.
 */
#ifndef SREP_LOSS_H
#define SREP_LOSS_H

#include <stddef.h>
#include <stdint.h>

struct loss_tracker {
	struct loss_cpu {		/* index cpu + 1; 0 = records without a CPU */
		uint64_t last_sample;
		uint64_t open;		/* start of an interval waiting for a sample, 0 none */
		uint64_t lost_at;	/* the newest loss record of that interval */
		int open_at_sample;	/* the start is a sample's time, not the loss's */
	} *cpus;
	size_t nr_cpus;
	struct loss_interval { uint64_t start, end; } *v;
	size_t nr, cap;
};

void loss_tracker_init(struct loss_tracker *lt);
void loss_tracker_free(struct loss_tracker *lt);
void loss_tracker_reset(struct loss_tracker *lt);
/* out of memory only makes the figure come out low: never fails a read or a recording */
void loss_on_sample_slow(struct loss_tracker *lt, int32_t cpu, uint64_t time);

/* every sample comes here: the common case (no loss waiting) inline */
static inline void loss_on_sample(struct loss_tracker *lt, int32_t cpu, uint64_t time)
{
	size_t slot = (size_t)cpu + 1;

	if (cpu >= 0 && slot < lt->nr_cpus && !lt->cpus[slot].open && !lt->cpus[0].open) {
		lt->cpus[slot].last_sample = time;
		return;
	}
	loss_on_sample_slow(lt, cpu, time);
}

void loss_on_lost(struct loss_tracker *lt, int32_t cpu, uint64_t time);
/* ns lost: the union of the intervals, those still open ending at 'end' */
uint64_t loss_total(struct loss_tracker *lt, uint64_t end);

#endif /* SREP_LOSS_H */
