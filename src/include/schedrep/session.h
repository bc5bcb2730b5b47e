/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/session.h - sessions: a trace opened, its metadata, tasks,
 * time-ordered neutral events and their tracepoint fields, statistics.
 */
#ifndef SCHEDREP_SESSION_H
#define SCHEDREP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Trace metadata                                                       */
/* ------------------------------------------------------------------ */

/* Header facts. Strings are NULL and numbers -1 when the trace lacks them. */
struct srep_meta {
	const char *path;		/* as given to open ("-" for stdin) */
	const char *format;		/* "perf.data" or "schedrep-json" */
	bool pipe_mode;
	bool big_endian;
	int word_size;			/* 4 or 8 (from tracing data or arch), 0 unknown */
	int magic_version;		/* 1 = PERFFILE, 2 = PERFILE2 */
	uint32_t attr_size;		/* attr entry size in file mode, 0 in pipe mode */
	uint64_t data_offset, data_size;/* file mode */
	uint64_t features[4];		/* feature bitmap (pipe mode: features seen) */

	const char *hostname, *osrelease, *perf_version, *arch;
	const char *cpudesc, *cpuid;
	int32_t nr_cpus_avail, nr_cpus_online;
	int64_t total_mem_kb;
	const char *const *cmdline;	/* perf's argv; NULL if unknown */
	int nr_cmdline;
	int64_t clockid;		/* from CLOCKID feature / attr use_clockid, -1 unknown */
	int64_t clock_res_ns;		/* CLOCKID feature value */
	bool has_clock_data;
	uint64_t clock_wall_ns, clock_ref_ns; /* CLOCK_DATA: wall clock and clockid time at one instant */
	bool has_sample_time;
	uint64_t sample_time_first, sample_time_last; /* SAMPLE_TIME feature */
	bool compressed;		/* COMPRESSED feature */
	uint32_t comp_type, comp_level, comp_ratio, comp_mmap_len;
	int nr_core_siblings, nr_thread_siblings;
	const char *const *core_siblings, *const *thread_siblings;

	bool has_tracing;		/* tracing data present */
	int tracing_long_size, tracing_page_size;
	bool tracing_big_endian;
	const char *tracing_version;
};

/* ------------------------------------------------------------------ */
/* Events of the neutral model                                          */
/* ------------------------------------------------------------------ */

enum srep_event_kind {
	SREP_EV_SWITCH = 1,	/* context switch on a CPU */
	SREP_EV_WAKEUP,		/* sched_waking / sched_wakeup / sched_wakeup_new */
	SREP_EV_MIGRATE,	/* task moved between CPUs */
	SREP_EV_FORK,
	SREP_EV_EXEC,
	SREP_EV_EXIT,
	SREP_EV_FREE,		/* sched_process_free: task struct released */
	SREP_EV_COMM,		/* comm set or changed (SREP_EVF_EXEC_COMM: by exec) */
	SREP_EV_STAT,		/* sched_stat_runtime/sleep/wait/iowait/blocked */
	SREP_EV_CPU_IDLE,
	SREP_EV_CPU_FREQ,
	SREP_EV_MMAP,		/* MMAP / MMAP2 */
	SREP_EV_SAMPLE,		/* any other sample: generic */
	SREP_EV_LOST,		/* LOST / LOST_SAMPLES */
	SREP_EV_MAX
};

/* Where the event came from */
enum srep_event_source {
	SREP_SRC_TRACEPOINT = 0,	/* a tracepoint sample (RAW) */
	SREP_SRC_RECORD,		/* a PERF_RECORD_* side-band record */
	SREP_SRC_SAMPLE,		/* a non-tracepoint sample */
	SREP_SRC_JSON,			/* read back from schedrep JSON */
};

