// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sample.c - PERF_RECORD_SAMPLE bodies and sample_id trailers: every
 * sample_type bit is parsed or stepped over by its exact size.
 */
#include <string.h>

#include "reader.h"

#define TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static int count_bits(uint64_t v, uint64_t mask)
{
	return __builtin_popcountll(v & mask);
}

#define FIXED_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
		    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* byte offset of a fixed item: 8 bytes for each fixed item before it */
static int16_t fixed_off(uint64_t st, uint64_t bit)
{
	static const uint64_t order[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
		PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
		PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_RAW };
	int16_t off = 0;
	size_t i;

	if (!(st & bit))
		return -1;
	for (i = 0; order[i] != bit; i++)
		off += (st & order[i]) ? 8 : 0;
	return off;
}

/*
 * Samples made only of fixed items and RAW (what perf sched record writes)
 * are the hot path: their items sit at offsets computed once here.
 */
static void fixed_layout(struct evsel *ev)
{
	uint64_t st = ev->attr.sample_type;

	ev->fixed_layout = !(st & ~(FIXED_BITS | PERF_SAMPLE_RAW));
	ev->fixed_size = (uint16_t)(8 * count_bits(st, FIXED_BITS));
	ev->off_ip = fixed_off(st, PERF_SAMPLE_IP);
	ev->off_tid = fixed_off(st, PERF_SAMPLE_TID);
	ev->off_addr = fixed_off(st, PERF_SAMPLE_ADDR);
	ev->off_period = fixed_off(st, PERF_SAMPLE_PERIOD);
	ev->off_raw = fixed_off(st, PERF_SAMPLE_RAW);
}

void sample_layout(struct evsel *ev)
{
	uint64_t st = ev->attr.sample_type;
	int ident = !!(st & PERF_SAMPLE_IDENTIFIER);

	/* perf's __evsel__calc_id_pos() and __evsel__calc_is_pos() */
	if (ident)
		ev->id_pos = 0;
	else if (st & PERF_SAMPLE_ID)
		ev->id_pos = count_bits(st, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					PERF_SAMPLE_ADDR);
	else
		ev->id_pos = -1;
	if (ident)
		ev->is_pos = 1;
	else if (st & PERF_SAMPLE_ID)
		ev->is_pos = 1 + count_bits(st, PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID);
	else
		ev->is_pos = -1;
	ev->time_pos = (st & PERF_SAMPLE_TIME) ?
		ident + count_bits(st, PERF_SAMPLE_IP | PERF_SAMPLE_TID) : -1;
	ev->cpu_pos = (st & PERF_SAMPLE_CPU) ?
		ident + count_bits(st, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID) : -1;
	ev->trailer_size = attr_flag(&ev->attr, ATTR_F_SAMPLE_ID_ALL) ?
		8 * (size_t)count_bits(st, TRAILER_BITS) : 0;
	fixed_layout(ev);
}

/* the u32 pair of TID and CPU items: the lower address holds the first value */
static void pair32(struct srep_cur *c, int32_t *first, int32_t *second)
{
	*first = (int32_t)srep_get32(c->p, c->swap);
	*second = (int32_t)srep_get32(c->p + 4, c->swap);
	srep_cur_skip(c, 8);
}

int sample_id_parse(const struct evsel *ev, const uint8_t *body, size_t len, bool swap,
		    struct sample *out)
{
	uint64_t st = ev->attr.sample_type;
	struct srep_cur c;
	int32_t res;

	memset(out, 0, sizeof(*out));
	out->pid = out->tid = out->cpu = -1;
	if (!ev->trailer_size)
		return 0;
	if (ev->trailer_size > len)
		return SREP_E_CORRUPT;
	srep_cur_init(&c, body + len - ev->trailer_size, ev->trailer_size, 0, swap);
	if (st & PERF_SAMPLE_TID)
		pair32(&c, &out->pid, &out->tid);
	if (st & PERF_SAMPLE_TIME) {
		srep_cur_u64(&c, &out->time);
		out->has_time = true;
	}
	if (st & PERF_SAMPLE_ID)
		srep_cur_u64(&c, &out->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		srep_cur_u64(&c, &out->stream_id);
	if (st & PERF_SAMPLE_CPU)
		pair32(&c, &out->cpu, &res);
	if (st & PERF_SAMPLE_IDENTIFIER)
		srep_cur_u64(&c, &out->id);
	return 0;
}

/* read_format block: PERF_RECORD_READ and SAMPLE.READ */
static bool skip_read_format(struct srep_cur *c, uint64_t rf)
{
	uint64_t nr = 1, per;

	per = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	if (rf & PERF_FORMAT_GROUP) {
		if (!srep_cur_u64(c, &nr))
			return false;
		if (!srep_cur_skip(c, 8 * (size_t)(!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
						   !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING))))
			return false;
		return nr <= srep_cur_left(c) / per && srep_cur_skip(c, (size_t)(nr * per));
	}
	return srep_cur_skip(c, 8 * (size_t)(1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
					    !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST)));
}

