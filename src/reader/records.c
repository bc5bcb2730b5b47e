// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * records.c - walks the record stream: the data section of a file, a pipe,
 * and the records inside compressed payloads. Every record is counted as
 * perf counts it; header-like records (attrs, tracing data, features, ...)
 * are applied at once; kernel records go through the reorder queue.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define HDR_SIZE	8
#define RESYNC_SCAN	(16u << 20)	/* how far to look for the next valid record */
#define RESYNC_CHAIN	3		/* consecutive plausible headers that prove a resync */
#define FEAT_LAST_KNOWN	31		/* HEADER_FEATURE ids above this are perf's end marker */

struct rec {
	const uint8_t *p;		/* header + body, 'size' bytes */
	uint32_t type;
	uint16_t misc, size;
	uint64_t off;			/* input offset (of the COMPRESSED record when inner) */
	bool inner;
};

static void rec_header(struct srep_session *s, const uint8_t *p, struct rec *r)
{
	r->p = p;
	r->type = srep_get32(p, s->swap);
	r->misc = srep_get16(p + 4, s->swap);
	r->size = srep_get16(p + 6, s->swap);
}

/* ---- resynchronisation after a damaged header ---- */

static bool plausible(struct srep_session *s, const uint8_t *p)
{
	uint32_t type = srep_get32(p, s->swap);
	uint16_t size = srep_get16(p + 6, s->swap);

	return size >= HDR_SIZE && size % 8 == 0 &&
	       ((type >= 1 && type <= PERF_RECORD_CALLCHAIN_DEFERRED) ||
		(type >= PERF_RECORD_HEADER_ATTR && type <= PERF_RECORD_BPF_METADATA));
}

/* a chain of plausible headers starting at 'off'? */
static bool chain_at(struct srep_session *s, uint64_t off)
{
	const uint8_t *p;
	int i;

	for (i = 0; i < RESYNC_CHAIN; i++) {
		if (off >= s->data_end)
			return i > 0;
		if (input_get(&s->in, off, HDR_SIZE, &p, NULL, NULL) || !plausible(s, p))
			return false;
		off += srep_get16(p + 6, s->swap);
	}
	return true;
}

static int resync(struct srep_session *s, const struct rec *bad, struct srep_error *err)
{
	uint64_t off;

	for (off = bad->off + 8; off - bad->off < RESYNC_SCAN && off < s->data_end; off += 8) {
		if (!chain_at(s, off))
			continue;
		diag_warn(s, SREP_E_CORRUPT, bad->off, bad->type,
			  "record of type %u has size %u (expected at least 8, within the data); "
			  "skipped %" PRIu64 " bytes to the next valid record at 0x%" PRIx64,
			  bad->type, bad->size, off - bad->off, off);
		s->stats.skipped_bytes += off - bad->off;
		s->pos = off;
		return 0;
	}
	return diag_err(s, err, SREP_E_CORRUPT, bad->off, bad->type,
			"record of type %u has size %u (expected at least 8, within the data) "
			"and no valid record follows", bad->type, bad->size);
}

/* ---- the pre-upstream Google pipe dialect ---- */

/*
 * ChromiumOS' perf 3.3 (2012) sent header features in-band as records of
 * type 66 + feature id, which collide with today's ID_INDEX, AUXTRACE, ...
 * It is recognised by its first such record: a HOSTNAME (69) holding one
 * str64, where an ID_INDEX would hold a count and 32-byte entries.
 */
#define LEGACY_FEAT_BASE	66
#define LEGACY_FIRST		69	/* HOSTNAME */
#define LEGACY_LAST		81

static bool is_legacy_header(const struct srep_session *s, const struct rec *r)
{
	return r->type >= LEGACY_FIRST && r->type <= LEGACY_LAST && !s->seen_kernel_record;
}

static void detect_legacy(struct srep_session *s, const struct rec *r)
{
	uint32_t len;

	if (!s->pipe || s->seen_kernel_record || r->type != LEGACY_FIRST || r->size < 12)
		return;
	len = srep_get32(r->p + 8, s->swap);
	if (len == r->size - 12u && (r->size - 16u) % 32 != 0)
		s->google_legacy = true;
}

