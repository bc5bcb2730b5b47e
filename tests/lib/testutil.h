/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * testutil.h - helpers shared by the Check suites.
 */
#ifndef SREP_TESTUTIL_H
#define SREP_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>
#include "fixture.h"

/* ../shared/corpus next to the source tree, or NULL (tests then skip) */
const char *tu_corpus_dir(void);
/* path under the corpus; NULL when the corpus is absent */
char *tu_corpus_path(const char *rel);
/* a fresh temporary directory, removed by tu_rmdir() */
char *tu_tmpdir(void);
void tu_rmdir(const char *dir);
/* read a whole file; NULL if missing */
char *tu_read_file(const char *path, size_t *len);
int tu_write_file(const char *path, const void *data, size_t len);
/* run a shell command, capture stdout (malloc'd), return its exit status */
int tu_run(const char *cmd, char **out);
bool tu_have_program(const char *name);

/* perf's "Aggregated stats" text: record type -> count, event -> SAMPLE count */
struct tu_count {
	char *name;
	uint64_t value;
};

struct tu_stats {
	struct tu_count *records, *events;
	size_t nr_records, nr_events;
};

int tu_parse_perf_stats(const char *text, struct tu_stats *out);
void tu_stats_free(struct tu_stats *st);
/*
 * Compare a session's counts with perf's; on mismatch fill 'why' (one line
 * per difference) and return false.
 */
bool tu_stats_match(const struct srep_session *s, const struct tu_stats *perf, char *why,
		    size_t size);

/* open, read every event, return the status of the last call (0 at the end) */
int tu_read_all(const char *path, unsigned flags, struct srep_session **out,
		struct srep_error *err);

/*
 * ---- bytes built by a test, in either byte order ----
 * The fixture writer's buffer (fixture.h); these abort on ENOMEM, where its
 * own appends only mark the buffer failed.
 */

void tu_put(struct fx_buf *b, const void *p, size_t n);
void tu_zero(struct fx_buf *b, size_t n);
void tu_u8(struct fx_buf *b, uint8_t v);
void tu_u16(struct fx_buf *b, uint16_t v);
void tu_u32(struct fx_buf *b, uint32_t v);
void tu_u64(struct fx_buf *b, uint64_t v);
/* perf's str64: u32 length rounded up to 64, then the NUL-padded text */
void tu_str64(struct fx_buf *b, const char *s);
void tu_buf_free(struct fx_buf *b);
/* an exactly sized heap copy: AddressSanitizer reports any read past its end */
uint8_t *tu_exact_copy(const void *p, size_t len);

/* ---- warnings given to the diag callback ---- */
struct tu_diag {
	int n;
	int code;			/* of the last one */
	bool has_offset;
	uint64_t offset;
	char last[SREP_ERR_MSG_MAX];
	char all[8192];			/* every message, one a line */
};

void tu_diag_cb(void *arg, const struct srep_error *w);

/*
 * Open 'len' bytes as a perf.data file: written to a temporary file that is
 * removed at once (the session keeps its descriptor). 'diag' may be NULL.
 */
int tu_open_mem(const void *buf, size_t len, unsigned flags, struct tu_diag *diag,
		struct srep_session **s, struct srep_error *err);
/*
 * Make standard input the read end of a real pipe(2) fed by a child process
 * in writes of at most 'chunk' bytes (0: one write); returns the child's pid
 * for tu_wait_feeder().
 */
int tu_feed_stdin(const void *buf, size_t len, size_t chunk);
void tu_wait_feeder(int pid);

/* every event of a session, copied (pointers inside them cleared) */
struct tu_events {
	struct srep_event *v;
	size_t n, cap;
};

/* read to the end; returns the last status (0 at the end) */
int tu_collect(struct srep_session *s, struct tu_events *out, struct srep_error *err);
void tu_events_free(struct tu_events *ev);
/* how many events of this kind */
size_t tu_count_kind(const struct tu_events *ev, enum srep_event_kind kind);
/* the first event of this kind at this time, NULL if none */
const struct srep_event *tu_find(const struct tu_events *ev, enum srep_event_kind kind,
				 uint64_t time);

/* the same events in the same order; else 'why' names the first difference */
bool tu_events_same(const struct tu_events *a, const struct tu_events *b, char *why,
		    size_t size);

/* print a skip note (Check has no skip status: the test passes with a message) */
/*
 * A check that could not run (its tool or data is missing): say why and
 * remember it, so that tu_run_suite() reports the suite as skipped (77)
 * rather than passed. tu_skipped() notes a part of a test left out; the
 * rest of the test goes on. TU_SKIP() notes it and leaves the test.
 */
void tu_skipped(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define TU_SKIP(...) do { tu_skipped(__VA_ARGS__); return; } while (0)

/* run one suite; returns the exit status: 1 failed, 77 something skipped, 0 */
int tu_run_suite(Suite *s);

#endif
