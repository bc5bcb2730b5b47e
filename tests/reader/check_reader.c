// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_reader.c - the reader on fixtures of every byte order x word size x
 * file/pipe x compression x sample id style x kernel format: perf's counts,
 * the metadata, and the neutral events with their exact values, in time
 * order, whatever order the records were written in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 5170000000000ull	/* 5170 s after boot: a plausible perf clock */
#define NR_ZMODES 4
#define NR_COMBOS (64 * NR_ZMODES)

/* bit 0 BE, 1 32-bit, 2 pipe, 3 identifier, 4 kernel 6.18, 5 perf 6.12 attrs; then zstd */
static struct fixture_opts combo(int i)
{
	struct fixture_opts o = {
		.big_endian = i & 1, .word_size = i & 2 ? 4 : 8, .pipe = i & 4,
		.sample_identifier = i & 8,
		.kernel = i & 16 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1,
		.attr_size_extra = i & 32 ? 8 : 0,
	};
	int z = i >> 6;

	o.compressed = z != 0;
	o.compressed2 = z == 3;
	o.split_every = z == 2 ? 3 : 0;
	o.chunk_records = z == 2 ? 5 : 0;
	o.plain_head = z ? 2 : 0;
	return o;
}

/* write to a fresh directory; returns it (remove with tu_rmdir) */
static char *write_trace(struct fixture *fx, struct fixture_info *info, char *path, size_t size)
{
	char *dir = tu_tmpdir();

	ck_assert_ptr_nonnull(dir);
	snprintf(path, size, "%s/t.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, info), 0);
	return dir;
}

/*
 * The scenario: a server forks a worker that execs; switches, a wakeup, a
 * migration, runtime stats; CPU 1's records are written after CPU 0's, as
 * perf drains one ring buffer after the other.
 */
static void scenario(struct fixture *fx, int cyc)
{
	static const uint64_t chain[3] = { (uint64_t)-128, 0xffffffff81001234ull, 0xffffffff81005678ull };

	ck_assert_int_eq(fixture_comm(fx, T0 + 0, 0, 100, 100, "server", false), 0);
	fixture_fork(fx, T0 + 10, 0, 101, 100, 101, 100);
	fixture_tp_fork(fx, T0 + 11, 0, "server", 100, "server", 101);
	fixture_switch(fx, T0 + 20, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "server", 100, 120);
	fixture_switch(fx, T0 + 50, 0, "server", 100, 120, FIXTURE_STATE_S, "worker", 101, 110);
	fixture_comm(fx, T0 + 52, 0, 101, 101, "worker", true);
	fixture_exec(fx, T0 + 53, 0, "/usr/bin/worker", 101, 101);
	fixture_stat_runtime(fx, T0 + 70, 0, "worker", 101, 12345, 999);
	fixture_switch(fx, T0 + 80, 0, "worker", 101, 110, FIXTURE_STATE_PREEMPT, "swapper/0", 0, 120);
	fixture_sample(fx, cyc, T0 + 85, 0, 100, 100, 0xffffffff81001234ull, 1000, 3, chain);
	/* CPU 1, written later but earlier in time */
	fixture_comm(fx, T0 + 1, 1, 200, 200, "client", false);
	fixture_switch(fx, T0 + 40, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "client", 200, 120);
	fixture_waking(fx, T0 + 45, 1, "server", 100, 120, 0);
	fixture_migrate(fx, T0 + 60, 1, "worker", 101, 110, 0, 1);
	fixture_switch(fx, T0 + 90, 1, "client", 200, 120, FIXTURE_STATE_D, "swapper/1", 0, 120);
	fixture_tp_exit(fx, T0 + 95, 0, "worker", 101, 110);
	fixture_exit(fx, T0 + 96, 0, 101, 100, 101, 100);
	fixture_lost_samples(fx, cyc, T0 + 97, 0, 7);
	fixture_sample(fx, cyc, T0 + 99, 0, 100, 100, 0xffffffff81001234ull, 1000, 0, NULL);
}

struct seen {
	enum srep_event_kind kind;
	uint64_t time;
	struct srep_event ev;
	char filename[64];
};

static size_t collect(struct srep_session *s, struct seen *out, size_t max)
{
	const struct srep_event *ev;
	struct srep_error err = { 0 };
	size_t n = 0;
	int ret;

	while ((ret = srep_session__next_event(s, &ev, &err)) > 0) {
		ck_assert_uint_lt(n, max);
		out[n].kind = ev->kind;
		out[n].time = ev->time;
		out[n].ev = *ev;
		if (ev->kind == SREP_EV_EXEC)
			snprintf(out[n].filename, sizeof(out[n].filename), "%s", ev->u.exec.filename);
		n++;
	}
	ck_assert_msg(ret == 0, "read failed: %s", err.msg);
	return n;
}

static const struct seen *find(const struct seen *v, size_t n, enum srep_event_kind kind,
			       uint64_t time)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].kind == kind && v[i].time == time)
			return &v[i];
	}
	ck_abort_msg("no %s event at T0+%llu", srep_event_kind_name(kind),
		     (unsigned long long)(time - T0));
	return NULL;
}

