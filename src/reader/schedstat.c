// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schedstat.c - PERF_RECORD_SCHEDSTAT_CPU (85) and _DOMAIN (86), which
 * 'perf sched stats record' (perf 6.18 and later) writes: snapshots of
 * /proc/schedstat before and after the workload. Layout (tools/lib/perf's
 * event.h): header; u64 timestamp; u32 cpu; u16 version; then, for a CPU,
 * 2 bytes of padding and the CPU counters (the same nine in versions 15 to
 * 17); for a domain, a u16 domain number and its counters (u32 each, a list
 * that differs by version). Each CPU's first and last snapshots are kept:
 * their difference is what 'perf sched stats report' shows.
 */
#include <string.h>

#include "reader.h"
#include "grow.h"

#define SCHEDSTAT_CPU_FIXED	16	/* timestamp, cpu, version, padding */

static struct srep_schedstat_cpu *cpu_slot(struct srep_session *s, uint32_t cpu)
{
	struct schedstat *st = &s->schedstat;
	struct srep_schedstat_cpu *n;
	size_t i;

	for (i = 0; i < st->nr_cpus; i++)
		if (st->cpus[i].cpu == cpu)
			return &st->cpus[i];
	n = grow_array(st->cpus, &st->cap_cpus, st->nr_cpus, sizeof(*n), 16);
	if (!n)
		return NULL;
	st->cpus = n;
	n = &st->cpus[st->nr_cpus++];
	memset(n, 0, sizeof(*n));
	n->cpu = cpu;
	return n;
}

static int read_cpu_counters(struct srep_cur *c, uint64_t v[SREP_SCHEDSTAT_CPU_FIELDS])
{
	uint32_t u32;
	int i;

	for (i = 0; i < 6; i++) {		/* yld_count ... ttwu_local: u32 */
		if (!srep_cur_u32(c, &u32))
			return -1;
		v[i] = u32;
	}
	for (; i < SREP_SCHEDSTAT_CPU_FIELDS; i++)	/* rq_cpu_time, run_delay, pcount */
		if (!srep_cur_u64(c, &v[i]))
			return -1;
	return 0;
}

int schedstat_record(struct srep_session *s, uint32_t type, const uint8_t *body, size_t len,
		     uint64_t off, struct srep_error *err)
{
	struct srep_schedstat_cpu *slot;
	uint64_t time, v[SREP_SCHEDSTAT_CPU_FIELDS];
	struct srep_cur c;
	uint32_t cpu;
	uint16_t version;

	srep_cur_init(&c, body, len, off + 8, s->swap);
	if (!srep_cur_u64(&c, &time) || !srep_cur_u32(&c, &cpu) || !srep_cur_u16(&c, &version))
		goto short_record;
	s->schedstat.version = version;
	if (type == PERF_RECORD_SCHEDSTAT_DOMAIN) {
		s->schedstat.domain_records++;
		return 0;	/* per-domain counters: counted, their list differs by version */
	}
	if (!srep_cur_skip(&c, 2) || read_cpu_counters(&c, v))
		goto short_record;
	s->schedstat.cpu_records++;
	slot = cpu_slot(s, cpu);
	if (!slot)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for schedstat snapshots");
	if (!slot->snapshots++) {
		slot->first_time = time;
		memcpy(slot->first, v, sizeof(v));
	}
	slot->last_time = time;
	memcpy(slot->last, v, sizeof(v));
	return 0;
short_record:
	diag_warn(s, SREP_E_CORRUPT, off, (int64_t)type,
		  "schedstat record of %zu bytes is too short for its fields: skipped", len + 8);
	s->stats.skipped_records++;
	return 0;
}

void schedstat_free(struct srep_session *s)
{
	free(s->schedstat.cpus);
	memset(&s->schedstat, 0, sizeof(s->schedstat));
}

/* ---- public accessors ---- */

const char *srep_schedstat_cpu_field_name(int idx)
{
	static const char *const names[SREP_SCHEDSTAT_CPU_FIELDS] = {
		"yld_count", "array_exp", "sched_count", "sched_goidle", "ttwu_count",
		"ttwu_local", "rq_cpu_time", "run_delay", "pcount",
	};

	return idx >= 0 && idx < SREP_SCHEDSTAT_CPU_FIELDS ? names[idx] : NULL;
}

size_t srep_session__schedstat(const struct srep_session *s, int *version, uint64_t *cpu_records,
			       uint64_t *domain_records)
{
	*version = s->schedstat.version;
	*cpu_records = s->schedstat.cpu_records;
	*domain_records = s->schedstat.domain_records;
	return s->schedstat.nr_cpus;
}

const struct srep_schedstat_cpu *srep_session__schedstat_cpu(const struct srep_session *s,
							      size_t idx)
{
	return idx < s->schedstat.nr_cpus ? &s->schedstat.cpus[idx] : NULL;
}
