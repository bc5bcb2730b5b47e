// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * writer.c - the asynchronous writer: one thread that takes rounds of
 * records (and flight-recorder dumps) from the draining thread and writes
 * them, so a slow disk or pipe never stops the rings from being drained.
 *
 * Why a writer thread, and not io_uring or POSIX AIO: the data is one
 * sequential stream per file, so there is nothing to gain from many writes
 * in flight; what matters is that the drain never waits. A thread does that
 * with plain write(2) on any kernel and libc, including boards whose
 * kernels disable io_uring (Android, many vendor kernels) and static
 * builds; glibc's POSIX AIO is itself a thread pool, with a request per
 * write. It also gives compression (-z) and dump sorting a core of their
 * own. bench/record-writers.sh measures the three ways on this machine.
 *
 * The queue is bounded by a memory budget: when it is full the drain leaves
 * the data in the kernel's rings, which overflow and count what they lose
 * (LOST records) rather than the recorder growing without limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_local.h"

#define POOL_MAX	8		/* spare round buffers kept for reuse */
#define POOL_KEEP_MAX	(8u << 20)	/* larger ones are freed, not pooled */
#define DUMP_SEGMENT	(1u << 20)	/* a FINISHED_ROUND per MiB of a dump */

struct wjob {
	struct wjob *next;
	struct rec_buf buf;		/* a round's records */
	struct dump_job *dump;		/* or a dump */
};

struct rec_writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct wjob *head, *tail;
	uint64_t queued, cap, peak;
	bool stop, want_room;
	unsigned dumps_pending;
	int status;			/* first error, then nothing more is written */
	struct srep_error err;
	struct pd_out *pd;
	const struct pd_meta *meta;
	const struct rec_layout *lay;
	int efd;
	struct rec_buf pool[POOL_MAX];
	size_t nr_pool;
	struct dump_job *done[64];
	size_t nr_done;
};

static void wake_main(struct rec_writer *w)
{
	uint64_t one = 1;

	if (write(w->efd, &one, sizeof(one)) < 0) {
		/* the counter only saturates: the main thread is awake anyway */
	}
}

/* ---- dumps ---- */

/* records in segments, each closed by a FINISHED_ROUND */
static int write_segments(struct pd_out *pd, const struct rec_buf *b, struct srep_error *err)
{
	size_t start = 0, off = 0, size;

	while (off + 8 <= b->len) {
		size = srep_get16(b->p + off + 6, false);
		if (size < 8 || off + size > b->len)
			break;
		off += size;
		if (off - start >= DUMP_SEGMENT || off + 8 > b->len) {
			if (pd_records(pd, b->p + start, off - start, err) || pd_finished_round(pd, err))
				return err->code;
			start = off;
		}
	}
	return 0;
}

static int dump_file(struct rec_writer *w, struct dump_job *d, const struct rec_buf *sorted)
{
	struct pd_out pd;
	int fd = mkstemp(d->tmp);

	if (fd < 0)
		return srep_error__set(&d->err, SREP_E_IO, "cannot create a dump beside '%s': %s", d->path,
				       strerror(errno));
	if (pd_begin(&pd, fd, false, d->path, w->meta, &d->err) ||
	    write_segments(&pd, sorted, &d->err) || pd_finish(&pd, &d->err)) {
		pd_free(&pd);
		close(fd);
		unlink(d->tmp);
		return d->err.code;
	}
	d->info.bytes = pd.bytes;
	pd_free(&pd);
	fchmod(fd, 0644);
	if (close(fd) || rename(d->tmp, d->path)) {
		unlink(d->tmp);
		return srep_error__set(&d->err, SREP_E_IO, "'%s': cannot write: %s", d->path, strerror(errno));
	}
	return 0;
}

static void run_dump(struct rec_writer *w, struct dump_job *d)
{
	struct rec_buf sorted = { 0 };

	d->status = flight_sort(w->lay, &d->snap, &sorted, &d->info.samples, &d->info.first_time,
				&d->info.last_time, &d->err);
	buf_free(&d->snap);
	if (!d->status)
		d->status = dump_file(w, d, &sorted);
	buf_free(&sorted);
}

/* ---- the thread ---- */

static int write_round(struct rec_writer *w, const struct rec_buf *b, struct srep_error *err)
{
	if (pd_records(w->pd, b->p, b->len, err) || pd_finished_round(w->pd, err))
		return err->code;
	return 0;
}

static void give_back(struct rec_writer *w, struct wjob *j)
{
	if (j->buf.p && w->nr_pool < POOL_MAX && j->buf.cap <= POOL_KEEP_MAX) {
		j->buf.len = 0;
		w->pool[w->nr_pool++] = j->buf;
	} else {
		buf_free(&j->buf);
	}
	free(j);
}

/* write a batch without the lock; commit once after the batch's rounds */
static void write_batch(struct rec_writer *w, struct wjob *batch, struct srep_error *err, int *status)
{
	bool rounds = false;
	struct wjob *j;

	for (j = batch; j; j = j->next) {
		if (j->dump) {
			run_dump(w, j->dump);
			continue;
		}
		if (!*status)
			*status = write_round(w, &j->buf, err);
		rounds = true;
	}
	if (rounds && !*status)
		*status = pd_commit(w->pd, err);
}

