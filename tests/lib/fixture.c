// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fixture.c - the fixture writer: perf.data files built in code (fixture.h).
 *
 * Records are encoded when they are added (the byte order and sample layout
 * are fixed by the options); fixture_write() then lays out the container,
 * wraps records in zstd COMPRESSED records if asked, and counts what perf
 * will count. Everything follows FORMATS.md part A; section numbers below
 * refer to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "reader.h"
#include "fixture.h"

#define PERF_MAGIC2		0x32454c4946524550ull	/* "PERFILE2" little-endian */
#define FILE_HEADER_SIZE	104
#define ATTR_SIZE_61		128		/* perf 6.1's sizeof(perf_event_attr) */
#define FIRST_ID		1000		/* ids unlike indexes catch mix-ups */
#define DUMMY_SLOT		(FIXTURE_MAX_EVSELS - 1)
#define PIECE_MAX		(32u << 10)	/* uncompressed bytes per COMPRESSED record */
#define PERF_MMAP_LEN		528384		/* perf's default mmap: 129 pages */
#define FEAT_LAST_61		32		/* HEADER_LAST_FEATURE of perf 6.1 */
#define MISC_KERNEL		1
#define MISC_USER		2
#define CONTEXT_KERNEL		((uint64_t)-128)

/* attr flag bits without a name in internal.h */
#define ATTR_F_KSYMBOL		29
#define ATTR_F_BPF_EVENT	30

enum {	/* feature ids (A.9) */
	FEAT_TRACING_DATA = 1, FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4, FEAT_VERSION = 5,
	FEAT_ARCH = 6, FEAT_NRCPUS = 7, FEAT_CPUDESC = 8, FEAT_TOTAL_MEM = 10,
	FEAT_CMDLINE = 11, FEAT_EVENT_DESC = 12, FEAT_SAMPLE_TIME = 21, FEAT_CLOCKID = 23,
	FEAT_COMPRESSED = 27,
};

struct fx_evsel {
	char name[48];
	uint32_t type;
	uint64_t config, period, sample_type;
	uint64_t branch_sample_type;	/* with PERF_SAMPLE_BRANCH_STACK */
	uint64_t flags;			/* ATTR_F_* bits, little-endian positions */
	int tp;				/* fixture_formats.c index, -1 if not a tracepoint */
	int slot;			/* picks the ids */
	uint64_t samples;
};

struct fx_rec {
	uint8_t *data;
	uint32_t size;
	uint32_t type;
	bool has_time;
	uint64_t time;
};

struct fx_task {
	int32_t tid, pid;
};

struct fixture {
	struct fixture_opts o;
	struct fx_flavour fl;
	struct fx_evsel ev[FIXTURE_MAX_EVSELS - 1];
	int nr_ev;
	struct fx_evsel dummy;		/* written last; side-band records use its ids */
	struct fx_rec *recs;
	size_t nr_recs, cap_recs;
	unsigned since_round;		/* records since the last FINISHED_ROUND */
	struct fx_task *tasks;		/* sorted by tid */
	size_t nr_tasks, cap_tasks;
	int32_t cur_tid[FIXTURE_MAX_CPUS];
	uint64_t *chain;		/* fixture_next_callchain() */
	uint32_t nr_chain;
	bool has_chain;
	uint64_t *branches;		/* fixture_next_branches(): from, to pairs */
	uint32_t nr_branches;
	char arch[32];
	uint8_t *last_raw;		/* fixture_last_raw() */
	uint32_t last_raw_len;
	uint64_t lost, lost_samples;
	bool failed;
};

/* ------------------------------------------------------------------ */
/* bytes                                                                */
/* ------------------------------------------------------------------ */

static bool fxb_reserve(struct fx_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *p;

	if (b->failed)
		return false;
	if (b->len + n <= b->cap)
		return true;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void fxb_bytes(struct fx_buf *b, const void *p, size_t n)
{
	if (n && fxb_reserve(b, n)) {
		memcpy(b->p + b->len, p, n);
		b->len += n;
	}
}

void fxb_zero(struct fx_buf *b, size_t n)
{
	if (n && fxb_reserve(b, n)) {
		memset(b->p + b->len, 0, n);
		b->len += n;
	}
}

void fxb_u8(struct fx_buf *b, uint8_t v)
{
	fxb_bytes(b, &v, 1);
}

void fxb_u16(struct fx_buf *b, uint16_t v)
{
	uint8_t p[2];

	srep_put16(p, v, b->be);
	fxb_bytes(b, p, sizeof(p));
}

void fxb_u32(struct fx_buf *b, uint32_t v)
{
	uint8_t p[4];

	srep_put32(p, v, b->be);
	fxb_bytes(b, p, sizeof(p));
}

void fxb_u64(struct fx_buf *b, uint64_t v)
{
	uint8_t p[8];

	srep_put64(p, v, b->be);
	fxb_bytes(b, p, sizeof(p));
}

void fxb_cstr(struct fx_buf *b, const char *s)
{
	fxb_bytes(b, s, strlen(s) + 1);
}

/* perf's str64 (A.3): u32 length rounded up to 64, NUL-padded text */
static void fxb_str64(struct fx_buf *b, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) / 64 * 64;

	fxb_u32(b, (uint32_t)len);
	fxb_bytes(b, s, n - 1);
	fxb_zero(b, len - (n - 1));
}

static void fxb_pad8(struct fx_buf *b)
{
	fxb_zero(b, (8 - b->len % 8) % 8);
}

/* ------------------------------------------------------------------ */
/* the fixture                                                          */
/* ------------------------------------------------------------------ */

static int fail(struct fixture *fx)
{
	fx->failed = true;
	return -1;
}

static const char *default_arch(const struct fixture_opts *o)
{
	if (o->word_size == 4)
		return o->big_endian ? "ppc" : "armv7l";
	return o->big_endian ? "s390x" : "x86_64";
}

static uint64_t base_sample_type(const struct fixture *fx)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;

	return st | (fx->o.sample_identifier ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID);
}

/* perf sched record's "dummy:HG": carries the side-band records (A.7) */
static void init_dummy(struct fixture *fx)
{
	struct fx_evsel *d = &fx->dummy;
	static const unsigned bits[] = {
		ATTR_F_INHERIT, ATTR_F_MMAP, ATTR_F_COMM, ATTR_F_TASK, ATTR_F_SAMPLE_ID_ALL,
		ATTR_F_MMAP2, ATTR_F_COMM_EXEC, ATTR_F_KSYMBOL, ATTR_F_BPF_EVENT,
	};

	snprintf(d->name, sizeof(d->name), "dummy:HG");
	d->type = PERF_TYPE_SOFTWARE;
	d->config = 9;				/* PERF_COUNT_SW_DUMMY */
	d->period = 1;
	d->sample_type = base_sample_type(fx) | PERF_SAMPLE_RAW;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		d->flags |= 1ull << bits[i];
	d->tp = -1;
	d->slot = DUMMY_SLOT;
}

struct fixture *fixture_new(const struct fixture_opts *opts)
{
	struct fixture *fx;

	if (opts->word_size != 0 && opts->word_size != 4 && opts->word_size != 8)
		return NULL;
	if (opts->nr_cpus < 0 || opts->nr_cpus > FIXTURE_MAX_CPUS ||
	    opts->attr_size_extra > 4096)
		return NULL;
	fx = calloc(1, sizeof(*fx));
	if (!fx)
		return NULL;
	fx->o = *opts;
	if (!fx->o.word_size)
		fx->o.word_size = 8;
	if (!fx->o.nr_cpus)
		fx->o.nr_cpus = 2;
	if (!fx->o.chunk_records)
		fx->o.chunk_records = 8;
	if (fx->o.compressed2)
		fx->o.compressed = true;
	snprintf(fx->arch, sizeof(fx->arch), "%s", opts->arch ? opts->arch : default_arch(&fx->o));
	fx->o.arch = fx->arch;		/* the caller's string need not outlive us */
	fx_flavour_init(&fx->fl, &fx->o);
	init_dummy(fx);
	return fx;
}