static void check_counts(const struct srep_session *s, const struct fixture_info *info,
			 const char *name)
{
	const struct srep_stats *st = srep_session__stats(s);
	int k;

	for (k = 0; k < SREP_NR_RECORD_TYPES; k++)
		ck_assert_msg(st->records[k] == info->records[k], "%s: type %d: %llu, expected %llu",
			      name, k, (unsigned long long)st->records[k],
			      (unsigned long long)info->records[k]);
	ck_assert_uint_eq(st->total_records, info->total);
	ck_assert_int_eq((int)srep_session__nr_evsels(s), info->nr_evsels);
	for (k = 0; k < info->nr_evsels; k++) {
		ck_assert_str_eq(srep_session__evsel_name(s, (size_t)k), info->evsel_names[k]);
		ck_assert_uint_eq(srep_session__evsel_samples(s, (size_t)k), info->samples[k]);
	}
	ck_assert_uint_eq(st->lost_samples, info->lost_samples);
}

static void check_meta(const struct srep_session *s, const struct fixture_opts *o)
{
	const struct srep_meta *m = srep_session__meta(s);

	ck_assert_int_eq(m->big_endian, o->big_endian);
	ck_assert_int_eq(m->pipe_mode, o->pipe);
	ck_assert_int_eq(m->word_size, o->word_size);
	ck_assert(m->has_tracing);
	ck_assert_int_eq(m->tracing_long_size, o->word_size);
	ck_assert_ptr_nonnull(m->hostname);
	ck_assert_ptr_nonnull(m->arch);
	ck_assert_int_ge(m->nr_cpus_online, 1);
	ck_assert_int_eq(m->compressed, o->compressed);
}

