// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_header.c - the perf.data container (src/header.c): the magic in both
 * byte orders and the old PERFFILE (byte order guessed from attr_size), pipe
 * against file mode, header sizes 72 and 104, attr entries of every size
 * (64+16 to 200+16), attr.size smaller than the entry, the feature bitmap of
 * 32-bit writers, data size 0, sections beyond the end of the file, and a
 * file-mode trace arriving through a pipe.
 *
 * Small traces are built by hand here (hb_build) where the fixture writer
 * has no knob (attrs under 128 bytes, PERFFILE, a 72-byte header); fixture
 * output is patched for the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0		1000000000ull
#define PERF_MAGIC2	0x32454c4946524550ull
#define HB_IP		0xffffffff81000000ull
#define HB_PERIOD	4000
#define HB_ST		(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define FEAT_BUILD_ID	2
#define FEAT_HOSTNAME	3
#define FEAT_OSRELEASE	4

/* ------------------------------------------------------------------ */
/* a hand-built file-mode trace                                         */
/* ------------------------------------------------------------------ */

struct hb_opts {
	bool be;
	bool v1;			/* "PERFFILE" magic */
	uint64_t header_size;		/* 104, or 72 (no feature bitmap) */
	uint32_t attr_len;		/* perf_event_attr bytes per entry; the entry is 16 more */
	uint32_t attr_size_field;	/* attr.size as written, 0 = attr_len; the bytes
					   between it and attr_len are filled with 0xaa */
	int word_size;			/* bitmap words: 8 (4 x u64) or 4 (8 x u32) */
	bool no_hostname;		/* only OSRELEASE in the features */
};

/* two cpu-clock/task-clock evsels with 2 ids each; 5 samples, one COMM */
static const struct { int ev, cpu; uint64_t t; } hb_samples[] = {
	{ 0, 0, T0 + 10 }, { 1, 1, T0 + 20 }, { 0, 1, T0 + 30 }, { 1, 0, T0 + 40 }, { 0, 0, T0 + 50 },
};
#define HB_NR_SAMPLES (sizeof(hb_samples) / sizeof(hb_samples[0]))

static uint64_t hb_id(int ev, int cpu)
{
	return 100 + 10 * (uint64_t)ev + (uint64_t)cpu;
}

/* flags of the attr, placed as a writer of this byte order lays the bitfield out */
static uint64_t hb_flags(bool be)
{
	static const unsigned bits[] = { ATTR_F_DISABLED, ATTR_F_SAMPLE_ID_ALL, ATTR_F_EXCLUDE_GUEST };
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		v |= 1ull << (be ? 63 - bits[i] : bits[i]);
	return v;
}

static void hb_attr(struct fx_buf *b, const struct hb_opts *o, int ev, uint64_t ids_off)
{
	uint32_t size_field = o->attr_size_field ? o->attr_size_field : o->attr_len;
	size_t start = b->len;

	tu_u32(b, PERF_TYPE_SOFTWARE);
	tu_u32(b, size_field);
	tu_u64(b, (uint64_t)ev);		/* cpu-clock, task-clock */
	tu_u64(b, HB_PERIOD);
	tu_u64(b, HB_ST);
	tu_u64(b, 0);				/* read_format */
	tu_u64(b, hb_flags(b->be));
	tu_zero(b, size_field - (b->len - start));
	while (b->len - start < o->attr_len)
		tu_u8(b, 0xaa);			/* not the writer's attr: must be ignored */
	tu_u64(b, ids_off);
	tu_u64(b, 16);
}

static void hb_trailer(struct fx_buf *b, int ev, int cpu, uint64_t t)
{
	tu_u32(b, 42);
	tu_u32(b, 42);
	tu_u64(b, t);
	tu_u64(b, hb_id(ev, cpu));
	tu_u32(b, (uint32_t)cpu);
	tu_u32(b, 0);
}

