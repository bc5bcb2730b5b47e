// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_symfind.c - where the target's files are looked for: the symfs,
 * the build-id cache in perf's layout, a debug file alone, the separate
 * debug file by build id, by .gnu_debuglink (beside, in .debug/, under
 * /usr/lib/debug), and files with another build id passed over. Uses the
 * corpus' x86_64 and arm64 blockers (two build ids); skips without it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "sym_local.h"

#define X86_ID "1094509501c0eef21f222ea16f15e70b3bde9826"

struct env {
	char *dir;			/* root of everything below */
	char symfs[4200], cache[4200];
	char *bin, *dbg, *other;	/* corpus files */
	uint8_t id[20];
};

static void mkdirs(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static void put(const char *target, const char *dir, const char *path)
{
	char full[8400];

	snprintf(full, sizeof(full), "%s%s", dir, path);
	mkdirs(full);
	ck_assert_msg(symlink(target, full) == 0, "%s", full);
}

static bool setup(struct env *e)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->bin = tu_corpus_path("callchains/x86_64/blocker.stripped");
	e->dbg = tu_corpus_path("callchains/x86_64/blocker.debug");
	e->other = tu_corpus_path("callchains/arm64/blocker");
	if (!e->bin)
		return false;
	e->dir = tu_tmpdir();
	snprintf(e->symfs, sizeof(e->symfs), "%s/symfs", e->dir);
	snprintf(e->cache, sizeof(e->cache), "%s/cache", e->dir);
	mkdir(e->symfs, 0755);
	mkdir(e->cache, 0755);
	for (i = 0; i < 20; i++)
		sscanf(&X86_ID[2 * i], "%2hhx", &e->id[i]);
	return true;
}

static void teardown(struct env *e)
{
	tu_rmdir(e->dir);
	free(e->dir);
	free(e->bin);
	free(e->dbg);
	free(e->other);
}

static char *find_main(struct env *e, const char *path, size_t want_len, char **mismatch)
{
	struct symfind f = { .symfs = e->symfs, .buildid_dir = e->cache };
	uint8_t id[SYM_MAX_BUILD_ID];
	size_t id_len;
	char *found = symfind_main(&f, path, e->id, want_len, mismatch, id, &id_len);

	/* the build id of what was found comes back */
	if (found) {
		ck_assert_uint_eq(id_len, 20);
		ck_assert(!want_len || !memcmp(id, e->id, 20));
	}
	return found;
}

