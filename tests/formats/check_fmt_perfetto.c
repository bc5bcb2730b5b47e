// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fmt_perfetto.c - the Perfetto (Chrome Trace Event) exporter.
 *
 * No Perfetto UI or trace processor can run here, so every output is parsed
 * with cJSON and held to the Trace Event Format rules (fmtutil.c), then to
 * what the timeline must say: per thread the Running slices never overlap,
 * per CPU one task at a time, one Running slice per switch-in the model
 * delivered, thread names from the task table, exactly the selected tasks.
 * The scenario fixture has a golden output, the same in every byte order,
 * word size and container; the corpus traces with scheduler data are all
 * converted, and the emulated boards' messaging runs compared.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fmtutil.h"
#include "emit.h"

#define CPUS_PID 1073741824

static char *convert(const char *path, const struct tu_convert *c)
{
	struct srep_error err = { 0 };
	char *out = NULL;
	size_t len;

	ck_assert_msg(tu_convert(path, &srep_exporter_perfetto, c, &out, &len, &err) == 0,
		      "%s: %s", path, err.msg);
	return out;
}

static cJSON *checked(const char *json, const char *what)
{
	char why[512];
	cJSON *root = tu_tef_check(json, why, sizeof(why));

	ck_assert_msg(root, "%s: %s", what, why);
	return root;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, key));

	return s ? s : "";
}

static double num_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* the event of phase 'ph' named 'name' on thread 'tid' at 'ts' us, NULL if none */
static const cJSON *find(const cJSON *root, const char *ph, const char *name, int tid, double ts)
{
	const cJSON *ev;

	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
		if (!strcmp(str_of(ev, "ph"), ph) && !strcmp(str_of(ev, "name"), name) &&
		    num_of(ev, "tid") == tid && (ts < 0 || num_of(ev, "ts") == ts))
			return ev;
	}
	return NULL;
}

/* ---- the scenario ---- */

START_TEST(scenario_golden)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path));
	char *out = convert(path, NULL);
	cJSON *root = checked(out, "scenario");
	const cJSON *ev;

	tu_golden("scenario.perfetto.json", out, strlen(out));
	/* server slept from 50 to the waking at 62, waited until 80, woken by worker */
	ck_assert_ptr_nonnull(find(root, "X", "Sleeping (S)", 100, 5170000000.050));
	ev = find(root, "X", "Runnable", 100, 5170000000.062);
	ck_assert_ptr_nonnull(ev);
	ck_assert_double_eq(num_of(ev, "dur"), 0.018);
	ck_assert_str_eq(str_of(cJSON_GetObjectItem(ev, "args"), "woken_by"), "worker (101)");
	ck_assert_ptr_nonnull(find(root, "s", "wakeup", 101, 5170000000.062));
	ck_assert_ptr_nonnull(find(root, "f", "wakeup", 100, 5170000000.062));
	/* worker was preempted at 80, client blocked in D at 90 until the end (99) */
	ck_assert_ptr_nonnull(find(root, "X", "Runnable (preempted)", 101, 5170000000.080));
	ev = find(root, "X", "Blocked (D)", 200, 5170000000.090);
	ck_assert_ptr_nonnull(ev);
	ck_assert_double_eq(num_of(ev, "dur"), 0.009);
	/* the dead worker has nothing after its last switch-out */
	ck_assert_ptr_null(find(root, "X", "Not running (?)", 101, -1));
	ck_assert_ptr_nonnull(find(root, "i", "exec", 101, 5170000000.053));
	ev = find(root, "i", "rename", 101, 5170000000.093);
	ck_assert_ptr_nonnull(ev);
	ck_assert_str_eq(str_of(cJSON_GetObjectItem(ev, "args"), "from"), "worker");
	ck_assert_ptr_null(find(root, "i", "rename", 100, -1));	/* named, never renamed */
	ck_assert_ptr_nonnull(find(root, "C", "cpu0 frequency", CPUS_PID, 5170000000.005));
	ck_assert_ptr_nonnull(find(root, "i", "lost samples", CPUS_PID, 5170000000.097));
	ck_assert_ptr_nonnull(find(root, "M", "thread_name", 101, -1));
	ck_assert_str_eq(str_of(cJSON_GetObjectItem(find(root, "M", "thread_name", 101, -1), "args"),
				"name"), "server → worker → worker-2");
	ck_assert_double_eq(num_of(cJSON_GetObjectItem(root, "otherData"), "first_timestamp_ns"),
			    5170000000000.0);
	cJSON_Delete(root);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the events are the same on every board: only otherData says where it was recorded */
