/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader.h - the perf.data reader's struct layouts and module interfaces,
 * shared by the files of src/reader/ (and the JSON input, src/reader/json/).
 */
#ifndef SREP_READER_H
#define SREP_READER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>
#include "bytes.h"
#include "loss.h"
#include "bug.h"

/* ---- caps on sizes taken from files: each names why ---- */
#define SREP_MAX_BLOB		(256u << 20)	/* tracing data, features: real ones are a few MB */
#define SREP_MAX_ATTRS		65536u		/* perf opens one attr per event, never this many */
#define SREP_MAX_IDS		(16u << 20)	/* ids are one per event per CPU/thread */
#define SREP_MAX_STRINGS	(1u << 20)	/* string lists (cmdline, topology) */
#define SREP_MAX_CPUS		(1u << 20)	/* sanity limit for CPU numbers used as indexes */

/* ---- perf record types ---- */
enum {
	PERF_RECORD_MMAP = 1, PERF_RECORD_LOST = 2, PERF_RECORD_COMM = 3,
	PERF_RECORD_EXIT = 4, PERF_RECORD_THROTTLE = 5, PERF_RECORD_UNTHROTTLE = 6,
	PERF_RECORD_FORK = 7, PERF_RECORD_READ = 8, PERF_RECORD_SAMPLE = 9,
	PERF_RECORD_MMAP2 = 10, PERF_RECORD_AUX = 11, PERF_RECORD_ITRACE_START = 12,
	PERF_RECORD_LOST_SAMPLES = 13, PERF_RECORD_SWITCH = 14,
	PERF_RECORD_SWITCH_CPU_WIDE = 15, PERF_RECORD_NAMESPACES = 16,
	PERF_RECORD_KSYMBOL = 17, PERF_RECORD_BPF_EVENT = 18, PERF_RECORD_CGROUP = 19,
	PERF_RECORD_TEXT_POKE = 20, PERF_RECORD_AUX_OUTPUT_HW_ID = 21,
	PERF_RECORD_CALLCHAIN_DEFERRED = 22,
	PERF_RECORD_KERNEL_MAX = 64,	/* kernel types are below; user types from here */
	PERF_RECORD_HEADER_ATTR = 64, PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66, PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68, PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70, PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72, PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74, PERF_RECORD_STAT_CONFIG = 75, PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77, PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79, PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81, PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_COMPRESSED2 = 83, PERF_RECORD_BPF_METADATA = 84,
	PERF_RECORD_SCHEDSTAT_CPU = 85, PERF_RECORD_SCHEDSTAT_DOMAIN = 86,
};

#define PERF_RECORD_MISC_CPUMODE_MASK	0x7
#define PERF_RECORD_MISC_MMAP_DATA	(1 << 13)
#define PERF_RECORD_MISC_COMM_EXEC	(1 << 13)
#define PERF_RECORD_MISC_SWITCH_OUT	(1 << 13)
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define PERF_RECORD_MISC_MMAP_BUILD_ID	(1 << 14)

/* ---- sample_type bits ---- */
enum {
	PERF_SAMPLE_IP = 1u << 0, PERF_SAMPLE_TID = 1u << 1, PERF_SAMPLE_TIME = 1u << 2,
	PERF_SAMPLE_ADDR = 1u << 3, PERF_SAMPLE_READ = 1u << 4,
	PERF_SAMPLE_CALLCHAIN = 1u << 5, PERF_SAMPLE_ID = 1u << 6, PERF_SAMPLE_CPU = 1u << 7,
	PERF_SAMPLE_PERIOD = 1u << 8, PERF_SAMPLE_STREAM_ID = 1u << 9,
	PERF_SAMPLE_RAW = 1u << 10, PERF_SAMPLE_BRANCH_STACK = 1u << 11,
	PERF_SAMPLE_REGS_USER = 1u << 12, PERF_SAMPLE_STACK_USER = 1u << 13,
	PERF_SAMPLE_WEIGHT = 1u << 14, PERF_SAMPLE_DATA_SRC = 1u << 15,
	PERF_SAMPLE_IDENTIFIER = 1u << 16, PERF_SAMPLE_TRANSACTION = 1u << 17,
	PERF_SAMPLE_REGS_INTR = 1u << 18, PERF_SAMPLE_PHYS_ADDR = 1u << 19,
	PERF_SAMPLE_AUX = 1u << 20, PERF_SAMPLE_CGROUP = 1u << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE = 1u << 22, PERF_SAMPLE_CODE_PAGE_SIZE = 1u << 23,
	PERF_SAMPLE_WEIGHT_STRUCT = 1u << 24,
};
#define PERF_SAMPLE_KNOWN_MASK ((1ull << 25) - 1)

