// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmtutil.c - helpers of the exporter suites (see fmtutil.h).
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fmtutil.h"

/* ---- converting in memory, as the command does ---- */

static int add_specs(struct srep_selection *sel, const char *const *v, bool only,
		     struct srep_error *err)
{
	int ret = 0;

	for (; v && *v && !ret; v++)
		ret = only ? srep_selection__add_only(sel, *v, err)
			   : srep_selection__add_exclude(sel, *v, err);
	return ret;
}

static int first_time(struct srep_session *s, uint64_t *out, struct srep_error *err)
{
	const struct srep_event *ev;
	int ret;

	*out = 0;
	while ((ret = srep_session__next_event(s, &ev, err)) > 0 && !ev->time)
		;
	if (ret > 0)
		*out = ev->time;
	return ret < 0 ? ret : srep_session__rewind(s, err);
}

static int run_exporter(const struct srep_exporter *x, struct srep_export_ctx *ctx,
			struct srep_error *err)
{
	const struct srep_event *ev;
	void *state = NULL;
	int ret;

	ret = x->begin(&state, ctx, err);
	while (!ret && (ret = srep_session__next_event(ctx->session, &ev, err)) > 0) {
		if (ev->time > ctx->to && !(ev->flags & SREP_EVF_LATE)) {
			ret = 0;
			break;
		}
		if (ctx->symbols && srep_symbolizer__observe(ctx->symbols, ev)) {
			ret = SREP_E_NOMEM;
			break;
		}
		ret = (x->flags & SREP_EXPORT_EVERY_EVENT) || srep_export_selected(ctx->sel, ev) ?
		      x->event(state, ev, err) : 0;
	}
	if (!ret)
		ret = x->end(state, err);
	x->destroy(state);
	return ret < 0 ? ret : 0;
}

int tu_convert(const char *path, const struct srep_exporter *x, const struct tu_convert *c,
	       char **out, size_t *len, struct srep_error *err)
{
	static const struct tu_convert none;
	struct srep_open_opts oo = { 0 };
	struct srep_export_ctx ctx = { .to = UINT64_MAX };
	struct srep_selection *sel = NULL;
	struct srep_session *s = NULL;
	FILE *f = NULL;
	int ret;

	c = c ? c : &none;
	*out = NULL;
	ret = srep_selection__new(&sel, err);
	if (!ret)
		ret = add_specs(sel, c->only, true, err);
	if (!ret)
		ret = add_specs(sel, c->exclude, false, err);
	srep_selection__set_children(sel, c->children);
	if (ret)
		goto out;
	if (!srep_selection__is_empty(sel) || c->time || (x->flags & SREP_EXPORT_PRESCAN))
		oo.flags = SREP_OPEN_PRESCAN;
	ret = srep_session__open(&s, path, &oo, err);
	if (!ret && oo.flags)
		ret = first_time(s, &ctx.trace_start, err);
	if (!ret && c->time)
		ret = srep_time__parse_range(c->time, ctx.trace_start, &ctx.from, &ctx.to, err);
	if (!ret && !srep_selection__is_empty(sel)) {
		ret = srep_selection__resolve(sel, s, err);
		ctx.sel = sel;
	}
	if (ret)
		goto out;
	if (c->symbols && (x->flags & SREP_EXPORT_SYMBOLS))
		ret = srep_symbolizer__new(&ctx.symbols, s, c->symbols, err);
	if (ret)
		goto out;
	f = open_memstream(out, len);
	ctx.session = s;
	ctx.out = f;
	ctx.opts = c->opts;
	ret = f ? run_exporter(x, &ctx, err) : SREP_E_NOMEM;
out:
	if (f)
		fclose(f);
	srep_symbolizer__delete(ctx.symbols);
	if (ret) {
		free(*out);
		*out = NULL;
	}
	srep_session__delete(s);
	srep_selection__delete(sel);
	return ret;
}

void *tu_grow(void *v, size_t n, size_t size)
{
	if (v && (n < 16 || (n & (n - 1))))
		return v;
	v = realloc(v, (n < 16 ? 16 : 2 * n) * size);
	ck_assert_ptr_nonnull(v);
	return v;
}

