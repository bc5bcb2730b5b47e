// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_damage.c - bad input never crashes, hangs or allocates without
 * bound: every truncation of small fixtures (through a file and through a
 * pipe), random byte damage, and specific malformed records, each with the
 * error or warning it must give. Check forks per test, so a crash is a
 * failure; the tcase timeout turns a hang into one.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define T0 1000000000ull

static uint8_t *small_trace(const struct fixture_opts *o, size_t *len, struct fixture_info *info)
{
	struct fixture *fx = fixture_new(o);
	uint8_t *buf = NULL;
	int i;

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, T0, 0, 10, 10, "a", false);
	fixture_fork(fx, T0 + 1, 0, 11, 10, 11, 10);
	for (i = 0; i < 4; i++) {
		fixture_switch(fx, T0 + 10 + (uint64_t)i * 10, i & 1, "a", 10, 120,
			       FIXTURE_STATE_S, "b", 11, 120);
		fixture_waking(fx, T0 + 15 + (uint64_t)i * 10, 1, "a", 10, 120, 0);
	}
	fixture_exec(fx, T0 + 60, 0, "/bin/true", 11, 11);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	return buf;
}

/*
 * Read all of the first n bytes of a trace held in memory: the last status,
 * and the events read before it. A failure must say where and what.
 */
static void count_diag(void *arg, const struct srep_error *w)
{
	(void)w;
	(*(size_t *)arg)++;
}

static size_t prefix_warnings;	/* warnings of the last read_prefix() */

static int read_prefix(const uint8_t *buf, size_t n, struct srep_error *err, size_t *events)
{
	struct srep_open_opts oo = { .diag = count_diag, .diag_arg = &prefix_warnings };
	struct srep_session *s = NULL;
	const struct srep_event *ev;
	int ret;

	prefix_warnings = 0;
	ret = srep_session__open_mem(&s, buf, n, "cut.data", &oo, err);
	*events = 0;
	if (!ret)
		while ((ret = srep_session__next_event(s, &ev, err)) > 0)
			(*events)++;
	if (ret < 0) {
		ck_assert_msg(err->msg[0], "error %d without a message", ret);
		ck_assert_msg(err->has_offset, "error without an offset: %s", err->msg);
	}
	srep_session__delete(s);
	return ret;
}

/* the offsets where a pipe-mode stream can end: after its header and each record */
static bool *pipe_boundaries(const uint8_t *buf, size_t len, bool big_endian)
{
	bool *at = calloc(len + 1, sizeof(*at));
	size_t off = 16;	/* magic and header size */

	ck_assert_ptr_nonnull(at);
	at[off] = true;
	while (off + 8 <= len) {
		uint32_t type = srep_get32(buf + off, big_endian != SREP_HOST_BIG_ENDIAN);
		uint16_t size = srep_get16(buf + off + 6, big_endian != SREP_HOST_BIG_ENDIAN);

		ck_assert_uint_ge(size, 8);
		/* perf writes the tracing data itself after its record, padded to 8 */
		if (type == 66)
			size += (srep_get32(buf + off + 8, big_endian != SREP_HOST_BIG_ENDIAN) + 7) & ~7u;
		off += size;
		ck_assert_uint_le(off, len);
		at[off] = true;
	}
	ck_assert_uint_eq(off, len);
	return at;
}

/*
 * File mode: a prefix that cuts the data section fails with an error; a cut
 * in the feature sections after it only loses metadata. Pipe mode: a cut at
 * a record boundary is a shorter stream, read without error, with no more
 * events than the whole; a cut inside a record is an error, or a warning
 * that the bytes after the last record do not form one.
 */
static void truncations_of(const struct fixture_opts *o)
{
	struct fixture_info info;
	size_t len, n, events, all;
	uint8_t *buf = small_trace(o, &len, &info);
	bool *boundary = o->pipe ? pipe_boundaries(buf, len, o->big_endian) : NULL;
	struct srep_error err;
	int ret;

	ck_assert_int_eq(read_prefix(buf, len, &err, &all), 0);
	ck_assert_uint_gt(all, 8);
	for (n = 0; n <= len; n++) {
		memset(&err, 0, sizeof(err));
		ret = read_prefix(buf, n, &err, &events);
		if (!o->pipe && n < info.data_offset + info.data_size)
			ck_assert_msg(ret < 0, "a cut at %zu of %zu bytes read without error", n, len);
		else if (!o->pipe)
			ck_assert_msg(ret == 0, "a cut at %zu in the features failed: %s", n, err.msg);
		else if (boundary[n])
			ck_assert_msg(ret == 0 && events <= all, "a cut at record boundary %zu: %d, %s",
				      n, ret, err.msg);
		else
			ck_assert_msg(ret < 0 || prefix_warnings > 0,
				      "a cut inside a record at %zu read without error or warning", n);
	}
	free(boundary);
	free(buf);
}

