// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fixture.c - the fixture writer writes real perf.data.
 *
 * Every combination of byte order, word size, container, compression and
 * sample id style is written to memory and walked by a small reader that
 * shares no code with the writer (only bytes.h); where perf 6.1 can read
 * the combination, perf's own counts must equal fixture_info's. Set
 * SREP_PERF to choose the perf binary ("perf" from PATH by default).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "reader.h"
#include "fixture.h"
#include "testutil.h"

#define T0 5170000000000ull		/* a plausible perf clock: 5170 s after boot */

/* ------------------------------------------------------------------ */
/* combinations                                                         */
/* ------------------------------------------------------------------ */

enum zmode { Z_NONE, Z_PLAIN, Z_SPLIT, Z_TWO, NR_ZMODES };

/* combination number -> options: bit 0 BE, 1 32-bit, 2 pipe, 3 identifier,
   4 kernel 6.18, then the compression mode */
static struct fixture_opts combo_opts(int i)
{
	struct fixture_opts o = {
		.big_endian = i & 1, .word_size = i & 2 ? 4 : 8, .pipe = i & 4,
		.sample_identifier = i & 8,
		.kernel = i & 16 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1,
	};
	enum zmode z = (enum zmode)(i >> 5);

	o.compressed = z != Z_NONE;
	o.compressed2 = z == Z_TWO;
	o.split_every = z == Z_SPLIT ? 3 : 0;
	o.chunk_records = z == Z_SPLIT ? 5 : 0;
	return o;
}

#define NR_COMBOS (32 * NR_ZMODES)

static const char *combo_name(const struct fixture_opts *o)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s%d %s %s %s%s%s", o->big_endian ? "be" : "le",
		 o->word_size * 8, o->pipe ? "pipe" : "file",
		 o->sample_identifier ? "identifier" : "id",
		 o->kernel == FIXTURE_KERNEL_6_18 ? "6.18" : "6.1",
		 o->compressed2 ? " zstd2" : o->compressed ? " zstd" : "",
		 o->split_every ? "+split" : "");
	return buf;
}

/* ------------------------------------------------------------------ */
/* a trace that uses every builder call perf can read                   */
/* ------------------------------------------------------------------ */

struct scenario {
	int sw, clk;
};

static void scenario_tasks(struct fixture *fx)
{
	fixture_comm(fx, T0 + 100, 0, 1000, 1000, "perf", false);
	fixture_comm(fx, T0 + 110, 0, 1001, 1001, "sleeper", true);
	fixture_comm(fx, T0 + 120, 1, 1002, 1002, "worker", true);
	fixture_fork(fx, T0 + 130, 1, 1002, 1002, 1003, 1002);
	fixture_comm(fx, T0 + 140, 1, 1002, 1003, "worker-thr", false);
	fixture_mmap2(fx, T0 + 150, 1, 1002, 1002, 0x400000, 0x2000, 0, "/usr/bin/worker");
}

static void scenario_sched(struct fixture *fx, int i)
{
	uint64_t t = T0 + 1000 + 1000 * (uint64_t)i;
	int cpu = i % 2;
	int32_t tid = 1001 + i % 3;
	const char *comm = i % 3 == 0 ? "sleeper" : i % 3 == 1 ? "worker" : "worker-thr";

	fixture_switch(fx, t, cpu, "swapper", 0, 120, FIXTURE_STATE_R, comm, tid, 120);
	fixture_stat_runtime(fx, t + 300, cpu, comm, tid, 300 + (uint64_t)i, 1000000 + (uint64_t)i);
	fixture_waking(fx, t + 400, cpu, "sleeper", 1001, 120, 1 - cpu);
	fixture_switch(fx, t + 500, cpu, comm, tid, 120,
		       i % 4 == 0 ? FIXTURE_STATE_S : i % 4 == 1 ? FIXTURE_STATE_D :
		       i % 4 == 2 ? FIXTURE_STATE_PREEMPT : FIXTURE_STATE_I, "swapper", 0, 120);
	if (i % 10 == 9)
		fixture_finished_round(fx);
}

static void scenario_end(struct fixture *fx, const struct scenario *s, bool k61)
{
	uint64_t chain[4] = { SREP_CONTEXT_USER, 0x400100, 0x400200, 0x400300 };
	uint64_t t = T0 + 100000;

	fixture_set_current(fx, 1, 1002, 1003);
	fixture_sample(fx, s->clk, t, 1, 1002, 1003, 0x400123, 250000, 4, chain);
	fixture_wakeup(fx, t + 10, 0, "worker", 1002, 120, 1);
	fixture_wakeup_new(fx, t + 20, 1, "child", 1004, 120, 0);
	fixture_tp_fork(fx, t + 15, 1, "worker", 1002, "child", 1004);	/* out of order */
	fixture_migrate(fx, t + 30, 1, "child", 1004, 120, 1, 0);
	fixture_exec(fx, t + 40, 0, "/bin/true", 1004, 1004);
	fixture_tp_exit(fx, t + 50, 0, "true", 1004, 120);
	fixture_exit(fx, t + 51, 0, 1004, 1002, 1004, 1002);
	fixture_tp_free(fx, t + 60, 1, "true", 1004, 120);
	if (k61)
		fixture_stat_delay(fx, "sched_stat_sleep", t + 70, 0, "sleeper", 1001, 5000);
	fixture_cpu_idle(fx, t + 80, 0, 1);
	fixture_cpu_frequency(fx, t + 90, 1, 2400000, 1);
	fixture_lost(fx, s->sw, t + 100, 0, 17);
	fixture_lost_samples(fx, s->sw, t + 110, 1, 5);
	fixture_switch_record(fx, t + 120, 0, 1001, 1001, true, false);
	fixture_switch_cpu_wide(fx, t + 130, 1, 1002, 1002, true, true, 0, 0);
	fixture_finished_round(fx);
}

