// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linebuf.c - the out-of-line part of linebuf.h: growing, padding,
 * integers two digits at a time (srep_u64_text, or backwards from a
 * field's end for the lb_put_* of the hot paths).
 */
#include <stdlib.h>

#include <schedrep/text.h>

#include "linebuf.h"

#define LB_MIN_CAP 256

void lb_free(struct linebuf *lb)
{
	free(lb->p);
	memset(lb, 0, sizeof(*lb));
}

bool lb_grow(struct linebuf *lb, size_t n)
{
	size_t cap = lb->cap ? lb->cap : LB_MIN_CAP;
	char *p;

	if (lb->failed)
		return false;
	while (cap - lb->len < n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	p = realloc(lb->p, cap);
	if (!p)
		goto fail;
	lb->p = p;
	lb->cap = cap;
	return true;
fail:
	lb->failed = true;
	return false;
}

int lb_write(struct linebuf *lb, FILE *f)
{
	bool failed = lb->failed;

	if (!failed && lb->len)
		fwrite(lb->p, 1, lb->len, f);
	lb->len = 0;
	lb->failed = false;
	return failed ? -1 : 0;
}

void lb_fill(struct linebuf *lb, char c, size_t n)
{
	if (lb_room(lb, n)) {
		memset(lb->p + lb->len, c, n);
		lb->len += n;
	}
}

/*
 * pre, then the n bytes at s, padded to |width| with pad before (width > 0)
 * or spaces after (width < 0): printf's field, reserved and written at once
 */
static void field(struct linebuf *lb, const char *pre, size_t npre, const char *s, size_t n,
		  int width, char pad)
{
	size_t w = width < 0 ? (size_t)-(int64_t)width : (size_t)width;
	size_t fill = w > n + npre ? w - n - npre : 0;
	char *o;

	if (!(fill + npre + n) || !lb_room(lb, fill + npre + n))
		return;		/* nothing: an empty buffer may have no memory yet */
	o = lb->p + lb->len;
	lb->len += fill + npre + n;
	if (width > 0 && pad == ' ') {
		memset(o, ' ', fill);
		o += fill;
	}
	memcpy(o, pre, npre);	/* a sign goes before zeros, after spaces */
	o += npre;
	if (width > 0 && pad == '0') {
		memset(o, '0', fill);
		o += fill;
	}
	memcpy(o, s, n);
	if (width < 0)
		memset(o + n, ' ', fill);
}

void lb_pad_str(struct linebuf *lb, const char *s, int width)
{
	field(lb, "", 0, s, strlen(s), width, ' ');
}

static void number(struct linebuf *lb, bool neg, uint64_t mag, int width, bool zero)
{
	char buf[SREP_U64_TEXT_MAX];
	char *end = srep_u64_text(buf, mag);

	field(lb, "-", neg, buf, (size_t)(end - buf), width, zero ? '0' : ' ');
}

void lb_int(struct linebuf *lb, int64_t v, int width, bool zero)
{
	number(lb, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, width, zero);
}

void lb_uint(struct linebuf *lb, uint64_t v, int width, bool zero)
{
	number(lb, false, v, width, zero);
}

void lb_sec_usec(struct linebuf *lb, uint64_t ns, int width)
{
	char buf[2 * SREP_U64_TEXT_MAX], *p = srep_u64_text(buf, ns / 1000000000u), *dot = p;

	/* 1000000 + usec gives the six digits with their zeros; the 1 becomes the point */
	p = srep_u64_text(p, 1000000u + ns % 1000000000u / 1000u);
	*dot = '.';
	field(lb, "", 0, buf, (size_t)(p - buf), width, ' ');
}

/* as digits.c's, whose srep_u64_text writes forwards: here fields are filled from their end */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* the digits of v, written backwards so that they end at end; returns their start */
static char *digits_back(char *end, uint64_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* the number of digits of v */
static unsigned digits_len(uint64_t v)
{
	unsigned n = 1;

	for (; v >= 100; v /= 100)
		n += 2;
	return n + (v >= 10);
}

/*
 * n pad bytes; up to 8 in one store of 8, so the caller has room for 8 from
 * o (each lb_put_* field is that long or has that room), and writes what
 * follows over the excess
 */
static char *put_pad(char *o, unsigned n, char pad)
{
	char eight[8];

	if (n <= 8) {
		memset(eight, pad, sizeof(eight));
		memcpy(o, eight, sizeof(eight));
	} else {
		memset(o, pad, n);
	}
	return o + n;
}

char *lb_put_uint_any(char *o, uint64_t v, unsigned width, char pad)
{
	unsigned n = digits_len(v);

	if (width > n)
		o = put_pad(o, width - n, pad);
	digits_back(o + n, v);
	return o + n;
}

char *lb_put_ms(char *o, uint64_t ns, unsigned width)
{
	uint32_t usec = (uint32_t)(ns % 1000000u / 1000u);

	o = lb_put_uint(o, ns / 1000000u, width, ' ');
	o[0] = '.';
	o[1] = (char)('0' + usec / 100);
	memcpy(o + 2, digit_pairs + 2 * (usec % 100), 2);
	return o + 4;
}

char *lb_put_sec_usec(char *o, uint64_t ns, unsigned width)
{
	uint64_t sec = ns / 1000000000u;
	uint32_t usec = (uint32_t)(ns % 1000000000u / 1000u);
	unsigned n = digits_len(sec) + 7;

	if (width > n)
		o = put_pad(o, width - n, ' ');
	digits_back(o + n - 7, sec);
	o += n;
	/* the point, then the six digits of the microseconds, zeros included */
	o[-7] = '.';
	memcpy(o - 6, digit_pairs + 2 * (usec / 10000), 2);
	memcpy(o - 4, digit_pairs + 2 * (usec / 100 % 100), 2);
	memcpy(o - 2, digit_pairs + 2 * (usec % 100), 2);
	return o;
}
