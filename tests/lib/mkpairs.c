// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkpairs.c - writes the fixture pair of tests/cli/compare.sh into a
 * directory: the same small workload recorded on two "boards", a.data
 * (x86_64, little-endian, 64-bit) and b.data (s390x, big-endian, pids +400)
 * with known differences:
 *   - worker 1 runs 2 ms in B instead of 1 ms (CPU time, makespan);
 *   - worker 2 waits 300 us for a CPU in B instead of 100 us;
 *   - B has a task "extra", A a "kworker/0:1": unmatched on each side;
 *   - CPU 0 runs at 1.2 GHz in A and 1.8 GHz in B.
 * Everything else is equal. Usage: mkpairs DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"

#define T0 5170000000000ull
#define US 1000ull

static void workload(struct fixture *fx, bool b)
{
	int32_t off = b ? 400 : 0;
	uint64_t run1 = (b ? 2000 : 1000) * US, wait2 = (b ? 300 : 100) * US;

	fixture_cpu_frequency(fx, T0, 0, b ? 1800000 : 1200000, 0);
	fixture_comm(fx, T0 + 1, 0, 100 + off, 100 + off, "server", false);
	fixture_fork(fx, T0 + 10 * US, 0, 101 + off, 100 + off, 101 + off, 100 + off);
	fixture_comm(fx, T0 + 11 * US, 0, 101 + off, 101 + off, "worker", true);
	fixture_fork(fx, T0 + 20 * US, 0, 102 + off, 100 + off, 102 + off, 100 + off);
	fixture_comm(fx, T0 + 21 * US, 0, 102 + off, 102 + off, "worker", true);
	fixture_switch(fx, T0 + 100 * US, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "server",
		       100 + off, 120);
	fixture_waking(fx, T0 + 150 * US, 0, "worker", 101 + off, 120, 0);
	fixture_switch(fx, T0 + 200 * US, 0, "server", 100 + off, 120, FIXTURE_STATE_S, "worker",
		       101 + off, 120);
	fixture_switch(fx, T0 + 200 * US + run1, 0, "worker", 101 + off, 120, FIXTURE_STATE_S,
		       "swapper/0", 0, 120);
	fixture_waking(fx, T0 + 300 * US, 0, "worker", 102 + off, 120, 1);
	fixture_switch(fx, T0 + 300 * US + wait2, 1, "swapper/1", 0, 120, FIXTURE_STATE_R,
		       "worker", 102 + off, 120);
	fixture_switch(fx, T0 + 800 * US + wait2, 1, "worker", 102 + off, 120, FIXTURE_STATE_X,
		       "swapper/1", 0, 120);
	fixture_exit(fx, T0 + 801 * US + wait2, 1, 102 + off, 100 + off, 102 + off, 100 + off);
	if (b) {
		fixture_comm(fx, T0 + 5 * US, 1, 600, 600, "extra", false);
		fixture_switch(fx, T0 + 5000 * US, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "extra",
			       600, 120);
		fixture_switch(fx, T0 + 5100 * US, 1, "extra", 600, 120, FIXTURE_STATE_S,
			       "swapper/1", 0, 120);
	} else {
		fixture_comm(fx, T0 + 5 * US, 0, 20, 20, "kworker/0:1", false);
		fixture_switch(fx, T0 + 4000 * US, 0, "swapper/0", 0, 120, FIXTURE_STATE_R,
			       "kworker/0:1", 20, 120);
		fixture_switch(fx, T0 + 4050 * US, 0, "kworker/0:1", 20, 120, FIXTURE_STATE_S,
			       "swapper/0", 0, 120);
	}
	fixture_cpu_frequency(fx, T0 + 6000 * US, 0, b ? 1800000 : 1200000, 0);
}

int main(int argc, char **argv)
{
	char path[4096];
	int k;

	if (argc != 2) {
		fprintf(stderr, "usage: mkpairs DIR\n");
		return 2;
	}
	for (k = 0; k < 2; k++) {
		struct fixture_opts o = { .big_endian = k, .word_size = 8 };
		struct fixture *fx = fixture_new(&o);

		if (!fx)
			return 1;
		workload(fx, k);
		snprintf(path, sizeof(path), "%s/%c.data", argv[1], 'a' + k);
		if (fixture_write(fx, path, NULL)) {
			fprintf(stderr, "mkpairs: cannot write %s\n", path);
			return 1;
		}
		fixture_free(fx);
	}
	return 0;
}
