// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint-out.c - the files of "schedrep simpoint", written into its
 * temporary output directory: SimPoint's own formats (simpoints, weights,
 * vectors.bb, projection.txt), the labels and intervals, a summary,
 * plan.json and phases.svg (docs/simpoint.md describes each).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "simpoint-out.h"

typedef int (*sp_writer)(FILE *f, const struct sp_report *r);

/* SimPoint's .simpoints: "INTERVAL CLUSTER" per chosen interval, by cluster */
static int write_simpoints(FILE *f, const struct sp_report *r)
{
	size_t i;

	for (i = 0; i < r->res->nr_points; i++)
		fprintf(f, "%zu %d\n", r->res->points[i].index, r->res->points[i].cluster);
	return 0;
}

/* SimPoint's .weights: "WEIGHT CLUSTER" */
static int write_weights(FILE *f, const struct sp_report *r)
{
	size_t i;

	for (i = 0; i < r->res->nr_points; i++)
		fprintf(f, "%.17g %d\n", r->res->points[i].weight, r->res->points[i].cluster);
	return 0;
}

/* SimPoint's frequency vectors: "T:DIM:COUNT :DIM:COUNT ..." with DIM from 1 */
static int write_vectors(FILE *f, const struct sp_report *r)
{
	const struct srep_simpoint_interval *iv;
	size_t i, j;

	for (i = 0; i < srep_simpoint__nr_intervals(r->sp); i++) {
		iv = srep_simpoint__interval(r->sp, i);
		fputc('T', f);
		for (j = 0; j < iv->nr_dims; j++)
			fprintf(f, ":%" PRIu32 ":%.0f ", iv->dims[j] + 1, iv->counts[j]);
		fputc('\n', f);
	}
	return 0;
}

/* the dimension names, line N naming dimension N of vectors.bb */
static int write_dims(FILE *f, const struct sp_report *r)
{
	size_t i;

	for (i = 0; i < srep_simpoint__nr_dims(r->sp); i++)
		fprintf(f, "%zu %s\n", i + 1, srep_simpoint__dim_name(r->sp, (uint32_t)i));
	return 0;
}

/* the projection in SimPoint's text matrix format (its -loadProjMatrixTxtFmt) */
static int write_projection(FILE *f, const struct sp_report *r)
{
	size_t i, n = srep_simpoint__nr_dims(r->sp);
	unsigned c;

	fprintf(f, "%zu:\n", n);
	for (i = 0; i < n; i++) {
		fprintf(f, "%u: ", r->res->dims);
		for (c = 0; c < r->res->dims; c++)
			fprintf(f, "%.17g ", r->res->projection[i * r->res->dims + c]);
		fputc('\n', f);
	}
	return 0;
}

/* every interval's cluster, one per line */
static int write_labels(FILE *f, const struct sp_report *r)
{
	size_t i;

	for (i = 0; i < srep_simpoint__nr_intervals(r->sp); i++)
		fprintf(f, "%d\n", srep_simpoint__interval(r->sp, i)->cluster);
	return 0;
}

/* "INDEX START END TIME_NS CLUSTER THREADS" per interval: the phases over time */
static int write_intervals(FILE *f, const struct sp_report *r)
{
	const struct srep_simpoint_interval *iv;
	size_t i, t;

	fprintf(f, "# index start end time_ns cluster threads (start, end in %s)\n", r->ev->unit);
	for (i = 0; i < srep_simpoint__nr_intervals(r->sp); i++) {
		iv = srep_simpoint__interval(r->sp, i);
		fprintf(f, "%zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %d ", i, iv->start, iv->end,
			iv->time_ns, iv->cluster);
		for (t = 0; t < iv->nr_threads; t++)
			fprintf(f, "%s%" PRId32, t ? "," : "", iv->threads[t]);
		fputc('\n', f);
	}
	return 0;
}

/* the chosen points in execution order */
static int by_start(const void *a, const void *b)
{
	const struct srep_simpoint_point *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void write_plan_point(FILE *f, const struct sp_report *r,
			     const struct srep_simpoint_point *p)
{
	const struct srep_simpoint_interval *iv = srep_simpoint__interval(r->sp, p->index);
	size_t t;

	fprintf(f, "{\"index\":%zu,\"cluster\":%d,\"start\":%" PRIu64 ",\"end\":%" PRIu64
		",\"weight\":%.17g,\"time_ns\":%" PRIu64 ",\"threads\":[", p->index, p->cluster,
		iv->start, iv->end, p->weight, iv->time_ns);
	for (t = 0; t < iv->nr_threads; t++)
		fprintf(f, "%s%" PRId32, t ? "," : "", iv->threads[t]);
	fputs("]}", f);
}

/* the plan the checkpoint command reads; its shape is fixed (docs/simpoint.md) */
static int write_plan(FILE *f, const struct sp_report *r)
{
	size_t i, n = r->res->nr_points;
	struct srep_simpoint_point *pts = malloc((n ? n : 1) * sizeof(*pts));

	if (!pts)
		return -1;
	memcpy(pts, r->res->points, n * sizeof(*pts));
	qsort(pts, n, sizeof(*pts), by_start);
	fputs("{\"version\":1,\"event\":", f);
	sp_json_string(f, r->ev->name);
	fputs(",\"unit\":", f);
	sp_json_string(f, r->ev->unit);
	fprintf(f, ",\"interval\":%" PRIu64 ",\"total\":%" PRIu64 ",\n \"points\":[", r->interval,
		srep_simpoint__total(r->sp));
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		write_plan_point(f, r, &pts[i]);
	}
	fputs("]}\n", f);
	free(pts);
	return 0;
}

void sp_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static int write_one(const char *dir, const char *name, sp_writer w, const struct sp_report *r,
		     struct srep_error *err)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = malloc(len);
	FILE *f;
	int bad, nomem;

	if (!path)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		srep_error__set(err, SREP_E_IO, "%s: %s", path, strerror(errno));
		free(path);
		return SREP_E_IO;
	}
	nomem = w(f, r);
	bad = ferror(f);
	if (fclose(f) || bad)
		srep_error__set(err, SREP_E_IO, "%s: cannot write it", path);
	else if (nomem)
		srep_error__set(err, SREP_E_NOMEM, "%s: no memory to write it", path);
	free(path);
	return err->code;
}

int sp_write_all(const char *dir, const struct sp_report *r, struct srep_error *err)
{
	static const struct { const char *name; sp_writer w; } files[] = {
		{ "simpoints", write_simpoints }, { "weights", write_weights },
		{ "vectors.bb", write_vectors }, { "dims", write_dims },
		{ "projection.txt", write_projection }, { "labels", write_labels },
		{ "intervals.txt", write_intervals },
		{ "summary.txt", sp_write_summary }, { "plan.json", write_plan },
		{ "phases.svg", sp_write_svg },
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (write_one(dir, files[i].name, files[i].w, r, err))
			return err->code;
	return 0;
}
