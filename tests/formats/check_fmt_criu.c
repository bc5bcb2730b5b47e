// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fmt_criu.c - the CRIU exporter through the exporter interface:
 * which instants, which tasks in which state, the process tree, the image
 * framing (read back with protobuf-c), byte-identical images whatever the
 * trace's byte order, word size or container, timeline.json against a
 * golden file, clear errors for instants outside the trace, damaged trees;
 * then CRIU's own crit (skipped when absent) on fixtures and
 * on the corpus traces with fork and exit data.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bytes.h"
#include "criu.h"
#include "criu_local.h"
#include "criu.pb-c.h"
#include "fixture.h"
#include "fmtutil.h"
#include "testutil.h"

#define T0 5170000000000ull	/* 5170 s after boot */
#define US 1000ull
#define MS 1000000ull

/* ---- running the exporter as convert does: a temporary directory renamed into place ---- */

struct run {
	const char *opts[12][2];	/* criu options: name, value */
	const char *only;		/* a selection, NULL = every task */
	bool children;
	uint64_t from, to;		/* convert's time window; to 0 = none */
};

/* what convert does with a format's option given by name */
static int set_opt(void *o, const char *name, const char *arg, struct srep_error *err)
{
	const struct srep_export_opt *x;

	for (x = srep_criu_options; x->name; x++) {
		if (!strcmp(x->name, name))
			return srep_criu_opts__opt(o, x->id, arg, err);
	}
	return srep_error__set(err, SREP_E_INVAL, "no option --%s", name);
}

static int export_to(const char *trace, const char *out, const struct run *r,
		     struct srep_error *err)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_export_ctx ctx = { .from = 0, .to = UINT64_MAX };
	const struct srep_exporter *x = &srep_exporter_criu;
	struct srep_selection *sel = NULL;
	struct srep_session *s = NULL;
	const struct srep_event *ev;
	void *st = NULL, *o = NULL;
	char tmp[4096];
	int ret, i;

	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", out);
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	ret = srep_session__open(&s, trace, &oo, err);
	if (!ret)
		ret = srep_criu_opts__new(&o, err);
	for (i = 0; !ret && r && i < 12 && r->opts[i][0]; i++)
		ret = set_opt(o, r->opts[i][0], r->opts[i][1], err);
	if (!ret && r && r->only) {
		ret = srep_selection__new(&sel, err);
		if (!ret)
			ret = srep_selection__add_only(sel, r->only, err);
		if (!ret)
			srep_selection__set_children(sel, r->children);
		if (!ret)
			ret = srep_selection__resolve(sel, s, err);
	}
	ctx.from = r ? r->from : 0;
	ctx.to = r && r->to ? r->to : UINT64_MAX;
	ctx.session = s;
	ctx.sel = sel;
	ctx.out_dir = tmp;
	ctx.opts = o;
	if (!ret)
		ret = x->begin(&st, &ctx, err);
	while (!ret && (ret = srep_session__next_event(s, &ev, err)) > 0)
		ret = x->event(st, ev, err);
	if (!ret)
		ret = x->end(st, err);
	x->destroy(st);
	srep_selection__delete(sel);
	srep_session__delete(s);
	srep_criu_opts__free(o);
	if (ret)
		tu_rmdir(tmp);
	else
		ck_assert_int_eq(rename(tmp, out), 0);
	return ret;
}

/* ---- the fixture: a shell, its child that execs and starts a thread, a stopped task, an RT task ---- */

