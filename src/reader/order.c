// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * order.c - puts records into timestamp order with bounded memory.
 *
 * perf writes each CPU's ring buffer in turn, so records of one CPU arrive
 * nearly in time order while CPUs interleave by whole chunks. Each CPU gets
 * its own sorted queue (appends, rarely a short insertion) and a small heap
 * over the queue heads merges them: O(log CPUs) per record. Delivery comes
 * in runs from one queue: the least head of the other queues (the
 * "runner-up") is kept, and while the next head of the delivering queue is
 * before it, the heap's root only takes the new key, without a sift.
 *
 * A record may leave when
 *  - it is not newer than the round limit: on FINISHED_ROUND everything up
 *    to the newest time seen at the previous round is complete (perf's rule);
 *  - the queued copies exceed the reorder window (oldest first: "forced");
 *  - the input has ended.
 * Files without rounds (or with rounds only at the start and the end, like
 * the emulated corpus) are therefore fully sorted when they fit in the
 * window; beyond it records arriving older than what was already delivered
 * are delivered at once and counted as late (SREP_EVF_LATE), never hidden.
 *
 * Records of a file stay where the input mapped them (the window is held
 * until they leave): copying each into the arena cost a fifth of a whole
 * read. The arena still reserves their room, untouched, so the window
 * counts the same bytes and delivery never depends on how they are held.
 */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define CHUNK_SIZE (1u << 20)	/* arena chunk: many records, one malloc */

struct order_chunk {
	struct order_chunk *next;	/* free list */
	size_t used, cap;
	size_t live;		/* queued records still pointing here */
	uint8_t data[];
};

void order_init(struct order_queue *q, size_t limit)
{
	memset(q, 0, sizeof(*q));
	q->limit = limit ? limit : SREP_REORDER_DEFAULT;
}

static void free_chunk_list(struct order_chunk *c)
{
	while (c) {
		struct order_chunk *next = c->next;

		free(c);
		c = next;
	}
}

void order_free(struct order_queue *q)
{
	size_t i;

	order_reset(q);
	for (i = 0; i < q->nr_cpus; i++)
		free(q->cpus[i].e);
	free(q->cpus);
	free(q->heap);
	free(q->heap_pos);
	free_chunk_list(q->free_chunks);
	free(q->chunk);
	memset(q, 0, sizeof(*q));
}

/* ---- the heap over non-empty per-CPU queues ---- */

static const struct order_entry *head_of(const struct order_queue *q, size_t qi)
{
	const struct order_cpu *c = &q->cpus[qi];

	return &c->e[c->head];
}

/* heap slots carry their queue head's key: comparisons touch no other memory */
static bool before(const struct order_heap_slot *x, const struct order_heap_slot *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static void heap_swap(struct order_queue *q, size_t i, size_t j)
{
	struct order_heap_slot t = q->heap[i];

	q->heap[i] = q->heap[j];
	q->heap[j] = t;
	q->heap_pos[q->heap[i].qi] = i;
	q->heap_pos[q->heap[j].qi] = j;
}

static void heap_up(struct order_queue *q, size_t i)
{
	while (i && before(&q->heap[i], &q->heap[(i - 1) / 2])) {
		heap_swap(q, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct order_queue *q, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < q->heap_len && before(&q->heap[l], &q->heap[m]))
			m = l;
		if (r < q->heap_len && before(&q->heap[r], &q->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(q, i, m);
		i = m;
	}
}

/* the least head but the root's: heap[1] or heap[2] */
static void runner_up_refresh(struct order_queue *q)
{
	static const struct order_heap_slot none = { UINT64_MAX, UINT64_MAX, 0 };
	const struct order_heap_slot *r = q->heap_len > 1 ? &q->heap[1] : &none;

	if (q->heap_len > 2 && before(&q->heap[2], r))
		r = &q->heap[2];
	q->runner_up = *r;
}

static void heap_remove(struct order_queue *q, size_t qi)
{
	size_t i = q->heap_pos[qi];

	q->heap_pos[qi] = SIZE_MAX;
	if (i != --q->heap_len) {
		q->heap[i] = q->heap[q->heap_len];
		q->heap_pos[q->heap[i].qi] = i;
		heap_down(q, i);
		heap_up(q, i);
	}
	runner_up_refresh(q);
}

/* the head of queue 'qi' changed (or it became non-empty) */
static void heap_update(struct order_queue *q, size_t qi)
{
	const struct order_entry *h = head_of(q, qi);
	size_t i = q->heap_pos[qi];
	bool later;

	if (i == SIZE_MAX) {
		i = q->heap_len++;
		q->heap_pos[qi] = i;
		later = false;
	} else {
		/* a pop only makes a head later; an insertion only earlier */
		later = h->time > q->heap[i].time ||
			(h->time == q->heap[i].time && h->seq > q->heap[i].seq);
	}
	q->heap[i] = (struct order_heap_slot){ h->time, h->seq, qi };
	if (later)
		heap_down(q, i);
	else
		heap_up(q, i);
	runner_up_refresh(q);
}

/* ---- per-CPU queues ---- */

static int queue_index(struct order_queue *q, int32_t cpu, size_t *out)
{
	size_t qi = cpu < 0 || (uint32_t)cpu >= SREP_MAX_CPUS ? 0 : (size_t)cpu + 1;
	size_t n, i;

	if (qi >= q->nr_cpus) {
		n = qi + 1 > q->nr_cpus * 2 ? qi + 1 : q->nr_cpus * 2;
		struct order_cpu *c = realloc(q->cpus, n * sizeof(*c));
		struct order_heap_slot *h = realloc(q->heap, n * sizeof(*h));
		size_t *hp = realloc(q->heap_pos, n * sizeof(*hp));

		if (c)
			q->cpus = c;
		if (h)
			q->heap = h;
		if (hp)
			q->heap_pos = hp;
		if (!c || !h || !hp)
			return SREP_E_NOMEM;
		for (i = q->nr_cpus; i < n; i++) {
			memset(&q->cpus[i], 0, sizeof(q->cpus[i]));
			q->cpus[i].cpu = (int32_t)i - 1;
			q->heap_pos[i] = SIZE_MAX;
		}
		q->nr_cpus = n;
	}
	*out = qi;
	return 0;
}

/* capacities are powers of two: a mask instead of a division */
static struct order_entry *at(struct order_cpu *c, size_t i)
{
	return &c->e[(c->head + i) & (c->cap - 1)];
}

static int ring_grow(struct order_cpu *c)
{
	size_t cap = c->cap ? c->cap * 2 : 256, i;
	struct order_entry *e = malloc(cap * sizeof(*e));

	if (!e)
		return SREP_E_NOMEM;
	for (i = 0; i < c->len; i++)
		e[i] = *at(c, i);
	free(c->e);
	c->e = e;
	c->cap = cap;
	c->head = 0;
	return 0;
}

/* insert keeping (time, seq) order: almost always an append */
static int ring_insert(struct order_cpu *c, const struct order_entry *ent, bool *new_head)
{
	size_t i;
	int ret;

	if (c->len == c->cap) {
		ret = ring_grow(c);
		if (ret)
			return ret;
	}
	i = c->len++;
	while (i && at(c, i - 1)->time > ent->time) {
		*at(c, i) = *at(c, i - 1);
		i--;
	}
	*at(c, i) = *ent;
	*new_head = i == 0;
	return 0;
}

/* ---- the arena holding record copies ---- */

static uint8_t *arena_alloc(struct order_queue *q, uint32_t size, struct order_chunk **owner)
{
	struct order_chunk *c = q->chunk;
	size_t need = ((size_t)size + 7) & ~(size_t)7;

	if (!c || c->cap - c->used < need) {
		if (c && !c->live) {
			c->used = 0;	/* nothing points into it any more: reuse */
		} else {
			if (q->free_chunks && q->free_chunks->cap >= need) {
				c = q->free_chunks;
				q->free_chunks = c->next;
				q->bytes_free -= c->cap;
			} else {
				size_t cap = need > CHUNK_SIZE ? need : CHUNK_SIZE;

				c = malloc(sizeof(*c) + cap);
				if (!c)
					return NULL;
				c->cap = cap;
				q->bytes += cap;
			}
			c->used = 0;
			c->live = 0;
			c->next = NULL;
			q->chunk = c;
		}
	}
	c->live++;
	*owner = c;
	c->used += need;
	return c->data + c->used - need;
}

static void arena_release(struct order_queue *q, struct order_chunk *c)
{
	if (--c->live || c == q->chunk)
		return;
	/*
	 * Keep emptied chunks for reuse: fresh pages cost a fault each, and the
	 * total never exceeds the window (order_peek forces records out first).
	 * Oversized chunks (one huge record) go back at once.
	 */
	if (c->cap > CHUNK_SIZE) {
		q->bytes -= c->cap;
		free(c);
		return;
	}
	c->next = q->free_chunks;
	q->free_chunks = c;
	q->bytes_free += c->cap;
}

/* the entry has left: its arena room and the window lending it are free */
static void entry_release(struct order_queue *q, struct order_entry *e)
{
	arena_release(q, e->chunk);
	if (e->hold)
		input_unhold(e->hold);
}

int order_push(struct order_queue *q, uint64_t time, int32_t cpu, int32_t evsel,
	       const uint8_t *data, uint32_t size, uint64_t file_off,
	       struct input_window *hold, bool *late)
{
	struct order_entry ent;
	uint8_t *room;
	bool new_head;
	size_t qi;
	int ret;

	ret = queue_index(q, cpu, &qi);
	if (ret)
		return ret;
	room = arena_alloc(q, size, &ent.chunk);
	if (!room)
		return SREP_E_NOMEM;
	ent.hold = hold;
	if (hold) {
		ent.data = (uint8_t *)data;
	} else {
		ent.data = room;
		memcpy(room, data, size);
	}
	ent.time = time;
	ent.seq = q->seq++;
	ent.file_off = file_off;
	ent.size = size;
	ent.evsel = evsel;
	ent.cpu = cpu;
	ent.late = *late = time < q->last_out;
	ret = ring_insert(&q->cpus[qi], &ent, &new_head);
	if (ret) {
		arena_release(q, ent.chunk);	/* the caller still owns the hold */
		return ret;
	}
	if (new_head)
		heap_update(q, qi);
	order_note_time(q, time);
	q->nr_queued++;
	if (q->bytes - q->bytes_free > q->limit)
		q->forced = true;
	return 0;
}

void order_note_time(struct order_queue *q, uint64_t time)
{
	if (time > q->max_time)
		q->max_time = time;
}

const struct order_entry *order_peek(struct order_queue *q)
{
	uint64_t time;

	if (!q->heap_len)
		return NULL;
	time = q->heap[0].time;	/* the root's key: its entry is only read if it goes */
	if (q->flush_all || time <= q->round_limit || time <= q->last_out)
		return head_of(q, q->heap[0].qi);
	/* over the window: deliver the oldest until half of it is free again */
	if (q->forced && q->bytes - q->bytes_free > q->limit / 2)
		return head_of(q, q->heap[0].qi);
	q->forced = false;
	return NULL;
}

void order_pop(struct order_queue *q)
{
	size_t qi = q->heap[0].qi;
	struct order_cpu *c = &q->cpus[qi];
	struct order_entry *e = &c->e[c->head];

	if (e->time > q->last_out)
		q->last_out = e->time;
	entry_release(q, e);
	c->head = (c->head + 1) & (c->cap - 1);
	c->len--;
	q->nr_queued--;
	if (!c->len) {
		heap_remove(q, qi);
		return;
	}
	e = &c->e[c->head];
	if (e->time < q->runner_up.time ||
	    (e->time == q->runner_up.time && e->seq < q->runner_up.seq)) {
		/* the run goes on: still the least head, the heap stays valid */
		q->heap[0].time = e->time;
		q->heap[0].seq = e->seq;
		return;
	}
	heap_update(q, qi);
}

void order_round(struct order_queue *q)
{
	q->round_limit = q->round_pending;
	q->round_pending = q->max_time;
}

void order_flush_all(struct order_queue *q)
{
	q->flush_all = true;
}

void order_reset(struct order_queue *q)
{
	size_t i;

	for (i = 0; i < q->nr_cpus; i++) {
		struct order_cpu *c = &q->cpus[i];

		while (c->len) {
			entry_release(q, &c->e[c->head]);
			c->head = (c->head + 1) & (c->cap - 1);
			c->len--;
		}
		c->head = 0;
		q->heap_pos[i] = SIZE_MAX;
	}
	q->heap_len = 0;
	runner_up_refresh(q);
	q->seq = q->max_time = q->round_limit = q->round_pending = q->last_out = 0;
	q->nr_queued = 0;
	q->flush_all = q->forced = false;
}
