/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tp_local.h - what tp.c (formats, payloads), tp_blob.c (the tracing data
 * blob), tp_native.c (sched events' text) and tp_synth.c (a value's text)
 * share. Only those files include libtraceevent.
 */
#ifndef SREP_TP_LOCAL_H
#define SREP_TP_LOCAL_H

#include <event-parse.h>

#include "reader.h"

struct tp_event;

struct tp_ctx {
	struct tep_handle *tep;
	bool seen;			/* a blob arrived: later ones are ignored */
	bool has_data;			/* ... and parsed */
	bool big_endian;
	struct tp_event *events;
};

/*
 * Where a __data_loc / __rel_loc field's data lies in a payload of n bytes:
 * the field (off, size 2: pre-3.x, offset only, up to the end; size 4:
 * offset and length) read in the payload's byte order; false when the
 * field or its data is outside the payload.
 */
static inline bool tp_loc_region(uint32_t off, uint32_t size, bool rel, const uint8_t *raw,
				 uint32_t n, bool swap, uint32_t *data_off, uint32_t *data_len)
{
	uint64_t v, o, l;

	if (!size || size > n || off > n - size || !srep_get_uint(raw + off, size, swap, &v))
		return false;
	if (size == 2) {
		o = v;
		l = o <= n ? n - o : 0;
	} else {
		o = v & 0xffff;
		l = (v >> 16) & 0xffff;
	}
	if (rel)
		o += off + size;
	if (o > n || l > n - o)
		return false;
	*data_off = (uint32_t)o;
	*data_len = (uint32_t)l;
	return true;
}

/* tp_synth.c: libtraceevent's text for one value of one field (the key) */
struct tp_synth {
	struct tep_handle *tep;
	uint8_t *rec;			/* the format's fixed part, zeroes and common_type */
	uint32_t size, key_off, key_size;
	bool big_endian;
};
/* 0; SREP_E_CORRUPT for a layout no record could have; SREP_E_NOMEM */
int tp_synth_init(struct tp_synth *s, struct tep_handle *tep, struct tep_event *tev,
		  uint32_t key_off, uint32_t key_size, bool big_endian);
/* true and the text in 'seq' (the caller destroys it) for the record holding v */
bool tp_synth_print(struct tp_synth *s, uint64_t v, struct trace_seq *seq);
void tp_synth_free(struct tp_synth *s);

/*
 * tp_native.c: the text tep_print_event() prints for a sched_* event, made
 * without it per event. NULL when the event's print format has more than
 * the native printer knows (then libtraceevent prints it).
 */
struct tp_native;
struct tp_native *tp_native_new(struct tep_handle *tep, struct tep_event *tev, bool big_endian);
void tp_native_free(struct tp_native *nv);
/* snprintf rules into buf; -1 when this payload is libtraceevent's to print */
int tp_native_print(struct tp_native *nv, const uint8_t *raw, uint32_t n, char *buf,
		    size_t size);

/* tp_print()'s two ways, for tests that compare them; the payload checked first */
int tp_print_native(const struct tp_event *t, const uint8_t *raw, uint32_t n, char *buf,
		    size_t size);	/* -1: not natively */
int tp_print_tep(const struct tp_event *t, const uint8_t *raw, uint32_t n, int32_t cpu,
		 char *buf, size_t size);

#endif /* SREP_TP_LOCAL_H */
