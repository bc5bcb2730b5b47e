// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c - the lossless event model as JSON Lines (docs/json-format.md):
 * a first line with the metadata, the event descriptions and the task
 * table, one line per event with every field of struct srep_event and every
 * tracepoint field, and a closing line with the counts. src/jsonin.c reads
 * it back into the very same events.
 *
 * Written with the streaming writer of emit.c rather than cJSON: a DOM per
 * event would cost an allocation per field on the hottest path. The tests
 * parse every output with cJSON.
 *
 * Two rules keep it lossless: integers beyond 2^53, which JSON parsers hold
 * as doubles, are written as strings; and byte strings that are not UTF-8
 * are written as {"hex": "..."}.
 *
 * With symbols, an event with a callchain also gets "frames": each frame
 * resolved (module, symbol, offset, source line). They are derived, not
 * part of the model: the reader skips them, "cc" is what reads back.
 */
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "emit.h"
#include "framecache.h"

#define JSON_SAFE_INT (1ull << 53)	/* doubles hold every integer up to here */

struct jw {
	const struct srep_export_ctx *ctx;
	struct emit out;
	uint64_t events;
	struct srep_frame *frames;	/* the callchain of the event at hand */
	size_t frames_cap;
	struct frame_cache texts;	/* every frame's object, rendered once */
	char *text;			/* one frame's object */
	size_t text_cap;
	/* the event union's members (schedrep/schema.h), kind by kind */
	const struct srep_member *schema;
	struct jw_key {
		char text[32];		/* ,"key": */
		uint8_t len;
	} *keys;
	size_t first_member[SREP_EV_MAX], nr_members[SREP_EV_MAX];
	struct jw_key kinds[SREP_EV_MAX];	/* ,"k":"NAME","src":" ([0]: unknown) */
};

/* ---- values ---- */

static void put_uint(struct emit *e, uint64_t v)
{
	if (v <= JSON_SAFE_INT) {
		emit_u64(e, v);
		return;
	}
	emit_char(e, '"');
	emit_u64(e, v);
	emit_char(e, '"');
}

static void put_int(struct emit *e, int64_t v)
{
	if (v >= -(int64_t)JSON_SAFE_INT && v <= (int64_t)JSON_SAFE_INT) {
		emit_i64(e, v);
		return;
	}
	emit_char(e, '"');
	emit_i64(e, v);
	emit_char(e, '"');
}

static void put_hex(struct emit *e, uint64_t v)
{
	emit_char(e, '"');
	emit_hex(e, v);
	emit_char(e, '"');
}

/*
 * The same values through a cursor into room taken beforehand (a number
 * takes at most 22 bytes): for runs of values, one room check for all.
 */
#define CUR_LIT(o, s)	(memcpy((o), "" s, sizeof(s) - 1), (o) + sizeof(s) - 1)

static char *cur_uint(char *o, uint64_t v)
{
	if (v <= JSON_SAFE_INT)
		return fmt_dec(o, v);
	*o++ = '"';
	o = fmt_dec(o, v);
	*o++ = '"';
	return o;
}

static char *cur_int(char *o, int64_t v)
{
	bool safe = v >= -(int64_t)JSON_SAFE_INT && v <= (int64_t)JSON_SAFE_INT;

	if (!safe)
		*o++ = '"';
	if (v < 0) {
		*o++ = '-';
		o = fmt_dec(o, (uint64_t)0 - (uint64_t)v);
	} else {
		o = fmt_dec(o, (uint64_t)v);
	}
	if (!safe)
		*o++ = '"';
	return o;
}

static char *cur_hex(char *o, uint64_t v)
{
	o = CUR_LIT(o, "\"0x");
	o = fmt_hex(o, v);
	*o++ = '"';
	return o;
}

/* bytes: a string when they are UTF-8, else {"hex":"..."} */
static void put_bytes(struct emit *e, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (emit_json_str_exact(e, s, n))
		return;
	emit_lit(e, "{\"hex\":\"");
	for (i = 0; i < n; i++) {
		emit_char(e, digits[(unsigned char)s[i] >> 4]);
		emit_char(e, digits[(unsigned char)s[i] & 0xf]);
	}
	emit_lit(e, "\"}");
}

static void put_bool(struct emit *e, bool v)
{
	if (v)
		emit_lit(e, "true");
	else
		emit_lit(e, "false");
}

