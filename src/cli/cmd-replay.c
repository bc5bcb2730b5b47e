// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-replay.c - "schedrep replay": replay selected tasks of a trace as
 * mockup threads, at a chosen speed, and say how faithful it was. The work
 * is in replay/ (docs/replay.md); this file parses options and speaks.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "perfopts.h"
#include "replay-print.h"

static const char replay_usage[] =
	"usage: schedrep replay [--only <sel>]... [--exclude <sel>]... [--children] [--scale <f>] "
	"[--scale-run <f>] [--scale-sleep <f>] [--cpu-map auto|none|<list>] [--keep-prio] "
	"[--repeat <n>] [--dry-run] [--report <file.json>] [--max-threads <n>] [--time <from,to>] "
	"[-q] [-i <file>] [<trace>]";
static const char replay_desc[] =
	"Replay the selected tasks of a trace (perf.data of any architecture, or\n"
	"schedrep JSON) as threads that burn the recorded CPU time, wake each other\n"
	"as recorded and sleep as recorded, then compare what they did with the\n"
	"trace. Without --only: every task except the idle task, kernel threads and\n"
	"the recording tool (--dry-run shows what was left out). --time replays what\n"
	"the tasks did in that window only. --cpu is refused: a replayed task is whole\n"
	"(its runs on every CPU; --cpu-map places them), and --only selects tasks.";

enum {
	OPT_ONLY = 1, OPT_EXCLUDE, OPT_CHILDREN, OPT_SCALE, OPT_SCALE_RUN, OPT_SCALE_SLEEP,
	OPT_CPU_MAP, OPT_KEEP_PRIO, OPT_REPEAT, OPT_DRY_RUN, OPT_REPORT, OPT_MAX_THREADS, OPT_QUIET, OPT_INPUT,
};

static const struct cli_opt replay_opts[] = {
	{ "only", 0, "<sel>", "replay tasks matching a pid, tid:N, comm or glob; repeatable", OPT_ONLY },
	{ "exclude", 0, "<sel>", "leave these tasks out; repeatable", OPT_EXCLUDE },
	{ "children", 0, NULL, "with --only: also the descendants of the matched tasks", OPT_CHILDREN },
	{ "scale", 0, "<f>", "divide every recorded duration by f (10: ten times faster)", OPT_SCALE },
	{ "scale-run", 0, "<f>", "divide CPU bursts by f (overrides --scale)", OPT_SCALE_RUN },
	{ "scale-sleep", 0, "<f>", "divide timed sleeps by f (overrides --scale)", OPT_SCALE_SLEEP },
	{ "cpu-map", 0, "<map>", "none (default), auto (recorded CPU modulo host CPUs) or 0=2,1=3",
	  OPT_CPU_MAP },
	{ "keep-prio", 0, NULL, "apply the recorded nice and RT priorities", OPT_KEEP_PRIO },
	{ "repeat", 0, "<n>", "replay n times; figures are means over the runs", OPT_REPEAT },
	{ "dry-run", 0, NULL, "print the plan, replay nothing", OPT_DRY_RUN },
	{ "report", 0, "<file.json>", "also write the report as JSON ('-': instead of the table)",
	  OPT_REPORT },
	{ "max-threads", 0, "<n>", "refuse to start more than n threads (default 1024)",
	  OPT_MAX_THREADS },
	PERF_WINDOW_OPTIONS,
	{ "quiet", 'q', NULL, "no warnings or progress on stderr", OPT_QUIET },
	CLI_INPUT_OPTION(OPT_INPUT),
	{ NULL, 0, NULL, NULL, 0 },
};

struct replay_opts {
	const char *input;
	struct srep_selection *sel;
	bool has_only, dry_run;
	double scale, scale_run, scale_sleep;	/* 0: not given */
	struct rp_run_opts run;
	const char *report;
	struct perf_window win;
};

static int parse_count(const char *arg, const char *what, size_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = arg[0] >= '0' && arg[0] <= '9' ? strtoul(arg, &end, 10) : 0;
	if (!v || errno || *end || v > UINT_MAX)
		return cli_usage_error(replay_usage, "%s '%s': expected a whole number from 1 to %u",
				       what, arg, UINT_MAX);
	*out = v;
	return EXIT_OK;
}

