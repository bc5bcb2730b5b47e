// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_model.c - records and samples turned into neutral events
 * (src/model.c): one fact, one event (with the sched tracepoints the FORK,
 * EXIT, COMM-exec and SWITCH records only feed the task table; without
 * them they are the events), the idle task, processes filled into
 * tracepoint events from the task table, MMAP and LOST events, and the
 * data-loss figure on a trace with overlapping loss intervals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 2000000000ull

/* build with 'fn', read every event */
static void read_fixture(const struct fixture_opts *o, void (*fn)(struct fixture *),
			 struct tu_events *ev, struct srep_session **out)
{
	struct fixture *fx = fixture_new(o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;

	ck_assert_ptr_nonnull(fx);
	fn(fx);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	ck_assert_msg(tu_collect(s, ev, &err) == 0, "%s", err.msg);
	fixture_free(fx);
	free(buf);
	if (out)
		*out = s;
	else
		srep_session__delete(s);
}

static void two_comms(struct fixture *fx)
{
	fixture_comm(fx, T0, 0, 10, 10, "abcdefghijklmnopqrstuvwxyz01234", false);
	fixture_comm(fx, T0 + 1, 0, 11, 11, "b", false);
	fixture_comm(fx, T0 + 2, 0, 11, 11, "cc", true);
}

/* a comm is defined to its last byte: events are the same bytes on every read */
START_TEST(comm_bytes_defined)
{
	struct fixture_opts o = { .word_size = 8 };
	struct tu_events ev = { 0 };
	static const char zero[SREP_COMM_MAX];

	read_fixture(&o, two_comms, &ev, NULL);
	ck_assert_uint_eq(ev.n, 3);
	ck_assert_str_eq(ev.v[0].u.comm.comm, "abcdefghijklmnopqrstuvwxyz01234");
	ck_assert_str_eq(ev.v[1].u.comm.comm, "b");
	ck_assert_msg(memcmp(ev.v[1].u.comm.comm + 1, zero, SREP_COMM_MAX - 1) == 0,
		      "bytes after the comm: '%.31s'", ev.v[1].u.comm.comm + 2);
	ck_assert_int_eq(ev.v[2].kind, SREP_EV_EXEC);
	ck_assert_str_eq(ev.v[2].u.exec.comm, "cc");
	ck_assert(memcmp(ev.v[2].u.exec.comm + 2, zero, SREP_COMM_MAX - 2) == 0);
	tu_events_free(&ev);
}
END_TEST

static const struct srep_event *at(const struct tu_events *ev, enum srep_event_kind kind,
				   uint64_t time)
{
	const struct srep_event *e = tu_find(ev, kind, time);

	ck_assert_msg(e != NULL, "no %s event at T0+%llu", srep_event_kind_name(kind),
		      (unsigned long long)(time - T0));
	return e;
}

static size_t count_at(const struct tu_events *ev, enum srep_event_kind kind, uint64_t time)
{
	size_t i, n = 0;

	for (i = 0; i < ev->n; i++)
		n += ev->v[i].kind == kind && ev->v[i].time == time;
	return n;
}

/*
 * perf sched record: every fact twice, as a record and as a tracepoint.
 * Thread 102 of process 100, process 103 forked, exec'd, exited.
 */
static void both_sources(struct fixture *fx)
{
	fixture_comm(fx, T0, 0, 100, 100, "server", false);
	fixture_fork(fx, T0 + 10, 0, 100, 100, 102, 100);
	fixture_tp_fork(fx, T0 + 11, 0, "server", 100, "server", 102);
	fixture_switch_record(fx, T0 + 19, 0, 100, 100, true, false);
	fixture_switch(fx, T0 + 20, 0, "server", 100, 120, FIXTURE_STATE_S, "server", 102, 120);
	fixture_switch_record(fx, T0 + 21, 0, 100, 102, false, false);
	fixture_fork(fx, T0 + 40, 1, 103, 100, 103, 100);
	fixture_tp_fork(fx, T0 + 41, 1, "server", 100, "server", 103);
	fixture_comm(fx, T0 + 50, 1, 103, 103, "worker", true);
	fixture_exec(fx, T0 + 51, 1, "/usr/bin/worker", 103, 103);
	fixture_tp_exit(fx, T0 + 60, 1, "worker", 103, 120);
	fixture_exit(fx, T0 + 61, 1, 103, 100, 103, 100);
	fixture_waking(fx, T0 + 70, 0, "server", 102, 120, 1);
	fixture_stat_runtime(fx, T0 + 71, 0, "server", 102, 5000, 1);
	fixture_migrate(fx, T0 + 72, 0, "server", 102, 120, 0, 1);
	/* a thread known from its COMM record only */
	fixture_comm(fx, T0 + 80, 0, 500, 501, "th", false);
	fixture_waking(fx, T0 + 81, 0, "th", 501, 120, 0);
}

START_TEST(tracepoints_are_the_source)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 8 };
		struct srep_session *s;
		struct tu_events ev = { 0 };
		const struct srep_event *e;
		const struct srep_task *t;
		size_t i;

		read_fixture(&o, both_sources, &ev, &s);
		ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_FORK), 2);
		ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_EXIT), 1);
		ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_EXEC), 1);
		ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_SWITCH), 1);
		for (i = 0; i < ev.n; i++) {
			enum srep_event_kind k = ev.v[i].kind;

			if (k == SREP_EV_FORK || k == SREP_EV_EXIT || k == SREP_EV_EXEC ||
			    k == SREP_EV_SWITCH)
				ck_assert_msg(ev.v[i].source == SREP_SRC_TRACEPOINT, "%s at T0+%llu",
					      srep_event_kind_name(k),
					      (unsigned long long)(ev.v[i].time - T0));
		}
		/* the exec's COMM record is no second EXEC (it changes the comm; see the report) */
		ck_assert_uint_eq(count_at(&ev, SREP_EV_EXEC, T0 + 50), 0);
		/* processes come from the records: the thread belongs to 100 */
		e = at(&ev, SREP_EV_FORK, T0 + 11);
		ck_assert_int_eq(e->u.fork.child_tid, 102);
		ck_assert_int_eq(e->u.fork.child_pid, 100);
		ck_assert_int_eq(e->u.fork.parent_pid, 100);
		e = at(&ev, SREP_EV_FORK, T0 + 41);
		ck_assert_int_eq(e->u.fork.child_pid, 103);
		e = at(&ev, SREP_EV_SWITCH, T0 + 20);
		ck_assert_int_eq(e->u.sw.next_tid, 102);
		ck_assert_int_eq(e->u.sw.next_pid, 100);
		ck_assert_int_eq(e->u.sw.prev_pid, 100);
		e = at(&ev, SREP_EV_WAKEUP, T0 + 70);
		ck_assert_int_eq(e->u.wake.pid, 100);
		ck_assert_int_eq(at(&ev, SREP_EV_STAT, T0 + 71)->u.stat.pid, 100);
		ck_assert_int_eq(at(&ev, SREP_EV_MIGRATE, T0 + 72)->u.migrate.pid, 100);
		ck_assert_int_eq(at(&ev, SREP_EV_WAKEUP, T0 + 81)->u.wake.pid, 500);
		e = at(&ev, SREP_EV_EXEC, T0 + 51);
		ck_assert_int_eq(e->u.exec.pid, 103);
		ck_assert_str_eq(e->u.exec.comm, "worker");
		e = at(&ev, SREP_EV_EXIT, T0 + 60);
		ck_assert_int_eq(e->u.exit.pid, 103);
		ck_assert_int_eq(e->u.exit.ppid, 100);
		ck_assert_int_eq(e->u.exit.ptid, 100);
		/* the records fed the task table */
		t = srep_session__find_task(s, 102);
		ck_assert_int_eq(srep_task__pid(t), 100);
		ck_assert_int_eq(srep_task__ptid(t), 100);
		ck_assert_uint_eq(srep_task__fork_time(t), T0 + 10);
		t = srep_session__find_task(s, 103);
		ck_assert_uint_eq(srep_task__fork_time(t), T0 + 40);
		ck_assert_uint_eq(srep_task__exit_time(t), T0 + 60);	/* the tracepoint's */
		ck_assert_str_eq(srep_task__comm(t), "worker");
		ck_assert(srep_task__matches_comm(t, "server"));
		for (i = 0; i < srep_session__nr_tasks(s); i++)
			ck_assert_int_ne(srep_task__tid(srep_session__task(s, i)) == 103 &&
					 srep_session__task(s, i) != t, 1);
		tu_events_free(&ev);
		srep_session__delete(s);
	}
}
END_TEST

