// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracefs.c - what the recorder reads from tracefs: where it is mounted,
 * tracepoint ids, field offsets (for the latency trigger), and perf's
 * "tracing data" blob, which carries the event format files so a reader on
 * another machine can decode the RAW payloads.
 *
 * The blob is laid out as perf 6.1 writes it (version "0.6"): magic,
 * version, byte order, long size, page size, header_page, header_event,
 * ftrace formats (none: no ftrace events are recorded), the formats of the
 * recorded events grouped by system, an empty kallsyms, printk formats and
 * saved_cmdlines. Integers are in the host's order, which the blob declares.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_local.h"

static const char *const tracefs_places[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int probe(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if (stat(path, &st) == 0)
		return 0;
	return errno == EACCES ? -EACCES : -ENOENT;
}

int tracefs_find(const char *hint, char **dir, struct srep_error *err)
{
	size_t i;
	int r;

	if (hint) {
		r = probe(hint);
		if (r == 0)
			goto found;
		return srep_error__set(err, SREP_E_UNSUPPORTED, "'%s' is not a tracefs (no events/header_page)%s",
				       hint, r == -EACCES ? ": permission denied, run as root" : "");
	}
	for (i = 0; i < sizeof(tracefs_places) / sizeof(tracefs_places[0]); i++) {
		r = probe(tracefs_places[i]);
		if (r == -EACCES)
			return srep_error__set(err, SREP_E_UNSUPPORTED,
					       "cannot read '%s': permission denied: run as root",
					       tracefs_places[i]);
		if (r == 0) {
			hint = tracefs_places[i];
			goto found;
		}
	}
	return srep_error__set(err, SREP_E_UNSUPPORTED,
			       "tracefs is not mounted: mount it with 'mount -t tracefs nodev /sys/kernel/tracing'");
found:
	*dir = strdup(hint);
	return *dir ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory");
}

static int read_event_file(const char *dir, const char *sys, const char *name, const char *file,
			   char **text, size_t *len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/events/%s/%s/%s", dir, sys, name, file) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return read_text_file(path, text, len);
}

int tracefs_event_id(const char *dir, const char *sys, const char *name, uint64_t *id,
		     struct srep_error *err)
{
	char *text, *end;
	unsigned long long v;

	if (strchr(sys, '/') || strchr(name, '/') || !strcmp(sys, "..") || !strcmp(name, ".."))
		return srep_error__set(err, SREP_E_INVAL, "bad tracepoint name '%s:%s'", sys, name);
	if (read_event_file(dir, sys, name, "id", &text, NULL)) {
		if (errno == ENOENT)
			return srep_error__set(err, SREP_E_INVAL,
					       "unknown event '%s:%s': no such tracepoint (see 'ls %s/events/%s')",
					       sys, name, dir, sys);
		return srep_error__set(err, SREP_E_IO, "cannot read %s/events/%s/%s/id: %s", dir, sys,
				       name, strerror(errno));
	}
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text) {
		free(text);
		return srep_error__set(err, SREP_E_IO, "%s/events/%s/%s/id holds no number", dir, sys, name);
	}
	free(text);
	*id = v;
	return 0;
}

/* "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;" -> offset, size */
static bool parse_field_line(const char *line, const char *field, struct rec_field *out)
{
	const char *decl = line + 7, *semi = strchr(line, ';'), *name, *end, *o, *s;

	if (strncmp(line, "\tfield:", 7) || !semi)
		return false;
	/* the name is the declaration's last word, without an array suffix */
	for (name = semi; name > decl && name[-1] != ' ' && name[-1] != '\t'; name--)
		;
	end = memchr(name, '[', (size_t)(semi - name));
	end = end ? end : semi;
	if ((size_t)(end - name) != strlen(field) || strncmp(name, field, (size_t)(end - name)))
		return false;
	o = strstr(semi, "offset:");
	s = strstr(semi, "size:");
	if (!o || !s)
		return false;
	out->offset = (uint32_t)strtoul(o + 7, NULL, 10);
	out->size = (uint32_t)strtoul(s + 5, NULL, 10);
	return out->size > 0;
}

int tracefs_field(const char *dir, const char *sys, const char *name, const char *field,
		  struct rec_field *out, struct srep_error *err)
{
	char *text, *line, *save = NULL;
	bool found = false;

