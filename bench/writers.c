// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * writers.c - how should the recorder write? A drain loop produces CHUNK KiB
 * every so often (RATE MiB/s, copied as from a ring buffer) and hands each
 * chunk to one of four writers; what matters is how long the drain is held
 * up by the handoff (the rings overflow meanwhile) and the CPU it all costs.
 *
 *	writers sync|thread|aio|uring OUTPUT [CHUNK_KB RATE_MBS TOTAL_MB]
 *
 * sync    write(2) in the drain loop (perf record without --aio)
 * thread  a queue and one writer thread (what record/writer.c does)
 * aio     POSIX aio_write, requests in flight until complete (glibc: threads)
 * uring   io_uring IORING_OP_WRITE through raw syscalls; writes to a file
 *         carry offsets, but writes to a pipe from separate submissions are
 *         not ordered (the data here is all alike, real records would need
 *         one write in flight per file, which is the sync case again)
 *
 * Prints: wall, drain stall (longest, total), chunks the drain was late for
 * by more than one chunk's time (data a ring of that size would have lost),
 * and user+system CPU of the whole process. bench/record-writers.sh runs it
 * on a slow pipe and on tmpfs.
 */
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define INFLIGHT 1024	/* requests in flight: 64 MiB of 64 KiB chunks */

static size_t chunk;
static int out;
static uint64_t offset;
static int is_file;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts = { (time_t)t, (long)((t - (double)(time_t)t) * 1e9) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void write_all(const char *p, size_t n)
{
	ssize_t r;

	while (n) {
		r = write(out, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			perror("write");
			exit(1);
		}
		p += r;
		n -= (size_t)r;
	}
}

/* ---- thread ---- */

struct job {
	struct job *next;
	char *p;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static struct job *head, *tail;
static int done;

static void *writer(void *arg)
{
	struct job *j;

	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!head && !done)
			pthread_cond_wait(&cond, &lock);
		if (!head)
			break;
		j = head;
		head = j->next;
		if (!head)
			tail = NULL;
		pthread_mutex_unlock(&lock);
		write_all(j->p, chunk);
		free(j->p);
		free(j);
		pthread_mutex_lock(&lock);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void thread_put(char *p)
{
	struct job *j = calloc(1, sizeof(*j));

	j->p = p;
	pthread_mutex_lock(&lock);
	if (tail)
		tail->next = j;
	else
		head = j;
	tail = j;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
}

/* ---- POSIX AIO ---- */

static struct aiocb cbs[INFLIGHT];
static int busy[INFLIGHT];

static void aio_reap(int wait_one)
{
	const struct aiocb *list[INFLIGHT];
	int i, n;

	for (;;) {
		for (i = n = 0; i < INFLIGHT; i++) {
			if (!busy[i])
				continue;
			if (aio_error(&cbs[i]) == EINPROGRESS) {
				list[n++] = &cbs[i];
				continue;
			}
			aio_return(&cbs[i]);
			free((void *)cbs[i].aio_buf);
			busy[i] = 0;
			wait_one = 0;
		}
		if (!wait_one || !n)
			return;
		aio_suspend(list, n, NULL);
	}
}

static void aio_put(char *p)
{
	int i;

	for (;;) {
		for (i = 0; i < INFLIGHT && busy[i]; i++)
			;
		if (i < INFLIGHT)
			break;
		aio_reap(1);	/* every slot taken: the drain waits */
	}
	memset(&cbs[i], 0, sizeof(cbs[i]));
	cbs[i].aio_fildes = out;
	cbs[i].aio_buf = p;
	cbs[i].aio_nbytes = chunk;
	cbs[i].aio_offset = (off_t)offset;
	offset += chunk;
	busy[i] = 1;
	if (aio_write(&cbs[i])) {
		perror("aio_write");
		exit(1);
	}
	aio_reap(0);
}

/* ---- io_uring ---- */

static struct {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	char *bufs[INFLIGHT];
	unsigned inflight, next;
} ur;

static void uring_setup(void)
{
	struct io_uring_params p;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	ur.fd = (int)syscall(__NR_io_uring_setup, INFLIGHT, &p);
	if (ur.fd < 0) {
		perror("io_uring_setup");
		exit(1);
	}
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ur.fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ur.fd, IORING_OFF_CQ_RING);
	ur.sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, ur.fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || ur.sqes == MAP_FAILED) {
		perror("mmap io_uring");
		exit(1);
	}
	ur.sq_tail = (unsigned *)(sq + p.sq_off.tail);
	ur.sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	ur.sq_array = (unsigned *)(sq + p.sq_off.array);
	ur.cq_head = (unsigned *)(cq + p.cq_off.head);
	ur.cq_tail = (unsigned *)(cq + p.cq_off.tail);
	ur.cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	ur.cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
}

