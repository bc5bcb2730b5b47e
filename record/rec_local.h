/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rec_local.h - what the recorder's modules share. Never included outside
 * record/ (the CLI sees record.h only).
 */
#ifndef SREP_REC_LOCAL_H
#define SREP_REC_LOCAL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "record.h"
#include "loss.h"

/* files are written in the host's byte order, as perf does */
#define REC_BE			SREP_HOST_BIG_ENDIAN
/* attrs in files are perf 6.1's size: perf 6.1 refuses larger ones */
#define REC_FILE_ATTR_SIZE	128u
#define REC_NAME_ALIGN		64u	/* perf pads header strings to this */
#define REC_LAST_FEATURE	32u	/* perf 6.1's HEADER_LAST_FEATURE: pipe-mode end mark */
#define REC_MAX_RECORD		65535u	/* record sizes are u16 */

/* perf record types and header features the recorder writes */
enum {
	REC_MMAP = 1, REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_THROTTLE = 5,
	REC_UNTHROTTLE = 6, REC_FORK = 7, REC_SAMPLE = 9, REC_MMAP2 = 10,
	REC_LOST_SAMPLES = 13,
	REC_HEADER_ATTR = 64, REC_TRACING_DATA = 66, REC_FINISHED_ROUND = 68,
	REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81,
};

enum {
	FEAT_TRACING_DATA = 1, FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4, FEAT_VERSION = 5,
	FEAT_ARCH = 6, FEAT_NRCPUS = 7, FEAT_CPUDESC = 8, FEAT_TOTAL_MEM = 10,
	FEAT_CMDLINE = 11, FEAT_EVENT_DESC = 12, FEAT_CPU_TOPOLOGY = 13,
	FEAT_CLOCKID = 23, FEAT_COMPRESSED = 27,
	REC_MAX_FEATURES = 16,
};

/* ---- util.c: a growable byte buffer, small files, CPU lists ---- */

struct rec_buf {
	uint8_t *p;
	size_t len, cap;
};

int buf_reserve(struct rec_buf *b, size_t more);	/* 0 or -1 (no memory) */
int buf_put(struct rec_buf *b, const void *p, size_t n);
int buf_zero(struct rec_buf *b, size_t n);
int buf_u16(struct rec_buf *b, uint16_t v);
int buf_u32(struct rec_buf *b, uint32_t v);
int buf_u64(struct rec_buf *b, uint64_t v);
int buf_str64(struct rec_buf *b, const char *s);	/* perf string: u32 len, NUL, padding */
void buf_free(struct rec_buf *b);

/* whole small file (procfs, sysfs, tracefs) NUL-terminated; -1 with errno */
int read_text_file(const char *path, char **out, size_t *len);
/* "0-3,6" -> sorted, unique CPU numbers */
int cpulist_parse(const char *s, int **cpus, size_t *nr, struct srep_error *err);
/* whether a sorted list from cpulist_parse() holds 'cpu' */
bool cpulist_has(const int *cpus, size_t nr, int cpu);

/* ---- evlist.c: the events to open ---- */

enum rec_tp_kind { TPK_NONE = 0, TPK_SWITCH, TPK_WAKEUP, TPK_WAKEUP_NEW, TPK_WAKING };

struct rec_event {
	char *name;			/* "sched:sched_switch", "cpu-clock", "dummy:HG" */
	char *sys, *tp;			/* tracepoint system and name, NULL otherwise */
	enum rec_tp_kind tp_kind;	/* what the latency monitor makes of it */
	struct perf_event_attr attr;
	uint64_t *ids;			/* one per counter: CPUs x threads */
	size_t nr_ids;
	uint64_t samples;
};

struct rec_evlist {
	struct rec_event *ev;
	size_t nr;
	size_t sideband;		/* index of the dummy event carrying side-band */
	bool has_tracepoints;
	char *skipped;			/* default events this kernel lacks */
	struct rec_id { uint64_t id; uint32_t idx; } *byid;	/* sorted by id */
	size_t nr_byid;
};

int evlist_build(struct rec_evlist *el, const struct srep_rec_opts *o, const char *tracefs,
		 struct srep_error *err);
