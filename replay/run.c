// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - the replay: one thread of this process per planned task.
 *
 * Mockups are threads of schedrep rather than processes: they share one
 * address space, so a wakeup is a store and a futex call, and stopping all
 * of them is one flag; `perf sched latency` still tells them apart, by tid
 * and by name (each is named after its recorded comm).
 *
 * Why futexes rather than semaphores or clock_nanosleep():
 *  - a timed sleep is FUTEX_WAIT_BITSET on the stop word with an absolute
 *    CLOCK_MONOTONIC deadline (the kernel's hrtimer, as clock_nanosleep's
 *    TIMER_ABSTIME), and SIGINT can end it at once by changing that word;
 *    clock_nanosleep() can only be cut short by a signal to each thread;
 *  - each wakeup has its own flag, so a WAIT is released only by the WAKE
 *    the trace paired it with (a semaphore would let an early wakeup from
 *    another task release it); the futex word per thread just says "look
 *    again", and a WAKE costs one atomic store and one FUTEX_WAKE, about what
 *    the recorded task paid for its own wakeup.
 * A mockup whose task forked a replayed child creates the child's thread
 * itself, as the task forked it; the main thread creates the others at
 * their time and joins them all, creators first. Data crosses threads only
 * through C11 atomics (release/acquire) and pthread_create/join, so
 * ThreadSanitizer can check all of it.
 *
 * CPU bursts run until the thread's own CPU time (CLOCK_THREAD_CPUTIME_ID)
 * reaches the sum of the bursts so far: preemption does not stretch them,
 * and the CPU the mockup spends between bursts (wakeups, spawns) is taken
 * from the next burst, as the recorded task spent it inside its bursts.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "replay.h"

#define NSEC_PER_SEC 1000000000ull
#define MOCKUP_STACK (256u << 10)	/* mockups only call a few functions deep */
#define NOT_PINNED (-1)

struct slot {
	struct rp_runner *r;
	uint32_t idx;
	_Atomic uint32_t wake_word;	/* futex: bumped by every WAKE aimed here and by stop */
	uint64_t anchor;		/* CLOCK_MONOTONIC start, set before the thread is created */
	pthread_t th;			/* written by its creator before 'created' */
	atomic_bool created;
	struct rp_task_result run;	/* this run: the thread writes it, main reads after join */
};

struct rp_runner {
	const struct rp_plan *p;
	struct rp_run_opts o;
	struct slot *slots;
	atomic_uchar *wake_done;	/* per wakeup id */
	uint64_t *wake_post;		/* when it was posted: written before wake_done */
	uint64_t *wake_seen;		/* when the WAIT returned: written by the wakee */
	_Atomic uint32_t stop;		/* futex: timed sleeps wait on it */
	_Atomic uint32_t main_word;	/* futex: exits and stop wake main */
	_Atomic uint32_t finished;
	uint32_t *timed;		/* tasks the main thread starts at their time, by start_off */
	size_t nr_timed;
	uint32_t *join_order;		/* creators before the threads they create */
	cpu_set_t allowed;		/* the CPUs this process may use */
	int32_t *host_cpus;		/* the same as a list, for --cpu-map auto */
	size_t nr_host_cpus;
	pthread_attr_t attr;
	uint64_t t0;			/* origin of the current run */
	_Atomic int create_error;	/* pthread_create's error, 0 none */
	_Atomic uint32_t failed;	/* the task whose thread it could not create */
};

/* ---- time and futexes ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* wait while *word == val, until the absolute CLOCK_MONOTONIC deadline (0: none) */
static void futex_wait(_Atomic uint32_t *word, uint32_t val, uint64_t deadline)
{
	struct timespec ts = { (time_t)(deadline / NSEC_PER_SEC), (long)(deadline % NSEC_PER_SEC) };

	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_BITSET_PRIVATE, val,
		deadline ? &ts : NULL, NULL, FUTEX_BITSET_MATCH_ANY);
}

static void futex_wake(_Atomic uint32_t *word, int nr)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

static bool stopped(struct rp_runner *r)
{
	return atomic_load_explicit(&r->stop, memory_order_acquire);
}

static void kick(_Atomic uint32_t *word)
{
	atomic_fetch_add_explicit(word, 1, memory_order_acq_rel);
	futex_wake(word, INT_MAX);
}

/* ---- what a mockup does ---- */

/*
 * Spin until the thread's CPU time reaches cpu_target. The spinning watches
 * the (vDSO) monotonic clock for as long as the CPU time still missing:
 * reading the thread's CPU clock in a tight loop would be a system call each
 * time, and each one fires sched_stat_runtime: `perf sched record` of a
 * replay then loses events. Preempted meanwhile, the thread has less CPU
 * time than wall time passed, and spins again for what is missing.
 */
