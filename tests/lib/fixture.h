/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.h - write perf.data files from a small in-code description, in
 * every byte order, word size, container (file or pipe) and compression, so
 * each reader path can be tested without external files.
 *
 *	struct fixture_opts o = { .big_endian = true, .word_size = 4 };
 *	struct fixture *fx = fixture_new(&o);
 *	fixture_comm(fx, 1000, 0, 42, 42, "sleeper", false);
 *	fixture_switch(fx, 2000, 0, "sleeper", 42, 120, FIXTURE_STATE_S,
 *		       "swapper/0", 0, 120);
 *	fixture_write(fx, "/tmp/x.data", &info);	// info: what perf will count
 *	fixture_free(fx);
 *
 * The traces mirror `perf sched record` of perf 6.1: one attr per tracepoint
 * (sample_type IP|TID|TIME|CPU|PERIOD|RAW plus IDENTIFIER or ID,
 * read_format ID|LOST, sample_id_all) and a last "dummy:HG" event whose ids
 * the side-band records (COMM, FORK, MMAP2, SWITCH...) carry in their
 * sample_id trailer. Every evsel has one id per CPU. Records are written in
 * the order they were added, so tests can build out-of-order streams.
 *
 * Builder calls return 0 (or an evsel index) and -1 on a bad argument or no
 * memory; a failure also makes fixture_write() fail, so a test may check
 * only that.
 */
#ifndef SREP_TESTS_FIXTURE_H
#define SREP_TESTS_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FIXTURE_MAX_EVSELS	32	/* including the dummy */
#define FIXTURE_MAX_CPUS	64
#define FIXTURE_RECORD_TYPES	128	/* info->records[] covers types below this */

/* sched_switch prev_state as kernels 6.1 to 6.18 encode it (TASK_REPORT bits) */
#define FIXTURE_STATE_R		0x000	/* runnable (not preempted) */
#define FIXTURE_STATE_S		0x001
#define FIXTURE_STATE_D		0x002
#define FIXTURE_STATE_T		0x004
#define FIXTURE_STATE_t		0x008
#define FIXTURE_STATE_X		0x010
#define FIXTURE_STATE_Z		0x020
#define FIXTURE_STATE_P		0x040
#define FIXTURE_STATE_I		0x080	/* idle kernel thread (TASK_REPORT_IDLE) */
#define FIXTURE_STATE_PREEMPT	0x100	/* TASK_REPORT_MAX: preempted, perf prints "R+" */

/* which kernel's tracepoint formats to write */
enum fixture_kernel {
	FIXTURE_KERNEL_6_1 = 0,	/* Debian 12: char comm[16] everywhere, stat_runtime with vruntime */
	FIXTURE_KERNEL_6_18,	/* newer: __data_loc comms, stat_runtime without vruntime,
				   sched_process_exit.group_dead, no sched_stat_{wait,sleep,...} */
};

struct fixture_opts {
	bool big_endian;
	int word_size;			/* 4 or 8 (0 = 8): tracing long size, bitmap words */
	bool pipe;			/* pipe mode (16-byte header, HEADER_* records) */
	bool compressed;		/* wrap records in zstd COMPRESSED (81) records */
	bool compressed2;		/* use COMPRESSED2 (83) instead (implies compressed) */
	unsigned chunk_records;		/* records per compressed record, 0 = 8 */
	unsigned split_every;		/* cut every Nth compressed record in two halves
					   that land in two COMPRESSED records; 0 = never */
	unsigned plain_head;		/* the first N records added stay uncompressed, as
					   perf leaves its synthesized records */
	unsigned round_every;		/* add FINISHED_ROUND after every N records; 0 = only
					   fixture_finished_round() */
	uint32_t attr_size_extra;	/* bytes added to the 128-byte attr (8 = perf 6.12) */
	uint32_t attr_size_field;	/* file mode: value written in attr.size, 0 = the real
					   size (simpleperf writes 120 in 144-byte entries; the
					   ids stay in the entry's last 16 bytes, where perf 6.1
					   does not look: it misreads such files if nr attrs > 1) */
	bool sample_identifier;		/* IDENTIFIER (as perf does) instead of ID */
	bool tp_callchain;		/* tracepoint samples carry CALLCHAIN (perf sched -g) */
	int nr_cpus;			/* 0 = 2; one id per CPU per evsel */
	const char *arch;		/* NULL = x86_64, s390x, armv7l or ppc by order/size; copied */
	enum fixture_kernel kernel;
	const char *kallsyms;		/* text for the tracing data's kallsyms part (old perf
					   wrote /proc/kallsyms there); NULL: none, as perf 6.x.
					   Not copied: it must live until fixture_write() */
};

