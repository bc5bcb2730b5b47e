// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_maps.c - module placement per process: lookups at the edges, a new
 * mapping over old ones (inside, across, over several), fork, exec, many
 * processes, a length that runs past the top of the address space.
 */
#include "testutil.h"
#include "sym_local.h"

static uint32_t dso_at(struct maps *m, int32_t pid, uint64_t addr)
{
	const struct map_entry *e = maps_find(m, pid, addr);

	return e ? e->dso : UINT32_MAX;
}

START_TEST(place_and_find)
{
	struct maps m;

	maps_init(&m);
	ck_assert_uint_eq(dso_at(&m, 1, 0x1000), UINT32_MAX);
	ck_assert_int_eq(maps_insert(&m, 1, 0x2000, 0x1000, 0, 7), 0);
	ck_assert_int_eq(maps_insert(&m, 1, 0x1000, 0x1000, 0, 6), 0);
	ck_assert_uint_eq(dso_at(&m, 1, 0xfff), UINT32_MAX);
	ck_assert_uint_eq(dso_at(&m, 1, 0x1000), 6);
	ck_assert_uint_eq(dso_at(&m, 1, 0x1fff), 6);
	ck_assert_uint_eq(dso_at(&m, 1, 0x2000), 7);
	ck_assert_uint_eq(dso_at(&m, 1, 0x3000), UINT32_MAX);
	ck_assert_uint_eq(dso_at(&m, 2, 0x1000), UINT32_MAX);	/* another process */
	ck_assert_int_eq(maps_insert(&m, 1, 0x5000, 0, 0, 9), 0);	/* empty: ignored */
	ck_assert_uint_eq(dso_at(&m, 1, 0x5000), UINT32_MAX);
	/* arm64's kernel map runs to the top; a length past 2^64 is cut there */
	ck_assert_int_eq(maps_insert(&m, -1, 0xffffd637e0410000ull,
				     UINT64_MAX - 0xffffd637e0410000ull, 0, 0), 0);
	ck_assert_uint_eq(dso_at(&m, -1, 0xfffffffffffff000ull), 0);
	ck_assert_int_eq(maps_insert(&m, 3, 0xfff0, UINT64_MAX, 0, 5), 0);
	ck_assert_uint_eq(dso_at(&m, 3, 0xfffffffffffff000ull), 5);
	ck_assert_uint_eq(dso_at(&m, 3, 0xffef), UINT32_MAX);
	maps_free(&m);
}
END_TEST

/* a new mapping replaces what it overlaps; pgoff follows a trimmed start */
START_TEST(overlaps)
{
	const struct map_entry *e;
	struct maps m;

	maps_init(&m);
	maps_insert(&m, 1, 0x10000, 0x10000, 0x100, 1);
	maps_insert(&m, 1, 0x14000, 0x1000, 0, 2);		/* splits 1 in two */
	ck_assert_uint_eq(dso_at(&m, 1, 0x13fff), 1);
	ck_assert_uint_eq(dso_at(&m, 1, 0x14000), 2);
	e = maps_find(&m, 1, 0x15000);
	ck_assert_uint_eq(e->dso, 1);
	ck_assert_uint_eq(e->start, 0x15000);
	ck_assert_uint_eq(e->pgoff, 0x100 + 0x5000);
	maps_insert(&m, 1, 0x12000, 0x6000, 0, 3);		/* over the end of 1, all of 2, the start of 1' */
	ck_assert_uint_eq(dso_at(&m, 1, 0x11fff), 1);
	ck_assert_uint_eq(dso_at(&m, 1, 0x14000), 3);
	ck_assert_uint_eq(dso_at(&m, 1, 0x17fff), 3);
	e = maps_find(&m, 1, 0x18000);
	ck_assert_uint_eq(e->dso, 1);
	ck_assert_uint_eq(e->pgoff, 0x100 + 0x8000);
	maps_insert(&m, 1, 0x0, 0x100000, 0, 4);		/* covers everything */
	ck_assert_uint_eq(dso_at(&m, 1, 0x11000), 4);
	ck_assert_uint_eq(dso_at(&m, 1, 0x1f000), 4);
	ck_assert_uint_eq(m.procs[0].nr, 1);
	maps_free(&m);
}
END_TEST

START_TEST(fork_and_exec)
{
	struct maps m;
	int32_t pid;

	maps_init(&m);
	maps_insert(&m, 10, 0x1000, 0x1000, 0, 1);
	ck_assert_int_eq(maps_fork(&m, 10, 11), 0);
	ck_assert_uint_eq(dso_at(&m, 11, 0x1000), 1);
	maps_insert(&m, 11, 0x1000, 0x1000, 0, 2);		/* the child's own change */
	ck_assert_uint_eq(dso_at(&m, 10, 0x1000), 1);
	ck_assert_uint_eq(dso_at(&m, 11, 0x1000), 2);
	maps_clear(&m, 11);					/* exec */
	ck_assert_uint_eq(dso_at(&m, 11, 0x1000), UINT32_MAX);
	ck_assert_int_eq(maps_fork(&m, 99, 12), 0);		/* unknown parent: empty */
	ck_assert_uint_eq(dso_at(&m, 12, 0x1000), UINT32_MAX);
	ck_assert_int_eq(maps_fork(&m, 10, 10), 0);		/* a thread: nothing to do */
	/* many processes: the pid table grows and every one is still found */
	for (pid = 100; pid < 5100; pid++)
		ck_assert_int_eq(maps_fork(&m, 10, pid), 0);
	for (pid = 100; pid < 5100; pid += 499)
		ck_assert_uint_eq(dso_at(&m, pid, 0x1800), 1);
	maps_free(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("maps");
	TCase *tc = tcase_create("maps");

	tcase_add_test(tc, place_and_find);
	tcase_add_test(tc, overlaps);
	tcase_add_test(tc, fork_and_exec);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
