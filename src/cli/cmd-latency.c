// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-latency.c - "schedrep latency": per task (or per comm) runtime,
 * measured scheduling delays, average and maximum delay, in the table
 * 'perf sched latency' prints (docs/man/schedrep-latency.1.md); the
 * accounting is the library's (srep_latency).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfopts.h"

static const char lat_usage[] =
	"usage: schedrep latency [-i <file>] [-o <file>] [--json] [--perf <version>] "
	"[-s <keys>] [-p] [--by-comm] [--only <sel>]... [--exclude <sel>]... [--children] "
	"[--time <from,to>] [-C <list>] [-q] [<perf.data>]";
static const char lat_desc[] =
	"Scheduling delays per task as 'perf sched latency' prints them: runtime (from\n"
	"sched_stat_runtime), the number of delays measured (perf's \"Switches\"), their\n"
	"average and maximum and when the longest began and ended. Rows merge tasks of\n"
	"the same name unless -p. --cpu keeps switches and runtime on those CPUs.";

enum { OPT_SORT = 1, OPT_PIDS, OPT_BY_COMM };

static const struct cli_opt lat_opts[] = {
	PERF_IO_OPTIONS,
	{ "sort", 's', "<keys>", "sort by avg, max, switch, runtime, pid (default avg,max,switch,runtime)",
	  OPT_SORT },
	{ "pids", 'p', NULL, "one row per task (perf's -p), not per comm", OPT_PIDS },
	{ "by-comm", 0, NULL, "one row per comm, tasks of one name merged (the default)", OPT_BY_COMM },
	PERF_FILTER_OPTIONS,
	{ NULL, 0, NULL, NULL, 0 },
};

struct lat_cli {
	struct perf_args a;
	const char *sort;
	bool per_task;
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct lat_cli *o = ctx;
	int ret;

	if (perf_args_opt(&o->a, id, arg, lat_usage, &ret))
		return ret;
	if (id == OPT_SORT)
		o->sort = arg;
	else if (id == OPT_PIDS)
		o->per_task = true;
	else if (id == OPT_BY_COMM)
		o->per_task = false;
	return EXIT_OK;
}

static void print_row(FILE *f, const struct srep_latency_row *r)
{
	char name[64], start[32], end[32];
	int n;

	if (r->nr_tasks > 1)
		n = snprintf(name, sizeof(name), "  %s:(%" PRIu32 ") ", r->comm, r->nr_tasks);
	else
		n = snprintf(name, sizeof(name), "  %s:%" PRId32 " ", r->comm, r->tid);
	perf_usec(start, sizeof(start), r->max_start);
	perf_usec(end, sizeof(end), r->max_end);
	fprintf(f, "%s%*s|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | "
		"max start: %12s s | max end: %12s s\n", name, n < 24 ? 24 - n : 0, "",
		(double)r->runtime_ns / 1e6, r->delays,
		(double)(r->delay_total_ns / r->delays) / 1e6, (double)r->delay_max_ns / 1e6,
		start, end);
}

/* perf's print_bad_events, plus the switch count so that none is hidden */
static void print_info(FILE *f, const struct srep_latency_totals *t)
{
	if (t->unordered && t->timestamps)
		fprintf(f, "  INFO: %.3f%% unordered timestamps (%" PRIu64 " out of %" PRIu64 ")\n",
			(double)t->unordered / (double)t->timestamps * 100.0, t->unordered,
			t->timestamps);
	if (t->lost && t->records)
		fprintf(f, "  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64
			", in %" PRIu64 " chunks)\n", (double)t->lost / (double)t->records * 100.0,
			t->lost, t->records, t->lost_chunks);
	if (t->switch_bugs && t->timestamps)
		fprintf(f, "  INFO: %.3f%% context switch bugs (%" PRIu64 " out of %" PRIu64 ")%s\n",
			(double)t->switch_bugs / (double)t->timestamps * 100.0, t->switch_bugs,
			t->timestamps, t->lost ? " (due to lost events?)" : "");
}

static void print_text(FILE *f, const struct srep_latency *l, enum srep_perf_dialect d)
{
	const struct srep_latency_totals *t = srep_latency__totals(l);
	size_t i, n = srep_latency__nr_rows(l);
	static const char rule[] = " -----------------------------------------------------------"
		"--------------------------------------------------------------------------------\n";

	fprintf(f, "\n%s", rule);
	fprintf(f, "  Task                  |   Runtime ms  | %s | Avg delay ms    | Max delay ms    "
		"| Max delay start           | Max delay end          |\n",
		d == SREP_PERF_6_1 ? "Switches" : " Count  ");
	fputs(rule, f);
	for (i = 0; i < n; i++)
		print_row(f, srep_latency__row(l, i));
	fprintf(f, " %.113s\n", rule + 1);
	fprintf(f, "  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n",
		(double)t->runtime_ns / 1e6, t->delays);
	fprintf(f, " %.51s\n", rule + 1);
	print_info(f, t);
	fputc('\n', f);
}

