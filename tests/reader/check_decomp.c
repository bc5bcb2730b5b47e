// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_decomp.c - zstd COMPRESSED / COMPRESSED2 payloads (src/decomp.c):
 * one stream over all payloads, records split across payloads and the
 * pending tail kept in front, corrupt payloads, the output bound, and
 * whole traces in every compressed form reading the same events as plain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 3000000000ull

/* ------------------------------------------------------------------ */
/* the decompressor alone                                               */
/* ------------------------------------------------------------------ */

/* records of 8..64 bytes whose bytes say where they are */
static uint8_t *record_stream(size_t nr, size_t *len, size_t **ends)
{
	struct fx_buf b = { 0 };
	size_t i, k;

	*ends = calloc(nr, sizeof(**ends));
	for (i = 0; i < nr; i++) {
		size_t size = 8 + 8 * (i % 8);

		tu_u32(&b, 100 + (uint32_t)i);
		tu_u16(&b, 0);
		tu_u16(&b, (uint16_t)size);
		for (k = 8; k < size; k++)
			tu_u8(&b, (uint8_t)(i + k));
		(*ends)[i] = b.len;
	}
	*len = b.len;
	return b.p;
}

/* compress [0, len) as perf does: one stream, flushed at each cut, never ended */
static size_t compress_pieces(const uint8_t *src, const size_t *cuts, size_t nr_cuts,
			      uint8_t **out, size_t *out_len)
{
	ZSTD_CStream *zs = ZSTD_createCStream();
	size_t i, from = 0;

	ck_assert_ptr_nonnull(zs);
	ck_assert(!ZSTD_isError(ZSTD_initCStream(zs, 1)));
	for (i = 0; i < nr_cuts; i++) {
		ZSTD_inBuffer in = { src + from, cuts[i] - from, 0 };
		size_t cap = ZSTD_compressBound(in.size) + 64, r;
		ZSTD_outBuffer o;

		out[i] = malloc(cap);
		o = (ZSTD_outBuffer){ out[i], cap, 0 };
		while (in.pos < in.size)
			ck_assert(!ZSTD_isError(ZSTD_compressStream(zs, &o, &in)));
		do {
			r = ZSTD_flushStream(zs, &o);
			ck_assert(!ZSTD_isError(r));
		} while (r);
		out_len[i] = o.pos;
		from = cuts[i];
	}
	ZSTD_freeCStream(zs);
	return nr_cuts;
}

static int feed(struct decomp *d, const uint8_t *p, size_t len, struct srep_error *err)
{
	uint8_t *copy = tu_exact_copy(p, len);
	int ret = decomp_feed(d, copy, len, err);

	free(copy);
	return ret;
}

/* take whole records off the front, as records.c does; returns bytes taken */
static size_t take_records(struct decomp *d)
{
	size_t len, taken = 0;
	const uint8_t *p = decomp_data(d, &len);

	while (len - taken >= 8 && srep_get16(p + taken + 6, false) <= len - taken)
		taken += srep_get16(p + taken + 6, false);
	decomp_consume(d, taken);
	return taken;
}

/* cut the stream at odd places: inside headers, inside bodies, on boundaries */
START_TEST(records_across_payloads)
{
	static const size_t steps[] = { 1, 5, 13, 64, 999, 4096 };
	size_t len, *ends, k;
	uint8_t *src = record_stream(300, &len, &ends);

	for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
		size_t nr = (len + steps[k] - 1) / steps[k], i, done = 0, pending;
		size_t *cuts = calloc(nr, sizeof(*cuts)), *zlen = calloc(nr, sizeof(*zlen));
		uint8_t **z = calloc(nr, sizeof(*z));
		struct srep_error err = { 0 };
		struct decomp *d = NULL;

		for (i = 0; i < nr; i++)
			cuts[i] = (i + 1) * steps[k] < len ? (i + 1) * steps[k] : len;
		compress_pieces(src, cuts, nr, z, zlen);
		ck_assert_int_eq(decomp_new(&d, &err), 0);
		for (i = 0; i < nr; i++) {
			const uint8_t *p;

			ck_assert_int_eq(feed(d, z[i], zlen[i], &err), 0);
			/* everything up to the cut is out; the unfinished record waits in front */
			p = decomp_data(d, &pending);
			if (done + pending != cuts[i] || memcmp(p, src + done, pending) != 0)
				ck_abort_msg("step %zu, payload %zu: %zu pending after %zu taken", steps[k],
					     i, pending, done);
			done += take_records(d);
			free(z[i]);
		}
		ck_assert_uint_eq(done, len);
		decomp_data(d, &pending);
		ck_assert_uint_eq(pending, 0);
		decomp_free(d);
		free(z);
		free(zlen);
		free(cuts);
	}
	free(src);
	free(ends);
}
END_TEST