START_TEST(scenario_every_container)
{
	struct fixture_opts le = { 0 };
	struct fixture_opts o = { .big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8,
				  .pipe = _i & 4, .compressed = _i & 8,
				  .kernel = _i & 16 ? FIXTURE_KERNEL_6_18 : FIXTURE_KERNEL_6_1 };
	struct fixture *a = tu_scenario(&le, NULL, NULL), *b = tu_scenario(&o, NULL, NULL);
	char pa[4096], pb[4096], *da = tu_scenario_file(a, pa, sizeof(pa));
	char *db = tu_scenario_file(b, pb, sizeof(pb));
	char *x = convert(pa, NULL), *y = convert(pb, NULL);
	char *ex = strstr(x, "\"displayTimeUnit\""), *ey = strstr(y, "\"displayTimeUnit\"");

	ck_assert_ptr_nonnull(ex);
	ck_assert_ptr_nonnull(ey);
	ck_assert_int_eq(ex - x, ey - y);
	ck_assert_msg(!memcmp(x, y, (size_t)(ex - x)), "combination %d: events differ", _i);
	free(x);
	free(y);
	fixture_free(a);
	fixture_free(b);
	tu_rmdir(da);
	tu_rmdir(db);
	free(da);
	free(db);
}
END_TEST

static const cJSON *arg_of(const cJSON *ev, const char *key)
{
	return cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), key);
}

/*
 * With the target's kallsyms: sleep slices say where the task blocked (past
 * the scheduler's own frames), every event with a callchain is an instant
 * carrying the stack as perf script prints it. Without symbols (no
 * symbolizer): neither.
 */
START_TEST(blocking_function)
{
	char path[4096], kallsyms[4200], *dir;
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	char *with, *without;
	cJSON *root, *bare, *stack;
	const cJSON *ev;

	dir = tu_callchain_scenario(path, sizeof(path), kallsyms, sizeof(kallsyms),
				   tu_scenario_kallsyms);
	so.kallsyms = kallsyms;
	with = convert(path, &c);
	without = convert(path, NULL);
	root = checked(with, "symbolized");
	bare = checked(without, "bare");
	ev = find(root, "X", "Sleeping (S)", 100, 5170000000.050);
	ck_assert_ptr_nonnull(ev);
	ck_assert_str_eq(cJSON_GetStringValue(arg_of(ev, "blocked_in")), "pipe_read");
	ck_assert_ptr_null(arg_of(ev, "user_frame"));		/* a kernel-only chain */
	ev = find(root, "X", "Blocked (D)", 200, -1);
	ck_assert_str_eq(cJSON_GetStringValue(arg_of(ev, "blocked_in")), "pipe_read");
	/* the switch-out's stack, on the thread that switched out, at that time */
	ev = find(root, "i", "sched:sched_switch", 100, 5170000000.050);
	ck_assert_ptr_nonnull(ev);
	stack = (cJSON *)arg_of(ev, "stack");
	ck_assert_int_eq(cJSON_GetArraySize(stack), 4);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(stack, 0)),
			 "ffffffff81000100 __schedule+0x0 ([kernel.kallsyms])");
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(stack, 2)),
			 "ffffffff81000300 pipe_read+0x0 ([kernel.kallsyms])");
	ev = find(root, "i", "cpu-clock", 100, 5170000000.099);
	ck_assert_ptr_nonnull(ev);
	stack = (cJSON *)arg_of(ev, "stack");
	ck_assert_int_eq(cJSON_GetArraySize(stack), 2);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(stack, 1)),
			 "ffffffff81000488 ksys_read+0x8 ([kernel.kallsyms])");
	tu_golden("symbols.perfetto.json", with, strlen(with));
	ev = find(bare, "X", "Sleeping (S)", 100, 5170000000.050);
	ck_assert_ptr_null(arg_of(ev, "blocked_in"));
	ck_assert_ptr_null(find(bare, "i", "sched:sched_switch", 100, -1));
	ck_assert_ptr_null(find(bare, "i", "cpu-clock", 100, -1));
	cJSON_Delete(root);
	cJSON_Delete(bare);
	free(with);
	free(without);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* symbol names that JSON must escape, or that are not UTF-8: valid JSON all the same */