/* u64 nr; then nr entries of 'each' bytes */
static bool counted_u64s(struct srep_cur *c, uint64_t *nr, size_t each, const uint8_t **p)
{
	if (!srep_cur_u64(c, nr) || *nr > srep_cur_left(c) / each)
		return false;
	return srep_cur_bytes(c, (size_t)*nr * each, p);
}

static bool parse_branches(const struct evsel *ev, struct srep_cur *c, struct sample *out)
{
	const uint8_t *p;
	size_t each = 24;

	if (!srep_cur_u64(c, &out->nr_branches))
		return false;
	if ((ev->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && !srep_cur_skip(c, 8))
		return false;
	if (ev->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
		each += 8;
	if (out->nr_branches > srep_cur_left(c) / each)
		return false;
	out->branches = srep_cur_bytes(c, (size_t)out->nr_branches * each, &p) ? p : NULL;
	out->branch_each = (uint32_t)each;
	return out->branches != NULL || !out->nr_branches;
}

static bool skip_regs(struct srep_cur *c, uint64_t mask)
{
	uint64_t abi;

	if (!srep_cur_u64(c, &abi))
		return false;
	return !abi || srep_cur_skip(c, 8 * (size_t)__builtin_popcountll(mask));
}

/* u64 abi, then (abi != 0) one u64 per bit of the mask */
static bool parse_regs_user(struct srep_cur *c, uint64_t mask, struct sample *out)
{
	uint32_t nr = (uint32_t)__builtin_popcountll(mask);

	if (!srep_cur_u64(c, &out->regs_user_abi))
		return false;
	if (!out->regs_user_abi)
		return true;
	out->nr_regs_user = nr;
	return srep_cur_bytes(c, 8 * (size_t)nr, &out->regs_user);
}

/* u64 size, then (size != 0) size bytes and u64 dyn_size: the bytes really copied */
static bool parse_stack_user(struct srep_cur *c, struct sample *out)
{
	uint64_t size, dyn;

	if (!srep_cur_u64(c, &size))
		return false;
	if (!size)
		return true;
	if (size > srep_cur_left(c) || !srep_cur_bytes(c, (size_t)size, &out->stack_user) ||
	    !srep_cur_u64(c, &dyn))
		return false;
	out->stack_user_size = dyn < size ? dyn : size;
	return true;
}

static bool u64_if(struct srep_cur *c, uint64_t st, uint64_t bit, uint64_t *v)
{
	return !(st & bit) || srep_cur_u64(c, v);
}

/* the fixed-size items that precede READ */
static bool parse_head(struct srep_cur *c, uint64_t st, struct sample *out)
{
	int32_t res;

	if (!u64_if(c, st, PERF_SAMPLE_IDENTIFIER, &out->id) ||
	    !u64_if(c, st, PERF_SAMPLE_IP, &out->ip))
		return false;
	if (st & PERF_SAMPLE_TID) {
		if (srep_cur_left(c) < 8)
			return false;
		pair32(c, &out->pid, &out->tid);
	}
	if (st & PERF_SAMPLE_TIME) {
		if (!srep_cur_u64(c, &out->time))
			return false;
		out->has_time = true;
	}
	if (!u64_if(c, st, PERF_SAMPLE_ADDR, &out->addr) ||
	    !u64_if(c, st, PERF_SAMPLE_ID, &out->id) ||
	    !u64_if(c, st, PERF_SAMPLE_STREAM_ID, &out->stream_id))
		return false;
	if (st & PERF_SAMPLE_CPU) {
		if (srep_cur_left(c) < 8)
			return false;
		pair32(c, &out->cpu, &res);
	}
	return u64_if(c, st, PERF_SAMPLE_PERIOD, &out->period);
}

/* the variable-size items from READ to BRANCH_STACK */
static bool parse_middle(const struct evsel *ev, struct srep_cur *c, struct sample *out,
			 const char **why)
{
	uint64_t st = ev->attr.sample_type;
	const uint8_t *p;
	uint32_t raw;

	if ((st & PERF_SAMPLE_READ) && !skip_read_format(c, ev->attr.read_format))
		return *why = "read values", false;
	if ((st & PERF_SAMPLE_CALLCHAIN) &&
	    !counted_u64s(c, &out->nr_callchain, 8, &out->callchain))
		return *why = "callchain", false;
	if (st & PERF_SAMPLE_RAW) {
		if (!srep_cur_u32(c, &raw) || !srep_cur_bytes(c, raw, &p))
			return *why = "raw data", false;
		out->raw = p;
		out->raw_size = raw;
	}
	if ((st & PERF_SAMPLE_BRANCH_STACK) && !parse_branches(ev, c, out))
		return *why = "branch stack", false;
	return true;
}

/* the items after BRANCH_STACK */
static bool parse_tail(const struct evsel *ev, struct srep_cur *c, struct sample *out,
		       const char **why)
{
	uint64_t st = ev->attr.sample_type, aux;

	if ((st & PERF_SAMPLE_REGS_USER) && !parse_regs_user(c, ev->attr.sample_regs_user, out))
		return *why = "user registers", false;
	if ((st & PERF_SAMPLE_STACK_USER) && !parse_stack_user(c, out))
		return *why = "user stack", false;
	if (!u64_if(c, st, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, &out->weight) ||
	    !u64_if(c, st, PERF_SAMPLE_DATA_SRC, &out->data_src) ||
	    !u64_if(c, st, PERF_SAMPLE_TRANSACTION, &out->transaction))
		return *why = "weight, data source or transaction", false;
	if ((st & PERF_SAMPLE_REGS_INTR) && !skip_regs(c, ev->attr.sample_regs_intr))
		return *why = "interrupt registers", false;
	if (!u64_if(c, st, PERF_SAMPLE_PHYS_ADDR, &out->phys_addr) ||
	    !u64_if(c, st, PERF_SAMPLE_CGROUP, &out->cgroup) ||
	    !u64_if(c, st, PERF_SAMPLE_DATA_PAGE_SIZE, &out->data_page_size) ||
	    !u64_if(c, st, PERF_SAMPLE_CODE_PAGE_SIZE, &out->code_page_size))
		return *why = "physical address, cgroup or page sizes", false;
	if (st & PERF_SAMPLE_AUX) {
		if (!srep_cur_u64(c, &aux) || aux > srep_cur_left(c) || !srep_cur_skip(c, (size_t)aux))
			return *why = "aux data", false;
	}
	return true;
}

static uint64_t u64_at(const uint8_t *body, int16_t off, bool swap)
{
	return off < 0 ? 0 : srep_get64(body + off, swap);
}

/* the fixed layout: every item at its precomputed offset (see fixed_layout) */
static int parse_fixed(const struct evsel *ev, const uint8_t *body, size_t len, bool swap,
		       struct sample *out, const char **why)
{
	size_t fixed = ev->fixed_size;
	uint32_t raw;

	if (len < fixed + (ev->off_raw >= 0 ? 4 : 0))
		return *why = "fixed fields", SREP_E_CORRUPT;
	/* only what the model reads is set; the rest of *out stays as it was */
	out->ip = u64_at(body, ev->off_ip, swap);
	out->addr = u64_at(body, ev->off_addr, swap);
	out->period = u64_at(body, ev->off_period, swap);
	out->pid = out->tid = -1;
	if (ev->off_tid >= 0) {
		out->pid = (int32_t)srep_get32(body + ev->off_tid, swap);
		out->tid = (int32_t)srep_get32(body + ev->off_tid + 4, swap);
	}
	out->has_time = ev->time_pos >= 0;
	out->time = out->has_time ? srep_get64(body + 8 * ev->time_pos, swap) : 0;
	out->cpu = ev->cpu_pos >= 0 ? (int32_t)srep_get32(body + 8 * ev->cpu_pos, swap) : -1;
	out->id = ev->id_pos >= 0 ? srep_get64(body + 8 * ev->id_pos, swap) : 0;
	out->nr_callchain = 0;
	out->callchain = NULL;
	out->nr_branches = 0;
	out->regs_user_abi = 0;
	out->stack_user_size = 0;
	out->stack_user = NULL;
	out->raw = NULL;
	out->raw_size = 0;
	if (ev->off_raw < 0)
		return 0;
	raw = srep_get32(body + ev->off_raw, swap);
	if (raw > len - fixed - 4)
		return *why = "raw data", SREP_E_CORRUPT;
	out->raw = body + ev->off_raw + 4;
	out->raw_size = raw;
	return 0;
}

int sample_parse(const struct evsel *ev, const uint8_t *body, size_t len, bool swap,
		 struct sample *out, const char **why)
{
	struct srep_cur c;

	if (ev->fixed_layout)
		return parse_fixed(ev, body, len, swap, out, why);
	memset(out, 0, sizeof(*out));
	out->pid = out->tid = out->cpu = -1;
	srep_cur_init(&c, body, len, 0, swap);
	if (!parse_head(&c, ev->attr.sample_type, out)) {
		*why = "fixed fields";
		return SREP_E_CORRUPT;
	}
	if (!parse_middle(ev, &c, out, why) || !parse_tail(ev, &c, out, why))
		return SREP_E_CORRUPT;
	return 0;
}
