// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jhead.c - the first line of schedrep JSON (metadata, event
 * descriptions with their field layouts, the task table) and the closing
 * line (the source trace's counts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonin_local.h"

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
		if (!jval_u64(r, &st->records[type]))
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
		if (!jval_u64(cJSON_GetObjectItemCaseSensitive(v, keys[i].key),
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
		if (!jval_u64(e, lost ? &s->evsels[i].nr_lost_samples : &s->evsels[i].nr_samples))
			return false;
		i++;
	}
	return true;
}

int jhead_closing_line(struct srep_session *s, const cJSON *root, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	uint64_t events;

	if (!jval_u64(cJSON_GetObjectItemCaseSensitive(root, "events"), &events) ||
	    !set_stats(&s->stats, cJSON_GetObjectItemCaseSensitive(root, "stats")) ||
	    !set_evsel_counts(s, cJSON_GetObjectItemCaseSensitive(root, "evsel_samples"), false) ||
	    !set_evsel_counts(s, cJSON_GetObjectItemCaseSensitive(root, "evsel_lost_samples"), true))
		return jval_bad(s, err, "the closing line lacks its counts", NULL);
	if (events != j->events)
		return diag_err(s, err, SREP_E_JSON, j->line_off, -1,
				"line %zu: the closing line counts %llu events, the file has %llu",
				j->line_no - 1, (unsigned long long)events, (unsigned long long)j->events);
	j->ended = true;
	return 0;
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
	if (!jval_bytes(s->jin, v, &p, &len) || memchr(p, '\0', len))
		return false;
	*out = owned_strdup(s, p, len);
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
	strs = owned_keep(s, calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof(*strs)));
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
	case M_INT:	return jval_i32(v, &i32) && ((*(int *)p = i32), true);
	case M_I32:	return jval_i32(v, p);
	case M_I64:	return jval_i64(v, p);
	case M_U32:	return jval_u32(v, p);
	case M_U64:	return jval_u64(v, p);
	default:	return keep_strv(s, v, p, (int *)((char *)&s->meta + k->count_off));
	}
}

static int set_meta(struct srep_session *s, const cJSON *m, struct srep_error *err)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(m, "features"), *e;
	size_t i;
	int k = 0;

	if (!cJSON_IsObject(m))
		return jval_bad(s, err, "no \"meta\" object", NULL);
	for (i = 0; i < sizeof(mkeys) / sizeof(mkeys[0]); i++) {
		if (!set_mkey(s, &mkeys[i], cJSON_GetObjectItemCaseSensitive(m, mkeys[i].key)))
			return jval_bad(s, err, "missing or bad meta.", mkeys[i].key);
	}
	if (cJSON_GetArraySize(f) != 4)
		return jval_bad(s, err, "meta.features is not 4 numbers", NULL);
	cJSON_ArrayForEach(e, f) {
		if (!jval_u64(e, &s->meta.features[k++]))
			return jval_bad(s, err, "meta.features is not 4 numbers", NULL);
	}
	return 0;
}

static const char *const field_kinds[] = { "int", "uint", "str", "array" };

