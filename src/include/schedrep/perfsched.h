/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/perfsched.h - the analyses perf users know, with perf's names
 * and numbers: 'perf sched latency', 'perf sched timehist', 'perf sched map'
 * and the thread view 'perf script' prints events with. Each is fed the
 * session's events in order and hands back figures, never text; the
 * definitions and where perf's own accounting is off are in
 * docs/perf-commands.md.
 */
#ifndef SCHEDREP_PERFSCHED_H
#define SCHEDREP_PERFSCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/error.h>
#include <schedrep/session.h>
#include <schedrep/select.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Whose accounting to reproduce. perf changed it between 6.1 and 6.12
 * (sched_waking, preempted tasks, task states): schedrep follows the newer
 * one unless asked for 6.1's, which the corpus traces of Debian 12 match.
 */
enum srep_perf_dialect {
	SREP_PERF_6_12 = 0,	/* perf 6.12 (default) */
	SREP_PERF_6_1,		/* perf 6.1 */
};

/* "6.1" or "6.12": 0, else SREP_E_INVAL with a message */
SREP_API int srep_perf_dialect__parse(const char *s, enum srep_perf_dialect *out,
				      struct srep_error *err);
SREP_API const char *srep_perf_dialect__name(enum srep_perf_dialect d);

/* What every analysis here is restricted to (all members optional). */
struct srep_perf_filter {
	const struct srep_selection *sel;	/* resolved; NULL: every task */
	uint64_t from, to;			/* time window; 0 and 0: the whole trace */
	const bool *cpus;			/* cpus[n]: CPU n kept; NULL: every CPU */
	size_t nr_cpus;				/* entries of cpus[]; CPUs beyond are dropped */
};

/*
 * Whether an event passes the filter: its time inside the window (events
 * with no timestamp fall before any window with a start), its CPU in the
 * list (events with no CPU are outside any list), its thread selected. Every command
 * that takes --time and --cpu applies them through this.
 */
SREP_API bool srep_perf_filter__has_event(const struct srep_perf_filter *f,
					  const struct srep_event *ev);

/* ------------------------------------------------------------------ */
/* Threads as perf sees them                                            */
/* ------------------------------------------------------------------ */

/*
 * perf names a thread by the COMM records it read (not by tracepoint comm
 * fields, which differ for kernel workers), a child by its parent's name at
 * the fork, and a thread it never named ":TID". srep_perf_threads follows
 * the same records in event order, so names equal those perf prints.
 */
struct srep_perf_threads;

/*
 * The session's events must be fed in order. perf 6.12 forgets a thread at
 * its EXIT (a later event names it ":TID"), 6.1 does not.
 */
SREP_API int srep_perf_threads__new(struct srep_perf_threads **out, const struct srep_session *s,
				    enum srep_perf_dialect d, struct srep_error *err);
SREP_API void srep_perf_threads__delete(struct srep_perf_threads *pt);	/* NULL is fine */
/* account COMM, EXEC, FORK and EXIT events; 0 or SREP_E_NOMEM */
SREP_API int srep_perf_threads__add(struct srep_perf_threads *pt, const struct srep_event *ev,
				    struct srep_error *err);
/* the name of thread @tid now (":TID" if never named); lives until the next add */
SREP_API const char *srep_perf_threads__comm(struct srep_perf_threads *pt, int32_t tid);

/* ------------------------------------------------------------------ */
/* perf sched latency                                                   */
/* ------------------------------------------------------------------ */

/* the events srep_latency__add() reads (srep_session__set_interest) */
#define SREP_LATENCY_EVENTS (SREP_EV_BIT(SREP_EV_SWITCH) | SREP_EV_BIT(SREP_EV_STAT) | \
			     SREP_EV_BIT(SREP_EV_WAKEUP))

struct srep_latency_opts {
	enum srep_perf_dialect dialect;
	bool per_task;			/* perf's -p: one row per task, not per comm */
	struct srep_perf_filter filter;
};

