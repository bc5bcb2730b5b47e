// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_symbolizer.c - the symbolizer on fixture traces whose "target"
 * binary is this test's own executable, placed in a temporary symfs:
 * kernel and user frames, mappings that follow fork and exec, the cache,
 * where a task blocked, module information, every kernel symbol source
 * (--kallsyms, the tracing data's kallsyms, --vmlinux), source lines, and
 * files that do not match the trace (another build id, another boot's
 * kallsyms) refused with exactly one warning.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"
#include "sym_local.h"

#define T0	5170000000000ull
#define KBASE	0xffffffff81000000ull
#define UBASE	0x555500000000ull
#define KCTX	((uint64_t)-128)
#define UCTX	((uint64_t)-512)

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T __schedule\n"
	"ffffffff81002000 T schedule\n"
	"ffffffff81003000 T do_nanosleep\n"
	"ffffffff81004000 T hrtimer_nanosleep\n";

struct world {
	char *dir;
	char symfs[4200], kallsyms[4200], trace[4200], exe[4200];
	uint64_t main_v;		/* main's ELF address in this executable */
	uint64_t exe_len;
	int warnings;
	char last_warning[SREP_ERR_MSG_MAX];
};

static void diag(void *arg, const struct srep_error *w)
{
	struct world *wd = arg;

	if (w->code == SREP_E_SYMBOLS) {
		wd->warnings++;
		snprintf(wd->last_warning, sizeof(wd->last_warning), "%s", w->msg);
	}
}

static void world_init(struct world *w)
{
	char why[256], bin[8400];
	struct dso *d;
	struct stat st;
	ssize_t n;

	memset(w, 0, sizeof(*w));
	w->dir = tu_tmpdir();
	n = readlink("/proc/self/exe", w->exe, sizeof(w->exe) - 1);
	ck_assert_int_gt(n, 0);
	d = dso_open(w->exe, NULL, NULL, why, sizeof(why));
	ck_assert_ptr_nonnull(d);
	ck_assert(dso_symbol_value(d, "main", &w->main_v));
	dso_free(d);
	ck_assert_int_eq(stat(w->exe, &st), 0);
	w->exe_len = ((uint64_t)st.st_size + 4095) & ~4095ull;
	snprintf(w->symfs, sizeof(w->symfs), "%s/root", w->dir);
	snprintf(bin, sizeof(bin), "%s/bin", w->symfs);
	ck_assert_int_eq(mkdir(w->symfs, 0755) || mkdir(bin, 0755), 0);
	snprintf(bin, sizeof(bin), "%s/bin/app", w->symfs);
	ck_assert_int_eq(symlink(w->exe, bin), 0);
	snprintf(w->kallsyms, sizeof(w->kallsyms), "%s/kallsyms", w->dir);
	ck_assert_int_eq(tu_write_file(w->kallsyms, kallsyms_text, strlen(kallsyms_text)), 0);
	snprintf(w->trace, sizeof(w->trace), "%s/t.data", w->dir);
}

static void world_free(struct world *w)
{
	tu_rmdir(w->dir);
	free(w->dir);
}

/* a switch-out of 'tid' with a blocking callchain ending in this executable's main */
static void blocked_switch(struct fixture *fx, const struct world *w, uint64_t t, int32_t tid)
{
	uint64_t chain[] = { KCTX, KBASE + 0x1010, KBASE + 0x2010, KBASE + 0x3020, UCTX,
			     UBASE + w->main_v + 4, 0xdead0000 };

	ck_assert_int_eq(fixture_next_callchain(fx, 7, chain), 0);
	fixture_switch(fx, t, 0, "app", tid, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
}

/* the scenario: exec, mapping, two samples, fork, a sample of the child, exec, one more */
static struct fixture *scenario(struct world *w, const char *kernel_map, const char *kallsyms)
{
	struct fixture_opts o = { .tp_callchain = true, .kallsyms = kallsyms };
	struct fixture *fx = fixture_new(&o);

	ck_assert_ptr_nonnull(fx);
	fixture_mmap2(fx, T0, 0, -1, 0, KBASE, 0x1000000, KBASE, kernel_map);
	fixture_comm(fx, T0 + 1, 0, 100, 100, "app", true);
	fixture_mmap2(fx, T0 + 2, 0, 100, 100, UBASE, w->exe_len, 0, "/bin/app");
	blocked_switch(fx, w, T0 + 10, 100);
	blocked_switch(fx, w, T0 + 20, 100);
	fixture_fork(fx, T0 + 30, 0, 101, 100, 101, 100);
	blocked_switch(fx, w, T0 + 40, 101);
	fixture_comm(fx, T0 + 50, 0, 101, 101, "app2", true);
	blocked_switch(fx, w, T0 + 60, 101);
	return fx;
}

struct run {
	struct srep_session *s;
	struct srep_symbolizer *sy;
	struct srep_frame f[4][8];	/* frames of the four samples */
	size_t nr[4];
	int blocked;
	struct srep_frame kernel, user;	/* where the first sample blocked */
};

static int run_trace(struct world *w, struct fixture *fx, const struct srep_symbol_opts *so,
		     struct run *r)
{
	struct srep_open_opts oo = { .diag = diag, .diag_arg = w };
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	struct fixture_info info;
	int i = 0, ret;

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(fixture_write(fx, w->trace, &info), 0);
	fixture_free(fx);
	ck_assert_int_eq(srep_session__open(&r->s, w->trace, &oo, &err), 0);
	ret = srep_symbolizer__new(&r->sy, r->s, so, &err);
	if (ret)
		return ret;
	while (srep_session__next_event(r->s, &ev, &err) > 0) {
		ck_assert_int_eq(srep_symbolizer__observe(r->sy, ev), 0);
		if (!ev->nr_callchain)
			continue;
		ck_assert_int_lt(i, 4);
		r->nr[i] = srep_symbolizer__callchain(r->sy, ev, r->f[i], 8);
		if (!i)
			r->blocked = srep_symbolizer__blocked_in(r->sy, ev, &r->kernel, &r->user);
		i++;
	}
	ck_assert_int_eq(i, 4);
	return 0;
}

static void run_free(struct run *r)
{
	srep_symbolizer__delete(r->sy);
	srep_session__delete(r->s);
}

static const struct srep_module_info *module(const struct run *r, const char *name)
{
	static struct srep_module_info mi;
	size_t i;

	for (i = 0; i < srep_symbolizer__nr_modules(r->sy); i++) {
		ck_assert_int_eq(srep_symbolizer__module(r->sy, i, &mi), 0);
		if (!strcmp(mi.name, name))
			return &mi;
	}
	ck_abort_msg("no module %s", name);
	return NULL;
}

START_TEST(kernel_and_user_frames)
{
	struct srep_symbol_opts so = { .buildid_dir = "" };
	const struct srep_symbol_stats *st;
	struct world w;
	struct run r;

	world_init(&w);
	so.kallsyms = w.kallsyms;
	so.symfs = w.symfs;
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), &so, &r), 0);
	ck_assert_uint_eq(r.nr[0], 5);				/* markers left out */
	ck_assert_int_eq(r.f[0][0].mode, SREP_FRAME_KERNEL);
	ck_assert_str_eq(r.f[0][0].symbol, "__schedule");
	ck_assert_uint_eq(r.f[0][0].symbol_offset, 0x10);
	ck_assert_str_eq(r.f[0][0].module, "[kernel.kallsyms]");
	ck_assert_uint_eq(r.f[0][0].module_addr, KBASE + 0x1010);
	ck_assert_str_eq(r.f[0][2].symbol, "do_nanosleep");
	ck_assert_int_eq(r.f[0][3].mode, SREP_FRAME_USER);
	ck_assert_str_eq(r.f[0][3].symbol, "main");
	ck_assert_uint_eq(r.f[0][3].symbol_offset, 4);
	ck_assert_str_eq(r.f[0][3].module, "/bin/app");
	ck_assert_uint_eq(r.f[0][3].module_addr, w.main_v + 4);	/* the file offset */
	ck_assert_ptr_null(r.f[0][3].file);			/* lines were not asked for */
	ck_assert_ptr_null(r.f[0][4].module);			/* no mapping there */
	ck_assert_ptr_null(r.f[0][4].symbol);
	/* the forked child has its parent's mappings; after its exec, none */
	ck_assert_str_eq(r.f[2][3].symbol, "main");
	ck_assert_ptr_null(r.f[3][3].module);
	/* where it blocked: past the scheduler's own functions */
	ck_assert_int_eq(r.blocked, SREP_BLOCKED_KERNEL | SREP_BLOCKED_USER);
	ck_assert_str_eq(r.kernel.symbol, "do_nanosleep");
	ck_assert_str_eq(r.user.symbol, "main");
	st = srep_symbolizer__stats(r.sy);
	ck_assert_uint_eq(st->callchains, 4);
	ck_assert_uint_eq(st->frames, 20);
	ck_assert_uint_eq(st->kernel_frames, 12);
	ck_assert_uint_eq(st->kernel_resolved, 12);
	ck_assert_uint_eq(st->user_frames, 8);
	ck_assert_uint_eq(st->user_resolved, 3);
	ck_assert_uint_eq(st->unmapped, 5);
	ck_assert_uint_eq(st->resolved, 15);
	ck_assert_uint_eq(st->dwarf_stacks, 0);
	ck_assert_uint_gt(st->cache_hits, 10);			/* the same frames again */
	ck_assert_uint_eq(module(&r, "[kernel.kallsyms]")->state, SREP_MODULE_FOUND);
	ck_assert_str_eq(module(&r, "[kernel.kallsyms]")->path, w.kallsyms);
	ck_assert_uint_eq(module(&r, "/bin/app")->state, SREP_MODULE_FOUND);
	ck_assert_ptr_nonnull(strstr(module(&r, "/bin/app")->path, "/root/bin/app"));
	ck_assert_uint_eq(module(&r, "/bin/app")->frames, 3);
	ck_assert_int_eq(w.warnings, 0);
	run_free(&r);
	world_free(&w);
}
END_TEST

