// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_sample.c - SAMPLE bodies and sample_id trailers (src/sample.c).
 *
 * A generator writes a sample for any sample_type (and read_format, branch
 * options, register masks and ABIs, stack and aux sizes) with a distinct
 * value in every field, in either byte order; the parser must find each
 * value, step over what it does not keep by its exact size (checked by the
 * fields after it), and fail on every shorter prefix. Each body is parsed
 * from an exactly sized heap copy, so an over-read is an ASan report. The
 * fixed-layout fast path and the generic parser must agree on the same
 * bytes; trailers are parsed backwards for every subset of their items.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "reader.h"

#define ALL_BITS	((uint32_t)PERF_SAMPLE_KNOWN_MASK)
#define FIXED_BITS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define TRAILER_BITS	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* the values every sample carries */
#define V_ID		0x1d000000000000a1ull
#define V_IP		0xffffffff81000abcull
#define V_PID		1234
#define V_TID		1235
#define V_TIME		5170000000123ull
#define V_ADDR		0x00007f0000000010ull
#define V_STREAM	0x5e00000000000777ull
#define V_CPU		3
#define V_PERIOD	0x0000000000100003ull
#define V_WEIGHT	0x0007000600000005ull
#define V_DATA_SRC	0x0000004422010142ull
#define V_TXN		0xabcd000000000013ull
#define V_PHYS		0x0000000123456000ull
#define V_CGROUP	0x0000000000000abcull
#define V_DPS		4096ull
#define V_CPS		2097152ull

struct spec {
	uint64_t st, rf, bst, regs_user, regs_intr;
	uint64_t abi_user, abi_intr;
	uint32_t nr_chain, raw_len, nr_br, group_nr, aux_size;
	uint64_t stack_size;
};

static uint64_t chain_ip(uint32_t i)
{
	return i == 0 ? SREP_CONTEXT_KERNEL : 0xffffffff81000000ull + 0x10 * i;
}

static uint8_t raw_byte(uint32_t i)
{
	return (uint8_t)(i * 7 + 1);
}

/* filler for what the parser steps over: never one of the values above */
static void junk(struct fx_buf *b, size_t n8)
{
	size_t i;

	for (i = 0; i < n8; i++)
		tu_u64(b, 0xf1f1f1f100000000ull + i);
}

static void read_block(struct fx_buf *b, const struct spec *sp)
{
	uint64_t rf = sp->rf;
	size_t each = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & PERF_FORMAT_GROUP) {
		tu_u64(b, sp->group_nr);
		junk(b, times + sp->group_nr * each);
	} else {
		junk(b, times + each);
	}
}

static void regs(struct fx_buf *b, uint64_t abi, uint64_t mask)
{
	tu_u64(b, abi);
	if (abi)
		junk(b, (size_t)__builtin_popcountll(mask));
}