void fixture_free(struct fixture *fx)
{
	if (!fx)
		return;
	for (size_t i = 0; i < fx->nr_recs; i++)
		free(fx->recs[i].data);
	free(fx->recs);
	free(fx->tasks);
	free(fx->chain);
	free(fx->branches);
	free(fx->last_raw);
	free(fx);
}

/* ---- tasks: tid -> pid, and which tids the trace names ---- */

static struct fx_task *fx_task_get(struct fixture *fx, int32_t tid)
{
	size_t lo = 0, hi = fx->nr_tasks;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fx->tasks[mid].tid == tid)
			return &fx->tasks[mid];
		if (fx->tasks[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (fx->nr_tasks == fx->cap_tasks) {
		size_t cap = fx->cap_tasks ? 2 * fx->cap_tasks : 64;
		struct fx_task *t = realloc(fx->tasks, cap * sizeof(*t));

		if (!t)
			return NULL;
		fx->tasks = t;
		fx->cap_tasks = cap;
	}
	memmove(&fx->tasks[lo + 1], &fx->tasks[lo], (fx->nr_tasks - lo) * sizeof(*fx->tasks));
	fx->tasks[lo] = (struct fx_task){ .tid = tid, .pid = tid };
	fx->nr_tasks++;
	return &fx->tasks[lo];
}

/* note 'tid' (and its process when pid >= 0); returns its pid, -1 on ENOMEM */
static int32_t fx_task_note(struct fixture *fx, int32_t tid, int32_t pid)
{
	struct fx_task *t = fx_task_get(fx, tid);

	if (!t) {
		fx->failed = true;
		return -1;
	}
	if (pid >= 0)
		t->pid = pid;
	return t->pid;
}

static bool cpu_ok(int cpu)
{
	return cpu >= 0 && cpu < FIXTURE_MAX_CPUS;
}

/* ------------------------------------------------------------------ */
/* evsels                                                               */
/* ------------------------------------------------------------------ */

static struct fx_evsel *evsel_new(struct fixture *fx)
{
	struct fx_evsel *ev;

	if (fx->nr_ev == FIXTURE_MAX_EVSELS - 1)
		return NULL;
	ev = &fx->ev[fx->nr_ev];
	memset(ev, 0, sizeof(*ev));
	ev->slot = fx->nr_ev;
	ev->tp = -1;
	return ev;
}

int fixture_add_tracepoint(struct fixture *fx, const char *system, const char *name)
{
	int tp = fx_tp_find(&fx->fl, system, name);
	struct fx_evsel *ev;

	if (tp < 0)
		return fail(fx);
	for (int i = 0; i < fx->nr_ev; i++)
		if (fx->ev[i].tp == tp)
			return i;
	ev = evsel_new(fx);
	if (!ev)
		return fail(fx);
	snprintf(ev->name, sizeof(ev->name), "%s:%s", system, name);
	ev->type = PERF_TYPE_TRACEPOINT;
	ev->config = fx_tp_id_of(&fx->fl, tp);
	ev->period = 1;
	ev->sample_type = base_sample_type(fx) | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	if (fx->o.tp_callchain)
		ev->sample_type |= PERF_SAMPLE_CALLCHAIN;
	ev->flags = 1ull << ATTR_F_DISABLED | 1ull << ATTR_F_INHERIT |
		    1ull << ATTR_F_SAMPLE_ID_ALL | 1ull << ATTR_F_EXCLUDE_GUEST;
	ev->tp = tp;
	return fx->nr_ev++;
}

static const char *event_name(uint32_t type, uint64_t config)
{
	static const char *const sw[] = { "cpu-clock", "task-clock", "page-faults",
					  "context-switches", "cpu-migrations" };
	static const char *const hw[] = { "cycles", "instructions", "cache-references",
					  "cache-misses", "branches", "branch-misses" };

	if (type == PERF_TYPE_SOFTWARE && config < 5)
		return sw[config];
	if (type == PERF_TYPE_HARDWARE && config < 6)
		return hw[config];
	return NULL;
}

int fixture_add_event(struct fixture *fx, uint32_t type, uint64_t config, uint64_t sample_type)
{
	uint64_t allowed = base_sample_type(fx) | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_BRANCH_STACK;
	const char *name = event_name(type, config);
	struct fx_evsel *ev;

	if ((sample_type & ~allowed) || !(ev = evsel_new(fx)))
		return fail(fx);
	if (name)
		snprintf(ev->name, sizeof(ev->name), "%s", name);
	else
		snprintf(ev->name, sizeof(ev->name), "type%u/config%#llx", type,
			 (unsigned long long)config);
	ev->type = type;
	ev->config = config;
	ev->period = 4000;			/* perf record's default -F 4000 */
	ev->sample_type = base_sample_type(fx) | PERF_SAMPLE_PERIOD | sample_type;
	if (sample_type & PERF_SAMPLE_BRANCH_STACK)
		ev->branch_sample_type = 1u << 3;	/* PERF_SAMPLE_BRANCH_ANY: perf record -b */
	ev->flags = 1ull << ATTR_F_DISABLED | 1ull << ATTR_F_INHERIT | 1ull << ATTR_F_FREQ |
		    1ull << ATTR_F_SAMPLE_ID_ALL | 1ull << ATTR_F_EXCLUDE_GUEST;
	return fx->nr_ev++;
}

int fixture_event_fixed_period(struct fixture *fx, int evsel, uint64_t period)
{
	struct fx_evsel *ev;

	if (evsel < 0 || evsel >= fx->nr_ev || !period)
		return fail(fx);
	ev = &fx->ev[evsel];
	ev->period = period;
	ev->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	ev->flags &= ~(1ull << ATTR_F_FREQ);
	return 0;
}

static uint64_t evsel_id(const struct fixture *fx, const struct fx_evsel *ev, int cpu)
{
	return FIRST_ID + (uint64_t)ev->slot * FIXTURE_MAX_CPUS + (uint64_t)(cpu % fx->o.nr_cpus);
}

static struct fx_evsel *evsel_at(struct fixture *fx, int idx)
{
	return idx >= 0 && idx < fx->nr_ev ? &fx->ev[idx] : NULL;
}

/* ------------------------------------------------------------------ */
/* records                                                              */
/* ------------------------------------------------------------------ */

static void rec_begin(struct fixture *fx, struct fx_buf *b, uint32_t type, uint16_t misc)
{
	memset(b, 0, sizeof(*b));
	b->be = fx->o.big_endian;
	fxb_u32(b, type);
	fxb_u16(b, misc);
	fxb_u16(b, 0);			/* size, set by rec_end() */
}

static int rec_push(struct fixture *fx, struct fx_rec *r)
{
	if (fx->nr_recs == fx->cap_recs) {
		size_t cap = fx->cap_recs ? 2 * fx->cap_recs : 256;
		struct fx_rec *p = realloc(fx->recs, cap * sizeof(*p));

		if (!p)
			return -1;
		fx->recs = p;
		fx->cap_recs = cap;
	}
	fx->recs[fx->nr_recs++] = *r;
	return 0;
}

static int auto_round(struct fixture *fx);

/* finish the record in 'b' (its buffer is taken over) and queue it */
static int rec_end(struct fixture *fx, struct fx_buf *b, bool has_time, uint64_t time)
{
	struct fx_rec r = { .data = b->p, .size = (uint32_t)b->len, .has_time = has_time,
			    .time = time };

	if (b->failed || b->len > 0xffff) {
		free(b->p);
		return fail(fx);
	}
	srep_put16(b->p + 6, (uint16_t)b->len, fx->o.big_endian);
	r.type = srep_get32(b->p, srep_swap_for(fx->o.big_endian));
	if (rec_push(fx, &r) < 0) {
		free(b->p);
		return fail(fx);
	}
	if (r.type == PERF_RECORD_FINISHED_ROUND) {
		fx->since_round = 0;
		return 0;
	}
	fx->since_round++;
	return auto_round(fx);
}

static int auto_round(struct fixture *fx)
{
	struct fx_buf b;

	if (!fx->o.round_every || fx->since_round < fx->o.round_every)
		return 0;
	rec_begin(fx, &b, PERF_RECORD_FINISHED_ROUND, 0);
	return rec_end(fx, &b, false, 0);
}

/* sample_id trailer (A.7) in the order TID, TIME, ID, CPU, IDENTIFIER */
static void put_trailer(struct fixture *fx, struct fx_buf *b, uint64_t id, int32_t pid,
			int32_t tid, uint64_t time, int cpu)
{
	fxb_u32(b, (uint32_t)pid);
	fxb_u32(b, (uint32_t)tid);
	fxb_u64(b, time);
	if (!fx->o.sample_identifier)
		fxb_u64(b, id);
	fxb_u32(b, (uint32_t)cpu);
	fxb_u32(b, 0);
	if (fx->o.sample_identifier)
		fxb_u64(b, id);
}

/* a side-band record's end: trailer with the dummy's id, then queue */
static int sideband_end(struct fixture *fx, struct fx_buf *b, int32_t pid, int32_t tid,
			uint64_t time, int cpu)
{
	put_trailer(fx, b, evsel_id(fx, &fx->dummy, cpu), pid, tid, time, cpu);
	return rec_end(fx, b, true, time);
}

/* a string field padded with NULs so what follows is 8-aligned (A.5) */
static void put_padded_str(struct fx_buf *b, const char *s)
{
	fxb_cstr(b, s);
	fxb_pad8(b);
}

/* ------------------------------------------------------------------ */
/* side-band records                                                    */
/* ------------------------------------------------------------------ */

int fixture_comm(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t tid,
		 const char *comm, bool exec)
{
	struct fx_buf b;

	if (!cpu_ok(cpu) || fx_task_note(fx, tid, pid) < 0)
		return fail(fx);
	rec_begin(fx, &b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	fxb_u32(&b, (uint32_t)pid);
	fxb_u32(&b, (uint32_t)tid);
	put_padded_str(&b, comm);
	return sideband_end(fx, &b, pid, tid, time, cpu);
}

static int task_record(struct fixture *fx, uint32_t type, uint64_t time, int cpu,
		       int32_t pid, int32_t ppid, int32_t tid, int32_t ptid)
{
	struct fx_buf b;

	if (!cpu_ok(cpu) || fx_task_note(fx, tid, pid) < 0 || fx_task_note(fx, ptid, ppid) < 0)
		return fail(fx);
	rec_begin(fx, &b, type, 0);
	fxb_u32(&b, (uint32_t)pid);
	fxb_u32(&b, (uint32_t)ppid);
	fxb_u32(&b, (uint32_t)tid);
	fxb_u32(&b, (uint32_t)ptid);
	fxb_u64(&b, time);
	return sideband_end(fx, &b, pid, tid, time, cpu);
}

int fixture_fork(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t ppid,
		 int32_t tid, int32_t ptid)
{
	return task_record(fx, PERF_RECORD_FORK, time, cpu, pid, ppid, tid, ptid);
}

int fixture_exit(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t ppid,
		 int32_t tid, int32_t ptid)
{
	return task_record(fx, PERF_RECORD_EXIT, time, cpu, pid, ppid, tid, ptid);
}

int fixture_mmap2(struct fixture *fx, uint64_t time, int cpu, int32_t pid, int32_t tid,
		  uint64_t addr, uint64_t len, uint64_t pgoff, const char *filename)
{
	struct fx_buf b;

	if (!cpu_ok(cpu) || fx_task_note(fx, tid, pid) < 0)
		return fail(fx);
	rec_begin(fx, &b, PERF_RECORD_MMAP2, MISC_USER);
	fxb_u32(&b, (uint32_t)pid);
	fxb_u32(&b, (uint32_t)tid);
	fxb_u64(&b, addr);
	fxb_u64(&b, len);
	fxb_u64(&b, pgoff);
	fxb_u32(&b, 8);				/* maj */
	fxb_u32(&b, 1);				/* min */
	fxb_u64(&b, 4242);			/* ino */
	fxb_u64(&b, 0);				/* ino_generation */
	fxb_u32(&b, 5);				/* prot: PROT_READ | PROT_EXEC */
	fxb_u32(&b, 2);				/* flags: MAP_PRIVATE */
	put_padded_str(&b, filename);
	return sideband_end(fx, &b, pid, tid, time, cpu);
}

static int lost_record(struct fixture *fx, uint32_t type, int evsel, uint64_t time, int cpu,
		       uint64_t lost)
{
	struct fx_evsel *ev = evsel_at(fx, evsel);
	struct fx_buf b;
	uint64_t id;

	if (!ev || !cpu_ok(cpu))
		return fail(fx);
	id = evsel_id(fx, ev, cpu);
	rec_begin(fx, &b, type, 0);
	if (type == PERF_RECORD_LOST)
		fxb_u64(&b, id);
	fxb_u64(&b, lost);
	put_trailer(fx, &b, id, -1, -1, time, cpu);
	return rec_end(fx, &b, true, time);
}

int fixture_lost(struct fixture *fx, int evsel, uint64_t time, int cpu, uint64_t lost)
{
	if (lost_record(fx, PERF_RECORD_LOST, evsel, time, cpu, lost) < 0)
		return -1;
	fx->lost += lost;
	return 0;
}

int fixture_lost_samples(struct fixture *fx, int evsel, uint64_t time, int cpu, uint64_t lost)
{
	if (lost_record(fx, PERF_RECORD_LOST_SAMPLES, evsel, time, cpu, lost) < 0)
		return -1;
	fx->lost_samples += lost;
	return 0;
}

static uint16_t switch_misc(bool out, bool preempt)
{
	return (out ? PERF_RECORD_MISC_SWITCH_OUT : 0) |
	       (out && preempt ? PERF_RECORD_MISC_SWITCH_OUT_PREEMPT : 0);
}

int fixture_switch_record(struct fixture *fx, uint64_t time, int cpu, int32_t pid,
			  int32_t tid, bool out, bool preempt)
{
	struct fx_buf b;

	if (!cpu_ok(cpu) || fx_task_note(fx, tid, pid) < 0)
		return fail(fx);
	fx->dummy.flags |= 1ull << ATTR_F_CONTEXT_SWITCH;
	rec_begin(fx, &b, PERF_RECORD_SWITCH, switch_misc(out, preempt));
	return sideband_end(fx, &b, pid, tid, time, cpu);
}

int fixture_switch_cpu_wide(struct fixture *fx, uint64_t time, int cpu, int32_t pid,
			    int32_t tid, bool out, bool preempt, int32_t next_prev_pid,
			    int32_t next_prev_tid)
{
	struct fx_buf b;

	if (!cpu_ok(cpu) || fx_task_note(fx, tid, pid) < 0 ||
	    fx_task_note(fx, next_prev_tid, next_prev_pid) < 0)
		return fail(fx);
	fx->dummy.flags |= 1ull << ATTR_F_CONTEXT_SWITCH;
	rec_begin(fx, &b, PERF_RECORD_SWITCH_CPU_WIDE, switch_misc(out, preempt));
	fxb_u32(&b, (uint32_t)next_prev_pid);
	fxb_u32(&b, (uint32_t)next_prev_tid);
	return sideband_end(fx, &b, pid, tid, time, cpu);
}

int fixture_finished_round(struct fixture *fx)
{
	struct fx_buf b;

	rec_begin(fx, &b, PERF_RECORD_FINISHED_ROUND, 0);
	return rec_end(fx, &b, false, 0);
}

int fixture_raw_record(struct fixture *fx, uint32_t type, uint16_t misc,
		       const void *body, size_t len)
{
	struct fx_buf b;

	if (len > 0xffff - 8)
		return fail(fx);
	rec_begin(fx, &b, type, misc);
	fxb_bytes(&b, body, len);
	return rec_end(fx, &b, false, 0);
}

/* ------------------------------------------------------------------ */
/* samples                                                              */
/* ------------------------------------------------------------------ */

struct sample_desc {
	struct fx_evsel *ev;
	uint64_t time, ip, period;
	int cpu;
	int32_t pid, tid;
	uint32_t nr_chain;
	const uint64_t *chain;
	const uint8_t *raw;
	uint32_t raw_len;
	uint32_t nr_branches;
	const uint64_t *branches;	/* from, to pairs */
};

/* RAW: u32 size + data, padded so that 4 + size is a multiple of 8 (A.6) */
static void put_raw(struct fx_buf *b, const uint8_t *raw, uint32_t len)
{
	uint32_t size = ((len + 4 + 7) & ~7u) - 4;

	fxb_u32(b, size);
	fxb_bytes(b, raw, len);
	fxb_zero(b, size - len);
}

/* a SAMPLE record, fields in the order of A.6 */
static int sample_record(struct fixture *fx, const struct sample_desc *s, uint16_t misc)
{
	uint64_t st = s->ev->sample_type, id = evsel_id(fx, s->ev, s->cpu);
	struct fx_buf b;

	rec_begin(fx, &b, PERF_RECORD_SAMPLE, misc);
	if (st & PERF_SAMPLE_IDENTIFIER)
		fxb_u64(&b, id);
	fxb_u64(&b, s->ip);
	fxb_u32(&b, (uint32_t)s->pid);
	fxb_u32(&b, (uint32_t)s->tid);
	fxb_u64(&b, s->time);
	if (st & PERF_SAMPLE_ID)
		fxb_u64(&b, id);
	fxb_u32(&b, (uint32_t)s->cpu);
	fxb_u32(&b, 0);
	if (st & PERF_SAMPLE_PERIOD)
		fxb_u64(&b, s->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		fxb_u64(&b, s->nr_chain);
		for (uint32_t i = 0; i < s->nr_chain; i++)
			fxb_u64(&b, s->chain[i]);
	}
	if (st & PERF_SAMPLE_RAW)
		put_raw(&b, s->raw, s->raw_len);
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		fxb_u64(&b, s->nr_branches);
		for (uint32_t i = 0; i < s->nr_branches; i++) {
			fxb_u64(&b, s->branches[2 * i]);
			fxb_u64(&b, s->branches[2 * i + 1]);
			fxb_u64(&b, 0);		/* flags: none predicted, no cycles */
		}
	}
	if (rec_end(fx, &b, true, s->time) < 0)
		return -1;
	s->ev->samples++;
	return 0;
}

int fixture_sample(struct fixture *fx, int evsel, uint64_t time, int cpu, int32_t pid,
		   int32_t tid, uint64_t ip, uint64_t period, uint32_t nr_callchain,
		   const uint64_t *callchain)
{
	struct sample_desc s = { .ev = evsel_at(fx, evsel), .time = time, .ip = ip,
				 .period = period, .cpu = cpu, .pid = pid, .tid = tid,
				 .nr_chain = nr_callchain, .chain = callchain };

	int ret;

	if (!s.ev || s.ev->tp >= 0 || !cpu_ok(cpu) || (nr_callchain && !callchain) ||
	    fx_task_note(fx, tid, pid) < 0)
		return fail(fx);
	s.nr_branches = fx->nr_branches;
	s.branches = fx->branches;
	ret = sample_record(fx, &s, MISC_USER);
	free(fx->branches);
	fx->branches = NULL;
	fx->nr_branches = 0;
	return ret;
}

int fixture_next_branches(struct fixture *fx, uint32_t nr, const uint64_t *from_to)
{
	uint64_t *p = nr ? malloc(2 * sizeof(*p) * nr) : NULL;

	if (nr && (!p || !from_to)) {
		free(p);
		return fail(fx);
	}
	if (nr)
		memcpy(p, from_to, 2 * sizeof(*p) * nr);
	free(fx->branches);
	fx->branches = p;
	fx->nr_branches = nr;
	return 0;
}

int fixture_next_callchain(struct fixture *fx, uint32_t nr, const uint64_t *ips)
{
	uint64_t *p = nr ? malloc(nr * sizeof(*p)) : NULL;

	if (nr && (!p || !ips)) {
		free(p);
		return fail(fx);
	}
	if (nr)
		memcpy(p, ips, nr * sizeof(*p));
	free(fx->chain);
	fx->chain = p;
	fx->nr_chain = nr;
	fx->has_chain = true;
	return 0;
}

int fixture_set_current(struct fixture *fx, int cpu, int32_t pid, int32_t tid)
{
	if (!cpu_ok(cpu) || fx_task_note(fx, tid, pid) < 0)
		return fail(fx);
	fx->cur_tid[cpu] = tid;
	return 0;
}

const uint8_t *fixture_last_raw(const struct fixture *fx, uint32_t *len)
{
	*len = fx->last_raw_len;
	return fx->last_raw;
}

/* a tracepoint sample of evsel 'ev' taken while 'tid' ran on 'cpu' */
static int tp_sample(struct fixture *fx, struct fx_evsel *ev, uint64_t time, int cpu,
		     int32_t tid, const uint8_t *raw, uint32_t len)
{
	bool wide = fx->fl.long_size == 8;
	uint64_t ip = (wide ? 0xffffffff81100000ull : 0xc0100000ull) + 0x40u * (unsigned)ev->tp;
	uint64_t dflt_chain[2] = { CONTEXT_KERNEL, ip };
	struct sample_desc s = { .ev = ev, .time = time, .ip = ip, .period = 1, .cpu = cpu,
				 .tid = tid, .nr_chain = 2, .chain = dflt_chain,
				 .raw = raw, .raw_len = len };
	uint8_t *copy = len ? malloc(len) : NULL;
	int ret;

	s.pid = fx_task_note(fx, tid, -1);
	if (s.pid < 0 || (len && !copy) || (len && !raw)) {
		free(copy);
		return fail(fx);
	}
	if (fx->has_chain) {
		s.nr_chain = fx->nr_chain;
		s.chain = fx->chain;
	}
	ret = sample_record(fx, &s, MISC_KERNEL);
	free(fx->chain);
	fx->chain = NULL;
	fx->has_chain = false;
	if (len)
		memcpy(copy, raw, len);
	free(fx->last_raw);
	fx->last_raw = copy;
	fx->last_raw_len = len;
	return ret;
}

int fixture_tp_sample(struct fixture *fx, int evsel, uint64_t time, int cpu,
		      const void *raw, uint32_t len)
{
	struct fx_evsel *ev = evsel_at(fx, evsel);

	if (!ev || ev->tp < 0 || !cpu_ok(cpu))
		return fail(fx);
	return tp_sample(fx, ev, time, cpu, fx->cur_tid[cpu], raw, len);
}

/* ---- the tracepoint helpers: fill a payload, then tp_emit() it ---- */

/* the task current on 'cpu'; any int is safe here, tp_begin() rejects bad CPUs */
static int32_t cur(const struct fixture *fx, int cpu)
{
	return fx->cur_tid[(unsigned)cpu % FIXTURE_MAX_CPUS];
}

static struct fx_evsel *tp_begin(struct fixture *fx, const char *system, const char *name,
				 int cpu, int32_t common_pid, struct fx_raw *r)
{
	int idx = cpu_ok(cpu) ? fixture_add_tracepoint(fx, system, name) : -1;

	if (idx < 0) {
		memset(r, 0, sizeof(*r));
		r->failed = true;	/* fx_raw_*() now do nothing, tp_emit() fails */
		return NULL;
	}
	fx_raw_init(r, &fx->fl, fx->ev[idx].tp, common_pid);
	return &fx->ev[idx];
}

static int tp_emit(struct fixture *fx, struct fx_evsel *ev, struct fx_raw *r, uint64_t time,
		   int cpu, int32_t tid)
{
	if (!ev || r->failed)
		return fail(fx);
	return tp_sample(fx, ev, time, cpu, tid, r->data, fx_raw_len(r));
}

int fixture_switch(struct fixture *fx, uint64_t time, int cpu,
		   const char *prev_comm, int32_t prev_tid, int32_t prev_prio, int64_t prev_state,
		   const char *next_comm, int32_t next_tid, int32_t next_prio)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", "sched_switch", cpu, prev_tid, &r);

	if (ev && fx_task_note(fx, next_tid, -1) < 0)
		return fail(fx);
	fx_raw_str(&r, "prev_comm", prev_comm);
	fx_raw_int(&r, "prev_pid", prev_tid);
	fx_raw_int(&r, "prev_prio", prev_prio);
	fx_raw_int(&r, "prev_state", prev_state);
	fx_raw_str(&r, "next_comm", next_comm);
	fx_raw_int(&r, "next_pid", next_tid);
	fx_raw_int(&r, "next_prio", next_prio);
	if (tp_emit(fx, ev, &r, time, cpu, prev_tid) < 0)
		return -1;
	fx->cur_tid[cpu] = next_tid;
	return 0;
}