static bool set_jfield(struct jfield *d, const cJSON *v)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "name"));
	uint32_t size;

	if (!name || !jval_enum(cJSON_GetObjectItemCaseSensitive(v, "kind"), field_kinds, 4, &d->kind))
		return false;
	d->name = strdup(name);
	if (d->kind == SREP_FIELD_ARRAY) {
		const cJSON *sg = cJSON_GetObjectItemCaseSensitive(v, "elem_signed");

		if (!jval_u32(cJSON_GetObjectItemCaseSensitive(v, "elem_size"), &size) ||
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
	    !jval_u32(cJSON_GetObjectItemCaseSensitive(v, "type"), &ev->attr.type) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "config"), &ev->attr.config) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "sample_type"), &ev->attr.sample_type) ||
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
		return jval_bad(s, err, "no \"evsels\" array", NULL);
	s->evsels = calloc(n + 1, sizeof(*s->evsels));
	j->evsels = calloc(n + 1, sizeof(*j->evsels));
	if (!s->evsels || !j->evsels)
		return diag_err(s, err, SREP_E_NOMEM, 0, -1, "no memory for event descriptions");
	cJSON_ArrayForEach(e, v) {
		/* counted first: what was made is freed whatever fails */
		s->nr_evsels = j->nr_evsels = i + 1;
		if (!set_evsel(&s->evsels[i], &j->evsels[i], e))
			return jval_bad(s, err, "bad event description ", cJSON_GetStringValue(
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

	if (!jval_i32(cJSON_GetObjectItemCaseSensitive(v, "tid"), &tid) || !cJSON_IsArray(comms) ||
	    !(t = task_new(&s->prescanned, tid)))
		return false;
	if (!jval_i32(cJSON_GetObjectItemCaseSensitive(v, "pid"), &t->pid) ||
	    !jval_i32(cJSON_GetObjectItemCaseSensitive(v, "ppid"), &t->ppid) ||
	    !jval_i32(cJSON_GetObjectItemCaseSensitive(v, "ptid"), &t->ptid) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "first_seen"), &t->first_seen) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "last_seen"), &t->last_seen) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "fork_time"), &t->fork_time) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "exit_time"), &t->exit_time))
		return false;
	t->exited = t->exit_time != 0;
	cJSON_ArrayForEach(c, comms) {
		s->jin->arena_len = 0;
		if (cJSON_GetArraySize(c) != 2 || !jval_u64(cJSON_GetArrayItem(c, 0), &time) ||
		    !jval_comm(s->jin, cJSON_GetArrayItem(c, 1), comm) ||
		    task_set_comm(t, comm, time))
			return false;
	}
	return true;
}

static int set_tasks(struct srep_session *s, const cJSON *v, struct srep_error *err)
{
	const cJSON *t;

	if (!cJSON_IsArray(v))
		return jval_bad(s, err, "no \"tasks\" array", NULL);
	cJSON_ArrayForEach(t, v) {
		if (!set_task(s, t))
			return jval_bad(s, err, "bad task", NULL);
	}
	s->has_prescan = true;		/* the whole table is known before the first event */
	return 0;
}

/*
 * The source trace's first and last timestamps, known before the first event
 * as after a prescan: null when it had none; absent from the files of
 * writers before it, whose span the events give (a prescan, session.c).
 */
static int set_span(struct srep_session *s, const cJSON *v, struct srep_error *err)
{
	uint64_t first, last;

	if (!v) {
		s->span_unknown = true;
		return 0;
	}
	if (cJSON_IsNull(v))
		return 0;
	if (!jval_u64(cJSON_GetObjectItemCaseSensitive(v, "first"), &first) ||
	    !jval_u64(cJSON_GetObjectItemCaseSensitive(v, "last"), &last) || !first || last < first)
		return jval_bad(s, err, "bad \"time_span\": expected first and last timestamps", NULL);
	s->span_first = first;
	s->span_last = last;
	return 0;
}

int jhead_read(struct srep_session *s, struct srep_error *err)
{
	struct jsonin *j = s->jin;
	const char *format;
	int64_t version = 0;
	cJSON *root;
	size_t len;
	int ret;

	ret = jval_parse_line(s, &root, &len, JSONIN_HEADER_MAX, err);
	if (ret)
		return ret;
	if (!root)
		return diag_err(s, err, SREP_E_TRUNCATED, 0, -1, "empty file");
	/* the header's strings are decoded in the arena too: room for the longest */
	j->arena = malloc(len + 64);
	j->arena_cap = j->arena ? len + 64 : 0;
	format = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "format"));
	if (!format || strcmp(format, "schedrep-events"))
		ret = jval_bad(s, err, "not schedrep JSON: no \"format\": \"schedrep-events\"", NULL);
	else if (!jval_i64(cJSON_GetObjectItemCaseSensitive(root, "version"), &version) || version != 1)
		ret = diag_err(s, err, SREP_E_UNSUPPORTED, 0, -1,
			       "schedrep JSON version %lld: this schedrep reads version 1",
			       (long long)version);
	if (!ret)
		ret = set_span(s, cJSON_GetObjectItemCaseSensitive(root, "time_span"), err);
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
