// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_evsel.c - event descriptions (src/evsel.c): perf_event_attr of every
 * size in both byte orders, the big-endian flag bitfield, perf's derived
 * event names (tools/perf/util/evsel.c of perf 6.1, the version the corpus
 * compares with), and the id -> event map with perf's evlist__id2evsel()
 * rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "reader.h"

#define BP_R 1
#define BP_W 2
#define BP_X 4

/* a session without input */
static struct srep_session *fake_session(bool be)
{
	struct srep_session *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	s->path = strdup("fake.data");
	s->in.fd = -1;
	s->swap = srep_swap_for(be);
	s->meta.big_endian = be;
	return s;
}

/* ------------------------------------------------------------------ */
/* attr decoding                                                        */
/* ------------------------------------------------------------------ */

/* every field a distinct value, in the order and widths of A.4 */
static void put_attr(struct fx_buf *b, uint32_t len, uint32_t size_field, uint64_t flags)
{
	size_t start = b->len;

	tu_u32(b, 0x11111111);			/* type */
	tu_u32(b, size_field);
	tu_u64(b, 0x0808080808080808ull);	/* config */
	tu_u64(b, 0x1010101010101010ull);	/* sample_period */
	tu_u64(b, 0x1818181818181818ull);	/* sample_type */
	tu_u64(b, 0x2020202020202020ull);	/* read_format */
	tu_u64(b, flags);
	tu_u32(b, 0x30303030);			/* wakeup_events */
	tu_u32(b, 0x34343434);			/* bp_type */
	tu_u64(b, 0x3838383838383838ull);	/* config1 */
	tu_u64(b, 0x4040404040404040ull);	/* config2 */
	tu_u64(b, 0x4848484848484848ull);	/* branch_sample_type */
	tu_u64(b, 0x5050505050505050ull);	/* sample_regs_user */
	tu_u32(b, 0x58585858);			/* sample_stack_user */
	tu_u32(b, 0xfffffff6);			/* clockid: -10 */
	tu_u64(b, 0x6060606060606060ull);	/* sample_regs_intr */
	tu_u32(b, 0x68686868);			/* aux_watermark */
	tu_u16(b, 0x6c6c);			/* sample_max_stack */
	tu_u16(b, 0x6e6e);			/* reserved */
	tu_u32(b, 0x70707070);			/* aux_sample_size */
	tu_u32(b, 0x74747474);			/* aux_action */
	tu_u64(b, 0x7878787878787878ull);	/* sig_data */
	tu_u64(b, 0x8080808080808080ull);	/* config3 */
	while (b->len - start < 256)
		tu_u8(b, 0xee);			/* fields of attrs not invented yet */
	b->len = start + len;
}

/* fields the writer filled (attr.size bytes) have their values, the rest are 0 */
static void check_attr(const struct perf_attr *a, uint32_t filled, const char *what)
{
#define HAS(end) (filled >= (end))
#define FIELD(f, end, v) \
	ck_assert_msg(a->f == (HAS(end) ? (v) : 0), "%s: " #f " = 0x%llx", what, \
		      (unsigned long long)a->f)
	FIELD(type, 4, 0x11111111u);
	FIELD(config, 16, 0x0808080808080808ull);
	FIELD(sample_period, 24, 0x1010101010101010ull);
	FIELD(sample_type, 32, 0x1818181818181818ull);
	FIELD(read_format, 40, 0x2020202020202020ull);
	FIELD(wakeup_events, 52, 0x30303030u);
	FIELD(bp_type, 56, 0x34343434u);
	FIELD(config1, 64, 0x3838383838383838ull);
	FIELD(config2, 72, 0x4040404040404040ull);
	FIELD(branch_sample_type, 80, 0x4848484848484848ull);
	FIELD(sample_regs_user, 88, 0x5050505050505050ull);
	FIELD(sample_stack_user, 92, 0x58585858u);
	FIELD(clockid, 96, -10);
	FIELD(sample_regs_intr, 104, 0x6060606060606060ull);
	FIELD(aux_watermark, 108, 0x68686868u);
	FIELD(sample_max_stack, 110, 0x6c6cu);
	FIELD(aux_sample_size, 116, 0x70707070u);
	FIELD(aux_action, 120, 0x74747474u);
	FIELD(sig_data, 128, 0x7878787878787878ull);
	FIELD(config3, 136, 0x8080808080808080ull);
#undef FIELD
#undef HAS
}

