// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint-threads.c - "schedrep simpoint --per-thread": one analysis per
 * thread, each thread's samples counted in intervals of its own count, as
 * when each thread is checkpointed and simulated alone. The threads are
 * kept in an array sorted by tid (found by bisection: a handful to a few
 * thousand threads, each made once).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "simpoint-out.h"

struct sp_one *sp_thread_of(struct sp_threads *ts, int32_t tid, struct srep_error *err)
{
	size_t lo = 0, hi = ts->n, mid;
	struct sp_one *t;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ts->t[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ts->n && ts->t[lo].tid == tid)
		return &ts->t[lo];
	if (ts->n == ts->cap) {
		size_t cap = ts->cap ? 2 * ts->cap : 16;

		t = realloc(ts->t, cap * sizeof(*t));
		if (!t) {
			srep_error__set(err, SREP_E_NOMEM, "no memory for %zu threads", cap);
			return NULL;
		}
		ts->t = t;
		ts->cap = cap;
	}
	t = &ts->t[lo];
	memmove(t + 1, t, (ts->n - lo) * sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	if (srep_simpoint__new(&t->sp, ts->interval, err)) {
		memmove(t, t + 1, (ts->n - lo) * sizeof(*t));
		return NULL;
	}
	ts->n++;
	return t;
}

void sp_threads_free(struct sp_threads *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		srep_simpoint__delete(ts->t[i].sp);
	free(ts->t);
	memset(ts, 0, sizeof(*ts));
}

const char *sp_vectors_name(const struct sp_one *one, bool symbols)
{
	if (one->lbr_samples)
		return "basic blocks of the branch stacks, else functions or address blocks";
	return symbols ? "functions, else address blocks" : "address blocks";
}

/* one thread's analysis into DIR/tid-TID/; its line of threads.txt */
static int write_thread(const char *dir, FILE *index, struct sp_one *t, struct sp_report rep,
			struct srep_simpoint_opts cl, const char *comm, bool symbols,
			struct srep_error *err)
{
	size_t n = srep_simpoint__nr_intervals(t->sp);
	struct srep_simpoint_result res;
	char sub[4096];
	int ret;

	fprintf(index, "%d\t%s\t%" PRIu64 "\t%zu\t", t->tid, comm, t->samples, n);
	if (n < 2) {
		fputs("-\tnot analysed: fewer than 2 intervals\n", index);
		return 0;
	}
	if (cl.max_k > n)	/* --max-k is an upper bound; this thread has fewer intervals */
		cl.max_k = (unsigned)n;
	if (srep_simpoint__cluster(t->sp, &cl, &res, err))
		return err->code;
	snprintf(sub, sizeof(sub), "%s/tid-%d", dir, t->tid);
	rep.sp = t->sp;
	rep.res = &res;
	rep.samples = t->samples;
	rep.vectors = sp_vectors_name(t, symbols);
	if (mkdir(sub, 0777) && errno != EEXIST)
		ret = srep_error__set(err, SREP_E_IO, "cannot make '%s': %s", sub, strerror(errno));
	else
		ret = sp_write_all(sub, &rep, err);
	if (!ret)
		fprintf(index, "%u\ttid-%d/\n", res.k, t->tid);
	srep_simpoint_result__free(&res);
	return ret;
}

int sp_write_threads(const char *dir, struct sp_threads *ts, const struct sp_report *base,
		     const struct srep_simpoint_opts *cl, const struct srep_session *s,
		     bool symbols, struct srep_error *err)
{
	char path[4096];
	const struct srep_task *task;
	FILE *index;
	size_t i;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/threads.txt", dir);
	index = fopen(path, "w");
	if (!index)
		return srep_error__set(err, SREP_E_IO, "cannot write '%s': %s", path, strerror(errno));
	fputs("# tid\tcomm\tsamples\tintervals\tk\tdirectory\n", index);
	for (i = 0; i < ts->n && !ret; i++) {
		task = srep_session__find_task(s, ts->t[i].tid);
		ret = write_thread(dir, index, &ts->t[i], *base, *cl, task ? srep_task__comm(task) : "",
				   symbols, err);
	}
	if (fclose(index) && !ret)
		ret = srep_error__set(err, SREP_E_IO, "cannot write '%s': %s", path, strerror(errno));
	return ret;
}
