// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jsonin.c - reading schedrep's lossless JSON (docs/json-format.md) back into
 * the very events, tracepoint fields, task table and metadata of the trace
 * it was written from, through the same session API as perf.data.
 *
 * JSON Lines: each line is parsed on its own with cJSON, so memory is one
 * line's DOM whatever the file's length. Lines are capped (JSONIN_LINE_MAX)
 * and every value is type-checked: a damaged file gives an error naming the
 * line and its byte offset, never a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "internal.h"

/* the first line holds the task table: 64 MiB is some 500,000 tasks */
#define JSONIN_HEADER_MAX	(64u << 20)
/* an event line: a 65535-frame callchain (perf's limit) is about 1.4 MB */
#define JSONIN_LINE_MAX		(4u << 20)
#define JSONIN_READ_STEP	(64u << 10)
#define JSON_SAFE_INT		(1ull << 53)	/* integers JSON numbers hold exactly */

struct jfield {				/* a tracepoint field as the first line describes it */
	char *name;
	enum srep_field_kind kind;
	uint32_t elem_size;
	bool elem_signed;
};

struct jevsel {
	struct jfield *fields;
	int nr_fields;
};

struct jsonin_fields {			/* the fields of the event handed out */
	int nr;
	struct srep_field *f;
	int *status;			/* 0, or SREP_E_CORRUPT: the writer could not read it */
};

struct jsonin {
	uint64_t pos;			/* offset of the next line */
	uint64_t body;			/* offset of the first event line */
	size_t line_no, body_line;	/* 1-based number of the next line */
	uint64_t line_off;		/* offset of the line being decoded */
	struct jevsel *evsels;
	size_t nr_evsels;
	struct jsonin_fields jf;
	int fields_cap;
	uint8_t *arena;			/* strings and arrays of the current event */
	size_t arena_len, arena_cap;
	uint64_t *chain;
	size_t chain_cap;
	uint64_t events;
	bool ended;
};

/* ---- errors ---- */

static int bad(struct srep_session *s, struct srep_error *err, const char *fmt, const char *what)
{
	struct jsonin *j = s->jin;

	return sess_err(s, err, SREP_E_JSON, j->line_off, -1, "line %zu: %s%s", j->line_no - 1,
			fmt, what ? what : "");
}

/* ---- lines ---- */

/*
 * The next line (without its newline) at j->pos: 1, or 0 at the end of the
 * input. Valid until the next input call.
 */
static int next_line(struct srep_session *s, const char **line, size_t *len, size_t max,
		     struct srep_error *err)
{
	struct jsonin *j = s->jin;
	size_t want = JSONIN_READ_STEP, got;
	const uint8_t *p, *nl;
	int ret;

	for (;;) {
		ret = input_get(&s->in, j->pos, want, &p, &got, err);
		if (ret == SREP_E_TRUNCATED) {
			if (!got)
				return 0;
			ret = input_get(&s->in, j->pos, got, &p, NULL, err);
		} else {
			got = want;
		}
		if (ret)
			return ret;
		nl = memchr(p, '\n', got);
		if ((nl && (size_t)(nl - p) > max) || (!nl && got > max))
			break;
		if (nl || got < want) {
			*line = (const char *)p;
			*len = nl ? (size_t)(nl - p) : got;
			j->line_off = j->pos;
			j->pos += *len + (nl != NULL);
			j->line_no++;
			return 1;
		}
		want *= 4;
	}
	return sess_err(s, err, SREP_E_LIMIT, j->pos, -1, "line %zu: longer than %zu bytes",
			j->line_no, max);
}

static bool blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	}
	return true;
}

/* the next non-blank line, parsed; *root NULL at the end of the input */
static int parse_line(struct srep_session *s, cJSON **root, size_t *out_len, size_t max,
		      struct srep_error *err)
{
	const char *line = NULL;
	size_t len = 0;
	int ret;

	*root = NULL;
	do {
		ret = next_line(s, &line, &len, max, err);
		if (ret <= 0)
			return ret;
	} while (blank(line, len));
	*out_len = len;
	*root = cJSON_ParseWithLength(line, len);
	input_release(&s->in, s->jin->pos);
	if (!*root || !cJSON_IsObject(*root)) {
		cJSON_Delete(*root);
		*root = NULL;
		return bad(s, err, "not a JSON object", NULL);
	}
	return 0;
}

/* ---- values ---- */

static bool get_u64(const cJSON *v, uint64_t *out)
{
	char *end;

	if (cJSON_IsNumber(v)) {
		if (v->valuedouble < 0 || v->valuedouble > (double)JSON_SAFE_INT ||
		    v->valuedouble != (double)(uint64_t)v->valuedouble)
			return false;
		*out = (uint64_t)v->valuedouble;
		return true;
	}
	if (!cJSON_IsString(v) || !v->valuestring[0] || v->valuestring[0] == '-')
		return false;
	errno = 0;
	/* decimal, or 0x hex for addresses; never octal */
	if (!strncmp(v->valuestring, "0x", 2))
		*out = strtoull(v->valuestring + 2, &end, 16);
	else
		*out = strtoull(v->valuestring, &end, 10);
	return !errno && !*end && end != v->valuestring;
}

static bool get_i64(const cJSON *v, int64_t *out)
{
	char *end;

	if (cJSON_IsNumber(v)) {
		if (v->valuedouble < -(double)JSON_SAFE_INT || v->valuedouble > (double)JSON_SAFE_INT ||
		    v->valuedouble != (double)(int64_t)v->valuedouble)
			return false;
		*out = (int64_t)v->valuedouble;
		return true;
	}
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return false;
	errno = 0;
	*out = strtoll(v->valuestring, &end, 10);
	return !errno && !*end;
}

