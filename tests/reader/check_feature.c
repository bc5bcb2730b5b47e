// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_feature.c - header feature payloads (src/feature.c): every feature
 * schedrep reads, in both byte orders; EVENT_DESC matched to events by id
 * and by position; build ids in today's and the pre-pid layout; every
 * truncation of a payload is an error with an offset inside it (a warning
 * naming it when it comes from a file); unknown features are skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

enum {
	FEAT_TRACING_DATA = 1, FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION,
	FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUDESC, FEAT_CPUID, FEAT_TOTAL_MEM, FEAT_CMDLINE,
	FEAT_EVENT_DESC, FEAT_CPU_TOPOLOGY, FEAT_NUMA_TOPOLOGY, FEAT_BRANCH_STACK,
	FEAT_PMU_MAPPINGS, FEAT_GROUP_DESC, FEAT_SAMPLE_TIME = 21, FEAT_CLOCKID = 23,
	FEAT_COMPRESSED = 27, FEAT_CLOCK_DATA = 29, FEAT_HYBRID_TOPOLOGY = 30,
};

#define PAYLOAD_OFF	0x1000	/* where the payloads pretend to be in the file */

/* a session without input, as open leaves it before the features */
static struct srep_session *fake_session(bool be, bool pipe)
{
	struct srep_session *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	s->path = strdup("fake.data");
	s->in.fd = -1;
	s->swap = srep_swap_for(be);
	s->pipe = pipe;
	s->meta.big_endian = be;
	s->meta.nr_cpus_avail = s->meta.nr_cpus_online = -1;
	s->meta.total_mem_kb = s->meta.clockid = s->meta.clock_res_ns = -1;
	return s;
}

static int parse(struct srep_session *s, unsigned feat, const struct fx_buf *b,
		 struct srep_error *err)
{
	uint8_t *copy = tu_exact_copy(b->p, b->len);
	int ret = feature_parse(s, feat, copy, b->len, PAYLOAD_OFF, err);

	free(copy);
	return ret;
}

static void parse_ok(struct srep_session *s, unsigned feat, const struct fx_buf *b)
{
	struct srep_error err = { 0 };

	ck_assert_msg(parse(s, feat, b, &err) == 0, "feature %u: %s", feat, err.msg);
}

/*
 * Every shorter prefix of a payload must fail as truncated, at an offset
 * inside what it was given; each prefix is an exactly sized heap block.
 * A sequence of entries (build ids) may end at any entry's end: 'entries'
 * lists those lengths.
 */
static void prefixes_fail_but(unsigned feat, const struct fx_buf *b, bool be,
			      const size_t *entries, size_t nr_entries)
{
	size_t n, k;

	for (n = 0; n < b->len; n++) {
		struct srep_session *s = fake_session(be, false);
		struct srep_error err = { 0 };
		uint8_t *copy = tu_exact_copy(b->p, n);
		int ret = feature_parse(s, feat, copy, n, PAYLOAD_OFF, &err);
		bool whole = false;

		for (k = 0; k < nr_entries; k++)
			whole |= entries[k] == n;
		if (whole) {
			ck_assert_msg(ret == 0, "feature %u cut after an entry (%zu): %s", feat, n,
				      err.msg);
			free(copy);
			srep_session__delete(s);
			continue;
		}
		ck_assert_msg(ret == SREP_E_TRUNCATED, "feature %u cut at %zu of %zu: %d", feat, n,
			      b->len, ret);
		ck_assert(err.has_offset);
		ck_assert_msg(err.offset >= PAYLOAD_OFF && err.offset <= PAYLOAD_OFF + n,
			      "feature %u cut at %zu: offset 0x%llx", feat, n,
			      (unsigned long long)err.offset);
		ck_assert_msg(strstr(err.msg, "runs past the end of its section"), "%s", err.msg);
		free(copy);
		srep_session__delete(s);
	}
}

