// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtapp.c - "convert -f rt-app": the selected tasks as an rt-app workload.
 *
 * The plan is replay's (replay/plan.c, through rp_builder): the same
 * default selection, bursts, sleeps and paired wakeups that "schedrep
 * replay" plays as threads, so the file and "replay --dry-run" describe the
 * same actions. The builder follows whole CPUs, so the exporter asks for
 * every event (SREP_EXPORT_EVERY_EVENT) and applies the selection itself;
 * the time window is a trace cut to it. rtapp_write.c writes the plan.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "rtapp.h"

enum {
	OPT_SCALE = 1, OPT_SCALE_RUN, OPT_SCALE_SLEEP, OPT_CPU_MAP, OPT_KEEP_PRIO,
	OPT_CALIBRATION, OPT_EVENT_COST, OPT_DURATION, OPT_LOG_DIR,
};

static const struct srep_export_opt rtapp_options[] = {
	{ "scale", "<f>", "divide every recorded duration by f, as replay does", OPT_SCALE },
	{ "scale-run", "<f>", "divide CPU bursts by f (overrides --scale)", OPT_SCALE_RUN },
	{ "scale-sleep", "<f>", "divide timed sleeps by f (overrides --scale)", OPT_SCALE_SLEEP },
	{ "cpu-map", "<map>", "pin bursts: REC=HOST pairs such as 0=2,1=3 (default none)",
	  OPT_CPU_MAP },
	{ "keep-prio", NULL, "give tasks their recorded policy and priority", OPT_KEEP_PRIO },
	{ "calibration", "<ns>", "rt-app's ns per loop, a fraction kept by scaling the runs "
	  "(default: it calibrates on CPU0)", OPT_CALIBRATION },
	{ "event-cost", "<ns>", "rt-app's own CPU per wait, wake and sleep, taken off the bursts "
	  "before them (default 0)", OPT_EVENT_COST },
	{ "duration", "<s>", "rt-app stops after s seconds; -1: when every task ends "
	  "(default: the span, rounded up, + 1)", OPT_DURATION },
	{ "log-dir", "<dir>", "where rt-app writes its per-task logs (default .)", OPT_LOG_DIR },
	{ NULL, NULL, NULL, 0 },
};

static int rtapp_opts_new(void **out, struct srep_error *err)
{
	struct rtapp_opts *o = calloc(1, sizeof(*o));

	*out = o;
	return o ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory for options");
}

static void rtapp_opts_free(void *opts)
{
	struct rtapp_opts *o = opts;

	if (o)
		free(o->run.map);
	free(o);
}

/* a whole number from 'min' to 'max', or -1 when 'minus_one' */
static int parse_int(const char *arg, int32_t min, bool minus_one, int32_t *out,
		     struct srep_error *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v > INT32_MAX || (v < min && !(minus_one && v == -1)))
		return srep_error__set(err, SREP_E_INVAL, "'%s': expected a whole number from %d "
				       "to %d%s", arg, min, INT32_MAX, minus_one ? ", or -1" : "");
	*out = (int32_t)v;
	return 0;
}

/* ns per loop from 1 to INT32_MAX, a fraction allowed (rtapp_write.c keeps it) */
static int parse_calibration(const char *arg, double *out, struct srep_error *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 1 && v <= INT32_MAX))
		return srep_error__set(err, SREP_E_INVAL, "'%s': expected ns per loop from 1 to "
				       "%d (a fraction allowed)", arg, INT32_MAX);
	*out = v;
	return 0;
}