static bool get_i32(const cJSON *v, int32_t *out)
{
	int64_t x;

	if (!get_i64(v, &x) || x < INT32_MIN || x > INT32_MAX)
		return false;
	*out = (int32_t)x;
	return true;
}

static bool get_u32(const cJSON *v, uint32_t *out)
{
	uint64_t x;

	if (!get_u64(v, &x) || x > UINT32_MAX)
		return false;
	*out = (uint32_t)x;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* hex digits into 'out' (room for len / 2 bytes); false if not hex */
static bool unhex(const char *hex, size_t len, uint8_t *out)
{
	size_t i;

	if (len % 2)
		return false;
	for (i = 0; i < len; i += 2) {
		int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* a byte string: a JSON string, or {"hex": "..."} decoded into the event arena */
static bool get_bytes(struct jsonin *j, const cJSON *v, const char **out, size_t *len)
{
	const char *hex;

	if (cJSON_IsString(v)) {
		*out = v->valuestring;
		*len = strlen(v->valuestring);
		return true;
	}
	hex = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "hex"));
	/* the arena was sized for the whole line: half of these digits fit */
	if (!cJSON_IsObject(v) || !hex || j->arena_len + strlen(hex) / 2 + 1 > j->arena_cap ||
	    !unhex(hex, strlen(hex), j->arena + j->arena_len))
		return false;
	*out = (const char *)j->arena + j->arena_len;
	*len = strlen(hex) / 2;
	j->arena[j->arena_len + *len] = '\0';
	j->arena_len += *len + 1;
	return true;
}

/* bytes that outlive the line's DOM: in the arena, NUL-terminated */
static bool get_kept(struct jsonin *j, const cJSON *v, const char **out, size_t *len)
{
	const char *p;

	if (!get_bytes(j, v, &p, len))
		return false;
	if (p >= (const char *)j->arena && p < (const char *)j->arena + j->arena_cap) {
		*out = p;	/* decoded from hex: there already */
		return true;
	}
	if (j->arena_len + *len + 1 > j->arena_cap)
		return false;
	memcpy(j->arena + j->arena_len, p, *len);
	j->arena[j->arena_len + *len] = '\0';
	*out = (const char *)j->arena + j->arena_len;
	j->arena_len += *len + 1;
	return true;
}

/* a C string (no NUL inside) that outlives the line's DOM */
static bool get_cstr(struct jsonin *j, const cJSON *v, const char **out)
{
	size_t len;

	return get_kept(j, v, out, &len) && !memchr(*out, '\0', len);
}

static bool get_comm(struct jsonin *j, const cJSON *v, char *out)
{
	const char *p;
	size_t len;

	if (!get_bytes(j, v, &p, &len) || len >= SREP_COMM_MAX || memchr(p, '\0', len))
		return false;
	memcpy(out, p, len);
	out[len] = '\0';
	return true;
}

/* ---- the event union: one row per key ---- */

enum utype { U_I32, U_I64, U_U32, U_U64, U_COMM, U_CSTR, U_STATE, U_BOOL, U_WAKE, U_STAT,
	     U_BUILD_ID };

struct ukey {
	enum srep_event_kind kind;
	const char *key;
	enum utype type;
	size_t off;			/* in struct srep_event */
};

#define UK(k, key, type, member) { k, key, type, offsetof(struct srep_event, u.member) }

static const struct ukey ukeys[] = {
	UK(SREP_EV_SWITCH, "prev_pid", U_I32, sw.prev_pid),
	UK(SREP_EV_SWITCH, "prev_tid", U_I32, sw.prev_tid),
	UK(SREP_EV_SWITCH, "next_pid", U_I32, sw.next_pid),
	UK(SREP_EV_SWITCH, "next_tid", U_I32, sw.next_tid),
	UK(SREP_EV_SWITCH, "prev_prio", U_I32, sw.prev_prio),
	UK(SREP_EV_SWITCH, "next_prio", U_I32, sw.next_prio),
	UK(SREP_EV_SWITCH, "prev_state", U_STATE, sw.prev_state),
	UK(SREP_EV_SWITCH, "prev_comm", U_COMM, sw.prev_comm),
	UK(SREP_EV_SWITCH, "next_comm", U_COMM, sw.next_comm),
	UK(SREP_EV_WAKEUP, "type", U_WAKE, wake.kind),
	UK(SREP_EV_WAKEUP, "pid", U_I32, wake.pid),
	UK(SREP_EV_WAKEUP, "tid", U_I32, wake.tid),
	UK(SREP_EV_WAKEUP, "prio", U_I32, wake.prio),
	UK(SREP_EV_WAKEUP, "target_cpu", U_I32, wake.target_cpu),
	UK(SREP_EV_WAKEUP, "success", U_I32, wake.success),
	UK(SREP_EV_WAKEUP, "comm", U_COMM, wake.comm),
	UK(SREP_EV_MIGRATE, "pid", U_I32, migrate.pid),
	UK(SREP_EV_MIGRATE, "tid", U_I32, migrate.tid),
	UK(SREP_EV_MIGRATE, "prio", U_I32, migrate.prio),
	UK(SREP_EV_MIGRATE, "orig_cpu", U_I32, migrate.orig_cpu),
	UK(SREP_EV_MIGRATE, "dest_cpu", U_I32, migrate.dest_cpu),
	UK(SREP_EV_MIGRATE, "comm", U_COMM, migrate.comm),
	UK(SREP_EV_FORK, "parent_pid", U_I32, fork.parent_pid),
	UK(SREP_EV_FORK, "parent_tid", U_I32, fork.parent_tid),
	UK(SREP_EV_FORK, "child_pid", U_I32, fork.child_pid),
	UK(SREP_EV_FORK, "child_tid", U_I32, fork.child_tid),
	UK(SREP_EV_FORK, "parent_comm", U_COMM, fork.parent_comm),
	UK(SREP_EV_FORK, "child_comm", U_COMM, fork.child_comm),
	UK(SREP_EV_EXEC, "pid", U_I32, exec.pid),
	UK(SREP_EV_EXEC, "tid", U_I32, exec.tid),
	UK(SREP_EV_EXEC, "old_tid", U_I32, exec.old_tid),
	UK(SREP_EV_EXEC, "comm", U_COMM, exec.comm),
	UK(SREP_EV_EXEC, "filename", U_CSTR, exec.filename),
	UK(SREP_EV_EXIT, "pid", U_I32, exit.pid),
	UK(SREP_EV_EXIT, "tid", U_I32, exit.tid),
	UK(SREP_EV_EXIT, "ppid", U_I32, exit.ppid),
	UK(SREP_EV_EXIT, "ptid", U_I32, exit.ptid),
	UK(SREP_EV_EXIT, "prio", U_I32, exit.prio),
	UK(SREP_EV_EXIT, "comm", U_COMM, exit.comm),
	UK(SREP_EV_COMM, "pid", U_I32, comm.pid),
	UK(SREP_EV_COMM, "tid", U_I32, comm.tid),
	UK(SREP_EV_COMM, "comm", U_COMM, comm.comm),
	UK(SREP_EV_STAT, "type", U_STAT, stat.kind),
	UK(SREP_EV_STAT, "pid", U_I32, stat.pid),
	UK(SREP_EV_STAT, "tid", U_I32, stat.tid),
	UK(SREP_EV_STAT, "value", U_U64, stat.value),
	UK(SREP_EV_STAT, "vruntime", U_U64, stat.vruntime),
	UK(SREP_EV_STAT, "comm", U_COMM, stat.comm),
	UK(SREP_EV_CPU_IDLE, "cpu", U_I32, cpu_state.cpu),
	UK(SREP_EV_CPU_IDLE, "state", U_I64, cpu_state.state),
	UK(SREP_EV_MMAP, "pid", U_I32, mmap.pid),
	UK(SREP_EV_MMAP, "tid", U_I32, mmap.tid),
	UK(SREP_EV_MMAP, "addr", U_U64, mmap.addr),
	UK(SREP_EV_MMAP, "len", U_U64, mmap.len),
	UK(SREP_EV_MMAP, "pgoff", U_U64, mmap.pgoff),
	UK(SREP_EV_MMAP, "prot", U_U32, mmap.prot),
	UK(SREP_EV_MMAP, "flags", U_U32, mmap.flags),
	UK(SREP_EV_MMAP, "build_id", U_BUILD_ID, mmap),
	UK(SREP_EV_MMAP, "filename", U_CSTR, mmap.filename),
	UK(SREP_EV_LOST, "samples", U_BOOL, lost.samples),
	UK(SREP_EV_LOST, "id", U_U64, lost.id),
	UK(SREP_EV_LOST, "lost", U_U64, lost.lost),
};

/* EXIT and FREE, CPU_IDLE and CPU_FREQ share their members */
static enum srep_event_kind ukind(enum srep_event_kind k)
{
	return k == SREP_EV_FREE ? SREP_EV_EXIT : k == SREP_EV_CPU_FREQ ? SREP_EV_CPU_IDLE : k;
}

static bool set_enum(const cJSON *v, const char *const *names, int n, void *p)
{
	const char *name = cJSON_GetStringValue(v);
	int i;

	for (i = 0; name && i < n; i++) {
		if (!strcmp(name, names[i])) {
			memcpy(p, &i, sizeof(i));	/* the enums are int-sized */
			return true;
		}
	}
	return false;
}

static bool set_build_id(struct jsonin *j, const cJSON *v, struct srep_mmap *m)
{
	const char *p;
	size_t len;

	if (!get_bytes(j, v, &p, &len) || len > 40 || !unhex(p, len, m->build_id))
		return false;
	m->build_id_size = (uint8_t)(len / 2);
	return true;
}

static bool set_ukey(struct jsonin *j, struct srep_event *ev, const struct ukey *k, const cJSON *v)
{
	static const char *const wake[] = { "waking", "wakeup", "new" };
	static const char *const stat[] = { "runtime", "sleep", "wait", "iowait", "blocked" };
	void *p = (char *)ev + k->off;
	const char *str;
	size_t len;

	switch (k->type) {
	case U_I32:	return get_i32(v, p);
	case U_I64:	return get_i64(v, p);
	case U_U32:	return get_u32(v, p);
	case U_U64:	return get_u64(v, p);
	case U_COMM:	return get_comm(j, v, p);
	case U_CSTR:	return get_cstr(j, v, p);
	case U_BOOL:	return cJSON_IsBool(v) && ((*(bool *)p = cJSON_IsTrue(v)), true);
	case U_WAKE:	return set_enum(v, wake, 3, p);
	case U_STAT:	return set_enum(v, stat, 5, p);
	case U_BUILD_ID: return set_build_id(j, v, p);
	default:	/* U_STATE: one byte */
		if (!get_bytes(j, v, &str, &len) || len != 1)
			return false;
		*(char *)p = str[0];
		return true;
	}
}

/* every member of the kind's union, each once */
static int set_union(struct srep_session *s, struct srep_event *ev, const cJSON *u,
		     struct srep_error *err)
{
	enum srep_event_kind kind = ukind(ev->kind);
	size_t i, want = 0, seen = 0;
	const cJSON *v;

	memset(&ev->u, 0, sizeof(ev->u));
	for (i = 0; i < sizeof(ukeys) / sizeof(ukeys[0]); i++)
		want += ukeys[i].kind == kind;
	if (!want)
		return u ? bad(s, err, "\"u\" given for an event of kind ", srep_event_kind_name(ev->kind)) : 0;
	if (!cJSON_IsObject(u))
		return bad(s, err, "no \"u\" object for an event of kind ", srep_event_kind_name(ev->kind));
	cJSON_ArrayForEach(v, u) {
		for (i = 0; i < sizeof(ukeys) / sizeof(ukeys[0]); i++) {
			if (ukeys[i].kind == kind && !strcmp(ukeys[i].key, v->string))
				break;
		}
		if (i == sizeof(ukeys) / sizeof(ukeys[0]))
			continue;	/* a key this version does not know */
		if (!set_ukey(s->jin, ev, &ukeys[i], v))
			return bad(s, err, "bad value for \"u\".", v->string);
		seen++;
	}
	return seen == want ? 0 : bad(s, err, "\"u\" lacks members of its kind or repeats one", NULL);
}

/* ---- tracepoint fields ---- */

/* room for n fields, and their values described by the evsel's layout */
static int fields_reserve(struct jsonin *j, int n)
{
	struct srep_field *f;
	int *st;

	if (n <= j->fields_cap)
		return 0;
	f = realloc(j->jf.f, (size_t)n * sizeof(*f));
	if (f)
		j->jf.f = f;
	st = f ? realloc(j->jf.status, (size_t)n * sizeof(*st)) : NULL;
	if (!st)
		return SREP_E_NOMEM;
	j->jf.status = st;
	j->fields_cap = n;
	return 0;
}

static void put_elem(uint8_t *p, uint32_t size, uint64_t v)
{
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: srep_put16(p, (uint16_t)v, SREP_HOST_BIG_ENDIAN); break;
	case 4: srep_put32(p, (uint32_t)v, SREP_HOST_BIG_ENDIAN); break;
	default: srep_put64(p, v, SREP_HOST_BIG_ENDIAN); break;
	}
}

