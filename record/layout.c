// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout.c - where the fields the recorder needs sit inside the records the
 * kernel writes for our sample_type: a SAMPLE's time and RAW payload, and the
 * time in the sample_id trailer of other records. The recorder reads its own
 * kernel's records (host byte order), but still checks every size: a record
 * that does not hold what its size says is counted, never read past.
 */
#include "rec_local.h"

void layout_init(struct rec_layout *l, uint64_t st)
{
	size_t off = 8;

	l->sample_type = st;
	off += st & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	off += st & PERF_SAMPLE_IP ? 8 : 0;
	off += st & PERF_SAMPLE_TID ? 8 : 0;
	l->time_off = st & PERF_SAMPLE_TIME ? off : 0;
	off += st & PERF_SAMPLE_TIME ? 8 : 0;
	off += st & PERF_SAMPLE_ADDR ? 8 : 0;
	off += st & PERF_SAMPLE_ID ? 8 : 0;
	off += st & PERF_SAMPLE_STREAM_ID ? 8 : 0;
	off += st & PERF_SAMPLE_CPU ? 8 : 0;
	off += st & PERF_SAMPLE_PERIOD ? 8 : 0;
	l->callchain_off = off;
	l->callchain = st & PERF_SAMPLE_CALLCHAIN;

	/* the trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER, 8 bytes each */
	l->trailer_size = 8 * (size_t)(!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
				       !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
				       !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
	l->trailer_time_back = !(st & PERF_SAMPLE_TIME) ? 0 :
		8 * (size_t)(1 + !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
			     !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

uint64_t layout_time(const struct rec_layout *l, const uint8_t *p, uint32_t type, uint16_t size)
{
	if (type == REC_SAMPLE)
		return l->time_off && l->time_off + 8 <= size ? srep_get64(p + l->time_off, false) : 0;
	/* user-space types (64 and up) carry no trailer */
	if (type >= 64 || !l->trailer_time_back || size < 8 + l->trailer_size)
		return 0;
	return srep_get64(p + size - l->trailer_time_back, false);
}

bool layout_raw(const struct rec_layout *l, const uint8_t *p, uint16_t size,
		const uint8_t **raw, uint32_t *raw_size)
{
	size_t off = l->callchain_off;
	uint64_t nr;
	uint32_t n;

	if (!(l->sample_type & PERF_SAMPLE_RAW))
		return false;
	if (l->callchain) {
		if (off + 8 > size)
			return false;
		nr = srep_get64(p + off, false);
		if (nr > (size - off - 8) / 8)
			return false;
		off += 8 + 8 * (size_t)nr;
	}
	if (off + 4 > size)
		return false;
	n = srep_get32(p + off, false);
	if (n > size - off - 4)
		return false;
	*raw = p + off + 4;
	*raw_size = n;
	return true;
}
