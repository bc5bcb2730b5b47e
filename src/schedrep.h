/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep.h - the public API of libschedrep: a portable perf.data reader
 * that turns a trace from any architecture, byte order, word size and perf
 * version into one neutral, time-ordered stream of scheduler events.
 *
 * Everything outside src/ (the CLI, formats/, replay/) uses this header only.
 * Conventions (see docs/design.md):
 *  - fallible calls take 'struct srep_error *err' last and return 0 or a
 *    negative SREP_E_* code; 'err' is untouched on success;
 *  - iterators return 1 (got one), 0 (end) or a negative code;
 *  - pointers returned by accessors are borrowed from their owner and live as
 *    long as the owner unless the comment says otherwise;
 *  - the library never prints.
 */
#ifndef SCHEDREP_H
#define SCHEDREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

#define SREP_ERRORS							\
	_SREP_E(IO,		"input/output error")			\
	_SREP_E(NOMEM,		"out of memory")			\
	_SREP_E(NOT_PERF,	"not a perf.data file")			\
	_SREP_E(TRUNCATED,	"file is truncated")			\
	_SREP_E(CORRUPT,	"corrupt data")				\
	_SREP_E(UNSUPPORTED,	"unsupported input")			\
	_SREP_E(INVAL,		"invalid argument")			\
	_SREP_E(TRACING,	"bad tracing data")			\
	_SREP_E(ZSTD,		"decompression failed")			\
	_SREP_E(JSON,		"bad schedrep JSON")			\
	_SREP_E(SELECT,		"bad task selection")			\
	_SREP_E(TIME,		"bad time specification")		\
	_SREP_E(INTERRUPTED,	"interrupted")				\
	_SREP_E(LIMIT,		"limit exceeded")				\
	_SREP_E(SYMBOLS,	"symbol file not usable")

#define _SREP_E(name, text) SREP_E_##name,
enum srep_errcode {
	SREP_E_BASE = -100000,	/* never an errno, as libtraceevent does */
	SREP_ERRORS
	SREP_E_MAX
};
#undef _SREP_E

#define SREP_ERR_PATH_MAX 256
#define SREP_ERR_MSG_MAX  320

struct srep_error {
	int code;			/* SREP_E_*, 0 when unset */
	bool has_offset;
	uint64_t offset;		/* byte offset in the input */
	int64_t record_type;		/* perf record type, -1 if unknown */
	char path[SREP_ERR_PATH_MAX];	/* input name, "" if none */
	char msg[SREP_ERR_MSG_MAX];	/* what was expected, what was found */
};

