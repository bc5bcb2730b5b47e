/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simpoint-out.h - what "schedrep simpoint" writes: the result of one
 * analysis and the files made from it.
 */
#ifndef SREP_SIMPOINT_OUT_H
#define SREP_SIMPOINT_OUT_H

#include "cli.h"

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
/* @s as a JSON string, quotes included */
void sp_json_string(FILE *f, const char *s);

#endif /* SREP_SIMPOINT_OUT_H */