static void put_cstr(struct emit *e, const char *s)
{
	if (s)
		put_bytes(e, s, strlen(s));
	else
		emit_lit(e, "null");
}

/*
 * ',"key":' and, for the first key of an object, '"key":'. Keys are
 * literals pasted at compile time: a strlen and a copy per key showed as 7%
 * of a conversion's profile.
 */
#define KEY(e, k)	emit_lit(e, ",\"" k "\":")
#define KEY1(e, k)	emit_lit(e, "\"" k "\":")
#define KU(e, k, v)	(KEY(e, k), put_uint(e, v))
#define KI(e, k, v)	(KEY(e, k), put_int(e, v))
#define KS(e, k, v)	(KEY(e, k), put_cstr(e, v))
#define KB(e, k, v)	(KEY(e, k), put_bool(e, v))

static void put_strings(struct emit *e, const char *const *v, int n)
{
	int i;

	if (!v) {
		emit_lit(e, "null");
		return;
	}
	emit_char(e, '[');
	for (i = 0; i < n; i++) {
		if (i)
			emit_char(e, ',');
		put_cstr(e, v[i]);
	}
	emit_char(e, ']');
}

/* ---- the first line ---- */

static void put_meta(struct emit *e, const struct srep_meta *m)
{
	int i;

	KEY1(e, "path");
	put_cstr(e, m->path);
	KS(e, "format", m->format);
	KB(e, "pipe_mode", m->pipe_mode);
	KB(e, "big_endian", m->big_endian);
	KI(e, "word_size", m->word_size);
	KI(e, "magic_version", m->magic_version);
	KU(e, "attr_size", m->attr_size);
	KU(e, "data_offset", m->data_offset);
	KU(e, "data_size", m->data_size);
	KEY(e, "features");
	for (i = 0; i < 4; i++) {
		emit_char(e, i ? ',' : '[');
		put_uint(e, m->features[i]);
	}
	emit_char(e, ']');
	KS(e, "hostname", m->hostname);
	KS(e, "osrelease", m->osrelease);
	KS(e, "perf_version", m->perf_version);
	KS(e, "arch", m->arch);
	KS(e, "cpudesc", m->cpudesc);
	KS(e, "cpuid", m->cpuid);
	KI(e, "nr_cpus_avail", m->nr_cpus_avail);
	KI(e, "nr_cpus_online", m->nr_cpus_online);
	KI(e, "total_mem_kb", m->total_mem_kb);
	KEY(e, "cmdline");
	put_strings(e, m->cmdline, m->nr_cmdline);
	KI(e, "clockid", m->clockid);
	KI(e, "clock_res_ns", m->clock_res_ns);
	KB(e, "has_clock_data", m->has_clock_data);
	KU(e, "clock_wall_ns", m->clock_wall_ns);
	KU(e, "clock_ref_ns", m->clock_ref_ns);
	KB(e, "has_sample_time", m->has_sample_time);
	KU(e, "sample_time_first", m->sample_time_first);
	KU(e, "sample_time_last", m->sample_time_last);
	KB(e, "compressed", m->compressed);
	KU(e, "comp_type", m->comp_type);
	KU(e, "comp_level", m->comp_level);
	KU(e, "comp_ratio", m->comp_ratio);
	KU(e, "comp_mmap_len", m->comp_mmap_len);
	KEY(e, "core_siblings");
	put_strings(e, m->core_siblings, m->nr_core_siblings);
	KEY(e, "thread_siblings");
	put_strings(e, m->thread_siblings, m->nr_thread_siblings);
	KB(e, "has_tracing", m->has_tracing);
	KI(e, "tracing_long_size", m->tracing_long_size);
	KI(e, "tracing_page_size", m->tracing_page_size);
	KB(e, "tracing_big_endian", m->tracing_big_endian);
	KS(e, "tracing_version", m->tracing_version);
}

static const char *const field_kinds[] = { "int", "uint", "str", "array" };