int evlist_index_ids(struct rec_evlist *el, struct srep_error *err);	/* after open */
int evlist_find(const struct rec_evlist *el, uint64_t id);		/* -1 unknown */
/* an attr as files hold it: REC_FILE_ATTR_SIZE bytes */
int evlist_put_attr(struct rec_buf *b, const struct perf_event_attr *a);
void evlist_free(struct rec_evlist *el);

/* ---- tracefs.c ---- */

int tracefs_find(const char *hint, char **dir, struct srep_error *err);
/* tracepoint id; SREP_E_INVAL when the event does not exist */
int tracefs_event_id(const char *dir, const char *sys, const char *name, uint64_t *id,
		     struct srep_error *err);
struct rec_field { uint32_t offset, size; };
/* a field of an event's format; SREP_E_UNSUPPORTED when absent */
int tracefs_field(const char *dir, const char *sys, const char *name, const char *field,
		  struct rec_field *out, struct srep_error *err);
/* perf's tracing data blob for the evlist's tracepoints */
int tracefs_tracing_data(const char *dir, const struct rec_evlist *el, struct rec_buf *out,
			 struct srep_error *err);

/* ---- layout.c: where things are inside the records we asked for ---- */

struct rec_layout {
	uint64_t sample_type;
	size_t time_off;		/* SAMPLE: byte offset of TIME from the record start */
	size_t trailer_time_back;	/* other records: TIME is this many bytes before the end */
	size_t trailer_size;		/* sample_id trailer bytes */
	size_t callchain_off;		/* SAMPLE: offset of CALLCHAIN nr (or of RAW when none) */
	bool callchain;
};

void layout_init(struct rec_layout *l, uint64_t sample_type);
/* time of a record (0: none or too short); 'p' is 8-byte readable */
uint64_t layout_time(const struct rec_layout *l, const uint8_t *p, uint32_t type, uint16_t size);
/* SAMPLE: the IDENTIFIER (first u64) */
static inline uint64_t layout_sample_id(const uint8_t *p)
{
	return srep_get64(p + 8, false);
}
/* SAMPLE: the RAW payload; false when the sample has none or is malformed */
bool layout_raw(const struct rec_layout *l, const uint8_t *p, uint16_t size,
		const uint8_t **raw, uint32_t *raw_size);

/* ---- feature.c: header features describing this machine ---- */

struct rec_feature {
	int id;
	struct rec_buf payload;
};

struct rec_features {
	struct rec_feature f[REC_MAX_FEATURES];
	size_t nr;			/* in increasing id order */
};

struct rec_feature_input {
	const struct rec_evlist *el;
	const struct rec_buf *tracing;	/* NULL without tracepoints */
	const char *const *cmdline;
	int nr_cmdline;
	bool compressed;
	uint32_t comp_mmap_len;
};

int features_collect(struct rec_features *fs, const struct rec_feature_input *in,
		     struct srep_error *err);
void features_free(struct rec_features *fs);
/* COMPRESSED payload with the ratio known at the end */
void features_compressed(uint8_t out[20], uint32_t ratio, uint32_t mmap_len);

/* ---- zstd.c: COMPRESSED records (the only libzstd caller) ---- */

struct rec_zstd;

int rz_new(struct rec_zstd **out, int level, struct srep_error *err);
/* append COMPRESSED records holding 'len' bytes of records to 'out' */
int rz_compress(struct rec_zstd *z, const void *in, size_t len, struct rec_buf *out,
		struct srep_error *err);
void rz_free(struct rec_zstd *z);
/* most record bytes one COMPRESSED record holds (its decompressed size) */
#define RZ_SLICE		(32u << 10)

/* ---- perfdata.c: a perf.data being written ---- */

struct pd_meta {
	const struct rec_evlist *el;
	const struct rec_features *fs;
	const struct rec_buf *tracing;	/* NULL without tracepoints */
	bool compress;
	uint32_t comp_mmap_len;		/* most bytes one COMPRESSED record expands to */
};