static int apply_legacy(struct srep_session *s, const struct rec *r, struct srep_error *err)
{
	unsigned feat = r->type - LEGACY_FEAT_BASE;
	int ret;

	s->stats.google_legacy_records++;
	if (s->rewound)
		return 0;	/* read again after a rewind: already applied */
	s->meta.features[0] |= 1ull << feat;
	ret = feature_parse(s, feat, r->p + 8, r->size - 8u, r->off + 8, err);
	if (ret)
		diag_warn(s, ret, err && err->has_offset ? err->offset : r->off, r->type,
			  "legacy feature %u: %s", feat, err ? err->msg : "");
	return 0;
}

/* ---- reading the top-level stream ---- */

/* extra bytes some user records carry after their header.size */
static int trailing_payload(struct srep_session *s, const struct rec *r, uint64_t *extra,
			    struct srep_error *err)
{
	*extra = 0;
	if (s->google_legacy && is_legacy_header(s, r))
		return 0;
	if (r->type == PERF_RECORD_HEADER_TRACING_DATA && r->size >= 12) {
		*extra = srep_get32(r->p + 8, s->swap);
		/* simpleperf keeps the blob inside the record, right after the size */
		if (*extra <= r->size - 12u)
			*extra = 0;
	} else if (r->type == PERF_RECORD_AUXTRACE && r->size >= 16)
		*extra = srep_get64(r->p + 8, s->swap);
	if (*extra > SREP_MAX_BLOB && r->type == PERF_RECORD_HEADER_TRACING_DATA)
		return diag_err(s, err, SREP_E_LIMIT, r->off + 8, r->type,
				"tracing data of %" PRIu64 " bytes is above the limit", *extra);
	return 0;
}

/* the input ends inside a record: say how much was read before it */
static int truncated(struct srep_session *s, const struct rec *r, size_t need, size_t avail,
		     struct srep_error *err)
{
	return diag_err(s, err, SREP_E_TRUNCATED, r->off, r->type,
			"record of type %u needs %zu bytes, the input ends after %zu: the %" PRIu64
			" records before it were read, the rest is lost",
			r->type, need, avail, s->stats.total_records);
}

/*
 * The common case, one bounds check: a whole, well-sized record of a file
 * inside the current window. Anything else (nothing changed) takes the
 * careful path.
 */
static bool read_top_mapped(struct srep_session *s, struct rec *r)
{
	struct srep_input *in = &s->in;
	uint64_t off = s->pos, end = in->map_off + in->map_len;
	const uint8_t *p;
	uint16_t size;

	if (s->data_end < end)
		end = s->data_end;
	if (s->pipe || !in->map || off < in->map_off || off >= end || end - off < HDR_SIZE)
		return false;
	p = in->map + (off - in->map_off);
	size = srep_get16(p + 6, s->swap);
	if (size < HDR_SIZE || size > end - off)
		return false;
	rec_header(s, p, r);
	r->off = off;
	r->inner = false;
	if (off + size > in->consumed)
		in->consumed = off + size;
	return true;
}

/* 1 = a record in *r, 0 = end of the stream */
static int read_top(struct srep_session *s, struct rec *r, struct srep_error *err)
{
	const uint8_t *p;
	size_t avail = 0;
	int ret;

	if (read_top_mapped(s, r))
		return 1;
	for (;;) {
		memset(r, 0, sizeof(*r));
		r->off = s->pos;
		if (s->pos >= s->data_end)
			return 0;
		if (!s->pipe && s->data_end - s->pos < HDR_SIZE) {
			diag_warn(s, SREP_E_CORRUPT, s->pos, -1, "%" PRIu64 " bytes after the last "
				  "record do not form a record: ignored", s->data_end - s->pos);
			return 0;
		}
		if (s->pipe)
			input_release(&s->in, s->pos);
		ret = input_get(&s->in, s->pos, HDR_SIZE, &p, &avail, err);
		if (ret == SREP_E_TRUNCATED && (!s->pipe || avail))
			diag_warn(s, SREP_E_TRUNCATED, s->pos, -1,
				  "%zu bytes after the last record do not form a record: ignored", avail);
		if (ret == SREP_E_TRUNCATED && s->pipe)
			return 0;
		if (ret == SREP_E_TRUNCATED && s->data_end == s->in.size)
			return 0;
		if (ret == SREP_E_TRUNCATED)
			return diag_err(s, err, SREP_E_TRUNCATED, s->pos, -1,
					"the data section should go on to 0x%" PRIx64 ", the file ends "
					"at 0x%" PRIx64, s->data_end, s->in.size);
		if (ret)
			return ret;
		rec_header(s, p, r);
		if (r->size >= HDR_SIZE && r->size <= s->data_end - s->pos)
			break;
		if (r->size >= HDR_SIZE && !s->pipe && s->data_end > s->in.size)
			return truncated(s, r, r->size, (size_t)(s->in.size - s->pos), err);
		ret = resync(s, r, err);
		if (ret)
			return ret;
	}
	ret = input_get(&s->in, s->pos, r->size, &r->p, &avail, err);
	if (ret == SREP_E_TRUNCATED)
		return truncated(s, r, r->size, avail, err);
	return ret ? ret : 1;
}

