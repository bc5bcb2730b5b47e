// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flight.c - the flight recorder's memory: a ring of SIZE bytes holding the
 * newest samples (and the LOST/THROTTLE records that belong to their time),
 * the oldest pushed out as new ones arrive, and a side-band store kept whole
 * (COMM, FORK, EXIT, MMAP*: without them no sample can be attributed).
 *
 * Records are stored whole and never wrap: one that does not fit before the
 * end of the ring leaves a pad (a record header of type 0) and goes to the
 * start. A dump takes a snapshot (side-band, then the ring oldest first),
 * which the writer thread sorts by time.
 */
#include <stdlib.h>
#include <string.h>

#include "rec_local.h"

#define PAD_TYPE	0u

int flight_init(struct rec_flight *f, size_t cap, struct srep_error *err)
{
	memset(f, 0, sizeof(*f));
	f->cap = cap & ~(size_t)7;
	if (f->cap < 2 * REC_MAX_RECORD)
		return srep_error__set(err, SREP_E_INVAL, "--ring needs at least %u KiB",
				       2 * REC_MAX_RECORD / 1024 + 1);
	f->ring = malloc(f->cap);
	if (!f->ring)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a %zu MiB ring", cap >> 20);
	return 0;
}

static bool is_sideband(uint32_t type)
{
	switch (type) {
	case REC_MMAP: case REC_COMM: case REC_EXIT: case REC_FORK: case REC_MMAP2:
	case 16: case 17: case 18: case 19: case 20:	/* namespaces, ksymbol, bpf, cgroup, text_poke */
		return true;
	default:
		return false;
	}
}

static uint16_t size_at(const struct rec_flight *f, size_t pos)
{
	return srep_get16(f->ring + pos + 6, false);
}

static void drop_oldest(struct rec_flight *f)
{
	uint16_t size = size_at(f, f->tail);

	if (srep_get32(f->ring + f->tail, false) != PAD_TYPE) {
		f->dropped++;
		f->samples--;
	}
	f->used -= size;
	f->tail += size;
	if (f->tail >= f->cap)
		f->tail = 0;
}

static void put_pad(struct rec_flight *f)
{
	size_t gap = f->cap - f->head;

	if (!gap)
		return;
	srep_put32(f->ring + f->head, PAD_TYPE, REC_BE);
	srep_put16(f->ring + f->head + 4, 0, REC_BE);
	srep_put16(f->ring + f->head + 6, (uint16_t)gap, REC_BE);
	f->used += gap;
}

static void ring_add(struct rec_flight *f, const uint8_t *p, uint16_t size)
{
	for (;;) {
		if (!f->used)
			f->head = f->tail = 0;
		if (!f->used || f->head > f->tail) {
			if (f->cap - f->head >= size)
				break;
			put_pad(f);
			f->head = 0;
			continue;
		}
		if (f->tail - f->head >= size)
			break;
		drop_oldest(f);
	}
	memcpy(f->ring + f->head, p, size);
	f->head += size;
	f->used += size;
	f->samples++;
}

int flight_add(struct rec_flight *f, const uint8_t *p, uint32_t type, uint16_t size,
	       struct srep_error *err)
{
	if (is_sideband(type)) {
		if (buf_put(&f->sideband, p, size))
			return srep_error__set(err, SREP_E_NOMEM, "no memory to keep the side-band records");
		return 0;
	}
	if (size < 8 || size % 8)
		return 0;
	ring_add(f, p, size);
	return 0;
}

int flight_snapshot(const struct rec_flight *f, struct rec_buf *out, struct srep_error *err)
{
	size_t pos = f->tail, left = f->used, size;

	out->len = 0;
	if (buf_reserve(out, f->sideband.len + f->used) || buf_put(out, f->sideband.p, f->sideband.len))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a dump");
	while (left) {
		size = size_at(f, pos);
		if (srep_get32(f->ring + pos, false) != PAD_TYPE)
			buf_put(out, f->ring + pos, size);	/* reserved above */
		left -= size;
		pos += size;
		if (pos >= f->cap)
			pos = 0;
	}
	return 0;
}

uint64_t flight_newest_sample(const struct rec_layout *lay, const struct rec_buf *snap)
{
	uint64_t newest = 0, t;
	size_t off;
	uint16_t size;

	for (off = 0; off + 8 <= snap->len; off += size) {
		size = srep_get16(snap->p + off + 6, false);
		if (size < 8 || off + size > snap->len)
			break;
		if (srep_get32(snap->p + off, false) != REC_SAMPLE)
			continue;
		t = layout_time(lay, snap->p + off, REC_SAMPLE, size);
		if (t > newest)
			newest = t;
	}
	return newest;
}

void flight_free(struct rec_flight *f)
{
	free(f->ring);
	buf_free(&f->sideband);
	memset(f, 0, sizeof(*f));
}

/* ---- a dump in time order ---- */

struct slot {
	uint64_t time;
	size_t off;
};

static int cmp_slot(const void *x, const void *y)
{
	const struct slot *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

int flight_sort(const struct rec_layout *lay, const struct rec_buf *snap, struct rec_buf *out,
		uint64_t *samples, uint64_t *first, uint64_t *last, struct srep_error *err)
{
	struct slot *slots = malloc((snap->len / 8 + 1) * sizeof(*slots));
	size_t n = 0, off, i;
	uint32_t type;
	uint16_t size;

	*samples = *first = *last = 0;
	out->len = 0;
	if (!slots || buf_reserve(out, snap->len)) {
		free(slots);
		return srep_error__set(err, SREP_E_NOMEM, "no memory to sort a dump");
	}
	for (off = 0; off + 8 <= snap->len; off += size) {
		size = srep_get16(snap->p + off + 6, false);
		if (size < 8 || off + size > snap->len)
			break;
		type = srep_get32(snap->p + off, false);
		slots[n++] = (struct slot){ layout_time(lay, snap->p + off, type, size), off };
	}
	/* records without a time (synthesized) keep their place at the start */
	qsort(slots, n, sizeof(*slots), cmp_slot);
	for (i = 0; i < n; i++) {
		const uint8_t *p = snap->p + slots[i].off;

		size = srep_get16(p + 6, false);
		if (srep_get32(p, false) == REC_SAMPLE) {
			(*samples)++;
			*first = *first ? *first : slots[i].time;
			*last = slots[i].time;
		}
		buf_put(out, p, size);	/* reserved above */
	}
	free(slots);
	return 0;
}
