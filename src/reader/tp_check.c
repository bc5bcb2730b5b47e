// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp_check.c - the shapes of the tracing data's texts that libtraceevent
 * trusts, checked before it parses them. Debian 12's libtraceevent 1.7.1
 * (and 1.8.4, the newest) has these faults on hostile text:
 *  - event-parse.c process_entry(): __print_flags(REC->x, ...) or
 *    __print_symbolic(REC->x, ...) over a field x the format does not have
 *    dereferences the NULL that tep_find_any_field() returned;
 *  - event_read_fields(): a field line without a type ("field:x;") leaks
 *    the field's name (the "no type found" path);
 *  - tep_parse_printk_formats(): a line without ':' (or with nothing after
 *    it) makes strdup(fmt + 1) read past the end of its copy;
 *  - eval_num_arg(): '/' and '%' in a print format's arguments divide
 *    without looking at the divisor, so "x % y" with y zero (or a word
 *    that reads as 0) raises SIGFPE, even while tep_parse_format() runs;
 *  - a print format cut inside a call ("x ? __print_flags(REC->f" and
 *    the end) leaves an operator without its left operand, which
 *    tep_parse_format() dereferences (SIGSEGV);
 *  - process_cond(): after the else-operand of "a ? b : c", a token that
 *    neither continues the expression nor ends the argument (';', ']',
 *    '}', another operand) makes the caller's error path dereference NULL
 *    (SIGSEGV).
 * So an event format is handed over only if it is printable text whose
 * field lines each have a type and a name; its print format only if it
 * names only its own fields, divides only by nonzero numbers, closes
 * every string and bracket it opens, and follows each conditional's
 * else-operand with an operator, ',' or ')' (else the text before it: the events
 * keep their fields, as when libtraceevent fails on a print format); a
 * printk line only if it is "ADDR:TEXT". The caller reports what fails.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define MAX_FIELDS	512	/* kernel events have a few dozen */
#define MAX_NEST	64	/* brackets in brackets: kernel formats nest a few */

struct fmt_fields {
	const char *name[MAX_FIELDS];
	size_t len[MAX_FIELDS];
	size_t nr;
};

static bool printable(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c != '\n' && c != '\t' && (c < 0x20 || c > 0x7e))
			return false;
	}
	return true;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* "field:TYPE NAME;" or "field:TYPE NAME[N];": a type, then the name */
static bool field_decl(const char *decl, size_t len, struct fmt_fields *ff)
{
	const char *end = memchr(decl, ';', len), *name, *type_end;

	if (!end)
		return false;
	while (end > decl && isspace((unsigned char)end[-1]))
		end--;
	if (end > decl && end[-1] == ']') {	/* an array: the name is before its [N] */
		while (end > decl && end[-1] != '[')
			end--;
		if (end > decl)
			end--;
	}
	name = end;
	while (name > decl && is_ident(name[-1]))
		name--;
	type_end = name;
	while (type_end > decl && isspace((unsigned char)type_end[-1]))
		type_end--;
	if (name == end || type_end == decl || ff->nr == MAX_FIELDS)
		return false;
	ff->name[ff->nr] = name;
	ff->len[ff->nr] = (size_t)(end - name);
	ff->nr++;
	return true;
}

static bool has_field(const struct fmt_fields *ff, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ff->nr; i++)
		if (ff->len[i] == len && !memcmp(ff->name[i], name, len))
			return true;
	return false;
}

/*
 * What follows a '/' or '%' operator: a nonzero number, with C's integer
 * suffixes, or the size of a type ("/ sizeof(u64)" in the kernel's dma
 * events; the size of a field could be a hostile 0).
 */
static bool nonzero_number(const char *p, const char *end)
{
	char buf[32], *num_end;
	unsigned long long v;
	size_t n;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p > 7 && !memcmp(p, "sizeof(", 7)) {	/* REC->x stops at its '-' */
		for (n = 7; p + n < end && (is_ident(p[n]) || p[n] == ' '); n++)
			;
		return n > 7 && p + n < end && p[n] == ')';
	}
	for (n = 0; p + n < end && isalnum((unsigned char)p[n]); n++)
		if (n == sizeof(buf) - 1)
			return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &num_end, 0);
	while (*num_end && strchr("uUlL", *num_end))
		num_end++;
	return n && !errno && v && !*num_end && isdigit((unsigned char)buf[0]);
}

