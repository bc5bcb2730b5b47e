// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_jsonin.c - schedrep's lossless JSON read back through the session
 * API: perf.data -> json -> events gives, event by event, every field of
 * struct srep_event and every tracepoint field of the perf.data, and the
 * same task table, metadata, event descriptions and counts. On fixtures of
 * every byte order, word size and container, on comms with hostile bytes,
 * and on every corpus trace with scheduler data. Damaged JSON gives an
 * error naming the line, never a crash.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fmtutil.h"

/* ---- comparing two sessions ---- */

#define SAME_INT(a, b, what) tu_check((a) == (b), "%s: %s: %lld != %lld", ctx, what, \
				      (long long)(a), (long long)(b))
#define SAME_STR(a, b, what) tu_check(((a) == NULL) == ((b) == NULL) && (!(a) || !strcmp((a), (b))), \
				      "%s: %s: '%s' != '%s'", ctx, what, (a) ? (a) : "(null)", \
				      (b) ? (b) : "(null)")

/* every member of the event's union kind, through schedrep/schema.h */
static void same_union(const char *ctx, const struct srep_event *a, const struct srep_event *b)
{
	enum srep_event_kind kind = srep_event_kind__union(a->kind);
	const struct srep_member *schema;
	size_t i, nr;

	schema = srep_event_schema(&nr);
	for (i = 0; i < nr; i++)
		tu_check(schema[i].kind != kind || srep_member__equal(&schema[i], a, b),
			 "%s: %s: member '%s' differs", ctx, srep_event_kind_name(a->kind),
			 schema[i].key);
}

static void same_field(const char *ctx, const struct srep_field *a, const struct srep_field *b)
{
	uint32_t i;

	SAME_STR(a->name, b->name, "field name");
	SAME_INT(a->kind, b->kind, a->name);
	SAME_INT(a->i, b->i, a->name);
	SAME_INT(a->u, b->u, a->name);
	SAME_INT(a->len, b->len, a->name);
	tu_check(!memcmp(a->str, b->str, a->len), "%s: field %s: string differs", ctx, a->name);
	SAME_INT(a->nr_elems, b->nr_elems, a->name);
	SAME_INT(a->elem_size, b->elem_size, a->name);
	SAME_INT(a->elem_signed, b->elem_signed, a->name);
	for (i = 0; i < a->nr_elems; i++)
		SAME_INT(srep_field__elem(a, i), srep_field__elem(b, i), a->name);
}

static void same_event(const char *ctx, const struct srep_event *a, const struct srep_event *b)
{
	struct srep_field fa, fb;
	uint32_t i;
	int k, n = srep_event__nr_fields(a);

	SAME_INT(a->kind, b->kind, "kind");
	SAME_INT(a->source, b->source, "source");
	SAME_INT(a->flags, b->flags, "flags");
	SAME_INT(a->time, b->time, "time");
	SAME_INT(a->cpu, b->cpu, "cpu");
	SAME_INT(a->pid, b->pid, "pid");
	SAME_INT(a->tid, b->tid, "tid");
	SAME_INT(a->evsel, b->evsel, "evsel");
	SAME_INT(a->ip, b->ip, "ip");
	SAME_INT(a->period, b->period, "period");
	SAME_INT(a->addr, b->addr, "addr");
	SAME_INT(a->nr_callchain, b->nr_callchain, "nr_callchain");
	for (i = 0; i < a->nr_callchain; i++)
		SAME_INT(a->callchain[i], b->callchain[i], "callchain");
	same_union(ctx, a, b);
	SAME_INT(n, srep_event__nr_fields(b), "nr_fields");
	for (k = 0; k < n; k++) {
		SAME_INT(srep_event__field(a, k, &fa), srep_event__field(b, k, &fb), "field status");
		same_field(ctx, &fa, &fb);
	}
	if (n) {
		SAME_INT(srep_event__field_by_name(a, fa.name, &fa),
			 srep_event__field_by_name(b, fa.name, &fb), "field by name");
		same_field(ctx, &fa, &fb);
	}
}

