// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ff_spin - a CPU-bound, deterministic workload for the fastforward tests:
 * ff_spin ROUNDS [CHILDREN] spins ROUNDS steps of a checksum in itself and
 * in each child process, and prints the checksums (children first, in
 * order, then its own), so an observed run must print exactly what an
 * unobserved one does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long long spin(unsigned long long rounds, unsigned long long seed)
{
	unsigned long long x = seed, i;

	for (i = 0; i < rounds; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull + (x >> 29);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long long rounds = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000ull;
	int children = argc > 2 ? atoi(argv[2]) : 0, i, status;
	pid_t pid;

	for (i = 0; i < children; i++) {
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			/* children print in order: each waits for its elder */
			printf("child %d %llx\n", i, spin(rounds, (unsigned long long)i + 2));
			return 0;
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	printf("main %llx\n", spin(rounds, 1));
	return 0;
}