static void tree_scenario(struct fixture *fx, bool instructions)
{
	int insn = instructions ? fixture_add_event(fx, 0 /* HARDWARE */, 1 /* instructions */, 0) : -1;

	fixture_comm(fx, T0, 0, 10, 10, "shell", false);
	fixture_comm(fx, T0, 1, 30, 30, "stopper", false);
	fixture_comm(fx, T0, 1, 40, 40, "rtwatch", false);
	fixture_switch(fx, T0 + 1 * MS, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "shell", 10, 120);
	fixture_switch(fx, T0 + 1500 * US, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "stopper", 30, 120);
	fixture_fork(fx, T0 + 2 * MS, 0, 20, 10, 20, 10);
	fixture_tp_fork(fx, T0 + 2 * MS + 1, 0, "shell", 10, "shell", 20);
	fixture_wakeup_new(fx, T0 + 2 * MS + 2, 0, "shell", 20, 120, 0);
	fixture_switch(fx, T0 + 2500 * US, 1, "stopper", 30, 120, FIXTURE_STATE_T, "rtwatch", 40, 49);
	fixture_switch(fx, T0 + 3 * MS, 0, "shell", 10, 120, FIXTURE_STATE_S, "shell", 20, 120);
	if (insn >= 0)
		fixture_sample(fx, insn, T0 + 3500 * US, 0, 20, 20, 0x401000, 1000000, 0, NULL);
	fixture_comm(fx, T0 + 4 * MS, 0, 20, 20, "worker", true);
	fixture_exec(fx, T0 + 4 * MS + 1, 0, "/usr/bin/worker", 20, 20);
	fixture_fork(fx, T0 + 5 * MS, 0, 20, 20, 21, 20);
	fixture_tp_fork(fx, T0 + 5 * MS + 1, 0, "worker", 20, "worker", 21);
	fixture_switch(fx, T0 + 5500 * US, 1, "rtwatch", 40, 49, FIXTURE_STATE_S, "swapper/1", 0, 120);
	fixture_switch(fx, T0 + 6 * MS, 0, "worker", 20, 120, FIXTURE_STATE_PREEMPT, "worker", 21, 130);
	if (insn >= 0)
		fixture_sample(fx, insn, T0 + 6500 * US, 0, 20, 21, 0x401100, 1000000, 0, NULL);
	fixture_switch(fx, T0 + 7 * MS, 0, "worker", 21, 130, FIXTURE_STATE_S, "worker", 20, 120);
	if (insn >= 0)
		fixture_sample(fx, insn, T0 + 7500 * US, 0, 20, 20, 0x401000, 1500000, 0, NULL);
	fixture_switch(fx, T0 + 8200 * US, 0, "worker", 20, 120, FIXTURE_STATE_S, "worker", 21, 130);
	if (insn >= 0)
		fixture_sample(fx, insn, T0 + 8700 * US, 0, 20, 21, 0x401100, 500000, 0, NULL);
	fixture_tp_exit(fx, T0 + 9 * MS, 0, "worker", 21, 130);
	fixture_exit(fx, T0 + 9 * MS + 1, 0, 20, 20, 21, 20);
	fixture_switch(fx, T0 + 9100 * US, 0, "worker", 21, 130, FIXTURE_STATE_X, "worker", 20, 120);
	if (insn >= 0)
		fixture_sample(fx, insn, T0 + 9500 * US, 0, 20, 20, 0x401000, 2000000, 0, NULL);
	fixture_tp_exit(fx, T0 + 10 * MS, 0, "worker", 20, 120);
	fixture_exit(fx, T0 + 10 * MS + 1, 0, 20, 10, 20, 10);
	fixture_waking(fx, T0 + 10050 * US, 0, "shell", 10, 120, 0);
	fixture_switch(fx, T0 + 10100 * US, 0, "worker", 20, 120, FIXTURE_STATE_Z, "shell", 10, 120);
	fixture_tp_free(fx, T0 + 11 * MS, 0, "worker", 20, 120);
	fixture_switch(fx, T0 + 12 * MS, 0, "shell", 10, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
}

/* the fixture in 'dir'/NAME.data; returns its path (free it) */
static char *write_tree(const char *dir, const struct fixture_opts *o, bool instructions)
{
	struct fixture *fx = fixture_new(o);
	char *path;

	ck_assert_ptr_nonnull(fx);
	tree_scenario(fx, instructions);
	ck_assert_int_ne(asprintf(&path, "%s/tree.data", dir), -1);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	fixture_free(fx);
	return path;
}

/* every option at once: 9 instants (docs/criu.md walks through them) */
static const struct run all_instants = { .opts = {
	{ "at", "0.0025" }, { "at", "0.0085" }, { "at", "@5170.0105" },
	{ "every", "4ms" }, { "every-instructions", "2000000" } } };

static const char *const all_dirs[] = {
	"000-0.002500s", "001-0.004000s", "002-0.006500s", "003-0.008000s", "004-0.008500s",
	"005-0.008700s", "006-0.009500s", "007-0.010500s", "008-0.012000s", NULL,
};

/* ---- reading images back with protobuf-c ---- */

struct entries {
	ProtobufCMessage **m;
	size_t n;
};

static void read_image(const char *path, uint32_t magic, const ProtobufCMessageDescriptor *d,
		       struct entries *out)
{
	size_t len, off;
	uint8_t *buf = (uint8_t *)tu_read_file(path, &len);

	ck_assert_msg(buf != NULL, "no %s", path);
	off = 0;
	if (magic != 0x58313116u) {	/* all but inventory.img start with IMG_COMMON */
		ck_assert_uint_ge(len, 4);
		ck_assert_uint_eq(srep_get32(buf, false), 0x54564319u);
		off = 4;
	}
	ck_assert_uint_ge(len, off + 4);
	ck_assert_uint_eq(srep_get32(buf + off, false), magic);
	off += 4;
	out->n = 0;
	out->m = NULL;
	while (off < len) {
		uint32_t size;

		ck_assert_uint_ge(len - off, 4);
		size = srep_get32(buf + off, false);
		ck_assert_uint_ge(len - off - 4, size);
		out->m = realloc(out->m, (out->n + 1) * sizeof(*out->m));
		ck_assert_ptr_nonnull(out->m);
		out->m[out->n] = protobuf_c_message_unpack(d, NULL, size, buf + off + 4);
		ck_assert_msg(out->m[out->n] != NULL, "%s: entry %zu does not decode", path, out->n);
		out->n++;
		off += 4 + size;
	}
	free(buf);
}

static void free_entries(struct entries *e)
{
	while (e->n)
		protobuf_c_message_free_unpacked(e->m[--e->n], NULL);
	free(e->m);
	e->m = NULL;
}

/* "pid:ppid:threads..." per pstree entry, ' ' separated, in file order */
static void pstree_text(const char *dir, char *buf, size_t size)
{
	char path[4096];
	struct entries e;
	size_t i, j, o = 0;

	snprintf(path, sizeof(path), "%s/pstree.img", dir);
	read_image(path, 0x50273030u, &srep_criu__pstree_entry__descriptor, &e);
	buf[0] = '\0';
	for (i = 0; i < e.n; i++) {
		const SrepCriu__PstreeEntry *p = (const SrepCriu__PstreeEntry *)e.m[i];

		ck_assert_uint_eq(p->pgid, p->pid);
		ck_assert_uint_eq(p->sid, p->pid);
		o += (size_t)snprintf(buf + o, size - o, "%s%u:%u", i ? " " : "", p->pid, p->ppid);
		for (j = 0; j < p->n_threads; j++)
			o += (size_t)snprintf(buf + o, size - o, ":%u", p->threads[j]);
	}
	free_entries(&e);
}

/* the core of one task: "comm state [nice N] [rt N]" */
static void core_text(const char *dir, int tid, char *buf, size_t size)
{
	const SrepCriu__CoreEntry *c;
	char path[4096];
	struct entries e;

	snprintf(path, sizeof(path), "%s/core-%d.img", dir, tid);
	read_image(path, 0x55053847u, &srep_criu__core_entry__descriptor, &e);
	ck_assert_uint_eq(e.n, 1);
	c = (const SrepCriu__CoreEntry *)e.m[0];
	ck_assert_int_eq(c->mtype, SREP_CRIU__CORE_ENTRY__MARCH__X86_64);
	ck_assert_ptr_nonnull(c->tc);
	ck_assert_ptr_nonnull(c->thread_core);
	ck_assert_str_eq(c->tc->comm, c->thread_core->comm);
	snprintf(buf, size, "%s %u%s", c->tc->comm, c->tc->task_state,
		 !c->thread_core->has_sched_policy ? "" :
		 c->thread_core->sched_policy == 0 ? " other" : " fifo");
	if (c->thread_core->has_sched_nice)
		snprintf(buf + strlen(buf), size - strlen(buf), " nice %d", c->thread_core->sched_nice);
	if (c->thread_core->has_sched_policy && c->thread_core->sched_policy)
		snprintf(buf + strlen(buf), size - strlen(buf), " rt %u", c->thread_core->sched_prio);
	free_entries(&e);
}

static void expect_pstree(const char *out, const char *instant, const char *want)
{
	char dir[3072], got[1024];

	snprintf(dir, sizeof(dir), "%s/%s", out, instant);
	pstree_text(dir, got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "%s: pstree '%s', expected '%s'", instant, got, want);
}

static void expect_core(const char *out, const char *instant, int tid, const char *want)
{
	char dir[3072], got[256];

	snprintf(dir, sizeof(dir), "%s/%s", out, instant);
	core_text(dir, tid, got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "%s: core-%d '%s', expected '%s'", instant, tid, got, want);
}

static bool exists(const char *out, const char *instant, const char *file)
{
	char path[4096];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s/%s", out, instant, file);
	return stat(path, &sb) == 0;
}

/* ---- the fixture's instants, read back ---- */

START_TEST(instants_and_tree)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), *trace, out[2048], inv[4096];
	struct entries e;
	size_t i;

	trace = write_tree(dir, &fo, true);
	snprintf(out, sizeof(out), "%s/tree.criu", dir);
	ck_assert_msg(export_to(trace, out, &all_instants, &err) == 0, "%s", err.msg);
	for (i = 0; all_dirs[i]; i++)
		ck_assert_msg(exists(out, all_dirs[i], "pstree.img"), "no %s", all_dirs[i]);
	/* 2.5 ms: the child is forked; stopper stopped; made-up init at the root */
	expect_pstree(out, "000-0.002500s", "1:0:1 10:1:10 20:10:20 30:1:30 40:1:40");
	expect_core(out, "000-0.002500s", 1, "init 1");
	expect_core(out, "000-0.002500s", 20, "shell 1 other nice 0");
	expect_core(out, "000-0.002500s", 30, "stopper 3 other nice 0");
	expect_core(out, "000-0.002500s", 40, "rtwatch 1 fifo rt 50");
	/* 8.5 ms: exec'd and threaded */
	expect_pstree(out, "004-0.008500s", "1:0:1 10:1:10 20:10:20:21 30:1:30 40:1:40");
	expect_core(out, "004-0.008500s", 20, "worker 1 other nice 0");
	expect_core(out, "004-0.008500s", 21, "worker 1 other nice 10");
	/* 10.5 ms: the thread is gone, the process a zombie */
	expect_pstree(out, "007-0.010500s", "1:0:1 10:1:10 20:10:20 30:1:30 40:1:40");
	expect_core(out, "007-0.010500s", 20, "worker 6 other nice 0");
	ck_assert(!exists(out, "007-0.010500s", "core-21.img"));
	/* 12 ms: reaped (sched_process_free) */
	expect_pstree(out, "008-0.012000s", "1:0:1 10:1:10 30:1:30 40:1:40");
	ck_assert(!exists(out, "008-0.012000s", "core-20.img"));
	/* inventory.img: no head magic, version 2 */
	snprintf(inv, sizeof(inv), "%s/%s/inventory.img", out, all_dirs[0]);
	read_image(inv, 0x58313116u, &srep_criu__inventory_entry__descriptor, &e);
	ck_assert_uint_eq(e.n, 1);
	ck_assert_uint_eq(((SrepCriu__InventoryEntry *)e.m[0])->img_version, 2);
	free_entries(&e);
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* timeline.json equals tests/data/criu/tree.timeline.json (SREP_UPDATE_GOLDEN=1 rewrites it) */
START_TEST(timeline_golden)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), *trace, out[2048], path[4096], golden[4096], *got, *want;
	cJSON *json;

	trace = write_tree(dir, &fo, true);
	snprintf(out, sizeof(out), "%s/tree.criu", dir);
	ck_assert_msg(export_to(trace, out, &all_instants, &err) == 0, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/timeline.json", out);
	snprintf(golden, sizeof(golden), "%s/tests/data/criu/tree.timeline.json", SREP_TOP_SRCDIR);
	got = tu_read_file(path, NULL);
	ck_assert_ptr_nonnull(got);
	if (getenv("SREP_UPDATE_GOLDEN") && !strcmp(getenv("SREP_UPDATE_GOLDEN"), "1"))
		ck_assert_int_eq(tu_write_file(golden, got, strlen(got)), 0);
	want = tu_read_file(golden, NULL);
	ck_assert_msg(want != NULL, "no golden file %s", golden);
	ck_assert_msg(!strcmp(got, want), "timeline.json differs from %s (diff %s %s)", golden,
		      golden, path);
	json = cJSON_Parse(got);
	ck_assert_ptr_nonnull(json);
	cJSON_Delete(json);
	free(got);
	free(want);
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the images do not depend on how the trace was written: byte order, word size, pipe, zstd */
START_TEST(any_byte_order)
{
	struct fixture_opts ref = { .arch = "x86_64" }, fo = {
		.big_endian = _i & 1, .word_size = _i & 2 ? 4 : 8, .pipe = _i & 4,
		.compressed = _i & 8, .arch = "x86_64",
	};
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), *dir2 = tu_tmpdir(), *trace, *trace2, out[2048], out2[2048];
	char cmd[8192], *diff = NULL;

	trace = write_tree(dir, &ref, true);
	trace2 = write_tree(dir2, &fo, true);
	snprintf(out, sizeof(out), "%s/tree.criu", dir);
	snprintf(out2, sizeof(out2), "%s/tree.criu", dir2);
	ck_assert_msg(export_to(trace, out, &all_instants, &err) == 0, "%s", err.msg);
	ck_assert_msg(export_to(trace2, out2, &all_instants, &err) == 0, "%s", err.msg);
	snprintf(cmd, sizeof(cmd), "diff -r '%s' '%s' 2>&1", out, out2);
	ck_assert_msg(tu_run(cmd, &diff) == 0, "combination %d: %s", _i, diff ? diff : "");
	free(diff);
	free(trace);
	free(trace2);
	tu_rmdir(dir);
	tu_rmdir(dir2);
	free(dir);
	free(dir2);
}
END_TEST