static struct fixture *scenario_new(const struct fixture_opts *o)
{
	struct fixture *fx = fixture_new(o);
	struct scenario s;

	ck_assert_ptr_nonnull(fx);
	s.sw = fixture_add_tracepoint(fx, "sched", "sched_switch");
	s.clk = fixture_add_event(fx, PERF_TYPE_SOFTWARE, 0, PERF_SAMPLE_CALLCHAIN);
	ck_assert_int_eq(s.sw, 0);
	ck_assert_int_eq(s.clk, 1);
	scenario_tasks(fx);
	for (int i = 0; i < 40; i++)
		scenario_sched(fx, i);
	scenario_end(fx, &s, o->kernel == FIXTURE_KERNEL_6_1);
	return fx;
}

/* ------------------------------------------------------------------ */
/* the walker: an independent reader of what the fixture wrote          */
/* ------------------------------------------------------------------ */

struct walk {
	bool be, swap;
	int nr_attrs;
	uint32_t attr_type[FIXTURE_MAX_EVSELS], attr_size_field[FIXTURE_MAX_EVSELS];
	uint64_t attr_config[FIXTURE_MAX_EVSELS];
	uint64_t ids[FIXTURE_MAX_EVSELS][FIXTURE_MAX_CPUS];
	int nr_ids[FIXTURE_MAX_EVSELS];
	uint64_t sample_type;
	uint64_t attr_size;
	int bitmap_word;			/* 8 or 4: how the feature bitmap decoded */
	unsigned feats[64];
	int nr_feats;
	const uint8_t *tracing;
	size_t tracing_len;
	uint64_t records[FIXTURE_RECORD_TYPES], other, total;
	uint64_t samples[FIXTURE_MAX_EVSELS];
	uint64_t nr_split;
	uint64_t first_time, last_time;
	ZSTD_DStream *zd;
	uint8_t *pend;				/* decompressed bytes not yet walked */
	size_t pend_len, pend_cap;
	char err[256];
};

static bool walk_fail(struct walk *w, const char *what, uint64_t off)
{
	if (!w->err[0])
		snprintf(w->err, sizeof(w->err), "%s at offset %#llx", what,
			 (unsigned long long)off);
	return false;
}

static uint16_t rd16(const struct walk *w, const uint8_t *p) { return srep_get16(p, w->swap); }
static uint32_t rd32(const struct walk *w, const uint8_t *p) { return srep_get32(p, w->swap); }
static uint64_t rd64(const struct walk *w, const uint8_t *p) { return srep_get64(p, w->swap); }

static int evsel_of_id(const struct walk *w, uint64_t id)
{
	for (int i = 0; i < w->nr_attrs; i++)
		for (int j = 0; j < w->nr_ids[i]; j++)
			if (w->ids[i][j] == id)
				return i;
	return -1;
}

static void note_time(struct walk *w, uint64_t t)
{
	if (!w->first_time || t < w->first_time)
		w->first_time = t;
	if (t > w->last_time)
		w->last_time = t;
}

/* SAMPLE: id first (IDENTIFIER) or after IP, TID, TIME; time at u64 2 or 3 */
static bool walk_sample(struct walk *w, const uint8_t *p, size_t size, uint64_t off)
{
	bool ident = w->sample_type & PERF_SAMPLE_IDENTIFIER;
	int ev;

	if (size < 8 + 5 * 8)
		return walk_fail(w, "short sample", off);
	ev = evsel_of_id(w, rd64(w, p + 8 + (ident ? 0 : 24)));
	if (ev < 0)
		return walk_fail(w, "sample with an unknown id", off);
	w->samples[ev]++;
	note_time(w, rd64(w, p + 8 + (ident ? 24 : 16)));
	return true;
}

static bool walk_one(struct walk *w, const uint8_t *p, size_t size, uint64_t off, bool inner);

/* records in [p, p + len); 'inner' ones came out of zstd */
static bool walk_stream(struct walk *w, const uint8_t *p, size_t len, uint64_t off, bool inner,
			size_t *used)
{
	size_t pos = 0;

	while (pos < len) {
		uint32_t size;

		if (len - pos < 8 || (size = rd16(w, p + pos + 6)) > len - pos)
			break;			/* incomplete: the caller decides */
		if (size < 8)
			return walk_fail(w, "record smaller than its header", off + pos);
		if (!walk_one(w, p + pos, size, off + pos, inner))
			return false;
		pos += size;
		if (rd32(w, p + pos - size) == PERF_RECORD_HEADER_TRACING_DATA) {
			uint32_t extra = rd32(w, p + pos - size + 8);

			if (extra > len - pos)
				return walk_fail(w, "tracing data past the end", off + pos);
			w->tracing = p + pos;
			w->tracing_len = extra;
			pos += extra;
		}
	}
	*used = pos;
	return true;
}