static void print_json(FILE *f, const struct srep_latency *l, const struct lat_cli *o)
{
	const struct srep_latency_totals *t = srep_latency__totals(l);
	const struct srep_latency_row *r;
	size_t i, n = srep_latency__nr_rows(l);

	fprintf(f, "{\"command\":\"latency\",\"perf\":\"%s\",\"per_task\":%s,\"rows\":[",
		srep_perf_dialect__name(o->a.dialect), o->per_task ? "true" : "false");
	for (i = 0; i < n; i++) {
		r = srep_latency__row(l, i);
		fprintf(f, "%s\n{\"comm\":", i ? "," : "");
		perf_json_str(f, r->comm);
		if (r->tid >= 0)
			fprintf(f, ",\"tid\":%" PRId32, r->tid);
		else
			fprintf(f, ",\"tid\":null");
		fprintf(f, ",\"tasks\":%" PRIu32 ",\"runtime_ns\":%" PRIu64 ",\"delays\":%" PRIu64
			",\"avg_delay_ns\":%" PRIu64 ",\"max_delay_ns\":%" PRIu64
			",\"max_delay_start_ns\":%" PRIu64 ",\"max_delay_end_ns\":%" PRIu64 "}",
			r->nr_tasks, r->runtime_ns, r->delays, r->delay_total_ns / r->delays,
			r->delay_max_ns, r->max_start, r->max_end);
	}
	fprintf(f, "],\n\"total\":{\"runtime_ns\":%" PRIu64 ",\"delays\":%" PRIu64 "},\n"
		"\"problems\":{\"context_switch_bugs\":%" PRIu64 ",\"switches\":%" PRIu64
		",\"timestamps\":%" PRIu64 ",\"unordered_timestamps\":%" PRIu64
		",\"lost_events\":%" PRIu64 ",\"lost_chunks\":%" PRIu64 ",\"records\":%" PRIu64 "}}\n",
		t->runtime_ns, t->delays, t->switch_bugs, t->switches, t->timestamps, t->unordered,
		t->lost, t->lost_chunks, t->records);
}

static int run(struct srep_session *s, struct srep_latency *l, struct srep_error *err)
{
	const struct srep_event *ev;
	struct cli_progress prog;
	int ret;

	cli_progress_init(&prog, "reading", s, NULL);
	while ((ret = cli_next_event(&prog, s, &ev, err)) > 0) {
		if (cli_interrupted) {
			ret = srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
			break;
		}
		ret = srep_latency__add(l, ev, err);
		if (ret)
			break;
	}
	cli_progress_done(&prog);
	return ret;
}

static int latency(void *ctx, struct srep_session *s, const struct srep_perf_filter *f)
{
	struct lat_cli *o = ctx;
	struct srep_latency_opts lo = { .dialect = o->a.dialect, .per_task = o->per_task,
					.filter = *f };
	struct srep_latency *l = NULL;
	struct srep_error err = { 0 };
	struct cli_out out;
	int ret;

	if (srep_latency__new(&l, s, &lo, &err) || run(s, l, &err) ||
	    srep_latency__finish(l, o->sort, &err) ||
	    cli_out_open(&out, o->a.output, o->a.input, &err)) {
		srep_latency__delete(l);
		return err.code == SREP_E_INTERRUPTED ? EXIT_INTERRUPTED : cli_error(&err);
	}
	if (o->a.json)
		print_json(out.f, l, o);
	else
		print_text(out.f, l, o->a.dialect);
	ret = cli_out_commit(&out, &err) ? cli_error(&err) : EXIT_OK;
	if (ret)
		cli_out_abort(&out);
	if (!cli_quiet && srep_latency__totals(l)->switch_bugs)
		cli_errorf("%" PRIu64 " context switch bugs: switches out of a task the CPU was "
			   "not running (docs/perf-commands.md)", srep_latency__totals(l)->switch_bugs);
	srep_latency__delete(l);
	return ret;
}

int cmd_latency(int argc, char **argv)
{
	static const struct perf_cmd cmd = { lat_usage, lat_desc, lat_opts, on_opt, latency,
					     SREP_LATENCY_EVENTS };
	struct lat_cli o = { .sort = NULL };

	return perf_cmd_main(&cmd, &o.a, &o, argc, argv);
}
