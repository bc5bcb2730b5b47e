// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtapp_write.c - a scaled replay plan as an rt-app 1.0 workload (JSON).
 *
 * One entry of "tasks" per planned task, in plan order: its name
 * (rtapp_names.c); with --keep-prio its policy and priority; with
 * --cpu-map the host CPUs its bursts map to; "loop": 1 (rt-app repeats a
 * task's events forever unless told); then one phase of events:
 *
 *   lock "mN"       for every wakeup N the task will wait for, then
 *   barrier "start" (every task), and a sleep for its start time;
 *   RUN         "run": the burst in µs of rt-app's calibrated loop: an
 *               amount of work, so being preempted does not shorten it;
 *               consecutive bursts (split by a fork or a migration) are one
 *   SLEEP       "sleep": µs
 *   WAIT N      wait {ref "cN", mutex "mN"}, unlock "mN": releases mN
 *               and sleeps on cN at once (pthread_cond_wait)
 *   WAKE N      lock "mN", unlock "mN", signal "cN": the lock returns only
 *               once the wakee sleeps on cN, so the signal always finds it
 *   SPAWN       nothing: the child starts after its own sleep
 *   EXIT        the end of the task's events
 *
 * Why a handshake: the trace says the wakee slept when its waker woke it,
 * and a wakeup the replay should show needs a sleeping wakee. rt-app 1.0's
 * resume is a condition broadcast without memory (lost when it comes
 * first, and the wakee then sleeps until the run is stopped); a mutex the
 * waker held from the start (the first remedy) is never lost, but a wakee
 * that runs late reaches it unlocked and does not sleep: on the x86_64
 * messaging trace only 534 of the 931 recorded wakeups happened, 422 of
 * 1290 on arm64. With the handshake 928 and 1248 did, waker to wakee. The
 * price: a waker that comes first waits for its wakee (a wakeup the other
 * way). The barrier "start" makes every wakee hold its mutexes before a
 * waker asks for one; for that the start time is a sleep after it, not
 * rt-app's "delay" (which comes before a task's first event). Every
 * wakeup pairs an earlier recorded point of each task with later ones, in
 * the recorded order, so the handshakes cannot deadlock; a run stopped by
 * "duration" still ends: rt-app wakes every condition and goes on through
 * the lock and unlock events of a task holding a mutex.
 *
 * Durations are whole µs. Per task the running sums of recorded CPU and of
 * recorded sleep are scaled and rounded, and each event gets the
 * difference, so a task's totals are exact to half a µs however many
 * events it has. --event-cost: rt-app spends CPU of its own on each wait,
 * wake and written sleep (futex and nanosleep calls, the switches), added
 * to the bursts around it; the running sum of CPU is less that cost for
 * every such event so far, so the cost comes off the burst before the
 * event, a burst too short leaves the rest to the next ones, and no run
 * is below 0.
 */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtapp.h"

#define RTAPP_INT_MAX 2147483647u	/* rt-app reads every number as an int */

struct writer {
	struct emit *e;
	const struct rp_plan *p;
	const struct rtapp_opts *o;
	char (*names)[RTAPP_NAME_MAX + 1];
	/* the task being written */
	unsigned key;			/* events so far: keys never repeat ("run12") */
	uint64_t run_rec, run_us;	/* recorded CPU so far (ns), written so far (µs) */
	uint64_t sleep_rec, sleep_us;
	uint64_t cost_ns;		/* --event-cost of the task's events so far */
	double loop_k;			/* the file's ns per loop / --calibration's */
};

static void emit_double(struct emit *e, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.15g", v);
	emit_cstr(e, buf);
}

/* "KINDn" */
static void event_key(struct writer *w, const char *kind)
{
	emit_lit(w->e, ",\n\t\t\t\t\t\"");
	emit_cstr(w->e, kind);
	emit_u64(w->e, w->key++);
	emit_lit(w->e, "\": ");
}