enum srep_wakeup_kind { SREP_WAKE_WAKING = 0, SREP_WAKE_WAKEUP, SREP_WAKE_NEW };
enum srep_stat_kind {
	SREP_STAT_RUNTIME = 0, SREP_STAT_SLEEP, SREP_STAT_WAIT,
	SREP_STAT_IOWAIT, SREP_STAT_BLOCKED,
};

#define SREP_COMM_MAX 32	/* kernel comms are 16 bytes; room for longer ones */

/* event flags */
#define SREP_EVF_LATE		0x1	/* arrived later than the reorder window allowed */
#define SREP_EVF_PREEMPT	0x2	/* switch: prev was preempted (runnable, "R+") */
#define SREP_EVF_SWITCH_OUT	0x4	/* switch from a SWITCH record: the switch-out half */
#define SREP_EVF_SWITCH_IN	0x8	/* switch from a SWITCH record: the switch-in half */
#define SREP_EVF_EXEC_COMM	0x10	/* comm: set by exec */
#define SREP_EVF_NO_TIME	0x20	/* the record carried no timestamp */

struct srep_switch {
	int32_t prev_pid, prev_tid;	/* -1: not known (per-task SWITCH records) */
	int32_t next_pid, next_tid;
	int32_t prev_prio, next_prio;	/* kernel prio (0..139), INT32_MIN unknown */
	char prev_state;		/* R S D T t X Z P I, '?' unknown */
	char prev_comm[SREP_COMM_MAX], next_comm[SREP_COMM_MAX];
};

struct srep_wakeup {
	enum srep_wakeup_kind kind;
	int32_t pid, tid;		/* the woken task */
	int32_t prio;
	int32_t target_cpu;		/* -1 unknown */
	int32_t success;		/* old kernels' 'success' field, -1 absent */
	char comm[SREP_COMM_MAX];
};

struct srep_migrate {
	int32_t pid, tid, prio;
	int32_t orig_cpu, dest_cpu;
	char comm[SREP_COMM_MAX];
};

struct srep_fork {
	int32_t parent_pid, parent_tid;
	int32_t child_pid, child_tid;
	char parent_comm[SREP_COMM_MAX], child_comm[SREP_COMM_MAX];
};

struct srep_exec {
	int32_t pid, tid, old_tid;
	char comm[SREP_COMM_MAX];	/* comm after exec, "" if unknown */
	const char *filename;		/* "" if unknown */
};

struct srep_exit {			/* EXIT and FREE */
	int32_t pid, tid, ppid, ptid;
	int32_t prio;
	char comm[SREP_COMM_MAX];
};

struct srep_comm {
	int32_t pid, tid;
	char comm[SREP_COMM_MAX];
};

struct srep_stat {
	enum srep_stat_kind kind;
	int32_t pid, tid;
	uint64_t value;			/* runtime or delay, ns */
	uint64_t vruntime;		/* runtime only */
	char comm[SREP_COMM_MAX];
};

struct srep_cpu_state {			/* CPU_IDLE and CPU_FREQ */
	int32_t cpu;
	int64_t state;			/* idle state (-1 = leaving idle) or kHz */
};

struct srep_mmap {
	int32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t prot, flags;
	uint8_t build_id_size;		/* 0: none */
	uint8_t build_id[20];
	const char *filename;
};

struct srep_lost {
	bool samples;			/* LOST_SAMPLES (else LOST) */
	uint64_t id;
	uint64_t lost;
};

/* one taken branch of a branch stack (perf record -b); its flags are not decoded */
struct srep_branch {
	uint64_t from, to;
};

/*
 * One event. Borrowed from the session: valid until the next call of
 * srep_session__next_event() on it.
 */