static void hb_records(struct fx_buf *b)
{
	size_t i;

	tu_u32(b, PERF_RECORD_COMM);
	tu_u16(b, 0);
	tu_u16(b, 8 + 8 + 16 + 32);
	tu_u32(b, 42);
	tu_u32(b, 42);
	tu_put(b, "hbtask\0\0\0\0\0\0\0\0\0\0", 16);
	hb_trailer(b, 0, 0, T0 + 5);
	for (i = 0; i < HB_NR_SAMPLES; i++) {
		tu_u32(b, PERF_RECORD_SAMPLE);
		tu_u16(b, 2);
		tu_u16(b, 8 + 48);
		tu_u64(b, HB_IP + hb_samples[i].t);
		tu_u32(b, 42);
		tu_u32(b, 42);
		tu_u64(b, hb_samples[i].t);
		tu_u64(b, hb_id(hb_samples[i].ev, hb_samples[i].cpu));
		tu_u32(b, (uint32_t)hb_samples[i].cpu);
		tu_u32(b, 0);
		tu_u64(b, HB_PERIOD);
	}
}

static void hb_bitmap(struct fx_buf *b, const struct hb_opts *o, uint64_t word0)
{
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t w = i ? 0 : word0;

		if (o->word_size == 4) {
			tu_u32(b, (uint32_t)w);
			tu_u32(b, (uint32_t)(w >> 32));
		} else {
			tu_u64(b, w);
		}
	}
}

/* header, id arrays, attrs, data, feature table and payloads */
static uint8_t *hb_build(const struct hb_opts *o, size_t *len)
{
	struct fx_buf data = { .be = o->be }, out = { .be = o->be };
	uint64_t entry = o->attr_len + 16, ids_off = o->header_size;
	uint64_t attrs_off = ids_off + 2 * 16, data_off = attrs_off + 2 * entry;
	uint64_t word0 = (o->no_hostname ? 0 : 1ull << FEAT_HOSTNAME) | 1ull << FEAT_OSRELEASE;
	bool features = o->header_size >= 104;
	int i;

	hb_records(&data);
	if (o->v1)
		tu_put(&out, "PERFFILE", 8);
	else
		tu_u64(&out, PERF_MAGIC2);
	tu_u64(&out, o->header_size);
	tu_u64(&out, entry);
	tu_u64(&out, attrs_off);
	tu_u64(&out, 2 * entry);
	tu_u64(&out, data_off);
	tu_u64(&out, data.len);
	tu_u64(&out, 0);
	tu_u64(&out, 0);
	if (features)
		hb_bitmap(&out, o, word0);
	ck_assert_uint_eq(out.len, o->header_size);
	for (i = 0; i < 4; i++)
		tu_u64(&out, hb_id(i / 2, i % 2));
	for (i = 0; i < 2; i++)
		hb_attr(&out, o, i, ids_off + 16 * (uint64_t)i);
	ck_assert_uint_eq(out.len, data_off);
	tu_put(&out, data.p, data.len);
	if (features) {
		uint64_t payload = out.len + 16 * (uint64_t)__builtin_popcountll(word0);

		if (!o->no_hostname) {
			tu_u64(&out, payload);
			tu_u64(&out, 68);
			payload += 68;
		}
		tu_u64(&out, payload);
		tu_u64(&out, 68);
		if (!o->no_hostname)
			tu_str64(&out, "hb-host");
		tu_str64(&out, "hb-os");
	}
	tu_buf_free(&data);
	*len = out.len;
	return out.p;
}

