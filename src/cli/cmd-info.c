// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-info.c - "schedrep info": what is in a trace. Counts are perf's own
 * (perf report --stats); the JSON schema is docs/info.md.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "perfopts.h"

static const char info_usage[] =
	"usage: schedrep info [--json] [--stats] [--kallsyms <file>] [--vmlinux <file>] "
	"[--symfs <dir>] [--buildid-dir <dir>] [--no-symbols] [--time <from,to>] [-C <list>] [-q] "
	"[-i <file>] [<perf.data>]";
static const char info_desc[] =
	"Print the trace's header facts (architecture, byte order, perf and kernel\n"
	"versions, CPUs, clock, command line), the records per type and the samples\n"
	"per event exactly as 'perf report --stats' counts them, the time span, the\n"
	"number of tasks and what was lost; for traces with callchains, how many frames\n"
	"resolved from the target's files (docs/symbols.md). <perf.data> may be '-' for\n"
	"standard input. --time and --cpu restrict the events counted per kind and the\n"
	"samples per event of the \"selected\" part; the record counts stay perf's,\n"
	"of the whole file.";

enum { OPT_JSON = 1, OPT_STATS, OPT_QUIET, OPT_INPUT };

static const struct cli_opt info_opts[] = {
	{ "json", 0, NULL, "print JSON (schema: docs/info.md)", OPT_JSON },
	{ "stats", 0, NULL, "only count records, as perf report --stats (fastest)", OPT_STATS },
	CLI_SYMBOL_OPTIONS,
	CLI_NO_SYMBOLS_OPTION,
	PERF_WINDOW_OPTIONS,
	{ "quiet", 'q', NULL, "no warnings on stderr", OPT_QUIET },
	CLI_INPUT_OPTION(OPT_INPUT),
	{ NULL, 0, NULL, NULL, 0 },
};

struct info_opts {
	const char *input;
	bool json, stats_only;
	struct cli_symbol_args sym;
	struct perf_window win;
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct info_opts *o = ctx;
	int ret;

	if (cli_symbol_opt(&o->sym, id, arg))
		return EXIT_OK;
	if (perf_window_opt(&o->win, id, arg, info_usage, &ret))
		return ret;
	if (id == OPT_INPUT)
		o->input = arg;
	else if (id == OPT_JSON)
		o->json = true;
	else if (id == OPT_STATS)
		o->stats_only = true;
	else if (id == OPT_QUIET)
		cli_quiet = true;
	return EXIT_OK;
}

/* grow counts->evsels to hold index i; 0 or -1 */
static int evsel_room(struct info_counts *c, size_t i)
{
	size_t n = c->nr_evsels ? c->nr_evsels : 8;
	uint64_t *v;

	if (i < c->nr_evsels)
		return 0;
	while (n <= i)
		n *= 2;
	v = realloc(c->evsels, n * sizeof(*v));
	if (!v)
		return -1;
	memset(v + c->nr_evsels, 0, (n - c->nr_evsels) * sizeof(*v));
	c->evsels = v;
	c->nr_evsels = n;
	return 0;
}

/* one event: counted per kind when the filter keeps it, and per event if a sample */
static int count_event(struct info_counts *c, const struct srep_event *ev,
		       struct srep_error *err)
{
	if (c->filter && !srep_perf_filter__has_event(c->filter, ev))
		return 0;
	c->kinds[ev->kind]++;
	c->kept++;
	if (ev->evsel < 0 || ev->source == SREP_SRC_RECORD)
		return 0;
	if (evsel_room(c, (size_t)ev->evsel))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the counts");
	c->evsels[ev->evsel]++;
	return 0;
}

static int read_all(struct srep_session *s, bool stats_only, struct info_counts *counts,
		    struct cli_symbols *cs, struct srep_error *err)
{
	const struct srep_event *ev;
	struct cli_progress prog;
	int ret;

