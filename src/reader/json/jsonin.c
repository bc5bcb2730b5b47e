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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonin_local.h"

/* ---- the event union: one row per key ---- */

static bool set_build_id(struct jsonin *j, const cJSON *v, struct srep_mmap *m)
{
	const char *p;
	size_t len;

	if (!jval_bytes(j, v, &p, &len) || len > 40 || !jval_unhex(p, len, m->build_id))
		return false;
	m->build_id_size = (uint8_t)(len / 2);
	return true;
}

static bool set_member(struct jsonin *j, struct srep_event *ev, const struct srep_member *m,
		       const cJSON *v)
{
	void *p = (char *)ev + m->offset;
	const char *str;
	size_t len;

	switch (m->type) {
	case SREP_MT_I32:	return jval_i32(v, p);
	case SREP_MT_I64:	return jval_i64(v, p);
	case SREP_MT_U32:	return jval_u32(v, p);
	case SREP_MT_U64:
	case SREP_MT_ADDR:	return jval_u64(v, p);
	case SREP_MT_COMM:	return jval_comm(j, v, p);
	case SREP_MT_CSTR:	return jval_cstr(j, v, p);
	case SREP_MT_BOOL:	return cJSON_IsBool(v) && ((*(bool *)p = cJSON_IsTrue(v)), true);
	case SREP_MT_WAKE:	return srep_wakeup_kind__parse(cJSON_GetStringValue(v), p);
	case SREP_MT_STAT:	return srep_stat_kind__parse(cJSON_GetStringValue(v), p);
	case SREP_MT_BUILD_ID:	return set_build_id(j, v, p);
	case SREP_MT_STATE:	/* one byte */
		if (!jval_bytes(j, v, &str, &len) || len != 1)
			return false;
		*(char *)p = str[0];
		return true;
	}
	return false;
}

/* every member of the kind's union (schedrep/schema.h), each once */
static int set_union(struct srep_session *s, struct srep_event *ev, const cJSON *u,
		     struct srep_error *err)
{
	enum srep_event_kind kind = srep_event_kind__union(ev->kind);
	size_t i, nr, want = 0, seen = 0;
	const struct srep_member *schema = srep_event_schema(&nr);
	const cJSON *v;

	memset(&ev->u, 0, sizeof(ev->u));
	for (i = 0; i < nr; i++)
		want += schema[i].kind == kind;
	if (!want)
		return u ? jval_bad(s, err, "\"u\" given for an event of kind ",
				    srep_event_kind_name(ev->kind)) : 0;
	if (!cJSON_IsObject(u))
		return jval_bad(s, err, "no \"u\" object for an event of kind ",
				srep_event_kind_name(ev->kind));
	cJSON_ArrayForEach(v, u) {
		for (i = 0; i < nr; i++) {
			if (schema[i].kind == kind && !strcmp(schema[i].key, v->string))
				break;
		}
		if (i == nr)
			continue;	/* a key this version does not know */
		if (!set_member(s->jin, ev, &schema[i], v))
			return jval_bad(s, err, "bad value for \"u\".", v->string);
		seen++;
	}
	return seen == want ? 0 : jval_bad(s, err, "\"u\" lacks members of its kind or repeats one",
					   NULL);
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
		if (f->elem_signed ? !jval_i64(e, &i) : !jval_u64(e, &u))
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
	case SREP_FIELD_INT:	return jval_i64(v, &f->i);
	case SREP_FIELD_UINT:	return jval_u64(v, &f->u);
	case SREP_FIELD_STR:	return jval_kept(j, v, &f->str, &f->len);
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
		return jval_bad(s, err, "tracepoint fields without an event description", NULL);
	es = &j->evsels[ev->evsel];
	if (!cJSON_IsArray(fv) || cJSON_GetArraySize(fv) != es->nr_fields)
		return jval_bad(s, err, "\"f\" does not have the fields its event description lists", NULL);
	if (fields_reserve(j, es->nr_fields))
		return diag_err(s, err, SREP_E_NOMEM, j->line_off, -1, "no memory for fields");
	cJSON_ArrayForEach(v, fv) {
		j->jf.status[i] = 0;
		if (cJSON_IsNull(v))
			j->jf.status[i] = SREP_E_CORRUPT;	/* unreadable in the trace too */
		else if (!set_field(j, &es->fields[i], &j->jf.f[i], v))
			return jval_bad(s, err, "bad value for field ", es->fields[i].name);
		if (j->jf.status[i])
			set_field(j, &es->fields[i], &j->jf.f[i], NULL);
		i++;
	}
	j->jf.nr = es->nr_fields;
	s->cur_fields = (struct ev_fields){ .fmt = &jsonin_format, .jf = &j->jf };
	ev->priv = &s->cur_fields;
	return 0;
}

static int jsonin_nr_fields(const struct ev_fields *f)
{
	const struct jsonin_fields *jf = f->jf;

	return jf->nr;
}

static int jsonin_field(const struct ev_fields *f, int idx, struct srep_field *out)
{
	const struct jsonin_fields *jf = f->jf;

	if (idx < 0 || idx >= jf->nr)
		return SREP_E_INVAL;
	*out = jf->f[idx];
	return jf->status[idx];
}