START_TEST(hostile_symbols)
{
	static const char ktext[] = "ffffffff81000000 T _text\n"
				    "ffffffff81000100 T __schedule\n"
				    "ffffffff81000200 T schedule\n"
				    "ffffffff81000300 T pipe\"read\\\n"
				    "ffffffff81000400 T vfs\xffread\n";
	char path[4096], kallsyms[4200], *dir;
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	const cJSON *ev, *stack;
	cJSON *root;
	char *out;

	dir = tu_callchain_scenario(path, sizeof(path), kallsyms, sizeof(kallsyms), ktext);
	so.kallsyms = kallsyms;
	out = convert(path, &c);
	root = checked(out, "hostile symbols");
	ev = find(root, "X", "Sleeping (S)", 100, 5170000000.050);
	ck_assert_str_eq(cJSON_GetStringValue(arg_of(ev, "blocked_in")), "pipe\"read\\");
	/* the second sleep too: names that need escaping are never cached */
	ev = find(root, "i", "sched:sched_switch", 100, 5170000000.092);
	stack = arg_of(ev, "stack");
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(stack, 2)),
			 "ffffffff81000300 pipe\"read\\+0x0 ([kernel.kallsyms])");
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(stack, 3)),
			 "ffffffff81000400 vfs\xef\xbf\xbdread+0x0 ([kernel.kallsyms])");
	cJSON_Delete(root);
	free(out);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* without the target's kernel symbols: addresses, and nothing known to skip */
START_TEST(blocking_addresses)
{
	char path[4096], kallsyms[4200], *dir;
	struct srep_symbol_opts so = { .buildid_dir = "", .symfs = "/nonexistent" };
	struct tu_convert c = { .symbols = &so };
	const cJSON *ev;
	cJSON *root;
	char *out;

	dir = tu_callchain_scenario(path, sizeof(path), kallsyms, sizeof(kallsyms), "");
	out = convert(path, &c);
	root = checked(out, "addresses");
	ev = find(root, "X", "Sleeping (S)", 100, 5170000000.050);
	ck_assert_str_eq(cJSON_GetStringValue(arg_of(ev, "blocked_in")), "0xffffffff81000100");
	ev = find(root, "i", "sched:sched_switch", 100, 5170000000.050);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(arg_of(ev, "stack"), 0)),
			 "ffffffff81000100 [unknown] ([kernel.kallsyms])");
	cJSON_Delete(root);
	free(out);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* comms are bytes: quotes, backslashes, control bytes and broken UTF-8 stay valid JSON */
START_TEST(hostile_strings)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, "a\"b\\c\n\x01", "w\xff\xc3(\xe9");
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path));
	char *out = convert(path, NULL);
	cJSON *root = checked(out, "hostile");
	const cJSON *ev = find(root, "M", "thread_name", 100, -1);

	ck_assert_str_eq(str_of(cJSON_GetObjectItem(ev, "args"), "name"), "a\"b\\c\n\x01");
	/* invalid bytes become U+FFFD in names: worker runs on CPU 0 from 92 */
	ev = find(root, "X", "w\xef\xbf\xbd\xef\xbf\xbd(\xef\xbf\xbd", CPUS_PID + 1, 5170000000.092);
	ck_assert_ptr_nonnull(ev);
	tu_golden("hostile.perfetto.json", out, strlen(out));
	cJSON_Delete(root);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(time_window)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path));
	struct tu_convert c = { .time = "0.000000055,@5170.000000085" };
	char *out = convert(path, &c);
	cJSON *root = checked(out, "window");
	const cJSON *ev;
	int slices = 0;

	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
		double ts = num_of(ev, "ts"), end = ts + (num_of(ev, "dur") > 0 ? num_of(ev, "dur") : 0);

		if (!strcmp(str_of(ev, "ph"), "M"))
			continue;
		tu_check(ts >= 5170000000.055 && end <= 5170000000.085 + 1e-6,
			      "%s '%s' at %.3f outside the window", str_of(ev, "ph"), str_of(ev, "name"), ts);
		slices += !strcmp(str_of(ev, "ph"), "X");
	}
	/* clipped, not dropped: worker runs 50-80, shown from 55 */
	ev = find(root, "X", "Running", 101, 5170000000.055);
	ck_assert_ptr_nonnull(ev);
	ck_assert_double_eq(num_of(ev, "dur"), 0.025);
	ck_assert_int_gt(slices, 4);
	cJSON_Delete(root);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* ---- invariants on the corpus ---- */