struct srep_event {
	enum srep_event_kind kind;
	enum srep_event_source source;
	uint32_t flags;			/* SREP_EVF_* */
	uint64_t time;			/* perf clock, ns; 0 if none */
	int32_t cpu;			/* -1 unknown */
	int32_t pid, tid;		/* task current on the CPU when recorded, -1 unknown */
	int32_t evsel;			/* index of the event description, -1 none */
	uint64_t ip, period, addr;
	uint32_t nr_callchain;
	const uint64_t *callchain;	/* host order, context markers included */
	/* --call-graph dwarf samples: user registers and a copy of the user stack */
	uint64_t user_regs_abi;		/* 0: none; 1: 32-bit, 2: 64-bit (PERF_SAMPLE_REGS_ABI_*) */
	uint64_t user_regs_mask;	/* the attr's sample_regs_user: registers in bit order */
	const uint64_t *user_regs;	/* host order, one per bit set in the mask */
	uint32_t nr_user_regs;
	const uint8_t *user_stack;	/* the target's bytes (its byte order) from its SP up */
	uint64_t user_stack_size;	/* bytes of user_stack the kernel filled */
	/* PERF_SAMPLE_BRANCH_STACK (perf record -b): the last taken branches, newest first */
	uint32_t nr_branches;
	const struct srep_branch *branches;	/* host order */
	union {
		struct srep_switch sw;
		struct srep_wakeup wake;
		struct srep_migrate migrate;
		struct srep_fork fork;
		struct srep_exec exec;
		struct srep_exit exit;
		struct srep_comm comm;
		struct srep_stat stat;
		struct srep_cpu_state cpu_state;
		struct srep_mmap mmap;
		struct srep_lost lost;
	} u;
	const void *priv;		/* library-internal: field access */
};

/* callchain context markers (values inside ->callchain) */
#define SREP_CONTEXT_HV			((uint64_t)-32)
#define SREP_CONTEXT_KERNEL		((uint64_t)-128)
#define SREP_CONTEXT_USER		((uint64_t)-512)
#define SREP_CONTEXT_GUEST		((uint64_t)-2048)
#define SREP_CONTEXT_GUEST_KERNEL	((uint64_t)-2176)
#define SREP_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define SREP_CONTEXT_MAX		((uint64_t)-4095)

SREP_API const char *srep_event_kind_name(enum srep_event_kind kind);	/* "switch", ... */

/* ---- decoded tracepoint fields of an event (all of them, lossless) ---- */

enum srep_field_kind { SREP_FIELD_INT = 0, SREP_FIELD_UINT, SREP_FIELD_STR, SREP_FIELD_ARRAY };

struct srep_field {
	const char *name;
	enum srep_field_kind kind;
	int64_t i;			/* INT */
	uint64_t u;			/* UINT */
	const char *str;		/* STR: not NUL-terminated, 'len' bytes */
	size_t len;
	uint32_t nr_elems;		/* ARRAY */
	uint32_t elem_size;		/* 1, 2, 4 or 8 */
	bool elem_signed;
	const void *elems;		/* read them with srep_field__elem() */
	bool elems_swap;
};

/* number of tracepoint fields of the event (0 for records and plain samples) */
SREP_API int srep_event__nr_fields(const struct srep_event *ev);
/* field 'idx'; returns 0 or SREP_E_INVAL */
SREP_API int srep_event__field(const struct srep_event *ev, int idx, struct srep_field *out);
/* find by name; returns 1 found, 0 not */
SREP_API int srep_event__field_by_name(const struct srep_event *ev, const char *name,
				       struct srep_field *out);
SREP_API uint64_t srep_field__elem(const struct srep_field *f, uint32_t idx);
/*
 * The tracepoint fields as the event's own print format shows them, the
 * text 'perf script' prints after the event name ("prev_comm=perf ...").
 * Written into @buf with snprintf's rules; returns the full length, or
 * SREP_E_INVAL when the input does not keep print formats (schedrep JSON),
 * SREP_E_CORRUPT when the payload does not fit its format.
 */
