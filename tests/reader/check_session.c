// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_session.c - the public session API (src/session.c): open and
 * delete, rewind (the same events and counts on the second pass; pipes
 * only with SREP_OPEN_PRESCAN), the prescanned task table complete before
 * the first event (from a file and from stdin), tracepoint fields of
 * events, record type names as perf spells them, event kind names,
 * progress and the evsel accessors, reading only some kinds of events
 * (srep_session__set_interest).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/perfsched.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 7000000000ull

static void scenario(struct fixture *fx)
{
	int cyc = fixture_add_event(fx, PERF_TYPE_HARDWARE, 0, PERF_SAMPLE_CALLCHAIN);
	static const uint64_t chain[2] = { (uint64_t)-512, 0x401000 };
	int i;

	fixture_comm(fx, T0, 0, 10, 10, "init", false);
	fixture_fork(fx, T0 + 5, 0, 11, 10, 11, 10);
	fixture_tp_fork(fx, T0 + 6, 0, "init", 10, "init", 11);
	for (i = 0; i < 10; i++) {
		uint64_t t = T0 + 10 + 20 * (uint64_t)i;

		fixture_switch(fx, t, i & 1, "init", 10, 120, FIXTURE_STATE_S, "job", 11, 120);
		fixture_wakeup(fx, t + 5, (i + 1) & 1, "init", 10, 120, i & 1);
		fixture_sample(fx, cyc, t + 7, i & 1, 11, 11, 0x401000 + (uint64_t)i, 4000, 2, chain);
		fixture_switch(fx, t + 9, i & 1, "job", 11, 120, FIXTURE_STATE_R, "init", 10, 120);
		if (i == 4)
			fixture_finished_round(fx);
	}
	fixture_comm(fx, T0 + 300, 1, 11, 11, "job", true);
	fixture_exec(fx, T0 + 301, 1, "/usr/bin/job", 11, 11);
	/* a task only the end of the trace names */
	fixture_fork(fx, T0 + 400, 1, 99, 11, 99, 11);
	fixture_comm(fx, T0 + 401, 1, 99, 99, "late", true);
	fixture_exit(fx, T0 + 402, 1, 99, 11, 99, 11);
}

static uint8_t *trace(const struct fixture_opts *o, size_t *len, struct fixture_info *info)
{
	struct fixture *fx = fixture_new(o);
	uint8_t *buf = NULL;

	ck_assert_ptr_nonnull(fx);
	scenario(fx);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	return buf;
}

START_TEST(open_and_delete)
{
	struct fixture_opts o = { .word_size = 8 };
	struct srep_session *s = (struct srep_session *)&o;	/* overwritten */
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), path[4096];
	size_t len;
	uint8_t *buf = trace(&o, &len, NULL);

	srep_session__delete(NULL);
	snprintf(path, sizeof(path), "%s/missing.data", dir);
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), SREP_E_IO);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(err.path, path);
	snprintf(path, sizeof(path), "%s/t.data", dir);
	ck_assert_int_eq(tu_write_file(path, buf, len), 0);
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);	/* no options */
	ck_assert_str_eq(srep_session__meta(s)->path, path);
	ck_assert_str_eq(srep_session__meta(s)->format, "perf.data");
	srep_session__delete(s);
	/* a session deleted in the middle of its events */
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	{
		const struct srep_event *ev;

		ck_assert_int_eq(srep_session__next_event(s, &ev, &err), 1);
		ck_assert_int_eq(srep_session__next_event(s, &ev, &err), 1);
	}
	srep_session__delete(s);
	tu_rmdir(dir);
	free(dir);
	free(buf);
}
END_TEST

/* ---- rewind ---- */

struct pass {
	struct tu_events ev;
	struct srep_stats st;
	size_t nr_tasks;
	uint64_t samples[FIXTURE_MAX_EVSELS];
};