static void check_events(const struct seen *v, size_t n)
{
	const struct seen *e;
	size_t i;

	for (i = 1; i < n; i++)
		ck_assert_msg(v[i].time >= v[i - 1].time, "event %zu goes back in time", i);
	e = find(v, n, SREP_EV_SWITCH, T0 + 50);
	ck_assert_int_eq(e->ev.u.sw.prev_tid, 100);
	ck_assert_int_eq(e->ev.u.sw.prev_pid, 100);
	ck_assert_int_eq(e->ev.u.sw.prev_state, 'S');
	ck_assert_str_eq(e->ev.u.sw.prev_comm, "server");
	ck_assert_int_eq(e->ev.u.sw.next_tid, 101);
	ck_assert_int_eq(e->ev.u.sw.next_pid, 101);
	ck_assert_int_eq(e->ev.u.sw.next_prio, 110);
	ck_assert_int_eq(e->ev.cpu, 0);
	e = find(v, n, SREP_EV_SWITCH, T0 + 80);
	ck_assert_int_eq(e->ev.u.sw.prev_state, 'R');
	ck_assert(e->ev.flags & SREP_EVF_PREEMPT);
	e = find(v, n, SREP_EV_SWITCH, T0 + 90);
	ck_assert_int_eq(e->ev.u.sw.prev_state, 'D');
	ck_assert_int_eq(e->ev.cpu, 1);
	e = find(v, n, SREP_EV_WAKEUP, T0 + 45);
	ck_assert_int_eq(e->ev.u.wake.tid, 100);
	ck_assert_int_eq(e->ev.u.wake.target_cpu, 0);
	ck_assert_int_eq(e->ev.u.wake.kind, SREP_WAKE_WAKING);
	e = find(v, n, SREP_EV_FORK, T0 + 11);
	ck_assert_int_eq(e->ev.u.fork.parent_tid, 100);
	ck_assert_int_eq(e->ev.u.fork.child_tid, 101);
	ck_assert_int_eq(e->ev.u.fork.child_pid, 101);	/* from the FORK record */
	e = find(v, n, SREP_EV_EXEC, T0 + 53);
	ck_assert_str_eq(e->filename, "/usr/bin/worker");
	ck_assert_str_eq(e->ev.u.exec.comm, "worker");
	e = find(v, n, SREP_EV_MIGRATE, T0 + 60);
	ck_assert_int_eq(e->ev.u.migrate.orig_cpu, 0);
	ck_assert_int_eq(e->ev.u.migrate.dest_cpu, 1);
	e = find(v, n, SREP_EV_STAT, T0 + 70);
	ck_assert_uint_eq(e->ev.u.stat.value, 12345);
	ck_assert_int_eq(e->ev.u.stat.kind, SREP_STAT_RUNTIME);
	e = find(v, n, SREP_EV_EXIT, T0 + 95);
	ck_assert_int_eq(e->ev.u.exit.tid, 101);
	ck_assert_int_eq(e->ev.u.exit.ppid, 100);
	e = find(v, n, SREP_EV_SAMPLE, T0 + 85);
	ck_assert_uint_eq(e->ev.ip, 0xffffffff81001234ull);
	ck_assert_uint_eq(e->ev.period, 1000);
	e = find(v, n, SREP_EV_LOST, T0 + 97);
	ck_assert_uint_eq(e->ev.u.lost.lost, 7);
	ck_assert(e->ev.u.lost.samples);
	/* the FORK and EXIT records only feed the task table: one fact, one event */
	for (i = 0; i < n; i++)
		ck_assert(!(v[i].kind == SREP_EV_FORK && v[i].time == T0 + 10));
}

static void check_tasks(const struct srep_session *s)
{
	const struct srep_task *t = srep_session__find_task(s, 101);

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(srep_task__pid(t), 101);
	ck_assert_int_eq(srep_task__ppid(t), 100);
	ck_assert_str_eq(srep_task__comm(t), "worker");
	ck_assert_uint_eq(srep_task__fork_time(t), T0 + 10);
	ck_assert_uint_eq(srep_task__exit_time(t), T0 + 95);
	ck_assert(srep_task__matches_comm(t, "server"));	/* its comm before exec */
	ck_assert(srep_task__matches_comm(t, "wor*"));
	ck_assert_str_eq(srep_task__comm(srep_session__find_task(s, 0)), "swapper");
}

/*
 * A prescan builds the whole task table and knows the trace's time span
 * before the first event; a plain open learns the span while reading.
 */