START_TEST(truncated_file_le)
{
	struct fixture_opts o = { .word_size = 8 };

	truncations_of(&o);
}
END_TEST

START_TEST(truncated_file_be32_zstd)
{
	struct fixture_opts o = { .big_endian = true, .word_size = 4, .compressed = true,
				  .chunk_records = 3 };

	truncations_of(&o);
}
END_TEST

START_TEST(truncated_pipe_be)
{
	struct fixture_opts o = { .big_endian = true, .word_size = 8, .pipe = true };

	truncations_of(&o);
}
END_TEST

START_TEST(events_before_the_damage)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	char *dir = tu_tmpdir(), path[4096];
	size_t len;
	uint8_t *buf = small_trace(&o, &len, &info);
	int ret, n = 0;

	snprintf(path, sizeof(path), "%s/cut.data", dir);
	/* keep all but the last 8 bytes of the data section */
	ck_assert_int_eq(tu_write_file(path, buf, info.data_offset + info.data_size - 8), 0);
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while ((ret = srep_session__next_event(s, &ev, &err)) > 0)
		n++;
	ck_assert_int_eq(ret, SREP_E_TRUNCATED);
	ck_assert(err.has_offset);
	ck_assert_int_ge(n, 8);		/* the switches and wakeups before the cut */
	srep_session__delete(s);
	tu_rmdir(dir);
	free(dir);
	free(buf);
}
END_TEST

/* a file cut inside its data: one warning says what is lost, the error where */
START_TEST(cut_file_says_what_is_lost)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	struct srep_error err = { 0 };
	size_t len, events, cut;
	uint8_t *buf = small_trace(&o, &len, &info);
	int ret;

	cut = info.data_offset + info.data_size / 2;
	ret = read_prefix(buf, cut, &err, &events);
	ck_assert_int_eq(ret, SREP_E_TRUNCATED);
	ck_assert_uint_eq(prefix_warnings, 1);
	ck_assert_uint_gt(events, 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "records before it were read, the rest is lost"));
	free(buf);
}
END_TEST

/*
 * The same prefixes through a real pipe (the read() path, not a mapping):
 * each ends as the same bytes read from memory do, with the same events.
 */
START_TEST(truncated_through_stdin)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true, .compressed2 = true, .compressed = true };
	size_t len, n, mem_events, pipe_events;
	uint8_t *buf = small_trace(&o, &len, NULL);

	for (n = 0; n <= len; n += 7) {
		struct srep_error err = { 0 }, mem_err = { 0 };
		struct srep_session *s = NULL;
		const struct srep_event *ev;
		int fds[2], st, ret, mem_ret;
		pid_t pid;

		ck_assert_int_eq(pipe(fds), 0);
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			if (write(fds[1], buf, n) < 0)
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		ck_assert_int_ge(dup2(fds[0], STDIN_FILENO), 0);
		close(fds[0]);
		pipe_events = 0;
		ret = srep_session__open(&s, "-", NULL, &err);
		if (!ret)
			while ((ret = srep_session__next_event(s, &ev, &err)) > 0)
				pipe_events++;
		srep_session__delete(s);
		waitpid(pid, &st, 0);
		mem_ret = read_prefix(buf, n, &mem_err, &mem_events);
		ck_assert_msg(ret == mem_ret && pipe_events == mem_events,
			      "a cut at %zu: %d after %zu events through a pipe, %d after %zu from memory",
			      n, ret, pipe_events, mem_ret, mem_events);
		ck_assert_msg(ret == 0 || (err.has_offset && err.offset == mem_err.offset),
			      "a cut at %zu: the pipe's error is at %llu, memory's at %llu", n,
			      (unsigned long long)err.offset, (unsigned long long)mem_err.offset);
	}
	free(buf);
}
END_TEST

