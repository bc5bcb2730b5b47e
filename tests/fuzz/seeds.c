// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seeds.c - the fuzzers' seed corpora from the fixture writer: small traces
 * in every byte order, word size, container and compression, with every
 * kind of record and tracepoint the reader decodes, and their lossless
 * JSON. Usage: seeds DIR (writes DIR/NAME.data and DIR/NAME.json).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"

#define T0 1000000000ull

static void scenario(struct fixture *fx)
{
	static const uint64_t chain[] = { 0xffffffff81000010ull, 0x401000 };
	int i;

	fixture_comm(fx, T0, 0, 10, 10, "a", false);
	fixture_fork(fx, T0 + 1, 0, 11, 10, 11, 10);
	fixture_mmap2(fx, T0 + 2, 0, 10, 10, 0x400000, 0x1000, 0, "/bin/a");
	for (i = 0; i < 6; i++) {
		fixture_switch(fx, T0 + 10 + (uint64_t)i * 10, i & 1, "a", 10, 120,
			       FIXTURE_STATE_S, "b", 11, 120);
		fixture_waking(fx, T0 + 15 + (uint64_t)i * 10, 1, "a", 10, 120, 0);
	}
	fixture_next_callchain(fx, 2, chain);
	fixture_switch(fx, T0 + 90, 0, "b", 11, 120, FIXTURE_STATE_D, "a", 10, 120);
	fixture_wakeup_new(fx, T0 + 91, 1, "c", 12, 120, 1);
	fixture_migrate(fx, T0 + 92, 1, "c", 12, 120, 1, 0);
	fixture_stat_runtime(fx, T0 + 93, 0, "a", 10, 5000, 77);
	fixture_cpu_idle(fx, T0 + 94, 1, 1);
	fixture_cpu_frequency(fx, T0 + 95, 0, 1800000, 0);
	fixture_exec(fx, T0 + 96, 0, "/bin/true", 11, 11);
	fixture_lost(fx, 0, T0 + 97, 1, 3);
	fixture_switch_record(fx, T0 + 98, 0, 10, 10, false, false);
	fixture_tp_exit(fx, T0 + 99, 1, "c", 12, 120);
	fixture_exit(fx, T0 + 100, 1, 12, 10, 12, 10);
	fixture_finished_round(fx);
}

int main(int argc, char **argv)
{
	static const struct fixture_opts opts[] = {
		{ .word_size = 8 }, { .big_endian = true, .word_size = 8 },
		{ .big_endian = true, .word_size = 4 }, { .word_size = 4 },
		{ .word_size = 8, .pipe = true }, { .big_endian = true, .word_size = 8, .pipe = true },
		{ .word_size = 8, .compressed = true }, { .word_size = 8, .compressed2 = true, .pipe = true },
		{ .word_size = 8, .kernel = FIXTURE_KERNEL_6_18, .tp_callchain = true },
		{ .word_size = 8, .attr_size_extra = 8 },
	};
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: seeds DIR\n");
		return 2;
	}
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct fixture *fx = fixture_new(&opts[i]);
		char path[4096];

		if (!fx)
			return 1;
		scenario(fx);
		snprintf(path, sizeof(path), "%s/fixture-%02zu.data", argv[1], i);
		if (fixture_write(fx, path, NULL)) {
			fprintf(stderr, "seeds: cannot write %s\n", path);
			return 1;
		}
		fixture_free(fx);
	}
	return 0;
}
