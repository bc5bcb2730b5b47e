// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_resolve.c - the rule (DECISIONS.md): over the frames of
 * callchains/ARCH/sched-callchain.script.txt and dwarf.script.txt (the
 * guest perf's own symbolized output; the dwarf traces' user stacks are
 * unwound here as perf unwound them there), schedrep resolves the same
 * function name for at least 99% of the frames perf resolved, on every
 * architecture, from the unstripped binary and from the stripped binary
 * plus its separate debug file (found by .gnu_debuglink, and by build id
 * under /usr/lib/debug/.build-id). armhf's -marm and Thumb builds count too.
 * Kernel and user frames are also held to 99% each, so kernel frames
 * (most of them) cannot hide a user-space failure. Prints one row per
 * case. Skips when the corpus or xz is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

enum debug_kind { UNSTRIPPED, DEBUGLINK, BUILD_ID_DIR };

struct arch_case {
	const char *arch, *triplet, *loader;
	const char *trace;		/* under callchains/ARCH/ */
	const char *blocker;		/* the binary's name on the target, in /root */
	const char *build_id;		/* of the blocker (buildids-all.txt) */
};

static const struct arch_case cases[] = {
	{ "x86_64", "x86_64-linux-gnu", "ld-linux-x86-64.so.2", "sched-callchain", "blocker",
	  "1094509501c0eef21f222ea16f15e70b3bde9826" },
	{ "arm64", "aarch64-linux-gnu", "ld-linux-aarch64.so.1", "sched-callchain", "blocker",
	  "cfc36a5487977b44e5e78076074d26c1776929fa" },
	{ "armhf", "arm-linux-gnueabihf", "ld-linux-armhf.so.3", "sched-callchain", "blocker",
	  "77bccdf6fae753e874035f852e5e4739b39e7a67" },
	{ "armhf", "arm-linux-gnueabihf", "ld-linux-armhf.so.3", "sched-callchain-marm",
	  "blocker-marm", NULL },
	{ "armhf", "arm-linux-gnueabihf", "ld-linux-armhf.so.3", "sched-callchain-thumb",
	  "blocker-thumb", NULL },
	{ "s390x", "s390x-linux-gnu", "ld64.so.1", "sched-callchain", "blocker",
	  "bb1cffcdac0681621dcb7f4dbcae3029dc55596e" },
	/* --call-graph dwarf: the user stacks unwound (perf's own unwinding: libdw) */
	{ "x86_64", "x86_64-linux-gnu", "ld-linux-x86-64.so.2", "dwarf", "blocker",
	  "1094509501c0eef21f222ea16f15e70b3bde9826" },
	{ "arm64", "aarch64-linux-gnu", "ld-linux-aarch64.so.1", "dwarf", "blocker",
	  "cfc36a5487977b44e5e78076074d26c1776929fa" },
	{ "armhf", "arm-linux-gnueabihf", "ld-linux-armhf.so.3", "dwarf", "blocker",
	  "77bccdf6fae753e874035f852e5e4739b39e7a67" },
	{ "s390x", "s390x-linux-gnu", "ld64.so.1", "dwarf", "blocker",
	  "bb1cffcdac0681621dcb7f4dbcae3029dc55596e" },
};

/* one frame of perf script: printed address, symbol ("" for [unknown]) */
struct pframe {
	unsigned long long addr;
	char sym[256];
	bool kernel;			/* perf's dso is the kernel or a kernel module */
};

struct psample {
	int tid;
	char time[32];
	struct pframe *f;
	size_t nr;
};

struct tally {
	unsigned long kernel, kernel_ok, user, user_ok, offsets_ok, samples;
};

