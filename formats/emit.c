// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emit.c - the buffered text writer of the exporters (see emit.h for why
 * it exists beside stdio).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <schedrep/error.h>

#include <schedrep/text.h>

#include "emit.h"

static const char hexdigits[] = "0123456789abcdef";

/*
 * The writer thread and the buffer it is writing. The two buffers change
 * hands under the lock: 'pending' is the writer's until it hands it back
 * as 'spare'. One buffer being written while one fills is enough: the
 * writer is faster than the formatting, so a deeper queue would only hold
 * more memory.
 */
struct emit_writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	char *spare;		/* written out, ready to fill */
	char *pending;		/* handed over, being written */
	size_t pending_len;
	bool stop;
	bool failed;
	int err_no;
};

static void *writer_main(void *arg)
{
	struct emit *e = arg;
	struct emit_writer *w = e->w;
	bool failed = false;
	int err_no = 0;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->pending && !w->stop)
			pthread_cond_wait(&w->changed, &w->lock);
		if (!w->pending)
			break;
		pthread_mutex_unlock(&w->lock);
		if (!failed && fwrite(w->pending, 1, w->pending_len, e->f) != w->pending_len) {
			failed = true;
			err_no = errno;
		}
		pthread_mutex_lock(&w->lock);
		w->failed = failed;
		w->err_no = err_no;
		w->spare = w->pending;
		w->pending = NULL;
		pthread_cond_broadcast(&w->changed);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* a writer thread, or none (the buffers are written here) when it cannot start */
static void writer_start(struct emit *e)
{
	struct emit_writer *w = calloc(1, sizeof(*w));

	if (!w || !(w->spare = malloc(EMIT_BUF_SIZE))) {
		free(w);
		return;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->changed, NULL);
	e->w = w;
	if (pthread_create(&w->thread, NULL, writer_main, e)) {
		e->w = NULL;
		pthread_cond_destroy(&w->changed);
		pthread_mutex_destroy(&w->lock);
		free(w->spare);
		free(w);
	}
}

int emit_init(struct emit *e, FILE *f)
{
	memset(e, 0, sizeof(*e));
	e->f = f;
	e->buf = malloc(EMIT_BUF_SIZE);
	if (!e->buf) {
		e->failed = true;
		return -1;
	}
	writer_start(e);
	return 0;
}

/* the writer idle, its error taken over; called with the lock held */
static void writer_idle(struct emit *e)
{
	struct emit_writer *w = e->w;

	while (w->pending)
		pthread_cond_wait(&w->changed, &w->lock);
	if (w->failed && !e->failed) {
		e->failed = true;
		e->err_no = w->err_no;
	}
}

void emit_drain(struct emit *e)
{
	struct emit_writer *w = e->w;

	if (e->failed || !e->len)
		return;
	if (!w) {
		if (fwrite(e->buf, 1, e->len, e->f) != e->len) {
			e->failed = true;
			e->err_no = errno;
		}
		e->len = 0;
		return;
	}
	pthread_mutex_lock(&w->lock);
	writer_idle(e);
	if (!e->failed) {
		w->pending = e->buf;
		w->pending_len = e->len;
		e->buf = w->spare;
		w->spare = NULL;
		pthread_cond_broadcast(&w->changed);
	}
	pthread_mutex_unlock(&w->lock);
	e->len = 0;
}

void emit_wait(struct emit *e)
{
	if (!e->w)
		return;
	pthread_mutex_lock(&e->w->lock);
	writer_idle(e);
	pthread_mutex_unlock(&e->w->lock);
}

int emit_flush(struct emit *e)
{
	emit_drain(e);
	emit_wait(e);
	if (!e->failed && fflush(e->f)) {
		e->failed = true;
		e->err_no = errno;
	}
	return e->failed ? -1 : 0;
}

int emit_error(const struct emit *e, struct srep_error *err)
{
	return srep_error__set(err, SREP_E_IO, "cannot write the output: %s",
			       e->err_no ? strerror(e->err_no) : "no memory");
}

void emit_free(struct emit *e)
{
	struct emit_writer *w = e->w;

	if (w) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_broadcast(&w->changed);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		pthread_cond_destroy(&w->changed);
		pthread_mutex_destroy(&w->lock);
		free(w->spare);
		free(w);
		e->w = NULL;
	}
	free(e->buf);
	e->buf = NULL;
}

/* ---- numbers ---- */

void emit_u64(struct emit *e, uint64_t v)
{
	char *out = emit_room(e, 20);

	if (out)
		e->len = (size_t)(srep_u64_text(out, v) - e->buf);
}

void emit_i64(struct emit *e, int64_t v)
{
	char *out = emit_room(e, 21);

	if (!out)
		return;
	if (v < 0) {
		*out++ = '-';
		out = srep_u64_text(out, (uint64_t)0 - (uint64_t)v);
	} else {
		out = srep_u64_text(out, (uint64_t)v);
	}
	e->len = (size_t)(out - e->buf);
}

/* hex digits of v, written backwards from 'end'; returns the first digit */
static char *hex_digits(char *end, uint64_t v)
{
	do {
		*--end = hexdigits[v & 0xf];
		v >>= 4;
	} while (v);
	return end;
}

