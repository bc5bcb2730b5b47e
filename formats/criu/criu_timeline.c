// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * criu_timeline.c - DIR/timeline.json: the instants, the processes and
 * tasks of each image set, what changed since the previous instant, and the
 * on-CPU time and instructions of every task (schema: docs/criu.md).
 *
 * Written as the instants are, so memory does not grow with their number.
 * One object per line inside the arrays keeps golden files readable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "criu_local.h"

#define NSEC_PER_SEC UINT64_C(1000000000)

/* ---- UTF-8: comms and file names are bytes; JSON and protobuf strings are UTF-8 ---- */

/* length of the valid UTF-8 sequence at p (RFC 3629), 0 when it is not one */
static size_t utf8_len(const unsigned char *p, size_t left)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;	/* no surrogates */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (left < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++) {
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	}
	return n;
}

void criu_utf8_clean(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t left = strlen(in), o = 0, n;

	while (left && size) {
		n = utf8_len(p, left);
		if (o + (n ? n : 1) >= size)
			break;
		if (n)
			memcpy(out + o, p, n);
		else
			out[o] = '?';
		o += n ? n : 1;
		p += n ? n : 1;
		left -= n ? n : 1;
	}
	if (size)
		out[o] = '\0';
}

static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n;

	fputc('"', f);
	while (left) {
		n = utf8_len(p, left);
		if (!n)
			fputs("\\ufffd", f);	/* not UTF-8: the replacement character */
		else if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
		left -= n ? n : 1;
	}
	fputc('"', f);
}

static void json_letter(FILE *f, char c)
{
	char s[2] = { c, '\0' };

	json_str(f, s);
}

static void json_int_or_null(FILE *f, bool known, int64_t v)
{
	if (known)
		fprintf(f, "%" PRId64, v);
	else
		fputs("null", f);
}

/* ---- the file ---- */

static int io_error(struct criu_state *st, struct srep_error *err)
{
	return srep_error__set(err, SREP_E_IO, "cannot write '%s/timeline.json': %s",
			       st->out_dir, strerror(errno));
}

int criu_timeline_begin(struct criu_state *st, struct srep_error *err)
{
	const struct srep_meta *m = srep_session__meta(st->session);
	const char *base = strrchr(st->input, '/');
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/timeline.json", st->out_dir);
	f = st->timeline = fopen(path, "w");
	if (!f)
		return io_error(st, err);
	fprintf(f, "{\n  \"format\": \"schedrep-criu-timeline\",\n  \"version\": 1,\n  \"input\": ");
	json_str(f, base ? base + 1 : st->input);
	fprintf(f, ",\n  \"arch\": ");
	if (m->arch)
		json_str(f, m->arch);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"criu_arch\": \"%s\",\n", criu_march_name(st->march));
	fprintf(f, "  \"start_ns\": %" PRIu64 ",\n  \"end_ns\": %" PRIu64 ",\n", st->start, st->end);
	fprintf(f, "  \"instructions_event\": ");
	if (st->counter_evsel >= 0)
		json_str(f, srep_session__evsel_name(st->session, (size_t)st->counter_evsel));
	else
		fputs("null", f);
	fprintf(f, ",\n  \"instants\": [");
	return ferror(f) ? io_error(st, err) : 0;
}

static void write_reasons(FILE *f, unsigned reasons)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ CRIU_R_AT, "at" }, { CRIU_R_EVERY, "every" },
		{ CRIU_R_INSN, "every-instructions" }, { CRIU_R_END, "end" },
	};
	const char *sep = "";
	size_t i;

	fputc('[', f);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (reasons & names[i].bit) {
			fprintf(f, "%s\"%s\"", sep, names[i].name);
			sep = ", ";
		}
	}
	fputc(']', f);
}