/* feed one payload into the file's single zstd stream; walk what is complete */
static bool walk_zstd(struct walk *w, const uint8_t *src, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t used;

	while (in.pos < in.size) {
		if (w->pend_cap - w->pend_len < 65536) {
			w->pend_cap = w->pend_cap * 2 + 65536;
			w->pend = realloc(w->pend, w->pend_cap);
			ck_assert_ptr_nonnull(w->pend);
		}
		ZSTD_outBuffer out = { w->pend + w->pend_len, w->pend_cap - w->pend_len, 0 };

		if (ZSTD_isError(ZSTD_decompressStream(w->zd, &out, &in)))
			return walk_fail(w, "zstd error", off);
		w->pend_len += out.pos;
	}
	if (!walk_stream(w, w->pend, w->pend_len, 0, true, &used))
		return false;
	memmove(w->pend, w->pend + used, w->pend_len - used);
	w->pend_len -= used;
	w->nr_split += w->pend_len > 0;	/* a record goes on in the next payload */
	return true;
}

static bool walk_pipe_attr(struct walk *w, const uint8_t *p, size_t size, uint64_t off)
{
	uint32_t asz = rd32(w, p + 12);
	int i = w->nr_attrs;

	if (i == FIXTURE_MAX_EVSELS || asz < 64 || 8 + asz > size || (size - 8 - asz) % 8)
		return walk_fail(w, "bad HEADER_ATTR", off);
	w->attr_type[i] = rd32(w, p + 8);
	w->attr_size_field[i] = asz;
	w->attr_config[i] = rd64(w, p + 16);
	w->sample_type = rd64(w, p + 32);
	w->nr_ids[i] = (int)((size - 8 - asz) / 8);
	for (int j = 0; j < w->nr_ids[i] && j < FIXTURE_MAX_CPUS; j++)
		w->ids[i][j] = rd64(w, p + 8 + asz + 8 * (size_t)j);
	w->nr_attrs++;
	return true;
}

/* kernel records other than SAMPLE end with the trailer: time is 3rd u64 from the end */
static bool walk_one(struct walk *w, const uint8_t *p, size_t size, uint64_t off, bool inner)
{
	uint32_t type = rd32(w, p);

	w->total++;
	if (type < FIXTURE_RECORD_TYPES)
		w->records[type]++;
	else
		w->other++;
	if (type == PERF_RECORD_SAMPLE)
		return walk_sample(w, p, size, off);
	if (type < PERF_RECORD_KERNEL_MAX && size >= 8 + 32)
		note_time(w, rd64(w, p + size - 24));
	if ((type == PERF_RECORD_COMPRESSED || type == PERF_RECORD_COMPRESSED2) && inner)
		return walk_fail(w, "compressed record inside compressed data", off);
	if (type == PERF_RECORD_COMPRESSED)
		return walk_zstd(w, p + 8, size - 8, off);
	if (type == PERF_RECORD_COMPRESSED2) {
		uint64_t n = size >= 16 ? rd64(w, p + 8) : UINT64_MAX;

		if (n > size - 16 || size % 8)
			return walk_fail(w, "bad COMPRESSED2 sizes", off);
		return walk_zstd(w, p + 16, n, off);
	}
	if (type == PERF_RECORD_HEADER_ATTR)
		return walk_pipe_attr(w, p, size, off);
	if (type == PERF_RECORD_HEADER_FEATURE && w->nr_feats < 64)
		w->feats[w->nr_feats++] = (unsigned)rd64(w, p + 8);
	return true;
}

static bool walk_records(struct walk *w, const uint8_t *p, size_t len, uint64_t off)
{
	size_t used;

	w->zd = ZSTD_createDStream();
	ck_assert_ptr_nonnull(w->zd);
	ZSTD_initDStream(w->zd);
	if (!walk_stream(w, p, len, off, false, &used))
		return false;
	if (used != len)
		return walk_fail(w, "record sizes do not add up to the data size", off + used);
	if (w->pend_len)
		return walk_fail(w, "compressed data ends inside a record", off + len);
	return true;
}

/* the bitmap as 4 x u64 (64-bit writer) or, if HOSTNAME is not there, 8 x u32 */
static void walk_bitmap(struct walk *w, const uint8_t *p)
{
	w->bitmap_word = 8;
	if (!(rd64(w, p) & (1u << 3)))
		w->bitmap_word = 4;
	for (unsigned bit = 0; bit < 256; bit++) {
		bool set = w->bitmap_word == 8 ? rd64(w, p + bit / 64 * 8) >> (bit % 64) & 1 :
						 rd32(w, p + bit / 32 * 4) >> (bit % 32) & 1;

		if (set && w->nr_feats < 64)
			w->feats[w->nr_feats++] = bit;
	}
}

