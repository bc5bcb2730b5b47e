// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-timehist.c - "schedrep timehist": a line per context switch with the
 * wait time, scheduling delay and run time of the task leaving the CPU, in
 * 'perf sched timehist' layout, and its summaries
 * (docs/man/schedrep-timehist.1.md); the figures are the library's
 * (srep_timehist).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "linebuf.h"
#include "perfopts.h"

static const char th_usage[] =
	"usage: schedrep timehist [-i <file>] [-o <file>] [--json] [--perf <version>] "
	"[-s] [-S] [-w] [-M] [-I] [--state] [--only <sel>]... [--exclude <sel>]... "
	"[--children] [--time <from,to>] [-C <list>] [-q] [<perf.data>]";
static const char th_desc[] =
	"A line per context switch, about the task leaving the CPU, as 'perf sched\n"
	"timehist' prints it: wait time (off the CPU before this run), scheduling delay\n"
	"(from wakeup to switch-in) and run time. -w adds wakeups, -M migrations; -s\n"
	"prints only the per-task summary, -S adds it after the lines.";

enum { OPT_SUMMARY = 1, OPT_WITH_SUMMARY, OPT_WAKEUPS, OPT_MIGRATIONS, OPT_IDLE, OPT_STATE };

static const struct cli_opt th_opts[] = {
	PERF_IO_OPTIONS,
	{ "summary", 's', NULL, "only the summary: runs, run time and its spread per task", OPT_SUMMARY },
	{ "with-summary", 'S', NULL, "the lines, then the summary", OPT_WITH_SUMMARY },
	{ "wakeups", 'w', NULL, "a line per wakeup", OPT_WAKEUPS },
	{ "migrations", 'M', NULL, "a line per migration (and count them in the summary)",
	  OPT_MIGRATIONS },
	{ "idle-hist", 'I', NULL, "only idle time, charged to the task that ran before it", OPT_IDLE },
	{ "state", 0, NULL, "the state the task left in; the summary splits wait time", OPT_STATE },
	PERF_FILTER_OPTIONS,
	{ NULL, 0, NULL, NULL, 0 },
};

#define TH_CHUNK (64 * 1024)	/* lines gathered per fwrite */

struct th_cli {
	struct perf_args a;
	struct srep_timehist_opts o;
	bool summary, summary_only;
	struct linebuf line;		/* the lines not written yet */
	bool nomem;			/* a line could not be built */
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct th_cli *c = ctx;
	int ret;

	if (perf_args_opt(&c->a, id, arg, th_usage, &ret))
		return ret;
	switch (id) {
	case OPT_SUMMARY:	c->summary_only = c->summary = true; break;
	case OPT_WITH_SUMMARY:	c->summary = true; break;
	case OPT_WAKEUPS:	c->o.wakeups = true; break;
	case OPT_MIGRATIONS:	c->o.migrations = true; break;
	case OPT_IDLE:		c->o.idle_hist = true; break;
	case OPT_STATE:		c->o.state = true; break;
	default:		break;
	}
	return EXIT_OK;
}

static const char dots[] = "-------------------------------------------------------------------"
	"--------------------------------------------------------------------------------";

/* perf's print_sched_time: msec.usec, the msec part @width wide */
static void ms(FILE *f, uint64_t ns, int width)
{
	fprintf(f, "%*" PRIu64 ".%03" PRIu64 " ", width, ns / 1000000u, ns % 1000000u / 1000u);
}

static void header(FILE *f, int w, bool state)
{
	fprintf(f, "%15s %6s  %-*s  %9s  %9s  %9s%s\n", "time", "cpu", w, "task name", "wait time",
		"sch delay", "run time", state ? "  state" : "");
	fprintf(f, "%15s %-6s  %-*s  %9s  %9s  %9s%s\n", "", "", w, "[tid/pid]", "(msec)", "(msec)",
		"(msec)", state ? "       " : "");
	fprintf(f, "%.15s %.6s  %.*s  %.9s  %.9s  %.9s%s%.*s\n", dots, dots, w, dots, dots, dots,
		dots, state ? "  " : "", state ? 5 : 0, dots);
}

/* ms() through a pointer */
static char *put_ms(char *o, uint64_t ns, unsigned width)
{
	o = lb_put_ms(o, ns, width);
	*o++ = ' ';
	return o;
}
#define MS_MAX (LB_MS_MAX + 1)

/* n spaces */
static char *put_spaces(char *o, size_t n)
{
	memset(o, ' ', n);
	return o + n;
}

/* "%-*s " */
static char *put_left(char *o, const char *s, size_t n, int w)
{
	o = lb_put_mem(o, s, n);
	return put_spaces(o, (w > 0 && (size_t)w > n ? (size_t)w - n : 0) + 1);
}