START_TEST(attr_every_size_both_orders)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144, 200 };
	size_t i;
	int be;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (be = 0; be < 2; be++) {
			struct fx_buf b = { .be = be };
			struct perf_attr a;
			uint8_t *copy;
			char what[64];

			put_attr(&b, sizes[i], sizes[i], 0);
			copy = tu_exact_copy(b.p, b.len);
			snprintf(what, sizeof(what), "%s attr of %u bytes", be ? "BE" : "LE", sizes[i]);
			evsel_attr_decode(&a, copy, sizes[i], be);
			ck_assert_uint_eq(a.size, sizes[i]);
			check_attr(&a, sizes[i], what);
			free(copy);
			tu_buf_free(&b);
		}
}
END_TEST

/* attr.size below the bytes given: what lies beyond it is not the writer's */
START_TEST(attr_size_field_limits)
{
	static const uint32_t fields[] = { 64, 72, 96, 120, 128 };
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct fx_buf b = { .be = true };
		struct perf_attr a;
		char what[64];

		put_attr(&b, 136, fields[i], 0);
		snprintf(what, sizeof(what), "attr.size %u in 136 bytes", fields[i]);
		evsel_attr_decode(&a, b.p, 136, true);
		ck_assert_uint_eq(a.size, fields[i]);
		check_attr(&a, fields[i], what);
		tu_buf_free(&b);
	}
}
END_TEST

/* attr.size 0 is the first ABI (64 bytes), as the kernel and perf read it */
START_TEST(attr_size_zero_is_ver0)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fx_buf b = { .be = be };
		struct perf_attr a;

		put_attr(&b, 128, 0, 0);
		evsel_attr_decode(&a, b.p, 128, be);
		ck_assert_uint_eq(a.size, 0);
		check_attr(&a, PERF_ATTR_SIZE_VER0, "attr.size 0");
		tu_buf_free(&b);
	}
}
END_TEST

/* a big-endian writer's bitfield, read back to little-endian positions */
static uint64_t decode_flags(uint64_t word, bool be)
{
	struct fx_buf b = { .be = be };
	struct perf_attr a;

	put_attr(&b, 64, 64, word);
	evsel_attr_decode(&a, b.p, 64, be);
	tu_buf_free(&b);
	return a.flags;
}