/* 'text' without its line of timeline.json naming the input, which names the file read */
static void drop_input_line(char *text)
{
	char *at = strstr(text, "\n  \"input\": "), *nl;

	ck_assert_ptr_nonnull(at);
	nl = strchr(at + 1, '\n');
	ck_assert_ptr_nonnull(nl);
	memmove(at, nl, strlen(nl) + 1);
}

/*
 * The trace, then its lossless JSON export, through the exporter with the
 * same options: the same images, byte for byte, and the same timeline.json
 * but for the input's name.
 */
static void same_from_json(const char *trace, const struct run *r, const char *what)
{
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), json[4096], out[4096], out2[4096], cmd[16384];
	char *text, *text2, *diff = NULL;
	size_t len;

	ck_assert_msg(tu_convert(trace, &srep_exporter_json, NULL, &text, &len, &err) == 0, "%s: %s",
		      what, err.msg);
	snprintf(json, sizeof(json), "%s/t.schedrep.json", dir);
	ck_assert_int_eq(tu_write_file(json, text, len), 0);
	free(text);
	snprintf(out, sizeof(out), "%s/data.criu", dir);
	snprintf(out2, sizeof(out2), "%s/json.criu", dir);
	ck_assert_msg(export_to(trace, out, r, &err) == 0, "%s: %s", what, err.msg);
	ck_assert_msg(export_to(json, out2, r, &err) == 0, "%s from JSON: %s", what, err.msg);
	snprintf(cmd, sizeof(cmd), "diff -r -x timeline.json '%s' '%s' 2>&1", out, out2);
	ck_assert_msg(tu_run(cmd, &diff) == 0, "%s: the images from JSON differ: %s", what,
		      diff ? diff : "");
	free(diff);
	snprintf(cmd, sizeof(cmd), "%s/timeline.json", out);
	text = tu_read_file(cmd, NULL);
	snprintf(cmd, sizeof(cmd), "%s/timeline.json", out2);
	text2 = tu_read_file(cmd, NULL);
	ck_assert(text && text2);
	drop_input_line(text);
	drop_input_line(text2);
	ck_assert_msg(!strcmp(text, text2), "%s: timeline.json from JSON differs", what);
	free(text);
	free(text2);
	tu_rmdir(dir);
	free(dir);
}

