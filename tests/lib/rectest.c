// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rectest.c - records as the kernel writes them for the recorder's events,
 * built by hand for the recorder's Check suites (see rectest.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rectest.h"

/*
 * These helpers also serve the fuzz targets, which run outside Check (whose
 * ck_assert reports through the test runner): a broken helper says where
 * and aborts, which Check reports as a failed test too.
 */
#define RT_CHECK(cond) do { if (!(cond)) rt_fail(__FILE__, __LINE__, #cond); } while (0)

static void rt_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: %s\n", file, line, what);
	abort();
}

int rt_evlist(struct rec_evlist *el, bool waking_only)
{
	static const char *const both[] = { "sched:sched_switch", "sched:sched_wakeup" };
	/* the default set on a kernel with sched_waking (sched_wakeup_new is there too) */
	static const char *const waking[] = { "sched:sched_switch", "sched:sched_waking",
					      "sched:sched_wakeup_new" };
	struct srep_rec_opts o = { .events = waking_only ? waking : both,
				   .nr_events = waking_only ? 3 : 2, .system_wide = true };
	struct srep_error err = { 0 };
	size_t i;
	int c;

	RT_CHECK(evlist_build(el, &o, RT_TRACEFS, &err) == 0);
	for (i = 0; i < el->nr; i++) {
		el->ev[i].ids = calloc(RT_NR_CPUS, sizeof(uint64_t));
		RT_CHECK(el->ev[i].ids != NULL);
		for (c = 0; c < RT_NR_CPUS; c++)
			el->ev[i].ids[c] = rt_id(el, (int)i, c);
		el->ev[i].nr_ids = RT_NR_CPUS;
	}
	RT_CHECK(evlist_index_ids(el, &err) == 0);
	return 0;
}

int rt_event(const struct rec_evlist *el, const char *name)
{
	size_t i;

	for (i = 0; i < el->nr; i++) {
		if (!strcmp(el->ev[i].name, name))
			return (int)i;
	}
	return -1;
}

uint64_t rt_id(const struct rec_evlist *el, int idx, int cpu)
{
	(void)el;
	return 1000u + 16u * (unsigned)idx + (unsigned)cpu;
}

static void put_at(struct rec_buf *b, size_t off, const void *p, size_t n)
{
	memcpy(b->p + off, p, n);
}

/* a SAMPLE with a RAW payload of 'raw_len' bytes; returns the payload's offset */
static size_t sample(struct rec_buf *b, uint64_t id, uint64_t time, int cpu, int32_t tid,
		     size_t raw_len, uint16_t tp_id)
{
	size_t raw_padded = (4 + raw_len + 7) / 8 * 8, size = 8 + 6 * 8 + raw_padded, start = b->len;
	uint8_t h[8];

	RT_CHECK(buf_zero(b, size) == 0);
	srep_put32(h, REC_SAMPLE, REC_BE);
	srep_put16(h + 4, 2, REC_BE);
	srep_put16(h + 6, (uint16_t)size, REC_BE);
	put_at(b, start, h, 8);
	srep_put64(b->p + start + 8, id, REC_BE);
	srep_put64(b->p + start + 16, 0xffffffff81000000ull, REC_BE);
	srep_put32(b->p + start + 24, (uint32_t)tid, REC_BE);
	srep_put32(b->p + start + 28, (uint32_t)tid, REC_BE);
	srep_put64(b->p + start + 32, time, REC_BE);
	srep_put32(b->p + start + 40, (uint32_t)cpu, REC_BE);
	srep_put64(b->p + start + 48, 1, REC_BE);
	srep_put32(b->p + start + 56, (uint32_t)(raw_padded - 4), REC_BE);
	srep_put16(b->p + start + 60, tp_id, REC_BE);
	srep_put32(b->p + start + 64, (uint32_t)tid, REC_BE);	/* common_pid */
	return start + 60;
}

