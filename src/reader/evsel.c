// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evsel.c - event descriptions: perf_event_attr decoding for every attr size
 * and byte order, the id -> event map, and perf's rules for event names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "grow.h"

/* ---- perf_event_attr ---- */

/*
 * A big-endian writer allocates the flag bitfield from the most significant
 * end: a field at little-endian bit p, w bits wide, sits at bit 64 - p - w.
 * Re-place every flag at its little-endian position.
 */
static uint64_t flags_from_big_endian(uint64_t v)
{
	uint64_t out = 0;
	unsigned p;

	for (p = 0; p < 64; p++) {
		if (p == ATTR_F_PRECISE_IP || p == ATTR_F_PRECISE_IP + 1)
			continue;
		if (v & (1ull << (63 - p)))
			out |= 1ull << p;
	}
	out |= ((v >> (64 - ATTR_F_PRECISE_IP - 2)) & 3) << ATTR_F_PRECISE_IP;
	return out;
}

#define ATTR_U32(field, off) \
	do { if ((off) + 4 <= size) out->field = srep_get32(p + (off), swap); } while (0)
#define ATTR_U64(field, off) \
	do { if ((off) + 8 <= size) out->field = srep_get64(p + (off), swap); } while (0)

void evsel_attr_decode(struct perf_attr *out, const uint8_t *p, size_t size, bool big_endian)
{
	bool swap = srep_swap_for(big_endian);

	memset(out, 0, sizeof(*out));
	ATTR_U32(type, 0);
	ATTR_U32(size, 4);
	/* the writer filled attr.size bytes (0: the first ABI's 64, as the kernel
	   and perf read it); what lies beyond is not its data */
	if (size > (out->size ? out->size : PERF_ATTR_SIZE_VER0))
		size = out->size ? out->size : PERF_ATTR_SIZE_VER0;
	ATTR_U64(config, 8);
	ATTR_U64(sample_period, 16);
	ATTR_U64(sample_type, 24);
	ATTR_U64(read_format, 32);
	ATTR_U64(flags, 40);
	if (big_endian)
		out->flags = flags_from_big_endian(out->flags);
	ATTR_U32(wakeup_events, 48);
	ATTR_U32(bp_type, 52);
	ATTR_U64(config1, 56);
	ATTR_U64(config2, 64);
	ATTR_U64(branch_sample_type, 72);
	ATTR_U64(sample_regs_user, 80);
	ATTR_U32(sample_stack_user, 88);
	if (92 + 4 <= size)
		out->clockid = (int32_t)srep_get32(p + 92, swap);
	ATTR_U64(sample_regs_intr, 96);
	ATTR_U32(aux_watermark, 104);
	if (108 + 2 <= size)
		out->sample_max_stack = srep_get16(p + 108, swap);
	ATTR_U32(aux_sample_size, 112);
	ATTR_U32(aux_action, 116);
	ATTR_U64(sig_data, 120);
	ATTR_U64(config3, 128);
}

#undef ATTR_U32
#undef ATTR_U64

/* ---- id map: open addressing, id -> evsel index ---- */

static size_t id_hash(uint64_t id, size_t nr_slots)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdull;
	id ^= id >> 33;
	return (size_t)id & (nr_slots - 1);
}

static int id_map_grow(struct srep_session *s, struct srep_error *err)
{
	size_t nr = s->id_slots ? s->id_slots * 2 : 64, i, j;
	uint64_t *keys = calloc(nr, sizeof(*keys));
	uint32_t *vals = calloc(nr, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for event ids");
	}
	for (i = 0; i < s->id_slots; i++) {
		if (!s->id_vals[i])
			continue;
		j = id_hash(s->id_keys[i], nr);
		while (vals[j])
			j = (j + 1) & (nr - 1);
		keys[j] = s->id_keys[i];
		vals[j] = s->id_vals[i];
	}
	free(s->id_keys);
	free(s->id_vals);
	s->id_keys = keys;
	s->id_vals = vals;
	s->id_slots = nr;
	return 0;
}