/* a HEADER_BUILD_ID record (67) for 'name' with the id 'byte' repeated */
static void build_id_record(struct fixture *fx, const char *name, uint8_t byte)
{
	uint8_t body[4 + 24 + 64] = { 0 };
	size_t len = 4 + 24 + ((strlen(name) + 1 + 7) & ~(size_t)7);

	ck_assert_uint_le(len, sizeof(body));
	memset(body + 4, byte, 20);
	memcpy(body + 28, name, strlen(name));
	ck_assert_int_eq(fixture_raw_record(fx, 67, 0, body, len), 0);
}

START_TEST(other_build_refused)
{
	struct srep_symbol_opts so = { .buildid_dir = "" };
	struct fixture *fx;
	struct world w;
	struct run r;

	world_init(&w);
	so.kallsyms = w.kallsyms;
	so.symfs = w.symfs;
	fx = scenario(&w, "[kernel.kallsyms]_text", NULL);
	build_id_record(fx, "/bin/app", 0x11);
	ck_assert_int_eq(run_trace(&w, fx, &so, &r), 0);
	ck_assert_ptr_null(r.f[0][3].symbol);
	ck_assert_str_eq(r.f[0][3].module, "/bin/app");
	ck_assert_ptr_null(r.f[1][3].symbol);
	ck_assert_int_eq(w.warnings, 1);				/* once, not per frame */
	ck_assert_ptr_nonnull(strstr(w.last_warning, "differs from the trace's 1111"));
	ck_assert_uint_eq(module(&r, "/bin/app")->state, SREP_MODULE_MISMATCH);
	ck_assert_str_eq(module(&r, "/bin/app")->build_id,
			 "1111111111111111111111111111111111111111");
	ck_assert_str_eq(r.f[0][0].symbol, "__schedule");		/* the kernel is fine */
	run_free(&r);
	world_free(&w);
}
END_TEST