/* a wakeup's or a migration's tail: "  %9s  %9s  %9s " of "", then what happened */
static char *put_pair_tail(char *o, const struct srep_timehist_line *l, size_t other)
{
	o = put_spaces(o, 2 + 9 + 2 + 9 + 2 + 9 + 1);
	o = lb_put_mem(o, l->kind == SREP_TH_WAKEUP ? "awakened: " : "migrated: ", 10);
	o = lb_put_mem(o, l->other, other);
	if (l->kind == SREP_TH_MIGRATE) {
		o = lb_put_int(lb_put_mem(o, " cpu ", 5), l->orig_cpu);
		o = lb_put_int(lb_put_mem(o, " => ", 4), l->dest_cpu);
	}
	return o;
}

/* the line written at once: one per switch (and wakeup, migration), hundreds of thousands */
static void text_line(FILE *f, const struct srep_timehist_line *l, int w, struct th_cli *c)
{
	bool pair = l->kind == SREP_TH_WAKEUP || l->kind == SREP_TH_MIGRATE;
	size_t ww = w > 0 ? (size_t)w : 0, task, other;
	char t[32], *o;

	if (l->kind == SREP_TH_LOST) {	/* no task: l->task is NULL */
		if (lb_write(&c->line, f))
			c->nomem = true;
		perf_usec(t, sizeof(t), l->time);
		fprintf(f, "%15s lost %" PRIu64 " events on cpu %d\n", t, l->lost, l->cpu);
		return;
	}
	task = strlen(l->task);
	other = pair ? strlen(l->other) : 0;
	/* "%15s [%04d]  %-*s ", then the pair's tail or three times and the options' columns */
	o = lb_reserve(&c->line, 15 + LB_SEC_USEC_MAX + 2 + LB_INT_MAX + 3 + ww + task + 1 +
		       (pair ? 31 + 10 + other + 5 + LB_INT_MAX + 4 + LB_INT_MAX :
			3 * MS_MAX + 7 + 2 + ww) + 1);
	if (!o) {
		c->nomem = true;
		return;
	}
	o = lb_put_sec_usec(o, l->time, 15);
	o = lb_put_mem(o, " [", 2);
	if (l->cpu < 0)		/* %04d of a negative number: the sign, then zeros */
		o = lb_put_uint(lb_put_mem(o, "-", 1), 0 - (uint64_t)(int64_t)l->cpu, 3, '0');
	else
		o = lb_put_uint(o, (uint64_t)l->cpu, 4, '0');
	o = put_left(lb_put_mem(o, "]  ", 3), l->task, task, w);
	if (pair) {
		o = put_pair_tail(o, l, other);
	} else {
		o = put_ms(put_ms(put_ms(o, l->wait_ns, 6), l->delay_ns, 6), l->run_ns, 6);
		if (c->o.state) {	/* " %5c " */
			o = put_spaces(o, 5);
			*o++ = l->state;
			*o++ = ' ';
		}
		if (c->o.wakeups)	/* "  %-*s" of "" */
			o = put_spaces(o, 2 + ww);
	}
	*o++ = '\n';
	lb_commit(&c->line, o);
	if (lb_write_chunk(&c->line, f, TH_CHUNK))
		c->nomem = true;	/* write errors show at cli_out_commit's check of f */
}

static void json_line(FILE *f, const struct srep_timehist_line *l)
{
	static const char *const kinds[] = { "", "switch", "wakeup", "migrate", "lost" };

	fprintf(f, "{\"type\":\"%s\",\"time\":%" PRIu64 ",\"cpu\":%d", kinds[l->kind], l->time, l->cpu);
	if (l->kind == SREP_TH_LOST) {
		fprintf(f, ",\"lost\":%" PRIu64 "}\n", l->lost);
		return;
	}
	fprintf(f, ",\"task\":");
	perf_json_str(f, l->task);
	fprintf(f, ",\"tid\":%d,\"pid\":%d", l->tid, l->pid);
	if (l->kind == SREP_TH_SWITCH) {
		fprintf(f, ",\"idle\":%s,\"wait_ns\":%" PRIu64 ",\"delay_ns\":%" PRIu64
			",\"run_ns\":%" PRIu64, l->idle ? "true" : "false", l->wait_ns, l->delay_ns,
			l->run_ns);
		if (l->state)
			fprintf(f, ",\"state\":\"%c\"", l->state);
	} else {
		fprintf(f, ",\"%s\":", l->kind == SREP_TH_WAKEUP ? "awakened" : "migrated");
		perf_json_str(f, l->other);
		if (l->kind == SREP_TH_MIGRATE)
			fprintf(f, ",\"orig_cpu\":%d,\"dest_cpu\":%d", l->orig_cpu, l->dest_cpu);
	}
	fputs("}\n", f);
}