START_TEST(time_span)
{
	struct fixture_opts o = combo(_i);
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct fixture_info info;
	uint64_t first, last;
	char path[4096], *dir;
	int cyc;

	ck_assert_ptr_nonnull(fx);
	cyc = fixture_add_event(fx, 1 /* SOFTWARE */, 0 /* cpu-clock */, PERF_SAMPLE_CALLCHAIN);
	scenario(fx, cyc);
	dir = write_trace(fx, &info, path, sizeof(path));
	ck_assert_msg(srep_session__open(&s, path, &oo, &err) == 0, "%s", err.msg);
	check_tasks(s);
	ck_assert(srep_session__time_span(s, &first, &last));
	ck_assert_uint_eq(first, T0);
	ck_assert_uint_eq(last, T0 + 99);
	srep_session__delete(s);
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	ck_assert(!srep_session__time_span(s, &first, &last));
	collect(s, (struct seen[64]){ 0 }, 64);
	ck_assert(srep_session__time_span(s, &first, &last));
	ck_assert_uint_eq(first, T0);
	ck_assert_uint_eq(last, T0 + 99);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(every_combination)
{
	struct fixture_opts o = combo(_i);
	struct fixture_info info;
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct seen seen[64];
	char name[96], path[4096], *dir;
	size_t n;
	int cyc;

	ck_assert_ptr_nonnull(fx);
	cyc = fixture_add_event(fx, 1 /* SOFTWARE */, 0 /* cpu-clock */, PERF_SAMPLE_CALLCHAIN);
	scenario(fx, cyc);
	dir = write_trace(fx, &info, path, sizeof(path));
	snprintf(name, sizeof(name), "combination %d", _i);
	ck_assert_msg(srep_session__open(&s, path, NULL, &err) == 0, "%s: %s", name, err.msg);
	n = collect(s, seen, 64);
	check_counts(s, &info, name);
	check_meta(s, &o);
	check_events(seen, n);
	check_tasks(s);
	ck_assert_uint_eq(srep_session__stats(s)->late_events, 0);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* PRESCAN: the whole task table before the first event, the events unchanged */
START_TEST(prescan_tables_every_task)
{
	struct fixture_opts o = combo(_i);
	struct fixture_info info;
	struct fixture *fx = fixture_new(&o);
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct seen seen[64];
	char path[4096], *dir;

	ck_assert_ptr_nonnull(fx);
	scenario(fx, fixture_add_event(fx, 1, 0, PERF_SAMPLE_CALLCHAIN));
	dir = write_trace(fx, &info, path, sizeof(path));
	ck_assert_msg(srep_session__open(&s, path, &oo, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(srep_session__nr_tasks(s), info.nr_tids);
	check_tasks(s);
	check_events(seen, collect(s, seen, 64));
	ck_assert_uint_eq(srep_session__nr_tasks(s), info.nr_tids);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/*
 * An MMAP2 without a build id reads build_id_size 0, not what the previous
 * event left in the union: here a runtime stat whose comm covers the bytes
 * of build_id_size.
 */
START_TEST(mmap_fields_are_fresh)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	struct fixture_info info;
	char path[4096], *dir;
	int n = 0;

	ck_assert_ptr_nonnull(fx);
	fixture_stat_runtime(fx, T0 + 10, 0, "worker-thread", 7, 1000, 2000);
	fixture_mmap2(fx, T0 + 20, 0, 8, 8, 0x400000, 0x1000, 0, "/usr/bin/x");
	dir = write_trace(fx, &info, path, sizeof(path));
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind == SREP_EV_STAT)
			ck_assert_str_eq(ev->u.stat.comm, "worker-thread");
		if (ev->kind != SREP_EV_MMAP)
			continue;
		ck_assert_uint_eq(ev->u.mmap.build_id_size, 0);
		ck_assert_uint_eq(ev->u.mmap.prot, 5);
		n++;
	}
	ck_assert_int_eq(n, 1);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* only tracepoint samples have fields: a record after one must not show its fields */
START_TEST(records_have_no_fields)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	struct srep_field f;
	char path[4096], *dir;
	int nr_switch = 0, nr_comm = 0;

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, T0, 0, 42, 42, "a", false);
	fixture_switch(fx, T0 + 10, 0, "a", 42, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_comm(fx, T0 + 20, 0, 42, 42, "b", false);
	dir = write_trace(fx, NULL, path, sizeof(path));
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind == SREP_EV_SWITCH) {
			nr_switch++;
			ck_assert_int_gt(srep_event__nr_fields(ev), 0);
			continue;
		}
		nr_comm++;
		ck_assert_int_eq(srep_event__nr_fields(ev), 0);
		ck_assert_int_ne(srep_event__field(ev, 0, &f), 0);
		ck_assert_int_eq(srep_event__field_by_name(ev, "prev_comm", &f), 0);
	}
	ck_assert_int_eq(nr_switch, 1);
	ck_assert_int_eq(nr_comm, 2);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* a record sets every field of its kind: nothing is left from the event before */
START_TEST(records_leave_nothing_behind)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	char path[4096], *dir;
	int cyc, losts = 0, mmaps = 0;

	ck_assert_ptr_nonnull(fx);
	cyc = fixture_add_event(fx, 1, 0, 0);
	fixture_lost(fx, cyc, T0 + 20, 0, 3);
	fixture_lost_samples(fx, cyc, T0 + 30, 0, 4);
	dir = write_trace(fx, NULL, path, sizeof(path));
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind == SREP_EV_LOST && ev->u.lost.samples) {
			losts++;
			ck_assert_uint_eq(ev->u.lost.lost, 4);
			ck_assert_uint_eq(ev->u.lost.id, 0);	/* LOST_SAMPLES has none */
		}
	}
	ck_assert_int_eq(losts, 1);
	srep_session__delete(s);
	/* the s390x sample's kernel map is an old-style MMAP record: no prot, flags, build id */
	snprintf(path, sizeof(path), "%s/tests/data/sample-s390x-zstd.data", SREP_TOP_SRCDIR);
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind != SREP_EV_MMAP || strncmp(ev->u.mmap.filename, "[kernel.kallsyms]", 17) ||
		    ev->u.mmap.pid != -1)
			continue;
		mmaps++;
		ck_assert_uint_eq(ev->u.mmap.prot, 0);
		ck_assert_uint_eq(ev->u.mmap.flags, 0);
		ck_assert_uint_eq(ev->u.mmap.build_id_size, 0);
	}
	ck_assert_int_eq(mmaps, 1);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the layout an event description announces is the one its samples have */