void emit_hex(struct emit *e, uint64_t v)
{
	char tmp[20], *p = hex_digits(tmp + sizeof(tmp), v);

	*--p = 'x';
	*--p = '0';
	emit_raw(e, p, (size_t)(tmp + sizeof(tmp) - p));
}

char *fmt_hex(char *o, uint64_t v)
{
	char tmp[16], *p = hex_digits(tmp + sizeof(tmp), v);
	size_t n = (size_t)(tmp + sizeof(tmp) - p);

	memcpy(o, p, n);
	return o + n;
}

char *fmt_dec(char *o, uint64_t v)
{
	return srep_u64_text(o, v);
}

/*
 * Fixed point: the nanoseconds' own digits with a point put before the
 * last three, so no division separates microseconds from their fraction.
 */
void emit_us(struct emit *e, uint64_t ns)
{
	char *out = emit_room(e, 21), *p;

	if (!out)
		return;
	if (ns < 1000) {
		out[0] = '0';
		out[1] = '.';
		out[2] = (char)('0' + ns / 100);
		out[3] = (char)('0' + ns / 10 % 10);
		out[4] = (char)('0' + ns % 10);
		e->len += 5;
		return;
	}
	p = srep_u64_text(out, ns);
	p[0] = p[-1];
	p[-1] = p[-2];
	p[-2] = p[-3];
	p[-3] = '.';
	e->len = (size_t)(p + 1 - e->buf);
}

/* ---- UTF-8 ---- */

/* length of the well-formed UTF-8 sequence at s (1..4), 0 if there is none */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond Unicode */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

bool utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		k = utf8_seq(p + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* ---- JSON strings ---- */

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

/* the escape of an ASCII byte, or NULL when it goes as it is */
static const char *json_escape(unsigned char c, char buf[8])
{
	switch (c) {
	case '"':  return "\\\"";
	case '\\': return "\\\\";
	case '\n': return "\\n";
	case '\t': return "\\t";
	case '\r': return "\\r";
	case '\b': return "\\b";
	case '\f': return "\\f";
	default:
		if (c >= 0x20)
			return NULL;
		buf[0] = '\\', buf[1] = 'u', buf[2] = '0', buf[3] = '0';
		buf[4] = hexdigits[c >> 4], buf[5] = hexdigits[c & 0xf], buf[6] = '\0';
		return buf;
	}
}

/* the body of a JSON string; invalid sequences replaced */
static void json_body(struct emit *e, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *esc;
	char buf[8];
	size_t i = 0, run = 0, k;

	while (i < n) {
		if (p[i] >= 0x80) {
			k = utf8_seq(p + i, n - i);
			if (k) {
				i += k;
				continue;
			}
			emit_raw(e, s + run, i - run);
			emit_raw(e, replacement, 3);
			run = ++i;
			continue;
		}
		esc = json_escape(p[i], buf);
		if (!esc) {
			i++;
			continue;
		}
		emit_raw(e, s + run, i - run);
		emit_cstr(e, esc);
		run = ++i;
	}
	emit_raw(e, s + run, i - run);
}

/* printable ASCII without quote or backslash: the common comm, copied as it is */
static bool plain(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '"' || p[i] == '\\')
			return false;
	}
	return true;
}

static void quoted(struct emit *e, const char *s, size_t n)
{
	char *p = emit_room(e, n + 2);

	if (!p || n + 2 > EMIT_BUF_SIZE / 2) {
		emit_char(e, '"');
		emit_raw(e, s, n);
		emit_char(e, '"');
		return;
	}
	p[0] = '"';
	memcpy(p + 1, s, n);
	p[n + 1] = '"';
	e->len += n + 2;
}

void emit_json_str(struct emit *e, const char *s, size_t n)
{
	if (plain(s, n)) {
		quoted(e, s, n);
		return;
	}
	emit_char(e, '"');
	json_body(e, s, n);
	emit_char(e, '"');
}

bool emit_json_str_exact(struct emit *e, const char *s, size_t n)
{
	if (plain(s, n)) {
		quoted(e, s, n);
		return true;
	}
	if (!utf8_valid(s, n))
		return false;
	emit_char(e, '"');
	json_body(e, s, n);
	emit_char(e, '"');
	return true;
}

/* ---- XML text ---- */

void emit_xml_str(struct emit *e, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *esc;
	size_t i = 0, run = 0, k;

	while (i < n) {
		unsigned char c = p[i];

		if (c >= 0x80) {
			k = utf8_seq(p + i, n - i);
			if (k) {
				i += k;
				continue;
			}
			esc = replacement;
		} else if (c == '<') {
			esc = "&lt;";
		} else if (c == '>') {
			esc = "&gt;";
		} else if (c == '&') {
			esc = "&amp;";
		} else if (c == '"') {
			esc = "&quot;";
		} else if (c == '\'') {
			esc = "&apos;";
		} else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			esc = replacement;	/* not even &#1; is allowed in XML 1.0 */
		} else {
			i++;
			continue;
		}
		emit_raw(e, s + run, i - run);
		emit_cstr(e, esc);
		run = ++i;
	}
	emit_raw(e, s + run, i - run);
}
