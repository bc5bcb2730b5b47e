// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay-print.c - the plan of "schedrep replay --dry-run" and the fidelity
 * table printed after a replay (docs/man/schedrep-replay.1.md shows both).
 */
#include <inttypes.h>
#include <math.h>

#include "replay-print.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void print_selection(FILE *f, const struct rp_plan *p, const struct replay_choice *c)
{
	const struct rp_defaults *d = c->def;

	if (!d) {
		fprintf(f, "selection: --only\n");
	} else {
		fprintf(f, "selection: everything except the idle task (%zu), kernel threads (%zu)",
			d->nr_idle, d->nr_kernel);
		if (d->recorder_pid > 0)
			fprintf(f, " and the recording tool: pid %d (%zu threads)", d->recorder_pid,
				d->nr_recorder);
		else
			fprintf(f, "; no recording tool found");
		fprintf(f, "\n");
	}
	fprintf(f, "tasks:     %zu to replay (%zu in the trace, %zu selected, %zu never ran)\n",
		p->nr_tasks, c->nr_trace_tasks, p->nr_selected, p->nr_selected - p->nr_tasks);
}

static void print_task(FILE *f, const struct rp_plan *p, const struct rp_task *t)
{
	char by[24];

	if (t->spawner >= 0)
		snprintf(by, sizeof(by), "fork by %d", p->tasks[t->spawner].tid);
	else
		snprintf(by, sizeof(by), "at its time");
	fprintf(f, "%8d %8d  %-16s %10.6f %10.3f %10.3f %6zu %6zu %6zu %6zu %6zu %5s  %s\n",
		t->tid, t->pid, t->comm, (double)(t->start - p->origin) / 1e9,
		ms(t->end - t->start), ms(t->cpu_ns), rp_task__count(t, RP_RUN),
		rp_task__count(t, RP_SLEEP), rp_task__count(t, RP_WAIT), rp_task__count(t, RP_WAKE),
		rp_task__count(t, RP_SPAWN), t->exited ? "yes" : "no", by);
}

void replay_print_plan(FILE *f, const struct rp_plan *p, const struct replay_choice *c)
{
	uint64_t cpu = 0, expected_cpu = 0;
	size_t i;

	fprintf(f, "trace:     %s\n", c->trace);
	print_selection(f, p, c);
	fprintf(f, "\n%8s %8s  %-16s %10s %10s %10s %6s %6s %6s %6s %6s %5s  %s\n", "tid", "pid",
		"comm", "start s", "span ms", "cpu ms", "run", "sleep", "wait", "wake", "spawn",
		"exit", "started");
	for (i = 0; i < p->nr_tasks; i++) {
		print_task(f, p, &p->tasks[i]);
		cpu += p->tasks[i].cpu_ns;
		expected_cpu += p->tasks[i].expected_cpu;
	}
	fprintf(f, "\nactions:   %zu, of which %" PRIu32 " paired wakeups\n", p->nr_actions, p->nr_wakes);
	fprintf(f, "recorded:  cpu %.3f ms, span %.3f ms\n", ms(cpu), ms(p->end - p->origin));
	fprintf(f, "scale:     run %g, sleep %g\n", p->scale_run, p->scale_sleep);
	fprintf(f, "expected:  cpu %.3f ms, span %.3f ms\n", ms(expected_cpu), ms(p->expected_span));
}

static void print_pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %+7.1f%%", v);
}

static void print_us(FILE *f, double ns)
{
	if (isnan(ns))
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %9.1f", ns / 1e3);
}

static void print_row(FILE *f, const struct rp_report_row *row)
{
	const struct rp_task *t = row->task;
	static const char *const state[] = { "not started", "stopped", "" };

	fprintf(f, "%8d  %-16s %10.3f %10.3f", t->tid, t->comm, ms(t->expected_cpu),
		ms(row->replayed_cpu));
	print_pct(f, row->cpu_error_pct);
	fprintf(f, " %10.3f %10.3f", ms(t->expected_span), ms(row->replayed_span));
	print_pct(f, row->span_error_pct);
	fprintf(f, " %5" PRIu32 " %7.1f", t->nr_waits + t->nr_sleeps, row->replayed_wakeups);
	print_us(f, row->recorded_latency);
	print_us(f, row->replayed_latency);
	fprintf(f, "%s%s\n", row->res->state == RP_DONE ? "" : "  ", state[row->res->state]);
}

void replay_print_report(FILE *f, const struct rp_report *rep, const struct rp_plan *p,
			 const char *trace, unsigned runs)
{
	size_t i;

	fprintf(f, "replay of %s: %zu tasks, scale run %g sleep %g, %u run%s%s\n\n", trace,
		rep->nr_rows, p->scale_run, p->scale_sleep, runs, runs == 1 ? "" : "s",
		rep->complete ? "" : ", interrupted (partial figures)");
	fprintf(f, "%8s  %-16s %10s %10s %9s %10s %10s %9s %5s %7s %9s %9s\n", "tid", "comm",
		"cpu ms", "replayed", "error", "span ms", "replayed", "error", "wakes", "replayed",
		"lat us", "replayed");
	for (i = 0; i < rep->nr_rows; i++)
		print_row(f, &rep->rows[i]);
	fprintf(f, "\n(cpu ms and span ms: recorded, divided by the scale factors)\n");
	fprintf(f, "cpu time:  expected %.3f ms, replayed %.3f ms; per-task error: median",
		ms(rep->expected_cpu), ms(rep->replayed_cpu));
	print_pct(f, rep->median_cpu_error_pct);
	fprintf(f, ", p95");
	print_pct(f, rep->p95_cpu_error_pct);
	fprintf(f, " (%zu tasks)\nspan:      expected %.3f ms, replayed %.3f ms, error",
		rep->nr_compared, ms(rep->expected_span), ms(rep->replayed_span));
	print_pct(f, rep->span_error_pct);
	fprintf(f, "\n");
}