/* the hand-built trace read back: every value where it belongs */
static void hb_check(const uint8_t *buf, size_t len, const struct hb_opts *o, const char *what)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	const struct srep_meta *m;
	size_t i, k = 0;

	ck_assert_msg(tu_open_mem(buf, len, 0, NULL, &s, &err) == 0, "%s: %s", what, err.msg);
	m = srep_session__meta(s);
	ck_assert_msg(m->big_endian == o->be, "%s: byte order", what);
	ck_assert_int_eq(m->magic_version, o->v1 ? 1 : 2);
	ck_assert(!m->pipe_mode);
	ck_assert_uint_eq(m->attr_size, o->attr_len + 16);
	if (o->header_size >= 104) {
		ck_assert_msg(m->hostname && !strcmp(m->hostname, "hb-host"), "%s: hostname", what);
		ck_assert_str_eq(m->osrelease, "hb-os");
	} else {
		ck_assert_ptr_null(m->hostname);
		ck_assert_uint_eq(m->features[0], 0);
	}
	ck_assert_int_eq((int)srep_session__nr_evsels(s), 2);
	ck_assert_str_eq(srep_session__evsel_name(s, 0), "cpu-clock");
	ck_assert_str_eq(srep_session__evsel_name(s, 1), "task-clock");
	ck_assert_uint_eq(srep_session__evsel_sample_type(s, 1), HB_ST);
	ck_assert_msg(tu_collect(s, &ev, &err) == 0, "%s: %s", what, err.msg);
	ck_assert_uint_eq(ev.n, 1 + HB_NR_SAMPLES);
	ck_assert_int_eq(ev.v[0].kind, SREP_EV_COMM);
	ck_assert_str_eq(ev.v[0].u.comm.comm, "hbtask");
	ck_assert_uint_eq(ev.v[0].time, T0 + 5);
	for (i = 1; i < ev.n; i++, k++) {
		const struct srep_event *e = &ev.v[i];

		ck_assert_int_eq(e->kind, SREP_EV_SAMPLE);
		ck_assert_uint_eq(e->time, hb_samples[k].t);
		ck_assert_int_eq(e->cpu, hb_samples[k].cpu);
		ck_assert_msg(e->evsel == hb_samples[k].ev, "%s: sample %zu is of evsel %d", what,
			      k, e->evsel);
		ck_assert_int_eq(e->pid, 42);
		ck_assert_int_eq(e->tid, 42);
		ck_assert_uint_eq(e->ip, HB_IP + hb_samples[k].t);
		ck_assert_uint_eq(e->period, HB_PERIOD);
	}
	ck_assert_uint_eq(srep_session__evsel_samples(s, 0), 3);
	ck_assert_uint_eq(srep_session__evsel_samples(s, 1), 2);
	/* bytes past attr.size are not the writer's: nothing of the 0xaa fill is used */
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(s->evsels[i].attr.branch_sample_type, 0);
		ck_assert_uint_eq(s->evsels[i].attr.config3, 0);
	}
	tu_events_free(&ev);
	srep_session__delete(s);
}

static void hb_run(const struct hb_opts *o)
{
	char what[128];
	size_t len;
	uint8_t *buf = hb_build(o, &len);

	snprintf(what, sizeof(what), "%s %s attr %u+16 (size %u) header %llu words %d",
		 o->be ? "BE" : "LE", o->v1 ? "PERFFILE" : "PERFILE2", o->attr_len,
		 o->attr_size_field, (unsigned long long)o->header_size, o->word_size);
	hb_check(buf, len, o, what);
	free(buf);
}

/* ------------------------------------------------------------------ */
/* fixture output and patches                                          */
/* ------------------------------------------------------------------ */

static uint8_t *fixture_trace(const struct fixture_opts *o, size_t *len, struct fixture_info *info)
{
	struct fixture *fx = fixture_new(o);
	uint8_t *buf = NULL;
	int cyc;

	ck_assert_ptr_nonnull(fx);
	cyc = fixture_add_event(fx, PERF_TYPE_HARDWARE, 0, 0);
	fixture_comm(fx, T0, 0, 10, 10, "a", false);
	fixture_fork(fx, T0 + 1, 0, 11, 10, 11, 10);
	fixture_switch(fx, T0 + 10, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	fixture_waking(fx, T0 + 15, 1, "a", 10, 120, 0);
	fixture_sample(fx, cyc, T0 + 17, 1, 10, 10, 0x1234, 4000, 0, NULL);
	fixture_switch(fx, T0 + 20, 0, "b", 11, 120, FIXTURE_STATE_S, "a", 10, 120);
	fixture_exec(fx, T0 + 30, 1, "/bin/true", 11, 11);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	return buf;
}

static uint64_t get64(const uint8_t *buf, uint64_t off, bool be)
{
	return srep_get64(buf + off, srep_swap_for(be));
}

static void put64(uint8_t *buf, uint64_t off, uint64_t v, bool be)
{
	srep_put64(buf + off, v, be);
}

static void read_events(const uint8_t *buf, size_t len, struct tu_events *ev, struct tu_diag *d)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };

	ck_assert_msg(tu_open_mem(buf, len, 0, d, &s, &err) == 0, "open: %s", err.msg);
	ck_assert_msg(tu_collect(s, ev, &err) == 0, "read: %s", err.msg);
	srep_session__delete(s);
}