/* ---- applying header-like records ---- */

static int apply_attr(struct srep_session *s, const struct rec *r, struct srep_error *err)
{
	struct perf_attr attr;
	struct evsel *ev;
	uint32_t attr_size;
	size_t body = r->size - HDR_SIZE;

	if (body < 8)
		return diag_err(s, err, SREP_E_CORRUPT, r->off, r->type, "attr record too short");
	attr_size = srep_get32(r->p + HDR_SIZE + 4, s->swap);
	if (!attr_size)
		attr_size = PERF_ATTR_SIZE_VER0;
	if (attr_size > body)
		return diag_err(s, err, SREP_E_CORRUPT, r->off + HDR_SIZE + 4, r->type,
				"attr size %u is larger than its record (%zu bytes)", attr_size, body);
	evsel_attr_decode(&attr, r->p + HDR_SIZE, attr_size, s->meta.big_endian);
	ev = evsel_add(s, &attr, err);
	if (!ev)
		return err ? err->code : SREP_E_NOMEM;
	s->evsels_dirty = true;
	return evsel_add_ids(s, ev, r->p + HDR_SIZE + attr_size, (body - attr_size) / 8, err);
}

/* the blob follows the record (perf), or fills it after its size (simpleperf) */
static int apply_tracing_data(struct srep_session *s, const struct rec *r, uint64_t after,
			      struct srep_error *err)
{
	uint64_t off = r->off + r->size, size = after;
	const uint8_t *p;
	size_t avail = 0;
	int ret;

	if (!after && r->size >= 12) {
		size = srep_get32(r->p + 8, s->swap);
		off = r->off + 12;
	}
	ret = input_get(&s->in, off, (size_t)size, &p, &avail, err);
	if (ret == SREP_E_TRUNCATED)
		return truncated(s, r, (size_t)(off - r->off + size), (size_t)(off - r->off) + avail,
				 err);
	if (ret)
		return ret;
	s->evsels_dirty = true;
	/* tracepoints stay undecoded, but the records can still be read and counted */
	ret = tp_blob_parse(s, p, (size_t)size, off, err);
	if (ret && ret != SREP_E_NOMEM)
		diag_warn(s, ret, err && err->has_offset ? err->offset : r->off, r->type,
			  "%s: tracepoints will not be decoded", err ? err->msg : "bad tracing data");
	return ret == SREP_E_NOMEM ? ret : 0;
}

static int apply_feature(struct srep_session *s, const struct rec *r, struct srep_error *err)
{
	uint64_t feat;
	int ret;

	if (r->size < HDR_SIZE + 8)
		return 0;
	feat = srep_get64(r->p + HDR_SIZE, s->swap);
	if (feat > FEAT_LAST_KNOWN)
		return 0;	/* the end-of-features marker, or a feature we do not know */
	s->meta.features[feat / 64] |= 1ull << (feat % 64);
	ret = feature_parse(s, (unsigned)feat, r->p + 16, r->size - 16u, r->off + 16, err);
	if (ret)
		diag_warn(s, ret, err && err->has_offset ? err->offset : r->off, r->type,
			  "feature %" PRIu64 ": %s", feat, err ? err->msg : "");
	s->evsels_dirty = true;
	return 0;
}