static void *writer_main(void *arg)
{
	struct rec_writer *w = arg;
	struct srep_error err = { 0 };
	struct wjob *batch, *j;
	uint64_t bytes;
	bool notify;
	int status;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->head && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->head)
			break;
		batch = w->head;
		w->head = w->tail = NULL;
		status = w->status;
		pthread_mutex_unlock(&w->lock);

		write_batch(w, batch, &err, &status);

		pthread_mutex_lock(&w->lock);
		notify = w->want_room || (status && !w->status);
		if (status && !w->status) {
			w->status = status;
			w->err = err;
		}
		while ((j = batch)) {
			batch = j->next;
			bytes = j->buf.len;
			w->queued -= bytes;
			if (j->dump) {
				if (w->nr_done < sizeof(w->done) / sizeof(w->done[0]))
					w->done[w->nr_done++] = j->dump;
				else
					dump_job_free(j->dump);
				w->dumps_pending--;
				notify = true;
				j->dump = NULL;
			}
			give_back(w, j);
		}
		w->want_room = false;
		if (notify)
			wake_main(w);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int writer_start(struct rec_writer **out, struct pd_out *pd, const struct pd_meta *meta,
		 const struct rec_layout *lay, uint64_t backlog_cap, struct srep_error *err)
{
	struct rec_writer *w = calloc(1, sizeof(*w));
	int r;

	if (!w)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	w->pd = pd;
	w->meta = meta;
	w->lay = lay;
	w->cap = backlog_cap;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->efd < 0) {
		free(w);
		return srep_error__set(err, SREP_E_IO, "eventfd: %s", strerror(errno));
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	r = pthread_create(&w->thread, NULL, writer_main, w);
	if (r) {
		close(w->efd);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return srep_error__set(err, SREP_E_IO, "cannot start the writer thread: %s", strerror(r));
	}
	*out = w;
	return 0;
}

void writer_take_buf(struct rec_writer *w, struct rec_buf *b)
{
	pthread_mutex_lock(&w->lock);
	if (w->nr_pool && !b->p)
		*b = w->pool[--w->nr_pool];
	pthread_mutex_unlock(&w->lock);
	b->len = 0;
}

bool writer_has_room(struct rec_writer *w, size_t bytes)
{
	bool room;

	pthread_mutex_lock(&w->lock);
	room = w->queued + bytes <= w->cap;
	if (!room)
		w->want_room = true;
	pthread_mutex_unlock(&w->lock);
	return room;
}

static int enqueue(struct rec_writer *w, struct wjob *j, struct srep_error *err)
{
	int status;

	pthread_mutex_lock(&w->lock);
	status = w->status;
	if (!status) {
		if (w->tail)
			w->tail->next = j;
		else
			w->head = j;
		w->tail = j;
		w->queued += j->buf.len;
		if (w->queued > w->peak)
			w->peak = w->queued;
		w->dumps_pending += j->dump != NULL;
		pthread_cond_signal(&w->cond);
	} else if (err) {
		*err = w->err;
	}
	pthread_mutex_unlock(&w->lock);
	return status;
}

int writer_submit(struct rec_writer *w, struct rec_buf *b, struct srep_error *err)
{
	struct wjob *j = calloc(1, sizeof(*j));
	int r;

	if (!j)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	j->buf = *b;
	memset(b, 0, sizeof(*b));
	r = enqueue(w, j, err);
	if (r)
		give_back(w, j);
	return r;
}

int writer_submit_dump(struct rec_writer *w, struct dump_job *d, struct srep_error *err)
{
	struct wjob *j = calloc(1, sizeof(*j));
	int r;

	if (!j)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	j->dump = d;
	r = enqueue(w, j, err);
	if (r)
		free(j);
	return r;
}

int writer_fd(const struct rec_writer *w)
{
	return w->efd;
}

struct dump_job *writer_done_dump(struct rec_writer *w)
{
	struct dump_job *d = NULL;
	uint64_t v;

	pthread_mutex_lock(&w->lock);
	if (read(w->efd, &v, sizeof(v)) < 0) {
		/* nothing signalled: fine, the list says what is done */
	}
	if (w->nr_done) {
		d = w->done[0];
		memmove(w->done, w->done + 1, (w->nr_done - 1) * sizeof(w->done[0]));
		w->nr_done--;
		if (w->nr_done)
			wake_main(w);
	}
	pthread_mutex_unlock(&w->lock);
	return d;
}

bool writer_busy_dumping(struct rec_writer *w)
{
	bool busy;

	pthread_mutex_lock(&w->lock);
	busy = w->dumps_pending > 0;
	pthread_mutex_unlock(&w->lock);
	return busy;
}

int writer_error(struct rec_writer *w, struct srep_error *err)
{
	int status;

	pthread_mutex_lock(&w->lock);
	status = w->status;
	if (status && err)
		*err = w->err;
	pthread_mutex_unlock(&w->lock);
	return status;
}

uint64_t writer_backlog_peak(struct rec_writer *w)
{
	uint64_t peak;

	pthread_mutex_lock(&w->lock);
	peak = w->peak;
	pthread_mutex_unlock(&w->lock);
	return peak;
}

int writer_stop(struct rec_writer *w, struct srep_error *err)
{
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (writer_error(w, err))
		return err->code;
	return w->pd ? pd_finish(w->pd, err) : 0;
}

void writer_free(struct rec_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nr_pool; i++)
		buf_free(&w->pool[i]);
	for (i = 0; i < w->nr_done; i++)
		dump_job_free(w->done[i]);
	close(w->efd);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

void dump_job_free(struct dump_job *d)
{
	if (!d)
		return;
	buf_free(&d->snap);
	free(d->path);
	free(d->tmp);
	free(d);
}
