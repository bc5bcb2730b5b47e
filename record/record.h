/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - the recorder engine behind "schedrep record": opens scheduler
 * events with perf_event_open on every CPU, drains the per-CPU ring buffers
 * without waiting on the disk, and writes standard perf.data (file or pipe
 * mode, optionally zstd-compressed), or keeps the newest samples in memory
 * and dumps them on triggers (the flight recorder).
 *
 * The engine never prints: errors come back in struct srep_error and what
 * happened is in struct srep_rec_stats; dumps are announced through a
 * callback. Only src/cli/cmd-record.c speaks. The design is docs/record.md.
 */
#ifndef SREP_RECORD_H
#define SREP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>

#define SREP_REC_DEFAULT_PAGES	1024u		/* per CPU, as 'perf sched record' */
#define SREP_REC_DEFAULT_DUMPS	10u
#define SREP_REC_ZSTD_LEVEL	1		/* perf record -z uses 1 too */

struct srep_rec_dump {
	const char *path;		/* the dump file, complete and renamed into place */
	unsigned index;			/* N of FILE.N.SECONDS */
	uint64_t trigger_time;		/* perf timestamp of the trigger, ns */
	const char *reason;		/* "signal", "fifo", "latency" */
	uint64_t bytes, samples;	/* file size, SAMPLE records in it */
	uint64_t first_time, last_time;	/* of its samples, 0 if none */
	int32_t late_tid;		/* latency trigger: the late task, else -1 */
	uint64_t late_ns;		/* and how long it waited */
};

struct srep_rec_opts {
	const char *output;		/* path, "-" = pipe mode on stdout; with a ring:
					   the dumps' base name (default "perf.data") */
	const char *const *events;	/* -e names; NULL = the scheduler set */
	size_t nr_events;
	bool system_wide;		/* -a (also the default without -p and argv) */
	const int32_t *pids;		/* -p; their threads are recorded */
	size_t nr_pids;
	char *const *argv;		/* the workload; NULL = none */
	const char *cpus;		/* -C list ("0-3,6"); NULL = every online CPU */
	bool callchain;			/* -g */
	unsigned mmap_pages;		/* -m, a power of two; 0 = default */
	bool compress;			/* -z */
	uint64_t ring_bytes;		/* --ring; 0 = write a file */
	bool trigger_signal;		/* SIGUSR1 dumps, SIGUSR2 dumps and stops */
	const char *trigger_fifo;	/* "dump" / "stop" written to this FIFO */
	uint64_t trigger_latency_ns;	/* 0 = off */
	unsigned max_dumps;		/* 0 = default */
	const char *tracefs;		/* NULL = /sys/kernel/tracing, then debugfs */
	const char *const *cmdline;	/* for the CMDLINE feature */
	int nr_cmdline;
	/* flight recorder: called on the recording thread after each dump */
	void (*on_dump)(void *arg, const struct srep_rec_dump *dump);
	void *on_dump_arg;
};

struct srep_rec_event_stat {
	const char *name;		/* "sched:sched_switch", "cpu-clock", ... */
	uint64_t samples;
};

struct srep_rec_stats {
	const char *path;		/* what was written ("-" = stdout) */
	bool pipe_mode, compressed, ring;
	uint64_t bytes;			/* bytes of perf.data written */
	uint64_t record_bytes;		/* record bytes before compression */
	uint64_t records, rounds;
	size_t nr_events;
	const struct srep_rec_event_stat *events;
	uint64_t lost;			/* sum of LOST records' counts */
	uint64_t lost_samples;		/* sum of LOST_SAMPLES records' counts */
	uint64_t lost_time_ns;		/* union of the loss intervals (docs/record.md) */
	uint64_t first_time, last_time;	/* of timestamped records, 0 if none */
	uint64_t backlog_peak;		/* most bytes waiting for the disk at once */
	uint64_t ring_dropped;		/* flight recorder: samples pushed out */
	unsigned dumps;			/* flight recorder: dumps written */
	uint64_t coalesced;		/* triggers that came during a dump */
	const char *skipped_events;	/* default events this kernel lacks, "" none */
	bool workload;			/* a workload ran */
	int workload_status;		/* its wait status */
	bool interrupted;		/* SIGINT/SIGTERM ended it */
};