START_TEST(flag_bitfield_big_endian)
{
	unsigned p;
	uint64_t v, all_le = 0, all_be = 0;

	for (p = 0; p < 64; p++) {
		if (p == ATTR_F_PRECISE_IP || p == ATTR_F_PRECISE_IP + 1)
			continue;
		/* a 1-bit field at little-endian bit p sits at 63 - p */
		ck_assert_msg(decode_flags(1ull << (63 - p), true) == 1ull << p, "bit %u", p);
		ck_assert_uint_eq(decode_flags(1ull << p, false), 1ull << p);
		all_le |= 1ull << p;
		all_be |= 1ull << (63 - p);
	}
	/* the 2-bit precise_ip: its value, not its bits reversed, at 64 - 15 - 2 = 47 */
	for (v = 0; v < 4; v++) {
		uint64_t le = decode_flags(v << 47, true);

		ck_assert_msg(((le >> ATTR_F_PRECISE_IP) & 3) == v, "precise_ip %llu read as %llu",
			      (unsigned long long)v,
			      (unsigned long long)((le >> ATTR_F_PRECISE_IP) & 3));
		ck_assert_uint_eq(le & ~(3ull << ATTR_F_PRECISE_IP), 0);
		ck_assert_uint_eq(decode_flags(v << ATTR_F_PRECISE_IP, false),
				  v << ATTR_F_PRECISE_IP);
	}
	ck_assert_uint_eq(decode_flags(all_be | 2ull << 47, true), all_le | 2ull << ATTR_F_PRECISE_IP);
	/* the named flags land where attr_flag() looks */
	{
		struct perf_attr a = { .flags = decode_flags(1ull << (63 - ATTR_F_SAMPLE_ID_ALL) |
							     1ull << (63 - ATTR_F_EXCLUDE_KERNEL) |
							     1ull << (63 - ATTR_F_EXCLUDE_GUEST), true) };

		ck_assert(attr_flag(&a, ATTR_F_SAMPLE_ID_ALL));
		ck_assert(attr_flag(&a, ATTR_F_EXCLUDE_KERNEL));
		ck_assert(attr_flag(&a, ATTR_F_EXCLUDE_GUEST));
		ck_assert(!attr_flag(&a, ATTR_F_EXCLUDE_USER));
		ck_assert(!attr_flag(&a, ATTR_F_DISABLED));
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* perf's names                                                         */
/* ------------------------------------------------------------------ */

#define F(bit) (1ull << (bit))
#define PRECISE(n) ((uint64_t)(n) << ATTR_F_PRECISE_IP)
#define EXCL_K F(ATTR_F_EXCLUDE_KERNEL)
#define EXCL_U F(ATTR_F_EXCLUDE_USER)
#define EXCL_H F(ATTR_F_EXCLUDE_HV)
#define EXCL_HOST F(ATTR_F_EXCLUDE_HOST)
#define EXCL_GUEST F(ATTR_F_EXCLUDE_GUEST)

static const struct {
	uint32_t type;
	uint64_t config, flags, config1;
	uint32_t bp_type;
	const char *name;
} names[] = {
	/* hardware; perf sets exclude_guest unless asked for G, so plain events have it */
	{ PERF_TYPE_HARDWARE, 0, EXCL_GUEST, 0, 0, "cycles" },
	{ PERF_TYPE_HARDWARE, 0, 0, 0, 0, "cycles:HG" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_K | EXCL_H, 0, 0, "cycles:u" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_K | EXCL_H | EXCL_GUEST, 0, 0, "cycles:uH" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_U | EXCL_H, 0, 0, "cycles:k" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_U, 0, 0, "cycles:kh" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_K, 0, 0, "cycles:uh" },
	{ PERF_TYPE_HARDWARE, 0, PRECISE(1), 0, 0, "cycles:p" },
	{ PERF_TYPE_HARDWARE, 0, PRECISE(2), 0, 0, "cycles:pp" },
	{ PERF_TYPE_HARDWARE, 0, PRECISE(3), 0, 0, "cycles:ppp" },
	{ PERF_TYPE_HARDWARE, 0, PRECISE(2) | EXCL_GUEST, 0, 0, "cycles:ppH" },
	{ PERF_TYPE_HARDWARE, 0, PRECISE(1) | EXCL_K | EXCL_H, 0, 0, "cycles:up" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_HOST, 0, 0, "cycles:G" },
	{ PERF_TYPE_HARDWARE, 0, EXCL_HOST | EXCL_GUEST, 0, 0, "cycles" },
	{ PERF_TYPE_HARDWARE, 4, EXCL_GUEST | EXCL_K | EXCL_H | PRECISE(2), 0, 0, "branches:uppH" },
	{ PERF_TYPE_HARDWARE, 9, EXCL_GUEST, 0, 0, "ref-cycles" },
	{ PERF_TYPE_HARDWARE, 10, EXCL_GUEST, 0, 0, "unknown-hardware" },
	/* software */
	{ PERF_TYPE_SOFTWARE, 0, EXCL_GUEST, 0, 0, "cpu-clock" },
	{ PERF_TYPE_SOFTWARE, 1, EXCL_GUEST | EXCL_K | EXCL_H, 0, 0, "task-clock:uH" },
	{ PERF_TYPE_SOFTWARE, 3, EXCL_GUEST, 0, 0, "context-switches" },
	{ PERF_TYPE_SOFTWARE, 9, 0, 0, 0, "dummy:HG" },
	{ PERF_TYPE_SOFTWARE, 9, EXCL_K | EXCL_H, 0, 0, "dummy:u" },
	{ PERF_TYPE_SOFTWARE, 11, EXCL_GUEST, 0, 0, "cgroup-switches" },
	{ PERF_TYPE_SOFTWARE, 12, EXCL_GUEST, 0, 0, "unknown-software" },
	/* caches: type | op << 8 | result << 16 */
	{ PERF_TYPE_HW_CACHE, 0x10000, EXCL_GUEST, 0, 0, "L1-dcache-load-misses" },
	{ PERF_TYPE_HW_CACHE, 0x00000, EXCL_GUEST, 0, 0, "L1-dcache-loads" },
	{ PERF_TYPE_HW_CACHE, 0x00100, EXCL_GUEST, 0, 0, "L1-dcache-stores" },
	{ PERF_TYPE_HW_CACHE, 0x00200, EXCL_GUEST, 0, 0, "L1-dcache-prefetches" },
	{ PERF_TYPE_HW_CACHE, 0x10001, EXCL_GUEST, 0, 0, "L1-icache-load-misses" },
	{ PERF_TYPE_HW_CACHE, 0x10102, EXCL_GUEST | EXCL_K | EXCL_H, 0, 0, "LLC-store-misses:uH" },
	{ PERF_TYPE_HW_CACHE, 0x10003, EXCL_GUEST, 0, 0, "dTLB-load-misses" },
	{ PERF_TYPE_HW_CACHE, 0x00004, EXCL_GUEST, 0, 0, "iTLB-loads" },
	{ PERF_TYPE_HW_CACHE, 0x10005, EXCL_GUEST, 0, 0, "branch-load-misses" },
	{ PERF_TYPE_HW_CACHE, 0x00006, EXCL_GUEST, 0, 0, "node-loads" },
	{ PERF_TYPE_HW_CACHE, 0x00101, EXCL_GUEST, 0, 0, "invalid-cache" },	/* L1i stores */
	{ PERF_TYPE_HW_CACHE, 0x00105, 0, 0, 0, "invalid-cache:HG" },		/* branch stores */
	{ PERF_TYPE_HW_CACHE, 0x00007, EXCL_GUEST, 0, 0, "unknown-ext-hardware-cache-type" },
	{ PERF_TYPE_HW_CACHE, 0x00300, EXCL_GUEST, 0, 0, "unknown-ext-hardware-cache-op" },
	{ PERF_TYPE_HW_CACHE, 0x20000, EXCL_GUEST, 0, 0, "unknown-ext-hardware-cache-result" },
	/* raw, breakpoints, the rest */
	{ PERF_TYPE_RAW, 0x1a2b, EXCL_GUEST, 0, 0, "raw 0x1a2b" },
	{ PERF_TYPE_RAW, 0xc0, EXCL_GUEST | EXCL_U | EXCL_H, 0, 0, "raw 0xc0:kH" },
	{ PERF_TYPE_BREAKPOINT, 0, EXCL_GUEST, 0x7ffd1000, BP_R | BP_W, "mem:0x7ffd1000:rw" },
	{ PERF_TYPE_BREAKPOINT, 0, EXCL_GUEST, 0x401000, BP_X, "mem:0x401000:x" },
	{ PERF_TYPE_BREAKPOINT, 0, EXCL_GUEST | EXCL_K | EXCL_H, 0x10, BP_W, "mem:0x10:w:uH" },
	{ PERF_TYPE_TRACEPOINT, 316, EXCL_GUEST, 0, 0, "unknown tracepoint" },
	{ 8, 0x3c, EXCL_GUEST, 0, 0, "unknown attr type: 8" },
};

START_TEST(derived_names)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct evsel ev;
		char buf[128];

		memset(&ev, 0, sizeof(ev));
		ev.attr.type = names[i].type;
		ev.attr.config = names[i].config;
		ev.attr.flags = names[i].flags;
		ev.attr.config1 = names[i].config1;
		ev.attr.bp_type = names[i].bp_type;
		evsel_default_name(NULL, &ev, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, names[i].name), "case %zu: '%s', perf says '%s'", i, buf,
			      names[i].name);
	}
}
END_TEST

