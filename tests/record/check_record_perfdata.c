// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_record_perfdata.c - the recorder's perf.data writer (perfdata.c,
 * feature.c, tracefs.c's tracing data, zstd.c): files written from records
 * built by hand are read back by the reader library with the counts, names,
 * header facts and events that went in, in file mode, pipe mode and with
 * compression; perf itself agrees when it is installed. A file whose last
 * rounds were never committed (a SIGKILL) reads up to the last commit.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "testutil.h"
#include "rectest.h"

#define T0 5170000000000ull

struct writer_env {
	struct rec_evlist el;
	struct rec_buf tracing;
	struct rec_features fs;
	struct pd_meta meta;
	char *dir, path[512];
};

static const char *const cmdline[] = { "record", "-o", "x.data" };

static void env_init(struct writer_env *w, bool compress)
{
	struct srep_error err = { 0 };
	struct rec_feature_input in = { &w->el, &w->tracing, cmdline, 3, compress, 1u << 20 };

	memset(w, 0, sizeof(*w));
	rt_evlist(&w->el, false);
	ck_assert_int_eq(tracefs_tracing_data(RT_TRACEFS, &w->el, &w->tracing, &err), 0);
	ck_assert_int_eq(features_collect(&w->fs, &in, &err), 0);
	w->meta = (struct pd_meta){ &w->el, &w->fs, &w->tracing, compress, 1u << 20 };
	w->dir = tu_tmpdir();
	ck_assert_ptr_nonnull(w->dir);
	snprintf(w->path, sizeof(w->path), "%s/t.data", w->dir);
}

static void env_free(struct writer_env *w)
{
	features_free(&w->fs);
	buf_free(&w->tracing);
	evlist_free(&w->el);
	tu_rmdir(w->dir);
	free(w->dir);
}

/* round 1: a task is named, woken and switched in; round 2: it leaves, a loss */
static void round1(struct writer_env *w, struct rec_buf *b)
{
	b->len = 0;
	rt_comm(b, &w->el, T0, 0, 42, "task42");
	rt_wakeup(b, &w->el, T0 + 1000, 1, 42);
	rt_switch(b, &w->el, T0 + 5000, 0, 0, 42);
}

static void round2(struct writer_env *w, struct rec_buf *b)
{
	b->len = 0;
	rt_switch(b, &w->el, T0 + 9000, 0, 42, 0);
	rt_lost(b, &w->el, T0 + 9500, 1, 7);
}

static void write_trace(struct writer_env *w, bool pipe, bool commit_last)
{
	struct srep_error err = { 0 };
	struct rec_buf b = { 0 };
	struct pd_out pd;
	int fd = open(w->path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pd_begin(&pd, fd, pipe, w->path, &w->meta, &err), 0);
	round1(w, &b);
	ck_assert_int_eq(pd_records(&pd, b.p, b.len, &err), 0);
	ck_assert_int_eq(pd_finished_round(&pd, &err), 0);
	ck_assert_int_eq(pd_commit(&pd, &err), 0);
	round2(w, &b);
	ck_assert_int_eq(pd_records(&pd, b.p, b.len, &err), 0);
	ck_assert_int_eq(pd_finished_round(&pd, &err), 0);
	if (commit_last)
		ck_assert_int_eq(pd_finish(&pd, &err), 0);
	pd_free(&pd);
	buf_free(&b);
	close(fd);
}

static struct srep_session *read_back(const char *path)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	char msg[600];
	int r = tu_read_all(path, 0, &s, &err);

	srep_error__format(&err, msg, sizeof(msg));
	ck_assert_msg(r == 0, "read back: %s", msg);
	return s;
}

static uint64_t samples_of(const struct srep_session *s, const char *name)
{
	size_t i;

	for (i = 0; i < srep_session__nr_evsels(s); i++) {
		if (!strcmp(srep_session__evsel_name(s, i), name))
			return srep_session__evsel_samples(s, i);
	}
	return UINT64_MAX;
}