static void uring_reap(unsigned min)
{
	unsigned h;

	if (min && syscall(__NR_io_uring_enter, ur.fd, 0, min, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		perror("io_uring_enter");
		exit(1);
	}
	h = *ur.cq_head;
	while (h != __atomic_load_n(ur.cq_tail, __ATOMIC_ACQUIRE)) {
		struct io_uring_cqe *c = &ur.cqes[h & *ur.cq_mask];

		if (c->res < 0 && c->res != -ECANCELED) {
			fprintf(stderr, "io_uring write: %s\n", strerror(-c->res));
			exit(1);
		}
		free(ur.bufs[c->user_data]);
		ur.bufs[c->user_data] = NULL;
		ur.inflight--;
		h++;
	}
	__atomic_store_n(ur.cq_head, h, __ATOMIC_RELEASE);
}

static void uring_put(char *p)
{
	unsigned t = *ur.sq_tail, i = t & *ur.sq_mask, slot;
	struct io_uring_sqe *s = &ur.sqes[i];

	while (ur.inflight == INFLIGHT)
		uring_reap(1);
	for (slot = ur.next; ur.bufs[slot % INFLIGHT]; slot++)
		;
	slot %= INFLIGHT;
	ur.next = slot + 1;
	ur.bufs[slot] = p;
	memset(s, 0, sizeof(*s));
	s->opcode = IORING_OP_WRITE;
	s->fd = out;
	s->addr = (uint64_t)(uintptr_t)p;
	s->len = (uint32_t)chunk;
	s->off = is_file ? offset : (uint64_t)-1;
	s->user_data = slot;
	offset += chunk;
	ur.sq_array[i] = i;
	__atomic_store_n(ur.sq_tail, t + 1, __ATOMIC_RELEASE);
	ur.inflight++;
	if (syscall(__NR_io_uring_enter, ur.fd, 1, 0, 0, NULL, 0) < 0) {
		perror("io_uring_enter");
		exit(1);
	}
	uring_reap(0);
}

int main(int argc, char **argv)
{
	double rate, start, due, t0, stall, max_stall = 0, sum_stall = 0, wall;
	size_t total, n, i, late = 0;
	const char *mode;
	struct rusage ru;
	pthread_t th;
	struct stat st;
	char *src;

	if (argc < 3) {
		fprintf(stderr, "usage: writers sync|thread|aio|uring OUTPUT [CHUNK_KB RATE_MBS TOTAL_MB]\n");
		return 2;
	}
	mode = argv[1];
	chunk = (size_t)(argc > 3 ? atoi(argv[3]) : 64) << 10;
	rate = (argc > 4 ? atof(argv[4]) : 20) * 1048576.0;
	total = (size_t)(argc > 5 ? atoi(argv[5]) : 200) << 20;
	out = strcmp(argv[2], "-") ? open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644) : 1;
	if (out < 0) {
		perror(argv[2]);
		return 1;
	}
	is_file = !fstat(out, &st) && S_ISREG(st.st_mode);
	src = malloc(chunk);
	memset(src, 'x', chunk);
	if (!strcmp(mode, "thread"))
		pthread_create(&th, NULL, writer, NULL);
	else if (!strcmp(mode, "uring"))
		uring_setup();
	n = total / chunk;
	start = now();
	for (i = 0; i < n; i++) {
		char *p = malloc(chunk);

		due = start + (double)i * (double)chunk / rate;
		sleep_until(due);
		if (now() - due > (double)chunk / rate)
			late++;
		memcpy(p, src, chunk);		/* the copy out of the ring */
		t0 = now();
		if (!strcmp(mode, "sync")) {
			write_all(p, chunk);
			free(p);
		} else if (!strcmp(mode, "thread")) {
			thread_put(p);
		} else if (!strcmp(mode, "aio")) {
			aio_put(p);
		} else {
			uring_put(p);
		}
		stall = now() - t0;
		sum_stall += stall;
		max_stall = stall > max_stall ? stall : max_stall;
	}
	/* drain what is in flight */
	if (!strcmp(mode, "thread")) {
		pthread_mutex_lock(&lock);
		done = 1;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&lock);
		pthread_join(th, NULL);
	} else if (!strcmp(mode, "aio")) {
		for (i = 0; i < INFLIGHT; i++)
			while (busy[i])
				aio_reap(1);
	} else if (!strcmp(mode, "uring")) {
		while (ur.inflight)
			uring_reap(1);
	}
	wall = now() - start;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "%-7s wall %7.2f s  drain stall max %8.3f ms total %8.3f s  late chunks %5zu/%zu"
		"  cpu %.3f s\n", mode, wall, max_stall * 1e3, sum_stall, late, n,
		(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	free(src);
	return 0;
}
