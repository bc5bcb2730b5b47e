// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * header.c - the perf.data container: magic and byte order (decided here
 * once for the whole session), the file header, the attrs section with its
 * id arrays, and the feature section table; then the event descriptions
 * finished from what the header said. Pipe-mode headers are 16 bytes; their
 * attrs and features come later as records (records.c).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "reader.h"

#define PERF_MAGIC2	0x32454c4946524550ull	/* "PERFILE2" written little-endian */
#define PERF_MAGIC1	0x454c494646524550ull	/* "PERFFILE" (version 1) */
#define PIPE_HEADER_SIZE 16
#define FILE_HEADER_SIZE 104
#define OLD_HEADER_SIZE	72			/* before the feature bitmap existed */
#define FEAT_HOSTNAME	3
#define FEAT_BUILD_ID	2

struct file_header {
	uint64_t size, attr_size;
	uint64_t attrs_off, attrs_size, data_off, data_size;
	uint64_t bitmap[4];
};

static void printable(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = isprint(p[i]) ? (char)p[i] : '.';
	out[n] = '\0';
}

/* version 1 files have no byte-order mark: guess from sizes perf wrote (perf's ABI list) */
static bool v1_size_ok(uint64_t v, bool pipe)
{
	static const uint64_t attr_sizes[] = { 64 + 16, 72 + 16, 80 + 16, 96 + 16, 104 + 16 };
	size_t i;

	if (pipe)
		return v == PIPE_HEADER_SIZE;
	for (i = 0; i < sizeof(attr_sizes) / sizeof(attr_sizes[0]); i++) {
		if (v == attr_sizes[i])
			return true;
	}
	return false;
}

/* decide pipe/file mode, the byte order and the magic version from the first bytes */
static int read_magic(struct srep_session *s, struct srep_error *err)
{
	const uint8_t *p;
	uint64_t magic, size, v1probe;
	size_t avail = 0;
	char shown[17];
	int ret;

	ret = input_get(&s->in, 0, PIPE_HEADER_SIZE, &p, &avail, err);
	if (ret == SREP_E_TRUNCATED)
		return diag_err(s, err, SREP_E_NOT_PERF, 0, -1,
				"expected a 16-byte perf.data header, the input has %zu bytes", avail);
	if (ret)
		return ret;
	magic = srep_get64(p, false);
	if (magic == PERF_MAGIC2 || magic == srep_bswap64(PERF_MAGIC2)) {
		/* the magic is a u64 written in the writer's byte order */
		s->swap = magic != PERF_MAGIC2;
		s->meta.big_endian = s->swap != SREP_HOST_BIG_ENDIAN;
		s->meta.magic_version = 2;
		size = srep_get64(p + 8, s->swap);
		s->pipe = size == PIPE_HEADER_SIZE;
		return 0;
	}
	if (memcmp(p, "PERFFILE", 8) == 0) {
		s->meta.magic_version = 1;
		size = srep_get64(p + 8, false);
		s->pipe = size == PIPE_HEADER_SIZE || srep_bswap64(size) == PIPE_HEADER_SIZE;
		if (!s->pipe && input_get(&s->in, 16, 8, &p, &avail, err) == 0)
			v1probe = srep_get64(p, false);
		else
			v1probe = size;
		s->swap = !v1_size_ok(v1probe, s->pipe) && v1_size_ok(srep_bswap64(v1probe), s->pipe);
		s->meta.big_endian = s->swap != SREP_HOST_BIG_ENDIAN;
		return 0;
	}
	printable(p, 8, shown);
	return diag_err(s, err, SREP_E_NOT_PERF, 0, -1,
			"expected the magic 'PERFILE2' (or 'PERFFILE'), found '%s'", shown);
}

/* the feature bitmap is the writer's unsigned long array: 4 x u64, or 8 x u32 */
static void read_bitmap(struct srep_session *s, const uint8_t *p, uint64_t out[4])
{
	int i;

	for (i = 0; i < 4; i++)
		out[i] = srep_get64(p + 8 * i, s->swap);
	if (!s->swap || (out[0] & (1ull << FEAT_HOSTNAME)))
		return;
	/* perf's heuristic: HOSTNAME is always set; try 32-bit words before giving up */
	for (i = 0; i < 4; i++)
		out[i] = (uint64_t)srep_get32(p + 8 * i, s->swap) |
			 (uint64_t)srep_get32(p + 8 * i + 4, s->swap) << 32;
	if (out[0] & (1ull << FEAT_HOSTNAME))
		return;
	memset(out, 0, 4 * sizeof(out[0]));
	out[0] = 1ull << FEAT_BUILD_ID;
}