static void one_pass(struct srep_session *s, struct pass *p, const char *what)
{
	struct srep_error err = { 0 };
	size_t i;

	memset(p, 0, sizeof(*p));
	ck_assert_msg(tu_collect(s, &p->ev, &err) == 0, "%s: %s", what, err.msg);
	p->st = *srep_session__stats(s);
	p->nr_tasks = srep_session__nr_tasks(s);
	for (i = 0; i < srep_session__nr_evsels(s) && i < FIXTURE_MAX_EVSELS; i++)
		p->samples[i] = srep_session__evsel_samples(s, i);
}

/* read, rewind, read again: the same events, statistics, tasks and per-event counts */
static void rewind_same(struct srep_session *s, const char *what)
{
	struct pass a, b;
	struct srep_error err = { 0 };
	char why[256];

	one_pass(s, &a, what);
	ck_assert_msg(srep_session__rewind(s, &err) == 0, "%s: %s", what, err.msg);
	one_pass(s, &b, what);
	ck_assert_msg(tu_events_same(&a.ev, &b.ev, why, sizeof(why)), "%s: %s", what, why);
	ck_assert_msg(memcmp(&a.st, &b.st, sizeof(a.st)) == 0,
		      "%s: statistics differ (records %llu/%llu, legacy %llu/%llu, events %llu/%llu)",
		      what, (unsigned long long)a.st.total_records,
		      (unsigned long long)b.st.total_records,
		      (unsigned long long)a.st.google_legacy_records,
		      (unsigned long long)b.st.google_legacy_records,
		      (unsigned long long)a.st.events, (unsigned long long)b.st.events);
	ck_assert_uint_eq(a.nr_tasks, b.nr_tasks);
	ck_assert_int_eq(memcmp(a.samples, b.samples, sizeof(a.samples)), 0);
	tu_events_free(&a.ev);
	tu_events_free(&b.ev);
}

START_TEST(rewind_fixtures)
{
	int mode;

	for (mode = 0; mode < 16; mode++) {
		struct fixture_opts o = { .big_endian = mode & 1, .word_size = mode & 2 ? 4 : 8,
					  .pipe = mode & 4, .compressed = mode & 8,
					  .split_every = mode & 8 ? 2 : 0 };
		struct fixture_info info;
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		char what[32];
		size_t len;
		uint8_t *buf = trace(&o, &len, &info);

		snprintf(what, sizeof(what), "mode %d", mode);
		ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
		rewind_same(s, what);
		ck_assert_uint_eq(srep_session__stats(s)->total_records, info.total);
		/* a rewind in the middle of a pass starts over too */
		{
			const struct srep_event *ev;
			int i;

			ck_assert_int_eq(srep_session__rewind(s, &err), 0);
			for (i = 0; i < 7; i++)
				ck_assert_int_eq(srep_session__next_event(s, &ev, &err), 1);
			ck_assert_int_eq(srep_session__rewind(s, &err), 0);
			rewind_same(s, what);
		}
		srep_session__delete(s);
		free(buf);
	}
}
END_TEST

/* real traces of many writers, the ChromiumOS legacy pipe dialect among them */
START_TEST(rewind_corpus)
{
	static const char *const files[] = {
		"public/cros__perf.data.piped.production__blob-37b0642",
		"public/quipper__perf.data.piped.lost_samples-4.4",
		"public/quipper__perf.data.piped.corrupted.zero_size_sample-3.2",
		"public/lpd__fibo.compressed2.pipe.data",
		"public/lpd__sleep.compressed.data",
		"public/simpleperf__perf_with_arm_regs.data",
		"public/simpleperf__perf_with_tracepoint_event.data",
		"public/eclipse__fibTest_perf_old.data",
		"emulated/s390x-zstd.data",
		"emulated/armhf-switch-cpuwide.data",
		"emulated/arm64-trixie-zstd.data",
	};
	size_t i;

	if (!tu_corpus_dir())
		TU_SKIP("no corpus (set SREP_CORPUS)");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = tu_corpus_path(files[i]);
		struct srep_session *s = NULL;
		struct srep_error err = { 0 };
		struct srep_open_opts o = { 0 };

		if (srep_session__open(&s, path, &o, &err) != 0)
			ck_abort_msg("%s: %s", files[i], err.msg);
		rewind_same(s, files[i]);
		srep_session__delete(s);
		free(path);
	}
}
END_TEST

