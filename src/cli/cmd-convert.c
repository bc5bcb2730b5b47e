// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-convert.c - "schedrep convert": hand the selected events of a trace to
 * one exporter of formats/ and write its output atomically.
 *
 * The command knows the exporters only through formats/exporter.h: the
 * --format values, default suffixes and any options of a format come from
 * the exporter table, so a new format adds no code here.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exporter.h"
#include "perfopts.h"

static const char convert_desc[] =
	"Convert a trace (perf.data of any architecture, file or pipe mode, or\n"
	"schedrep's lossless JSON) to the format asked for, written to the input's\n"
	"name with the format's suffix unless -o says otherwise. SEL is a pid (the\n"
	"whole process), tid:N, comm:NAME, or a comm or glob; FROM,TO are seconds\n"
	"from the trace start or @absolute timestamps, either side optional. FILE\n"
	"may be '-' (standard input). --cpu drops the samples recorded on other CPUs\n"
	"(records that name tasks stay); the formats that describe whole tasks (criu,\n"
	"rt-app) refuse it. Callchains are resolved from the target's files\n"
	"(--kallsyms, --symfs...; docs/symbols.md) for the formats that show them.\n\nformats:";

enum { OPT_FORMAT = 1, OPT_OUTPUT, OPT_ONLY, OPT_EXCLUDE, OPT_CHILDREN, OPT_QUIET,
       OPT_LINES, OPT_INPUT, OPT_FORMAT_BASE = 1000 };
#define FORMAT_OPTS_MAX 64	/* options one format may have: ids are base + 64 * format + n */

static const struct cli_opt common_opts[] = {
	{ "format", 'f', "<fmt>", "one of the formats above (default: perfetto)", OPT_FORMAT },
	{ "output", 'o', "<file>", "write here instead of <input>.<suffix>; '-' for stdout", OPT_OUTPUT },
	{ "only", 0, "<sel>", "keep only these tasks (repeatable: union)", OPT_ONLY },
	{ "exclude", 0, "<sel>", "drop these tasks (repeatable)", OPT_EXCLUDE },
	{ "children", 0, NULL, "--only also keeps the descendants of what it selects", OPT_CHILDREN },
	PERF_WINDOW_OPTIONS,
	CLI_SYMBOL_OPTIONS,
	CLI_NO_SYMBOLS_OPTION,
	{ "lines", 0, NULL, "frames also name their source file and line (DWARF)", OPT_LINES },
	{ "quiet", 'q', NULL, "no progress, summary or warnings on stderr", OPT_QUIET },
	CLI_INPUT_OPTION(OPT_INPUT),
};
#define NR_COMMON (sizeof(common_opts) / sizeof(common_opts[0]))

/* an option of a format, kept until --format is known */
struct format_arg {
	const struct srep_exporter *x;
	int id;
	const char *name, *arg;
};

struct convert_opts {
	const char *format, *output, *input;
	struct perf_window win;
	struct srep_selection *sel;
	struct format_arg *fargs;
	size_t nr_fargs;
	struct cli_symbol_args sym;
	char usage[512];
	char desc[2048];
};

/* the usage line and the description list the formats of the exporter table */
static void build_usage(struct convert_opts *o)
{
	const struct srep_exporter *const *x;
	char fmts[96] = "";
	size_t len;

	snprintf(o->desc, sizeof(o->desc), "%s", convert_desc);
	for (x = srep_exporters; *x; x++) {
		snprintf(fmts + strlen(fmts), sizeof(fmts) - strlen(fmts), "%s%s",
			 x == srep_exporters ? "" : "|", (*x)->name);
		len = strlen(o->desc);
		snprintf(o->desc + len, sizeof(o->desc) - len, "\n    %-10s %s (%s%s)", (*x)->name,
			 (*x)->summary, (*x)->suffix,
			 (*x)->flags & SREP_EXPORT_DIRECTORY ? "/" : "");
	}
	snprintf(o->usage, sizeof(o->usage),
		 "usage: schedrep convert [--format %s] [-o OUT|-] [--only SEL]... "
		 "[--exclude SEL]... [--children] [--time FROM,TO] [-C LIST] [--kallsyms FILE] "
		 "[--vmlinux FILE] [--symfs DIR] [--buildid-dir DIR] [--no-symbols] [--lines] "
		 "[-q] [-i FILE] [FILE]", fmts);
}

/* the common options, then every format's own, labelled with the format */
static struct cli_opt *build_opts(char ***labels, size_t *nr_labels)
{
	size_t n = NR_COMMON, xi, oi, k;
	const struct srep_export_opt *fo;
	struct cli_opt *v;