const char *srep_strerror(int code);
/* "'PATH': offset 0x12: MSG" (parts omitted when unknown); returns length */
int srep_error__format(const struct srep_error *err, char *buf, size_t size);
/* Fill 'err' (when non-NULL); returns 'code' so callers can 'return srep_error__set(...)' */
int srep_error__set(struct srep_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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

const char *srep_event_kind_name(enum srep_event_kind kind);	/* "switch", ... */

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
int srep_event__nr_fields(const struct srep_event *ev);
/* field 'idx'; returns 0 or SREP_E_INVAL */
int srep_event__field(const struct srep_event *ev, int idx, struct srep_field *out);
/* find by name; returns 1 found, 0 not */
int srep_event__field_by_name(const struct srep_event *ev, const char *name,
			      struct srep_field *out);
uint64_t srep_field__elem(const struct srep_field *f, uint32_t idx);

/* ------------------------------------------------------------------ */
/* Tasks                                                                */
/* ------------------------------------------------------------------ */

struct srep_task;

int32_t srep_task__pid(const struct srep_task *t);	/* process (tgid), -1 unknown */
int32_t srep_task__tid(const struct srep_task *t);
int32_t srep_task__ppid(const struct srep_task *t);	/* parent process, -1 unknown */
int32_t srep_task__ptid(const struct srep_task *t);	/* parent thread, -1 unknown */
const char *srep_task__comm(const struct srep_task *t);	/* latest comm, "" if none */
size_t srep_task__nr_comms(const struct srep_task *t);
const char *srep_task__comm_at(const struct srep_task *t, size_t idx, uint64_t *time);
uint64_t srep_task__first_seen(const struct srep_task *t);	/* 0 never */
uint64_t srep_task__last_seen(const struct srep_task *t);
uint64_t srep_task__fork_time(const struct srep_task *t);	/* 0 not seen */
uint64_t srep_task__exit_time(const struct srep_task *t);	/* 0 not seen */
size_t srep_task__index(const struct srep_task *t);		/* creation order */
/* true when 'comm' (exact or fnmatch glob) equals any comm the task ever had */
bool srep_task__matches_comm(const struct srep_task *t, const char *pattern);

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
int srep_session__open(struct srep_session **out, const char *path,
		       const struct srep_open_opts *opts, struct srep_error *err);
void srep_session__delete(struct srep_session *s);	/* NULL is fine */

const struct srep_meta *srep_session__meta(const struct srep_session *s);

/* Next event in time order: 1 got one, 0 end of trace, < 0 error */
int srep_session__next_event(struct srep_session *s, const struct srep_event **ev,
			     struct srep_error *err);
/* Read the rest of the input only counting records (statistics below) */
int srep_session__count(struct srep_session *s, struct srep_error *err);
/* Start again from the first event (input copied to a temporary file if it was a pipe) */
int srep_session__rewind(struct srep_session *s, struct srep_error *err);

/*
 * Times (perf clock, ns) of the trace's first and last timestamped event:
 * known before the first event when the session was opened with
 * SREP_OPEN_PRESCAN or is a schedrep JSON file (whose first line holds the
 * span of the trace it came from), else those of the events read so far.
 * Time arguments ("0.3" = 0.3 s after the first event) are resolved against
 * *first.
 * Returns false (and zeros) when there is no timestamp.
 */
bool srep_session__time_span(const struct srep_session *s, uint64_t *first, uint64_t *last);
/*
 * The highest CPU number an event named so far (after SREP_OPEN_PRESCAN: in
 * the whole trace), -1 if none: for traces whose header lacks the CPU count.
 */
int32_t srep_session__max_cpu(const struct srep_session *s);

/* bytes of input consumed and total (0 if unknown): for progress bars */
void srep_session__progress(const struct srep_session *s, uint64_t *done, uint64_t *total);

/* ---- event descriptions (perf's evsels) ---- */
size_t srep_session__nr_evsels(const struct srep_session *s);
const char *srep_session__evsel_name(const struct srep_session *s, size_t idx);
uint64_t srep_session__evsel_samples(const struct srep_session *s, size_t idx);
uint64_t srep_session__evsel_lost_samples(const struct srep_session *s, size_t idx);
/* perf_event_attr basics of the event */
uint32_t srep_session__evsel_type(const struct srep_session *s, size_t idx);
uint64_t srep_session__evsel_config(const struct srep_session *s, size_t idx);
uint64_t srep_session__evsel_sample_type(const struct srep_session *s, size_t idx);

/*
 * Tracepoint field layout of event description @idx, the same for every
 * sample of it: srep_session__evsel_field() fills name, kind, elem_size and
 * elem_signed of field @field (values stay empty), as srep_event__field()
 * numbers them. Lets a writer describe the fields before the first sample.
 * The count is 0 for events that are not tracepoints; the call returns 0 or
 * SREP_E_INVAL. The name lives as long as the session.
 */
int srep_session__evsel_nr_fields(const struct srep_session *s, size_t idx);
int srep_session__evsel_field(const struct srep_session *s, size_t idx, int field,
			      struct srep_field *out);

/* ---- tasks ---- */
size_t srep_session__nr_tasks(const struct srep_session *s);
const struct srep_task *srep_session__task(const struct srep_session *s, size_t idx);
/* the newest task with this tid, NULL if none */
const struct srep_task *srep_session__find_task(const struct srep_session *s, int32_t tid);

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
	uint64_t bytes;				/* input bytes consumed */
	uint64_t decompressed_bytes;
};