/* ---- pipes and prescanning ---- */

/* a trace in memory reads as the same file does, rewinds, and names itself */
START_TEST(open_from_memory)
{
	static const struct fixture_opts opts[] = {
		{ .word_size = 8 }, { .big_endian = true, .word_size = 4, .compressed = true },
		{ .word_size = 8, .pipe = true },
	};
	size_t k;

	for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		struct srep_session *f = NULL, *m = NULL;
		struct srep_error err = { 0 };
		struct pass a, b;
		size_t len;
		uint8_t *buf = trace(&opts[k], &len, NULL);
		char why[256];

		ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &f, &err), 0);
		ck_assert_msg(srep_session__open_mem(&m, buf, len, "trace.bin", NULL, &err) == 0,
			      "%s", err.msg);
		ck_assert_str_eq(srep_session__meta(m)->path, "trace.bin");
		one_pass(f, &a, "file");
		one_pass(m, &b, "memory");
		ck_assert_msg(tu_events_same(&a.ev, &b.ev, why, sizeof(why)), "%s", why);
		ck_assert_uint_eq(a.st.total_records, b.st.total_records);
		ck_assert_int_eq(srep_session__rewind(m, &err), 0);
		rewind_same(m, "memory");
		tu_events_free(&a.ev);
		tu_events_free(&b.ev);
		srep_session__delete(f);
		srep_session__delete(m);
		free(buf);
	}
}
END_TEST

START_TEST(pipe_cannot_rewind)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	size_t len;
	uint8_t *buf = trace(&o, &len, NULL);
	int feeder = tu_feed_stdin(buf, len, 512);

	ck_assert_int_eq(srep_session__open(&s, "-", NULL, &err), 0);
	ck_assert_int_eq(tu_collect(s, &ev, &err), 0);
	ck_assert_int_eq(srep_session__rewind(s, &err), SREP_E_UNSUPPORTED);
	ck_assert_msg(strstr(err.msg, "SREP_OPEN_PRESCAN"), "%s", err.msg);
	/* the session is still usable: its end stays the end */
	{
		const struct srep_event *e;

		ck_assert_int_eq(srep_session__next_event(s, &e, &err), 0);
	}
	srep_session__delete(s);
	tu_wait_feeder(feeder);
	tu_events_free(&ev);
	free(buf);
}
END_TEST

/*
 * With SREP_OPEN_PRESCAN the whole task table is there before the first
 * event, and the events are those of a plain read, from the first one.
 */