	for (xi = 0; srep_exporters[xi]; xi++)
		for (fo = srep_exporters[xi]->options; fo && fo->name; fo++)
			n++;
	v = calloc(n + 1, sizeof(*v));
	*labels = calloc(n + 1, sizeof(**labels));
	*nr_labels = 0;
	if (!v || !*labels)
		return NULL;
	memcpy(v, common_opts, sizeof(common_opts));
	k = NR_COMMON;
	for (xi = 0; srep_exporters[xi]; xi++) {
		for (oi = 0, fo = srep_exporters[xi]->options; fo && fo->name; fo++, oi++) {
			char *help;

			if (oi >= FORMAT_OPTS_MAX ||
			    asprintf(&help, "[%s] %s", srep_exporters[xi]->name, fo->help) < 0)
				return v;	/* the rest stay out: the table still ends */
			(*labels)[(*nr_labels)++] = help;
			v[k++] = (struct cli_opt){ fo->name, 0, fo->arg, help,
						   OPT_FORMAT_BASE + (int)(xi * FORMAT_OPTS_MAX + oi) };
		}
	}
	return v;
}

static int add_format_arg(struct convert_opts *o, int id, const char *arg)
{
	size_t xi = (size_t)(id - OPT_FORMAT_BASE) / FORMAT_OPTS_MAX;
	size_t oi = (size_t)(id - OPT_FORMAT_BASE) % FORMAT_OPTS_MAX;
	const struct srep_exporter *x = srep_exporters[xi];
	struct format_arg *n = realloc(o->fargs, (o->nr_fargs + 1) * sizeof(*n));

	if (!n) {
		cli_errorf("out of memory");
		return EXIT_FAIL;
	}
	o->fargs = n;
	n[o->nr_fargs++] = (struct format_arg){ x, x->options[oi].id, x->options[oi].name, arg };
	return EXIT_OK;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct convert_opts *o = ctx;
	struct srep_error err = { 0 };
	int ret = 0;

	if (cli_symbol_opt(&o->sym, id, arg) || perf_window_opt(&o->win, id, arg, o->usage, &ret))
		return ret;
	switch (id) {
	case OPT_FORMAT:	o->format = arg; break;
	case OPT_OUTPUT:	o->output = arg; break;
	case OPT_INPUT:		o->input = arg; break;
	case OPT_CHILDREN:	srep_selection__set_children(o->sel, true); break;
	case OPT_QUIET:		cli_quiet = true; break;
	case OPT_LINES:		o->sym.o.lines = true; break;
	case OPT_ONLY:		ret = srep_selection__add_only(o->sel, arg, &err); break;
	case OPT_EXCLUDE:	ret = srep_selection__add_exclude(o->sel, arg, &err); break;
	default:		return add_format_arg(o, id, arg);
	}
	return ret ? cli_usage_error(o->usage, "%s", err.msg) : EXIT_OK;
}

/* the format's options object from what was given; a foreign option is a usage error */
static int format_opts(const struct convert_opts *o, const struct srep_exporter *x, void **out)
{
	struct srep_error err = { 0 };
	size_t i;

	*out = NULL;
	for (i = 0; i < o->nr_fargs; i++) {
		if (o->fargs[i].x != x)
			return cli_usage_error(o->usage, "'--%s' is an option of --format %s",
					       o->fargs[i].name, o->fargs[i].x->name);
	}
	if (!x->opts_new)
		return EXIT_OK;
	if (x->opts_new(out, &err))
		return cli_error(&err);
	for (i = 0; i < o->nr_fargs; i++) {
		if (x->opt(*out, o->fargs[i].id, o->fargs[i].arg, &err))
			return cli_usage_error(o->usage, "--%s: %s", o->fargs[i].name, err.msg);
	}
	return EXIT_OK;
}

/* the first timestamp, then back to the start (the session was prescanned: rewindable) */
static int first_time(struct srep_session *s, uint64_t *out, struct srep_error *err)
{
	const struct srep_event *ev;
	int ret;

	*out = 0;
	while ((ret = srep_session__next_event(s, &ev, err)) > 0 && !ev->time)
		;
	if (ret < 0)
		return ret;
	if (ret > 0)
		*out = ev->time;
	return srep_session__rewind(s, err);
}

struct run {
	const struct srep_exporter *x;
	struct srep_export_ctx ctx;
	struct srep_session *s;
	struct cli_out out;
	struct srep_perf_filter cpus;	/* --cpu's list (the window is in ctx) */
	uint64_t events, timed;		/* written; of which timed */
	uint64_t samples;		/* written samples (not side-band records) */
	size_t tasks;
};

