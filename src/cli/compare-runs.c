// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-runs.c - "schedrep compare A1 A2 ... --vs B1 B2 ...": the table
 * and the JSON document (docs/compare.md) of repeated runs: per metric the
 * median and spread of each side and the exact Mann-Whitney test. The
 * statistics are the library's (srep_runs).
 */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "compare.h"

#define GROUP_W_MAX 32

static const char test_rule[] =
	"test: exact two-sided Mann-Whitney U of A's runs against B's (ties mid-ranked);\n"
	"      '*' significant: p <= %.2f\n";

/* the smallest p these run counts allow, and what follows when it is too large */
static void print_power(FILE *f, size_t na, size_t nb)
{
	double pmin = srep_mann_whitney__min_p(na, nb);

	fprintf(f, "      with %zu and %zu runs the smallest possible p is %.4f", na, nb, pmin);
	if (pmin > SREP_RUNS_ALPHA)
		fprintf(f, ": no difference can be significant (n too small);\n"
			"      4 runs per side (or 3 and 5) can show one\n");
	else
		fputs("\n", f);
}

static size_t group_width(const struct srep_runs_stat *st, size_t n)
{
	size_t w = strlen("group"), i;

	for (i = 0; i < n; i++)
		if (strlen(st[i].group) > w)
			w = strlen(st[i].group);
	return w < GROUP_W_MAX ? w : GROUP_W_MAX;
}

/* "1.234ms [1.200ms..1.300ms]" */
static const char *spread(char *buf, size_t size, const struct srep_runs_stat *s, int k)
{
	char m[32], lo[32], hi[32];

	snprintf(buf, size, "%s [%s..%s]", compare_fmt(m, sizeof(m), s->unit, s->median[k], false),
		 compare_fmt(lo, sizeof(lo), s->unit, s->min[k], false),
		 compare_fmt(hi, sizeof(hi), s->unit, s->max[k], false));
	return buf;
}

void compare_runs_text(FILE *f, const struct compare_runs_out *o)
{
	size_t i, n, k, w, na = srep_runs__nr_runs(o->runs, 0), nb = srep_runs__nr_runs(o->runs, 1);
	const struct srep_runs_stat *st = srep_runs__stats(o->runs, &n);
	size_t sig = srep_runs__nr_significant(o->runs), partial = srep_runs__nr_partial(o->runs);
	char a[96], b[96], d[32];

	fprintf(f, "schedrep compare: %zu run%s of A against %zu run%s of B\n", na,
		na == 1 ? "" : "s", nb, nb == 1 ? "" : "s");
	for (k = 0; k < 2; k++) {
		fprintf(f, "  %c:", 'A' + (int)k);
		for (i = 0; i < o->n[k]; i++)
			fprintf(f, " %s", o->path[k][i]);
		fputc('\n', f);
	}
	fprintf(f, test_rule, SREP_RUNS_ALPHA);
	print_power(f, na, nb);
	fprintf(f, "order: significant first, then times before counts, the workload before comms,\n"
		"       largest |B-A| of the medians first; A and B: median [min..max] of the runs\n");
	fprintf(f, "%zu significant difference%s", sig, sig == 1 ? "" : "s");
	if (partial)
		fprintf(f, "; %zu metric%s of comms missing from some run left out", partial,
			partial == 1 ? "" : "s");
	fputs("\n\n", f);
	w = group_width(st, n);
	fprintf(f, "%-*s %-10s %30s %30s %11s %7s\n", (int)w, "group", "metric", "A", "B", "B-A", "p");
	for (i = 0; i < n; i++)
		fprintf(f, "%-*.*s %-10s %30s %30s %11s %7.4f %s\n", (int)w, (int)w, st[i].group,
			st[i].metric, spread(a, sizeof(a), &st[i], 0), spread(b, sizeof(b), &st[i], 1),
			compare_fmt(d, sizeof(d), st[i].unit, st[i].diff, true), st[i].p,
			st[i].significant ? "*" : "");
}

static cJSON *side_json(const struct srep_runs_stat *s, int k)
{
	cJSON *o = cJSON_CreateObject(), *v;
	size_t i;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "median", s->median[k]);
	cJSON_AddNumberToObject(o, "min", s->min[k]);
	cJSON_AddNumberToObject(o, "max", s->max[k]);
	v = cJSON_AddArrayToObject(o, "runs");
	for (i = 0; v && i < s->n[k]; i++)
		cJSON_AddItemToArray(v, cJSON_CreateNumber(s->values[k][i]));
	return o;
}

static void add_paths(cJSON *root, const struct compare_runs_out *o)
{
	cJSON *runs = cJSON_AddObjectToObject(root, "runs"), *arr;
	size_t k, i;

	for (k = 0; runs && k < 2; k++) {
		arr = cJSON_AddArrayToObject(runs, k ? "b" : "a");
		for (i = 0; arr && i < o->n[k]; i++)
			cJSON_AddItemToArray(arr, cJSON_CreateString(o->path[k][i]));
	}
}

static void add_rows(cJSON *root, const struct compare_runs_out *o)
{
	cJSON *rows = cJSON_AddArrayToObject(root, "rows"), *r;
	const struct srep_runs_stat *st;
	size_t i, n;

	st = srep_runs__stats(o->runs, &n);
	for (i = 0; rows && i < n; i++) {
		r = cJSON_CreateObject();
		if (!r)
			return;
		cJSON_AddStringToObject(r, "group", st[i].group);
		cJSON_AddStringToObject(r, "metric", st[i].metric);
		cJSON_AddStringToObject(r, "unit", st[i].unit == SREP_UNIT_NS ? "ns" : "count");
		cJSON_AddItemToObject(r, "a", side_json(&st[i], 0));
		cJSON_AddItemToObject(r, "b", side_json(&st[i], 1));
		cJSON_AddNumberToObject(r, "diff", st[i].diff);
		cJSON_AddNumberToObject(r, "u", st[i].u);
		cJSON_AddNumberToObject(r, "p", round(st[i].p * 1e9) / 1e9);
		cJSON_AddBoolToObject(r, "significant", st[i].significant);
		cJSON_AddItemToArray(rows, r);
	}
}

int compare_runs_json(FILE *f, const struct compare_runs_out *o)
{
	size_t na = srep_runs__nr_runs(o->runs, 0), nb = srep_runs__nr_runs(o->runs, 1);
	cJSON *root = cJSON_CreateObject(), *t;

	if (!root)
		return -1;
	cJSON_AddStringToObject(root, "format", "schedrep-compare-runs");
	cJSON_AddNumberToObject(root, "version", 1);
	add_paths(root, o);
	t = cJSON_AddObjectToObject(root, "test");
	cJSON_AddStringToObject(t, "name", "mann-whitney-u-exact-two-sided");
	cJSON_AddNumberToObject(t, "alpha", SREP_RUNS_ALPHA);
	cJSON_AddNumberToObject(t, "min_p", round(srep_mann_whitney__min_p(na, nb) * 1e9) / 1e9);
	cJSON_AddBoolToObject(t, "n_too_small", srep_mann_whitney__min_p(na, nb) > SREP_RUNS_ALPHA);
	cJSON_AddNumberToObject(root, "significant", (double)srep_runs__nr_significant(o->runs));
	cJSON_AddNumberToObject(root, "left_out", (double)srep_runs__nr_partial(o->runs));
	add_rows(root, o);
	return cli_json_print(f, root);
}