struct span {
	int64_t key;			/* tid, or CPU track tid */
	double start, end;
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* spans with the same key never overlap */
static void assert_disjoint(struct span *v, size_t n, const char *what, const char *path)
{
	size_t i;

	if (n)
		qsort(v, n, sizeof(*v), cmp_span);
	for (i = 1; i < n; i++) {
		tu_check(v[i].key != v[i - 1].key || v[i].start >= v[i - 1].end - 1e-6,
			      "%s: %s %lld: slices at %.3f and %.3f overlap", path, what,
			      (long long)v[i].key, v[i - 1].start, v[i].start);
	}
}

/* switch-ins of non-idle tasks the model delivers, and those with a known CPU */
static size_t switch_ins(const char *path, size_t *with_cpu)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	size_t n = 0;

	*with_cpu = 0;
	ck_assert_int_eq(srep_session__open(&s, path, NULL, &err), 0);
	while (srep_session__next_event(s, &ev, &err) > 0) {
		if (ev->kind == SREP_EV_SWITCH && !(ev->flags & SREP_EVF_SWITCH_OUT) &&
		    ev->u.sw.next_tid > 0) {
			n++;
			*with_cpu += ev->cpu >= 0;
		}
	}
	srep_session__delete(s);
	return n;
}

/* the last name of a label: "a → b → c" -> "c" */
static const char *last_name(const char *label)
{
	const char *p = strstr(label, " → "), *last = label;

	for (; p; p = strstr(p + 1, " → "))
		last = p + strlen(" → ");
	return last;
}

static void check_names(const cJSON *root, const struct srep_session *s, const char *path)
{
	const struct srep_task *t;
	const cJSON *ev;
	char label[SREP_EXPORT_LABEL_MAX];

	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
		if (strcmp(str_of(ev, "name"), "thread_name") || num_of(ev, "pid") == CPUS_PID)
			continue;
		t = srep_session__find_task(s, (int32_t)num_of(ev, "tid"));
		tu_check(t, "%s: thread %.0f is not in the task table", path, num_of(ev, "tid"));
		srep_export_task_label(t, label, sizeof(label));
		if (!utf8_valid(label, strlen(label)))
			continue;	/* replaced bytes: hostile_strings covers those */
		tu_check(!strcmp(last_name(str_of(cJSON_GetObjectItem(ev, "args"), "name")),
				 srep_task__comm(t)), "%s: thread %d is named '%s', its comm is '%s'", path,
			 srep_task__tid(t), str_of(cJSON_GetObjectItem(ev, "args"), "name"),
			 srep_task__comm(t));
	}
}

/* the thread tracks of the output (CPU tracks aside) */
static size_t thread_tids(const cJSON *root, int32_t *tids, size_t max)
{
	const cJSON *ev;
	size_t n = 0, i;

	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
		int32_t tid = (int32_t)num_of(ev, "tid");

		if (strcmp(str_of(ev, "ph"), "X") || num_of(ev, "pid") == CPUS_PID)
			continue;
		for (i = 0; i < n && tids[i] != tid; i++)
			;
		if (i == n && n < max)
			tids[n++] = tid;
	}
	return n;
}

