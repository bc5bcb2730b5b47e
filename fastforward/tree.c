// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tree.c - stopping the workload's whole process tree and letting it go.
 *
 * SIGSTOP to every process, not the cgroup v2 freezer: SIGSTOP needs no
 * cgroup of our own (cgroupfs is often read-only or v1-only, as on the
 * machine this was written on), does not move the workload into another
 * cgroup (which it could see), and a SIGSTOPped tree is what 'criu dump'
 * can seize and records as stopped, while a frozen cgroup must be handed
 * to criu with --freeze-cgroup. A SIGSTOP stops every thread of the process
 * (group stop); we wait until /proc shows each thread stopped, since the
 * signal is only queued when kill() returns and the count must be read once
 * nothing runs. The price: a parent inside the workload may see its child
 * stop and continue (SIGCHLD, waitpid(WUNTRACED)), as under a shell's ^Z.
 *
 * The tree is found in /proc by parent pid, repeated until a pass finds
 * nothing new once all are stopped (a process may fork while being
 * stopped). The tool is the workload's child subreaper, so a process whose
 * parent exited is reparented to us and stays in the tree.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ff_local.h"

#define STOP_WAIT_MS	10000	/* a thread in uninterruptible sleep may take a while */

static bool has(const struct ff_tree *t, int pid)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		if (t->pids[i] == pid)
			return true;
	}
	return false;
}

static int add(struct ff_tree *t, int pid)
{
	int *n;

	if (t->nr == t->cap) {
		n = realloc(t->pids, (t->cap ? t->cap * 2 : 16) * sizeof(*n));
		if (!n)
			return -1;
		t->pids = n;
		t->cap = t->cap ? t->cap * 2 : 16;
	}
	t->pids[t->nr++] = pid;
	return 0;
}

/* field 3 (state) and 4 (ppid) of a /proc stat file; false when gone */
static bool read_stat(const char *path, char *state, int *ppid)
{
	char buf[512], *p;
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the comm may hold spaces and ')' */
	return p && sscanf(p + 1, " %c %d", state, ppid) == 2;
}

/* stop the processes whose parent is in the tree (or us); the number added, -1 no memory */
static int add_children(struct ff_tree *t)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[64], state;
	int pid, ppid, added = 0, self = getpid();

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid = atoi(de->d_name);
		if (pid <= 0 || has(t, pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (!read_stat(path, &state, &ppid) || (ppid != self && !has(t, ppid)))
			continue;
		if (state == 'Z' || add(t, pid)) {
			if (state == 'Z')
				continue;
			closedir(d);
			return -1;
		}
		kill(pid, SIGSTOP);
		added++;
	}
	closedir(d);
	return added;
}

/*
 * 1 when every thread of 'pid' is stopped (or dead), 0 not yet (*running
 * names the thread and its state), -1 process gone
 */
static int all_stopped(int pid, unsigned *threads, char running[48])
{
	char path[96], state;
	struct dirent *de;
	int ppid, ret = 1;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while (ret == 1 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/stat", pid, de->d_name);
		if (!read_stat(path, &state, &ppid))
			continue;
		if (state != 'T' && state != 't' && state != 'Z' && state != 'X') {
			snprintf(running, 48, "%.20s is in state %c", de->d_name, state);
			ret = 0;
		}
		(*threads)++;
	}
	closedir(d);
	return ret;
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

/* wait until everything in the tree is stopped; drops processes that left */
static int wait_stopped(struct ff_tree *t, int root, struct srep_error *err)
{
	long waited_us = 0, step = 50;
	char running[48] = "";
	size_t i;
	int r;

	for (;;) {
		t->nr_threads = 0;
		for (i = 0, r = 1; r == 1 && i < t->nr; i++) {
			r = all_stopped(t->pids[i], &t->nr_threads, running);
			if (r < 0 && t->pids[i] != root) {
				t->pids[i--] = t->pids[--t->nr];
				r = 1;
			}
		}
		if (r != 0)
			return 0;
		if (waited_us > STOP_WAIT_MS * 1000L)
			return srep_error__set(err, SREP_E_IO,
					       "process %d of the workload did not stop in %d s: thread %s",
					       t->pids[i - 1], STOP_WAIT_MS / 1000, running);
		sleep_us(step);
		waited_us += step;
		step = step < 1000 ? step * 2 : step;
	}
}

int tree_stop(struct ff_tree *t, int root, struct srep_error *err)
{
	int added, r;

	t->nr = 0;
	if (add(t, root))
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	kill(root, SIGSTOP);
	do {
		added = add_children(t);
		if (added < 0) {
			tree_resume(t);
			return srep_error__set(err, SREP_E_NOMEM, "no memory");
		}
		r = wait_stopped(t, root, err);
		if (r) {
			tree_resume(t);
			return r;
		}
	} while (added > 0);
	return 0;
}

void tree_resume(const struct ff_tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		kill(t->pids[i], SIGCONT);
}

void tree_kill(const struct ff_tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		kill(t->pids[i], SIGKILL);
}

void tree_free(struct ff_tree *t)
{
	free(t->pids);
	memset(t, 0, sizeof(*t));
}
