// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * feature.c - the header features that describe the recording machine, so
 * the trace can be studied on another one: hostname, kernel release, our
 * version, architecture, CPU counts, CPU description, memory, command line,
 * event descriptions, CPU topology, clock resolution, and the tracing data
 * and compression parameters when used. Payloads are laid out as perf 6.1
 * writes them (FORMATS.md A.9), in the host's byte order.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rec_local.h"

#define SYS_CPU "/sys/devices/system/cpu"

static struct rec_buf *add(struct rec_features *fs, int id)
{
	struct rec_feature *f = &fs->f[fs->nr++];

	f->id = id;
	memset(&f->payload, 0, sizeof(f->payload));
	return &f->payload;
}

/* nr_cpus_avail as perf counts it: the highest present CPU + 1 */
static uint32_t cpus_present(void)
{
	char *text;
	int *cpus;
	size_t nr;
	uint32_t n = 0;

	if (read_text_file(SYS_CPU "/present", &text, NULL))
		return (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	if (!cpulist_parse(text, &cpus, &nr, NULL)) {
		n = (uint32_t)cpus[nr - 1] + 1;
		free(cpus);
	}
	free(text);
	return n ? n : (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
}

static uint32_t cpus_online(void)
{
	char *text;
	int *cpus;
	size_t nr = 0;

	if (read_text_file(SYS_CPU "/online", &text, NULL))
		return (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	if (!cpulist_parse(text, &cpus, &nr, NULL))
		free(cpus);
	free(text);
	return nr ? (uint32_t)nr : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
}

/* the value of "key<blanks>: value" in /proc/cpuinfo text */
static char *cpuinfo_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *line, *nl, *v;

	for (line = text; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (strncmp(line, key, n))
			continue;
		v = line + n + strspn(line + n, " \t");
		if (*v != ':')
			continue;
		v += 1 + strspn(v + 1, " \t");
		return strndup(v, nl ? (size_t)(nl - v) : strlen(v));
	}
	return NULL;
}

/* the CPU description under the first key the architectures use (arm64 has none) */
static char *cpu_description(void)
{
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu", "vendor_id" };
	char *text, *out = NULL, *w, *r;
	size_t k;

	if (read_text_file("/proc/cpuinfo", &text, NULL))
		return NULL;
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && !out; k++)
		out = cpuinfo_value(text, keys[k]);
	free(text);
	/* perf squeezes runs of blanks to one space */
	for (w = r = out; r && *r; r++) {
		if ((*r == ' ' || *r == '\t') && w > out && w[-1] == ' ')
			continue;
		*w++ = *r == '\t' ? ' ' : *r;
	}
	if (w)
		*w = '\0';
	return out;
}

static uint64_t total_mem_kb(void)
{
	char *text, *p;
	uint64_t kb = 0;

	if (read_text_file("/proc/meminfo", &text, NULL))
		return 0;
	p = strstr(text, "MemTotal:");
	if (p)
		kb = strtoull(p + 9, NULL, 10);
	free(text);
	return kb;
}

static int put_cmdline(struct rec_buf *b, const struct rec_feature_input *in)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	exe[n > 0 ? n : 0] = '\0';
	if (buf_u32(b, (uint32_t)in->nr_cmdline + 1) || buf_str64(b, n > 0 ? exe : "schedrep"))
		return -1;
	for (i = 0; i < in->nr_cmdline; i++) {
		if (buf_str64(b, in->cmdline[i]))
			return -1;
	}
	return 0;
}

static int put_event_desc(struct rec_buf *b, const struct rec_evlist *el)
{
	size_t i, j;

	if (buf_u32(b, (uint32_t)el->nr) || buf_u32(b, REC_FILE_ATTR_SIZE))
		return -1;
	for (i = 0; i < el->nr; i++) {
		const struct rec_event *e = &el->ev[i];

		if (evlist_put_attr(b, &e->attr) || buf_u32(b, (uint32_t)e->nr_ids) || buf_str64(b, e->name))
			return -1;
		for (j = 0; j < e->nr_ids; j++) {
			if (buf_u64(b, e->ids[j]))
				return -1;
		}
	}
	return 0;
}

static int32_t topology_value(int cpu, const char *file)
{
	char path[PATH_MAX], *text;
	long v;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, file);
	if (read_text_file(path, &text, NULL))
		return -1;
	v = strtol(text, NULL, 10);
	free(text);
	return (int32_t)v;
}

