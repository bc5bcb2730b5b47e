// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-callchains.c - "schedrep callchains": every event with a callchain,
 * its frames resolved offline, in the layout of
 * 'perf script -F comm,tid,time,event,ip,sym,symoff,dso' so that the two
 * can be compared line by line (docs/man/schedrep-callchains.1.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfopts.h"

static const char cc_usage[] =
	"usage: schedrep callchains [-o <file>] [--kallsyms <file>] [--vmlinux <file>] "
	"[--symfs <dir>] [--buildid-dir <dir>] [--lines] [--time <from,to>] [-C <list>] [-q] "
	"[-i <file>] [<perf.data>]";
static const char cc_desc[] =
	"Print every event that has a callchain, with its frames resolved to module,\n"
	"function and offset from the target's own files (any architecture), as\n"
	"'perf script -F comm,tid,time,event,ip,sym,symoff,dso' prints them. User-space\n"
	"addresses are shown as offsets in their file, as perf does. --time and --cpu\n"
	"print only the events of that window and those CPUs.";

enum { OPT_OUTPUT = 1, OPT_LINES, OPT_QUIET, OPT_INPUT };

static const struct cli_opt cc_opts[] = {
	{ "output", 'o', "<file>", "write here instead of standard output", OPT_OUTPUT },
	CLI_SYMBOL_OPTIONS,
	{ "lines", 0, NULL, "add the source file and line of each frame (DWARF)", OPT_LINES },
	PERF_WINDOW_OPTIONS,
	{ "quiet", 'q', NULL, "no warnings or summary on stderr", OPT_QUIET },
	CLI_INPUT_OPTION(OPT_INPUT),
	{ NULL, 0, NULL, NULL, 0 },
};

struct cc_opts {
	const char *input, *output;
	struct cli_symbol_args sym;
	struct perf_window win;
	struct srep_perf_filter filter;
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct cc_opts *o = ctx;
	int ret;

	if (cli_symbol_opt(&o->sym, id, arg))
		return EXIT_OK;
	if (perf_window_opt(&o->win, id, arg, cc_usage, &ret))
		return ret;
	if (id == OPT_INPUT)
		o->input = arg;
	else if (id == OPT_OUTPUT)
		o->output = arg;
	else if (id == OPT_LINES)
		o->sym.o.lines = true;
	else if (id == OPT_QUIET)
		cli_quiet = true;
	return EXIT_OK;
}

/* the comm the thread had when the event happened, as perf prints it */
static const char *comm_at(const struct srep_session *s, int32_t tid, uint64_t time)
{
	const struct srep_task *t = srep_session__find_task(s, tid);
	const char *comm = "", *c;
	uint64_t when;
	size_t i;

	if (!t)
		return ":-1";
	for (i = 0; i < srep_task__nr_comms(t); i++) {
		c = srep_task__comm_at(t, i, &when);
		if (i && when > time)
			break;
		comm = c;
	}
	return comm;
}

static void print_frame(FILE *f, const struct srep_frame *fr)
{
	fprintf(f, "\t%16" PRIx64 " ", fr->module_addr);
	if (fr->symbol)
		fprintf(f, "%s+0x%" PRIx64, fr->symbol, fr->symbol_offset);
	else
		fprintf(f, "[unknown]");
	fprintf(f, " (%s)", fr->module ? fr->module : "[unknown]");
	if (fr->file)
		fprintf(f, "  %s:%" PRIu32, fr->file, fr->line);
	fputc('\n', f);
}

static void print_event(FILE *f, const struct srep_session *s, const struct srep_event *ev,
			const struct srep_frame *frames, size_t nr)
{
	const char *name = ev->evsel >= 0 ? srep_session__evsel_name(s, (size_t)ev->evsel) : NULL;
	size_t i;

	fprintf(f, "%s %5d %5" PRIu64 ".%06" PRIu64 ": %s: \n", comm_at(s, ev->tid, ev->time),
		ev->tid, ev->time / 1000000000u, ev->time % 1000000000u / 1000u,
		name ? name : srep_event_kind_name(ev->kind));
	for (i = 0; i < nr; i++)
		print_frame(f, &frames[i]);
	fputc('\n', f);
}

/* every event through the symbolizer; those with callchains printed, and at least one */
static int run(struct srep_session *s, struct cli_symbols *cs, FILE *f, const struct cc_opts *o,
	       const char *path, struct srep_error *err)
{
	char what[160];
	const struct srep_event *ev;
	struct cli_progress prog;
	uint64_t printed = 0;
	int ret;

	cli_progress_init(&prog, "reading", s, f);
	while ((ret = cli_next_event(&prog, s, &ev, err)) > 0) {
		if (cli_symbols_event(cs, ev, err)) {
			ret = SREP_E_NOMEM;
			break;
		}
		if (ev->nr_callchain && srep_perf_filter__has_event(&o->filter, ev)) {
			print_event(f, s, ev, cs->frames, cs->nr);
			printed++;
		}
	}
	cli_progress_done(&prog);
	if (!ret && !printed && perf_window_given(&o->win))
		ret = srep_error__set(err, SREP_E_UNSUPPORTED, "'%s': no event with a callchain "
				      "passes %s", path, perf_window_describe(&o->win, what,
									     sizeof(what)));
	else if (!ret && !printed)
		ret = srep_error__set(err, SREP_E_UNSUPPORTED, "'%s': no event has a callchain "
				      "(perf record -g records them)", path);
	return ret;
}

int cmd_callchains(int argc, char **argv)
{
	struct srep_open_opts oo = { .diag = cli_diag };
	struct cc_opts o = { .output = "-" };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct cli_symbols cs;
	struct cli_out out;
	const char *path = NULL;
	int first, ret;
	bool done;

	ret = cli_parse(argc, argv, cc_usage, cc_desc, cc_opts, on_opt, &o, &first, &done);
	if (ret || done)
		return ret;
	if (cli_one_trace(argc, argv, first, o.input, cc_usage, &path))
		return EXIT_USAGE;
	cli_signals_install();
	if (o.win.time)
		oo.flags |= SREP_OPEN_PRESCAN;
	if (srep_session__open(&s, path, &oo, &err) ||
	    perf_window_resolve(&o.win, s, &o.filter, &err)) {
		srep_session__delete(s);
		perf_window_free(&o.win);
		return cli_error(&err);
	}
	ret = cli_symbols_open(&cs, s, &o.sym);
	if (ret == EXIT_OK && cli_out_open(&out, o.output, path, &err))
		ret = cli_error(&err);
	if (ret == EXIT_OK) {
		if (run(s, &cs, out.f, &o, path, &err) || cli_out_commit(&out, &err)) {
			cli_out_abort(&out);
			ret = cli_error(&err);
		}
		if (!cli_quiet)
			cli_symbols_summary(stderr, "schedrep: ", cs.sy);
	}
	cli_symbols_close(&cs);
	srep_session__delete(s);
	perf_window_free(&o.win);
	return ret;
}
