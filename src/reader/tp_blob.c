// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp_blob.c - the tracing data blob (FORMATS.md A.10): page and event
 * headers, the event formats of every system, kallsyms, printk formats and
 * saved cmdlines, read with bounds and handed to libtraceevent after it has
 * been told the blob's byte order, long size and page size.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_local.h"

#define TP_MAGIC	"\x17\x08\x44tracing"
#define TP_MAGIC_LEN	10

/* ---- The tracing data blob ---- */

struct blob {
	struct srep_session *s;
	struct srep_error *err;
	struct tep_handle *tep;
	struct srep_cur c;		/* swap is set once the endian byte is read */
	int64_t rec_type;		/* 66 in pipe mode; a file's feature 1 has none */
	bool big_endian;
	int long_size, page_size;	/* as the blob says (meta reports them) */
	int nr_failed;			/* formats libtraceevent rejected */
	uint64_t first_failed_off;
	char first_failed_sys[64];
};

__attribute__((format(printf, 4, 5)))
static int blob_fail(struct blob *b, int code, uint64_t at, const char *fmt, ...)
{
	char msg[SREP_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag_err(b->s, b->err, code, at, b->rec_type, "tracing data: %s", msg);
}

/* a NUL-terminated string inside the blob */
static int blob_string(struct blob *b, const char *what, const char **str, size_t *len)
{
	const uint8_t *nul = memchr(b->c.p, 0, srep_cur_left(&b->c));

	if (!nul)
		return blob_fail(b, SREP_E_TRUNCATED, b->c.off,
				 "%s: expected a NUL-terminated string, none in the %zu bytes left",
				 what, srep_cur_left(&b->c));
	*str = (const char *)b->c.p;
	*len = (size_t)(nul - b->c.p);
	srep_cur_skip(&b->c, *len + 1);
	return 0;
}

/* a size of 'width' bytes, then that many bytes, all inside the blob */
static int blob_sized(struct blob *b, const char *what, unsigned width,
		      const uint8_t **p, size_t *len)
{
	uint64_t at = b->c.off, size = 0;
	uint32_t size32 = 0;
	bool ok;

	if (width == 4) {
		ok = srep_cur_u32(&b->c, &size32);
		size = size32;
	} else {
		ok = srep_cur_u64(&b->c, &size);
	}
	if (!ok)
		return blob_fail(b, SREP_E_TRUNCATED, at, "%s: expected a %u-byte size, %zu bytes left",
				 what, width, srep_cur_left(&b->c));
	if (size > srep_cur_left(&b->c))
		return blob_fail(b, SREP_E_TRUNCATED, at, "%s: size %llu exceeds the %zu bytes left",
				 what, (unsigned long long)size, srep_cur_left(&b->c));
	*len = (size_t)size;
	srep_cur_bytes(&b->c, *len, p);
	return 0;
}

static int blob_u32(struct blob *b, const char *what, uint32_t *v)
{
	if (srep_cur_u32(&b->c, v))
		return 0;
	return blob_fail(b, SREP_E_TRUNCATED, b->c.off, "%s: expected a u32, %zu bytes left",
			 what, srep_cur_left(&b->c));
}

/* magic, version, byte order, long size, page size; sets up the tep handle */
static int blob_preamble(struct blob *b, const char **version, size_t *vlen)
{
	uint8_t endian = 0, lsize = 0;
	uint32_t page = 0;
	int ret;

	if (srep_cur_left(&b->c) < TP_MAGIC_LEN || memcmp(b->c.p, TP_MAGIC, TP_MAGIC_LEN))
		return blob_fail(b, SREP_E_TRACING, b->c.off,
				 "expected magic 17 08 44 \"tracing\" (%zu bytes), not found",
				 (size_t)TP_MAGIC_LEN);
	srep_cur_skip(&b->c, TP_MAGIC_LEN);
	ret = blob_string(b, "version", version, vlen);
	if (ret)
		return ret;
	if (!srep_cur_u8(&b->c, &endian) || !srep_cur_u8(&b->c, &lsize))
		return blob_fail(b, SREP_E_TRUNCATED, b->c.off,
				 "expected byte order and long size bytes, blob ends");
	if (endian > 1)
		return blob_fail(b, SREP_E_TRACING, b->c.off - 2,
				 "byte order byte should be 0 or 1, found %u", endian);
	if (lsize != 4 && lsize != 8)
		return blob_fail(b, SREP_E_TRACING, b->c.off - 1,
				 "long size should be 4 or 8, found %u", lsize);
	b->c.swap = srep_swap_for(endian == 1);
	ret = blob_u32(b, "page size", &page);
	if (ret)
		return ret;
	if (page == 0 || page > (1u << 30))
		return blob_fail(b, SREP_E_TRACING, b->c.off - 4, "bad page size %u", page);
	/* libtraceevent must know these before it parses any format */
	tep_set_file_bigendian(b->tep, endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(b->tep, SREP_HOST_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(b->tep, lsize);
	tep_set_page_size(b->tep, (int)page);
	b->big_endian = endian == 1;
	b->long_size = lsize;
	b->page_size = (int)page;
	return 0;
}

/* libtraceevent's text parsers want NUL-terminated strings: a copy with the NUL */
static char *text_dup(const uint8_t *p, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, p, len);
		copy[len] = 0;
	}
	return copy;
}

/* a fixed name ("header_page\0"), then a u64-sized text */
static int blob_named_text(struct blob *b, const char *name, const uint8_t **p, size_t *len)
{
	size_t nlen = strlen(name) + 1;

	if (srep_cur_left(&b->c) < nlen || memcmp(b->c.p, name, nlen))
		return blob_fail(b, srep_cur_left(&b->c) < nlen ? SREP_E_TRUNCATED : SREP_E_TRACING,
				 b->c.off, "expected \"%s\" and its NUL", name);
	srep_cur_skip(&b->c, nlen);
	return blob_sized(b, name, 8, p, len);
}

static int blob_headers(struct blob *b)
{
	const uint8_t *p = NULL;
	size_t len = 0;
	char *copy;
	int ret = blob_named_text(b, "header_page", &p, &len);

	if (ret)
		return ret;
	/* tep_parse_header_page() takes a char *: give it a copy it may touch */
	copy = text_dup(p, len);
	if (!copy)
		return blob_fail(b, SREP_E_NOMEM, b->c.off, "header_page: no memory");
	/*
	 * As perf does: the page header's 'commit' field is a kernel long, which
	 * beats the long size perf wrote (a 32-bit perf may run on a 64-bit
	 * kernel). Failure only matters for ring-buffer pages, which a perf.data
	 * never holds, so it is not reported.
	 */
	if (tep_parse_header_page(b->tep, copy, len, tep_get_long_size(b->tep)) == 0) {
		int hs = tep_get_header_page_size(b->tep);

		if (hs == 4 || hs == 8)
			tep_set_long_size(b->tep, hs);
	}
	free(copy);
	/* the event header describes ring-buffer entries: not needed either */
	return blob_named_text(b, "header_event", &p, &len);
}

/*
 * A failed format costs that event only; remember it for one warning. A
 * format libtraceevent cannot be trusted with (tp_check.c) is not handed
 * over: the event is skipped, with a warning that names it.
 */
static void blob_parse_format(struct blob *b, const uint8_t *p, size_t len, const char *sys,
			      uint64_t at)
{
	struct tep_event *ev = NULL;
	enum tep_errno r;
	char name[64], why[160];
	size_t use;

	if (!tp_check_format((const char *)p, len, &use, name, sizeof(name), why, sizeof(why))) {
		diag_warn(b->s, SREP_E_TRACING, at, b->rec_type,
			  "tracing data: event format '%s:%s' skipped: %s", sys, name, why);
		b->s->skipped_formats++;
		return;
	}
	if (why[0]) {	/* the fields without the print format (libtraceevent then fails) */
		diag_warn(b->s, SREP_E_TRACING, at, b->rec_type, "tracing data: event format "
			  "'%s:%s': print format dropped (%s); its fields are read", sys, name, why);
		b->s->skipped_formats++;
	}
	r = tep_parse_format(b->tep, &ev, (const char *)p, use, sys);

	/* when r != 0, ev may point at freed memory: do not look at it */
	if ((r == 0 && ev && !(ev->flags & TEP_EVENT_FL_FAILED)) || why[0])
		return;
	if (b->nr_failed++ == 0) {
		b->first_failed_off = at;
		snprintf(b->first_failed_sys, sizeof(b->first_failed_sys), "%s", sys);
	}
}

/* u32 count, then count x {u64 size, format text} */
static int blob_formats(struct blob *b, const char *sys)
{
	uint32_t count = 0, i;
	const uint8_t *p = NULL;
	size_t len = 0;
	uint64_t at;
	int ret = blob_u32(b, "format count", &count);

	for (i = 0; !ret && i < count; i++) {
		at = b->c.off;
		ret = blob_sized(b, "event format", 8, &p, &len);
		if (!ret)
			blob_parse_format(b, p, len, sys, at);
	}
	return ret;
}

static int blob_systems(struct blob *b)
{
	uint32_t nr = 0, i;
	const char *sys = NULL;
	size_t len = 0;
	int ret = blob_u32(b, "system count", &nr);

	for (i = 0; !ret && i < nr; i++) {
		ret = blob_string(b, "system name", &sys, &len);
		if (!ret)
			ret = blob_formats(b, sys);
	}
	return ret;
}

/* printk lines libtraceevent would read past: dropped, with a warning */
static int parse_printk(struct blob *b, char *text, size_t len, uint64_t at)
{
	size_t dropped = tp_check_printk(text, len);

	if (dropped) {
		diag_warn(b->s, SREP_E_TRACING, at, b->rec_type,
			  "tracing data: %zu printk format line(s) without 'ADDR:FORMAT' skipped",
			  dropped);
		b->s->skipped_printk += dropped;
	}
	return tep_parse_printk_formats(b->tep, text);
}

/* a sized text handed to one of libtraceevent's line parsers (NUL-terminated copy) */
static int blob_text(struct blob *b, const char *what, unsigned width,
		     int (*parse)(struct tep_handle *, const char *))
{
	const uint8_t *p = NULL;
	uint64_t at = b->c.off;
	size_t len = 0;
	char *copy;
	int ret = blob_sized(b, what, width, &p, &len);

	if (ret || len == 0)
		return ret;
	copy = text_dup(p, len);
	if (!copy)
		return blob_fail(b, SREP_E_NOMEM, at, "%s: no memory for %zu bytes", what, len);
	/* these only feed libtraceevent's own printing: a bad one is worth a warning */
	if ((parse ? parse(b->tep, copy) : parse_printk(b, copy, len, at)) < 0)
		diag_warn(b->s, SREP_E_TRACING, at, b->rec_type, "tracing data: %s could not be parsed",
			  what);
	free(copy);
	return 0;
}

/* "0.6" and later carry saved_cmdlines; not atof(), which reads "0,6" in some locales */
static bool version_has_cmdlines(const char *v)
{
	char *end;
	unsigned long major = strtoul(v, &end, 10);

	return major > 0 || (*end == '.' && strtoul(end + 1, NULL, 10) >= 6);
}

/* kallsyms: handed to libtraceevent, and kept for the symbolizer */
static int blob_kallsyms(struct blob *b)
{
	struct blob again = *b;
	const uint8_t *p = NULL;
	size_t len = 0;
	char *copy;
	int ret = blob_text(b, "kallsyms", 4, tep_parse_kallsyms);

	/* blob_text checked the size: reading it again cannot fail */
	if (ret || blob_sized(&again, "kallsyms", 4, &p, &len) || !len)
		return ret;
	copy = owned_keep(b->s, malloc(len));
	if (!copy)
		return blob_fail(b, SREP_E_NOMEM, again.c.off, "kallsyms: no memory for %zu bytes",
				 len);
	memcpy(copy, p, len);
	b->s->tracing_kallsyms = copy;
	b->s->tracing_kallsyms_len = len;
	return 0;
}

/* 'version' is NUL-terminated inside the blob (blob_string found the NUL) */
static int blob_tail(struct blob *b, const char *version)
{
	int ret = blob_kallsyms(b);

	if (!ret)
		ret = blob_text(b, "printk formats", 4, NULL);	/* checked: parse_printk() */
	if (!ret && version_has_cmdlines(version))
		ret = blob_text(b, "saved_cmdlines", 8, tep_parse_saved_cmdlines);
	return ret;
}

int tp_blob_parse(struct srep_session *s, const uint8_t *data, size_t len,
		  uint64_t off, struct srep_error *err)
{
	struct blob b = { .s = s, .err = err, .tep = s->tp ? s->tp->tep : NULL,
			  .rec_type = s->pipe ? PERF_RECORD_HEADER_TRACING_DATA : -1 };
	const char *version = NULL;
	size_t vlen = 0;
	int ret;

	if (!s->tp)
		return diag_err(s, err, SREP_E_INVAL, off, b.rec_type, "tracing data: no parser");
	/* perf writes one blob; a second one (pipe + inject) would redefine ids */
	if (s->tp->seen)
		return 0;
	s->tp->seen = true;
	srep_cur_init(&b.c, data, len, off, false);
	ret = blob_preamble(&b, &version, &vlen);
	if (!ret)
		ret = blob_headers(&b);
	if (!ret)
		ret = blob_formats(&b, "ftrace");
	if (!ret)
		ret = blob_systems(&b);
	if (!ret)
		ret = blob_tail(&b, version);
	if (ret)
		return ret;
	if (b.nr_failed)
		diag_warn(s, SREP_E_TRACING, b.first_failed_off, b.rec_type,
			  "tracing data: %d event format(s) could not be fully parsed (the first "
			  "in system '%s'): their fields may be missing",
			  b.nr_failed, b.first_failed_sys);
	s->meta.tracing_version = owned_strdup(s, version, vlen);
	if (!s->meta.tracing_version)
		return diag_err(s, err, SREP_E_NOMEM, off, b.rec_type, "tracing data: no memory");
	s->meta.has_tracing = true;
	s->meta.tracing_big_endian = b.big_endian;
	s->meta.tracing_long_size = b.long_size;
	s->meta.tracing_page_size = b.page_size;
	s->tp->big_endian = b.big_endian;
	s->tp->has_data = true;
	return 0;
}