/* mkdir -p of the directory part of 'path' */
static void make_parents(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static void link_file(const char *target, const char *root, const char *path)
{
	char *full;

	ck_assert(asprintf(&full, "%s%s", root, path) > 0);
	make_parents(full);
	ck_assert_msg(symlink(target, full) == 0, "symlink %s", full);
	free(full);
}

static char *cpath(const struct arch_case *c, const char *name)
{
	char *rel, *p;

	ck_assert(asprintf(&rel, "callchains/%s/%s", c->arch, name) > 0);
	p = tu_corpus_path(rel);
	free(rel);
	return p;
}

static void link_corpus(const struct arch_case *c, const char *file, const char *root,
			const char *path)
{
	char *p = cpath(c, file);

	link_file(p, root, path);
	free(p);
}

/* the target's files at the paths the trace names, under 'root' */
static void make_symfs(const struct arch_case *c, const char *root, enum debug_kind kind)
{
	char bin[128], dbg[128], path[256];

	snprintf(bin, sizeof(bin), "%s%s", c->blocker, kind == UNSTRIPPED ? "" : ".stripped");
	snprintf(dbg, sizeof(dbg), "%s.debug", c->blocker);
	snprintf(path, sizeof(path), "/root/%s", c->blocker);
	link_corpus(c, bin, root, path);
	if (kind == DEBUGLINK) {
		/* beside the binary, under the name its .gnu_debuglink gives */
		snprintf(path, sizeof(path), "/root/%s", dbg);
		link_corpus(c, dbg, root, path);
	} else if (kind == BUILD_ID_DIR) {
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", c->build_id,
			 c->build_id + 2);
		link_corpus(c, dbg, root, path);
	}
	snprintf(path, sizeof(path), "/usr/lib/%s/libc.so.6", c->triplet);
	link_corpus(c, "libc.so.6", root, path);
	snprintf(path, sizeof(path), "/usr/lib/%s/%s", c->triplet, c->loader);
	link_corpus(c, c->loader, root, path);
}

/* "\tADDR SYM+OFF (DSO)" or "\tADDR [unknown] (DSO)" */
static void parse_frame(const char *line, struct pframe *f)
{
	const char *dso = strrchr(line, '(');
	char sym[256];

	f->sym[0] = '\0';
	if (sscanf(line, " %llx %255s", &f->addr, sym) == 2 && strcmp(sym, "[unknown]"))
		snprintf(f->sym, sizeof(f->sym), "%s", sym);
	f->kernel = dso && dso[1] == '[' && strncmp(dso, "([unknown]", 10) &&
		    strncmp(dso, "([vdso]", 7);
}

static struct psample *parse_script(char *text, size_t *nr)
{
	struct psample *v = NULL, *cur = NULL;
	char *line, *save = NULL, comm[64];

	*nr = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '\t' && cur) {
			cur->f = realloc(cur->f, (cur->nr + 1) * sizeof(*cur->f));
			parse_frame(line, &cur->f[cur->nr++]);
			continue;
		}
		v = realloc(v, (*nr + 1) * sizeof(*v));
		cur = &v[(*nr)++];
		memset(cur, 0, sizeof(*cur));
		ck_assert_msg(sscanf(line, "%63s %d %31[0-9.]", comm, &cur->tid, cur->time) == 3,
			      "perf script line '%s'", line);
	}
	return v;
}

/* perf's "SYM+0xOFF" against ours */
static void compare_frame(const struct pframe *p, const struct srep_frame *o, struct tally *t)
{
	char ours[160];
	const char *plus = strrchr(p->sym, '+');
	size_t name_len = plus ? (size_t)(plus - p->sym) : strlen(p->sym);
	bool ok = o->symbol && strlen(o->symbol) == name_len && !strncmp(o->symbol, p->sym, name_len);

	if (p->kernel) {
		t->kernel++;
		t->kernel_ok += ok;
	} else {
		t->user++;
		t->user_ok += ok;
	}
	if (ok) {
		snprintf(ours, sizeof(ours), "%s+0x%llx", o->symbol,
			 (unsigned long long)o->symbol_offset);
		t->offsets_ok += !strcmp(ours, p->sym);
	}
}

/*
 * perf's frames and ours in order, matched by the printed address: a frame
 * perf added that the recorded callchain lacks (arm64's leaf caller) only
 * counts as a miss, it does not shift the rest.
 */
static void compare_sample(const struct psample *p, const struct srep_frame *o, size_t nr,
			   struct tally *t)
{
	struct srep_frame none = { 0 };
	size_t i, j = 0, k;
	bool found;

