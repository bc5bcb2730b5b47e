// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_dso.c - ELF files through the libdw wrapper: this test's own
 * executable (symbols, DWARF lines, build id); the corpus binaries of four
 * architectures (both byte orders, 32 and 64 bits, ARM Thumb); a stripped
 * binary whose symbols come from its separate debug file; and damaged ELF
 * files, which must never crash (run it under ASan: --enable-sanitizers).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "sym_local.h"

static char *self_path(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	ck_assert_int_gt(n, 0);
	path[n] = '\0';
	return path;
}

START_TEST(own_executable)
{
	uint8_t id[SYM_MAX_BUILD_ID];
	const struct sym_entry *e;
	struct dso *d;
	const char *file;
	char why[256];
	uint64_t v, back;
	int line;

	/* Debian's gcc links with a build id */
	ck_assert_int_gt(dso_file_build_id(self_path(), id, sizeof(id)), 0);
	d = dso_open(self_path(), NULL, NULL, why, sizeof(why));
	ck_assert_msg(d != NULL, "%s", why);
	ck_assert(dso_symbol_value(d, "main", &v));
	ck_assert(!dso_symbol_value(d, "no_such_symbol_here", &back));
	e = dso_find(d, v + 1);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(e->name, "main");
	ck_assert_uint_eq(e->start, v);
	ck_assert_uint_gt(dso_nr_symbols(d), 10);
	/* the text segment of a GNU ld executable has p_offset == p_vaddr */
	ck_assert(dso_vaddr(d, v, &back));
	ck_assert_uint_eq(back, v);
	ck_assert(!dso_vaddr(d, UINT64_MAX - 1, &back));
	/* built with -g: main's line is in this file */
	ck_assert(dso_srcline(d, v + 1, &file, &line));
	ck_assert_ptr_nonnull(strstr(file, "check_dso.c"));
	ck_assert_int_gt(line, 0);
	ck_assert_str_eq(dso_debug_path(d), "");
	dso_free(d);
}
END_TEST

START_TEST(not_elf)
{
	uint8_t id[SYM_MAX_BUILD_ID];
	char *dir = tu_tmpdir(), path[4200], why[256];

	snprintf(path, sizeof(path), "%s/text", dir);
	ck_assert_int_eq(tu_write_file(path, "not an ELF file\n", 16), 0);
	ck_assert_int_lt(dso_file_build_id(path, id, sizeof(id)), 0);
	ck_assert_ptr_null(dso_open(path, NULL, NULL, why, sizeof(why)));
	ck_assert_int_gt(strlen(why), 0);
	ck_assert_int_lt(dso_file_build_id("/nonexistent", id, sizeof(id)), 0);
	ck_assert_ptr_null(dso_open("/nonexistent", NULL, NULL, why, sizeof(why)));
	tu_rmdir(dir);
	free(dir);
}
END_TEST

static const struct {
	const char *arch, *file;
} bins[] = {
	{ "x86_64", "blocker" }, { "arm64", "blocker" }, { "armhf", "blocker" },
	{ "armhf", "blocker-thumb" }, { "s390x", "blocker" },
};

static char *corpus_bin(int i, const char *suffix)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "callchains/%s/%s%s", bins[i].arch, bins[i].file, suffix);
	return tu_corpus_path(rel);
}

/* every function of blocker.c found from inside it, in every ELF flavour */
START_TEST(corpus_binaries)
{
	static const char *const fns[] = { "take_lock", "wait_for_data", "nap", "worker_lock",
					   "main" };
	char *path = corpus_bin(_i, ""), why[256];
	const struct sym_entry *e;
	struct dso *d;
	const char *file;
	uint64_t v;
	size_t i;
	int line;

	if (!path)
		TU_SKIP("corpus absent: foreign ELF files not read");
	d = dso_open(path, NULL, NULL, why, sizeof(why));
	ck_assert_msg(d != NULL, "%s: %s", path, why);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		ck_assert_msg(dso_symbol_value(d, fns[i], &v), "%s: %s", path, fns[i]);
		if (strstr(bins[_i].file, "thumb"))
			v &= ~(uint64_t)1;	/* the Thumb bit of the symbol's value */
		e = dso_find(d, v + 2);
		ck_assert_ptr_nonnull(e);
		ck_assert_str_eq(e->name, fns[i]);
		ck_assert_uint_eq(e->start, v);
		ck_assert(dso_srcline(d, v + 2, &file, &line));
		ck_assert_ptr_nonnull(strstr(file, "blocker.c"));
	}
	dso_free(d);
	free(path);
}
END_TEST