/* perf's own count of the file, when perf is here */
static void perf_agrees(const struct srep_session *s, const char *path, bool pipe)
{
	struct tu_stats perf = { 0 };
	char cmd[700], why[1024], *out = NULL;

	if (!tu_have_program("perf"))
		return;
	snprintf(cmd, sizeof(cmd), pipe ? "perf report -D -i '%s' 2>/dev/null | sed -n '/^Aggregated stats/,$p'" :
		 "perf report --stats -i '%s' 2>/dev/null", path);
	ck_assert_int_eq(tu_run(cmd, &out), 0);
	ck_assert_int_eq(tu_parse_perf_stats(out, &perf), 0);
	ck_assert_msg(tu_stats_match(s, &perf, why, sizeof(why)), "perf disagrees: %s", why);
	tu_stats_free(&perf);
	free(out);
}

static void check_contents(const struct srep_session *s, bool pipe, bool compressed)
{
	const struct srep_stats *st = srep_session__stats(s);
	const struct srep_meta *m = srep_session__meta(s);
	struct utsname u;

	ck_assert_int_eq(st->records[REC_COMM], 1);
	ck_assert_int_eq(st->records[REC_SAMPLE], 3);
	ck_assert_int_eq(st->records[REC_LOST], 1);
	ck_assert_int_eq(st->records[REC_FINISHED_ROUND], 2);
	ck_assert_int_eq(st->records[REC_COMPRESSED] > 0, compressed);
	ck_assert_int_eq(st->records[REC_HEADER_ATTR], pipe ? 3 : 0);
	ck_assert_int_eq(st->records[REC_TRACING_DATA], pipe);
	ck_assert_int_eq(st->lost, 7);
	ck_assert_int_eq(samples_of(s, "sched:sched_switch"), 2);
	ck_assert_int_eq(samples_of(s, "sched:sched_wakeup"), 1);
	ck_assert_int_eq(m->pipe_mode, pipe);
	ck_assert(m->has_tracing);
	ck_assert_int_eq(uname(&u), 0);
	ck_assert_str_eq(m->hostname, u.nodename);
	ck_assert_str_eq(m->osrelease, u.release);
	ck_assert_str_eq(m->arch, u.machine);
	ck_assert_str_eq(m->perf_version, "schedrep " PACKAGE_VERSION);
	ck_assert_int_gt(m->nr_cpus_online, 0);
	ck_assert_int_gt(m->total_mem_kb, 0);
	ck_assert_int_eq(m->nr_cmdline, 4);
	ck_assert_str_eq(m->cmdline[1], "record");
	ck_assert_str_eq(m->cmdline[3], "x.data");
	ck_assert_int_eq(m->compressed, compressed);
	ck_assert_int_eq(srep_session__find_task(s, 42) != NULL, 1);
	ck_assert_str_eq(srep_task__comm(srep_session__find_task(s, 42)), "task42");
}

static void one_mode(bool pipe, bool compress)
{
	struct writer_env w;
	struct srep_session *s;

	env_init(&w, compress);
	write_trace(&w, pipe, true);
	s = read_back(w.path);
	check_contents(s, pipe, compress);
	perf_agrees(s, w.path, pipe);
	srep_session__delete(s);
	env_free(&w);
}

START_TEST(file_mode)
{
	one_mode(false, false);
}
END_TEST

START_TEST(pipe_mode)
{
	one_mode(true, false);
}
END_TEST

START_TEST(file_mode_zstd)
{
#ifdef HAVE_ZSTD
	one_mode(false, true);
#endif
}
END_TEST

START_TEST(pipe_mode_zstd)
{
#ifdef HAVE_ZSTD
	one_mode(true, true);
#endif
}
END_TEST

/* the events come back decoded: the switch-in of 42 follows its wakeup */
START_TEST(events_decode)
{
	const struct srep_event *ev;
	struct srep_session *s = NULL;
	struct srep_open_opts oo = { 0 };
	struct srep_error err = { 0 };
	struct writer_env w;
	int seen = 0;

	env_init(&w, false);
	write_trace(&w, false, true);
	ck_assert_int_eq(srep_session__open(&s, w.path, &oo, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind == SREP_EV_WAKEUP) {
			ck_assert_int_eq(ev->u.wake.tid, 42);
			ck_assert_int_eq(ev->time, T0 + 1000);
			seen |= 1;
		} else if (ev->kind == SREP_EV_SWITCH && ev->u.sw.next_tid == 42) {
			ck_assert_int_eq(ev->time, T0 + 5000);
			ck_assert_int_eq(seen, 1);
			seen |= 2;
		}
	}
	ck_assert_int_eq(seen, 3);
	srep_session__delete(s);
	env_free(&w);
}
END_TEST

