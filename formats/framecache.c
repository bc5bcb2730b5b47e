// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * framecache.c - frames' output text kept by frame (see framecache.h):
 * open addressing on a hash of the frame's fields, the texts in one arena.
 */
#include <stdlib.h>
#include <string.h>

#include "framecache.h"

void fc_free(struct frame_cache *c)
{
	free(c->slots);
	free(c->text);
	memset(c, 0, sizeof(*c));
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static size_t hash_of(const struct srep_frame *f)
{
	uint64_t h = mix(f->addr, f->module_addr);

	h = mix(h, (uintptr_t)f->symbol);
	h = mix(h, f->symbol_offset);
	h = mix(h, (uintptr_t)f->module ^ (uint64_t)f->mode << 56);
	h = mix(h, (uintptr_t)f->file ^ (uint64_t)f->line << 32);
	return (size_t)(h * 0xff51afd7ed558ccdull >> 16);
}

static bool same(const struct srep_frame *a, const struct srep_frame *b)
{
	return a->addr == b->addr && a->module_addr == b->module_addr && a->symbol == b->symbol &&
	       a->symbol_offset == b->symbol_offset && a->module == b->module &&
	       a->mode == b->mode && a->file == b->file && a->line == b->line;
}

const char *fc_find(const struct frame_cache *c, const struct srep_frame *key, size_t *len)
{
	size_t i;

	if (!c->nr_slots)
		return NULL;
	for (i = hash_of(key) & (c->nr_slots - 1); c->slots[i].len;
	     i = (i + 1) & (c->nr_slots - 1)) {
		if (same(&c->slots[i].key, key)) {
			*len = c->slots[i].len;
			return c->text + c->slots[i].off;
		}
	}
	return NULL;
}

/* twice the slots (rehashed), or none kept when the bounds are reached */
static bool make_room(struct frame_cache *c, size_t len)
{
	size_t n = c->nr_slots ? 2 * c->nr_slots : 1024, i, j;
	struct fc_slot *s;

	if (c->text_len + len > FC_MAX_TEXT || c->used >= FC_MAX_SLOTS) {
		/* bounded: start over rather than grow without end */
		memset(c->slots, 0, c->nr_slots * sizeof(*c->slots));
		c->used = c->text_len = 0;
	}
	if (c->text_len + len > c->text_cap) {
		size_t cap = c->text_cap ? 2 * c->text_cap : 64u << 10;
		char *t;

		while (cap < c->text_len + len)
			cap *= 2;
		t = realloc(c->text, cap);
		if (!t)
			return false;
		c->text = t;
		c->text_cap = cap;
	}
	if ((c->used + 1) * 2 <= c->nr_slots)
		return true;
	s = calloc(n, sizeof(*s));
	if (!s)
		return false;
	for (i = 0; i < c->nr_slots; i++) {
		if (!c->slots[i].len)
			continue;
		for (j = hash_of(&c->slots[i].key) & (n - 1); s[j].len; j = (j + 1) & (n - 1))
			;
		s[j] = c->slots[i];
	}
	free(c->slots);
	c->slots = s;
	c->nr_slots = n;
	return true;
}

void fc_keep(struct frame_cache *c, const struct srep_frame *key, const char *text, size_t len)
{
	size_t i;

	if (!len || len > UINT32_MAX || !make_room(c, len))
		return;
	for (i = hash_of(key) & (c->nr_slots - 1); c->slots[i].len; i = (i + 1) & (c->nr_slots - 1))
		;
	memcpy(c->text + c->text_len, text, len);
	c->slots[i] = (struct fc_slot){ *key, (uint32_t)c->text_len, (uint32_t)len };
	c->text_len += len;
	c->used++;
}

char *fc_str(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

bool fc_plain(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e || *s == '"' || *s == '\\')
			return false;
	}
	return true;
}