struct fixture_info {
	/* records as perf's "Aggregated stats" counts them: the COMPRESSED
	   wrappers and the records inside; in pipe mode also the ATTR, FEATURE
	   (end marker included), TRACING_DATA and EVENT_UPDATE records */
	uint64_t records[FIXTURE_RECORD_TYPES];
	uint64_t other_records;		/* types >= FIXTURE_RECORD_TYPES */
	uint64_t total;			/* perf's "TOTAL events" */
	int nr_evsels;			/* including the dummy, which is the last */
	int dummy_evsel;
	char evsel_names[FIXTURE_MAX_EVSELS][48];	/* "sched:sched_switch", ... */
	uint64_t samples[FIXTURE_MAX_EVSELS];	/* SAMPLE records per evsel */
	uint64_t lost;			/* sum of LOST.lost */
	uint64_t lost_samples;		/* sum of LOST_SAMPLES.lost */
	size_t nr_tids;			/* distinct tids named anywhere (0 included) */
	uint64_t first_time, last_time;	/* over timestamped records; 0 if none */
	uint64_t nr_split;		/* records cut across two compressed records */
	/* where things went (file mode; pipe: data_offset 16, data_size to EOF) */
	uint64_t data_offset, data_size, file_size;
};

struct fixture;

struct fixture *fixture_new(const struct fixture_opts *opts);	/* NULL: bad opts/ENOMEM */
void fixture_free(struct fixture *fx);				/* NULL is fine */

/* ---- events (evsels); the index is what SAMPLE helpers take ---- */

/* a tracepoint ("sched", "sched_switch"); the same index if already added; -1 unknown */
int fixture_add_tracepoint(struct fixture *fx, const char *system, const char *name);
/*
 * A generic sampling event (e.g. PERF_TYPE_SOFTWARE, 0 = cpu-clock). The
 * sample layout is the tracepoints' without RAW; sample_type may add
 * PERF_SAMPLE_CALLCHAIN only (other bits would move the ID and perf
 * refuses evsels that disagree on it).
 */
int fixture_add_event(struct fixture *fx, uint32_t type, uint64_t config, uint64_t sample_type);

/*
 * Event @evsel sampled every @period events (perf record -c N): the attr
 * holds the period, not a frequency, and samples carry no PERIOD field.
 */
int fixture_event_fixed_period(struct fixture *fx, int evsel, uint64_t period);

/* ---- side-band records (sample_id trailer of the dummy event) ---- */
int fixture_comm(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t tid,
		 const char *comm, bool exec);
int fixture_fork(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t ppid,
		 int32_t tid, int32_t ptid);
int fixture_exit(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t ppid,
		 int32_t tid, int32_t ptid);
int fixture_mmap2(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t tid,
		  uint64_t addr, uint64_t len, uint64_t pgoff, const char *filename);
/* LOST: 'evsel' is the event whose buffer overflowed (its id for 'cpu') */
int fixture_lost(struct fixture *fx, int evsel, uint64_t time, int cpu, uint64_t lost);
int fixture_lost_samples(struct fixture *fx, int evsel, uint64_t time, int cpu, uint64_t lost);
/* SWITCH (per-task) and SWITCH_CPU_WIDE records: 'pid/tid' is the task switching */
int fixture_switch_record(struct fixture *fx, uint64_t time, int cpu, int32_t pid,
			  int32_t tid, bool out, bool preempt);
int fixture_switch_cpu_wide(struct fixture *fx, uint64_t time, int cpu, int32_t pid,
			    int32_t tid, bool out, bool preempt, int32_t next_prev_pid,
			    int32_t next_prev_tid);
int fixture_finished_round(struct fixture *fx);
/* any record, body as given (no trailer added); type may be unknown to perf */
int fixture_raw_record(struct fixture *fx, uint32_t type, uint16_t misc,
		       const void *body, size_t len);

/* ---- tracepoint samples (the tracepoint is added if it is not yet) ----
 * The sample's pid/tid is the task current on 'cpu' (the last next_tid
 * switched to there, 0 at first; its pid from COMM/FORK records), as the
 * kernel records; sched_switch uses prev. */
int fixture_switch(struct fixture *fx, uint64_t time, int cpu,
		   const char *prev_comm, int32_t prev_tid, int32_t prev_prio, int64_t prev_state,
		   const char *next_comm, int32_t next_tid, int32_t next_prio);
int fixture_waking(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		   int32_t tid, int32_t prio, int32_t target_cpu);
int fixture_wakeup(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		   int32_t tid, int32_t prio, int32_t target_cpu);
int fixture_wakeup_new(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		       int32_t tid, int32_t prio, int32_t target_cpu);
int fixture_migrate(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		    int32_t tid, int32_t prio, int32_t orig_cpu, int32_t dest_cpu);
int fixture_tp_fork(struct fixture *fx, uint64_t time, int cpu, const char *parent_comm,
		    int32_t parent_tid, const char *child_comm, int32_t child_tid);
int fixture_exec(struct fixture *fx, uint64_t time, int cpu, const char *filename,
		 int32_t tid, int32_t old_tid);
int fixture_tp_exit(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		    int32_t tid, int32_t prio);
int fixture_tp_free(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		    int32_t tid, int32_t prio);
int fixture_stat_runtime(struct fixture *fx, uint64_t time, int cpu, const char *comm,
			 int32_t tid, uint64_t runtime, uint64_t vruntime);
/* sched_stat_wait, _sleep, _iowait or _blocked (by name) */
int fixture_stat_delay(struct fixture *fx, const char *tp_name, uint64_t time, int cpu,
		       const char *comm, int32_t tid, uint64_t delay);