/* a name cut by a small buffer stays terminated */
START_TEST(derived_name_small_buffer)
{
	struct evsel ev;
	char buf[8];
	size_t n;

	for (n = 1; n <= sizeof(buf); n++) {
		memset(&ev, 0, sizeof(ev));
		ev.attr.type = PERF_TYPE_HW_CACHE;
		ev.attr.config = 0x10000;
		memset(buf, 'x', sizeof(buf));
		evsel_default_name(NULL, &ev, buf, n);
		ck_assert_uint_lt(strlen(buf), n);
		ck_assert_int_eq(strncmp(buf, "L1-dcache-load-misses", strlen(buf)), 0);
	}
}
END_TEST

/* names from the file stay; derived ones are made once attrs are known */
START_TEST(finish_names)
{
	struct srep_session *s = fake_session(false);
	struct perf_attr a = { .type = PERF_TYPE_SOFTWARE, .config = 9 };
	struct srep_error err = { 0 };

	ck_assert_ptr_nonnull(evsel_add(s, &a, &err));
	a.type = PERF_TYPE_HARDWARE;
	a.config = 0;
	a.flags = EXCL_GUEST;
	ck_assert_ptr_nonnull(evsel_add(s, &a, &err));
	ck_assert_int_eq(evsel_set_name(&s->evsels[1], "cycles:P", true), 0);
	ck_assert_int_eq(header_finish_evsels(s, &err), 0);
	ck_assert_str_eq(srep_session__evsel_name(s, 0), "dummy:HG");
	ck_assert_str_eq(srep_session__evsel_name(s, 1), "cycles:P");
	ck_assert(!s->evsels[0].name_from_file);
	ck_assert_str_eq(srep_session__evsel_name(s, 2), "");
	srep_session__delete(s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the id map                                                           */
/* ------------------------------------------------------------------ */

static struct evsel *add(struct srep_session *s, uint64_t sample_type, bool sample_id_all,
			 uint64_t id0, size_t nr_ids)
{
	struct perf_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_type = sample_type,
			       .flags = sample_id_all ? F(ATTR_F_SAMPLE_ID_ALL) : 0 };
	struct fx_buf ids = { .be = s->meta.big_endian };
	struct srep_error err = { 0 };
	struct evsel *ev = evsel_add(s, &a, &err);
	size_t i;

	ck_assert_ptr_nonnull(ev);
	for (i = 0; i < nr_ids; i++)
		tu_u64(&ids, id0 + i * 7);
	ck_assert_int_eq(evsel_add_ids(s, ev, ids.p, nr_ids, &err), 0);
	tu_buf_free(&ids);
	return ev;
}

/* the index of the evsel a sample body (exactly sized) belongs to; -1 for NULL */
static int sample_owner(const struct srep_session *s, const struct fx_buf *body)
{
	uint8_t *copy = tu_exact_copy(body->p, body->len);
	struct evsel *ev = evsel_for_sample(s, copy, body->len);

	free(copy);
	return ev ? (int)(ev - s->evsels) : -1;
}

static int trailer_owner(const struct srep_session *s, const struct fx_buf *body)
{
	uint8_t *copy = tu_exact_copy(body->p, body->len);
	struct evsel *ev = evsel_for_trailer(s, copy, body->len);

	free(copy);
	return ev ? (int)(ev - s->evsels) : -1;
}

START_TEST(ids_many_both_orders)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct srep_session *s = fake_session(be);
		size_t i;
		int k;

		/* enough ids to grow the map several times; ids far apart and near 2^64 */
		add(s, PERF_SAMPLE_IDENTIFIER, true, 1000, 300);
		add(s, PERF_SAMPLE_IDENTIFIER, true, 0xfffffffffff00000ull, 300);
		add(s, PERF_SAMPLE_IDENTIFIER, true, 64, 300);
		for (k = 0; k < 3; k++)
			for (i = 0; i < 300; i++) {
				struct evsel *ev = evsel_by_id(s, s->evsels[k].ids[i]);

				if (ev != &s->evsels[k])
					ck_abort_msg("id 0x%llx: evsel %d, expected %d",
						     (unsigned long long)s->evsels[k].ids[i],
						     ev ? (int)(ev - s->evsels) : -1, k);
			}
		ck_assert_ptr_null(evsel_by_id(s, 1001));
		ck_assert_ptr_null(evsel_by_id(s, 0));
		srep_session__delete(s);
	}
}
END_TEST