static int read_file_header(struct srep_session *s, struct file_header *h, struct srep_error *err)
{
	const uint8_t *p;
	size_t avail = 0;
	int ret;

	ret = input_get(&s->in, 0, OLD_HEADER_SIZE, &p, &avail, err);
	if (ret == SREP_E_TRUNCATED)
		return diag_err(s, err, SREP_E_TRUNCATED, avail, -1,
				"expected a %d-byte file header, the file has %zu bytes",
				OLD_HEADER_SIZE, avail);
	if (ret)
		return ret;
	memset(h, 0, sizeof(*h));
	h->size = srep_get64(p + 8, s->swap);
	h->attr_size = srep_get64(p + 16, s->swap);
	h->attrs_off = srep_get64(p + 24, s->swap);
	h->attrs_size = srep_get64(p + 32, s->swap);
	h->data_off = srep_get64(p + 40, s->swap);
	h->data_size = srep_get64(p + 48, s->swap);
	if (h->size < OLD_HEADER_SIZE)
		return diag_err(s, err, SREP_E_CORRUPT, 8, -1,
				"header size %" PRIu64 " is smaller than %d", h->size, OLD_HEADER_SIZE);
	if (h->size >= FILE_HEADER_SIZE) {
		ret = input_get(&s->in, 72, 32, &p, &avail, err);
		if (ret == SREP_E_TRUNCATED)
			return diag_err(s, err, SREP_E_TRUNCATED, 72 + avail, -1,
					"expected the feature bitmap at offset 72");
		if (ret)
			return ret;
		read_bitmap(s, p, h->bitmap);
	}
	return 0;
}

static int check_section(struct srep_session *s, const char *name, uint64_t off, uint64_t size,
			 uint64_t field_off, struct srep_error *err)
{
	if (off > s->in.size || size > s->in.size - off)
		return diag_err(s, err, SREP_E_TRUNCATED, field_off, -1,
				"%s section [0x%" PRIx64 ", +%" PRIu64 ") lies beyond the end of the "
				"file (%" PRIu64 " bytes)", name, off, size, s->in.size);
	return 0;
}

static int read_attr_entry(struct srep_session *s, const struct file_header *h, uint64_t off,
			   struct srep_error *err)
{
	const uint8_t *p;
	struct perf_attr attr;
	struct evsel *ev;
	uint64_t ids_off, ids_size;
	int ret;

	ret = input_get(&s->in, off, (size_t)h->attr_size, &p, NULL, err);
	if (ret)
		return ret == SREP_E_TRUNCATED ?
			diag_err(s, err, ret, off, -1, "attr entry runs past the end of the file") : ret;
	evsel_attr_decode(&attr, p, (size_t)h->attr_size - 16, s->meta.big_endian);
	/* the id section is the entry's last 16 bytes, whatever attr.size says */
	ids_off = srep_get64(p + h->attr_size - 16, s->swap);
	ids_size = srep_get64(p + h->attr_size - 8, s->swap);
	ev = evsel_add(s, &attr, err);
	if (!ev)
		return err ? err->code : SREP_E_NOMEM;
	if (!ids_size)
		return 0;
	ret = check_section(s, "event id", ids_off, ids_size, off + h->attr_size - 16, err);
	if (ret)
		return ret;
	if (ids_size / 8 > SREP_MAX_IDS)
		return diag_err(s, err, SREP_E_LIMIT, off + h->attr_size - 8, -1,
				"%" PRIu64 " ids for one event is above the limit", ids_size / 8);
	ret = input_get(&s->in, ids_off, (size_t)ids_size, &p, NULL, err);
	return ret ? ret : evsel_add_ids(s, ev, p, (size_t)(ids_size / 8), err);
}

