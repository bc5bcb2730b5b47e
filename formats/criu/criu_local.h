/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * criu_local.h - shared between the files of the CRIU exporter only:
 * criu.c (the exporter: instants, event tracking), criu_tree.c (who is in
 * an image set, and the process tree), criu_images.c (the images, the only
 * caller of protobuf-c) and criu_timeline.c (timeline.json).
 */
#ifndef SREP_CRIU_LOCAL_H
#define SREP_CRIU_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "criu.h"

/* each instant is a directory of images: more than this is a typo, not a plan */
#define CRIU_MAX_INSTANTS	10000
/* exec changes listed per instant (the rest are counted), so memory stays bounded */
#define CRIU_MAX_EXECS		10000
#define CRIU_NONE		((size_t)-1)

/* why an instant was taken (timeline.json "reasons") */
enum criu_reason { CRIU_R_AT = 1, CRIU_R_EVERY = 2, CRIU_R_INSN = 4, CRIU_R_END = 8 };

/* CRIU's task states (compel/include/uapi/task-state.h) */
enum { CRIU_TASK_ALIVE = 1, CRIU_TASK_DEAD = 2, CRIU_TASK_STOPPED = 3, CRIU_TASK_ZOMBIE = 6 };

/* what the exporter learnt about one task of the session's table from the events so far */
struct criu_task {
	const struct srep_task *t;
	size_t next_same_tid;	/* the task that reused this tid, CRIU_NONE if none */
	bool selected;
	bool present;		/* in the image set being written */
	bool switched;		/* seen in a context switch */
	char letter;		/* last state letter seen ('?' none): switch-out, 'R' once woken or forked */
	bool on_cpu;
	int32_t prio;		/* kernel prio (0..139), INT32_MIN unknown */
	uint64_t on_since;	/* on_cpu: when it was switched in */
	uint64_t cpu_ns;	/* on-CPU time of the finished slices */
	uint64_t counted;	/* sum of the periods of its instructions (or cycles) samples */
	uint64_t released;	/* when the kernel let it go (switch-out 'X', sched_process_free), 0 not */
	/* at the previous instant, for the changes since then */
	bool was_present;
	char was_letter;
	const char *was_comm;
};

struct criu_tid {
	int32_t tid;
	size_t idx;
};

struct criu_exec {
	uint64_t time;
	int32_t pid, tid;
	char comm[SREP_COMM_MAX];
	char *filename;
};

struct criu_instant {
	uint64_t time;
	unsigned reasons;	/* CRIU_R_* */
};

/* one process of an image set */
struct criu_proc {
	int32_t pid;
	int32_t ppid;		/* in the image set: 0 for the root */
	size_t leader;		/* task index, CRIU_NONE when the leader is made up */
	size_t first, nr;	/* its threads: snapshot threads[first .. first + nr) */
	size_t parent;		/* index in procs, CRIU_NONE for the root */
};

/* one image set: the selected tasks present at 'time' and their process tree */
struct criu_snapshot {
	uint64_t time;
	size_t *threads;	/* task indices, grouped by process, leader first */
	size_t nr_threads;
	struct criu_proc *procs;	/* sorted by pid */
	size_t nr_procs;
	size_t *order;		/* procs in pstree order (depth first from the root) */
	const char *root_comm;	/* the comm of a made-up root (pid 1) */
	size_t cap_threads, cap_procs;
};

struct criu_state {
	struct srep_session *session;
	const struct srep_selection *sel;
	char *out_dir;
	const char *input;		/* the trace's name, for timeline.json */
	uint64_t start, end;		/* the trace's first and last timestamps */
	uint64_t lo, hi;		/* where instants may fall: the span within the time window */
	int march;			/* core_entry.mtype */

	struct criu_task *tasks;	/* index-aligned with the session's task table */
	size_t nr_tasks;
	struct criu_tid *by_tid;	/* sorted by tid, then index */

	struct criu_instant *instants;	/* --at and --every, sorted, merged */
	size_t nr_instants, next_instant;
	uint64_t insn_every;		/* --every-instructions */
	int counter_evsel;		/* the evsel counted as instructions, -1 none */
	uint64_t insn_total;		/* of the selected tasks */
	uint64_t insn_next;		/* the next multiple of insn_every */
	uint64_t insn_pending;		/* a crossing's time not written yet, 0 none */
	size_t nr_written;
	uint64_t prev_time;		/* of the previous instant (the start before the first) */

	struct criu_exec *execs;	/* since the previous instant */
	size_t nr_execs, cap_execs;
	uint64_t execs_dropped;
	uint64_t nr_switches;

	FILE *timeline;
	struct criu_snapshot snap;
};

/* criu_tree.c */
size_t criu_task_at(const struct criu_state *st, int32_t tid, uint64_t time);
int32_t criu_pid_of(const struct srep_task *t);
const char *criu_comm_at(const struct srep_task *t, uint64_t time);
bool criu_present(const struct criu_state *st, size_t idx, uint64_t time);
bool criu_exited(const struct criu_task *ct, uint64_t time);
int criu_task_state(const struct criu_task *ct, uint64_t time);
int criu_snapshot_build(struct criu_state *st, uint64_t time, struct srep_error *err);
void criu_snapshot_free(struct criu_snapshot *snap);

/* criu_images.c */
int criu_march(const char *arch);
const char *criu_march_name(int march);
const char *criu_state_name(int state);
int criu_images_write(const struct criu_state *st, const char *dir, struct srep_error *err);

/* criu_timeline.c */
int criu_timeline_begin(struct criu_state *st, struct srep_error *err);
int criu_timeline_instant(struct criu_state *st, const char *dir, unsigned reasons,
			  struct srep_error *err);
int criu_timeline_end(struct criu_state *st, struct srep_error *err);
/* valid UTF-8 of 'in' in 'out' (invalid bytes become '?'), for comms */
void criu_utf8_clean(const char *in, char *out, size_t size);

#endif /* SREP_CRIU_LOCAL_H */
