// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * actions.c - where a plan keeps its actions, and reading them back.
 *
 * A long trace makes tens of millions of actions; held in memory they made
 * the plan grow with the trace (issue 19). Each task keeps its last actions
 * in memory and writes every full block of RP_BLOCK_ACTIONS to one unlinked
 * temporary file of the plan, remembering the block's offset. The last
 * action stays in memory until the next append: the builder still
 * completes it (its wakeup latency) after appending it. A task that is
 * done is sealed: its last, shorter block goes to the file too, so the
 * memory kept is that of the tasks still alive. Cursors read the blocks
 * back with pread(), so the mockup threads can read one plan at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"

#define BLOCK_BYTES (RP_BLOCK_ACTIONS * sizeof(struct rp_action))

/*
 * Read and written with pread/pwrite only, never through the FILE's buffer.
 * In $TMPDIR (else /tmp), as the reader spools a pipe (input.c): a big
 * trace's plan takes hundreds of MB there. Unlinked from the start.
 */
static int spill_open(struct rp_plan *p)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (p->spill)
		return 0;
	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/schedrep-plan-XXXXXX", dir);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
	}
	if (fd >= 0 && !(p->spill = fdopen(fd, "w+")))
		close(fd);
	return p->spill ? 0 : SREP_E_IO;
}

static int write_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const char *c = buf;
	ssize_t w;

	while (n) {
		w = pwrite(fd, c, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return SREP_E_IO;
		c += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t n, uint64_t off)
{
	char *c = buf;
	ssize_t r;

	while (n) {
		r = pread(fd, c, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return SREP_E_IO;
		c += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* the tail goes to the file as one block (the last one of a sealed list may be short) */
static int spill(struct rp_plan *p, struct rp_action_list *l)
{
	uint64_t *v;
	size_t cap;
	int ret;

	if (l->nr_blocks == l->cap_blocks) {
		cap = l->cap_blocks ? l->cap_blocks * 2 : 8;
		v = realloc(l->blocks, cap * sizeof(*v));
		if (!v)
			return SREP_E_NOMEM;
		l->blocks = v;
		l->cap_blocks = cap;
	}
	ret = spill_open(p);
	if (!ret)
		ret = write_all(fileno(p->spill), l->tail, l->nr_tail * sizeof(*l->tail),
				p->spill_end);
	if (ret)
		return ret;
	l->blocks[l->nr_blocks++] = p->spill_end;
	p->spill_end += l->nr_tail * sizeof(*l->tail);
	l->nr_tail = 0;
	return 0;
}

static int grow_tail(struct rp_action_list *l)
{
	size_t cap = l->cap_tail ? l->cap_tail * 2 : 16;
	struct rp_action *v;

	if (cap > RP_BLOCK_ACTIONS)
		cap = RP_BLOCK_ACTIONS;
	v = realloc(l->tail, cap * sizeof(*v));
	if (!v)
		return SREP_E_NOMEM;
	l->tail = v;
	l->cap_tail = cap;
	return 0;
}

struct rp_action *rp_actions__append(struct rp_plan *p, struct rp_task *t,
				     enum rp_action_kind kind, int *err)
{
	struct rp_action_list *l = &t->stored;
	struct rp_action *a;

	*err = l->sealed ? SREP_E_INVAL : 0;
	if (*err)
		return NULL;
	if (l->nr_tail == RP_BLOCK_ACTIONS)
		*err = spill(p, l);
	else if (l->nr_tail == l->cap_tail)
		*err = grow_tail(l);
	if (*err)
		return NULL;
	a = &l->tail[l->nr_tail++];
	memset(a, 0, sizeof(*a));
	a->kind = (uint8_t)kind;
	a->cpu = -1;
	a->rec_latency_ns = RP_NO_LATENCY;
	l->nr++;
	t->nr_actions++;
	t->nr_kind[kind]++;
	return a;
}

size_t rp_actions__nr_stored(const struct rp_task *t)
{
	return t->stored.nr;
}

int rp_actions__seal(struct rp_plan *p, struct rp_task *t)
{
	struct rp_action_list *l = &t->stored;
	int ret = l->nr_tail ? spill(p, l) : 0;

	if (ret)
		return ret;
	free(l->tail);
	l->tail = NULL;
	l->cap_tail = 0;
	l->sealed = true;
	return 0;
}

int rp_actions__set_latency(struct rp_plan *p, struct rp_task *t, size_t i, uint64_t ns)
{
	const struct rp_action_list *l = &t->stored;
	size_t spilled = l->nr_blocks * RP_BLOCK_ACTIONS;

	if (i >= spilled && !l->sealed) {
		l->tail[i - spilled].rec_latency_ns = ns;
		return 0;
	}
	return write_all(fileno(p->spill), &ns, sizeof(ns),
			 l->blocks[i / RP_BLOCK_ACTIONS] +
			 (i % RP_BLOCK_ACTIONS) * sizeof(struct rp_action) +
			 offsetof(struct rp_action, rec_latency_ns));
}

void rp_actions__free(struct rp_action_list *l)
{
	free(l->tail);
	free(l->blocks);
	memset(l, 0, sizeof(*l));
}

void rp_actions__close(struct rp_plan *p)
{
	if (p->spill)
		fclose(p->spill);
	p->spill = NULL;
}

/* ---- reading ---- */

void rp_cursor__init(struct rp_cursor *c, const struct rp_plan *p, const struct rp_task *t)
{
	*c = (struct rp_cursor){ .p = p, .t = t, .block_nr = SIZE_MAX, .anchor = t->start };
}

/* stored action 'i' into *a */
static int stored(struct rp_cursor *c, size_t i, struct rp_action *a)
{
	const struct rp_action_list *l = &c->t->stored;
	size_t nr = i / RP_BLOCK_ACTIONS, n;
	int ret;

	if (nr >= l->nr_blocks) {
		*a = l->tail[i - l->nr_blocks * RP_BLOCK_ACTIONS];
		return 0;
	}
	if (c->block_nr != nr) {
		if (!c->block && !(c->block = malloc(BLOCK_BYTES)))
			return SREP_E_NOMEM;
		n = l->nr - nr * RP_BLOCK_ACTIONS;
		n = n < RP_BLOCK_ACTIONS ? n : RP_BLOCK_ACTIONS;
		ret = read_all(fileno(c->p->spill), c->block, n * sizeof(*c->block),
			       l->blocks[nr]);
		if (ret)
			return ret;
		c->block_nr = nr;
	}
	*a = c->block[i % RP_BLOCK_ACTIONS];
	return 0;
}

/* false: a SPAWN of a task that compaction dropped */
static bool renumber(const struct rp_plan *p, struct rp_action *a)
{
	if (!p->renumber || (a->kind != RP_SPAWN && a->kind != RP_WAKE) ||
	    a->target >= p->nr_renumber)
		return true;
	if (a->kind == RP_SPAWN && p->renumber[a->target] < 0)
		return false;
	a->target = (uint32_t)p->renumber[a->target];
	return true;
}

int rp_cursor__next(struct rp_cursor *c, struct rp_action *a)
{
	int ret;

	while (c->pos < c->t->stored.nr) {
		ret = stored(c, c->pos++, a);
		if (ret)
			return ret;
		if (!renumber(c->p, a))
			continue;
		rp_scale__action(c->p, &c->anchor, &c->slept, a);
		return 1;
	}
	return 0;
}

void rp_cursor__fini(struct rp_cursor *c)
{
	free(c->block);
	c->block = NULL;
	c->block_nr = SIZE_MAX;
}