/* killed after round 1's commit: round 2's bytes are there, but not counted */
START_TEST(uncommitted_round_is_not_read)
{
	const struct srep_stats *st;
	struct srep_session *s;
	struct writer_env w;

	env_init(&w, false);
	write_trace(&w, false, false);
	s = read_back(w.path);
	st = srep_session__stats(s);
	ck_assert_int_eq(st->records[REC_SAMPLE], 2);
	ck_assert_int_eq(st->records[REC_LOST], 0);
	ck_assert_int_eq(st->records[REC_FINISHED_ROUND], 1);
	ck_assert_ptr_nonnull(srep_session__meta(s)->hostname);
	perf_agrees(s, w.path, false);
	srep_session__delete(s);
	env_free(&w);
}
END_TEST

/* killed inside a commit, after the features were hidden: still readable */
START_TEST(hidden_features_still_read)
{
	static const uint8_t none[32];
	struct srep_session *s;
	struct writer_env w;
	int fd;

	env_init(&w, false);
	write_trace(&w, false, false);
	fd = open(w.path, O_WRONLY);
	ck_assert_int_eq(pwrite(fd, none, sizeof(none), 72), (ssize_t)sizeof(none));
	close(fd);
	s = read_back(w.path);
	ck_assert_int_eq(srep_session__stats(s)->records[REC_SAMPLE], 2);
	ck_assert_ptr_null(srep_session__meta(s)->hostname);
	srep_session__delete(s);
	env_free(&w);
}
END_TEST

/* rounds shorter than the feature table: the held-back bytes still land */
/* a round with nothing in it (found by fuzz_record: memcpy from NULL) */
START_TEST(empty_rounds)
{
	struct srep_error err = { 0 };
	struct srep_session *s;
	struct writer_env w;
	struct pd_out pd;
	int fd;

	env_init(&w, false);
	fd = open(w.path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(pd_begin(&pd, fd, false, w.path, &w.meta, &err), 0);
	ck_assert_int_eq(pd_records(&pd, NULL, 0, &err), 0);
	ck_assert_int_eq(pd_finished_round(&pd, &err), 0);
	ck_assert_int_eq(pd_records(&pd, NULL, 0, &err), 0);
	ck_assert_int_eq(pd_finish(&pd, &err), 0);
	pd_free(&pd);
	close(fd);
	s = read_back(w.path);
	ck_assert_uint_eq(srep_session__stats(s)->records[REC_SAMPLE], 0);
	ck_assert_uint_eq(srep_session__stats(s)->records[REC_FINISHED_ROUND], 1);
	srep_session__delete(s);
	env_free(&w);
}
END_TEST

START_TEST(tiny_rounds)
{
	struct srep_error err = { 0 };
	struct rec_buf b = { 0 };
	struct srep_session *s;
	struct writer_env w;
	struct pd_out pd;
	char name[16];
	int fd, i;

	env_init(&w, false);
	fd = open(w.path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(pd_begin(&pd, fd, false, w.path, &w.meta, &err), 0);
	for (i = 0; i < 40; i++) {
		b.len = 0;
		snprintf(name, sizeof(name), "t%d", i);
		rt_comm(&b, &w.el, T0 + (uint64_t)i, 0, 100 + i, name);
		ck_assert_int_eq(pd_records(&pd, b.p, b.len, &err), 0);
		ck_assert_int_eq(pd_finished_round(&pd, &err), 0);
		if (i % 3 == 0)
			ck_assert_int_eq(pd_commit(&pd, &err), 0);
	}
	ck_assert_int_eq(pd_finish(&pd, &err), 0);
	pd_free(&pd);
	close(fd);
	s = read_back(w.path);
	ck_assert_int_eq(srep_session__stats(s)->records[REC_COMM], 40);
	ck_assert_str_eq(srep_task__comm(srep_session__find_task(s, 139)), "t39");
	srep_session__delete(s);
	buf_free(&b);
	env_free(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_perfdata");
	TCase *tc = tcase_create("write");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, file_mode);
	tcase_add_test(tc, pipe_mode);
	tcase_add_test(tc, file_mode_zstd);
	tcase_add_test(tc, pipe_mode_zstd);
	tcase_add_test(tc, events_decode);
	tcase_add_test(tc, uncommitted_round_is_not_read);
	tcase_add_test(tc, hidden_features_still_read);
	tcase_add_test(tc, empty_rounds);
	tcase_add_test(tc, tiny_rounds);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