static void prescan_from(const uint8_t *buf, size_t len, bool from_stdin, bool pipe_mode)
{
	struct srep_open_opts opts = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *plain = NULL, *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events want = { 0 }, got = { 0 };
	const struct srep_task *late;
	char why[256];
	int feeder = -1;
	size_t i;

	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &plain, &err), 0);
	ck_assert_int_eq(tu_collect(plain, &want, &err), 0);
	if (from_stdin) {
		feeder = tu_feed_stdin(buf, len, 333);
		ck_assert_msg(srep_session__open(&s, "-", &opts, &err) == 0, "%s", err.msg);
	} else {
		ck_assert_int_eq(tu_open_mem(buf, len, SREP_OPEN_PRESCAN, NULL, &s, &err), 0);
	}
	ck_assert_int_eq(srep_session__meta(s)->pipe_mode, pipe_mode);
	/* before any event: every task, the one the trace's end makes included */
	ck_assert_uint_eq(srep_session__nr_tasks(s), srep_session__nr_tasks(plain));
	for (i = 0; i < srep_session__nr_tasks(s); i++) {
		const struct srep_task *a = srep_session__task(s, i), *b = srep_session__task(plain, i);

		ck_assert_int_eq(srep_task__tid(a), srep_task__tid(b));
		ck_assert_int_eq(srep_task__pid(a), srep_task__pid(b));
		ck_assert_str_eq(srep_task__comm(a), srep_task__comm(b));
		ck_assert_uint_eq(srep_task__last_seen(a), srep_task__last_seen(b));
	}
	late = srep_session__find_task(s, 99);
	ck_assert_ptr_nonnull(late);
	ck_assert_str_eq(srep_task__comm(late), "late");
	ck_assert_uint_eq(srep_task__exit_time(late), T0 + 402);
	/* nothing counted yet: the prescan's pass is not the caller's */
	ck_assert_uint_eq(srep_session__stats(s)->events, 0);
	ck_assert_int_eq(tu_collect(s, &got, &err), 0);
	ck_assert_msg(tu_events_same(&want, &got, why, sizeof(why)), "%s", why);
	ck_assert_uint_eq(srep_session__stats(s)->events, srep_session__stats(plain)->events);
	ck_assert_uint_eq(srep_session__stats(s)->total_records,
			  srep_session__stats(plain)->total_records);
	/* and it can be read again */
	ck_assert_int_eq(srep_session__rewind(s, &err), 0);
	srep_session__delete(s);
	srep_session__delete(plain);
	if (feeder >= 0)
		tu_wait_feeder(feeder);
	tu_events_free(&want);
	tu_events_free(&got);
}

START_TEST(prescan_file_and_stdin)
{
	int mode;

	for (mode = 0; mode < 4; mode++) {
		struct fixture_opts o = { .big_endian = mode & 1, .word_size = 8, .pipe = mode & 2,
					  .compressed2 = mode == 3 };
		size_t len;
		uint8_t *buf = trace(&o, &len, NULL);

		prescan_from(buf, len, false, o.pipe);
		prescan_from(buf, len, true, o.pipe);
		free(buf);
	}
}
END_TEST

/* ---- events' tracepoint fields ---- */

START_TEST(event_fields)
{
	struct fixture_opts o = { .word_size = 8 };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	size_t len;
	uint8_t *buf = trace(&o, &len, NULL);
	bool seen_switch = false, seen_comm = false, seen_sample = false;

	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		struct srep_field f;
		int n = srep_event__nr_fields(ev), i;

		if (ev->kind == SREP_EV_SWITCH && !seen_switch) {
			bool names[3] = { false };

			seen_switch = true;
			ck_assert_int_eq(ev->source, SREP_SRC_TRACEPOINT);
			ck_assert_int_ge(n, 7);
			for (i = 0; i < n; i++) {
				ck_assert_int_eq(srep_event__field(ev, i, &f), 0);
				ck_assert_ptr_nonnull(f.name);
				names[0] |= !strcmp(f.name, "prev_comm");
				names[1] |= !strcmp(f.name, "next_pid");
				names[2] |= !strcmp(f.name, "prev_state");
			}
			ck_assert(names[0] && names[1] && names[2]);
			ck_assert_int_eq(srep_event__field(ev, n, &f), SREP_E_INVAL);
			ck_assert_int_eq(srep_event__field(ev, -1, &f), SREP_E_INVAL);
			ck_assert_int_eq(srep_event__field_by_name(ev, "next_pid", &f), 1);
			ck_assert(f.kind == SREP_FIELD_INT || f.kind == SREP_FIELD_UINT);
			ck_assert_int_eq(f.kind == SREP_FIELD_INT ? f.i : (int64_t)f.u, ev->u.sw.next_tid);
			ck_assert_int_eq(srep_event__field_by_name(ev, "prev_comm", &f), 1);
			ck_assert_int_eq(f.kind, SREP_FIELD_STR);
			ck_assert_int_eq(strncmp(f.str, ev->u.sw.prev_comm, f.len), 0);
			ck_assert_int_eq(srep_event__field_by_name(ev, "no_such_field", &f), 0);
		}
		if (ev->source == SREP_SRC_RECORD && ev->kind == SREP_EV_COMM) {
			seen_comm = true;
			ck_assert_int_eq(n, 0);
			ck_assert_int_eq(srep_event__field(ev, 0, &f), SREP_E_INVAL);
			ck_assert_int_eq(srep_event__field_by_name(ev, "comm", &f), 0);
		}
		if (ev->kind == SREP_EV_SAMPLE) {
			seen_sample = true;
			ck_assert_int_eq(ev->source, SREP_SRC_SAMPLE);
			ck_assert_int_eq(n, 0);
			ck_assert_uint_eq(ev->nr_callchain, 2);
			ck_assert_uint_eq(ev->callchain[0], SREP_CONTEXT_USER);
			ck_assert_uint_eq(ev->callchain[1], 0x401000);
		}
	}
	ck_assert(seen_switch && seen_comm && seen_sample);
	srep_session__delete(s);
	free(buf);
}
END_TEST