/* one row of the table, in perf's units (ns) */
struct srep_latency_row {
	const char *comm;		/* as perf names it at the end of the trace */
	int32_t tid;			/* -1 for a row merging several tasks */
	uint32_t nr_tasks;		/* tasks merged (perf's "comm:(N)" when > 1) */
	uint64_t runtime_ns;		/* sum of sched_stat_runtime */
	uint64_t delays;		/* perf's "Switches": switch-ins whose delay was measured */
	uint64_t delay_total_ns, delay_max_ns;
	uint64_t max_start, max_end;	/* when the longest delay began and ended (perf clock) */
};

/* the TOTAL line and perf's "INFO:" counts */
struct srep_latency_totals {
	uint64_t runtime_ns, delays;	/* over the rows */
	uint64_t switch_bugs;		/* switches out of a task the CPU was not running */
	uint64_t timestamps;		/* wakeups (and migrations) perf checked */
	uint64_t unordered;		/* of which came before the task's switch-out */
	uint64_t lost, records;		/* events lost (LOST records) and records read */
	uint64_t lost_chunks;		/* LOST records */
	uint64_t switches;		/* sched_switch events accounted */
};

struct srep_latency;

SREP_API int srep_latency__new(struct srep_latency **out, const struct srep_session *s,
			       const struct srep_latency_opts *o, struct srep_error *err);
SREP_API void srep_latency__delete(struct srep_latency *l);	/* NULL is fine */
/* account one event (in the session's order); 0 or SREP_E_NOMEM */
SREP_API int srep_latency__add(struct srep_latency *l, const struct srep_event *ev,
			       struct srep_error *err);
/*
 * After the last event: build the rows sorted by @sort, perf's keys
 * separated by commas ("avg,max,switch,runtime" = perf's default when
 * NULL; also "pid"). 0, SREP_E_INVAL for an unknown key, SREP_E_NOMEM.
 */
SREP_API int srep_latency__finish(struct srep_latency *l, const char *sort, struct srep_error *err);
SREP_API size_t srep_latency__nr_rows(const struct srep_latency *l);
SREP_API const struct srep_latency_row *srep_latency__row(const struct srep_latency *l, size_t idx);
SREP_API const struct srep_latency_totals *srep_latency__totals(const struct srep_latency *l);

/* ------------------------------------------------------------------ */
/* perf sched timehist                                                  */
/* ------------------------------------------------------------------ */

/* the events srep_timehist__add() reads (srep_session__set_interest) */
#define SREP_TIMEHIST_EVENTS (SREP_EV_BIT(SREP_EV_SWITCH) | SREP_EV_BIT(SREP_EV_WAKEUP) | \
			      SREP_EV_BIT(SREP_EV_MIGRATE) | SREP_EV_BIT(SREP_EV_LOST))

struct srep_timehist_opts {
	enum srep_perf_dialect dialect;
	bool wakeups;			/* -w: a line per wakeup */
	bool migrations;		/* -M: a line per migration */
	bool idle_hist;			/* -I: only idle time, charged to the task before it */
	bool state;			/* --state: the raw prev_state is needed (dialect 6.1) */
	struct srep_perf_filter filter;
};

enum srep_timehist_kind {
	SREP_TH_SWITCH = 1,		/* a task (or idle) left a CPU */
	SREP_TH_WAKEUP,
	SREP_TH_MIGRATE,
	SREP_TH_LOST,
};

/* one line of output; strings live until the next srep_timehist__add() */
struct srep_timehist_line {
	enum srep_timehist_kind kind;
	uint64_t time;
	int32_t cpu;
	bool idle;			/* the line is about a CPU's idle task */
	const char *task;		/* "comm[tid/pid]", "comm[tid]" or "<idle>" */
	int32_t tid, pid;
	uint64_t wait_ns, delay_ns, run_ns;	/* SWITCH */
	char state;			/* SWITCH: the state letter perf prints */
	const char *other;		/* WAKEUP: awakened, MIGRATE: migrated task */
	int32_t orig_cpu, dest_cpu;	/* MIGRATE */
	uint64_t lost;			/* LOST */
};