static int id_map_put(struct srep_session *s, uint64_t id, uint32_t idx, struct srep_error *err)
{
	size_t j;
	int ret;

	if ((s->id_used + 1) * 2 > s->id_slots) {
		ret = id_map_grow(s, err);
		if (ret)
			return ret;
	}
	j = id_hash(id, s->id_slots);
	while (s->id_vals[j] && s->id_keys[j] != id)
		j = (j + 1) & (s->id_slots - 1);
	if (!s->id_vals[j])
		s->id_used++;
	s->id_keys[j] = id;
	s->id_vals[j] = idx + 1;
	s->id_cache_val[id & 63] = 0;
	return 0;
}

struct evsel *evsel_by_id_slow(const struct srep_session *s, uint64_t id)
{
	struct srep_session *mut = (struct srep_session *)s;
	size_t c = id & 63, j;

	if (!s->id_slots)
		return NULL;
	j = id_hash(id, s->id_slots);
	while (s->id_vals[j]) {
		if (s->id_keys[j] == id) {
			mut->id_cache_key[c] = id;
			mut->id_cache_val[c] = s->id_vals[j];
			return &s->evsels[s->id_vals[j] - 1];
		}
		j = (j + 1) & (s->id_slots - 1);
	}
	return NULL;
}

/* ---- evsels ---- */

struct evsel *evsel_add(struct srep_session *s, const struct perf_attr *attr,
			struct srep_error *err)
{
	struct evsel *ev, *n;

	if (s->nr_evsels >= SREP_MAX_ATTRS) {
		srep_error__set(err, SREP_E_LIMIT, "more than %u event descriptions", SREP_MAX_ATTRS);
		return NULL;
	}
	n = grow_array(s->evsels, &s->cap_evsels, s->nr_evsels, sizeof(*n), 8);
	if (!n) {
		srep_error__set(err, SREP_E_NOMEM, "no memory for event descriptions");
		return NULL;
	}
	s->evsels = n;
	ev = &s->evsels[s->nr_evsels++];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	sample_layout(ev);
	return ev;
}

int evsel_add_ids(struct srep_session *s, struct evsel *ev, const uint8_t *ids, size_t nr,
		  struct srep_error *err)
{
	uint64_t *n;
	size_t i;
	int ret;

	if (nr > SREP_MAX_IDS || ev->nr_ids + nr > SREP_MAX_IDS)
		return srep_error__set(err, SREP_E_LIMIT, "more than %u ids for one event", SREP_MAX_IDS);
	if (!nr)
		return 0;
	n = realloc(ev->ids, (ev->nr_ids + nr) * sizeof(*n));
	if (!n)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for event ids");
	ev->ids = n;
	for (i = 0; i < nr; i++) {
		uint64_t id = srep_get64(ids + 8 * i, s->swap);

		ev->ids[ev->nr_ids++] = id;
		ret = id_map_put(s, id, (uint32_t)(ev - s->evsels), err);
		if (ret)
			return ret;
	}
	return 0;
}

/* perf's evlist__id2evsel(): one event, or id 0, means the first one */
static struct evsel *evsel_resolve(const struct srep_session *s, uint64_t id)
{
	struct evsel *ev;

	if (s->nr_evsels == 1 || !id)
		return s->nr_evsels ? &s->evsels[0] : NULL;
	ev = evsel_by_id(s, id);
	if (ev)
		return ev;
	return attr_flag(&s->evsels[0].attr, ATTR_F_SAMPLE_ID_ALL) ? NULL : &s->evsels[0];
}

struct evsel *evsel_for_sample(const struct srep_session *s, const uint8_t *body, size_t len)
{
	const struct evsel *first = s->nr_evsels ? &s->evsels[0] : NULL;

	if (!first || s->nr_evsels == 1 || first->id_pos < 0)
		return (struct evsel *)first;
	if ((size_t)first->id_pos * 8 + 8 > len)
		return NULL;
	return evsel_resolve(s, srep_get64(body + 8 * first->id_pos, s->swap));
}

struct evsel *evsel_for_trailer(const struct srep_session *s, const uint8_t *body, size_t len)
{
	const struct evsel *first = s->nr_evsels ? &s->evsels[0] : NULL;

	if (!first || s->nr_evsels == 1 || first->is_pos < 0 || !first->trailer_size)
		return (struct evsel *)first;
	if ((size_t)first->is_pos * 8 > len)
		return NULL;
	return evsel_resolve(s, srep_get64(body + len - 8 * (size_t)first->is_pos, s->swap));
}