/* every option (instructions too) from the JSON export, on a big-endian pipe-mode fixture */
START_TEST(json_input)
{
	struct fixture_opts fo = { .big_endian = true, .pipe = true };
	struct run sel = { .opts = { { "every", "3ms" } }, .only = "10", .children = true };
	char *dir = tu_tmpdir(), *trace = write_tree(dir, &fo, true);

	same_from_json(trace, &all_instants, "every option");
	same_from_json(trace, NULL, "the default instant");
	same_from_json(trace, &sel, "--only 10 --children");
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(architectures)
{
	static const struct { const char *arch; int march; } v[] = {
		{ "x86_64", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "i686", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "aarch64", SREP_CRIU__CORE_ENTRY__MARCH__AARCH64 },
		{ "armv7l", SREP_CRIU__CORE_ENTRY__MARCH__ARM },
		{ "s390x", SREP_CRIU__CORE_ENTRY__MARCH__S390 },
		{ "ppc64le", SREP_CRIU__CORE_ENTRY__MARCH__PPC64 },
		{ "mips64", SREP_CRIU__CORE_ENTRY__MARCH__MIPS },
		{ "riscv64", SREP_CRIU__CORE_ENTRY__MARCH__RISCV64 },
		{ "loongarch64", SREP_CRIU__CORE_ENTRY__MARCH__LOONGARCH64 },
		{ "sparc64", SREP_CRIU__CORE_ENTRY__MARCH__UNKNOWN },
		{ NULL, SREP_CRIU__CORE_ENTRY__MARCH__UNKNOWN },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		ck_assert_int_eq(criu_march(v[i].arch), v[i].march);
	ck_assert_str_eq(criu_march_name(SREP_CRIU__CORE_ENTRY__MARCH__S390), "S390");
}
END_TEST

/* the expected error code and a phrase of its message; nothing is left behind */
static void expect_error(const char *trace, const char *out, const struct run *r, int code,
			 const char *phrase)
{
	struct srep_error err = { 0 };
	struct stat sb;

	ck_assert_int_eq(export_to(trace, out, r, &err), code);
	ck_assert_msg(strstr(err.msg, phrase) != NULL, "'%s' lacks '%s'", err.msg, phrase);
	ck_assert_int_ne(stat(out, &sb), 0);
}

START_TEST(bad_instants)
{
	struct fixture_opts fo = { 0 };
	char *dir = tu_tmpdir(), *trace, *plain, *sub, out[2048];
	struct run after = { .opts = { { "at", "0.0025" }, { "at", "0.5" } } };
	struct run before = { .opts = { { "at", "@5169.9" } } };
	struct run long_every = { .opts = { { "every", "1s" } } };
	struct run tiny_every = { .opts = { { "every", "1ns" } } };
	struct run many_insn = { .opts = { { "every-instructions", "7000000" } } };
	struct run window = { .opts = { { "at", "0.002" } }, .from = T0 + 3 * MS };

	trace = write_tree(dir, &fo, true);
	snprintf(out, sizeof(out), "%s/out.criu", dir);
	expect_error(trace, out, &after, SREP_E_TIME, "--at '0.5': instant 0.500000 s "
		     "(@5170.500000000) is outside the trace (0.000000 .. 0.012000 s)");
	expect_error(trace, out, &before, SREP_E_TIME, "is outside the trace");
	expect_error(trace, out, &long_every, SREP_E_TIME, "no instant inside the trace");
	expect_error(trace, out, &tiny_every, SREP_E_LIMIT, "more than 10000");
	expect_error(trace, out, &many_insn, SREP_E_TIME, "retired only 6000000");
	expect_error(trace, out, &window, SREP_E_TIME, "is outside the trace (0.003000 .. 0.012000 s)");
	ck_assert_int_ne(asprintf(&sub, "%s/plain", dir), -1);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	plain = write_tree(sub, &fo, false);
	many_insn.opts[0][1] = "1000";
	expect_error(plain, out, &many_insn, SREP_E_UNSUPPORTED,
		     "no instructions or cycles samples with periods");
	free(plain);
	free(sub);
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(bad_options)
{
	struct srep_error err = { 0 };
	struct srep_criu_opts *o;
	void *v;

	ck_assert_int_eq(srep_criu_opts__new(&v, &err), 0);
	o = v;
	ck_assert_int_eq(set_opt(o, "at", "soon", &err), SREP_E_TIME);
	ck_assert_int_eq(set_opt(o, "every", "-1", &err), SREP_E_TIME);
	ck_assert_int_eq(set_opt(o, "every-instructions", "0", &err), SREP_E_INVAL);
	ck_assert_int_eq(set_opt(o, "every-instructions", "12k", &err), SREP_E_INVAL);
	ck_assert_int_eq(set_opt(o, "every-instructions", "99999999999999999999999", &err),
			 SREP_E_INVAL);
	ck_assert_int_eq(srep_criu_opts__opt(o, 99, "1", &err), SREP_E_INVAL);
	ck_assert_int_eq(set_opt(o, "at", "@5170.5", &err), 0);
	ck_assert_int_eq(set_opt(o, "every", "10ms", &err), 0);
	ck_assert_int_eq(set_opt(o, "every-instructions", "1000", &err), 0);
	ck_assert_uint_eq(o->nr_at, 1);
	ck_assert_str_eq(o->at[0], "@5170.5");
	ck_assert_uint_eq(o->every_ns, 10000000);
	ck_assert_uint_eq(o->every_instructions, 1000);
	srep_criu_opts__free(o);
	srep_criu_opts__free(NULL);
}
END_TEST

/* no instant asked for: one at the end; a time window moves it to the window's end */
START_TEST(default_instant)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	struct run window = { .to = T0 + 9 * MS };
	char *dir = tu_tmpdir(), *trace, out[2048], out2[2048];

	trace = write_tree(dir, &fo, false);
	snprintf(out, sizeof(out), "%s/a.criu", dir);
	snprintf(out2, sizeof(out2), "%s/b.criu", dir);
	ck_assert_msg(export_to(trace, out, NULL, &err) == 0, "%s", err.msg);
	expect_pstree(out, "000-0.012000s", "1:0:1 10:1:10 30:1:30 40:1:40");
	ck_assert_msg(export_to(trace, out2, &window, &err) == 0, "%s", err.msg);
	expect_pstree(out2, "000-0.009000s", "1:0:1 10:1:10 20:10:20 30:1:30 40:1:40");
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* in a time window, only the window's samples count for --every-instructions */
START_TEST(window_instructions)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	struct run r = { .opts = { { "every-instructions", "2000000" } }, .from = T0 + 7 * MS };
	char *dir = tu_tmpdir(), *trace, out[2048];
	struct dirent **names;
	int n;

	trace = write_tree(dir, &fo, true);
	snprintf(out, sizeof(out), "%s/w.criu", dir);
	ck_assert_msg(export_to(trace, out, &r, &err) == 0, "%s", err.msg);
	n = scandir(out, &names, NULL, alphasort);
	ck_assert_int_eq(n, 5);		/* ., .., two instants, timeline.json */
	ck_assert_str_eq(names[2]->d_name, "000-0.008700s");
	ck_assert_str_eq(names[3]->d_name, "001-0.009500s");
	while (n--)
		free(names[n]);
	free(names);
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* --only: unselected parents are replaced by the nearest selected ancestor, else the root */
START_TEST(selection)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	struct run worker = { .opts = { { "at", "0.0025" }, { "at", "0.0085" } }, .only = "worker" };
	struct run shell = { .opts = { { "at", "0.0085" } }, .only = "10", .children = true };
	char *dir = tu_tmpdir(), *trace, out[2048], out2[2048];

	trace = write_tree(dir, &fo, false);
	snprintf(out, sizeof(out), "%s/a.criu", dir);
	snprintf(out2, sizeof(out2), "%s/b.criu", dir);
	ck_assert_msg(export_to(trace, out, &worker, &err) == 0, "%s", err.msg);
	/* matched by any comm it ever had: still "shell" at 2.5 ms */
	expect_pstree(out, "000-0.002500s", "1:0:1 20:1:20");
	expect_core(out, "000-0.002500s", 20, "shell 1 other nice 0");
	expect_pstree(out, "001-0.008500s", "1:0:1 20:1:20:21");
	ck_assert_msg(export_to(trace, out2, &shell, &err) == 0, "%s", err.msg);
	expect_pstree(out2, "000-0.008500s", "1:0:1 10:1:10 20:10:20:21");
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/*
 * What a damaged or partial trace can claim: parents in a loop, a process
 * known only by a thread, a thread whose tid is another process's pid, a
 * task never named by a COMM or FORK. The images still form one tree.
 */
START_TEST(odd_trees)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	struct fixture *fx = fixture_new(&fo);
	char *dir = tu_tmpdir(), path[2048], out[2048];

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, T0, 0, 90, 91, "orphanthr", false);
	fixture_comm(fx, T0, 0, 95, 95, "p95", false);
	fixture_comm(fx, T0, 0, 95, 90, "thr90", false);
	fixture_fork(fx, T0 + 1 * MS, 0, 50, 60, 50, 60);
	fixture_fork(fx, T0 + 2 * MS, 0, 60, 50, 60, 50);
	fixture_switch(fx, T0 + 3 * MS, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "ghost", 99, 120);
	fixture_switch(fx, T0 + 4 * MS, 0, "ghost", 99, 120, FIXTURE_STATE_D, "swapper/0", 0, 120);
	snprintf(path, sizeof(path), "%s/odd.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	fixture_free(fx);
	snprintf(out, sizeof(out), "%s/odd.criu", dir);
	ck_assert_msg(export_to(path, out, NULL, &err) == 0, "%s", err.msg);
	expect_pstree(out, "000-0.004000s", "1:0:1 60:1:60 50:60:50 90:1:90:91 95:1:95 99:1:99");
	expect_core(out, "000-0.004000s", 90, "orphanthr 1");
	expect_core(out, "000-0.004000s", 99, "ghost 1 other nice 0");
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* ---- CRIU's own tools ---- */

static bool crit_ok;		/* set once, before the tests fork */
static char crit_python[256];	/* the interpreter crit runs under, for pycriu */

/* crit (Debian's criu package, which the quick start installs) reads the images back */
static void find_crit(void)
{
	char *line = NULL, *nl;

	crit_ok = tu_have_program("crit") &&
		  tu_run("head -n 1 \"$(command -v crit)\" | sed 's/^#! *//'", &line) == 0 &&
		  line && line[0] == '/';
	if (crit_ok) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		snprintf(crit_python, sizeof(crit_python), "%s", line);
	}
	free(line);
}

static void no_teardown(void)
{
}

/* run a command; its stdout in *out (free it); fail the test unless it exits 0 */
static void must_run(const char *cmd, char **out)
{
	int st = tu_run(cmd, out);

	ck_assert_msg(st == 0, "'%s' exited %d: %s", cmd, st, out && *out ? *out : "");
}

static cJSON *crit_decode(const char *path)
{
	char cmd[4096], *out = NULL;
	cJSON *j;

	snprintf(cmd, sizeof(cmd), "crit decode -i '%s'", path);
	must_run(cmd, &out);
	j = cJSON_Parse(out);
	ck_assert_msg(j != NULL, "crit decode -i %s printed no JSON: %s", path, out);
	free(out);
	return j;
}

static int json_int(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	ck_assert_msg(cJSON_IsNumber(v), "no number '%s'", name);
	return v->valueint;
}

static const char *json_string(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	ck_assert_msg(cJSON_IsString(v), "no string '%s'", name);
	return v->valuestring;
}

/* crit decode of core-<tid>.img: "MTYPE comm state" */
static void expect_crit_core(const char *dir, int tid, const char *want)
{
	char path[4096], got[256];
	const cJSON *e, *tc;
	cJSON *j;

	snprintf(path, sizeof(path), "%s/core-%d.img", dir, tid);
	j = crit_decode(path);
	ck_assert_str_eq(json_string(j, "magic"), "CORE");
	e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "entries"), 0);
	tc = cJSON_GetObjectItemCaseSensitive(e, "tc");
	ck_assert_ptr_nonnull(tc);
	snprintf(got, sizeof(got), "%s %s %d", json_string(e, "mtype"), json_string(tc, "comm"),
		 json_int(tc, "task_state"));
	ck_assert_msg(!strcmp(got, want), "crit: core-%d '%s', expected '%s'", tid, got, want);
	cJSON_Delete(j);
}

