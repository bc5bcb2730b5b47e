// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_schedmap.c - the columns of srep_schedmap (perf sched map), which
 * it keeps between switches and patches, against a model that redraws them
 * from scratch: after every line, each column shows the name of the task
 * last switched in on its CPU. Over a pseudo-random trace on four CPUs,
 * with CPUs appearing beyond the announced count, --compact, a time
 * window, --cpus in perf 6.12 (lines of other CPUs skipped, their switches
 * still counted) and in perf 6.1 (their columns dropped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedrep/perfsched.h>

#include "testutil.h"
#include "fixture.h"

#define T0 1000000000ull
#define NR_CPUS 4
#define NR_TIDS 12		/* tid 0 (idle) and 100.. */
#define NR_SWITCHES 400

static int32_t tid_at(unsigned k)
{
	return k ? (int32_t)(99 + k) : 0;
}

/* a trace whose switches move tasks between CPUs at random (a fixed seed) */
static char *write_trace(char *path, size_t size)
{
	struct fixture_opts o = { .nr_cpus = NR_CPUS };
	struct fixture *fx = fixture_new(&o);
	int32_t curr[NR_CPUS] = { 0 };
	int on_cpu[NR_TIDS];		/* where each task runs, -1 nowhere */
	uint32_t seed = 12345;
	char comm[16];
	char *dir = tu_tmpdir();
	unsigned i, k;
	int cpu;

	ck_assert_ptr_nonnull(fx);
	ck_assert_ptr_nonnull(dir);
	for (k = 1; k < NR_TIDS; k++) {
		snprintf(comm, sizeof(comm), "task%u", k);
		fixture_comm(fx, T0 + k, 0, tid_at(k), tid_at(k), comm, false);
		on_cpu[k] = -1;
	}
	for (i = 0; i < NR_SWITCHES; i++) {
		seed = seed * 1103515245u + 12345u;
		/* CPUs 2 and 3 only after a while, so that they appear late */
		cpu = (int)((seed >> 16) % (i < 100 ? 2 : NR_CPUS));
		seed = seed * 1103515245u + 12345u;
		k = (seed >> 16) % NR_TIDS;
		if (k && on_cpu[k] >= 0)
			k = 0;		/* a task runs on one CPU at a time: idle instead */
		if (k)
			snprintf(comm, sizeof(comm), "task%u", k);
		else
			snprintf(comm, sizeof(comm), "swapper/%d", cpu);
		if (curr[cpu])
			on_cpu[curr[cpu] - 99] = -1;
		ck_assert_int_eq(fixture_switch(fx, T0 + 1000 * (i + 1), cpu, "prev", curr[cpu], 120,
						FIXTURE_STATE_S, comm, tid_at(k), 120), 0);
		curr[cpu] = tid_at(k);
		if (k)
			on_cpu[k] = cpu;
	}
	snprintf(path, size, "%s/t.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	fixture_free(fx);
	return dir;
}

struct model {
	int32_t curr[NR_CPUS];		/* tid last switched in, -1 none */
	char names[NR_TIDS][3];		/* learnt from the lines of their switches */
	int32_t order[NR_CPUS];		/* compact: CPUs by first switch */
	size_t nr_order;
	int32_t max_cpu;
};

static int slot(int32_t tid)
{
	return tid ? tid - 99 : 0;
}

/* the columns the model expects: CPUs, then names */
static size_t expected_cols(const struct model *md, const struct srep_schedmap_opts *o,
			    int32_t announced, int32_t *cpus)
{
	const struct srep_perf_filter *f = &o->filter;
	size_t i, n = 0, all = o->compact ? md->nr_order :
			      (size_t)(md->max_cpu + 1 > announced ? md->max_cpu + 1 : announced);
	int32_t c;

	for (i = 0; i < all; i++) {
		c = o->compact ? md->order[i] : (int32_t)i;
		if (o->dialect == SREP_PERF_6_1 && f->cpus && (c >= (int32_t)f->nr_cpus || !f->cpus[c]))
			continue;
		cpus[n++] = c;
	}
	return n;
}

static void check_line(const struct model *md, const struct srep_schedmap_opts *o,
		       int32_t announced, const struct srep_schedmap_line *l)
{
	int32_t cpus[NR_CPUS];
	size_t n = expected_cols(md, o, announced, cpus), i;
	const char *want;

	ck_assert_uint_eq(l->nr_cols, n);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(l->col_cpu[i], cpus[i]);
		want = md->curr[cpus[i]] < 0 ? "" : md->names[slot(md->curr[cpus[i]])];
		ck_assert_msg(!strcmp(l->cols[i], want), "column %zu (CPU %d): '%s', want '%s'", i,
			      cpus[i], l->cols[i], want);
	}
}

/* every line of a run against the model; returns how many lines */
static size_t run(const char *path, const struct srep_schedmap_opts *o, int32_t announced,
		  struct model *md)
{
	struct srep_open_opts oo = { .flags = 0 };
	struct srep_error err = { 0 };
	struct srep_session *s;
	struct srep_schedmap *m;
	struct srep_schedmap_line line;
	const struct srep_event *ev;
	size_t lines = 0, i;
	int ret;

	ck_assert_msg(srep_session__open(&s, path, &oo, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(srep_schedmap__new(&m, s, o, &err), 0);
	for (i = 0; i < NR_CPUS; i++)
		md->curr[i] = -1;
	md->nr_order = 0;
	md->max_cpu = -1;
	while ((ret = srep_session__next_event(s, &ev, &err)) > 0) {
		ret = srep_schedmap__add(m, ev, &line, &err);
		ck_assert_int_ge(ret, 0);
		if (ev->kind != SREP_EV_SWITCH || ev->time < o->filter.from ||
		    (o->filter.to && ev->time > o->filter.to))
			continue;
		md->curr[ev->cpu] = ev->u.sw.next_tid;
		if (ev->cpu > md->max_cpu)
			md->max_cpu = ev->cpu;
		for (i = 0; i < md->nr_order && md->order[i] != ev->cpu; i++)
			;
		if (i == md->nr_order)
			md->order[md->nr_order++] = ev->cpu;
		if (!ret)
			continue;
		lines++;
		if (line.print)
			memcpy(md->names[slot(ev->u.sw.next_tid)], line.name, 3);
		check_line(md, o, announced, &line);
	}
	ck_assert_int_eq(ret, 0);
	srep_schedmap__delete(m);
	srep_session__delete(s);
	return lines;
}

START_TEST(test_columns_as_redrawn)
{
	static const bool cpus_1_3[NR_CPUS] = { false, true, false, true };
	struct srep_schedmap_opts o;
	struct model md;
	char path[4096], *dir = write_trace(path, sizeof(path));
	size_t all;
	int compact, late;

	memset(&md, 0, sizeof(md));
	/* every switch draws a line: each task's name is learnt before it shows in a column */
	memset(&o, 0, sizeof(o));
	all = run(path, &o, NR_CPUS, &md);
	ck_assert_uint_eq(all, NR_SWITCHES);
	for (compact = 0; compact < 2; compact++) {
		for (late = 0; late < 2; late++) {
			/* late: one CPU announced, the others appear (more columns) */
			memset(&o, 0, sizeof(o));
			o.compact = compact;
			o.nr_cpus = late ? 1 : 0;
			ck_assert_uint_eq(run(path, &o, late ? 1 : NR_CPUS, &md), NR_SWITCHES);
			o.filter.cpus = cpus_1_3;
			o.filter.nr_cpus = NR_CPUS;
			/* perf 6.12: lines of CPUs 1 and 3 only, all columns */
			ck_assert_uint_lt(run(path, &o, late ? 1 : NR_CPUS, &md), NR_SWITCHES);
			/* perf 6.1: a line per switch, only the columns of CPUs 1 and 3 */
			o.dialect = SREP_PERF_6_1;
			ck_assert_uint_eq(run(path, &o, late ? 1 : NR_CPUS, &md), NR_SWITCHES);
			o.filter.cpus = NULL;
			o.filter.nr_cpus = 0;
			o.dialect = SREP_PERF_6_12;
			o.filter.from = T0 + 1000 * 150;
			o.filter.to = T0 + 1000 * 300;
			ck_assert_uint_eq(run(path, &o, late ? 1 : NR_CPUS, &md), 151);
		}
	}
	tu_rmdir(dir);
	free(dir);
}
END_TEST

static Suite *schedmap_suite(void)
{
	Suite *su = suite_create("schedmap");
	TCase *tc = tcase_create("schedmap");

	tcase_add_test(tc, test_columns_as_redrawn);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run_suite(schedmap_suite());
}
