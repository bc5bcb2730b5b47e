/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pftrace.h - what the Perfetto protobuf exporter's files share: the
 * writer state, the per-CPU ftrace bundles (pftrace-cpu.c) and the field
 * numbers of Perfetto's protos that we write (read from
 * protos/perfetto/trace/ in google/perfetto; only the numbers are used).
 */
#ifndef SREP_PFTRACE_H
#define SREP_PFTRACE_H

#include "exporter.h"
#include "emit.h"
#include "pbwire.h"
#include "timeline.h"

/* ---- field numbers ---- */
enum {
	PF_TRACE_PACKET = 1,			/* Trace.packet */
	/* TracePacket */
	PF_PKT_FTRACE_EVENTS = 1, PF_PKT_PROCESS_TREE = 2, PF_PKT_CLOCK_SNAPSHOT = 6,
	PF_PKT_TIMESTAMP = 8, PF_PKT_SEQ_ID = 10, PF_PKT_SEQ_FLAGS = 13,
	PF_PKT_INTERNED_DATA = 12, PF_PKT_TRACE_CONFIG = 33, PF_PKT_FTRACE_STATS = 34,
	PF_PKT_SYSTEM_INFO = 45, PF_PKT_PERF_SAMPLE = 66, PF_PKT_FIRST_ON_SEQ = 87,
	/* InternedData */
	PF_ID_FUNCTION_NAMES = 5, PF_ID_FRAMES = 6, PF_ID_CALLSTACKS = 7,
	PF_ID_MAPPING_PATHS = 17, PF_ID_MAPPINGS = 19, PF_ID_KERNEL_SYMBOLS = 26,
	/* FtraceEventBundle */
	PF_BUNDLE_CPU = 1, PF_BUNDLE_EVENT = 2, PF_BUNDLE_LOST = 3, PF_BUNDLE_COMPACT = 4,
	/* FtraceEventBundle.CompactSched */
	PF_CS_SWITCH_TS = 1, PF_CS_SWITCH_PREV_STATE = 2, PF_CS_SWITCH_NEXT_PID = 3,
	PF_CS_SWITCH_NEXT_PRIO = 4, PF_CS_INTERN = 5, PF_CS_SWITCH_NEXT_COMM = 6,
	PF_CS_WAKING_TS = 7, PF_CS_WAKING_PID = 8, PF_CS_WAKING_CPU = 9,
	PF_CS_WAKING_PRIO = 10, PF_CS_WAKING_COMM = 11, PF_CS_WAKING_FLAGS = 12,
	/* FtraceEvent: common fields, then the event (a oneof) */
	PF_EV_TIMESTAMP = 1, PF_EV_PID = 2,
	PF_EV_SCHED_SWITCH = 4, PF_EV_CPU_FREQUENCY = 11, PF_EV_CPU_IDLE = 13,
	PF_EV_SCHED_BLOCKED_REASON = 18,
	PF_EV_SCHED_WAKING = 20, PF_EV_SCHED_WAKEUP_NEW = 114,
	PF_EV_TASK_NEWTASK = 235, PF_EV_TASK_RENAME = 236,
	PF_EV_SCHED_PROCESS_EXEC = 237, PF_EV_SCHED_PROCESS_EXIT = 238,
	PF_EV_SCHED_PROCESS_FORK = 239, PF_EV_SCHED_PROCESS_FREE = 240,
	PF_EV_SCHED_MIGRATE_TASK = 491,
};

/* events of one CPU per bundle: Perfetto's own recorder writes a page's worth */
#define PFT_BUNDLE_EVENTS	2048
/* distinct comms one bundle interns; the bundle is written when half are used */
#define PFT_INTERN_SLOTS	512

/* CompactSched's packed arrays */
enum { CS_SW_TS, CS_SW_STATE, CS_SW_PID, CS_SW_PRIO, CS_SW_COMM,
       CS_WK_TS, CS_WK_PID, CS_WK_CPU, CS_WK_PRIO, CS_WK_COMM, CS_WK_FLAGS, CS_NR };

/* switches and wakings of one timestamp held to see their kinds (pftrace-cpu.c) */
#define PFT_HELD_MAX		256

struct pft_pend {
	bool waking;			/* else a switch */
	uint64_t ts;
	int64_t state;			/* switch: prev_state, encoded */
	int32_t waker;			/* waking: the task that woke */
	union {
		struct srep_switch sw;
		struct srep_wakeup wk;
	} u;
};

/* a comm as the intern table keys it: its first SREP_COMM_MAX - 1 bytes, zero-padded */
#define PFT_COMM_WORDS	((SREP_COMM_MAX - 1 + 7) / 8)

struct pft_intern {
	uint32_t bundle;		/* the bundle it was interned in; another: a free slot */
	uint32_t idx;			/* its index in that bundle's table */
	uint64_t key[PFT_COMM_WORDS];
};

/* a task's comm as last interned on a CPU (pftrace-cpu.c's intern_task()) */
#define PFT_COMM_HITS	256
struct pft_comm_hit {
	uint32_t bundle;		/* valid in this bundle only: 0 none */
	int32_t tid;
	uint32_t idx;
	char comm[SREP_COMM_MAX];
};