void rt_switch(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu,
	       int32_t prev, int32_t next)
{
	int idx = rt_event(el, "sched:sched_switch");
	size_t raw = sample(b, rt_id(el, idx, cpu), time, cpu, prev, 64,
			    (uint16_t)el->ev[idx].attr.config);

	snprintf((char *)b->p + raw + 8, 16, "task%d", prev);
	srep_put32(b->p + raw + 24, (uint32_t)prev, REC_BE);
	srep_put32(b->p + raw + 28, 120, REC_BE);
	srep_put64(b->p + raw + 32, 1, REC_BE);		/* S */
	snprintf((char *)b->p + raw + 40, 16, "task%d", next);
	srep_put32(b->p + raw + 56, (uint32_t)next, REC_BE);
	srep_put32(b->p + raw + 60, 120, REC_BE);
}

void rt_wakeup(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu, int32_t tid)
{
	int idx = rt_event(el, "sched:sched_wakeup");
	size_t raw;

	if (idx < 0)
		idx = rt_event(el, "sched:sched_waking");
	raw = sample(b, rt_id(el, idx, cpu), time, cpu, 0, 36, (uint16_t)el->ev[idx].attr.config);
	snprintf((char *)b->p + raw + 8, 16, "task%d", tid);
	srep_put32(b->p + raw + 24, (uint32_t)tid, REC_BE);
	srep_put32(b->p + raw + 28, 120, REC_BE);
	srep_put32(b->p + raw + 32, (uint32_t)cpu, REC_BE);
}

/* sample_id trailer: TID, TIME, CPU, IDENTIFIER of the dummy event */
static void trailer(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu,
		    int32_t pid)
{
	RT_CHECK((buf_u32(b, (uint32_t)pid) | buf_u32(b, (uint32_t)pid) | buf_u64(b, time) |
			 buf_u32(b, (uint32_t)cpu) | buf_u32(b, 0) |
			 buf_u64(b, rt_id(el, (int)el->sideband, cpu))) == 0);
}

static void finish(struct rec_buf *b, size_t start)
{
	srep_put16(b->p + start + 6, (uint16_t)(b->len - start), REC_BE);
}

void rt_comm(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu, int32_t pid,
	     const char *comm)
{
	size_t start = b->len;
	char name[16] = { 0 };

	strncpy(name, comm, sizeof(name) - 1);
	RT_CHECK((buf_u32(b, REC_COMM) | buf_u16(b, 0) | buf_u16(b, 0) |
			 buf_u32(b, (uint32_t)pid) | buf_u32(b, (uint32_t)pid) |
			 buf_put(b, name, sizeof(name))) == 0);
	trailer(b, el, time, cpu, pid);
	finish(b, start);
}

void rt_lost(struct rec_buf *b, const struct rec_evlist *el, uint64_t time, int cpu, uint64_t lost)
{
	size_t start = b->len;

	RT_CHECK((buf_u32(b, REC_LOST) | buf_u16(b, 0) | buf_u16(b, 0) |
			 buf_u64(b, rt_id(el, 0, cpu)) | buf_u64(b, lost)) == 0);
	trailer(b, el, time, cpu, -1);
	finish(b, start);
}

size_t rt_next(const struct rec_buf *b, size_t off)
{
	uint16_t size;

	if (off + 8 > b->len)
		return 0;
	size = srep_get16(b->p + off + 6, false);
	return size >= 8 && off + size < b->len ? off + size : 0;
}

void rt_write(const char *path, const struct rec_evlist *el, const struct rec_buf *records)
{
	static const char *const cmdline[] = { "record" };
	struct rec_buf tracing = { 0 };
	struct srep_error err = { 0 };
	struct rec_features fs;
	struct rec_feature_input in = { el, &tracing, cmdline, 1, false, 0 };
	struct pd_meta meta = { el, &fs, &tracing, false, 0 };
	struct pd_out pd;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	RT_CHECK(fd >= 0);
	RT_CHECK(tracefs_tracing_data(RT_TRACEFS, el, &tracing, &err) == 0);
	RT_CHECK(features_collect(&fs, &in, &err) == 0);
	RT_CHECK(pd_begin(&pd, fd, false, path, &meta, &err) == 0);
	RT_CHECK(pd_records(&pd, records->p, records->len, &err) == 0);
	RT_CHECK(pd_finished_round(&pd, &err) == 0);
	RT_CHECK(pd_finish(&pd, &err) == 0);
	pd_free(&pd);
	features_free(&fs);
	buf_free(&tracing);
	close(fd);
}