/* without the tracepoints, the records are the events */
static void records_only(struct fixture *fx)
{
	fixture_add_tracepoint(fx, "sched", "sched_waking");	/* tracing data, other events */
	fixture_comm(fx, T0, 0, 100, 100, "server", false);
	fixture_fork(fx, T0 + 10, 0, 103, 100, 103, 100);
	fixture_comm(fx, T0 + 20, 0, 103, 103, "worker", true);
	fixture_switch_cpu_wide(fx, T0 + 30, 0, 100, 100, true, true, 103, 103);
	fixture_switch_cpu_wide(fx, T0 + 31, 0, 103, 103, false, false, 100, 100);
	fixture_switch_record(fx, T0 + 40, 1, 100, 100, true, false);
	fixture_switch_record(fx, T0 + 45, 1, 100, 100, false, false);
	fixture_switch_cpu_wide(fx, T0 + 46, 1, 100, 100, true, false, 0, 0);
	fixture_exit(fx, T0 + 50, 0, 103, 100, 103, 100);
}

START_TEST(records_are_the_events)
{
	int be;

	for (be = 0; be < 2; be++) {
		struct fixture_opts o = { .big_endian = be, .word_size = 4 };
		struct srep_session *s;
		struct tu_events ev = { 0 };
		const struct srep_event *e;

		read_fixture(&o, records_only, &ev, &s);
		ck_assert_uint_eq(ev.n, 9);
		e = at(&ev, SREP_EV_FORK, T0 + 10);
		ck_assert_int_eq(e->source, SREP_SRC_RECORD);
		ck_assert_int_eq(e->u.fork.parent_pid, 100);
		ck_assert_int_eq(e->u.fork.parent_tid, 100);
		ck_assert_int_eq(e->u.fork.child_pid, 103);
		ck_assert_int_eq(e->u.fork.child_tid, 103);
		ck_assert_str_eq(e->u.fork.parent_comm, "server");
		ck_assert_str_eq(e->u.fork.child_comm, "server");
		/* COMM with the exec flag: EXEC, without the tracepoint's filename */
		e = at(&ev, SREP_EV_EXEC, T0 + 20);
		ck_assert_int_eq(e->source, SREP_SRC_RECORD);
		ck_assert_int_eq(e->u.exec.pid, 103);
		ck_assert_int_eq(e->u.exec.tid, 103);
		ck_assert_int_eq(e->u.exec.old_tid, -1);
		ck_assert_str_eq(e->u.exec.comm, "worker");
		/* CPU-wide switch-out, preempted: prev is the task recorded, next the record's */
		e = at(&ev, SREP_EV_SWITCH, T0 + 30);
		ck_assert_int_eq(e->source, SREP_SRC_RECORD);
		ck_assert_uint_eq(e->flags & (SREP_EVF_SWITCH_OUT | SREP_EVF_SWITCH_IN | SREP_EVF_PREEMPT),
				  SREP_EVF_SWITCH_OUT | SREP_EVF_PREEMPT);
		ck_assert_int_eq(e->u.sw.prev_state, 'R');
		ck_assert_int_eq(e->u.sw.prev_tid, 100);
		ck_assert_int_eq(e->u.sw.prev_pid, 100);
		ck_assert_int_eq(e->u.sw.next_tid, 103);
		ck_assert_int_eq(e->u.sw.next_pid, 103);
		ck_assert_str_eq(e->u.sw.prev_comm, "server");
		ck_assert_str_eq(e->u.sw.next_comm, "worker");
		ck_assert_int_eq(e->u.sw.prev_prio, INT32_MIN);
		ck_assert_int_eq(e->cpu, 0);
		/* ... and switch-in: next is the task recorded, prev the record's */
		e = at(&ev, SREP_EV_SWITCH, T0 + 31);
		ck_assert_uint_eq(e->flags & (SREP_EVF_SWITCH_OUT | SREP_EVF_SWITCH_IN | SREP_EVF_PREEMPT),
				  SREP_EVF_SWITCH_IN);
		ck_assert_int_eq(e->u.sw.next_tid, 103);
		ck_assert_int_eq(e->u.sw.prev_tid, 100);
		ck_assert_int_eq(e->u.sw.prev_state, '?');
		/* per-task records: the other side is unknown; a voluntary switch-out reads S */
		e = at(&ev, SREP_EV_SWITCH, T0 + 40);
		ck_assert_uint_eq(e->flags & (SREP_EVF_SWITCH_OUT | SREP_EVF_PREEMPT), SREP_EVF_SWITCH_OUT);
		ck_assert_int_eq(e->u.sw.prev_state, 'S');
		ck_assert_int_eq(e->u.sw.prev_tid, 100);
		ck_assert_int_eq(e->u.sw.next_tid, -1);
		ck_assert_int_eq(e->u.sw.next_pid, -1);
		ck_assert_str_eq(e->u.sw.next_comm, "");
		e = at(&ev, SREP_EV_SWITCH, T0 + 45);
		ck_assert(e->flags & SREP_EVF_SWITCH_IN);
		ck_assert_int_eq(e->u.sw.next_tid, 100);
		ck_assert_int_eq(e->u.sw.prev_tid, -1);
		/* to the idle task: named as the table names it */
		e = at(&ev, SREP_EV_SWITCH, T0 + 46);
		ck_assert_int_eq(e->u.sw.next_tid, 0);
		e = at(&ev, SREP_EV_EXIT, T0 + 50);
		ck_assert_int_eq(e->source, SREP_SRC_RECORD);
		ck_assert_int_eq(e->u.exit.pid, 103);
		ck_assert_int_eq(e->u.exit.ppid, 100);
		ck_assert_int_eq(e->u.exit.ptid, 100);
		ck_assert_int_eq(e->u.exit.prio, INT32_MIN);
		ck_assert_str_eq(e->u.exit.comm, "worker");
		ck_assert_uint_eq(srep_task__exit_time(srep_session__find_task(s, 103)), T0 + 50);
		ck_assert_uint_eq(srep_task__fork_time(srep_session__find_task(s, 103)), T0 + 10);
		tu_events_free(&ev);
		srep_session__delete(s);
	}
}
END_TEST