/* open must fail with 'code' at 'offset', the message holding 'needle' */
static void expect_open_error(const uint8_t *buf, size_t len, int code, uint64_t offset,
			      const char *needle)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };

	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), code);
	ck_assert_ptr_null(s);
	ck_assert(err.has_offset);
	ck_assert_msg(err.offset == offset, "offset 0x%llx, expected 0x%llx (%s)",
		      (unsigned long long)err.offset, (unsigned long long)offset, err.msg);
	ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
	ck_assert_str_ne(err.path, "");
}

/* ------------------------------------------------------------------ */
/* tests                                                                */
/* ------------------------------------------------------------------ */

START_TEST(magic_both_orders)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 8 };
		struct fixture_info info;
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		size_t len;
		uint8_t *buf = fixture_trace(&o, &len, &info);

		/* the on-disk bytes the writer's byte order gives */
		ck_assert_int_eq(memcmp(buf, be ? "2ELIFREP" : "PERFILE2", 8), 0);
		ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
		ck_assert_int_eq(srep_session__meta(s)->big_endian, be);
		ck_assert_int_eq(srep_session__meta(s)->magic_version, 2);
		ck_assert_int_eq(s->swap, srep_swap_for(be));
		ck_assert_uint_eq(srep_session__meta(s)->data_offset, info.data_offset);
		ck_assert_uint_eq(srep_session__meta(s)->data_size, info.data_size);
		srep_session__delete(s);
		free(buf);
	}
}
END_TEST

/* every attr size a writer used, both byte orders, both bitmap word sizes and header sizes */
START_TEST(attr_sizes_hand_built)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 200 };
	size_t i;
	int be, word, hdr;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (be = 0; be < 2; be++)
			for (word = 4; word <= 8; word += 4)
				for (hdr = 0; hdr < 2; hdr++) {
					struct hb_opts o = { .be = be, .attr_len = sizes[i],
							     .word_size = word,
							     .header_size = hdr ? 104 : 72 };

					hb_run(&o);
				}
}
END_TEST

/* PERFFILE has no byte-order mark: perf guesses it from attr_size (64..104 + 16) */
START_TEST(perffile_v1)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104 };
	size_t i;
	int be;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (be = 0; be < 2; be++) {
			struct hb_opts o = { .be = be, .v1 = true, .attr_len = sizes[i],
					     .word_size = 8, .header_size = 104 };

			hb_run(&o);
			o.header_size = 72;
			hb_run(&o);
		}
}
END_TEST

/* a PERFFILE pipe header: size 16 in either byte order */
START_TEST(perffile_v1_pipe)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 8, .pipe = true };
		struct tu_events v2 = { 0 }, v1 = { 0 };
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		char why[256];
		size_t len;
		uint8_t *buf = fixture_trace(&o, &len, NULL);

		read_events(buf, len, &v2, NULL);
		memcpy(buf, "PERFFILE", 8);
		ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
		ck_assert(srep_session__meta(s)->pipe_mode);
		ck_assert_int_eq(srep_session__meta(s)->magic_version, 1);
		ck_assert_int_eq(srep_session__meta(s)->big_endian, be);
		ck_assert_int_eq(tu_collect(s, &v1, &err), 0);
		ck_assert_msg(tu_events_same(&v2, &v1, why, sizeof(why)), "%s", why);
		srep_session__delete(s);
		tu_events_free(&v1);
		tu_events_free(&v2);
		free(buf);
	}
}
END_TEST

/* attr.size below the entry: the ids are the entry's last 16 bytes, the rest is not read */
START_TEST(attr_size_field_smaller)
{
	static const uint32_t fields[] = { 64, 72, 120 };
	size_t i;
	int be;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		for (be = 0; be < 2; be++) {
			struct hb_opts o = { .be = be, .attr_len = 136, .attr_size_field = fields[i],
					     .word_size = 8, .header_size = 104 };

			hb_run(&o);
		}
}
END_TEST