/* the distinct sibling lists of all CPUs, newer sysfs name first */
static int put_sibling_lists(struct rec_buf *b, uint32_t nr_cpus, const char *name, const char *old)
{
	char path[PATH_MAX], **seen = calloc(nr_cpus ? nr_cpus : 1, sizeof(char *)), *text, *nl;
	uint32_t cpu, k, nr = 0;
	int ret = -1;

	if (!seen)
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu%u/topology/%s", cpu, name);
		if (read_text_file(path, &text, NULL)) {
			snprintf(path, sizeof(path), SYS_CPU "/cpu%u/topology/%s", cpu, old);
			if (read_text_file(path, &text, NULL))
				continue;
		}
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		for (k = 0; k < nr && strcmp(seen[k], text); k++)
			;
		if (k < nr)
			free(text);
		else
			seen[nr++] = text;
	}
	if (buf_u32(b, nr))
		goto out;
	for (k = 0; k < nr; k++) {
		if (buf_str64(b, seen[k]))
			goto out;
	}
	ret = 0;
out:
	for (k = 0; k < nr; k++)
		free(seen[k]);
	free(seen);
	return ret;
}

static int put_topology(struct rec_buf *b, uint32_t nr_cpus)
{
	uint32_t cpu;

	if (put_sibling_lists(b, nr_cpus, "package_cpus_list", "core_siblings_list") ||
	    put_sibling_lists(b, nr_cpus, "core_cpus_list", "thread_siblings_list"))
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (buf_u32(b, (uint32_t)topology_value((int)cpu, "core_id")) ||
		    buf_u32(b, (uint32_t)topology_value((int)cpu, "physical_package_id")))
			return -1;
	}
	return 0;
}

void features_compressed(uint8_t out[20], uint32_t ratio, uint32_t mmap_len)
{
	srep_put32(out, 0, REC_BE);		/* version */
	srep_put32(out + 4, 1, REC_BE);		/* zstd */
	srep_put32(out + 8, SREP_REC_ZSTD_LEVEL, REC_BE);
	srep_put32(out + 12, ratio, REC_BE);
	srep_put32(out + 16, mmap_len, REC_BE);
}

static int put_strings(struct rec_features *fs, const struct utsname *u)
{
	return buf_str64(add(fs, FEAT_HOSTNAME), u->nodename) ||
	       buf_str64(add(fs, FEAT_OSRELEASE), u->release) ||
	       buf_str64(add(fs, FEAT_VERSION), "schedrep " PACKAGE_VERSION) ||
	       buf_str64(add(fs, FEAT_ARCH), u->machine) ? -1 : 0;
}

int features_collect(struct rec_features *fs, const struct rec_feature_input *in,
		     struct srep_error *err)
{
	uint32_t avail = cpus_present();
	struct timespec res = { 0, 1 };
	struct utsname u;
	struct rec_buf *b;
	uint8_t comp[20];
	char *cpudesc;
	int fail;

	memset(fs, 0, sizeof(*fs));
	if (uname(&u))
		return srep_error__set(err, SREP_E_IO, "uname: %s", strerror(errno));
	cpudesc = cpu_description();
	fail = in->tracing && buf_put(add(fs, FEAT_TRACING_DATA), in->tracing->p, in->tracing->len);
	fail = fail || put_strings(fs, &u);
	if (!fail) {
		b = add(fs, FEAT_NRCPUS);
		fail = buf_u32(b, avail) || buf_u32(b, cpus_online());
	}
	if (!fail && cpudesc)
		fail = buf_str64(add(fs, FEAT_CPUDESC), cpudesc);
	free(cpudesc);
	fail = fail || buf_u64(add(fs, FEAT_TOTAL_MEM), total_mem_kb()) ||
	       put_cmdline(add(fs, FEAT_CMDLINE), in) ||
	       put_event_desc(add(fs, FEAT_EVENT_DESC), in->el) ||
	       put_topology(add(fs, FEAT_CPU_TOPOLOGY), avail);
	/* perf's clock (the kernel's local clock) counts nanoseconds */
	clock_getres(CLOCK_MONOTONIC, &res);
	fail = fail || buf_u64(add(fs, FEAT_CLOCKID), (uint64_t)res.tv_sec * 1000000000u +
			       (uint64_t)res.tv_nsec);
	if (!fail && in->compressed) {
		features_compressed(comp, 0, in->comp_mmap_len);
		fail = buf_put(add(fs, FEAT_COMPRESSED), comp, sizeof(comp));
	}
	if (fail) {
		features_free(fs);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the header features");
	}
	return 0;
}

void features_free(struct rec_features *fs)
{
	size_t i;

	for (i = 0; i < fs->nr; i++)
		buf_free(&fs->f[i].payload);
	fs->nr = 0;
}
