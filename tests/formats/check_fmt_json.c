// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fmt_json.c - the lossless JSON writer (reading it back is
 * check_jsonin.c). The writer is a streaming one (formats/emit.c), so every
 * output here is parsed line by line with cJSON: one header object, event
 * objects, one closing object, as docs/json-format.md says. The scenario
 * has a golden output; selections and time windows keep what they say.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fmtutil.h"

/* the output's lines, each parsed; the caller frees them with free_lines() */
static cJSON **parse_lines(const char *text, size_t *n)
{
	cJSON **v = NULL;
	const char *p = text, *nl;

	*n = 0;
	while (*p) {
		nl = strchr(p, '\n');
		ck_assert_msg(nl, "line %zu does not end with a newline", *n + 1);
		v = tu_grow(v, *n, sizeof(*v));
		v[*n] = cJSON_ParseWithLength(p, (size_t)(nl - p));
		tu_check(cJSON_IsObject(v[*n]), "line %zu is not a JSON object: %.60s", *n + 1, p);
		(*n)++;
		p = nl + 1;
	}
	return v;
}

static void free_lines(cJSON **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_Delete(v[i]);
	free(v);
}

static char *convert(const char *path, const struct tu_convert *c, size_t *len)
{
	struct srep_error err = { 0 };
	char *out = NULL;

	ck_assert_msg(tu_convert(path, &srep_exporter_json, c, &out, len, &err) == 0, "%s: %s",
		      path, err.msg);
	return out;
}

/* the layout: header, events with their required keys, a closing line that counts them */
static void check_layout(cJSON **v, size_t n)
{
	const cJSON *end = v[n - 1];
	size_t i;

	ck_assert_uint_ge(n, 2);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(v[0], "format")), "schedrep-events");
	ck_assert_double_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(v[0], "version")), 1);
	ck_assert(cJSON_IsObject(cJSON_GetObjectItem(v[0], "meta")));
	ck_assert(cJSON_IsArray(cJSON_GetObjectItem(v[0], "evsels")));
	ck_assert(cJSON_IsArray(cJSON_GetObjectItem(v[0], "tasks")));
	for (i = 1; i + 1 < n; i++) {
		tu_check(cJSON_IsNumber(cJSON_GetObjectItem(v[i], "t")) &&
			 cJSON_IsString(cJSON_GetObjectItem(v[i], "k")) &&
			 cJSON_IsString(cJSON_GetObjectItem(v[i], "src")) &&
			 cJSON_IsNumber(cJSON_GetObjectItem(v[i], "cpu")) &&
			 cJSON_IsNumber(cJSON_GetObjectItem(v[i], "tid")), "line %zu lacks a key", i + 1);
	}
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(end, "end")));
	ck_assert_double_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(end, "events")), (double)(n - 2));
}

/* the golden file names no temporary directory */
static char *without_path(const char *text, const char *path)
{
	const char *at = strstr(text, path);
	char *out;

	ck_assert_ptr_nonnull(at);
	ck_assert_int_ge(asprintf(&out, "%.*sscenario.data%s", (int)(at - text), text,
				  at + strlen(path)), 0);
	return out;
}