const struct srep_stats *srep_session__stats(const struct srep_session *s);
/* perf's name for a record type ("SAMPLE", "ATTR", ...), NULL if unknown */
const char *srep_record_type_name(uint32_t type);

/* ------------------------------------------------------------------ */
/* Task selection (shared by convert, replay, compare)                  */
/* ------------------------------------------------------------------ */

struct srep_selection;

/*
 * SEL syntax: all digits = a pid (the whole process); "tid:N" = one thread;
 * "comm:NAME" = a comm (for comms made of digits); anything else = a comm or
 * fnmatch(3) glob matched against every comm the task ever had.
 */
int srep_selection__new(struct srep_selection **out, struct srep_error *err);
void srep_selection__delete(struct srep_selection *sel);
int srep_selection__add_only(struct srep_selection *sel, const char *spec, struct srep_error *err);
int srep_selection__add_exclude(struct srep_selection *sel, const char *spec, struct srep_error *err);
void srep_selection__set_children(struct srep_selection *sel, bool children);
/* true when nothing was asked for (everything selected) */
bool srep_selection__is_empty(const struct srep_selection *sel);
/*
 * Resolve against a session's task table (PRESCAN it, or call this after the
 * last event); afterwards srep_selection__has_tid() answers per tid.
 */
int srep_selection__resolve(struct srep_selection *sel, const struct srep_session *s,
			    struct srep_error *err);
bool srep_selection__has_task(const struct srep_selection *sel, const struct srep_task *t);
bool srep_selection__has_tid(const struct srep_selection *sel, int32_t tid);

/* ------------------------------------------------------------------ */
/* Time specifications (shared)                                         */
/* ------------------------------------------------------------------ */

/*
 * "0.5" = seconds after the trace's first event; "@5170.123456" = absolute
 * perf timestamp in seconds. Returns absolute ns in *out.
 */
int srep_time__parse(const char *spec, uint64_t trace_start_ns, uint64_t *out,
		     struct srep_error *err);
/* "FROM,TO" with either side optional ("0.5," or ",2"); missing = 0 / UINT64_MAX */
int srep_time__parse_range(const char *spec, uint64_t trace_start_ns, uint64_t *from,
			   uint64_t *to, struct srep_error *err);
/* duration: "10ms", "1.5s", "200us", "500ns", plain number = seconds */
int srep_duration__parse(const char *spec, uint64_t *out_ns, struct srep_error *err);

/* ------------------------------------------------------------------ */
/* Metrics (metrics.c): per task, per CPU and for the whole trace       */
/* ------------------------------------------------------------------ */

/*
 * Computed in one streaming pass over a session's events with memory bounded
 * per task and per CPU; the definitions are in docs/compare.md. Shared by
 * compare and replay.
 */
struct srep_metrics;

/**
 * srep_metrics__new - start collecting metrics for a session
 * @out: the new collector
 * @s: the session whose events will be fed; it must outlive the collector
 * @err: filled on failure
 *
 * Returns 0 or SREP_E_NOMEM.
 */
int srep_metrics__new(struct srep_metrics **out, const struct srep_session *s,
		      struct srep_error *err);
void srep_metrics__delete(struct srep_metrics *m);	/* NULL is fine */

/**
 * srep_metrics__add - account one event (in the session's time order)
 * @m: the collector
 * @ev: the event just returned by srep_session__next_event() on its session
 * @err: filled on failure
 *
 * Returns 0 or SREP_E_NOMEM.
 */
int srep_metrics__add(struct srep_metrics *m, const struct srep_event *ev,
		      struct srep_error *err);

/**
 * srep_metrics__finish - close what is still open at the last event
 * @m: the collector, after the session's last event
 *
 * Running tasks run, busy CPUs are busy and sleeping tasks sleep until the
 * trace's last event; waits that have not ended are not counted.
 */
void srep_metrics__finish(struct srep_metrics *m);