struct pd_out {
	int fd;
	bool pipe;
	const char *path;		/* for messages */
	struct rec_zstd *z;		/* NULL: records written as they are */
	uint64_t data_off;		/* file mode */
	uint64_t committed;		/* data bytes the header counts */
	uint64_t written;		/* data bytes written */
	uint64_t bytes;			/* bytes in the file (or sent down the pipe) */
	uint64_t raw_bytes;		/* record bytes before compression */
	uint64_t bitmap[4];
	bool visible;			/* the header shows the features */
	bool begun;			/* header and attributes on disk: the file is readable */
	uint8_t table[REC_MAX_FEATURES * 16];
	size_t table_len;
	uint64_t comp_feat_off;		/* COMPRESSED payload, patched at the end */
	uint32_t comp_mmap_len;
	uint8_t *held;			/* the first table_len bytes after the last commit */
	size_t held_len;
	struct rec_buf scratch;
};

int pd_begin(struct pd_out *o, int fd, bool pipe, const char *path, const struct pd_meta *m,
	     struct srep_error *err);
/* records as they came from the kernel (compressed when asked) */
int pd_records(struct pd_out *o, const void *p, size_t len, struct srep_error *err);
int pd_finished_round(struct pd_out *o, struct srep_error *err);
/* make everything written so far count: file mode updates the header */
int pd_commit(struct pd_out *o, struct srep_error *err);
int pd_finish(struct pd_out *o, struct srep_error *err);
void pd_free(struct pd_out *o);

/* ---- synth.c: records for what existed before recording began ---- */

struct synth_ctx {
	const struct rec_layout *lay;
	uint64_t id;			/* IDENTIFIER in the trailers */
	bool system_wide;
	const int32_t *pids;		/* processes to describe when not system-wide */
	size_t nr_pids;
};

int synth_kernel_mmap(const struct synth_ctx *c, struct rec_buf *out, struct srep_error *err);
int synth_tasks(const struct synth_ctx *c, struct rec_buf *out, struct srep_error *err);
/* threads of a process (from /proc/PID/task) */
int synth_threads_of(int32_t pid, int32_t **tids, size_t *nr, struct srep_error *err);

/* ---- counters.c: perf_event_open and the ring buffers ---- */

struct rec_ring {
	int cpu;
	int fd;				/* the counter whose buffer this is */
	uint8_t *base;			/* control page, then data */
	size_t mmap_len;
	size_t size;			/* data bytes, a power of two */
};

struct rec_counters {
	int *fds;
	size_t nr_fds;
	struct rec_ring *rings;
	size_t nr_rings;
};

struct counters_target {
	const int *cpus;
	size_t nr_cpus;
	const int32_t *tids;		/* NULL: every task (system-wide) */
	size_t nr_tids;
	unsigned pages;
};

int counters_open(struct rec_counters *c, struct rec_evlist *el, const struct counters_target *t,
		  struct srep_error *err);
int counters_enable(struct rec_counters *c, const struct rec_evlist *el, bool sideband_only,
		    struct srep_error *err);
void counters_disable(struct rec_counters *c);
void counters_close(struct rec_counters *c);
/* ring access: bytes waiting, copy them out, give them back */
size_t ring_pending(const struct rec_ring *r, uint64_t *head, uint64_t *tail);
void ring_copy(const struct rec_ring *r, uint64_t from, size_t len, uint8_t *dst);
void ring_release(struct rec_ring *r, uint64_t tail);

/* ---- account.c: counts, losses and the data-loss figure ---- */

struct rec_account {
	const struct rec_layout *lay;
	struct rec_evlist *el;
	uint64_t records, lost, lost_samples, first_time, last_time;
	uint64_t newest_sample;		/* time of the newest SAMPLE */
	size_t nr_slots;
	struct loss_tracker loss;	/* the data-loss figure, as the reader computes it */
};

int account_init(struct rec_account *a, const struct rec_layout *lay, struct rec_evlist *el,
		 size_t nr_slots);
/* one record of the ring of CPU slot 'slot' */
void account_record(struct rec_account *a, size_t slot, const uint8_t *p, uint32_t type,
		    uint16_t size);
uint64_t account_lost_time(struct rec_account *a);
void account_free(struct rec_account *a);

/* ---- flight.c: the flight recorder's memory ---- */

struct rec_flight {
	uint8_t *ring;
	size_t cap, head, tail, used;	/* bytes; records never wrap */
	uint64_t dropped, samples;
	struct rec_buf sideband;	/* COMM, FORK, EXIT, MMAP*: kept whole */
};

int flight_init(struct rec_flight *f, size_t cap, struct srep_error *err);
/* a drained record: side-band kept whole, others into the ring */
int flight_add(struct rec_flight *f, const uint8_t *p, uint32_t type, uint16_t size,
	       struct srep_error *err);
