// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload.c - the command recorded (or fast-forwarded) with '-- CMD':
 * forked first and held before exec, so its counters can be opened on its
 * pid with enable_on_exec; released when everything is ready. A failed exec comes back through a
 * close-on-exec pipe as the errno, so the recorder can say why.
 *
 * The caller is made the command's child subreaper (PR_SET_CHILD_SUBREAPER),
 * so the processes the command leaves behind come to us: reaped as they end,
 * and ended with it when we have to stop it (a full disk, a signal), where
 * they would otherwise run on, or wait forever for a parent that is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rec_local.h"

#define END_WAIT_MS	2000	/* SIGTERM to the command, then SIGKILL after this */
#define ORPHAN_ROUNDS	64	/* each round ends one generation of what it left */

static void child(int go, int report, char *const *argv, bool stdout_is_trace)
{
	sigset_t all;
	char c = 0;
	int e;

	/* the recorder blocks signals it takes over; the workload must not inherit that */
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	signal(SIGPIPE, SIG_DFL);
	/* our stdout carries the trace (-o -): the command writes to stderr instead */
	if (stdout_is_trace && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g')
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int srep_rec_workload__prepare(struct srep_rec_workload *w, char *const *argv,
			       bool stdout_is_trace, struct srep_error *err)
{
	int go[2], report[2];

	memset(w, 0, sizeof(*w));
	w->go_fd = w->err_fd = -1;
	prctl(PR_GET_CHILD_SUBREAPER, &w->was_subreaper);
	w->subreaper = !prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(go, O_CLOEXEC))
		return srep_error__set(err, SREP_E_IO, "pipe: %s", strerror(errno));
	if (pipe2(report, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return srep_error__set(err, SREP_E_IO, "pipe: %s", strerror(errno));
	}
	w->pid = fork();
	if (w->pid == 0) {
		close(go[1]);
		close(report[0]);
		child(go[0], report[1], argv, stdout_is_trace);
	}
	close(go[0]);
	close(report[1]);
	if (w->pid < 0) {
		w->pid = 0;
		close(go[1]);
		close(report[0]);
		return srep_error__set(err, SREP_E_IO, "fork: %s", strerror(errno));
	}
	w->go_fd = go[1];
	w->err_fd = report[0];
	return 0;
}

int srep_rec_workload__start(struct srep_rec_workload *w, char *const *argv,
			     struct srep_error *err)
{
	ssize_t r;
	int e = 0;

	while ((r = write(w->go_fd, "g", 1)) < 0 && errno == EINTR)
		;
	close(w->go_fd);
	w->go_fd = -1;
	if (r != 1)
		return srep_error__set(err, SREP_E_IO, "cannot start '%s': %s", argv[0], strerror(errno));
	/* end of file: exec closed the pipe; an int: exec failed with it */
	while ((r = read(w->err_fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(w->err_fd);
	w->err_fd = -1;
	if (r == (ssize_t)sizeof(e))
		return srep_error__set(err, SREP_E_INVAL, "cannot run '%s': %s", argv[0], strerror(e));
	return 0;
}

/* any child: the command, or one of the orphans it left us */
bool srep_rec_workload__reap(struct srep_rec_workload *w)
{
	int pid, status;

	if (!w->pid)
		return false;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == w->pid) {
			w->exited = true;
			w->status = status;
		}
	}
	return w->exited;
}

void srep_rec_workload__kill(struct srep_rec_workload *w)
{
	int status;

	if (w->go_fd >= 0)
		close(w->go_fd);	/* a held child sees end of file and leaves */
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (!w->pid || w->exited)
		return;
	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->exited = true;
	w->status = status;
}

/* SIGKILL and reap each child listed in 'path' (a task's children file); how many */
static int kill_children_in(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid, n = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%d", &pid) == 1) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		n++;
	}
	fclose(f);
	return n;
}

/* our children now are what the command left: end them; theirs come to us in turn */
static void end_orphans(void)
{
	char path[64];
	struct dirent *de;
	int round, n;
	DIR *d;

	for (round = 0; round < ORPHAN_ROUNDS; round++) {
		d = opendir("/proc/self/task");
		if (!d)
			return;
		n = 0;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/self/task/%.16s/children", de->d_name);
			n += kill_children_in(path);
		}
		closedir(d);
		if (!n)
			return;
	}
}

void srep_rec_workload__end(struct srep_rec_workload *w)
{
	int waited;

	if (!w->pid)
		return;
	if (!srep_rec_workload__reap(w)) {
		kill(w->pid, SIGTERM);
		for (waited = 0; waited < END_WAIT_MS && !srep_rec_workload__reap(w); waited += 10)
			usleep(10000);
	}
	srep_rec_workload__kill(w);
	end_orphans();
}

void srep_rec_workload__done(struct srep_rec_workload *w)
{
	if (w->subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, w->was_subreaper);
	w->subreaper = false;
}