START_TEST(kallsyms_of_another_boot)
{
	static const char moved[] = "ffffffff82000000 T _text\nffffffff82001000 T __schedule\n";
	struct srep_symbol_opts so = { .buildid_dir = "" };
	struct world w;
	struct run r;

	world_init(&w);
	ck_assert_int_eq(tu_write_file(w.kallsyms, moved, strlen(moved)), 0);
	so.kallsyms = w.kallsyms;
	so.symfs = w.symfs;
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), &so, &r), 0);
	ck_assert_ptr_null(r.f[0][0].symbol);
	ck_assert_str_eq(r.f[0][0].module, "[kernel.kallsyms]");
	ck_assert_str_eq(r.f[0][3].symbol, "main");
	ck_assert_int_eq(w.warnings, 1);
	ck_assert_ptr_nonnull(strstr(w.last_warning, "another boot"));
	ck_assert_uint_eq(module(&r, "[kernel.kallsyms]")->state, SREP_MODULE_MISMATCH);
	run_free(&r);
	world_free(&w);
}
END_TEST

START_TEST(kallsyms_in_tracing_data)
{
	struct srep_symbol_opts so = { .buildid_dir = "" };
	struct world w;
	struct run r;

	world_init(&w);
	so.symfs = w.symfs;
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", kallsyms_text),
				   &so, &r), 0);
	ck_assert_str_eq(r.f[0][1].symbol, "schedule");
	ck_assert_str_eq(module(&r, "[kernel.kallsyms]")->path, "the trace's tracing data");
	run_free(&r);
	/* without any kernel symbols: addresses, and the kernel marked missing */
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), &so, &r), 0);
	ck_assert_ptr_null(r.f[0][1].symbol);
	ck_assert_uint_eq(module(&r, "[kernel.kallsyms]")->state, SREP_MODULE_MISSING);
	ck_assert_ptr_null(module(&r, "[kernel.kallsyms]")->path);
	ck_assert_int_eq(r.blocked & SREP_BLOCKED_KERNEL, SREP_BLOCKED_KERNEL);
	ck_assert_uint_eq(r.kernel.addr, KBASE + 0x1010);	/* nothing known to skip */
	run_free(&r);
	world_free(&w);
}
END_TEST