/* the little cache in front of the map never answers for an id that moved */
START_TEST(id_cache_coherent)
{
	struct srep_session *s = fake_session(false);
	struct srep_error err = { 0 };
	uint8_t id[8];

	add(s, PERF_SAMPLE_IDENTIFIER, true, 5, 1);
	add(s, PERF_SAMPLE_IDENTIFIER, true, 5 + 64, 1);	/* the same cache slot */
	ck_assert_ptr_eq(evsel_by_id(s, 5), &s->evsels[0]);
	ck_assert_ptr_eq(evsel_by_id(s, 69), &s->evsels[1]);
	ck_assert_ptr_eq(evsel_by_id(s, 5), &s->evsels[0]);
	/* the id given again to another event: the newer description wins */
	srep_put64(id, 5, false);
	ck_assert_int_eq(evsel_add_ids(s, &s->evsels[1], id, 1, &err), 0);
	ck_assert_ptr_eq(evsel_by_id(s, 5), &s->evsels[1]);
	srep_session__delete(s);
}
END_TEST

static void sample_body(struct fx_buf *b, uint64_t st, uint64_t id)
{
	b->len = 0;
	if (st & PERF_SAMPLE_IDENTIFIER)
		tu_u64(b, id);
	if (st & PERF_SAMPLE_IP)
		tu_u64(b, 0x4000);
	if (st & PERF_SAMPLE_TID)
		tu_u64(b, 0x1234);
	if (st & PERF_SAMPLE_TIME)
		tu_u64(b, 99);
	if (st & PERF_SAMPLE_ADDR)
		tu_u64(b, 0x5000);
	if (st & PERF_SAMPLE_ID)
		tu_u64(b, id);
	if (st & PERF_SAMPLE_CPU)
		tu_u64(b, 3);
	tu_u64(b, 0xabcdef);			/* a period, say */
}

