// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pbwire.c - protobuf wire encoding into a growable buffer (see pbwire.h
 * for why not protobuf-c).
 */
#include <stdlib.h>
#include <string.h>

#include "pbwire.h"

void pbw_free(struct pbw *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}

bool pbw_reserve(struct pbw *w, size_t n)
{
	size_t cap;
	uint8_t *b;

	if (w->nomem)
		return false;
	if (w->cap - w->len >= n)
		return true;
	cap = w->cap ? w->cap : 256;
	while (cap - w->len < n) {
		if (cap > SIZE_MAX / 2) {
			w->nomem = true;
			return false;
		}
		cap *= 2;
	}
	b = realloc(w->buf, cap);
	if (!b) {
		w->nomem = true;
		return false;
	}
	w->buf = b;
	w->cap = cap;
	return true;
}

void pbw_raw(struct pbw *w, const void *p, size_t n)
{
	if (n && pbw_reserve(w, n)) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
	}
}

static void tag(struct pbw *w, uint32_t field, enum pbw_wire wire)
{
	pbw_varint(w, (uint64_t)field << 3 | wire);
}

void pbw_uint(struct pbw *w, uint32_t field, uint64_t v)
{
	if (pbw_reserve(w, 20)) {
		uint8_t *o = pbw_put_varint(w->buf + w->len, (uint64_t)field << 3 | PBW_VARINT);

		w->len = (size_t)(pbw_put_varint(o, v) - w->buf);
	}
}

void pbw_bytes(struct pbw *w, uint32_t field, const void *p, size_t n)
{
	if (!pbw_reserve(w, n + 20))
		return;
	tag(w, field, PBW_LEN);
	pbw_varint(w, n);
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void pbw_str(struct pbw *w, uint32_t field, const char *s, size_t max)
{
	/* SIZE_MAX: any length (as a strnlen bound it exceeds every object: gcc warns) */
	pbw_bytes(w, field, s, max == SIZE_MAX ? strlen(s) : strnlen(s, max));
}

size_t pbw_begin(struct pbw *w, uint32_t field)
{
	if (!pbw_reserve(w, 10 + PBW_LEN_ROOM))
		return 0;
	tag(w, field, PBW_LEN);
	w->len += PBW_LEN_ROOM;
	return w->len;
}

void pbw_end(struct pbw *w, size_t body)
{
	size_t n, room;
	uint8_t len[10], *end;

	if (w->nomem)
		return;
	n = w->len - body;
	if (n > PBW_MAX_NESTED) {
		w->nomem = true;
		return;
	}
	end = pbw_put_varint(len, n);
	room = (size_t)(end - len);
	/* the shortest length, and the body moved up to meet it */
	memcpy(w->buf + body - PBW_LEN_ROOM, len, room);
	if (room < PBW_LEN_ROOM) {
		memmove(w->buf + body - PBW_LEN_ROOM + room, w->buf + body, n);
		w->len -= PBW_LEN_ROOM - room;
	}
}
