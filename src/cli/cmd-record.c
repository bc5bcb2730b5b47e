// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-record.c - "schedrep record": parse the options, run the recorder
 * engine (record/record.h), say what was written. The summary goes to
 * stderr: with '-o -' stdout is the trace itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

static const char record_usage[] =
	"usage: schedrep record [-o FILE|-] [-e EVENT]... [-a | -p PID[,PID] | -- CMD ARGS...] "
	"[-C CPUS] [-g] [-m PAGES] [-z] [--ring SIZE] [--trigger signal|fifo:PATH|latency:MS]... "
	"[--max-dumps N]";
static const char record_desc[] =
	"Record scheduler events with perf_event_open into a standard perf.data that perf and\n"
	"every schedrep command read. Without -e: sched_switch, sched_waking (sched_wakeup\n"
	"where the kernel lacks it), sched_wakeup_new, sched_migrate_task,\n"
	"sched_process_fork/exec/exit/free and sched_stat_runtime, with COMM/FORK/EXIT/MMAP2\n"
	"side-band, as 'perf sched record'. The whole system is recorded (as perf sched\n"
	"record does), until CMD exits after -- CMD, else until SIGINT/SIGTERM; -p records\n"
	"only those processes' threads. With --ring, samples stay in memory and\n"
	"each trigger dumps them to FILE.N.SECONDS. Sizes take K, M, G (binary units).";

enum {
	OPT_OUTPUT = 1, OPT_EVENT, OPT_ALL, OPT_PID, OPT_CPUS, OPT_CALLCHAIN, OPT_PAGES,
	OPT_COMPRESS, OPT_RING, OPT_TRIGGER, OPT_MAX_DUMPS, OPT_TRACEFS, OPT_QUIET,
};

static const struct cli_opt record_opts[] = {
	{ "output", 'o', "FILE", "write here (default perf.data); '-' = pipe mode on stdout", OPT_OUTPUT },
	{ "event", 'e', "EVENT", "tracepoint (sched:sched_switch) or software event; repeatable",
	  OPT_EVENT },
	{ "all-cpus", 'a', NULL, "the whole system (the default without -p)", OPT_ALL },
	{ "pid", 'p', "PID[,PID]", "these processes' threads", OPT_PID },
	{ "cpu", 'C', "CPUS", "only these CPUs, e.g. 0-3,6", OPT_CPUS },
	{ "callchain", 'g', NULL, "record callchains", OPT_CALLCHAIN },
	{ "mmap-pages", 'm', "PAGES", "ring buffer pages per CPU, a power of two (1024)", OPT_PAGES },
	{ "compress", 'z', NULL, "zstd-compressed records", OPT_COMPRESS },
	{ "ring", 0, "SIZE", "flight recorder: keep the newest SIZE of samples", OPT_RING },
	{ "trigger", 0, "WHAT", "signal, fifo:PATH or latency:MS (dump on it); repeatable", OPT_TRIGGER },
	{ "max-dumps", 0, "N", "stop after N dumps (10)", OPT_MAX_DUMPS },
	{ "tracefs", 0, "DIR", "tracefs mount (/sys/kernel/tracing)", OPT_TRACEFS },
	{ "quiet", 'q', NULL, "no summary on stderr", OPT_QUIET },
	{ NULL, 0, NULL, NULL, 0 },
};

struct record_cli {
	struct srep_rec_opts o;
	const char **events;
	int32_t *pids;
};

static int add_pids(struct record_cli *c, const char *arg)
{
	const char *p = arg;
	int32_t *n;
	char *end;
	long v;

	while (*p) {
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || v > INT32_MAX || (*end && *end != ','))
			return cli_usage_error(record_usage, "bad -p '%s': expected PID[,PID]", arg);
		n = realloc(c->pids, (c->o.nr_pids + 1) * sizeof(*n));
		if (!n)
			return (cli_errorf("out of memory"), EXIT_FAIL);
		c->pids = n;
		c->pids[c->o.nr_pids++] = (int32_t)v;
		p = *end ? end + 1 : end;
	}
	c->o.pids = c->pids;
	return EXIT_OK;
}

