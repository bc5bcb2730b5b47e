// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp_native.c - the text of a sched_* tracepoint as libtraceevent's
 * tep_print_event() prints it, written without libtraceevent per event.
 *
 * tep_print_event() walks the parsed print format for every payload
 * (vsnprintf per argument, a trace_seq per string). The sched events'
 * formats are simple: literal text, "%d"/"%u"/"%Lu"/"%03d" of a field,
 * "%s" of a char array or a __data_loc string. At bind time the format
 * libtraceevent parsed is compiled into pieces, each doing what
 * libtraceevent would; a format with anything else is not compiled, and
 * its events go on through libtraceevent (tp_print).
 *
 * One run of arguments may be an expression of a single numeric field
 * (sched_switch's "prev_state=%s%s", whose flag letters differ between
 * kernels): libtraceevent prints it, once per distinct value, on a zeroed
 * record holding that value; the text between the natively printed rest
 * is remembered. A payload a piece cannot print as libtraceevent would
 * (a string without its NUL) is left to libtraceevent too.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <schedrep/text.h>

#include "reader.h"
#include "tp_local.h"

#define NV_PIECES	32		/* sched formats have up to 17 */
#define NV_MEMO		32		/* distinct values of the expression remembered */
#define NV_TEXT_MAX	64		/* longest remembered expression text */

enum piece_kind {
	PC_TEXT,		/* literal text of the format */
	PC_INT,			/* %d %i %u and the like of a numeric field */
	PC_CHARS,		/* %s of a char array: up to its NUL or its end */
	PC_DYNSTR,		/* %s of a __data_loc / __rel_loc string */
	PC_EXPR,		/* an argument libtraceevent evaluates (see top) */
};

struct piece {
	enum piece_kind kind;
	const char *text;		/* PC_TEXT, in the tep handle's copy of the format */
	uint32_t len;
	uint32_t off, size;		/* the field */
	bool rel;			/* PC_DYNSTR: a __rel_loc */
	bool wide;			/* PC_INT: %L / %ll, else the low 32 bits */
	bool is_unsigned;		/* PC_INT: %u */
	bool zero_pad;
	uint8_t width;
};

struct memo_entry {
	uint64_t value;
	uint8_t len;
	char text[NV_TEXT_MAX];
};

struct tp_native {
	struct tep_handle *tep;
	struct tep_event *tev;
	bool swap, big_endian;
	struct piece p[NV_PIECES];
	unsigned nr;
	unsigned expr_first, expr_end;	/* the PC_EXPR run, [first, end); empty: none */
	uint32_t key_off, key_size;	/* the field the expressions read */
	uint32_t type_off, type_size;	/* common_type: libtraceevent picks the format by it */
	struct memo_entry memo[NV_MEMO];
	unsigned memo_nr, memo_next;
	struct tp_synth synth;		/* libtraceevent's text for a key value */
};

/* ---- Text output, snprintf rules: what does not fit is counted, not written ---- */

struct out {
	char *buf;
	size_t size, len;
};

static inline void out_put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

/* printf's %[0][width]d / u of v; neg says v is the magnitude of a negative number */
static void out_int(struct out *o, uint64_t v, bool neg, const struct piece *pc)
{
	char num[SREP_U64_TEXT_MAX], pad[32];
	size_t n = (size_t)(srep_u64_text(num, v) - num), fill = 0;

	if (pc->width > n + neg)
		fill = pc->width - n - neg;
	if (fill && !pc->zero_pad) {
		memset(pad, ' ', fill);
		out_put(o, pad, fill);
	}
	if (neg)
		out_put(o, "-", 1);
	if (fill && pc->zero_pad) {
		memset(pad, '0', fill);
		out_put(o, pad, fill);
	}
	out_put(o, num, n);
}

/* ---- Compiling the print format ---- */

static struct tep_format_field *arg_field(struct tep_event *tev, struct tep_print_arg *a)
{
	if (a->type == TEP_PRINT_FIELD)
		return a->field.field ? a->field.field : tep_find_any_field(tev, a->field.name);
	if (a->type == TEP_PRINT_STRING)
		return a->string.field ? a->string.field : tep_find_any_field(tev, a->string.string);
	return NULL;
}

