/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/error.h - error codes and struct srep_error.
 * Part of the public API: include <schedrep/schedrep.h>.
 */
#ifndef SCHEDREP_ERROR_H
#define SCHEDREP_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the library's exported functions; everything else is built hidden */
#if defined(__GNUC__) && __GNUC__ >= 4
#define SREP_API __attribute__((visibility("default")))
#else
#define SREP_API
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

#define SREP_ERRORS							\
	_SREP_E(IO,		"input/output error")			\
	_SREP_E(NOMEM,		"out of memory")			\
	_SREP_E(NOT_PERF,	"not a perf.data file")			\
	_SREP_E(TRUNCATED,	"file is truncated")			\
	_SREP_E(CORRUPT,	"corrupt data")				\
	_SREP_E(UNSUPPORTED,	"unsupported input")			\
	_SREP_E(INVAL,		"invalid argument")			\
	_SREP_E(TRACING,	"bad tracing data")			\
	_SREP_E(ZSTD,		"decompression failed")			\
	_SREP_E(JSON,		"bad schedrep JSON")			\
	_SREP_E(SELECT,		"bad task selection")			\
	_SREP_E(TIME,		"bad time specification")		\
	_SREP_E(INTERRUPTED,	"interrupted")				\
	_SREP_E(LIMIT,		"limit exceeded")				\
	_SREP_E(SYMBOLS,	"symbol file not usable")

#define _SREP_E(name, text) SREP_E_##name,
enum srep_errcode {
	SREP_E_BASE = -100000,	/* never an errno, as libtraceevent does */
	SREP_ERRORS
	SREP_E_MAX
};
#undef _SREP_E

#define SREP_ERR_PATH_MAX 256
#define SREP_ERR_MSG_MAX  320

struct srep_error {
	int code;			/* SREP_E_*, 0 when unset */
	bool has_offset;
	uint64_t offset;		/* byte offset in the input */
	int64_t record_type;		/* perf record type, -1 if unknown */
	char path[SREP_ERR_PATH_MAX];	/* input name, "" if none */
	char msg[SREP_ERR_MSG_MAX];	/* what was expected, what was found */
};

SREP_API const char *srep_strerror(int code);
/* "'PATH': offset 0x12: MSG" (parts omitted when unknown); returns length */
SREP_API int srep_error__format(const struct srep_error *err, char *buf, size_t size);
/* Fill 'err' (when non-NULL); returns 'code' so callers can 'return srep_error__set(...)' */
SREP_API int srep_error__set(struct srep_error *err, int code, const char *fmt, ...)
		 __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_ERROR_H */