	if (stats_only)
		return srep_session__count(s, err);
	cli_progress_init(&prog, "reading", s, NULL);
	while ((ret = cli_next_event(&prog, s, &ev, err)) > 0) {
		if (cli_symbols_event(cs, ev, err)) {
			ret = SREP_E_NOMEM;
			break;
		}
		ret = count_event(counts, ev, err);
		if (ret)
			break;
	}
	cli_progress_done(&prog);
	return ret;
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static const char *clock_name(int64_t clockid)
{
	static const char *const names[] = { "CLOCK_REALTIME", "CLOCK_MONOTONIC",
		"CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID", "CLOCK_MONOTONIC_RAW",
		"CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME",
		"CLOCK_REALTIME_ALARM", "CLOCK_BOOTTIME_ALARM", NULL, "CLOCK_TAI" };

	if (clockid < 0)
		return "perf clock (the kernel's local clock)";
	if ((size_t)clockid < sizeof(names) / sizeof(names[0]) && names[clockid])
		return names[clockid];
	return "unknown clock";
}

static void text_header(const struct srep_meta *m)
{
	int i;

	printf("file:          %s (%s, %s mode)\n", m->path, m->format, m->pipe_mode ? "pipe" : "file");
	printf("arch:          %s, %s-endian, %s\n", or_unknown(m->arch),
	       m->big_endian ? "big" : "little",
	       m->word_size ? (m->word_size == 8 ? "64-bit" : "32-bit") : "word size unknown");
	printf("perf version:  %s\n", or_unknown(m->perf_version));
	printf("kernel:        %s\n", or_unknown(m->osrelease));
	printf("hostname:      %s\n", or_unknown(m->hostname));
	if (m->nr_cpus_online >= 0)
		printf("cpus:          %d online, %d available\n", m->nr_cpus_online, m->nr_cpus_avail);
	else
		printf("cpus:          unknown\n");
	printf("cpu:           %s%s%s\n", or_unknown(m->cpudesc), m->cpuid ? ", cpuid " : "",
	       m->cpuid ? m->cpuid : "");
	if (m->total_mem_kb >= 0)
		printf("memory:        %" PRId64 " kB\n", m->total_mem_kb);
	else
		printf("memory:        unknown\n");
	printf("clock:         %s\n", clock_name(m->clockid));
	printf("command line:  ");
	for (i = 0; i < m->nr_cmdline; i++)
		printf("%s%s", i ? " " : "", m->cmdline[i]);
	printf("%s\n", m->cmdline ? "" : "unknown");
}

static void text_counts(const struct srep_session *s)
{
	const struct srep_stats *st = srep_session__stats(s);
	size_t i;

	printf("records:       %" PRIu64 "\n", st->total_records);
	for (i = 0; i < SREP_NR_RECORD_TYPES; i++) {
		if (st->records[i])
			printf("  %-20s %10" PRIu64 "\n", srep_record_type_name((uint32_t)i) ?
			       srep_record_type_name((uint32_t)i) : "UNKNOWN", st->records[i]);
	}
	if (st->unknown_records)
		printf("  %-20s %10" PRIu64 "\n", "(unknown types)", st->unknown_records);
	if (st->google_legacy_records)
		printf("  %-20s %10" PRIu64 "\n", "GOOGLE_LEGACY_HEADER", st->google_legacy_records);
	printf("samples per event:\n");
	for (i = 0; i < srep_session__nr_evsels(s); i++) {
		if (srep_session__evsel_samples(s, i))
			printf("  %-30s %10" PRIu64 "\n", srep_session__evsel_name(s, i),
			       srep_session__evsel_samples(s, i));
	}
}

static void text_model(const struct srep_session *s, const struct info_counts *c)
{
	const struct srep_stats *st = srep_session__stats(s);
	double span = (double)(st->last_time - st->first_time) / 1e9;
	int k;

	if (st->first_time)
		printf("time span:     %.6f .. %.6f (%.6f s)\n", (double)st->first_time / 1e9,
		       (double)st->last_time / 1e9, span);
	else
		printf("time span:     unknown (no timestamps)\n");
	printf("tasks:         %zu\n", srep_session__nr_tasks(s));
	if (c->filter)
		printf("events:        %" PRIu64 " of %" PRIu64 " pass %s\n", c->kept, st->events,
		       c->filter_text);
	else
		printf("events:        %" PRIu64 "\n", st->events);
	for (k = 1; k < SREP_EV_MAX; k++) {
		if (c->kinds[k])
			printf("  %-20s %10" PRIu64 "\n", srep_event_kind_name(k), c->kinds[k]);
	}
	if (c->filter) {
		printf("samples per event passing %s:\n", c->filter_text);
		for (k = 0; (size_t)k < c->nr_evsels; k++) {
			if (c->evsels[k])
				printf("  %-30s %10" PRIu64 "\n",
				       srep_session__evsel_name(s, (size_t)k), c->evsels[k]);
		}
	}
	printf("lost:          %" PRIu64 " events (LOST), %" PRIu64 " samples (LOST_SAMPLES)",
	       st->lost, st->lost_samples);
	if (span > 0)
		printf(", data loss %.2f%% of the time span", 100.0 * (double)st->lost_time_ns / 1e9 / span);
	printf("\n");
	if (st->late_events)
		printf("late events:   %" PRIu64 " arrived after the reorder window (delivered out of order)\n",
		       st->late_events);
}

static void print_text(const struct srep_session *s, bool stats_only, const struct info_counts *c,
		       const struct srep_symbolizer *sy)
{
	text_header(srep_session__meta(s));
	info_features_text(srep_session__meta(s));
	text_counts(s);
	if (stats_only) {
		const struct srep_stats *st = srep_session__stats(s);

		printf("lost:          %" PRIu64 " events (LOST), %" PRIu64 " samples (LOST_SAMPLES)\n",
		       st->lost, st->lost_samples);
		return;
	}
	text_model(s, c);
	info_schedstat_text(s);
	cli_symbols_summary(stdout, "callchains:    ", sy);
}



int cmd_info(int argc, char **argv)
{
	struct srep_open_opts oo = { .diag = cli_diag };
	struct info_opts o = { 0 };
	struct info_counts counts = { .filter = NULL };
	struct srep_perf_filter filter = { .sel = NULL };
	char filter_text[160];
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct cli_symbols cs = { 0 };
	const char *path = NULL;
	int first, ret, status;
	bool done;

	ret = cli_parse(argc, argv, info_usage, info_desc, info_opts, on_opt, &o, &first, &done);
	if (ret || done)
		return ret;
	if (cli_one_trace(argc, argv, first, o.input, info_usage, &path))
		return EXIT_USAGE;
	if (o.stats_only && perf_window_given(&o.win)) {
		perf_window_free(&o.win);
		return cli_usage_error(info_usage, "--stats counts records, not events: "
				       "--time and --cpu do not apply");
	}
	cli_signals_install();
	if (o.stats_only)
		oo.flags |= SREP_OPEN_COUNT_ONLY;
	if (o.win.time)
		oo.flags |= SREP_OPEN_PRESCAN;
	ret = srep_session__open(&s, path, &oo, &err);
	if (!ret && perf_window_given(&o.win)) {
		ret = perf_window_resolve(&o.win, s, &filter, &err);
		counts.filter = &filter;
		counts.filter_text = perf_window_describe(&o.win, filter_text, sizeof(filter_text));
	}
	if (ret) {
		srep_session__delete(s);
		perf_window_free(&o.win);
		return cli_error(&err);
	}
	if (!o.stats_only && cli_symbols_open(&cs, s, &o.sym)) {
		srep_session__delete(s);
		perf_window_free(&o.win);
		return EXIT_FAIL;
	}
	ret = read_all(s, o.stats_only, &counts, &cs, &err);
	/* what was read before an error is still worth showing */
	if (o.json)
		status = info_json(s, o.stats_only, &counts, cs.sy);
	else
		status = (print_text(s, o.stats_only, &counts, cs.sy), EXIT_OK);
	if (ret)
		status = cli_error(&err);
	else if (status == EXIT_OK && srep_stats__damaged(srep_session__stats(s)))
		status = EXIT_FAIL;
	cli_symbols_close(&cs);
	srep_session__delete(s);
	free(counts.evsels);
	perf_window_free(&o.win);
	return status;
}