static void summary_row(FILE *f, const struct srep_timehist_task *t, int w, const struct th_cli *c)
{
	fprintf(f, "%*s   %5d  %9" PRIu64 " ", w, t->task, t->ppid, t->count);
	ms(f, t->run_ns, 8);
	if (c->o.state) {
		ms(f, t->sleep_ns, 6);
		fputc(' ', f);
		ms(f, t->iowait_ns, 6);
		fputc(' ', f);
		ms(f, t->preempt_ns, 6);
		fputc(' ', f);
		ms(f, t->delay_ns, 6);
	} else {
		ms(f, t->min_ns, 6);
		fputc(' ', f);
		ms(f, (uint64_t)t->mean_ns, 6);
		fputc(' ', f);
		ms(f, t->max_ns, 6);
		fprintf(f, "  %5.2f   %5" PRIu64, t->stddev_pct, t->migrations);
	}
	fputc('\n', f);
}

static void summary_head(FILE *f, int w, const struct th_cli *c)
{
	if (c->o.idle_hist)
		fprintf(f, "\nIdle-time summary\n%*s  parent  sched-out    idle-time   min-idle    "
			"avg-idle    max-idle  stddev  migrations\n", w, "comm");
	else if (c->o.state)
		fprintf(f, "\nWait-time summary\n%*s  parent   sched-in     run-time      sleep      "
			"iowait     preempt       delay\n", w, "comm");
	else
		fprintf(f, "\nRuntime summary\n%*s  parent   sched-in     run-time    min-run     "
			"avg-run     max-run  stddev  migrations\n", w, "comm");
	fprintf(f, "%*s            (count)       (msec)     (msec)      (msec)      (msec)       %s\n",
		w, "", c->o.state ? "(msec)" : "%");
	fprintf(f, "%.117s\n", dots);
}

/* the rows, split into running and terminated tasks for perf 6.1 */
static void summary_tasks(FILE *f, const struct srep_timehist *th, const struct th_cli *c)
{
	size_t i, n = srep_timehist__nr_tasks(th), live = 0;
	bool split = c->a.dialect == SREP_PERF_6_1;
	int w = srep_timehist__comm_width(th);

	for (i = 0; i < n && (!split || !srep_timehist__task(th, i)->dead); i++, live++)
		summary_row(f, srep_timehist__task(th, i), w, c);
	if (!live)
		fprintf(f, "<no still running tasks>\n");
	if (!split)
		return;
	fprintf(f, "\nTerminated tasks:\n");
	for (i = live; i < n; i++)
		summary_row(f, srep_timehist__task(th, i), w, c);
	if (live == n)
		fprintf(f, "<no terminated tasks>\n");
}

static void summary(FILE *f, const struct srep_timehist *th, const struct th_cli *c)
{
	const struct srep_timehist_totals *t = srep_timehist__totals(th);
	const struct srep_perf_filter *pf = &c->o.filter;
	uint64_t idle, runs;
	size_t i;

	summary_head(f, srep_timehist__comm_width(th), c);
	summary_tasks(f, th, c);
	if (!t->idle_valid)
		return;
	fprintf(f, "\nIdle stats:\n");
	for (i = 0; i < srep_timehist__nr_cpus(th); i++) {
		if (pf->cpus && (i >= pf->nr_cpus || !pf->cpus[i]))
			continue;
		srep_timehist__idle(th, i, &idle, &runs);
		if (runs) {
			fprintf(f, "    CPU %2zu idle for ", i);
			ms(f, idle, 6);
			fprintf(f, " msec  (%6.2f%%)\n", 100.0 * (double)idle / (double)t->span_ns);
		} else {
			fprintf(f, "    CPU %2zu idle entire time window\n", i);
		}
	}
	fprintf(f, "\n    Total number of unique tasks: %" PRIu64 "\n"
		"Total number of context switches: %" PRIu64 "\n", t->tasks, t->switches);
	fprintf(f, "           Total run time (msec): ");
	ms(f, t->run_ns, 2);
	fprintf(f, "\n    Total scheduling time (msec): ");
	ms(f, t->span_ns, 2);
	fprintf(f, " (x %d)\n", t->max_cpu);
}

