// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_symtab.c - symbol tables answer as perf 6.1 does: ends of symbols
 * without a size, the kernel/module border, one symbol per address by
 * perf's preferences, and lookups at the edges.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "sym_local.h"

static void add(struct symtab *t, uint64_t start, uint64_t size, const char *name,
		uint8_t binding, const char *module)
{
	struct sym_entry e = { .start = start, .end = start + size, .name = name,
			       .binding = binding, .module = module };

	ck_assert_int_eq(symtab_add(t, &e), 0);
}

static const char *at(const struct symtab *t, uint64_t addr)
{
	const struct sym_entry *e = symtab_find(t, addr);

	return e ? e->name : NULL;
}

START_TEST(ends_and_lookups)
{
	struct symtab t = { 0 };

	add(&t, 0x2000, 0, "b", SYM_GLOBAL, NULL);	/* added out of order */
	add(&t, 0x1000, 0x10, "a", SYM_GLOBAL, NULL);	/* sized: ends at 0x1010 */
	add(&t, 0x3000, 0, "c", SYM_GLOBAL, NULL);
	symtab_finish(&t, false);
	ck_assert_uint_eq(t.nr, 3);
	ck_assert_ptr_null(at(&t, 0xfff));
	ck_assert_str_eq(at(&t, 0x1000), "a");
	ck_assert_str_eq(at(&t, 0x100f), "a");
	ck_assert_ptr_null(at(&t, 0x1010));		/* between a sized symbol and the next */
	ck_assert_str_eq(at(&t, 0x2fff), "b");		/* b runs up to c */
	ck_assert_str_eq(at(&t, 0x3000), "c");
	ck_assert_str_eq(at(&t, 0x3fff), "c");		/* the last: one page, rounded */
	ck_assert_ptr_null(at(&t, 0x4000));
	symtab_free(&t);
	symtab_finish(&t, false);			/* empty is fine */
	ck_assert_ptr_null(at(&t, 0));
}
END_TEST

START_TEST(kallsyms_module_border)
{
	struct symtab t = { 0 };

	add(&t, 0xffff0000, 0, "last_in_kernel", SYM_GLOBAL, NULL);
	add(&t, 0xffffa000, 0, "mod_fn", SYM_GLOBAL, "[virtio_blk]");
	add(&t, 0xffffa100, 0, "mod_fn2", SYM_GLOBAL, "[virtio_mmio]");
	symtab_finish(&t, true);
	ck_assert_str_eq(at(&t, 0xffff0fff), "last_in_kernel");
	ck_assert_ptr_null(at(&t, 0xffff2000));		/* the gap is nobody's */
	ck_assert_str_eq(at(&t, 0xffffa0ff), "mod_fn");	/* module to module: no gap */
	ck_assert_str_eq(symtab_find(&t, 0xffffa100)->module, "[virtio_mmio]");
	symtab_free(&t);
}
END_TEST

/* of several at one address, perf's choose_best_symbol() picks one */
START_TEST(one_per_address)
{
	struct symtab t = { 0 };

	add(&t, 0x100, 0, "no_size", SYM_GLOBAL, NULL);
	add(&t, 0x100, 8, "sized", SYM_LOCAL, NULL);		/* a size wins */
	add(&t, 0x200, 8, "weak", SYM_WEAK, NULL);
	add(&t, 0x200, 8, "__strong", SYM_GLOBAL, NULL);	/* not weak wins */
	add(&t, 0x300, 8, "local", SYM_LOCAL, NULL);
	add(&t, 0x300, 8, "__global", SYM_GLOBAL, NULL);	/* global wins */
	add(&t, 0x400, 8, "__two", SYM_GLOBAL, NULL);
	add(&t, 0x400, 8, "_one", SYM_GLOBAL, NULL);		/* fewer underscores */
	add(&t, 0x500, 8, "short", SYM_GLOBAL, NULL);
	add(&t, 0x500, 8, "longer", SYM_GLOBAL, NULL);		/* longer name */
	add(&t, 0x600, 8, "first", SYM_GLOBAL, NULL);
	add(&t, 0x600, 8, "other", SYM_GLOBAL, NULL);		/* a tie: the first */
	symtab_finish(&t, false);
	ck_assert_uint_eq(t.nr, 6);
	ck_assert_str_eq(at(&t, 0x100), "sized");
	ck_assert_str_eq(at(&t, 0x200), "__strong");
	ck_assert_str_eq(at(&t, 0x300), "__global");
	ck_assert_str_eq(at(&t, 0x400), "_one");
	ck_assert_str_eq(at(&t, 0x500), "longer");
	ck_assert_str_eq(at(&t, 0x600), "first");
	symtab_free(&t);
}
END_TEST

/* kallsyms symbols have no size: of a group at one address the last gets one, and wins */
START_TEST(kallsyms_last_of_group)
{
	struct symtab t = { 0 };

	add(&t, 0xa331e0, 0, "ext_int_handler", SYM_GLOBAL, NULL);
	add(&t, 0xa331e0, 0, "__irqentry_text_start", SYM_GLOBAL, NULL);
	add(&t, 0xa331e0, 0, "__kprobes_text_end", SYM_GLOBAL, NULL);
	add(&t, 0xa332f0, 0, "io_int_handler", SYM_GLOBAL, NULL);
	symtab_finish(&t, true);
	ck_assert_str_eq(at(&t, 0xa332b6), "__kprobes_text_end");	/* as the s390x guest's perf */
	symtab_free(&t);
}
END_TEST

/*
 * An ordered head and a tail out of order (as armhf's and s390x's module
 * symbols): the tail's symbols land between, before and after the head's,
 * and at an address the head has, the later one (the tail's) wins as after
 * a full sort.
 */
START_TEST(ordered_head_unordered_tail)
{
	static char names[300][8];
	uint64_t addr[300], x = 0x2545f4914f6cdd1dull;
	struct symtab t = { 0 };
	unsigned i, j, k, distinct = 0, last;

	for (k = 0; k < 300; k++) {
		if (k < 200) {
			addr[k] = 0x10000 + 0x100 * (uint64_t)k;
		} else {
			/* a head address, a gap between two, or beyond either end */
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			addr[k] = 0xff00 + 0x80 * (x % 404);
		}
		snprintf(names[k], sizeof(names[k]), "%c%u", k < 200 ? 'h' : 't', k);
		add(&t, addr[k], 0, names[k], SYM_GLOBAL, NULL);
	}
	symtab_finish(&t, false);
	for (k = 0; k < 300; k++) {
		for (j = 0; j < k && addr[j] != addr[k]; j++)
			;
		distinct += j == k;
	}
	ck_assert_uint_eq(t.nr, distinct);
	for (i = 0; i < t.nr; i++) {
		if (i)
			ck_assert_uint_lt(t.e[i - 1].start, t.e[i].start);
		/* of the symbols at one address, the last added wins */
		for (last = 0, k = 0; k < 300; k++)
			if (addr[k] == t.e[i].start)
				last = k;
		ck_assert_str_eq(t.e[i].name, names[last]);
	}
	symtab_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symtab");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, ends_and_lookups);
	tcase_add_test(tc, kallsyms_module_border);
	tcase_add_test(tc, one_per_address);
	tcase_add_test(tc, kallsyms_last_of_group);
	tcase_add_test(tc, ordered_head_unordered_tail);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