static bool walk_attrs(struct walk *w, const uint8_t *buf, size_t len)
{
	uint64_t off = rd64(w, buf + 24), size = rd64(w, buf + 32);

	if (w->attr_size < 64 + 16 || off > len || size > len - off || size % w->attr_size)
		return walk_fail(w, "bad attrs section", 24);
	w->nr_attrs = (int)(size / w->attr_size);
	if (w->nr_attrs > FIXTURE_MAX_EVSELS)
		return walk_fail(w, "too many attrs", off);
	for (int i = 0; i < w->nr_attrs; i++) {
		const uint8_t *a = buf + off + w->attr_size * (uint64_t)i;
		uint64_t ids_off = rd64(w, a + w->attr_size - 16);
		uint64_t ids_size = rd64(w, a + w->attr_size - 8);

		if (ids_off > len || ids_size > len - ids_off || ids_size % 8 ||
		    ids_size / 8 > FIXTURE_MAX_CPUS)
			return walk_fail(w, "ids out of the file", off);
		w->attr_type[i] = rd32(w, a);
		w->attr_size_field[i] = rd32(w, a + 4);
		w->attr_config[i] = rd64(w, a + 8);
		w->sample_type = rd64(w, a + 24);
		w->nr_ids[i] = (int)(ids_size / 8);
		for (int j = 0; j < w->nr_ids[i]; j++)
			w->ids[i][j] = rd64(w, buf + ids_off + 8 * (uint64_t)j);
	}
	return true;
}

/* the table right after the data: one {offset, size} per set bit, in range */
static bool walk_features(struct walk *w, const uint8_t *buf, size_t len, uint64_t table)
{
	uint64_t end = table + 16 * (uint64_t)w->nr_feats;

	if (end > len)
		return walk_fail(w, "feature table past the end", table);
	for (int i = 0; i < w->nr_feats; i++) {
		uint64_t off = rd64(w, buf + table + 16 * i), size = rd64(w, buf + table + 16 * i + 8);

		if (off != end || size > len - off)
			return walk_fail(w, "feature section out of place", table + 16 * i);
		if (w->feats[i] == 1) {
			w->tracing = buf + off;
			w->tracing_len = size;
		}
		end = off + size;
	}
	if (end != len)
		return walk_fail(w, "bytes after the last feature", end);
	return true;
}

static bool walk_file(struct walk *w, const uint8_t *buf, size_t len)
{
	uint64_t data_off, data_size;

	if (len < 104 || rd64(w, buf + 8) != 104)
		return walk_fail(w, "header size is not 104", 8);
	w->attr_size = rd64(w, buf + 16);
	data_off = rd64(w, buf + 40);
	data_size = rd64(w, buf + 48);
	if (data_off < 104 || data_off > len || data_size > len - data_off)
		return walk_fail(w, "data section out of the file", 40);
	if (!walk_attrs(w, buf, len))
		return false;
	walk_bitmap(w, buf + 72);
	if (!walk_features(w, buf, len, data_off + data_size))
		return false;
	return walk_records(w, buf + data_off, data_size, data_off);
}

static bool walk(struct walk *w, const uint8_t *buf, size_t len)
{
	memset(w, 0, sizeof(*w));
	if (len < 16)
		return walk_fail(w, "short file", 0);
	if (!memcmp(buf, "PERFILE2", 8))
		w->be = false;
	else if (!memcmp(buf, "2ELIFREP", 8))
		w->be = true;
	else
		return walk_fail(w, "bad magic", 0);
	w->swap = srep_swap_for(w->be);
	if (rd64(w, buf + 8) == 16)
		return walk_records(w, buf + 16, len - 16, 16);
	return walk_file(w, buf, len);
}

static void walk_free(struct walk *w)
{
	ZSTD_freeDStream(w->zd);
	free(w->pend);
}

/* ------------------------------------------------------------------ */
/* the tracing blob, read independently                                 */
/* ------------------------------------------------------------------ */

struct blob {
	bool be;
	int long_size;
	uint32_t page_size;
	int nr_formats;
	const char *formats[32];		/* NUL-terminated copies */
};

static bool blob_text(const uint8_t **p, const uint8_t *end, bool swap, const char **text)
{
	uint64_t n;

	if (end - *p < 8)
		return false;
	n = srep_get64(*p, swap);
	*p += 8;
	if (n > (uint64_t)(end - *p))
		return false;
	*text = strndup((const char *)*p, n);
	*p += n;
	return true;
}

static bool blob_parse(struct blob *b, const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len;
	const char *text;
	bool swap;
	uint32_t n;

	memset(b, 0, sizeof(*b));
	if (len < 18 || memcmp(p, "\x17\x08\x44tracing0.6", 14))
		return false;
	p += 14;
	b->be = p[0];
	b->long_size = p[1];
	swap = srep_swap_for(b->be);
	b->page_size = srep_get32(p + 2, swap);
	p += 6;
	for (int i = 0; i < 2; i++) {		/* header_page, header_event */
		p += strlen((const char *)p) + 1;
		if (!blob_text(&p, end, swap, &text))
			return false;
		free((char *)text);
	}
	p += 4;					/* ftrace formats: the fixture writes none */
	n = srep_get32(p, swap);		/* systems */
	p += 4;
	for (uint32_t s = 0; s < n; s++) {
		uint32_t nr;

		p += strlen((const char *)p) + 1;
		nr = srep_get32(p, swap);
		p += 4;
		for (uint32_t i = 0; i < nr; i++)
			if (b->nr_formats == 32 || !blob_text(&p, end, swap, &b->formats[b->nr_formats++]))
				return false;
	}
	/* empty kallsyms, printk, saved_cmdlines; then pipe mode's padding to 8 */
	return end - p >= 4 + 4 + 8 && end - p < 4 + 4 + 8 + 8;
}