static bool burn_until(struct rp_runner *r, uint64_t cpu_target)
{
	uint64_t cpu, until;

	while ((cpu = thread_cpu_ns()) < cpu_target) {
		until = now_ns() + (cpu_target - cpu);
		while (now_ns() < until) {
			if (atomic_load_explicit(&r->stop, memory_order_relaxed))
				return false;
		}
	}
	return true;
}

static bool sleep_until(struct rp_runner *r, uint64_t deadline)
{
	while (now_ns() < deadline) {
		if (stopped(r))
			return false;
		futex_wait(&r->stop, 0, deadline);
	}
	return true;
}

static bool wait_for(struct rp_runner *r, struct slot *sl, uint32_t id)
{
	for (;;) {
		uint32_t seq = atomic_load_explicit(&sl->wake_word, memory_order_acquire);

		if (atomic_load_explicit(&r->wake_done[id], memory_order_acquire))
			return true;
		if (stopped(r))
			return false;
		futex_wait(&sl->wake_word, seq, 0);
	}
}

static void post(struct rp_runner *r, uint32_t id, uint32_t target)
{
	struct slot *to = &r->slots[target];

	r->wake_post[id] = now_ns();
	atomic_store_explicit(&r->wake_done[id], 1, memory_order_release);
	atomic_fetch_add_explicit(&to->wake_word, 1, memory_order_acq_rel);
	futex_wake(&to->wake_word, 1);
}

static void *mockup(void *arg);

/*
 * Create the mockup of task 'idx', from the main thread (tasks started at
 * their time) or from the mockup whose SPAWN it is, as the recorded parent
 * forked it itself: no hop through another thread delays the child.
 */
static int start_mockup(struct rp_runner *r, uint32_t idx, uint64_t anchor)
{
	struct slot *sl = &r->slots[idx];
	sigset_t all, old;
	int ret;

	sl->anchor = anchor;
	memset(&sl->run, 0, sizeof(sl->run));
	/* signals go to the main thread, whose handler stops the replay */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&sl->th, &r->attr, mockup, sl);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret) {
		atomic_store_explicit(&sl->created, true, memory_order_release);
		return 0;
	}
	atomic_store_explicit(&r->failed, idx, memory_order_relaxed);
	atomic_store_explicit(&r->create_error, ret, memory_order_release);
	rp_runner__stop(r);
	return ret;
}

static int32_t host_cpu_for(const struct rp_runner *r, int32_t rec_cpu, int32_t current)
{
	if (r->o.cpu_map == RP_CPU_MAP_AUTO)
		return rec_cpu < 0 ? current : r->host_cpus[(size_t)rec_cpu % r->nr_host_cpus];
	return rec_cpu >= 0 && (size_t)rec_cpu < r->o.nr_map ? r->o.map[rec_cpu] : NOT_PINNED;
}

/* --cpu-map: move to the host CPU of the recorded one when it changes */
static void follow_cpu(const struct rp_runner *r, int32_t rec_cpu, int32_t *pinned)
{
	int32_t host;
	cpu_set_t set;

	if (r->o.cpu_map == RP_CPU_MAP_NONE)
		return;
	host = host_cpu_for(r, rec_cpu, *pinned);
	if (host == *pinned)
		return;
	if (host == NOT_PINNED) {
		set = r->allowed;
	} else {
		CPU_ZERO(&set);
		CPU_SET((size_t)host, &set);
	}
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0)
		*pinned = host;
}

static void setup_thread(const struct rp_runner *r, const struct rp_task *t)
{
	const char *comm = t->comm[0] ? t->comm : "mockup";
	char name[16];		/* the kernel's comm size: longer comms (JSON) are cut */
	size_t len = strnlen(comm, sizeof(name) - 1);

	memcpy(name, comm, len);
	name[len] = '\0';
	pthread_setname_np(pthread_self(), name);
	/* the default 50 us of timer slack would be added to every timed sleep */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (r->o.keep_prio)
		rp_prio__apply(t->prio);	/* checked by rp_runner__new() */
}

/* a wakeup's latency: from the wakeup (or the start of waiting, if later) to now */
static void note_wakeup(struct rp_task_result *res, uint64_t woken, uint64_t began)
{
	uint64_t now = now_ns(), from = woken > began ? woken : began;

	res->wakeups++;
	res->latency_sum_ns += now > from ? now - from : 0;
	res->nr_latency++;
}