/*
 * This executable stands in for a vmlinux: the kernel map names the symbol
 * it was relocated against ("[kernel.kallsyms]main") and its run-time
 * address, so a kernel frame at that address + 4 is main + 4, with its line.
 */
START_TEST(vmlinux_relocated_with_lines)
{
	struct srep_symbol_opts so = { .buildid_dir = "", .lines = true };
	struct srep_frame f;
	struct world w;
	struct run r;

	world_init(&w);
	so.vmlinux = w.exe;
	so.symfs = w.symfs;
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]main", NULL), &so, &r), 0);
	ck_assert_int_eq(srep_symbolizer__resolve(r.sy, -1, SREP_FRAME_KERNEL, KBASE + 4, &f), 1);
	ck_assert_str_eq(f.symbol, "main");
	ck_assert_uint_eq(f.symbol_offset, 4);
	ck_assert_str_eq(f.module, "[kernel.kallsyms]");
	ck_assert_ptr_nonnull(strstr(f.file, "check_symbolizer.c"));
	ck_assert_str_eq(module(&r, "[kernel.kallsyms]")->path, w.exe);
	ck_assert_str_eq(r.f[0][3].symbol, "main");
	ck_assert_ptr_nonnull(strstr(r.f[0][3].file, "check_symbolizer.c"));
	ck_assert_uint_gt(r.f[0][3].line, 0);
	run_free(&r);
	world_free(&w);
}
END_TEST

START_TEST(bad_options)
{
	struct srep_symbol_opts so = { .buildid_dir = "", .kallsyms = "/nonexistent/kallsyms" };
	struct world w;
	struct run r;

	world_init(&w);
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), &so, &r),
			 SREP_E_IO);
	srep_session__delete(r.s);
	so.kallsyms = NULL;
	so.vmlinux = w.kallsyms;				/* text, not ELF */
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), &so, &r),
			 SREP_E_IO);
	srep_session__delete(r.s);
	/* no options at all: this machine's root, $HOME/.debug; nothing fails */
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), NULL, &r), 0);
	run_free(&r);
	world_free(&w);
}
END_TEST

/* callchains without a marker, with guest markers, or only markers */
START_TEST(odd_callchains)
{
	struct srep_event ev = { .kind = SREP_EV_SAMPLE, .pid = 100, .tid = 100, .evsel = -1 };
	uint64_t bare[] = { 0x1234 }, guest[] = { (uint64_t)-2176, 0xffffffff81001010ull },
		 marks[] = { KCTX, UCTX };
	struct srep_symbolizer *sy;
	struct srep_frame f[4];
	struct world w;
	struct run r;

	world_init(&w);
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), NULL, &r), 0);
	sy = r.sy;
	ev.callchain = bare;
	ev.nr_callchain = 1;
	ck_assert_uint_eq(srep_symbolizer__callchain(sy, &ev, f, 4), 1);
	ck_assert_int_eq(f[0].mode, SREP_FRAME_USER);		/* perf's default */
	ck_assert_uint_eq(srep_symbolizer__callchain(sy, &ev, f, 0), 0);
	ev.callchain = guest;
	ev.nr_callchain = 2;
	ck_assert_uint_eq(srep_symbolizer__callchain(sy, &ev, f, 4), 1);
	ck_assert_int_eq(f[0].mode, SREP_FRAME_GUEST_KERNEL);
	ck_assert_ptr_null(f[0].symbol);
	ev.callchain = marks;
	ck_assert_uint_eq(srep_symbolizer__callchain(sy, &ev, f, 4), 0);
	ck_assert_int_eq(srep_symbolizer__blocked_in(sy, &ev, &f[0], &f[1]), 0);
	ck_assert_int_eq(srep_symbolizer__resolve(sy, 100, SREP_FRAME_HV, 1, &f[0]), 0);
	ck_assert_int_eq(srep_symbolizer__module(sy, 1000, &(struct srep_module_info){ 0 }),
			 SREP_E_INVAL);
	run_free(&r);
	world_free(&w);
}
END_TEST