/* crit decode of pstree.img: "pid:ppid:threads..." as pstree_text() */
static void expect_crit_pstree(const char *dir, const char *want)
{
	char path[4096], got[1024];
	const cJSON *e, *t;
	size_t o = 0;
	cJSON *j;

	snprintf(path, sizeof(path), "%s/pstree.img", dir);
	j = crit_decode(path);
	ck_assert_str_eq(json_string(j, "magic"), "PSTREE");
	got[0] = '\0';
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "entries")) {
		ck_assert_int_eq(json_int(e, "pgid"), json_int(e, "pid"));
		ck_assert_int_eq(json_int(e, "sid"), json_int(e, "pid"));
		o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%d:%d", o ? " " : "",
				      json_int(e, "pid"), json_int(e, "ppid"));
		cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(e, "threads"))
			o += (size_t)snprintf(got + o, sizeof(got) - o, ":%d", t->valueint);
	}
	ck_assert_msg(!strcmp(got, want), "crit: pstree '%s', expected '%s'", got, want);
	cJSON_Delete(j);
}

static void expect_crit_ps(const char *dir, const char *want)
{
	char cmd[4096], *out = NULL;

	snprintf(cmd, sizeof(cmd), "crit x '%s' ps", dir);
	must_run(cmd, &out);
	ck_assert_msg(!strcmp(out, want), "crit x ps printed:\n%sexpected:\n%s", out, want);
	free(out);
}