enum {
	PERF_FORMAT_TOTAL_TIME_ENABLED = 1, PERF_FORMAT_TOTAL_TIME_RUNNING = 2,
	PERF_FORMAT_ID = 4, PERF_FORMAT_GROUP = 8, PERF_FORMAT_LOST = 16,
};
#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ull << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ull << 19)

enum { PERF_TYPE_HARDWARE = 0, PERF_TYPE_SOFTWARE, PERF_TYPE_TRACEPOINT,
       PERF_TYPE_HW_CACHE, PERF_TYPE_RAW, PERF_TYPE_BREAKPOINT };

/* attr flag bits, numbered as a little-endian writer lays out the bitfield */
enum {
	ATTR_F_DISABLED = 0, ATTR_F_INHERIT = 1, ATTR_F_EXCLUDE_USER = 4,
	ATTR_F_EXCLUDE_KERNEL = 5, ATTR_F_EXCLUDE_HV = 6, ATTR_F_EXCLUDE_IDLE = 7,
	ATTR_F_MMAP = 8, ATTR_F_COMM = 9, ATTR_F_FREQ = 10, ATTR_F_ENABLE_ON_EXEC = 12,
	ATTR_F_TASK = 13, ATTR_F_PRECISE_IP = 15 /* 2 bits */, ATTR_F_SAMPLE_ID_ALL = 18,
	ATTR_F_EXCLUDE_HOST = 19, ATTR_F_EXCLUDE_GUEST = 20, ATTR_F_MMAP2 = 23,
	ATTR_F_COMM_EXEC = 24, ATTR_F_USE_CLOCKID = 25, ATTR_F_CONTEXT_SWITCH = 26,
};

/* perf_event_attr, decoded to host order whatever size and byte order it had */
struct perf_attr {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags;			/* bitfield, bit positions as ATTR_F_* */
	uint32_t wakeup_events, bp_type;
	uint64_t config1, config2, branch_sample_type, sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size, aux_action;
	uint64_t sig_data, config3;
};

static inline bool attr_flag(const struct perf_attr *a, unsigned bit)
{
	return (a->flags >> bit) & 1;
}

/* decode an attr of 'size' bytes (any size) in the file's byte order */
void evsel_attr_decode(struct perf_attr *out, const uint8_t *p, size_t size, bool big_endian);
#define PERF_ATTR_SIZE_VER0 64

/* ---- event descriptions (evsels) ---- */

/* what the model makes of an evsel's samples */
enum tp_kind {
	TP_NONE = 0,		/* not a tracepoint, or one without a neutral form */
	TP_SWITCH, TP_WAKING, TP_WAKEUP, TP_WAKEUP_NEW, TP_MIGRATE,
	TP_FORK, TP_EXEC, TP_EXIT, TP_FREE, TP_RENAME,
	TP_STAT_RUNTIME, TP_STAT_SLEEP, TP_STAT_WAIT, TP_STAT_IOWAIT, TP_STAT_BLOCKED,
	TP_CPU_IDLE, TP_CPU_FREQ,
};

struct tp_event;			/* tp.c: a tracepoint format bound to decoders */

