// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prefetch.c - maps the next window of a regular file on a second thread.
 *
 * Mapping a window with MAP_POPULATE is system time: a fifth of reading a
 * trace once the decoder got fast (14 of 68 ms for 'latency' on an 81 MB
 * file), spent while the reader waits. A thread that maps the window after
 * the current one while the reader decodes this one takes it off the
 * reader's path on a machine with a second core. It only ever maps: the
 * reader takes the mapping when it reaches it, or drops it when it jumps
 * elsewhere (a rewind, a header), and then maps for itself as before.
 *
 * Unmapping a window is system time too (the page tables go): the thread
 * does that as well. Windows keep a reference to it, as records queued in
 * place may hold a window after the input is closed; the last one frees it.
 *
 * One request at a time: the reader asks for the next window right after
 * taking one, so the thread is idle or mapping that one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "reader.h"

#define UNMAP_QUEUE	16	/* windows waiting to be unmapped; beyond, the reader does it */

enum pf_state { PF_IDLE, PF_ASKED, PF_READY };

struct input_prefetch {
	pthread_t thread;
	bool quit;			/* the thread ends once its queue is done */
	size_t users;			/* the input and its windows */
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* to the thread: asked, an unmap, or quit */
	pthread_cond_t ready;		/* to the reader: the window is mapped (or failed) */
	enum pf_state state;
	int fd;
	uint64_t start;
	size_t len;
	void *map;			/* PF_READY: the window, or NULL when mmap failed */
	struct { void *map; size_t len; } unmap[UNMAP_QUEUE];
	size_t nr_unmap;
};

/* the same mapping input.c makes for itself */
void *prefetch_map(int fd, uint64_t start, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, (off_t)start);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, len, MADV_SEQUENTIAL);
	return p;
}

/* a mapping asked for comes first: the reader will wait for it */
static void *worker(void *arg)
{
	struct input_prefetch *pf = arg;
	size_t len;
	void *p;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		while (pf->state != PF_ASKED && !pf->nr_unmap && !pf->quit)
			pthread_cond_wait(&pf->wake, &pf->lock);
		if (pf->state == PF_ASKED) {
			pthread_mutex_unlock(&pf->lock);
			p = prefetch_map(pf->fd, pf->start, pf->len);
			pthread_mutex_lock(&pf->lock);
			pf->map = p;
			pf->state = PF_READY;
			pthread_cond_signal(&pf->ready);
		} else if (pf->nr_unmap) {
			pf->nr_unmap--;
			p = pf->unmap[pf->nr_unmap].map;
			len = pf->unmap[pf->nr_unmap].len;
			pthread_mutex_unlock(&pf->lock);
			munmap(p, len);
			pthread_mutex_lock(&pf->lock);
		} else {
			break;
		}
	}
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct input_prefetch *prefetch_new(int fd)
{
	struct input_prefetch *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return NULL;
	pf->fd = fd;
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->wake, NULL);
	pthread_cond_init(&pf->ready, NULL);
	if (pthread_create(&pf->thread, NULL, worker, pf)) {
		pthread_cond_destroy(&pf->ready);
		pthread_cond_destroy(&pf->wake);
		pthread_mutex_destroy(&pf->lock);
		free(pf);
		return NULL;	/* the reader maps every window itself */
	}
	pf->users = 1;
	return pf;
}

struct input_prefetch *prefetch_get(struct input_prefetch *pf)
{
	if (pf)
		pf->users++;
	return pf;
}

static void put(struct input_prefetch *pf)
{
	if (--pf->users)
		return;
	pthread_cond_destroy(&pf->ready);
	pthread_cond_destroy(&pf->wake);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}

void prefetch_unmap(struct input_prefetch *pf, void *map, size_t len)
{
	bool queued = false;

	if (pf) {
		pthread_mutex_lock(&pf->lock);
		if (!pf->quit && pf->nr_unmap < UNMAP_QUEUE) {
			pf->unmap[pf->nr_unmap].map = map;
			pf->unmap[pf->nr_unmap++].len = len;
			pthread_cond_signal(&pf->wake);
			queued = true;
		}
		pthread_mutex_unlock(&pf->lock);
		put(pf);
	}
	if (!queued)
		munmap(map, len);
}

/* the mapping asked for, once done, leaves the thread idle; the caller owns it */
static void *finished(struct input_prefetch *pf)
{
	void *p;

	while (pf->state == PF_ASKED)
		pthread_cond_wait(&pf->ready, &pf->lock);
	p = pf->state == PF_READY ? pf->map : NULL;
	pf->map = NULL;
	if (pf->state == PF_READY)
		pf->state = PF_IDLE;
	return p;
}

void prefetch_ask(struct input_prefetch *pf, uint64_t start, size_t len)
{
	size_t stale_len;
	void *stale;

	pthread_mutex_lock(&pf->lock);
	stale = finished(pf);
	stale_len = pf->len;
	pf->start = start;
	pf->len = len;
	pf->state = PF_ASKED;
	pthread_cond_signal(&pf->wake);
	pthread_mutex_unlock(&pf->lock);
	if (stale)
		munmap(stale, stale_len);
}

void *prefetch_take(struct input_prefetch *pf, uint64_t off, size_t len, uint64_t *start,
		    size_t *map_len)
{
	void *p;

	pthread_mutex_lock(&pf->lock);
	p = finished(pf);
	pthread_mutex_unlock(&pf->lock);
	if (!p)
		return NULL;
	if (off < pf->start || len > pf->len || off - pf->start > pf->len - len) {
		munmap(p, pf->len);	/* the reader went elsewhere */
		return NULL;
	}
	*start = pf->start;
	*map_len = pf->len;
	return p;
}

/* the thread ends once its queue is done; the windows still held keep the rest */
void prefetch_free(struct input_prefetch *pf)
{
	void *p;

	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	p = finished(pf);
	pf->quit = true;
	pthread_cond_signal(&pf->wake);
	pthread_mutex_unlock(&pf->lock);
	pthread_join(pf->thread, NULL);
	if (p)
		munmap(p, pf->len);
	put(pf);
}