/* damage ~1% of the bytes, many times: only "no crash, no hang" is asked */
START_TEST(mutations)
{
	static const struct fixture_opts opts[] = {
		{ .word_size = 8 }, { .big_endian = true, .word_size = 4 },
		{ .word_size = 8, .pipe = true }, { .word_size = 8, .compressed = true },
	};
	unsigned seed = 12345;
	size_t k, events;
	int round;

	for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		size_t len, i;
		uint8_t *buf = small_trace(&opts[k], &len, NULL), *m = malloc(len);

		for (round = 0; round < 300; round++) {
			struct srep_error err = { 0 };

			memcpy(m, buf, len);
			for (i = 0; i < len / 100 + 1; i++)
				m[rand_r(&seed) % len] = (uint8_t)rand_r(&seed);
			read_prefix(m, len, &err, &events);
		}
		free(m);
		free(buf);
	}
}
END_TEST

/* ---- specific malformed input ---- */

struct warnings {
	int n;
	char last[SREP_ERR_MSG_MAX];
};

static void count_warning(void *arg, const struct srep_error *w)
{
	struct warnings *ws = arg;

	ws->n++;
	snprintf(ws->last, sizeof(ws->last), "%s", w->msg);
}

static int read_mem(const uint8_t *buf, size_t len, struct srep_session **s,
		    struct warnings *ws, struct srep_error *err, unsigned flags)
{
	struct srep_open_opts oo = { .flags = flags, .diag = count_warning, .diag_arg = ws };
	const struct srep_event *ev;
	char *dir = tu_tmpdir(), path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/d.data", dir);
	ck_assert_int_eq(tu_write_file(path, buf, len), 0);
	ret = srep_session__open(s, path, &oo, err);
	if (!ret) {
		while ((ret = srep_session__next_event(*s, &ev, err)) > 0)
			;
	}
	tu_rmdir(dir);
	free(dir);
	return ret;
}

START_TEST(not_perf_data)
{
	static const char text[] = "perf.data\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
	struct srep_session *s = NULL;
	struct warnings ws = { 0 };
	struct srep_error err = { 0 };

	ck_assert_int_eq(read_mem((const uint8_t *)text, sizeof(text), &s, &ws, &err, 0), SREP_E_NOT_PERF);
	ck_assert(err.has_offset);
	ck_assert_uint_eq(err.offset, 0);
	ck_assert_str_eq(err.msg, "expected the magic 'PERFILE2' (or 'PERFFILE'), found 'perf.dat'");
	ck_assert_int_eq(read_mem((const uint8_t *)"PER", 3, &s, &ws, &err, 0), SREP_E_NOT_PERF);
	ck_assert_ptr_null(s);
}
END_TEST

/* a pipe-mode trace with a damaged record in the middle */
static uint8_t *pipe_with_raw(const void *body, size_t blen, uint32_t type, size_t *len,
			      struct fixture_info *info)
{
	struct fixture_opts o = { .word_size = 8, .pipe = true };
	struct fixture *fx = fixture_new(&o);
	uint8_t *buf = NULL;

