// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * late_wakeups.c - a workload made to be late, for the latency trigger's
 * test: a periodic sleeper (10 ms sleeps) and, with "late", a real-time
 * thread on the same CPU that spins BURST_MS at a time, so a sleeper woken
 * during a burst waits for the CPU for hundreds of milliseconds. With
 * "idle" only the sleeper runs and is never late. It prints the sleeper's
 * tid, and exits on its own after SECONDS.
 *
 *	late_wakeups late|idle SECONDS [CPU]
 *
 * "late" needs root (SCHED_FIFO); the kernel's real-time throttling leaves
 * the CPU to others for at least 5% of each second anyway.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BURST_MS	600
#define PAUSE_MS	400

static volatile int running = 1;
static int cpu;

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *burst(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec pause = { 0, PAUSE_MS * 1000000L };
	double end;

	(void)arg;
	pin();
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("late_wakeups: SCHED_FIFO");
	while (running) {
		for (end = now_ms() + BURST_MS; running && now_ms() < end;)
			;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	struct timespec ten_ms = { 0, 10 * 1000000L };

	(void)arg;
	pin();
	printf("sleeper tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	while (running)
		nanosleep(&ten_ms, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec d = { 0, 0 };
	pthread_t t[2];
	int n = 0, i;

	if (argc < 3 || (strcmp(argv[1], "late") && strcmp(argv[1], "idle"))) {
		fprintf(stderr, "usage: late_wakeups late|idle SECONDS [CPU]\n");
		return 2;
	}
	cpu = argc > 3 ? atoi(argv[3]) : 0;
	d.tv_sec = atoi(argv[2]);
	if (pthread_create(&t[n++], NULL, sleeper, NULL))
		return 1;
	if (!strcmp(argv[1], "late") && pthread_create(&t[n++], NULL, burst, NULL))
		return 1;
	nanosleep(&d, NULL);
	running = 0;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
