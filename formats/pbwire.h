/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbwire.h - a growable buffer that protobuf messages are encoded into,
 * field by field, with no schema and no message objects.
 *
 * Why not protobuf-c (which formats/criu uses): a Perfetto trace is
 * millions of small messages written once and never read back; protobuf-c
 * would need a C struct filled per event, its packed arrays materialized as
 * C arrays, then get_packed_size() and pack() walking each message twice.
 * Here a field is a tag and a varint appended in place; a nested message
 * reserves room for its length and is patched when it ends (the length is
 * then rewritten in its shortest form and the body moved up, so readers see
 * canonical encoding). Packed repeated fields are buffers of bare varints
 * appended as one length-delimited field.
 *
 * A failed allocation sticks (w->nomem) and later calls do nothing: callers
 * check once, where they hand the bytes on.
 */
#ifndef SREP_PBWIRE_H
#define SREP_PBWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pbw_wire { PBW_VARINT = 0, PBW_I64 = 1, PBW_LEN = 2, PBW_I32 = 5 };

/* room reserved for a nested message's length: 4 varint bytes, 256 MiB */
#define PBW_LEN_ROOM	4
#define PBW_MAX_NESTED	((1u << 28) - 1)

struct pbw {
	uint8_t *buf;
	size_t len, cap;
	bool nomem;		/* an allocation failed, or a nested message outgrew 256 MiB */
};

void pbw_free(struct pbw *w);
static inline void pbw_reset(struct pbw *w) { w->len = 0; }
/* room for @n more bytes; false (and w->nomem) when it cannot grow */
bool pbw_reserve(struct pbw *w, size_t n);

/* bytes already encoded (a message's fields) */
void pbw_raw(struct pbw *w, const void *p, size_t n);

/* @v as a varint at @o; returns the end (at most 10 bytes) */
static inline uint8_t *pbw_put_varint(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

/* a bare varint (packed arrays): inline, as CompactSched writes five or six an event */
static inline void pbw_varint(struct pbw *w, uint64_t v)
{
	if ((!w->nomem && w->cap - w->len >= 10) || pbw_reserve(w, 10))
		w->len = (size_t)(pbw_put_varint(w->buf + w->len, v) - w->buf);
}
void pbw_uint(struct pbw *w, uint32_t field, uint64_t v);
/* int32 and int64 fields: negative values take ten bytes, as protobuf says */
static inline void pbw_int(struct pbw *w, uint32_t field, int64_t v)
{
	pbw_uint(w, field, (uint64_t)v);
}
void pbw_bytes(struct pbw *w, uint32_t field, const void *p, size_t n);
/* a C string of at most @max bytes (a comm need not be terminated) */
void pbw_str(struct pbw *w, uint32_t field, const char *s, size_t max);
/* a nested message: pbw_end(w, pbw_begin(w, field)) around its fields */
size_t pbw_begin(struct pbw *w, uint32_t field);
void pbw_end(struct pbw *w, size_t body);

#endif /* SREP_PBWIRE_H */
