// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-simpoint.c - "schedrep simpoint": representative intervals of a
 * sampled profile, as SimPoint picks them from basic-block vectors
 * (docs/man/schedrep-simpoint.1.md, docs/simpoint.md). The analysis is the
 * library's (schedrep/simpoint.h); this reads the trace, names the code of
 * each sample and writes the files.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "simpoint-code.h"
#include "simpoint-out.h"

static const char sp_usage[] =
	"usage: schedrep simpoint [-o <dir>] [--interval <n>] [--event <name>] [--max-k <k>] "
	"[--bic-threshold <f>] [--simpoint32] [--seed <n>] [--block <bytes>] [--per-thread] [--no-symbols] [--only <sel>]... "
	"[--exclude <sel>]... [--children] [symbol options] [-q] [-i <file>] [<perf.data>]";
static const char sp_desc[] =
	"Pick representative intervals of a profile recorded with periodic samples\n"
	"(perf record -e instructions:u -c 1000000, or -e cpu-clock without counters),\n"
	"as SimPoint 3 does from basic-block vectors: the execution cut into intervals\n"
	"of --interval counts of the event, one vector per interval (time per function,\n"
	"else per address block), k-means on their random projections, k chosen by BIC,\n"
	"and per cluster the interval nearest its centre. Writes SimPoint's files, the\n"
	"vectors, a summary, phases.svg and plan.json into <dir> (default NAME.simpoint);\n"
	"with --per-thread, one such analysis per thread in <dir>/tid-TID/.";

enum {
	OPT_OUTPUT = 1, OPT_INTERVAL, OPT_EVENT, OPT_MAX_K, OPT_BIC, OPT_SEED, OPT_BLOCK,
	OPT_ONLY, OPT_EXCLUDE, OPT_CHILDREN, OPT_QUIET, OPT_INPUT, OPT_SIMPOINT32, OPT_PER_THREAD,
};

static const struct cli_opt sp_opts[] = {
	{ "output", 'o', "<dir>", "the output directory (default NAME.simpoint)", OPT_OUTPUT },
	{ "interval", 0, "<n>", "interval length in the event's unit, K/M/G suffixes "
	  "(default 100M)", OPT_INTERVAL },
	{ "event", 'e', "<name>", "the event to count (default: the first with periods)", OPT_EVENT },
	{ "max-k", 0, "<k>", "try 1..k clusters (default 30, or fewer intervals)", OPT_MAX_K },
	{ "bic-threshold", 0, "<f>", "smallest k within this fraction of the best BIC "
	  "(default 0.9)", OPT_BIC },
	{ "simpoint32", 0, NULL, "exactly SimPoint 3.2's method: uniform starts, no noise floor",
	  OPT_SIMPOINT32 },
	{ "seed", 0, "<n>", "random seed of projection and k-means (default 1)", OPT_SEED },
	{ "block", 0, "<bytes>", "address block size for code without symbols (default 64)",
	  OPT_BLOCK },
	{ "per-thread", 0, NULL, "one analysis per thread, each counting its own samples",
	  OPT_PER_THREAD },
	CLI_NO_SYMBOLS_OPTION,
	CLI_SYMBOL_OPTIONS,
	{ "only", 0, "<sel>", "these tasks only: pid, tid:N, comm or glob (repeatable)", OPT_ONLY },
	{ "exclude", 0, "<sel>", "not these tasks (repeatable)", OPT_EXCLUDE },
	{ "children", 0, NULL, "--only also keeps the descendants of what it selects",
	  OPT_CHILDREN },
	{ "quiet", 'q', NULL, "no summary or warnings on stderr", OPT_QUIET },
	CLI_INPUT_OPTION(OPT_INPUT),
	{ NULL, 0, NULL, NULL, 0 },
};

struct sp_opts {
	const char *input, *output, *event;
	uint64_t interval, block;
	struct srep_simpoint_opts cl;
	struct cli_symbol_args sym;
	struct srep_selection *sel;
	bool per_thread;
};