static void put_evsel(struct emit *e, const struct srep_session *s, size_t idx)
{
	struct srep_field f;
	int i, n = srep_session__evsel_nr_fields(s, idx);

	KEY1(e, "name");
	put_cstr(e, srep_session__evsel_name(s, idx));
	KU(e, "type", srep_session__evsel_type(s, idx));
	KU(e, "config", srep_session__evsel_config(s, idx));
	KU(e, "sample_type", srep_session__evsel_sample_type(s, idx));
	KEY(e, "fields");
	emit_char(e, '[');
	for (i = 0; i < n && srep_session__evsel_field(s, idx, i, &f) == 0; i++) {
		emit_cstr(e, i ? ",{" : "{");
		KEY1(e, "name");
		put_cstr(e, f.name);
		KS(e, "kind", field_kinds[f.kind]);
		if (f.kind == SREP_FIELD_ARRAY) {
			KU(e, "elem_size", f.elem_size);
			KB(e, "elem_signed", f.elem_signed);
		}
		emit_char(e, '}');
	}
	emit_char(e, ']');
}

static void put_task(struct emit *e, const struct srep_task *t)
{
	size_t i;
	uint64_t time;
	const char *comm;

	KEY1(e, "tid");
	put_int(e, srep_task__tid(t));
	KI(e, "pid", srep_task__pid(t));
	KI(e, "ppid", srep_task__ppid(t));
	KI(e, "ptid", srep_task__ptid(t));
	KU(e, "first_seen", srep_task__first_seen(t));
	KU(e, "last_seen", srep_task__last_seen(t));
	KU(e, "fork_time", srep_task__fork_time(t));
	KU(e, "exit_time", srep_task__exit_time(t));
	KEY(e, "comms");
	emit_char(e, '[');
	for (i = 0; i < srep_task__nr_comms(t); i++) {
		comm = srep_task__comm_at(t, i, &time);
		emit_cstr(e, i ? ",[" : "[");
		put_uint(e, time);
		emit_char(e, ',');
		put_cstr(e, comm);
		emit_char(e, ']');
	}
	emit_char(e, ']');
}

static void put_header(struct jw *w)
{
	const struct srep_session *s = w->ctx->session;
	struct emit *e = &w->out;
	size_t i, n = srep_session__nr_tasks(s);
	uint64_t t0, t1;
	bool first = true;

	emit_lit(e, "{\"format\":\"schedrep-events\",\"version\":1,\"time_span\":");
	/* the source's span, so that a reader resolves "0.3" as it would on the perf.data */
	if (srep_session__time_span(s, &t0, &t1)) {
		emit_lit(e, "{\"first\":");
		put_uint(e, t0);
		emit_lit(e, ",\"last\":");
		put_uint(e, t1);
		emit_char(e, '}');
	} else {
		emit_lit(e, "null");
	}
	emit_lit(e, ",\"meta\":{");
	put_meta(e, srep_session__meta(s));
	emit_lit(e, "},\"evsels\":[");
	for (i = 0; i < srep_session__nr_evsels(s); i++) {
		emit_cstr(e, i ? ",{" : "{");
		put_evsel(e, s, i);
		emit_char(e, '}');
	}
	emit_lit(e, "],\"tasks\":[");
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_session__task(s, i);

		if (w->ctx->sel && !srep_selection__has_task(w->ctx->sel, t))
			continue;
		emit_cstr(e, first ? "{" : ",{");
		first = false;
		put_task(e, t);
		emit_char(e, '}');
	}
	emit_lit(e, "]}\n");
}

/* ---- events ---- */

/* a fixed comm array: the bytes before its NUL */
static void put_comm(struct emit *e, const char comm[SREP_COMM_MAX])
{
	const char *nul = memchr(comm, '\0', SREP_COMM_MAX);

	put_bytes(e, comm, nul ? (size_t)(nul - comm) : SREP_COMM_MAX);
}


