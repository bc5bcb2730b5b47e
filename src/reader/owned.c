// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * owned.c - blocks the session owns on behalf of what it hands out (the
 * strings behind struct srep_meta's pointers), freed when it is deleted.
 */
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "grow.h"

void *owned_keep(struct srep_session *s, void *p)
{
	void **n;

	if (!p)
		return NULL;
	n = grow_array(s->owned, &s->cap_owned, s->nr_owned, sizeof(*n), 32);
	if (!n) {
		free(p);
		return NULL;
	}
	s->owned = n;
	s->owned[s->nr_owned++] = p;
	return p;
}

const char *owned_strdup(struct srep_session *s, const char *str, size_t len)
{
	return owned_keep(s, strndup(str, len));
}

void owned_free_all(struct srep_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_owned; i++)
		free(s->owned[i]);
	free(s->owned);
	s->owned = NULL;
	s->nr_owned = s->cap_owned = 0;
}