static void event_us(struct writer *w, const char *kind, uint64_t us)
{
	uint64_t part;

	while (us) {
		part = us > RTAPP_INT_MAX ? RTAPP_INT_MAX : us;
		event_key(w, kind);
		emit_u64(w->e, part);
		us -= part;
	}
}

/* "KINDn": "mN" (the mutex of wakeup N) or "cN" (its condition) */
static void event_resource(struct writer *w, const char *kind, const char *res, uint32_t id)
{
	event_key(w, kind);
	emit_char(w->e, '"');
	emit_cstr(w->e, res);
	emit_u64(w->e, id);
	emit_char(w->e, '"');
}

/* "waitn": {"ref": "cN", "mutex": "mN"}: releases mN and sleeps, at once */
static void event_wait(struct writer *w, uint32_t id)
{
	event_key(w, "wait");
	emit_lit(w->e, "{ \"ref\": \"c");
	emit_u64(w->e, id);
	emit_lit(w->e, "\", \"mutex\": \"m");
	emit_u64(w->e, id);
	emit_lit(w->e, "\" }");
}

/* the µs to add so that 'written' reaches the scaled running sum */
static uint64_t due_us(uint64_t rec_sum, double factor, uint64_t *written)
{
	uint64_t total = rp_scale__ns(rec_sum, factor * 1000.0), d;

	d = total > *written ? total - *written : 0;
	*written += d;
	return d;
}

/*
 * The bursts since the last event, as one "run": the scaled CPU so far less
 * the cost of the events so far (--event-cost), rounded, less what was
 * written. Never negative: a deficit (events that cost more than the CPU
 * before them) is taken from the next bursts.
 */
static void flush_run(struct writer *w)
{
	/* as rp_scale__ns(run_rec, scale_run * 1000) when no cost: the same rounding */
	double q = ((double)w->run_rec / (w->p->scale_run * 1000.0) - (double)w->cost_ns / 1000.0)
		   * w->loop_k + 0.5;
	uint64_t due = q < 1.0 ? 0 : q >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)q;

	due = due > w->run_us ? due - w->run_us : 0;
	w->run_us += due;
	event_us(w, "run", due);
}

/* an event that costs rt-app CPU of its own: its cost comes off the bursts before it */
static void end_burst(struct writer *w)
{
	w->cost_ns += (uint64_t)w->o->event_cost;
	flush_run(w);
}

static void write_action(struct writer *w, const struct rp_action *a)
{
	uint64_t us;

	switch (a->kind) {
	case RP_RUN:
		w->run_rec += a->rec_ns;
		return;
	case RP_SLEEP:
		w->sleep_rec += a->rec_ns;
		us = due_us(w->sleep_rec, w->p->scale_sleep, &w->sleep_us);
		if (us)
			end_burst(w);
		else		/* a sleep of 0 µs is not written: no event, no cost */
			flush_run(w);
		event_us(w, "sleep", us);
		return;
	case RP_WAIT:
		end_burst(w);
		event_wait(w, a->id);
		event_resource(w, "unlock", "m", a->id);
		return;
	case RP_WAKE:
		end_burst(w);
		event_resource(w, "lock", "m", a->id);
		event_resource(w, "unlock", "m", a->id);
		event_resource(w, "signal", "c", a->id);
		return;
	default:	/* SPAWN: the child has its own start; EXIT: the events end */
		return;
	}
}

static void write_policy(struct writer *w, const struct rp_task *t)
{
	int32_t v = 0;

	switch (w->o->run.keep_prio ? rp_prio__policy(t->prio, &v) : RP_POLICY_NONE) {
	case RP_POLICY_FIFO:
		emit_lit(w->e, ",\n\t\t\t\"policy\": \"SCHED_FIFO\"");
		break;
	case RP_POLICY_OTHER:
		emit_lit(w->e, ",\n\t\t\t\"policy\": \"SCHED_OTHER\"");
		break;
	default:
		return;
	}
	emit_lit(w->e, ",\n\t\t\t\"priority\": ");
	emit_i64(w->e, v);
}

