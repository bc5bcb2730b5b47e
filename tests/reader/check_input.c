// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_input.c - bounded access to the input (src/input.c): mmap windows
 * over a file larger than the 8 MiB window (reads straddling its edge,
 * backwards and forwards, and a whole trace with a record across it),
 * windows held by queued records outliving the move to the next one,
 * pipes fed by a child in small writes, spooling a pipe to a temporary
 * file, and truncation reporting how many bytes there are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"
#include "reader.h"

#define WINDOW		(2u << 20)	/* input.c's WINDOW_SIZE */
#define BIG		(WINDOW + (3u << 20) + 123)

/* byte i of the test pattern: differs between neighbours and between windows */
static uint8_t pat(uint64_t i)
{
	return (uint8_t)(i * 131 + (i >> 12) * 7 + (i >> 20));
}

static uint8_t *pattern(size_t len)
{
	uint8_t *p = malloc(len);
	size_t i;

	ck_assert_ptr_nonnull(p);
	for (i = 0; i < len; i++)
		p[i] = pat(i);
	return p;
}

static char *write_tmp(const void *buf, size_t len, char **dir)
{
	char *path;

	*dir = tu_tmpdir();
	ck_assert_ptr_nonnull(*dir);
	ck_assert_int_ge(asprintf(&path, "%s/in.bin", *dir), 0);
	ck_assert_int_eq(tu_write_file(path, buf, len), 0);
	return path;
}

/* 'len' bytes at 'off' are the pattern's, wherever the window is */
static void expect_bytes(struct srep_input *in, uint64_t off, size_t len)
{
	const uint8_t *p = NULL;
	struct srep_error err = { 0 };
	size_t avail = 0, i;

	if (input_get(in, off, len, &p, &avail, &err) != 0)
		ck_abort_msg("get %zu at %llu: %s", len, (unsigned long long)off, err.msg);
	for (i = 0; i < len; i++)
		if (p[i] != pat(off + i))
			ck_abort_msg("byte %llu wrong", (unsigned long long)(off + i));
	if (in->consumed < off + len)
		ck_abort_msg("consumed %llu after reading to %llu", (unsigned long long)in->consumed,
			     (unsigned long long)(off + len));
}

START_TEST(file_windows)
{
	static const size_t lens[] = { 1, 7, 8, 64, 4096, 65536 };
	char *dir, *path;
	uint8_t *buf = pattern(BIG);
	struct srep_input in;
	struct srep_error err = { 0 };
	size_t k;
	uint64_t edge;

	path = write_tmp(buf, BIG, &dir);
	ck_assert_int_eq(input_open(&in, path, &err), 0);
	ck_assert(in.is_file);
	ck_assert_uint_eq(in.size, BIG);
	expect_bytes(&in, 0, 8);
	ck_assert_uint_eq(in.map_off, 0);
	ck_assert_uint_eq(in.map_len, WINDOW);
	edge = in.map_off + in.map_len;
	/* reads across the window's edge, each from wherever the last left it */
	for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		expect_bytes(&in, edge - lens[k] / 2 - 1, lens[k]);
		expect_bytes(&in, 100, 16);			/* back to the start */
		expect_bytes(&in, edge - 1, 1);
		expect_bytes(&in, edge, 1);
	}
	/* larger than a window: mapped whole */
	expect_bytes(&in, 5, WINDOW + 1000);
	/* the last byte, and a window that cannot be full at the end */
	expect_bytes(&in, BIG - 1, 1);
	ck_assert_uint_le(in.map_off + in.map_len, BIG);
	expect_bytes(&in, BIG - 3000, 3000);
	/* every window start is page aligned */
	ck_assert_uint_eq(in.map_off % (uint64_t)sysconf(_SC_PAGESIZE), 0);
	input_close(&in);
	ck_assert_int_eq(in.fd, -1);
	tu_rmdir(dir);
	free(dir);
	free(path);
	free(buf);
}
END_TEST

/* a held window stays readable after the reader moves on; the last unhold unmaps it */
START_TEST(held_windows)
{
	char *dir, *path;
	uint8_t *buf = pattern(BIG);
	struct srep_input in;
	struct srep_error err = { 0 };
	struct input_window *first, *again, *second;
	const uint8_t *p = NULL, *q = NULL;
	size_t i;

	path = write_tmp(buf, BIG, &dir);
	ck_assert_int_eq(input_open(&in, path, &err), 0);
	ck_assert_int_eq(input_get(&in, 100, 64, &p, NULL, &err), 0);
	first = input_hold(&in, p, 64);
	ck_assert_ptr_nonnull(first);
	again = input_hold(&in, p + 8, 8);
	ck_assert_ptr_eq(again, first);
	/* bytes outside the window cannot be lent */
	ck_assert_ptr_null(input_hold(&in, p, WINDOW));
	ck_assert_int_eq(input_get(&in, WINDOW + 500, 32, &q, NULL, &err), 0);
	second = input_hold(&in, q, 32);
	ck_assert_ptr_nonnull(second);
	ck_assert_ptr_ne(second, first);
	ck_assert(first->retired);
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(p[i], pat(100 + i));
	input_unhold(again);
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(p[i], pat(100 + i));
	input_unhold(first);	/* unmapped and freed: valgrind and ASan see no leak */
	/* a window still lent when the input closes is freed by its last holder */
	input_close(&in);
	for (i = 0; i < 32; i++)
		ck_assert_uint_eq(q[i], pat(WINDOW + 500 + i));
	input_unhold(second);
	tu_rmdir(dir);
	free(dir);
	free(path);
	free(buf);
}
END_TEST