/* a rewind starts a fresh stream: the first payload decodes again */
START_TEST(reset_starts_over)
{
	size_t len, *ends, cuts[2], zlen[2], pending;
	uint8_t *src = record_stream(100, &len, &ends), *z[2];
	struct srep_error err = { 0 };
	struct decomp *d = NULL;
	const uint8_t *p;

	cuts[0] = ends[49] + 3;
	cuts[1] = len;
	compress_pieces(src, cuts, 2, z, zlen);
	ck_assert_int_eq(decomp_new(&d, &err), 0);
	ck_assert_int_eq(feed(d, z[0], zlen[0], &err), 0);
	take_records(d);
	decomp_reset(d);
	decomp_data(d, &pending);
	ck_assert_uint_eq(pending, 0);
	ck_assert_int_eq(feed(d, z[0], zlen[0], &err), 0);
	p = decomp_data(d, &pending);
	ck_assert_uint_eq(pending, cuts[0]);
	ck_assert_int_eq(memcmp(p, src, pending), 0);
	/* without the reset, the second payload alone means nothing */
	decomp_reset(d);
	ck_assert_int_eq(feed(d, z[1], zlen[1], &err), SREP_E_ZSTD);
	decomp_free(d);
	decomp_free(NULL);
	free(z[0]);
	free(z[1]);
	free(src);
	free(ends);
}
END_TEST

START_TEST(corrupt_payloads)
{
	static const uint8_t garbage[32] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2 };
	size_t len, *ends, cut, zlen;
	uint8_t *src = record_stream(50, &len, &ends), *z;
	struct srep_error err = { 0 };
	struct decomp *d = NULL;

	ck_assert_int_eq(decomp_new(&d, &err), 0);
	ck_assert_int_eq(feed(d, garbage, sizeof(garbage), &err), SREP_E_ZSTD);
	ck_assert_int_eq(err.code, SREP_E_ZSTD);
	ck_assert_msg(!strncmp(err.msg, "zstd: ", 6) && strlen(err.msg) > 6, "%s", err.msg);
	decomp_free(d);

	/* a frame whose magic is damaged */
	cut = len;
	compress_pieces(src, &cut, 1, &z, &zlen);
	z[0] ^= 0xff;
	ck_assert_int_eq(decomp_new(&d, &err), 0);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(feed(d, z, zlen, &err), SREP_E_ZSTD);
	ck_assert_msg(strstr(err.msg, "zstd: "), "%s", err.msg);
	decomp_free(d);
	free(z);
	free(src);
	free(ends);
}
END_TEST

/* one payload may not grow without bound: 65 MiB of zeros stop at the limit */
START_TEST(output_bound)
{
	size_t big = 65u << 20, cut = big, zlen;
	uint8_t *src = calloc(1, big), *z;
	struct srep_error err = { 0 };
	struct decomp *d = NULL;

	ck_assert_ptr_nonnull(src);
	compress_pieces(src, &cut, 1, &z, &zlen);
	free(src);
	ck_assert_uint_lt(zlen, 1u << 20);
	ck_assert_int_eq(decomp_new(&d, &err), 0);
	ck_assert_int_eq(feed(d, z, zlen, &err), SREP_E_LIMIT);
	ck_assert_msg(strstr(err.msg, "64 MiB"), "%s", err.msg);
	decomp_free(d);
	free(z);
}
END_TEST

/* ------------------------------------------------------------------ */
/* whole traces                                                          */
/* ------------------------------------------------------------------ */