/* Per task, or summed over a group of tasks. Times in ns (perf clock). */
struct srep_task_metrics {
	uint64_t cpu_ns;			/* time running on a CPU */
	uint64_t switches_voluntary;		/* switched out not runnable (S, D, ...) */
	uint64_t switches_involuntary;		/* switched out runnable (R, R+) */
	uint64_t wait_count;			/* completed waits for a CPU */
	uint64_t wait_total_ns, wait_max_ns;
	uint64_t wait_p50_ns, wait_p95_ns;	/* within 1.6% (docs/compare.md) */
	uint64_t wait_unknown;			/* runs whose wait start is unknown */
	uint64_t sleep_s_ns;			/* switched out S (or I) until woken */
	uint64_t sleep_d_ns;			/* switched out D until woken */
	uint64_t migrations;			/* runs on another CPU than the last */
	uint64_t start, end;			/* fork or first seen; exit or last seen */
	size_t nr_tasks;
};

/**
 * srep_metrics__tasks - the metrics of one task or the sum over several
 * @m: the collector, finished
 * @tasks: tasks of the collector's session
 * @nr: how many (1 for one task)
 * @out: counts and times are summed; waits merged (percentiles of the whole
 *       group); start is the earliest start, end the latest end
 *
 * Returns 0 or SREP_E_NOMEM.
 */
int srep_metrics__tasks(const struct srep_metrics *m, const struct srep_task *const *tasks,
			size_t nr, struct srep_task_metrics *out);

/*
 * Where tasks block. Given a symbolizer (before the first event; fed each
 * event with srep_symbolizer__observe() before srep_metrics__add()), every
 * switch-out into S, I or D whose event has a callchain starts a sleep at
 * its blocking site: the kernel function slept in and the first named user
 * frame, as srep_symbolizer__blocked_in() finds them and srep_frame__label()
 * names them. The sleep's time is that of sleep_s_ns / sleep_d_ns, so with
 * a callchain on every switch-out the sites' times add up to them.
 */
struct srep_symbolizer;
void srep_metrics__set_symbolizer(struct srep_metrics *m, struct srep_symbolizer *sy);

/* "(other)": the site of sleeps beyond the bounds (64 sites a task, 65536 a trace) */
struct srep_block_site {
	const char *kernel;	/* kernel function slept in; NULL unknown; "(other)" */
	const char *user;	/* first named user frame (else the first); NULL none */
	uint64_t ns;		/* time asleep after switching out there */
	uint64_t count;		/* sleeps there (whose end the trace shows) */
};

/**
 * srep_metrics__blocking - where one task, or a group, blocked
 * @m: the collector, finished
 * @tasks, @nr: as for srep_metrics__tasks(); a group's sites are summed
 * @out: the sites, most time first (then most sleeps, then by name); the
 *	strings live as long as @m
 * @max: room in @out (0: only count)
 *
 * Returns how many sites there are (the first @max are written), or
 * (size_t)-1 when out of memory.
 */
size_t srep_metrics__blocking(const struct srep_metrics *m, const struct srep_task *const *tasks,
			      size_t nr, struct srep_block_site *out, size_t max);

struct srep_cpu_metrics {
	uint64_t busy_ns;	/* a task other than the idle task ran */
	uint64_t idle_ns;	/* the idle task ran */
	uint64_t unknown_ns;	/* nothing known ran (per-task SWITCH records) */
	size_t nr_freqs;	/* frequencies seen (cpu_frequency events) */
};

/* CPUs 0 .. n-1 (the highest CPU that had an event, plus one) */
size_t srep_metrics__nr_cpus(const struct srep_metrics *m);
/* returns 0, or SREP_E_INVAL for a CPU out of range */
int srep_metrics__cpu(const struct srep_metrics *m, int32_t cpu, struct srep_cpu_metrics *out);
/* frequency residency: the idx-th frequency (ascending kHz) and the time spent at it */
int srep_metrics__cpu_freq(const struct srep_metrics *m, int32_t cpu, size_t idx,
			   uint64_t *khz, uint64_t *ns);