START_TEST(evsel_field_layout)
{
	struct fixture_opts o = combo(_i);
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	struct srep_field a, b;
	char path[4096], *dir;
	int i, n, checked = 0;

	ck_assert_ptr_nonnull(fx);
	scenario(fx, fixture_add_event(fx, 1, 0, PERF_SAMPLE_CALLCHAIN));
	dir = write_trace(fx, NULL, path, sizeof(path));
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		n = srep_session__evsel_nr_fields(s, (size_t)ev->evsel);
		ck_assert_int_eq(n, ev->evsel < 0 ? 0 : srep_event__nr_fields(ev));
		for (i = 0; i < n; i++) {
			ck_assert_int_eq(srep_session__evsel_field(s, (size_t)ev->evsel, i, &a), 0);
			ck_assert_int_eq(srep_event__field(ev, i, &b), 0);
			ck_assert_str_eq(a.name, b.name);
			ck_assert_int_eq(a.kind, b.kind);
			ck_assert_uint_eq(a.elem_size, b.elem_size);
			ck_assert_int_eq(a.elem_signed, b.elem_signed);
			checked++;
		}
		ck_assert_int_eq(srep_session__evsel_field(s, (size_t)ev->evsel, n, &a), SREP_E_INVAL);
	}
	ck_assert_int_gt(checked, 50);
	ck_assert_int_eq(srep_session__evsel_nr_fields(s, 9999), 0);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST


int main(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("combinations");

	tcase_add_loop_test(tc, every_combination, 0, NR_COMBOS);
	tcase_add_test(tc, mmap_fields_are_fresh);
	tcase_add_test(tc, records_have_no_fields);
	tcase_add_test(tc, records_leave_nothing_behind);
	tcase_add_loop_test(tc, evsel_field_layout, 0, 64);
	tcase_add_loop_test(tc, prescan_tables_every_task, 0, 8);
	suite_add_tcase(s, tc);
	tc = tcase_create("time span");
	/* file and pipe (a pipe is spooled for the prescan), LE and BE */
	tcase_add_loop_test(tc, time_span, 0, 8);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