static void same_strv(const char *ctx, const char *const *a, int na, const char *const *b, int nb,
		      const char *what)
{
	int i;

	SAME_INT(a == NULL, b == NULL, what);
	SAME_INT(na, nb, what);
	for (i = 0; i < na; i++)
		SAME_STR(a[i], b[i], what);
}

static void same_meta(const char *ctx, const struct srep_meta *a, const struct srep_meta *b)
{
	int i;

	SAME_STR(b->format, "schedrep-json", "format");
	SAME_INT(a->pipe_mode, b->pipe_mode, "pipe_mode");
	SAME_INT(a->big_endian, b->big_endian, "big_endian");
	SAME_INT(a->word_size, b->word_size, "word_size");
	SAME_INT(a->magic_version, b->magic_version, "magic_version");
	SAME_INT(a->attr_size, b->attr_size, "attr_size");
	SAME_INT(a->data_offset, b->data_offset, "data_offset");
	SAME_INT(a->data_size, b->data_size, "data_size");
	for (i = 0; i < 4; i++)
		SAME_INT(a->features[i], b->features[i], "features");
	SAME_STR(a->hostname, b->hostname, "hostname");
	SAME_STR(a->osrelease, b->osrelease, "osrelease");
	SAME_STR(a->perf_version, b->perf_version, "perf_version");
	SAME_STR(a->arch, b->arch, "arch");
	SAME_STR(a->cpudesc, b->cpudesc, "cpudesc");
	SAME_STR(a->cpuid, b->cpuid, "cpuid");
	SAME_INT(a->nr_cpus_avail, b->nr_cpus_avail, "nr_cpus_avail");
	SAME_INT(a->nr_cpus_online, b->nr_cpus_online, "nr_cpus_online");
	SAME_INT(a->total_mem_kb, b->total_mem_kb, "total_mem_kb");
	same_strv(ctx, a->cmdline, a->nr_cmdline, b->cmdline, b->nr_cmdline, "cmdline");
	SAME_INT(a->clockid, b->clockid, "clockid");
	SAME_INT(a->clock_res_ns, b->clock_res_ns, "clock_res_ns");
	SAME_INT(a->has_clock_data, b->has_clock_data, "has_clock_data");
	SAME_INT(a->clock_wall_ns, b->clock_wall_ns, "clock_wall_ns");
	SAME_INT(a->clock_ref_ns, b->clock_ref_ns, "clock_ref_ns");
	SAME_INT(a->has_sample_time, b->has_sample_time, "has_sample_time");
	SAME_INT(a->sample_time_first, b->sample_time_first, "sample_time_first");
	SAME_INT(a->sample_time_last, b->sample_time_last, "sample_time_last");
	SAME_INT(a->compressed, b->compressed, "compressed");
	SAME_INT(a->comp_type, b->comp_type, "comp_type");
	SAME_INT(a->comp_level, b->comp_level, "comp_level");
	SAME_INT(a->comp_ratio, b->comp_ratio, "comp_ratio");
	SAME_INT(a->comp_mmap_len, b->comp_mmap_len, "comp_mmap_len");
	same_strv(ctx, a->core_siblings, a->nr_core_siblings, b->core_siblings,
		  b->nr_core_siblings, "core_siblings");
	same_strv(ctx, a->thread_siblings, a->nr_thread_siblings, b->thread_siblings,
		  b->nr_thread_siblings, "thread_siblings");
	SAME_INT(a->has_tracing, b->has_tracing, "has_tracing");
	SAME_INT(a->tracing_long_size, b->tracing_long_size, "tracing_long_size");
	SAME_INT(a->tracing_page_size, b->tracing_page_size, "tracing_page_size");
	SAME_INT(a->tracing_big_endian, b->tracing_big_endian, "tracing_big_endian");
	SAME_STR(a->tracing_version, b->tracing_version, "tracing_version");
}