/*
 * --cpu-map: the host CPUs the task's bursts map to. rt-app 1.0 sets the
 * affinity per phase, and a run stopped by "duration" leaves the mutexes of
 * later phases locked: one phase per task, pinned to the union. Nothing is
 * written when a burst's CPU is not in the map (that burst is not pinned).
 */
/* the host CPUs of every burst, false when one is not in the map (not pinned) */
static int mapped_cpus(struct writer *w, const struct rp_task *t, cpu_set_t *set, bool *all)
{
	const struct rp_run_opts *m = &w->o->run;
	struct rp_cursor c;
	struct rp_action a;
	int ret;

	*all = true;
	CPU_ZERO(set);
	rp_cursor__init(&c, w->p, t);
	while ((ret = rp_cursor__next(&c, &a)) > 0) {
		if (a.kind != RP_RUN)
			continue;
		if (a.cpu < 0 || (size_t)a.cpu >= m->nr_map || m->map[a.cpu] < 0) {
			*all = false;
			break;
		}
		CPU_SET((size_t)m->map[a.cpu], set);
	}
	rp_cursor__fini(&c);
	return ret < 0 ? ret : 0;
}

/*
 * --cpu-map: the host CPUs the task's bursts map to. rt-app 1.0 sets the
 * affinity per phase, and a run stopped by "duration" leaves the mutexes of
 * later phases locked: one phase per task, pinned to the union. Nothing is
 * written when a burst's CPU is not in the map (that burst is not pinned).
 */
static int write_cpus(struct writer *w, const struct rp_task *t)
{
	const char *sep = ",\n\t\t\t\"cpus\": [";
	cpu_set_t set;
	bool all;
	size_t i;
	int ret;

	if (w->o->run.cpu_map != RP_CPU_MAP_LIST)
		return 0;
	ret = mapped_cpus(w, t, &set, &all);
	if (ret || !all)
		return ret;
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, &set)) {
			emit_cstr(w->e, sep);
			emit_u64(w->e, i);
			sep = ", ";
		}
	}
	if (CPU_COUNT(&set))
		emit_char(w->e, ']');
	return 0;
}

/* the mutex of every wakeup the task waits for, the common start, then its own start time */
static int write_prelude(struct writer *w, const struct rp_task *t)
{
	struct rp_cursor c;
	struct rp_action a;
	int ret;

	emit_lit(w->e, "\t\t\t\t\"p0\": {\n\t\t\t\t\t\"loop\": 1");
	rp_cursor__init(&c, w->p, t);
	while ((ret = rp_cursor__next(&c, &a)) > 0) {
		if (a.kind == RP_WAIT)
			event_resource(w, "lock", "m", a.id);
	}
	rp_cursor__fini(&c);
	event_key(w, "barrier");
	emit_lit(w->e, "\"start\"");
	event_us(w, "sleep", (t->start_off + 500) / 1000);
	return ret;
}

static int write_actions(struct writer *w, const struct rp_task *t)
{
	struct rp_cursor c;
	struct rp_action a;
	int ret;

	rp_cursor__init(&c, w->p, t);
	while ((ret = rp_cursor__next(&c, &a)) > 0)
		write_action(w, &a);
	rp_cursor__fini(&c);
	return ret;
}

static int write_task(struct writer *w, size_t ti)
{
	const struct rp_task *t = &w->p->tasks[ti];
	int ret;

	if (ti)
		emit_lit(w->e, ",\n");
	emit_lit(w->e, "\t\t");
	emit_json_cstr(w->e, w->names[ti]);
	emit_lit(w->e, ": {\n\t\t\t\"loop\": 1");
	write_policy(w, t);
	ret = write_cpus(w, t);
	if (ret)
		return ret;
	emit_lit(w->e, ",\n\t\t\t\"phases\": {\n");
	w->key = 0;
	w->run_rec = w->run_us = w->sleep_rec = w->sleep_us = w->cost_ns = 0;
	ret = write_prelude(w, t);
	if (!ret)
		ret = write_actions(w, t);
	if (ret)
		return ret;
	flush_run(w);
	emit_lit(w->e, "\n\t\t\t\t}\n\t\t\t}\n\t\t}");
	return 0;
}