struct srep_recorder;

/*
 * Check the options, find the events in tracefs, start the workload (held
 * before exec), open every counter and its ring buffer, and open the output.
 * Nothing is recording yet; on failure nothing is left open.
 */
int srep_recorder__new(struct srep_recorder **out, const struct srep_rec_opts *opts,
		       struct srep_error *err);
/*
 * Record until the workload exits, SIGINT/SIGTERM arrives, a stop trigger
 * comes or the last dump is written. SIGINT, SIGTERM, SIGCHLD (and SIGUSR1,
 * SIGUSR2 for the signal trigger) are taken over while it runs. The output
 * is complete when it returns 0; after an error it is still a valid perf.data
 * up to the last round written.
 */
int srep_recorder__run(struct srep_recorder *r, struct srep_error *err);
const struct srep_rec_stats *srep_recorder__stats(const struct srep_recorder *r);
/* close counters, kill a workload still running, free; NULL is fine */
void srep_recorder__delete(struct srep_recorder *r);

/* "64M" -> 67108864: binary K, M, G suffixes, plain number = bytes */
int srep_rec_parse_size(const char *s, uint64_t *out, struct srep_error *err);

/*
 * A command run under observation (workload.c), shared by the recorder and
 * 'fastforward': forked first and held before exec, so counters can be
 * opened on its pid with enable_on_exec before it runs a single
 * instruction of its own; released by __start(). __prepare() makes the
 * caller the command's child subreaper (PR_SET_CHILD_SUBREAPER) until
 * __done(); the caller has no other children.
 */
struct srep_rec_workload {
	int pid;			/* 0: none */
	int go_fd, err_fd;
	bool exited;
	int status;			/* wait status once exited */
	bool subreaper;			/* __prepare() made us subreaper; __done() undoes it */
	int was_subreaper;
};

/* fork, held; with 'stdout_is_trace' its stdout goes to our stderr */
int srep_rec_workload__prepare(struct srep_rec_workload *w, char *const *argv,
			       bool stdout_is_trace, struct srep_error *err);
/* let it exec; returns once exec succeeded, or the reason it failed */
int srep_rec_workload__start(struct srep_rec_workload *w, char *const *argv,
			     struct srep_error *err);
/* reaps every child that ended (we are subreaper of the command's orphans);
 * true when the command has exited (status filled); never waits */
bool srep_rec_workload__reap(struct srep_rec_workload *w);
/* SIGKILL and reap (a held one just leaves) */
void srep_rec_workload__kill(struct srep_rec_workload *w);
/* stop it: SIGTERM, SIGKILL after 2 s, then end every process it left to us */
void srep_rec_workload__end(struct srep_rec_workload *w);
/* the caller is done with it: subreaper as before __prepare() */
void srep_rec_workload__done(struct srep_rec_workload *w);

/*
 * A counting event by the name perf gives it (evname.c, the one parser of
 * counter names): software (cpu-clock, task-clock, page-faults, ...) or
 * hardware (instructions, cycles, branches, ...), with perf's modifiers
 * :u (user only), :k (kernel only). Tracepoints are not counters.
 */
struct srep_rec_counter {
	const char *name;		/* canonical ("page-faults" for "faults") */
	const char *unit;		/* "ns" for the clocks, else the name's thing */
	uint32_t type;			/* PERF_TYPE_SOFTWARE or PERF_TYPE_HARDWARE */
	uint64_t config;
	bool exclude_user, exclude_kernel;
	char modifiers[4];		/* "u", "k" or "" as given */
};

/* SREP_E_INVAL naming the event and the known ones when it is not a counter */
int srep_rec_counter__parse(const char *name, struct srep_rec_counter *out,
			    struct srep_error *err);

#endif /* SREP_RECORD_H */