static void same_tables(const char *ctx, const struct srep_session *a, const struct srep_session *b)
{
	const struct srep_stats *sa = srep_session__stats(a), *sb = srep_session__stats(b);
	struct srep_field fa, fb;
	size_t i, k;
	int f;

	SAME_INT(srep_session__nr_evsels(a), srep_session__nr_evsels(b), "nr_evsels");
	for (i = 0; i < srep_session__nr_evsels(a); i++) {
		SAME_STR(srep_session__evsel_name(a, i), srep_session__evsel_name(b, i), "evsel name");
		SAME_INT(srep_session__evsel_type(a, i), srep_session__evsel_type(b, i), "evsel type");
		SAME_INT(srep_session__evsel_config(a, i), srep_session__evsel_config(b, i), "config");
		SAME_INT(srep_session__evsel_sample_type(a, i), srep_session__evsel_sample_type(b, i),
			 "sample_type");
		SAME_INT(srep_session__evsel_samples(a, i), srep_session__evsel_samples(b, i), "samples");
		SAME_INT(srep_session__evsel_lost_samples(a, i), srep_session__evsel_lost_samples(b, i),
			 "lost_samples");
		SAME_INT(srep_session__evsel_nr_fields(a, i), srep_session__evsel_nr_fields(b, i),
			 "evsel fields");
		for (f = 0; f < srep_session__evsel_nr_fields(a, i); f++) {
			SAME_INT(srep_session__evsel_field(a, i, f, &fa), 0, "evsel field");
			SAME_INT(srep_session__evsel_field(b, i, f, &fb), 0, "evsel field");
			same_field(ctx, &fa, &fb);
		}
	}
	SAME_INT(srep_session__nr_tasks(a), srep_session__nr_tasks(b), "nr_tasks");
	for (i = 0; i < srep_session__nr_tasks(a); i++) {
		const struct srep_task *x = srep_session__task(a, i), *y = srep_session__task(b, i);
		uint64_t tx, ty;

		SAME_INT(srep_task__tid(x), srep_task__tid(y), "task tid");
		SAME_INT(srep_task__pid(x), srep_task__pid(y), "task pid");
		SAME_INT(srep_task__ppid(x), srep_task__ppid(y), "task ppid");
		SAME_INT(srep_task__ptid(x), srep_task__ptid(y), "task ptid");
		SAME_INT(srep_task__first_seen(x), srep_task__first_seen(y), "first_seen");
		SAME_INT(srep_task__last_seen(x), srep_task__last_seen(y), "last_seen");
		SAME_INT(srep_task__fork_time(x), srep_task__fork_time(y), "fork_time");
		SAME_INT(srep_task__exit_time(x), srep_task__exit_time(y), "exit_time");
		SAME_INT(srep_task__index(x), srep_task__index(y), "index");
		SAME_INT(srep_task__nr_comms(x), srep_task__nr_comms(y), "nr_comms");
		for (k = 0; k < srep_task__nr_comms(x); k++) {
			SAME_STR(srep_task__comm_at(x, k, &tx), srep_task__comm_at(y, k, &ty), "task comm");
			SAME_INT(tx, ty, "comm time");
		}
	}
	ck_assert_msg(!memcmp(sa->records, sb->records, sizeof(sa->records)), "%s: records", ctx);
	SAME_INT(sa->unknown_records, sb->unknown_records, "unknown_records");
	SAME_INT(sa->google_legacy_records, sb->google_legacy_records, "google_legacy_records");
	SAME_INT(sa->total_records, sb->total_records, "total_records");
	SAME_INT(sa->lost, sb->lost, "lost");
	SAME_INT(sa->lost_samples, sb->lost_samples, "lost_samples");
	SAME_INT(sa->lost_time_ns, sb->lost_time_ns, "lost_time_ns");
	SAME_INT(sa->first_time, sb->first_time, "first_time");
	SAME_INT(sa->last_time, sb->last_time, "last_time");
	SAME_INT(sa->events, sb->events, "events");
	SAME_INT(sa->late_events, sb->late_events, "late_events");
	SAME_INT(sa->skipped_records, sb->skipped_records, "skipped_records");
	SAME_INT(sa->skipped_bytes, sb->skipped_bytes, "skipped_bytes");
	SAME_INT(sa->bytes, sb->bytes, "bytes");
	SAME_INT(sa->decompressed_bytes, sb->decompressed_bytes, "decompressed_bytes");
}