/* one action; false when the replay is being stopped */
static bool act(struct slot *sl, const struct rp_action *a, uint64_t *anchor, uint64_t *cpu,
		int32_t *pinned)
{
	struct rp_runner *r = sl->r;
	uint64_t began;

	switch (a->kind) {
	case RP_RUN:
		follow_cpu(r, a->cpu, pinned);
		*cpu += a->scaled;
		if (!burn_until(r, *cpu))
			return false;
		sl->run.last_cpu = sched_getcpu();
		return true;
	case RP_SLEEP:
		began = now_ns();
		if (!sleep_until(r, *anchor + a->scaled))
			return false;
		note_wakeup(&sl->run, *anchor + a->scaled, began);
		return true;
	case RP_WAIT:
		began = now_ns();
		if (!wait_for(r, sl, a->id))
			return false;
		*anchor = r->wake_post[a->id];
		note_wakeup(&sl->run, *anchor, began);
		r->wake_seen[a->id] = now_ns();
		return true;
	case RP_WAKE:
		post(r, a->id, a->target);
		return true;
	case RP_SPAWN:
		start_mockup(r, a->target, now_ns());
		return true;
	default:
		return true;
	}
}

static void *mockup(void *arg)
{
	struct slot *sl = arg;
	struct rp_runner *r = sl->r;
	const struct rp_task *t = &r->p->tasks[sl->idx];
	uint64_t anchor = sl->anchor, cpu = 0;
	int32_t pinned = NOT_PINNED;
	struct rp_cursor c;
	struct rp_action a;
	int more;

	sl->run.start_ns = now_ns();
	sl->run.host_tid = gettid();
	sl->run.last_cpu = -1;
	setup_thread(r, t);
	rp_cursor__init(&c, r->p, t);
	/* a spilled plan that cannot be read back stops the mockup where it is */
	while ((more = rp_cursor__next(&c, &a)) > 0 && a.kind != RP_EXIT) {
		if (!act(sl, &a, &anchor, &cpu, &pinned))
			break;
	}
	rp_cursor__fini(&c);
	sl->run.state = more == 0 || (more > 0 && a.kind == RP_EXIT) ? RP_DONE : RP_STOPPED;
	sl->run.cpu_ns = thread_cpu_ns();
	sl->run.end_ns = now_ns();
	atomic_fetch_add_explicit(&r->finished, 1, memory_order_acq_rel);
	kick(&r->main_word);
	return NULL;
}

/* ---- the main thread: starts mockups at their time, waits for the end ---- */

static void stop_all(struct rp_runner *r)
{
	size_t i;

	atomic_store_explicit(&r->stop, 1, memory_order_release);
	futex_wake(&r->stop, INT_MAX);
	for (i = 0; i < r->p->nr_tasks; i++)
		kick(&r->slots[i].wake_word);
}

/* until every mockup has finished, or a stop */
static int drive(struct rp_runner *r, size_t *next_timed)
{
	const struct rp_task *tasks = r->p->tasks;
	uint64_t deadline;
	uint32_t seen;
	int ret = 0;

	while (!ret) {
		seen = atomic_load_explicit(&r->main_word, memory_order_acquire);
		if (stopped(r) || atomic_load_explicit(&r->finished, memory_order_acquire) ==
		    r->p->nr_tasks)
			break;
		for (; !ret && *next_timed < r->nr_timed; (*next_timed)++) {
			deadline = r->t0 + tasks[r->timed[*next_timed]].start_off;
			if (now_ns() < deadline)
				break;
			ret = start_mockup(r, r->timed[*next_timed], deadline);
		}
		if (ret)
			break;
		deadline = *next_timed < r->nr_timed ?
			   r->t0 + tasks[r->timed[*next_timed]].start_off : 0;
		futex_wait(&r->main_word, seen, deadline);
	}
	return ret;
}

