// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decomp.c - PERF_RECORD_COMPRESSED / COMPRESSED2 payloads: the only
 * caller of libzstd.
 *
 * All payloads of one input form a single zstd stream that the writer
 * flushes but never ends, so one ZSTD_DStream lives for the whole session.
 * A record may be split across two payloads: undelivered bytes stay at the
 * front of the buffer until the next payload completes them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "reader.h"

#define DECOMP_MAX_PENDING (64u << 20)	/* a record is < 64 KiB; this bounds one payload's output */

struct decomp {
	ZSTD_DStream *zs;
	uint8_t *buf;
	size_t cap, start, end;		/* pending bytes are buf[start, end) */
};

int decomp_new(struct decomp **out, struct srep_error *err)
{
	struct decomp *d = calloc(1, sizeof(*d));

	if (!d)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for decompression");
	d->zs = ZSTD_createDStream();
	if (!d->zs || ZSTD_isError(ZSTD_initDStream(d->zs))) {
		decomp_free(d);
		return srep_error__set(err, SREP_E_ZSTD, "cannot set up zstd decompression");
	}
	*out = d;
	return 0;
}

void decomp_free(struct decomp *d)
{
	if (!d)
		return;
	ZSTD_freeDStream(d->zs);
	free(d->buf);
	free(d);
}

void decomp_reset(struct decomp *d)
{
	ZSTD_initDStream(d->zs);
	d->start = d->end = 0;
}

/* keep the pending tail at the front and make room for more output */
static int make_room(struct decomp *d, struct srep_error *err)
{
	size_t want = ZSTD_DStreamOutSize(), cap;
	uint8_t *nb;

	if (d->start) {
		memmove(d->buf, d->buf + d->start, d->end - d->start);
		d->end -= d->start;
		d->start = 0;
	}
	if (d->cap - d->end >= want)
		return 0;
	if (d->end + want > DECOMP_MAX_PENDING)
		return srep_error__set(err, SREP_E_LIMIT,
				       "decompressed data grows beyond %u MiB without a complete record",
				       DECOMP_MAX_PENDING >> 20);
	/* double: fixed steps would copy a large payload's output over and over */
	cap = d->end + 2 * want > 2 * d->cap ? d->end + 2 * want : 2 * d->cap;
	if (cap > DECOMP_MAX_PENDING + want)
		cap = DECOMP_MAX_PENDING + want;
	nb = realloc(d->buf, cap);
	if (!nb)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for decompressed records");
	d->buf = nb;
	d->cap = cap;
	return 0;
}

/* one ZSTD_decompressStream() call into the room after the pending bytes */
static int decompress_some(struct decomp *d, ZSTD_inBuffer *in, bool *filled,
			   struct srep_error *err)
{
	ZSTD_outBuffer out;
	size_t r;
	int ret;

	ret = make_room(d, err);
	if (ret)
		return ret;
	out.dst = d->buf;
	out.size = d->cap;
	out.pos = d->end;
	r = ZSTD_decompressStream(d->zs, &out, in);
	if (ZSTD_isError(r))
		return srep_error__set(err, SREP_E_ZSTD, "zstd: %s", ZSTD_getErrorName(r));
	d->end = out.pos;
	*filled = out.pos == out.size;
	return 0;
}

int decomp_feed(struct decomp *d, const uint8_t *src, size_t len, struct srep_error *err)
{
	ZSTD_inBuffer in = { src, len, 0 };
	bool filled = false;
	int ret;

	/* consume the payload, then drain what zstd still holds for it */
	do {
		ret = decompress_some(d, &in, &filled, err);
		if (ret)
			return ret;
	} while (in.pos < in.size || filled);
	return 0;
}

const uint8_t *decomp_data(const struct decomp *d, size_t *len)
{
	*len = d->end - d->start;
	/* nothing decompressed yet: no buffer, and NULL + 0 is undefined */
	return d->buf ? d->buf + d->start : NULL;
}

void decomp_consume(struct decomp *d, size_t len)
{
	d->start += len;
	if (d->start == d->end)
		d->start = d->end = 0;
}
