// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * feature.c - header feature sections (file mode) and HEADER_FEATURE
 * payloads (pipe mode): the trace's metadata. Integers are packed back to
 * back in the file's byte order; strings are perf's "str64" (u32 length,
 * then that many bytes holding a NUL-terminated, zero-padded text).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "grow.h"

enum {
	FEAT_TRACING_DATA = 1, FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION,
	FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUDESC, FEAT_CPUID, FEAT_TOTAL_MEM, FEAT_CMDLINE,
	FEAT_EVENT_DESC, FEAT_CPU_TOPOLOGY, FEAT_SAMPLE_TIME = 21, FEAT_CLOCKID = 23,
	FEAT_COMPRESSED = 27, FEAT_CLOCK_DATA = 29,
};

#define BUILD_ID_HDR	36	/* header, pid, 20-byte id, size byte, 3 reserved */
#define MISC_BUILD_ID_SIZE 0x8000

static int short_read(struct srep_cur *c, const char *what, struct srep_error *err)
{
	srep_error__set(err, SREP_E_TRUNCATED, "%s runs past the end of its section", what);
	err->has_offset = true;
	err->offset = c->off;
	return SREP_E_TRUNCATED;
}

/* str64: returns a session-owned copy */
static int read_str(struct srep_session *s, struct srep_cur *c, const char **out,
		    struct srep_error *err)
{
	const uint8_t *p, *nul;
	uint32_t len;

	if (!srep_cur_u32(c, &len) || !srep_cur_bytes(c, len, &p))
		return short_read(c, "string", err);
	nul = memchr(p, '\0', len);
	*out = owned_strdup(s, (const char *)p, nul ? (size_t)(nul - p) : len);
	return *out ? 0 : srep_error__set(err, SREP_E_NOMEM, "no memory for strings");
}

static int read_str_list(struct srep_session *s, struct srep_cur *c, const char *const **out,
			 int *nr_out, struct srep_error *err)
{
	const char **list;
	uint32_t nr, i;
	int ret;

	if (!srep_cur_u32(c, &nr))
		return short_read(c, "string list", err);
	/* each string takes at least its 4-byte length */
	if (nr > SREP_MAX_STRINGS || nr > srep_cur_left(c) / 4)
		return short_read(c, "string list", err);
	list = owned_keep(s, calloc(nr + 1, sizeof(*list)));
	if (!list)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for strings");
	for (i = 0; i < nr; i++) {
		ret = read_str(s, c, &list[i], err);
		if (ret)
			return ret;
	}
	*out = list;
	*nr_out = (int)nr;
	return 0;
}

static int read_u32(struct srep_cur *c, uint32_t *v, const char *what, struct srep_error *err)
{
	return srep_cur_u32(c, v) ? 0 : short_read(c, what, err);
}

static int read_u64(struct srep_cur *c, uint64_t *v, const char *what, struct srep_error *err)
{
	return srep_cur_u64(c, v) ? 0 : short_read(c, what, err);
}

/*
 * perf's ABI quirk: an entry whose name, read in today's layout, is the
 * kernel's "[kernel.kallsyms]" less the 4 bytes where the pid now sits
 * means the whole table is in the layout from before the pid was added.
 */
static bool pre_pid_table(struct srep_session *s, const struct srep_cur *c)
{
	const uint8_t *p = c->p;
	size_t left = srep_cur_left(c);
	uint16_t size;

	while (left >= 8) {
		size = srep_get16(p + 6, s->swap);
		if (size < BUILD_ID_HDR || size > left)
			return false;
		if (size - BUILD_ID_HDR >= 13 && memcmp(p + BUILD_ID_HDR, "nel.kallsyms]", 13) == 0)
			return true;
		p += size;
		left -= size;
	}
	return false;
}

/* one build-id entry: the record-67 layout, or the pre-pid one (24 id bytes, no pid) */
static int add_build_id(struct srep_session *s, const uint8_t *p, size_t size, bool pre_pid,
			struct srep_error *err)
{
	struct srep_build_id *b;
	const uint8_t *name = p + BUILD_ID_HDR, *nul;
	size_t name_len = size - BUILD_ID_HDR;
	uint16_t misc = srep_get16(p + 4, s->swap);