/* one row of the summary (-s) */
struct srep_timehist_task {
	const char *task;		/* as in lines */
	int32_t tid, ppid;		/* ppid: the parent perf saw fork it, -1 unknown */
	bool dead;			/* exited (perf 6.1 lists them apart) */
	uint64_t count;			/* sched-ins (runs) */
	uint64_t run_ns, min_ns, max_ns;
	double mean_ns, stddev_pct;	/* of the runs; stddev relative to the mean, % */
	uint64_t migrations;
	uint64_t sleep_ns, iowait_ns, preempt_ns, delay_ns;
};

struct srep_timehist_totals {
	uint64_t tasks, switches, run_ns;
	uint64_t span_ns;		/* first to last switch in the window */
	int32_t max_cpu;		/* perf's "(x N)" */
	bool idle_valid;		/* false when tasks were filtered out (perf omits idle stats) */
};

struct srep_timehist;

SREP_API int srep_timehist__new(struct srep_timehist **out, const struct srep_session *s,
				const struct srep_timehist_opts *o, struct srep_error *err);
SREP_API void srep_timehist__delete(struct srep_timehist *th);	/* NULL is fine */
/*
 * Account one event; *line is filled and 1 returned when perf prints a line
 * for it, else 0; SREP_E_NOMEM.
 */
SREP_API int srep_timehist__add(struct srep_timehist *th, const struct srep_event *ev,
				struct srep_timehist_line *line, struct srep_error *err);
/* perf's task column width: 30, or the longest name formatted so far */
SREP_API int srep_timehist__comm_width(const struct srep_timehist *th);
/* after the last event: the summary rows, in perf's order; 0 or SREP_E_NOMEM */
SREP_API int srep_timehist__finish(struct srep_timehist *th, struct srep_error *err);
SREP_API size_t srep_timehist__nr_tasks(const struct srep_timehist *th);
SREP_API const struct srep_timehist_task *srep_timehist__task(const struct srep_timehist *th,
							       size_t idx);
/* CPUs whose idle time is known: 0..nr-1; *idle_ns and *runs of CPU @cpu */
SREP_API size_t srep_timehist__nr_cpus(const struct srep_timehist *th);
SREP_API void srep_timehist__idle(const struct srep_timehist *th, size_t cpu, uint64_t *idle_ns,
				  uint64_t *runs);
SREP_API const struct srep_timehist_totals *srep_timehist__totals(const struct srep_timehist *th);

/* ------------------------------------------------------------------ */
/* perf sched map                                                       */
/* ------------------------------------------------------------------ */

/* the events srep_schedmap__add() reads (srep_session__set_interest) */
#define SREP_SCHEDMAP_EVENTS SREP_EV_BIT(SREP_EV_SWITCH)

struct srep_schedmap_opts {
	enum srep_perf_dialect dialect;
	bool compact;			/* columns only for CPUs that switched, in that order */
	int32_t nr_cpus;		/* columns without compact: 0 = the trace's CPU count */
	struct srep_perf_filter filter;	/* cpus: lines of these CPUs only */
};

/* one line: who runs on each column's CPU after a switch */
struct srep_schedmap_line {
	uint64_t time;
	int32_t cpu;			/* the CPU that switched */
	size_t nr_cols;
	const int32_t *col_cpu;		/* CPU of each column */
	const char (*cols)[3];		/* two-letter name per column, "" nothing known yet */
	bool print;			/* false: perf 6.1 prints the columns alone, no time */
	bool named;			/* the name below is new (or the comm changed) */
	const char *name;		/* two letters, ". " for idle */
	const char *comm;
	int32_t tid;
	bool new_cpu;			/* compact: this CPU's first switch, "(CPU n)" */
};

struct srep_schedmap;

SREP_API int srep_schedmap__new(struct srep_schedmap **out, const struct srep_session *s,
				const struct srep_schedmap_opts *o, struct srep_error *err);
SREP_API void srep_schedmap__delete(struct srep_schedmap *m);	/* NULL is fine */
/* 1 and *line for a line, 0 for none; SREP_E_NOMEM. The line lives until the next add. */
SREP_API int srep_schedmap__add(struct srep_schedmap *m, const struct srep_event *ev,
				struct srep_schedmap_line *line, struct srep_error *err);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_PERFSCHED_H */