START_TEST(scenario_golden)
{
	struct fixture_opts o = { .big_endian = true, .tp_callchain = true };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out, *golden;
	size_t len, n;
	cJSON **v;

	out = convert(path, NULL, &len);
	v = parse_lines(out, &n);
	check_layout(v, n);
	golden = without_path(out, path);
	tu_golden("scenario.schedrep.json", golden, strlen(golden));
	free_lines(v, n);
	free(golden);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* numbers beyond 2^53 are strings (doubles would round them), addresses hex strings */
START_TEST(big_numbers)
{
	struct fixture_opts o = { .tp_callchain = true };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out;
	size_t len;

	out = convert(path, NULL, &len);
	/* the kernel context marker (u64)-128 and a kernel address, exactly */
	ck_assert_ptr_nonnull(strstr(out, "\"cc\":[\"0xffffffffffffff80\",\"0xffffffff81000100\""));
	/* cpu_idle's (u32)-1 state is a plain number, its signed meaning in "u" */
	ck_assert_ptr_nonnull(strstr(out, "\"u\":{\"cpu\":1,\"state\":-1},\"f\":[477,0,0,0,4294967295,1]"));
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* hostile comms: every line still parses; the bytes that are not UTF-8 come as hex */
START_TEST(hostile_strings)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, "a\"b\\c\n\x01", "w\xff\xc3(\xe9");
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out;
	const cJSON *ev, *comm;
	size_t len, n, i, hex = 0, text = 0;
	cJSON **v;

	out = convert(path, NULL, &len);
	v = parse_lines(out, &n);
	check_layout(v, n);
	for (i = 1; i + 1 < n; i++) {
		ev = cJSON_GetObjectItem(v[i], "u");
		comm = cJSON_GetObjectItem(ev, "comm");
		if (cJSON_IsObject(comm)) {
			ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(comm, "hex")),
					 "77ffc328e9");
			hex++;
		}
		text += cJSON_IsString(comm) && !strcmp(comm->valuestring, "a\"b\\c\n\x01");
	}
	ck_assert_uint_gt(hex, 0);
	ck_assert_uint_gt(text, 0);
	free_lines(v, n);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* a selection keeps the tasks it names in the table and the events that concern them */
START_TEST(selection_and_window)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out;
	const char *only[] = { "tid:200", NULL };
	struct tu_convert c = { .only = only, .time = "0.000000030,0.000000095" };
	const cJSON *t, *u;
	size_t len, n, i;
	cJSON **v;

	out = convert(path, &c, &len);
	v = parse_lines(out, &n);
	check_layout(v, n);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(v[0], "tasks")), 1);
	t = cJSON_GetArrayItem(cJSON_GetObjectItem(v[0], "tasks"), 0);
	ck_assert_double_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "tid")), 200);
	for (i = 1; i + 1 < n; i++) {
		double time = cJSON_GetNumberValue(cJSON_GetObjectItem(v[i], "t"));
		const char *k = cJSON_GetStringValue(cJSON_GetObjectItem(v[i], "k"));

		u = cJSON_GetObjectItem(v[i], "u");
		ck_assert(time >= 5170000000030.0 && time <= 5170000000095.0);
		if (!strcmp(k, "switch"))
			ck_assert(cJSON_GetNumberValue(cJSON_GetObjectItem(u, "prev_tid")) == 200 ||
				  cJSON_GetNumberValue(cJSON_GetObjectItem(u, "next_tid")) == 200);
		else if (strcmp(k, "cpu_idle") && strcmp(k, "cpu_frequency") && strcmp(k, "lost"))
			ck_assert_double_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(u, "tid")), 200);
	}
	/* client's switch-in at 40, migration at 60, switch-out at 90, CPU 1 idle exit at 39 */
	ck_assert_uint_eq(n - 2, 4);
	free_lines(v, n);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the event line at time 'ns' of kind 'k' on thread 'tid', NULL if none */
static const cJSON *line_at(cJSON **v, size_t n, double ns, const char *k, int tid)
{
	size_t i;

	for (i = 1; i + 1 < n; i++) {
		if (cJSON_GetNumberValue(cJSON_GetObjectItem(v[i], "t")) == ns &&
		    cJSON_GetNumberValue(cJSON_GetObjectItem(v[i], "tid")) == tid &&
		    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v[i], "k")), k))
			return v[i];
	}
	return NULL;
}

static const char *frame_str(const cJSON *frames, int i, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(frames, i), key));
}

/*
 * With symbols, every event line with a callchain has "frames": one per
 * entry that is not a context marker, resolved; without, none has.
 */