/* a SAMPLE body in the order of FORMATS.md A.6 */
static void gen(struct fx_buf *b, const struct spec *sp)
{
	uint64_t st = sp->st;
	uint32_t i;

	b->len = 0;
	if (st & PERF_SAMPLE_IDENTIFIER)
		tu_u64(b, V_ID);
	if (st & PERF_SAMPLE_IP)
		tu_u64(b, V_IP);
	if (st & PERF_SAMPLE_TID) {
		tu_u32(b, V_PID);
		tu_u32(b, V_TID);
	}
	if (st & PERF_SAMPLE_TIME)
		tu_u64(b, V_TIME);
	if (st & PERF_SAMPLE_ADDR)
		tu_u64(b, V_ADDR);
	if (st & PERF_SAMPLE_ID)
		tu_u64(b, V_ID);
	if (st & PERF_SAMPLE_STREAM_ID)
		tu_u64(b, V_STREAM);
	if (st & PERF_SAMPLE_CPU) {
		tu_u32(b, V_CPU);
		tu_u32(b, 0xdeadbeef);		/* reserved */
	}
	if (st & PERF_SAMPLE_PERIOD)
		tu_u64(b, V_PERIOD);
	if (st & PERF_SAMPLE_READ)
		read_block(b, sp);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		tu_u64(b, sp->nr_chain);
		for (i = 0; i < sp->nr_chain; i++)
			tu_u64(b, chain_ip(i));
	}
	if (st & PERF_SAMPLE_RAW) {
		tu_u32(b, sp->raw_len);
		for (i = 0; i < sp->raw_len; i++)
			tu_u8(b, raw_byte(i));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		tu_u64(b, sp->nr_br);
		if (sp->bst & PERF_SAMPLE_BRANCH_HW_INDEX)
			tu_u64(b, 0xf1f1f1f1ffffffffull);
		junk(b, 3 * (size_t)sp->nr_br);
		if (sp->bst & PERF_SAMPLE_BRANCH_COUNTERS)
			junk(b, sp->nr_br);
	}
	if (st & PERF_SAMPLE_REGS_USER)
		regs(b, sp->abi_user, sp->regs_user);
	if (st & PERF_SAMPLE_STACK_USER) {
		tu_u64(b, sp->stack_size);
		if (sp->stack_size) {
			for (i = 0; i < sp->stack_size; i++)
				tu_u8(b, 0xf1);
			tu_u64(b, sp->stack_size / 2);	/* dyn_size */
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		tu_u64(b, V_WEIGHT);
	if (st & PERF_SAMPLE_DATA_SRC)
		tu_u64(b, V_DATA_SRC);
	if (st & PERF_SAMPLE_TRANSACTION)
		tu_u64(b, V_TXN);
	if (st & PERF_SAMPLE_REGS_INTR)
		regs(b, sp->abi_intr, sp->regs_intr);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		tu_u64(b, V_PHYS);
	if (st & PERF_SAMPLE_CGROUP)
		tu_u64(b, V_CGROUP);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		tu_u64(b, V_DPS);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		tu_u64(b, V_CPS);
	if (st & PERF_SAMPLE_AUX) {
		tu_u64(b, sp->aux_size);
		for (i = 0; i < sp->aux_size; i++)
			tu_u8(b, 0xf1);
	}
}

static void evsel_for(struct evsel *ev, const struct spec *sp)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.sample_type = sp->st;
	ev->attr.read_format = sp->rf;
	ev->attr.branch_sample_type = sp->bst;
	ev->attr.sample_regs_user = sp->regs_user;
	ev->attr.sample_regs_intr = sp->regs_intr;
	ev->attr.flags = 1ull << ATTR_F_SAMPLE_ID_ALL;
	sample_layout(ev);
}

static const char *describe(const struct spec *sp, bool be)
{
	static char buf[200];

	snprintf(buf, sizeof(buf), "%s st 0x%llx rf 0x%llx bst 0x%llx abi %llu/%llu chain %u raw %u "
		 "br %u group %u stack %llu aux %u", be ? "BE" : "LE", (unsigned long long)sp->st,
		 (unsigned long long)sp->rf, (unsigned long long)sp->bst,
		 (unsigned long long)sp->abi_user, (unsigned long long)sp->abi_intr, sp->nr_chain,
		 sp->raw_len, sp->nr_br, sp->group_nr, (unsigned long long)sp->stack_size,
		 sp->aux_size);
	return buf;
}