/*
 * Convert 'path' to JSON as 'c' says (symbols: with "frames"), then read both
 * side by side: the same events, then the same tables. Returns the number of
 * events compared.
 */
static size_t round_trip_with(const char *path, const char *json_path, const struct tu_convert *c)
{
	struct srep_session *a = NULL, *b = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ea, *eb;
	uint64_t a0, a1, b0, b1;
	char ctx[4200], *json;
	size_t len, n = 0;
	bool has_a, has_b;
	int ra, rb;

	ck_assert_msg(tu_convert(path, &srep_exporter_json, c, &json, &len, &err) == 0, "%s: %s",
		      path, err.msg);
	ck_assert_int_eq(tu_write_file(json_path, json, len), 0);
	free(json);
	ck_assert_int_eq(srep_session__open(&a, path, NULL, &err), 0);
	ck_assert_msg(srep_session__open(&b, json_path, NULL, &err) == 0, "%s: %s", path, err.msg);
	/* the JSON knows the span before its first event; the perf.data, once read */
	has_b = srep_session__time_span(b, &b0, &b1);
	for (;;) {
		ra = srep_session__next_event(a, &ea, &err);
		rb = srep_session__next_event(b, &eb, &err);
		snprintf(ctx, sizeof(ctx), "%s: event %zu", path, n);
		tu_check(ra >= 0 && rb >= 0, "%s: %s", ctx, err.msg);
		tu_check(ra == rb, "%s: one side ended first", ctx);
		if (!ra)
			break;
		same_event(ctx, ea, eb);
		n++;
	}
	snprintf(ctx, sizeof(ctx), "%s", path);
	has_a = srep_session__time_span(a, &a0, &a1);
	SAME_INT(has_a, has_b, "has a time span");
	SAME_INT(a0, b0, "first timestamp");
	SAME_INT(a1, b1, "last timestamp");
	same_meta(ctx, srep_session__meta(a), srep_session__meta(b));
	same_tables(ctx, a, b);
	srep_session__delete(a);
	srep_session__delete(b);
	return n;
}

static size_t round_trip(const char *path, const char *json_path)
{
	return round_trip_with(path, json_path, NULL);
}

/* ---- round trips ---- */

static struct fixture_opts combo(int i)
{
	struct fixture_opts o = {
		.big_endian = i & 1, .word_size = i & 2 ? 4 : 8, .pipe = i & 4,
		.compressed = i & 8, .sample_identifier = i & 16,
		.kernel = i & 32 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1,
		.tp_callchain = i & 64,
	};
	return o;
}

START_TEST(fixture_round_trip)
{
	struct fixture_opts o = combo(_i);
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], json[4200], *dir = tu_scenario_file(fx, path, sizeof(path));

	snprintf(json, sizeof(json), "%s/scenario.schedrep.json", dir);
	ck_assert_uint_ge(round_trip(path, json), 26);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* bytes that are not text survive: quotes, backslashes, control bytes, broken UTF-8 */