/* crit decode, then crit encode: the same bytes, for every image of 'dir' */
static void crit_round_trip(const char *dir)
{
	char cmd[8192], *out = NULL;

	snprintf(cmd, sizeof(cmd), "cd '%s' && for f in *.img; do "
		 "crit decode -i \"$f\" -o \"$f.json\" && crit encode -i \"$f.json\" -o \"$f.re\" && "
		 "cmp \"$f\" \"$f.re\" && rm \"$f.json\" \"$f.re\" || exit 1; done 2>&1", dir);
	must_run(cmd, &out);
	free(out);
}

START_TEST(crit_reads_fixture)
{
	struct fixture_opts fo = { 0 };
	struct srep_error err = { 0 };
	char *dir = tu_tmpdir(), *trace, out[2048], at[3072];

	if (!crit_ok)
		TU_SKIP("crit is not installed (Debian: criu): CRIU checks skipped");
	trace = write_tree(dir, &fo, true);
	snprintf(out, sizeof(out), "%s/tree.criu", dir);
	ck_assert_msg(export_to(trace, out, &all_instants, &err) == 0, "%s", err.msg);
	snprintf(at, sizeof(at), "%s/004-0.008500s", out);
	expect_crit_pstree(at, "1:0:1 10:1:10 20:10:20:21 30:1:30 40:1:40");
	expect_crit_core(at, 21, "X86_64 worker 1");
	expect_crit_core(at, 30, "X86_64 stopper 3");
	expect_crit_ps(at, "    PID   PGID    SID   COMM\n"
			   "      1      1      1   init\n"
			   "     10     10     10       shell\n"
			   "     20     20     20           worker\n"
			   "     30     30     30       stopper\n"
			   "     40     40     40       rtwatch\n");
	crit_round_trip(at);
	snprintf(at, sizeof(at), "%s/007-0.010500s", out);
	expect_crit_core(at, 20, "X86_64 worker 6");
	expect_crit_ps(at, "    PID   PGID    SID   COMM\n"
			   "      1      1      1   init\n"
			   "     10     10     10       shell\n"
			   "     20     20     20           worker\n"
			   "     30     30     30       stopper\n"
			   "     40     40     40       rtwatch\n");
	free(trace);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* ---- the corpus ---- */

#define MAX_PROCS 4096

/* one image set as the tests see it */
struct set_info {
	size_t nr;
	size_t dead;			/* cores with task_state 2 */
	int pid[MAX_PROCS], ppid[MAX_PROCS];
	char comm[MAX_PROCS][32];
};

static size_t count_cores(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "core-", 5);
	closedir(d);
	return n;
}