/*
 * rt-app 1.0 reads a whole number of ns per loop: --calibration rounded.
 * A fraction is kept by the runs, in µs of that rounded loop: a run of N µs
 * at c ns per loop is N * round(c) / c µs in the file, the same loops.
 */
static uint64_t calibration_ns(const struct rtapp_opts *o)
{
	uint64_t ns = (uint64_t)(o->calibration + 0.5);

	return ns ? ns : 1;
}

/* seconds: the scaled span, rounded up, and one more for tasks running late */
static int64_t duration_s(const struct writer *w)
{
	if (w->o->duration)
		return w->o->duration;
	return (int64_t)((w->p->expected_span + 999999999u) / 1000000000u) + 1;
}

static void write_global(struct writer *w)
{
	emit_lit(w->e, "{\n\t\"global\": {\n\t\t\"duration\": ");
	emit_i64(w->e, duration_s(w));
	emit_lit(w->e, ",\n\t\t\"calibration\": ");
	if (w->o->calibration)
		emit_u64(w->e, calibration_ns(w->o));
	else
		emit_lit(w->e, "\"CPU0\"");
	emit_lit(w->e, ",\n\t\t\"default_policy\": \"SCHED_OTHER\",\n\t\t\"lock_pages\": false"
		 ",\n\t\t\"logdir\": ");
	emit_json_cstr(w->e, w->o->log_dir ? w->o->log_dir : ".");
	emit_lit(w->e, ",\n\t\t\"log_basename\": \"rt-app\"\n\t},\n\t\"tasks\": {\n");
}

/* ignored by rt-app: where each task comes from, for people and scripts */
static void write_origin(struct writer *w)
{
	const struct rp_task *t;
	size_t i;

	emit_lit(w->e, "\n\t},\n\t\"schedrep\": {\n\t\t\"format\": \"schedrep-rtapp\", "
		 "\"version\": 1,\n\t\t\"scale_run\": ");
	emit_double(w->e, w->p->scale_run);
	emit_lit(w->e, ", \"scale_sleep\": ");
	emit_double(w->e, w->p->scale_sleep);
	emit_lit(w->e, ",\n\t\t\"tasks\": {");
	for (i = 0; i < w->p->nr_tasks; i++) {
		t = &w->p->tasks[i];
		if (i)
			emit_char(w->e, ',');
		emit_lit(w->e, "\n\t\t\t");
		emit_json_cstr(w->e, w->names[i]);
		emit_lit(w->e, ": { \"tid\": ");
		emit_i64(w->e, t->tid);
		emit_lit(w->e, ", \"pid\": ");
		emit_i64(w->e, t->pid);
		emit_lit(w->e, ", \"comm\": ");
		emit_json_cstr(w->e, t->comm);
		emit_lit(w->e, " }");
	}
	emit_lit(w->e, "\n\t\t}\n\t}\n}\n");
}

int rtapp_write(struct emit *e, const struct rp_plan *p, const struct rtapp_opts *o,
		struct srep_error *err)
{
	struct writer w = { .e = e, .p = p, .o = o, .loop_k = 1.0 };
	size_t i;
	int ret = 0;

	if (o->calibration)
		w.loop_k = (double)calibration_ns(o) / o->calibration;
	if (rtapp_names(p, &w.names, err))
		return -1;
	write_global(&w);
	for (i = 0; i < p->nr_tasks && !ret; i++)
		ret = write_task(&w, i);
	if (!ret)
		write_origin(&w);
	free(w.names);
	if (ret)
		return srep_error__set(err, ret, "cannot read back the plan's actions (%s)",
				       ret == SREP_E_NOMEM ? "out of memory" : "temporary file");
	return 0;
}