/* array elements, stored in host order in the arena */
static bool set_array(struct jsonin *j, struct srep_field *f, const cJSON *v)
{
	const cJSON *e;
	uint32_t n = 0;
	uint64_t u;
	int64_t i;

	if (!cJSON_IsArray(v))
		return false;
	j->arena_len = (j->arena_len + 7) & ~(size_t)7;
	f->elems = j->arena + j->arena_len;
	cJSON_ArrayForEach(e, v) {
		if (j->arena_len + f->elem_size > j->arena_cap)
			return false;
		if (f->elem_signed ? !get_i64(e, &i) : !get_u64(e, &u))
			return false;
		put_elem(j->arena + j->arena_len, f->elem_size, f->elem_signed ? (uint64_t)i : u);
		j->arena_len += f->elem_size;
		n++;
	}
	f->nr_elems = n;
	return true;
}

static bool set_field(struct jsonin *j, const struct jfield *d, struct srep_field *f,
		      const cJSON *v)
{
	memset(f, 0, sizeof(*f));
	f->name = d->name;
	f->kind = d->kind;
	f->str = "";
	if (d->kind == SREP_FIELD_ARRAY) {
		f->elem_size = d->elem_size;
		f->elem_signed = d->elem_signed;
	}
	switch (d->kind) {
	case SREP_FIELD_INT:	return get_i64(v, &f->i);
	case SREP_FIELD_UINT:	return get_u64(v, &f->u);
	case SREP_FIELD_STR:	return get_kept(j, v, &f->str, &f->len);
	default:		return set_array(j, f, v);
	}
}

