/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exporter.h - one exporter per file in formats/, behind one interface.
 *
 * The CLI opens the session and the output (atomically: a temporary file or
 * directory renamed into place on success), then hands every selected event
 * to ->event() in time order. Exporters include only schedrep.h and this
 * header; what they need about the whole trace they keep as bounded
 * summaries, never as a copy of all events.
 */
#ifndef SREP_EXPORTER_H
#define SREP_EXPORTER_H

#include <stdint.h>
#include <stdio.h>

#include "schedrep.h"

#define SREP_EXPORT_PRESCAN	0x1	/* needs the complete task table before the first event */
#define SREP_EXPORT_DIRECTORY	0x2	/* writes a directory (ctx->out_dir), not a file */

struct srep_export_ctx {
	struct srep_session *session;		/* the events' session (borrowed) */
	const struct srep_selection *sel;	/* resolved; NULL = every task */
	uint64_t from, to;			/* time window (ns); 0 and UINT64_MAX = all */
	FILE *out;				/* file exporters: where to write */
	const char *out_dir;			/* directory exporters: an empty directory */
	const void *opts;			/* format-specific options, NULL for defaults */
};

struct srep_exporter {
	const char *name;	/* the --format value */
	const char *suffix;	/* default output: the input name with this suffix */
	const char *summary;	/* one line for --help */
	unsigned flags;		/* SREP_EXPORT_* */
	int (*begin)(void **state, const struct srep_export_ctx *ctx, struct srep_error *err);
	int (*event)(void *state, const struct srep_event *ev, struct srep_error *err);
	int (*end)(void *state, struct srep_error *err);
	void (*destroy)(void *state);		/* NULL state is fine */
};

/* every exporter, NULL-terminated (formats/exporter.c) */
extern const struct srep_exporter *const srep_exporters[];
const struct srep_exporter *srep_exporter_find(const char *name);

#endif /* SREP_EXPORTER_H */