static int add_trigger(struct record_cli *c, const char *arg)
{
	char *end;
	double ms;

	if (!strcmp(arg, "signal")) {
		c->o.trigger_signal = true;
	} else if (!strncmp(arg, "fifo:", 5) && arg[5]) {
		c->o.trigger_fifo = arg + 5;
	} else if (!strncmp(arg, "latency:", 8)) {
		ms = strtod(arg + 8, &end);
		if (end == arg + 8 || *end || !(ms > 0) || ms > 1e9)
			return cli_usage_error(record_usage, "bad trigger '%s': latency:MS needs milliseconds > 0",
					       arg);
		c->o.trigger_latency_ns = (uint64_t)(ms * 1e6);
	} else {
		return cli_usage_error(record_usage, "bad trigger '%s': expected signal, fifo:PATH or latency:MS",
				       arg);
	}
	return EXIT_OK;
}

static int unsigned_arg(const char *opt, const char *arg, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || v == 0 || v > UINT32_MAX || *arg == '-')
		return cli_usage_error(record_usage, "bad %s '%s': expected a positive number", opt, arg);
	*out = (unsigned)v;
	return EXIT_OK;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct record_cli *c = ctx;
	struct srep_error err = { 0 };
	const char **n;

	switch (id) {
	case OPT_OUTPUT:	c->o.output = arg; break;
	case OPT_ALL:		c->o.system_wide = true; break;
	case OPT_PID:		return add_pids(c, arg);
	case OPT_CPUS:		c->o.cpus = arg; break;
	case OPT_CALLCHAIN:	c->o.callchain = true; break;
	case OPT_PAGES:		return unsigned_arg("-m", arg, &c->o.mmap_pages);
	case OPT_COMPRESS:	c->o.compress = true; break;
	case OPT_TRIGGER:	return add_trigger(c, arg);
	case OPT_MAX_DUMPS:	return unsigned_arg("--max-dumps", arg, &c->o.max_dumps);
	case OPT_TRACEFS:	c->o.tracefs = arg; break;
	case OPT_QUIET:		cli_quiet = true; break;
	case OPT_RING:
		if (srep_rec_parse_size(arg, &c->o.ring_bytes, &err) || !c->o.ring_bytes)
			return cli_usage_error(record_usage, "bad --ring '%s': expected a size such as 64M", arg);
		break;
	case OPT_EVENT:
		n = realloc(c->events, (c->o.nr_events + 1) * sizeof(*n));
		if (!n)
			return (cli_errorf("out of memory"), EXIT_FAIL);
		c->events = n;
		c->events[c->o.nr_events++] = arg;
		c->o.events = c->events;
		break;
	default:
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void on_dump(void *arg, const struct srep_rec_dump *d)
{
	(void)arg;
	if (cli_quiet)
		return;
	fprintf(stderr, "schedrep record: dump %u (%s at %" PRIu64 ".%06" PRIu64, d->index, d->reason,
		d->trigger_time / 1000000000u, d->trigger_time % 1000000000u / 1000u);
	if (d->late_tid >= 0)
		fprintf(stderr, ": task %d waited %.3f ms", d->late_tid, (double)d->late_ns / 1e6);
	fprintf(stderr, "): '%s', %" PRIu64 " bytes, %" PRIu64 " samples", d->path, d->bytes, d->samples);
	if (d->samples)
		fprintf(stderr, " from %.6f to %.6f", (double)d->first_time / 1e9, (double)d->last_time / 1e9);
	fputc('\n', stderr);
}

static void summary(const struct srep_rec_stats *st)
{
	double span = st->last_time > st->first_time ? (double)(st->last_time - st->first_time) / 1e9 : 0;
	size_t i;

	if (st->ring)
		fprintf(stderr, "schedrep record: flight recorder: %u dumps of '%s.N.SECONDS', %" PRIu64
			" triggers coalesced, %" PRIu64 " samples pushed out of the ring\n", st->dumps, st->path,
			st->coalesced, st->ring_dropped);
	else
		fprintf(stderr, "schedrep record: wrote '%s' (%s mode%s): %" PRIu64 " bytes, %" PRIu64
			" records in %" PRIu64 " rounds\n", st->path, st->pipe_mode ? "pipe" : "file",
			st->compressed ? ", zstd" : "", st->bytes, st->records, st->rounds);
	for (i = 0; i < st->nr_events; i++)
		fprintf(stderr, "  %-30s %12" PRIu64 " samples\n", st->events[i].name, st->events[i].samples);
	fprintf(stderr, "  lost: %" PRIu64 " events (LOST), %" PRIu64 " samples (LOST_SAMPLES); "
		"data loss %.2f%% of %.3f s\n", st->lost, st->lost_samples,
		span > 0 ? 100.0 * (double)st->lost_time_ns / 1e9 / span : 0.0, span);
	if (st->workload && st->workload_status && WIFEXITED(st->workload_status))
		fprintf(stderr, "  the command exited with status %d\n", WEXITSTATUS(st->workload_status));
	else if (st->workload && WIFSIGNALED(st->workload_status))
		fprintf(stderr, "  the command was killed by signal %d\n", WTERMSIG(st->workload_status));
}

static int record(struct record_cli *c)
{
	struct srep_recorder *r = NULL;
	struct srep_error err = { 0 };
	const struct srep_rec_stats *st;
	int ret;

	if (c->o.output && !strcmp(c->o.output, "-") && isatty(STDOUT_FILENO)) {
		cli_errorf("refusing to write a binary trace to a terminal: redirect stdout or use -o FILE");
		return EXIT_FAIL;
	}
	c->o.on_dump = on_dump;
	if (srep_recorder__new(&r, &c->o, &err))
		return cli_error(&err);
	st = srep_recorder__stats(r);
	if (!cli_quiet && st->skipped_events[0])
		fprintf(stderr, "schedrep record: this kernel has no %s: recording without\n",
			st->skipped_events);
	ret = srep_recorder__run(r, &err);
	if (!cli_quiet)
		summary(st);
	if (ret) {
		ret = cli_error(&err);
	} else {
		/* -a ends on SIGINT by design; a command cut short was interrupted */
		ret = st->interrupted && st->workload ? EXIT_INTERRUPTED : EXIT_OK;
	}
	srep_recorder__delete(r);
	return ret;
}

/* combinations that make no sense are usage errors, before anything starts */
static int check_usage(const struct srep_rec_opts *o)
{
	if (o->ring_bytes && o->output && !strcmp(o->output, "-"))
		return cli_usage_error(record_usage, "--ring writes dump files, not standard output ('-o -')");
	if ((o->trigger_signal || o->trigger_fifo || o->trigger_latency_ns) && !o->ring_bytes)
		return cli_usage_error(record_usage, "--trigger needs --ring SIZE");
	if (o->nr_pids && (o->argv || o->system_wide))
		return cli_usage_error(record_usage, "-p cannot be combined with -a or a command");
	if (o->mmap_pages & (o->mmap_pages - 1))
		return cli_usage_error(record_usage, "-m %u: pages must be a power of two", o->mmap_pages);
	return EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
	struct record_cli c = { { 0 }, NULL, NULL };
	int first, ret;
	bool done;

	ret = cli_parse(argc, argv, record_usage, record_desc, record_opts, on_opt, &c, &first, &done);
	if (!ret && !done) {
		if (first < argc)
			c.o.argv = argv + first;
		ret = check_usage(&c.o);
		/* a command too, as perf sched record (perf record -a): every task
		 * that shares the CPUs with it is seen, switched and named */
		if (!c.o.nr_pids)
			c.o.system_wide = true;
		c.o.cmdline = (const char *const *)argv;
		c.o.nr_cmdline = argc;
		if (!ret)
			ret = record(&c);
	}
	free(c.events);
	free(c.pids);
	return ret;
}