static int apply_event_update(struct srep_session *s, const struct rec *r, struct srep_error *err)
{
	const uint8_t *name, *nul;
	struct evsel *ev;
	size_t len;

	if (r->size < HDR_SIZE + 16 || srep_get64(r->p + HDR_SIZE, s->swap) != 2 /* NAME */)
		return 0;
	ev = evsel_by_id(s, srep_get64(r->p + HDR_SIZE + 8, s->swap));
	if (!ev)
		return 0;
	name = r->p + HDR_SIZE + 16;
	len = r->size - HDR_SIZE - 16u;
	nul = memchr(name, '\0', len);
	if (!nul)
		return diag_err(s, err, SREP_E_CORRUPT, r->off, r->type, "event name is not terminated");
	return evsel_set_name(ev, (const char *)name, true) ?
		srep_error__set(err, SREP_E_NOMEM, "no memory for event names") : 0;
}

static int apply_compressed(struct srep_session *s, const struct rec *r, struct srep_error *err)
{
	const uint8_t *payload = r->p + HDR_SIZE;
	size_t len = r->size - HDR_SIZE, before, after;
	uint64_t data_size;
	int ret;

	if (r->inner)
		return diag_err(s, err, SREP_E_CORRUPT, r->off, r->type,
				"compressed record inside compressed data");
	if (r->type == PERF_RECORD_COMPRESSED2) {
		if (len < 8 || (data_size = srep_get64(payload, s->swap)) > len - 8)
			return diag_err(s, err, SREP_E_CORRUPT, r->off + HDR_SIZE, r->type,
					"compressed size does not fit its record");
		payload += 8;
		len = (size_t)data_size;
	}
	if (!s->dc) {
		ret = decomp_new(&s->dc, err);
		if (ret)
			return ret;
	}
	s->dc_off = r->off;
	decomp_data(s->dc, &before);
	ret = decomp_feed(s->dc, payload, len, err);
	decomp_data(s->dc, &after);
	s->stats.decompressed_bytes += after - before;
	if (ret && err) {
		err->has_offset = true;
		err->offset = r->off;
		snprintf(err->path, sizeof(err->path), "%s", s->path);
	}
	return ret;
}

static int apply_user(struct srep_session *s, const struct rec *r, uint64_t extra,
		      struct srep_error *err)
{
	struct srep_cur c;

	if (s->rewound && r->type != PERF_RECORD_FINISHED_ROUND &&
	    r->type != PERF_RECORD_FINISHED_INIT && r->type != PERF_RECORD_COMPRESSED &&
	    r->type != PERF_RECORD_COMPRESSED2)
		return 0;	/* read again after a rewind: already applied */
	switch (r->type) {
	case PERF_RECORD_HEADER_ATTR:		return apply_attr(s, r, err);
	case PERF_RECORD_HEADER_TRACING_DATA:	return apply_tracing_data(s, r, extra, err);
	case PERF_RECORD_HEADER_FEATURE:	return apply_feature(s, r, err);
	case PERF_RECORD_EVENT_UPDATE:		return apply_event_update(s, r, err);
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:		return apply_compressed(s, r, err);
	case PERF_RECORD_HEADER_BUILD_ID:
		srep_cur_init(&c, r->p, r->size, r->off, s->swap);
		return feature_build_ids(s, &c, err);
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
		order_round(&s->q);
		return 0;
	case PERF_RECORD_SCHEDSTAT_CPU:
	case PERF_RECORD_SCHEDSTAT_DOMAIN:
		return schedstat_record(s, r->type, r->p + HDR_SIZE, r->size - HDR_SIZE, r->off, err);
	default:
		return 0;	/* counted; nothing in it that the model needs */
	}
}

/* ---- kernel records ---- */

static void count_loss(struct srep_session *s, const struct rec *r)
{
	struct evsel *ev;

	if (r->size < HDR_SIZE + 8)
		return;
	if (r->type == PERF_RECORD_LOST && r->size >= HDR_SIZE + 16) {
		s->stats.lost += srep_get64(r->p + HDR_SIZE + 8, s->swap);
	} else if (r->type == PERF_RECORD_LOST_SAMPLES) {
		uint64_t lost = srep_get64(r->p + HDR_SIZE, s->swap);

		s->stats.lost_samples += lost;
		/* perf's per-event "LOST_SAMPLES events" is the sum of the lost counts */
		ev = evsel_for_trailer(s, r->p + HDR_SIZE, r->size - HDR_SIZE);
		if (ev)
			ev->nr_lost_samples += lost;
	}
}

static struct evsel *sample_evsel(struct srep_session *s, const struct rec *r)
{
	struct evsel *ev = evsel_for_sample(s, r->p + HDR_SIZE, r->size - HDR_SIZE);