/* the idle tasks of all CPUs are one task, "swapper"; events keep the trace's text */
static void idle(struct fixture *fx)
{
	fixture_switch(fx, T0 + 10, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "a", 10, 120);
	fixture_switch(fx, T0 + 20, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "b", 11, 120);
	fixture_switch(fx, T0 + 30, 1, "b", 11, 120, FIXTURE_STATE_S, "swapper/1", 0, 120);
}

START_TEST(idle_is_swapper)
{
	struct fixture_opts o = { .word_size = 8 };
	struct srep_session *s;
	struct tu_events ev = { 0 };
	const struct srep_task *t;
	size_t i, n = 0;

	read_fixture(&o, idle, &ev, &s);
	t = srep_session__find_task(s, 0);
	ck_assert_str_eq(srep_task__comm(t), "swapper");
	ck_assert_uint_eq(srep_task__nr_comms(t), 1);
	ck_assert_int_eq(srep_task__pid(t), 0);
	ck_assert_uint_eq(srep_task__first_seen(t), T0 + 10);
	ck_assert_uint_eq(srep_task__last_seen(t), T0 + 30);
	for (i = 0; i < srep_session__nr_tasks(s); i++)
		n += srep_task__tid(srep_session__task(s, i)) == 0;
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(at(&ev, SREP_EV_SWITCH, T0 + 20)->u.sw.prev_comm, "swapper/1");
	ck_assert_int_eq(at(&ev, SREP_EV_SWITCH, T0 + 20)->u.sw.prev_pid, 0);
	ck_assert_int_eq(at(&ev, SREP_EV_SWITCH, T0 + 30)->u.sw.next_pid, 0);
	tu_events_free(&ev);
	srep_session__delete(s);
}
END_TEST