static void write_processes(struct criu_state *st)
{
	const struct criu_snapshot *snap = &st->snap;
	FILE *f = st->timeline;
	size_t i, j;

	fprintf(f, "      \"processes\": [");
	for (i = 0; i < snap->nr_procs; i++) {
		const struct criu_proc *p = &snap->procs[snap->order[i]];
		const char *comm = snap->root_comm;

		if (p->leader != CRIU_NONE)
			comm = criu_comm_at(st->tasks[p->leader].t, snap->time);
		else if (p->nr)
			comm = criu_comm_at(st->tasks[snap->threads[p->first]].t, snap->time);
		fprintf(f, "%s\n        {\"pid\": %d, \"ppid\": %d, \"comm\": ", i ? "," : "",
			(int)p->pid, (int)p->ppid);
		json_str(f, comm ? comm : "init");
		fprintf(f, ", \"made_up\": %s, \"threads\": [", p->leader == CRIU_NONE ? "true" : "false");
		if (p->leader == CRIU_NONE)
			fprintf(f, "%d%s", (int)p->pid, p->nr ? ", " : "");
		for (j = 0; j < p->nr; j++)
			fprintf(f, "%s%d", j ? ", " : "",
				(int)srep_task__tid(st->tasks[snap->threads[p->first + j]].t));
		fputs("]}", f);
	}
	fprintf(f, "\n      ],\n");
}

static void write_task(struct criu_state *st, const struct criu_task *ct, bool first)
{
	const struct srep_task *t = ct->t;
	uint64_t time = st->snap.time;
	uint64_t cpu = ct->cpu_ns + (ct->on_cpu && time >= ct->on_since ? time - ct->on_since : 0);
	FILE *f = st->timeline;

	fprintf(f, "%s\n        {\"pid\": %d, \"tid\": %d, \"ppid\": ", first ? "" : ",",
		(int)criu_pid_of(t), (int)srep_task__tid(t));
	json_int_or_null(f, srep_task__ppid(t) >= 0, srep_task__ppid(t));
	fputs(", \"comm\": ", f);
	json_str(f, criu_comm_at(t, time));
	fputs(", \"state\": ", f);
	json_letter(f, ct->letter);
	fprintf(f, ", \"on_cpu\": %s, \"exited\": %s, \"criu_state\": \"%s\", \"prio\": ",
		ct->on_cpu ? "true" : "false", criu_exited(ct, time) ? "true" : "false",
		criu_state_name(criu_task_state(ct, time)));
	json_int_or_null(f, ct->prio != INT32_MIN, ct->prio);
	fprintf(f, ", \"cpu_ns\": %" PRIu64 ", \"instructions\": ", cpu);
	json_int_or_null(f, st->counter_evsel >= 0, (int64_t)ct->counted);
	fputc('}', f);
}

static void write_tasks(struct criu_state *st)
{
	const struct criu_snapshot *snap = &st->snap;
	size_t i;

	fprintf(st->timeline, "      \"tasks\": [");
	for (i = 0; i < snap->nr_threads; i++)
		write_task(st, &st->tasks[snap->threads[i]], i == 0);
	fprintf(st->timeline, "\n      ],\n");
}

/* ---- changes since the previous instant ---- */

enum change_kind { CH_FORK, CH_EXEC, CH_EXIT, CH_COMM, CH_STATE, CH_GONE };

struct change {
	uint64_t time;		/* UINT64_MAX: seen only by comparing the two instants */
	enum change_kind kind;
	int32_t tid;
	size_t what;		/* task index, or exec index for CH_EXEC */
};

