// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diag.c - errors and warnings that name the session's input: the path,
 * the byte offset and the record type of what made no sense. Errors go to
 * the caller's struct srep_error, warnings to the diag callback given at
 * open; the library never prints.
 */
#include <stdio.h>
#include <string.h>

#include "reader.h"

int diag_err(struct srep_session *s, struct srep_error *err, int code, uint64_t off,
	     int64_t rec_type, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	memset(err, 0, sizeof(*err));
	err->code = code;
	err->has_offset = true;
	err->offset = off;
	err->record_type = rec_type;
	snprintf(err->path, sizeof(err->path), "%s", s->src_path ? s->src_path : s->path);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void diag_warn(struct srep_session *s, int code, uint64_t off, int64_t rec_type,
	       const char *fmt, ...)
{
	struct srep_error w = { 0 };
	va_list ap;

	/* a rewound pass reads the same bytes: its warnings were given already */
	if (!s->opts.diag || s->rewound)
		return;
	w.code = code;
	w.has_offset = true;
	w.offset = off;
	w.record_type = rec_type;
	snprintf(w.path, sizeof(w.path), "%s", s->src_path ? s->src_path : s->path);
	va_start(ap, fmt);
	vsnprintf(w.msg, sizeof(w.msg), fmt, ap);
	va_end(ap);
	s->opts.diag(s->opts.diag_arg, &w);
}
