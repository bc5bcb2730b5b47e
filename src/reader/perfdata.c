// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfdata.c - perf.data as an input format of the session (struct
 * reader_format): the header (header.c), the record stream in time order
 * (records.c) and the neutral events made of them (model.c); tracepoint
 * fields through libtraceevent (tp.c).
 */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* perf.data is what is left once JSON declined: header_read() names a bad magic */
static bool perfdata_sniff(struct srep_session *s)
{
	(void)s;
	return true;
}

static void set_clock(struct srep_session *s)
{
	if (s->meta.clockid < 0 && s->nr_evsels &&
	    attr_flag(&s->evsels[0].attr, ATTR_F_USE_CLOCKID))
		s->meta.clockid = s->evsels[0].attr.clockid;
}

static int perfdata_open(struct srep_session *s, struct srep_error *err)
{
	int ret = tp_ctx_new(&s->tp, err);

	if (!ret)
		ret = header_read(s, err);
	if (ret)
		return ret;
	set_clock(s);
	s->pos = s->data_start;
	return s->dir && !s->pipe ? streams_init(s, s->dir, err) : 0;
}

static void perfdata_free(struct srep_session *s)
{
	streams_free(s);	/* the main stream's state back in the session */
	tp_ctx_free(s->tp);
	decomp_free(s->dc);
}

static int perfdata_next(struct srep_session *s, struct srep_error *err)
{
	const struct order_entry *e = NULL;
	bool has_event;
	int ret;

	for (;;) {
		if (s->pop_pending) {
			order_pop(&s->q);
			s->pop_pending = false;
		}
		ret = records_next(s, &e, err);
		if (ret <= 0)
			return ret;
		ret = model_decode(s, e, &has_event, err);
		if (ret)
			return ret;
		if (has_event)
			return 1;
	}
}

static int perfdata_rewind(struct srep_session *s, struct srep_error *err)
{
	size_t i;

	(void)err;
	records_reset(s);
	model_reset(s);
	task_table_reset(&s->tasks);
	for (i = 0; i < s->nr_evsels; i++)
		s->evsels[i].nr_samples = s->evsels[i].nr_lost_samples = 0;
	s->rewound = true;
	return 0;
}

/*
 * The union of the loss intervals needs them all: computed when asked for.
 * The tracing data is parsed once, at open: its damage outlives rewinds.
 */
static void perfdata_update_stats(struct srep_session *s)
{
	s->stats.lost_time_ns = model_lost_time(s);
	s->stats.skipped_formats = s->skipped_formats;
	s->stats.skipped_printk = s->skipped_printk;
}

static int perfdata_evsel_nr_fields(const struct srep_session *s, size_t idx)
{
	return idx < s->nr_evsels ? tp_nr_fields(s->evsels[idx].tp) : 0;
}

static int perfdata_evsel_field(const struct srep_session *s, size_t idx, int field,
				struct srep_field *out)
{
	return idx < s->nr_evsels ? tp_field_info(s->evsels[idx].tp, field, out) : SREP_E_INVAL;
}

static int perfdata_nr_fields(const struct ev_fields *f)
{
	return tp_nr_fields(f->tpe);
}

static int perfdata_field(const struct ev_fields *f, int idx, struct srep_field *out)
{
	return tp_field(f->tpe, f->raw, f->raw_size, idx, out);
}

static int perfdata_field_by_name(const struct ev_fields *f, const char *name,
				  struct srep_field *out)
{
	return tp_field_by_name(f->tpe, f->raw, f->raw_size, name, out);
}

static int perfdata_print(const struct ev_fields *f, int32_t cpu, char *buf, size_t size)
{
	return tp_print(f->tpe, f->raw, f->raw_size, cpu, buf, size);
}

const struct reader_format perfdata_format = {
	.name = "perf.data",
	.tasks_need_pass = true,
	.sniff = perfdata_sniff,
	.open = perfdata_open,
	.free = perfdata_free,
	.next = perfdata_next,
	.count = records_count_all,
	.rewind = perfdata_rewind,
	.update_stats = perfdata_update_stats,
	.evsel_nr_fields = perfdata_evsel_nr_fields,
	.evsel_field = perfdata_evsel_field,
	.nr_fields = perfdata_nr_fields,
	.field = perfdata_field,
	.field_by_name = perfdata_field_by_name,
	.print = perfdata_print,
};