/* ---- the scenario ---- */

static void sleep_chain(struct fixture *fx, bool on)
{
	/* __schedule <- schedule <- pipe_read <- vfs_read, as a kernel callchain */
	static const uint64_t chain[] = {
		(uint64_t)-128, 0xffffffff81000100ull, 0xffffffff81000200ull,
		0xffffffff81000300ull, 0xffffffff81000400ull,
	};

	if (on)
		fixture_next_callchain(fx, sizeof(chain) / sizeof(chain[0]), chain);
}

struct fixture *tu_scenario(const struct fixture_opts *o, const char *server, const char *worker)
{
	struct fixture *fx = fixture_new(o);
	const uint64_t t = TU_T0;
	bool cc = o->tp_callchain;
	int cyc;

	if (!fx)
		return NULL;
	server = server ? server : "server";
	worker = worker ? worker : "worker";
	cyc = fixture_add_event(fx, 1 /* SOFTWARE */, 0 /* cpu-clock */, 0);
	fixture_comm(fx, t + 0, 0, 100, 100, server, false);
	fixture_comm(fx, t + 1, 1, 200, 200, "client", false);
	fixture_cpu_frequency(fx, t + 5, 0, 1200000, 0);
	fixture_fork(fx, t + 10, 0, 101, 100, 101, 100);
	fixture_tp_fork(fx, t + 11, 0, server, 100, server, 101);
	fixture_switch(fx, t + 20, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, server, 100, 120);
	fixture_cpu_idle(fx, t + 25, 1, 1);
	fixture_cpu_idle(fx, t + 39, 1, (uint32_t)-1);
	fixture_switch(fx, t + 40, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "client", 200, 120);
	fixture_wakeup_new(fx, t + 45, 1, server, 101, 120, 0);
	sleep_chain(fx, cc);
	fixture_switch(fx, t + 50, 0, server, 100, 120, FIXTURE_STATE_S, server, 101, 120);
	fixture_comm(fx, t + 52, 0, 101, 101, worker, true);
	fixture_exec(fx, t + 53, 0, "/usr/bin/worker", 101, 101);
	fixture_migrate(fx, t + 60, 0, "client", 200, 120, 1, 0);
	fixture_waking(fx, t + 62, 0, server, 100, 120, 1);
	fixture_wakeup(fx, t + 63, 1, server, 100, 120, 1);
	fixture_stat_runtime(fx, t + 70, 0, worker, 101, 12345, 999);
	fixture_switch(fx, t + 80, 0, worker, 101, 120, FIXTURE_STATE_PREEMPT, server, 100, 120);
	fixture_sample(fx, cyc, t + 85, 0, 100, 100, 0xffffffff81001234ull, 1000, 0, NULL);
	sleep_chain(fx, cc);
	fixture_switch(fx, t + 90, 1, "client", 200, 120, FIXTURE_STATE_D, "swapper/1", 0, 120);
	sleep_chain(fx, cc);
	fixture_switch(fx, t + 92, 0, server, 100, 120, FIXTURE_STATE_S, worker, 101, 120);
	fixture_comm(fx, t + 93, 0, 101, 101, "worker-2", false);
	fixture_tp_exit(fx, t + 95, 0, "worker-2", 101, 120);
	fixture_exit(fx, t + 96, 0, 101, 100, 101, 100);
	fixture_switch(fx, t + 97, 0, "worker-2", 101, 120, FIXTURE_STATE_X, "swapper/0", 0, 120);
	fixture_lost_samples(fx, cyc, t + 97, 0, 7);
	fixture_cpu_frequency(fx, t + 98, 0, 2400000, 0);
	fixture_sample(fx, cyc, t + 99, 1, 0, 0, 0xffffffff81000500ull, 1000, 0, NULL);
	return fx;
}

char *tu_scenario_file(struct fixture *fx, char *path, size_t size)
{
	char *dir = tu_tmpdir();

	ck_assert_ptr_nonnull(dir);
	snprintf(path, size, "%s/scenario.data", dir);
	ck_assert_int_eq(fixture_write(fx, path, NULL), 0);
	return dir;
}

