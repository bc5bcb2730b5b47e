/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmtutil.h - what the exporter suites (check_fmt_*.c, check_jsonin.c)
 * share: running an exporter in memory, the scenario traces they convert,
 * golden files, and the Trace Event Format rules.
 */
#ifndef SREP_FMTUTIL_H
#define SREP_FMTUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "exporter.h"
#include "fixture.h"

#define TU_T0 5170000000000ull	/* 5170 s after boot: a plausible perf clock */

/*
 * ck_assert_msg() for loops over every event: Check records the location of
 * every assertion that passes (a write to its log each time), which made the
 * corpus suites spend most of their time in the kernel; this only speaks up
 * when the condition fails.
 */
#define tu_check(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/*
 * what to convert: NULL-terminated SEL lists, a --time range, where the
 * target's symbols are (NULL: no symbolizer, as --no-symbols)
 */
struct tu_convert {
	const char *const *only, *const *exclude;
	bool children;
	const char *time;
	const void *opts;
	const struct srep_symbol_opts *symbols;
};

/*
 * Run exporter 'x' over the trace at 'path' as `schedrep convert` does;
 * *out (malloc'd, NUL-terminated) gets the output. Returns 0 or SREP_E_*.
 */
int tu_convert(const char *path, const struct srep_exporter *x, const struct tu_convert *c,
	       char **out, size_t *len, struct srep_error *err);

/*
 * The scenario trace: a server forks a worker that execs, sleeps (S and D),
 * is woken, preempted, migrates and exits; CPU idle and frequency, a loss,
 * a rename; comms given by the caller (NULL: plain ones) so strings with
 * quotes, control bytes or invalid UTF-8 can be tried. Switch-outs into
 * sleep carry a callchain when opts->tp_callchain.
 */
struct fixture *tu_scenario(const struct fixture_opts *o, const char *server_comm,
			    const char *worker_comm);
/* write the fixture to a fresh directory; returns the directory (tu_rmdir it) */
char *tu_scenario_file(struct fixture *fx, char *path, size_t size);

/* the target's kallsyms for the kernel addresses of the scenario's callchains */
extern const char tu_scenario_kallsyms[];
/*
 * The scenario with callchains (opts.tp_callchain) and a cpu-clock sample of
 * the server at TU_T0 + 99 whose callchain is vfs_read+0x10, ksys_read+0x8;
 * 'ktext' written beside it as the kallsyms file ('kallsyms' gets its path).
 * Returns the directory (tu_rmdir it).
 */
char *tu_callchain_scenario(char *path, size_t size, char *kallsyms, size_t ksize,
			    const char *ktext);

/* compare 'text' with tests/data/convert/NAME, or rewrite it under SREP_UPDATE_GOLDEN=1 */
void tu_golden(const char *name, const char *text, size_t len);

/*
 * Room for element n of a growing array v: a bigger block when n reaches
 * a power of two (16 at first), so appending stays linear (realloc by one
 * element copies the whole array every time under ASan).
 */
void *tu_grow(void *v, size_t n, size_t size);

/* trace files of the corpus that have scheduler switches (NULL-terminated, malloc'd) */
char **tu_corpus_sched_files(void);
void tu_free_list(char **v);

/*
 * The Trace Event Format rules: a root object with a traceEvents array and
 * an otherData object; known phases with their required keys; timestamps in
 * microseconds with at most three decimals; 'X' slices with dur >= 0 that
 * nest properly on each thread; flows with one 's' and one 'f' per id, the
 * start inside a slice of its thread, never after the end; metadata events
 * with a name. Returns the parsed document (cJSON_Delete it), or NULL with
 * the first broken rule in 'why'.
 */
cJSON *tu_tef_check(const char *json, char *why, size_t size);

#endif /* SREP_FMTUTIL_H */
