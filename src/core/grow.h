/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grow.h - the growth rule of the library's appendable arrays: room for one
 * more element, doubling from a first capacity.
 */
#ifndef SREP_GROW_H
#define SREP_GROW_H

#include <stdint.h>
#include <stdlib.h>

/*
 * The array 'v' of '*cap' elements of 'elem' bytes, 'nr' in use, with room
 * for one more: 'v' itself when there is room, else reallocated to twice
 * its capacity ('first' when empty) and '*cap' updated. NULL when the
 * memory is not there (or the size would overflow): 'v' and '*cap' are then
 * unchanged, still owned by the caller.
 */
static inline void *grow_array(void *v, size_t *cap, size_t nr, size_t elem, size_t first)
{
	size_t n;
	void *p;

	if (nr < *cap)
		return v;
	if (*cap > SIZE_MAX / 2 / elem)
		return NULL;
	n = *cap ? 2 * *cap : first;
	p = realloc(v, n * elem);
	if (p)
		*cap = n;
	return p;
}

/*
 * The buffer 'v' of '*cap' elements with room for 'n' of them (what is in it
 * is kept): 'v' itself when it is big enough, else reallocated to exactly
 * 'n'. NULL without memory ('v' and '*cap' unchanged).
 */
static inline void *grow_to(void *v, size_t *cap, size_t n, size_t elem)
{
	void *p;

	if (n <= *cap)
		return v;
	if (n > SIZE_MAX / elem)
		return NULL;
	p = realloc(v, n * elem);
	if (p)
		*cap = n;
	return p;
}

#endif /* SREP_GROW_H */