static int set_fields(struct srep_session *s, struct srep_event *ev, const cJSON *fv,
		      struct srep_error *err)
{
	struct jsonin *j = s->jin;
	const struct jevsel *es;
	const cJSON *v;
	int i = 0;

	if (!fv)
		return 0;
	if (ev->evsel < 0 || (size_t)ev->evsel >= j->nr_evsels)
		return bad(s, err, "tracepoint fields without an event description", NULL);
	es = &j->evsels[ev->evsel];
	if (!cJSON_IsArray(fv) || cJSON_GetArraySize(fv) != es->nr_fields)
		return bad(s, err, "\"f\" does not have the fields its event description lists", NULL);
	if (fields_reserve(j, es->nr_fields))
		return sess_err(s, err, SREP_E_NOMEM, j->line_off, -1, "no memory for fields");
	cJSON_ArrayForEach(v, fv) {
		j->jf.status[i] = 0;
		if (cJSON_IsNull(v))
			j->jf.status[i] = SREP_E_CORRUPT;	/* unreadable in the trace too */
		else if (!set_field(j, &es->fields[i], &j->jf.f[i], v))
			return bad(s, err, "bad value for field ", es->fields[i].name);
		if (j->jf.status[i])
			set_field(j, &es->fields[i], &j->jf.f[i], NULL);
		i++;
	}
	j->jf.nr = es->nr_fields;
	s->cur_fields = (struct ev_fields){ .jf = &j->jf };
	ev->priv = &s->cur_fields;
	return 0;
}

int jsonin_nr_fields(const struct jsonin_fields *jf)
{
	return jf->nr;
}