	b = grow_array(s->build_ids, &s->cap_build_ids, s->nr_build_ids, sizeof(*b), 16);
	if (!b)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for build ids");
	s->build_ids = b;
	b = &s->build_ids[s->nr_build_ids];
	memset(b, 0, sizeof(*b));
	b->misc = misc;
	if (pre_pid) {
		b->pid = -1;
		memcpy(b->id, p + 8, 20);
		name = p + 32;
		name_len = size - 32;
	} else {
		b->pid = (int32_t)srep_get32(p + 8, s->swap);
		memcpy(b->id, p + 12, 20);
	}
	b->size = (misc & MISC_BUILD_ID_SIZE) && p[32] <= 20 ? p[32] : 20;
	nul = memchr(name, '\0', name_len);
	b->filename = strndup((const char *)name, nul ? (size_t)(nul - name) : name_len);
	if (!b->filename)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for build ids");
	s->nr_build_ids++;
	return 0;
}

int feature_build_ids(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	bool pre_pid = pre_pid_table(s, c);
	uint16_t size;
	int ret;

	while (srep_cur_left(c) >= 8) {
		size = srep_get16(c->p + 6, s->swap);
		if (size < BUILD_ID_HDR || size > srep_cur_left(c))
			return short_read(c, "build-id entry", err);
		ret = add_build_id(s, c->p, size, pre_pid, err);
		if (ret)
			return ret;
		srep_cur_skip(c, size);
	}
	/* a table ends with an entry, not inside the next one's header */
	return srep_cur_left(c) ? short_read(c, "build-id entry", err) : 0;
}

/* the event with this description: by its first id, else by position (file mode) */
static struct evsel *desc_target(struct srep_session *s, uint32_t idx, const uint8_t *ids,
				 uint32_t nr_ids)
{
	if (nr_ids)
		return evsel_by_id(s, srep_get64(ids, s->swap));
	return !s->pipe && idx < s->nr_evsels ? &s->evsels[idx] : NULL;
}

static int read_event_desc(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	uint32_t nr, attr_size, nr_ids, i;
	const uint8_t *attr, *ids;
	const char *name;
	struct evsel *ev;
	int ret;

	ret = read_u32(c, &nr, "event count", err);
	if (!ret)
		ret = read_u32(c, &attr_size, "attr size", err);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		if (!srep_cur_bytes(c, attr_size, &attr) || !srep_cur_u32(c, &nr_ids))
			return short_read(c, "event description", err);
		ret = read_str(s, c, &name, err);
		if (ret)
			return ret;
		if (nr_ids > srep_cur_left(c) / 8 || !srep_cur_bytes(c, (size_t)nr_ids * 8, &ids))
			return short_read(c, "event description ids", err);
		ev = desc_target(s, i, ids, nr_ids);
		if (ev && name[0] && (!ev->name || !ev->name_from_file) &&
		    evsel_set_name(ev, name, true))
			return srep_error__set(err, SREP_E_NOMEM, "no memory for event names");
	}
	return 0;
}

static int read_nrcpus(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	uint32_t avail, online;
	int ret = read_u32(c, &avail, "nr_cpus_avail", err);

	if (!ret)
		ret = read_u32(c, &online, "nr_cpus_online", err);
	if (ret)
		return ret;
	/* counts that cannot be real would size per-CPU arrays of every consumer */
	if (avail > SREP_MAX_CPUS || online > SREP_MAX_CPUS) {
		diag_warn(s, SREP_E_CORRUPT, c->off - 8, -1,
			  "NRCPUS: %u available, %u online is beyond %u CPUs: taken as unknown",
			  avail, online, SREP_MAX_CPUS);
		return 0;
	}
	s->meta.nr_cpus_avail = (int32_t)avail;
	s->meta.nr_cpus_online = (int32_t)online;
	return 0;
}

static int read_topology(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	int ret = read_str_list(s, c, &s->meta.core_siblings, &s->meta.nr_core_siblings, err);

	return ret ? ret : read_str_list(s, c, &s->meta.thread_siblings,
					 &s->meta.nr_thread_siblings, err);
}

static int read_times(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	int ret = read_u64(c, &s->meta.sample_time_first, "first sample time", err);

	if (!ret)
		ret = read_u64(c, &s->meta.sample_time_last, "last sample time", err);
	s->meta.has_sample_time = !ret;
	return ret;
}

