// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mklbr.c - writes the branch-stack profile of tests/cli/simpoint-lbr.sh:
 * one task "phases" sampled on cycles every 10,000 with an 8-entry branch
 * stack (perf record -b -c 10000), in six phases A B A B A B of 1,000
 * samples each. Phase A loops over two basic blocks, 0x401000-0x40100c
 * (13 bytes to its branch) and 0x401020-0x40104c (45 bytes); phase B over
 * 0x401100-0x40110c and 0x401140-0x40116c, in 64-byte lines that hold no
 * code of A. The first sample's stack does not chain (its code is then
 * the sample's address, 0x402004). With "threads", a second thread (tid
 * 51) runs phase A's loop all along, one sample after each of the first's.
 * Usage: mklbr FILE le64|le32|be64|be32 [threads]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "reader.h"

#define T0	9000000000ull
#define NR_LBR	8
#define PHASE_SAMPLES 1000

/* a loop of two blocks at @base: (from, to) pairs, newest first, the newest jumping to @base */
static void loop_stack(uint64_t base, uint64_t second, uint64_t *lbr)
{
	for (int i = 0; i < NR_LBR; i++) {
		bool back = !(i & 1);	/* the jump from the second block back to the first */

		lbr[2 * i] = back ? second + 0x2c : base + 0xc;
		lbr[2 * i + 1] = back ? base : second;
	}
}

static int write_profile(const char *path, bool big_endian, int word_size, bool threads)
{
	struct fixture_opts fo = { .big_endian = big_endian, .word_size = word_size };
	struct fixture *fx = fixture_new(&fo);
	uint64_t lbr[2 * NR_LBR], steady[2 * NR_LBR], t = T0;
	static const uint64_t broken[4] = { 0x400000, 0x500000, 0x300000, 0x600000 };
	int cyc, ret;

	if (!fx)
		return -1;
	cyc = fixture_add_event(fx, PERF_TYPE_HARDWARE, 0, PERF_SAMPLE_BRANCH_STACK);
	fixture_event_fixed_period(fx, cyc, 10000);
	fixture_comm(fx, T0 - 1000, 0, 50, 50, "phases", false);
	fixture_set_current(fx, 0, 50, 50);
	if (threads) {
		fixture_comm(fx, T0 - 500, 1, 50, 51, "steady", false);
		fixture_set_current(fx, 1, 50, 51);
	}
	loop_stack(0x401000, 0x401020, steady);
	fixture_next_branches(fx, 2, broken);
	fixture_sample(fx, cyc, t, 0, 50, 50, 0x402004, 10000, 0, NULL);
	for (int phase = 0; phase < 6; phase++) {
		uint64_t base = phase & 1 ? 0x401100 : 0x401000;

		loop_stack(base, base + (phase & 1 ? 0x40 : 0x20), lbr);
		for (int i = 0; i < PHASE_SAMPLES; i++) {
			fixture_next_branches(fx, NR_LBR, lbr);
			fixture_sample(fx, cyc, t += 10000, 0, 50, 50, base + 4, 10000, 0, NULL);
			if (!threads)
				continue;
			fixture_next_branches(fx, NR_LBR, steady);
			fixture_sample(fx, cyc, t + 5000, 1, 50, 51, 0x401004, 10000, 0, NULL);
		}
	}
	ret = fixture_write(fx, path, NULL);
	fixture_free(fx);
	return ret;
}

int main(int argc, char **argv)
{
	bool threads = argc == 4 && !strcmp(argv[3], "threads");

	if (argc < 3 || argc > 4 || (argc == 4 && !threads) || strlen(argv[2]) != 4 ||
	    (argv[2][0] != 'l' && argv[2][0] != 'b')) {
		fprintf(stderr, "usage: mklbr FILE le64|le32|be64|be32 [threads]\n");
		return 2;
	}
	if (write_profile(argv[1], argv[2][0] == 'b', atoi(argv[2] + 2) == 32 ? 4 : 8, threads)) {
		fprintf(stderr, "mklbr: cannot write %s\n", argv[1]);
		return 1;
	}
	return 0;
}