/* one CPU: its bundle being filled, and what the next switch must know */
struct pft_cpu {
	struct pbw cs[CS_NR];
	struct pbw intern;		/* CompactSched.intern_table strings */
	struct pbw events;		/* whole FtraceEvent fields of the bundle */
	struct pft_intern *slots;	/* PFT_INTERN_SLOTS, made at first use */
	uint32_t bundle;		/* bundles written so far, + 1 (what slots hold) */
	struct pft_comm_hit hits[PFT_COMM_HITS];
	uint32_t nr_interned, nr_events;
	uint64_t last_sw, last_wk;	/* delta bases; 0 none yet in this bundle */
	struct pft_pend *pend;		/* PFT_HELD_MAX, made at first use */
	size_t nr_pend;			/* held, all at one timestamp */
	struct pft_pend now;		/* one to write at once, not held */
	bool now_whole;			/* and whether a switch there goes whole */
	uint64_t tie_ts;		/* the CPU's latest timestamp */
	bool tie_whole;			/* something went whole at it: the rest do too */
	uint64_t sw_written;		/* the time of the last switch written */
	bool sw_written_whole;		/* and whether it went whole */
	int32_t cur_tid;		/* the task the last switch written put here, -1 none */
	int32_t next_tid;		/* the same for the last switch given, written or held */
	uint64_t switched;		/* the time of that switch */
	struct pbw ksyms;		/* the bundle's InternedData.kernel_symbols */
	uint8_t *ksym_seen;		/* a bit per kernel symbol id those hold */
	bool lost;			/* losses since the last bundle */
	uint64_t lost_events;		/* LOST records' counts on this CPU */
};

struct pft {
	const struct srep_export_ctx *ctx;
	struct emit out;
	struct pbw pkt;			/* the packet being built */
	/* by CPU number, NULL for one not seen: a damaged number costs a pointer, not a state */
	struct pft_cpu **cpus;
	size_t nr_cpus;
	struct timeline tl;		/* when each task was last seen: to fill gaps */
	int kernel[2];			/* major, minor: how prev_state is encoded */
	uint64_t first_time, last_time;
	bool stat_unread;		/* sched_stat_* left unread (stat_unread()) */
	bool first_packet_done;
	bool cmdline_done;		/* perf's command line written */
	bool nomem;
	struct pft_stacks *stacks;	/* callstack interning (pftrace-stacks.c), made at first use */
	struct pft_ksyms *ksyms;	/* kernel symbol ids (pftrace-blocked.c), made at first use */
};

/* ---- pftrace-cpu.c: the per-CPU bundles ---- */

struct pft_cpu *pft_cpu_grow(struct pft *p, int32_t cpu);
/* CPU @cpu's state (grown on demand); NULL for a negative CPU or no memory */
static inline struct pft_cpu *pft_cpu(struct pft *p, int32_t cpu)
{
	return cpu >= 0 && (size_t)cpu < p->nr_cpus && p->cpus[cpu] ? p->cpus[cpu] :
	       pft_cpu_grow(p, cpu);
}
/* one of @c's buffers could not grow */
bool pft_cpu_nomem(const struct pft_cpu *c);
/* a switch: compact when Perfetto can infer prev from the CPU's last switch */
void pft_switch(struct pft *p, int32_t cpu, uint64_t ts, const struct srep_switch *sw,
		int64_t prev_state);
/* a wakeup by @waker (running on @cpu): compact when that is the CPU's current task */
void pft_waking(struct pft *p, int32_t cpu, uint64_t ts, int32_t waker,
		const struct srep_wakeup *wk);
/* a whole FtraceEvent of @cpu's bundle: its event message is open between these */
size_t pft_event_begin(struct pft *p, int32_t cpu, uint64_t ts, int32_t pid, uint32_t field,
		       size_t *outer);
void pft_event_end(struct pft *p, int32_t cpu, size_t inner, size_t outer);
/* write what is held and @cpu's bundle out: at the end */
void pft_finish_cpu(struct pft *p, size_t cpu);
void pft_free_cpus(struct pft *p);
/* FNV-1a of a string: the intern tables' (comms per bundle, kernel symbols) */
uint32_t pft_str_hash(const char *s);

/* ---- pftrace-stacks.c: callchains as Perfetto callstack samples ---- */
struct pft_stacks;
/* a PerfSample packet with the event's resolved callchain (ctx->symbols set) */
void pft_stack_sample(struct pft *p, const struct srep_event *ev, int32_t cpu);
void pft_stacks_free(struct pft_stacks *s);	/* NULL is fine */

/* ---- pftrace-blocked.c: where sleeping tasks blocked ---- */
struct pft_ksyms;
/* a sched_blocked_reason for a switch-out into a sleep whose callchain names the kernel function */
void pft_blocked_reason(struct pft *p, const struct srep_event *ev, int32_t cpu);
/* @c's bundle written: its kernel symbols go with the next one again */
void pft_ksyms_bundle_done(struct pft_cpu *c);
void pft_ksyms_free(struct pft_ksyms *k);	/* NULL is fine */

/* ---- pftrace.c: packets ---- */
/* a new packet in p->pkt, on our one sequence */
void pft_packet_begin(struct pft *p, uint64_t ts);
void pft_packet_end(struct pft *p);
bool pft_nomem(const struct pft *p);

#endif /* SREP_PFTRACE_H */