struct evsel {
	struct perf_attr attr;
	uint64_t *ids;
	size_t nr_ids;
	char *name;			/* from EVENT_DESC / EVENT_UPDATE, else derived */
	bool name_from_file;
	uint64_t nr_samples, nr_lost_samples;
	/* precomputed layout of samples and sample_id trailers */
	int id_pos;			/* u64 index of the id in a sample, -1 none */
	int is_pos;			/* u64 index from the end of a trailer, -1 none */
	int time_pos, cpu_pos;		/* u64 index in a sample, -1 none (fixed prefix only) */
	bool fixed_layout;		/* only fixed items and RAW: sample_parse_fixed() applies */
	uint16_t fixed_size;		/* bytes of the fixed items */
	int16_t off_ip, off_tid, off_addr, off_period, off_raw; /* byte offsets, -1 none */
	size_t trailer_size;		/* bytes of sample_id trailer, 0 if none */
	/* tracepoint binding (tp.c) */
	struct tp_event *tp;
	enum tp_kind kind;
	uint32_t kind_bit;		/* SREP_EV_BIT of its samples' event, 0 for TP_NONE */
};


/* ---- input: windows over a file, or a buffered pipe ---- */

/*
 * A file window that queued records point into: it stays mapped, once the
 * reader has moved on, until the last of them is delivered (input_unhold).
 */
struct input_window {
	uint8_t *map;
	size_t len;
	size_t holds;			/* records queued in place */
	bool retired;			/* no longer the current window: the last unhold unmaps */
	struct input_prefetch *pf;	/* unmaps it off the reader's path; NULL: we do */
};

struct srep_input {
	int fd;
	bool is_file;			/* regular file: mmap windows, random access */
	bool in_memory;			/* the caller's buffer: one window, not ours */
	uint64_t size;			/* file size, 0 for pipes */
	/* file: current mmap window (map, map_len mirror win's for the inline path) */
	uint8_t *map;
	uint64_t map_off;
	size_t map_len;
	struct input_window *win;	/* NULL for the caller's buffer and pipes */
	struct input_prefetch *pf;	/* maps the next window meanwhile (prefetch.c) */
	bool pf_tried;
	/* pipe: buffered bytes [buf_off, buf_off + buf_len) */
	uint8_t *buf;
	size_t buf_cap, buf_len;
	uint64_t buf_off;
	bool eof;
	uint64_t consumed;		/* highest offset handed out: for progress */
};

/* prefetch.c: the next window of a file, mapped on a second thread */
struct input_prefetch;
struct input_prefetch *prefetch_new(int fd);	/* NULL: no thread, map everything here */
void *prefetch_map(int fd, uint64_t start, size_t len);	/* NULL (errno) on failure */
void prefetch_ask(struct input_prefetch *pf, uint64_t start, size_t len);
/* the window asked for when it holds [off, off + len) (the caller owns it), else NULL */
void *prefetch_take(struct input_prefetch *pf, uint64_t off, size_t len, uint64_t *start,
		    size_t *map_len);
/* a window's reference, so the thread unmaps it even after the input closed */
struct input_prefetch *prefetch_get(struct input_prefetch *pf);
/* unmap (on the thread when there is one) and drop the reference; pf may be NULL */
void prefetch_unmap(struct input_prefetch *pf, void *map, size_t len);
void prefetch_free(struct input_prefetch *pf);

int input_open(struct srep_input *in, const char *path, struct srep_error *err);
void input_open_mem(struct srep_input *in, const void *buf, size_t len);
void input_close(struct srep_input *in);
/*
 * Point *p at 'len' bytes at input offset 'off'. Returns 0, or
 * SREP_E_TRUNCATED (with *avail set to what there is) when the input ends
 * first. Pipes only move forward: 'off' must not be below the last
 * input_release() point. The pointer is valid until the next input call.
 */
int input_get_slow(struct srep_input *in, uint64_t off, size_t len, const uint8_t **p,
		   size_t *avail, struct srep_error *err);

/* the common case, inline: the bytes are inside the current file window */
static inline int input_get(struct srep_input *in, uint64_t off, size_t len, const uint8_t **p,
			    size_t *avail, struct srep_error *err)
{
	if (in->map && off >= in->map_off && len <= in->map_len &&
	    off - in->map_off <= in->map_len - len) {
		*p = in->map + (off - in->map_off);
		if (off + len > in->consumed)
			in->consumed = off + len;
		return 0;
	}
	return input_get_slow(in, off, len, p, avail, err);
}
/* pipes: bytes before 'off' are no longer needed */
void input_release(struct srep_input *in, uint64_t off);
/*
 * Keep the 'len' bytes at 'p' (from input_get) readable until
 * input_unhold(): the current file window is lent rather than copied.
 * NULL when the bytes cannot be lent (pipes, the caller's buffer, bytes
 * outside the window): the caller copies them then.
 */