static int usage_from(const struct srep_error *err)
{
	return cli_usage_error(replay_usage, "%s", err->msg);
}

static int on_scale(int id, const char *arg, struct replay_opts *o)
{
	static const char *const names[] = { "--scale", "--scale-run", "--scale-sleep" };
	double *dst[] = { &o->scale, &o->scale_run, &o->scale_sleep };
	struct srep_error err = { 0 };
	int i = id - OPT_SCALE;

	return rp_scale__parse(arg, names[i], dst[i], &err) ? usage_from(&err) : EXIT_OK;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct replay_opts *o = ctx;
	struct srep_error err = { 0 };
	size_t n;
	int ret = EXIT_OK;

	if (perf_window_opt(&o->win, id, arg, replay_usage, &ret))
		return ret;
	switch (id) {
	case OPT_ONLY:
		o->has_only = true;
		return srep_selection__add_only(o->sel, arg, &err) ? usage_from(&err) : EXIT_OK;
	case OPT_EXCLUDE:
		return srep_selection__add_exclude(o->sel, arg, &err) ? usage_from(&err) : EXIT_OK;
	case OPT_CHILDREN:	srep_selection__set_children(o->sel, true); break;
	case OPT_SCALE:
	case OPT_SCALE_RUN:
	case OPT_SCALE_SLEEP:	return on_scale(id, arg, o);
	case OPT_CPU_MAP:
		return rp_cpu_map__parse(arg, &o->run, &err) ? usage_from(&err) : EXIT_OK;
	case OPT_KEEP_PRIO:	o->run.keep_prio = true; break;
	case OPT_REPEAT:
		ret = parse_count(arg, "--repeat", &n);
		o->run.repeat = (unsigned)n;
		break;
	case OPT_DRY_RUN:	o->dry_run = true; break;
	case OPT_REPORT:	o->report = arg; break;
	case OPT_MAX_THREADS:	ret = parse_count(arg, "--max-threads", &o->run.max_threads); break;
	case OPT_QUIET:		cli_quiet = true; break;
	case OPT_INPUT:		o->input = arg; break;
	}
	return ret;
}

/*
 * rp_plan__build() for the events of the --time window: the builder gets no
 * event before it (as if the trace began there; the records synthesized at
 * the start, untimed, still name the tasks) and none after it
 */
static int build_plan(struct rp_plan **out, struct srep_session *s, const struct replay_opts *o,
		      const struct rp_defaults *def, struct srep_error *err)
{
	struct srep_perf_filter f = { .sel = NULL };
	struct rp_builder *rb = NULL;
	const struct srep_event *ev;
	int ret;

	*out = NULL;
	ret = perf_window_resolve(&o->win, s, &f, err);
	if (!ret)
		ret = rp_builder__new(&rb, s, o->sel, def, err);
	while (!ret && (ret = srep_session__next_event(s, &ev, err)) > 0)
		ret = !ev->time || srep_perf_filter__has_event(&f, ev) ?
		      rp_builder__event(rb, ev, err) : 0;
	if (!ret)
		ret = rp_builder__finish(rb, out, err);
	rp_builder__delete(rb);
	return ret;
}