/*
 * A coarse per-CPU timeline for charts: the trace is cut into *nr bins of
 * *bin_ns from *start (the bin width doubles as the trace grows, so there
 * are at most SREP_TIMELINE_BINS). Per bin: busy time and the task that ran
 * longest in one stretch there (NULL if none).
 */
#define SREP_TIMELINE_BINS 1024
void srep_metrics__timeline(const struct srep_metrics *m, uint64_t *start, uint64_t *bin_ns,
			    size_t *nr);
int srep_metrics__timeline_bin(const struct srep_metrics *m, int32_t cpu, size_t bin,
			       uint64_t *busy_ns, const struct srep_task **top);

struct srep_workload_metrics {
	uint64_t first, last;		/* the trace's first and last event */
	uint64_t start, end;		/* the workload's (see makespan) */
	uint64_t makespan_ns;		/* from the first fork (not before the first
					   event) to the last end of the tasks forked,
					   kernel threads aside; else the whole trace */
	uint64_t cpu_ns;		/* CPU time of the tasks (idle task aside) */
	uint64_t switches;		/* their switches out */
	uint64_t lost;			/* LOST + LOST_SAMPLES counts of the session */
	size_t nr_tasks;
};

/**
 * srep_metrics__workload - figures for the whole trace
 * @m: the collector, finished
 * @sel: only the tasks it selects (resolved on the same session), or NULL
 * @out: the figures
 */
void srep_metrics__workload(const struct srep_metrics *m, const struct srep_selection *sel,
			    struct srep_workload_metrics *out);

/* ------------------------------------------------------------------ */
/* Task matching between two traces (match.c)                           */
/* ------------------------------------------------------------------ */

enum srep_match_mode {
	SREP_MATCH_AUTO = 0,	/* comm, then creation order under matched parents */
	SREP_MATCH_COMM,	/* one group per comm on each side */
	SREP_MATCH_PID,		/* the same tid */
};

/* "auto", "comm", "pid"; returns 0 or SREP_E_INVAL */
int srep_match_mode__parse(const char *name, enum srep_match_mode *out, struct srep_error *err);
const char *srep_match_mode__name(enum srep_match_mode mode);

struct srep_matching;

/**
 * srep_matching__new - pair the tasks of two sessions
 * @out: the pairs and what was left over
 * @mode: how (docs/compare.md)
 * @a, @b: the sessions, PRESCANned or read to the end
 * @sel_a, @sel_b: selections resolved on @a and @b, or NULL for every task;
 *                 the idle task (tid 0) is never matched
 * @err: filled on failure
 *
 * Returns 0 or SREP_E_NOMEM.
 */
int srep_matching__new(struct srep_matching **out, enum srep_match_mode mode,
		       const struct srep_session *a, const struct srep_selection *sel_a,
		       const struct srep_session *b, const struct srep_selection *sel_b,
		       struct srep_error *err);
void srep_matching__delete(struct srep_matching *mt);
size_t srep_matching__nr_pairs(const struct srep_matching *mt);
/* side 0 = A, 1 = B: the tasks of pair idx (one, or a comm's group); returns their number */
size_t srep_matching__pair(const struct srep_matching *mt, size_t idx, int side,
			   const struct srep_task *const **tasks);
size_t srep_matching__nr_unmatched(const struct srep_matching *mt, int side);
const struct srep_task *srep_matching__unmatched(const struct srep_matching *mt, int side,
						 size_t idx);

/* ------------------------------------------------------------------ */
/* Comparison of two traces (compare.c)                                 */
/* ------------------------------------------------------------------ */

enum srep_unit { SREP_UNIT_NS = 0, SREP_UNIT_COUNT, SREP_UNIT_PERCENT };

/*
 * A difference is significant when |B - A| is at least SREP_SIGNIFICANT_REL
 * of the larger of |A| and |B| and at least the unit's noise floor.
 */