	if (ev)
		return ev;
	/* counted as perf counts it, but it cannot be decoded */
	s->stats.skipped_records++;
	if (!s->warned_unknown_id) {
		s->warned_unknown_id = true;
		diag_warn(s, SREP_E_CORRUPT, r->off, r->type,
			  "sample without an event id that an attr describes (or too short to "
			  "hold one): counted, not decoded");
	}
	return NULL;
}

/* time and CPU, found without decoding the whole record */
static void when_where(struct srep_session *s, const struct rec *r, struct evsel *ev,
		       uint64_t *time, int32_t *cpu)
{
	const uint8_t *body = r->p + HDR_SIZE;
	size_t len = r->size - HDR_SIZE;
	struct sample sid;

	*time = 0;
	*cpu = -1;
	if (!ev)
		return;
	if (r->type == PERF_RECORD_SAMPLE) {
		if (ev->time_pos >= 0 && (size_t)ev->time_pos * 8 + 8 <= len)
			*time = srep_get64(body + 8 * ev->time_pos, s->swap);
		if (ev->cpu_pos >= 0 && (size_t)ev->cpu_pos * 8 + 4 <= len)
			*cpu = (int32_t)srep_get32(body + 8 * ev->cpu_pos, s->swap);
		return;
	}
	if (sample_id_parse(ev, body, len, s->swap, &sid) == 0) {
		*time = sid.time;
		*cpu = sid.cpu;
	}
}

/*
 * A tracepoint sample of a kind the caller does not read (other samples
 * name the tasks of SWITCH records, so they are always read):
 * its time still bounds the trace and the next round, as if it had been
 * queued, so the events that are read leave the queue at the same points.
 */
static int skip_sample(struct srep_session *s, uint64_t time, int32_t cpu)
{
	if (s->streams && time)
		streams_note_time(s, time);
	order_note_time(&s->q, time);
	session_note_span(s, time, cpu >= 0 && (uint32_t)cpu < SREP_MAX_CPUS ? cpu : -1, true);
	return 0;
}

static int queue_kernel(struct srep_session *s, const struct rec *r, struct evsel *ev,
			struct srep_error *err)
{
	uint64_t time;
	int32_t cpu, idx = ev ? (int32_t)(ev - s->evsels) : -1;
	struct input_window *hold;
	bool late;
	int ret;

	when_where(s, r, ev, &time, &cpu);
	if (ev && (s->skip_kinds & ev->kind_bit) && r->type == PERF_RECORD_SAMPLE)
		return skip_sample(s, time, cpu);
	if (!time) {
		/* perf delivers records without a time at once, in arrival order */
		s->direct = (struct order_entry){ .file_off = r->off, .data = (uint8_t *)r->p,
					       .size = r->size, .evsel = idx, .cpu = cpu };
		return 1;
	}
	if (s->streams)
		streams_note_time(s, time);
	/* decompressed records live in a buffer that moves: those are copied */
	hold = r->inner ? NULL : input_hold(&s->in, r->p, r->size);
	ret = order_push(&s->q, time, cpu, idx, r->p, r->size, r->off, hold, &late);
	if (ret) {
		if (hold)
			input_unhold(hold);
		return srep_error__set(err, ret, "no memory for the reorder queue");
	}
	if (late)
		s->stats.late_events++;
	return 0;
}

/* count and apply one record; 1 = deliver s->direct now */
static int process(struct srep_session *s, const struct rec *r, uint64_t extra,
		   struct srep_error *err)
{
	struct evsel *ev = NULL;

	s->stats.total_records++;
	detect_legacy(s, r);
	if (s->google_legacy && is_legacy_header(s, r))
		return apply_legacy(s, r, err);
	if (r->type < SREP_NR_RECORD_TYPES)
		s->stats.records[r->type]++;
	else
		s->stats.unknown_records++;
	if (r->type >= PERF_RECORD_KERNEL_MAX)
		return apply_user(s, r, extra, err);
	s->seen_kernel_record = true;
	if (r->type == PERF_RECORD_SAMPLE) {
		ev = sample_evsel(s, r);
		if (ev)
			ev->nr_samples++;
	} else {
		count_loss(s, r);
	}
	if (s->count_only || r->size < HDR_SIZE)
		return 0;
	if (s->evsels_dirty) {
		int ret = header_finish_evsels(s, err);

		if (ret)
			return ret;
		s->evsels_dirty = false;
	}
	if (r->type != PERF_RECORD_SAMPLE)
		ev = evsel_for_trailer(s, r->p + HDR_SIZE, r->size - HDR_SIZE);
	return queue_kernel(s, r, ev, err);
}