struct input_window *input_hold(struct srep_input *in, const uint8_t *p, size_t len);
void input_unhold(struct input_window *w);
/* copy the rest of a pipe to an unlinked temporary file so it can be re-read */
int input_spool(struct srep_input *in, struct srep_error *err);

/* ---- reorder queue (order.c) ---- */

struct order_entry {
	uint64_t time;
	uint64_t seq;			/* arrival order: stable ties */
	uint64_t file_off;
	uint8_t *data;			/* the record: lent by the input, or copied into the arena */
	struct input_window *hold;	/* the input window lending it, NULL for a copy */
	uint32_t size;
	int32_t evsel;
	int32_t cpu;
	bool late;			/* older than what was already delivered */
	struct order_chunk *chunk;
};

struct order_cpu {				/* one per CPU: a sorted ring of entries */
	struct order_entry *e;
	size_t cap, head, len;
	int32_t cpu;
};

struct order_queue {
	struct order_cpu *cpus;		/* index = cpu + 1 (slot 0: records without a CPU) */
	size_t nr_cpus;
	struct order_heap_slot {		/* a non-empty queue and its head's key */
		uint64_t time, seq;
		size_t qi;
	} *heap;			/* min head first */
	size_t heap_len, heap_cap;
	size_t *heap_pos;		/* per queue: its heap position, SIZE_MAX if absent */
	struct order_heap_slot runner_up;	/* the least head but the root's; all ones if none */
	struct order_chunk *chunk;		/* current arena chunk */
	struct order_chunk *free_chunks;
	size_t bytes;			/* arena bytes allocated */
	size_t bytes_free;		/* ... of which in emptied chunks kept for reuse */
	size_t limit;			/* reorder window in bytes */
	uint64_t seq;
	uint64_t max_time;		/* largest time queued */
	uint64_t round_limit;		/* entries <= this may go (FINISHED_ROUND rule) */
	uint64_t round_pending;		/* max_time at the last round: the next limit */
	uint64_t last_out;		/* time of the last entry delivered */
	uint64_t nr_queued;
	bool flush_all;			/* EOF: everything may go */
	bool forced;			/* over the limit: the oldest must go */
};

void order_init(struct order_queue *q, size_t limit);
void order_free(struct order_queue *q);
/*
 * Queue a record: kept in place when 'hold' lends its bytes (released at
 * delivery), copied in when 'hold' is NULL. Returns 0 or SREP_E_NOMEM;
 * *late when older than what was delivered.
 */
int order_push(struct order_queue *q, uint64_t time, int32_t cpu, int32_t evsel,
	       const uint8_t *data, uint32_t size, uint64_t file_off,
	       struct input_window *hold, bool *late);
/* the oldest entry if it may be delivered now; NULL otherwise */
const struct order_entry *order_peek(struct order_queue *q);
void order_pop(struct order_queue *q);
/* a record not queued: its time still counts for the next round's limit */
void order_note_time(struct order_queue *q, uint64_t time);
void order_round(struct order_queue *q);	/* FINISHED_ROUND / FINISHED_INIT seen */
void order_flush_all(struct order_queue *q);
void order_reset(struct order_queue *q);

/* ---- decompression (decomp.c) ---- */
struct decomp;
int decomp_new(struct decomp **out, struct srep_error *err);
void decomp_free(struct decomp *d);
/* feed a payload; the decompressed bytes are appended to the pending buffer */
int decomp_feed(struct decomp *d, const uint8_t *src, size_t len, struct srep_error *err);
/* pending decompressed bytes not yet consumed */
const uint8_t *decomp_data(const struct decomp *d, size_t *len);
void decomp_consume(struct decomp *d, size_t len);
void decomp_reset(struct decomp *d);