/* brackets outside string literals: each closes the last one opened */
struct nest {
	char want[MAX_NEST];
	size_t depth;
};

static bool nest_step(struct nest *n, char c)
{
	static const char open[] = "({[", close[] = ")}]";
	const char *o = c ? strchr(open, c) : NULL, *cl = c ? strchr(close, c) : NULL;

	if (o) {
		if (n->depth == MAX_NEST)
			return false;
		n->want[n->depth++] = close[o - open];
		return true;
	}
	return !cl || (n->depth && n->want[--n->depth] == c);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* past the string literal or bracketed group that starts at p, or NULL */
static const char *skip_group(const char *p, const char *end)
{
	size_t depth = 0;
	bool quoted = false;

	for (; p < end; p++) {
		if (quoted) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (strchr("([{", *p)) {
			depth++;
		} else if (strchr(")]}", *p)) {
			depth--;
		}
		if (!depth && !quoted)
			return p + 1;
	}
	return NULL;
}

/* whether an operand can start at p (what a cast's closing ')' is followed by) */
static bool starts_operand(const char *p, const char *end)
{
	return p < end && (is_ident(*p) || *p == '"' || *p == '(');
}

/* past the "->x", ".x", "(...)" and "[...]" that follow an operand at p */
static const char *postfix_end(const char *p, const char *end)
{
	for (;;) {
		while (p < end && is_ident(*p))
			p++;
		if (p < end && (*p == '(' || *p == '[')) {
			if (!(p = skip_group(p, end)))
				return NULL;
		} else if (end - p > 2 && p[0] == '-' && p[1] == '>' && is_ident(p[2])) {
			p += 2;
		} else if (end - p > 1 && p[0] == '.' && is_ident(p[1])) {
			p++;
		} else {
			return p;
		}
	}
}

/*
 * Past one operand as libtraceevent's process_arg() reads it: unary
 * operators, then a string, a number or a name, or a bracketed group (a
 * cast when an operand follows it), with what follows it (postfix_end).
 * NULL when there is none.
 */
static const char *operand_end(const char *p, const char *end)
{
	for (;;) {
		p = skip_space(p, end);
		while (p < end && strchr("-!~*&+", *p))
			p = skip_space(p + 1, end);
		if (p == end || (*p != '"' && *p != '(' && !is_ident(*p)))
			return NULL;
		if (*p == '"')
			return skip_group(p, end);
		if (*p == '(') {
			if (!(p = skip_group(p, end)))
				return NULL;
			if (starts_operand(skip_space(p, end), end))
				continue;	/* "(type) x": the cast's operand follows */
		}
		return postfix_end(p, end);
	}
}

/* after a conditional's ':': its else-operand, then an operator, ',', ')' or the end */
static bool else_operand_ok(const char *p, const char *end)
{
	p = operand_end(p, end);
	if (!p)
		return false;
	p = skip_space(p, end);
	return p == end || strchr(",)+-*/%&|^<>=!?:", *p);
}

/*
 * Every REC->name outside string literals is a field of the format, every
 * divisor a nonzero number, strings and brackets close in order, and every
 * conditional's else-operand is followed by what can follow it.
 */
static bool print_fmt_ok(const char *p, const char *end, const struct fmt_fields *ff,
			 char *why, size_t why_size)
{
	struct nest nest = { .depth = 0 };
	bool quoted = false;

	for (; p < end; p++) {
		const char *n, *e;

		if (quoted) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				quoted = false;
			continue;
		}
		if (*p == '"')
			quoted = true;
		if (!quoted && !nest_step(&nest, *p)) {
			snprintf(why, why_size, "its print format closes a bracket it did not open, "
				 "or nests deeper than %d", MAX_NEST);
			return false;
		}
		if (!quoted && *p == ':' && !else_operand_ok(p + 1, end)) {
			snprintf(why, why_size, "its print format's conditional ends in '%.*s', not "
				 "in an operand and then an operator, ',' or ')'",
				 (int)(end - p - 1 > 20 ? 20 : end - p - 1), p + 1);
			return false;
		}
		if (!quoted && (*p == '/' || *p == '%') && !nonzero_number(p + 1, end)) {
			snprintf(why, why_size, "its print format divides by '%.*s', not a nonzero "
				 "number", (int)(end - p - 1 > 20 ? 20 : end - p - 1), p + 1);
			return false;
		}
		if (quoted || end - p <= 5 || memcmp(p, "REC->", 5))
			continue;
		for (n = e = p + 5; e < end && is_ident(*e); e++)
			;
		if (!has_field(ff, n, (size_t)(e - n))) {
			snprintf(why, why_size, "its print format names a field it lacks, '%.*s'",
				 (int)(e - n > 40 ? 40 : e - n), n);
			return false;
		}
		p = e - 1;
	}
	if (quoted || nest.depth) {
		snprintf(why, why_size, "its print format ends inside a %s", quoted ? "string" :
			 "bracket");
		return false;
	}
	return true;
}

