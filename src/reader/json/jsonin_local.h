/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonin_local.h - what the readers of schedrep JSON share (jsonin.c: event
 * lines and the session's side; jhead.c: the first and the closing
 * line; jval.c: lines and typed values). Private to these files.
 */
#ifndef SREP_JSONIN_LOCAL_H
#define SREP_JSONIN_LOCAL_H

#include <cjson/cJSON.h>

#include "reader.h"

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

/* "line N: <fmt><what>" as SREP_E_JSON at the line's offset; returns the code */
int jval_bad(struct srep_session *s, struct srep_error *err, const char *fmt, const char *what);
/* the next non-blank line parsed into *root (NULL at the end of the input) */
int jval_parse_line(struct srep_session *s, cJSON **root, size_t *out_len, size_t max,
		    struct srep_error *err);

/* typed values: false when the JSON value is not one (see docs/json-format.md) */
bool jval_u64(const cJSON *v, uint64_t *out);
bool jval_i64(const cJSON *v, int64_t *out);
bool jval_i32(const cJSON *v, int32_t *out);
bool jval_u32(const cJSON *v, uint32_t *out);
bool jval_unhex(const char *hex, size_t len, uint8_t *out);
/* a byte string (JSON string or {"hex"}); hex is decoded into the event arena */
bool jval_bytes(struct jsonin *j, const cJSON *v, const char **out, size_t *len);
/* the same, copied into the arena: it outlives the line's DOM */
bool jval_kept(struct jsonin *j, const cJSON *v, const char **out, size_t *len);
bool jval_cstr(struct jsonin *j, const cJSON *v, const char **out);
bool jval_comm(struct jsonin *j, const cJSON *v, char *out);
/* a name from 'names' into the int-sized enum at p */
bool jval_enum(const cJSON *v, const char *const *names, int n, void *p);

/* the first line (jhead.c) */
int jhead_read(struct srep_session *s, struct srep_error *err);
/* the closing line: the source's counts, checked against what was read */
int jhead_closing_line(struct srep_session *s, const cJSON *root, struct srep_error *err);

#endif /* SREP_JSONIN_LOCAL_H */
