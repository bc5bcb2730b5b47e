/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what the commands share: option tables that also render --help,
 * messages, exit codes, atomic output files and the progress line.
 */
#ifndef SREP_CLI_H
#define SREP_CLI_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "schedrep.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

/* one option; the table ends with a zeroed entry */
struct cli_opt {
	const char *name;	/* long name, without "--" */
	int short_name;		/* 0 if none */
	const char *arg;	/* argument placeholder, NULL for a flag */
	const char *help;
	int id;			/* handed to the callback */
};

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* the command table (main.c) */
extern const struct cli_cmd cli_commands[];

int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);

/*
 * Parse argv[1..] with 'opts'; 'on_opt' returns 0 or an exit code. -h/--help
 * prints help to stdout and returns EXIT_OK with *done set. Positional
 * arguments are left in argv[*first..argc).
 */
int cli_parse(int argc, char **argv, const char *usage, const char *description,
	      const struct cli_opt *opts, int (*on_opt)(void *ctx, int id, const char *arg),
	      void *ctx, int *first, bool *done);
void cli_print_help(FILE *f, const char *usage, const char *description,
		    const struct cli_opt *opts);
/* "schedrep: ..." and the usage line on stderr; returns EXIT_USAGE */
int cli_usage_error(const char *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "schedrep: <file>: offset ...: message" on stderr; returns EXIT_FAIL */
int cli_error(const struct srep_error *err);
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* warnings from a session (struct srep_open_opts.diag) */
void cli_diag(void *arg, const struct srep_error *w);
extern bool cli_quiet;

/* output files: written beside the target, renamed into place on success */
struct cli_out {
	FILE *f;
	char *path;		/* final path, NULL for stdout */
	char *tmp;		/* temporary path while writing */
};

int cli_out_open(struct cli_out *o, const char *path, const char *input_path,
		 struct srep_error *err);
int cli_out_commit(struct cli_out *o, struct srep_error *err);
void cli_out_abort(struct cli_out *o);
/* the output name derived from the input: "arm.data" -> "arm<suffix>" */
char *cli_default_output(const char *input, const char *suffix);

/* SIGINT/SIGTERM: remove the registered temporary file and exit 130 */
void cli_signals_install(void);
void cli_signals_track(const char *tmp_path);
extern volatile sig_atomic_t cli_interrupted;

/* progress line on stderr: at most 5 updates a second, only on a terminal */
struct cli_progress {
	bool on;
	uint64_t last_ns;
	const char *what;
};

void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total_bytes,
		       int force);
void cli_progress_update(struct cli_progress *p, const struct srep_session *s);
void cli_progress_done(struct cli_progress *p);

#endif /* SREP_CLI_H */