static void mmaps_and_losses(struct fixture *fx)
{
	int cyc = fixture_add_event(fx, PERF_TYPE_SOFTWARE, 0, 0);

	fixture_mmap2(fx, T0 + 5, 0, 70, 71, 0x7f0000001000ull, 0x2000, 0x3000,
		      "/usr/lib/libfoo.so.1");
	fixture_sample(fx, cyc, T0 + 6, 0, 70, 71, 0x7f0000001234ull, 4000, 0, NULL);
	fixture_lost(fx, cyc, T0 + 7, 0, 11);
	fixture_lost_samples(fx, cyc, T0 + 8, 0, 13);
	fixture_sample(fx, cyc, T0 + 9, 0, 70, 71, 0x7f0000001234ull, 4000, 0, NULL);
}

START_TEST(mmap_and_lost_events)
{
	struct fixture_opts o = { .big_endian = true, .word_size = 8 };
	struct srep_session *s;
	struct tu_events ev = { 0 };
	const struct srep_event *e;

	read_fixture(&o, mmaps_and_losses, &ev, &s);
	e = at(&ev, SREP_EV_MMAP, T0 + 5);
	ck_assert_int_eq(e->source, SREP_SRC_RECORD);
	ck_assert_int_eq(e->u.mmap.pid, 70);
	ck_assert_int_eq(e->u.mmap.tid, 71);
	ck_assert_uint_eq(e->u.mmap.addr, 0x7f0000001000ull);
	ck_assert_uint_eq(e->u.mmap.len, 0x2000);
	ck_assert_uint_eq(e->u.mmap.pgoff, 0x3000);
	ck_assert_uint_eq(e->u.mmap.prot, 5);
	ck_assert_uint_eq(e->u.mmap.flags, 2);
	ck_assert_uint_eq(e->u.mmap.build_id_size, 0);
	e = at(&ev, SREP_EV_SAMPLE, T0 + 6);
	ck_assert_int_eq(e->source, SREP_SRC_SAMPLE);
	ck_assert_uint_eq(e->period, 4000);
	ck_assert_int_eq(e->pid, 70);
	ck_assert_int_eq(e->tid, 71);
	/* a task seen in samples only: its process from them */
	ck_assert_int_eq(srep_task__pid(srep_session__find_task(s, 71)), 70);
	ck_assert_uint_eq(srep_task__first_seen(srep_session__find_task(s, 71)), T0 + 6);
	ck_assert_uint_eq(srep_task__last_seen(srep_session__find_task(s, 71)), T0 + 9);
	e = at(&ev, SREP_EV_LOST, T0 + 7);
	ck_assert(!e->u.lost.samples);
	ck_assert_uint_eq(e->u.lost.lost, 11);
	ck_assert_uint_eq(e->u.lost.id, 1000);		/* the fixture's first id */
	e = at(&ev, SREP_EV_LOST, T0 + 8);
	ck_assert(e->u.lost.samples);
	ck_assert_uint_eq(e->u.lost.lost, 13);
	ck_assert_uint_eq(e->u.lost.id, 0);		/* LOST_SAMPLES has none */
	ck_assert_uint_eq(srep_session__stats(s)->lost, 11);
	ck_assert_uint_eq(srep_session__stats(s)->lost_samples, 13);
	ck_assert_uint_eq(srep_session__stats(s)->lost_time_ns, 3);	/* [T0+6, T0+9] */
	tu_events_free(&ev);
	srep_session__delete(s);
}
END_TEST