/* branch stacks (perf record -b): from and to of each entry, newest first, in host order */
START_TEST(branch_stacks)
{
	struct fixture_opts fo = { .big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8 };
	static const uint64_t lbr[3][2] = { { 0x401040, 0x401000 }, { 0x401230, 0x401010 },
					    { 0xffffffff81000010ull, 0x401200 } };
	struct fixture *fx = fixture_new(&fo);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	unsigned samples = 0, i;
	uint8_t *buf = NULL;
	size_t len = 0;
	int cyc;

	ck_assert_ptr_nonnull(fx);
	cyc = fixture_add_event(fx, PERF_TYPE_HARDWARE, 0, PERF_SAMPLE_BRANCH_STACK);
	fixture_comm(fx, T0, 0, 10, 10, "job", false);
	ck_assert_int_eq(fixture_next_branches(fx, 3, &lbr[0][0]), 0);
	fixture_sample(fx, cyc, T0 + 10, 0, 10, 10, 0x401050, 4000, 0, NULL);
	fixture_sample(fx, cyc, T0 + 20, 0, 10, 10, 0x401060, 4000, 0, NULL);	/* an empty stack */
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(tu_open_mem(buf, len, 0, NULL, &s, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind != SREP_EV_SAMPLE)
			continue;
		ck_assert_uint_eq(ev->nr_branches, samples ? 0 : 3);
		for (i = 0; i < ev->nr_branches; i++) {
			ck_assert_uint_eq(ev->branches[i].from, lbr[i][0]);
			ck_assert_uint_eq(ev->branches[i].to, lbr[i][1]);
		}
		samples++;
	}
	ck_assert_uint_eq(samples, 2);
	srep_session__delete(s);
	fixture_free(fx);
	free(buf);
}
END_TEST

/* ---- names ---- */

/* perf's spelling, as its "Aggregated stats" prints them */
START_TEST(record_type_names)
{
	static const char *const perf_names[] = {
		[1] = "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ",
		"SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH",
		"SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE",
		"AUX_OUTPUT_HW_ID",
		[64] = "ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND",
		"ID_INDEX", "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",
		"STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE",
		"COMPRESSED", "FINISHED_INIT",
	};
	uint32_t t;

	for (t = 0; t < sizeof(perf_names) / sizeof(perf_names[0]); t++) {
		const char *ours = srep_record_type_name(t);

		if (perf_names[t])
			ck_assert_msg(ours && !strcmp(ours, perf_names[t]), "type %u: %s", t,
				      ours ? ours : "NULL");
		else if (t == 0 || (t > 22 && t < 64))
			ck_assert_msg(!ours, "type %u: %s", t, ours);
	}
	ck_assert_str_eq(srep_record_type_name(PERF_RECORD_COMPRESSED2), "COMPRESSED2");
	ck_assert_ptr_null(srep_record_type_name(0));
	ck_assert_str_eq(srep_record_type_name(86), "SCHEDSTAT_DOMAIN");
	ck_assert_ptr_null(srep_record_type_name(87));
	ck_assert_ptr_null(srep_record_type_name(127));
	ck_assert_ptr_null(srep_record_type_name(SREP_NR_RECORD_TYPES));
	ck_assert_ptr_null(srep_record_type_name(0xffffffffu));
}
END_TEST