/* what the model reads: both parsers set these */
static void check_model_fields(const struct sample *s, const struct spec *sp, bool swap,
			       const char *what)
{
	uint64_t st = sp->st;
	uint32_t i;

#define WANT(cond, field, v) do { if (s->field != ((st & (cond)) ? (v) : 0)) \
		ck_abort_msg("%s: " #field " 0x%llx", what, (unsigned long long)s->field); } while (0)
	WANT(PERF_SAMPLE_IP, ip, V_IP);
	WANT(PERF_SAMPLE_TIME, time, V_TIME);
	WANT(PERF_SAMPLE_ADDR, addr, V_ADDR);
	WANT(PERF_SAMPLE_PERIOD, period, V_PERIOD);
	WANT(PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER, id, V_ID);
#undef WANT
	if (s->has_time != !!(st & PERF_SAMPLE_TIME))
		ck_abort_msg("%s: has_time", what);
	if (s->pid != ((st & PERF_SAMPLE_TID) ? V_PID : -1) ||
	    s->tid != ((st & PERF_SAMPLE_TID) ? V_TID : -1))
		ck_abort_msg("%s: pid/tid %d/%d", what, s->pid, s->tid);
	if (s->cpu != ((st & PERF_SAMPLE_CPU) ? V_CPU : -1))
		ck_abort_msg("%s: cpu %d", what, s->cpu);
	if (!(st & PERF_SAMPLE_RAW)) {
		if (s->raw || s->raw_size)
			ck_abort_msg("%s: raw without RAW", what);
		return;
	}
	if (s->raw_size != sp->raw_len || !s->raw)
		ck_abort_msg("%s: raw size %u", what, s->raw_size);
	for (i = 0; i < sp->raw_len; i++)
		if (s->raw[i] != raw_byte(i))
			ck_abort_msg("%s: raw byte %u", what, i);
	(void)swap;
}

/* the rest: only the generic parser keeps them */
static void check_generic_fields(const struct sample *s, const struct spec *sp, bool swap,
				 const char *what)
{
	uint64_t st = sp->st;
	uint32_t i;

#define WANT(cond, field, v) do { if (s->field != ((st & (cond)) ? (v) : 0)) \
		ck_abort_msg("%s: " #field " 0x%llx", what, (unsigned long long)s->field); } while (0)
	WANT(PERF_SAMPLE_STREAM_ID, stream_id, V_STREAM);
	WANT(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, weight, V_WEIGHT);
	WANT(PERF_SAMPLE_DATA_SRC, data_src, V_DATA_SRC);
	WANT(PERF_SAMPLE_TRANSACTION, transaction, V_TXN);
	WANT(PERF_SAMPLE_PHYS_ADDR, phys_addr, V_PHYS);
	WANT(PERF_SAMPLE_CGROUP, cgroup, V_CGROUP);
	WANT(PERF_SAMPLE_DATA_PAGE_SIZE, data_page_size, V_DPS);
	WANT(PERF_SAMPLE_CODE_PAGE_SIZE, code_page_size, V_CPS);
	WANT(PERF_SAMPLE_BRANCH_STACK, nr_branches, sp->nr_br);
	WANT(PERF_SAMPLE_CALLCHAIN, nr_callchain, sp->nr_chain);
#undef WANT
	for (i = 0; i < s->nr_callchain; i++)
		if (srep_get64(s->callchain + 8 * i, swap) != chain_ip(i))
			ck_abort_msg("%s: callchain[%u]", what, i);
}

/*
 * Parse the whole body (must work, every field right), then every shorter
 * prefix (must fail with a reason). 'generic' forces the generic parser.
 */
static void run(const struct spec *sp, bool be, bool generic)
{
	struct fx_buf b = { .be = be };
	struct evsel ev;
	struct sample s;
	const char *why = NULL, *what = describe(sp, be);
	bool swap = srep_swap_for(be);
	uint8_t *copy;
	size_t n;
	int ret;

	gen(&b, sp);
	evsel_for(&ev, sp);
	if (generic)
		ev.fixed_layout = false;
	copy = tu_exact_copy(b.p, b.len);
	memset(&s, 0, sizeof(s));
	ret = sample_parse(&ev, copy, b.len, swap, &s, &why);
	if (ret != 0)
		ck_abort_msg("%s: %d (%s)", what, ret, why ? why : "?");
	check_model_fields(&s, sp, swap, what);
	if (!ev.fixed_layout)
		check_generic_fields(&s, sp, swap, what);
	free(copy);
	for (n = 0; n < b.len; n++) {
		copy = tu_exact_copy(b.p, n);
		why = NULL;
		memset(&s, 0, sizeof(s));
		ret = sample_parse(&ev, copy, n, swap, &s, &why);
		if (ret != SREP_E_CORRUPT || !why || !why[0])
			ck_abort_msg("%s: cut at %zu of %zu: %d", what, n, b.len, ret);
		free(copy);
	}
	tu_buf_free(&b);
}

static void run_both(const struct spec *sp)
{
	run(sp, false, false);
	run(sp, true, false);
}

/* ------------------------------------------------------------------ */
/* sample_type bits                                                     */
/* ------------------------------------------------------------------ */

static struct spec full_spec(uint64_t st)
{
	struct spec sp = {
		.st = st, .rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID, .nr_chain = 4,
		.raw_len = 12, .nr_br = 3, .regs_user = 0xff0f, .regs_intr = 0x3,
		.abi_user = 2, .abi_intr = 1, .stack_size = 24, .aux_size = 16,
	};

	return sp;
}

START_TEST(all_bits_at_once)
{
	struct spec sp = full_spec(ALL_BITS);

	run_both(&sp);
	sp.bst = PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS;
	sp.rf = 0x1f;
	sp.group_nr = 2;
	run_both(&sp);
}
END_TEST

/* each bit alone, then with the last u64 item after it: its size is exactly right */
START_TEST(each_bit_alone)
{
	unsigned bit;

	for (bit = 0; bit < 25; bit++) {
		struct spec sp = full_spec(1ull << bit);

		run_both(&sp);
		sp.st |= PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_IDENTIFIER;
		run_both(&sp);
	}
}
END_TEST

/* every read_format, group or not, with 0..3 members */
START_TEST(read_formats)
{
	uint64_t rf;
	uint32_t nr;

	for (rf = 0; rf < 32; rf++)
		for (nr = 0; nr < 4; nr++) {
			struct spec sp = { .st = PERF_SAMPLE_TIME | PERF_SAMPLE_READ |
						 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PHYS_ADDR,
					   .rf = rf, .group_nr = nr, .nr_chain = 2 };

			run_both(&sp);
		}
}
END_TEST

/* the branch stack with and without hw_idx and counters */
START_TEST(branch_stacks)
{
	static const uint64_t bsts[] = {
		0, PERF_SAMPLE_BRANCH_HW_INDEX, PERF_SAMPLE_BRANCH_COUNTERS,
		PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS,
		0x3ffff & ~PERF_SAMPLE_BRANCH_HW_INDEX,	/* other branch bits change nothing */
	};
	size_t k;
	uint32_t nr;

	for (k = 0; k < sizeof(bsts) / sizeof(bsts[0]); k++)
		for (nr = 0; nr < 4; nr++) {
			struct spec sp = { .st = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK |
						 PERF_SAMPLE_WEIGHT, .bst = bsts[k], .nr_br = nr };

			run_both(&sp);
		}
}
END_TEST

/* registers: abi 0 has no values whatever the mask; any other abi popcount(mask) */
START_TEST(registers_and_stack)
{
	static const uint64_t masks[] = { 0, 1, 0xff, 0xffffffffffffffffull };
	static const uint64_t stacks[] = { 0, 8, 40, 8192 };
	size_t m, k;
	uint64_t abi;

	for (m = 0; m < 4; m++)
		for (abi = 0; abi < 3; abi++) {
			struct spec sp = { .st = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR |
						 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_CGROUP,
					   .regs_user = masks[m], .regs_intr = masks[3 - m],
					   .abi_user = abi, .abi_intr = 2 - abi };

			run_both(&sp);
		}
	for (k = 0; k < 4; k++) {
		struct spec sp = { .st = PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT_STRUCT,
				   .stack_size = stacks[k] };

		run_both(&sp);
	}
}
END_TEST

/* WEIGHT and WEIGHT_STRUCT share one u64, even both at once */
START_TEST(weights)
{
	static const uint64_t w[] = { PERF_SAMPLE_WEIGHT, PERF_SAMPLE_WEIGHT_STRUCT,
				      PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT };
	size_t k;

	for (k = 0; k < 3; k++) {
		struct spec sp = { .st = w[k] | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION };

		run_both(&sp);
	}
}
END_TEST

/* random sample_types and options: 600 bodies, both orders */
START_TEST(random_layouts)
{
	unsigned seed = 20240611;
	int i;

	for (i = 0; i < 600; i++) {
		struct spec sp = {
			.st = (uint64_t)rand_r(&seed) & ALL_BITS,
			.rf = (uint64_t)rand_r(&seed) & 0x1f,
			.regs_user = (uint64_t)rand_r(&seed) << 20 | (uint64_t)rand_r(&seed),
			.regs_intr = (uint64_t)rand_r(&seed) & 0xffff,
			.abi_user = (uint64_t)(rand_r(&seed) % 3),
			.abi_intr = (uint64_t)(rand_r(&seed) % 3),
			.nr_chain = (uint32_t)(rand_r(&seed) % 6),
			.raw_len = (uint32_t)(rand_r(&seed) % 21),
			.nr_br = (uint32_t)(rand_r(&seed) % 4),
			.group_nr = (uint32_t)(rand_r(&seed) % 4),
			.aux_size = (uint32_t)(rand_r(&seed) % 25),
			.stack_size = (uint64_t)(rand_r(&seed) % 3) * 16,
		};
		int r = rand_r(&seed);

		sp.bst = (r & 1 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0) |
			 (r & 2 ? PERF_SAMPLE_BRANCH_COUNTERS : 0);
		run_both(&sp);
	}
}
END_TEST

/* counts from the file that would overrun the body fail without reading past it */
START_TEST(huge_counts)
{
	static const uint64_t st[] = { PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_BRANCH_STACK,
				       PERF_SAMPLE_STACK_USER, PERF_SAMPLE_AUX, PERF_SAMPLE_READ };
	static const uint64_t counts[] = { 1ull << 61, 0xffffffffffffffffull, 0x2000000000000001ull };
	size_t k, c;

	for (k = 0; k < sizeof(st) / sizeof(st[0]); k++)
		for (c = 0; c < 3; c++) {
			struct fx_buf b = { 0 };
			struct spec sp = { .st = st[k], .rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID,
					   .bst = PERF_SAMPLE_BRANCH_COUNTERS };
			struct evsel ev;
			struct sample s;
			const char *why = NULL;
			uint8_t *copy;

			tu_u64(&b, counts[c]);
			junk(&b, 4);
			evsel_for(&ev, &sp);
			copy = tu_exact_copy(b.p, b.len);
			ck_assert_int_eq(sample_parse(&ev, copy, b.len, false, &s, &why), SREP_E_CORRUPT);
			ck_assert_ptr_nonnull(why);
			free(copy);
			tu_buf_free(&b);
		}
}
END_TEST

/* ------------------------------------------------------------------ */
/* the fixed layout                                                     */
/* ------------------------------------------------------------------ */

START_TEST(fixed_layout_chosen)
{
	struct evsel ev;
	struct spec sp = { .st = FIXED_BITS | PERF_SAMPLE_RAW };
	unsigned bit;

	evsel_for(&ev, &sp);
	ck_assert(ev.fixed_layout);
	ck_assert_uint_eq(ev.fixed_size, 9 * 8);
	for (bit = 0; bit < 25; bit++) {
		if ((FIXED_BITS | PERF_SAMPLE_RAW) & (1ull << bit))
			continue;
		sp.st = PERF_SAMPLE_IP | 1ull << bit;
		evsel_for(&ev, &sp);
		ck_assert_msg(!ev.fixed_layout, "bit %u", bit);
	}
}
END_TEST

/* the fast path and the generic parser read the same values from the same bytes */
START_TEST(fixed_and_generic_agree)
{
	unsigned seed = 77;
	int i, be;

	for (i = 0; i < 1024; i++)
		for (be = 0; be < 2; be++) {
			struct spec sp = { .raw_len = (uint32_t)(rand_r(&seed) % 30) };
			struct fx_buf b = { .be = be };
			struct evsel fast, slow;
			struct sample a, g;
			const char *why = NULL;
			uint8_t *copy;

			/* every subset of the 10 items: i's bits spread over them */
			for (unsigned k = 0, bit = 0; bit < 25; bit++) {
				if (!((FIXED_BITS | PERF_SAMPLE_RAW) & (1ull << bit)))
					continue;
				if ((unsigned)i & (1u << k))
					sp.st |= 1ull << bit;
				k++;
			}
			gen(&b, &sp);
			evsel_for(&fast, &sp);
			slow = fast;
			slow.fixed_layout = false;
			ck_assert(fast.fixed_layout);
			copy = tu_exact_copy(b.p, b.len);
			memset(&a, 0, sizeof(a));
			memset(&g, 0, sizeof(g));
			ck_assert_int_eq(sample_parse(&fast, copy, b.len, srep_swap_for(be), &a, &why), 0);
			ck_assert_int_eq(sample_parse(&slow, copy, b.len, srep_swap_for(be), &g, &why), 0);
			if (a.ip != g.ip || a.time != g.time || a.has_time != g.has_time ||
			    a.addr != g.addr || a.period != g.period || a.id != g.id ||
			    a.pid != g.pid || a.tid != g.tid || a.cpu != g.cpu ||
			    a.raw != g.raw || a.raw_size != g.raw_size || a.nr_callchain != g.nr_callchain)
				ck_abort_msg("%s: the parsers disagree", describe(&sp, be));
			free(copy);
			tu_buf_free(&b);
		}
}
END_TEST

/* the layout positions, computed here again from the order of A.6 and A.7 */
START_TEST(layout_positions)
{
	static const uint64_t head[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
					 PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
					 PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU };
	unsigned seed = 5;
	int i;

	for (i = 0; i < 2000; i++) {
		struct spec sp = { .st = (uint64_t)rand_r(&seed) & ALL_BITS };
		struct evsel ev;
		int pos = 0, time_pos = -1, cpu_pos = -1, id_pos = -1, is_pos = -1;
		size_t k, trailer = 0;

		for (k = 0; k < sizeof(head) / sizeof(head[0]); k++) {
			if (!(sp.st & head[k]))
				continue;
			if (head[k] == PERF_SAMPLE_TIME)
				time_pos = pos;
			if (head[k] == PERF_SAMPLE_CPU)
				cpu_pos = pos;
			if ((head[k] == PERF_SAMPLE_IDENTIFIER || head[k] == PERF_SAMPLE_ID) &&
			    id_pos < 0)
				id_pos = pos;
			pos++;
		}
		/* from the end of a trailer: IDENTIFIER last, then CPU, STREAM_ID, ID */
		if (sp.st & PERF_SAMPLE_IDENTIFIER)
			is_pos = 1;
		else if (sp.st & PERF_SAMPLE_ID)
			is_pos = 1 + !!(sp.st & PERF_SAMPLE_CPU) + !!(sp.st & PERF_SAMPLE_STREAM_ID);
		for (k = 0; k < 25; k++)
			trailer += !!(sp.st & TRAILER_BITS & (1ull << k));
		evsel_for(&ev, &sp);
		if (ev.time_pos != time_pos || ev.cpu_pos != cpu_pos || ev.id_pos != id_pos ||
		    ev.is_pos != is_pos || ev.trailer_size != 8 * trailer)
			ck_abort_msg("st 0x%llx: time %d/%d cpu %d/%d id %d/%d is %d/%d trailer %zu/%zu",
				     (unsigned long long)sp.st, ev.time_pos, time_pos, ev.cpu_pos,
				     cpu_pos, ev.id_pos, id_pos, ev.is_pos, is_pos, ev.trailer_size,
				     8 * trailer);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* sample_id trailers                                                   */
/* ------------------------------------------------------------------ */

/* a 16-byte record body, then the trailer in forward order (A.7) */
static void gen_trailer(struct fx_buf *b, uint64_t st)
{
	b->len = 0;
	junk(b, 2);
	if (st & PERF_SAMPLE_TID) {
		tu_u32(b, V_PID);
		tu_u32(b, V_TID);
	}
	if (st & PERF_SAMPLE_TIME)
		tu_u64(b, V_TIME);
	if (st & PERF_SAMPLE_ID)
		tu_u64(b, V_ID);
	if (st & PERF_SAMPLE_STREAM_ID)
		tu_u64(b, V_STREAM);
	if (st & PERF_SAMPLE_CPU) {
		tu_u32(b, V_CPU);
		tu_u32(b, 0xdeadbeef);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		tu_u64(b, V_ID);
}

START_TEST(trailers_backwards)
{
	static const uint64_t items[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
					  PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					  PERF_SAMPLE_IDENTIFIER };
	unsigned subset, k;
	int be;

	for (subset = 0; subset < 64; subset++)
		for (be = 0; be < 2; be++) {
			/* other bits only shape samples, never trailers */
			struct spec sp = { .st = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD |
						 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW };
			struct fx_buf b = { .be = be };
			struct evsel ev;
			struct sample s;
			uint8_t *copy;
			size_t n;

			for (k = 0; k < 6; k++)
				if (subset & (1u << k))
					sp.st |= items[k];
			gen_trailer(&b, sp.st);
			evsel_for(&ev, &sp);
			ck_assert_uint_eq(ev.trailer_size, 8 * (size_t)__builtin_popcount(subset));
			copy = tu_exact_copy(b.p, b.len);
			ck_assert_int_eq(sample_id_parse(&ev, copy, b.len, srep_swap_for(be), &s), 0);
			ck_assert_int_eq(s.pid, sp.st & PERF_SAMPLE_TID ? V_PID : -1);
			ck_assert_int_eq(s.tid, sp.st & PERF_SAMPLE_TID ? V_TID : -1);
			ck_assert_uint_eq(s.time, sp.st & PERF_SAMPLE_TIME ? V_TIME : 0);
			ck_assert_int_eq(s.has_time, !!(sp.st & PERF_SAMPLE_TIME));
			ck_assert_uint_eq(s.id, sp.st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ?
					  V_ID : 0);
			ck_assert_uint_eq(s.stream_id, sp.st & PERF_SAMPLE_STREAM_ID ? V_STREAM : 0);
			ck_assert_int_eq(s.cpu, sp.st & PERF_SAMPLE_CPU ? V_CPU : -1);
			free(copy);
			/* a record shorter than its trailer is corrupt; nothing is read */
			for (n = 0; n < ev.trailer_size; n++) {
				copy = tu_exact_copy(b.p + b.len - n, n);
				if (sample_id_parse(&ev, copy, n, srep_swap_for(be), &s) != SREP_E_CORRUPT)
					ck_abort_msg("trailer 0x%x in %zu bytes", subset, n);
				free(copy);
			}
			tu_buf_free(&b);
		}
}
END_TEST

/* without sample_id_all there is no trailer, whatever the sample_type */
START_TEST(no_trailer_without_sample_id_all)
{
	struct spec sp = { .st = TRAILER_BITS };
	struct fx_buf b = { 0 };
	struct evsel ev;
	struct sample s;

	gen_trailer(&b, sp.st);
	evsel_for(&ev, &sp);
	ev.attr.flags = 0;
	sample_layout(&ev);
	ck_assert_uint_eq(ev.trailer_size, 0);
	ck_assert_int_eq(sample_id_parse(&ev, b.p, b.len, false, &s), 0);
	ck_assert_int_eq(s.pid, -1);
	ck_assert_int_eq(s.cpu, -1);
	ck_assert(!s.has_time);
	ck_assert_uint_eq(s.id, 0);
	ck_assert_int_eq(sample_id_parse(&ev, b.p, 0, false, &s), 0);
	tu_buf_free(&b);
}
END_TEST

/*
 * The user registers and stack of --call-graph dwarf samples (REGS_USER,
 * STACK_USER) are kept for the unwinder, not only stepped over: parsed in
 * both byte orders, the filled part of the stack bounded by what the kernel
 * copied, absent parts accepted, every truncation refused.
 */
#define DW_MASK 0xbull			/* three registers: bits 0, 1 and 3 */

struct dw_body {
	uint8_t b[256];
	size_t len;
	bool be;
};

static void dw_put64(struct dw_body *w, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		w->b[w->len + (size_t)i] = (uint8_t)(v >> (8 * (w->be ? 7 - i : i)));
	w->len += 8;
}

static void dw_evsel_init(struct evsel *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER;
	ev->attr.sample_regs_user = DW_MASK;
	sample_layout(ev);
}

/* tid, time, abi, 3 registers, a 32-byte stack of which the kernel filled 'dyn' */
static void dw_build(struct dw_body *w, bool be, uint64_t abi, uint64_t stack, uint64_t dyn)
{
	uint64_t i;

	memset(w, 0, sizeof(*w));
	w->be = be;
	dw_put64(w, 0x0000007b0000007bull);	/* pid 123, tid 123 */
	dw_put64(w, 5000);
	dw_put64(w, abi);
	if (abi) {
		dw_put64(w, 0x1111);
		dw_put64(w, 0x2222);
		dw_put64(w, 0x4444);
	}
	dw_put64(w, stack);
	if (stack) {
		for (i = 0; i < stack; i++)
			w->b[w->len++] = (uint8_t)i;
		dw_put64(w, dyn);
	}
}

START_TEST(dwarf_regs_and_stack_kept)
{
	bool be = _i;
	struct sample s;
	struct evsel ev;
	struct dw_body w;
	const char *why = "";

	dw_evsel_init(&ev);
	dw_build(&w, be, 2, 32, 24);
	ck_assert_int_eq(sample_parse(&ev, w.b, w.len, be != SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_uint_eq(s.regs_user_abi, 2);
	ck_assert_uint_eq(s.nr_regs_user, 3);
	ck_assert_uint_eq(srep_get64(s.regs_user + 16, be != SREP_HOST_BIG_ENDIAN), 0x4444);
	ck_assert_uint_eq(s.stack_user_size, 24);
	ck_assert_uint_eq(s.stack_user[5], 5);		/* the target's bytes, untouched */
	/* a dyn_size beyond the copy is cut to it */
	dw_build(&w, be, 2, 32, 999);
	ck_assert_int_eq(sample_parse(&ev, w.b, w.len, be != SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_uint_eq(s.stack_user_size, 32);
	/* no registers (abi 0) and no stack (size 0, then no dyn_size) */
	dw_build(&w, be, 0, 0, 0);
	ck_assert_int_eq(sample_parse(&ev, w.b, w.len, be != SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_uint_eq(s.regs_user_abi, 0);
	ck_assert_ptr_null(s.regs_user);
	ck_assert_ptr_null(s.stack_user);
	ck_assert_uint_eq(s.stack_user_size, 0);
}
END_TEST

/* every shorter body is refused, from a copy of exactly that size */
START_TEST(dwarf_truncations)
{
	const char *why = "";
	struct sample s;
	struct evsel ev;
	struct dw_body w;
	uint8_t *copy;
	size_t cut;

	dw_evsel_init(&ev);
	dw_build(&w, false, 2, 32, 24);
	for (cut = 0; cut < w.len; cut++) {
		copy = malloc(cut ? cut : 1);
		memcpy(copy, w.b, cut);
		ck_assert_msg(sample_parse(&ev, copy, cut, SREP_HOST_BIG_ENDIAN, &s, &why) != 0,
			      "%zu of %zu bytes accepted", cut, w.len);
		free(copy);
	}
	/* a stack size beyond the record */
	w.len = 0;
	dw_put64(&w, 0x0000007b0000007bull);
	dw_put64(&w, 5000);
	dw_put64(&w, 0);
	dw_put64(&w, UINT64_MAX - 4);
	ck_assert_int_ne(sample_parse(&ev, w.b, w.len, SREP_HOST_BIG_ENDIAN, &s, &why), 0);
	ck_assert_str_eq(why, "user stack");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sample");
	TCase *tc = tcase_create("sample");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, all_bits_at_once);
	tcase_add_test(tc, each_bit_alone);
	tcase_add_test(tc, read_formats);
	tcase_add_test(tc, branch_stacks);
	tcase_add_test(tc, registers_and_stack);
	tcase_add_loop_test(tc, dwarf_regs_and_stack_kept, 0, 2);
	tcase_add_test(tc, dwarf_truncations);
	tcase_add_test(tc, weights);
	tcase_add_test(tc, random_layouts);
	tcase_add_test(tc, huge_counts);
	tcase_add_test(tc, fixed_layout_chosen);
	tcase_add_test(tc, fixed_and_generic_agree);
	tcase_add_test(tc, layout_positions);
	tcase_add_test(tc, trailers_backwards);
	tcase_add_test(tc, no_trailer_without_sample_id_all);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