static void check_invariants(const char *path, const cJSON *root)
{
	const cJSON *ev;
	struct span *run = NULL, *cpus = NULL;
	size_t nr_run = 0, nr_cpu = 0, want_cpu, want = switch_ins(path, &want_cpu);
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };

	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
		struct span sp = { (int64_t)num_of(ev, "tid"), num_of(ev, "ts"),
				   num_of(ev, "ts") + num_of(ev, "dur") };

		if (strcmp(str_of(ev, "ph"), "X"))
			continue;
		if (num_of(ev, "pid") == CPUS_PID) {
			cpus = tu_grow(cpus, nr_cpu, sizeof(*cpus));
			cpus[nr_cpu++] = sp;
		} else if (!strcmp(str_of(ev, "name"), "Running")) {
			run = tu_grow(run, nr_run, sizeof(*run));
			run[nr_run++] = sp;
		}
	}
	assert_disjoint(run, nr_run, "thread", path);
	assert_disjoint(cpus, nr_cpu, "CPU track", path);
	/* one Running slice per switch-in, one CPU slice per switch-in on a known CPU */
	ck_assert_msg(nr_run == want, "%s: %zu Running slices for %zu switch-ins", path, nr_run, want);
	ck_assert_msg(nr_cpu == want_cpu, "%s: %zu CPU slices for %zu switch-ins", path, nr_cpu,
		      want_cpu);
	tu_read_all(path, 0, &s, &err);
	ck_assert_ptr_nonnull(s);
	check_names(root, s, path);
	srep_session__delete(s);
	free(run);
	free(cpus);
}

/* a task that ran, preferably a thread that is not its process's main one */
static const struct srep_task *pick_task(const char *path, struct srep_session **sp)
{
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	const struct srep_task *t;
	int32_t ran[64];
	size_t n = 0, i;

	ck_assert_int_eq(srep_session__open(sp, path, NULL, &err), 0);
	while (srep_session__next_event(*sp, &ev, &err) > 0) {
		if (ev->kind == SREP_EV_SWITCH && ev->u.sw.next_tid > 0 && n < 64 &&
		    !(ev->flags & SREP_EVF_SWITCH_OUT))
			ran[n++] = ev->u.sw.next_tid;
	}
	for (i = 0; i < n; i++) {
		t = srep_session__find_task(*sp, ran[i]);
		if (t && srep_task__pid(t) > 0 && srep_task__pid(t) != srep_task__tid(t) &&
		    srep_task__nr_comms(t))
			return t;
	}
	for (i = 0; i < n; i++) {
		t = srep_session__find_task(*sp, ran[i]);
		if (t && srep_task__pid(t) > 0 && srep_task__nr_comms(t))
			return t;
	}
	return NULL;
}

/*
 * A process, one thread or a comm (kind k) selects exactly its tasks. Each
 * file tries one kind, the next file the next: the corpus covers all three
 * many times over without parsing three more outputs per file.
 */
static void check_selection(const char *path, size_t k)
{
	struct srep_session *s = NULL;
	const struct srep_task *t, *pick = pick_task(path, &s);
	char spec[64], *out;
	const char *only[2] = { spec, NULL };
	struct tu_convert c = { .only = only };
	int32_t tids[4096];
	size_t j, n;
	cJSON *root;

	if (!pick) {
		srep_session__delete(s);
		return;
	}
	if (k == 0)
		snprintf(spec, sizeof(spec), "%d", srep_task__pid(pick));
	else if (k == 1)
		snprintf(spec, sizeof(spec), "tid:%d", srep_task__tid(pick));
	else
		snprintf(spec, sizeof(spec), "comm:%s", srep_task__comm(pick));
	out = convert(path, &c);
	root = checked(out, spec);
	n = thread_tids(root, tids, 4096);
	for (j = 0; j < n; j++) {
		t = srep_session__find_task(s, tids[j]);
		tu_check(t && (k == 0 ? srep_task__pid(t) == srep_task__pid(pick) :
				    k == 1 ? srep_task__tid(t) == srep_task__tid(pick) :
				    srep_task__matches_comm(t, srep_task__comm(pick))),
			      "%s: --only %s shows thread %d", path, spec, tids[j]);
	}
	for (j = 0; j < n && tids[j] != srep_task__tid(pick); j++)
		;
	ck_assert_msg(j < n, "%s: --only %s lost thread %d", path, spec, srep_task__tid(pick));
	cJSON_Delete(root);
	free(out);
	srep_session__delete(s);
}

