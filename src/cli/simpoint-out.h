/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simpoint-out.h - what "schedrep simpoint" writes: the result of one
 * analysis and the files made from it.
 */
#ifndef SREP_SIMPOINT_OUT_H
#define SREP_SIMPOINT_OUT_H

#include "cli.h"

/* one analysis: of the whole selection, or of one thread (--per-thread) */
struct sp_one {
	int32_t tid;			/* -1: the whole selection */
	struct srep_simpoint *sp;
	uint64_t samples, lbr_samples;	/* selected; of them with basic blocks */
};

/* the analyses of --per-thread, by tid */
struct sp_threads {
	struct sp_one *t;
	size_t n, cap;
	uint64_t interval;
};

/* @tid's analysis, made on first sight; NULL without memory */
struct sp_one *sp_thread_of(struct sp_threads *ts, int32_t tid, struct srep_error *err);
void sp_threads_free(struct sp_threads *ts);
/* what the vectors are, for the summary */
const char *sp_vectors_name(const struct sp_one *one, bool symbols);

struct sp_report {
	const char *trace;
	const struct srep_simpoint_event *ev;
	uint64_t interval;
	const char *vectors;		/* "functions" or "64-byte blocks" */
	uint64_t samples;
	const struct srep_simpoint *sp;
	const struct srep_simpoint_result *res;
	double threshold;
};

/* every file into the directory @dir; 0 or an error naming the file */
int sp_write_all(const char *dir, const struct sp_report *r, struct srep_error *err);
/* phases.svg: the intervals in order coloured by cluster, the points marked */
int sp_write_svg(FILE *f, const struct sp_report *r);
/* the text summary: k, the BIC curve, the chosen points and what they cover */
int sp_write_summary(FILE *f, const struct sp_report *r);
/*
 * --per-thread: each thread's files in DIR/tid-TID/ (threads with fewer than
 * two intervals are listed, not analysed), and DIR/threads.txt listing them;
 * 0 or an error naming the file
 */
int sp_write_threads(const char *dir, struct sp_threads *ts, const struct sp_report *base,
		     const struct srep_simpoint_opts *cl, const struct srep_session *s,
		     bool symbols, struct srep_error *err);
/* @s as a JSON string, quotes included */
void sp_json_string(FILE *f, const char *s);

#endif /* SREP_SIMPOINT_OUT_H */