SREP_API int srep_event__print(const struct srep_event *ev, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Tasks                                                                */
/* ------------------------------------------------------------------ */

struct srep_task;

SREP_API int32_t srep_task__pid(const struct srep_task *t);	/* process (tgid), -1 unknown */
SREP_API int32_t srep_task__tid(const struct srep_task *t);
SREP_API int32_t srep_task__ppid(const struct srep_task *t);	/* parent process, -1 unknown */
SREP_API int32_t srep_task__ptid(const struct srep_task *t);	/* parent thread, -1 unknown */
SREP_API const char *srep_task__comm(const struct srep_task *t);	/* latest comm,
				     "" if none */ SREP_API size_t srep_task__nr_comms(const struct srep_task *t);
SREP_API const char *srep_task__comm_at(const struct srep_task *t, size_t idx, uint64_t *time);
SREP_API uint64_t srep_task__first_seen(const struct srep_task *t);	/* 0 never */
SREP_API uint64_t srep_task__last_seen(const struct srep_task *t);
SREP_API uint64_t srep_task__fork_time(const struct srep_task *t);	/* 0 not seen */
SREP_API uint64_t srep_task__exit_time(const struct srep_task *t);	/* 0 not seen */
SREP_API size_t srep_task__index(const struct srep_task *t);		/* creation order */
/* true when 'comm' (exact or fnmatch glob) equals any comm the task ever had */
SREP_API bool srep_task__matches_comm(const struct srep_task *t, const char *pattern);

/* ------------------------------------------------------------------ */
/* Sessions                                                             */
/* ------------------------------------------------------------------ */

struct srep_session;

/* open flags */
#define SREP_OPEN_COUNT_ONLY	0x1	/* only count records (srep_session__count) */
#define SREP_OPEN_PRESCAN	0x2	/* build the whole task table before the first event */

struct srep_open_opts {
	unsigned flags;
	size_t reorder_bytes;		/* reorder window; 0 = SREP_REORDER_DEFAULT */
	/* warnings the session can step over (skipped bytes, late events, ...) */
	void (*diag)(void *arg, const struct srep_error *warning);
	void *diag_arg;
};

#define SREP_REORDER_DEFAULT (32u << 20)

/* Open a perf.data (file or pipe mode), or schedrep JSON; path "-" is stdin. */
SREP_API int srep_session__open(struct srep_session **out, const char *path,
				const struct srep_open_opts *opts, struct srep_error *err);
/*
 * Open a trace held in memory: @len bytes at @buf, which the caller keeps
 * unchanged until srep_session__delete(); @name is what errors call it
 * (NULL: "(memory)"). Reads like a file (random access, rewinds).
 */
SREP_API int srep_session__open_mem(struct srep_session **out, const void *buf, size_t len,
				    const char *name, const struct srep_open_opts *opts,
				    struct srep_error *err);
SREP_API void srep_session__delete(struct srep_session *s);	/* NULL is fine */

SREP_API const struct srep_meta *srep_session__meta(const struct srep_session *s);

/* Next event in time order: 1 got one, 0 end of trace, < 0 error */
SREP_API int srep_session__next_event(struct srep_session *s, const struct srep_event **ev,
				      struct srep_error *err);
/*
 * The kinds of events the caller reads: a mask of SREP_EV_BIT()s (default:
 * every kind). Tracepoint samples of other kinds may then be left unread: a
 * perf.data's are counted (statistics by record type and event, time span,
 * CPUs) but neither decoded nor queued, so a command that reads the
 * switches of a scheduler trace skips most of it; other formats deliver
 * them all. Always delivered: the kinds that keep the task table (FORK,
 * EXEC, EXIT, FREE, COMM), samples that are not tracepoints, and records
 * that are not samples (LOST, MMAP, SWITCH records). The events delivered
 * are those of a full read, except that a task's pid the model learns from
 * an unread event is known only from a later one; stats.events,
 * late_events and lost_time_ns describe the events delivered. Applies to
 * the records read after the call.
 */
#define SREP_EV_BIT(kind) (1u << (kind))
SREP_API void srep_session__set_interest(struct srep_session *s, uint32_t kinds);
/* Read the rest of the input only counting records (statistics below) */
SREP_API int srep_session__count(struct srep_session *s, struct srep_error *err);
/* Start again from the first event (input copied to a temporary file if it was a pipe) */
SREP_API int srep_session__rewind(struct srep_session *s, struct srep_error *err);

/*
 * Times (perf clock, ns) of the trace's first and last timestamped event:
 * known before the first event when the session was opened with
 * SREP_OPEN_PRESCAN or is a schedrep JSON file (whose first line holds the
 * span of the trace it came from), else those of the events read so far.
 * Time arguments ("0.3" = 0.3 s after the first event) are resolved against
 * *first.
 * Returns false (and zeros) when there is no timestamp.
 */
SREP_API bool srep_session__time_span(const struct srep_session *s, uint64_t *first,
				      uint64_t *last);
/*
 * The highest CPU number an event named so far (after SREP_OPEN_PRESCAN: in
 * the whole trace), -1 if none: for traces whose header lacks the CPU count.
 */
SREP_API int32_t srep_session__max_cpu(const struct srep_session *s);
/* the highest CPU of a sample (tracepoint or other), read or left unread; -1 none */
SREP_API int32_t srep_session__max_sample_cpu(const struct srep_session *s);

/* bytes of input consumed and total (0 if unknown): for progress bars */
SREP_API void srep_session__progress(const struct srep_session *s, uint64_t *done, uint64_t *total);

/* ---- event descriptions (perf's evsels) ---- */
SREP_API size_t srep_session__nr_evsels(const struct srep_session *s);
SREP_API const char *srep_session__evsel_name(const struct srep_session *s, size_t idx);
SREP_API uint64_t srep_session__evsel_samples(const struct srep_session *s, size_t idx);
SREP_API uint64_t srep_session__evsel_lost_samples(const struct srep_session *s, size_t idx);
/* perf_event_attr basics of the event */
SREP_API uint32_t srep_session__evsel_type(const struct srep_session *s, size_t idx);
SREP_API uint64_t srep_session__evsel_config(const struct srep_session *s, size_t idx);
SREP_API uint64_t srep_session__evsel_sample_type(const struct srep_session *s, size_t idx);
/*
 * The attr's sample_period and whether it is a frequency (*freq): with a
 * fixed period (perf record -c N) samples do not carry PERF_SAMPLE_PERIOD,
 * and each one stands for this many events of its kind.
 */
SREP_API uint64_t srep_session__evsel_sample_period(const struct srep_session *s, size_t idx,
						    bool *freq);

/*
 * Tracepoint field layout of event description @idx, the same for every
 * sample of it: srep_session__evsel_field() fills name, kind, elem_size and
 * elem_signed of field @field (values stay empty), as srep_event__field()
 * numbers them. Lets a writer describe the fields before the first sample.
 * The count is 0 for events that are not tracepoints; the call returns 0 or
 * SREP_E_INVAL. The name lives as long as the session.
 */
SREP_API int srep_session__evsel_nr_fields(const struct srep_session *s, size_t idx);
SREP_API int srep_session__evsel_field(const struct srep_session *s, size_t idx, int field,
				       struct srep_field *out);

/* ---- tasks ---- */
SREP_API size_t srep_session__nr_tasks(const struct srep_session *s);
SREP_API const struct srep_task *srep_session__task(const struct srep_session *s, size_t idx);
/* the newest task with this tid, NULL if none */
SREP_API const struct srep_task *srep_session__find_task(const struct srep_session *s, int32_t tid);
/* the task that created @t: its parent thread, else its parent process; NULL unknown */
SREP_API const struct srep_task *srep_session__parent_task(const struct srep_session *s,
							   const struct srep_task *t);
/*
 * The task that has @tid at the point the event stream has reached (the
 * table as built so far, even after a prescan), NULL if none yet: what a
 * streaming consumer attributes the current event to.
 */
SREP_API const struct srep_task *srep_session__current_task(const struct srep_session *s,
							    int32_t tid);

/* ---- what the session was opened with, and the trace's file facts ---- */
SREP_API const struct srep_open_opts *srep_session__open_opts(const struct srep_session *s);

/* a build id of a file the trace names (BUILD_ID feature, HEADER_BUILD_ID records) */
struct srep_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t size;			/* bytes of id used */
	uint8_t id[20];
	char *filename;			/* owned by the session */
};

