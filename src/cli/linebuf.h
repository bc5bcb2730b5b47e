/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linebuf.h - a line of text built in memory and written with one fwrite:
 * the perf-named commands print hundreds of thousands of lines, and a
 * printf per field was most of their time. Integers are written two digits
 * at a time; padding follows printf's (%*d, %-*d, %0*d, %*s).
 */
#ifndef SREP_LINEBUF_H
#define SREP_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct linebuf {
	char *p;
	size_t len, cap;
	bool failed;			/* out of memory: the line is cut, lb_write says so */
};

void lb_free(struct linebuf *lb);
/* room for n more bytes; false (and lb->failed) without memory */
bool lb_grow(struct linebuf *lb, size_t n);
/*
 * the line so far to f, then empty it; -1 if memory ran out building it
 * (nothing written). Write errors stay on f, for ferror() as with fprintf.
 */
int lb_write(struct linebuf *lb, FILE *f);

static inline bool lb_room(struct linebuf *lb, size_t n)
{
	return lb->cap - lb->len >= n || lb_grow(lb, n);
}

static inline void lb_mem(struct linebuf *lb, const char *s, size_t n)
{
	if (lb_room(lb, n)) {
		memcpy(lb->p + lb->len, s, n);
		lb->len += n;
	}
}

static inline void lb_str(struct linebuf *lb, const char *s)
{
	lb_mem(lb, s, strlen(s));
}

static inline void lb_char(struct linebuf *lb, char c)
{
	if (lb_room(lb, 1))
		lb->p[lb->len++] = c;
}

/*
 * Lines gathered: lb_write once the buffer holds @chunk bytes (or memory
 * ran out), so that a command writes many lines per fwrite. Whatever else
 * writes to f must lb_write first.
 */
static inline int lb_write_chunk(struct linebuf *lb, FILE *f, size_t chunk)
{
	return lb->len >= chunk || lb->failed ? lb_write(lb, f) : 0;
}

/*
 * A line written through a pointer, for the hot paths: room for at most n
 * bytes (NULL without memory), filled with the lb_put_* below, then
 * lb_commit(lb, end) keeps what was written.
 */
static inline char *lb_reserve(struct linebuf *lb, size_t n)
{
	return lb_room(lb, n) ? lb->p + lb->len : NULL;
}

static inline void lb_commit(struct linebuf *lb, char *end)
{
	lb->len = (size_t)(end - lb->p);
}

static inline char *lb_put_mem(char *o, const char *s, size_t n)
{
	memcpy(o, s, n);
	return o + n;
}

/* lb_put_uint out of line: any value and width */
char *lb_put_uint_any(char *o, uint64_t v, unsigned width, char pad);

/*
 * printf's %*PRIu64 (pad ' ') and %0*PRIu64 (pad '0'): at most max(width,
 * LB_INT_MAX) bytes, and the room for them is needed (bytes past the end
 * returned may be overwritten). One digit in a field of 1 to 8 (times in
 * ms, CPU numbers: most of them) is written here, inline.
 */
static inline char *lb_put_uint(char *o, uint64_t v, unsigned width, char pad)
{
	char eight[8];

	if (v >= 10 || width - 1 >= 8)
		return lb_put_uint_any(o, v, width, pad);
	memset(eight, pad, sizeof(eight));
	memcpy(o, eight, sizeof(eight));
	o[width - 1] = (char)('0' + v);
	return o + width;
}

/* printf's %PRId64 */
static inline char *lb_put_int(char *o, int64_t v)
{
	if (v < 0)
		*o++ = '-';
	return lb_put_uint(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 0, ' ');
}
#define LB_INT_MAX 20		/* INT64_MIN: the sign and 19 digits */

/* lb_sec_usec's text: at most max(width, LB_SEC_USEC_MAX) bytes */
char *lb_put_sec_usec(char *o, uint64_t ns, unsigned width);
#define LB_SEC_USEC_MAX 18	/* UINT64_MAX ns: 11 digits, the point, 6 */
/* perf's msec.usec of a time in ns ("%*llu.%03llu"): max(width, LB_INT_MAX) + 4 bytes */
char *lb_put_ms(char *o, uint64_t ns, unsigned width);
#define LB_MS_MAX (LB_INT_MAX + 4)

/* n copies of c */
void lb_fill(struct linebuf *lb, char c, size_t n);
/* printf's %*s (width > 0: right-aligned) and %-*s (width < 0: left-aligned) */
void lb_pad_str(struct linebuf *lb, const char *s, int width);
/* printf's %*PRId64, %-*PRId64 (width < 0) and %0*PRId64 (zero) */
void lb_int(struct linebuf *lb, int64_t v, int width, bool zero);
void lb_uint(struct linebuf *lb, uint64_t v, int width, bool zero);
/* perf's seconds.microseconds of a time in ns ("%*s" of "%llu.%06llu") */
void lb_sec_usec(struct linebuf *lb, uint64_t ns, int width);

#endif /* SREP_LINEBUF_H */