START_TEST(corpus_invariants)
{
	char **files = tu_corpus_sched_files(), *out;
	cJSON *root;
	size_t i;

	if (!files)
		TU_SKIP("no corpus (set SREP_CORPUS)");
	for (i = 0; files[i]; i++) {
		out = convert(files[i], NULL);
		root = checked(out, files[i]);
		check_invariants(files[i], root);
		cJSON_Delete(root);
		free(out);
		check_selection(files[i], i % 3);
	}
	ck_assert_int_gt(i, 20);
	fprintf(stderr, "perfetto: %zu corpus traces with scheduler data checked\n", i);
	tu_free_list(files);
}
END_TEST

/* the same workload on four boards: the same tasks, the same kind of timeline */
START_TEST(cross_architecture)
{
	static const char *const boards[] = { "s390x", "arm64", "armhf", "x86_64" };
	size_t b, messaging[4], with_running[4], cpu_tracks[4], flows[4];

	for (b = 0; b < 4; b++) {
		char rel[64], *path, *out;
		cJSON *root;
		const cJSON *ev;
		int32_t tids[4096];
		size_t i, n;

		snprintf(rel, sizeof(rel), "emulated/%s-messaging.data", boards[b]);
		path = tu_corpus_path(rel);
		if (!path)
			TU_SKIP("no corpus (set SREP_CORPUS)");
		out = convert(path, NULL);
		root = checked(out, path);
		messaging[b] = with_running[b] = cpu_tracks[b] = flows[b] = 0;
		n = thread_tids(root, tids, 4096);
		cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
			const char *name = str_of(cJSON_GetObjectItem(ev, "args"), "name");

			if (!strcmp(str_of(ev, "name"), "thread_name")) {
				messaging[b] += !strcmp(last_name(name), "sched-messaging");
				cpu_tracks[b] += num_of(ev, "pid") == CPUS_PID;
			}
			flows[b] += !strcmp(str_of(ev, "ph"), "s");
		}
		for (i = 0; i < n; i++)
			with_running[b] += find(root, "X", "Running", tids[i], -1) != NULL;
		fprintf(stderr, "%s: %zu sched-messaging threads, %zu threads ran, %zu CPU tracks, "
			"%zu wakeup flows\n", boards[b], messaging[b], with_running[b], cpu_tracks[b],
			flows[b]);
		/* 2 groups x (20 senders + 20 receivers) and their parent, on 2 CPUs */
		ck_assert_uint_eq(messaging[b], 81);
		ck_assert_uint_ge(with_running[b], 81);
		ck_assert_uint_eq(cpu_tracks[b], 2);
		ck_assert_uint_gt(flows[b], 500);
		cJSON_Delete(root);
		free(out);
		free(path);
	}
}
END_TEST

/* ---- agreement with perf sched timehist ---- */

enum { K_RUN, K_WOKEN, K_PREEMPTED, K_OTHER };

struct run {				/* a Running slice, or a timehist line */
	int32_t tid;
	int64_t end_us, run_us;		/* truncated to us, as timehist prints */
	int prev_kind;			/* the slice before it on the thread */
	int64_t prev_us;
	int64_t wait_us, delay_us;	/* timehist's columns */
	bool lost;			/* timehist lost the task (":236[236]"): no wait, delay */
	bool used;
};

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->end_us != y->end_us)
		return x->end_us < y->end_us ? -1 : 1;
	return x->run_us < y->run_us ? -1 : x->run_us > y->run_us;
}

/* our Running slices of at least 1 us, with the slice each follows on its thread */
static struct run *our_runs(const cJSON *root, size_t *n)
{
	struct { int32_t tid; int kind; int64_t start, end; } *last = NULL;
	size_t nr_last = 0, i;
	struct run *v = NULL;
	const cJSON *ev;