/* as simpleperf writes (144-byte entries, attr.size 120) with many evsels: ids still resolve */
START_TEST(attr_size_field_fixture)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 8, .attr_size_field = 120 };
		struct fixture_info info;
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		size_t len;
		int k;
		uint8_t *buf = fixture_trace(&o, &len, &info);

		ck_assert_int_ge(info.nr_evsels, 4);
		ck_assert_int_eq(tu_open_mem(buf, len, SREP_OPEN_COUNT_ONLY, NULL, &s, &err), 0);
		ck_assert_int_eq(srep_session__count(s, &err), 0);
		ck_assert_uint_eq(srep_session__meta(s)->attr_size, 144);
		for (k = 0; k < info.nr_evsels; k++) {
			ck_assert_str_eq(srep_session__evsel_name(s, (size_t)k), info.evsel_names[k]);
			ck_assert_uint_eq(srep_session__evsel_samples(s, (size_t)k), info.samples[k]);
			ck_assert_uint_eq(s->evsels[k].attr.size, 120);
		}
		srep_session__delete(s);
		free(buf);
	}
}
END_TEST

/* larger attrs than any perf we know (136 as perf 6.12, 200): read, the rest skipped */
START_TEST(larger_attrs)
{
	static const uint32_t extra[] = { 8, 72 };
	size_t i;
	int mode;

	for (i = 0; i < 2; i++)
		for (mode = 0; mode < 4; mode++) {
			struct fixture_opts o = { .big_endian = mode & 1, .word_size = 8,
						  .pipe = mode & 2, .attr_size_extra = extra[i] };
			struct fixture_info info;
			struct srep_session *s = NULL;
			struct srep_error err = { 0 };
			struct tu_events ev = { 0 };
			size_t len;
			int k;
			uint8_t *buf = fixture_trace(&o, &len, &info);

			ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
			ck_assert_uint_eq(srep_session__meta(s)->attr_size,
					  o.pipe ? 0 : 128 + extra[i] + 16);
			ck_assert_msg(tu_collect(s, &ev, &err) == 0, "%s", err.msg);
			ck_assert_int_eq((int)srep_session__nr_evsels(s), info.nr_evsels);
			for (k = 0; k < info.nr_evsels; k++) {
				ck_assert_str_eq(srep_session__evsel_name(s, (size_t)k),
						 info.evsel_names[k]);
				ck_assert_uint_eq(srep_session__evsel_samples(s, (size_t)k),
						  info.samples[k]);
				ck_assert_uint_eq(s->evsels[k].attr.size, 128 + extra[i]);
			}
			ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_SWITCH), 2);
			ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_EXEC), 1);
			tu_events_free(&ev);
			srep_session__delete(s);
			free(buf);
		}
}
END_TEST

static uint64_t features_of(const struct fixture_opts *o, const char **hostname, const char **arch)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	uint64_t word0;
	size_t len;
	uint8_t *buf = fixture_trace(o, &len, NULL);

	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	word0 = srep_session__meta(s)->features[0];
	*hostname = strdup(srep_session__meta(s)->hostname ? srep_session__meta(s)->hostname : "");
	*arch = strdup(srep_session__meta(s)->arch ? srep_session__meta(s)->arch : "");
	srep_session__delete(s);
	free(buf);
	return word0;
}

/* a 32-bit writer's bitmap is 8 x u32: swapped as u64 it loses HOSTNAME, so perf retries */
START_TEST(bitmap_of_32bit_writers)
{
	static const char *const archs[] = { "x86_64", "s390x", "armv7l", "ppc" };
	uint64_t ref = 0;
	int i;

	for (i = 0; i < 4; i++) {
		struct fixture_opts o = { .big_endian = i & 1, .word_size = i & 2 ? 4 : 8 };
		const char *host, *arch;
		uint64_t w = features_of(&o, &host, &arch);

		ck_assert_msg(w & (1ull << FEAT_HOSTNAME), "case %d: bitmap 0x%llx", i,
			      (unsigned long long)w);
		ck_assert_str_eq(host, "fixture");
		ck_assert_str_eq(arch, archs[i]);
		if (i == 0)
			ref = w;
		ck_assert_uint_eq(w, ref);
		free((void *)host);
		free((void *)arch);
	}
}
END_TEST