/* ---- parsed sample (sample.c) ---- */
struct sample {
	uint64_t id, ip, time, addr, stream_id, period, weight, data_src, transaction;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	int32_t pid, tid;
	int32_t cpu;
	const uint8_t *callchain;	/* file order: read with srep_get64 */
	uint64_t nr_callchain;
	const uint8_t *raw;
	uint32_t raw_size;
	const uint8_t *branches;	/* file order: nr_branches entries of branch_each bytes */
	uint64_t nr_branches;
	uint32_t branch_each;
	bool has_time;
	/* REGS_USER and STACK_USER (--call-graph dwarf): file order, in the record */
	uint64_t regs_user_abi;		/* 0: no registers in this sample */
	const uint8_t *regs_user;	/* popcount(sample_regs_user) u64s */
	uint32_t nr_regs_user;
	const uint8_t *stack_user;	/* the target's stack bytes from its stack pointer */
	uint64_t stack_user_size;	/* bytes of it the kernel filled (dyn_size) */
};

/* parse a SAMPLE body (after the 8-byte header) for 'ev' */
int sample_parse(const struct evsel *ev, const uint8_t *body, size_t len, bool swap,
		 struct sample *out, const char **why);
/* parse the sample_id trailer at the end of a non-sample record body */
int sample_id_parse(const struct evsel *ev, const uint8_t *body, size_t len, bool swap,
		    struct sample *out);
/* sample_type layout for id/time/cpu lookups */
void sample_layout(struct evsel *ev);

/* ---- tasks (task.c) ---- */
struct task_comm {
	uint64_t time;
	char comm[SREP_COMM_MAX];
};

struct srep_task {
	int32_t pid, tid, ppid, ptid;
	char comm[SREP_COMM_MAX];	/* the latest: compared on every switch, kept close */
	struct task_comm *comms;
	size_t nr_comms, cap_comms;
	uint64_t first_seen, last_seen, fork_time, exit_time;
	size_t index;
	bool exited;
};

struct task_table {
	struct srep_task **tasks;	/* creation order */
	size_t nr, cap;
	struct task_slot {		/* open addressing: tid -> index + 1 (newest) */
		int32_t tid;		/* kept here so probing does not chase pointers */
		uint32_t idx;
	} *slots;
	size_t nr_slots;
	/* direct-mapped cache in front of the hash: a switch names tasks just seen */
	struct { int32_t tid; struct srep_task *t; } recent[256];
};

void task_table_init(struct task_table *tt);
void task_table_free(struct task_table *tt);
void task_table_reset(struct task_table *tt);
/* the newest task with 'tid', created when missing (NULL only on ENOMEM) */
struct srep_task *task_get(struct task_table *tt, int32_t tid);
/* the hash behind task_find()'s cache: fills the cache */
struct srep_task *task_find_slow(const struct task_table *tt, int32_t tid);
/* the newest task with 'tid', or NULL; the recent ones without a call */
static inline struct srep_task *task_find(const struct task_table *tt, int32_t tid)
{
	size_t r = (uint32_t)tid & 255;

	if (tt->recent[r].t && tt->recent[r].tid == tid)
		return tt->recent[r].t;
	return task_find_slow(tt, tid);
}
/* a new task for 'tid' even if one exists (tid reuse after exit) */
struct srep_task *task_new(struct task_table *tt, int32_t tid);
int task_set_comm(struct srep_task *t, const char *comm, uint64_t time);
/* whether the task is named 'comm' now (SREP_COMM_MAX bytes readable at comm) */
bool task_same_comm(const struct srep_task *t, const char comm[SREP_COMM_MAX]);
void task_seen(struct srep_task *t, uint64_t time);

/* field access behind srep_event.priv: the input format reads them */
struct ev_fields {
	const struct reader_format *fmt;
	const struct tp_event *tpe;	/* perf.data: decode from the raw payload */
	const uint8_t *raw;
	uint32_t raw_size;
	const struct jsonin_fields *jf;	/* schedrep JSON: decoded fields */
};

/*
 * An input format: perf.data (perfdata.c) or schedrep's lossless JSON
 * (json/jsonin.c). session.c, the public facade, picks the first whose
 * sniff() accepts the input's first bytes and goes through this table
 * from then on; a format owns its state (format_state) and fills s->ev.
 */