/* every name perf prints in the corpus' stats maps to a type */
START_TEST(record_type_names_of_the_corpus)
{
	static const char *const stats[] = {
		"emulated/x86_64-pipe.report-D-stats.txt",
		"emulated/s390x-zstd.report-stats.txt",
		"emulated/arm64-switch-cpuwide.report-stats.txt",
		"public/quipper__perf.data.piped.lost_samples-4.4.host-report-stats.txt",
	};
	size_t i, k;

	if (!tu_corpus_dir())
		TU_SKIP("no corpus (set SREP_CORPUS)");
	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		char *path = tu_corpus_path(stats[i]), *text = tu_read_file(path, NULL);
		struct tu_stats st;

		ck_assert_msg(text != NULL, "%s", stats[i]);
		ck_assert_int_eq(tu_parse_perf_stats(text, &st), 0);
		for (k = 0; k < st.nr_records; k++) {
			uint32_t t;
			bool found = false;

			for (t = 0; t < SREP_NR_RECORD_TYPES && !found; t++)
				found = srep_record_type_name(t) &&
					!strcmp(srep_record_type_name(t), st.records[k].name);
			ck_assert_msg(found, "%s: perf's '%s' has no type", stats[i], st.records[k].name);
		}
		tu_stats_free(&st);
		free(text);
		free(path);
	}
}
END_TEST

START_TEST(event_kind_names)
{
	static const char *const names[SREP_EV_MAX] = {
		[SREP_EV_SWITCH] = "switch", [SREP_EV_WAKEUP] = "wakeup",
		[SREP_EV_MIGRATE] = "migrate", [SREP_EV_FORK] = "fork", [SREP_EV_EXEC] = "exec",
		[SREP_EV_EXIT] = "exit", [SREP_EV_FREE] = "free", [SREP_EV_COMM] = "comm",
		[SREP_EV_STAT] = "stat", [SREP_EV_CPU_IDLE] = "cpu_idle",
		[SREP_EV_CPU_FREQ] = "cpu_frequency", [SREP_EV_MMAP] = "mmap",
		[SREP_EV_SAMPLE] = "sample", [SREP_EV_LOST] = "lost",
	};
	int k;

	for (k = 1; k < SREP_EV_MAX; k++)
		ck_assert_str_eq(srep_event_kind_name((enum srep_event_kind)k), names[k]);
	ck_assert_str_eq(srep_event_kind_name(0), "unknown");
	ck_assert_str_eq(srep_event_kind_name(SREP_EV_MAX), "unknown");
	ck_assert_str_eq(srep_event_kind_name((enum srep_event_kind)-1), "unknown");
}
END_TEST

/* ---- the rest of the accessors ---- */