static bool numeric(const struct tep_format_field *f)
{
	return f && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && f->offset >= 0 &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/*
 * An expression libtraceevent may evaluate on a synthetic record: made of
 * operators, constants, flag and symbol tables and casts over one numeric
 * field (*key); no function calls, pointers or strings of the record.
 */
static bool expr_of_one_field(struct tep_event *tev, struct tep_print_arg *a,
			      struct tep_format_field **key)
{
	struct tep_format_field *f;

	if (!a)
		return true;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return true;
	case TEP_PRINT_FIELD:
		f = arg_field(tev, a);
		if (!numeric(f) || (*key && *key != f))
			return false;
		*key = f;
		return true;
	case TEP_PRINT_OP:
		return expr_of_one_field(tev, a->op.left, key) &&
		       expr_of_one_field(tev, a->op.right, key);
	case TEP_PRINT_FLAGS:
		return expr_of_one_field(tev, a->flags.field, key);
	case TEP_PRINT_SYMBOL:
		return expr_of_one_field(tev, a->symbol.field, key);
	case TEP_PRINT_TYPE:
		return expr_of_one_field(tev, a->typecast.item, key);
	default:
		return false;
	}
}

/* "%d", "%03d", "%u", "%Lu", "%lld", "%s": the conversion at fmt, or 0 if another */
static size_t conversion(const char *fmt, struct piece *pc, char *conv)
{
	size_t i = 1;

	pc->zero_pad = fmt[i] == '0';
	i += pc->zero_pad;
	if (fmt[i] >= '1' && fmt[i] <= '9')
		pc->width = (uint8_t)(fmt[i++] - '0');
	if (fmt[i] == 'L') {
		pc->wide = true;
		i++;
	} else if (fmt[i] == 'l' && fmt[i + 1] == 'l') {
		pc->wide = true;
		i += 2;
	}
	*conv = fmt[i];
	if (*conv == 's' && (pc->zero_pad || pc->width || pc->wide))
		return 0;
	if (*conv != 's' && *conv != 'd' && *conv != 'i' && *conv != 'u')
		return 0;
	pc->is_unsigned = *conv == 'u';
	return i + 1;
}

/* the piece printing argument a with conversion conv; false if none can */
static bool compile_arg(struct tp_native *nv, struct piece *pc, char conv,
			struct tep_print_arg *a, struct tep_format_field **key)
{
	struct tep_print_arg *item = a;
	struct tep_format_field *f;

	if (conv != 's' && a->type == TEP_PRINT_TYPE && a->typecast.type &&
	    !strcmp(a->typecast.type, "unsigned long long"))
		item = a->typecast.item;	/* a no-op for the 64 bits read */
	f = item ? arg_field(nv->tev, item) : NULL;
	if (conv != 's' && item && item->type == TEP_PRINT_FIELD && numeric(f)) {
		pc->kind = PC_INT;
	} else if (conv == 's' && a->type == TEP_PRINT_FIELD && f && f->offset >= 0 &&
		   f->size > 0 && (f->flags & TEP_FIELD_IS_ARRAY) &&
		   !(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		pc->kind = PC_CHARS;
	} else if (conv == 's' && a->type == TEP_PRINT_STRING && f && f->offset >= 0 &&
		   (f->flags & TEP_FIELD_IS_DYNAMIC) && (f->size == 2 || f->size == 4)) {
		pc->kind = PC_DYNSTR;
		pc->rel = (f->flags & TEP_FIELD_IS_RELATIVE) != 0;
	} else if (expr_of_one_field(nv->tev, a, key) && *key) {
		pc->kind = PC_EXPR;
		return true;
	} else {
		return false;
	}
	pc->off = (uint32_t)f->offset;
	pc->size = (uint32_t)f->size;
	return true;
}

/* the PC_EXPR pieces must be one run, after which nothing else is an expression */
static bool note_expr(struct tp_native *nv, unsigned idx)
{
	if (nv->expr_end == nv->expr_first) {
		nv->expr_first = idx;
	} else if (nv->expr_end != idx) {
		/* literal text between two expressions joins the run; a field does not */
		unsigned i;

		for (i = nv->expr_end; i < idx; i++)
			if (nv->p[i].kind != PC_TEXT)
				return false;
	}
	nv->expr_end = idx + 1;
	return true;
}

static bool compile(struct tp_native *nv)
{
	struct tep_event *tev = nv->tev;
	struct tep_print_arg *a = tev->print_fmt.args;
	struct tep_format_field *key = NULL;
	const char *fmt = tev->print_fmt.format;
	struct piece *pc;
	size_t n;
	char conv;

	if (!fmt || tev->handler || (tev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_PRINTRAW |
						   TEP_EVENT_FL_ISBPRINT)))
		return false;
	while (*fmt) {
		if (nv->nr == NV_PIECES)
			return false;
		pc = &nv->p[nv->nr];
		memset(pc, 0, sizeof(*pc));
		if (*fmt != '%') {
			n = strcspn(fmt, "%\\");
			if (!n)
				return false;	/* escapes: left to libtraceevent */
			pc->kind = PC_TEXT;
			pc->text = fmt;
			pc->len = (uint32_t)n;
		} else {
			n = conversion(fmt, pc, &conv);
			if (!n || !a || !compile_arg(nv, pc, conv, a, &key))
				return false;
			if (pc->kind == PC_EXPR && !note_expr(nv, nv->nr))
				return false;
			a = a->next;
		}
		fmt += n;
		nv->nr++;
	}
	if (a)
		return false;		/* arguments the format does not print */
	if (key) {
		nv->key_off = (uint32_t)key->offset;
		nv->key_size = (uint32_t)key->size;
	}
	return true;
}