static void blob_free(struct blob *b)
{
	for (int i = 0; i < b->nr_formats; i++)
		free((char *)b->formats[i]);
}

static const char *blob_format(const struct blob *b, const char *name)
{
	char want[64];

	snprintf(want, sizeof(want), "name: %s\n", name);
	for (int i = 0; i < b->nr_formats; i++)
		if (!strncmp(b->formats[i], want, strlen(want)))
			return b->formats[i];
	return NULL;
}

/* offset and size of 'field' read from the format text */
static bool format_field(const char *fmt, const char *field, unsigned *off, unsigned *size)
{
	char want[64];
	const char *at;

	snprintf(want, sizeof(want), " %s;\toffset:", field);
	at = strstr(fmt, want);
	return at && sscanf(at + strlen(want), "%u;\tsize:%u;", off, size) == 2;
}

/* ------------------------------------------------------------------ */
/* tests: the walker agrees with fixture_info in every combination      */
/* ------------------------------------------------------------------ */

static void check_counts(const struct walk *w, const struct fixture_info *info,
			 const char *name)
{
	for (int t = 0; t < FIXTURE_RECORD_TYPES; t++)
		ck_assert_msg(w->records[t] == info->records[t], "%s: type %d: walked %llu, info %llu",
			      name, t, (unsigned long long)w->records[t],
			      (unsigned long long)info->records[t]);
	ck_assert_uint_eq(w->other, info->other_records);
	ck_assert_uint_eq(w->total, info->total);
	ck_assert_int_eq(w->nr_attrs, info->nr_evsels);
	for (int i = 0; i < info->nr_evsels; i++)
		ck_assert_msg(w->samples[i] == info->samples[i], "%s: evsel %d samples", name, i);
	ck_assert_uint_eq(w->nr_split, info->nr_split);
	ck_assert_uint_eq(w->first_time, info->first_time);
	ck_assert_uint_eq(w->last_time, info->last_time);
}

static void check_tracepoint_ids(const struct walk *w, const struct fixture_opts *o)
{
	struct blob b;

	ck_assert_ptr_nonnull(w->tracing);
	ck_assert(blob_parse(&b, w->tracing, w->tracing_len));
	ck_assert_int_eq(b.be, o->big_endian);
	ck_assert_int_eq(b.long_size, o->word_size);
	ck_assert_uint_eq(b.page_size, 4096);
	for (int i = 0; i < w->nr_attrs; i++) {
		char want[32];
		bool found = false;

		if (w->attr_type[i] != PERF_TYPE_TRACEPOINT)
			continue;
		snprintf(want, sizeof(want), "\nID: %llu\n", (unsigned long long)w->attr_config[i]);
		for (int f = 0; f < b.nr_formats; f++)
			found |= strstr(b.formats[f], want) != NULL;
		ck_assert_msg(found, "no format with config %llu",
			      (unsigned long long)w->attr_config[i]);
	}
	blob_free(&b);
}

static bool has_feat(const struct walk *w, unsigned id)
{
	for (int i = 0; i < w->nr_feats; i++)
		if (w->feats[i] == id)
			return true;
	return false;
}

START_TEST(test_walk_combination)
{
	struct fixture_opts o = combo_opts(_i);
	struct fixture *fx = scenario_new(&o);
	struct fixture_info info;
	struct walk w;
	uint8_t *buf;
	size_t len;

	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, &info), 0);
	ck_assert_msg(walk(&w, buf, len), "%s: %s", combo_name(&o), w.err);
	ck_assert_int_eq(w.be, o.big_endian);
	check_counts(&w, &info, combo_name(&o));
	check_tracepoint_ids(&w, &o);
	ck_assert(has_feat(&w, 3) && has_feat(&w, 12) && has_feat(&w, 23));
	ck_assert_int_eq(has_feat(&w, 27), o.compressed);
	if (!o.pipe) {
		ck_assert_int_eq(w.bitmap_word, o.big_endian ? o.word_size : 8);
		ck_assert_uint_eq(w.attr_size, 144);
		ck_assert_uint_eq(info.data_offset + info.data_size + 16 * (uint64_t)w.nr_feats <=
				  info.file_size, 1);
	} else {
		ck_assert_uint_eq(w.feats[w.nr_feats - 1], 32);	/* the end marker */
	}
	if (o.split_every)
		ck_assert_uint_gt(info.nr_split, 10);
	ck_assert_uint_eq(info.file_size, len);
	walk_free(&w);
	free(buf);
	fixture_free(fx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* tests: single options                                                */
/* ------------------------------------------------------------------ */

static void write_and_walk(struct fixture *fx, struct walk *w, struct fixture_info *info)
{
	uint8_t *buf;
	size_t len;

	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, info), 0);
	ck_assert_msg(walk(w, buf, len), "%s", w->err);
	check_counts(w, info, "single option");
	free(buf);
}

START_TEST(test_attr_sizes)
{
	struct fixture_opts o = { .attr_size_extra = 8 };
	struct fixture_opts o2 = { .attr_size_field = 120, .big_endian = true };
	struct fixture_info info;
	struct walk w;
	struct fixture *fx = scenario_new(&o);

	write_and_walk(fx, &w, &info);
	ck_assert_uint_eq(w.attr_size, 152);	/* perf 6.12's 136-byte attr */
	ck_assert_uint_eq(w.attr_size_field[0], 136);
	walk_free(&w);
	fixture_free(fx);

	fx = scenario_new(&o2);
	write_and_walk(fx, &w, &info);
	ck_assert_uint_eq(w.attr_size, 144);	/* simpleperf: 120 in a 144-byte entry */
	ck_assert_uint_eq(w.attr_size_field[0], 120);
	walk_free(&w);
	fixture_free(fx);
}
END_TEST