/* add one run's figures to the result */
static void collect(struct rp_runner *r, struct rp_result *res, bool complete)
{
	uint64_t last_end = r->t0;
	size_t i;

	for (i = 0; i < r->p->nr_tasks; i++) {
		struct slot *sl = &r->slots[i];
		struct rp_task_result *out = &res->tasks[i];

		out->state = atomic_load(&sl->created) ? sl->run.state : RP_NOT_STARTED;
		if (out->state == RP_NOT_STARTED)
			continue;
		out->host_tid = sl->run.host_tid;
		out->last_cpu = sl->run.last_cpu;
		out->start_ns = sl->run.start_ns - r->t0;
		out->end_ns = sl->run.end_ns - r->t0;
		out->span_ns += sl->run.end_ns > sl->anchor ? sl->run.end_ns - sl->anchor : 0;
		out->cpu_ns += sl->run.cpu_ns;
		out->wakeups += sl->run.wakeups;
		out->latency_sum_ns += sl->run.latency_sum_ns;
		out->nr_latency += sl->run.nr_latency;
		out->runs_done += sl->run.state == RP_DONE;
		if (sl->run.end_ns > last_end)
			last_end = sl->run.end_ns;
	}
	res->last_span_ns = last_end - r->t0;
	for (i = 0; i < r->p->nr_wakes; i++) {
		bool done = atomic_load_explicit(&r->wake_done[i], memory_order_relaxed);

		res->wake_posted_ns[i] = done ? r->wake_post[i] - r->t0 : 0;
		res->wake_returned_ns[i] = r->wake_seen[i] ? r->wake_seen[i] - r->t0 : 0;
	}
	if (complete) {
		res->span_sum_ns += res->last_span_ns;
		res->runs_done++;
	}
}

static int run_once(struct rp_runner *r, struct rp_result *res, struct srep_error *err)
{
	size_t i, next_timed = 0;
	int ret;

	for (i = 0; i < r->p->nr_tasks; i++)
		atomic_store(&r->slots[i].created, false);
	for (i = 0; i < r->p->nr_wakes; i++) {
		atomic_store_explicit(&r->wake_done[i], 0, memory_order_relaxed);
		r->wake_seen[i] = 0;
	}
	atomic_store(&r->finished, 0);
	atomic_store(&r->create_error, 0);
	r->t0 = now_ns();
	ret = drive(r, &next_timed);
	if (ret || stopped(r))
		stop_all(r);
	/* once its creator is joined, whether a thread exists is settled */
	for (i = 0; i < r->p->nr_tasks; i++) {
		struct slot *sl = &r->slots[r->join_order[i]];

		if (atomic_load_explicit(&sl->created, memory_order_acquire))
			pthread_join(sl->th, NULL);
	}
	ret = atomic_load(&r->create_error);
	collect(r, res, !ret && !stopped(r));
	if (ret) {
		i = atomic_load(&r->failed);
		return srep_error__set(err, SREP_E_LIMIT, "cannot start the mockup of task %d (%s): %s",
				       r->p->tasks[i].tid, r->p->tasks[i].comm, strerror(ret));
	}
	return 0;
}

int rp_runner__run(struct rp_runner *r, struct rp_result *res, struct srep_error *err)
{
	size_t w = r->p->nr_wakes ? r->p->nr_wakes : 1;
	unsigned i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->tasks = calloc(r->p->nr_tasks ? r->p->nr_tasks : 1, sizeof(*res->tasks));
	res->wake_posted_ns = calloc(w, sizeof(*res->wake_posted_ns));
	res->wake_returned_ns = calloc(w, sizeof(*res->wake_returned_ns));
	if (!res->tasks || !res->wake_posted_ns || !res->wake_returned_ns) {
		rp_result__free(res);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for replay results");
	}
	res->nr_tasks = r->p->nr_tasks;
	res->nr_wakes = r->p->nr_wakes;
	res->runs = r->o.repeat;
	for (i = 0; i < r->o.repeat && !ret && !stopped(r); i++)
		ret = run_once(r, res, err);
	res->interrupted = stopped(r) && !ret;
	return ret;
}

void rp_runner__stop(struct rp_runner *r)
{
	/* async-signal-safe: lock-free atomics and raw futex calls only */
	atomic_store_explicit(&r->stop, 1, memory_order_release);
	futex_wake(&r->stop, INT_MAX);
	kick(&r->main_word);
}

void rp_result__free(struct rp_result *res)
{
	free(res->tasks);
	free(res->wake_posted_ns);
	free(res->wake_returned_ns);
	memset(res, 0, sizeof(*res));
}

/* ---- setting up ---- */

static int host_cpus(struct rp_runner *r, struct srep_error *err)
{
	size_t c;

	if (sched_getaffinity(0, sizeof(r->allowed), &r->allowed))
		return srep_error__set(err, SREP_E_UNSUPPORTED, "cannot read the CPU affinity: %s",
				       strerror(errno));
	r->host_cpus = calloc(CPU_SETSIZE, sizeof(*r->host_cpus));
	if (!r->host_cpus)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &r->allowed))
			r->host_cpus[r->nr_host_cpus++] = (int32_t)c;
	}
	if (!r->nr_host_cpus)
		return srep_error__set(err, SREP_E_UNSUPPORTED, "no CPU to run on");
	return 0;
}