/* one record from the decompressed data: 1 = got one, 0 = needs more input */
static int read_inner(struct srep_session *s, struct rec *r, struct srep_error *err)
{
	const uint8_t *p;
	size_t len;

	if (!s->dc)
		return 0;
	p = decomp_data(s->dc, &len);
	if (len < HDR_SIZE)
		return 0;
	memset(r, 0, sizeof(*r));
	rec_header(s, p, r);
	r->off = s->dc_off;
	r->inner = true;
	if (r->size < HDR_SIZE)
		return diag_err(s, err, SREP_E_CORRUPT, s->dc_off, r->type,
				"decompressed record of type %u has size %u", r->type, r->size);
	if (len < r->size)
		return 0;
	return 1;
}

/* the input ended inside a record that compressed payloads had begun (a cut recording) */
static void drop_pending_tail(struct srep_session *s)
{
	size_t len = 0;

	if (s->dc)
		decomp_data(s->dc, &len);
	if (!len)
		return;
	diag_warn(s, SREP_E_TRUNCATED, s->dc_off, -1, "%zu decompressed bytes at the end do not "
		  "form a record: ignored", len);
	decomp_consume(s->dc, len);
}

/* the next record of the stream itself (1), past its trailing payload; 0 = the end */
static int next_top(struct srep_session *s, struct rec *r, uint64_t *extra, struct srep_error *err)
{
	int ret;

	if (s->streams && (ret = streams_pick(s, err)))
		return ret;
	ret = read_top(s, r, err);
	if (ret == 0)
		drop_pending_tail(s);
	if (ret <= 0)
		return ret;
	ret = trailing_payload(s, r, extra, err);
	if (ret)
		return ret;
	s->pos += r->size + *extra;
	s->stats.bytes = s->pos;
	return 1;
}

/*
 * Read and process one record: 2 = done, 1 = deliver s->direct now, 0 = the
 * end. One call of process(): the compiler then inlines it.
 */
static int step(struct srep_session *s, struct srep_error *err)
{
	uint64_t extra = 0;
	struct rec r;
	int ret;

	ret = read_inner(s, &r, err);
	if (ret == 0)
		ret = next_top(s, &r, &extra, err);
	if (ret <= 0)
		return ret;
	ret = process(s, &r, extra, err);
	if (r.inner)
		decomp_consume(s->dc, r.size);
	return ret < 0 ? ret : ret ? 1 : 2;
}

static int records_pending_error(struct srep_session *s, struct srep_error *err)
{
	int ret = s->pending_err;

	if (err)
		*err = s->pending_error;
	return ret;
}

int records_next(struct srep_session *s, const struct order_entry **out, struct srep_error *err)
{
	const struct order_entry *e;
	int ret;

	for (;;) {
		e = order_peek(&s->q);
		if (e) {
			s->pop_pending = true;
			*out = e;
			return 1;
		}
		if (s->eof)
			return s->pending_err ? records_pending_error(s, err) : 0;
		ret = step(s, err);
		if (ret < 0 && ret != SREP_E_NOMEM) {
			/* hand out what was read before the damage, then the error */
			s->pending_err = ret;
			s->pending_error = err ? *err : (struct srep_error){ .code = ret };
			s->eof = true;
			order_flush_all(&s->q);
			continue;
		}
		if (ret < 0)
			return ret;
		if (ret == 1) {
			*out = &s->direct;
			return 1;
		}
		if (ret == 0) {
			s->eof = true;
			order_flush_all(&s->q);
		}
	}
}

int records_count_all(struct srep_session *s, struct srep_error *err)
{
	int ret;

	s->count_only = true;
	do {
		ret = step(s, err);
	} while (ret > 0);
	s->eof = true;
	return ret;
}

void records_reset(struct srep_session *s)
{
	s->pos = s->data_start;
	s->eof = false;
	s->pending_err = 0;
	s->seen_kernel_record = false;	/* the legacy dialect's header records come first again */
	s->pop_pending = false;
	order_reset(&s->q);
	if (s->dc)
		decomp_reset(s->dc);
	if (s->streams)
		streams_reset(s);
}
