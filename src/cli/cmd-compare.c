// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-compare.c - "schedrep compare": where the time goes differently in two
 * traces of the same workload (two boards, or a replay and its original).
 * Reads both, has the library compute metrics, pair the tasks and compare,
 * then prints a table, JSON, and optionally writes the HTML report.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "perfopts.h"

static const char compare_usage[] =
	"usage: schedrep compare [--match auto|comm|pid] [--only[-a|-b] <sel>]... "
	"[--exclude[-a|-b] <sel>]... [--children] [--time <from,to>] [-C <list>] "
	"[--scale-a <f>] [--scale-b <f>] [--json] [--html <out.html>] [-o <file>] "
	"[--kallsyms[-a|-b] <file>] [--vmlinux[-a|-b] <file>] [--symfs[-a|-b] <dir>] "
	"[--buildid-dir[-a|-b] <dir>] [--no-symbols] [-q] <a> <b> | <a>... --vs <b>...";
static const char compare_desc[] =
	"Compare two traces of the same workload: per task (paired across the traces),\n"
	"per CPU and for the whole workload: CPU time, switches, waits for a CPU,\n"
	"sleep, migrations, lifetime, busy and idle time, frequency residency. Each\n"
	"figure shows A, B, B-A and B/A; '*' marks significant differences. <a> and\n"
	"<b> are perf.data of any architecture, or schedrep JSON (docs/compare.md).\n"
	"For traces with callchains, where each task blocked (kernel function and\n"
	"user frame) on each side, from the targets' files: the symbol options apply\n"
	"to both traces, their -a and -b forms to one; so do --only and --exclude,\n"
	"since pids differ between boards. Several runs per board, <a>... --vs <b>...:\n"
	"per metric the median and spread of each side's runs and an exact two-sided\n"
	"Mann-Whitney U test; significant when p <= 0.05, which needs at least 4\n"
	"runs per side (or 3 and 5). --time (from each trace's first event) and\n"
	"--cpu apply to both: events outside are not counted (the records that name,\n"
	"fork and end tasks are kept whatever their CPU).";

enum { OPT_MATCH = 1, OPT_ONLY, OPT_ONLY_A, OPT_ONLY_B, OPT_EXCLUDE, OPT_EXCLUDE_A,
       OPT_EXCLUDE_B, OPT_CHILDREN, OPT_SCALE_A, OPT_SCALE_B, OPT_JSON, OPT_HTML,
       OPT_OUTPUT, OPT_QUIET, OPT_VS };

static const struct cli_opt compare_opts[] = {
	{ "match", 0, "<how>", "pair tasks by auto (default), comm or pid", OPT_MATCH },
	{ "only", 0, "<sel>", "only these tasks (pid, tid:N, comm or glob); repeatable", OPT_ONLY },
	{ "only-a", 0, "<sel>", "only these tasks of A (its pids); repeatable", OPT_ONLY_A },
	{ "only-b", 0, "<sel>", "only these tasks of B; repeatable", OPT_ONLY_B },
	{ "exclude", 0, "<sel>", "leave these tasks out; repeatable", OPT_EXCLUDE },
	{ "exclude-a", 0, "<sel>", "leave these tasks of A out; repeatable", OPT_EXCLUDE_A },
	{ "exclude-b", 0, "<sel>", "leave these tasks of B out; repeatable", OPT_EXCLUDE_B },
	{ "children", 0, NULL, "--only also keeps the descendants of what it selects", OPT_CHILDREN },
	PERF_WINDOW_OPTIONS,
	{ "scale-a", 0, "<f>", "scale A's durations (0.1: 10x slower emulator)", OPT_SCALE_A },
	{ "scale-b", 0, "<f>", "scale B's durations", OPT_SCALE_B },
	{ "json", 0, NULL, "JSON instead of the table (docs/compare.md)", OPT_JSON },
	{ "html", 0, "<out.html>", "also write a self-contained HTML report", OPT_HTML },
	{ "output", 'o', "<file>", "write the table or JSON here, not to stdout", OPT_OUTPUT },
	{ "vs", 0, NULL, "A's runs before it, B's after (up to 12 each)", OPT_VS },
	CLI_SYMBOL_OPTIONS,
	CLI_SIDE_SYMBOL_OPTIONS,
	CLI_NO_SYMBOLS_OPTION,
	{ "quiet", 'q', NULL, "no warnings or symbol summaries on stderr", OPT_QUIET },
	{ NULL, 0, NULL, NULL, 0 },
};