static int wakeup_tp(struct fixture *fx, const char *name, uint64_t time, int cpu,
		     const char *comm, int32_t tid, int32_t prio, int32_t target_cpu)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", name, cpu, cur(fx, cpu), &r);

	if (ev && fx_task_note(fx, tid, -1) < 0)
		return fail(fx);
	fx_raw_str(&r, "comm", comm);
	fx_raw_int(&r, "pid", tid);
	fx_raw_int(&r, "prio", prio);
	fx_raw_int(&r, "target_cpu", target_cpu);
	return tp_emit(fx, ev, &r, time, cpu, cur(fx, cpu));
}

int fixture_waking(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		   int32_t tid, int32_t prio, int32_t target_cpu)
{
	return wakeup_tp(fx, "sched_waking", time, cpu, comm, tid, prio, target_cpu);
}

int fixture_wakeup(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		   int32_t tid, int32_t prio, int32_t target_cpu)
{
	return wakeup_tp(fx, "sched_wakeup", time, cpu, comm, tid, prio, target_cpu);
}

int fixture_wakeup_new(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		       int32_t tid, int32_t prio, int32_t target_cpu)
{
	return wakeup_tp(fx, "sched_wakeup_new", time, cpu, comm, tid, prio, target_cpu);
}

int fixture_migrate(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		    int32_t tid, int32_t prio, int32_t orig_cpu, int32_t dest_cpu)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", "sched_migrate_task", cpu, cur(fx, cpu), &r);

	if (ev && fx_task_note(fx, tid, -1) < 0)
		return fail(fx);
	fx_raw_str(&r, "comm", comm);
	fx_raw_int(&r, "pid", tid);
	fx_raw_int(&r, "prio", prio);
	fx_raw_int(&r, "orig_cpu", orig_cpu);
	fx_raw_int(&r, "dest_cpu", dest_cpu);
	return tp_emit(fx, ev, &r, time, cpu, cur(fx, cpu));
}

