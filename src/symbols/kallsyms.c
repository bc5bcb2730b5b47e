// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms.c - kernel symbols from a copy of the target's /proc/kallsyms
 * (or the kallsyms inside an old perf's tracing data).
 *
 * As in perf, only function and data symbols (T, W, D, B in either case)
 * are kept and ARM mapping symbols ("$a", "$d") are not; a 'W' is weak and
 * every other kept symbol counts as global, local ones too, because perf
 * upper-cases the type before it derives the binding. symtab.c does the
 * rest.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sym_local.h"

static bool keep_type(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* hex digit values, -1 for other characters: no locale calls per character */
static int8_t hex_value[256];

static void init_hex(void)
{
	int c;

	if (hex_value['1'])
		return;
	for (c = 0; c < 256; c++)
		hex_value[c] = -1;
	for (c = 0; c < 10; c++)
		hex_value['0' + c] = (int8_t)c;
	for (c = 0; c < 6; c++)
		hex_value['a' + c] = hex_value['A' + c] = (int8_t)(10 + c);
}

static bool parse_hex(const char **p, uint64_t *out)
{
	const unsigned char *q = (const unsigned char *)*p;
	uint64_t v = 0;
	int n = 0;

	while (hex_value[*q] >= 0 && n < 16) {
		v = v << 4 | (uint64_t)hex_value[*q++];
		n++;
	}
	*p = (const char *)q;
	*out = v;
	return n > 0 && hex_value[*q] < 0;
}

/*
 * "ADDR TYPE NAME[\t[MODULE]]": 'line' runs up to 'end' (its newline or the
 * text's NUL), which becomes a NUL; the name and module are terminated in
 * place. Returns 1 to keep, 0 to leave out, -1 for a line of another shape.
 */
static int parse_line(char *line, char *end, struct sym_entry *out)
{
	const char *p = line;
	char *name, *tab;
	char type;

	*end = '\0';
	if (!parse_hex(&p, &out->start) || p[0] != ' ' || !p[1] || p[2] != ' ' || !p[3])
		return -1;
	type = p[1];
	name = line + (p - line) + 3;
	/* memchr, like the newline's: a byte loop was slower than two vector scans */
	tab = memchr(name, '\t', (size_t)(end - name));
	out->module = NULL;
	if (tab) {
		*tab = '\0';
		out->module = tab + 1;
	}
	out->name = name;
	out->end = out->start;
	out->binding = toupper((unsigned char)type) == 'W' ? SYM_WEAK : SYM_GLOBAL;
	return keep_type(type) && name[0] != '$' && name[0] ? 1 : 0;
}

static void note_ref(struct kallsyms_table *t, const struct sym_entry *e)
{
	if (e->module || e->name[0] != '_')
		return;
	if (!strcmp(e->name, "_text"))
		t->ref_text = e->start;
	else if (!strcmp(e->name, "_stext"))
		t->ref_stext = e->start;
}

/* every line once, no count of lines first; a NUL inside the text ends it, as in /proc */
static int parse_lines(struct kallsyms_table *t)
{
	char *line = t->text, *end = line + strlen(line), *nl;
	struct sym_entry e;
	int r;

	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		if (nl == line)
			continue;
		r = parse_line(line, nl, &e);
		if (r < 0) {
			t->bad_lines++;
			continue;
		}
		note_ref(t, &e);
		if (r > 0 && symtab_add(&t->tab, &e))
			return SREP_E_NOMEM;
	}
	return 0;
}

/* parse t->text, 'len' bytes and a NUL, owned by the table */
static int parse_text(struct kallsyms_table *t, size_t len, struct srep_error *err)
{
	t->text[len] = '\0';
	init_hex();
	/* lines are 30 to 60 bytes: room for most tables, symtab_add() grows the rest */
	if (symtab_reserve(&t->tab, len / 32 + 16) || parse_lines(t)) {
		kallsyms_free(t);
		return srep_error__set(err, SREP_E_NOMEM, "kallsyms: no memory for the symbols");
	}
	symtab_finish(&t->tab, true);
	return 0;
}

int kallsyms_parse(struct kallsyms_table *t, const char *text, size_t len,
		   struct srep_error *err)
{
	memset(t, 0, sizeof(*t));
	if (len > SYM_MAX_KALLSYMS)
		return srep_error__set(err, SREP_E_LIMIT, "kallsyms: %zu bytes is more than "
				       "the %u a kernel's symbols take", len, SYM_MAX_KALLSYMS);
	t->text = malloc(len + 1);
	if (!t->text)
		return srep_error__set(err, SREP_E_NOMEM, "kallsyms: no memory for %zu bytes", len);
	memcpy(t->text, text, len);
	return parse_text(t, len, err);
}

/* the whole file into t->text (NUL room kept); /proc/kallsyms says its size is 0 */
static int read_all(struct kallsyms_table *t, FILE *f, size_t hint, size_t *len)
{
	size_t cap = hint ? hint + 1 : 1u << 20, n = 0, r;
	char *p;

	for (;;) {
		p = realloc(t->text, cap);
		if (!p)
			return SREP_E_NOMEM;
		t->text = p;
		r = fread(t->text + n, 1, cap - 1 - n, f);
		n += r;
		if (n < cap - 1)
			break;
		if (cap - 1 >= SYM_MAX_KALLSYMS)
			return SREP_E_LIMIT;
		cap = cap * 2 - 1 > (size_t)SYM_MAX_KALLSYMS + 1 ? (size_t)SYM_MAX_KALLSYMS + 1 :
		      cap * 2 - 1;
	}
	*len = n;
	return ferror(f) ? SREP_E_IO : 0;
}

int kallsyms_load(struct kallsyms_table *t, const char *path, struct srep_error *err)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	size_t n = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		ret = srep_error__set(err, SREP_E_IO, "kallsyms '%s': %s", path,
				      f ? "not a regular file" : strerror(errno));
		if (f)
			fclose(f);
		return ret;
	}
	/* read straight into the buffer the names will point into */
	ret = (uint64_t)st.st_size > SYM_MAX_KALLSYMS ? SREP_E_LIMIT :
	      read_all(t, f, (size_t)st.st_size, &n);
	fclose(f);
	if (ret) {
		kallsyms_free(t);
		return srep_error__set(err, ret, "kallsyms '%s': %s", path,
				       ret == SREP_E_LIMIT ? "more bytes than a kernel's symbols take" :
				       ret == SREP_E_NOMEM ? "no memory" : "read error");
	}
	return parse_text(t, n, err);
}

void kallsyms_free(struct kallsyms_table *t)
{
	symtab_free(&t->tab);
	free(t->text);
	memset(t, 0, sizeof(*t));
}
