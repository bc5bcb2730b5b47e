// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_records.c - the record stream (src/records.c) beyond the plain
 * cases the reader and damage suites cover: the dialects other writers
 * produce (simpleperf's tracing data inside its record, ChromiumOS perf
 * 3.3's in-band header features), bytes after the last record, and the
 * counting-only walk agreeing with the full one.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 1000000000ull

static uint8_t *pipe_trace(size_t *len)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true };
	struct fixture *fx = fixture_new(&o);
	uint8_t *buf = NULL;

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, T0, 0, 10, 10, "sleeper", false);
	fixture_switch(fx, T0 + 10, 0, "sleeper", 10, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_switch(fx, T0 + 20, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "sleeper", 10, 120);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, NULL), 0);
	fixture_free(fx);
	return buf;
}

/* offset of the first record of 'type' in a little-endian pipe stream */
static size_t find_record(const uint8_t *p, size_t len, uint32_t type)
{
	size_t off = 16;

	while (off + 8 <= len && srep_get32(p + off, false) != type) {
		uint32_t t = srep_get32(p + off, false);

		off += srep_get16(p + off + 6, false) +
		       (t == PERF_RECORD_HEADER_TRACING_DATA ? srep_get32(p + off + 8, false) : 0);
	}
	ck_assert_uint_lt(off, len);
	return off;
}

static void read_switches(const uint8_t *buf, size_t len, struct tu_diag *d, size_t want)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	const struct srep_event *sw;

	ck_assert_int_eq(tu_open_mem(buf, len, 0, d, &s, &err), 0);
	ck_assert_msg(tu_collect(s, &ev, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_SWITCH), want);
	sw = tu_find(&ev, SREP_EV_SWITCH, T0 + 10);
	ck_assert_ptr_nonnull(sw);
	ck_assert_str_eq(sw->u.sw.prev_comm, "sleeper");	/* the tracepoint was decoded */
	ck_assert_int_eq(sw->u.sw.prev_state, 'S');
	tu_events_free(&ev);
	srep_session__delete(s);
}

/* simpleperf writes the blob inside HEADER_TRACING_DATA, right after its size */
START_TEST(tracing_data_inside_the_record)
{
	size_t len, off, blob, pad, i;
	uint8_t *buf = pipe_trace(&len), *out;
	struct fx_buf b = { 0 };

	off = find_record(buf, len, PERF_RECORD_HEADER_TRACING_DATA);
	blob = srep_get32(buf + off + 8, false);
	pad = srep_get16(buf + off + 6, false);		/* perf's record: 16 bytes */
	ck_assert_uint_lt(12 + blob, 65536);
	tu_put(&b, buf, off);
	tu_u32(&b, PERF_RECORD_HEADER_TRACING_DATA);
	tu_u16(&b, 0);
	tu_u16(&b, (uint16_t)(12 + blob));
	tu_u32(&b, (uint32_t)blob);
	tu_put(&b, buf + off + pad, blob);
	tu_put(&b, buf + off + pad + blob, len - off - pad - blob);
	out = b.p;
	for (i = 0; i < 2; i++)	/* as perf writes it, and as simpleperf does */
		read_switches(i ? out : buf, i ? b.len : len, NULL, 2);
	tu_buf_free(&b);
	free(buf);
}
END_TEST

/* ChromiumOS perf 3.3: header features as records of type 66 + feature id */
START_TEST(google_legacy_features)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	struct fx_buf b = { 0 };
	size_t start;
	int ret;

	tu_put(&b, "PERFILE2", 8);
	tu_u64(&b, 16);
	start = b.len;
	tu_u32(&b, 69);			/* HOSTNAME, where ID_INDEX is now */
	tu_u16(&b, 0);
	tu_u16(&b, 8 + 4 + 64);
	tu_str64(&b, "legacyhost");
	ck_assert_uint_eq(b.len - start, 76);
	tu_u32(&b, 71);			/* VERSION, where AUXTRACE is now: no payload follows */
	tu_u16(&b, 0);
	tu_u16(&b, 8 + 4 + 64);
	tu_str64(&b, "3.3.0-7-GOOGLE");
	tu_u32(&b, 72);			/* ARCH */
	tu_u16(&b, 0);
	tu_u16(&b, 8 + 4 + 64);
	tu_str64(&b, "x86_64");
	ck_assert_int_eq(tu_open_mem(b.p, b.len, 0, NULL, &s, &err), 0);
	while ((ret = srep_session__next_event(s, &ev, &err)) > 0)
		;
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(srep_session__meta(s)->hostname, "legacyhost");
	ck_assert_str_eq(srep_session__meta(s)->perf_version, "3.3.0-7-GOOGLE");
	ck_assert_str_eq(srep_session__meta(s)->arch, "x86_64");
	ck_assert_uint_eq(srep_session__stats(s)->google_legacy_records, 3);
	ck_assert_uint_eq(srep_session__stats(s)->records[PERF_RECORD_ID_INDEX], 0);
	srep_session__delete(s);
	tu_buf_free(&b);
}
END_TEST

/* a few bytes after the last record of a pipe (quipper's extradata file): a warning */
START_TEST(stray_bytes_after_a_pipe)
{
	struct tu_diag d = { 0 };
	size_t len;
	uint8_t *buf = pipe_trace(&len), *more = malloc(len + 3);

	memcpy(more, buf, len);
	memcpy(more + len, "\x01\x02\x03", 3);
	read_switches(more, len + 3, &d, 2);
	ck_assert_int_eq(d.n, 1);
	ck_assert_msg(strstr(d.last, "3 bytes after the last record"), "%s", d.last);
	free(more);
	free(buf);
}
END_TEST