START_TEST(test_rounds_and_plain_head)
{
	struct fixture_opts o = { .compressed = true, .plain_head = 4, .round_every = 10 };
	struct fixture *fx = fixture_new(&o);
	struct fixture_info info;
	struct walk w;
	uint8_t *buf;
	size_t len;

	for (int i = 0; i < 30; i++)
		fixture_comm(fx, T0 + (uint64_t)i, 0, 100 + i, 100 + i, "t", false);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, &info), 0);
	ck_assert_msg(walk(&w, buf, len), "%s", w.err);
	check_counts(&w, &info, "rounds");
	ck_assert_uint_eq(info.records[PERF_RECORD_FINISHED_ROUND], 3);
	ck_assert_uint_eq(info.records[PERF_RECORD_COMM], 30);
	ck_assert_uint_eq(info.nr_tids, 30);
	/* the first record of the data section is a plain COMM */
	ck_assert_uint_eq(srep_get32(buf + info.data_offset, false), PERF_RECORD_COMM);
	walk_free(&w);
	free(buf);
	fixture_free(fx);
}
END_TEST

START_TEST(test_raw_and_unknown_records)
{
	struct fixture_opts o = { .compressed = true, .split_every = 1 };
	struct fixture *fx = fixture_new(&o);
	struct fixture_info info;
	struct walk w;
	uint8_t body[24] = { 1, 2, 3 };

	ck_assert_int_eq(fixture_raw_record(fx, 200, 0, body, sizeof(body)), 0);
	ck_assert_int_eq(fixture_raw_record(fx, 63, 0, body, 5), 0);	/* odd size */
	ck_assert_int_eq(fixture_raw_record(fx, PERF_RECORD_FINISHED_INIT, 0, NULL, 0), 0);
	write_and_walk(fx, &w, &info);
	ck_assert_uint_eq(info.other_records, 1);
	ck_assert_uint_eq(info.records[63], 1);
	ck_assert_uint_eq(info.nr_split, 3);
	walk_free(&w);
	fixture_free(fx);
}
END_TEST

START_TEST(test_bad_calls)
{
	struct fixture_opts bad = { .word_size = 5 };
	struct fixture_opts o = { .kernel = FIXTURE_KERNEL_6_18 };
	struct fixture *fx;
	uint8_t *buf;
	size_t len;

	ck_assert_ptr_null(fixture_new(&bad));
	fx = fixture_new(&o);
	ck_assert_int_eq(fixture_add_tracepoint(fx, "sched", "sched_switch"), 0);
	ck_assert_int_eq(fixture_add_tracepoint(fx, "sched", "sched_switch"), 0);
	ck_assert_int_eq(fixture_add_event(fx, PERF_TYPE_HARDWARE, 0, PERF_SAMPLE_ADDR), -1);
	ck_assert_int_eq(fixture_switch(fx, 1, -1, "a", 1, 120, 0, "b", 2, 120), -1);
	ck_assert_int_eq(fixture_sample(fx, 0, 1, 0, 1, 1, 0, 1, 0, NULL), -1); /* a tracepoint */
	/* 6.18 kernels have no sched_stat_sleep */
	ck_assert_int_eq(fixture_stat_delay(fx, "sched_stat_sleep", 1, 0, "a", 1, 1), -1);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), -1);
	fixture_free(fx);
	fixture_free(NULL);
}
END_TEST

/* the payload encoder and the format text agree, in every flavour */
START_TEST(test_tracing_data_alone)
{
	struct fixture_opts o = { .big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8,
				  .kernel = _i & 4 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1 };
	struct fixture *fx = fixture_new(&o);
	bool swap = srep_swap_for(o.big_endian);
	const char *fmt;
	const uint8_t *raw;
	unsigned off, size;
	uint32_t len;
	uint64_t v;
	struct blob b;
	size_t blen;
	uint8_t *blob = fixture_tracing_data(&o, &blen);

	ck_assert(blob_parse(&b, blob, blen));
	ck_assert_int_eq(b.nr_formats, o.kernel == FIXTURE_KERNEL_6_1 ? 16 : 12);
	fmt = blob_format(&b, "sched_switch");
	ck_assert_ptr_nonnull(fmt);
	ck_assert(format_field(fmt, "prev_state", &off, &size));
	ck_assert_uint_eq(size, (unsigned)o.word_size);
	ck_assert_int_eq(atoi(strstr(fmt, "ID: ") + 4), fixture_tp_id(&o, "sched", "sched_switch"));
	ck_assert_int_eq(fixture_switch(fx, 10, 0, "a", 1, 120, FIXTURE_STATE_D | FIXTURE_STATE_PREEMPT,
					"b", 2, 100), 0);
	raw = fixture_last_raw(fx, &len);
	ck_assert_uint_eq(len, o.word_size == 8 ? 64 : 60);
	ck_assert(srep_get_uint(raw + off, size, swap, &v));
	ck_assert_uint_eq(v, 0x102);
	ck_assert_uint_eq(srep_get16(raw, swap), (uint16_t)fixture_tp_id(&o, "sched", "sched_switch"));
	ck_assert(format_field(fmt, "next_prio", &off, &size));
	ck_assert_uint_eq(srep_get32(raw + off, swap), 100);
	blob_free(&b);
	free(blob);
	fixture_free(fx);
}
END_TEST