START_TEST(progress_and_evsels)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct tu_events ev = { 0 };
	uint64_t done, total;
	size_t len;
	int k;
	uint8_t *buf = trace(&o, &len, &info);

	/* before the first event: the features read at the end do not count */
	for (k = 1; k >= 0; k--) {	/* with a prescan (and its rewind), then without */
		ck_assert_int_eq(tu_open_mem(buf, len, k ? SREP_OPEN_PRESCAN : 0, NULL, &s, &err), 0);
		srep_session__progress(s, &done, &total);
		ck_assert_uint_eq(total, len);
		ck_assert_uint_lt(done, info.data_offset + info.data_size);
		if (k)
			srep_session__delete(s);
	}
	ck_assert_int_eq(tu_collect(s, &ev, &err), 0);
	srep_session__progress(s, &done, &total);
	ck_assert_uint_ge(done, info.data_offset + info.data_size);
	ck_assert_uint_le(done, total);
	ck_assert_int_eq((int)srep_session__nr_evsels(s), info.nr_evsels);
	for (k = 0; k < info.nr_evsels; k++) {
		ck_assert_str_eq(srep_session__evsel_name(s, (size_t)k), info.evsel_names[k]);
		ck_assert_uint_eq(srep_session__evsel_samples(s, (size_t)k), info.samples[k]);
	}
	ck_assert_uint_eq(srep_session__evsel_type(s, 0), PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(srep_session__evsel_config(s, 0), 0);
	ck_assert(srep_session__evsel_sample_type(s, 0) & PERF_SAMPLE_CALLCHAIN);
	ck_assert_uint_eq(srep_session__evsel_type(s, 1), PERF_TYPE_TRACEPOINT);
	/* out of range: neutral values */
	ck_assert_str_eq(srep_session__evsel_name(s, 999), "");
	ck_assert_uint_eq(srep_session__evsel_samples(s, 999), 0);
	ck_assert_uint_eq(srep_session__evsel_lost_samples(s, 999), 0);
	ck_assert_uint_eq(srep_session__evsel_type(s, 999), 0);
	ck_assert_ptr_null(srep_session__task(s, 999));
	ck_assert_ptr_null(srep_session__find_task(s, 12345));
	ck_assert_uint_eq(srep_session__stats(s)->first_time, T0);
	ck_assert_uint_eq(srep_session__stats(s)->last_time, T0 + 402);
	ck_assert_uint_eq(srep_session__stats(s)->events, ev.n);
	srep_session__delete(s);
	tu_events_free(&ev);
	free(buf);

	/* a pipe's total is unknown */
	o.pipe = true;
	buf = trace(&o, &len, &info);
	{
		int feeder = tu_feed_stdin(buf, len, 0);

		ck_assert_int_eq(srep_session__open(&s, "-", NULL, &err), 0);
		ck_assert_int_eq(srep_session__count(s, &err), 0);
		srep_session__progress(s, &done, &total);
		ck_assert_uint_eq(total, 0);
		ck_assert_uint_eq(done, len);
		ck_assert_uint_eq(srep_session__stats(s)->total_records, info.total);
		srep_session__delete(s);
		tu_wait_feeder(feeder);
	}
	free(buf);
}
END_TEST

/* ---- interest: the kinds a caller reads ---- */

static bool always_read(const struct srep_event *e, uint32_t kinds)
{
	const uint32_t task_kinds = SREP_EV_BIT(SREP_EV_FORK) | SREP_EV_BIT(SREP_EV_EXEC) |
				    SREP_EV_BIT(SREP_EV_EXIT) | SREP_EV_BIT(SREP_EV_FREE) |
				    SREP_EV_BIT(SREP_EV_COMM);

	return e->source != SREP_SRC_TRACEPOINT || ((kinds | task_kinds) & SREP_EV_BIT(e->kind));
}

/*
 * A task's pid, which the model fills in from its task table, may be known
 * later when fewer events are read: left out of the comparison.
 */
static void relax_task_fields(struct tu_events *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++) {
		struct srep_event *e = &ev->v[i];

		switch (e->kind) {
		case SREP_EV_SWITCH:
			e->u.sw.prev_pid = e->u.sw.next_pid = -1;
			break;
		case SREP_EV_WAKEUP:	e->u.wake.pid = -1; break;
		case SREP_EV_MIGRATE:	e->u.migrate.pid = -1; break;
		case SREP_EV_STAT:	e->u.stat.pid = -1; break;
		default:		break;
		}
	}
}