struct reader_format {
	const char *name;
	/* the task table is complete only after a pass (SREP_OPEN_PRESCAN makes one) */
	bool tasks_need_pass;
	bool (*sniff)(struct srep_session *s);
	int (*open)(struct srep_session *s, struct srep_error *err);
	void (*free)(struct srep_session *s);
	/* the next event in time order into s->ev: 1, 0 at the end, < 0 error */
	int (*next)(struct srep_session *s, struct srep_error *err);
	/* read the rest only counting */
	int (*count)(struct srep_session *s, struct srep_error *err);
	/* back to the first event (the input is a file) */
	int (*rewind)(struct srep_session *s, struct srep_error *err);
	/* figures computed on demand before the statistics are read; may be NULL */
	void (*update_stats)(struct srep_session *s);
	/* tracepoint field descriptions of event description idx */
	int (*evsel_nr_fields)(const struct srep_session *s, size_t idx);
	int (*evsel_field)(const struct srep_session *s, size_t idx, int field,
			   struct srep_field *out);
	/* the fields of one event */
	int (*nr_fields)(const struct ev_fields *f);
	int (*field)(const struct ev_fields *f, int idx, struct srep_field *out);
	int (*field_by_name)(const struct ev_fields *f, const char *name,
			     struct srep_field *out);
	/* the fields as the event's print format shows them; NULL: not known */
	int (*print)(const struct ev_fields *f, int32_t cpu, char *buf, size_t size);
};

extern const struct reader_format perfdata_format;	/* perfdata.c */
extern const struct reader_format jsonin_format;	/* json/jsonin.c */

/* ---- the session ---- */
struct srep_session {
	char *path;
	struct srep_open_opts opts;
	struct srep_input in;
	const struct reader_format *fmt; /* the input's format, chosen at open */
	bool swap;
	bool pipe;
	struct jsonin *jin;		/* the JSON format's state (json/jsonin.c) */
	struct srep_meta meta;
	void **owned;			/* blocks behind meta's pointers, freed at delete */
	size_t nr_owned, cap_owned;

	struct evsel *evsels;
	size_t nr_evsels, cap_evsels;
	uint64_t id_cache_key[64];	/* direct-mapped cache in front of the id map */
	uint32_t id_cache_val[64];	/* evsel index + 1, 0 empty */
	uint64_t *id_keys;		/* open addressing: id -> evsel index */
	uint32_t *id_vals;
	size_t id_slots, id_used;

	struct srep_build_id *build_ids;
	size_t nr_build_ids, cap_build_ids;
	/* the tracing data's kallsyms text (old perf versions wrote it), for symbols */
	const char *tracing_kallsyms;
	size_t tracing_kallsyms_len;

	struct tp_ctx *tp;		/* tp.c */
	uint64_t skipped_formats;	/* the tracing data's, kept across rewinds */
	uint64_t skipped_printk;
	bool has_tp[TP_CPU_FREQ + 1];	/* the trace has this tracepoint */

	/* record stream */
	uint64_t data_start, data_end;	/* file mode: data section; pipe: from 16 to EOF */
	uint64_t pos;			/* next record offset */
	struct decomp *dc;
	uint64_t dc_off;		/* offset of the COMPRESSED record being expanded */
	struct rstream *streams;	/* a perf.data directory's, NULL otherwise (streams.c) */
	size_t nr_streams, cur_stream;
	const char *src_path;		/* the file being read, for messages (NULL: path) */
	const char *dir;		/* a perf.data directory's path (the session's), or NULL */
	struct order_queue q;
	bool eof;
	bool count_only;		/* counting: nothing is queued */
	uint32_t skip_kinds;		/* SREP_EV_BITs of samples left unread (set_interest) */
	bool evsels_dirty;		/* attrs or tracing data arrived: finish before samples */
	bool pop_pending;		/* the delivered entry leaves the queue on the next call */
	struct order_entry direct;		/* a record delivered without queueing (no time) */
	int pending_err;		/* an error met while records were still queued */
	struct srep_error pending_error;
	bool seen_kernel_record;
	bool google_legacy;		/* ChromiumOS perf 3.3 in-band header records */
	bool warned_unknown_id;
	bool warned_cpu;		/* an impossible CPU number was reported */

	struct srep_stats stats;
	struct task_table tasks;