/* HOSTNAME missing from a swapped bitmap in both readings: perf assumes BUILD_ID alone */
START_TEST(bitmap_give_up)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct hb_opts o = { .be = !SREP_HOST_BIG_ENDIAN, .attr_len = 128, .word_size = 8,
			     .header_size = 104, .no_hostname = true };
	size_t len;
	uint8_t *buf = hb_build(&o, &len);

	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	ck_assert_uint_eq(srep_session__meta(s)->features[0], 1ull << FEAT_BUILD_ID);
	ck_assert_ptr_null(srep_session__meta(s)->osrelease);
	srep_session__delete(s);
	free(buf);

	/* not swapped: the bitmap is taken as it is */
	o.be = SREP_HOST_BIG_ENDIAN;
	buf = hb_build(&o, &len);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	ck_assert_uint_eq(srep_session__meta(s)->features[0], 1ull << FEAT_OSRELEASE);
	ck_assert_str_eq(srep_session__meta(s)->osrelease, "hb-os");
	srep_session__delete(s);
	free(buf);
}
END_TEST

/* pipe mode is decided by the header size 16, even in a regular file */
START_TEST(pipe_or_file)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 8, .pipe = true };
		struct fixture_info info;
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		size_t len;
		uint8_t *buf = fixture_trace(&o, &len, &info);

		ck_assert_uint_eq(get64(buf, 8, be), 16);
		ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
		ck_assert(srep_session__meta(s)->pipe_mode);
		ck_assert_int_eq(srep_session__meta(s)->big_endian, be);
		ck_assert_uint_eq(srep_session__meta(s)->attr_size, 0);
		/* attrs arrive as records: none before the first event is asked for */
		ck_assert_uint_eq(srep_session__nr_evsels(s), 0);
		ck_assert_int_eq(srep_session__count(s, &err), 0);
		ck_assert_int_eq((int)srep_session__nr_evsels(s), info.nr_evsels);
		ck_assert_str_eq(srep_session__meta(s)->hostname, "fixture");
		srep_session__delete(s);
		free(buf);
	}
}
END_TEST

/* a file-mode trace through a real pipe is spooled and read like the file */
START_TEST(file_mode_from_a_pipe)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 4, .compressed = be };
		struct fixture_info info;
		struct tu_events direct = { 0 }, piped = { 0 };
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		char why[256];
		size_t len;
		uint8_t *buf = fixture_trace(&o, &len, &info);
		int feeder;

		read_events(buf, len, &direct, NULL);
		feeder = tu_feed_stdin(buf, len, 1000);
		ck_assert_msg(srep_session__open(&s, "-", NULL, &err) == 0, "%s", err.msg);
		ck_assert(!srep_session__meta(s)->pipe_mode);
		ck_assert_str_eq(srep_session__meta(s)->path, "-");
		ck_assert_str_eq(srep_session__meta(s)->hostname, "fixture");
		ck_assert_uint_eq(srep_session__meta(s)->data_offset, info.data_offset);
		ck_assert_int_eq(tu_collect(s, &piped, &err), 0);
		ck_assert_msg(tu_events_same(&direct, &piped, why, sizeof(why)), "%s", why);
		srep_session__delete(s);
		tu_wait_feeder(feeder);
		tu_events_free(&direct);
		tu_events_free(&piped);
		free(buf);
	}
}
END_TEST

/* a 72-byte header has no feature bitmap: no features, the records are still read */
START_TEST(header_72_on_fixture)
{
	struct fixture_opts o = { .big_endian = true, .word_size = 8 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	size_t len;
	uint8_t *buf = fixture_trace(&o, &len, &info);

	put64(buf, 8, 72, true);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	ck_assert_uint_eq(srep_session__meta(s)->features[0], 0);
	ck_assert_ptr_null(srep_session__meta(s)->hostname);
	ck_assert(!srep_session__meta(s)->has_tracing);
	ck_assert_int_eq(tu_collect(s, &ev, &err), 0);
	/* without tracing data the tracepoints are plain samples, named as perf does */
	ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_SWITCH), 0);
	ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_SAMPLE), 5);
	ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_FORK), 1);
	ck_assert_str_eq(srep_session__evsel_name(s, 1), "unknown tracepoint");
	ck_assert_uint_eq(srep_session__stats(s)->total_records, info.total);
	tu_events_free(&ev);
	srep_session__delete(s);
	free(buf);
}
END_TEST