static int jsonin_field_by_name(const struct ev_fields *f, const char *name,
				struct srep_field *out)
{
	const struct jsonin_fields *jf = f->jf;
	int i, ret;

	for (i = 0; name && i < jf->nr; i++) {
		if (!strcmp(jf->f[i].name, name)) {
			ret = jsonin_field(f, i, out);
			return ret < 0 ? ret : 1;
		}
	}
	return 0;
}

static int jsonin_evsel_nr_fields(const struct srep_session *s, size_t idx)
{
	const struct jsonin *j = s->jin;

	return idx < j->nr_evsels ? j->evsels[idx].nr_fields : 0;
}

static int jsonin_evsel_field(const struct srep_session *s, size_t idx, int field,
			      struct srep_field *out)
{
	const struct jsonin *j = s->jin;

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
		if (!jval_u64(e, &j->chain[i++]))
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
	case 0:  return jval_u64(v, &ev->time);
	case 1:  return get_kind(v, &ev->kind);
	case 2:  return jval_enum(v, sources, 3, &ev->source);
	case 3:  return jval_i32(v, &ev->cpu);
	case 4:  return jval_i32(v, &ev->pid);
	case 5:  return jval_i32(v, &ev->tid);
	case 6:  return jval_i32(v, &evsel) && evsel >= 0 && ((ev->evsel = evsel), true);
	case 7:  return jval_u32(v, &ev->flags);
	case 8:  return jval_u64(v, &ev->ip);
	case 9:  return jval_u64(v, &ev->period);
	case 10: return jval_u64(v, &ev->addr);
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
			return diag_err(s, err, SREP_E_NOMEM, j->line_off, -1, "no memory for an event");
		j->arena = a;
		j->arena_cap = line_len * 8 + 64;
	}
	j->arena_len = 0;
	memset(ev, 0, offsetof(struct srep_event, u));
	ev->evsel = -1;
	ev->priv = NULL;
	cJSON_ArrayForEach(v, root) {
		if (!set_common(j, ev, v, &seen))
			return jval_bad(s, err, "bad value for ", v->string);
	}
	if ((seen & 0x3f) != 0x3f)
		return jval_bad(s, err, "an event needs t, k, src, cpu, pid and tid", NULL);
	ret = set_union(s, ev, cJSON_GetObjectItemCaseSensitive(root, "u"), err);
	if (!ret)
		ret = set_fields(s, ev, cJSON_GetObjectItemCaseSensitive(root, "f"), err);
	if (!ret && ev->evsel >= 0 && (size_t)ev->evsel >= s->nr_evsels)
		ret = jval_bad(s, err, "no such event description", NULL);
	return ret;
}

static int jsonin_next(struct srep_session *s, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	cJSON *root;
	size_t len;
	int ret;

	if (j->ended)
		return 0;
	ret = jval_parse_line(s, &root, &len, JSONIN_LINE_MAX, err);
	if (ret)
		return ret;
	if (!root)
		return diag_err(s, err, SREP_E_TRUNCATED, j->pos, -1,
				"no closing line after %llu events: the file is cut short",
				(unsigned long long)j->events);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "end")))
		ret = jhead_closing_line(s, root, err);
	else
		ret = decode_event(s, root, len, err);
	cJSON_Delete(root);
	if (ret)
		return ret;
	if (j->ended) {
		/* nothing but blank lines may follow */
		ret = jval_parse_line(s, &root, &len, JSONIN_LINE_MAX, err);
		cJSON_Delete(root);
		if (!ret && root)
			ret = jval_bad(s, err, "data after the closing line", NULL);
		return ret;
	}
	j->events++;
	return 1;
}

/* ---- the session's side ---- */

static bool jsonin_sniff(struct srep_session *s)
{
	const uint8_t *p;

	/* perf.data begins with its magic; schedrep JSON with its header object */
	return input_get(&s->in, 0, 1, &p, NULL, NULL) == 0 && p[0] == '{';
}

static int jsonin_open(struct srep_session *s, struct srep_error *err)
{
	int ret;

	s->jin = calloc(1, sizeof(*s->jin));
	if (!s->jin)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a JSON reader");
	s->jin->line_no = 1;
	s->meta.format = "schedrep-json";
	/* a pipe is copied first when the caller will want to read it twice */
	if (s->opts.flags & SREP_OPEN_PRESCAN) {
		ret = input_spool(&s->in, err);
		if (ret)
			return ret;
	}
	return jhead_read(s, err);
}

static int jsonin_rewind(struct srep_session *s, struct srep_error *err)
{
	struct jsonin *j = s->jin;

	(void)err;
	j->pos = j->body;
	j->line_no = j->body_line;
	j->events = 0;
	j->ended = false;
	return 0;
}

static void jsonin_free(struct srep_session *s)
{
	struct jsonin *j = s->jin;
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

const struct reader_format jsonin_format = {
	.name = "schedrep-json",
	.sniff = jsonin_sniff,
	.open = jsonin_open,
	.free = jsonin_free,
	.next = jsonin_next,
	.rewind = jsonin_rewind,
	.evsel_nr_fields = jsonin_evsel_nr_fields,
	.evsel_field = jsonin_evsel_field,
	.nr_fields = jsonin_nr_fields,
	.field = jsonin_field,
	.field_by_name = jsonin_field_by_name,
};