/* perf's evlist__id2evsel(): the one event, id 0, known ids, unknown ones */
START_TEST(id2evsel_rules)
{
	static const uint64_t types[] = {
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID,
	};
	size_t k;
	int be, id_all;

	for (k = 0; k < 3; k++)
		for (be = 0; be < 2; be++)
			for (id_all = 0; id_all < 2; id_all++) {
				struct srep_session *s = fake_session(be);
				struct fx_buf b = { .be = be };

				add(s, types[k], id_all, 100, 2);
				sample_body(&b, types[k], 999);
				/* one event: every sample is its own, whatever the id */
				ck_assert_int_eq(sample_owner(s, &b), 0);
				add(s, types[k], id_all, 200, 2);
				add(s, types[k], id_all, 300, 2);
				sample_body(&b, types[k], 207);
				ck_assert_int_eq(sample_owner(s, &b), 1);
				sample_body(&b, types[k], 307);
				ck_assert_int_eq(sample_owner(s, &b), 2);
				sample_body(&b, types[k], 0);		/* id 0: the first */
				ck_assert_int_eq(sample_owner(s, &b), 0);
				/* unknown: none with sample_id_all on the first event, else it */
				sample_body(&b, types[k], 999);
				ck_assert_int_eq(sample_owner(s, &b), id_all ? -1 : 0);
				/* too short to hold the id */
				b.len = (size_t)s->evsels[0].id_pos * 8 + 7;
				ck_assert_int_eq(sample_owner(s, &b), -1);
				tu_buf_free(&b);
				srep_session__delete(s);
			}
}
END_TEST