struct finder_log {
	char *debug;			/* what to answer */
	int calls;
	char debuglink[64];
	size_t id_len;
};

static char *finder(void *arg, const uint8_t *id, size_t len, const char *debuglink)
{
	struct finder_log *log = arg;

	(void)id;
	log->calls++;
	log->id_len = len;
	snprintf(log->debuglink, sizeof(log->debuglink), "%s", debuglink ? debuglink : "");
	return log->debug ? strdup(log->debug) : NULL;
}

/* a stripped binary: its functions come from the debug file the finder names */
START_TEST(stripped_with_debug_file)
{
	char *path = corpus_bin(0, ".stripped"), why[256];
	struct finder_log log = { 0 };
	const struct sym_entry *e;
	struct dso *d;
	uint64_t v;

	if (!path)
		TU_SKIP("corpus absent: separate debug files not read");
	log.debug = corpus_bin(0, ".debug");
	d = dso_open(path, finder, &log, why, sizeof(why));
	ck_assert_msg(d != NULL, "%s", why);
	ck_assert(dso_symbol_value(d, "take_lock", &v));
	e = dso_find(d, v + 4);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(e->name, "take_lock");
	ck_assert_int_ge(log.calls, 1);
	ck_assert_str_eq(log.debuglink, "blocker.debug");
	ck_assert_uint_eq(log.id_len, 20);
	ck_assert_str_eq(dso_debug_path(d), log.debug);
	dso_free(d);
	/* without the debug file only .dynsym is left: take_lock is not in it */
	free(log.debug);
	log.debug = NULL;
	d = dso_open(path, finder, &log, why, sizeof(why));
	ck_assert_ptr_nonnull(d);
	ck_assert(!dso_symbol_value(d, "take_lock", &v));
	dso_free(d);
	free(path);
}
END_TEST

/* deterministic damage: truncations and byte flips of a real ELF file */
START_TEST(damaged_elf)
{
	char *dir = tu_tmpdir(), path[4200], why[256];
	const char *file;
	uint8_t id[SYM_MAX_BUILD_ID], *orig, *copy;
	struct dso *d;
	size_t len, i, cut;
	uint32_t rnd = 12345;
	uint64_t v = 0;
	int line, round;

	orig = (uint8_t *)tu_read_file(self_path(), &len);
	ck_assert_ptr_nonnull(orig);
	copy = malloc(len);
	snprintf(path, sizeof(path), "%s/bad", dir);
	for (round = 0; round < 60; round++) {
		memcpy(copy, orig, len);
		cut = len;
		if (round < 12) {
			cut = round < 6 ? (size_t)(round * 16) : len / (size_t)(round - 4);
		} else {
			/* flip bytes in the ELF and program headers, and anywhere */
			for (i = 0; i < 24; i++) {
				rnd = rnd * 1103515245u + 12345u;
				copy[(rnd >> 8) % (i < 12 ? 256 : len)] ^= (uint8_t)(rnd >> 24 | 1);
			}
		}
		ck_assert_int_eq(tu_write_file(path, copy, cut), 0);
		dso_file_build_id(path, id, sizeof(id));
		d = dso_open(path, NULL, NULL, why, sizeof(why));
		if (!d)
			continue;
		dso_symbol_value(d, "main", &v);
		dso_find(d, v + 1);
		dso_srcline(d, v + 1, &file, &line);
		dso_vaddr(d, 0x1000, &v);
		dso_free(d);
	}
	free(copy);
	free(orig);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symbols");
	TCase *tc = tcase_create("elf");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, own_executable);
	tcase_add_test(tc, not_elf);
	tcase_add_loop_test(tc, corpus_binaries, 0, (int)(sizeof(bins) / sizeof(bins[0])));
	tcase_add_test(tc, stripped_with_debug_file);
	tcase_add_test(tc, damaged_elf);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