int fixture_tp_fork(struct fixture *fx, uint64_t time, int cpu, const char *parent_comm,
		    int32_t parent_tid, const char *child_comm, int32_t child_tid)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", "sched_process_fork", cpu, parent_tid, &r);

	if (ev && fx_task_note(fx, child_tid, -1) < 0)
		return fail(fx);
	fx_raw_str(&r, "parent_comm", parent_comm);
	fx_raw_int(&r, "parent_pid", parent_tid);
	fx_raw_str(&r, "child_comm", child_comm);
	fx_raw_int(&r, "child_pid", child_tid);
	return tp_emit(fx, ev, &r, time, cpu, parent_tid);
}

int fixture_exec(struct fixture *fx, uint64_t time, int cpu, const char *filename,
		 int32_t tid, int32_t old_tid)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", "sched_process_exec", cpu, tid, &r);

	fx_raw_str(&r, "filename", filename);
	fx_raw_int(&r, "pid", tid);
	fx_raw_int(&r, "old_pid", old_tid);
	return tp_emit(fx, ev, &r, time, cpu, tid);
}

/* sched_process_exit / _free: the same fields ('group_dead' on new kernels) */
static int task_tp(struct fixture *fx, const char *name, uint64_t time, int cpu,
		   const char *comm, int32_t tid, int32_t prio, int32_t running)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", name, cpu, running, &r);

	if (ev && fx_task_note(fx, tid, -1) < 0)
		return fail(fx);
	fx_raw_str(&r, "comm", comm);
	fx_raw_int(&r, "pid", tid);
	fx_raw_int(&r, "prio", prio);
	fx_raw_int(&r, "group_dead", 1);
	return tp_emit(fx, ev, &r, time, cpu, running);
}

