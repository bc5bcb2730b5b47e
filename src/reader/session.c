// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session.c - the public session API: open, the event iterator, rewinding,
 * and the accessors of everything a session owns. What depends on the
 * input's format goes through its struct reader_format, chosen at open.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* ---- open / delete ---- */

static int session_alloc(struct srep_session **out, const char *path,
			 const struct srep_open_opts *opts, struct srep_error *err)
{
	struct srep_session *s = calloc(1, sizeof(*s));

	if (!s || !(s->path = strdup(path))) {
		free(s);
		/* the code itself, not srep_error__set's return: gcc's LTO cannot see it is non-zero */
		srep_error__set(err, SREP_E_NOMEM, "no memory for a session");
		return SREP_E_NOMEM;
	}
	if (opts)
		s->opts = *opts;
	s->in.fd = -1;
	s->meta.path = s->path;
	s->meta.format = "perf.data";
	s->meta.nr_cpus_avail = s->meta.nr_cpus_online = -1;
	s->meta.total_mem_kb = s->meta.clockid = s->meta.clock_res_ns = -1;
	order_init(&s->q, s->opts.reorder_bytes);
	task_table_init(&s->tasks);
	task_table_init(&s->prescanned);
	loss_tracker_init(&s->loss);
	s->max_cpu = s->max_sample_cpu = -1;
	*out = s;
	return 0;
}

static const struct reader_format *const formats[] = { &jsonin_format, &perfdata_format };

static const struct reader_format *choose_format(struct srep_session *s)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]) - 1; i++)
		if (formats[i]->sniff(s))
			return formats[i];
	return formats[i];
}

/*
 * SREP_OPEN_PRESCAN, when the format needs a pass: read every event once,
 * keep the complete task table (a format whose tasks need one) and the time
 * span for time arguments (the rewind clears the statistics), then rewind.
 */
static int prescan(struct srep_session *s, struct srep_error *err)
{
	const struct srep_event *ev;
	int ret;

	ret = input_spool(&s->in, err);
	if (ret)
		return ret;
	while ((ret = srep_session__next_event(s, &ev, err)) > 0)
		;
	if (ret < 0)
		return ret;
	if (s->fmt->tasks_need_pass) {
		s->prescanned = s->tasks;
		task_table_init(&s->tasks);
		s->has_prescan = true;
	}
	s->span_first = s->stats.first_time;
	s->span_last = s->stats.last_time;
	return srep_session__rewind(s, err);
}

/* a file, a pipe, or a perf.data directory: then DIR/data holds the header */
static int open_input(struct srep_session *s, const char *path, struct srep_error *err)
{
	char *data;
	int ret;

	if (!streams_is_dir(path))
		return input_open(&s->in, path, err);
	if (asprintf(&data, "%s/data", path) < 0)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a path");
	s->dir = path;
	ret = input_open(&s->in, data, err);
	free(data);
	if (ret == SREP_E_IO && err)
		srep_error__set(err, SREP_E_IO, "a directory without a 'data' file: not a perf.data "
				"directory (perf record --threads)");
	return ret;
}

/* the input's bytes are there (s->in): read its header, prescan if asked */
static int open_format(struct srep_session *s, struct srep_error *err)
{
	int ret;

	s->fmt = choose_format(s);
	ret = s->fmt->open(s, err);
	if (ret)
		return ret;
	/* progress counts the events' bytes, not the header features read at the end */
	if (s->in.is_file)
		s->in.consumed = 0;
	if ((s->opts.flags & SREP_OPEN_PRESCAN) && (s->fmt->tasks_need_pass || s->span_unknown))
		return prescan(s, err);
	return 0;
}

int srep_session__open(struct srep_session **out, const char *path,
		       const struct srep_open_opts *opts, struct srep_error *err)
{
	struct srep_session *s = NULL;
	int ret;

	*out = NULL;
	ret = session_alloc(&s, path, opts, err);
	if (ret)
		return ret;
	ret = open_input(s, path, err);
	if (ret) {
		if (err)
			snprintf(err->path, sizeof(err->path), "%s", path);
		goto fail;
	}
	ret = open_format(s, err);
	if (ret)
		goto fail;
	*out = s;
	return 0;
fail:
	srep_session__delete(s);
	return ret;
}

int srep_session__open_mem(struct srep_session **out, const void *buf, size_t len,
			   const char *name, const struct srep_open_opts *opts,
			   struct srep_error *err)
{
	struct srep_session *s = NULL;
	int ret;

