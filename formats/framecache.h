/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * framecache.h - the output text of resolved frames, rendered once.
 *
 * Callchains repeat the same few frames thousands of times: a blocking
 * path is the same twenty functions on every switch-out. Formatting and
 * escaping each frame again was most of what symbols cost an exporter
 * (the stack of every callchain event, the frames of every JSON line), so
 * an exporter renders a frame once and keeps its text here, keyed by the
 * frame's fields (its strings by pointer: a symbolizer's strings live as
 * long as it does). Bounded: past FC_MAX_SLOTS frames or FC_MAX_TEXT
 * bytes it starts over.
 *
 * The writers below compose text by hand into a buffer the caller sized;
 * fc_plain() says whether a string can go into JSON as it is.
 */
#ifndef SREP_FRAMECACHE_H
#define SREP_FRAMECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>

#define FC_MAX_SLOTS	(1u << 15)	/* frames kept (twice as many slots) */
#define FC_MAX_TEXT	(8u << 20)	/* bytes of text kept */

struct frame_cache {
	struct fc_slot {
		struct srep_frame key;
		uint32_t off, len;		/* the text; len 0: an empty slot */
	} *slots;
	size_t nr_slots, used;
	char *text;
	size_t text_len, text_cap;
};

void fc_free(struct frame_cache *c);
/* the text kept for 'key' (all its fields equal), NULL if none; *len its length */
const char *fc_find(const struct frame_cache *c, const struct srep_frame *key, size_t *len);
/* keep 'text' for 'key'; out of memory, it is simply not kept */
void fc_keep(struct frame_cache *c, const struct srep_frame *key, const char *text, size_t len);

/* writers: they return the end of what they wrote */
char *fc_str(char *o, const char *s);		/* the bytes of 's', no NUL */
/* printable ASCII without '"' or '\\': a JSON string as it is */
bool fc_plain(const char *s);

#endif /* SREP_FRAMECACHE_H */
