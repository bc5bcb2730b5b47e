/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/analysis.h - metrics of one trace, task matching between
 * two traces and their comparison.
 */
#ifndef SCHEDREP_ANALYSIS_H
#define SCHEDREP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/error.h>
#include <schedrep/session.h>
#include <schedrep/select.h>

#ifdef __cplusplus
extern "C" {
#endif

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
SREP_API int srep_metrics__new(struct srep_metrics **out, const struct srep_session *s,
			       struct srep_error *err);
SREP_API void srep_metrics__delete(struct srep_metrics *m);	/* NULL is fine */

/**
 * srep_metrics__add - account one event (in the session's time order)
 * @m: the collector
 * @ev: the event just returned by srep_session__next_event() on its session
 * @err: filled on failure
 *
 * Returns 0 or SREP_E_NOMEM.
 */
SREP_API int srep_metrics__add(struct srep_metrics *m, const struct srep_event *ev,
			       struct srep_error *err);

/**
 * srep_metrics__finish - close what is still open at the last event
 * @m: the collector, after the session's last event
 *
 * Running tasks run, busy CPUs are busy and sleeping tasks sleep until the
 * trace's last event; waits that have not ended are not counted.
 */
SREP_API void srep_metrics__finish(struct srep_metrics *m);

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
SREP_API int srep_metrics__tasks(const struct srep_metrics *m, const struct srep_task *const *tasks,
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
SREP_API void srep_metrics__set_symbolizer(struct srep_metrics *m, struct srep_symbolizer *sy);

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
SREP_API size_t srep_metrics__blocking(const struct srep_metrics *m,
				       const struct srep_task *const *tasks, size_t nr,
				       struct srep_block_site *out, size_t max);

struct srep_cpu_metrics {
	uint64_t busy_ns;	/* a task other than the idle task ran */
	uint64_t idle_ns;	/* the idle task ran */
	uint64_t unknown_ns;	/* nothing known ran (per-task SWITCH records) */
	size_t nr_freqs;	/* frequencies seen (cpu_frequency events) */
};

/* CPUs 0 .. n-1 (the highest CPU that had an event, plus one) */
SREP_API size_t srep_metrics__nr_cpus(const struct srep_metrics *m);
/* returns 0, or SREP_E_INVAL for a CPU out of range */
SREP_API int srep_metrics__cpu(const struct srep_metrics *m, int32_t cpu,
			       struct srep_cpu_metrics *out);
/* frequency residency: the idx-th frequency (ascending kHz) and the time spent at it */
SREP_API int srep_metrics__cpu_freq(const struct srep_metrics *m, int32_t cpu, size_t idx,
				    uint64_t *khz, uint64_t *ns);

/*
 * A coarse per-CPU timeline for charts: the trace is cut into *nr bins of
 * *bin_ns from *start (the bin width doubles as the trace grows, so there
 * are at most SREP_TIMELINE_BINS). Per bin: busy time and the task that ran
 * longest in one stretch there (NULL if none).
 */
#define SREP_TIMELINE_BINS 1024
SREP_API void srep_metrics__timeline(const struct srep_metrics *m, uint64_t *start,
				     uint64_t *bin_ns, size_t *nr);
SREP_API int srep_metrics__timeline_bin(const struct srep_metrics *m, int32_t cpu, size_t bin,
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
SREP_API void srep_metrics__workload(const struct srep_metrics *m, const struct srep_selection *sel,
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
SREP_API int srep_match_mode__parse(const char *name, enum srep_match_mode *out,
				    struct srep_error *err);
SREP_API const char *srep_match_mode__name(enum srep_match_mode mode);

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
SREP_API int srep_matching__new(struct srep_matching **out, enum srep_match_mode mode,
				const struct srep_session *a, const struct srep_selection *sel_a,
				const struct srep_session *b, const struct srep_selection *sel_b,
				struct srep_error *err);
SREP_API void srep_matching__delete(struct srep_matching *mt);
SREP_API size_t srep_matching__nr_pairs(const struct srep_matching *mt);
/* side 0 = A, 1 = B: the tasks of pair idx (one, or a comm's group); returns their number */
SREP_API size_t srep_matching__pair(const struct srep_matching *mt, size_t idx, int side,
				    const struct srep_task *const **tasks);
SREP_API size_t srep_matching__nr_unmatched(const struct srep_matching *mt, int side);
SREP_API const struct srep_task *srep_matching__unmatched(const struct srep_matching *mt, int side,
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
SREP_API void srep_diff__set(struct srep_diff *d, const char *metric, enum srep_unit unit,
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
SREP_API int srep_compare__new(struct srep_compare **out, const struct srep_compare_side *a,
			       const struct srep_compare_side *b, enum srep_match_mode mode,
			       struct srep_error *err);
SREP_API void srep_compare__delete(struct srep_compare *c);
SREP_API const struct srep_matching *srep_compare__matching(const struct srep_compare *c);
/* whole workload: makespan, cpu_time, switches, tasks, lost */
SREP_API const struct srep_diff *srep_compare__workload(const struct srep_compare *c, size_t *nr);
/* per CPU (0 .. nr_cpus-1, the union of both sides): busy, idle, utilisation, freq_<kHz> */
SREP_API size_t srep_compare__nr_cpus(const struct srep_compare *c);
SREP_API const struct srep_diff *srep_compare__cpu(const struct srep_compare *c, size_t cpu,
						   size_t *nr);
/* per matched pair (matching order): the task metrics of docs/compare.md */
SREP_API const struct srep_diff *srep_compare__pair(const struct srep_compare *c, size_t pair,
						    size_t *nr);
/* the metrics of pair 'pair' on one side (0 = A, 1 = B), unscaled */
SREP_API const struct srep_task_metrics *srep_compare__pair_metrics(const struct srep_compare *c,
								    size_t pair, int side);

/* one row of the per-task table: a pair and one of its metrics */
struct srep_compare_row {
	size_t pair;
	const struct srep_diff *diff;
};

/* every (pair, metric) row: significant ones first; in each part durations
 * first, largest |B-A| first, then counts and shares, widest first */
SREP_API const struct srep_compare_row *srep_compare__rows(const struct srep_compare *c,
							   size_t *nr);
/* how many differences are significant (workload, CPUs and pairs) */
SREP_API size_t srep_compare__nr_significant(const struct srep_compare *c);

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
SREP_API const struct srep_block_row *srep_compare__blocking(const struct srep_compare *c,
							     size_t pair, size_t *nr);

/* ------------------------------------------------------------------ */
/* Repeated runs (runs.c): several traces per board                     */
/* ------------------------------------------------------------------ */

/* runs per side the exact test takes (it counts C(na + nb, na) splits) */
#define SREP_RUNS_MAX		12
/* a difference is significant when the test's two-sided p is at most this */
#define SREP_RUNS_ALPHA		0.05

/**
 * srep_mann_whitney - exact two-sided Mann-Whitney U test
 * @a, @na, @b, @nb: the two samples, 1 to SREP_RUNS_MAX values each
 * @u: U of @a: the pairs (x in a, y in b) with x > y, ties counting 1/2
 * @p: the probability, over every split of the pooled values into groups of
 *     @na and @nb, of a rank sum as far from its mean as the observed one or
 *     farther (ties get mid-ranks; without ties this is scipy's
 *     mannwhitneyu(method="exact") p)
 * @err: filled on failure
 *
 * Returns 0, SREP_E_INVAL (sizes) or SREP_E_NOMEM.
 */
SREP_API int srep_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
			       double *p, struct srep_error *err);
/* the smallest p the test can give with these sizes: 2 / C(na + nb, na), at most 1 */
SREP_API double srep_mann_whitney__min_p(size_t na, size_t nb);

/* one metric (of the whole workload or of one comm) over the runs */
struct srep_runs_stat {
	const char *group;		/* "workload" or a comm */
	const char *metric;		/* "cpu_time", "wait_p95", ... */
	enum srep_unit unit;
	const double *values[2];	/* each run's value, A's and B's (scaled) */
	size_t n[2];
	double median[2], min[2], max[2];
	double diff;			/* median B - median A */
	double u, p;			/* srep_mann_whitney() of A's values against B's */
	bool significant;		/* p <= SREP_RUNS_ALPHA */
};

struct srep_runs;

SREP_API int srep_runs__new(struct srep_runs **out, struct srep_error *err);
SREP_API void srep_runs__delete(struct srep_runs *r);	/* NULL is fine */
/*
 * Take one run's figures (side 0 = A, 1 = B): the workload's and, per comm
 * of the selected tasks (the idle task aside), the sum over its tasks. The
 * run's session and metrics may be freed afterwards.
 */
SREP_API int srep_runs__add(struct srep_runs *r, int side, const struct srep_compare_side *run,
			    struct srep_error *err);
/*
 * The statistics of every metric that has a value in every run of both sides
 * (a comm missing from one run is left out: srep_runs__nr_partial()), but
 * those that are 0 in every run.
 * Significant first, then durations before counts, the workload before the
 * comms, largest |B - A| of the medians first.
 */
SREP_API int srep_runs__finish(struct srep_runs *r, struct srep_error *err);
SREP_API const struct srep_runs_stat *srep_runs__stats(const struct srep_runs *r, size_t *nr);
SREP_API size_t srep_runs__nr_runs(const struct srep_runs *r, int side);
SREP_API size_t srep_runs__nr_significant(const struct srep_runs *r);
/* metrics left out because a run lacked them (comms not in every run) */
SREP_API size_t srep_runs__nr_partial(const struct srep_runs *r);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_ANALYSIS_H */