int jsonin_field(const struct jsonin_fields *jf, int idx, struct srep_field *out)
{
	if (idx < 0 || idx >= jf->nr)
		return SREP_E_INVAL;
	*out = jf->f[idx];
	return jf->status[idx];
}

int jsonin_field_by_name(const struct jsonin_fields *jf, const char *name,
			 struct srep_field *out)
{
	int i, ret;

	for (i = 0; name && i < jf->nr; i++) {
		if (!strcmp(jf->f[i].name, name)) {
			ret = jsonin_field(jf, i, out);
			return ret < 0 ? ret : 1;
		}
	}
	return 0;
}

int jsonin_evsel_nr_fields(const struct jsonin *j, size_t idx)
{
	return idx < j->nr_evsels ? j->evsels[idx].nr_fields : 0;
}

int jsonin_evsel_field(const struct jsonin *j, size_t idx, int field, struct srep_field *out)
{
	const struct jfield *d;

	if (idx >= j->nr_evsels || field < 0 || field >= j->evsels[idx].nr_fields)
		return SREP_E_INVAL;
	d = &j->evsels[idx].fields[field];
	memset(out, 0, sizeof(*out));
	out->name = d->name;
	out->kind = d->kind;
	out->str = "";
	if (d->kind == SREP_FIELD_ARRAY) {
		out->elem_size = d->elem_size;
		out->elem_signed = d->elem_signed;
	}
	return 0;
}

/* ---- event lines ---- */

static const char *const sources[] = { "tp", "rec", "smp" };

static bool get_kind(const cJSON *v, enum srep_event_kind *out)
{
	const char *name = cJSON_GetStringValue(v);
	int k;

	for (k = 1; name && k < SREP_EV_MAX; k++) {
		if (!strcmp(name, srep_event_kind_name(k))) {
			*out = (enum srep_event_kind)k;
			return true;
		}
	}
	return false;
}

static bool get_chain(struct jsonin *j, struct srep_event *ev, const cJSON *v)
{
	int n = cJSON_GetArraySize(v), i = 0;
	const cJSON *e;
	uint64_t *nc;

	if (!cJSON_IsArray(v))
		return false;
	if ((size_t)n > j->chain_cap) {
		nc = realloc(j->chain, (size_t)n * sizeof(*nc));
		if (!nc)
			return false;
		j->chain = nc;
		j->chain_cap = (size_t)n;
	}
	cJSON_ArrayForEach(e, v) {
		if (!get_u64(e, &j->chain[i++]))
			return false;
	}
	ev->callchain = j->chain;
	ev->nr_callchain = (uint32_t)n;
	return true;
}

/* the members every event has; t, k, src, cpu, pid and tid must be there */
static bool set_common(struct jsonin *j, struct srep_event *ev, const cJSON *v, unsigned *seen)
{
	static const char *const keys[] = { "t", "k", "src", "cpu", "pid", "tid", "e", "fl", "ip",
					    "period", "addr", "cc" };
	int32_t evsel;
	unsigned k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[k], v->string); k++)
		;
	*seen |= 1u << k;
	switch (k) {
	case 0:  return get_u64(v, &ev->time);
	case 1:  return get_kind(v, &ev->kind);
	case 2:  return set_enum(v, sources, 3, &ev->source);
	case 3:  return get_i32(v, &ev->cpu);
	case 4:  return get_i32(v, &ev->pid);
	case 5:  return get_i32(v, &ev->tid);
	case 6:  return get_i32(v, &evsel) && evsel >= 0 && ((ev->evsel = evsel), true);
	case 7:  return get_u32(v, &ev->flags);
	case 8:  return get_u64(v, &ev->ip);
	case 9:  return get_u64(v, &ev->period);
	case 10: return get_u64(v, &ev->addr);
	case 11: return get_chain(j, ev, v);
	default: return true;		/* "u", "f", or a key this version does not know */
	}
}

static int decode_event(struct srep_session *s, const cJSON *root, size_t line_len,
			struct srep_error *err)
{
	struct jsonin *j = s->jin;
	struct srep_event *ev = &s->ev;
	const cJSON *v;
	unsigned seen = 0;
	int ret;

	/* decoded strings and arrays never outgrow eight bytes per byte of their line */
	if (line_len * 8 + 64 > j->arena_cap) {
		uint8_t *a = realloc(j->arena, line_len * 8 + 64);

		if (!a)
			return sess_err(s, err, SREP_E_NOMEM, j->line_off, -1, "no memory for an event");
		j->arena = a;
		j->arena_cap = line_len * 8 + 64;
	}
	j->arena_len = 0;
	memset(ev, 0, offsetof(struct srep_event, u));
	ev->evsel = -1;
	ev->priv = NULL;
	cJSON_ArrayForEach(v, root) {
		if (!set_common(j, ev, v, &seen))
			return bad(s, err, "bad value for ", v->string);
	}
	if ((seen & 0x3f) != 0x3f)
		return bad(s, err, "an event needs t, k, src, cpu, pid and tid", NULL);
	ret = set_union(s, ev, cJSON_GetObjectItemCaseSensitive(root, "u"), err);
	if (!ret)
		ret = set_fields(s, ev, cJSON_GetObjectItemCaseSensitive(root, "f"), err);
	if (!ret && ev->evsel >= 0 && (size_t)ev->evsel >= s->nr_evsels)
		ret = bad(s, err, "no such event description", NULL);
	return ret;
}

/* ---- the closing line: what the source trace counted ---- */