#define SREP_SIGNIFICANT_REL		0.10
#define SREP_SIGNIFICANT_NS		10000.0	/* 10 us */
#define SREP_SIGNIFICANT_COUNT		2.0
#define SREP_SIGNIFICANT_PERCENT	1.0	/* percentage points */

struct srep_diff {
	const char *metric;		/* "cpu_time", "wait_p95", ... */
	enum srep_unit unit;
	double a, b;			/* durations scaled by --scale-a / --scale-b */
	double diff;			/* b - a */
	double ratio;			/* b / a; NAN when a is 0 */
	double width;			/* |b - a| / max(|a|, |b|): 0 equal .. 1 one side 0 */
	bool significant;
};

/* fill a difference from its two values */
void srep_diff__set(struct srep_diff *d, const char *metric, enum srep_unit unit,
		    double a, double b);

struct srep_compare_side {
	const struct srep_session *session;
	const struct srep_metrics *metrics;	/* finished */
	const struct srep_selection *sel;	/* resolved on the session, or NULL */
	double scale;				/* durations are multiplied by it (> 0) */
};

struct srep_compare;

/**
 * srep_compare__new - compare two traces
 * @out: the comparison
 * @a, @b: the two sides
 * @mode: task matching
 * @err: filled on failure
 *
 * Returns 0, SREP_E_INVAL (bad scale) or SREP_E_NOMEM.
 */
int srep_compare__new(struct srep_compare **out, const struct srep_compare_side *a,
		      const struct srep_compare_side *b, enum srep_match_mode mode,
		      struct srep_error *err);
void srep_compare__delete(struct srep_compare *c);
const struct srep_matching *srep_compare__matching(const struct srep_compare *c);
/* whole workload: makespan, cpu_time, switches, tasks, lost */
const struct srep_diff *srep_compare__workload(const struct srep_compare *c, size_t *nr);
/* per CPU (0 .. nr_cpus-1, the union of both sides): busy, idle, utilisation, freq_<kHz> */
size_t srep_compare__nr_cpus(const struct srep_compare *c);
const struct srep_diff *srep_compare__cpu(const struct srep_compare *c, size_t cpu, size_t *nr);
/* per matched pair (matching order): the task metrics of docs/compare.md */
const struct srep_diff *srep_compare__pair(const struct srep_compare *c, size_t pair, size_t *nr);
/* the metrics of pair 'pair' on one side (0 = A, 1 = B), unscaled */
const struct srep_task_metrics *srep_compare__pair_metrics(const struct srep_compare *c,
							   size_t pair, int side);

/* one row of the per-task table: a pair and one of its metrics */
struct srep_compare_row {
	size_t pair;
	const struct srep_diff *diff;
};

/* every (pair, metric) row, significant ones first, each part widest first */
const struct srep_compare_row *srep_compare__rows(const struct srep_compare *c, size_t *nr);
/* how many differences are significant (workload, CPUs and pairs) */
size_t srep_compare__nr_significant(const struct srep_compare *c);

/* one row of a pair's "where tasks block" table (srep_metrics__blocking) */
struct srep_block_row {
	const char *kernel, *user;	/* the blocking site: as in struct srep_block_site */
	struct srep_diff blocked;	/* "blocked": time asleep there, A and B (scaled) */
	uint64_t count[2];		/* sleeps there, in A and in B */
};

/*
 * Where the tasks of pair 'pair' blocked: the sites of both sides (equal
 * names are one row), the larger side's time first. None when neither
 * side's metrics had a symbolizer. Not counted in nr_significant. The
 * strings live as long as the sides' metrics.
 */
const struct srep_block_row *srep_compare__blocking(const struct srep_compare *c, size_t pair,
						    size_t *nr);

/* ------------------------------------------------------------------ */
/* Symbols: callchain frames to modules, functions and source lines     */
/* ------------------------------------------------------------------ */