int fixture_tp_exit(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		    int32_t tid, int32_t prio)
{
	return task_tp(fx, "sched_process_exit", time, cpu, comm, tid, prio, tid);
}

int fixture_tp_free(struct fixture *fx, uint64_t time, int cpu, const char *comm,
		    int32_t tid, int32_t prio)
{
	/* freed from RCU callbacks: some other task is running */
	return task_tp(fx, "sched_process_free", time, cpu, comm, tid, prio, cur(fx, cpu));
}

int fixture_stat_runtime(struct fixture *fx, uint64_t time, int cpu, const char *comm,
			 int32_t tid, uint64_t runtime, uint64_t vruntime)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "sched", "sched_stat_runtime", cpu, tid, &r);

	fx_raw_str(&r, "comm", comm);
	fx_raw_int(&r, "pid", tid);
	fx_raw_int(&r, "runtime", (int64_t)runtime);
	fx_raw_int(&r, "vruntime", (int64_t)vruntime);
	return tp_emit(fx, ev, &r, time, cpu, tid);
}

int fixture_stat_delay(struct fixture *fx, const char *tp_name, uint64_t time, int cpu,
		       const char *comm, int32_t tid, uint64_t delay)
{
	struct fx_raw r;
	struct fx_evsel *ev;

	if (strncmp(tp_name, "sched_stat_", 11) || !strcmp(tp_name, "sched_stat_runtime"))
		return fail(fx);
	ev = tp_begin(fx, "sched", tp_name, cpu, cur(fx, cpu), &r);
	fx_raw_str(&r, "comm", comm);
	fx_raw_int(&r, "pid", tid);
	fx_raw_int(&r, "delay", (int64_t)delay);
	return tp_emit(fx, ev, &r, time, cpu, cur(fx, cpu));
}

