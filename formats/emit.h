/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.h - the buffered text writer the exporters share: numbers, JSON and
 * XML strings.
 *
 * The outputs are large (hundreds of bytes per event, millions of events),
 * and stdio's fprintf parses its format string for every field; this writer
 * appends to a 256 KiB buffer and formats numbers by hand. Full buffers are
 * written by a thread of their own while the next one fills: the write
 * (copying hundreds of MB into the page cache) then overlaps the decoding
 * and formatting instead of adding to it. Only that thread touches the FILE
 * between emit_init() and emit_flush(). A write error
 * sticks (e->failed) and later calls do nothing, so exporters check once,
 * at the end. Strings from the trace are bytes, not text: every string
 * writer here turns any byte sequence into valid JSON or XML.
 */
#ifndef SREP_EMIT_H
#define SREP_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define EMIT_BUF_SIZE	(256u << 10)
#define EMIT_MAX_ATOM	64	/* the longest number or escape written in one step */

struct emit_writer;

struct emit {
	FILE *f;
	char *buf;
	size_t len;
	bool failed;		/* no memory or a write error: nothing more is written */
	int err_no;		/* errno of the write error, 0 for no memory */
	struct emit_writer *w;	/* the thread writing full buffers out; NULL: this one */
};

int emit_init(struct emit *e, FILE *f);		/* 0 or -1 (no memory) */
/* emit_free() always follows emit_init(): it stops the writer thread */
/* write out what is buffered and fflush; 0, or -1 when anything failed */
int emit_flush(struct emit *e);
struct srep_error;
/* a failed output as an error: "cannot write the output: REASON"; returns its code */
int emit_error(const struct emit *e, struct srep_error *err);
void emit_free(struct emit *e);
void emit_drain(struct emit *e);		/* hand the buffer to the writer (no fflush) */
void emit_wait(struct emit *e);			/* until everything handed over is written */

static inline char *emit_room(struct emit *e, size_t n)
{
	if (e->len + n > EMIT_BUF_SIZE)
		emit_drain(e);
	return e->failed ? NULL : e->buf + e->len;
}

static inline void emit_raw(struct emit *e, const char *s, size_t n)
{
	if (n > EMIT_BUF_SIZE / 2) {
		emit_drain(e);
		emit_wait(e);
		if (!e->failed && fwrite(s, 1, n, e->f) != n)
			e->failed = true;
		return;
	}
	if (emit_room(e, n)) {
		memcpy(e->buf + e->len, s, n);
		e->len += n;
	}
}

/* a string literal (only: sizeof of anything else is not its length) */
#define emit_lit(e, s) emit_raw((e), "" s, sizeof(s) - 1)

static inline void emit_cstr(struct emit *e, const char *s)
{
	emit_raw(e, s, strlen(s));
}

static inline void emit_char(struct emit *e, char c)
{
	if (emit_room(e, 1))
		e->buf[e->len++] = c;
}

void emit_u64(struct emit *e, uint64_t v);
void emit_i64(struct emit *e, int64_t v);
void emit_hex(struct emit *e, uint64_t v);	/* "0x1f" (no quotes) */
/* the same digits into a char buffer (no "0x"; at most 16 and 20 bytes); return the end */
char *fmt_hex(char *o, uint64_t v);
char *fmt_dec(char *o, uint64_t v);
/* nanoseconds as microseconds with three decimals: 5170123456789 -> 5170123456.789 */
void emit_us(struct emit *e, uint64_t ns);

/* strict UTF-8 (RFC 3629: no overlongs, surrogates or code points above U+10FFFF) */
bool utf8_valid(const char *s, size_t n);

/*
 * A JSON string with its quotes. Invalid UTF-8 bytes become U+FFFD: for
 * display (Perfetto names). emit_json_str_exact() writes the bytes exactly
 * and refuses (returns false, writes nothing) when they are not UTF-8.
 */
void emit_json_str(struct emit *e, const char *s, size_t n);
bool emit_json_str_exact(struct emit *e, const char *s, size_t n);
static inline void emit_json_cstr(struct emit *e, const char *s)
{
	emit_json_str(e, s, strlen(s));
}

/*
 * Text for XML content or attribute values (no quotes): markup characters
 * escaped; invalid UTF-8 and the control characters XML 1.0 forbids even as
 * references become U+FFFD.
 */
void emit_xml_str(struct emit *e, const char *s, size_t n);

#endif /* SREP_EMIT_H */