/*
 * A symbolizer resolves the callchains of one session offline, from the
 * target's own files (ELF of any architecture, byte order and word size,
 * read with elfutils' libdw): see docs/symbols.md. Feed it every event with
 * srep_symbolizer__observe() as the events stream by (MMAP events place the
 * modules, FORK and exec events copy or empty a process's mappings), then
 * ask for the frames of any event with a callchain.
 *
 * The session must outlive the symbolizer: build ids and the tracing
 * data's kallsyms are read from it, warnings go to its diag callback. A
 * symbolizer is not thread-safe (neither is libdw): use one per thread, or
 * a lock. Strings it returns live as long as the symbolizer.
 */
struct srep_symbolizer;

/**
 * struct srep_symbol_opts - where the target's files are
 * @kallsyms: a copy of the target's /proc/kallsyms (plain text), or NULL
 * @vmlinux: the target kernel's ELF image, or NULL
 * @symfs: the target's root file system, or a copy of its binaries at the
 *	paths the trace names; NULL or "" for this machine's "/"
 * @buildid_dir: a perf build-id cache; NULL for $HOME/.debug, "" for none
 * @lines: also resolve source file and line where DWARF is present
 *
 * Kernel symbols come from @vmlinux, then @kallsyms, then the kallsyms in
 * the trace's tracing data (old perf versions wrote it), then the build-id
 * cache. A file whose build id differs from the trace's is not used (one
 * warning through the session's diag callback).
 */
struct srep_symbol_opts {
	const char *kallsyms;
	const char *vmlinux;
	const char *symfs;
	const char *buildid_dir;
	bool lines;
};

/* where a frame ran: from the callchain's context markers */
enum srep_frame_mode {
	SREP_FRAME_KERNEL = 1,
	SREP_FRAME_USER,
	SREP_FRAME_HV,
	SREP_FRAME_GUEST_KERNEL,	/* guest frames are never resolved */
	SREP_FRAME_GUEST_USER,
};

/**
 * struct srep_frame - one resolved callchain entry
 * @addr: the entry as recorded
 * @mode: kernel or user (guest, hypervisor)
 * @module: "[kernel.kallsyms]", "[virtio_blk]", "/usr/lib/.../libc.so.6";
 *	NULL when no mapping covers @addr
 * @module_addr: user frames: the offset in the module's file (what perf
 *	script prints); kernel frames and unmapped ones: @addr
 * @symbol: the function (or perf's kind of label), NULL when unresolved
 * @symbol_offset: @addr - the symbol's start
 * @file: source file with srep_symbol_opts.lines and DWARF, else NULL
 * @line: its line, 0 when @file is NULL
 */
struct srep_frame {
	uint64_t addr;
	enum srep_frame_mode mode;
	const char *module;
	uint64_t module_addr;
	const char *symbol;
	uint64_t symbol_offset;
	const char *file;
	uint32_t line;
};

/**
 * struct srep_symbol_stats - what srep_symbolizer__callchain() resolved
 * @callchains: events whose callchain was resolved
 * @frames: frames (context markers excluded); @resolved: those with a symbol
 * @kernel_frames, @kernel_resolved, @user_frames, @user_resolved: by mode
 * @unmapped: user frames that no mapping of their process covered
 * @dwarf_stacks: samples carrying user registers and stack for
 *	--call-graph dwarf; @dwarf_unwound: those whose stack gave frames
 * @cache_hits, @cache_misses: lookups of (module, address) answered from
 *	the cache, and resolved anew
 */
struct srep_symbol_stats {
	uint64_t callchains;
	uint64_t frames, resolved;
	uint64_t kernel_frames, kernel_resolved;
	uint64_t user_frames, user_resolved;
	uint64_t unmapped;
	uint64_t dwarf_stacks, dwarf_unwound;
	uint64_t cache_hits, cache_misses;
};

enum srep_module_state {
	SREP_MODULE_UNUSED = 0,		/* no frame asked for it yet */
	SREP_MODULE_FOUND,		/* symbols read from 'path' */
	SREP_MODULE_MISSING,		/* no file found */
	SREP_MODULE_MISMATCH,		/* only files with another build id */
	SREP_MODULE_BAD,		/* found, but not a readable ELF file */
};

