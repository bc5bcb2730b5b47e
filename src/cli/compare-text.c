// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-text.c - "schedrep compare" as an aligned text table that fits an
 * 80-column terminal: the workload, the CPUs, then the significant per-task
 * differences (time first, largest first; then counts and shares, widest
 * first), where the tasks blocked (traces with
 * callchains), and the tasks found on one side only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

#define LABEL_W	22
#define METRIC_W 14
#define UNMATCHED_SHOWN 12	/* names listed per side; the count says the rest */
#define SITE_W	32
#define BLOCK_PAIRS_SHOWN 12	/* tasks in the "where tasks block" table: the most blocked */
#define BLOCK_ROWS_SHOWN 3	/* sites per task: the largest */

const char *compare_fmt(char *buf, size_t size, enum srep_unit unit, double v, bool sign)
{
	const char *plus = sign && v > 0 ? "+" : "";
	double a = fabs(v);

	if (unit == SREP_UNIT_COUNT)
		snprintf(buf, size, "%s%.0f", plus, v);
	else if (unit == SREP_UNIT_PERCENT)
		snprintf(buf, size, "%s%.1f%%", plus, v);
	else if (a < 1e3)
		snprintf(buf, size, "%s%.0fns", plus, v);
	else if (a < 1e6)
		snprintf(buf, size, "%s%.3fus", plus, v / 1e3);
	else if (a < 1e9)
		snprintf(buf, size, "%s%.3fms", plus, v / 1e6);
	else
		snprintf(buf, size, "%s%.3fs", plus, v / 1e9);
	return buf;
}

static const char *fmt_ratio(char *buf, size_t size, double r)
{
	if (isnan(r))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, r < 1000 ? "%.2f" : "%.0f", r);
	return buf;
}

const char *compare_label(char *buf, size_t size, const struct srep_compare *c, size_t pair,
			  size_t width)
{
	const struct srep_matching *mt = srep_compare__matching(c);
	const struct srep_task *const *a, *const *b;
	size_t na = srep_matching__pair(mt, pair, 0, &a), nb = srep_matching__pair(mt, pair, 1, &b);
	char ids[48];
	int room;

	if (na == 1 && nb == 1)
		snprintf(ids, sizeof(ids), " %d/%d", srep_task__tid(a[0]), srep_task__tid(b[0]));
	else
		snprintf(ids, sizeof(ids), " (%zu/%zu)", na, nb);
	room = (int)width - (int)strlen(ids);
	if (room < 2)
		room = 2;
	if ((int)strlen(srep_task__comm(a[0])) > room)
		snprintf(buf, size, "%.*s~%s", room - 1, srep_task__comm(a[0]), ids);
	else
		snprintf(buf, size, "%s%s", srep_task__comm(a[0]), ids);
	return buf;
}

const char *compare_describe(char *buf, size_t size, const struct srep_session *s)
{
	const struct srep_meta *m = srep_session__meta(s);
	char cpus[32] = "? CPUs";

	if (m->nr_cpus_online >= 0)
		snprintf(cpus, sizeof(cpus), "%d CPU%s", m->nr_cpus_online,
			 m->nr_cpus_online == 1 ? "" : "s");
	snprintf(buf, size, "%s, %s-endian, %s, perf %s", m->arch ? m->arch : "unknown arch",
		 m->big_endian ? "big" : "little", cpus, m->perf_version ? m->perf_version : "unknown");
	return buf;
}

/* one row: the label columns are already printed */
static void diff_row(FILE *f, const struct srep_diff *d)
{
	char a[32], b[32], x[32], r[16];

	fprintf(f, " %10s %10s %11s %6s %s\n", compare_fmt(a, sizeof(a), d->unit, d->a, false),
		compare_fmt(b, sizeof(b), d->unit, d->b, false),
		compare_fmt(x, sizeof(x), d->unit, d->diff, true), fmt_ratio(r, sizeof(r), d->ratio),
		d->significant ? "*" : "");
}

