// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_regs.c - perf's user registers handed to the unwinder as perf 6.1
 * hands them to libdw, per architecture: which DWARF register gets which
 * perf register, which are left out, the PC and SP; and which register
 * numbering a trace uses (its HEADER_ARCH and the sample's ABI).
 */
#include "testutil.h"
#include "sym_local.h"

/* every register present, perf register i holding 0x100 + i */
static struct unwind_regs regs_of(unsigned machine, uint64_t mask)
{
	static uint64_t values[64];
	struct unwind_regs_in in = { .abi = 2, .mask = mask, .regs = values };
	struct unwind_regs out;
	unsigned i;

	for (i = 0; i < 64; i++) {
		if (mask >> i & 1)
			values[in.nr++] = 0x100 + i;
	}
	ck_assert(regs_to_dwarf(machine, &in, &out));
	return out;
}

START_TEST(machines)
{
	ck_assert_uint_eq(regs_machine("x86_64", 2), 62);
	ck_assert_uint_eq(regs_machine("x86_64", 1), 3);	/* a 32-bit process */
	ck_assert_uint_eq(regs_machine("i686", 1), 3);
	ck_assert_uint_eq(regs_machine("aarch64", 2), 183);
	ck_assert_uint_eq(regs_machine("aarch64", 1), 40);
	ck_assert_uint_eq(regs_machine("armv7l", 1), 40);
	ck_assert_uint_eq(regs_machine("s390x", 2), 22);
	ck_assert_uint_eq(regs_machine("riscv64", 2), 0);
	ck_assert_uint_eq(regs_machine(NULL, 2), 0);
}
END_TEST

START_TEST(x86)
{
	struct unwind_regs r = regs_of(62, 0xff0fffull);

	ck_assert_uint_eq(r.nr_dwarf, 17);
	ck_assert_uint_eq(r.dwarf[0], 0x100);	/* rax */
	ck_assert_uint_eq(r.dwarf[1], 0x103);	/* rdx is perf's DX (3) */
	ck_assert_uint_eq(r.dwarf[3], 0x101);	/* rbx is perf's BX (1) */
	ck_assert_uint_eq(r.dwarf[7], 0x107);	/* rsp */
	ck_assert_uint_eq(r.dwarf[8], 0x110);	/* r8 is perf's 16 */
	ck_assert_uint_eq(r.dwarf[16], 0x108);	/* rip: the IP, no explicit PC */
	ck_assert(!r.set_pc);
	ck_assert_uint_eq(r.ip, 0x108);
	ck_assert_uint_eq(r.sp, 0x107);
	r = regs_of(3, 0xfffull);
	ck_assert_uint_eq(r.nr_dwarf, 9);
	ck_assert_uint_eq(r.dwarf[1], 0x102);	/* ecx */
	ck_assert_uint_eq(r.dwarf[4], 0x107);	/* esp */
	ck_assert_uint_eq(r.dwarf[8], 0x108);	/* eip */
}
END_TEST

START_TEST(arm)
{
	struct unwind_regs r = regs_of(183, 0x1ffffffffull);

	ck_assert_uint_eq(r.nr_dwarf, 32);
	ck_assert_uint_eq(r.dwarf[29], 0x11d);	/* x29 */
	ck_assert_uint_eq(r.dwarf[30], 0x11e);	/* lr */
	ck_assert_uint_eq(r.dwarf[31], 0x11f);	/* sp */
	ck_assert(r.set_pc);
	ck_assert_uint_eq(r.pc, 0x120);
	ck_assert_uint_eq(r.sp, 0x11f);
	/* perf -g on arm64 samples the link register alone: the rest reads 0 */
	r = regs_of(183, 1ull << 30);
	ck_assert_uint_eq(r.dwarf[30], 0x11e);
	ck_assert_uint_eq(r.dwarf[29], 0);
	ck_assert_uint_eq(r.pc, 0);
	r = regs_of(40, 0xffffull);
	ck_assert_uint_eq(r.nr_dwarf, 16);
	ck_assert_uint_eq(r.dwarf[15], 0x10f);	/* the PC is r15, set as a register */
	ck_assert(!r.set_pc);
	ck_assert_uint_eq(r.ip, 0x10f);
	ck_assert_uint_eq(r.sp, 0x10d);
}
END_TEST

START_TEST(s390)
{
	struct unwind_regs r = regs_of(22, 0x3ffffffffull);

	ck_assert_uint_eq(r.nr_dwarf, 32);
	ck_assert_uint_eq(r.dwarf[15], 0x10f);	/* r15 */
	ck_assert_uint_eq(r.dwarf[16], 0x110);	/* f0 */
	ck_assert_uint_eq(r.dwarf[17], 0x112);	/* f2 */
	ck_assert_uint_eq(r.dwarf[20], 0x111);	/* f1 */
	ck_assert_uint_eq(r.dwarf[31], 0x11f);	/* f15 */
	ck_assert(r.set_pc);
	ck_assert_uint_eq(r.pc, 0x121);		/* perf's PC is register 33 */
	ck_assert_uint_eq(r.sp, 0x10f);
}
END_TEST

START_TEST(unknown_machine)
{
	struct unwind_regs_in in = { .abi = 2 };
	struct unwind_regs out;

	ck_assert(!regs_to_dwarf(0, &in, &out));
	ck_assert(!regs_to_dwarf(243, &in, &out));	/* RISC-V: not unwound */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("regs");
	TCase *tc = tcase_create("perf to dwarf");

	tcase_add_test(tc, machines);
	tcase_add_test(tc, x86);
	tcase_add_test(tc, arm);
	tcase_add_test(tc, s390);
	tcase_add_test(tc, unknown_machine);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