/* "100M", "5000000", "2G": counts, with SimPoint's decimal K/M/G */
static int parse_count(const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);
	uint64_t mul = 1;

	if (end == arg || *arg == '-')
		return -1;
	if (*end == 'K' || *end == 'k')
		mul = 1000;
	else if (*end == 'M' || *end == 'm')
		mul = 1000000;
	else if (*end == 'G' || *end == 'g')
		mul = 1000000000;
	if (mul > 1)
		end++;
	if (*end || !v || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

static int on_number(struct sp_opts *o, int id, const char *arg)
{
	uint64_t v;
	char *end;
	double f;

	if (id == OPT_BIC) {
		f = strtod(arg, &end);
		if (end == arg || *end || !(f >= 0 && f <= 1))
			return cli_usage_error(sp_usage, "--bic-threshold: '%s' is not within 0..1", arg);
		o->cl.bic_threshold = f;
		return EXIT_OK;
	}
	if (parse_count(arg, &v))
		return cli_usage_error(sp_usage, "'%s': expected a positive count (K, M, G allowed)",
				       arg);
	if (id == OPT_INTERVAL)
		o->interval = v;
	else if (id == OPT_SEED)
		o->cl.seed = v;
	else if (id == OPT_BLOCK && !(v & (v - 1)))
		o->block = v;
	else if (id == OPT_MAX_K && v <= 1000)
		o->cl.max_k = (unsigned)v;
	else
		return cli_usage_error(sp_usage, "'%s': %s", arg, id == OPT_BLOCK ?
				       "the block size must be a power of two" : "at most 1000 clusters");
	return EXIT_OK;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct sp_opts *o = ctx;
	struct srep_error err = { 0 };
	int ret = 0;

	if (cli_symbol_opt(&o->sym, id, arg))
		return EXIT_OK;
	switch (id) {
	case OPT_OUTPUT:	o->output = arg; break;
	case OPT_INPUT:		o->input = arg; break;
	case OPT_EVENT:		o->event = arg; break;
	case OPT_QUIET:		cli_quiet = true; break;
	case OPT_SIMPOINT32:	o->cl.simpoint32 = true; break;
	case OPT_PER_THREAD:	o->per_thread = true; break;
	case OPT_CHILDREN:	srep_selection__set_children(o->sel, true); break;
	case OPT_ONLY:		ret = srep_selection__add_only(o->sel, arg, &err); break;
	case OPT_EXCLUDE:	ret = srep_selection__add_exclude(o->sel, arg, &err); break;
	default:		return on_number(o, id, arg);
	}
	return ret ? cli_usage_error(sp_usage, "%s", err.msg) : EXIT_OK;
}

struct sp_run {
	struct srep_session *s;
	struct srep_symbolizer *sy;
	struct srep_simpoint_event ev;
	struct sp_one all;		/* the whole selection's analysis */
	struct sp_threads threads;	/* --per-thread: one per thread instead */
	struct sp_blocks blocks;
};

/* one sample into the intervals: its basic blocks when it has a branch stack */
static int add_sample(struct sp_run *r, const struct sp_opts *o, const struct srep_event *ev,
		      uint64_t period, struct srep_error *err)
{
	struct sp_one *one = o->per_thread ? sp_thread_of(&r->threads, ev->tid, err) : &r->all;
	char key[SP_KEY_MAX];

	if (!one)
		return err->code;
	one->samples++;
	if (sp_blocks_of(&r->blocks, r->sy, ev)) {
		one->lbr_samples++;
		return srep_simpoint__add_parts(one->sp, ev->time, ev->tid, period, r->blocks.keys,
						r->blocks.weights, r->blocks.n, err);
	}
	return srep_simpoint__add(one->sp, ev->time, ev->tid, period,
				  sp_sample_key(r->sy, ev, o->block, !o->sym.off, key, sizeof(key)),
				  err);
}

/* every selected sample of the event into the intervals */
static int read_samples(struct sp_run *r, const struct sp_opts *o, struct srep_error *err)
{
	bool all = srep_selection__is_empty(o->sel);
	const struct srep_event *ev;
	struct cli_progress prog;
	uint64_t period;
	int ret;

	cli_progress_init(&prog, "reading", r->s, NULL);
	while ((ret = cli_next_event(&prog, r->s, &ev, err)) > 0 && !cli_interrupted) {
		if (r->sy && srep_symbolizer__observe(r->sy, ev)) {
			ret = srep_error__set(err, SREP_E_NOMEM, "no memory for the mappings");
			break;
		}
		period = srep_simpoint_event__period(&r->ev, ev);
		if (!period || (!all && !srep_selection__has_tid(o->sel, ev->tid)))
			continue;
		ret = add_sample(r, o, ev, period, err);
		if (ret)
			break;
	}
	cli_progress_done(&prog);
	if (cli_interrupted)
		return srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
	if (ret < 0)
		return ret;
	if (!o->per_thread)
		return srep_simpoint__finish(r->all.sp, err);
	if (!r->threads.n)
		return srep_error__set(err, SREP_E_SELECT, "no selected sample of '%s'", r->ev.name);
	for (size_t i = 0; i < r->threads.n && !ret; i++)
		ret = srep_simpoint__finish(r->threads.t[i].sp, err);
	return ret;
}

/* the trace opened with its task table, the event found, the selection resolved */
static int open_trace(struct sp_run *r, const struct sp_opts *o, const char *path,
		      struct srep_error *err)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN, .diag = cli_diag };
	int ret;

	ret = srep_session__open(&r->s, path, &oo, err);
	if (!ret)
		ret = srep_simpoint_event__find(&r->ev, r->s, o->event, err);
	if (!ret)
		ret = srep_selection__resolve(o->sel, r->s, err);
	if (!ret && !srep_selection__is_empty(o->sel) && !srep_selection__nr_tasks(o->sel))
		ret = srep_error__set(err, SREP_E_SELECT, "'%s': the selection matches no task", path);
	if (!ret && !o->sym.off)
		ret = srep_symbolizer__new(&r->sy, r->s, &o->sym.o, err);
	r->all.tid = -1;
	r->threads.interval = o->interval;
	if (!ret && !o->per_thread)
		ret = srep_simpoint__new(&r->all.sp, o->interval, err);
	return ret;
}