	for (i = 0; i < p->nr; i++) {
		for (k = j; k < nr && k < j + 3 && o[k].module_addr != p->f[i].addr; k++)
			;
		found = k < nr && o[k].module_addr == p->f[i].addr;
		if (found)
			j = k + 1;	/* unresolved frames align the rest too */
		if (p->f[i].sym[0])	/* only frames perf resolved are counted */
			compare_frame(&p->f[i], found ? &o[k] : &none, t);
	}
}

static void free_script(struct psample *ps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(ps[i].f);
	free(ps);
}

/* perf's own symbolized output of the trace, parsed */
static struct psample *read_script(const struct arch_case *c, size_t *nps)
{
	char *name, *path, *text;
	struct psample *ps;

	ck_assert(asprintf(&name, "%s.script.txt", c->trace) > 0);
	path = cpath(c, name);
	text = tu_read_file(path, NULL);
	ck_assert_ptr_nonnull(text);
	ps = parse_script(text, nps);
	free(text);
	free(path);
	free(name);
	return ps;
}

static char *unxz_kallsyms(const struct arch_case *c, const char *root)
{
	char *kall, *cmd, *xz = cpath(c, "kallsyms.xz");

	ck_assert(asprintf(&kall, "%s/kallsyms", root) > 0);
	ck_assert(asprintf(&cmd, "xz -dc '%s' > '%s'", xz, kall) > 0);
	ck_assert_int_eq(tu_run(cmd, NULL), 0);
	free(cmd);
	free(xz);
	return kall;
}

/* every callchain of the trace resolved and held against perf's sample of the same rank */
/*
 * where it blocked: the first user frame with a name (else the first user
 * frame), and a kernel frame past the scheduler
 */
static void check_blocked(struct srep_symbolizer *sy, const struct srep_event *ev,
			  const struct srep_frame *frames, size_t n)
{
	struct srep_frame k = { 0 }, u = { 0 };
	int found = srep_symbolizer__blocked_in(sy, ev, &k, &u);
	size_t i, named;

	for (i = 0; i < n && frames[i].mode != SREP_FRAME_USER; i++)
		;
	for (named = i; named < n && (frames[named].mode != SREP_FRAME_USER ||
				      !frames[named].symbol); named++)
		;
	ck_assert_int_eq(!!(found & SREP_BLOCKED_USER), i < n);
	if (named < n)
		ck_assert_uint_eq(u.addr, frames[named].addr);
	else if (i < n)
		ck_assert_uint_eq(u.addr, frames[i].addr);
	if (found & SREP_BLOCKED_KERNEL) {
		ck_assert_int_eq(k.mode, SREP_FRAME_KERNEL);
		ck_assert_ptr_nonnull(k.symbol);
		ck_assert(strcmp(k.symbol, "__schedule") && strcmp(k.symbol, "schedule"));
	}
}

/* the blocker's symbols came from the file asked for, and its debug file when stripped */
static void check_blocker_module(const struct arch_case *c, const struct srep_symbolizer *sy,
				 bool want_debug)
{
	struct srep_module_info mi;
	char name[64];
	size_t m;

	snprintf(name, sizeof(name), "/root/%s", c->blocker);
	for (m = 0; m < srep_symbolizer__nr_modules(sy); m++) {
		ck_assert_int_eq(srep_symbolizer__module(sy, m, &mi), 0);
		if (strcmp(mi.name, name) || !mi.frames)
			continue;
		ck_assert_int_eq(mi.state, SREP_MODULE_FOUND);
		if (want_debug)
			ck_assert_ptr_nonnull(strstr(mi.debug_path, ".debug"));
		else
			ck_assert_ptr_null(mi.debug_path);
	}
}