static size_t count_tasks(const struct run *r)
{
	return r->ctx.sel ? srep_selection__nr_tasks(r->ctx.sel) : srep_session__nr_tasks(r->s);
}

static int prepare(struct run *r, const struct convert_opts *o, const char *input,
		   struct srep_error *err)
{
	bool selecting = !srep_selection__is_empty(o->sel);
	struct srep_open_opts oo = { .diag = cli_diag };
	int ret;

	if (selecting || o->win.time || (r->x->flags & SREP_EXPORT_PRESCAN))
		oo.flags |= SREP_OPEN_PRESCAN;
	ret = srep_session__open(&r->s, input, &oo, err);
	if (!ret && (oo.flags & SREP_OPEN_PRESCAN))
		ret = first_time(r->s, &r->ctx.trace_start, err);
	r->ctx.session = r->s;
	r->ctx.to = UINT64_MAX;
	if (!ret && o->win.time)
		ret = perf_window_resolve(&o->win, r->s, &r->cpus, err);
	if (!ret && o->win.time) {
		r->ctx.from = r->cpus.from;
		r->ctx.to = r->cpus.to;
		r->cpus.from = r->cpus.to = 0;
	}
	r->cpus.cpus = o->win.cpu_set;
	r->cpus.nr_cpus = o->win.nr_cpu_set;
	if (!ret && selecting) {
		ret = srep_selection__resolve(o->sel, r->s, err);
		r->ctx.sel = o->sel;
		if (!ret && !count_tasks(r))
			ret = srep_error__set(err, SREP_E_SELECT, "no task of the trace matches the "
					      "selection (--only, --exclude)");
	}
	/* only formats that show callchains pay for resolving them */
	if (!ret && (r->x->flags & SREP_EXPORT_SYMBOLS))
		ret = cli_symbolizer_new(&r->ctx.symbols, r->s, &o->sym, err);
	return ret;
}

/* every event to the exporter; stops after the window (events come in time order) */
static int pump(struct run *r, void *state, struct srep_error *err)
{
	struct cli_progress prog;
	const struct srep_event *ev;
	int ret;

	cli_progress_init(&prog, "converting", r->s, r->out.f);
	while ((ret = cli_next_event(&prog, r->s, &ev, err)) > 0) {
		/* Ctrl-C writing a directory: the handler left its removal to us (output.c) */
		if (cli_interrupted) {
			ret = srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
			break;
		}
		if (ev->time > r->ctx.to && !(ev->flags & SREP_EVF_LATE))
			break;
		/* every event, selected or not: mappings are per process, not per task */
		if (r->ctx.symbols && srep_symbolizer__observe(r->ctx.symbols, ev)) {
			ret = srep_error__set(err, SREP_E_NOMEM, "no memory for the mappings");
			break;
		}
		if (!(r->x->flags & SREP_EXPORT_EVERY_EVENT) && !srep_export_selected(r->ctx.sel, ev))
			continue;
		if (ev->source != SREP_SRC_RECORD && !srep_perf_filter__has_event(&r->cpus, ev))
			continue;
		ret = r->x->event(state, ev, err);
		if (ret)
			break;
		/* the summary counts what the output shows: selected events in the window */
		if ((!ev->time || ev->time >= r->ctx.from) && (!(r->x->flags & SREP_EXPORT_EVERY_EVENT) ||
							       srep_export_selected(r->ctx.sel, ev))) {
			r->events++;
			r->timed += ev->time != 0;	/* not the records synthesized at start */
			r->samples += ev->time && ev->source != SREP_SRC_RECORD;
		}
	}
	cli_progress_done(&prog);
	return ret < 0 ? ret : 0;
}

static int export(struct run *r, const struct convert_opts *o, struct srep_error *err)
{
	char what[128];
	void *state = NULL;
	int ret;

	ret = r->x->begin(&state, &r->ctx, err);
	if (!ret)
		ret = pump(r, state, err);
	/* an empty window is a mistake, as an instant outside the trace is for --at */
	/* --cpu applies to samples only: the records that name tasks alone are no output */
	if (!ret && ((o->win.time && !r->timed) || (o->win.cpus && !r->samples)))
		ret = srep_error__set(err, SREP_E_TIME, "no event%s passes %s (--time: seconds after "
				      "the trace's first event, or @perf-timestamp)",
				      r->ctx.sel ? " of the selected tasks" : "",
				      perf_window_describe(&o->win, what, sizeof(what)));
	if (!ret)
		ret = r->x->end(state, err);
	r->x->destroy(state);
	return ret;
}