static bool set_records(struct srep_stats *st, const cJSON *v)
{
	const cJSON *r;
	uint32_t type;
	const char *name;

	if (!cJSON_IsObject(v))
		return false;
	cJSON_ArrayForEach(r, v) {
		for (type = 0; type < SREP_NR_RECORD_TYPES; type++) {
			name = srep_record_type_name(type);
			if (name && !strcmp(name, r->string))
				break;
		}
		if (type == SREP_NR_RECORD_TYPES &&
		    (sscanf(r->string, "type_%u", &type) != 1 || type >= SREP_NR_RECORD_TYPES))
			return false;
		if (!get_u64(r, &st->records[type]))
			return false;
	}
	return true;
}

static bool set_stats(struct srep_stats *st, const cJSON *v)
{
	static const struct { const char *key; size_t off; } keys[] = {
#define SK(m) { #m, offsetof(struct srep_stats, m) }
		SK(unknown_records), SK(google_legacy_records), SK(total_records), SK(lost),
		SK(lost_samples), SK(lost_time_ns), SK(late_events), SK(skipped_records),
		SK(skipped_bytes), SK(bytes), SK(decompressed_bytes),
#undef SK
	};
	size_t i;

	if (!cJSON_IsObject(v) || !set_records(st, cJSON_GetObjectItemCaseSensitive(v, "records")))
		return false;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!get_u64(cJSON_GetObjectItemCaseSensitive(v, keys[i].key),
			     (uint64_t *)((char *)st + keys[i].off)))
			return false;
	}
	return true;
}

static bool set_evsel_counts(struct srep_session *s, const cJSON *v, bool lost)
{
	const cJSON *e;
	size_t i = 0;

	if (!cJSON_IsArray(v) || (size_t)cJSON_GetArraySize(v) != s->nr_evsels)
		return false;
	cJSON_ArrayForEach(e, v) {
		if (!get_u64(e, lost ? &s->evsels[i].nr_lost_samples : &s->evsels[i].nr_samples))
			return false;
		i++;
	}
	return true;
}

static int closing_line(struct srep_session *s, const cJSON *root, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	uint64_t events;

	if (!get_u64(cJSON_GetObjectItemCaseSensitive(root, "events"), &events) ||
	    !set_stats(&s->stats, cJSON_GetObjectItemCaseSensitive(root, "stats")) ||
	    !set_evsel_counts(s, cJSON_GetObjectItemCaseSensitive(root, "evsel_samples"), false) ||
	    !set_evsel_counts(s, cJSON_GetObjectItemCaseSensitive(root, "evsel_lost_samples"), true))
		return bad(s, err, "the closing line lacks its counts", NULL);
	if (events != j->events)
		return sess_err(s, err, SREP_E_JSON, j->line_off, -1,
				"line %zu: the closing line counts %llu events, the file has %llu",
				j->line_no - 1, (unsigned long long)events, (unsigned long long)j->events);
	j->ended = true;
	return 0;
}

int jsonin_next(struct srep_session *s, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	cJSON *root;
	size_t len;
	int ret;

	if (j->ended)
		return 0;
	ret = parse_line(s, &root, &len, JSONIN_LINE_MAX, err);
	if (ret)
		return ret;
	if (!root)
		return sess_err(s, err, SREP_E_TRUNCATED, j->pos, -1,
				"no closing line after %llu events: the file is cut short",
				(unsigned long long)j->events);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "end")))
		ret = closing_line(s, root, err);
	else
		ret = decode_event(s, root, len, err);
	cJSON_Delete(root);
	if (ret)
		return ret;
	if (j->ended) {
		/* nothing but blank lines may follow */
		ret = parse_line(s, &root, &len, JSONIN_LINE_MAX, err);
		cJSON_Delete(root);
		if (!ret && root)
			ret = bad(s, err, "data after the closing line", NULL);
		return ret;
	}
	j->events++;
	return 1;
}

/* ---- the first line: metadata, event descriptions, tasks ---- */

enum mtype { M_STR, M_BOOL, M_INT, M_I32, M_I64, M_U32, M_U64, M_STRV };

static const struct mkey {
	const char *key;
	enum mtype type;
	size_t off, count_off;		/* in struct srep_meta; count_off for M_STRV */
} mkeys[] = {
#define MK(m, t) { #m, t, offsetof(struct srep_meta, m), 0 }
#define MV(m, n) { #m, M_STRV, offsetof(struct srep_meta, m), offsetof(struct srep_meta, n) }
	MK(pipe_mode, M_BOOL), MK(big_endian, M_BOOL), MK(word_size, M_INT),
	MK(magic_version, M_INT), MK(attr_size, M_U32), MK(data_offset, M_U64),
	MK(data_size, M_U64), MK(hostname, M_STR), MK(osrelease, M_STR), MK(perf_version, M_STR),
	MK(arch, M_STR), MK(cpudesc, M_STR), MK(cpuid, M_STR), MK(nr_cpus_avail, M_I32),
	MK(nr_cpus_online, M_I32), MK(total_mem_kb, M_I64), MV(cmdline, nr_cmdline),
	MK(clockid, M_I64), MK(clock_res_ns, M_I64), MK(has_clock_data, M_BOOL),
	MK(clock_wall_ns, M_U64), MK(clock_ref_ns, M_U64), MK(has_sample_time, M_BOOL),
	MK(sample_time_first, M_U64), MK(sample_time_last, M_U64), MK(compressed, M_BOOL),
	MK(comp_type, M_U32), MK(comp_level, M_U32), MK(comp_ratio, M_U32),
	MK(comp_mmap_len, M_U32), MV(core_siblings, nr_core_siblings),
	MV(thread_siblings, nr_thread_siblings), MK(has_tracing, M_BOOL),
	MK(tracing_long_size, M_INT), MK(tracing_page_size, M_INT),
	MK(tracing_big_endian, M_BOOL), MK(tracing_version, M_STR),
#undef MK
#undef MV
};