SREP_API size_t srep_session__nr_build_ids(const struct srep_session *s);
SREP_API const struct srep_build_id *srep_session__build_id(const struct srep_session *s,
							    size_t idx);
/* the kallsyms text old perf versions wrote into the tracing data, NULL if none */
SREP_API const char *srep_session__tracing_kallsyms(const struct srep_session *s, size_t *len);

/* ---- statistics ---- */
#define SREP_NR_RECORD_TYPES 128

struct srep_stats {
	uint64_t records[SREP_NR_RECORD_TYPES];	/* by perf record type */
	uint64_t unknown_records;		/* types >= SREP_NR_RECORD_TYPES */
	uint64_t google_legacy_records;		/* in-band features of ChromiumOS perf 3.3 */
	uint64_t total_records;
	uint64_t lost;				/* sum of LOST.lost */
	uint64_t lost_samples;			/* sum of LOST_SAMPLES.lost */
	uint64_t lost_time_ns;			/* union of loss intervals (see docs) */
	uint64_t first_time, last_time;		/* of timestamped events; 0 none */
	uint64_t events;			/* neutral events delivered */
	uint64_t late_events;			/* beyond the reorder window */
	uint64_t skipped_records;		/* unreadable records stepped over */
	uint64_t skipped_bytes;			/* bytes skipped to resynchronise */
	uint64_t skipped_formats;		/* damaged tracepoint formats not parsed, or
						   parsed without their print format */
	uint64_t skipped_printk;		/* damaged printk format lines dropped */
	uint64_t bytes;				/* input bytes consumed */
	uint64_t decompressed_bytes;
};