/*
 * Read front to back, a file's next window is mapped on prefetch.c's
 * thread: it starts a record's most (64 KiB) before the current one's end,
 * where the reader would have started it at the record that crosses the
 * edge. A jump back maps for itself, and the reading goes on right after.
 */
START_TEST(prefetched_windows)
{
	const size_t size = 4 * WINDOW + 777, step = 4000;
	char *dir, *path;
	uint8_t *buf = pattern(size);
	struct srep_input in;
	struct srep_error err = { 0 };
	uint64_t off, prefetched = 0;

	path = write_tmp(buf, size, &dir);
	ck_assert_int_eq(input_open(&in, path, &err), 0);
	for (off = 0; off + step <= size; off += step) {
		uint64_t before = in.map_off;

		expect_bytes(&in, off, step);
		if (off && in.map_off != before && in.map_off + 65536 ==
		    ((before + WINDOW) & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1)))
			prefetched++;
	}
	ck_assert_ptr_nonnull(in.pf);
	/* every window after the first: each starts 64 KiB back, so 8 MB take five */
	ck_assert_uint_eq(prefetched, 4);
	expect_bytes(&in, 10, 100);		/* back: not what was prefetched */
	ck_assert_uint_eq(in.map_off, 0);
	expect_bytes(&in, WINDOW + 5, 100);
	expect_bytes(&in, size - 1, 1);
	input_close(&in);
	tu_rmdir(dir);
	free(dir);
	free(path);
	free(buf);
}
END_TEST

/* the caller's buffer is not ours to lend (pipes' buffers move: they lend nothing either) */
START_TEST(memory_does_not_lend)
{
	static const uint8_t mem[64] = { 1, 2, 3 };
	struct srep_input in;
	const uint8_t *p = NULL;

	input_open_mem(&in, mem, sizeof(mem));
	ck_assert_int_eq(input_get(&in, 0, 8, &p, NULL, NULL), 0);
	ck_assert_ptr_null(input_hold(&in, p, 8));
	input_close(&in);
}
END_TEST