/* __data_loc strings (6.18 comms, exec filenames) point past the fixed part */
START_TEST(test_data_loc)
{
	struct fixture_opts o = { .big_endian = true, .kernel = FIXTURE_KERNEL_6_18 };
	struct fixture *fx = fixture_new(&o);
	const uint8_t *raw;
	uint32_t len, loc;

	ck_assert_int_eq(fixture_stat_runtime(fx, 1, 0, "kworker/0:1", 7, 100, 0), 0);
	raw = fixture_last_raw(fx, &len);
	loc = srep_get32(raw + 8, srep_swap_for(true));		/* comm */
	ck_assert_uint_eq(loc >> 16, strlen("kworker/0:1") + 1);
	ck_assert_uint_eq(loc & 0xffff, 24);	/* after comm, pid, runtime */
	ck_assert_str_eq((const char *)raw + 24, "kworker/0:1");
	ck_assert_uint_eq(len, 24 + 12);
	fixture_free(fx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* tests: perf agrees                                                   */
/* ------------------------------------------------------------------ */

static const char *perf_bin(void)
{
	const char *p = getenv("SREP_PERF");

	return p && *p ? p : "perf";
}

static bool have_perf(const char *test)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "%s --version >/dev/null 2>&1", perf_bin());
	if (system(cmd) == 0)
		return true;
	fprintf(stderr, "check_fixture: %s skipped: '%s' not found\n", test, perf_bin());
	return false;
}

/* perf's names of record types (perf_event__names in perf 6.1) */
static const char *perf_type_name(int type)
{
	static const char *const kernel[] = {
		"TOTAL", "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK",
		"READ", "SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH",
		"SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE",
		"AUX_OUTPUT_HW_ID" };
	static const char *const user[] = {
		"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
		"AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",
		"STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE",
		"COMPRESSED", "FINISHED_INIT" };

	if (type > 0 && type < (int)(sizeof(kernel) / sizeof(kernel[0])))
		return kernel[type];
	if (type >= 64 && type < 64 + (int)(sizeof(user) / sizeof(user[0])))
		return user[type - 64];
	return NULL;
}

#define MAX_STATS 64

/* one "NAME events: N" line of perf's stats, in the section it belongs to */
struct perf_stat {
	char section[64];		/* "" = Aggregated stats, else the evsel name */
	char name[32];
	unsigned long long n;
	bool matched;
};

struct perf_stats {
	struct perf_stat s[MAX_STATS];
	int nr;
	bool seen_aggregated;
};

static void parse_stat_line(struct perf_stats *ps, char *section, const char *line)
{
	char name[32];
	unsigned long long n;
	size_t len = strlen(line);

	if (strstr(line, "Aggregated stats:")) {
		ps->seen_aggregated = true;
		section[0] = 0;
	} else if (ps->seen_aggregated && len > 8 && !strcmp(line + len - 8, " stats:\n")) {
		snprintf(section, 64, "%.*s", (int)(len - 8), line);
	} else if (ps->seen_aggregated && ps->nr < MAX_STATS &&
		   sscanf(line, " %31s events: %llu", name, &n) == 2) {
		struct perf_stat *s = &ps->s[ps->nr++];

		snprintf(s->section, sizeof(s->section), "%s", section);
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->n = n;
	}
}

static void run_perf(const char *args, struct perf_stats *ps, char *out, size_t out_size)
{
	char cmd[512], line[512], section[64] = "";
	size_t used = 0;
	FILE *p;

	memset(ps, 0, sizeof(*ps));
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", perf_bin(), args);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		parse_stat_line(ps, section, line);
		if (out && used + strlen(line) < out_size) {
			memcpy(out + used, line, strlen(line) + 1);
			used += strlen(line);
		}
	}
	pclose(p);
}

/* find and mark a stat; 0 when perf printed none */
static unsigned long long take_stat(struct perf_stats *ps, const char *section, const char *name)
{
	for (int i = 0; i < ps->nr; i++) {
		if (strcmp(ps->s[i].section, section) || strcmp(ps->s[i].name, name))
			continue;
		ps->s[i].matched = true;
		return ps->s[i].n;
	}
	return 0;
}

/* every count perf printed is one fixture_info predicted, and the other way round */
static void compare_stats(struct perf_stats *ps, const struct fixture_info *info,
			  bool dump, const char *what)
{
	unsigned long long lost_samples = 0;

	ck_assert_msg(ps->seen_aggregated, "%s: perf printed no stats", what);
	ck_assert_uint_eq(take_stat(ps, "", "TOTAL"), info->total);
	for (int t = 1; t < FIXTURE_RECORD_TYPES; t++) {
		const char *name = perf_type_name(t);

		if (info->records[t] || name)
			ck_assert_msg(name && take_stat(ps, "", name) == info->records[t],
				      "%s: %s: perf %llu, fixture %llu", what, name ? name : "?",
				      take_stat(ps, "", name ? name : ""),
				      (unsigned long long)info->records[t]);
	}
	for (int i = 0; i < info->nr_evsels; i++) {
		ck_assert_msg(take_stat(ps, info->evsel_names[i], "SAMPLE") == info->samples[i],
			      "%s: %s samples", what, info->evsel_names[i]);
		/* perf's per-event LOST_SAMPLES line sums the 'lost' fields */
		lost_samples += take_stat(ps, info->evsel_names[i], "LOST_SAMPLES");
	}
	/* ... except with -D, which prints no per-event LOST_SAMPLES */
	ck_assert_uint_eq(lost_samples, dump ? 0 : info->lost_samples);
	for (int i = 0; i < ps->nr; i++)
		ck_assert_msg(ps->s[i].matched, "%s: unexpected perf stat '%s' '%s'", what,
			      ps->s[i].section, ps->s[i].name);
}

