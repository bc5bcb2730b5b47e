// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfopts.c - input, output and filters of the commands with perf's names
 * (perfopts.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfopts.h"

/* CPU numbers a --cpu list may name: far more than any machine perf ran on */
#define PERF_MAX_CPU 65535

int perf_args_init(struct perf_args *a)
{
	struct srep_error err = { 0 };

	memset(a, 0, sizeof(*a));
	if (srep_selection__new(&a->sel, &err))
		return cli_error(&err);
	return EXIT_OK;
}

void perf_args_free(struct perf_args *a)
{
	srep_selection__delete(a->sel);
	perf_window_free(&a->win);
}

/* "0,2-3" into w->cpu_set; 0 or -1 */
static int parse_cpus(struct perf_window *w, const char *list)
{
	const char *p = list;
	long lo, hi, c;
	char *end;

	free(w->cpu_set);
	w->cpu_set = calloc(PERF_MAX_CPU + 1, sizeof(bool));
	if (!w->cpu_set)
		return -1;
	w->nr_cpu_set = PERF_MAX_CPU + 1;
	do {
		errno = 0;
		lo = strtol(p, &end, 10);
		hi = lo;
		if (end == p || errno || lo < 0 || lo > PERF_MAX_CPU)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || errno || hi < lo || hi > PERF_MAX_CPU)
				return -1;
			p = end;
		}
		for (c = lo; c <= hi; c++)
			w->cpu_set[c] = true;
	} while (*p++ == ',');
	return p[-1] ? -1 : 0;
}

int perf_window_opt(struct perf_window *w, int id, const char *arg, const char *usage, int *ret)
{
	struct srep_error err = { 0 };
	uint64_t from, to;

	*ret = EXIT_OK;
	if (id == PO_TIME) {
		/* the syntax now (a usage error); the values once the trace start is known */
		w->time = arg;
		if (srep_time__parse_range(arg, 0, &from, &to, &err))
			*ret = cli_usage_error(usage, "--time: %s", err.msg);
	} else if (id == PO_CPU) {
		w->cpus = arg;
		if (parse_cpus(w, arg))
			*ret = cli_usage_error(usage, "--cpu: '%s': expected a list such as 0,2-3", arg);
	} else {
		return 0;
	}
	return 1;
}

bool perf_window_given(const struct perf_window *w)
{
	return w->time || w->cpus;
}

int perf_window_resolve(const struct perf_window *w, const struct srep_session *s,
			struct srep_perf_filter *f, struct srep_error *err)
{
	uint64_t first = 0, last = 0;
	int ret;

	f->cpus = w->cpu_set;
	f->nr_cpus = w->nr_cpu_set;
	if (!w->time)
		return 0;
	srep_session__time_span(s, &first, &last);
	ret = srep_time__parse_range(w->time, first, &f->from, &f->to, err);
	if (!ret && (f->from > last || f->to < first))
		ret = srep_error__set(err, SREP_E_TIME, "the --time window '%s' holds no part of the "
				      "trace: it spans 0 .. %.6f s after its first event, "
				      "@%.6f .. @%.6f", w->time, (double)(last - first) / 1e9,
				      (double)first / 1e9, (double)last / 1e9);
	return ret;
}

void perf_window_free(struct perf_window *w)
{
	free(w->cpu_set);
	w->cpu_set = NULL;
}

const char *perf_window_describe(const struct perf_window *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s", w->time ? "--time " : "", w->time ? w->time : "",
		 w->time && w->cpus ? " " : "", w->cpus ? "--cpu " : "", w->cpus ? w->cpus : "");
	return buf;
}

int perf_args_opt(struct perf_args *a, int id, const char *arg, const char *usage, int *ret)
{
	struct srep_error err = { 0 };

	if (perf_window_opt(&a->win, id, arg, usage, ret))
		return 1;
	*ret = EXIT_OK;
	switch (id) {
	case PO_INPUT:		a->input = arg; break;
	case PO_OUTPUT:		a->output = arg; break;
	case PO_JSON:		a->json = true; break;
	case PO_QUIET:		cli_quiet = true; break;
	case PO_CHILDREN:	srep_selection__set_children(a->sel, true); break;
	case PO_PERF:
		if (srep_perf_dialect__parse(arg, &a->dialect, &err))
			*ret = cli_usage_error(usage, "--perf: %s", err.msg);
		break;
	case PO_ONLY:
	case PO_EXCLUDE:
		a->selecting = true;
		if ((id == PO_ONLY ? srep_selection__add_only : srep_selection__add_exclude)
		    (a->sel, arg, &err))
			*ret = cli_usage_error(usage, "%s", err.msg);
		break;
	default:
		return 0;
	}
	return 1;
}

int perf_args_open(struct perf_args *a, int argc, char **argv, int first, const char *usage,
		   struct srep_session **s, struct srep_perf_filter *f)
{
	struct srep_open_opts oo = { .diag = cli_diag };
	struct srep_error err = { 0 };

	if (cli_one_trace(argc, argv, first, a->input, usage, &a->input))
		return EXIT_USAGE;
	if (!a->output)
		a->output = "-";
	if (a->selecting || a->win.time)
		oo.flags |= SREP_OPEN_PRESCAN;
	memset(f, 0, sizeof(*f));
	if (srep_session__open(s, a->input, &oo, &err))
		return cli_error(&err);
	if (a->selecting) {
		if (srep_selection__resolve(a->sel, *s, &err))
			return cli_error(&err);
		f->sel = a->sel;
	}
	if (perf_window_resolve(&a->win, *s, f, &err))
		return cli_error(&err);
	return EXIT_OK;
}

void perf_usec(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns % 1000000000u / 1000u);
}

void perf_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)	/* valid JSON whatever the bytes */
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

int perf_cmd_main(const struct perf_cmd *cmd, struct perf_args *a, void *ctx,
		  int argc, char **argv)
{
	struct srep_session *s = NULL;
	struct srep_perf_filter f;
	int first, ret;
	bool done;

	ret = perf_args_init(a);
	if (ret)
		return ret;
	ret = cli_parse(argc, argv, cmd->usage, cmd->description, cmd->opts, cmd->on_opt, ctx,
			&first, &done);
	if (!ret && !done) {
		cli_signals_install();
		ret = perf_args_open(a, argc, argv, first, cmd->usage, &s, &f);
		if (!ret && cmd->kinds)
			srep_session__set_interest(s, cmd->kinds);
		if (!ret)
			ret = cmd->run(ctx, s, &f);
	}
	srep_session__delete(s);
	perf_args_free(a);
	return ret;
}
