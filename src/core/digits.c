// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * digits.c - srep_u64_text() (schedrep/text.h).
 *
 * Decimal digits two at a time from a table, written forwards once the
 * length is known (no reversed copy). Above 2^32 the value is cut into
 * 8-digit blocks by one or two divisions by 10^8; the digits of each block
 * come from 32-bit arithmetic whose four pairs do not depend on each other,
 * instead of a chain of 64-bit divisions by 100.
 */
#include <string.h>

#include <schedrep/text.h>

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

#define TEN8	100000000u
#define TEN16	10000000000000000ull

static inline void put_pair(char *o, uint32_t v)
{
	memcpy(o, digit_pairs + 2 * v, 2);
}

/* v < 10^8 as exactly eight digits, leading zeros included */
static inline void put_8digits(char *o, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	put_pair(o, hi / 100);
	put_pair(o + 2, hi % 100);
	put_pair(o + 4, lo / 100);
	put_pair(o + 6, lo % 100);
}

/* the number of digits of v: log10 from its bit length, then one comparison */
static inline unsigned u32_len(uint32_t v)
{
	static const uint32_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
					  10000000, 100000000, 1000000000 };
	unsigned t = ((32u - (unsigned)__builtin_clz(v | 1)) * 1233u) >> 12;

	return t + (v >= pow10[t]);
}

/* the digits of v from o on; returns their end (at most 10 bytes) */
static inline char *put_u32(char *o, uint32_t v)
{
	char *end, *p;

	if (v < 10) {
		*o = (char)('0' + v);
		return o + 1;
	}
	if (v < 100) {
		put_pair(o, v);
		return o + 2;
	}
	end = o + u32_len(v);
	p = end;
	while (v >= 100) {
		p -= 2;
		put_pair(p, v % 100);
		v /= 100;
	}
	if (v >= 10)
		put_pair(p - 2, v);
	else
		p[-1] = (char)('0' + v);
	return end;
}

char *srep_u64_text(char *o, uint64_t v)
{
	uint64_t hi;

	if (v <= UINT32_MAX)
		return put_u32(o, (uint32_t)v);
	if (v < TEN16) {
		hi = v / TEN8;
		o = put_u32(o, (uint32_t)hi);
		put_8digits(o, (uint32_t)(v - hi * TEN8));
		return o + 8;
	}
	hi = v / TEN16;
	v -= hi * TEN16;
	o = put_u32(o, (uint32_t)hi);
	put_8digits(o, (uint32_t)(v / TEN8));
	put_8digits(o + 8, (uint32_t)(v % TEN8));
	return o + 16;
}