SREP_API const struct srep_stats *srep_session__stats(const struct srep_session *s);

/* ---- /proc/schedstat snapshots ('perf sched stats record', perf 6.18+) ---- */
#define SREP_SCHEDSTAT_CPU_FIELDS 9

/* a CPU's first and last snapshot of its counters (names: srep_schedstat_cpu_field_name) */
struct srep_schedstat_cpu {
	uint32_t cpu;
	uint64_t snapshots;
	uint64_t first_time, last_time;
	uint64_t first[SREP_SCHEDSTAT_CPU_FIELDS], last[SREP_SCHEDSTAT_CPU_FIELDS];
};

/* the CPUs with snapshots; the schedstat version and the records of each kind */
SREP_API size_t srep_session__schedstat(const struct srep_session *s, int *version,
					uint64_t *cpu_records, uint64_t *domain_records);
SREP_API const struct srep_schedstat_cpu *srep_session__schedstat_cpu(const struct srep_session *s,
								       size_t idx);
/* "yld_count", "sched_count", ... "pcount"; NULL out of range */
SREP_API const char *srep_schedstat_cpu_field_name(int idx);
/* perf's name of a header feature ("HOSTNAME", "CPU_DOMAIN_INFO", ...), NULL if unknown */
SREP_API const char *srep_feature_name(unsigned feature);
/* damage was stepped over: something above was skipped (each one was a warning) */
SREP_API bool srep_stats__damaged(const struct srep_stats *st);
/* perf's name for a record type ("SAMPLE", "ATTR", "SCHEDSTAT_CPU", ...), NULL if unknown */
SREP_API const char *srep_record_type_name(uint32_t type);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_SESSION_H */