START_TEST(bad_header_fields)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	size_t len;
	uint8_t *buf = fixture_trace(&o, &len, &info), *copy = malloc(len);

	memcpy(copy, buf, len);
	put64(copy, 8, 64, false);
	expect_open_error(copy, len, SREP_E_CORRUPT, 8, "header size 64 is smaller than 72");
	memcpy(copy, buf, len);
	put64(copy, 16, 0, false);
	expect_open_error(copy, len, SREP_E_CORRUPT, 16, "attr size 0");
	memcpy(copy, buf, len);
	put64(copy, 16, 70000, false);
	expect_open_error(copy, len, SREP_E_CORRUPT, 16, "attr size 70000");
	/* the magic alone: the file header is cut */
	expect_open_error(buf, 40, SREP_E_TRUNCATED, 40, "expected a 72-byte file header");
	/* a bitmap cut in the middle */
	expect_open_error(buf, 90, SREP_E_TRUNCATED, 90, "feature bitmap at offset 72");
	free(copy);
	free(buf);
}
END_TEST

/* perf record did not finish: data size 0 is read to the end, with a warning */
START_TEST(data_size_zero)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 8 };
		struct fixture_info info;
		struct tu_events full = { 0 }, cut = { 0 };
		struct tu_diag d = { 0 };
		size_t len, i;
		uint8_t *buf = fixture_trace(&o, &len, &info);

		read_events(buf, len, &full, NULL);
		/* the header as written at the start: no size, no features after the data */
		put64(buf, 48, 0, be);
		for (i = 0; i < 4; i++)
			put64(buf, 72 + 8 * i, 0, be);
		read_events(buf, (size_t)(info.data_offset + info.data_size), &cut, &d);
		ck_assert_int_eq(d.n, 1);
		ck_assert_uint_eq(d.offset, 48);
		ck_assert_int_eq(d.code, SREP_E_TRUNCATED);
		ck_assert_msg(strstr(d.last, "data size is 0"), "%s", d.last);
		/* tracing data was a feature: compare what is left, the record stream */
		ck_assert_uint_eq(cut.n, full.n);
		for (i = 0; i < full.n; i++) {
			ck_assert_uint_eq(cut.v[i].time, full.v[i].time);
			ck_assert_int_eq(cut.v[i].cpu, full.v[i].cpu);
			ck_assert_int_eq(cut.v[i].tid, full.v[i].tid);
		}
		tu_events_free(&full);
		tu_events_free(&cut);
		free(buf);
	}
}
END_TEST

START_TEST(sections_beyond_eof)
{
	struct fixture_opts o = { .big_endian = true, .word_size = 8 };
	struct fixture_info info;
	size_t len;
	uint8_t *buf = fixture_trace(&o, &len, &info), *c = malloc(len);
	uint64_t attrs_off = get64(buf, 24, true), entry = get64(buf, 16, true);
	char needle[128];

	/* attrs section starting beyond the end */
	memcpy(c, buf, len);
	put64(c, 24, len + 0x100, true);
	snprintf(needle, sizeof(needle), "attrs section [0x%zx, +", len + 0x100);
	expect_open_error(c, len, SREP_E_TRUNCATED, 24, needle);
	/* ... or running past it */
	memcpy(c, buf, len);
	put64(c, 32, len, true);
	snprintf(needle, sizeof(needle), "attrs section [0x%llx, +%zu)",
		 (unsigned long long)attrs_off, len);
	expect_open_error(c, len, SREP_E_TRUNCATED, 24, needle);
	/* an event's id array beyond the end: the entry's ids field is named */
	memcpy(c, buf, len);
	put64(c, attrs_off + entry - 16, len + 8, true);
	snprintf(needle, sizeof(needle), "event id section [0x%zx, +", len + 8);
	expect_open_error(c, len, SREP_E_TRUNCATED, attrs_off + entry - 16, needle);
	/* the data section beyond the end */
	memcpy(c, buf, len);
	put64(c, 40, len + 0x1000, true);
	snprintf(needle, sizeof(needle), "data section starts at 0x%zx, beyond", len + 0x1000);
	expect_open_error(c, len, SREP_E_TRUNCATED, 40, needle);
	free(c);
	free(buf);
}
END_TEST

