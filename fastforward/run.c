// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - the fast-forward loop: for each target, let the workload run
 * until the counter's overflow signal (or a periodic read) shows the
 * target reached, stop the tree, disable the counter, read the count, call
 * the action, then enable and resume.
 *
 * A signal is only a hint: with inherit each task has its own counter and
 * period, so an overflow in one thread says that thread ran 'period', not
 * where the sum stands. The decision is always read() of the sum, which the
 * kernel adds up over every inherited counter. The period is the distance
 * left divided by the threads seen at the last stop, so a workload of N
 * busy threads still gets a signal near the target; a read every
 * POLL_MS catches the rest (threads keep the period they were created with).
 *
 * The count never includes the action: the tree is stopped before the
 * counter is disabled and resumed after it is enabled again, so whatever
 * runs in between (criu's parasite code runs inside the workload's own
 * threads) is not counted. What the tree executes between the overflow and
 * the stop is the skid; it is measured, reported, never hidden. --exact
 * aims short of the target by twice the last skid and re-arms for the
 * remainder until the count is within the tolerance.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "ff_local.h"

#define POLL_MS		10	/* read the count this often while it runs */
#define TICK_MS		200	/* progress callback at most this often */
#define IDLE_PERIOD	(UINT64_C(1) << 62)	/* no overflow worth signalling */
/*
 * No overflow closer than this: a task-clock period of a few microseconds
 * keeps the task in its timer interrupt (seen: a pending SIGSTOP not taken
 * for 10 s). Nearer targets are stopped at once: the stop's own latency is
 * the step.
 */
#define MIN_PERIOD	100000u

enum { GOT_TARGET = 0, GOT_EXIT = 1, GOT_INTERRUPT = 2 };

struct ff_run {
	const struct srep_ff_opts *o;
	struct srep_rec_workload wl;
	struct ff_counter k;
	struct ff_tree tree;
	bool stopped;			/* the tree is stopped now */
	sigset_t waitset;		/* SIGCHLD, SIGINT, SIGTERM, SIGIO */
	uint64_t t0, last_tick;
	uint64_t guard;			/* --exact: aim this far before the target */
	unsigned threads;		/* at the last stop */
	size_t next;			/* the target being approached */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* take the signals that came while we were busy; true if one was SIGINT/SIGTERM */
static bool drain(struct ff_run *r)
{
	struct timespec zero = { 0, 0 };
	bool interrupted = false;
	int sig;

	while ((sig = sigtimedwait(&r->waitset, NULL, &zero)) > 0) {
		if (sig == SIGINT || sig == SIGTERM)
			interrupted = true;
		else if (sig == SIGCHLD)
			srep_rec_workload__reap(&r->wl);
	}
	return interrupted;
}

static void tick(struct ff_run *r, uint64_t count)
{
	uint64_t t = now_ns();

	if (r->o->tick && t - r->last_tick >= TICK_MS * 1000000ull) {
		r->last_tick = t;
		r->o->tick(r->o->arg, count, r->next);
	}
}

/* the period that signals near 'aim' (UINT64_MAX: never) from 'count' */
static uint64_t period_for(const struct ff_run *r, uint64_t count, uint64_t aim)
{
	uint64_t p;

	if (aim == UINT64_MAX)
		return IDLE_PERIOD;
	p = (aim - count) / (r->threads ? r->threads : 1);
	return p > MIN_PERIOD ? p : MIN_PERIOD;
}

/*
 * Run from 'count' until the count is at least 'aim' (UINT64_MAX: never),
 * the workload exits or we are interrupted
 */
static int wait_for(struct ff_run *r, uint64_t count, uint64_t aim, struct srep_error *err)
{
	struct timespec poll = { 0, POLL_MS * 1000000L };
	int sig;

	if (counter_set_period(&r->k, period_for(r, count, aim), err))
		return err->code;
	for (;;) {
		sig = sigtimedwait(&r->waitset, NULL, &poll);
		if (sig == SIGINT || sig == SIGTERM)
			return GOT_INTERRUPT;
		if (sig == SIGCHLD)
			srep_rec_workload__reap(&r->wl);
		if (r->wl.exited)
			return GOT_EXIT;
		if (counter_read(&r->k, &count, err))
			return err->code;
		tick(r, count);
		if (count >= aim)
			return GOT_TARGET;
		/* an overflow of another thread's counter: the next one nearer */
		if (sig == SIGIO && counter_set_period(&r->k, period_for(r, count, aim), err))
			return err->code;
	}
}

/* stop the tree and the counter; the count they stopped at */
static int stop_all(struct ff_run *r, uint64_t *count, struct srep_error *err)
{
	int ret = tree_stop(&r->tree, r->wl.pid, err);

	if (ret)
		return ret;
	r->stopped = true;
	r->threads = r->tree.nr_threads;
	if (counter_disable(&r->k, err) || counter_read(&r->k, count, err))
		return err->code;
	return 0;
}

static int resume_all(struct ff_run *r, struct srep_error *err)
{
	if (counter_enable(&r->k, err))
		return err->code;
	tree_resume(&r->tree);
	r->stopped = false;
	return 0;
}

/* where to stop next on the way to 'target' from 'count' */
static uint64_t aim_of(const struct ff_run *r, uint64_t target, uint64_t count)
{
	const struct srep_ff_opts *o = r->o;

	if (!o->exact)
		return target;
	if (count + o->tolerance >= target)
		return count;
	return target - r->guard > count ? target - r->guard : count + 1;
}

static bool close_enough(const struct ff_run *r, uint64_t target, uint64_t count)
{
	return r->o->exact ? count + r->o->tolerance >= target : count >= target;
}

/* GOT_TARGET with the tree stopped and 'st' filled, GOT_EXIT, GOT_INTERRUPT or an error */
static int approach(struct ff_run *r, uint64_t target, struct srep_ff_stop *st,
		    struct srep_error *err)
{
	uint64_t count = 0, aim;
	unsigned hops = 0;
	int ret;

