/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fastforward.h - the engine behind "schedrep fastforward": run a command
 * under one counting perf event, stop its whole process tree when the count
 * reaches each target, call the checkpoint action with the tree stopped and
 * the counter disabled, then let it go on. docs/fastforward.md tells why it
 * works this way.
 *
 * The engine never prints: errors come back in struct srep_error, each stop
 * is handed to a callback, and only src/cli/cmd-fastforward.c speaks.
 */
#ifndef SREP_FASTFORWARD_H
#define SREP_FASTFORWARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>

#define SREP_FF_DEFAULT_EVENT	"instructions:u"
#define SREP_FF_STOP_METHOD	"SIGSTOP to every process of the tree"
#define SREP_FF_MAX_HOPS	32u	/* --exact: re-arms per target at most */

/* one target reached, handed to the action with the tree stopped */
struct srep_ff_stop {
	size_t index;			/* of the target, from 0 */
	uint64_t requested;		/* the target count */
	uint64_t reached;		/* the count when the tree was stopped */
	int64_t skid;			/* reached - requested */
	unsigned hops;			/* stops it took (1 unless --exact or threads) */
	uint64_t wall_ns;		/* since the workload's exec */
	int pid;			/* the workload's first process */
	unsigned nr_procs, nr_threads;	/* what was stopped */
};

/* what the action callback asks for next */
enum srep_ff_next { SREP_FF_CONTINUE = 0, SREP_FF_STOP = 1 };

struct srep_ff_opts {
	const char *event;		/* a counter name; NULL = SREP_FF_DEFAULT_EVENT */
	char *const *argv;		/* the workload */
	const uint64_t *targets;	/* non-decreasing counts; 0 = at exec */
	size_t nr_targets;
	uint64_t every;			/* without targets: every this many, to the end */
	bool only_main;			/* count the first thread only (no inherit) */
	bool exact;			/* re-arm for the remainder until within tolerance */
	uint64_t tolerance;		/* --exact: |reached - requested| allowed */
	bool kill_on_stop;		/* after SIGINT or SREP_FF_STOP: kill, else resume */
	/* called with the tree stopped and the counter disabled */
	enum srep_ff_next (*action)(void *arg, const struct srep_ff_stop *stop);
	/* called a few times a second while the workload runs */
	void (*tick)(void *arg, uint64_t count, size_t next_target);
	void *arg;
};

struct srep_ff_result {
	int pid;			/* the workload's first process, 0 if never started */
	size_t reached;			/* targets reached (actions called) */
	uint64_t final_count;		/* the count when the workload exited or was let go */
	bool exited;			/* the workload's first process exited */
	int status;			/* its wait status */
	bool interrupted;		/* SIGINT or SIGTERM */
	bool stopped;			/* the action asked to stop */
	bool killed;			/* the tool killed it (kill_on_stop) */
};

/*
 * Run the workload to its end through every target. SIGINT, SIGTERM, SIGCHLD
 * and SIGIO are taken over while it runs. On any return the workload is
 * neither stopped nor held: it has exited, was killed, or runs on unobserved.
 */
int srep_ff__run(const struct srep_ff_opts *o, struct srep_ff_result *res,
		 struct srep_error *err);

/* "1G" -> 1000000000: decimal K, M, G, T suffixes (counts, not bytes) */
int srep_ff_parse_count(const char *s, uint64_t *out, struct srep_error *err);

/* ---- the checkpoint action (action.c) ---- */

struct srep_ff_subst {
	int pid;
	size_t n;			/* {n}: the target's number, from 1 */
	uint64_t count;			/* {count}: the count reached */
	const char *dir;		/* {dir} */
};

/* 'tmpl' with {pid}, {n}, {count}, {dir} replaced; other text kept; NULL: no memory */
char *srep_ff_expand(const char *tmpl, const struct srep_ff_subst *s);

struct srep_ff_action_result {
	int status;			/* wait status of /bin/sh */
	uint64_t ns;			/* how long it ran */
	char *output;			/* its stdout and stderr, the last 64 KiB at most */
	size_t len;
};

/* run 'cmd' through /bin/sh -c, stdin from /dev/null, output captured */
int srep_ff_action_run(const char *cmd, struct srep_ff_action_result *r,
		       struct srep_error *err);
void srep_ff_action_result_free(struct srep_ff_action_result *r);

#endif /* SREP_FASTFORWARD_H */