static void put_build_id(struct emit *e, const struct srep_mmap *m)
{
	char hex[41];
	int i;

	for (i = 0; i < m->build_id_size && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
	hex[2 * i] = '\0';
	put_cstr(e, hex);
}

static void put_member(struct emit *e, const struct srep_event *ev, const struct srep_member *m)
{
	const void *p = (const char *)ev + m->offset;
	int32_t i32;
	int64_t i64;
	uint32_t u32;
	uint64_t u64;
	const char *str;

	switch (m->type) {
	case SREP_MT_I32:	memcpy(&i32, p, 4); put_int(e, i32); break;
	case SREP_MT_I64:	memcpy(&i64, p, 8); put_int(e, i64); break;
	case SREP_MT_U32:	memcpy(&u32, p, 4); put_uint(e, u32); break;
	case SREP_MT_U64:	memcpy(&u64, p, 8); put_uint(e, u64); break;
	case SREP_MT_ADDR:	memcpy(&u64, p, 8); put_hex(e, u64); break;
	case SREP_MT_COMM:	put_comm(e, p); break;
	case SREP_MT_CSTR:	memcpy(&str, p, sizeof(str)); put_cstr(e, str); break;
	case SREP_MT_STATE:	put_bytes(e, p, 1); break;
	case SREP_MT_BOOL:	put_bool(e, *(const bool *)p); break;
	case SREP_MT_WAKE:	put_cstr(e, srep_wakeup_kind_name(*(const enum srep_wakeup_kind *)p)); break;
	case SREP_MT_STAT:	put_cstr(e, srep_stat_kind_name(*(const enum srep_stat_kind *)p)); break;
	case SREP_MT_BUILD_ID:	put_build_id(e, p); break;
	}
}

/*
 * A member's ',"key":' (without the comma for the first): a copy of fixed
 * size, the tail beyond the key overwritten next. A copy of the key's own
 * length was a call (or rep movs) per member, a fifth of jw_event's time.
 */
static inline void put_key(struct emit *e, const struct jw_key *k, bool first)
{
	char *o = emit_room(e, sizeof(k->text));

	if (!o)
		return;
	memcpy(o, k->text + first, sizeof(k->text) - 1);
	e->len += k->len - first;
}

/*
 * A number member (most of them) with its key in one step, through a
 * cursor; false for the other types, which go through put_member().
 */
static bool put_number_member(struct emit *e, const struct srep_event *ev,
			      const struct srep_member *m, const struct jw_key *k, bool first)
{
	const void *p = (const char *)ev + m->offset;
	int32_t i32;
	uint32_t u32;
	uint64_t u64;
	char *o;

	if (m->type != SREP_MT_I32 && m->type != SREP_MT_I64 && m->type != SREP_MT_U32 &&
	    m->type != SREP_MT_U64 && m->type != SREP_MT_ADDR)
		return false;
	o = emit_room(e, sizeof(k->text) + 24);
	if (!o)
		return true;
	memcpy(o, k->text + first, sizeof(k->text) - 1);
	o += k->len - first;
	switch (m->type) {
	case SREP_MT_I32:	memcpy(&i32, p, 4); o = cur_int(o, i32); break;
	case SREP_MT_U32:	memcpy(&u32, p, 4); o = cur_uint(o, u32); break;
	case SREP_MT_I64:	memcpy(&u64, p, 8); o = cur_int(o, (int64_t)u64); break;
	case SREP_MT_U64:	memcpy(&u64, p, 8); o = cur_uint(o, u64); break;
	default:		memcpy(&u64, p, 8); o = cur_hex(o, u64); break;
	}
	e->len = (size_t)(o - e->buf);
	return true;
}

/* the union's members in schedrep/schema.h's order; ",\"key\":" made once per member */
static void put_union(struct jw *w, const struct srep_event *ev)
{
	enum srep_event_kind kind = srep_event_kind__union(ev->kind);
	size_t i, end;

	if ((unsigned)kind >= SREP_EV_MAX)
		return;
	end = w->first_member[kind] + w->nr_members[kind];
	for (i = w->first_member[kind]; i < end; i++) {
		if (put_number_member(&w->out, ev, &w->schema[i], &w->keys[i],
				      i == w->first_member[kind]))
			continue;
		put_key(&w->out, &w->keys[i], i == w->first_member[kind]);
		put_member(&w->out, ev, &w->schema[i]);
	}
}

static int keys_init(struct jw *w)
{
	size_t i, nr;

	w->schema = srep_event_schema(&nr);
	w->keys = calloc(nr, sizeof(*w->keys));
	if (!w->keys)
		return -1;
	for (i = nr; i-- > 0;) {
		const struct srep_member *m = &w->schema[i];

		w->keys[i].len = (uint8_t)snprintf(w->keys[i].text, sizeof(w->keys[i].text),
						   ",\"%s\":", m->key);
		if ((unsigned)m->kind < SREP_EV_MAX) {
			w->first_member[m->kind] = i;
			w->nr_members[m->kind]++;
		}
	}
	/* kind 0 is none: srep_event_kind_name() calls it "unknown" */
	for (i = 0; i < SREP_EV_MAX; i++)
		w->kinds[i].len = (uint8_t)snprintf(w->kinds[i].text, sizeof(w->kinds[i].text),
						    ",\"k\":\"%s\",\"src\":\"",
						    srep_event_kind_name((enum srep_event_kind)i));
	return 0;
}

static void put_field(struct emit *e, const struct srep_field *f)
{
	uint32_t i;

	switch (f->kind) {
	case SREP_FIELD_INT:
		put_int(e, f->i);
		break;
	case SREP_FIELD_UINT:
		put_uint(e, f->u);
		break;
	case SREP_FIELD_STR:
		put_bytes(e, f->str, f->len);
		break;
	default:
		emit_char(e, '[');
		for (i = 0; i < f->nr_elems; i++) {
			if (i)
				emit_char(e, ',');
			if (f->elem_signed)
				put_int(e, (int64_t)srep_field__elem(f, i));
			else
				put_uint(e, srep_field__elem(f, i));
		}
		emit_char(e, ']');
		break;
	}
}

/* the tracepoint fields in the order the evsel's "fields" lists; null: unreadable */
static void put_fields(struct emit *e, const struct srep_event *ev, int n)
{
	struct srep_field f;
	bool bad;
	char *o;
	int i;

	emit_lit(e, ",\"f\":[");
	for (i = 0; i < n; i++) {
		bad = srep_event__field(ev, i, &f) != 0;
		/* the common field, a number: its comma and digits in one step */
		if (!bad && (f.kind == SREP_FIELD_INT || f.kind == SREP_FIELD_UINT)) {
			o = emit_room(e, 24);
			if (!o)
				return;
			if (i)
				*o++ = ',';
			o = f.kind == SREP_FIELD_INT ? cur_int(o, f.i) : cur_uint(o, f.u);
			e->len = (size_t)(o - e->buf);
			continue;
		}
		if (i)
			emit_char(e, ',');
		if (bad)
			emit_lit(e, "null");
		else
			put_field(e, &f);
	}
	emit_char(e, ']');
}

/* ---- symbolized frames ---- */

static const char *mode_name(enum srep_frame_mode m)
{
	switch (m) {
	case SREP_FRAME_KERNEL: return "kernel";
	case SREP_FRAME_USER: return "user";
	case SREP_FRAME_HV: return "hv";
	case SREP_FRAME_GUEST_KERNEL: return "guest_kernel";
	case SREP_FRAME_GUEST_USER: return "guest_user";
	default: return "?";
	}
}

static void put_frame(struct emit *e, const struct srep_frame *f)
{
	KEY1(e, "addr");
	put_hex(e, f->addr);
	KEY(e, "mode");
	emit_char(e, '"');
	emit_cstr(e, mode_name(f->mode));
	emit_char(e, '"');
	KS(e, "module", f->module);
	KEY(e, "module_addr");
	put_hex(e, f->module_addr);
	KS(e, "symbol", f->symbol);
	if (f->symbol)
		KU(e, "offset", f->symbol_offset);
	if (f->file) {
		KS(e, "file", f->file);
		KU(e, "line", f->line);
	}
}

/* a string value: its text, or null */
static char *render_str(char *o, const char *s)
{
	if (!s)
		return fc_str(o, "null");
	*o++ = '"';
	o = fc_str(o, s);
	*o++ = '"';
	return o;
}

/*
 * put_frame()'s object by hand into w->text, for the frame cache: only when
 * its strings need no escaping (they are JSON as they are); 0 otherwise.
 */
static size_t render_frame(struct jw *w, const struct srep_frame *f)
{
	size_t need = 192 + (f->module ? strlen(f->module) : 0) + (f->symbol ? strlen(f->symbol) : 0) +
		      (f->file ? strlen(f->file) : 0);
	char *o;

	if ((f->module && !fc_plain(f->module)) || (f->symbol && !fc_plain(f->symbol)) ||
	    (f->file && !fc_plain(f->file)))
		return 0;
	if (need > w->text_cap) {
		o = realloc(w->text, need);
		if (!o)
			return 0;
		w->text = o;
		w->text_cap = need;
	}
	o = fc_str(w->text, "{\"addr\":\"0x");
	o = fmt_hex(o, f->addr);
	o = fc_str(o, "\",\"mode\":\"");
	o = fc_str(o, mode_name(f->mode));
	o = fc_str(o, "\",\"module\":");
	o = render_str(o, f->module);
	o = fc_str(o, ",\"module_addr\":\"0x");
	o = fmt_hex(o, f->module_addr);
	o = fc_str(o, "\",\"symbol\":");
	o = render_str(o, f->symbol);
	if (f->symbol) {
		o = fc_str(o, ",\"offset\":");
		o = f->symbol_offset <= JSON_SAFE_INT ? fmt_dec(o, f->symbol_offset) :
		    fc_str(fmt_dec(fc_str(o, "\""), f->symbol_offset), "\"");
	}
	if (f->file) {
		o = fc_str(o, ",\"file\":");
		o = render_str(o, f->file);
		o = fc_str(o, ",\"line\":");
		o = fmt_dec(o, f->line);
	}
	*o++ = '}';
	return (size_t)(o - w->text);
}

/* one frame object: from the cache, rendered for it, or written the slow way */
static void put_cached_frame(struct jw *w, const struct srep_frame *f)
{
	const char *done;
	size_t len;

	done = fc_find(&w->texts, f, &len);
	if (!done && (len = render_frame(w, f)) > 0) {
		fc_keep(&w->texts, f, w->text, len);
		done = w->text;
	}
	if (done) {
		emit_raw(&w->out, done, len);
		return;
	}
	emit_char(&w->out, '{');
	put_frame(&w->out, f);
	emit_char(&w->out, '}');
}

/* "frames": the event's callchain resolved (and unwound: --call-graph dwarf) */
static int put_frames(struct jw *w, const struct srep_event *ev, struct srep_error *err)
{
	size_t need = (size_t)ev->nr_callchain + SREP_UNWIND_MAX + 1, n, i;
	struct srep_frame *f;

	if (need > w->frames_cap) {
		f = realloc(w->frames, need * sizeof(*f));
		if (!f)
			return srep_error__set(err, SREP_E_NOMEM, "no memory for frames");
		w->frames = f;
		w->frames_cap = need;
	}
	n = srep_symbolizer__callchain(w->ctx->symbols, ev, w->frames, w->frames_cap);
	KEY(&w->out, "frames");
	emit_char(&w->out, '[');
	for (i = 0; i < n; i++) {
		if (i)
			emit_char(&w->out, ',');
		put_cached_frame(w, &w->frames[i]);
	}
	emit_char(&w->out, ']');
	return 0;
}

/*
 * The event's fixed fields, written through a cursor into room taken once:
 * checking for room and storing the length around every value was most of
 * jw_event's own time. The longest head: {"t": and a quoted 20-digit
 * number (27), the kind and source (28 + 5), cpu, pid, tid, e, fl, period
 * (at most 10 + 22 each) and ip and addr (at most 12 + 16 each).
 */
#define HEAD_MAX	320

/* the source's name and closing quote, each copied as 8 bytes */
static const char sources[][8] = { "tp\"", "rec\"", "smp\"", "json\"", "?\"" };

static void put_head(struct jw *w, const struct srep_event *ev)
{
	struct emit *e = &w->out;
	const struct jw_key *k = &w->kinds[ev->kind > 0 && ev->kind < SREP_EV_MAX ? ev->kind : 0];
	const char *src = sources[(unsigned)ev->source < 4 ? ev->source : 4];
	char *o = emit_room(e, HEAD_MAX);

	if (!o)
		return;
	o = CUR_LIT(o, "{\"t\":");
	o = cur_uint(o, ev->time);
	memcpy(o, k->text, sizeof(k->text) - 1);
	o += k->len;
	memcpy(o, src, sizeof(sources[0]));
	o += strlen(src);
	o = cur_int(CUR_LIT(o, ",\"cpu\":"), ev->cpu);
	o = cur_int(CUR_LIT(o, ",\"pid\":"), ev->pid);
	o = cur_int(CUR_LIT(o, ",\"tid\":"), ev->tid);
	if (ev->evsel >= 0)
		o = cur_int(CUR_LIT(o, ",\"e\":"), ev->evsel);
	if (ev->flags)
		o = cur_uint(CUR_LIT(o, ",\"fl\":"), ev->flags);
	if (ev->ip)
		o = cur_hex(CUR_LIT(o, ",\"ip\":"), ev->ip);
	if (ev->period)
		o = cur_uint(CUR_LIT(o, ",\"period\":"), ev->period);
	if (ev->addr)
		o = cur_hex(CUR_LIT(o, ",\"addr\":"), ev->addr);
	e->len = (size_t)(o - e->buf);
}

static int jw_event(void *state, const struct srep_event *ev, struct srep_error *err)
{
	struct jw *w = state;
	struct emit *e = &w->out;
	int n = srep_event__nr_fields(ev);
	uint32_t i;

	/* untimed events (perf's synthesized records) belong to every window */
	if (ev->time && (ev->time < w->ctx->from || ev->time > w->ctx->to))
		return 0;
	put_head(w, ev);
	if (ev->nr_callchain) {
		KEY(e, "cc");
		for (i = 0; i < ev->nr_callchain; i++) {
			emit_char(e, i ? ',' : '[');
			put_hex(e, ev->callchain[i]);
		}
		emit_char(e, ']');
	}
	if (ev->nr_callchain && w->ctx->symbols && put_frames(w, ev, err))
		return SREP_E_NOMEM;
	if (ev->kind != SREP_EV_SAMPLE) {
		emit_lit(e, ",\"u\":{");
		put_union(w, ev);
		emit_char(e, '}');
	}
	if (n > 0)
		put_fields(e, ev, n);
	emit_lit(e, "}\n");
	w->events++;
	return e->failed ? emit_error(e, err) : 0;
}

/* ---- frame ---- */

static int jw_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	struct jw *w = calloc(1, sizeof(*w));

	*state = w;
	if (!w || emit_init(&w->out, ctx->out) || keys_init(w))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the JSON writer");
	w->ctx = ctx;
	put_header(w);
	return 0;
}

