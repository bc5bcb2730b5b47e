/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * digits.h - an unsigned integer in decimal, two digits at a time, for the
 * text outputs that print one per field of hundreds of thousands of lines
 * (a printf call costs more than the digits).
 */
#ifndef SREP_DIGITS_H
#define SREP_DIGITS_H

#include <stdint.h>

#define SREP_DIGITS_MAX 20	/* UINT64_MAX has 20 */

/* v written backwards so that it ends just before end; returns its first digit */
static inline char *srep_digits(char *end, uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = end;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--p = pairs[d + 1];
		*--p = pairs[d];
	}
	if (v >= 10) {
		*--p = pairs[v * 2 + 1];
		*--p = pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

#endif /* SREP_DIGITS_H */