	*n = 0;
	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(root, "traceEvents")) {
		const char *name = str_of(ev, "name");
		int32_t tid = (int32_t)num_of(ev, "tid");
		int64_t start = llround(num_of(ev, "ts") * 1000), end = start + llround(num_of(ev, "dur") * 1000);
		int kind = !strcmp(name, "Running") ? K_RUN : !strcmp(name, "Runnable") ? K_WOKEN :
			   !strcmp(name, "Runnable (preempted)") ? K_PREEMPTED : K_OTHER;

		if (strcmp(str_of(ev, "ph"), "X") || num_of(ev, "pid") == CPUS_PID)
			continue;
		/* slices of a thread come out in time order: the last one seen precedes this */
		for (i = 0; i < nr_last && last[i].tid != tid; i++)
			;
		if (i == nr_last) {
			last = tu_grow(last, nr_last, sizeof(*last));
			last[nr_last++].tid = tid;
			last[i].kind = K_OTHER;
			last[i].end = -1;
		}
		if (kind == K_RUN && end - start >= 1000) {
			v = tu_grow(v, *n, sizeof(*v));
			v[(*n)++] = (struct run){ tid, end / 1000, (end - start) / 1000,
				last[i].end == start ? last[i].kind : K_OTHER,
				(last[i].end - last[i].start) / 1000, 0, 0, false, false };
		}
		last[i].kind = kind;
		last[i].start = start;
		last[i].end = end;
	}
	free(last);
	return v;
}

/* "1.234" (s or ms) in units of 1e-6 of it, without floating point */
static int64_t micro(const char *s)
{
	long long ip = 0, frac = 0;
	int digits = 0;
	const char *p;

	sscanf(s, "%lld", &ip);
	p = strchr(s, '.');
	for (p = p ? p + 1 : ""; *p >= '0' && *p <= '9' && digits < 6; p++, digits++)
		frac = frac * 10 + (*p - '0');
	for (; digits < 6; digits++)
		frac *= 10;
	return ip * 1000000 + frac;
}

/* timehist's lines of tasks that ran (run time > 0); *unnamed: lines perf could not name */
static struct run *timehist_runs(const char *text, size_t *n, size_t *unnamed)
{
	struct run *v = NULL, r;
	char line[512], *nl, *br, *f[3];
	const char *p;
	int k;

	*n = *unnamed = 0;
	for (p = text; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		/* the three numbers at the end: wait time, sch delay, run time (ms) */
		for (k = 2; k >= 0; k--) {
			char *sp = strrchr(line, ' ');

			while (sp && !sp[1]) {
				*sp = '\0';
				sp = strrchr(line, ' ');
			}
			f[k] = sp ? sp + 1 : NULL;
			if (sp)
				*sp = '\0';
		}
		br = strstr(line, "] ");
		if (!f[0] || !br || line[strspn(line, " ")] < '0' || line[strspn(line, " ")] > '9' ||
		    strstr(br, "<idle>"))
			continue;
		br = strrchr(br + 1, '[');
		if (!br || br[1] < '0' || br[1] > '9') {
			(*unnamed)++;	/* ":-1[-1]": perf lost the task */
			continue;
		}
		r = (struct run){ .tid = atoi(br + 1), .end_us = micro(line + strspn(line, " ")),
				  .run_us = micro(f[2]) / 1000, .wait_us = micro(f[0]) / 1000,
				  .delay_us = micro(f[1]) / 1000, .lost = strstr(line, "  :") != NULL };
		if (!r.run_us)
			continue;
		v = tu_grow(v, *n, sizeof(*v));
		v[(*n)++] = r;
	}
	return v;
}

/*
 * Our Runnable slice before a run is perf's scheduling delay: woken, it is
 * sch delay; preempted, it is the wait time (perf 6.1 then says sch delay 0,
 * perf 6.12 the wait time again); with neither, perf says 0. For a task
 * perf lost track of (an exited thread, ":236[236]"), it prints 0 for both.
 */