	for (;;) {
		if (counter_read(&r->k, &count, err))
			return err->code;
		if (r->o->exact && !r->guard)
			r->guard = target > count ? (target - count) / 8 : 0;
		aim = aim_of(r, target, count);
		if (count + MIN_PERIOD <= aim && (ret = wait_for(r, count, aim, err)) != GOT_TARGET)
			return ret;
		ret = stop_all(r, &count, err);
		if (ret)
			return ret;
		hops++;
		srep_rec_workload__reap(&r->wl);
		if (r->wl.exited)
			return GOT_EXIT;
		if (r->o->exact && count > aim)
			r->guard = 2 * (count - aim) > r->guard / 2 ? 2 * (count - aim) : r->guard / 2;
		if (close_enough(r, target, count) || hops >= SREP_FF_MAX_HOPS)
			break;
		if (drain(r))
			return GOT_INTERRUPT;
		if (resume_all(r, err))
			return err->code;
	}
	*st = (struct srep_ff_stop){ .index = r->next, .requested = target, .reached = count,
				     .skid = (int64_t)(count - target), .hops = hops,
				     .wall_ns = now_ns() - r->t0, .pid = r->wl.pid,
				     .nr_procs = (unsigned)r->tree.nr, .nr_threads = r->tree.nr_threads };
	return GOT_TARGET;
}

/* the i-th target: the list's, else every 'every' until the count would overflow */
static bool target_at(const struct srep_ff_opts *o, size_t i, uint64_t *t)
{
	if (i < o->nr_targets) {
		*t = o->targets[i];
		return true;
	}
	return !o->nr_targets && o->every && !__builtin_mul_overflow(o->every, (uint64_t)i + 1, t);
}

static int all_targets(struct ff_run *r, struct srep_ff_result *res, struct srep_error *err)
{
	const struct srep_ff_opts *o = r->o;
	struct srep_ff_stop st = { 0 };
	enum srep_ff_next next;
	uint64_t target = 0;
	int ret = GOT_TARGET;

	for (r->next = 0; target_at(o, r->next, &target); r->next++) {
		ret = approach(r, target, &st, err);
		if (ret != GOT_TARGET)
			return ret;
		res->reached++;
		next = o->action(o->arg, &st);
		if (drain(r))
			return GOT_INTERRUPT;
		if (next == SREP_FF_STOP) {
			res->stopped = true;
			return GOT_INTERRUPT;
		}
		if (r->wl.exited)
			return GOT_EXIT;
		if (resume_all(r, err))
			return err->code;
	}
	/* every target done: count on to the end, for the log */
	return wait_for(r, 0, UINT64_MAX, err);
}

/* leave nothing stopped: resume, or kill the whole tree */
static void let_go(struct ff_run *r, bool kill_it, struct srep_ff_result *res)
{
	struct srep_error ignored = { 0 };

	if (kill_it && !r->wl.exited) {
		if (r->stopped || !tree_stop(&r->tree, r->wl.pid, &ignored))
			tree_kill(&r->tree);
		else
			kill(r->wl.pid, SIGKILL);
		res->killed = true;
	}
	if (r->stopped)
		tree_resume(&r->tree);
	r->stopped = false;
	while (res->killed && !r->wl.exited && waitpid(r->wl.pid, &r->wl.status, 0) == r->wl.pid)
		r->wl.exited = true;
}

static int fast_forward(struct ff_run *r, struct srep_ff_result *res, struct srep_error *err)
{
	int ret = all_targets(r, res, err);

	if (ret == GOT_INTERRUPT)
		res->interrupted = !res->stopped;
	/* the workload's first process has exited: the rest of the tree goes on */
	let_go(r, ret != GOT_EXIT && r->o->kill_on_stop, res);
	if (counter_read(&r->k, &res->final_count, NULL))
		res->final_count = 0;
	res->exited = r->wl.exited;
	res->status = r->wl.status;
	return ret < 0 ? ret : 0;
}

/*
 * The counter's signal wakes this process while the workload keeps every
 * CPU busy: at the default policy it runs only when the scheduler next
 * preempts the workload (a millisecond or two on a host, 10-30 ms in an
 * emulated guest), and the workload runs on meanwhile: that was most of the
 * skid. Real-time priority, where permitted (root, CAP_SYS_NICE), lets it
 * preempt at once. The workload was forked before and keeps its policy;
 * RESET_ON_FORK gives the actions (criu) the default one.
 */
static bool wake_first(int *old_policy, struct sched_param *old)
{
	struct sched_param rt = { .sched_priority = 1 };

	*old_policy = sched_getscheduler(0);
	return *old_policy >= 0 && !sched_getparam(0, old) &&
	       !sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt);
}