static void put_stats(struct emit *e, const struct srep_stats *st)
{
	bool first = true;
	char other[32];
	const char *name;
	uint32_t i;

	KEY1(e, "records");
	emit_char(e, '{');
	for (i = 0; i < SREP_NR_RECORD_TYPES; i++) {
		if (!st->records[i])
			continue;
		name = srep_record_type_name(i);
		if (!name) {
			snprintf(other, sizeof(other), "type_%u", i);
			name = other;
		}
		emit_cstr(e, first ? "\"" : ",\"");
		emit_cstr(e, name);
		emit_lit(e, "\":");
		put_uint(e, st->records[i]);
		first = false;
	}
	emit_char(e, '}');
	KU(e, "unknown_records", st->unknown_records);
	KU(e, "google_legacy_records", st->google_legacy_records);
	KU(e, "total_records", st->total_records);
	KU(e, "lost", st->lost);
	KU(e, "lost_samples", st->lost_samples);
	KU(e, "lost_time_ns", st->lost_time_ns);
	KU(e, "late_events", st->late_events);
	KU(e, "skipped_records", st->skipped_records);
	KU(e, "skipped_bytes", st->skipped_bytes);
	KU(e, "bytes", st->bytes);
	KU(e, "decompressed_bytes", st->decompressed_bytes);
}