struct tp_native *tp_native_new(struct tep_handle *tep, struct tep_event *tev, bool big_endian)
{
	struct tep_format_field *type;
	struct tp_native *nv;

	if (!tev->system || strcmp(tev->system, "sched"))
		return NULL;
	nv = calloc(1, sizeof(*nv));
	if (!nv)
		return NULL;
	nv->tep = tep;
	nv->tev = tev;
	nv->big_endian = big_endian;
	nv->swap = srep_swap_for(big_endian);
	type = tep_find_common_field(tev, "common_type");
	if (numeric(type)) {
		nv->type_off = (uint32_t)type->offset;
		nv->type_size = (uint32_t)type->size;
	}
	if (!nv->type_size || !compile(nv) ||
	    (nv->key_size && tp_synth_init(&nv->synth, tep, tev, nv->key_off, nv->key_size,
					   big_endian))) {
		tp_native_free(nv);
		return NULL;
	}
	return nv;
}

void tp_native_free(struct tp_native *nv)
{
	if (!nv)
		return;
	tp_synth_free(&nv->synth);
	free(nv);
}

/* ---- Printing ---- */

/* one piece other than PC_EXPR; false: libtraceevent would print otherwise */
static bool print_piece(const struct tp_native *nv, const struct piece *pc, const uint8_t *raw,
			uint32_t n, struct out *o)
{
	const uint8_t *nul;
	uint32_t off, len;
	uint64_t v;

	switch (pc->kind) {
	case PC_TEXT:
		out_put(o, pc->text, pc->len);
		return true;
	case PC_INT:
		if (pc->off > n || pc->size > n - pc->off ||
		    !srep_get_uint(raw + pc->off, pc->size, nv->swap, &v))
			return false;
		if (!pc->wide)		/* libtraceevent passes (int)val */
			v = pc->is_unsigned ? (uint32_t)v : (uint64_t)(int64_t)(int32_t)v;
		if (!pc->is_unsigned && (int64_t)v < 0)
			out_int(o, 0 - v, true, pc);
		else
			out_int(o, v, false, pc);
		return true;
	case PC_CHARS:
		if (pc->off > n || pc->size > n - pc->off)
			return false;
		nul = memchr(raw + pc->off, 0, pc->size);
		out_put(o, (const char *)raw + pc->off, nul ? (size_t)(nul - (raw + pc->off)) : pc->size);
		return true;
	case PC_DYNSTR:
		if (!tp_loc_region(pc->off, pc->size, pc->rel, raw, n, nv->swap, &off, &len))
			return false;
		if (!len)
			return true;	/* libtraceevent prints nothing for an empty one */
		/* it prints up to the NUL, wherever that is: only a NUL inside is ours */
		nul = memchr(raw + off, 0, len);
		if (!nul)
			return false;
		out_put(o, (const char *)raw + off, (size_t)(nul - (raw + off)));
		return true;
	default:
		return false;
	}
}

