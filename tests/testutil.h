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

#include "schedrep.h"

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

/* print a skip note (Check has no skip status: the test passes with a message) */
#define TU_SKIP(...) do { fprintf(stderr, "SKIP: " __VA_ARGS__); fprintf(stderr, "\n"); return; } while (0)

/* run one suite; returns the process exit status */
int tu_run_suite(Suite *s);

#endif