static void write_tmp(struct fixture *fx, char *path, struct fixture_info *info)
{
	int fd;

	strcpy(path, "/tmp/srep-fixture-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(fixture_write(fx, path, info), 0);
}

/* file mode: perf 6.1 reads both byte orders, both word sizes, COMPRESSED (not 2) */
START_TEST(test_perf_file_mode)
{
	struct fixture_opts o = combo_opts(_i);
	struct fixture_info info;
	struct perf_stats ps;
	char path[64], args[128];
	struct fixture *fx;

	if (!have_perf(__func__))
		return;
	ck_assert(!o.pipe && !o.compressed2);
	fx = scenario_new(&o);
	write_tmp(fx, path, &info);
	snprintf(args, sizeof(args), "report --stats -f -i %s", path);
	run_perf(args, &ps, NULL, 0);
	compare_stats(&ps, &info, false, combo_name(&o));
	unlink(path);
	fixture_free(fx);
}
END_TEST

/* pipe mode: perf 6.1's --stats fails on tracepoints, -D works; little-endian
   only: perf 6.1 fails on the first HEADER_FEATURE of a byte-swapped pipe */
START_TEST(test_perf_pipe_mode)
{
	struct fixture_opts o = combo_opts(_i);
	struct fixture_info info;
	struct perf_stats ps;
	char path[64], args[128];
	struct fixture *fx;

	if (!have_perf(__func__))
		return;
	ck_assert(o.pipe && !o.big_endian && !o.compressed2);
	fx = scenario_new(&o);
	write_tmp(fx, path, &info);
	snprintf(args, sizeof(args), "report -D -i - < %s", path);
	run_perf(args, &ps, NULL, 0);
	compare_stats(&ps, &info, true, combo_name(&o));
	unlink(path);
	fixture_free(fx);
}
END_TEST

/* perf script decodes the payload with the fixture's formats */
START_TEST(test_perf_script)
{
	struct fixture_opts o = { .big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8,
				  .kernel = _i & 4 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1 };
	struct fixture *fx = fixture_new(&o);
	static char out[1 << 16];
	struct perf_stats ps;
	char path[64], args[128];

	if (!have_perf(__func__)) {
		fixture_free(fx);
		return;
	}
	fixture_comm(fx, T0, 0, 4242, 4242, "sleeper", true);
	fixture_switch(fx, T0 + 10, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "sleeper", 4242, 120);
	fixture_switch(fx, T0 + 20, 0, "sleeper", 4242, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_stat_runtime(fx, T0 + 30, 0, "sleeper", 4242, 777, 888);
	write_tmp(fx, path, NULL);
	snprintf(args, sizeof(args), "script -f -i %s", path);
	run_perf(args, &ps, out, sizeof(out));
	ck_assert_msg(strstr(out, "prev_comm=sleeper prev_pid=4242 prev_prio=120 prev_state=S "
			     "==> next_comm=swapper/0 next_pid=0"), "perf script said:\n%s", out);
	ck_assert_msg(strstr(out, "comm=sleeper pid=4242 runtime=777 [ns]"), "%s", out);
	unlink(path);
	fixture_free(fx);
}
END_TEST

static Suite *fixture_suite(void)
{
	Suite *s = suite_create("fixture");
	TCase *tc = tcase_create("walk");
	TCase *perf = tcase_create("perf");

	tcase_add_loop_test(tc, test_walk_combination, 0, NR_COMBOS);
	tcase_add_test(tc, test_attr_sizes);
	tcase_add_test(tc, test_rounds_and_plain_head);
	tcase_add_test(tc, test_raw_and_unknown_records);
	tcase_add_test(tc, test_bad_calls);
	tcase_add_loop_test(tc, test_tracing_data_alone, 0, 8);
	tcase_add_test(tc, test_data_loc);
	suite_add_tcase(s, tc);
	/* file mode: every combination with bit 2 (pipe) clear and no COMPRESSED2 */
	tcase_set_timeout(perf, 300);
	for (int i = 0; i < 32 * Z_TWO; i++)
		if (!(i & 4))
			tcase_add_loop_test(perf, test_perf_file_mode, i, i + 1);
	for (int i = 0; i < 32 * Z_TWO; i++)
		if ((i & 5) == 4)
			tcase_add_loop_test(perf, test_perf_pipe_mode, i, i + 1);
	tcase_add_loop_test(perf, test_perf_script, 0, 8);
	suite_add_tcase(s, perf);
	return s;
}

int main(void)
{
	return tu_run_suite(fixture_suite());
}
