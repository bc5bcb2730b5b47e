// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ff-log.c - the plan "schedrep fastforward --plan" reads and the log
 * fastforward.json it writes, both through cJSON (small documents: a
 * DOM is the simple way).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "ff-log.h"

#define PLAN_MAX_BYTES	(64u << 20)	/* a plan of a million points is ~100 MB of JSON; not us */
#define COUNT_MAX	9007199254740992.0	/* 2^53: counts above lose digits in a JSON number */

static int read_all(const char *path, char **out, struct srep_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, got;
	char *buf;

	if (!f)
		return srep_error__set(err, SREP_E_IO, "'%s': %s", path, strerror(errno));
	buf = malloc(PLAN_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	}
	while ((got = fread(buf + n, 1, PLAN_MAX_BYTES + 1 - n, f)) > 0 && n + got <= PLAN_MAX_BYTES)
		n += got;
	if (got > 0 || ferror(f)) {
		fclose(f);
		free(buf);
		return srep_error__set(err, SREP_E_LIMIT, "'%s': %s", path,
				       got > 0 ? "larger than 64 MiB, not a plan" : strerror(errno));
	}
	fclose(f);
	buf[n] = 0;
	*out = buf;
	return 0;
}

static bool count_of(const cJSON *v, uint64_t *out)
{
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > COUNT_MAX ||
	    floor(v->valuedouble) != v->valuedouble)
		return false;
	*out = (uint64_t)v->valuedouble;
	return true;
}

/* insertion into the sorted starts: plans list points by cluster, not by start */
static void insert_sorted(struct ff_plan *p, uint64_t start, int64_t point)
{
	size_t i = p->nr;

	while (i > 0 && p->starts[i - 1] > start) {
		p->starts[i] = p->starts[i - 1];
		p->points[i] = p->points[i - 1];
		i--;
	}
	p->starts[i] = start;
	p->points[i] = point;
	p->nr++;
}

static int plan_points(const char *path, const cJSON *pts, struct ff_plan *p, struct srep_error *err)
{
	size_t n = (size_t)cJSON_GetArraySize(pts), i = 0;
	const cJSON *pt;
	uint64_t start, index;

	p->starts = calloc(n ? n : 1, sizeof(*p->starts));
	p->points = calloc(n ? n : 1, sizeof(*p->points));
	if (!p->starts || !p->points)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	cJSON_ArrayForEach(pt, pts) {
		if (!count_of(cJSON_GetObjectItemCaseSensitive(pt, "start"), &start))
			return srep_error__set(err, SREP_E_JSON, "'%s': point %zu: \"start\" is not a count", path, i);
		if (!count_of(cJSON_GetObjectItemCaseSensitive(pt, "index"), &index))
			index = i;
		insert_sorted(p, start, (int64_t)index);
		i++;
	}
	return 0;
}

int ff_plan_read(const char *path, struct ff_plan *p, struct srep_error *err)
{
	const cJSON *ver, *ev, *pts;
	char *text = NULL;
	cJSON *root;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = read_all(path, &text, err);
	if (ret)
		return ret;
	root = cJSON_Parse(text);
	free(text);
	if (!root)
		return srep_error__set(err, SREP_E_JSON, "'%s': not JSON", path);
	ver = cJSON_GetObjectItemCaseSensitive(root, "version");
	ev = cJSON_GetObjectItemCaseSensitive(root, "event");
	pts = cJSON_GetObjectItemCaseSensitive(root, "points");
	if (!cJSON_IsNumber(ver) || ver->valuedouble != 1)
		ret = srep_error__set(err, SREP_E_JSON, "'%s': not a version 1 plan of 'schedrep simpoint'", path);
	else if (!cJSON_IsArray(pts) || !cJSON_GetArraySize(pts))
		ret = srep_error__set(err, SREP_E_JSON, "'%s': the plan has no \"points\"", path);
	else if (cJSON_IsString(ev) && !(p->event = strdup(ev->valuestring)))
		ret = srep_error__set(err, SREP_E_NOMEM, "no memory");
	else
		ret = plan_points(path, pts, p, err);
	cJSON_Delete(root);
	if (ret)
		ff_plan_free(p);
	return ret;
}

void ff_plan_free(struct ff_plan *p)
{
	free(p->event);
	free(p->starts);
	free(p->points);
	memset(p, 0, sizeof(*p));
}

struct ff_log_entry *ff_log_add(struct ff_log *l)
{
	struct ff_log_entry *n;