/* no ID in the sample_type: every sample is the first event's */
START_TEST(no_id_position)
{
	struct srep_session *s = fake_session(false);
	struct fx_buf b = { 0 };

	add(s, PERF_SAMPLE_IP | PERF_SAMPLE_TIME, true, 100, 1);
	add(s, PERF_SAMPLE_IP | PERF_SAMPLE_TIME, true, 200, 1);
	sample_body(&b, PERF_SAMPLE_IP | PERF_SAMPLE_TIME, 200);
	ck_assert_int_eq(sample_owner(s, &b), 0);
	ck_assert_int_eq(trailer_owner(s, &b), 0);
	tu_buf_free(&b);
	srep_session__delete(s);
}
END_TEST

/* side-band records: the id found counting from the record's end */
START_TEST(trailer_owner_by_id)
{
	static const uint64_t types[] = {
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			PERF_SAMPLE_CPU,
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER,
	};
	size_t k;
	int be;

	for (k = 0; k < 3; k++)
		for (be = 0; be < 2; be++) {
			struct srep_session *s = fake_session(be);
			struct fx_buf b = { .be = be };
			uint64_t st = types[k];

			add(s, st, true, 100, 2);
			add(s, st, true, 200, 2);
			/* a COMM body, then the trailer in A.7 order */
			tu_u32(&b, 1);
			tu_u32(&b, 1);
			tu_put(&b, "comm\0\0\0\0", 8);
			tu_u64(&b, 0x0000000100000001ull);		/* TID */
			tu_u64(&b, 12345);				/* TIME */
			if (st & PERF_SAMPLE_ID)
				tu_u64(&b, 207);
			if (st & PERF_SAMPLE_STREAM_ID)
				tu_u64(&b, 77);
			tu_u64(&b, 1);					/* CPU */
			if (st & PERF_SAMPLE_IDENTIFIER)
				tu_u64(&b, 207);
			ck_assert_int_eq(trailer_owner(s, &b), 1);
			/* shorter than the id's distance from the end: no owner, no read */
			b.len = 8 * (size_t)s->evsels[0].is_pos - 1;
			ck_assert_int_eq(trailer_owner(s, &b), -1);
			tu_buf_free(&b);
			srep_session__delete(s);
		}
}
END_TEST

START_TEST(limits)
{
	struct srep_session *s = fake_session(false);
	struct srep_error err = { 0 };
	uint8_t id[8] = { 0 };
	struct evsel *ev = add(s, PERF_SAMPLE_IDENTIFIER, true, 1, 0);

	ck_assert_int_eq(evsel_add_ids(s, ev, id, SREP_MAX_IDS + 1ull, &err), SREP_E_LIMIT);
	ck_assert_int_eq(evsel_add_ids(s, ev, id, 0, &err), 0);
	ck_assert_uint_eq(ev->nr_ids, 0);
	s->nr_evsels = SREP_MAX_ATTRS;		/* as if that many had been added */
	ck_assert_ptr_null(evsel_add(s, &ev->attr, &err));
	ck_assert_int_eq(err.code, SREP_E_LIMIT);
	s->nr_evsels = 1;
	srep_session__delete(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evsel");
	TCase *tc = tcase_create("evsel");

	tcase_add_test(tc, attr_every_size_both_orders);
	tcase_add_test(tc, attr_size_field_limits);
	tcase_add_test(tc, attr_size_zero_is_ver0);
	tcase_add_test(tc, flag_bitfield_big_endian);
	tcase_add_test(tc, derived_names);
	tcase_add_test(tc, derived_name_small_buffer);
	tcase_add_test(tc, finish_names);
	tcase_add_test(tc, ids_many_both_orders);
	tcase_add_test(tc, id_cache_coherent);
	tcase_add_test(tc, id2evsel_rules);
	tcase_add_test(tc, no_id_position);
	tcase_add_test(tc, trailer_owner_by_id);
	tcase_add_test(tc, limits);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