	struct loss_tracker loss;	/* the data-loss figure (loss.h) */
	struct schedstat {		/* schedstat.c */
		int version;
		uint64_t cpu_records, domain_records;
		struct srep_schedstat_cpu *cpus;
		size_t nr_cpus, cap_cpus;
	} schedstat;

	/* tasks: after a prescan the complete table is kept apart from the live one */
	struct task_table prescanned;
	bool has_prescan;
	/* first and last timestamps of the prescan pass or of a JSON file's first line, 0 none */
	uint64_t span_first, span_last;
	bool span_unknown;		/* the format's header gave no span: a prescan finds it */
	int32_t max_cpu;		/* highest CPU of an event, -1 none; kept by rewinds */
	int32_t max_sample_cpu;		/* highest CPU of a sample, read or not; likewise */
	bool rewound;			/* header-like records were applied already */

	/* the event handed out */
	struct srep_event ev;
	struct sample cur_sample;
	struct ev_fields cur_fields;
	uint64_t *chain_buf;
	size_t chain_cap;
	struct srep_branch *branch_buf;
	size_t branch_cap;
	uint64_t regs_buf[64];		/* user registers in host order: at most one per mask bit */
	char *str_buf;			/* exec filename / mmap filename */
	size_t str_cap;
	uint8_t *rec_copy;		/* the record behind 'ev' */
	size_t rec_copy_cap;
};

