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

static bool parse_hex(const char **p, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;
	char c;

	while (isxdigit((unsigned char)(c = **p)) && n < 16) {
		v = v << 4 | (uint64_t)(isdigit((unsigned char)c) ? c - '0' : tolower(c) - 'a' + 10);
		(*p)++;
		n++;
	}
	*out = v;
	return n > 0 && !isxdigit((unsigned char)**p);
}

/*
 * "ADDR TYPE NAME[\t[MODULE]]": 'line' is NUL-terminated and writable.
 * Returns 1 to keep, 0 to leave out, -1 for a line of another shape.
 */
static int parse_line(char *line, struct sym_entry *out)
{
	const char *p = line;
	char *name, *tab;
	char type;

	if (!parse_hex(&p, &out->start) || p[0] != ' ' || !p[1] || p[2] != ' ' || !p[3])
		return -1;
	type = p[1];
	name = line + (p - line) + 3;
	tab = strchr(name, '\t');
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

static void note_ref(struct ksym_table *t, const struct sym_entry *e)
{
	if (e->module)
		return;
	if (!strcmp(e->name, "_text"))
		t->ref_text = e->start;
	else if (!strcmp(e->name, "_stext"))
		t->ref_stext = e->start;
}

static int parse_lines(struct ksym_table *t)
{
	char *line = t->text, *nl;
	struct sym_entry e;
	int r;

	for (; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!*line)
			continue;
		r = parse_line(line, &e);
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

int ksym_table_parse(struct ksym_table *t, const char *text, size_t len,
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
	/* a NUL inside the text ends it, as it ends a string read from /proc */
	t->text[len] = '\0';
	if (parse_lines(t)) {
		ksym_table_free(t);
		return srep_error__set(err, SREP_E_NOMEM, "kallsyms: no memory for the symbols");
	}
	symtab_finish(&t->tab, true);
	return 0;
}

int ksym_table_load(struct ksym_table *t, const char *path, struct srep_error *err)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf;
	size_t n;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		ret = srep_error__set(err, SREP_E_IO, "kallsyms '%s': %s", path,
				      f ? "not a regular file" : strerror(errno));
		if (f)
			fclose(f);
		return ret;
	}
	if ((uint64_t)st.st_size > SYM_MAX_KALLSYMS) {
		fclose(f);
		return srep_error__set(err, SREP_E_LIMIT, "kallsyms '%s': %lld bytes is more than "
				       "a kernel's symbols take", path, (long long)st.st_size);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(f);
		return srep_error__set(err, SREP_E_NOMEM, "kallsyms '%s': no memory", path);
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	ret = ferror(f) ? srep_error__set(err, SREP_E_IO, "kallsyms '%s': read error", path) :
		ksym_table_parse(t, buf, n, err);
	fclose(f);
	free(buf);
	return ret;
}

void ksym_table_free(struct ksym_table *t)
{
	symtab_free(&t->tab);
	free(t->text);
	memset(t, 0, sizeof(*t));
}