static bool print_range(const struct tp_native *nv, unsigned from, unsigned to,
			const uint8_t *raw, uint32_t n, struct out *o)
{
	unsigned i;

	for (i = from; i < to; i++)
		if (!print_piece(nv, &nv->p[i], raw, n, o))
			return false;
	return true;
}

/*
 * The expression run's text for value v: libtraceevent prints the synthetic
 * record holding v; the run is what lies between the natively printed rest.
 */
static bool expr_eval(struct tp_native *nv, uint64_t v, struct memo_entry *e)
{
	char before[256], after[256];
	struct out ob = { before, sizeof(before), 0 }, oa = { after, sizeof(after), 0 };
	const uint8_t *rec = nv->synth.rec;
	struct trace_seq seq;
	bool ok = false;
	size_t len;

	if (!tp_synth_print(&nv->synth, v, &seq))
		return false;
	/* the natively printed rest, of the same record (the value written in) */
	if (print_range(nv, 0, nv->expr_first, rec, nv->synth.size, &ob) &&
	    print_range(nv, nv->expr_end, nv->nr, rec, nv->synth.size, &oa) &&
	    ob.len < sizeof(before) && oa.len < sizeof(after) && seq.len >= ob.len + oa.len) {
		len = seq.len - ob.len - oa.len;
		if (len < NV_TEXT_MAX && !memcmp(seq.buffer, before, ob.len) &&
		    !memcmp(seq.buffer + seq.len - oa.len, after, oa.len)) {
			memcpy(e->text, seq.buffer + ob.len, len);
			e->len = (uint8_t)len;
			e->value = v;
			ok = true;
		}
	}
	trace_seq_destroy(&seq);
	return ok;
}

static const struct memo_entry *expr_text(struct tp_native *nv, const uint8_t *raw, uint32_t n)
{
	struct memo_entry e;
	uint64_t v;
	unsigned i;

	if (nv->key_off > n || nv->key_size > n - nv->key_off ||
	    !srep_get_uint(raw + nv->key_off, nv->key_size, nv->swap, &v))
		return NULL;
	for (i = 0; i < nv->memo_nr; i++)
		if (nv->memo[i].value == v)
			return &nv->memo[i];
	if (!expr_eval(nv, v, &e))
		return NULL;
	/* full: overwrite round robin (real traces show a handful of values) */
	i = nv->memo_nr < NV_MEMO ? nv->memo_nr++ : nv->memo_next++ % NV_MEMO;
	nv->memo[i] = e;
	return &nv->memo[i];
}

static bool print_all(struct tp_native *nv, const uint8_t *raw, uint32_t n, struct out *o)
{
	const struct memo_entry *e;

	if (nv->expr_end == nv->expr_first)
		return print_range(nv, 0, nv->nr, raw, n, o);
	e = expr_text(nv, raw, n);
	if (!e || !print_range(nv, 0, nv->expr_first, raw, n, o))
		return false;
	out_put(o, e->text, e->len);
	return print_range(nv, nv->expr_end, nv->nr, raw, n, o);
}

/* libtraceevent prints the format its common_type names: another one is its to print */
static bool own_type(const struct tp_native *nv, const uint8_t *raw, uint32_t n)
{
	uint64_t v;

	return nv->type_off <= n && nv->type_size <= n - nv->type_off &&
	       srep_get_uint(raw + nv->type_off, nv->type_size, nv->swap, &v) &&
	       v == (uint64_t)(uint32_t)nv->tev->id;
}

int tp_native_print(struct tp_native *nv, const uint8_t *raw, uint32_t n, char *buf, size_t size)
{
	struct out o = { buf, size ? size - 1 : 0, 0 };	/* room for the NUL */

	if (!own_type(nv, raw, n) || !print_all(nv, raw, n, &o) || o.len > INT_MAX)
		return -1;
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}