/* a data section longer than the file: opening works (no features), reading fails */
START_TEST(data_beyond_eof)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	size_t len;
	uint8_t *buf = fixture_trace(&o, &len, &info);
	size_t cut = (size_t)(info.data_offset + info.data_size);
	char needle[128];

	put64(buf, 48, info.data_size + 4096, false);
	ck_assert_int_eq(tu_open_mem(buf, cut, 0, NULL, &s, &err), 0);
	ck_assert_ptr_null(srep_session__meta(s)->hostname);
	ck_assert_int_eq(tu_collect(s, &ev, &err), SREP_E_TRUNCATED);
	snprintf(needle, sizeof(needle), "should go on to 0x%zx, the file ends at 0x%zx",
		 cut + 4096, cut);
	ck_assert_msg(strstr(err.msg, needle), "%s", err.msg);
	ck_assert(err.has_offset);
	ck_assert_uint_eq(err.offset, cut);
	tu_events_free(&ev);
	srep_session__delete(s);
	free(buf);
}
END_TEST

/* feature damage only loses metadata: a warning naming the offset, the records are read */
START_TEST(features_beyond_eof)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_diag d = { 0 };
	size_t len;
	uint8_t *buf = fixture_trace(&o, &len, &info);
	uint64_t table = info.data_offset + info.data_size, host_entry = table + 16;
	char needle[128];

	/* the file ends right after the data: the feature table is missing */
	ck_assert_int_eq(tu_open_mem(buf, (size_t)table, 0, &d, &s, &err), 0);
	ck_assert_int_eq(d.n, 1);
	ck_assert_uint_eq(d.offset, table);
	ck_assert_msg(strstr(d.last, "feature section table ends early (feature 1)"), "%s", d.last);
	ck_assert_int_eq(srep_session__count(s, &err), 0);
	ck_assert_uint_eq(srep_session__stats(s)->total_records, info.total);
	srep_session__delete(s);

	/* HOSTNAME (the 2nd entry after TRACING_DATA) points outside: the rest is read */
	memset(&d, 0, sizeof(d));
	put64(buf, host_entry, len + 64, false);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, &d, &s, &err), 0);
	ck_assert_int_eq(d.n, 1);
	ck_assert_uint_eq(d.offset, host_entry);
	snprintf(needle, sizeof(needle), "feature 3 section [0x%zx, +68) is outside the file",
		 len + 64);
	ck_assert_msg(strstr(d.last, needle), "%s", d.last);
	ck_assert_ptr_null(srep_session__meta(s)->hostname);
	ck_assert_str_eq(srep_session__meta(s)->osrelease, "6.1.0-50-fixture");
	ck_assert(srep_session__meta(s)->has_tracing);
	srep_session__delete(s);
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("header");
	TCase *tc = tcase_create("header");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, magic_both_orders);
	tcase_add_test(tc, attr_sizes_hand_built);
	tcase_add_test(tc, perffile_v1);
	tcase_add_test(tc, perffile_v1_pipe);
	tcase_add_test(tc, attr_size_field_smaller);
	tcase_add_test(tc, attr_size_field_fixture);
	tcase_add_test(tc, larger_attrs);
	tcase_add_test(tc, bitmap_of_32bit_writers);
	tcase_add_test(tc, bitmap_give_up);
	tcase_add_test(tc, pipe_or_file);
	tcase_add_test(tc, file_mode_from_a_pipe);
	tcase_add_test(tc, header_72_on_fixture);
	tcase_add_test(tc, bad_header_fields);
	tcase_add_test(tc, data_size_zero);
	tcase_add_test(tc, sections_beyond_eof);
	tcase_add_test(tc, data_beyond_eof);
	tcase_add_test(tc, features_beyond_eof);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