START_TEST(hostile_round_trip)
{
	struct fixture_opts o = { .big_endian = true };
	struct fixture *fx = tu_scenario(&o, "a\"b\\c\n\x01\x7f", "w\xff\xc3(\xe9");
	char path[4096], json[4200], *dir = tu_scenario_file(fx, path, sizeof(path)), *text;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	size_t len;

	snprintf(json, sizeof(json), "%s/scenario.schedrep.json", dir);
	round_trip(path, json);
	ck_assert_int_eq(srep_session__open(&s, json, NULL, &err), 0);
	ck_assert_str_eq(srep_task__comm(srep_session__find_task(s, 100)), "a\"b\\c\n\x01\x7f");
	ck_assert_str_eq(srep_task__comm_at(srep_session__find_task(s, 101), 1, NULL),
			 "w\xff\xc3(\xe9");
	srep_session__delete(s);
	text = tu_read_file(json, &len);
	ck_assert_ptr_nonnull(strstr(text, "{\"hex\":\"77ffc328e9\"}"));
	free(text);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(corpus_round_trip)
{
	char **files = tu_corpus_sched_files(), *dir = tu_tmpdir(), json[4200];
	size_t i, events = 0;

	if (!files) {
		tu_rmdir(dir);
		free(dir);
		TU_SKIP("no corpus (set SREP_CORPUS)");
	}
	snprintf(json, sizeof(json), "%s/t.schedrep.json", dir);
	for (i = 0; files[i]; i++)
		events += round_trip(files[i], json);
	fprintf(stderr, "json: %zu corpus traces, %zu events read back identical\n", i, events);
	ck_assert_int_gt(i, 20);
	tu_free_list(files);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* json of the json is the same json, but for the path and format it names */
START_TEST(fixed_point)
{
	char *sample, *dir = tu_tmpdir(), json[4200], *once, *twice, *a, *b;
	struct srep_error err = { 0 };
	size_t la, lb;

	ck_assert_int_ge(asprintf(&sample, "%s/tests/data/sample-s390x-zstd.data", SREP_TOP_SRCDIR), 0);
	ck_assert_int_eq(tu_convert(sample, &srep_exporter_json, NULL, &once, &la, &err), 0);
	snprintf(json, sizeof(json), "%s/once.json", dir);
	ck_assert_int_eq(tu_write_file(json, once, la), 0);
	ck_assert_int_eq(tu_convert(json, &srep_exporter_json, NULL, &twice, &lb, &err), 0);
	/* the meta starts with "path" and "format", then the first difference may not come */
	a = strstr(once, "\"pipe_mode\"");
	b = strstr(twice, "\"pipe_mode\"");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(la - (size_t)(a - once), lb - (size_t)(b - twice));
	ck_assert_msg(!memcmp(a, b, la - (size_t)(a - once)), "the second JSON differs");
	free(once);
	free(twice);
	free(sample);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* a JSON input is rewound like a perf.data (PRESCAN copies a pipe first) */
START_TEST(prescan_and_rewind)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], json[4200], *dir = tu_scenario_file(fx, path, sizeof(path));
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	size_t n = round_trip(path, (snprintf(json, sizeof(json), "%s/s.json", dir), json)), m = 0;

	ck_assert_int_eq(srep_session__open(&s, json, &oo, &err), 0);
	ck_assert_uint_eq(srep_session__nr_tasks(s), 4);
	while (srep_session__next_event(s, &ev, &err) > 0)
		m++;
	ck_assert_int_eq(srep_session__rewind(s, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0)
		m++;
	ck_assert_uint_eq(m, 2 * n);
	ck_assert_uint_eq(srep_session__stats(s)->events, n);
	ck_assert_int_eq(srep_session__count(s, &err), 0);
	srep_session__delete(s);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/*
 * The span is on the first line: time arguments resolve before the first
 * event, prescan or not. A file from a writer without "time_span" is read
 * once for it under SREP_OPEN_PRESCAN, else gives the span of what was read
 * so far; "time_span": null is a trace without timestamps.
 */
START_TEST(span_on_first_line)
{
	struct fixture_opts o = { .big_endian = true };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], json[4200], old[4200], *dir = tu_scenario_file(fx, path, sizeof(path));
	struct srep_open_opts prescan = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	char *text, *without, *nulled, *at, *end;
	uint64_t want0, want1, first, last;
	size_t len;

	snprintf(json, sizeof(json), "%s/s.json", dir);
	round_trip(path, json);
	ck_assert_int_eq(srep_session__open(&s, path, &prescan, &err), 0);
	ck_assert(srep_session__time_span(s, &want0, &want1));
	srep_session__delete(s);
	ck_assert_uint_gt(want1, want0);

	ck_assert_int_eq(srep_session__open(&s, json, NULL, &err), 0);
	ck_assert(srep_session__time_span(s, &first, &last));
	ck_assert_uint_eq(first, want0);
	ck_assert_uint_eq(last, want1);
	srep_session__delete(s);

	/* the same file as an older writer wrote it */
	text = tu_read_file(json, &len);
	at = strstr(text, "\"time_span\":{");
	ck_assert_ptr_nonnull(at);
	end = strchr(at, '}');
	ck_assert_int_ge(asprintf(&without, "%.*s%s", (int)(at - text), text, end + 2), 0);
	ck_assert_int_ge(asprintf(&nulled, "%.*s\"time_span\":null,%s", (int)(at - text), text,
				  end + 2), 0);
	snprintf(old, sizeof(old), "%s/old.json", dir);
	ck_assert_int_eq(tu_write_file(old, without, strlen(without)), 0);
	ck_assert_int_eq(srep_session__open(&s, old, &prescan, &err), 0);
	ck_assert(srep_session__time_span(s, &first, &last));
	ck_assert_uint_eq(first, want0);
	ck_assert_uint_eq(last, want1);
	ck_assert_int_eq(srep_session__next_event(s, &ev, &err), 1);	/* rewound after the scan */
	ck_assert_uint_eq(srep_session__stats(s)->events, 1);
	srep_session__delete(s);
	ck_assert_int_eq(srep_session__open(&s, old, NULL, &err), 0);
	ck_assert(!srep_session__time_span(s, &first, &last));
	while (srep_session__next_event(s, &ev, &err) > 0)
		;
	ck_assert(srep_session__time_span(s, &first, &last));
	ck_assert_uint_eq(first, want0);
	ck_assert_uint_eq(last, want1);
	srep_session__delete(s);

	ck_assert_int_eq(tu_write_file(old, nulled, strlen(nulled)), 0);
	ck_assert_int_eq(srep_session__open(&s, old, &prescan, &err), 0);
	ck_assert(!srep_session__time_span(s, &first, &last));
	srep_session__delete(s);
	free(text);
	free(without);
	free(nulled);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* ---- damage ---- */

/* open and read 'text' as a JSON file: the status of the first failing call */
static int read_text(const char *dir, const char *text, size_t len, struct srep_error *err)
{
	struct srep_session *s = NULL;
	const struct srep_event *ev;
	char path[4200];
	int ret;

	snprintf(path, sizeof(path), "%s/damaged.json", dir);
	ck_assert_int_eq(tu_write_file(path, text, len), 0);
	memset(err, 0, sizeof(*err));
	ret = srep_session__open(&s, path, NULL, err);
	while (!ret && (ret = srep_session__next_event(s, &ev, err)) > 0)
		ret = 0;
	srep_session__delete(s);
	return ret;
}

/* 'text' with the first 'from' replaced by 'to' */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	ck_assert_msg(at, "'%s' not in the JSON", from);
	ck_assert_int_ge(asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)), 0);
	return out;
}