START_TEST(file_truncation_avail)
{
	char *dir, *path;
	uint8_t *buf = pattern(1000);
	struct srep_input in;
	struct srep_error err = { 0 };
	const uint8_t *p;
	size_t avail;

	path = write_tmp(buf, 1000, &dir);
	ck_assert_int_eq(input_open(&in, path, &err), 0);
	avail = 12345;
	ck_assert_int_eq(input_get(&in, 990, 16, &p, &avail, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(avail, 10);
	ck_assert_int_eq(input_get(&in, 1000, 1, &p, &avail, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(avail, 0);
	ck_assert_int_eq(input_get(&in, 5000, 1, &p, &avail, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(avail, 0);
	/* offsets and lengths that would wrap around */
	ck_assert_int_eq(input_get(&in, UINT64_MAX - 2, 8, &p, &avail, &err), SREP_E_TRUNCATED);
	ck_assert_int_eq(input_get(&in, 10, SIZE_MAX, &p, &avail, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(avail, 990);
	/* NULL avail is allowed */
	ck_assert_int_eq(input_get(&in, 999, 2, &p, NULL, &err), SREP_E_TRUNCATED);
	expect_bytes(&in, 0, 1000);
	expect_bytes(&in, 1000, 0);
	input_close(&in);
	tu_rmdir(dir);
	free(dir);
	free(path);
	free(buf);
}
END_TEST

START_TEST(open_errors)
{
	struct srep_input in;
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), *missing;

	ck_assert_int_ge(asprintf(&missing, "%s/none", dir), 0);
	ck_assert_int_eq(input_open(&in, missing, &err), SREP_E_IO);
	ck_assert_msg(strstr(err.msg, "cannot open") && strstr(err.msg, "No such file"), "%s",
		      err.msg);
	ck_assert_int_eq(input_open(&in, dir, &err), SREP_E_UNSUPPORTED);
	ck_assert_msg(strstr(err.msg, "is a directory"), "%s", err.msg);
	tu_rmdir(dir);
	free(dir);
	free(missing);
}
END_TEST

/* ---- pipes ---- */

START_TEST(pipe_small_writes)
{
	static const size_t chunks[] = { 1, 3, 4096, 0 };
	size_t len = 3u << 20, k;
	uint8_t *buf = pattern(len);

	for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
		struct srep_input in;
		struct srep_error err = { 0 };
		const uint8_t *p;
		size_t avail, size = chunks[k] == 1 ? 200000 : len;
		uint64_t off;
		int feeder = tu_feed_stdin(buf, size, chunks[k]);

		ck_assert_int_eq(input_open(&in, "-", &err), 0);
		ck_assert(!in.is_file);
		ck_assert_uint_eq(in.size, 0);
		/* forward in records of odd sizes, releasing what is behind */
		for (off = 0; off + 1000 <= size; off += 997) {
			expect_bytes(&in, off, 1000);
			input_release(&in, off);
			if (in.buf_len > (4u << 20))
				ck_abort_msg("%zu bytes buffered at %llu", in.buf_len,
					     (unsigned long long)off);
		}
		/* the end: what is left, then nothing */
		avail = 0;
		ck_assert_int_eq(input_get(&in, off, 2000, &p, &avail, &err), SREP_E_TRUNCATED);
		ck_assert_uint_eq(avail, size - off);
		expect_bytes(&in, off, size - off);
		ck_assert_int_eq(input_get(&in, size, 1, &p, &avail, &err), SREP_E_TRUNCATED);
		ck_assert_uint_eq(avail, 0);
		input_close(&in);
		tu_wait_feeder(feeder);
	}
	free(buf);
}
END_TEST

/* one read larger than any sane record or blob is refused, not buffered */
START_TEST(pipe_read_limit)
{
	uint8_t small[64] = { 0 };
	struct srep_input in;
	struct srep_error err = { 0 };
	const uint8_t *p;
	int feeder = tu_feed_stdin(small, sizeof(small), 0);

	ck_assert_int_eq(input_open(&in, "-", &err), 0);
	ck_assert_int_eq(input_get(&in, 0, SREP_MAX_BLOB + (1u << 20), &p, NULL, &err), SREP_E_LIMIT);
	ck_assert_msg(strstr(err.msg, "above the limit"), "%s", err.msg);
	input_close(&in);
	tu_wait_feeder(feeder);
}
END_TEST

/* a pipe copied to a temporary file: random access, every byte, the buffered ones too */
START_TEST(spool)
{
	size_t len = WINDOW + 5000;
	uint8_t *buf = pattern(len);
	struct srep_input in;
	struct srep_error err = { 0 };
	int feeder = tu_feed_stdin(buf, len, 65536);

	ck_assert_int_eq(input_open(&in, "-", &err), 0);
	expect_bytes(&in, 0, 100000);			/* some already buffered */
	ck_assert_int_eq(input_spool(&in, &err), 0);
	ck_assert(in.is_file);
	ck_assert_uint_eq(in.size, len);
	ck_assert_ptr_null(in.buf);
	expect_bytes(&in, len - 10, 10);
	expect_bytes(&in, 0, 64);
	expect_bytes(&in, WINDOW - 3, 8);
	expect_bytes(&in, 99990, 20);			/* across the old buffer's end */
	/* spooling a file does nothing */
	ck_assert_int_eq(input_spool(&in, &err), 0);
	ck_assert_uint_eq(in.size, len);
	input_close(&in);
	tu_wait_feeder(feeder);
	free(buf);
}
END_TEST

START_TEST(spool_empty_pipe)
{
	struct srep_input in;
	struct srep_error err = { 0 };
	const uint8_t *p;
	size_t avail = 7;
	int feeder = tu_feed_stdin("", 0, 0);

	ck_assert_int_eq(input_open(&in, "-", &err), 0);
	ck_assert_int_eq(input_spool(&in, &err), 0);
	ck_assert(in.is_file);
	ck_assert_uint_eq(in.size, 0);
	ck_assert_int_eq(input_get(&in, 0, 1, &p, &avail, &err), SREP_E_TRUNCATED);
	ck_assert_uint_eq(avail, 0);
	input_close(&in);
	tu_wait_feeder(feeder);
}
END_TEST

/* ---- whole traces ---- */

#define T0 4000000000ull

/* the data offset and the size of a switch sample, from a trace holding only one */
static void one_switch(bool pipe, uint64_t *data_off, size_t *sw_size)
{
	struct fixture_opts o = { .word_size = 8 };
	struct fixture_info info;
	struct fixture *fx;
	uint8_t *buf = NULL;
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		o.pipe = i;
		fx = fixture_new(&o);
		fixture_switch(fx, T0, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
		ck_assert_int_eq(fixture_write_mem(fx, &buf, &len, &info), 0);
		if (!i)
			*sw_size = (size_t)info.data_size;	/* the only record */
		if (i == pipe)
			*data_off = pipe ? len - *sw_size : info.data_offset;
		fixture_free(fx);
		free(buf);
	}
}

/*
 * A trace larger than a window, with a SAMPLE that starts 'before_edge'
 * bytes before the end of the first window over the data (which starts at
 * the page of the first record). Filler is unknown user records (type 100),
 * skipped by their size.
 */
static uint8_t *big_trace(bool pipe, size_t before_edge, size_t *len, struct fixture_info *info,
			  uint64_t *straddler)
{
	struct fixture_opts o = { .word_size = 8, .pipe = pipe };
	static uint8_t filler[65528 - 8];
	uint64_t data_off = 0, at, page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct fixture *fx;
	uint8_t *buf = NULL;
	size_t sw_size = 0, n;

	one_switch(pipe, &data_off, &sw_size);
	at = data_off / page * page + WINDOW - before_edge;
	fx = fixture_new(&o);
	fixture_comm(fx, T0, 0, 10, 10, "a", false);	/* 56 bytes */
	n = (size_t)(at - data_off) - 56;
	while (n) {
		size_t chunk = n > sizeof(filler) + 8 ? sizeof(filler) + 8 : n;

		if (n - chunk > 0 && n - chunk < 16)	/* leave room for one more */
			chunk -= 16;
		fixture_raw_record(fx, 100, 0, filler, chunk - 8);
		n -= chunk;
	}
	fixture_switch(fx, T0 + 10, 0, "a", 10, 120, FIXTURE_STATE_S, "b", 11, 120);
	fixture_switch(fx, T0 + 20, 0, "b", 11, 120, FIXTURE_STATE_R, "a", 10, 120);
	ck_assert_int_eq(fixture_write_mem(fx, &buf, len, info), 0);
	fixture_free(fx);
	/* the sample is where it was meant to be */
	ck_assert_uint_eq(srep_get32(buf + at, srep_swap_for(false)), PERF_RECORD_SAMPLE);
	ck_assert_uint_eq(srep_get16(buf + at + 6, srep_swap_for(false)), sw_size);
	*straddler = at;
	return buf;
}

START_TEST(record_across_the_window_edge)
{
	static const size_t before[] = { 4, 8, 20, 100 };
	size_t k;
	int pipe;

	for (pipe = 0; pipe < 2; pipe++)
		for (k = 0; k < sizeof(before) / sizeof(before[0]); k++) {
			struct fixture_info info;
			struct srep_session *s = NULL;
			struct srep_error err = { 0 };
			struct tu_events ev = { 0 };
			struct tu_diag d = { 0 };
			size_t len;
			uint64_t at;
			uint8_t *buf = big_trace(pipe, before[k], &len, &info, &at);
			int feeder = -1;

			ck_assert_uint_gt(len, WINDOW);
			if (pipe) {
				feeder = tu_feed_stdin(buf, len, 4096);
				ck_assert_int_eq(srep_session__open(&s, "-", NULL, &err), 0);
			} else {
				ck_assert_int_eq(tu_open_mem(buf, len, 0, &d, &s, &err), 0);
			}
			ck_assert_msg(tu_collect(s, &ev, &err) == 0, "%s", err.msg);
			ck_assert_uint_eq(ev.n, 3);
			ck_assert_int_eq(ev.v[1].kind, SREP_EV_SWITCH);
			ck_assert_uint_eq(ev.v[1].time, T0 + 10);
			ck_assert_str_eq(ev.v[1].u.sw.prev_comm, "a");
			ck_assert_str_eq(ev.v[1].u.sw.next_comm, "b");
			ck_assert_int_eq(ev.v[1].u.sw.next_tid, 11);
			ck_assert_int_eq(ev.v[2].u.sw.next_tid, 10);
			ck_assert_uint_eq(srep_session__stats(s)->unknown_records, 0);
			ck_assert_uint_eq(srep_session__stats(s)->records[100], info.records[100]);
			ck_assert_uint_eq(srep_session__stats(s)->total_records, info.total);
			ck_assert_int_eq(d.n, 0);
			srep_session__delete(s);
			if (feeder >= 0)
				tu_wait_feeder(feeder);
			tu_events_free(&ev);
			free(buf);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("input");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, file_windows);
	tcase_add_test(tc, held_windows);
	tcase_add_test(tc, prefetched_windows);
	tcase_add_test(tc, memory_does_not_lend);
	tcase_add_test(tc, file_truncation_avail);
	tcase_add_test(tc, open_errors);
	tcase_add_test(tc, pipe_small_writes);
	tcase_add_test(tc, pipe_read_limit);
	tcase_add_test(tc, spool);
	tcase_add_test(tc, spool_empty_pipe);
	tcase_add_test(tc, record_across_the_window_edge);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
