// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * regs.c - the user registers a --call-graph dwarf sample carries (perf's
 * register numbering, one u64 per bit of the attr's sample_regs_user) as
 * the DWARF registers an unwinder starts from.
 *
 * The hand-off repeats perf 6.1's tools/perf/arch/{x86,arm64,arm,s390}/
 * util/unwind-libdw.c register for register, including what each one sets
 * and leaves out (ARM sets r0-r15 and no explicit PC; x86 passes the IP as
 * DWARF register 16 or 8): libdw 0.188 then unwinds exactly as it did for
 * the target's perf. Other architectures are not unwound.
 */
#include <string.h>

#include "sym_local.h"

/* ELF machine numbers (elf.h would do, but this file needs no libelf) */
#define EM_386_		3
#define EM_ARM_		40
#define EM_X86_64_	62
#define EM_AARCH64_	183
#define EM_S390_	22

/* perf_regs.h numbering of the registers used below */
enum { X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP,
       X86_R8 = 16 };
enum { ARM64_LR = 30, ARM64_SP = 31, ARM64_PC = 32 };
enum { ARM_SP = 13, ARM_PC = 15 };
enum { S390_FP0 = 16, S390_PC = 33 };

/* value of perf register 'r', 0 when the sample lacks it (as perf's REG()) */
static uint64_t reg(const struct unwind_regs_in *in, unsigned r)
{
	uint64_t below;

	if (r >= 64 || !(in->mask >> r & 1))
		return 0;
	below = r ? in->mask & ((1ull << r) - 1) : 0;
	return (uint32_t)__builtin_popcountll(below) < in->nr ? in->regs[__builtin_popcountll(below)] : 0;
}

static void x86_64(const struct unwind_regs_in *in, struct unwind_regs *out)
{
	static const uint8_t from[17] = { X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP,
					  X86_SP, X86_R8, X86_R8 + 1, X86_R8 + 2, X86_R8 + 3,
					  X86_R8 + 4, X86_R8 + 5, X86_R8 + 6, X86_R8 + 7, X86_IP };
	unsigned i;

	for (i = 0; i < 17; i++)
		out->dwarf[i] = reg(in, from[i]);
	out->nr_dwarf = 17;
}

static void i386(const struct unwind_regs_in *in, struct unwind_regs *out)
{
	static const uint8_t from[9] = { X86_AX, X86_CX, X86_DX, X86_BX, X86_SP, X86_BP, X86_SI,
					 X86_DI, X86_IP };
	unsigned i;

	for (i = 0; i < 9; i++)
		out->dwarf[i] = reg(in, from[i]);
	out->nr_dwarf = 9;
}

static void arm64(const struct unwind_regs_in *in, struct unwind_regs *out)
{
	unsigned i;

	for (i = 0; i <= ARM64_SP; i++)		/* x0-x30, then sp */
		out->dwarf[i] = reg(in, i);
	out->nr_dwarf = 32;
	out->set_pc = true;
	out->pc = reg(in, ARM64_PC);
}

static void arm(const struct unwind_regs_in *in, struct unwind_regs *out)
{
	unsigned i;

	for (i = 0; i <= ARM_PC; i++)		/* r0-r15, the PC among them */
		out->dwarf[i] = reg(in, i);
	out->nr_dwarf = 16;
}

static void s390(const struct unwind_regs_in *in, struct unwind_regs *out)
{
	/* DWARF 16-31 hold f0 f2 f4 f6 f1 f3 f5 f7 f8 f10 f12 f14 f9 f11 f13 f15 */
	static const uint8_t fpr[16] = { 0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15 };
	unsigned i;

	for (i = 0; i < 16; i++) {
		out->dwarf[i] = reg(in, i);
		out->dwarf[16 + i] = reg(in, S390_FP0 + fpr[i]);
	}
	out->nr_dwarf = 32;
	out->set_pc = true;
	out->pc = reg(in, S390_PC);
}

bool regs_to_dwarf(unsigned machine, const struct unwind_regs_in *in, struct unwind_regs *out)
{
	memset(out, 0, sizeof(*out));
	switch (machine) {
	case EM_X86_64_:
		x86_64(in, out);
		out->ip = reg(in, X86_IP);
		out->sp = reg(in, X86_SP);
		return true;
	case EM_386_:
		i386(in, out);
		out->ip = reg(in, X86_IP);
		out->sp = reg(in, X86_SP);
		return true;
	case EM_AARCH64_:
		arm64(in, out);
		out->ip = out->pc;
		out->sp = reg(in, ARM64_SP);
		return true;
	case EM_ARM_:
		arm(in, out);
		out->ip = reg(in, ARM_PC);
		out->sp = reg(in, ARM_SP);
		return true;
	case EM_S390_:
		s390(in, out);
		out->ip = out->pc;
		out->sp = reg(in, 15);		/* r15 is s390's stack pointer */
		return true;
	default:
		return false;
	}
}

/*
 * The register numbering is the recording kernel's, named by the trace's
 * HEADER_ARCH (uname -m); a 32-bit process on a 64-bit kernel reports the
 * 32-bit ABI and the 32-bit numbering.
 */
unsigned regs_machine(const char *arch, uint64_t abi)
{
	bool compat = abi == 1;

	if (!arch)
		return 0;
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "amd64"))
		return compat ? EM_386_ : EM_X86_64_;
	if (arch[0] == 'i' && !strcmp(arch + 2, "86"))
		return EM_386_;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return compat ? EM_ARM_ : EM_AARCH64_;
	if (!strncmp(arch, "arm", 3))
		return EM_ARM_;
	if (!strncmp(arch, "s390", 4))
		return EM_S390_;
	return 0;
}