static const struct damage {
	const char *from, *to;		/* the change */
	int code;			/* the error it must give */
	const char *says;		/* a part of the message */
} damages[] = {
	{ "\"version\":1", "\"version\":2", SREP_E_UNSUPPORTED, "version 2" },
	{ "schedrep-events", "something-else", SREP_E_JSON, "line 1: not schedrep JSON" },
	{ "\"t\":5170000000020,", "\"t\":\"soon\",", SREP_E_JSON, "bad value for t" },
	{ "\"k\":\"switch\"", "\"k\":\"teleport\"", SREP_E_JSON, "bad value for k" },
	{ "\"prev_prio\":120,", "", SREP_E_JSON, "lacks members" },
	{ "\"prev_state\":\"R\"", "\"prev_state\":\"RR\"", SREP_E_JSON, "\"u\".prev_state" },
	{ "\"e\":3,", "\"e\":99,", SREP_E_JSON, "event description" },
	{ "\"f\":[", "\"f\":[1,", SREP_E_JSON, "\"f\" does not have" },
	{ "\"next_comm\":\"server\"", "\"next_comm\":\"0123456789abcdef0123456789abcdef\"",
	  SREP_E_JSON, "next_comm" },
	{ "{\"end\":true,\"events\":", "{\"end\":true,\"events\":1", SREP_E_JSON, "closing line counts" },
	{ "{\"end\":true", "{\"end\":tru", SREP_E_JSON, "not a JSON object" },
	{ "\"evsels\":[", "\"evsels\":{", SREP_E_JSON, "line 1" },
	{ "\"tasks\":[{\"tid\":", "\"tasks\":[{\"tid\":\"x\",\"old\":", SREP_E_JSON, "bad task" },
	{ "\"meta\":{", "\"meta\":{\"hostname\":7,", SREP_E_JSON, "meta.hostname" },
	{ "\"time_span\":{\"first\":", "\"time_span\":{\"first\":\"soon\",\"was\":", SREP_E_JSON,
	  "bad \"time_span\"" },
	{ "\"time_span\":{", "\"time_span\":{\"last\":1,", SREP_E_JSON, "bad \"time_span\"" },
};