static void scenario(struct fixture *fx)
{
	int i;

	fixture_comm(fx, T0, 0, 10, 10, "server", false);
	fixture_comm(fx, T0 + 1, 1, 20, 20, "client", false);
	fixture_fork(fx, T0 + 2, 0, 11, 10, 11, 10);
	for (i = 0; i < 20; i++) {
		uint64_t t = T0 + 10 + 10 * (uint64_t)i;

		fixture_switch(fx, t, i & 1, "server", 10, 120, FIXTURE_STATE_S, "worker", 11, 120);
		fixture_waking(fx, t + 3, (i + 1) & 1, "server", 10, 120, i & 1);
		fixture_stat_runtime(fx, t + 5, i & 1, "worker", 11, 1000 + (uint64_t)i, 77);
		if (i % 5 == 4)
			fixture_mmap2(fx, t + 6, 0, 10, 10, 0x400000 + 0x1000 * (uint64_t)i, 0x1000,
				      0, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	}
	fixture_exit(fx, T0 + 300, 0, 11, 10, 11, 10);
}

static uint8_t *trace(const struct fixture_opts *o, size_t *len, struct fixture_info *info)
{
	struct fixture *fx = fixture_new(o);
	uint8_t *buf = NULL;

	ck_assert_ptr_nonnull(fx);
	scenario(fx);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	return buf;
}

static void read_all(const uint8_t *buf, size_t len, struct tu_events *ev,
		     struct srep_session **out, struct tu_diag *d)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };

	ck_assert_int_eq(tu_open_mem(buf, len, 0, d, &s, &err), 0);
	ck_assert_msg(tu_collect(s, ev, &err) == 0, "%s", err.msg);
	*out = s;
}

/* every compressed form reads the events of the plain trace, and perf's counts */
START_TEST(every_form_same_events)
{
	static const unsigned splits[] = { 0, 1, 2, 3 }, chunks[] = { 1, 3, 8 };
	int mode;

	for (mode = 0; mode < 4; mode++) {
		struct fixture_opts plain = { .big_endian = mode & 1, .word_size = 8,
					      .pipe = mode & 2 };
		struct tu_events want = { 0 };
		struct srep_session *s;
		size_t len, i, j;
		int two, head;
		uint8_t *buf = trace(&plain, &len, NULL);

		read_all(buf, len, &want, &s, NULL);
		srep_session__delete(s);
		free(buf);
		for (two = 0; two < 2; two++)
			for (head = 0; head < 2; head++)
				for (i = 0; i < 4; i++)
					for (j = 0; j < 3; j++) {
						struct fixture_opts o = plain;
						struct fixture_info info;
						struct tu_events got = { 0 };
						struct tu_diag d = { 0 };
						char why[256];
						int k;

						o.compressed = true;
						o.compressed2 = two;
						o.split_every = splits[i];
						o.chunk_records = chunks[j];
						o.plain_head = head ? 2 : 0;
						buf = trace(&o, &len, &info);
						if (splits[i])
							ck_assert_uint_gt(info.nr_split, 0);
						read_all(buf, len, &got, &s, &d);
						ck_assert_msg(d.n == 0, "%s", d.all);
						ck_assert_msg(tu_events_same(&want, &got, why, sizeof(why)),
							      "zstd%d split %u chunk %u: %s", two + 1,
							      splits[i], chunks[j], why);
						for (k = 0; k < FIXTURE_RECORD_TYPES; k++)
							if (srep_session__stats(s)->records[k] !=
							    info.records[k])
								ck_abort_msg("type %d counted %llu, perf %llu",
									     k, (unsigned long long)
									     srep_session__stats(s)->records[k],
									     (unsigned long long)info.records[k]);
						ck_assert(srep_session__meta(s)->compressed);
						srep_session__delete(s);
						tu_events_free(&got);
						free(buf);
					}
		tu_events_free(&want);
	}
}
END_TEST

/* the bytes that came out of the payloads are counted: all records, here */
START_TEST(decompressed_bytes_counted)
{
	struct fixture_opts plain = { .word_size = 8 }, o = plain;
	struct fixture_info pinfo, info;
	struct tu_events ev = { 0 };
	struct srep_session *s;
	size_t len;
	uint8_t *buf;

	buf = trace(&plain, &len, &pinfo);
	free(buf);
	o.compressed2 = true;
	buf = trace(&o, &len, &info);
	read_all(buf, len, &ev, &s, NULL);
	ck_assert_uint_eq(srep_session__stats(s)->decompressed_bytes, pinfo.data_size);
	ck_assert_uint_eq(srep_session__stats(s)->bytes, info.data_offset + info.data_size);
	/* counted again from zero after a rewind */
	ck_assert_int_eq(srep_session__rewind(s, NULL), 0);
	tu_events_free(&ev);
	ck_assert_int_eq(tu_collect(s, &ev, NULL), 0);
	ck_assert_uint_eq(srep_session__stats(s)->decompressed_bytes, pinfo.data_size);
	srep_session__delete(s);
	tu_events_free(&ev);
	free(buf);
}
END_TEST

