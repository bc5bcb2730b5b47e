/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exporter.h - one exporter per file in formats/, behind one interface.
 *
 * The CLI opens the session and the output (atomically: a temporary file or
 * directory renamed into place on success), then hands every selected event
 * to ->event() in time order. Exporters include only schedrep.h and this
 * header; what they need about the whole trace they keep as bounded
 * summaries, never as a copy of all events.
 *
 * A format may bring its own command-line options: it lists them in
 * ->options, and `schedrep convert` offers them (in --help too), hands each
 * one given to ->opt() on the object ->opts_new() made, and passes that
 * object to ->begin() as ctx->opts. The command never learns what they mean.
 */
#ifndef SREP_EXPORTER_H
#define SREP_EXPORTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <schedrep/schedrep.h>

#define SREP_EXPORT_PRESCAN	0x1	/* needs the complete task table before the first event */
#define SREP_EXPORT_DIRECTORY	0x2	/* writes a directory (ctx->out_dir), not a file */
#define SREP_EXPORT_SYMBOLS	0x4	/* shows callchains: wants ctx->symbols */
/*
 * Gets every event up to the window's end, selected or not, and applies
 * ctx->sel and ctx->from itself: for formats that follow whole CPUs to
 * place the selected tasks (rt-app builds replay's plan, which does).
 */
#define SREP_EXPORT_EVERY_EVENT	0x8
/* describes whole tasks (their state, their plan): convert --cpu cannot cut them */
#define SREP_EXPORT_WHOLE_TASKS	0x10

struct srep_export_ctx {
	struct srep_session *session;		/* the events' session (borrowed) */
	const struct srep_selection *sel;	/* resolved; NULL = every task */
	uint64_t from, to;			/* time window (ns); 0 and UINT64_MAX = all */
	/* the first event's time; 0 unless SREP_EXPORT_PRESCAN or a time window asked for it */
	uint64_t trace_start;
	FILE *out;				/* file exporters: where to write */
	const char *out_dir;			/* directory exporters: an empty directory */
	const void *opts;			/* format-specific options, NULL for defaults */
	/*
	 * Callchains resolved: for formats with SREP_EXPORT_SYMBOLS, the trace's
	 * symbolizer, NULL with --no-symbols. The command feeds it every event
	 * (srep_symbolizer__observe) before ->event() gets the event, so an
	 * exporter may ask for the frames of the event it is given.
	 */
	struct srep_symbolizer *symbols;
};

/* a format's own option: --name [arg] */
struct srep_export_opt {
	const char *name;	/* long name without "--"; the table ends with a NULL name */
	const char *arg;	/* placeholder, NULL for a flag */
	const char *help;	/* one line for --help */
	int id;			/* handed to ->opt() */
};

struct srep_exporter {
	const char *name;	/* the --format value */
	const char *suffix;	/* default output: the input name with this suffix */
	const char *summary;	/* one line for --help */
	unsigned flags;		/* SREP_EXPORT_* */
	/* options: all NULL for a format without any */
	const struct srep_export_opt *options;
	int (*opts_new)(void **opts, struct srep_error *err);
	int (*opt)(void *opts, int id, const char *arg, struct srep_error *err);
	void (*opts_free)(void *opts);		/* NULL is fine */
	int (*begin)(void **state, const struct srep_export_ctx *ctx, struct srep_error *err);
	int (*event)(void *state, const struct srep_event *ev, struct srep_error *err);
	int (*end)(void *state, struct srep_error *err);
	void (*destroy)(void *state);		/* NULL state is fine */
};

/* every exporter, NULL-terminated (formats/exporter.c) */
extern const struct srep_exporter *const srep_exporters[];
const struct srep_exporter *srep_exporter_find(const char *name);

extern const struct srep_exporter srep_exporter_perfetto;
extern const struct srep_exporter srep_exporter_pftrace;	/* formats/pftrace*.c */
extern const struct srep_exporter srep_exporter_json;
extern const struct srep_exporter srep_exporter_svg;
extern const struct srep_exporter srep_exporter_criu;	/* formats/criu*.c, libcriu.a */
extern const struct srep_exporter srep_exporter_rtapp;	/* formats/rtapp/, over replay's plan */

/*
 * Does the event concern a selected task? A switch names two tasks (either
 * will do), a fork its parent and child, a wakeup the woken task; CPU
 * events (idle, frequency) and losses name none and are always kept. With
 * sel NULL every event does.
 */
bool srep_export_selected(const struct srep_selection *sel, const struct srep_event *ev);
/* a task is selected (sel NULL: every task) */
bool srep_export_has_tid(const struct srep_selection *sel, int32_t tid);

/*
 * A task's display name: every comm it had during the trace, "perf → … →
 * sched-messaging" (the middle ones elided past three). Names from before
 * the trace (perf's synthesized records, time 0) count as one: the last.
 */
void srep_export_task_label(const struct srep_task *t, char *buf, size_t size);
#define SREP_EXPORT_LABEL_MAX (4 * SREP_COMM_MAX + 32)

/*
 * The colour of the i-th task of a listing, "#rrggbb" (formats/palette.c):
 * neighbours in the listing get clearly different colours, the same i
 * always the same one. The SVG timeline and the compare HTML report share it.
 */
#define SREP_EXPORT_COLOUR_SIZE 8
void srep_export_colour(size_t i, char buf[SREP_EXPORT_COLOUR_SIZE]);

#endif /* SREP_EXPORTER_H */