/*
 * The data-loss figure: per CPU, [last sample before a loss, first sample
 * after it]; their union. CPU 1's records are written after CPU 0's.
 *   CPU 0: samples 100, 200; LOST 250; sample 300     -> [200, 300]
 *          LOST 500; sample 600                      -> [300, 600]
 *   CPU 1: sample 150; LOST 260, LOST_SAMPLES 270;
 *          sample 400                                -> [150, 400]
 *          sample 700; LOST_SAMPLES 750; sample 900  -> [700, 900]
 *   CPU 2: LOST 1000 with no sample before; sample 1100 -> [1000, 1100]
 *   CPU 3: sample 350; LOST 360; sample 380          -> [350, 380], inside
 * union: [150, 600] + [700, 900] + [1000, 1100] = 450 + 200 + 100 = 750
 */
static void overlapping_losses(struct fixture *fx)
{
	int cyc = fixture_add_event(fx, PERF_TYPE_SOFTWARE, 0, 0);

#define SMP(t, c) fixture_sample(fx, cyc, T0 + (t), c, 9, 9, 0x1000, 1, 0, NULL)
	SMP(100, 0);
	SMP(200, 0);
	fixture_lost(fx, cyc, T0 + 250, 0, 1);
	SMP(300, 0);
	fixture_lost(fx, cyc, T0 + 500, 0, 2);
	SMP(600, 0);
	SMP(150, 1);
	fixture_lost(fx, cyc, T0 + 260, 1, 3);
	fixture_lost_samples(fx, cyc, T0 + 270, 1, 4);
	SMP(400, 1);
	SMP(700, 1);
	fixture_lost_samples(fx, cyc, T0 + 750, 1, 5);
	SMP(900, 1);
	fixture_lost(fx, cyc, T0 + 1000, 2, 6);
	SMP(1100, 2);
	SMP(350, 3);
	fixture_lost(fx, cyc, T0 + 360, 3, 7);
	SMP(380, 3);
#undef SMP
}