START_TEST(damaged_json)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *json, *bad, *end;
	const struct damage *d = &damages[_i];
	struct srep_error err;
	size_t len;
	int ret;

	ck_assert_int_eq(tu_convert(path, &srep_exporter_json, NULL, &json, &len, &err), 0);
	ck_assert_int_eq(read_text(dir, json, len, &err), 0);
	bad = replace(json, d->from, d->to);
	ret = read_text(dir, bad, strlen(bad), &err);
	ck_assert_msg(ret == d->code && strstr(err.msg, d->says),
		      "'%s' -> '%s': got %d '%s'", d->from, d->to, ret, err.msg);
	ck_assert_msg(err.has_offset, "no offset in '%s'", err.msg);
	free(bad);
	/* cut short: no closing line */
	end = strstr(json, "{\"end\":true");
	ck_assert_int_eq(read_text(dir, json, (size_t)(end - json), &err), SREP_E_TRUNCATED);
	ck_assert_ptr_nonnull(strstr(err.msg, "cut short"));
	free(json);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* an event line beyond the cap is refused, not buffered */
START_TEST(line_too_long)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *json, *text;
	size_t len, head, big = 5u << 20;
	struct srep_error err;

	ck_assert_int_eq(tu_convert(path, &srep_exporter_json, NULL, &json, &len, &err), 0);
	head = (size_t)(strstr(json, "{\"end\"") - json);
	text = malloc(head + big);
	ck_assert_ptr_nonnull(text);
	memcpy(text, json, head);
	memset(text + head, ' ', big);
	text[head] = '{';
	ck_assert_int_eq(read_text(dir, text, head + big, &err), SREP_E_LIMIT);
	ck_assert_ptr_nonnull(strstr(err.msg, "longer than"));
	free(text);
	free(json);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* damaged bytes anywhere: an error or a result, never a crash (Check forks per test) */
START_TEST(byte_flips)
{
	struct fixture_opts o = { .tp_callchain = true };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *json;
	struct srep_error err;
	size_t len, i;
	unsigned seed = 12345;

	ck_assert_int_eq(tu_convert(path, &srep_exporter_json, NULL, &json, &len, &err), 0);
	for (i = 0; i < 300; i++) {
		char *copy = malloc(len);
		size_t k;

		memcpy(copy, json, len);
		for (k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % len] = (char)(seed >> 16);
		}
		read_text(dir, copy, len, &err);
		free(copy);
	}
	free(json);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* lines of 'text' holding 'what' */