	*out = NULL;
	ret = session_alloc(&s, name ? name : "(memory)", opts, err);
	if (ret)
		return ret;
	input_open_mem(&s->in, buf, len);
	ret = open_format(s, err);
	if (ret) {
		srep_session__delete(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* event descriptions and build ids: both formats fill them */
static void free_descriptions(struct srep_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_evsels; i++) {
		free(s->evsels[i].ids);
		free(s->evsels[i].name);
	}
	free(s->evsels);
	free(s->id_keys);
	free(s->id_vals);
	for (i = 0; i < s->nr_build_ids; i++)
		free(s->build_ids[i].filename);
	free(s->build_ids);
}

void srep_session__delete(struct srep_session *s)
{
	if (!s)
		return;
	if (s->fmt)
		s->fmt->free(s);
	free_descriptions(s);
	schedstat_free(s);
	owned_free_all(s);
	order_free(&s->q);
	task_table_free(&s->tasks);
	task_table_free(&s->prescanned);
	input_close(&s->in);
	loss_tracker_free(&s->loss);
	free(s->chain_buf);
	free(s->branch_buf);
	free(s->str_buf);
	free(s->path);
	free(s);
}

/* ---- iteration ---- */

void session_note_span(struct srep_session *s, uint64_t time, int32_t cpu, bool sample)
{
	if (cpu > s->max_cpu)
		s->max_cpu = cpu;
	if (sample && cpu > s->max_sample_cpu)
		s->max_sample_cpu = cpu;
	if (!time)
		return;
	if (!s->stats.first_time || time < s->stats.first_time)
		s->stats.first_time = time;
	if (time > s->stats.last_time)
		s->stats.last_time = time;
}

static void count_event(struct srep_session *s, const struct srep_event *ev)
{
	s->stats.events++;
	session_note_span(s, ev->time, ev->cpu,
			  ev->source == SREP_SRC_TRACEPOINT || ev->source == SREP_SRC_SAMPLE);
}

void srep_session__set_interest(struct srep_session *s, uint32_t kinds)
{
	const uint32_t always = SREP_EV_BIT(SREP_EV_FORK) | SREP_EV_BIT(SREP_EV_EXEC) |
				SREP_EV_BIT(SREP_EV_EXIT) | SREP_EV_BIT(SREP_EV_FREE) |
				SREP_EV_BIT(SREP_EV_COMM);

	s->skip_kinds = ~(kinds | always);
}

int srep_session__next_event(struct srep_session *s, const struct srep_event **out,
			     struct srep_error *err)
{
	int ret = s->fmt->next(s, err);

	if (ret > 0) {
		count_event(s, &s->ev);
		*out = &s->ev;
	}
	return ret;
}

int srep_session__count(struct srep_session *s, struct srep_error *err)
{
	const struct srep_event *ev;
	int ret;

	if (s->fmt->count)
		return s->fmt->count(s, err);
	while ((ret = srep_session__next_event(s, &ev, err)) > 0)
		;
	return ret;
}

int srep_session__rewind(struct srep_session *s, struct srep_error *err)
{
	if (!s->in.is_file)
		return srep_error__set(err, SREP_E_UNSUPPORTED,
				       "a pipe cannot be read twice (open it with SREP_OPEN_PRESCAN)");
	memset(&s->stats, 0, sizeof(s->stats));
	s->in.consumed = 0;	/* progress starts again with the second pass */
	return s->fmt->rewind(s, err);
}

void srep_session__progress(const struct srep_session *s, uint64_t *done, uint64_t *total)
{
	*done = s->in.consumed;
	*total = s->in.is_file ? s->in.size : 0;
}

/* ---- accessors ---- */

const struct srep_meta *srep_session__meta(const struct srep_session *s)
{
	return &s->meta;
}

const struct srep_stats *srep_session__stats(const struct srep_session *s)
{
	struct srep_session *mut = (struct srep_session *)s;

	if (s->fmt->update_stats)
		s->fmt->update_stats(mut);
	return &s->stats;
}

bool srep_stats__damaged(const struct srep_stats *st)
{
	return st->skipped_records || st->skipped_bytes || st->skipped_formats ||
	       st->skipped_printk;
}

int32_t srep_session__max_cpu(const struct srep_session *s)
{
	return s->max_cpu;
}

int32_t srep_session__max_sample_cpu(const struct srep_session *s)
{
	return s->max_sample_cpu;
}

bool srep_session__time_span(const struct srep_session *s, uint64_t *first, uint64_t *last)
{
	/* known from a prescan or a JSON file's first line; else from what was read */
	bool known = s->span_first != 0;

	*first = known ? s->span_first : s->stats.first_time;
	*last = known ? s->span_last : s->stats.last_time;
	return *first != 0;
}

size_t srep_session__nr_evsels(const struct srep_session *s) { return s->nr_evsels; }

const char *srep_session__evsel_name(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels && s->evsels[idx].name ? s->evsels[idx].name : "";
}

uint64_t srep_session__evsel_samples(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels ? s->evsels[idx].nr_samples : 0;
}

uint64_t srep_session__evsel_lost_samples(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels ? s->evsels[idx].nr_lost_samples : 0;
}

uint32_t srep_session__evsel_type(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels ? s->evsels[idx].attr.type : 0;
}

uint64_t srep_session__evsel_config(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels ? s->evsels[idx].attr.config : 0;
}

uint64_t srep_session__evsel_sample_type(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels ? s->evsels[idx].attr.sample_type : 0;
}

uint64_t srep_session__evsel_sample_period(const struct srep_session *s, size_t idx, bool *freq)
{
	const struct perf_attr *a = idx < s->nr_evsels ? &s->evsels[idx].attr : NULL;

	*freq = a && attr_flag(a, ATTR_F_FREQ);
	return a ? a->sample_period : 0;
}

int srep_session__evsel_nr_fields(const struct srep_session *s, size_t idx)
{
	return s->fmt->evsel_nr_fields(s, idx);
}

int srep_session__evsel_field(const struct srep_session *s, size_t idx, int field,
			      struct srep_field *out)
{
	return s->fmt->evsel_field(s, idx, field, out);
}

static const struct task_table *tasks_of(const struct srep_session *s)
{
	return s->has_prescan ? &s->prescanned : &s->tasks;
}

size_t srep_session__nr_tasks(const struct srep_session *s)
{
	return tasks_of(s)->nr;
}

const struct srep_task *srep_session__task(const struct srep_session *s, size_t idx)
{
	return idx < tasks_of(s)->nr ? tasks_of(s)->tasks[idx] : NULL;
}

const struct srep_task *srep_session__find_task(const struct srep_session *s, int32_t tid)
{
	return task_find(tasks_of(s), tid);
}

const struct srep_task *srep_session__parent_task(const struct srep_session *s,
						  const struct srep_task *t)
{
	const struct srep_task *p = NULL;

	if (t->ptid >= 0 && t->ptid != t->tid)
		p = srep_session__find_task(s, t->ptid);
	if (!p && t->ppid >= 0 && t->ppid != t->tid)
		p = srep_session__find_task(s, t->ppid);
	return p != t ? p : NULL;
}

const struct srep_task *srep_session__current_task(const struct srep_session *s, int32_t tid)
{
	return task_find(&s->tasks, tid);
}

const struct srep_open_opts *srep_session__open_opts(const struct srep_session *s)
{
	return &s->opts;
}

size_t srep_session__nr_build_ids(const struct srep_session *s)
{
	return s->nr_build_ids;
}

const struct srep_build_id *srep_session__build_id(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_build_ids ? &s->build_ids[idx] : NULL;
}

const char *srep_session__tracing_kallsyms(const struct srep_session *s, size_t *len)
{
	*len = s->tracing_kallsyms_len;
	return s->tracing_kallsyms_len ? s->tracing_kallsyms : NULL;
}

/* ---- tracepoint fields of an event ---- */

int srep_event__nr_fields(const struct srep_event *ev)
{
	const struct ev_fields *f = ev->priv;

	return f ? f->fmt->nr_fields(f) : 0;
}

int srep_event__field(const struct srep_event *ev, int idx, struct srep_field *out)
{
	const struct ev_fields *f = ev->priv;

	return f ? f->fmt->field(f, idx, out) : SREP_E_INVAL;
}

int srep_event__field_by_name(const struct srep_event *ev, const char *name,
			      struct srep_field *out)
{
	const struct ev_fields *f = ev->priv;

	return f ? f->fmt->field_by_name(f, name, out) : 0;
}

int srep_event__print(const struct srep_event *ev, char *buf, size_t size)
{
	const struct ev_fields *f = ev->priv;

	if (!f || !f->fmt->print)
		return SREP_E_INVAL;
	return f->fmt->print(f, ev->cpu, buf, size);
}

uint64_t srep_field__elem(const struct srep_field *f, uint32_t idx)
{
	uint64_t v = 0;

	if (idx >= f->nr_elems)
		return 0;
	srep_get_uint((const uint8_t *)f->elems + (size_t)idx * f->elem_size, f->elem_size,
		      f->elems_swap, &v);
	return f->elem_signed ? (uint64_t)srep_sign_extend(v, f->elem_size) : v;
}