struct compare_opts {
	enum srep_match_mode mode;
	struct srep_selection *sel[2];	/* A's and B's tasks */
	double scale[2];
	bool json;
	const char *html, *output;
	struct cli_symbol_args sym[3];	/* both traces, A, B */
	struct perf_window win;
};

/* --only[-a|-b], --exclude[-a|-b]: into both selections or one */
static int add_spec(struct compare_opts *o, int id, const char *arg)
{
	struct srep_error err = { 0 };
	bool only = id == OPT_ONLY || id == OPT_ONLY_A || id == OPT_ONLY_B;
	int k, ret = 0;

	for (k = 0; k < 2 && !ret; k++) {
		if ((id == OPT_ONLY_A || id == OPT_EXCLUDE_A) && k == 1)
			continue;
		if ((id == OPT_ONLY_B || id == OPT_EXCLUDE_B) && k == 0)
			continue;
		ret = only ? srep_selection__add_only(o->sel[k], arg, &err) :
		      srep_selection__add_exclude(o->sel[k], arg, &err);
	}
	return ret ? cli_usage_error(compare_usage, "%s", err.msg) : EXIT_OK;
}

static int parse_scale(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out > 0) || isinf(*out))
		return cli_usage_error(compare_usage, "'%s': expected a positive number", arg);
	return EXIT_OK;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct compare_opts *o = ctx;
	struct srep_error err = { 0 };
	int ret;

	if (cli_symbol_opt_sides(o->sym, id, arg))
		return EXIT_OK;
	if (perf_window_opt(&o->win, id, arg, compare_usage, &ret))
		return ret;
	switch (id) {
	case OPT_MATCH:
		return srep_match_mode__parse(arg, &o->mode, &err) ?
		       cli_usage_error(compare_usage, "--match: %s", err.msg) : EXIT_OK;
	case OPT_ONLY:
	case OPT_ONLY_A:
	case OPT_ONLY_B:
	case OPT_EXCLUDE:
	case OPT_EXCLUDE_A:
	case OPT_EXCLUDE_B:
		return add_spec(o, id, arg);
	case OPT_CHILDREN:
		srep_selection__set_children(o->sel[0], true);
		srep_selection__set_children(o->sel[1], true);
		return EXIT_OK;
	case OPT_SCALE_A: return parse_scale(arg, &o->scale[0]);
	case OPT_SCALE_B: return parse_scale(arg, &o->scale[1]);
	case OPT_JSON: o->json = true; return EXIT_OK;
	case OPT_HTML: o->html = arg; return EXIT_OK;
	case OPT_OUTPUT: o->output = arg; return EXIT_OK;
	case OPT_VS: return cli_usage_error(compare_usage, "--vs: once, between A's runs and B's");
	default: cli_quiet = true; return EXIT_OK;
	}
}

/* one side: the trace read once for its tasks, then again into the metrics */
struct side {
	struct srep_session *s;
	struct srep_selection *sel;	/* the compare_opts' */
	struct srep_metrics *m;
	struct cli_symbols cs;		/* where tasks blocked; cs.sy NULL with --no-symbols */
};

/* side k's symbolizer, fed to its metrics (none with --no-symbols or without stacks) */
static int symbols_of(struct side *sd, const struct compare_opts *o, int k,
		      struct srep_error *err)
{
	struct cli_symbol_args a;
	int ret;

	cli_symbol_args_of(o->sym, k, &a);
	ret = cli_symbolizer_new(&sd->cs.sy, sd->s, &a, err);
	if (!ret && sd->cs.sy)
		srep_metrics__set_symbolizer(sd->m, sd->cs.sy);
	return ret;
}

/*
 * --time and --cpu: events outside the window are not counted (untimed ones,
 * synthesized at the start, name the tasks); nor samples of other CPUs, while
 * the records that fork, name and end tasks count whatever their CPU
 */
static bool counted(const struct srep_perf_filter *f, const struct srep_event *ev)
{
	struct srep_perf_filter window = { .from = f->from, .to = f->to };
	struct srep_perf_filter cpus = { .cpus = f->cpus, .nr_cpus = f->nr_cpus };

	return (!ev->time || srep_perf_filter__has_event(&window, ev)) &&
	       (ev->source == SREP_SRC_RECORD || srep_perf_filter__has_event(&cpus, ev));
}