static size_t count_lines_with(const char *text, const char *what)
{
	const char *p = text, *nl;
	size_t n = 0;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		n += memmem(p, (size_t)(nl - p), what, strlen(what)) != NULL;
	}
	return n;
}

/* symbolized frames are extra: the reader skips them, the callchains read back */
START_TEST(symbolized_round_trip)
{
	char path[4096], kallsyms[4200], json[4200], *dir, *text;
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	size_t len;

	dir = tu_callchain_scenario(path, sizeof(path), kallsyms, sizeof(kallsyms),
				    tu_scenario_kallsyms);
	so.kallsyms = kallsyms;
	snprintf(json, sizeof(json), "%s/scenario.schedrep.json", dir);
	ck_assert_uint_ge(round_trip_with(path, json, &c), 27);
	text = tu_read_file(json, &len);
	ck_assert_uint_ge(count_lines_with(text, "\"frames\":[{"), 15);
	ck_assert_uint_eq(count_lines_with(text, "\"frames\""), count_lines_with(text, "\"cc\""));
	free(text);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the corpus' callchain traces, -g and --call-graph dwarf, with the target's kallsyms */
START_TEST(corpus_symbolized_round_trip)
{
	static const char *const archs[] = { "x86_64", "arm64", "armhf", "s390x" };
	static const char *const traces[] = { "sched-callchain", "dwarf" };
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	char *dir, *rel, *trace, *cmd, json[4200], kall[4200], *text;
	size_t a, t, events = 0, len;

	if (!tu_corpus_dir() || !tu_have_program("xz"))
		TU_SKIP("corpus or xz absent: symbolized round trip not checked");
	dir = tu_tmpdir();
	snprintf(json, sizeof(json), "%s/t.schedrep.json", dir);
	snprintf(kall, sizeof(kall), "%s/kallsyms", dir);
	so.kallsyms = kall;
	for (a = 0; a < sizeof(archs) / sizeof(archs[0]); a++) {
		ck_assert_int_ge(asprintf(&rel, "callchains/%s/kallsyms.xz", archs[a]), 0);
		trace = tu_corpus_path(rel);
		ck_assert_int_ge(asprintf(&cmd, "xz -dc '%s' > '%s'", trace, kall), 0);
		ck_assert_int_eq(tu_run(cmd, NULL), 0);
		free(cmd);
		free(trace);
		free(rel);
		for (t = 0; t < sizeof(traces) / sizeof(traces[0]); t++) {
			ck_assert_int_ge(asprintf(&rel, "callchains/%s/%s.data", archs[a], traces[t]), 0);
			trace = tu_corpus_path(rel);
			events += round_trip_with(trace, json, &c);
			text = tu_read_file(json, &len);
			ck_assert_uint_gt(count_lines_with(text, "\"symbol\":\""), 300);
			free(text);
			free(trace);
			free(rel);
		}
	}
	fprintf(stderr, "json: 8 callchain traces with symbols, %zu events read back identical\n",
		events);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jsonin");
	TCase *tc = tcase_create("fixtures");
	TCase *corpus = tcase_create("corpus");

	tcase_add_loop_test(tc, fixture_round_trip, 0, 128);
	tcase_add_test(tc, hostile_round_trip);
	tcase_add_test(tc, fixed_point);
	tcase_add_test(tc, prescan_and_rewind);
	tcase_add_test(tc, span_on_first_line);
	tcase_add_loop_test(tc, damaged_json, 0, sizeof(damages) / sizeof(damages[0]));
	tcase_add_test(tc, line_too_long);
	tcase_add_test(tc, byte_flips);
	tcase_add_test(tc, symbolized_round_trip);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_set_timeout(corpus, 300);
	tcase_add_test(corpus, corpus_round_trip);
	tcase_add_test(corpus, corpus_symbolized_round_trip);
	suite_add_tcase(s, corpus);
	return tu_run_suite(s);
}