/**
 * struct srep_module_info - a module the trace mapped, and its files here
 * @name: the path on the target ("[kernel.kallsyms]" for the kernel)
 * @state: whether its symbols were found
 * @path: the file symbols were read from, NULL if none
 * @debug_path: its separate debug file, NULL if none was needed or found
 * @build_id: the trace's build id as hex, "" when the trace has none
 * @frames, @resolved: frames that fell in it, and those with a symbol
 */
struct srep_module_info {
	const char *name;
	enum srep_module_state state;
	const char *path, *debug_path;
	char build_id[41];
	uint64_t frames, resolved;
};

/* Fails (SREP_E_IO, SREP_E_SYMBOLS) only when a file named in 'opts' is unusable. */
int srep_symbolizer__new(struct srep_symbolizer **out, struct srep_session *s,
			 const struct srep_symbol_opts *opts, struct srep_error *err);
void srep_symbolizer__delete(struct srep_symbolizer *sy);	/* NULL is fine */

/* Track mappings: call for every event in order. 0, or SREP_E_NOMEM. */
int srep_symbolizer__observe(struct srep_symbolizer *sy, const struct srep_event *ev);

/* Resolve one address of process 'pid'; returns 1 with a symbol, 0 without. */
int srep_symbolizer__resolve(struct srep_symbolizer *sy, int32_t pid,
			     enum srep_frame_mode mode, uint64_t addr, struct srep_frame *out);

/* user frames unwound from a --call-graph dwarf stack at most (perf's default) */
#define SREP_UNWIND_MAX		127

/*
 * Resolve the event's callchain into 'frames' (at most 'max'; the event's
 * nr_callchain + SREP_UNWIND_MAX + 1 is always enough), innermost first,
 * context markers left out: the recorded frames, then, for --call-graph
 * dwarf samples, the user stack unwound from the sampled registers, as the
 * target's perf does (arm64 -g: also the leaf's caller from the sampled
 * link register). Returns the number of frames written.
 */
size_t srep_symbolizer__callchain(struct srep_symbolizer *sy, const struct srep_event *ev,
				  struct srep_frame *frames, size_t max);

/* srep_symbolizer__blocked_in() result bits */
#define SREP_BLOCKED_KERNEL	0x1
#define SREP_BLOCKED_USER	0x2

/*
 * Where the task of a switch-out blocked: the first kernel frame that is
 * not the scheduler itself (__schedule, schedule*, preempt_schedule*,
 * io_schedule*, __cond_resched) and the first user-space frame that has a
 * name (else the first user-space frame). Returns which of the two were
 * found (SREP_BLOCKED_* bits).
 */
int srep_symbolizer__blocked_in(struct srep_symbolizer *sy, const struct srep_event *ev,
				struct srep_frame *kernel, struct srep_frame *user);

/* room for a label: the smallest buffer, and one that cuts no module name short */
#define SREP_FRAME_LABEL_MIN	20
#define SREP_FRAME_LABEL_MAX	128

/*
 * A frame's short name, the same in every output: its symbol; else, for a
 * user frame in a mapped file, "FILE+0xOFFSET" (the file's base name and the
 * offset in it that perf script prints: "libc.so.6+0x7eb20"); else its
 * address, "0xffffffff81234567". Returns the symbol itself, or 'buf'
 * (at least SREP_FRAME_LABEL_MIN bytes; longer file names are cut).
 */
const char *srep_frame__label(const struct srep_frame *f, char *buf, size_t size);

const struct srep_symbol_stats *srep_symbolizer__stats(const struct srep_symbolizer *sy);
size_t srep_symbolizer__nr_modules(const struct srep_symbolizer *sy);
/* module 'idx' (in the order the trace mapped them); 0, or SREP_E_INVAL */
int srep_symbolizer__module(const struct srep_symbolizer *sy, size_t idx,
			    struct srep_module_info *out);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_H */