/* the events of a full read that an interest in 'kinds' keeps, in order */
static void keep_kinds(const struct tu_events *all, uint32_t kinds, struct tu_events *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->v = calloc(all->n ? all->n : 1, sizeof(*out->v));
	ck_assert_ptr_nonnull(out->v);
	for (i = 0; i < all->n; i++)
		if (always_read(&all->v[i], kinds))
			out->v[out->n++] = all->v[i];
	out->cap = all->n;
}

/*
 * With an interest, the events read are those of a full read of the kinds
 * asked for (and the task table's), in the same order with the same
 * fields; statistics by record, the time span and the CPUs stay those of
 * the whole trace.
 */
START_TEST(interest_corpus)
{
	static const char *const files[] = {
		"emulated/x86_64-messaging.data", "emulated/s390x-messaging.data",
		"emulated/armhf-switch-cpuwide.data", "emulated/arm64-trixie-zstd.data",
		"public/simpleperf__perf_with_trace_offcpu.data",
		"public/quipper__perf.data.piped.lost_samples-4.4",
		"public/cros__perf.data.piped.production__blob-37b0642",
	};
	static const uint32_t masks[] = {
		SREP_SCHEDMAP_EVENTS, SREP_TIMEHIST_EVENTS, SREP_LATENCY_EVENTS,
		~SREP_EV_BIT(SREP_EV_STAT), 0,
	};
	size_t i, m;

	if (!tu_corpus_dir())
		TU_SKIP("no corpus (set SREP_CORPUS)");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = tu_corpus_path(files[i]);
		struct srep_session *full = NULL;
		struct tu_events all = { 0 };
		struct srep_error err = { 0 };

		ck_assert_msg(srep_session__open(&full, path, NULL, &err) == 0, "%s: %s",
			      files[i], err.msg);
		ck_assert_int_eq(tu_collect(full, &all, &err), 0);
		for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
			const struct srep_stats *a = srep_session__stats(full), *b;
			struct srep_session *s = NULL;
			struct tu_events want, got = { 0 };
			char why[256];

			keep_kinds(&all, masks[m], &want);
			ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
			srep_session__set_interest(s, masks[m]);
			ck_assert_int_eq(tu_collect(s, &got, &err), 0);
			relax_task_fields(&want);
			relax_task_fields(&got);
			ck_assert_msg(tu_events_same(&want, &got, why, sizeof(why)),
				      "%s, kinds 0x%x: %s", files[i], masks[m], why);
			b = srep_session__stats(s);
			ck_assert_uint_eq(b->total_records, a->total_records);
			ck_assert(!memcmp(b->records, a->records, sizeof(a->records)));
			ck_assert_uint_eq(b->first_time, a->first_time);
			ck_assert_uint_eq(b->last_time, a->last_time);
			ck_assert_uint_eq(b->events, want.n);
			ck_assert_int_eq(srep_session__max_cpu(s), srep_session__max_cpu(full));
			ck_assert_int_eq(srep_session__max_sample_cpu(s),
					 srep_session__max_sample_cpu(full));
			tu_events_free(&want);
			tu_events_free(&got);
			srep_session__delete(s);
		}
		tu_events_free(&all);
		srep_session__delete(full);
		free(path);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("session");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, open_and_delete);
	tcase_add_test(tc, rewind_fixtures);
	tcase_add_test(tc, rewind_corpus);
	tcase_add_test(tc, open_from_memory);
	tcase_add_test(tc, pipe_cannot_rewind);
	tcase_add_test(tc, prescan_file_and_stdin);
	tcase_add_test(tc, event_fields);
	tcase_add_loop_test(tc, branch_stacks, 0, 4);
	tcase_add_test(tc, record_type_names);
	tcase_add_test(tc, record_type_names_of_the_corpus);
	tcase_add_test(tc, event_kind_names);
	tcase_add_test(tc, progress_and_evsels);
	tcase_add_test(tc, interest_corpus);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
