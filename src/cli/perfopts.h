/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfopts.h - what the commands with perf's names (latency, timehist,
 * script, map) share: the input (a file, -i FILE or ./perf.data), the
 * output, --json, --perf VERSION and the filters (--only, --exclude,
 * --children, --time, --cpu), turned into a session and a
 * struct srep_perf_filter.
 */
#ifndef SREP_PERFOPTS_H
#define SREP_PERFOPTS_H

#include "cli.h"

enum {
	PO_INPUT = 700, PO_OUTPUT, PO_JSON, PO_PERF, PO_ONLY, PO_EXCLUDE, PO_CHILDREN,
	PO_TIME, PO_CPU, PO_QUIET,
};

#define PERF_IO_OPTIONS								\
	CLI_INPUT_OPTION(PO_INPUT),						\
	{ "output", 'o', "<file>", "write here instead of standard output", PO_OUTPUT }, \
	{ "json", 0, NULL, "JSON instead of perf's text (docs/perf-commands.md)", PO_JSON }, \
	{ "perf", 0, "<version>", "reproduce perf 6.12 (default) or 6.1", PO_PERF }

/*
 * --time and --cpu: every command that reads a trace takes them (info,
 * convert, callchains, replay and compare too), parsed here and applied
 * through srep_perf_filter__has_event()
 */
#define PERF_WINDOW_OPTIONS							\
	{ "time", 0, "<from,to>", "this window only: seconds from the start, or @absolute", PO_TIME }, \
	{ "cpu", 'C', "<list>", "these CPUs only: 0,2-3", PO_CPU }

#define PERF_FILTER_OPTIONS							\
	{ "only", 0, "<sel>", "these tasks only: pid, tid:N, comm or glob (repeatable)", PO_ONLY }, \
	{ "exclude", 0, "<sel>", "not these tasks (repeatable)", PO_EXCLUDE },		\
	{ "children", 0, NULL, "--only also keeps the descendants of what it selects", PO_CHILDREN }, \
	PERF_WINDOW_OPTIONS,								\
	{ "quiet", 'q', NULL, "no warnings on stderr", PO_QUIET }

struct perf_window {
	const char *time, *cpus;	/* as given; NULL: not given */
	bool *cpu_set;
	size_t nr_cpu_set;
};

/* PO_TIME or PO_CPU: 1 taken (*ret set: EXIT_OK or the usage error), 0 not one of them */
int perf_window_opt(struct perf_window *w, int id, const char *arg, const char *usage, int *ret);
/* whether a window or a CPU list was given */
bool perf_window_given(const struct perf_window *w);
/*
 * The window against the session's first event (open it with
 * SREP_OPEN_PRESCAN when w->time is set) into f->from, f->to, and the CPU
 * list into f->cpus. A window that holds no part of the trace is an error,
 * as an instant outside it is for --at. 0, or an error in *err.
 */
int perf_window_resolve(const struct perf_window *w, const struct srep_session *s,
			struct srep_perf_filter *f, struct srep_error *err);
void perf_window_free(struct perf_window *w);
/* "--time 0.5,1 --cpu 0": the filters given, for messages; "" when none */
const char *perf_window_describe(const struct perf_window *w, char *buf, size_t size);

struct perf_args {
	const char *input, *output;
	bool json;
	enum srep_perf_dialect dialect;
	struct srep_selection *sel;
	bool selecting;
	struct perf_window win;
};

int perf_args_init(struct perf_args *a);
void perf_args_free(struct perf_args *a);
/* an option of the tables above: 1 taken (*ret set), 0 not one of them */
int perf_args_opt(struct perf_args *a, int id, const char *arg, const char *usage, int *ret);
/*
 * The input from argv[first..] (at most one) or -i, else ./perf.data; the
 * session opened (prescanned when a selection or a time needs the task
 * table or the start), the filter filled. EXIT_OK or an exit code (message
 * printed).
 */
int perf_args_open(struct perf_args *a, int argc, char **argv, int first, const char *usage,
		   struct srep_session **s, struct srep_perf_filter *f);
/*
 * A command of these: its usage, option table and handlers. run() gets the
 * opened session and the filter (which points into the perf_args).
 */
struct perf_cmd {
	const char *usage, *description;
	const struct cli_opt *opts;
	int (*on_opt)(void *ctx, int id, const char *arg);
	int (*run)(void *ctx, struct srep_session *s, const struct srep_perf_filter *f);
	uint32_t kinds;		/* the events 'run' reads (srep_session__set_interest), 0 all */
};

/* a perf_cmd's life: parse argv, open the session, run, close; an exit code */
int perf_cmd_main(const struct perf_cmd *cmd, struct perf_args *a, void *ctx,
		  int argc, char **argv);
/* "12.345678": seconds.microseconds, perf's timestamp__scnprintf_usec */
void perf_usec(char *buf, size_t size, uint64_t ns);
/* a JSON string (quotes included) */
void perf_json_str(FILE *f, const char *s);

#endif /* SREP_PERFOPTS_H */