static void check_core(const char *dir, uint32_t tid, int march, char *comm, size_t size,
		       size_t *dead)
{
	const SrepCriu__CoreEntry *c;
	char path[4096];
	struct entries e;

	snprintf(path, sizeof(path), "%s/core-%u.img", dir, tid);
	read_image(path, 0x55053847u, &srep_criu__core_entry__descriptor, &e);
	ck_assert_uint_eq(e.n, 1);
	c = (const SrepCriu__CoreEntry *)e.m[0];
	ck_assert_int_eq(c->mtype, march);
	ck_assert_ptr_nonnull(c->tc);
	ck_assert_msg(c->tc->task_state == 1 || c->tc->task_state == 2 || c->tc->task_state == 3 ||
		      c->tc->task_state == 6, "%s: task_state %u", path, c->tc->task_state);
	if (comm)
		snprintf(comm, size, "%s", c->tc->comm);
	*dead += c->tc->task_state == 2;
	free_entries(&e);
}

/*
 * What crit x ps relies on (FORMATS.md B.3): one root, pid 1 with ppid 0,
 * first; every other parent listed before its children; a core file for
 * every thread and none more; the trace's architecture in every core.
 */
static void check_set(const char *dir, int march, struct set_info *info)
{
	size_t i, j, k, threads = 0;
	char path[4096];
	struct entries e;

	snprintf(path, sizeof(path), "%s/pstree.img", dir);
	read_image(path, 0x50273030u, &srep_criu__pstree_entry__descriptor, &e);
	ck_assert_uint_ge(e.n, 1);
	ck_assert_uint_le(e.n, MAX_PROCS);
	info->nr = e.n;
	info->dead = 0;
	for (i = 0; i < e.n; i++) {
		const SrepCriu__PstreeEntry *p = (const SrepCriu__PstreeEntry *)e.m[i];

		info->pid[i] = (int)p->pid;
		info->ppid[i] = (int)p->ppid;
		ck_assert_msg(i ? p->ppid != 0 : p->pid == 1 && p->ppid == 0, "%s: entry %zu", dir, i);
		for (k = 0; i && k < i && info->pid[k] != (int)p->ppid; k++)
			;
		ck_assert_msg(!i || k < i, "%s: parent %u of %u not listed before it", dir, p->ppid,
			      p->pid);
		ck_assert_uint_ge(p->n_threads, 1);
		ck_assert_uint_eq(p->threads[0], p->pid);
		for (j = 0; j < p->n_threads; j++)
			check_core(dir, p->threads[j], march, j ? NULL : info->comm[i],
				   sizeof(info->comm[i]), &info->dead);
		threads += p->n_threads;
	}
	ck_assert_uint_eq(count_cores(dir), threads);	/* so tids are unique too */
	free_entries(&e);
}

/* the process named 'comm' with the most children: how many */
static size_t most_children(const struct set_info *s, const char *comm)
{
	size_t i, j, best = 0, n;

	for (i = 0; i < s->nr; i++) {
		if (strcmp(s->comm[i], comm))
			continue;
		for (j = 0, n = 0; j < s->nr; j++)
			n += s->ppid[j] == s->pid[i];
		if (n > best)
			best = n;
	}
	return best;
}

/* crit-check.py over 'dirs' (space separated, quoted): its process count per set */
static void crit_check(const char *dirs, const size_t *want, size_t nr)
{
	char cmd[65536], *out = NULL, *line;
	size_t i = 0;

	snprintf(cmd, sizeof(cmd), "'%s' '%s/tests/lib/crit-check.py' %s 2>&1", crit_python,
		 SREP_TOP_SRCDIR, dirs);
	must_run(cmd, &out);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), i++) {
		const char *sp = strrchr(line, ' ');

		ck_assert_msg(sp && i < nr, "crit-check: '%s'", line);
		ck_assert_msg(strtoul(sp + 1, NULL, 10) == want[i], "crit x ps lists %s processes in "
			      "%.*s, pstree.img has %zu", sp + 1, (int)(sp - line), line, want[i]);
	}
	ck_assert_uint_eq(i, nr);
	free(out);
}

