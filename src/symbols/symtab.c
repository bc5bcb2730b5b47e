// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symtab.c - symbol tables that answer as the target's perf does.
 *
 * perf (tools/perf/util/symbol.c, 6.1) builds its tables in three steps,
 * and the names it prints depend on each of them, so they are repeated
 * here for kallsyms and ELF tables alike:
 *  1. a symbol without a size ends where the next one starts; in kallsyms,
 *     the last symbol before the kernel/module border gets one page instead
 *     (the gap up to the modules is not the kernel's), and the very last
 *     symbol ends one page after its start, rounded up;
 *  2. of several symbols at one address one is kept: the one with a size,
 *     else not weak, else global, else with fewer leading underscores, else
 *     the longer name, else the first (perf's choose_best_symbol()); in a
 *     kallsyms file every symbol starts without a size, so step 1 leaves a
 *     size to the last of a group only, and that one wins;
 *  3. an address belongs to the symbol with start <= address < end.
 */
#include <stdlib.h>
#include <string.h>

#include "sym_local.h"
#include "grow.h"

int symtab_add(struct symtab *t, const struct sym_entry *e)
{
	struct sym_entry *n = grow_array(t->e, &t->cap, t->nr, sizeof(*n), 256);

	if (!n)
		return SREP_E_NOMEM;
	t->e = n;
	t->e[t->nr] = *e;
	t->e[t->nr].order = (uint32_t)t->nr;
	t->nr++;
	return 0;
}

int symtab_reserve(struct symtab *t, size_t nr)
{
	struct sym_entry *n;

	if (nr <= t->cap)
		return 0;
	n = realloc(t->e, nr * sizeof(*n));
	if (!n)
		return SREP_E_NOMEM;
	t->e = n;
	t->cap = nr;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Into cmp_entry()'s order. kallsyms lists the kernel in address order and
 * only some modules after it out of order (armhf, s390x): the ordered head
 * stays, the tail is sorted alone and merged in, from the back.
 */
static void sort_entries(struct sym_entry *e, size_t nr)
{
	size_t head = 1, i, j, k;
	struct sym_entry *tail;

	while (head < nr && cmp_entry(&e[head - 1], &e[head]) <= 0)
		head++;
	if (head >= nr)
		return;
	qsort(e + head, nr - head, sizeof(*e), cmp_entry);
	tail = malloc((nr - head) * sizeof(*e));
	if (!tail) {
		qsort(e, nr, sizeof(*e), cmp_entry);
		return;
	}
	memcpy(tail, e + head, (nr - head) * sizeof(*e));
	i = head, j = nr - head, k = nr;
	while (j > 0) {
		if (i > 0 && cmp_entry(&e[i - 1], &tail[j - 1]) > 0)
			e[--k] = e[--i];
		else
			e[--k] = tail[--j];
	}
	free(tail);
}

static uint64_t page_up(uint64_t v)
{
	return (v + 4095) & ~(uint64_t)4095;
}

static void fixup_end(struct sym_entry *e, size_t nr, bool kallsyms)
{
	size_t i;

	for (i = 0; i + 1 < nr; i++) {
		if (e[i].end != e[i].start)
			continue;
		if (kallsyms && !e[i].module != !e[i + 1].module)
			e[i].end = page_up(e[i].start + 4096);
		else
			e[i].end = e[i + 1].start;
	}
	if (nr && e[nr - 1].end == e[nr - 1].start)
		e[nr - 1].end = page_up(e[nr - 1].start) + 4096;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when 'b' is preferred to 'a' */
static bool better(const struct sym_entry *a, const struct sym_entry *b)
{
	bool a_len = a->end > a->start, b_len = b->end > b->start;
	size_t ua, ub;

	if (a_len != b_len)
		return b_len;
	if ((a->binding == SYM_WEAK) != (b->binding == SYM_WEAK))
		return a->binding == SYM_WEAK;
	if ((a->binding == SYM_GLOBAL) != (b->binding == SYM_GLOBAL))
		return b->binding == SYM_GLOBAL;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ub < ua;
	return strlen(b->name) > strlen(a->name);
}

void symtab_finish(struct symtab *t, bool kallsyms)
{
	size_t i, out = 0, best;
	struct sym_entry *n;

	if (!t->nr)
		return;
	sort_entries(t->e, t->nr);
	fixup_end(t->e, t->nr, kallsyms);
	for (i = 0; i < t->nr; ) {
		best = i;
		while (++i < t->nr && t->e[i].start == t->e[best].start) {
			if (better(&t->e[best], &t->e[i]))
				best = i;
		}
		t->e[out++] = t->e[best];
	}
	t->nr = out;
	/* give back what the duplicates took; keeping the bigger block is fine too */
	n = realloc(t->e, out * sizeof(*n));
	if (n) {
		t->e = n;
		t->cap = out;
	}
}

const struct sym_entry *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr, mid;

	/* the last symbol starting at or below addr */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->e[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->e[lo - 1].end)
		return NULL;
	return &t->e[lo - 1];
}

void symtab_free(struct symtab *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}
