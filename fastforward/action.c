// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * action.c - the checkpoint action: a command template with {pid}, {n},
 * {count} and {dir}, run through /bin/sh while the workload is stopped.
 * Its output is captured (the last 64 KiB), so a failure can be shown
 * with what the command said, and the workload's terminal stays its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ff_local.h"

#define OUTPUT_KEEP	(64u << 10)

char *srep_ff_expand(const char *tmpl, const struct srep_ff_subst *s)
{
	char *out = NULL, num[32];
	const char *p, *val;
	size_t len = 0, skip;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (p = tmpl; *p; p += skip) {
		val = NULL;
		skip = 1;
		if (!strncmp(p, "{pid}", 5)) {
			snprintf(num, sizeof(num), "%d", s->pid);
			val = num, skip = 5;
		} else if (!strncmp(p, "{n}", 3)) {
			snprintf(num, sizeof(num), "%zu", s->n);
			val = num, skip = 3;
		} else if (!strncmp(p, "{count}", 7)) {
			snprintf(num, sizeof(num), "%" PRIu64, s->count);
			val = num, skip = 7;
		} else if (!strncmp(p, "{dir}", 5)) {
			val = s->dir, skip = 5;
		}
		if (val)
			fputs(val, f);
		else
			fputc(*p, f);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void child(const char *cmd, int out)
{
	sigset_t none;
	int null = open("/dev/null", O_RDONLY);

	/* the engine blocks the signals it waits for; the command must not inherit that */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(out, STDERR_FILENO) < 0)
		_exit(127);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* keep the last OUTPUT_KEEP bytes: the end of a failure says the most */
static int keep(struct srep_ff_action_result *r, const char *buf, size_t n)
{
	char *p;

	if (r->len + n > OUTPUT_KEEP) {
		size_t drop = r->len + n - OUTPUT_KEEP;

		if (drop >= r->len) {
			buf += drop - r->len;
			n -= drop - r->len;
			r->len = 0;
		} else {
			memmove(r->output, r->output + drop, r->len - drop);
			r->len -= drop;
		}
	}
	p = realloc(r->output, r->len + n + 1);
	if (!p)
		return -1;
	r->output = p;
	memcpy(r->output + r->len, buf, n);
	r->len += n;
	r->output[r->len] = 0;
	return 0;
}

int srep_ff_action_run(const char *cmd, struct srep_ff_action_result *r,
		       struct srep_error *err)
{
	uint64_t start = now_ns();
	char buf[4096];
	int pipefd[2], pid, ret = 0;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (pipe2(pipefd, O_CLOEXEC))
		return srep_error__set(err, SREP_E_IO, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0)
		child(cmd, pipefd[1]);
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return srep_error__set(err, SREP_E_IO, "fork: %s", strerror(errno));
	}
	while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (!ret && keep(r, buf, (size_t)n))
			ret = srep_error__set(err, SREP_E_NOMEM, "no memory for the action's output");
	}
	close(pipefd[0]);
	while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
		;
	r->ns = now_ns() - start;
	return ret;
}

void srep_ff_action_result_free(struct srep_ff_action_result *r)
{
	free(r->output);
	memset(r, 0, sizeof(*r));
}