	if (l->nr == l->cap) {
		n = realloc(l->e, (l->cap ? l->cap * 2 : 16) * sizeof(*n));
		if (!n)
			return NULL;
		l->e = n;
		l->cap = l->cap ? l->cap * 2 : 16;
	}
	n = &l->e[l->nr++];
	memset(n, 0, sizeof(*n));
	n->point = -1;
	return n;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void ff_log_skid(const struct ff_log *l, int64_t *median, int64_t *max, double *median_frac,
		 double *max_frac)
{
	int64_t *s = malloc((l->nr ? l->nr : 1) * sizeof(*s));
	double *f = malloc((l->nr ? l->nr : 1) * sizeof(*f));
	size_t i;

	*median = *max = 0;
	*median_frac = *max_frac = 0;
	if (s && f && l->nr) {
		for (i = 0; i < l->nr; i++) {
			s[i] = l->e[i].stop.skid;
			f[i] = l->e[i].interval ? (double)s[i] / (double)l->e[i].interval : 0;
		}
		qsort(s, l->nr, sizeof(*s), cmp_i64);
		qsort(f, l->nr, sizeof(*f), cmp_double);
		*median = s[(l->nr - 1) / 2];
		*max = s[l->nr - 1];
		*median_frac = f[(l->nr - 1) / 2];
		*max_frac = f[l->nr - 1];
	}
	free(s);
	free(f);
}

/* "exit_code" or "signal" from a wait status */
static void add_status(cJSON *o, int status)
{
	if (WIFEXITED(status))
		cJSON_AddNumberToObject(o, "exit_code", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		cJSON_AddNumberToObject(o, "signal", WTERMSIG(status));
}

static cJSON *entry_json(const struct ff_log_entry *e)
{
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddNumberToObject(o, "target", (double)e->stop.index + 1);
	if (e->point >= 0)
		cJSON_AddNumberToObject(o, "plan_point", (double)e->point);
	cJSON_AddNumberToObject(o, "requested", (double)e->stop.requested);
	cJSON_AddNumberToObject(o, "reached", (double)e->stop.reached);
	cJSON_AddNumberToObject(o, "skid", (double)e->stop.skid);
	cJSON_AddNumberToObject(o, "interval", (double)e->interval);
	cJSON_AddNumberToObject(o, "stops", e->stop.hops);
	cJSON_AddNumberToObject(o, "wall_ns", (double)e->stop.wall_ns);
	cJSON_AddNumberToObject(o, "processes", e->stop.nr_procs);
	cJSON_AddNumberToObject(o, "threads", e->stop.nr_threads);
	cJSON_AddStringToObject(o, "dir", e->dir ? e->dir : "");
	if (e->command) {
		a = cJSON_AddObjectToObject(o, "action");
		cJSON_AddStringToObject(a, "command", e->command);
		add_status(a, e->action.status);
		cJSON_AddNumberToObject(a, "duration_ns", (double)e->action.ns);
		cJSON_AddStringToObject(a, "output", e->action.output ? e->action.output : "");
	}
	return o;
}

static cJSON *log_json(const struct ff_log *l)
{
	cJSON *root = cJSON_CreateObject(), *arr, *w, *s;
	const struct srep_ff_result *r = l->result;
	int64_t med, max;
	double medf, maxf;
	size_t i;

	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "event", l->event);
	cJSON_AddStringToObject(root, "unit", l->unit);
	cJSON_AddStringToObject(root, "stop_method", l->stop_method);
	arr = cJSON_AddArrayToObject(root, "command");
	for (i = 0; l->argv[i]; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(l->argv[i]));
	arr = cJSON_AddArrayToObject(root, "targets");
	for (i = 0; i < l->nr; i++)
		cJSON_AddItemToArray(arr, entry_json(&l->e[i]));
	ff_log_skid(l, &med, &max, &medf, &maxf);
	s = cJSON_AddObjectToObject(root, "skid");
	cJSON_AddNumberToObject(s, "median", (double)med);
	cJSON_AddNumberToObject(s, "max", (double)max);
	cJSON_AddNumberToObject(s, "median_fraction", medf);
	cJSON_AddNumberToObject(s, "max_fraction", maxf);
	w = cJSON_AddObjectToObject(root, "workload");
	cJSON_AddBoolToObject(w, "running", !r);
	if (r) {
		cJSON_AddNumberToObject(w, "pid", r->pid);
		cJSON_AddBoolToObject(w, "exited", r->exited);
		if (r->exited)
			add_status(w, r->status);
		cJSON_AddNumberToObject(w, "final_count", (double)r->final_count);
		cJSON_AddBoolToObject(w, "interrupted", r->interrupted);
		cJSON_AddBoolToObject(w, "killed", r->killed);
		if (l->gave_up)
			cJSON_AddNumberToObject(w, "exited_before_target", (double)l->missed_target);
	}
	return root;
}

int ff_log_write(const struct ff_log *l, struct srep_error *err)
{
	struct cli_out out;
	int ret = cli_out_open(&out, l->path, NULL, err);

	if (ret)
		return ret;
	if (cli_json_print(out.f, log_json(l))) {
		cli_out_abort(&out);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for '%s'", l->path);
	}
	return cli_out_commit(&out, err);	/* removes the temporary file when it fails */
}

void ff_log_free(struct ff_log *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->e[i].dir);
		free(l->e[i].command);
		srep_ff_action_result_free(&l->e[i].action);
	}
	free(l->e);
	memset(l, 0, sizeof(*l));
}