START_TEST(lost_time_union)
{
	int mode;

	for (mode = 0; mode < 4; mode++) {
		struct fixture_opts o = { .big_endian = mode & 1, .word_size = 8, .pipe = mode & 2,
					  .nr_cpus = 4 };
		struct srep_session *s;
		struct tu_events ev = { 0 };
		const struct srep_stats *st;

		read_fixture(&o, overlapping_losses, &ev, &s);
		st = srep_session__stats(s);
		ck_assert_uint_eq(st->lost_time_ns, 750);
		ck_assert_uint_eq(st->lost, 1 + 2 + 3 + 6 + 7);
		ck_assert_uint_eq(st->lost_samples, 4 + 5);
		ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_LOST), 7);
		/* asking again gives the same figure */
		ck_assert_uint_eq(srep_session__stats(s)->lost_time_ns, 750);
		tu_events_free(&ev);
		srep_session__delete(s);
	}
}
END_TEST

/*
 * A loss no sample follows on its CPU ends with the trace; a loss that
 * names no CPU (cpu -1) ends with the next sample on any CPU.
 *   CPU 0: sample 100; LOST 150; (nothing after on CPU 0)  -> [100, 400]
 *   CPU 1: sample 400 (the trace's last event)
 */
static void loss_at_the_end(struct fixture *fx)
{
	int cyc = fixture_add_event(fx, PERF_TYPE_SOFTWARE, 0, 0);

	fixture_sample(fx, cyc, T0 + 100, 0, 9, 9, 0x1000, 1, 0, NULL);
	fixture_lost(fx, cyc, T0 + 150, 0, 1);
	fixture_sample(fx, cyc, T0 + 400, 1, 9, 9, 0x1000, 1, 0, NULL);
}

START_TEST(loss_open_at_the_end)
{
	struct fixture_opts o = { .word_size = 8, .nr_cpus = 2 };
	struct tu_events ev = { 0 };
	struct srep_session *s;

	read_fixture(&o, loss_at_the_end, &ev, &s);
	ck_assert_uint_eq(srep_session__stats(s)->lost_time_ns, 300);
	tu_events_free(&ev);
	srep_session__delete(s);
}
END_TEST

/*
 * The kernel writes the FORK record before sched_process_fork, but with
 * equal times (a coarse clock) the tracepoint may arrive first: still one
 * fork, one task.
 */
static void fork_tie(struct fixture *fx)
{
	fixture_comm(fx, T0, 0, 100, 100, "server", false);
	fixture_tp_fork(fx, T0 + 10, 0, "server", 100, "server", 102);
	fixture_fork(fx, T0 + 10, 0, 100, 100, 102, 100);
	fixture_waking(fx, T0 + 20, 0, "server", 102, 120, 0);
	/* a later fork of a live tid is a reuse whose exit was lost: a new task */
	fixture_fork(fx, T0 + 30, 0, 100, 100, 102, 100);
}

START_TEST(fork_seen_twice_at_one_time)
{
	struct fixture_opts o = { .word_size = 8 };
	struct srep_session *s;
	struct tu_events ev = { 0 };
	size_t i, n = 0;

	read_fixture(&o, fork_tie, &ev, &s);
	ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_FORK), 1);
	for (i = 0; i < srep_session__nr_tasks(s); i++) {
		const struct srep_task *t = srep_session__task(s, i);

		if (srep_task__tid(t) != 102)
			continue;
		ck_assert_int_eq(srep_task__pid(t), 100);
		ck_assert_uint_eq(srep_task__fork_time(t), n ? T0 + 30 : T0 + 10);
		n++;
	}
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(at(&ev, SREP_EV_WAKEUP, T0 + 20)->u.wake.pid, 100);
	tu_events_free(&ev);
	srep_session__delete(s);
}
END_TEST