struct corpus_trace {
	const char *rel;
	int march;
	bool messaging;		/* perf bench sched messaging -g 2 -l 20: 80 workers */
};

static const struct corpus_trace corpus_traces[] = {
	{ "emulated/x86_64-messaging.data", SREP_CRIU__CORE_ENTRY__MARCH__X86_64, true },
	{ "emulated/x86_64-switch.data", SREP_CRIU__CORE_ENTRY__MARCH__X86_64, true },
	{ "emulated/arm64-messaging.data", SREP_CRIU__CORE_ENTRY__MARCH__AARCH64, true },
	{ "emulated/armhf-messaging.data", SREP_CRIU__CORE_ENTRY__MARCH__ARM, true },
	{ "emulated/armhf-switch-cpuwide.data", SREP_CRIU__CORE_ENTRY__MARCH__ARM, true },
	{ "emulated/s390x-messaging.data", SREP_CRIU__CORE_ENTRY__MARCH__S390, true },
	{ "emulated/s390x-pipe.data", SREP_CRIU__CORE_ENTRY__MARCH__S390, true },
	{ "public/quipper__perf.data.forkexit-3.8", SREP_CRIU__CORE_ENTRY__MARCH__X86_64, false },
};

/*
 * Three instants: a quarter and half into the trace, and its last
 * timestamp. At half time the messaging benchmark has all its 80
 * workers; quipper's system-wide forkexit trace has its real init at the
 * root and processes that exited without a trace of their reaping (dead).
 */
START_TEST(corpus_workloads)
{
	const struct corpus_trace *ct = &corpus_traces[_i];
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	char *path = tu_corpus_path(ct->rel), *dir, out[2048], at[3][64], dirs[8192] = "";
	struct run r = { .opts = { { "at", at[0] }, { "at", at[1] }, { "at", at[2] } } };
	static struct set_info info[3];
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	struct dirent **names;
	uint64_t first, last;
	size_t want[3];
	int i, n;

	if (!path || access(path, R_OK))
		TU_SKIP("corpus trace %s not found", ct->rel);
	ck_assert_msg(srep_session__open(&s, path, &oo, &err) == 0, "%s", err.msg);
	ck_assert(srep_session__time_span(s, &first, &last));
	srep_session__delete(s);
	for (i = 0; i < 2; i++)
		snprintf(at[i], sizeof(at[i]), "%.6f", (double)(last - first) * (i + 1) / 4 / 1e9);
	snprintf(at[2], sizeof(at[2]), "@%llu.%09llu", (unsigned long long)(last / 1000000000),
		 (unsigned long long)(last % 1000000000));
	dir = tu_tmpdir();
	snprintf(out, sizeof(out), "%s/c.criu", dir);
	ck_assert_msg(export_to(path, out, &r, &err) == 0, "%s: %s", ct->rel, err.msg);
	n = scandir(out, &names, NULL, alphasort);
	ck_assert_int_eq(n, 2 + 3 + 1);		/* ., .., 3 instants, timeline.json */
	for (i = 0; i < 3; i++) {
		char set[3072];

		snprintf(set, sizeof(set), "%s/%s", out, names[2 + i]->d_name);
		check_set(set, ct->march, &info[i]);
		want[i] = info[i].nr;
		snprintf(dirs + strlen(dirs), sizeof(dirs) - strlen(dirs), " '%s'", set);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ct->messaging)
		ck_assert_uint_eq(most_children(&info[1], "sched-messaging"), 80);
	else
		ck_assert(info[1].nr >= 100 && info[1].dead >= 1);
	if (crit_ok)
		crit_check(dirs, want, 3);
	else
		tu_skipped("crit is not installed: %s checked without it", ct->rel);
	tu_rmdir(dir);
	free(dir);
	free(path);
}
END_TEST

/* the corpus traces of corpus_workloads, from their JSON export: the same image sets */
START_TEST(corpus_json_input)
{
	const struct corpus_trace *ct = &corpus_traces[_i];
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	char *path = tu_corpus_path(ct->rel), at[64], every[64];
	struct run r = { .opts = { { "at", at }, { "every", every } } };
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	uint64_t first, last;

	if (!path || access(path, R_OK))
		TU_SKIP("corpus trace %s not found", ct->rel);
	ck_assert_msg(srep_session__open(&s, path, &oo, &err) == 0, "%s", err.msg);
	ck_assert(srep_session__time_span(s, &first, &last));
	srep_session__delete(s);
	/* a quarter into the trace, and every third of it */
	snprintf(at, sizeof(at), "%.6f", (double)(last - first) / 4 / 1e9);
	snprintf(every, sizeof(every), "%lluns", (unsigned long long)(last - first) / 3);
	same_from_json(path, &r, ct->rel);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt_criu");
	TCase *tc = tcase_create("fixtures");

	tcase_add_test(tc, instants_and_tree);
	tcase_add_test(tc, timeline_golden);
	tcase_add_loop_test(tc, any_byte_order, 1, 16);
	tcase_add_test(tc, architectures);
	tcase_add_test(tc, bad_instants);
	tcase_add_test(tc, bad_options);
	tcase_add_test(tc, default_instant);
	tcase_add_test(tc, window_instructions);
	tcase_add_test(tc, selection);
	tcase_add_test(tc, odd_trees);
	tcase_add_test(tc, json_input);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, corpus_json_input, 0,
			    (int)(sizeof(corpus_traces) / sizeof(corpus_traces[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("crit");
	tcase_add_unchecked_fixture(tc, find_crit, no_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, crit_reads_fixture);
	tcase_add_loop_test(tc, corpus_workloads, 0,
			    (int)(sizeof(corpus_traces) / sizeof(corpus_traces[0])));
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