START_TEST(symbolized_frames)
{
	char path[4096], kallsyms[4200], *dir, *out, *bare, *golden;
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	const cJSON *cc, *frames, *ev;
	size_t len, n, i, with = 0;
	int markers, k;
	cJSON **v;

	dir = tu_callchain_scenario(path, sizeof(path), kallsyms, sizeof(kallsyms),
				    tu_scenario_kallsyms);
	so.kallsyms = kallsyms;
	out = convert(path, &c, &len);
	v = parse_lines(out, &n);
	check_layout(v, n);
	for (i = 1; i + 1 < n; i++) {
		cc = cJSON_GetObjectItem(v[i], "cc");
		frames = cJSON_GetObjectItem(v[i], "frames");
		tu_check(!cc == !frames, "line %zu: callchain and frames disagree", i + 1);
		if (!cc)
			continue;
		for (markers = 0, k = 0; k < cJSON_GetArraySize(cc); k++)
			markers += strlen(cJSON_GetStringValue(cJSON_GetArrayItem(cc, k))) == 18 &&
				   !strncmp(cJSON_GetStringValue(cJSON_GetArrayItem(cc, k)),
					    "0xfffffffffffff", 15);
		tu_check(cJSON_GetArraySize(frames) == cJSON_GetArraySize(cc) - markers,
			 "line %zu: %d frames for %d entries", i + 1, cJSON_GetArraySize(frames),
			 cJSON_GetArraySize(cc));
		with++;
	}
	ck_assert_uint_ge(with, 15);
	/* the server's first sleep: __schedule, schedule, pipe_read, vfs_read */
	ev = line_at(v, n, (double)TU_T0 + 50, "switch", 100);
	frames = cJSON_GetObjectItem(ev, "frames");
	ck_assert_int_eq(cJSON_GetArraySize(frames), 4);
	ck_assert_str_eq(frame_str(frames, 2, "addr"), "0xffffffff81000300");
	ck_assert_str_eq(frame_str(frames, 2, "mode"), "kernel");
	ck_assert_str_eq(frame_str(frames, 2, "module"), "[kernel.kallsyms]");
	ck_assert_str_eq(frame_str(frames, 2, "symbol"), "pipe_read");
	ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetArrayItem(frames, 2), "file"));
	ev = line_at(v, n, (double)TU_T0 + 99, "sample", 100);
	frames = cJSON_GetObjectItem(ev, "frames");
	ck_assert_str_eq(frame_str(frames, 1, "symbol"), "ksys_read");
	ck_assert_double_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetArrayItem(frames, 1),
								     "offset")), 8);
	golden = without_path(out, path);
	tu_golden("symbols.schedrep.json", golden, strlen(golden));
	/* no symbolizer (--no-symbols): the model alone */
	bare = convert(path, NULL, &len);
	ck_assert_ptr_null(strstr(bare, "\"frames\""));
	free_lines(v, n);
	free(golden);
	free(bare);
	free(out);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* symbol names that JSON must escape, or that are not UTF-8, stay exact and valid */
START_TEST(hostile_symbols)
{
	static const char ktext[] = "ffffffff81000000 T _text\n"
				    "ffffffff81000100 T __schedule\n"
				    "ffffffff81000300 T pipe\"read\\\n"
				    "ffffffff81000400 T vfs\xffread\n";
	char path[4096], kallsyms[4200], *dir, *out;
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	const cJSON *frames;
	size_t len, n;
	cJSON **v;

	dir = tu_callchain_scenario(path, sizeof(path), kallsyms, sizeof(kallsyms), ktext);
	so.kallsyms = kallsyms;
	out = convert(path, &c, &len);
	v = parse_lines(out, &n);
	frames = cJSON_GetObjectItem(line_at(v, n, (double)TU_T0 + 50, "switch", 100), "frames");
	ck_assert_str_eq(frame_str(frames, 2, "symbol"), "pipe\"read\\");
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetArrayItem(frames, 3), "symbol"), "hex")), "766673ff72656164");
	free_lines(v, n);
	free(out);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt_json");
	TCase *tc = tcase_create("scenario");

	tcase_add_test(tc, scenario_golden);
	tcase_add_test(tc, big_numbers);
	tcase_add_test(tc, hostile_strings);
	tcase_add_test(tc, selection_and_window);
	tcase_add_test(tc, symbolized_frames);
	tcase_add_test(tc, hostile_symbols);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
