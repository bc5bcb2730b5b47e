// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_kallsyms.c - kallsyms text: the symbol kinds perf keeps, module
 * tags, reference symbols, lines of other shapes, and every corpus
 * kallsyms (decompressed to a temporary file; skipped without the corpus
 * or xz).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "sym_local.h"

static const char *name_at(const struct kallsyms_table *t, uint64_t addr)
{
	const struct sym_entry *e = symtab_find(&t->tab, addr);

	return e ? e->name : NULL;
}

START_TEST(kinds_and_modules)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T startup_64\n"
		"ffffffff81001000 t local_fn\n"
		"ffffffff81002000 W weak_fn\n"
		"ffffffff81003000 r rodata_skipped\n"
		"ffffffff81004000 A abs_skipped\n"
		"ffffffff81005000 D data_kept\n"
		"ffffffff81006000 b bss_kept\n"
		"ffffffff81007000 t $x\n"
		"ffffffff81007800 T after_mapping_symbol\n"
		"not a line at all\n"
		"ffffffff81008000 T\n"
		"\n"
		"ffffffffc0001000 t virtblk_probe\t[virtio_blk]\n"
		"ffffffffc0002000 T virtblk_remove\t[virtio_blk]";	/* no final newline */
	struct srep_error err = { 0 };
	struct kallsyms_table t;

	ck_assert_int_eq(kallsyms_parse(&t, text, strlen(text), &err), 0);
	ck_assert_uint_eq(t.ref_text, 0xffffffff81000000ull);
	ck_assert_uint_eq(t.ref_stext, 0);
	ck_assert_uint_eq(t.bad_lines, 2);
	/* _text and startup_64 share an address: the later one, as perf */
	ck_assert_str_eq(name_at(&t, 0xffffffff81000010ull), "startup_64");
	ck_assert_str_eq(name_at(&t, 0xffffffff81001010ull), "local_fn");
	ck_assert_str_eq(name_at(&t, 0xffffffff81002010ull), "weak_fn");
	/* 'r' and 'A' are not kept: weak_fn runs up to data_kept */
	ck_assert_str_eq(name_at(&t, 0xffffffff81004010ull), "weak_fn");
	ck_assert_str_eq(name_at(&t, 0xffffffff81006010ull), "bss_kept");
	/* ARM mapping symbols are not kept either */
	ck_assert_str_eq(name_at(&t, 0xffffffff81007010ull), "bss_kept");
	/* the last kernel symbol before the modules gets one page, not the gap */
	ck_assert_str_eq(name_at(&t, 0xffffffff81008010ull), "after_mapping_symbol");
	ck_assert_ptr_null(name_at(&t, 0xffffffff8100a000ull));
	ck_assert_str_eq(name_at(&t, 0xffffffffc0001010ull), "virtblk_probe");
	ck_assert_str_eq(symtab_find(&t.tab, 0xffffffffc0001010ull)->module, "[virtio_blk]");
	ck_assert_str_eq(name_at(&t, 0xffffffffc0002000ull), "virtblk_remove");
	ck_assert_ptr_null(symtab_find(&t.tab, 0xffffffff81000000ull)->module);
	kallsyms_free(&t);
}
END_TEST

/* a NUL ends the text; oversized and missing files are errors */
START_TEST(edges)
{
	static const char text[] = "c0400000 T _stext\0c0500000 T hidden\n";
	struct srep_error err = { 0 };
	struct kallsyms_table t;

	ck_assert_int_eq(kallsyms_parse(&t, text, sizeof(text) - 1, &err), 0);
	ck_assert_uint_eq(t.tab.nr, 1);
	ck_assert_uint_eq(t.ref_stext, 0xc0400000);
	kallsyms_free(&t);
	ck_assert_int_eq(kallsyms_parse(&t, "", 0, &err), 0);
	ck_assert_uint_eq(t.tab.nr, 0);
	kallsyms_free(&t);
	ck_assert_int_eq(kallsyms_parse(&t, text, (size_t)SYM_MAX_KALLSYMS + 1, &err),
			 SREP_E_LIMIT);
	ck_assert_int_eq(kallsyms_load(&t, "/nonexistent/kallsyms", &err), SREP_E_IO);
	ck_assert_int_eq(kallsyms_load(&t, "/", &err), SREP_E_IO);
}
END_TEST

/* procfs says /proc/kallsyms has 0 bytes: it is read to its end all the same */
START_TEST(proc_kallsyms)
{
	struct srep_error err = { 0 };
	struct kallsyms_table t;

	if (access("/proc/kallsyms", R_OK))
		TU_SKIP("/proc/kallsyms not readable here");
	ck_assert_msg(kallsyms_load(&t, "/proc/kallsyms", &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(t.bad_lines, 0);
	ck_assert_uint_gt(t.tab.nr, 1000);
	kallsyms_free(&t);
}
END_TEST

static const char *const arches[] = { "x86_64", "arm64", "armhf", "s390x" };

/* the corpus' kallsyms: the kernel's reference symbol is where the trace says */
START_TEST(corpus_kallsyms)
{
	static const uint64_t refs[] = { 0xffffffff8e200000ull, 0xffffd637e0410000ull,
					 0xc0400000ull, 0x100000ull };
	char rel[64], *xz, *dir, *cmd, *path;
	struct srep_error err = { 0 };
	struct kallsyms_table t;

	snprintf(rel, sizeof(rel), "callchains/%s/kallsyms.xz", arches[_i]);
	xz = tu_corpus_path(rel);
	if (!xz || !tu_have_program("xz"))
		TU_SKIP("corpus or xz absent: corpus kallsyms not read");
	dir = tu_tmpdir();
	ck_assert(asprintf(&path, "%s/kallsyms", dir) > 0);
	ck_assert(asprintf(&cmd, "xz -dc '%s' > '%s'", xz, path) > 0);
	ck_assert_int_eq(tu_run(cmd, NULL), 0);
	ck_assert_msg(kallsyms_load(&t, path, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(t.bad_lines, 0);
	ck_assert_uint_gt(t.tab.nr, 10000);
	ck_assert_uint_eq(_i == 1 || _i == 2 ? t.ref_stext : t.ref_text, refs[_i]);
	ck_assert_ptr_nonnull(name_at(&t, refs[_i]));
	kallsyms_free(&t);
	tu_rmdir(dir);
	free(dir);
	free(path);
	free(cmd);
	free(xz);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, kinds_and_modules);
	tcase_add_test(tc, edges);
	tcase_add_test(tc, proc_kallsyms);
	tcase_add_loop_test(tc, corpus_kallsyms, 0, 4);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