static int read_compressed(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	uint32_t version;
	int ret = read_u32(c, &version, "compression version", err);

	if (!ret)
		ret = read_u32(c, &s->meta.comp_type, "compression type", err);
	if (!ret)
		ret = read_u32(c, &s->meta.comp_level, "compression level", err);
	if (!ret)
		ret = read_u32(c, &s->meta.comp_ratio, "compression ratio", err);
	if (!ret)
		ret = read_u32(c, &s->meta.comp_mmap_len, "compression mmap length", err);
	s->meta.compressed = !ret;
	return ret;
}

static int read_clock_data(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	uint32_t version, clockid;
	int ret = read_u32(c, &version, "clock data version", err);

	if (!ret)
		ret = read_u32(c, &clockid, "clock id", err);
	if (!ret)
		ret = read_u64(c, &s->meta.clock_wall_ns, "wall clock", err);
	if (!ret)
		ret = read_u64(c, &s->meta.clock_ref_ns, "clock reference", err);
	if (ret)
		return ret;
	s->meta.has_clock_data = true;
	s->meta.clockid = clockid;
	return 0;
}

static int read_total_mem(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	uint64_t kb;
	int ret = read_u64(c, &kb, "total memory", err);

	if (!ret)
		s->meta.total_mem_kb = (int64_t)kb;
	return ret;
}

static int read_clockid(struct srep_session *s, struct srep_cur *c, struct srep_error *err)
{
	uint64_t res;
	int ret = read_u64(c, &res, "clock resolution", err);

	if (!ret)
		s->meta.clock_res_ns = (int64_t)res;
	return ret;
}

int feature_parse(struct srep_session *s, unsigned feat, const uint8_t *p, size_t len,
		  uint64_t off, struct srep_error *err)
{
	struct srep_cur c;

	srep_cur_init(&c, p, len, off, s->swap);
	switch (feat) {
	case FEAT_TRACING_DATA: return tp_blob_parse(s, p, len, off, err);
	case FEAT_BUILD_ID:	return feature_build_ids(s, &c, err);
	case FEAT_HOSTNAME:	return read_str(s, &c, &s->meta.hostname, err);
	case FEAT_OSRELEASE:	return read_str(s, &c, &s->meta.osrelease, err);
	case FEAT_VERSION:	return read_str(s, &c, &s->meta.perf_version, err);
	case FEAT_ARCH:		return read_str(s, &c, &s->meta.arch, err);
	case FEAT_NRCPUS:	return read_nrcpus(s, &c, err);
	case FEAT_CPUDESC:	return read_str(s, &c, &s->meta.cpudesc, err);
	case FEAT_CPUID:	return read_str(s, &c, &s->meta.cpuid, err);
	case FEAT_TOTAL_MEM:	return read_total_mem(s, &c, err);
	case FEAT_CMDLINE:
		return read_str_list(s, &c, &s->meta.cmdline, &s->meta.nr_cmdline, err);
	case FEAT_EVENT_DESC:	return read_event_desc(s, &c, err);
	case FEAT_CPU_TOPOLOGY:	return read_topology(s, &c, err);
	case FEAT_SAMPLE_TIME:	return read_times(s, &c, err);
	case FEAT_CLOCKID:	return read_clockid(s, &c, err);
	case FEAT_COMPRESSED:	return read_compressed(s, &c, err);
	case FEAT_CLOCK_DATA:	return read_clock_data(s, &c, err);
	default:		return 0;	/* known to perf, not needed here: skipped by size */
	}
}

static int arch_word_size(const char *arch)
{
	static const char *const bits32[] = { "i386", "i486", "i586", "i686", "armv", "arm",
					      "mips", "ppc", "s390", "sparc", "riscv32" };
	size_t i;

	if (!arch)
		return 0;
	if (strstr(arch, "64") || strcmp(arch, "s390x") == 0)
		return 8;
	for (i = 0; i < sizeof(bits32) / sizeof(bits32[0]); i++) {
		if (strncmp(arch, bits32[i], strlen(bits32[i])) == 0)
			return 4;
	}
	return 0;
}

void feature_set_word_size(struct srep_session *s)
{
	if (s->meta.has_tracing && s->meta.tracing_long_size)
		s->meta.word_size = s->meta.tracing_long_size;
	else
		s->meta.word_size = arch_word_size(s->meta.arch);
}