/* an MMAP2 or MMAP record body with the dummy's trailer (TID, TIME, ID, CPU) */
static void mmap_record(struct fixture *fx, uint32_t type, bool build_id, uint64_t time,
			const char *name)
{
	struct fx_buf b = { 0 };
	size_t n = strlen(name) + 1;
	int i;

	tu_u32(&b, 70);
	tu_u32(&b, 71);
	tu_u64(&b, 0x400000 + time % 1000 * 0x1000);
	tu_u64(&b, 0x1000);
	tu_u64(&b, 0);
	if (type == PERF_RECORD_MMAP2) {
		if (build_id) {
			tu_u8(&b, 20);
			tu_zero(&b, 3);
			for (i = 0; i < 20; i++)
				tu_u8(&b, (uint8_t)(0xb0 + i));
		} else {
			tu_u32(&b, 8);		/* maj, min, ino, ino_generation */
			tu_u32(&b, 1);
			tu_u64(&b, 4242);
			tu_u64(&b, 0);
		}
		tu_u32(&b, 5);			/* prot */
		tu_u32(&b, 2);			/* flags */
	}
	tu_put(&b, name, n);
	tu_zero(&b, (8 - n % 8) % 8);
	tu_u32(&b, 70);				/* the trailer */
	tu_u32(&b, 71);
	tu_u64(&b, time);
	tu_u64(&b, 0);
	tu_u32(&b, 0);
	tu_u32(&b, 0);
	fixture_raw_record(fx, type, build_id ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0, b.p, b.len);
	tu_buf_free(&b);
}

static void mmaps(struct fixture *fx)
{
	mmap_record(fx, PERF_RECORD_MMAP2, true, T0 + 1, "/usr/bin/with-build-id");
	mmap_record(fx, PERF_RECORD_MMAP2, false, T0 + 2, "/usr/lib/without.so");
	mmap_record(fx, PERF_RECORD_MMAP2, true, T0 + 3, "/usr/bin/with-build-id");
	mmap_record(fx, PERF_RECORD_MMAP, false, T0 + 4, "/usr/lib/old-record.so");
}

/* what one record does not say is not taken from the event before it */
START_TEST(mmap_fields_not_inherited)
{
	struct fixture_opts o = { .word_size = 8 };
	struct srep_session *s;
	struct tu_events ev = { 0 };
	const struct srep_event *e;
	int i;

	read_fixture(&o, mmaps, &ev, &s);
	ck_assert_uint_eq(tu_count_kind(&ev, SREP_EV_MMAP), 4);
	e = at(&ev, SREP_EV_MMAP, T0 + 1);
	ck_assert_uint_eq(e->u.mmap.build_id_size, 20);
	for (i = 0; i < 20; i++)
		ck_assert_uint_eq(e->u.mmap.build_id[i], 0xb0 + i);
	ck_assert_uint_eq(e->u.mmap.prot, 5);
	e = at(&ev, SREP_EV_MMAP, T0 + 2);
	ck_assert_uint_eq(e->u.mmap.build_id_size, 0);
	ck_assert_uint_eq(e->u.mmap.build_id[0], 0);
	ck_assert_uint_eq(e->u.mmap.addr, 0x402000);
	e = at(&ev, SREP_EV_MMAP, T0 + 4);		/* MMAP: no prot, flags or build id */
	ck_assert_uint_eq(e->u.mmap.build_id_size, 0);
	ck_assert_uint_eq(e->u.mmap.prot, 0);
	ck_assert_uint_eq(e->u.mmap.flags, 0);
	ck_assert_uint_eq(e->u.mmap.addr, 0x404000);
	ck_assert_int_eq(e->u.mmap.tid, 71);
	tu_events_free(&ev);
	srep_session__delete(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, comm_bytes_defined);
	tcase_add_test(tc, tracepoints_are_the_source);
	tcase_add_test(tc, records_are_the_events);
	tcase_add_test(tc, idle_is_swapper);
	tcase_add_test(tc, mmap_and_lost_events);
	tcase_add_test(tc, lost_time_union);
	tcase_add_test(tc, loss_open_at_the_end);
	tcase_add_test(tc, fork_seen_twice_at_one_time);
	tcase_add_test(tc, mmap_fields_not_inherited);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