static void every_prefix_fails(unsigned feat, const struct fx_buf *b, bool be)
{
	prefixes_fail_but(feat, b, be, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* payload builders                                                     */
/* ------------------------------------------------------------------ */

static void str_list(struct fx_buf *b, const char *const *v, uint32_t n)
{
	uint32_t i;

	tu_u32(b, n);
	for (i = 0; i < n; i++)
		tu_str64(b, v[i]);
}

static const char *const argv[] = { "/usr/bin/perf", "sched", "record", "-a" };
static const char *const cores[] = { "0-3", "4-7" };
static const char *const threads[] = { "0,4", "1,5", "2,6" };

/* one payload per feature: its builder, then what it must set */
static void build(unsigned feat, struct fx_buf *b)
{
	switch (feat) {
	case FEAT_HOSTNAME:	tu_str64(b, "builder-host"); break;
	case FEAT_OSRELEASE:	tu_str64(b, "6.12.0-arm64"); break;
	case FEAT_VERSION:	tu_str64(b, "6.12.38"); break;
	case FEAT_ARCH:		tu_str64(b, "aarch64"); break;
	case FEAT_CPUDESC:	tu_str64(b, "Neoverse-N1"); break;
	case FEAT_CPUID:	tu_str64(b, "0x00000000413fd0c1"); break;
	case FEAT_NRCPUS:	tu_u32(b, 8); tu_u32(b, 6); break;	/* avail, online */
	case FEAT_TOTAL_MEM:	tu_u64(b, 0x1234567890ull); break;
	case FEAT_CMDLINE:	str_list(b, argv, 4); break;
	case FEAT_CPU_TOPOLOGY:
		str_list(b, cores, 2);
		str_list(b, threads, 3);
		break;
	case FEAT_SAMPLE_TIME:	tu_u64(b, 5170000000001ull); tu_u64(b, 5171000000002ull); break;
	case FEAT_CLOCKID:	tu_u64(b, 1000); break;
	case FEAT_COMPRESSED:
		tu_u32(b, 0);
		tu_u32(b, 1);
		tu_u32(b, 3);
		tu_u32(b, 7);
		tu_u32(b, 528384);
		break;
	case FEAT_CLOCK_DATA:
		tu_u32(b, 1);
		tu_u32(b, 4);			/* CLOCK_MONOTONIC_RAW */
		tu_u64(b, 1700000000123456789ull);
		tu_u64(b, 5170123456789ull);
		break;
	default:
		ck_abort_msg("no builder for feature %u", feat);
	}
}

static void check(unsigned feat, const struct srep_meta *m)
{
	switch (feat) {
	case FEAT_HOSTNAME:	ck_assert_str_eq(m->hostname, "builder-host"); break;
	case FEAT_OSRELEASE:	ck_assert_str_eq(m->osrelease, "6.12.0-arm64"); break;
	case FEAT_VERSION:	ck_assert_str_eq(m->perf_version, "6.12.38"); break;
	case FEAT_ARCH:		ck_assert_str_eq(m->arch, "aarch64"); break;
	case FEAT_CPUDESC:	ck_assert_str_eq(m->cpudesc, "Neoverse-N1"); break;
	case FEAT_CPUID:	ck_assert_str_eq(m->cpuid, "0x00000000413fd0c1"); break;
	case FEAT_NRCPUS:
		ck_assert_int_eq(m->nr_cpus_avail, 8);
		ck_assert_int_eq(m->nr_cpus_online, 6);
		break;
	case FEAT_TOTAL_MEM:	ck_assert_int_eq(m->total_mem_kb, 0x1234567890ll); break;
	case FEAT_CMDLINE:
		ck_assert_int_eq(m->nr_cmdline, 4);
		ck_assert_str_eq(m->cmdline[0], "/usr/bin/perf");
		ck_assert_str_eq(m->cmdline[3], "-a");
		ck_assert_ptr_null(m->cmdline[4]);
		break;
	case FEAT_CPU_TOPOLOGY:
		ck_assert_int_eq(m->nr_core_siblings, 2);
		ck_assert_str_eq(m->core_siblings[1], "4-7");
		ck_assert_int_eq(m->nr_thread_siblings, 3);
		ck_assert_str_eq(m->thread_siblings[0], "0,4");
		ck_assert_str_eq(m->thread_siblings[2], "2,6");
		break;
	case FEAT_SAMPLE_TIME:
		ck_assert(m->has_sample_time);
		ck_assert_uint_eq(m->sample_time_first, 5170000000001ull);
		ck_assert_uint_eq(m->sample_time_last, 5171000000002ull);
		break;
	case FEAT_CLOCKID:	ck_assert_int_eq(m->clock_res_ns, 1000); break;
	case FEAT_COMPRESSED:
		ck_assert(m->compressed);
		ck_assert_uint_eq(m->comp_type, 1);
		ck_assert_uint_eq(m->comp_level, 3);
		ck_assert_uint_eq(m->comp_ratio, 7);
		ck_assert_uint_eq(m->comp_mmap_len, 528384);
		break;
	case FEAT_CLOCK_DATA:
		ck_assert(m->has_clock_data);
		ck_assert_int_eq(m->clockid, 4);
		ck_assert_uint_eq(m->clock_wall_ns, 1700000000123456789ull);
		ck_assert_uint_eq(m->clock_ref_ns, 5170123456789ull);
		break;
	}
}

static const unsigned simple_features[] = {
	FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION, FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUDESC,
	FEAT_CPUID, FEAT_TOTAL_MEM, FEAT_CMDLINE, FEAT_CPU_TOPOLOGY, FEAT_SAMPLE_TIME,
	FEAT_CLOCKID, FEAT_COMPRESSED, FEAT_CLOCK_DATA,
};
#define NR_SIMPLE (sizeof(simple_features) / sizeof(simple_features[0]))

/* ------------------------------------------------------------------ */
/* tests                                                                */
/* ------------------------------------------------------------------ */

START_TEST(every_feature_both_orders)
{
	size_t i;
	int be;

	for (be = 0; be < 2; be++) {
		struct srep_session *s = fake_session(be, false);

		for (i = 0; i < NR_SIMPLE; i++) {
			struct fx_buf b = { .be = be };

			build(simple_features[i], &b);
			parse_ok(s, simple_features[i], &b);
			tu_buf_free(&b);
		}
		for (i = 0; i < NR_SIMPLE; i++)
			check(simple_features[i], srep_session__meta(s));
		srep_session__delete(s);
	}
}
END_TEST

START_TEST(every_truncation_fails)
{
	size_t i;
	int be;

	for (be = 0; be < 2; be++)
		for (i = 0; i < NR_SIMPLE; i++) {
			struct fx_buf b = { .be = be };

			build(simple_features[i], &b);
			every_prefix_fails(simple_features[i], &b, be);
			tu_buf_free(&b);
		}
}
END_TEST

/* a failed SAMPLE_TIME or COMPRESSED read does not claim the feature */
START_TEST(partial_reads_claim_nothing)
{
	struct srep_session *s = fake_session(false, false);
	struct srep_error err = { 0 };
	struct fx_buf b = { 0 };

	tu_u64(&b, 1);
	ck_assert_int_eq(parse(s, FEAT_SAMPLE_TIME, &b, &err), SREP_E_TRUNCATED);
	ck_assert(!srep_session__meta(s)->has_sample_time);
	ck_assert_int_eq(parse(s, FEAT_COMPRESSED, &b, &err), SREP_E_TRUNCATED);
	ck_assert(!srep_session__meta(s)->compressed);
	ck_assert_int_eq(parse(s, FEAT_CLOCK_DATA, &b, &err), SREP_E_TRUNCATED);
	ck_assert(!srep_session__meta(s)->has_clock_data);
	ck_assert_int_eq(srep_session__meta(s)->clockid, -1);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

/* str64: the length is what the writer says; the text stops at the first NUL */
START_TEST(strings)
{
	struct srep_session *s = fake_session(true, false);
	struct fx_buf b = { .be = true };

	tu_u32(&b, 5);				/* no NUL, not padded to 64 */
	tu_put(&b, "hostX", 5);
	parse_ok(s, FEAT_HOSTNAME, &b);
	ck_assert_str_eq(srep_session__meta(s)->hostname, "hostX");
	b.len = 0;
	tu_u32(&b, 12);				/* a NUL early, junk after it */
	tu_put(&b, "ab\0cdefghijk", 12);
	parse_ok(s, FEAT_ARCH, &b);
	ck_assert_str_eq(srep_session__meta(s)->arch, "ab");
	b.len = 0;
	tu_u32(&b, 0);				/* empty */
	parse_ok(s, FEAT_VERSION, &b);
	ck_assert_str_eq(srep_session__meta(s)->perf_version, "");
	b.len = 0;
	tu_u32(&b, 0);				/* a list of none */
	parse_ok(s, FEAT_CMDLINE, &b);
	ck_assert_int_eq(srep_session__meta(s)->nr_cmdline, 0);
	ck_assert_ptr_nonnull(srep_session__meta(s)->cmdline);
	ck_assert_ptr_null(srep_session__meta(s)->cmdline[0]);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

/* a string list claiming more strings than its bytes could hold allocates nothing */
START_TEST(string_list_count_checked)
{
	struct srep_session *s = fake_session(false, false);
	struct srep_error err = { 0 };
	struct fx_buf b = { 0 };

	tu_u32(&b, 0x7fffffff);
	tu_str64(&b, "only one");
	ck_assert_int_eq(parse(s, FEAT_CMDLINE, &b, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(err.offset, PAYLOAD_OFF + 4);
	ck_assert_ptr_null(srep_session__meta(s)->cmdline);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

/* ---- EVENT_DESC ---- */

static struct evsel *add_evsel(struct srep_session *s, uint32_t type, uint64_t config,
			       uint64_t id0, size_t nr_ids)
{
	struct perf_attr a = { .type = type, .config = config, .sample_type = PERF_SAMPLE_ID };
	struct srep_error err = { 0 };
	struct fx_buf ids = { .be = s->meta.big_endian };
	struct evsel *ev = evsel_add(s, &a, &err);
	size_t i;

	ck_assert_ptr_nonnull(ev);
	for (i = 0; i < nr_ids; i++)
		tu_u64(&ids, id0 + i);
	ck_assert_int_eq(evsel_add_ids(s, ev, ids.p, nr_ids, &err), 0);
	tu_buf_free(&ids);
	return ev;
}

static void desc_entry(struct fx_buf *b, uint32_t attr_size, const char *name, uint64_t id0,
		       uint32_t nr_ids)
{
	uint32_t i;

	tu_u32(b, PERF_TYPE_SOFTWARE);		/* the attr: not what matching uses */
	tu_u32(b, attr_size);
	tu_zero(b, attr_size - 8);
	tu_u32(b, nr_ids);
	tu_str64(b, name);
	for (i = 0; i < nr_ids; i++)
		tu_u64(b, id0 + i);
}

START_TEST(event_desc_by_id)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct srep_session *s = fake_session(be, false);
		struct fx_buf b = { .be = be };

		add_evsel(s, PERF_TYPE_SOFTWARE, 0, 100, 2);
		add_evsel(s, PERF_TYPE_SOFTWARE, 1, 200, 2);
		add_evsel(s, PERF_TYPE_SOFTWARE, 9, 300, 2);
		/* described out of order, with another attr size: the ids decide */
		tu_u32(&b, 3);
		tu_u32(&b, 136);
		desc_entry(&b, 136, "dummy:u", 300, 2);
		desc_entry(&b, 136, "task-clock:k", 200, 2);
		desc_entry(&b, 136, "cpu-clock", 100, 2);
		parse_ok(s, FEAT_EVENT_DESC, &b);
		ck_assert_str_eq(s->evsels[0].name, "cpu-clock");
		ck_assert_str_eq(s->evsels[1].name, "task-clock:k");
		ck_assert_str_eq(s->evsels[2].name, "dummy:u");
		ck_assert(s->evsels[2].name_from_file);
		every_prefix_fails(FEAT_EVENT_DESC, &b, be);
		tu_buf_free(&b);
		srep_session__delete(s);
	}
}
END_TEST

/* without ids, entry i describes attr i (file mode); pipes cannot tell */
START_TEST(event_desc_by_position)
{
	int pipe;

	for (pipe = 0; pipe < 2; pipe++) {
		struct srep_session *s = fake_session(false, pipe);
		struct fx_buf b = { 0 };

		add_evsel(s, PERF_TYPE_HARDWARE, 0, 100, 0);
		add_evsel(s, PERF_TYPE_HARDWARE, 1, 200, 0);
		evsel_set_name(&s->evsels[1], "derived", false);
		tu_u32(&b, 3);				/* one more than there are evsels */
		tu_u32(&b, 128);
		desc_entry(&b, 128, "cycles:P", 0, 0);
		desc_entry(&b, 128, "instructions:u", 0, 0);
		desc_entry(&b, 128, "extra", 0, 0);
		parse_ok(s, FEAT_EVENT_DESC, &b);
		if (pipe) {
			ck_assert_ptr_null(s->evsels[0].name);
			ck_assert_str_eq(s->evsels[1].name, "derived");
		} else {
			ck_assert_str_eq(s->evsels[0].name, "cycles:P");
			/* a derived name gives way to the file's */
			ck_assert_str_eq(s->evsels[1].name, "instructions:u");
		}
		tu_buf_free(&b);
		srep_session__delete(s);
	}
}
END_TEST

/* the first name from the file stays; empty names and unknown ids change nothing */
START_TEST(event_desc_first_name_wins)
{
	struct srep_session *s = fake_session(false, false);
	struct fx_buf b = { 0 };

	add_evsel(s, PERF_TYPE_SOFTWARE, 0, 100, 1);
	add_evsel(s, PERF_TYPE_SOFTWARE, 1, 200, 1);
	evsel_set_name(&s->evsels[0], "from-event-update", true);
	tu_u32(&b, 3);
	tu_u32(&b, 64);
	desc_entry(&b, 64, "later", 100, 1);
	desc_entry(&b, 64, "", 200, 1);
	desc_entry(&b, 64, "nobody", 999, 1);
	parse_ok(s, FEAT_EVENT_DESC, &b);
	ck_assert_str_eq(s->evsels[0].name, "from-event-update");
	ck_assert_ptr_null(s->evsels[1].name);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

/* ---- BUILD_ID ---- */

static void build_id_entry(struct fx_buf *b, uint16_t misc, int32_t pid, uint8_t seed,
			   uint8_t size, const char *name)
{
	size_t n = strlen(name) + 1, pad = (n + 63) / 64 * 64;
	uint8_t id[20];
	int i;

	for (i = 0; i < 20; i++)
		id[i] = (uint8_t)(seed + i);
	tu_u32(b, 0);				/* header.type: 0 in the feature section */
	tu_u16(b, misc);
	tu_u16(b, (uint16_t)(36 + pad));
	tu_u32(b, (uint32_t)pid);
	tu_put(b, id, 20);
	tu_u8(b, size);
	tu_zero(b, 3);
	tu_put(b, name, n);
	tu_zero(b, pad - n);
}

/* the layout before pids: 24 id bytes right after the header, then the name */
static void old_build_id_entry(struct fx_buf *b, uint8_t seed, const char *name)
{
	size_t n = strlen(name) + 1, pad = (n + 63) / 64 * 64;
	int i;

	tu_u32(b, 0);
	tu_u16(b, 1);
	tu_u16(b, (uint16_t)(32 + pad));
	for (i = 0; i < 24; i++)
		tu_u8(b, (uint8_t)(i < 20 ? seed + i : 0));
	tu_put(b, name, n);
	tu_zero(b, pad - n);
}

static void check_id(const struct srep_build_id *bid, uint8_t seed, uint8_t size)
{
	int i;

	ck_assert_uint_eq(bid->size, size);
	for (i = 0; i < 20; i++)
		ck_assert_uint_eq(bid->id[i], (uint8_t)(seed + i));
}

START_TEST(build_ids)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct srep_session *s = fake_session(be, false);
		struct fx_buf b = { .be = be };
		size_t ends[5] = { 0 };

		build_id_entry(&b, 0x8000 | 1, -1, 0x10, 20, "[kernel.kallsyms]");
		ends[1] = b.len;
		build_id_entry(&b, 0x8000 | 2, 4242, 0x40, 8, "/usr/lib/libc.so.6");
		ends[2] = b.len;
		build_id_entry(&b, 2, 77, 0x70, 3, "/usr/bin/true");	/* size byte not valid */
		ends[3] = b.len;
		build_id_entry(&b, 0x8000 | 2, 78, 0x90, 200, "/bad/size");	/* > 20: 20 */
		ends[4] = b.len;
		parse_ok(s, FEAT_BUILD_ID, &b);
		ck_assert_uint_eq(s->nr_build_ids, 4);
		ck_assert_int_eq(s->build_ids[0].pid, -1);
		ck_assert_str_eq(s->build_ids[0].filename, "[kernel.kallsyms]");
		ck_assert_uint_eq(s->build_ids[0].misc, 0x8001);
		check_id(&s->build_ids[0], 0x10, 20);
		ck_assert_int_eq(s->build_ids[1].pid, 4242);
		ck_assert_str_eq(s->build_ids[1].filename, "/usr/lib/libc.so.6");
		check_id(&s->build_ids[1], 0x40, 8);
		ck_assert_int_eq(s->build_ids[2].pid, 77);
		check_id(&s->build_ids[2], 0x70, 20);
		check_id(&s->build_ids[3], 0x90, 20);
		prefixes_fail_but(FEAT_BUILD_ID, &b, be, ends, 4);
		tu_buf_free(&b);
		srep_session__delete(s);
	}
}
END_TEST

START_TEST(build_ids_pre_pid_layout)
{
	struct srep_session *s = fake_session(true, false);
	struct fx_buf b = { .be = true };
	size_t ends[2] = { 0 };

	old_build_id_entry(&b, 0x20, "[kernel.kallsyms]");
	ends[1] = b.len;
	old_build_id_entry(&b, 0x50, "/lib/modules/x.ko");
	parse_ok(s, FEAT_BUILD_ID, &b);
	ck_assert_uint_eq(s->nr_build_ids, 2);
	ck_assert_int_eq(s->build_ids[0].pid, -1);
	ck_assert_str_eq(s->build_ids[0].filename, "[kernel.kallsyms]");
	check_id(&s->build_ids[0], 0x20, 20);
	/* the kernel's entry reveals the layout of the whole table (perf's ABI quirk) */
	ck_assert_int_eq(s->build_ids[1].pid, -1);
	ck_assert_str_eq(s->build_ids[1].filename, "/lib/modules/x.ko");
	check_id(&s->build_ids[1], 0x50, 20);
	prefixes_fail_but(FEAT_BUILD_ID, &b, true, ends, 2);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

START_TEST(build_id_entry_sizes)
{
	struct srep_session *s = fake_session(false, false);
	struct srep_error err = { 0 };
	struct fx_buf b = { 0 };

	/* an entry of size 8 would never advance past its name: refused */
	tu_u32(&b, 0);
	tu_u16(&b, 0);
	tu_u16(&b, 8);
	tu_zero(&b, 40);
	ck_assert_int_eq(parse(s, FEAT_BUILD_ID, &b, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(err.offset, PAYLOAD_OFF);
	ck_assert_uint_eq(s->nr_build_ids, 0);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

/* features schedrep does not read, known to perf or not, are skipped untouched */
START_TEST(unknown_features_skipped)
{
	static const unsigned feats[] = { 0, FEAT_NUMA_TOPOLOGY, FEAT_BRANCH_STACK,
					  FEAT_PMU_MAPPINGS, FEAT_GROUP_DESC, 19, 20, 22, 24, 25,
					  26, 28, FEAT_HYBRID_TOPOLOGY, 31, 32, 40, 255 };
	struct srep_session *s = fake_session(false, false);
	struct srep_meta before = s->meta;
	struct fx_buf b = { 0 };
	size_t i;

	tu_u32(&b, 0xffffffff);			/* garbage for any reader */
	tu_u64(&b, 0xdeadbeef);
	for (i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		parse_ok(s, feats[i], &b);
	ck_assert_int_eq(memcmp(&before, &s->meta, sizeof(before)), 0);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

START_TEST(word_size_from_arch)
{
	static const struct { const char *arch; int size; } v[] = {
		{ "x86_64", 8 }, { "aarch64", 8 }, { "s390x", 8 }, { "ppc64le", 8 },
		{ "riscv64", 8 }, { "mips64", 8 }, { "sparc64", 8 }, { "i686", 4 },
		{ "armv7l", 4 }, { "arm", 4 }, { "ppc", 4 }, { "s390", 4 }, { "mips", 4 },
		{ "riscv32", 4 }, { "m68k", 0 }, { NULL, 0 },
	};
	struct srep_session *s = fake_session(false, false);
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		s->meta.arch = v[i].arch;
		feature_set_word_size(s);
		ck_assert_msg(s->meta.word_size == v[i].size, "%s: %d", v[i].arch ? v[i].arch : "NULL",
			      s->meta.word_size);
	}
	/* the tracing data's long size wins over the arch */
	s->meta.arch = "x86_64";
	s->meta.has_tracing = true;
	s->meta.tracing_long_size = 4;
	feature_set_word_size(s);
	ck_assert_int_eq(s->meta.word_size, 4);
	s->meta.arch = NULL;
	srep_session__delete(s);
}
END_TEST

/* ---- features inside real files ---- */

static uint8_t *fixture_file(const struct fixture_opts *o, size_t *len, struct fixture_info *info)
{
	struct fixture *fx = fixture_new(o);
	uint8_t *buf = NULL;

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, 1000, 0, 10, 10, "a", false);
	fixture_switch(fx, 2000, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	return buf;
}

/* a cut HOSTNAME section: a warning with the offset where the string stopped */
START_TEST(truncated_in_a_file)
{
	struct fixture_opts o = { .big_endian = true, .word_size = 8 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_diag d = { 0 };
	size_t len;
	uint8_t *buf = fixture_file(&o, &len, &info);
	uint64_t entry = info.data_offset + info.data_size + 16;	/* TRACING_DATA, then HOSTNAME */
	uint64_t host = srep_get64(buf + entry, srep_swap_for(true));

	srep_put64(buf + entry + 8, 10, true);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, &d, &s, &err), 0);
	ck_assert_int_eq(d.n, 1);
	ck_assert_int_eq(d.code, SREP_E_TRUNCATED);
	ck_assert_uint_eq(d.offset, host + 4);
	ck_assert_msg(strstr(d.last, "feature 3: string runs past the end of its section"), "%s",
		      d.last);
	ck_assert_ptr_null(srep_session__meta(s)->hostname);
	ck_assert_str_eq(srep_session__meta(s)->arch, "s390x");
	srep_session__delete(s);
	free(buf);
}
END_TEST

/* the same through a pipe: a HEADER_FEATURE record whose payload is cut */
START_TEST(truncated_in_a_pipe)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_diag d = { 0 };
	struct fx_buf b = { 0 };
	uint8_t *buf = NULL;
	size_t len;

	tu_u64(&b, FEAT_OSRELEASE);
	tu_u32(&b, 64);
	tu_put(&b, "cut", 4);
	fixture_comm(fx, 1000, 0, 10, 10, "a", false);
	fixture_raw_record(fx, PERF_RECORD_HEADER_FEATURE, 0, b.p, b.len);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, &d, &s, &err), 0);
	ck_assert_int_eq(srep_session__count(s, &err), 0);
	ck_assert_int_eq(d.n, 1);
	ck_assert_msg(strstr(d.last, "feature 4: string runs past"), "%s", d.last);
	/* the earlier, complete OSRELEASE stays */
	ck_assert_str_eq(srep_session__meta(s)->osrelease, "6.1.0-50-fixture");
	srep_session__delete(s);
	fixture_free(fx);
	tu_buf_free(&b);
	free(buf);
}
END_TEST

/* insert a feature 'bit' (above every other) with this payload into a fixture file */
static uint8_t *add_feature(const uint8_t *buf, size_t len, const struct fixture_info *info,
			    unsigned bit, const void *payload, size_t plen, size_t *out_len)
{
	uint64_t table = info->data_offset + info->data_size, word;
	struct fx_buf out = { .be = false };
	int nr = 0, i;

	for (i = 0; i < 4; i++)
		nr += __builtin_popcountll(srep_get64(buf + 72 + 8 * i, srep_swap_for(false)));
	tu_put(&out, buf, (size_t)table);
	word = srep_get64(buf + 72 + 8 * (bit / 64), srep_swap_for(false));
	srep_put64(out.p + 72 + 8 * (bit / 64), word | 1ull << (bit % 64), false);
	for (i = 0; i < nr; i++) {		/* payloads move down by the new entry */
		const uint8_t *e = buf + table + 16 * (size_t)i;

		tu_u64(&out, srep_get64(e, srep_swap_for(false)) + 16);
		tu_u64(&out, srep_get64(e + 8, srep_swap_for(false)));
	}
	tu_u64(&out, len + 16);
	tu_u64(&out, plen);
	tu_put(&out, buf + table + 16 * (size_t)nr, len - (size_t)table - 16 * (size_t)nr);
	tu_put(&out, payload, plen);
	*out_len = out.len;
	return out.p;
}

START_TEST(unknown_feature_in_a_file)
{
	static const uint8_t junk[40] = { 0xff, 0xff, 0xff, 0xff, 1, 2, 3 };
	static const unsigned bits[] = { FEAT_HYBRID_TOPOLOGY + 2, 100, 255 };
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	size_t len, k;
	uint8_t *buf = fixture_file(&o, &len, &info);

	for (k = 0; k < sizeof(bits) / sizeof(bits[0]); k++) {
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		struct tu_diag d = { 0 };
		size_t nlen;
		uint8_t *n = add_feature(buf, len, &info, bits[k], junk, sizeof(junk), &nlen);

		ck_assert_int_eq(tu_open_mem(n, nlen, 0, &d, &s, &err), 0);
		ck_assert_msg(d.n == 0, "%s", d.all);
		ck_assert(srep_session__meta(s)->features[bits[k] / 64] & (1ull << (bits[k] % 64)));
		ck_assert_str_eq(srep_session__meta(s)->hostname, "fixture");
		ck_assert_int_eq(srep_session__meta(s)->nr_cmdline, 7);
		ck_assert(srep_session__meta(s)->has_sample_time);
		ck_assert(srep_session__meta(s)->has_tracing);
		srep_session__delete(s);
		free(n);
	}
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("feature");
	TCase *tc = tcase_create("feature");

	tcase_add_test(tc, every_feature_both_orders);
	tcase_add_test(tc, every_truncation_fails);
	tcase_add_test(tc, partial_reads_claim_nothing);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, string_list_count_checked);
	tcase_add_test(tc, event_desc_by_id);
	tcase_add_test(tc, event_desc_by_position);
	tcase_add_test(tc, event_desc_first_name_wins);
	tcase_add_test(tc, build_ids);
	tcase_add_test(tc, build_ids_pre_pid_layout);
	tcase_add_test(tc, build_id_entry_sizes);
	tcase_add_test(tc, unknown_features_skipped);
	tcase_add_test(tc, word_size_from_arch);
	tcase_add_test(tc, truncated_in_a_file);
	tcase_add_test(tc, truncated_in_a_pipe);
	tcase_add_test(tc, unknown_feature_in_a_file);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