static int check_map(const struct rp_runner *r, struct srep_error *err)
{
	size_t i;

	for (i = 0; r->o.cpu_map == RP_CPU_MAP_LIST && i < r->o.nr_map; i++) {
		if (r->o.map[i] >= 0 && !CPU_ISSET((size_t)r->o.map[i], &r->allowed))
			return srep_error__set(err, SREP_E_INVAL,
					       "--cpu-map %zu=%d: host CPU %d is not available here "
					       "(%zu CPUs usable)", i, r->o.map[i], r->o.map[i],
					       r->nr_host_cpus);
	}
	return 0;
}

static int cmp_start(const void *a, const void *b, void *arg)
{
	const struct rp_plan *p = arg;
	uint64_t x = p->tasks[*(const uint32_t *)a].start_off;
	uint64_t y = p->tasks[*(const uint32_t *)b].start_off;

	return x < y ? -1 : x > y;
}

/*
 * Tasks the main thread starts, then the ones each of those spawns, and so
 * on (a pass per generation: plans are a few generations deep).
 */
static int order_joins(struct rp_runner *r)
{
	size_t n = r->p->nr_tasks, i, k = 0;
	bool *placed = calloc(n ? n : 1, sizeof(*placed));
	bool progress = true;

	if (!placed)
		return SREP_E_NOMEM;
	while (progress) {
		progress = false;
		for (i = 0; i < n; i++) {
			int32_t sp = r->p->tasks[i].spawner;

			if (!placed[i] && (sp < 0 || placed[sp])) {
				r->join_order[k++] = (uint32_t)i;
				placed[i] = progress = true;
			}
		}
	}
	free(placed);
	return k == n ? 0 : -1;	/* cannot happen: a spawner is started before its SPAWN */
}

static int alloc_runner(struct rp_runner *r, struct srep_error *err)
{
	size_t n = r->p->nr_tasks ? r->p->nr_tasks : 1, w = r->p->nr_wakes ? r->p->nr_wakes : 1, i;

	r->slots = calloc(n, sizeof(*r->slots));
	r->timed = calloc(n, sizeof(*r->timed));
	r->join_order = calloc(n, sizeof(*r->join_order));
	r->wake_done = calloc(w, sizeof(*r->wake_done));
	r->wake_post = calloc(w, sizeof(*r->wake_post));
	r->wake_seen = calloc(w, sizeof(*r->wake_seen));
	if (!r->slots || !r->timed || !r->join_order || !r->wake_done || !r->wake_post ||
	    !r->wake_seen)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for %zu mockups", n);
	for (i = 0; i < r->p->nr_tasks; i++) {
		r->slots[i].r = r;
		r->slots[i].idx = (uint32_t)i;
		if (r->p->tasks[i].spawner < 0)
			r->timed[r->nr_timed++] = (uint32_t)i;
	}
	qsort_r(r->timed, r->nr_timed, sizeof(*r->timed), cmp_start, (void *)r->p);
	if (order_joins(r))
		return srep_error__set(err, SREP_E_INVAL, "a task's spawner is never started");
	return 0;
}

int rp_runner__new(struct rp_runner **out, const struct rp_plan *p, const struct rp_run_opts *o,
		   struct srep_error *err)
{
	struct rp_runner *r;
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	r->p = p;
	r->o = *o;
	r->o.repeat = o->repeat ? o->repeat : 1;
	r->o.max_threads = o->max_threads ? o->max_threads : RP_MAX_THREADS_DEFAULT;
	pthread_attr_init(&r->attr);
	pthread_attr_setstacksize(&r->attr, MOCKUP_STACK);
	if (p->nr_tasks > r->o.max_threads)
		ret = srep_error__set(err, SREP_E_LIMIT, "%zu tasks to replay, more than --max-threads "
				      "%zu: select fewer tasks (--only, --exclude) or raise the limit",
				      p->nr_tasks, r->o.max_threads);
	else if (!(ret = host_cpus(r, err)) && !(ret = check_map(r, err)) &&
		 !(ret = r->o.keep_prio ? rp_prio__check(p, err) : 0))
		ret = alloc_runner(r, err);
	if (ret) {
		rp_runner__delete(r);
		return ret;
	}
	*out = r;
	return 0;
}

void rp_runner__delete(struct rp_runner *r)
{
	if (!r)
		return;
	pthread_attr_destroy(&r->attr);
	free(r->slots);
	free(r->timed);
	free(r->join_order);
	free(r->wake_done);
	free(r->wake_post);
	free(r->wake_seen);
	free(r->host_cpus);
	free(r);
}