static int cpu_tp(struct fixture *fx, const char *name, uint64_t time, int cpu,
		  uint32_t state, uint32_t cpu_id)
{
	struct fx_raw r;
	struct fx_evsel *ev = tp_begin(fx, "power", name, cpu, cur(fx, cpu), &r);

	fx_raw_int(&r, "state", state);
	fx_raw_int(&r, "cpu_id", cpu_id);
	return tp_emit(fx, ev, &r, time, cpu, cur(fx, cpu));
}

int fixture_cpu_idle(struct fixture *fx, uint64_t time, int cpu, uint32_t state)
{
	return cpu_tp(fx, "cpu_idle", time, cpu, state, (uint32_t)cpu);
}

int fixture_cpu_frequency(struct fixture *fx, uint64_t time, int cpu, uint32_t khz,
			  uint32_t cpu_id)
{
	return cpu_tp(fx, "cpu_frequency", time, cpu, khz, cpu_id);
}

/* ------------------------------------------------------------------ */
/* output: the record stream and its compression (A.11)                 */
/* ------------------------------------------------------------------ */

struct writer {
	struct fixture *fx;
	struct fixture_info *info;
	struct fx_buf data;		/* the record stream */
	ZSTD_CStream *zs;		/* one stream for the whole file, as perf */
	struct fx_buf piece;		/* uncompressed bytes of the next COMPRESSED record */
	unsigned piece_recs;
	uint64_t nr_zipped;		/* records that went into the zstd stream */
	uint64_t raw_bytes, zip_bytes;
	uint64_t first_sample, last_sample;
};

static void count_record(struct writer *w, uint32_t type)
{
	if (type < FIXTURE_RECORD_TYPES)
		w->info->records[type]++;
	else
		w->info->other_records++;
	w->info->total++;
}

/* run the stream over 'in' (flush: ZSTD_flushStream instead) into 'z' */
static int zstd_run(ZSTD_CStream *zs, ZSTD_inBuffer *in, struct fx_buf *z, bool flush)
{
	size_t ret;

	do {
		if (!fxb_reserve(z, ZSTD_CStreamOutSize()))
			return -1;
		ZSTD_outBuffer out = { z->p + z->len, z->cap - z->len, 0 };

		ret = flush ? ZSTD_flushStream(zs, &out) : ZSTD_compressStream(zs, &out, in);
		if (ZSTD_isError(ret))
			return -1;
		z->len += out.pos;
	} while (flush ? ret > 0 : in->pos < in->size);
	return 0;
}

/* COMPRESSED: zstd bytes to header.size; COMPRESSED2: u64 size, bytes, padding */
static int put_compressed(struct writer *w, const struct fx_buf *z)
{
	bool two = w->fx->o.compressed2;
	size_t size = two ? (16 + z->len + 7) / 8 * 8 : 8 + z->len;
	struct fx_buf *d = &w->data;

	if (size > 0xffff)
		return -1;
	fxb_u32(d, two ? PERF_RECORD_COMPRESSED2 : PERF_RECORD_COMPRESSED);
	fxb_u16(d, 0);
	fxb_u16(d, (uint16_t)size);
	if (two)
		fxb_u64(d, z->len);
	fxb_bytes(d, z->p, z->len);
	if (two)
		fxb_zero(d, size - 16 - z->len);
	count_record(w, two ? PERF_RECORD_COMPRESSED2 : PERF_RECORD_COMPRESSED);
	return 0;
}

/* compress the pending piece and flush (never end) the frame: one record */
static int emit_piece(struct writer *w)
{
	ZSTD_inBuffer in = { w->piece.p, w->piece.len, 0 };
	struct fx_buf z = { 0 };
	int ret = -1;

	if (!w->piece.len)
		return 0;
	if (zstd_run(w->zs, &in, &z, false) == 0 && zstd_run(w->zs, &in, &z, true) == 0)
		ret = put_compressed(w, &z);
	w->raw_bytes += w->piece.len;
	w->zip_bytes += z.len;
	w->piece.len = 0;
	w->piece_recs = 0;
	free(z.p);
	return ret;
}

/* queue a record for compression; every split_every-th is cut in the middle */
static int add_zipped(struct writer *w, const struct fx_rec *r)
{
	const struct fixture_opts *o = &w->fx->o;
	uint32_t half = r->size / 2;

	if (w->piece.len && w->piece.len + r->size > PIECE_MAX && emit_piece(w) < 0)
		return -1;
	w->nr_zipped++;
	if (o->split_every && w->nr_zipped % o->split_every == 0) {
		fxb_bytes(&w->piece, r->data, half);
		if (emit_piece(w) < 0)
			return -1;
		fxb_bytes(&w->piece, r->data + half, r->size - half);
		w->piece_recs = 1;
		w->info->nr_split++;
		return 0;
	}
	fxb_bytes(&w->piece, r->data, r->size);
	if (++w->piece_recs >= o->chunk_records)
		return emit_piece(w);
	return 0;
}

/* FINISHED_ROUND and the first plain_head records are never compressed */
static bool zipped(const struct fixture *fx, size_t i)
{
	return fx->o.compressed && i >= fx->o.plain_head &&
	       fx->recs[i].type != PERF_RECORD_FINISHED_ROUND;
}