/* a string the session keeps (meta pointers live as long as it) */
static bool keep_str(struct srep_session *s, const cJSON *v, const char **out)
{
	const char *p;
	size_t len;

	if (cJSON_IsNull(v)) {
		*out = NULL;
		return true;
	}
	s->jin->arena_len = 0;
	if (!get_bytes(s->jin, v, &p, &len) || memchr(p, '\0', len))
		return false;
	*out = sess_strdup(s, p, len);
	return *out != NULL;
}

static bool keep_strv(struct srep_session *s, const cJSON *v, const char *const **out, int *n)
{
	const char **strs;
	const cJSON *e;
	int i = 0;

	if (cJSON_IsNull(v)) {
		*out = NULL;
		*n = 0;
		return true;
	}
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > (int)SREP_MAX_STRINGS)
		return false;
	strs = sess_keep(s, calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof(*strs)));
	if (!strs)
		return false;
	cJSON_ArrayForEach(e, v) {
		if (!keep_str(s, e, &strs[i]) || !strs[i])
			return false;
		i++;
	}
	*out = strs;
	*n = i;
	return true;
}

static bool set_mkey(struct srep_session *s, const struct mkey *k, const cJSON *v)
{
	void *p = (char *)&s->meta + k->off;
	int32_t i32;

	switch (k->type) {
	case M_STR:	return keep_str(s, v, p);
	case M_BOOL:	return cJSON_IsBool(v) && ((*(bool *)p = cJSON_IsTrue(v)), true);
	case M_INT:	return get_i32(v, &i32) && ((*(int *)p = i32), true);
	case M_I32:	return get_i32(v, p);
	case M_I64:	return get_i64(v, p);
	case M_U32:	return get_u32(v, p);
	case M_U64:	return get_u64(v, p);
	default:	return keep_strv(s, v, p, (int *)((char *)&s->meta + k->count_off));
	}
}

static int set_meta(struct srep_session *s, const cJSON *m, struct srep_error *err)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(m, "features"), *e;
	size_t i;
	int k = 0;

	if (!cJSON_IsObject(m))
		return bad(s, err, "no \"meta\" object", NULL);
	for (i = 0; i < sizeof(mkeys) / sizeof(mkeys[0]); i++) {
		if (!set_mkey(s, &mkeys[i], cJSON_GetObjectItemCaseSensitive(m, mkeys[i].key)))
			return bad(s, err, "missing or bad meta.", mkeys[i].key);
	}
	if (cJSON_GetArraySize(f) != 4)
		return bad(s, err, "meta.features is not 4 numbers", NULL);
	cJSON_ArrayForEach(e, f) {
		if (!get_u64(e, &s->meta.features[k++]))
			return bad(s, err, "meta.features is not 4 numbers", NULL);
	}
	return 0;
}

static const char *const field_kinds[] = { "int", "uint", "str", "array" };

static bool set_jfield(struct jfield *d, const cJSON *v)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "name"));
	uint32_t size;

	if (!name || !set_enum(cJSON_GetObjectItemCaseSensitive(v, "kind"), field_kinds, 4, &d->kind))
		return false;
	d->name = strdup(name);
	if (d->kind == SREP_FIELD_ARRAY) {
		const cJSON *sg = cJSON_GetObjectItemCaseSensitive(v, "elem_signed");

		if (!get_u32(cJSON_GetObjectItemCaseSensitive(v, "elem_size"), &size) ||
		    (size != 1 && size != 2 && size != 4 && size != 8) || !cJSON_IsBool(sg))
			return false;
		d->elem_size = size;
		d->elem_signed = cJSON_IsTrue(sg);
	}
	return d->name != NULL;
}

static bool set_evsel(struct evsel *ev, struct jevsel *je, const cJSON *v)
{
	const cJSON *fields = cJSON_GetObjectItemCaseSensitive(v, "fields"), *f;
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "name"));
	int i = 0;

	if (!name || !(ev->name = strdup(name)) ||
	    !get_u32(cJSON_GetObjectItemCaseSensitive(v, "type"), &ev->attr.type) ||
	    !get_u64(cJSON_GetObjectItemCaseSensitive(v, "config"), &ev->attr.config) ||
	    !get_u64(cJSON_GetObjectItemCaseSensitive(v, "sample_type"), &ev->attr.sample_type) ||
	    !cJSON_IsArray(fields))
		return false;
	ev->name_from_file = true;
	je->fields = calloc((size_t)cJSON_GetArraySize(fields) + 1, sizeof(*je->fields));
	if (!je->fields)
		return false;
	cJSON_ArrayForEach(f, fields) {
		je->nr_fields = i + 1;	/* counted first: freed whatever fails */
		if (!set_jfield(&je->fields[i++], f))
			return false;
	}
	return true;
}

static int set_evsels(struct srep_session *s, const cJSON *v, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	size_t n = (size_t)cJSON_GetArraySize(v), i = 0;
	const cJSON *e;

	if (!cJSON_IsArray(v) || n > SREP_MAX_ATTRS)
		return bad(s, err, "no \"evsels\" array", NULL);
	s->evsels = calloc(n + 1, sizeof(*s->evsels));
	j->evsels = calloc(n + 1, sizeof(*j->evsels));
	if (!s->evsels || !j->evsels)
		return sess_err(s, err, SREP_E_NOMEM, 0, -1, "no memory for event descriptions");
	cJSON_ArrayForEach(e, v) {
		/* counted first: what was made is freed whatever fails */
		s->nr_evsels = j->nr_evsels = i + 1;
		if (!set_evsel(&s->evsels[i], &j->evsels[i], e))
			return bad(s, err, "bad event description ", cJSON_GetStringValue(
					   cJSON_GetObjectItemCaseSensitive(e, "name")));
		i++;
	}
	s->cap_evsels = n + 1;
	return 0;
}