int fixture_cpu_idle(struct fixture *fx, uint64_t time, int cpu, uint32_t state);
int fixture_cpu_frequency(struct fixture *fx, uint64_t time, int cpu, uint32_t khz,
			  uint32_t cpu_id);
/* a sample of tracepoint 'evsel' with this RAW payload (padded as the kernel does) */
int fixture_tp_sample(struct fixture *fx, int evsel, uint64_t time, int cpu,
		      const void *raw, uint32_t len);

/* ---- generic samples ---- */
int fixture_sample(struct fixture *fx, int evsel, uint64_t time, int cpu, int32_t pid,
		   int32_t tid, uint64_t ip, uint64_t period, uint32_t nr_callchain,
		   const uint64_t *callchain);
/*
 * the branch stack of the next fixture_sample() (of an event added with
 * PERF_SAMPLE_BRANCH_STACK): 'nr' (from, to) pairs, newest first; copied
 */
int fixture_next_branches(struct fixture *fx, uint32_t nr, const uint64_t *from_to);
/* callchain of the next tracepoint sample (opts.tp_callchain); copied */
int fixture_next_callchain(struct fixture *fx, uint32_t nr, const uint64_t *ips);
/* the task current on 'cpu' from now on (instead of the last switch's next) */
int fixture_set_current(struct fixture *fx, int cpu, int32_t pid, int32_t tid);

/* RAW payload of the last tracepoint sample added (its u32 size excluded) */
const uint8_t *fixture_last_raw(const struct fixture *fx, uint32_t *len);

/* ---- output ---- */
int fixture_write(struct fixture *fx, const char *path, struct fixture_info *info);
/* *buf is malloc'd: the caller frees it */
int fixture_write_mem(struct fixture *fx, uint8_t **buf, size_t *len, struct fixture_info *info);

/* ---- tracing data alone (for tracepoint decoding tests) ---- */

/* the blob of feature 1 with every tracepoint the fixture knows, in the byte
   order, long size and kernel of 'opts'; malloc'd, NULL on ENOMEM */
uint8_t *fixture_tracing_data(const struct fixture_opts *opts, size_t *len);
/* the tracepoint's ID (attr.config, common_type) under 'opts'; -1 unknown */
int fixture_tp_id(const struct fixture_opts *opts, const char *system, const char *name);

/* ------------------------------------------------------------------ */
/* Between fixture.c and fixture_formats.c only: not for tests         */
/* ------------------------------------------------------------------ */

struct fx_flavour {
	bool big_endian;
	int long_size;			/* 4 or 8 */
	bool char_signed;		/* x86 kernels before 6.2 */
	enum fixture_kernel kernel;
	int id_set;			/* which real kernel's tracepoint IDs */
	const char *kallsyms;		/* fixture_opts.kallsyms */
};

/* growable output bytes; multi-byte values in the order 'be' says */
struct fx_buf {
	uint8_t *p;
	size_t len, cap;
	bool be;
	bool failed;			/* ENOMEM: later appends do nothing */
};

void fxb_bytes(struct fx_buf *b, const void *p, size_t n);
void fxb_zero(struct fx_buf *b, size_t n);
void fxb_u8(struct fx_buf *b, uint8_t v);
void fxb_u16(struct fx_buf *b, uint16_t v);
void fxb_u32(struct fx_buf *b, uint32_t v);
void fxb_u64(struct fx_buf *b, uint64_t v);
void fxb_cstr(struct fx_buf *b, const char *s);	/* with its NUL */

/* a tracepoint payload being built: fixed fields, then __data_loc strings */
struct fx_raw {
	const struct fx_flavour *fl;
	int tp;
	uint8_t data[512];
	uint32_t fixed;			/* offsetof(__data): where strings start */
	uint32_t struct_size;		/* sizeof the kernel's entry struct */
	uint32_t dyn;			/* string bytes appended so far */
	bool failed;
};

void fx_flavour_init(struct fx_flavour *fl, const struct fixture_opts *o);
int fx_tp_find(const struct fx_flavour *fl, const char *system, const char *name);
const char *fx_tp_system(int tp);
const char *fx_tp_name(int tp);
int fx_tp_count(void);
uint16_t fx_tp_id_of(const struct fx_flavour *fl, int tp);
/* start a payload: common fields, zeroed fixed part */
void fx_raw_init(struct fx_raw *r, const struct fx_flavour *fl, int tp, int32_t common_pid);
/* set a field by name; a field this kernel lacks is ignored (returns 0) */
int fx_raw_int(struct fx_raw *r, const char *field, int64_t v);
int fx_raw_str(struct fx_raw *r, const char *field, const char *s);
static inline uint32_t fx_raw_len(const struct fx_raw *r) { return r->struct_size + r->dyn; }
/* the whole tracing blob for tracepoints tps[0..nr) */
uint8_t *fx_tracing_blob(const struct fx_flavour *fl, const int *tps, size_t nr, size_t *len);

#endif /* SREP_TESTS_FIXTURE_H */