int evsel_set_name(struct evsel *ev, const char *name, bool from_file)
{
	char *n = strdup(name);

	if (!n)
		return SREP_E_NOMEM;
	free(ev->name);
	ev->name = n;
	ev->name_from_file = from_file;
	return 0;
}

/* ---- perf's derived names (tools/perf/util/evsel.c rules) ---- */

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB",
					   "branch", "node" };
static const char *const cache_ops[][2] = { { "load", "loads" }, { "store", "stores" },
					    { "prefetch", "prefetches" } };
static const char *const cache_results[] = { "refs", "misses" };
/* which ops each cache supports (perf's evsel__hw_cache_stat) */
static const uint8_t cache_ops_valid[] = { 7, 5, 7, 7, 1, 1, 7 };

static size_t add_modifiers(const struct perf_attr *a, char *buf, size_t size)
{
	bool guest_default = false;
	unsigned precise = (unsigned)(a->flags >> ATTR_F_PRECISE_IP) & 3;
	size_t n = 0, colon = 0;

#define MOD(bit, c) do { if (!attr_flag(a, bit) && n + 2 < size) {	\
		if (!colon) colon = ++n;					\
		buf[n++] = (c); } } while (0)
	if (attr_flag(a, ATTR_F_EXCLUDE_KERNEL) || attr_flag(a, ATTR_F_EXCLUDE_USER) ||
	    attr_flag(a, ATTR_F_EXCLUDE_HV)) {
		MOD(ATTR_F_EXCLUDE_KERNEL, 'k');
		MOD(ATTR_F_EXCLUDE_USER, 'u');
		MOD(ATTR_F_EXCLUDE_HV, 'h');
		guest_default = true;
	}
	if (precise) {
		if (!colon)
			colon = ++n;
		while (precise-- && n + 2 < size)
			buf[n++] = 'p';
		guest_default = true;
	}
	if (attr_flag(a, ATTR_F_EXCLUDE_HOST) || attr_flag(a, ATTR_F_EXCLUDE_GUEST) == guest_default) {
		MOD(ATTR_F_EXCLUDE_HOST, 'H');
		MOD(ATTR_F_EXCLUDE_GUEST, 'G');
	}
#undef MOD
	if (colon)
		buf[colon - 1] = ':';
	buf[n] = '\0';
	return n;
}

static int cache_name(uint64_t config, char *buf, size_t size)
{
	unsigned type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= 7)
		return snprintf(buf, size, "unknown-ext-hardware-cache-type");
	if (op >= 3)
		return snprintf(buf, size, "unknown-ext-hardware-cache-op");
	if (res >= 2)
		return snprintf(buf, size, "unknown-ext-hardware-cache-result");
	if (!(cache_ops_valid[type] & (1u << op)))
		return snprintf(buf, size, "invalid-cache");
	if (res)
		return snprintf(buf, size, "%s-%s-%s", cache_names[type], cache_ops[op][0],
				cache_results[res]);
	return snprintf(buf, size, "%s-%s", cache_names[type], cache_ops[op][1]);
}

void evsel_default_name(const struct srep_session *s, const struct evsel *ev, char *buf,
			size_t size)
{
	const struct perf_attr *a = &ev->attr;
	int n = 0;

	(void)s;
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		n = snprintf(buf, size, "%s", a->config < 10 ? hw_names[a->config] : "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		n = snprintf(buf, size, "%s", a->config < 12 ? sw_names[a->config] : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		n = cache_name(a->config, buf, size);
		break;
	case PERF_TYPE_RAW:
		n = snprintf(buf, size, "raw 0x%" PRIx64, a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		n = snprintf(buf, size, "mem:0x%" PRIx64 ":%s%s%s", a->config1,
			     a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
			     a->bp_type & 4 ? "x" : "");
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, size, "unknown tracepoint");
		return;
	default:
		snprintf(buf, size, "unknown attr type: %u", a->type);
		return;
	}
	if (n > 0 && (size_t)n < size)
		add_modifiers(a, buf + n, size - (size_t)n);
}