static int convert(const struct convert_opts *o, const char *input, const struct srep_exporter *x,
		   const void *fopts)
{
	struct run r = { .x = x };
	struct srep_error err = { 0 };
	char *path = NULL;
	int ret, status = EXIT_OK;

	r.ctx.opts = fopts;
	cli_signals_install();
	ret = prepare(&r, o, input, &err);
	if (!ret && !(path = o->output ? strdup(o->output) : cli_default_output(input, x->suffix)))
		ret = srep_error__set(&err, SREP_E_NOMEM, "no memory");
	if (!ret)
		ret = x->flags & SREP_EXPORT_DIRECTORY ? cli_out_open_dir(&r.out, path, input, &err) :
		      cli_out_open(&r.out, path, input, &err);
	if (!ret) {
		r.ctx.out = r.out.f;
		r.ctx.out_dir = r.out.dir ? r.out.tmp : NULL;
		ret = export(&r, o, &err);
		if (ret)
			cli_out_abort(&r.out);
		else
			ret = cli_out_commit(&r.out, &err);
	}
	if (ret) {
		/* the exporter knows its stream, not its name */
		if (err.code == SREP_E_IO && !err.path[0] && path && strcmp(path, "-"))
			snprintf(err.path, sizeof(err.path), "%s", path);
		status = cli_interrupted ? EXIT_INTERRUPTED : cli_error(&err);
	} else {
		const struct srep_stats *st = srep_session__stats(r.s);

		r.tasks = count_tasks(&r);
		if (!cli_quiet)
			fprintf(stderr, "schedrep: wrote %s%s%s (%s): %" PRIu64 " events, %zu tasks\n",
				strcmp(path, "-") ? "'" : "", strcmp(path, "-") ? path : "standard output",
				strcmp(path, "-") ? "'" : "", x->name, r.events, r.tasks);
		if (!cli_quiet)
			cli_symbols_summary(stderr, "schedrep: ", r.ctx.symbols);
		/* damage stepped over was reported as warnings: the status says it too */
		if (srep_stats__damaged(st))
			status = EXIT_FAIL;
	}
	free(path);
	srep_symbolizer__delete(r.ctx.symbols);
	srep_session__delete(r.s);
	return status;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { .format = "perfetto" };
	const struct srep_exporter *x;
	struct srep_error err = { 0 };
	struct cli_opt *opts;
	char **labels = NULL;
	size_t nr_labels = 0, i;
	void *fopts = NULL;
	const char *path = NULL;
	int first, ret;
	bool done;

	build_usage(&o);
	opts = build_opts(&labels, &nr_labels);
	if (!opts || srep_selection__new(&o.sel, &err)) {
		cli_errorf("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	ret = cli_parse(argc, argv, o.usage, o.desc, opts, on_opt, &o, &first, &done);
	if (ret || done)
		goto out;
	ret = cli_one_trace(argc, argv, first, o.input, o.usage, &path);
	if (ret)
		goto out;
	x = srep_exporter_find(o.format);
	if (!x) {
		ret = cli_usage_error(o.usage, "'%s' is not a format", o.format);
		goto out;
	}
	/* a directory has no standard output, and standard input no name to derive one from */
	if ((x->flags & SREP_EXPORT_DIRECTORY) && !strcmp(o.output ? o.output : path, "-")) {
		ret = cli_usage_error(o.usage, "--format %s writes a directory: name it with -o DIR",
				      x->name);
		goto out;
	}
	/* as zstd does: output nobody asked to see does not flood a terminal */
	if (!o.output && !strcmp(path, "-") && isatty(STDOUT_FILENO)) {
		ret = cli_usage_error(o.usage, "standard output is a terminal: name the output "
				      "with -o FILE (-o - writes to the terminal anyway)");
		goto out;
	}
	if (o.win.cpus && (x->flags & SREP_EXPORT_WHOLE_TASKS)) {
		ret = cli_usage_error(o.usage, "--format %s describes whole tasks: --cpu would cut "
				      "them (--only selects tasks)", x->name);
		goto out;
	}
	ret = format_opts(&o, x, &fopts);
	if (ret == EXIT_OK)
		ret = convert(&o, path, x, fopts);
	if (x->opts_free)
		x->opts_free(fopts);
out:
	for (i = 0; i < nr_labels; i++)
		free(labels[i]);
	free(labels);
	free(opts);
	free(o.fargs);
	srep_selection__delete(o.sel);
	perf_window_free(&o.win);
	return ret;
}