static int rtapp_opt(void *opts, int id, const char *arg, struct srep_error *err)
{
	struct rtapp_opts *o = opts;

	switch (id) {
	case OPT_SCALE:		return rp_scale__parse(arg, "--scale", &o->scale, err);
	case OPT_SCALE_RUN:	return rp_scale__parse(arg, "--scale-run", &o->scale_run, err);
	case OPT_SCALE_SLEEP:	return rp_scale__parse(arg, "--scale-sleep", &o->scale_sleep, err);
	case OPT_CPU_MAP:
		if (rp_cpu_map__parse(arg, &o->run, err))
			return -1;
		/* the file runs on another machine: "auto" would be this one's CPUs */
		if (o->run.cpu_map == RP_CPU_MAP_AUTO)
			return srep_error__set(err, SREP_E_INVAL, "'auto' means this machine's "
					       "CPUs: name them (0=0,1=1) or say none");
		return 0;
	case OPT_KEEP_PRIO:	o->run.keep_prio = true; return 0;
	case OPT_CALIBRATION:	return parse_calibration(arg, &o->calibration, err);
	case OPT_EVENT_COST:	return parse_int(arg, 0, false, &o->event_cost, err);
	case OPT_DURATION:	return parse_int(arg, 1, true, &o->duration, err);
	case OPT_LOG_DIR:	o->log_dir = arg; return 0;
	}
	return srep_error__set(err, SREP_E_INVAL, "unknown option");
}

struct rtapp {
	const struct srep_export_ctx *ctx;
	struct rtapp_opts defaults;		/* when no option was given */
	const struct rtapp_opts *o;
	struct rp_defaults def;
	struct rp_builder *builder;
	struct emit out;
	bool out_ready;
};

static int rtapp_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	struct rtapp *r = calloc(1, sizeof(*r));
	bool only = ctx->sel && srep_selection__has_only(ctx->sel);
	int ret;

	*state = r;
	if (!r)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the rt-app exporter");
	r->ctx = ctx;
	r->o = ctx->opts ? ctx->opts : &r->defaults;
	/* replay's default selection: no idle task, kernel threads or recorder */
	ret = only ? 0 : rp_defaults__compute(&r->def, ctx->session, err);
	if (!ret)
		ret = rp_builder__new(&r->builder, ctx->session, ctx->sel, only ? NULL : &r->def, err);
	return ret;
}

static int rtapp_event(void *state, const struct srep_event *ev, struct srep_error *err)
{
	struct rtapp *r = state;

	if (ev->time && ev->time < r->ctx->from)
		return 0;
	return rp_builder__event(r->builder, ev, err);
}

static int rtapp_end(void *state, struct srep_error *err)
{
	struct rtapp *r = state;
	const struct rtapp_opts *o = r->o;
	struct rp_plan *p = NULL;
	double run = o->scale_run ? o->scale_run : o->scale ? o->scale : 1;
	double sleep = o->scale_sleep ? o->scale_sleep : o->scale ? o->scale : 1;
	int ret;

	ret = rp_builder__finish(r->builder, &p, err);
	if (!ret)
		ret = rp_plan__scale(p, run, sleep, err);
	if (!ret && !p->nr_tasks)
		ret = srep_error__set(err, SREP_E_SELECT, "no selected task ever ran: nothing for "
				      "rt-app to run (schedrep replay --dry-run shows the selection)");
	if (!ret && emit_init(&r->out, r->ctx->out))
		ret = srep_error__set(err, SREP_E_NOMEM, "no memory for the output");
	r->out_ready = !ret;
	if (!ret)
		ret = rtapp_write(&r->out, p, o, err);
	if (!ret && emit_flush(&r->out))
		ret = emit_error(&r->out, err);
	rp_plan__delete(p);
	return ret;
}

static void rtapp_destroy(void *state)
{
	struct rtapp *r = state;

	if (!r)
		return;
	if (r->out_ready)
		emit_free(&r->out);
	rp_builder__delete(r->builder);
	rp_defaults__free(&r->def);
	free(r);
}

const struct srep_exporter srep_exporter_rtapp = {
	.name = "rt-app",
	.suffix = ".rtapp.json",
	.summary = "a workload for rt-app 1.0: replay's plan (docs/rtapp.md)",
	.flags = SREP_EXPORT_PRESCAN | SREP_EXPORT_EVERY_EVENT | SREP_EXPORT_WHOLE_TASKS,
	.options = rtapp_options,
	.opts_new = rtapp_opts_new,
	.opt = rtapp_opt,
	.opts_free = rtapp_opts_free,
	.begin = rtapp_begin,
	.event = rtapp_event,
	.end = rtapp_end,
	.destroy = rtapp_destroy,
};