int srep_ff__run(const struct srep_ff_opts *o, struct srep_ff_result *res,
		 struct srep_error *err)
{
	struct ff_run r = { .o = o, .k = { .fd = -1 }, .threads = 1 };
	int ret, old_policy = 0;
	struct sched_param old_param = { 0 };
	uint64_t first = 0;
	bool raised;
	sigset_t old;

	memset(res, 0, sizeof(*res));
	sigemptyset(&r.waitset);
	sigaddset(&r.waitset, SIGCHLD);
	sigaddset(&r.waitset, SIGINT);
	sigaddset(&r.waitset, SIGTERM);
	sigaddset(&r.waitset, SIGIO);
	sigprocmask(SIG_BLOCK, &r.waitset, &old);
	ret = srep_rec_workload__prepare(&r.wl, o->argv, false, err);
	raised = !ret && wake_first(&old_policy, &old_param);
	if (!ret)
		ret = counter_open(&r.k, o->event ? o->event : SREP_FF_DEFAULT_EVENT, r.wl.pid,
				   !o->only_main, target_at(o, 0, &first) && first ? first : IDLE_PERIOD, err);
	if (!ret)
		ret = srep_rec_workload__start(&r.wl, o->argv, err);
	if (ret) {
		srep_rec_workload__kill(&r.wl);
	} else {
		r.t0 = r.last_tick = now_ns();
		res->pid = r.wl.pid;
		ret = fast_forward(&r, res, err);
	}
	counter_close(&r.k);
	if (drain(&r))
		res->interrupted = true;
	tree_free(&r.tree);
	if (raised)
		sched_setscheduler(0, old_policy, &old_param);
	srep_rec_workload__done(&r.wl);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
int srep_ff_parse_count(const char *s, uint64_t *out, struct srep_error *err)
{
	uint64_t mult = 1, v;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return srep_error__set(err, SREP_E_INVAL, "bad count '%s': expected a number such as 100M", s);
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'K': case 'k': mult = 1000u; end++; break;
	case 'M': case 'm': mult = 1000000u; end++; break;
	case 'G': case 'g': mult = 1000000000u; end++; break;
	case 'T': case 't': mult = 1000000000000u; end++; break;
	default: break;
	}
	if (errno || *end || __builtin_mul_overflow(v, mult, out))
		return srep_error__set(err, SREP_E_INVAL, "bad count '%s': expected a number such as 100M", s);
	return 0;
}
