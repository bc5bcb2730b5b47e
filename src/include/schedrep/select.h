/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/select.h - task selection and time arguments, shared by
 * every command that reads a trace.
 */
#ifndef SCHEDREP_SELECT_H
#define SCHEDREP_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/error.h>
#include <schedrep/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Task selection (shared by convert, replay, compare)                  */
/* ------------------------------------------------------------------ */

struct srep_selection;

/*
 * SEL syntax: all digits = a pid (the whole process); "tid:N" = one thread;
 * "comm:NAME" = a comm (for comms made of digits); anything else = a comm or
 * fnmatch(3) glob matched against every comm the task ever had.
 */
SREP_API int srep_selection__new(struct srep_selection **out, struct srep_error *err);
SREP_API void srep_selection__delete(struct srep_selection *sel);
SREP_API int srep_selection__add_only(struct srep_selection *sel, const char *spec,
				      struct srep_error *err);
SREP_API int srep_selection__add_exclude(struct srep_selection *sel, const char *spec,
					 struct srep_error *err);
SREP_API void srep_selection__set_children(struct srep_selection *sel, bool children);
/* true when nothing was asked for (everything selected) */
SREP_API bool srep_selection__is_empty(const struct srep_selection *sel);
/* true when an --only was given (commands with a default selection apply it otherwise) */
SREP_API bool srep_selection__has_only(const struct srep_selection *sel);
/*
 * Resolve against a session's task table (PRESCAN it, or call this after the
 * last event); afterwards srep_selection__has_tid() answers per tid.
 */
SREP_API int srep_selection__resolve(struct srep_selection *sel, const struct srep_session *s,
				     struct srep_error *err);
SREP_API bool srep_selection__has_task(const struct srep_selection *sel, const struct srep_task *t);
SREP_API bool srep_selection__has_tid(const struct srep_selection *sel, int32_t tid);
/* how many tasks the resolved selection holds (0: nothing matched) */
SREP_API size_t srep_selection__nr_tasks(const struct srep_selection *sel);

/* ------------------------------------------------------------------ */
/* Time specifications (shared)                                         */
/* ------------------------------------------------------------------ */

/*
 * "0.5" = seconds after the trace's first event; "@5170.123456" = absolute
 * perf timestamp in seconds. Returns absolute ns in *out.
 */
SREP_API int srep_time__parse(const char *spec, uint64_t trace_start_ns, uint64_t *out,
			      struct srep_error *err);
/* "FROM,TO" with either side optional ("0.5," or ",2"); missing = 0 / UINT64_MAX */
SREP_API int srep_time__parse_range(const char *spec, uint64_t trace_start_ns, uint64_t *from,
				    uint64_t *to, struct srep_error *err);
/* duration: "10ms", "1.5s", "200us", "500ns", plain number = seconds */
SREP_API int srep_duration__parse(const char *spec, uint64_t *out_ns, struct srep_error *err);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_SELECT_H */