/* errors and warnings that name the session's input (diag.c) */
int diag_err(struct srep_session *s, struct srep_error *err, int code, uint64_t off,
	     int64_t rec_type, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void diag_warn(struct srep_session *s, int code, uint64_t off, int64_t rec_type,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* owned.c: the session frees 'p' when it is deleted; returns p (NULL: p freed, ENOMEM) */
void *owned_keep(struct srep_session *s, void *p);
/* owned string behind a meta pointer (NULL on ENOMEM) */
const char *owned_strdup(struct srep_session *s, const char *str, size_t len);
void owned_free_all(struct srep_session *s);

/* evsels (evsel.c) */
struct evsel *evsel_add(struct srep_session *s, const struct perf_attr *attr,
			struct srep_error *err);
int evsel_add_ids(struct srep_session *s, struct evsel *ev, const uint8_t *ids, size_t nr,
		  struct srep_error *err);
/* the id map behind evsel_by_id()'s cache: fills the cache */
struct evsel *evsel_by_id_slow(const struct srep_session *s, uint64_t id);
static inline struct evsel *evsel_by_id(const struct srep_session *s, uint64_t id)
{
	size_t c = id & 63;

	/* a handful of ids (events x CPUs) carry almost every sample: no call */
	if (s->id_cache_val[c] && s->id_cache_key[c] == id)
		return &s->evsels[s->id_cache_val[c] - 1];
	return evsel_by_id_slow(s, id);
}
/* which evsel a SAMPLE body / a trailer belongs to (NULL: unknown id) */
struct evsel *evsel_for_sample(const struct srep_session *s, const uint8_t *body, size_t len);
struct evsel *evsel_for_trailer(const struct srep_session *s, const uint8_t *body, size_t len);
int evsel_set_name(struct evsel *ev, const char *name, bool from_file);
/* perf's name for an attr without a described name */
void evsel_default_name(const struct srep_session *s, const struct evsel *ev, char *buf,
			size_t size);

/* header and features (header.c, feature.c) */
int header_read(struct srep_session *s, struct srep_error *err);
/* after attrs and tracing data: word size, sample layouts, tracepoint binding, names */
int header_finish_evsels(struct srep_session *s, struct srep_error *err);
int feature_parse(struct srep_session *s, unsigned feat, const uint8_t *p, size_t len,
		  uint64_t off, struct srep_error *err);
/* build-id entries (feature 2, and HEADER_BUILD_ID record bodies) */
int feature_build_ids(struct srep_session *s, struct srep_cur *c, struct srep_error *err);
void feature_set_word_size(struct srep_session *s);

/*
 * tp_check.c: the tracing data's texts checked before libtraceevent parses
 * them. An event format: its name; false, with why, when it must be
 * skipped; else true, and *use bytes may be parsed: all of them, or (why
 * says why) only those before an unsafe print format. printk formats: bad
 * lines dropped in place (the text has room for a NUL after len bytes);
 * returns how many.
 */
bool tp_check_format(const char *text, size_t len, size_t *use, char *name, size_t name_size,
		     char *why, size_t why_size);
size_t tp_check_printk(char *text, size_t len);

/* tracepoints (tp.c): the only caller of libtraceevent */
int tp_ctx_new(struct tp_ctx **out, struct srep_error *err);
void tp_ctx_free(struct tp_ctx *tp);
int tp_blob_parse(struct srep_session *s, const uint8_t *data, size_t len,
		  uint64_t off, struct srep_error *err);
/* bind an evsel of type TRACEPOINT to its format; sets ev->tp, ev->kind, ev->name */
void tp_bind(struct srep_session *s, struct evsel *ev);
/* an event's time and CPU (a sample's, if 'sample') widen the trace's span and CPU
 * range, delivered or not */
void session_note_span(struct srep_session *s, uint64_t time, int32_t cpu, bool sample);
/* the kind of neutral event a tracepoint kind's samples become (TP_NONE: SAMPLE) */
enum srep_event_kind tp_event_kind(enum tp_kind kind);
/* the neutral event from a tracepoint payload; false if it has no neutral form */
bool tp_decode(const struct tp_event *tpe, enum tp_kind kind, const uint8_t *raw,
	       uint32_t raw_size, struct srep_event *out, char **strbuf, size_t *strcap);
int tp_nr_fields(const struct tp_event *tpe);
int tp_field(const struct tp_event *tpe, const uint8_t *raw, uint32_t raw_size, int idx,
	     struct srep_field *out);
/* name, kind, elem_size, elem_signed of field 'idx' without a payload */
int tp_field_info(const struct tp_event *tpe, int idx, struct srep_field *out);
int tp_field_by_name(const struct tp_event *tpe, const uint8_t *raw, uint32_t raw_size,
		     const char *name, struct srep_field *out);
/* the payload printed by its format's print fmt into buf (snprintf rules); length or < 0 */
int tp_print(const struct tp_event *tpe, const uint8_t *raw, uint32_t raw_size, int32_t cpu,
	     char *buf, size_t size);

struct jsonin;
struct jsonin_fields;

/*
 * streams.c: a perf.data directory ('perf record --threads'): DIR/data and
 * DIR/data.N read as one trace. The current stream's state is the session's
 * (in, pos, data_end, dc, dc_off); streams_pick() switches before a record.
 */
struct rstream {
	char *path;			/* the main stream's is the session's path */
	unsigned long index;		/* N of data.N */
	struct srep_input in;
	bool opened, done;
	uint64_t start, pos, end;
	struct decomp *dc;
	uint64_t dc_off;
	uint64_t last_time;		/* of its last record with a time */
};
bool streams_is_dir(const char *path);
int streams_init(struct srep_session *s, const char *dir, struct srep_error *err);
int streams_pick(struct srep_session *s, struct srep_error *err);
void streams_note_time(struct srep_session *s, uint64_t time);
void streams_reset(struct srep_session *s);
void streams_free(struct srep_session *s);

/* schedstat.c: a SCHEDSTAT_CPU or _DOMAIN record's body (after its header) */
int schedstat_record(struct srep_session *s, uint32_t type, const uint8_t *body, size_t len,
		     uint64_t off, struct srep_error *err);
void schedstat_free(struct srep_session *s);

/*
 * records (records.c): read the stream until a record can be delivered in
 * time order; 1 = *out is valid until records_next() is called again, 0 = end.
 */
int records_next(struct srep_session *s, const struct order_entry **out, struct srep_error *err);
/* read the rest of the stream only counting records */
int records_count_all(struct srep_session *s, struct srep_error *err);
void records_reset(struct srep_session *s);

/* model (model.c): turn a delivered record into the neutral event */
int model_decode(struct srep_session *s, const struct order_entry *e, bool *has_event,
		 struct srep_error *err);
/* union of the loss intervals, ns (stats.lost_time_ns) */
uint64_t model_lost_time(struct srep_session *s);
void model_reset(struct srep_session *s);

#endif /* SREP_READER_H */