static bool set_task(struct srep_session *s, const cJSON *v)
{
	const cJSON *c, *comms = cJSON_GetObjectItemCaseSensitive(v, "comms");
	struct srep_task *t;
	char comm[SREP_COMM_MAX];
	int32_t tid;
	uint64_t time;

	if (!get_i32(cJSON_GetObjectItemCaseSensitive(v, "tid"), &tid) || !cJSON_IsArray(comms) ||
	    !(t = task_new(&s->prescanned, tid)))
		return false;
	if (!get_i32(cJSON_GetObjectItemCaseSensitive(v, "pid"), &t->pid) ||
	    !get_i32(cJSON_GetObjectItemCaseSensitive(v, "ppid"), &t->ppid) ||
	    !get_i32(cJSON_GetObjectItemCaseSensitive(v, "ptid"), &t->ptid) ||
	    !get_u64(cJSON_GetObjectItemCaseSensitive(v, "first_seen"), &t->first_seen) ||
	    !get_u64(cJSON_GetObjectItemCaseSensitive(v, "last_seen"), &t->last_seen) ||
	    !get_u64(cJSON_GetObjectItemCaseSensitive(v, "fork_time"), &t->fork_time) ||
	    !get_u64(cJSON_GetObjectItemCaseSensitive(v, "exit_time"), &t->exit_time))
		return false;
	t->exited = t->exit_time != 0;
	cJSON_ArrayForEach(c, comms) {
		s->jin->arena_len = 0;
		if (cJSON_GetArraySize(c) != 2 || !get_u64(cJSON_GetArrayItem(c, 0), &time) ||
		    !get_comm(s->jin, cJSON_GetArrayItem(c, 1), comm) ||
		    task_set_comm(t, comm, time))
			return false;
	}
	return true;
}

static int set_tasks(struct srep_session *s, const cJSON *v, struct srep_error *err)
{
	const cJSON *t;

	if (!cJSON_IsArray(v))
		return bad(s, err, "no \"tasks\" array", NULL);
	cJSON_ArrayForEach(t, v) {
		if (!set_task(s, t))
			return bad(s, err, "bad task", NULL);
	}
	s->has_prescan = true;		/* the whole table is known before the first event */
	return 0;
}

static int header(struct srep_session *s, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	const char *format;
	int64_t version = 0;
	cJSON *root;
	size_t len;
	int ret;

	ret = parse_line(s, &root, &len, JSONIN_HEADER_MAX, err);
	if (ret)
		return ret;
	if (!root)
		return sess_err(s, err, SREP_E_TRUNCATED, 0, -1, "empty file");
	/* the header's strings are decoded in the arena too: room for the longest */
	j->arena = malloc(len + 64);
	j->arena_cap = j->arena ? len + 64 : 0;
	format = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "format"));
	if (!format || strcmp(format, "schedrep-events"))
		ret = bad(s, err, "not schedrep JSON: no \"format\": \"schedrep-events\"", NULL);
	else if (!get_i64(cJSON_GetObjectItemCaseSensitive(root, "version"), &version) || version != 1)
		ret = sess_err(s, err, SREP_E_UNSUPPORTED, 0, -1,
			       "schedrep JSON version %lld: this schedrep reads version 1",
			       (long long)version);
	if (!ret)
		ret = set_meta(s, cJSON_GetObjectItemCaseSensitive(root, "meta"), err);
	if (!ret)
		ret = set_evsels(s, cJSON_GetObjectItemCaseSensitive(root, "evsels"), err);
	if (!ret)
		ret = set_tasks(s, cJSON_GetObjectItemCaseSensitive(root, "tasks"), err);
	cJSON_Delete(root);
	j->body = j->pos;
	j->body_line = j->line_no;
	return ret;
}

/* ---- the session's side ---- */

bool jsonin_sniff(struct srep_session *s)
{
	const uint8_t *p;

	/* perf.data begins with its magic; schedrep JSON with its header object */
	return input_get(&s->in, 0, 1, &p, NULL, NULL) == 0 && p[0] == '{';
}

int jsonin_open(struct srep_session *s, struct srep_error *err)
{
	s->jin = calloc(1, sizeof(*s->jin));
	if (!s->jin)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a JSON reader");
	s->json = true;
	s->jin->line_no = 1;
	s->meta.format = "schedrep-json";
	/* a pipe is copied first when the caller will want to read it twice */
	if (s->opts.flags & SREP_OPEN_PRESCAN) {
		int ret = input_spool(&s->in, err);

		if (ret)
			return ret;
	}
	return header(s, err);
}

int jsonin_rewind(struct srep_session *s)
{
	struct jsonin *j = s->jin;

	j->pos = j->body;
	j->line_no = j->body_line;
	j->events = 0;
	j->ended = false;
	return 0;
}

void jsonin_free(struct jsonin *j)
{
	size_t i;
	int k;

	if (!j)
		return;
	for (i = 0; i < j->nr_evsels; i++) {
		for (k = 0; k < j->evsels[i].nr_fields; k++)
			free(j->evsels[i].fields[k].name);
		free(j->evsels[i].fields);
	}
	free(j->evsels);
	free(j->jf.f);
	free(j->jf.status);
	free(j->arena);
	free(j->chain);
	free(j);
}