static int jw_end(void *state, struct srep_error *err)
{
	struct jw *w = state;
	const struct srep_session *s = w->ctx->session;
	struct emit *e = &w->out;
	size_t i, n = srep_session__nr_evsels(s);

	emit_lit(e, "{\"end\":true,\"events\":");
	put_uint(e, w->events);
	emit_lit(e, ",\"stats\":{");
	put_stats(e, srep_session__stats(s));
	emit_lit(e, "},\"evsel_samples\":[");
	for (i = 0; i < n; i++) {
		if (i)
			emit_char(e, ',');
		put_uint(e, srep_session__evsel_samples(s, i));
	}
	emit_lit(e, "],\"evsel_lost_samples\":[");
	for (i = 0; i < n; i++) {
		if (i)
			emit_char(e, ',');
		put_uint(e, srep_session__evsel_lost_samples(s, i));
	}
	emit_lit(e, "]}\n");
	if (emit_flush(e))
		return emit_error(e, err);
	return 0;
}

static void jw_destroy(void *state)
{
	struct jw *w = state;

	if (!w)
		return;
	emit_free(&w->out);
	free(w->frames);
	free(w->text);
	free(w->keys);
	fc_free(&w->texts);
	free(w);
}

const struct srep_exporter srep_exporter_json = {
	.name = "json",
	.suffix = ".schedrep.json",
	.summary = "the lossless event model, JSON Lines (docs/json-format.md)",
	.flags = SREP_EXPORT_PRESCAN | SREP_EXPORT_SYMBOLS,
	.begin = jw_begin,
	.event = jw_event,
	.end = jw_end,
	.destroy = jw_destroy,
};