static const char *display_name(const char *metric)
{
	static char freq[METRIC_W + 1];
	static const char *const names[][2] = {
		{ "cpu_time", "cpu time" }, { "switches_voluntary", "vol switches" },
		{ "switches_involuntary", "invol switches" }, { "wait_mean", "wait mean" },
		{ "wait_p50", "wait p50" }, { "wait_p95", "wait p95" }, { "wait_max", "wait max" },
		{ "sleep_s", "sleep S" }, { "sleep_d", "sleep D" }, { "wait_total", "wait total" },
	};
	size_t i;

	/* "freq_1200000khz" -> "freq 1.200GHz" */
	if (!strncmp(metric, "freq_", 5)) {
		snprintf(freq, sizeof(freq), "freq %.3fGHz", atof(metric + 5) / 1e6);
		return freq;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(metric, names[i][0]))
			return names[i][1];
	}
	return metric;
}

static void header(FILE *f, const char *first)
{
	fprintf(f, "%-*s %-*s %10s %10s %11s %6s\n", LABEL_W, first, METRIC_W, "", "A", "B",
		"B-A", "B/A");
}

static void workload_and_cpus(FILE *f, const struct srep_compare *c)
{
	const struct srep_diff *d;
	size_t n, i, cpu;
	char label[32];

	header(f, "workload");
	d = srep_compare__workload(c, &n);
	for (i = 0; i < n; i++) {
		fprintf(f, "  %-*s %-*s", LABEL_W - 2, "", METRIC_W, display_name(d[i].metric));
		diff_row(f, &d[i]);
	}
	fprintf(f, "\n");
	header(f, "cpus");
	for (cpu = 0; cpu < srep_compare__nr_cpus(c); cpu++) {
		d = srep_compare__cpu(c, cpu, &n);
		snprintf(label, sizeof(label), "cpu%zu", cpu);
		for (i = 0; i < n; i++) {
			fprintf(f, "  %-*s %-*.*s", LABEL_W - 2, i ? "" : label, METRIC_W, METRIC_W,
				display_name(d[i].metric));
			diff_row(f, &d[i]);
		}
	}
}

static void task_rows(FILE *f, const struct srep_compare *c)
{
	const struct srep_compare_row *rows;
	size_t n, i, quiet = 0;
	char label[64];

	rows = srep_compare__rows(c, &n);
	fprintf(f, "\n");
	header(f, "tasks (tid A/B)");
	fprintf(f, "  time differences first, largest first; then counts and shares, widest first\n");
	for (i = 0; i < n; i++) {
		if (!rows[i].diff->significant) {
			quiet++;
			continue;
		}
		fprintf(f, "%-*s %-*s", LABEL_W, compare_label(label, sizeof(label), c, rows[i].pair,
							       LABEL_W),
			METRIC_W, display_name(rows[i].diff->metric));
		diff_row(f, rows[i].diff);
	}
	if (quiet == n)
		fprintf(f, "  no significant difference between matched tasks\n");
	if (quiet)
		fprintf(f, "  (%zu rows without a significant difference; --json lists them)\n", quiet);
}

/* ---- where tasks block ---- */

struct ranked {
	size_t pair;
	double top;		/* the time of its largest site, the larger side's */
};

static int by_top(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->top != b->top)
		return a->top > b->top ? -1 : 1;
	return (a->pair > b->pair) - (a->pair < b->pair);
}

size_t compare_blocking_pairs(const struct srep_compare *c, size_t **order)
{
	size_t np = srep_matching__nr_pairs(srep_compare__matching(c)), i, n = 0, nr;
	struct ranked *v = malloc((np ? np : 1) * sizeof(*v));
	const struct srep_block_row *r;

	*order = malloc((np ? np : 1) * sizeof(**order));
	if (!v || !*order) {
		free(v);
		return (size_t)-1;
	}
	for (i = 0; i < np; i++) {
		r = srep_compare__blocking(c, i, &nr);
		if (nr)
			v[n++] = (struct ranked){ i, fmax(r[0].blocked.a, r[0].blocked.b) };
	}
	qsort(v, n, sizeof(*v), by_top);
	for (i = 0; i < n; i++)
		(*order)[i] = v[i].pair;
	free(v);
	return n;
}

/* 's' in 'width' columns, cut with '~' */
static const char *cut(char *buf, size_t size, const char *s, size_t width)
{
	if (strlen(s) > width)
		snprintf(buf, size, "%.*s~", (int)width - 1, s);
	else
		snprintf(buf, size, "%s", s);
	return buf;
}