	if (read_event_file(dir, sys, name, "format", &text, NULL))
		return srep_error__set(err, SREP_E_IO, "cannot read the format of '%s:%s': %s", sys, name,
				       strerror(errno));
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save))
		found = parse_field_line(line, field, out);
	free(text);
	if (!found)
		return srep_error__set(err, SREP_E_UNSUPPORTED, "'%s:%s' has no field '%s'", sys, name, field);
	return 0;
}

/* ---- the tracing data blob ---- */

static int put_file(struct rec_buf *b, const char *path, int size_bytes, bool optional,
		    struct srep_error *err)
{
	char *text = NULL;
	size_t len = 0;

	if (read_text_file(path, &text, &len)) {
		if (!optional || errno != ENOENT)
			return srep_error__set(err, SREP_E_IO, "cannot read '%s': %s", path, strerror(errno));
	}
	if ((size_bytes == 4 && (len > UINT32_MAX || buf_u32(b, (uint32_t)len))) ||
	    (size_bytes == 8 && buf_u64(b, len)) || buf_put(b, text, len)) {
		free(text);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the tracing data");
	}
	free(text);
	return 0;
}

/* the kernel's long size: the ring-buffer page's 'commit' is a local_t (a long) */
static uint8_t kernel_long_size(const char *dir)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	struct rec_field f = { 0, 0 };
	bool found = false;

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if (read_text_file(path, &text, NULL))
		return (uint8_t)sizeof(long);
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save))
		found = parse_field_line(line, "commit", &f);
	free(text);
	return found && (f.size == 4 || f.size == 8) ? (uint8_t)f.size : (uint8_t)sizeof(long);
}

static int put_header(struct rec_buf *b, const char *dir, struct srep_error *err)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char path[PATH_MAX];
	uint8_t order_long[2] = { REC_BE, kernel_long_size(dir) };

	if (buf_put(b, magic, sizeof(magic)) || buf_put(b, "0.6", 4) ||
	    buf_put(b, order_long, 2) || buf_u32(b, (uint32_t)sysconf(_SC_PAGESIZE)) ||
	    buf_put(b, "header_page", 12))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the tracing data");
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if (put_file(b, path, 8, false, err))
		return err->code;
	if (buf_put(b, "header_event", 13))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the tracing data");
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	return put_file(b, path, 8, false, err);
}

static bool seen_before(const struct rec_evlist *el, size_t i, bool same_event)
{
	size_t j;

	for (j = 0; j < i; j++) {
		if (el->ev[j].sys && !strcmp(el->ev[j].sys, el->ev[i].sys) &&
		    (!same_event || !strcmp(el->ev[j].tp, el->ev[i].tp)))
			return true;
	}
	return false;
}

/* one system: its name, then the formats of its recorded events */
static int put_system(struct rec_buf *b, const char *dir, const struct rec_evlist *el, size_t first,
		      struct srep_error *err)
{
	const char *sys = el->ev[first].sys;
	char path[PATH_MAX];
	uint32_t count = 0;
	size_t i;

	for (i = first; i < el->nr; i++)
		count += el->ev[i].sys && !strcmp(el->ev[i].sys, sys) && !seen_before(el, i, true);
	if (buf_put(b, sys, strlen(sys) + 1) || buf_u32(b, count))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the tracing data");
	for (i = first; i < el->nr; i++) {
		if (!el->ev[i].sys || strcmp(el->ev[i].sys, sys) || seen_before(el, i, true))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, el->ev[i].tp);
		if (put_file(b, path, 8, false, err))
			return err->code;
	}
	return 0;
}

int tracefs_tracing_data(const char *dir, const struct rec_evlist *el, struct rec_buf *out,
			 struct srep_error *err)
{
	char path[PATH_MAX];
	uint32_t nr_systems = 0;
	size_t i;

	out->len = 0;
	if (put_header(out, dir, err))
		return err->code;
	for (i = 0; i < el->nr; i++)
		nr_systems += el->ev[i].sys && !seen_before(el, i, false);
	if (buf_u32(out, 0) || buf_u32(out, nr_systems))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the tracing data");
	for (i = 0; i < el->nr; i++) {
		if (el->ev[i].sys && !seen_before(el, i, false) && put_system(out, dir, el, i, err))
			return err->code;
	}
	/* perf stopped writing kallsyms here: readers get symbols elsewhere */
	if (buf_u32(out, 0))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the tracing data");
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (put_file(out, path, 4, true, err))
		return err->code;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	return put_file(out, path, 8, true, err);
}