/* offset of the first record of 'type' in the data section */
static uint64_t find_record(const uint8_t *buf, const struct fixture_info *info, bool be,
			    uint32_t type)
{
	uint64_t off = info->data_offset, end = info->data_offset + info->data_size;
	bool swap = srep_swap_for(be);

	while (off + 8 <= end) {
		uint32_t t = srep_get32(buf + off, swap);
		uint16_t size = srep_get16(buf + off + 6, swap);

		if (t == type)
			return off;
		ck_assert_uint_ge(size, 8);
		off += size;
	}
	ck_abort_msg("no record of type %u", type);
	return 0;
}

/* a damaged payload is an error naming the COMPRESSED record */
START_TEST(corrupt_payload_in_a_file)
{
	int two;

	for (two = 0; two < 2; two++) {
		struct fixture_opts o = { .big_endian = true, .word_size = 8, .compressed = true,
					  .compressed2 = two };
		struct fixture_info info;
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		struct tu_events ev = { 0 };
		size_t len;
		uint8_t *buf = trace(&o, &len, &info);
		uint32_t type = two ? PERF_RECORD_COMPRESSED2 : PERF_RECORD_COMPRESSED;
		uint64_t rec = find_record(buf, &info, true, type);

		buf[rec + (two ? 16 : 8)] ^= 0xff;		/* the zstd magic */
		ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
		ck_assert_int_eq(tu_collect(s, &ev, &err), SREP_E_ZSTD);
		ck_assert(err.has_offset);
		ck_assert_uint_eq(err.offset, rec);
		ck_assert_str_ne(err.path, "");
		ck_assert_msg(!strncmp(err.msg, "zstd: ", 6), "%s", err.msg);
		srep_session__delete(s);
		tu_events_free(&ev);

		/* COMPRESSED2's size field beyond its record */
		if (two) {
			buf[rec + 16] ^= 0xff;
			srep_put64(buf + rec + 8, 0xffff, true);
			ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
			ck_assert_int_eq(tu_collect(s, &ev, &err), SREP_E_CORRUPT);
			ck_assert_uint_eq(err.offset, rec + 8);
			ck_assert_msg(strstr(err.msg, "compressed size does not fit"), "%s", err.msg);
			srep_session__delete(s);
			tu_events_free(&ev);
		}
		free(buf);
	}
}
END_TEST

/*
 * A pipe cut after a payload that ends inside a record (perf killed): the
 * records before are read, and the unfinished one is reported, not lost
 * without a word.
 */
START_TEST(pending_tail_at_the_end)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true, .compressed = true,
				  .split_every = 1, .chunk_records = 4 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 }, full = { 0 };
	struct tu_diag d = { 0 };
	size_t len, cut = 0;
	uint64_t off = 16;
	uint8_t *buf = trace(&o, &len, &info);

	read_all(buf, len, &full, &s, NULL);
	srep_session__delete(s);
	/* the last COMPRESSED record: the stream is cut right before it */
	while (off + 8 <= len) {
		uint32_t t = srep_get32(buf + off, false);
		uint16_t size = srep_get16(buf + off + 6, false);

		if (t == PERF_RECORD_COMPRESSED)
			cut = (size_t)off;
		off += size + (t == PERF_RECORD_HEADER_TRACING_DATA ? srep_get32(buf + off + 8, false) : 0);
	}
	ck_assert_uint_gt(cut, 0);
	ck_assert_int_eq(tu_open_mem(buf, cut, 0, &d, &s, &err), 0);
	ck_assert_msg(tu_collect(s, &ev, &err) == 0, "%s", err.msg);
	ck_assert_uint_lt(ev.n, full.n);
	ck_assert_uint_gt(ev.n, 0);
	ck_assert_int_eq(d.n, 1);
	ck_assert_int_eq(d.code, SREP_E_TRUNCATED);
	ck_assert_msg(strstr(d.last, "decompressed bytes at the end do not form a record"), "%s",
		      d.last);
	srep_session__delete(s);
	tu_events_free(&ev);
	tu_events_free(&full);
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compress");
	TCase *tc = tcase_create("compress");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, records_across_payloads);
	tcase_add_test(tc, reset_starts_over);
	tcase_add_test(tc, corrupt_payloads);
	tcase_add_test(tc, output_bound);
	tcase_add_test(tc, every_form_same_events);
	tcase_add_test(tc, decompressed_bytes_counted);
	tcase_add_test(tc, corrupt_payload_in_a_file);
	tcase_add_test(tc, pending_tail_at_the_end);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