static int read_side(struct side *sd, int k, const char *path, const struct compare_opts *o,
		     struct srep_error *err)
{
	struct srep_perf_filter f = { .sel = NULL };
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN, .diag = cli_diag };
	const struct srep_event *ev;
	struct cli_progress prog;
	char label[32];
	int ret;

	ret = srep_session__open(&sd->s, path, &oo, err);
	sd->sel = o->sel[k];
	if (!ret)
		ret = srep_selection__resolve(sd->sel, sd->s, err);
	if (!ret && !srep_selection__nr_tasks(sd->sel))
		ret = srep_error__set(err, SREP_E_SELECT, "%s: no task matches the selection of %c "
				      "(--only, --exclude, --only-%c, --exclude-%c)", path, 'A' + k,
				      'a' + k, 'a' + k);
	if (!ret)
		ret = perf_window_resolve(&o->win, sd->s, &f, err);
	if (!ret)
		ret = srep_metrics__new(&sd->m, sd->s, err);
	if (!ret)
		ret = symbols_of(sd, o, k, err);
	if (ret)
		return ret;
	cli_progress_init(&prog, path, sd->s, NULL);
	while ((ret = cli_next_event(&prog, sd->s, &ev, err)) > 0) {
		/* every frame resolved, so that the summary says how many resolved */
		ret = cli_symbols_event(&sd->cs, ev, err);
		if (!ret && counted(&f, ev))
			ret = srep_metrics__add(sd->m, ev, err);
		if (ret)
			break;
	}
	cli_progress_done(&prog);
	srep_metrics__finish(sd->m);
	snprintf(label, sizeof(label), "schedrep: %c: ", 'A' + k);
	if (!ret && !cli_quiet)
		cli_symbols_summary(stderr, label, sd->cs.sy);
	return ret;
}

static void free_side(struct side *sd)
{
	cli_symbols_close(&sd->cs);
	srep_metrics__delete(sd->m);
	srep_session__delete(sd->s);
}

/* fill an output opened before the work, and commit it (or abort it on failure) */
static int write_out(struct cli_out *out, const struct compare_run *r, int what)
{
	struct srep_error err = { 0 };

	if (what == OPT_HTML)
		compare_html(out->f, r);
	else if (what == OPT_JSON && compare_json(out->f, r)) {
		cli_out_abort(out);
		cli_errorf("out of memory");
		return EXIT_FAIL;
	} else if (what != OPT_JSON)
		compare_text(out->f, r);
	if (cli_out_commit(out, &err))
		return cli_error(&err);
	return EXIT_OK;
}

static int run(struct compare_opts *o, const char *path[2])
{
	struct side sd[2] = { { 0 }, { 0 } };
	struct srep_compare_side cs[2];
	struct compare_run r = { .path = { path[0], path[1] }, .mode = o->mode };
	struct srep_compare *c = NULL;
	struct srep_error err = { 0 };
	struct cli_out text, html;
	bool text_open = false, html_open = false;
	int k, ret, status;

	/* the outputs first: a path that cannot be written fails before the work */
	ret = cli_out_open(&text, o->output ? o->output : "-", path[0], &err);
	text_open = !ret;
	if (!ret && o->html)
		html_open = !(ret = cli_out_open(&html, o->html, path[0], &err));
	for (k = 0; k < 2 && !ret; k++)
		ret = read_side(&sd[k], k, path[k], o, &err);
	for (k = 0; k < 2 && !ret; k++) {
		cs[k] = (struct srep_compare_side){ sd[k].s, sd[k].m, sd[k].sel, o->scale[k] };
		r.s[k] = sd[k].s;
		r.m[k] = sd[k].m;
		r.scale[k] = o->scale[k];
	}
	if (!ret)
		ret = srep_compare__new(&c, &cs[0], &cs[1], o->mode, &err);
	if (ret) {
		status = cli_error(&err);
		if (text_open)
			cli_out_abort(&text);
		if (html_open)
			cli_out_abort(&html);
		goto out;
	}
	r.c = c;
	status = write_out(&text, &r, o->json ? OPT_JSON : 0);
	if (html_open && status)
		cli_out_abort(&html);
	else if (html_open)
		status = write_out(&html, &r, OPT_HTML);
out:
	srep_compare__delete(c);
	free_side(&sd[0]);
	free_side(&sd[1]);
	return status;
}

