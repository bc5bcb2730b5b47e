// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * error.c - error codes, their texts, and formatting of struct srep_error.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/schedrep.h>
#include "bug.h"

#define _SREP_E(name, text) text,
static const char *const error_texts[] = { SREP_ERRORS };
#undef _SREP_E

const char *srep_strerror(int code)
{
	if (code > SREP_E_BASE && code < SREP_E_MAX)
		return error_texts[code - SREP_E_BASE - 1];
	return code == 0 ? "success" : "unknown error";
}

int srep_error__set(struct srep_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	memset(err, 0, sizeof(*err));
	err->code = code;
	err->record_type = -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int srep_error__format(const struct srep_error *err, char *buf, size_t size)
{
	size_t n = 0;
	int r;

#define APPEND(...) do {						\
		r = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__); \
		if (r > 0) n += (size_t)r;				\
	} while (0)
	if (size)
		buf[0] = '\0';
	if (err->path[0])
		APPEND("'%s': ", err->path);
	if (err->has_offset)
		APPEND("offset 0x%" PRIx64 ": ", err->offset);
	APPEND("%s", err->msg[0] ? err->msg : srep_strerror(err->code));
#undef APPEND
	return (int)n;
}

void srep_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "schedrep: BUG at %s:%d: %s\n", file, line, what);
	abort();
}