/* counting only sees every record the full walk sees, in every container */
/* a SCHEDSTAT_CPU body: timestamp, cpu, version, padding, the nine counters */
static size_t schedstat_cpu(uint8_t *b, bool be, uint64_t t, uint32_t cpu, uint32_t base)
{
	int i;

	srep_put64(b, t, be);
	srep_put32(b + 8, cpu, be);
	srep_put16(b + 12, 15, be);
	srep_put16(b + 14, 0, be);
	for (i = 0; i < 6; i++)
		srep_put32(b + 16 + 4 * i, base + (uint32_t)i, be);
	for (i = 0; i < 3; i++)
		srep_put64(b + 40 + 8 * i, (uint64_t)base * 1000 + (uint64_t)i, be);
	return 64;
}

/* perf sched stats' snapshots: read in either byte order, named, summed per CPU */
START_TEST(schedstat_records)
{
	struct fixture_opts o = { .big_endian = _i & 1, .word_size = 8, .pipe = _i & 2 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	const struct srep_schedstat_cpu *c;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	uint64_t cpu_recs, dom_recs;
	uint8_t body[64], dom[24] = { 0 };
	uint8_t *buf = NULL;
	size_t len, n;
	int version;

	ck_assert_ptr_nonnull(fx);
	ck_assert_int_eq(fixture_raw_record(fx, 85, 0, body, schedstat_cpu(body, o.big_endian, T0, 1, 10)), 0);
	srep_put64(dom, T0, o.big_endian);
	srep_put32(dom + 8, 1, o.big_endian);
	srep_put16(dom + 12, 15, o.big_endian);
	ck_assert_int_eq(fixture_raw_record(fx, 86, 0, dom, sizeof(dom)), 0);
	fixture_switch(fx, T0 + 10, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	ck_assert_int_eq(fixture_raw_record(fx, 85, 0, body, schedstat_cpu(body, o.big_endian, T0 + 99, 1, 50)), 0);
	ck_assert_int_eq(fixture_raw_record(fx, 85, 0, body, 20), 0);	/* too short: skipped */
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	ck_assert_int_eq(tu_collect(s, &ev, &err), 0);
	ck_assert_str_eq(srep_record_type_name(85), "SCHEDSTAT_CPU");
	ck_assert_str_eq(srep_record_type_name(86), "SCHEDSTAT_DOMAIN");
	ck_assert_uint_eq(srep_session__stats(s)->records[85], 3);
	ck_assert_uint_eq(srep_session__stats(s)->records[86], 1);
	ck_assert_uint_eq(srep_session__stats(s)->skipped_records, 1);
	n = srep_session__schedstat(s, &version, &cpu_recs, &dom_recs);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(version, 15);
	ck_assert_uint_eq(cpu_recs, 2);
	ck_assert_uint_eq(dom_recs, 1);
	c = srep_session__schedstat_cpu(s, 0);
	ck_assert_uint_eq(c->cpu, 1);
	ck_assert_uint_eq(c->snapshots, 2);
	ck_assert_uint_eq(c->first_time, T0);
	ck_assert_uint_eq(c->last_time, T0 + 99);
	ck_assert_uint_eq(c->last[2] - c->first[2], 40);		/* sched_count */
	ck_assert_uint_eq(c->last[8] - c->first[8], 40000);	/* pcount */
	ck_assert_str_eq(srep_schedstat_cpu_field_name(8), "pcount");
	ck_assert_ptr_null(srep_session__schedstat_cpu(s, 1));
	tu_events_free(&ev);
	srep_session__delete(s);
	fixture_free(fx);
	free(buf);
}
END_TEST

START_TEST(newest_features_named)
{
	ck_assert_str_eq(srep_feature_name(3), "HOSTNAME");
	ck_assert_str_eq(srep_feature_name(24), "DIR_FORMAT");
	ck_assert_str_eq(srep_feature_name(32), "CPU_DOMAIN_INFO");
	ck_assert_str_eq(srep_feature_name(33), "CLN_SIZE");
	ck_assert_ptr_null(srep_feature_name(34));
	ck_assert_ptr_null(srep_feature_name(0));
}
END_TEST

START_TEST(counting_equals_reading)
{
	struct fixture_opts o = { .big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8,
				  .pipe = _i & 4, .compressed = _i & 8, .round_every = 3 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *a = NULL, *c = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	uint8_t *buf = NULL;
	size_t len, k;
	int i;

	for (i = 0; i < 20; i++)
		fixture_switch(fx, T0 + (uint64_t)i * 10, i & 1, "a", 10, 120, FIXTURE_STATE_S,
			       "b", 11, 120);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &a, &err), 0);
	ck_assert_int_eq(tu_collect(a, &ev, &err), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, SREP_OPEN_COUNT_ONLY, NULL, &c, &err), 0);
	ck_assert_int_eq(srep_session__count(c, &err), 0);
	for (k = 0; k < SREP_NR_RECORD_TYPES; k++)
		ck_assert_uint_eq(srep_session__stats(a)->records[k],
				  srep_session__stats(c)->records[k]);
	ck_assert_uint_eq(srep_session__stats(c)->records[PERF_RECORD_FINISHED_ROUND] > 0, 1);
	tu_events_free(&ev);
	srep_session__delete(a);
	srep_session__delete(c);
	fixture_free(fx);
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("records");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, tracing_data_inside_the_record);
	tcase_add_test(tc, google_legacy_features);
	tcase_add_test(tc, stray_bytes_after_a_pipe);
	tcase_add_loop_test(tc, counting_equals_reading, 0, 16);
	tcase_add_loop_test(tc, schedstat_records, 0, 4);
	tcase_add_test(tc, newest_features_named);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