	fixture_comm(fx, T0, 0, 10, 10, "a", false);
	fixture_switch(fx, T0 + 10, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	fixture_raw_record(fx, type, 0, body, blen);
	fixture_switch(fx, T0 + 20, 0, "b", 11, 120, FIXTURE_STATE_S, "a", 10, 120);
	fixture_switch(fx, T0 + 30, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	fixture_switch(fx, T0 + 40, 0, "b", 11, 120, FIXTURE_STATE_S, "a", 10, 120);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	return buf;
}

START_TEST(unknown_types_skipped_and_counted)
{
	static const uint8_t body[16] = { 1, 2, 3 };
	static const uint32_t types[] = { 40 /* kernel, unknown */, 100 /* user, unknown */, 200 };
	size_t k;

	for (k = 0; k < 3; k++) {
		struct fixture_info info;
		struct srep_session *s = NULL;
		struct warnings ws = { 0 };
		struct srep_error err = { 0 };
		size_t len;
		uint8_t *buf = pipe_with_raw(body, sizeof(body), types[k], &len, &info);

		ck_assert_int_eq(read_mem(buf, len, &s, &ws, &err, 0), 0);
		ck_assert_uint_eq(srep_session__stats(s)->records[PERF_RECORD_SAMPLE], 4);
		if (types[k] < SREP_NR_RECORD_TYPES)
			ck_assert_uint_eq(srep_session__stats(s)->records[types[k]], 1);
		else
			ck_assert_uint_eq(srep_session__stats(s)->unknown_records, 1);
		srep_session__delete(s);
		free(buf);
	}
}
END_TEST

/* a record header claiming size 0 (as quipper's corrupted test file): skip to the next */
START_TEST(zero_size_record_resync)
{
	struct fixture_info info;
	struct srep_session *s = NULL;
	struct warnings ws = { 0 };
	struct srep_error err = { 0 };
	uint8_t body[24] = { 0 }, *buf, *p;
	size_t len;

	buf = pipe_with_raw(body, sizeof(body), 77, &len, &info);
	/* find the raw record (type 77) and zero its size */
	for (p = buf + 16; p + 8 <= buf + len;) {
		uint32_t type = srep_get32(p, false);
		uint16_t size = srep_get16(p + 6, false);

		ck_assert_uint_ge(size, 8);
		if (type == 77) {
			srep_put16(p + 6, 0, false);
			break;
		}
		/* the tracing blob follows its record */
		p += size + (type == PERF_RECORD_HEADER_TRACING_DATA ? srep_get32(p + 8, false) : 0);
	}
	ck_assert(p + 8 <= buf + len);
	ck_assert_int_eq(read_mem(buf, len, &s, &ws, &err, 0), 0);
	ck_assert_int_eq(ws.n, 1);
	srep_session__delete(s);
	/* a prescan reads the bytes twice; the warning is given once */
	memset(&ws, 0, sizeof(ws));
	ck_assert_int_eq(read_mem(buf, len, &s, &ws, &err, SREP_OPEN_PRESCAN), 0);
	ck_assert_int_eq(ws.n, 1);
	ck_assert_msg(strstr(ws.last, "has size 0") && strstr(ws.last, "skipped 32 bytes"),
		      "warning: %s", ws.last);
	ck_assert_uint_eq(srep_session__stats(s)->skipped_bytes, 32);
	ck_assert_uint_eq(srep_session__stats(s)->records[PERF_RECORD_SAMPLE], 4);
	srep_session__delete(s);
	free(buf);
}
END_TEST

/* a SAMPLE shorter than its sample_type: skipped with a warning, the rest is read */
START_TEST(short_sample_skipped)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct warnings ws = { 0 };
	struct srep_error err = { 0 };
	uint8_t *buf = NULL;
	uint8_t body[16] = { 0 };
	size_t len;
	int sw;

	sw = fixture_add_tracepoint(fx, "sched", "sched_switch");
	ck_assert_int_ge(sw, 0);
	fixture_switch(fx, T0 + 10, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	fixture_raw_record(fx, PERF_RECORD_SAMPLE, 0, body, sizeof(body));
	fixture_switch(fx, T0 + 20, 0, "b", 11, 120, FIXTURE_STATE_S, "a", 10, 120);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(read_mem(buf, len, &s, &ws, &err, 0), 0);
	ck_assert_uint_eq(srep_session__stats(s)->skipped_records, 1);
	ck_assert_int_ge(ws.n, 1);
	ck_assert_uint_eq(srep_session__stats(s)->events, 2);
	srep_session__delete(s);
	fixture_free(fx);
	free(buf);
}
END_TEST

/* a finished recording with no records: data size 0, the feature table right after */
START_TEST(empty_finished_trace)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture *fx = fixture_new(&o);
	struct srep_session *s = NULL;
	struct warnings ws = { 0 };
	struct srep_error err = { 0 };
	uint8_t *buf = NULL;
	size_t len;

	ck_assert_int_ge(fixture_add_tracepoint(fx, "sched", "sched_switch"), 0);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, NULL), 0);
	ck_assert_int_eq(read_mem(buf, len, &s, &ws, &err, 0), 0);
	ck_assert_uint_eq(srep_session__stats(s)->total_records, 0);
	ck_assert_ptr_nonnull(srep_session__meta(s)->hostname);	/* features were read */
	ck_assert_int_eq(ws.n, 0);
	srep_session__delete(s);
	fixture_free(fx);
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("damage");
	TCase *tc = tcase_create("damage");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, truncated_file_le);
	tcase_add_test(tc, truncated_file_be32_zstd);
	tcase_add_test(tc, truncated_pipe_be);
	tcase_add_test(tc, truncated_through_stdin);
	tcase_add_test(tc, cut_file_says_what_is_lost);
	tcase_add_test(tc, events_before_the_damage);
	tcase_add_test(tc, empty_finished_trace);
	tcase_add_test(tc, mutations);
	tcase_add_test(tc, not_perf_data);
	tcase_add_test(tc, unknown_types_skipped_and_counted);
	tcase_add_test(tc, zero_size_record_resync);
	tcase_add_test(tc, short_sample_skipped);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