static bool same_wait(const struct run *ours, const struct run *perf)
{
	if (perf->lost)
		return true;
	switch (ours->prev_kind) {
	case K_WOKEN:
		return ours->prev_us == perf->delay_us;
	case K_PREEMPTED:
		return ours->prev_us == perf->wait_us &&
		       (perf->delay_us == 0 || perf->delay_us == perf->wait_us);
	default:
		return perf->delay_us == 0;
	}
}

START_TEST(timehist_agreement)
{
	static const char *const boards[] = { "x86_64", "s390x", "armhf", "arm64", "x86_64-smp4",
					      "arm64-trixie" };
	char rel[96], *trace, *hist, *cmd, *text = NULL, *out;
	struct run *ours, *perf;
	size_t b, i, j, no, np, unnamed, extra;
	cJSON *root;

	if (!tu_corpus_dir())
		TU_SKIP("no corpus (set SREP_CORPUS)");
	if (!tu_have_program("xz"))
		TU_SKIP("xz not installed: perf's timehist outputs cannot be read");
	for (b = 0; b < sizeof(boards) / sizeof(boards[0]); b++) {
		snprintf(rel, sizeof(rel), "emulated/%s-messaging.data", boards[b]);
		trace = tu_corpus_path(rel);
		snprintf(rel, sizeof(rel), "emulated/%s-messaging.timehist.txt.xz", boards[b]);
		hist = tu_corpus_path(rel);
		ck_assert_int_ge(asprintf(&cmd, "xz -dc '%s'", hist), 0);
		ck_assert_int_eq(tu_run(cmd, &text), 0);
		out = convert(trace, NULL);
		root = checked(out, trace);
		ours = our_runs(root, &no);
		perf = timehist_runs(text, &np, &unnamed);
		qsort(ours, no, sizeof(*ours), cmp_run);
		for (i = 0; i < np; i++) {
			struct run *lo = bsearch(&perf[i], ours, no, sizeof(*ours), cmp_run);

			/* equal keys can repeat (a stalled emulated clock): any unused one that agrees */
			while (lo && lo > ours && !cmp_run(lo - 1, &perf[i]))
				lo--;
			for (j = lo ? (size_t)(lo - ours) : no; j < no && !cmp_run(&ours[j], &perf[i]); j++) {
				if (!ours[j].used && same_wait(&ours[j], &perf[i]))
					break;
			}
			tu_check(j < no && !cmp_run(&ours[j], &perf[i]), "%s: timehist's run of tid %d "
				 "ending at %lld us (%lld us, wait %lld, delay %lld) is not ours", boards[b],
				 perf[i].tid, (long long)perf[i].end_us, (long long)perf[i].run_us,
				 (long long)perf[i].wait_us, (long long)perf[i].delay_us);
			ours[j].used = true;
		}
		for (i = 0, extra = 0; i < no; i++)
			extra += !ours[i].used;
		fprintf(stderr, "timehist %s: %zu runs agree, %zu more of ours (%zu unnamed in perf)\n",
			boards[b], np, extra, unnamed);
		/* ours: runs still open at the end of the trace, and those perf could not name */
		ck_assert_uint_le(extra, 8 + unnamed);
		ck_assert_uint_gt(np, 1000);
		free(ours);
		free(perf);
		cJSON_Delete(root);
		free(out);
		free(text);
		text = NULL;
		free(cmd);
		free(trace);
		free(hist);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt_perfetto");
	TCase *tc = tcase_create("scenario");
	TCase *corpus = tcase_create("corpus");

	tcase_add_test(tc, scenario_golden);
	tcase_add_loop_test(tc, scenario_every_container, 1, 32);
	tcase_add_test(tc, blocking_function);
	tcase_add_test(tc, blocking_addresses);
	tcase_add_test(tc, hostile_symbols);
	tcase_add_test(tc, hostile_strings);
	tcase_add_test(tc, time_window);
	suite_add_tcase(s, tc);
	tcase_set_timeout(corpus, 300);
	tcase_add_test(corpus, corpus_invariants);
	tcase_add_test(corpus, cross_architecture);
	tcase_add_test(corpus, timehist_agreement);
	suite_add_tcase(s, corpus);
	return tu_run_suite(s);
}
