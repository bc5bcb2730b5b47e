// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jval.c - reading schedrep JSON: lines, with their cap, and the
 * typed values of docs/json-format.md (integers as numbers or strings, byte
 * strings as text or hex). Every value is checked; nothing is trusted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonin_local.h"

/* ---- errors ---- */

int jval_bad(struct srep_session *s, struct srep_error *err, const char *fmt, const char *what)
{
	struct jsonin *j = s->jin;

	return diag_err(s, err, SREP_E_JSON, j->line_off, -1, "line %zu: %s%s", j->line_no - 1,
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
	return diag_err(s, err, SREP_E_LIMIT, j->pos, -1, "line %zu: longer than %zu bytes",
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
int jval_parse_line(struct srep_session *s, cJSON **root, size_t *out_len, size_t max,
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
		return jval_bad(s, err, "not a JSON object", NULL);
	}
	return 0;
}

/* ---- values ---- */

bool jval_u64(const cJSON *v, uint64_t *out)
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

bool jval_i64(const cJSON *v, int64_t *out)
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

bool jval_i32(const cJSON *v, int32_t *out)
{
	int64_t x;

	if (!jval_i64(v, &x) || x < INT32_MIN || x > INT32_MAX)
		return false;
	*out = (int32_t)x;
	return true;
}

bool jval_u32(const cJSON *v, uint32_t *out)
{
	uint64_t x;

	if (!jval_u64(v, &x) || x > UINT32_MAX)
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
bool jval_unhex(const char *hex, size_t len, uint8_t *out)
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
bool jval_bytes(struct jsonin *j, const cJSON *v, const char **out, size_t *len)
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
	    !jval_unhex(hex, strlen(hex), j->arena + j->arena_len))
		return false;
	*out = (const char *)j->arena + j->arena_len;
	*len = strlen(hex) / 2;
	j->arena[j->arena_len + *len] = '\0';
	j->arena_len += *len + 1;
	return true;
}

/* bytes that outlive the line's DOM: in the arena, NUL-terminated */
bool jval_kept(struct jsonin *j, const cJSON *v, const char **out, size_t *len)
{
	const char *p;

	if (!jval_bytes(j, v, &p, len))
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
bool jval_cstr(struct jsonin *j, const cJSON *v, const char **out)
{
	size_t len;

	return jval_kept(j, v, out, &len) && !memchr(*out, '\0', len);
}

bool jval_comm(struct jsonin *j, const cJSON *v, char *out)
{
	const char *p;
	size_t len;

	if (!jval_bytes(j, v, &p, &len) || len >= SREP_COMM_MAX || memchr(p, '\0', len))
		return false;
	memcpy(out, p, len);
	out[len] = '\0';
	return true;
}

bool jval_enum(const cJSON *v, const char *const *names, int n, void *p)
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