START_TEST(hex)
{
	static const uint8_t id[3] = { 0x0a, 0xbc, 0xff };
	char out[2 * SYM_MAX_BUILD_ID + 1];

	symfind_hex(id, 3, out);
	ck_assert_str_eq(out, "0abcff");
	symfind_hex(id, 0, out);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(binaries)
{
	char *found, *mismatch = NULL, expect[8400];
	struct env e;

	if (!setup(&e))
		TU_SKIP("corpus absent: file lookup not checked");
	/* nothing there yet */
	ck_assert_ptr_null(find_main(&e, "/root/blocker", 20, &mismatch));
	ck_assert_ptr_null(mismatch);
	/* a file of another build (arm64's blocker) at the path: passed over, named */
	put(e.other, e.symfs, "/root/blocker");
	ck_assert_ptr_null(find_main(&e, "/root/blocker", 20, &mismatch));
	snprintf(expect, sizeof(expect), "%s/root/blocker", e.symfs);
	ck_assert_str_eq(mismatch, expect);
	free(mismatch);
	mismatch = NULL;
	/* without a build id in the trace nothing says it is wrong: taken */
	found = find_main(&e, "/root/blocker", 0, &mismatch);
	ck_assert_str_eq(found, expect);
	free(found);
	/* the debug file alone, by build id under the symfs, comes before nothing */
	put(e.dbg, e.symfs, "/usr/lib/debug/.build-id/10/94509501c0eef21f222ea16f15e70b3bde9826.debug");
	found = find_main(&e, "/root/blocker", 20, &mismatch);
	ck_assert_ptr_nonnull(strstr(found, "/usr/lib/debug/.build-id/10/"));
	free(found);
	free(mismatch);
	mismatch = NULL;
	/* names that are not paths ("[vdso]") are looked for in the cache only */
	ck_assert_ptr_null(find_main(&e, "[vdso]", 20, &mismatch));
	/* the build-id cache comes first: DIR/PATH/ID/elf, then DIR/.build-id/xx/yyyy */
	put(e.bin, e.cache, "/root/blocker/" X86_ID "/elf");
	found = find_main(&e, "/root/blocker", 20, &mismatch);
	snprintf(expect, sizeof(expect), "%s/root/blocker/" X86_ID "/elf", e.cache);
	ck_assert_str_eq(found, expect);
	free(found);
	put(e.bin, e.cache, "/.build-id/10/94509501c0eef21f222ea16f15e70b3bde9826");
	found = find_main(&e, "/root/blocker", 20, &mismatch);
	ck_assert_ptr_nonnull(strstr(found, "/cache/.build-id/10/"));
	free(found);
	free(mismatch);
	teardown(&e);
}
END_TEST

START_TEST(debug_files)
{
	struct symfind f;
	char *found, host[8400], expect[8400];
	struct env e;

	if (!setup(&e))
		TU_SKIP("corpus absent: debug file lookup not checked");
	f = (struct symfind){ .symfs = e.symfs, .buildid_dir = e.cache };
	put(e.bin, e.symfs, "/root/blocker");
	snprintf(host, sizeof(host), "%s/root/blocker", e.symfs);
	ck_assert_ptr_null(symfind_debug(&f, "/root/blocker", host, e.id, 20, "blocker.debug"));
	/* under /usr/lib/debug + the target's directory */
	put(e.dbg, e.symfs, "/usr/lib/debug/root/blocker.debug");
	found = symfind_debug(&f, "/root/blocker", host, e.id, 20, "blocker.debug");
	snprintf(expect, sizeof(expect), "%s/usr/lib/debug/root/blocker.debug", e.symfs);
	ck_assert_str_eq(found, expect);
	free(found);
	/* in .debug/ beside the binary wins over that; beside it wins over both */
	put(e.dbg, e.symfs, "/root/.debug/blocker.debug");
	found = symfind_debug(&f, "/root/blocker", host, e.id, 20, "blocker.debug");
	ck_assert_ptr_nonnull(strstr(found, "/root/.debug/blocker.debug"));
	free(found);
	put(e.dbg, e.symfs, "/root/blocker.debug");
	found = symfind_debug(&f, "/root/blocker", host, e.id, 20, "blocker.debug");
	snprintf(expect, sizeof(expect), "%s/root/blocker.debug", e.symfs);
	ck_assert_str_eq(found, expect);
	free(found);
	/* a debug link with a slash is not followed; one naming the binary is refused */
	ck_assert_ptr_null(symfind_debug(&f, "/root/blocker", host, e.id, 20, "../x/blocker.debug"));
	ck_assert_ptr_null(symfind_debug(&f, "/root/blocker", host, e.id, 20, "blocker"));
	/* by build id first, and a debug file of another build is passed over */
	put(e.other, e.symfs, "/usr/lib/debug/.build-id/10/94509501c0eef21f222ea16f15e70b3bde9826.debug");
	found = symfind_debug(&f, "/root/blocker", host, e.id, 20, NULL);
	ck_assert_ptr_null(found);
	found = symfind_debug(&f, "/root/blocker", host, e.id, 20, "blocker.debug");
	ck_assert_str_eq(found, expect);
	free(found);
	/* the build-id cache's "debug" entry */
	put(e.dbg, e.cache, "/root/blocker/" X86_ID "/debug");
	found = symfind_debug(&f, "/root/blocker", host, e.id, 20, NULL);
	ck_assert_ptr_nonnull(strstr(found, "/cache/root/blocker/" X86_ID "/debug"));
	free(found);
	teardown(&e);
}
END_TEST

START_TEST(cached_kallsyms)
{
	static const uint8_t id[2] = { 0xab, 0xcd };
	struct symfind f = { .buildid_dir = NULL };
	char *dir = tu_tmpdir(), path[4200], *found;

	ck_assert_ptr_null(symfind_cached(&f, "[kernel.kallsyms]", id, 2, "kallsyms"));
	f.buildid_dir = dir;
	ck_assert_ptr_null(symfind_cached(&f, "[kernel.kallsyms]", id, 2, "kallsyms"));
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/abcd/kallsyms", dir);
	mkdirs(path);
	ck_assert_int_eq(tu_write_file(path, "0 T x\n", 6), 0);
	found = symfind_cached(&f, "[kernel.kallsyms]", id, 2, "kallsyms");
	ck_assert_str_eq(found, path);
	free(found);
	ck_assert_ptr_null(symfind_cached(&f, "[kernel.kallsyms]", id, 0, "kallsyms"));
	tu_rmdir(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symfind");
	TCase *tc = tcase_create("lookup");

	tcase_add_test(tc, hex);
	tcase_add_test(tc, binaries);
	tcase_add_test(tc, debug_files);
	tcase_add_test(tc, cached_kallsyms);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
