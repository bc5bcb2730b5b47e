// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - the schedrep command: dispatch to a subcommand, shared messages
 * and option parsing, and the final check that stdout was really written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const struct cli_cmd cli_commands[] = {
#ifndef SREP_RECORDER_ONLY
	{ "info", cmd_info, "what is in a trace: header facts, record and event counts" },
	{ "compare", cmd_compare, "compare two traces: per task, per CPU, whole workload" },
	{ "callchains", cmd_callchains, "symbolized callchains, as perf script prints them" },
	{ "convert", cmd_convert, "a timeline for Perfetto, lossless JSON or an SVG picture" },
	{ "latency", cmd_latency, "scheduling delays per task, as perf sched latency" },
	{ "timehist", cmd_timehist, "wait, delay and run time per switch, as perf sched timehist" },
	{ "script", cmd_script, "every event on one line, as perf script" },
	{ "map", cmd_map, "who runs on each CPU after each switch, as perf sched map" },
	{ "simpoint", cmd_simpoint, "representative intervals of a sampled profile, as SimPoint picks them" },
	{ "replay", cmd_replay, "replay selected tasks as mockup threads, scaled, with a fidelity report" },
	{ "fastforward", cmd_fastforward, "stop a workload at counts of a perf event and checkpoint it" },
#endif
	{ "record", cmd_record, "record scheduler events to perf.data, or a flight recorder" },
	{ NULL, NULL, NULL },
};

bool cli_quiet;

static void print_commands(FILE *f)
{
	const struct cli_cmd *c;

	fprintf(f, "usage: schedrep <command> [<options>] <trace>\n\ncommands:\n");
	for (c = cli_commands; c->name; c++)
		fprintf(f, "    %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'schedrep <command> --help' (or 'schedrep help <command>') describes each "
		"command;\n'schedrep --version' (-V, also after a command) says which schedrep this is.\n");
}

int cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedrep: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s\n", usage);
	return EXIT_USAGE;
}

void cli_errorf(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedrep: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_error(const struct srep_error *err)
{
	char buf[1024];

	srep_error__format(err, buf, sizeof(buf));
	fprintf(stderr, "schedrep: %s\n", buf);
	return EXIT_FAIL;
}

void cli_diag(void *arg, const struct srep_error *w)
{
	char buf[1024];

	(void)arg;
	if (cli_quiet)
		return;
	srep_error__format(w, buf, sizeof(buf));
	fprintf(stderr, "schedrep: warning: %s\n", buf);
}

void cli_print_help(FILE *f, const char *usage, const char *description,
		    const struct cli_opt *opts)
{
	const struct cli_opt *o;
	char left[64];

	fprintf(f, "%s\n\n", usage);
	if (description)
		fprintf(f, "%s\n\n", description);
	for (o = opts; o->name; o++) {
		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", o->short_name ? "-" : " ",
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "    %-28s %s\n", left, o->help);
	}
	fprintf(f, "    %-28s %s\n", "-h, --help", "show this help");
	fprintf(f, "    %-28s %s\n", "-V, --version", "show schedrep's version");
}

static int print_version(void)
{
	printf("schedrep %s\n", PACKAGE_VERSION);
	return EXIT_OK;
}

/* getopt_long tables built from the option table */
static int build_getopt(const struct cli_opt *opts, struct option **lo, char **so)
{
	size_t n = 0, i, k = 0;
	char *s;

	while (opts[n].name)
		n++;
	*lo = calloc(n + 3, sizeof(**lo));
	*so = s = calloc(3 * n + 5, 1);
	if (!*lo || !s)
		return -1;
	s[k++] = ':';
	s[k++] = 'h';
	s[k++] = 'V';
	for (i = 0; i < n; i++) {
		(*lo)[i] = (struct option){ opts[i].name, opts[i].arg ? required_argument : no_argument,
					    NULL, 1000 + (int)i };
		if (opts[i].short_name) {
			s[k++] = (char)opts[i].short_name;
			if (opts[i].arg)
				s[k++] = ':';
		}
	}
	(*lo)[n] = (struct option){ "help", no_argument, NULL, 'h' };
	(*lo)[n + 1] = (struct option){ "version", no_argument, NULL, 'V' };
	return 0;
}

static int option_index(const struct cli_opt *opts, int c)
{
	int i;

	if (c >= 1000)
		return c - 1000;
	for (i = 0; opts[i].name; i++) {
		if (opts[i].short_name == c)
			return i;
	}
	return -1;
}

int cli_parse(int argc, char **argv, const char *usage, const char *description,
	      const struct cli_opt *opts, int (*on_opt)(void *ctx, int id, const char *arg),
	      void *ctx, int *first, bool *done)
{
	struct option *lo = NULL;
	char *so = NULL;
	int c, i, ret = EXIT_OK;

	*done = false;
	if (build_getopt(opts, &lo, &so)) {
		cli_errorf("out of memory");
		return EXIT_FAIL;
	}
	optind = 1;
	opterr = 0;
	while (ret == EXIT_OK && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h' || c == 'V') {
			if (c == 'h')
				cli_print_help(stdout, usage, description, opts);
			else
				print_version();
			*done = true;
			break;
		}
		if (c == '?' || c == ':') {
			ret = cli_usage_error(usage, c == ':' ? "option '%s' needs a value" :
					      "unknown option '%s'", argv[optind - 1]);
			break;
		}
		i = option_index(opts, c);
		ret = i < 0 ? EXIT_USAGE : on_opt(ctx, opts[i].id, optarg);
	}
	*first = optind;
	free(lo);
	free(so);
	return ret;
}

int cli_one_trace(int argc, char **argv, int first, const char *input, const char *usage,
		  const char **path)
{
	if (argc - first > 1 || (argc - first == 1 && input))
		return cli_usage_error(usage, "expected one trace file");
	*path = argc - first == 1 ? argv[first] : input ? input : "perf.data";
	return EXIT_OK;
}

/*
 * A write error on stdout (full disk, closed pipe) must not end in
 * success; a command that failed has said why already: one message.
 */
static int finish_stdout(int status)
{
	bool flush_failed = fflush(stdout) != 0;
	int err_no = errno;

	if (status || (!flush_failed && !ferror(stdout)))
		return status;
	if (flush_failed)
		cli_errorf("cannot write to standard output: %s", strerror(err_no));
	else	/* an earlier write failed; its errno is gone */
		cli_errorf("cannot write to standard output");
	return EXIT_FAIL;
}

static int run_command(const char *name, int argc, char **argv)
{
	const struct cli_cmd *c;

	for (c = cli_commands; c->name; c++) {
		if (!strcmp(name, c->name))
			return finish_stdout(c->fn(argc, argv));
	}
	cli_errorf("'%s' is not a schedrep command", name);
	print_commands(stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	char *help_argv[3];

	if (argc < 2) {
		print_commands(stderr);
		return EXIT_USAGE;
	}
	/* "help CMD" is "CMD --help": one text */
	if (!strcmp(argv[1], "help") && argc > 2) {
		help_argv[0] = argv[2];
		help_argv[1] = "--help";
		help_argv[2] = NULL;
		return run_command(argv[2], 2, help_argv);
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_commands(stdout);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return finish_stdout(print_version());
	return run_command(argv[1], argc - 1, argv + 1);
}