static int cmp_change(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static bool in_interval(const struct criu_state *st, uint64_t t)
{
	return t && t > st->prev_time && t <= st->snap.time;
}

/* the changes of one task; 'v' has room for four */
static size_t task_changes(const struct criu_state *st, size_t i, struct change *v)
{
	const struct criu_task *ct = &st->tasks[i];
	int32_t tid = srep_task__tid(ct->t);
	uint64_t fork = srep_task__fork_time(ct->t), exit = srep_task__exit_time(ct->t);
	size_t n = 0;

	if (!ct->selected || tid <= 0)
		return 0;
	if (in_interval(st, fork))
		v[n++] = (struct change){ fork, CH_FORK, tid, i };
	if (in_interval(st, exit))
		v[n++] = (struct change){ exit, CH_EXIT, tid, i };
	if (!ct->was_present)
		return n;
	if (!ct->present) {
		v[n++] = (struct change){ UINT64_MAX, CH_GONE, tid, i };
		return n;
	}
	if (strcmp(ct->was_comm, criu_comm_at(ct->t, st->snap.time)))
		v[n++] = (struct change){ UINT64_MAX, CH_COMM, tid, i };
	if (ct->was_letter != ct->letter)
		v[n++] = (struct change){ UINT64_MAX, CH_STATE, tid, i };
	return n;
}

static void write_change(struct criu_state *st, const struct change *c)
{
	static const char *const names[] = { "fork", "exec", "exit", "comm", "state", "gone" };
	const struct criu_task *ct = c->kind == CH_EXEC ? NULL : &st->tasks[c->what];
	const struct criu_exec *x = c->kind == CH_EXEC ? &st->execs[c->what] : NULL;
	FILE *f = st->timeline;

	fprintf(f, "{\"change\": \"%s\", ", names[c->kind]);
	if (c->time != UINT64_MAX)
		fprintf(f, "\"time_ns\": %" PRIu64 ", ", c->time);
	fprintf(f, "\"pid\": %d, \"tid\": %d", (int)(x ? x->pid : criu_pid_of(ct->t)), (int)c->tid);
	if (c->kind == CH_FORK) {
		fputs(", \"ppid\": ", f);
		json_int_or_null(f, srep_task__ppid(ct->t) >= 0, srep_task__ppid(ct->t));
	} else if (c->kind == CH_EXEC) {
		fputs(", \"comm\": ", f);
		json_str(f, x->comm);
		fputs(", \"filename\": ", f);
		if (x->filename)
			json_str(f, x->filename);
		else
			fputs("null", f);
	} else if (c->kind == CH_COMM || c->kind == CH_STATE) {
		fputs(", \"from\": ", f);
		if (c->kind == CH_COMM)
			json_str(f, ct->was_comm);
		else
			json_letter(f, ct->was_letter);
		fputs(", \"to\": ", f);
		if (c->kind == CH_COMM)
			json_str(f, criu_comm_at(ct->t, st->snap.time));
		else
			json_letter(f, ct->letter);
	}
	fputc('}', f);
}

static int write_changes(struct criu_state *st, struct srep_error *err)
{
	struct change *v = malloc((st->nr_tasks * 4 + st->nr_execs + 1) * sizeof(*v));
	size_t n = 0, i;

	if (!v)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the changes of an instant");
	for (i = 0; i < st->nr_tasks; i++)
		n += task_changes(st, i, v + n);
	for (i = 0; i < st->nr_execs; i++)
		v[n++] = (struct change){ st->execs[i].time, CH_EXEC, st->execs[i].tid, i };
	qsort(v, n, sizeof(*v), cmp_change);
	fprintf(st->timeline, "      \"changes\": [");
	for (i = 0; i < n; i++) {
		fprintf(st->timeline, "%s\n        ", i ? "," : "");
		write_change(st, &v[i]);
	}
	fprintf(st->timeline, "%s],\n      \"changes_not_listed\": %" PRIu64 "\n    }",
		n ? "\n      " : "", st->execs_dropped);
	free(v);
	return 0;
}

int criu_timeline_instant(struct criu_state *st, const char *dir, unsigned reasons,
			  struct srep_error *err)
{
	uint64_t t = st->snap.time, off = t - st->start;
	FILE *f = st->timeline;
	int ret;

	fprintf(f, "%s\n    {\n      \"index\": %zu,\n      \"dir\": ", st->nr_written ? "," : "",
		st->nr_written);
	json_str(f, dir);
	fprintf(f, ",\n      \"time_ns\": %" PRIu64 ",\n      \"offset_s\": %" PRIu64 ".%06" PRIu64
		",\n      \"reasons\": ", t, off / NSEC_PER_SEC, off % NSEC_PER_SEC / 1000);
	write_reasons(f, reasons);
	fputs(",\n      \"instructions\": ", f);
	json_int_or_null(f, st->counter_evsel >= 0, (int64_t)st->insn_total);
	fputs(",\n", f);
	write_processes(st);
	write_tasks(st);
	ret = write_changes(st, err);
	if (!ret && ferror(f))
		ret = io_error(st, err);
	return ret;
}

int criu_timeline_end(struct criu_state *st, struct srep_error *err)
{
	FILE *f = st->timeline;
	int bad;

	fprintf(f, "\n  ],\n  \"summary\": {\"instants\": %zu, \"switch_events\": %" PRIu64
		", \"instructions\": ", st->nr_written, st->nr_switches);
	json_int_or_null(f, st->counter_evsel >= 0, (int64_t)st->insn_total);
	fputs("}\n}\n", f);
	bad = ferror(f);
	st->timeline = NULL;
	if (fclose(f) || bad)
		return io_error(st, err);
	return 0;
}