static int build_stream(struct writer *w)
{
	struct fixture *fx = w->fx;

	if (fx->o.compressed) {
		w->zs = ZSTD_createCStream();
		if (!w->zs || ZSTD_isError(ZSTD_initCStream(w->zs, 1)))
			return -1;
	}
	for (size_t i = 0; i < fx->nr_recs; i++) {
		const struct fx_rec *r = &fx->recs[i];

		count_record(w, r->type);
		if (zipped(fx, i)) {
			if (add_zipped(w, r) < 0)
				return -1;
			continue;
		}
		if (emit_piece(w) < 0)
			return -1;
		fxb_bytes(&w->data, r->data, r->size);
	}
	if (emit_piece(w) < 0)
		return -1;
	return w->data.failed || w->piece.failed ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* output: attrs and features                                           */
/* ------------------------------------------------------------------ */

static int nr_out_evsels(const struct fixture *fx)
{
	return fx->nr_ev + 1;
}

/* evsels as written: the added ones, then the dummy */
static const struct fx_evsel *out_evsel(const struct fixture *fx, int i)
{
	return i < fx->nr_ev ? &fx->ev[i] : &fx->dummy;
}

static uint32_t attr_len(const struct fixture *fx)
{
	return ATTR_SIZE_61 + fx->o.attr_size_extra;
}

/* a big-endian writer's bitfield starts at the top bit (A.4) */
static uint64_t attr_flags(const struct fixture *fx, uint64_t le_flags)
{
	uint64_t v = 0;

	if (!fx->o.big_endian)
		return le_flags;
	for (unsigned bit = 0; bit < 64; bit++)
		if (le_flags >> bit & 1)
			v |= 1ull << (63 - bit);
	return v;
}

static void put_attr(const struct fixture *fx, struct fx_buf *b, const struct fx_evsel *ev,
		     uint32_t size_field)
{
	size_t start = b->len;

	fxb_u32(b, ev->type);
	fxb_u32(b, size_field);
	fxb_u64(b, ev->config);
	fxb_u64(b, ev->period);
	fxb_u64(b, ev->sample_type);
	fxb_u64(b, PERF_FORMAT_ID | PERF_FORMAT_LOST);	/* perf sched record's read_format */
	fxb_u64(b, attr_flags(fx, ev->flags));
	fxb_zero(b, 16);	/* wakeup_events, bp_type, config1 */
	fxb_u64(b, 0);		/* config2 */
	fxb_u64(b, ev->branch_sample_type);
	fxb_zero(b, attr_len(fx) - (b->len - start));
}

static void put_ids(const struct fixture *fx, struct fx_buf *b, const struct fx_evsel *ev)
{
	for (int cpu = 0; cpu < fx->o.nr_cpus; cpu++)
		fxb_u64(b, evsel_id(fx, ev, cpu));
}

#define MAX_FEATS 16

struct feat {
	unsigned id;
	struct fx_buf b;
};

static struct fx_buf *feat_new(struct writer *w, struct feat *f, int *nr, unsigned id)
{
	struct feat *n = &f[(*nr)++];

	n->id = id;
	memset(&n->b, 0, sizeof(n->b));
	n->b.be = w->fx->o.big_endian;
	return &n->b;
}

static void feat_event_desc(const struct fixture *fx, struct fx_buf *b)
{
	uint32_t size_field = fx->o.attr_size_field ? fx->o.attr_size_field : attr_len(fx);

	fxb_u32(b, (uint32_t)nr_out_evsels(fx));
	fxb_u32(b, attr_len(fx));
	for (int i = 0; i < nr_out_evsels(fx); i++) {
		const struct fx_evsel *ev = out_evsel(fx, i);

		put_attr(fx, b, ev, fx->o.pipe ? attr_len(fx) : size_field);
		fxb_u32(b, (uint32_t)fx->o.nr_cpus);
		fxb_str64(b, ev->name);
		put_ids(fx, b, ev);
	}
}

/* the tracepoints in evsel order, for the tracing blob */
static uint8_t *tracing_blob(const struct fixture *fx, size_t *len)
{
	int list[FIXTURE_MAX_EVSELS];
	size_t nr = 0;

	for (int i = 0; i < fx->nr_ev; i++)
		if (fx->ev[i].tp >= 0)
			list[nr++] = fx->ev[i].tp;
	*len = 0;
	return nr ? fx_tracing_blob(&fx->fl, list, nr, len) : NULL;
}

static void feat_strings(struct writer *w, struct feat *f, int *nr)
{
	const struct fixture_opts *o = &w->fx->o;
	static const char *const argv[] = { "/usr/bin/perf", "sched", "record", "-o",
					    "fixture.data", "--", "true" };
	struct fx_buf *b;

	fxb_str64(feat_new(w, f, nr, FEAT_HOSTNAME), "fixture");
	fxb_str64(feat_new(w, f, nr, FEAT_OSRELEASE),
		  o->kernel == FIXTURE_KERNEL_6_1 ? "6.1.0-50-fixture" : "6.18.0-fixture");
	fxb_str64(feat_new(w, f, nr, FEAT_VERSION), "6.1.176");
	fxb_str64(feat_new(w, f, nr, FEAT_ARCH), o->arch);
	b = feat_new(w, f, nr, FEAT_NRCPUS);
	fxb_u32(b, (uint32_t)o->nr_cpus);		/* available */
	fxb_u32(b, (uint32_t)o->nr_cpus);		/* online */
	fxb_str64(feat_new(w, f, nr, FEAT_CPUDESC), "Fixture CPU @ 1.00GHz");
	fxb_u64(feat_new(w, f, nr, FEAT_TOTAL_MEM), 1048576);	/* kB */
	b = feat_new(w, f, nr, FEAT_CMDLINE);
	fxb_u32(b, sizeof(argv) / sizeof(argv[0]));
	for (size_t i = 0; i < sizeof(argv) / sizeof(argv[0]); i++)
		fxb_str64(b, argv[i]);
}

/* features in increasing id order; the tracing blob only in file mode */
static int build_features(struct writer *w, struct feat *f, int *nr)
{
	struct fixture *fx = w->fx;
	struct fx_buf *b;

	*nr = 0;
	if (!fx->o.pipe) {
		size_t len;
		uint8_t *blob = tracing_blob(fx, &len);

		if (blob) {
			b = feat_new(w, f, nr, FEAT_TRACING_DATA);
			b->p = blob;
			b->len = b->cap = len;
		}
	}
	feat_strings(w, f, nr);
	feat_event_desc(fx, feat_new(w, f, nr, FEAT_EVENT_DESC));
	b = feat_new(w, f, nr, FEAT_SAMPLE_TIME);
	fxb_u64(b, w->first_sample);
	fxb_u64(b, w->last_sample);
	fxb_u64(feat_new(w, f, nr, FEAT_CLOCKID), 1);	/* clock resolution, ns */
	if (fx->o.compressed) {
		b = feat_new(w, f, nr, FEAT_COMPRESSED);
		fxb_u32(b, 0);				/* version */
		fxb_u32(b, 1);				/* zstd */
		fxb_u32(b, 1);				/* level */
		fxb_u32(b, (uint32_t)(w->zip_bytes ? w->raw_bytes / w->zip_bytes + 1 : 1));
		fxb_u32(b, PERF_MMAP_LEN);		/* perf sizes its output buffer so */
	}
	for (int i = 0; i < *nr; i++)
		if (f[i].b.failed)
			return -1;
	return 0;
}

static void feats_free(struct feat *f, int nr)
{
	for (int i = 0; i < nr; i++)
		free(f[i].b.p);
}

/* ------------------------------------------------------------------ */
/* output: file mode (A.1) and pipe mode (A.2)                          */
/* ------------------------------------------------------------------ */

/* 256 feature bits as the writer's unsigned longs: 4 x u64 or 8 x u32 */
static void put_bitmap(const struct fixture *fx, struct fx_buf *out, const struct feat *f,
		       int nr)
{
	uint64_t words[4] = { 0 };

	for (int i = 0; i < nr; i++)
		words[f[i].id / 64] |= 1ull << (f[i].id % 64);
	for (int i = 0; i < 4; i++) {
		if (fx->o.word_size == 8) {
			fxb_u64(out, words[i]);
		} else {
			fxb_u32(out, (uint32_t)words[i]);
			fxb_u32(out, (uint32_t)(words[i] >> 32));
		}
	}
}

static void file_header(struct writer *w, struct fx_buf *out, uint64_t attrs_off,
			const struct feat *f, int nr)
{
	const struct fixture *fx = w->fx;
	uint64_t attr_size = attr_len(fx) + 16;

	fxb_u64(out, PERF_MAGIC2);
	fxb_u64(out, FILE_HEADER_SIZE);
	fxb_u64(out, attr_size);
	fxb_u64(out, attrs_off);
	fxb_u64(out, attr_size * (uint64_t)nr_out_evsels(fx));
	fxb_u64(out, w->info->data_offset);
	fxb_u64(out, w->info->data_size);
	fxb_u64(out, 0);				/* event_types: obsolete */
	fxb_u64(out, 0);
	put_bitmap(fx, out, f, nr);
}

/* header, id arrays, attrs, data, feature table, feature payloads */
static void assemble_file(struct writer *w, struct fx_buf *out, const struct feat *f, int nr)
{
	const struct fixture *fx = w->fx;
	uint64_t ids_size = 8 * (uint64_t)fx->o.nr_cpus;
	uint64_t attrs_off = FILE_HEADER_SIZE + ids_size * (uint64_t)nr_out_evsels(fx);
	uint32_t size_field = fx->o.attr_size_field ? fx->o.attr_size_field : attr_len(fx);
	uint64_t off;

	w->info->data_offset = attrs_off + (attr_len(fx) + 16) * (uint64_t)nr_out_evsels(fx);
	w->info->data_size = w->data.len;
	file_header(w, out, attrs_off, f, nr);
	for (int i = 0; i < nr_out_evsels(fx); i++)
		put_ids(fx, out, out_evsel(fx, i));
	for (int i = 0; i < nr_out_evsels(fx); i++) {
		put_attr(fx, out, out_evsel(fx, i), size_field);
		fxb_u64(out, FILE_HEADER_SIZE + ids_size * (uint64_t)i);
		fxb_u64(out, ids_size);
	}
	fxb_bytes(out, w->data.p, w->data.len);
	off = out->len + 16 * (uint64_t)nr;
	for (int i = 0; i < nr; i++) {
		fxb_u64(out, off);
		fxb_u64(out, f[i].b.len);
		off += f[i].b.len;
	}
	for (int i = 0; i < nr; i++)
		fxb_bytes(out, f[i].b.p, f[i].b.len);
}

static void pipe_record_head(struct writer *w, struct fx_buf *out, uint32_t type, size_t size)
{
	fxb_u32(out, type);
	fxb_u16(out, 0);
	fxb_u16(out, (uint16_t)size);
	count_record(w, type);
}

/* HEADER_TRACING_DATA: a 16-byte record, then the blob padded to 8 outside it */
static int pipe_tracing(struct writer *w, struct fx_buf *out)
{
	size_t len, padded;
	uint8_t *blob = tracing_blob(w->fx, &len);

	if (!blob)
		return len ? -1 : 0;
	padded = (len + 7) / 8 * 8;
	pipe_record_head(w, out, PERF_RECORD_HEADER_TRACING_DATA, 16);
	fxb_u32(out, (uint32_t)padded);
	fxb_u32(out, 0);
	fxb_bytes(out, blob, len);
	fxb_zero(out, padded - len);
	free(blob);
	return 0;
}

/* EVENT_UPDATE type NAME as perf 6.1 sizes it: 40 + the name padded to 8 */
static void pipe_event_update(struct writer *w, struct fx_buf *out, const struct fx_evsel *ev)
{
	size_t n = strlen(ev->name) + 1, size = 40 + (n + 7) / 8 * 8;

	pipe_record_head(w, out, PERF_RECORD_EVENT_UPDATE, size);
	fxb_u64(out, 2);				/* PERF_EVENT_UPDATE__NAME */
	fxb_u64(out, evsel_id(w->fx, ev, 0));
	fxb_bytes(out, ev->name, n);
	fxb_zero(out, size - 24 - n);
}

/* magic, ATTRs, FEATUREs and their end marker, TRACING_DATA, EVENT_UPDATEs, records */
static int assemble_pipe(struct writer *w, struct fx_buf *out, const struct feat *f, int nr)
{
	const struct fixture *fx = w->fx;

	fxb_u64(out, PERF_MAGIC2);
	fxb_u64(out, 16);
	for (int i = 0; i < nr_out_evsels(fx); i++) {
		pipe_record_head(w, out, PERF_RECORD_HEADER_ATTR,
				 8 + attr_len(fx) + 8 * (size_t)fx->o.nr_cpus);
		put_attr(fx, out, out_evsel(fx, i), attr_len(fx));
		put_ids(fx, out, out_evsel(fx, i));
	}
	for (int i = 0; i < nr; i++) {
		if (16 + f[i].b.len > 0xffff)
			return -1;
		pipe_record_head(w, out, PERF_RECORD_HEADER_FEATURE, 16 + f[i].b.len);
		fxb_u64(out, f[i].id);
		fxb_bytes(out, f[i].b.p, f[i].b.len);
	}
	pipe_record_head(w, out, PERF_RECORD_HEADER_FEATURE, 16);
	fxb_u64(out, FEAT_LAST_61);
	if (pipe_tracing(w, out) < 0)
		return -1;
	for (int i = 0; i < nr_out_evsels(fx); i++)
		pipe_event_update(w, out, out_evsel(fx, i));
	w->info->data_offset = 16;
	w->info->data_size = out->len + w->data.len - 16;
	fxb_bytes(out, w->data.p, w->data.len);
	return 0;
}

/* ------------------------------------------------------------------ */
/* output: entry points                                                 */
/* ------------------------------------------------------------------ */

static void info_init(struct writer *w)
{
	struct fixture *fx = w->fx;
	struct fixture_info *info = w->info;

	memset(info, 0, sizeof(*info));
	info->nr_evsels = nr_out_evsels(fx);
	info->dummy_evsel = fx->nr_ev;
	for (int i = 0; i < info->nr_evsels; i++) {
		snprintf(info->evsel_names[i], sizeof(info->evsel_names[i]), "%s",
			 out_evsel(fx, i)->name);
		info->samples[i] = out_evsel(fx, i)->samples;
	}
	info->lost = fx->lost;
	info->lost_samples = fx->lost_samples;
	info->nr_tids = fx->nr_tasks;
	for (size_t i = 0; i < fx->nr_recs; i++) {
		const struct fx_rec *r = &fx->recs[i];
		bool sample = r->type == PERF_RECORD_SAMPLE;

		if (!r->has_time)
			continue;
		if (!info->first_time || r->time < info->first_time)
			info->first_time = r->time;
		if (r->time > info->last_time)
			info->last_time = r->time;
		if (sample && (!w->first_sample || r->time < w->first_sample))
			w->first_sample = r->time;
		if (sample && r->time > w->last_sample)
			w->last_sample = r->time;
	}
}

int fixture_write_mem(struct fixture *fx, uint8_t **buf, size_t *len, struct fixture_info *info)
{
	struct fixture_info local;
	struct writer w = { .fx = fx, .info = info ? info : &local };
	struct fx_buf out = { .be = fx->o.big_endian };
	struct feat f[MAX_FEATS];
	int nr = 0, ret = -1;

	*buf = NULL;		/* defined on failure too: callers assert, then free */
	*len = 0;
	w.data.be = w.piece.be = fx->o.big_endian;
	info_init(&w);
	if (fx->failed || build_stream(&w) < 0 || build_features(&w, f, &nr) < 0)
		goto out;
	if (fx->o.pipe) {
		if (assemble_pipe(&w, &out, f, nr) < 0)
			goto out;
	} else {
		assemble_file(&w, &out, f, nr);
	}
	if (out.failed)
		goto out;
	w.info->file_size = out.len;
	*buf = out.p;
	*len = out.len;
	out.p = NULL;
	ret = 0;
out:
	free(out.p);
	feats_free(f, nr);
	free(w.data.p);
	free(w.piece.p);
	ZSTD_freeCStream(w.zs);
	return ret;
}

int fixture_write(struct fixture *fx, const char *path, struct fixture_info *info)
{
	uint8_t *buf;
	size_t len;
	FILE *f;
	bool ok;

	if (fixture_write_mem(fx, &buf, &len, info) < 0)
		return -1;
	f = fopen(path, "wb");
	ok = f && fwrite(buf, 1, len, f) == len;
	if (f && fclose(f) != 0)
		ok = false;
	free(buf);
	return ok ? 0 : -1;
}