static void block_site(FILE *f, const char *label, const struct srep_block_row *r)
{
	char name[SITE_W + 8], a[32], b[32];

	fprintf(f, "%-*s %-*s %10s %10s%s\n", LABEL_W, label, SITE_W,
		cut(name, sizeof(name), r->kernel ? r->kernel : "-", SITE_W),
		compare_fmt(a, sizeof(a), SREP_UNIT_NS, r->blocked.a, false),
		compare_fmt(b, sizeof(b), SREP_UNIT_NS, r->blocked.b, false),
		r->blocked.significant ? " *" : "");
	if (r->user)
		fprintf(f, "%-*s   <- %s\n", LABEL_W, "",
			cut(name, sizeof(name), r->user, SITE_W - 5));
}

static void blocking(FILE *f, const struct srep_compare *c)
{
	size_t *order, n = compare_blocking_pairs(c, &order), i, j, nr, more_sites = 0;
	const struct srep_block_row *rows;
	char label[64];

	if (n && n != (size_t)-1) {
		fprintf(f, "\n%-*s %-*s %10s %10s\n", LABEL_W, "where tasks block", SITE_W,
			"kernel function <- user frame", "A", "B");
		for (i = 0; i < n && i < BLOCK_PAIRS_SHOWN; i++) {
			rows = srep_compare__blocking(c, order[i], &nr);
			compare_label(label, sizeof(label), c, order[i], LABEL_W);
			for (j = 0; j < nr && j < BLOCK_ROWS_SHOWN; j++)
				block_site(f, j ? "" : label, &rows[j]);
			more_sites += nr - j;
		}
		if (more_sites || n > BLOCK_PAIRS_SHOWN)
			fprintf(f, "  (%zu more sites, %zu more tasks; --json lists them)\n",
				more_sites, n > BLOCK_PAIRS_SHOWN ? n - BLOCK_PAIRS_SHOWN : 0);
	}
	free(order);
}

static void unmatched(FILE *f, const struct srep_matching *mt, int side)
{
	size_t n = srep_matching__nr_unmatched(mt, side), i;
	int col = 0;

	if (!n)
		return;
	fprintf(f, "only in %c (%zu):", side ? 'B' : 'A', n);
	col = 16;
	for (i = 0; i < n && i < UNMATCHED_SHOWN; i++) {
		const struct srep_task *t = srep_matching__unmatched(mt, side, i);
		char one[48];
		int len = snprintf(one, sizeof(one), " %s/%d", srep_task__comm(t), srep_task__tid(t));

		if (col + len > 79) {
			fprintf(f, "\n ");
			col = 1;
		}
		fputs(one, f);
		col += len;
	}
	fprintf(f, "%s\n", n > UNMATCHED_SHOWN ? " ..." : "");
}

void compare_text(FILE *f, const struct compare_run *r)
{
	const struct srep_matching *mt = srep_compare__matching(r->c);
	char desc[160];
	int k;

	/* the path alone on its line: only a long path can make it wider than 80 */
	for (k = 0; k < 2; k++) {
		fprintf(f, "%c: %s\n   %s", 'A' + k, r->path[k],
			compare_describe(desc, sizeof(desc), r->s[k]));
		fprintf(f, r->scale[k] != 1 ? ", durations x %g\n" : "\n", r->scale[k]);
	}
	fprintf(f, "tasks: %zu pair%s (--match %s), %zu only in A, %zu only in B\n",
		srep_matching__nr_pairs(mt), srep_matching__nr_pairs(mt) == 1 ? "" : "s",
		srep_match_mode__name(r->mode),
		srep_matching__nr_unmatched(mt, 0), srep_matching__nr_unmatched(mt, 1));
	fprintf(f, "* significant: |B-A| >= %.0f%% of the larger and >= 10us, 2 or 1 point\n\n",
		100 * SREP_SIGNIFICANT_REL);
	workload_and_cpus(f, r->c);
	task_rows(f, r->c);
	blocking(f, r->c);
	if (srep_matching__nr_unmatched(mt, 0) || srep_matching__nr_unmatched(mt, 1))
		fprintf(f, "\n");
	unmatched(f, mt, 0);
	unmatched(f, mt, 1);
}
