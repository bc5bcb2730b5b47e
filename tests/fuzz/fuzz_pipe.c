// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_pipe.c - libFuzzer target: the reader on a real pipe (the read()
 * path with its growing buffer, not a mapping), fed by a thread, opened
 * with a prescan (the pipe is spooled to a temporary file first).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a reader that stops early closes the pipe: the feeder gets EPIPE, not a signal */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

struct feed {
	int fd;
	const uint8_t *data;
	size_t size;
};

static void *feeder(void *arg)
{
	struct feed *f = arg;
	size_t done = 0;

	while (done < f->size) {
		ssize_t n = write(f->fd, f->data + done, f->size - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(f->fd);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct srep_open_opts oo = { .flags = SREP_OPEN_PRESCAN };
	struct srep_session *s = NULL;
	struct srep_error err;
	struct feed f = { .data = data, .size = size };
	pthread_t t;
	char path[64];
	int fds[2];

	if (pipe(fds) < 0)
		return 0;
	f.fd = fds[1];
	if (pthread_create(&t, NULL, feeder, &f)) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	/* size decides the mode: odd sizes read as they stream, even ones prescanned */
	if (size & 1)
		oo.flags = 0;
	if (srep_session__open(&s, path, &oo, &err) == 0)
		fuzz_read_all(s);
	srep_session__delete(s);
	close(fds[0]);	/* the feeder stops on EPIPE if the reader quit early */
	pthread_join(t, NULL);
	return 0;
}