const char tu_scenario_kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 T __schedule\n"
	"ffffffff81000200 T schedule\n"
	"ffffffff81000300 T pipe_read\n"
	"ffffffff81000400 T vfs_read\n"
	"ffffffff81000480 T ksys_read\n";

char *tu_callchain_scenario(char *path, size_t size, char *kallsyms, size_t ksize,
			    const char *ktext)
{
	static const uint64_t chain[] = { (uint64_t)-128, 0xffffffff81000410ull,
					  0xffffffff81000488ull };
	struct fixture_opts o = { .tp_callchain = true };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	int cyc = fixture_add_event(fx, 1 /* SOFTWARE */, 0 /* cpu-clock */, 0x20 /* CALLCHAIN */);
	char *dir;

	ck_assert_int_eq(fixture_sample(fx, cyc, TU_T0 + 99, 0, 100, 100, chain[1], 1000, 3, chain),
			 0);
	dir = tu_scenario_file(fx, path, size);
	snprintf(kallsyms, ksize, "%s/kallsyms", dir);
	ck_assert_int_eq(tu_write_file(kallsyms, ktext, strlen(ktext)), 0);
	fixture_free(fx);
	return dir;
}

/* ---- golden files ---- */

void tu_golden(const char *name, const char *text, size_t len)
{
	char *path, *want;
	const char *update = getenv("SREP_UPDATE_GOLDEN");
	size_t wlen = 0;

	ck_assert_int_ge(asprintf(&path, "%s/tests/data/convert/%s", SREP_TOP_SRCDIR, name), 0);
	if (update && !strcmp(update, "1")) {
		ck_assert_int_eq(tu_write_file(path, text, len), 0);
		free(path);
		return;
	}
	want = tu_read_file(path, &wlen);
	ck_assert_msg(want, "no golden file %s (SREP_UPDATE_GOLDEN=1 writes it)", path);
	ck_assert_msg(wlen == len && !memcmp(want, text, len),
		      "output differs from %s (SREP_UPDATE_GOLDEN=1 rewrites it: review the diff)",
		      path);
	free(want);
	free(path);
}

/* ---- corpus ---- */

static bool has_switches(const char *path)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	bool found = false;

	if (srep_session__open(&s, path, NULL, &err))
		return false;
	while (!found && srep_session__next_event(s, &ev, &err) > 0)
		found = ev->kind == SREP_EV_SWITCH;
	srep_session__delete(s);
	return found;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* as check_corpus.c decides: everything but the ground-truth texts and tools */
static bool is_trace(const char *dir, const char *name)
{
	static const char *const skip[] = { ".txt", ".xz", ".md", ".c", ".sh", ".py", NULL };
	int i;

	for (i = 0; skip[i]; i++) {
		if (ends_with(name, skip[i]))
			return false;
	}
	return !strstr(dir, "callchains/") || ends_with(name, ".data");
}

static void scan_dir(const char *dir, char ***v, size_t *n)
{
	struct dirent **names;
	char *path;
	int i, nr = scandir(dir, &names, NULL, alphasort);

	for (i = 0; i < nr; i++) {
		const char *nm = names[i]->d_name;

		if (nm[0] != '.' && asprintf(&path, "%s/%s", dir, nm) >= 0) {
			if (names[i]->d_type == DT_DIR) {
				scan_dir(path, v, n);
				free(path);
			} else if (is_trace(dir, nm) && has_switches(path)) {
				*v = tu_grow(*v, *n + 1, sizeof(**v));
				(*v)[(*n)++] = path;
				(*v)[*n] = NULL;
			} else {
				free(path);
			}
		}
		free(names[i]);
	}
	free(names);
}

char **tu_corpus_sched_files(void)
{
	const char *dir = tu_corpus_dir();
	char **v = NULL;
	size_t n = 0;

	if (!dir)
		return NULL;
	scan_dir(dir, &v, &n);
	return v;
}