/*
 * Where the print format's text starts, if the line at 'p' opens it: as
 * libtraceevent reads it, the words "print" and "fmt" and ':', with any
 * white space (new lines too) around them.
 */
static const char *print_fmt_start(const char *p, const char *end)
{
	static const char *const words[] = { "print", "fmt", ":" };
	size_t i, n;

	for (i = 0; i < 3; i++) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		n = strlen(words[i]);
		if ((size_t)(end - p) < n || memcmp(p, words[i], n) ||
		    (i < 2 && p + n < end && is_ident(p[n])))
			return NULL;
		p += n;
	}
	return p;
}

bool tp_check_format(const char *text, size_t len, size_t *use, char *name, size_t name_size,
		     char *why, size_t why_size)
{
	static struct fmt_fields empty;
	struct fmt_fields ff = empty;
	const char *p = text, *end = text + len, *nl, *pf;

	snprintf(name, name_size, "?");
	*use = len;
	why[0] = '\0';
	if (len > 6 && !strncmp(text, "name: ", 6)) {
		nl = memchr(text, '\n', len);
		snprintf(name, name_size, "%.*s", (int)((nl ? nl : end) - text - 6), text + 6);
		if (!printable(name, strlen(name)))
			snprintf(name, name_size, "?");
	}
	if (!printable(text, len)) {
		snprintf(why, why_size, "it is not text");
		return false;
	}
	for (; p < end; p = nl + 1) {
		const char *field;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (!strncmp(p, "name: ", 6) && nl - p > 6)
			snprintf(name, name_size, "%.*s", (int)(nl - p - 6), p + 6);
		else if ((pf = print_fmt_start(p, end))) {
			while (isspace((unsigned char)*p))
				p++;	/* the text up to the word "print" */
			if (!print_fmt_ok(pf, end, &ff, why, why_size))
				*use = (size_t)(p - text);
			return true;
		}
		field = memmem(p, (size_t)(nl - p), "field:", 6);
		if (field && !field_decl(field + 6, (size_t)(nl - field - 6), &ff)) {
			snprintf(why, why_size, "a field line has no type or name: '%.*s'",
				 (int)(nl - field > 60 ? 60 : nl - field), field);
			return false;
		}
	}
	return true;
}

size_t tp_check_printk(char *text, size_t len)
{
	/* libtraceevent's copy ends at the first NUL: so do the lines it splits */
	char *r = text, *w = text, *end = text + strnlen(text, len), *nl;
	size_t dropped = 0;

	for (; r < end; r = nl + 1) {
		char *token, *colon;

		nl = memchr(r, '\n', (size_t)(end - r));
		if (!nl)
			nl = end;
		if (nl == r)
			continue;
		/* as strtok_r() splits it: leading ':'s skipped, a word, ':', the text */
		for (token = r; token < nl && *token == ':'; token++)
			;
		colon = token < nl ? memchr(token, ':', (size_t)(nl - token)) : NULL;
		if (!colon || colon + 1 >= nl) {
			dropped++;
			continue;
		}
		memmove(w, r, (size_t)(nl - r));
		w += nl - r;
		*w++ = '\n';
	}
	*w = '\0';
	return dropped;
}