static void summary_json(FILE *f, const struct srep_timehist *th)
{
	const struct srep_timehist_totals *t = srep_timehist__totals(th);
	const struct srep_timehist_task *r;
	uint64_t idle, runs;
	size_t i;

	for (i = 0; i < srep_timehist__nr_tasks(th); i++) {
		r = srep_timehist__task(th, i);
		fprintf(f, "{\"type\":\"task\",\"task\":");
		perf_json_str(f, r->task);
		fprintf(f, ",\"tid\":%d,\"ppid\":%d,\"dead\":%s,\"runs\":%" PRIu64 ",\"run_ns\":%" PRIu64
			",\"min_run_ns\":%" PRIu64 ",\"avg_run_ns\":%.0f,\"max_run_ns\":%" PRIu64
			",\"stddev_pct\":%.2f,\"migrations\":%" PRIu64 ",\"sleep_ns\":%" PRIu64
			",\"iowait_ns\":%" PRIu64 ",\"preempt_ns\":%" PRIu64 ",\"delay_ns\":%" PRIu64 "}\n",
			r->tid, r->ppid, r->dead ? "true" : "false", r->count, r->run_ns, r->min_ns,
			r->mean_ns, r->max_ns, r->stddev_pct, r->migrations, r->sleep_ns, r->iowait_ns,
			r->preempt_ns, r->delay_ns);
	}
	for (i = 0; t->idle_valid && i < srep_timehist__nr_cpus(th); i++) {
		srep_timehist__idle(th, i, &idle, &runs);
		fprintf(f, "{\"type\":\"idle\",\"cpu\":%zu,\"idle_ns\":%" PRIu64 ",\"runs\":%" PRIu64 "}\n",
			i, idle, runs);
	}
	fprintf(f, "{\"type\":\"totals\",\"tasks\":%" PRIu64 ",\"switches\":%" PRIu64
		",\"run_ns\":%" PRIu64 ",\"span_ns\":%" PRIu64 ",\"cpus\":%d}\n", t->tasks, t->switches,
		t->run_ns, t->span_ns, t->max_cpu);
}

static int run(struct th_cli *c, struct srep_session *s, struct srep_timehist *th, FILE *f,
	       struct srep_error *err)
{
	const struct srep_event *ev;
	struct cli_progress prog;
	struct srep_timehist_line line;
	int ret;

	if (!c->summary_only && !c->a.json)
		header(f, srep_timehist__comm_width(th), c->o.state);
	cli_progress_init(&prog, "reading", s, f);
	while ((ret = cli_next_event(&prog, s, &ev, err)) > 0) {
		if (cli_interrupted) {
			ret = srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
			break;
		}
		ret = srep_timehist__add(th, ev, &line, err);
		if (ret < 0)
			break;
		/* perf prints wakeups and lost events even with -s */
		if (!ret || (c->summary_only && line.kind != SREP_TH_WAKEUP &&
			     line.kind != SREP_TH_LOST))
			continue;
		if (c->a.json)
			json_line(f, &line);
		else
			text_line(f, &line, srep_timehist__comm_width(th), c);
	}
	cli_progress_done(&prog);
	if (lb_write(&c->line, f))
		c->nomem = true;
	if (ret == 0 && c->nomem)
		ret = srep_error__set(err, SREP_E_NOMEM, "out of memory for an output line");
	if (ret == 0 && c->summary)
		ret = srep_timehist__finish(th, err);
	if (ret == 0 && c->summary && c->a.json)
		summary_json(f, th);
	else if (ret == 0 && c->summary)
		summary(f, th, c);
	return ret;
}

static int timehist(struct th_cli *c, struct srep_session *s)
{
	struct srep_timehist *th = NULL;
	struct srep_error err = { 0 };
	struct cli_out out;
	int ret;

	c->o.dialect = c->a.dialect;
	if (srep_timehist__new(&th, s, &c->o, &err) ||
	    cli_out_open(&out, c->a.output, c->a.input, &err))
		ret = cli_error(&err);
	else if (run(c, s, th, out.f, &err) || cli_out_commit(&out, &err)) {
		cli_out_abort(&out);
		ret = err.code == SREP_E_INTERRUPTED ? EXIT_INTERRUPTED : cli_error(&err);
	} else {
		ret = EXIT_OK;
	}
	srep_timehist__delete(th);
	return ret;
}

static int run_timehist(void *ctx, struct srep_session *s, const struct srep_perf_filter *f)
{
	struct th_cli *c = ctx;

	c->o.filter = *f;
	return timehist(c, s);
}

int cmd_timehist(int argc, char **argv)
{
	static const struct perf_cmd cmd = { th_usage, th_desc, th_opts, on_opt, run_timehist,
					     SREP_TIMEHIST_EVENTS };
	struct th_cli c;

	int ret;

	memset(&c, 0, sizeof(c));
	ret = perf_cmd_main(&cmd, &c.a, &c, argc, argv);
	lb_free(&c.line);
	return ret;
}