void tu_free_list(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* ---- Trace Event Format rules ---- */

struct tef_slice {
	int64_t pid, tid;
	int64_t start, end;		/* ns */
};

struct tef_flow {
	double id;
	char ph;
	int64_t pid, tid, ts;
};

struct tef {
	struct tef_slice *slices;
	size_t nr_slices;
	struct tef_flow *flows;
	size_t nr_flows;
	char *why;
	size_t size;
};

static bool bad(struct tef *t, const char *fmt, const char *what, int idx)
{
	snprintf(t->why, t->size, fmt, what, idx);
	return false;
}

static bool is_int(const cJSON *v)
{
	return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble);
}

/* microseconds with at most three decimals, as ns */
static bool us_to_ns(const cJSON *v, int64_t *ns)
{
	double x;

	if (!cJSON_IsNumber(v) || v->valuedouble < 0)
		return false;
	x = v->valuedouble * 1000.0;
	*ns = (int64_t)llround(x);
	return fabs(x - (double)*ns) < 0.05;
}

static bool check_meta(struct tef *t, const cJSON *ev, int i)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "name"));
	const cJSON *args = cJSON_GetObjectItem(ev, "args");

	if (!name || (strcmp(name, "thread_name") && strcmp(name, "process_name") &&
		      strcmp(name, "process_sort_index") && strcmp(name, "thread_sort_index")))
		return bad(t, "%s: event %d: unknown metadata event", "M", i);
	if (strstr(name, "_name") && !cJSON_IsString(cJSON_GetObjectItem(args, "name")))
		return bad(t, "%s: event %d: metadata without args.name", "M", i);
	return true;
}

static bool check_event(struct tef *t, const cJSON *ev, int i)
{
	const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));
	const cJSON *pid = cJSON_GetObjectItem(ev, "pid"), *tid = cJSON_GetObjectItem(ev, "tid");
	const cJSON *args = cJSON_GetObjectItem(ev, "args"), *a;
	const char *scope;
	int64_t ts, dur;

	if (!ph || strlen(ph) != 1 || !strchr("XisfCM", ph[0]))
		return bad(t, "%s: event %d: unknown phase", ph ? ph : "(none)", i);
	if (!cJSON_IsString(cJSON_GetObjectItem(ev, "name")) || !is_int(pid) || !is_int(tid))
		return bad(t, "%s: event %d: name, pid or tid missing", ph, i);
	if (args && !cJSON_IsObject(args))
		return bad(t, "%s: event %d: args is not an object", ph, i);
	if (ph[0] == 'M')
		return check_meta(t, ev, i);
	if (!us_to_ns(cJSON_GetObjectItem(ev, "ts"), &ts))
		return bad(t, "%s: event %d: ts is not microseconds with 3 decimals", ph, i);
	switch (ph[0]) {
	case 'X':
		if (!us_to_ns(cJSON_GetObjectItem(ev, "dur"), &dur))
			return bad(t, "%s: event %d: dur missing or negative", ph, i);
		t->slices = tu_grow(t->slices, t->nr_slices, sizeof(*t->slices));
		t->slices[t->nr_slices++] = (struct tef_slice){ (int64_t)pid->valuedouble,
			(int64_t)tid->valuedouble, ts, ts + dur };
		break;
	case 'i':
		scope = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "s"));
		if (scope && (strlen(scope) != 1 || !strchr("tpg", scope[0])))
			return bad(t, "%s: event %d: instant scope is not t, p or g", ph, i);
		break;
	case 'C':
		if (!cJSON_IsObject(args) || !args->child)
			return bad(t, "%s: event %d: counter without values", ph, i);
		cJSON_ArrayForEach(a, args) {
			if (!cJSON_IsNumber(a))
				return bad(t, "%s: event %d: counter value is not a number", ph, i);
		}
		break;
	default:	/* flows */
		if (!cJSON_IsNumber(cJSON_GetObjectItem(ev, "id")) ||
		    !cJSON_IsString(cJSON_GetObjectItem(ev, "cat")))
			return bad(t, "%s: event %d: flow without id or cat", ph, i);
		t->flows = tu_grow(t->flows, t->nr_flows, sizeof(*t->flows));
		t->flows[t->nr_flows++] = (struct tef_flow){ cJSON_GetObjectItem(ev, "id")->valuedouble,
			ph[0], (int64_t)pid->valuedouble, (int64_t)tid->valuedouble, ts };
		break;
	}
	return true;
}