/* --per-thread's table, from the committed directory, on standard output */
static void print_threads(const char *dir)
{
	char path[4096], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/threads.txt", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stdout);
	if (f)
		fclose(f);
}

/* the files into a temporary directory, renamed to @dir when all are written */
static int write_dir(struct sp_run *r, const struct sp_opts *o, const char *path, const char *dir,
		     const struct sp_report *rep, struct srep_error *err)
{
	struct cli_out out;
	int ret = cli_out_open_dir(&out, dir, path, err);

	if (ret)
		return ret;
	ret = o->per_thread ? sp_write_threads(out.tmp, &r->threads, rep, &o->cl, r->s, !o->sym.off, err)
			    : sp_write_all(out.tmp, rep, err);
	if (!ret)
		ret = cli_out_commit(&out, err);
	if (ret)
		cli_out_abort(&out);
	return ret;
}

static int analyse_and_write(struct sp_run *r, const struct sp_opts *o, const char *path)
{
	struct srep_simpoint_result res = { 0 };
	struct srep_error err = { 0 };
	char *dir = o->output ? strdup(o->output) : cli_default_output(path, ".simpoint");
	struct sp_report rep = {
		.trace = path, .ev = &r->ev, .interval = o->interval, .samples = r->all.samples,
		.vectors = sp_vectors_name(&r->all, !o->sym.off), .sp = r->all.sp, .res = &res,
		.threshold = o->cl.bic_threshold,
	};
	int ret;

	if (!dir) {
		cli_errorf("no memory");
		return EXIT_FAIL;
	}
	if (!o->per_thread && srep_simpoint__cluster(r->all.sp, &o->cl, &res, &err)) {
		cli_errorf("'%s': %s", path, err.msg);
		free(dir);
		return EXIT_FAIL;
	}
	ret = write_dir(r, o, path, dir, &rep, &err);
	if (!ret && !cli_quiet) {
		if (o->per_thread)
			print_threads(dir);
		else
			sp_write_summary(stdout, &rep);
		printf("written: %s/\n", dir);
	}
	srep_simpoint_result__free(&res);
	free(dir);
	return ret ? cli_error(&err) : EXIT_OK;
}

int cmd_simpoint(int argc, char **argv)
{
	struct sp_opts o = { .interval = 100000000, .block = 64,
			     .cl = { .bic_threshold = 0.9, .seed = 1 } };
	struct srep_error err = { 0 };
	struct sp_run r = { 0 };
	const char *path = NULL;
	int first, ret;
	bool done;

	if (srep_selection__new(&o.sel, &err))
		return cli_error(&err);
	ret = cli_parse(argc, argv, sp_usage, sp_desc, sp_opts, on_opt, &o, &first, &done);
	if (!ret && !done && cli_one_trace(argc, argv, first, o.input, sp_usage, &path))
		ret = EXIT_USAGE;
	if (!ret && !done) {
		cli_signals_install();
		if (open_trace(&r, &o, path, &err) || read_samples(&r, &o, &err))
			ret = cli_error(&err);
		else
			ret = analyse_and_write(&r, &o, path);
	}
	srep_simpoint__delete(r.all.sp);
	sp_threads_free(&r.threads);
	srep_symbolizer__delete(r.sy);
	srep_session__delete(r.s);
	srep_selection__delete(o.sel);
	return ret;
}