static void compare_trace(const struct arch_case *c, const struct srep_symbol_opts *so,
			  const struct psample *ps, size_t nps, struct tally *t, bool want_debug)
{
	struct srep_symbolizer *sy = NULL;
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	struct srep_frame frames[512 + SREP_UNWIND_MAX + 1];
	char *name, *trace;
	size_t n, i = 0;
	int ret;

	ck_assert(asprintf(&name, "%s.data", c->trace) > 0);
	trace = cpath(c, name);
	ck_assert_int_eq(srep_session__open(&s, trace, NULL, &err), 0);
	ck_assert_int_eq(srep_symbolizer__new(&sy, s, so, &err), 0);
	while ((ret = srep_session__next_event(s, &ev, &err)) > 0) {
		ck_assert_int_eq(srep_symbolizer__observe(sy, ev), 0);
		if (!ev->nr_callchain)
			continue;
		ck_assert_msg(i < nps, "more callchains than perf printed");
		ck_assert_int_eq(ps[i].tid, ev->tid);
		n = srep_symbolizer__callchain(sy, ev, frames, sizeof(frames) / sizeof(frames[0]));
		compare_sample(&ps[i], frames, n, t);
		check_blocked(sy, ev, frames, n);
		i++;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(i, nps);
	t->samples += i;
	check_blocker_module(c, sy, want_debug);
	srep_symbolizer__delete(sy);
	srep_session__delete(s);
	free(trace);
	free(name);
}

static void run_case(const struct arch_case *c, enum debug_kind kind, struct tally *t)
{
	struct srep_symbol_opts so = { .buildid_dir = "" };
	char *root = tu_tmpdir();
	struct psample *ps;
	size_t nps;

	ck_assert_ptr_nonnull(root);
	make_symfs(c, root, kind);
	so.kallsyms = unxz_kallsyms(c, root);
	so.symfs = root;
	ps = read_script(c, &nps);
	compare_trace(c, &so, ps, nps, t, kind != UNSTRIPPED);
	free_script(ps, nps);
	free((char *)so.kallsyms);
	tu_rmdir(root);
	free(root);
}

static double pct(unsigned long a, unsigned long b)
{
	return b ? 100.0 * (double)a / (double)b : 100.0;
}

static void check_case(const struct arch_case *c, enum debug_kind kind)
{
	static const char *const kinds[] = { "unstripped", "stripped+debuglink",
					     "stripped+build-id" };
	struct tally t = { 0 };

	run_case(c, kind, &t);
	fprintf(stderr, "%-6s %-22s %-18s samples %4lu  kernel %5lu/%-5lu %6.2f%%  user %4lu/%-4lu "
		"%6.2f%%  all %6.2f%%  offsets %6.2f%%\n", c->arch, c->trace, kinds[kind], t.samples,
		t.kernel_ok, t.kernel, pct(t.kernel_ok, t.kernel), t.user_ok, t.user,
		pct(t.user_ok, t.user), pct(t.kernel_ok + t.user_ok, t.kernel + t.user),
		pct(t.offsets_ok, t.kernel_ok + t.user_ok));
	ck_assert_msg(pct(t.kernel_ok + t.user_ok, t.kernel + t.user) >= 99.0, "%s: below 99%%",
		      c->arch);
	ck_assert_msg(pct(t.kernel_ok, t.kernel) >= 99.0, "%s: kernel below 99%%", c->arch);
	ck_assert_msg(pct(t.user_ok, t.user) >= 99.0, "%s: user below 99%%", c->arch);
}

static bool have_inputs(void)
{
	return tu_corpus_dir() && tu_have_program("xz");
}

START_TEST(match_unstripped)
{
	if (!have_inputs())
		TU_SKIP("corpus or xz absent: callchain match not checked");
	check_case(&cases[_i], UNSTRIPPED);
}
END_TEST

START_TEST(match_stripped_debuglink)
{
	if (!have_inputs())
		TU_SKIP("corpus or xz absent: callchain match not checked");
	check_case(&cases[_i], DEBUGLINK);
}
END_TEST

START_TEST(match_stripped_build_id)
{
	if (!have_inputs())
		TU_SKIP("corpus or xz absent: callchain match not checked");
	if (!cases[_i].build_id)
		return;		/* the -marm and Thumb builds: debug link only */
	check_case(&cases[_i], BUILD_ID_DIR);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("resolve");
	TCase *tc = tcase_create("corpus");
	int n = (int)(sizeof(cases) / sizeof(cases[0]));

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, match_unstripped, 0, n);
	tcase_add_loop_test(tc, match_stripped_debuglink, 0, n);
	tcase_add_loop_test(tc, match_stripped_build_id, 0, n);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