static int read_attrs(struct srep_session *s, const struct file_header *h, struct srep_error *err)
{
	uint64_t i, nr;
	int ret;

	if (h->attr_size < PERF_ATTR_SIZE_VER0 + 16 || h->attr_size > 65536)
		return diag_err(s, err, SREP_E_CORRUPT, 16, -1,
				"attr size %" PRIu64 " is not a perf_event_attr size (64..65520) + 16",
				h->attr_size);
	ret = check_section(s, "attrs", h->attrs_off, h->attrs_size, 24, err);
	if (ret)
		return ret;
	nr = h->attrs_size / h->attr_size;
	if (nr > SREP_MAX_ATTRS)
		return diag_err(s, err, SREP_E_LIMIT, 32, -1,
				"%" PRIu64 " attrs is above the limit of %u", nr, SREP_MAX_ATTRS);
	for (i = 0; i < nr; i++) {
		ret = read_attr_entry(s, h, h->attrs_off + i * h->attr_size, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* feature damage is a warning: the records can still be read */
/*
 * A file cut inside its data section (a recorder killed, a disk full): the
 * records before the cut are read; what is lost is said once, here, and the
 * error at the cut says where the last record stopped. The header features,
 * written after the data, are gone with their tracepoint formats and names.
 */
static void cut_short(struct srep_session *s)
{
	uint64_t missing = s->data_end - s->in.size;

	diag_warn(s, SREP_E_TRUNCATED, s->in.size, -1,
		  "the file is cut short: it ends at 0x%" PRIx64 ", inside its data section, "
		  "which should end at 0x%" PRIx64 " (%" PRIu64 " bytes, %.1f%% of it, are missing); "
		  "the header features after the data are lost with it (tracepoint formats and "
		  "event names among them: tracepoint samples cannot be decoded); the records "
		  "before the cut are read", s->in.size, s->data_end, missing,
		  100.0 * (double)missing / (double)(s->data_end - s->data_start));
}

static void read_features(struct srep_session *s, const struct file_header *h)
{
	uint64_t table = h->data_off + h->data_size, off, size;
	struct srep_error ferr = { 0 };
	const uint8_t *p;
	unsigned bit;
	int ret;

	for (bit = 0; bit < 256; bit++) {
		if (!(h->bitmap[bit / 64] & (1ull << (bit % 64))))
			continue;
		if (input_get(&s->in, table, 16, &p, NULL, &ferr)) {
			diag_warn(s, SREP_E_TRUNCATED, table, -1,
				  "feature section table ends early (feature %u): features not read", bit);
			return;
		}
		off = srep_get64(p, s->swap);
		size = srep_get64(p + 8, s->swap);
		table += 16;
		s->meta.features[bit / 64] |= 1ull << (bit % 64);
		if (off > s->in.size || size > s->in.size - off || size > SREP_MAX_BLOB) {
			diag_warn(s, SREP_E_TRUNCATED, table - 16, -1,
				  "feature %u section [0x%" PRIx64 ", +%" PRIu64 ") is outside the file",
				  bit, off, size);
			continue;
		}
		if (input_get(&s->in, off, (size_t)size, &p, NULL, &ferr))
			continue;
		ret = feature_parse(s, bit, p, (size_t)size, off, &ferr);
		if (ret)
			diag_warn(s, ret, ferr.has_offset ? ferr.offset : off, -1,
				  "feature %u: %s", bit, ferr.msg);
	}
}

/* does a plausible record header start at 'off'? (size 0 data: unfinished or empty) */
static bool record_at(struct srep_session *s, uint64_t off)
{
	const uint8_t *p;
	uint32_t type;
	uint16_t size;

	if (input_get(&s->in, off, 8, &p, NULL, NULL))
		return false;
	type = srep_get32(p, s->swap);
	size = srep_get16(p + 6, s->swap);
	return size >= 8 && size % 8 == 0 && size <= s->in.size - off &&
	       (type < PERF_RECORD_KERNEL_MAX || type <= PERF_RECORD_BPF_METADATA);
}

static int read_file_mode(struct srep_session *s, struct srep_error *err)
{
	struct file_header h;
	int ret;

	ret = read_file_header(s, &h, err);
	if (!ret)
		ret = read_attrs(s, &h, err);
	if (ret)
		return ret;
	s->meta.attr_size = (uint32_t)h.attr_size;
	s->meta.data_offset = h.data_off;
	s->meta.data_size = h.data_size;
	if (h.data_off > s->in.size)
		return diag_err(s, err, SREP_E_TRUNCATED, 40, -1,
				"data section starts at 0x%" PRIx64 ", beyond the end of the file (%"
				PRIu64 " bytes)", h.data_off, s->in.size);
	s->data_start = h.data_off;
	if (!h.data_size && !record_at(s, h.data_off)) {
		/* a finished recording without records: the feature table follows at once */
		s->data_end = h.data_off;
		read_features(s, &h);
	} else if (!h.data_size) {
		/* perf record did not finish: read what was written (perf reads nothing) */
		diag_warn(s, SREP_E_TRUNCATED, 48, -1,
			  "data size is 0 (recording did not finish): reading to the end of the file");
		s->data_end = s->in.size;
	} else {
		s->data_end = h.data_off + h.data_size;
		if (s->data_end <= s->in.size)
			read_features(s, &h);
		else
			cut_short(s);
	}
	return 0;
}

/*
 * After the attrs, the tracing data and the features (at the end of a file
 * header; in a pipe, whenever header-like records changed them): the word
 * size, each description's sample layout, its tracepoint format, its name.
 */
int header_finish_evsels(struct srep_session *s, struct srep_error *err)
{
	char name[256];
	size_t i;

	feature_set_word_size(s);
	for (i = 0; i < s->nr_evsels; i++) {
		struct evsel *ev = &s->evsels[i];

		sample_layout(ev);
		if (ev->attr.type == PERF_TYPE_TRACEPOINT && s->tp && !ev->tp)
			tp_bind(s, ev);
		if (ev->name)
			continue;
		evsel_default_name(s, ev, name, sizeof(name));
		if (evsel_set_name(ev, name, false))
			return srep_error__set(err, SREP_E_NOMEM, "no memory for event names");
	}
	return 0;
}

int header_read(struct srep_session *s, struct srep_error *err)
{
	int ret = read_magic(s, err);

	if (ret)
		return ret;
	s->meta.pipe_mode = s->pipe;
	if (s->pipe) {
		s->data_start = PIPE_HEADER_SIZE;
		s->data_end = UINT64_MAX;
		return 0;
	}
	/* file mode needs random access: copy a piped file-mode trace to a temporary file */
	ret = input_spool(&s->in, err);
	if (!ret)
		ret = read_file_mode(s, err);
	if (ret)
		return ret;
	return header_finish_evsels(s, err);
}
