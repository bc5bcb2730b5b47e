// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zstd.c - -z: records wrapped in COMPRESSED (81) records, the only libzstd
 * caller of the recorder. As perf does, all payloads of a file form one zstd
 * stream that is flushed, never ended, after each COMPRESSED record; perf
 * 6.1 knows type 81 only (not COMPRESSED2), so that is what we write.
 *
 * perf decompresses one COMPRESSED record at a time into a buffer of the
 * COMPRESSED feature's mmap_len bytes and fails on a record that yields
 * nothing, so every record holds one flushed slice of at most RZ_SLICE
 * record bytes (whose compressed form fits a record's u16 size). Slices end
 * on record boundaries unless one record is longer than a slice.
 */
#include <stdlib.h>

#include "rec_local.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

struct rec_zstd {
	ZSTD_CCtx *cctx;
};

int rz_new(struct rec_zstd **out, int level, struct srep_error *err)
{
	struct rec_zstd *z = calloc(1, sizeof(*z));

	if (!z || !(z->cctx = ZSTD_createCCtx())) {
		free(z);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for zstd");
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level))) {
		rz_free(z);
		return srep_error__set(err, SREP_E_ZSTD, "zstd refuses level %d", level);
	}
	*out = z;
	return 0;
}

/* the longest run of whole records that fits a slice, or one slice of a long record */
static size_t slice_len(const uint8_t *p, size_t len)
{
	size_t n = 0, size;

	while (n + 8 <= len) {
		size = srep_get16(p + n + 6, false);
		if (size < 8 || n + size > RZ_SLICE)
			break;
		n += size;
	}
	if (n)
		return n;
	return len < RZ_SLICE ? len : RZ_SLICE;
}

static int one_record(struct rec_zstd *z, const uint8_t *in, size_t len, struct rec_buf *out,
		      struct srep_error *err)
{
	size_t bound = ZSTD_compressBound(len), rest;
	ZSTD_inBuffer ib = { in, len, 0 };
	ZSTD_outBuffer ob;
	size_t start = out->len;

	if (buf_reserve(out, 8 + bound))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for compressed records");
	ob = (ZSTD_outBuffer){ out->p + start + 8, bound, 0 };
	do {
		rest = ZSTD_compressStream2(z->cctx, &ob, &ib, ZSTD_e_flush);
		if (ZSTD_isError(rest))
			return srep_error__set(err, SREP_E_ZSTD, "zstd: %s", ZSTD_getErrorName(rest));
	} while (rest && ob.pos < ob.size);
	if (rest || 8 + ob.pos > REC_MAX_RECORD)
		return srep_error__set(err, SREP_E_ZSTD, "zstd output does not fit a record");
	srep_put32(out->p + start, REC_COMPRESSED, REC_BE);
	srep_put16(out->p + start + 4, 0, REC_BE);
	srep_put16(out->p + start + 6, (uint16_t)(8 + ob.pos), REC_BE);
	out->len = start + 8 + ob.pos;
	return 0;
}

int rz_compress(struct rec_zstd *z, const void *in, size_t len, struct rec_buf *out,
		struct srep_error *err)
{
	const uint8_t *p = in;
	size_t n;

	while (len) {
		n = slice_len(p, len);
		if (one_record(z, p, n, out, err))
			return err->code;
		p += n;
		len -= n;
	}
	return 0;
}

void rz_free(struct rec_zstd *z)
{
	if (z)
		ZSTD_freeCCtx(z->cctx);
	free(z);
}

#else /* !HAVE_ZSTD */

struct rec_zstd {
	int unused;
};

int rz_new(struct rec_zstd **out, int level, struct srep_error *err)
{
	(void)level;
	*out = NULL;
	return srep_error__set(err, SREP_E_UNSUPPORTED,
			       "-z: this schedrep was built without libzstd (install libzstd-dev and rebuild)");
}

int rz_compress(struct rec_zstd *z, const void *in, size_t len, struct rec_buf *out,
		struct srep_error *err)
{
	(void)z, (void)in, (void)len, (void)out;
	return srep_error__set(err, SREP_E_UNSUPPORTED, "built without libzstd");
}

void rz_free(struct rec_zstd *z)
{
	free(z);
}
#endif