/* the plan: tasks chosen, events read, durations scaled */
static int make_plan(struct replay_opts *o, const char *path, struct rp_plan **plan,
		     struct replay_choice *choice, struct rp_defaults *def)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN, .diag = cli_diag };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	int ret;

	ret = srep_session__open(&s, path, &oo, &err);
	if (!ret)
		ret = srep_selection__resolve(o->sel, s, &err);
	if (!ret && !o->has_only)
		ret = rp_defaults__compute(def, s, &err);
	if (!ret)
		ret = build_plan(plan, s, o, o->has_only ? NULL : def, &err);
	if (!ret)
		ret = rp_plan__scale(*plan, o->scale_run ? o->scale_run : o->scale ? o->scale : 1,
				     o->scale_sleep ? o->scale_sleep : o->scale ? o->scale : 1, &err);
	choice->trace = path;
	choice->nr_trace_tasks = s ? srep_session__nr_tasks(s) : 0;
	choice->def = o->has_only ? NULL : def;
	srep_session__delete(s);
	if (ret)
		return cli_error(&err);
	if (!(*plan)->nr_tasks && !o->dry_run) {
		cli_errorf("'%s': no selected task ever ran: nothing to replay (--dry-run shows the "
			   "selection)", path);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* SIGINT/SIGTERM during the run stop the mockups; the partial report follows */
static struct rp_runner *running;

static void on_stop_signal(int sig)
{
	(void)sig;
	cli_interrupted = 1;
	if (running)
		rp_runner__stop(running);
}

static void catch_stop(struct rp_runner *r)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	running = r;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int write_report(const struct replay_opts *o, const struct rp_report *rep,
			const struct rp_plan *p, const char *trace)
{
	struct srep_error err = { 0 };
	struct cli_out out;
	char *json = rp_report__json(rep, p, &o->run, trace);

	if (!json) {
		cli_errorf("no memory for the JSON report");
		return EXIT_FAIL;
	}
	if (cli_out_open(&out, o->report, trace, &err) == 0) {
		fputs(json, out.f);
		fputc('\n', out.f);
		cli_out_commit(&out, &err);
	}
	free(json);
	return err.code ? cli_error(&err) : EXIT_OK;
}

static int replay(const struct replay_opts *o, struct rp_plan *p, const char *trace)
{
	struct rp_runner *r = NULL;
	struct rp_result res = { 0 };
	struct rp_report rep = { 0 };
	struct srep_error err = { 0 };
	int ret, status;

	ret = rp_runner__new(&r, p, &o->run, &err);
	if (ret)
		return cli_error(&err);
	catch_stop(r);		/* before the line saying so: scripts wait for it */
	if (!cli_quiet)
		fprintf(stderr, "schedrep: replaying %zu tasks, expected span %.3f s\n", p->nr_tasks,
			(double)p->expected_span / 1e9);
	ret = rp_runner__run(r, &res, &err);
	cli_signals_install();	/* from here on, Ctrl-C only removes a half-written report */
	running = NULL;
	status = ret ? cli_error(&err) : res.interrupted ? EXIT_INTERRUPTED : EXIT_OK;
	if (rp_report__build(&rep, p, &res, &err) == 0) {
		if (!o->report || strcmp(o->report, "-"))
			replay_print_report(stdout, &rep, p, trace, res.runs_done + !rep.complete);
		if (o->report && (ret = write_report(o, &rep, p, trace)) && status == EXIT_OK)
			status = ret;
	} else if (status == EXIT_OK) {
		status = cli_error(&err);
	}
	rp_report__free(&rep);
	rp_result__free(&res);
	rp_runner__delete(r);
	return status;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_opts o = { .run = { .cpu_map = RP_CPU_MAP_NONE } };
	struct replay_choice choice = { 0 };
	struct rp_defaults def = { 0 };
	struct rp_plan *plan = NULL;
	struct srep_error err = { 0 };
	const char *path = NULL;
	int first, ret;
	bool done;

	if (srep_selection__new(&o.sel, &err))
		return cli_error(&err);
	ret = cli_parse(argc, argv, replay_usage, replay_desc, replay_opts, on_opt, &o, &first, &done);
	if (!ret && !done)
		ret = cli_one_trace(argc, argv, first, o.input, replay_usage, &path);
	/* the report compares a replay with its recording: a dry run has nothing to report */
	if (!ret && !done && o.win.cpus)
		ret = cli_usage_error(replay_usage, "--cpu: a replayed task is whole, its runs on "
				      "every CPU (--only selects tasks, --cpu-map places them)");
	if (!ret && !done && o.dry_run && o.report)
		ret = cli_usage_error(replay_usage, "--report describes a replay that ran: not with "
				      "--dry-run");
	if (!ret && !done) {
		cli_signals_install();
		ret = make_plan(&o, path, &plan, &choice, &def);
	}
	if (!ret && !done && plan && o.dry_run)
		replay_print_plan(stdout, plan, &choice);
	else if (!ret && !done && plan)
		ret = replay(&o, plan, path);
	rp_plan__delete(plan);
	rp_defaults__free(&def);
	srep_selection__delete(o.sel);
	perf_window_free(&o.win);
	free(o.run.map);
	return ret;
}