/* repeated runs: each trace read, its figures taken, then freed (one in memory at a time) */
static int run_many(struct compare_opts *o, char **path[2], size_t n[2])
{
	struct compare_runs_out ro = { .path = { path[0], path[1] }, .n = { n[0], n[1] } };
	struct srep_compare_side cs;
	struct srep_runs *runs = NULL;
	struct srep_error err = { 0 };
	struct cli_out out;
	size_t i;
	int k, ret, status;

	ret = cli_out_open(&out, o->output ? o->output : "-", path[0][0], &err);
	if (ret)
		return cli_error(&err);
	ret = srep_runs__new(&runs, &err);
	for (k = 0; k < 2 && !ret; k++) {
		for (i = 0; i < n[k] && !ret; i++) {
			struct side sd = { 0 };

			ret = read_side(&sd, k, path[k][i], o, &err);
			cs = (struct srep_compare_side){ sd.s, sd.m, sd.sel, o->scale[k] };
			if (!ret)
				ret = srep_runs__add(runs, k, &cs, &err);
			free_side(&sd);
		}
	}
	if (!ret)
		ret = srep_runs__finish(runs, &err);
	if (ret) {
		cli_out_abort(&out);
		srep_runs__delete(runs);
		return cli_error(&err);
	}
	ro.runs = runs;
	status = EXIT_OK;
	if (o->json && compare_runs_json(out.f, &ro)) {
		cli_errorf("out of memory");
		status = EXIT_FAIL;
	} else if (!o->json) {
		compare_runs_text(out.f, &ro);
	}
	if (status)
		cli_out_abort(&out);
	else if (cli_out_commit(&out, &err))
		status = cli_error(&err);
	srep_runs__delete(runs);
	return status;
}

/*
 * "--vs" splits the traces into A's and B's. getopt moves the traces after
 * the options, keeping their order: the "--vs" word is swapped for this
 * marker, a non-option getopt moves with them and which is found by address.
 */
static char vs_marker[] = "--vs";

static void mark_vs(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--vs")) {
			argv[i] = vs_marker + 2;	/* "vs", a word, not an option */
			return;
		}
	}
}

/* the traces of each side; EXIT_OK or a usage error */
static int split_sides(int argc, char **argv, int first, char **path[2], size_t n[2])
{
	int i, vs = -1, stdin_uses = 0;

	for (i = first; i < argc; i++) {
		if (argv[i] == vs_marker + 2 && vs < 0)
			vs = i;
		else
			stdin_uses += !strcmp(argv[i], "-");
	}
	if (stdin_uses > 1)
		return cli_usage_error(compare_usage, "standard input can hold one of the traces, "
				       "not two");
	if (vs < 0 && argc - first != 2)
		return cli_usage_error(compare_usage, "expected two traces, or runs of A --vs runs of B");
	path[0] = argv + first;
	n[0] = vs < 0 ? 1 : (size_t)(vs - first);
	path[1] = vs < 0 ? argv + first + 1 : argv + vs + 1;
	n[1] = vs < 0 ? 1 : (size_t)(argc - vs - 1);
	if (!n[0] || !n[1])
		return cli_usage_error(compare_usage, "--vs: at least one trace on each side");
	if (n[0] > SREP_RUNS_MAX || n[1] > SREP_RUNS_MAX)
		return cli_usage_error(compare_usage, "--vs: at most %d runs per side",
				       SREP_RUNS_MAX);
	return EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .mode = SREP_MATCH_AUTO, .scale = { 1, 1 } };
	const char *path[2];
	char **runs[2];
	size_t nr_runs[2] = { 0, 0 };
	struct srep_error err = { 0 };
	int first, ret;
	bool done;

	if (srep_selection__new(&o.sel[0], &err) || srep_selection__new(&o.sel[1], &err)) {
		ret = cli_error(&err);
		goto out;
	}
	mark_vs(argc, argv);
	ret = cli_parse(argc, argv, compare_usage, compare_desc, compare_opts, on_opt, &o, &first,
			&done);
	if (!ret && !done)
		ret = split_sides(argc, argv, first, runs, nr_runs);
	if (!ret && !done && o.html && (nr_runs[0] > 1 || nr_runs[1] > 1))
		ret = cli_usage_error(compare_usage, "--html shows two traces: not with several "
				      "runs per side (the table or --json)");
	if (!ret && !done) {
		cli_signals_install();
		if (nr_runs[0] > 1 || nr_runs[1] > 1) {
			ret = run_many(&o, runs, nr_runs);
		} else {
			path[0] = runs[0][0];
			path[1] = runs[1][0];
			ret = run(&o, path);
		}
	}
out:
	srep_selection__delete(o.sel[0]);
	srep_selection__delete(o.sel[1]);
	perf_window_free(&o.win);
	return ret;
}
