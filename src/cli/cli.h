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

#include <schedrep/schedrep.h>

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
int cmd_compare(int argc, char **argv);
int cmd_callchains(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_fastforward(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_timehist(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_simpoint(int argc, char **argv);

/*
 * Parse argv[1..] with 'opts'; 'on_opt' returns 0 or an exit code. -h/--help
 * prints help to stdout and returns EXIT_OK with *done set. Positional
 * arguments are left in argv[*first..argc).
 */
int cli_parse(int argc, char **argv, const char *usage, const char *description,
	      const struct cli_opt *opts, int (*on_opt)(void *ctx, int id, const char *arg),
	      void *ctx, int *first, bool *done);

/* -i FILE, as perf's */
#define CLI_INPUT_OPTION(id)							\
	{ "input", 'i', "<file>", "the trace (default: the argument, else ./perf.data)", id }
/*
 * The one trace a command reads: its argument, else -i's, else ./perf.data
 * (as perf). EXIT_OK, or EXIT_USAGE after the usage message.
 */
int cli_one_trace(int argc, char **argv, int first, const char *input, const char *usage,
		  const char **path);
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
	bool dir;		/* a directory (cli_out_open_dir): f is NULL, write into tmp */
};

int cli_out_open(struct cli_out *o, const char *path, const char *input_path,
		 struct srep_error *err);
/*
 * An output directory: an empty temporary one beside 'path' (o->tmp),
 * renamed to 'path' by cli_out_commit(), removed with all it holds by
 * cli_out_abort() and after Ctrl-C. 'path' may be missing or an empty
 * directory; anything else there is refused.
 */
int cli_out_open_dir(struct cli_out *o, const char *path, const char *input_path,
		     struct srep_error *err);
int cli_out_commit(struct cli_out *o, struct srep_error *err);
void cli_out_abort(struct cli_out *o);
/*
 * The output name derived from the input, in the current directory (the
 * input's may be read-only): "/boards/arm.data" -> "arm<suffix>"; "-" for
 * standard input.
 */
char *cli_default_output(const char *input, const char *suffix);

/* text (a path, a comm: any bytes) inside HTML or SVG, escaped */
void cli_xml_text(FILE *f, const char *s);

/* A --json document printed to 'f' with a newline, then freed; -1 when out of memory */
struct cJSON;
int cli_json_print(FILE *f, struct cJSON *root);

/*
 * SIGINT/SIGTERM: remove the registered temporary file and exit 130; with a
 * temporary directory only set cli_interrupted, for the command to stop,
 * cli_out_abort() and return EXIT_INTERRUPTED (output.c says why)
 */
void cli_signals_install(void);
void cli_signals_track(const char *tmp_path);
extern volatile sig_atomic_t cli_interrupted;

/*
 * The progress line on stderr, as zstd's: bytes read of the input, the rate
 * and the time left; at most 5 updates a second, only on a terminal, for
 * files of 64 MB and more and for pipes, never with -q.
 */
struct cli_progress {
	bool on;
	uint64_t start_ns, last_ns, events;
	const char *what;
};

/* 'streaming': where the command writes as it reads (NULL if it writes at the
 * end): no progress line when that is a terminal, it would cut the output */
void cli_progress_init(struct cli_progress *p, const char *what, const struct srep_session *s,
		       FILE *streaming);
/* the progress line, redrawn if it is time (every 16384 events, cli_next_event) */
void cli_progress_tick(struct cli_progress *p, const struct srep_session *s);

/* srep_session__next_event(), keeping the progress line; inline: called per event */
static inline int cli_next_event(struct cli_progress *p, struct srep_session *s,
				 const struct srep_event **ev, struct srep_error *err)
{
	int ret = srep_session__next_event(s, ev, err);

	if (p->on && ret > 0 && (++p->events & 0x3fff) == 0)
		cli_progress_tick(p, s);
	return ret;
}
/* after the loop, however it ended: the line cleared */
void cli_progress_done(struct cli_progress *p);

/* ---- symbol options shared by the commands that resolve callchains (symopts.c) ---- */
enum { CLI_SYM_KALLSYMS = 900, CLI_SYM_VMLINUX, CLI_SYM_SYMFS, CLI_SYM_BUILDID_DIR, CLI_SYM_NONE };

#define CLI_SYMBOL_OPTIONS							\
	{ "kallsyms", 0, "<file>", "the target's /proc/kallsyms, as plain text", CLI_SYM_KALLSYMS }, \
	{ "vmlinux", 0, "<file>", "the target's kernel image (ELF)", CLI_SYM_VMLINUX },	\
	{ "symfs", 0, "<dir>", "find the target's files under this directory", CLI_SYM_SYMFS }, \
	{ "buildid-dir", 0, "<dir>", "perf build-id cache (default ~/.debug)", CLI_SYM_BUILDID_DIR }
/* for commands where symbols are a side dish (info, convert) */
#define CLI_NO_SYMBOLS_OPTION							\
	{ "no-symbols", 0, NULL, "do not resolve callchains", CLI_SYM_NONE }

struct cli_symbol_args {
	struct srep_symbol_opts o;
	bool off;			/* --no-symbols */
};

/* true when 'id' was one of the options above (stored in 'a') */
bool cli_symbol_opt(struct cli_symbol_args *a, int id, const char *arg);

/*
 * Commands that read two traces (compare): the options above apply to both,
 * and each has an -a and a -b form for one trace alone, which wins.
 */
enum { CLI_SYM_A = 10, CLI_SYM_B = 20 };	/* added to the CLI_SYM_* ids */
#define CLI_SIDE_SYMBOL_OPTION(base, arg, side, id)				\
	{ base "-" side, 0, arg, "--" base " for trace " side " only", (id) }
#define CLI_SIDE_SYMBOL_OPTIONS							\
	CLI_SIDE_SYMBOL_OPTION("kallsyms", "<file>", "a", CLI_SYM_KALLSYMS + CLI_SYM_A), \
	CLI_SIDE_SYMBOL_OPTION("kallsyms", "<file>", "b", CLI_SYM_KALLSYMS + CLI_SYM_B), \
	CLI_SIDE_SYMBOL_OPTION("vmlinux", "<file>", "a", CLI_SYM_VMLINUX + CLI_SYM_A),	\
	CLI_SIDE_SYMBOL_OPTION("vmlinux", "<file>", "b", CLI_SYM_VMLINUX + CLI_SYM_B),	\
	CLI_SIDE_SYMBOL_OPTION("symfs", "<dir>", "a", CLI_SYM_SYMFS + CLI_SYM_A),	\
	CLI_SIDE_SYMBOL_OPTION("symfs", "<dir>", "b", CLI_SYM_SYMFS + CLI_SYM_B),	\
	CLI_SIDE_SYMBOL_OPTION("buildid-dir", "<dir>", "a", CLI_SYM_BUILDID_DIR + CLI_SYM_A), \
	CLI_SIDE_SYMBOL_OPTION("buildid-dir", "<dir>", "b", CLI_SYM_BUILDID_DIR + CLI_SYM_B)

/* sym[0] both traces, sym[1] A, sym[2] B; true when 'id' was a symbol option */
bool cli_symbol_opt_sides(struct cli_symbol_args sym[3], int id, const char *arg);
/* the options for trace k (0 = A, 1 = B): its own where given, else those for both */
void cli_symbol_args_of(const struct cli_symbol_args sym[3], int k, struct cli_symbol_args *out);
/* a symbolizer and the frames of the last event */
struct cli_symbols {
	struct srep_symbolizer *sy;
	struct srep_frame *frames;
	size_t nr, cap;
};

/*
 * The session's symbolizer, or none (*sy NULL, 0) with --no-symbols or when
 * no event of the trace can carry a callchain or a user stack
 */
int cli_symbolizer_new(struct srep_symbolizer **sy, struct srep_session *s,
		       const struct cli_symbol_args *a, struct srep_error *err);
/* cli_symbolizer_new(); EXIT_OK, or an error message and EXIT_FAIL */
int cli_symbols_open(struct cli_symbols *cs, struct srep_session *s,
		     const struct cli_symbol_args *a);
/* track the event's mappings and resolve its callchain into cs->frames (cs->nr) */
int cli_symbols_event(struct cli_symbols *cs, const struct srep_event *ev,
		      struct srep_error *err);
void cli_symbols_close(struct cli_symbols *cs);
/* "N callchains, M frames, K resolved ..." lines, each after 'label'; none without 'sy' */
void cli_symbols_summary(FILE *f, const char *label, const struct srep_symbolizer *sy);

#endif /* SREP_CLI_H */
