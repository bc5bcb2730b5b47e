/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - what cmd-compare.c hands to its three outputs: the aligned
 * text table (compare-text.c), JSON (compare-json.c, docs/compare.md) and
 * the HTML report (compare-html.c).
 */
#ifndef SREP_CLI_COMPARE_H
#define SREP_CLI_COMPARE_H

#include <stdio.h>

#include <schedrep/schedrep.h>

struct compare_run {
	const char *path[2];
	const struct srep_session *s[2];
	const struct srep_metrics *m[2];
	double scale[2];
	enum srep_match_mode mode;
	const struct srep_compare *c;
};

void compare_text(FILE *f, const struct compare_run *r);
/* returns 0, or -1 when out of memory */
int compare_json(FILE *f, const struct compare_run *r);
void compare_html(FILE *f, const struct compare_run *r);

/* repeated runs (compare A1 A2 ... --vs B1 B2 ...: compare-runs.c) */
struct compare_runs_out {
	char *const *path[2];		/* each side's traces */
	size_t n[2];
	const struct srep_runs *runs;	/* finished */
};

void compare_runs_text(FILE *f, const struct compare_runs_out *o);
/* returns 0, or -1 when out of memory */
int compare_runs_json(FILE *f, const struct compare_runs_out *o);

/* "12.345ms", "17", "95.1%"; 'sign' adds '+' to positive values */
const char *compare_fmt(char *buf, size_t size, enum srep_unit unit, double v, bool sign);
/* "comm 117/2045" (tids of A/B) or "comm (81/80)" for groups, cut to 'width' with '~' */
const char *compare_label(char *buf, size_t size, const struct srep_compare *c, size_t pair,
			  size_t width);
/* "aarch64, 2 CPUs, perf 6.1.176" */
const char *compare_describe(char *buf, size_t size, const struct srep_session *s);
/*
 * The pairs with a "where tasks block" table, the one whose largest site
 * has the most time first, into 'order' (room for every pair); returns how
 * many. (size_t)-1 when out of memory.
 */
size_t compare_blocking_pairs(const struct srep_compare *c, size_t **order);

#endif /* SREP_CLI_COMPARE_H */