/* the user side of where a task blocked is the first user frame with a name */
START_TEST(blocked_in_named_user_frame)
{
	struct srep_symbol_opts so = { .buildid_dir = "" };
	struct srep_event ev = { .kind = SREP_EV_SWITCH, .pid = 100, .tid = 100, .evsel = -1 };
	struct srep_frame k, u;
	struct world w;
	struct run r;
	uint64_t chain[6];

	world_init(&w);
	so.kallsyms = w.kallsyms;
	so.symfs = w.symfs;
	ck_assert_int_eq(run_trace(&w, scenario(&w, "[kernel.kallsyms]_text", NULL), &so, &r), 0);
	chain[0] = KCTX;
	chain[1] = KBASE + 0x1010;			/* __schedule: skipped */
	chain[2] = KBASE + 0x4010;			/* hrtimer_nanosleep */
	chain[3] = UCTX;
	chain[4] = 0xdead0000;				/* unmapped: no name */
	chain[5] = UBASE + r.f[0][3].module_addr;	/* main + 4 */
	ev.callchain = chain;
	ev.nr_callchain = 6;
	ck_assert_int_eq(srep_symbolizer__blocked_in(r.sy, &ev, &k, &u),
			 SREP_BLOCKED_KERNEL | SREP_BLOCKED_USER);
	ck_assert_str_eq(k.symbol, "hrtimer_nanosleep");
	ck_assert_str_eq(u.symbol, "main");
	/* no user frame has a name: the first one */
	ev.nr_callchain = 5;
	ck_assert_int_eq(srep_symbolizer__blocked_in(r.sy, &ev, &k, &u),
			 SREP_BLOCKED_KERNEL | SREP_BLOCKED_USER);
	ck_assert_ptr_null(u.symbol);
	ck_assert_uint_eq(u.addr, 0xdead0000);
	/* no user frame at all */
	ev.nr_callchain = 3;
	ck_assert_int_eq(srep_symbolizer__blocked_in(r.sy, &ev, &k, &u), SREP_BLOCKED_KERNEL);
	run_free(&r);
	world_free(&w);
}
END_TEST

/* labels: the symbol, FILE+0xOFFSET, or the address; cut, never overrun */
START_TEST(frame_labels)
{
	struct srep_frame named = { .addr = 1, .symbol = "take_lock" };
	struct srep_frame in_file = { .addr = 0xaaaa00007eb20ull, .mode = SREP_FRAME_USER,
				      .module = "/usr/lib/aarch64-linux-gnu/libc.so.6",
				      .module_addr = 0x7eb20 };
	struct srep_frame kernel = { .addr = 0xffffd637e0581580ull, .mode = SREP_FRAME_KERNEL,
				     .module = "[kernel.kallsyms]", .module_addr = 0xffffd637e0581580ull };
	struct srep_frame unmapped = { .addr = 0xdead0000, .mode = SREP_FRAME_USER };
	char buf[SREP_FRAME_LABEL_MAX], small[SREP_FRAME_LABEL_MIN + 4];

	ck_assert_str_eq(srep_frame__label(&named, buf, sizeof(buf)), "take_lock");
	ck_assert_str_eq(srep_frame__label(&in_file, buf, sizeof(buf)), "libc.so.6+0x7eb20");
	ck_assert_str_eq(srep_frame__label(&kernel, buf, sizeof(buf)), "0xffffd637e0581580");
	ck_assert_str_eq(srep_frame__label(&unmapped, buf, sizeof(buf)), "0xdead0000");
	in_file.module_addr = UINT64_MAX;
	ck_assert_str_eq(srep_frame__label(&in_file, small, sizeof(small)),
			 "libc+0xffffffffffffffff");
	ck_assert_str_eq(srep_frame__label(&kernel, small, SREP_FRAME_LABEL_MIN),
			 "0xffffd637e0581580");
	ck_assert_str_eq(srep_frame__label(&kernel, small, 3), "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symbolizer");
	TCase *tc = tcase_create("fixtures");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, kernel_and_user_frames);
	tcase_add_test(tc, other_build_refused);
	tcase_add_test(tc, kallsyms_of_another_boot);
	tcase_add_test(tc, kallsyms_in_tracing_data);
	tcase_add_test(tc, vmlinux_relocated_with_lines);
	tcase_add_test(tc, bad_options);
	tcase_add_test(tc, odd_callchains);
	tcase_add_test(tc, blocked_in_named_user_frame);
	tcase_add_test(tc, frame_labels);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