/* side-band, then the ring's records oldest first */
int flight_snapshot(const struct rec_flight *f, struct rec_buf *out, struct srep_error *err);
/* the time of a snapshot's newest SAMPLE, 0 if it has none */
uint64_t flight_newest_sample(const struct rec_layout *lay, const struct rec_buf *snap);
void flight_free(struct rec_flight *f);
/* a snapshot's records in time order; SAMPLE count and time span */
int flight_sort(const struct rec_layout *lay, const struct rec_buf *snap, struct rec_buf *out,
		uint64_t *samples, uint64_t *first, uint64_t *last, struct srep_error *err);

/* ---- latency.c: the latency trigger ---- */

struct rec_latency;

struct latency_hit {
	uint64_t time;			/* when the late task got the CPU */
	int32_t tid;
	uint64_t waited;
};

int latency_new(struct rec_latency **out, const struct rec_evlist *el, const char *tracefs,
		uint64_t threshold_ns, struct srep_error *err);
/* a drained SAMPLE of event 'idx' */
void latency_sample(struct rec_latency *m, int idx, uint64_t time, const uint8_t *raw,
		    uint32_t raw_size);
/* end of a drain pass: check what is now in order; true when a task was late */
bool latency_round(struct rec_latency *m, struct latency_hit *hit);
void latency_free(struct rec_latency *m);

/* ---- writer.c: the asynchronous writer ---- */

struct rec_writer;

struct dump_job {
	char *path, *tmp;
	struct rec_buf snap;		/* records, arrival order */
	struct srep_rec_dump info;
	int status;			/* 0 or SREP_E_* when done */
	struct srep_error err;
};

int writer_start(struct rec_writer **out, struct pd_out *pd, const struct pd_meta *meta,
		 const struct rec_layout *lay, uint64_t backlog_cap, struct srep_error *err);
/* an empty buffer to fill (reused when the writer has one) */
void writer_take_buf(struct rec_writer *w, struct rec_buf *b);
bool writer_has_room(struct rec_writer *w, size_t bytes);
/* hand over a round of records ending with FINISHED_ROUND; 'b' is emptied */
int writer_submit(struct rec_writer *w, struct rec_buf *b, struct srep_error *err);
int writer_submit_dump(struct rec_writer *w, struct dump_job *d, struct srep_error *err);
/* readable when a dump finished, room came free or writing failed */
int writer_fd(const struct rec_writer *w);
/* finished dumps, one per call (caller frees); the first write error */
struct dump_job *writer_done_dump(struct rec_writer *w);
bool writer_busy_dumping(struct rec_writer *w);
int writer_error(struct rec_writer *w, struct srep_error *err);
uint64_t writer_backlog_peak(struct rec_writer *w);
/* write what is queued, finish the file, stop the thread */
int writer_stop(struct rec_writer *w, struct srep_error *err);
void writer_free(struct rec_writer *w);
void dump_job_free(struct dump_job *d);

/* ---- record.c and run.c: the engine ---- */

struct srep_recorder {
	struct srep_rec_opts o;		/* strings borrowed from the caller */
	char *tracefs;
	struct rec_evlist el;
	struct rec_layout lay;
	struct rec_buf tracing;
	struct rec_features fs;
	struct pd_meta meta;
	int *cpus;
	size_t nr_cpus;
	int32_t *tids;			/* -p: their threads; a workload: its pid */
	size_t nr_tids;
	struct srep_rec_workload wl;
	struct rec_counters ctr;
	char *path;			/* the output, or the dumps' base name */
	int out_fd;
	struct pd_out pd;
	bool pd_open;
	uint64_t backlog_cap;
	struct rec_account acct;
	struct rec_flight flight;
	struct rec_latency *lat;
	int fifo_fd;
	bool fifo_created;
	struct rec_writer *w;
	struct rec_buf round;		/* the records of the current drain pass */
	uint64_t synth_records;
	unsigned dumps_started;
	bool *hup;			/* per ring: its fd hung up, stop polling it */
	bool room_wait;			/* the writer's backlog is full */
	struct srep_rec_event_stat *ev_stats;
	struct srep_rec_stats st;
};

#endif /* SREP_REC_LOCAL_H */