static int cmp_slice(const void *a, const void *b)
{
	const struct tef_slice *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;	/* the enclosing one first */
}

/* on each thread, a slice lies inside the one it starts in, or after it */
static bool check_nesting(struct tef *t)
{
	struct tef_slice **stack = malloc((t->nr_slices + 1) * sizeof(*stack));
	size_t i, depth = 0;
	bool ok = true;

	if (t->nr_slices)
		qsort(t->slices, t->nr_slices, sizeof(*t->slices), cmp_slice);
	for (i = 0; ok && i < t->nr_slices; i++) {
		struct tef_slice *s = &t->slices[i];

		if (i && (s->pid != s[-1].pid || s->tid != s[-1].tid))
			depth = 0;
		while (depth && stack[depth - 1]->end <= s->start)
			depth--;
		if (depth && s->end > stack[depth - 1]->end) {
			snprintf(t->why, t->size, "X: slices overlap without nesting on pid %lld tid %lld "
				 "at %lld ns", (long long)s->pid, (long long)s->tid, (long long)s->start);
			ok = false;
		}
		stack[depth++] = s;
	}
	free(stack);
	return ok;
}

/* a slice of the flow's thread around its time (slices are sorted by check_nesting) */
static bool in_a_slice(const struct tef *t, const struct tef_flow *f)
{
	struct tef_slice key = { f->pid, f->tid, f->ts, INT64_MIN };
	size_t lo = 0, hi = t->nr_slices, mid;

	/* the first slice after the key, then back through the ones that start before it */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (cmp_slice(&t->slices[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct tef_slice *s = &t->slices[lo];

		if (s->pid != f->pid || s->tid != f->tid)
			return false;
		if (f->ts <= s->end)
			return true;
	}
	return false;
}

static int cmp_flow(const void *a, const void *b)
{
	const struct tef_flow *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->ph == 's' ? (y->ph == 's' ? 0 : -1) : (y->ph == 's');
}

static bool check_flows(struct tef *t)
{
	size_t i;

	if (t->nr_flows)
		qsort(t->flows, t->nr_flows, sizeof(*t->flows), cmp_flow);
	for (i = 0; i < t->nr_flows; i += 2) {
		const struct tef_flow *s = &t->flows[i], *f = s + 1;

		if (i + 1 >= t->nr_flows || s->ph != 's' || f->ph != 'f' || s->id != f->id ||
		    (i + 2 < t->nr_flows && t->flows[i + 2].id == s->id)) {
			snprintf(t->why, t->size, "flow %.0f: not one start and one end", s->id);
			return false;
		}
		if (s->ts > f->ts || !in_a_slice(t, s)) {
			snprintf(t->why, t->size, "flow %.0f: starts after its end or outside a slice "
				 "of its thread", s->id);
			return false;
		}
	}
	return true;
}

cJSON *tu_tef_check(const char *json, char *why, size_t size)
{
	struct tef t = { .why = why, .size = size };
	cJSON *root = cJSON_Parse(json), *events, *ev;
	bool ok = true;
	int i = 0;

	why[0] = '\0';
	if (!root) {
		snprintf(why, size, "not JSON near '%.40s'", cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "");
		return NULL;
	}
	events = cJSON_GetObjectItem(root, "traceEvents");
	if (!cJSON_IsArray(events) || !cJSON_IsObject(cJSON_GetObjectItem(root, "otherData"))) {
		snprintf(why, size, "no traceEvents array or otherData object");
		ok = false;
	}
	if (!ok)
		events = NULL;
	cJSON_ArrayForEach(ev, events) {
		if (!(ok = cJSON_IsObject(ev) && check_event(&t, ev, i++)))
			break;
	}
	ok = ok && check_nesting(&t) && check_flows(&t);
	free(t.slices);
	free(t.flows);
	if (!ok) {
		if (!why[0])
			snprintf(why, size, "event %d is not an object", i - 1);
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}
