// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svg.c - a static timeline picture: one lane per CPU (busy or idle) and one
 * per task (running, runnable, sleeping S, blocked D), a time axis, names.
 *
 * The plot is one pixel column per 'plot_w', and nothing finer than a column is
 * drawn: each lane sums, for the column being filled, the time spent in each
 * state, paints the column with the state that took most of it, and merges
 * equal neighbouring columns into one rectangle. A lane therefore has at
 * most plot_w rectangles however long the trace, and the state kept is one
 * column's sums per lane. Lanes come from the task table (the exporter asks
 * for a prescan), so rectangles are written as soon as they are known.
 * A CPU lane's column shows the task that ran there most, in that task's
 * colour (the palette's colour of its lane's rank, shown beside its name).
 */
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "emit.h"
#include "timeline.h"

#define WIDTH		1600	/* default width of the picture (--width) */
#define WIDTH_MIN	400
#define WIDTH_MAX	100000
#define LABEL_W		240	/* names on the left */
#define RIGHT		20	/* margin right of the plot */
#define TOP		84	/* title, legend and axis above the lanes */
#define LANE_H		12
#define BAR_H		10
#define BOTTOM		24	/* the axis again below the lanes */
#define WHO_MAX		4	/* tasks summed per CPU column; more: the least one is forgotten */
#define SWATCH_X	(LABEL_W - 12)	/* a task's colour, right of its name */
#define NAMES_W		(SWATCH_X - 4)	/* names are clipped there */
#define NO_LANE_COLOUR	"#888888"	/* a task without a lane on a CPU lane */

/* what a column shows; the order breaks ties (running wins) */
enum col_state { C_NONE = 0, C_SLEEP, C_BLOCKED, C_RUNNABLE, C_RUNNING, C_NR };
static const char col_class[C_NR] = { 0, 'S', 'D', 'W', 'R' };

struct who {				/* a CPU column: ns that a task ran there */
	int32_t tid;
	double ns;
};

struct lane {
	int32_t col;			/* column being summed, -1 none yet */
	double acc[C_NR];		/* ns per state in that column */
	struct who who[WHO_MAX];	/* CPU lanes: the same time, per task */
	int32_t run_start, run_end;	/* columns [start, end) of the pending rectangle */
	enum col_state run_state;
	int32_t run_tid;		/* CPU lanes: whose rectangle; 0 on task lanes */
	const struct srep_task *task;	/* task lanes: whose */
	int y;
};

struct lane_of {			/* tid -> lane */
	int32_t tid;
	size_t lane;
};

struct svg {
	const struct srep_export_ctx *ctx;
	struct emit out;
	struct timeline tl;
	struct lane *lanes;		/* CPUs first, then tasks */
	size_t nr_lanes, nr_cpus;
	struct lane_of *tids;		/* sorted by tid */
	size_t nr_tids;
	uint64_t t0, t1;		/* the plotted span, ns */
	double col_ns;			/* ns per column */
	int width, plot_w;		/* of the picture; columns of the plot */
};

/* --width, the format's own option */
struct svg_opts {
	int width;
};

enum { SVG_OPT_WIDTH = 1 };

static const struct srep_export_opt svg_options[] = {
	{ "width", "<pixels>", "width of the SVG picture (default 1600)", SVG_OPT_WIDTH },
	{ NULL, NULL, NULL, 0 },
};

static int svg_opts_new(void **out, struct srep_error *err)
{
	struct svg_opts *o = calloc(1, sizeof(*o));

	*out = o;
	if (!o)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for options");
	o->width = WIDTH;
	return 0;
}

static int svg_opt(void *opts, int id, const char *arg, struct srep_error *err)
{
	struct svg_opts *o = opts;
	char *end;
	long v;

	(void)id;	/* the only option */
	v = strtol(arg, &end, 10);
	if (*end || end == arg || v < WIDTH_MIN || v > WIDTH_MAX)
		return srep_error__set(err, SREP_E_INVAL, "'%s': expected a width in pixels, %d to %d",
				       arg, WIDTH_MIN, WIDTH_MAX);
	o->width = (int)v;
	return 0;
}

/* ---- summing states into columns ---- */

/* the column of a time (ns after t0); 'end' puts a time on a boundary in the column before */
static int32_t col_of(const struct svg *g, double t, bool end)
{
	double c = t / g->col_ns;
	int32_t col = (int32_t)c;

	if (end && col > 0 && (double)col == c)
		col--;
	return col >= g->plot_w ? g->plot_w - 1 : col;
}

static struct lane *task_lane(struct svg *g, int32_t tid);
static void task_name(const struct svg *g, const struct lane *l, char *buf, size_t size);

/* a CPU lane's rectangle: in the colour of the task, named in its tooltip */
static void flush_cpu_run(struct svg *g, struct lane *l)
{
	struct lane *t = task_lane(g, l->run_tid);
	char colour[SREP_EXPORT_COLOUR_SIZE] = NO_LANE_COLOUR, name[SREP_EXPORT_LABEL_MAX + 16];
	struct emit *e = &g->out;

	if (t)
		srep_export_colour((size_t)(t - g->lanes) - g->nr_cpus, colour);
	emit_lit(e, "\" fill=\"");
	emit_cstr(e, colour);
	emit_lit(e, "\"><title>");
	if (t)
		task_name(g, t, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "tid %d", l->run_tid);
	emit_xml_str(e, name, strlen(name));
	emit_lit(e, "</title></rect>\n");
}

static void flush_run(struct svg *g, struct lane *l)
{
	struct emit *e = &g->out;

	if (l->run_state == C_NONE || l->run_end <= l->run_start)
		return;
	emit_lit(e, "<rect class=\"");
	emit_char(e, l->run_tid ? 'C' : col_class[l->run_state]);
	emit_lit(e, "\" x=\"");
	emit_u64(e, (uint64_t)(LABEL_W + l->run_start));
	emit_lit(e, "\" y=\"");
	emit_u64(e, (uint64_t)l->y);
	emit_lit(e, "\" width=\"");
	emit_u64(e, (uint64_t)(l->run_end - l->run_start));
	emit_lit(e, "\" height=\"10");
	if (l->run_tid)
		flush_cpu_run(g, l);
	else
		emit_lit(e, "\"/>\n");
}

/* columns [c0, c1) show 'st' (a CPU lane: task 'tid' ran): grow the pending rectangle or start one */
static void paint(struct svg *g, struct lane *l, int32_t c0, int32_t c1, enum col_state st,
		  int32_t tid)
{
	if (c1 <= c0)
		return;
	if (st == l->run_state && tid == l->run_tid && l->run_end == c0) {
		l->run_end = c1;
		return;
	}
	flush_run(g, l);
	l->run_start = c0;
	l->run_end = c1;
	l->run_state = st;
	l->run_tid = tid;
}

/* a CPU column: 'tid' ran 'ns' more (with more than WHO_MAX tasks the least one is dropped) */
static void who_add(struct lane *l, int32_t tid, double ns)
{
	size_t i, least = 0;

	for (i = 0; i < WHO_MAX && l->who[i].tid != tid; i++)
		least = l->who[i].ns < l->who[least].ns ? i : least;
	if (i == WHO_MAX) {
		i = least;
		l->who[i] = (struct who){ tid, 0 };
	}
	l->who[i].ns += ns;
}

/* the task that ran most in the column; 0 on task lanes */
static int32_t who_most(const struct lane *l)
{
	size_t i, best = 0;

	for (i = 1; i < WHO_MAX; i++)
		best = l->who[i].ns > l->who[best].ns ? i : best;
	return l->who[best].tid;
}

static void acc_add(struct lane *l, enum col_state st, int32_t tid, double ns)
{
	l->acc[st] += ns;
	if (tid)
		who_add(l, tid, ns);
}

/* the column being summed is complete: its state is the one that took most of it */
static void close_col(struct svg *g, struct lane *l)
{
	double busy = 0;
	enum col_state best = C_NONE, s;

	if (l->col < 0)
		return;
	for (s = C_SLEEP; s < C_NR; s++) {
		busy += l->acc[s];
		if (l->acc[s] > 0 && l->acc[s] >= l->acc[best])
			best = s;
	}
	if (g->col_ns - busy > l->acc[best])
		best = C_NONE;		/* mostly not shown: idle, or not yet seen */
	paint(g, l, l->col, l->col + 1, best, best == C_NONE ? 0 : who_most(l));
	memset(l->acc, 0, sizeof(l->acc));
	memset(l->who, 0, sizeof(l->who));
	l->col = -1;
}

/*
 * [a, b) of the lane was spent in 'st' (intervals come in time order), on a
 * CPU lane by task 'tid' (0 on task lanes). Sums are kept in double ns
 * from t0: columns may be narrower than 1 ns.
 */
static void lane_add(struct svg *g, struct lane *l, uint64_t a, uint64_t b, enum col_state st,
		     int32_t tid)
{
	double ra, rb;
	int32_t ca, cb;

	a = a < g->t0 ? g->t0 : a;
	b = b > g->t1 ? g->t1 : b;
	if (b <= a)
		return;
	ra = (double)(a - g->t0);
	rb = (double)(b - g->t0);
	ca = col_of(g, ra, false);
	cb = col_of(g, rb, true);
	if (ca != l->col) {
		close_col(g, l);
		l->col = ca;
	}
	if (ca == cb) {
		acc_add(l, st, tid, rb - ra);
		return;
	}
	acc_add(l, st, tid, (ca + 1) * g->col_ns - ra);
	close_col(g, l);
	paint(g, l, ca + 1, cb, st, tid);	/* whole columns in between */
	l->col = cb;
	acc_add(l, st, tid, rb - cb * g->col_ns);
}

/* ---- the timeline's intervals ---- */

static int cmp_lane_of(const void *a, const void *b)
{
	const struct lane_of *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static struct lane *task_lane(struct svg *g, int32_t tid)
{
	struct lane_of key = { tid, 0 }, *f = bsearch(&key, g->tids, g->nr_tids, sizeof(key),
						       cmp_lane_of);

	return f ? &g->lanes[f->lane] : NULL;
}

static void on_task(void *arg, const struct tl_task *t, uint64_t end)
{
	struct svg *g = arg;
	struct lane *l = task_lane(g, t->tid);
	enum col_state st;

	if (!l)
		return;
	switch (t->state) {
	case TL_RUNNING:	st = C_RUNNING; break;
	case TL_RUNNABLE:	st = C_RUNNABLE; break;
	default:		st = t->letter == 'D' ? C_BLOCKED : C_SLEEP; break;
	}
	lane_add(g, l, t->since, end, st, 0);
}

static void on_cpu(void *arg, int32_t cpu, const struct tl_cpu *c, uint64_t end)
{
	struct svg *g = arg;

	if (cpu >= 0 && (size_t)cpu < g->nr_cpus)
		lane_add(g, &g->lanes[cpu], c->since, end, C_RUNNING, c->tid);
}

static const struct tl_hooks svg_hooks = { on_task, on_cpu, NULL, false };

static int svg_event(void *state, const struct srep_event *ev, struct srep_error *err)
{
	struct svg *g = state;

	tl_event(&g->tl, ev);
	if (g->tl.nomem)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline state");
	return g->out.failed ? emit_error(&g->out, err) : 0;
}

/* ---- the frame ---- */

/* the tasks that get a lane: selected, not the idle task, by process then thread */
static int cmp_task(const void *a, const void *b)
{
	const struct srep_task *x = *(const struct srep_task *const *)a;
	const struct srep_task *y = *(const struct srep_task *const *)b;

	if (srep_task__pid(x) != srep_task__pid(y))
		return srep_task__pid(x) < srep_task__pid(y) ? -1 : 1;
	return srep_task__tid(x) < srep_task__tid(y) ? -1 : srep_task__tid(x) > srep_task__tid(y);
}

static const struct srep_task **lane_tasks(struct svg *g, size_t *n)
{
	const struct srep_session *s = g->ctx->session;
	size_t i, nr = srep_session__nr_tasks(s);
	const struct srep_task **v = malloc((nr ? nr : 1) * sizeof(*v)), *t;

	*n = 0;
	for (i = 0; v && i < nr; i++) {
		t = srep_session__task(s, i);
		/*
		 * One lane per tid (a tid reused after an exit shares it, as in the
		 * timeline), for the tasks seen within the span: not those known
		 * only from perf's synthesized records.
		 */
		if (srep_task__tid(t) > 0 && (!g->ctx->sel || srep_selection__has_task(g->ctx->sel, t)) &&
		    srep_session__find_task(s, srep_task__tid(t)) == t && srep_task__first_seen(t) &&
		    srep_task__first_seen(t) <= g->t1 && srep_task__last_seen(t) >= g->t0)
			v[(*n)++] = t;
	}
	if (v)
		qsort(v, *n, sizeof(*v), cmp_task);
	return v;
}

/* the span plotted: the window, within the trace's first and last timestamps */
static void span(struct svg *g)
{
	const struct srep_session *s = g->ctx->session;
	uint64_t last = 0, t;
	size_t i;

	for (i = 0; i < srep_session__nr_tasks(s); i++) {
		t = srep_task__last_seen(srep_session__task(s, i));
		last = t > last ? t : last;
	}
	g->t0 = g->ctx->from > g->ctx->trace_start ? g->ctx->from : g->ctx->trace_start;
	g->t1 = g->ctx->to < last ? g->ctx->to : last;
	if (g->t1 <= g->t0)
		g->t1 = g->t0 + 1;
	g->col_ns = (double)(g->t1 - g->t0) / g->plot_w;
}

static void text(struct svg *g, int x, int y, const char *attrs, const char *s)
{
	struct emit *e = &g->out;

	emit_lit(e, "<text x=\"");
	emit_u64(e, (uint64_t)x);
	emit_lit(e, "\" y=\"");
	emit_u64(e, (uint64_t)y);
	emit_char(e, '"');
	emit_cstr(e, attrs);
	emit_char(e, '>');
	emit_xml_str(e, s, strlen(s));
	emit_lit(e, "</text>\n");
}

/*
 * The task count is convert's (the selected tasks, else the task table);
 * the lanes are those of them seen within the span, when fewer.
 */
static void title(struct svg *g)
{
	const struct srep_meta *m = srep_session__meta(g->ctx->session);
	size_t tasks = g->ctx->sel ? srep_selection__nr_tasks(g->ctx->sel) :
			srep_session__nr_tasks(g->ctx->session);
	char line[512], lanes[64] = "";

	if (g->nr_lanes - g->nr_cpus != tasks)
		snprintf(lanes, sizeof(lanes), " (%zu seen in this span, a lane each)",
			 g->nr_lanes - g->nr_cpus);
	snprintf(line, sizeof(line), "%s%s%s, kernel %s, host %s: %zu CPUs, %zu tasks%s, "
		 "%.6f s from @%.6f (perf clock)", m->arch ? m->arch : "unknown arch",
		 m->big_endian ? " big-endian" : "", m->word_size == 4 ? " 32-bit" : "",
		 m->osrelease ? m->osrelease : "unknown", m->hostname ? m->hostname : "unknown",
		 g->nr_cpus, tasks, lanes, (double)(g->t1 - g->t0) / 1e9, (double)g->t0 / 1e9);
	text(g, 8, 18, " font-size=\"13\"", line);
}

static void legend(struct svg *g)
{
	static const char *const names[] = { "", "sleeping (S)", "blocked (D)", "runnable",
					     "running" };
	struct emit *e = &g->out;
	enum col_state s;
	int x = LABEL_W;

	for (s = C_RUNNING; s > C_NONE; s--) {
		emit_lit(e, "<rect class=\"");
		emit_char(e, col_class[s]);
		emit_lit(e, "\" x=\"");
		emit_u64(e, (uint64_t)x);
		emit_lit(e, "\" y=\"30\" width=\"10\" height=\"10\"/>\n");
		text(g, x + 14, 39, "", names[s]);
		x += 40 + 6 * (int)strlen(names[s]);
	}
	text(g, x, 39, "", "CPU lanes: the task that ran most, in the colour beside its name");
}

/* ticks every 1, 2 or 5 x 10^k ns, about ten of them, labelled from the trace start */
static void axis(struct svg *g)
{
	uint64_t span_ns = g->t1 - g->t0, step = 1, mult[3] = { 2, 5, 10 }, t;
	char label[48];
	int decimals = 9, k = 0, x;

	while (step * 10 < span_ns && step < UINT64_MAX / 10) {
		step = step / (k == 0 ? 1 : k == 1 ? 2 : 5) * mult[k];
		if (k == 2)
			decimals--;
		k = (k + 1) % 3;
	}
	for (t = (g->t0 + step - 1) / step * step; t <= g->t1; t += step) {
		x = LABEL_W + (int)((double)(t - g->t0) / g->col_ns);
		emit_lit(&g->out, "<line class=\"a\" x1=\"");
		emit_u64(&g->out, (uint64_t)x);
		emit_lit(&g->out, "\" x2=\"");
		emit_u64(&g->out, (uint64_t)x);
		emit_lit(&g->out, "\" y1=\"64\" y2=\"");
		emit_u64(&g->out, (uint64_t)(TOP + g->nr_lanes * LANE_H));
		emit_lit(&g->out, "\"/>\n");
		snprintf(label, sizeof(label), "+%.*f s", decimals < 0 ? 0 : decimals,
			 (double)(t - g->ctx->trace_start) / 1e9);
		text(g, x + 2, 62, "", label);
		/* again below: a tall picture scrolls the top one away */
		text(g, x + 2, TOP + (int)(g->nr_lanes * LANE_H) + 14, " class=\"b\"", label);
	}
}

/* a light stripe under every other lane, across the picture */
static void stripes(struct svg *g)
{
	struct emit *e = &g->out;
	size_t i;

	for (i = 1; i < g->nr_lanes; i += 2) {
		emit_lit(e, "<rect class=\"z\" x=\"0\" y=\"");
		emit_u64(e, (uint64_t)g->lanes[i].y);
		emit_lit(e, "\" width=\"");
		emit_u64(e, (uint64_t)g->width);
		emit_lit(e, "\" height=\"12\"/>\n");
	}
}

static void lane_label(struct svg *g, size_t i, const char *name)
{
	text(g, 4, g->lanes[i].y + BAR_H - 1, " class=\"n\"", name);
}

/* the lanes: one per CPU the trace says it had, then one per task */
static int make_lanes(struct svg *g)
{
	const struct srep_task **tasks;
	const struct srep_meta *m = srep_session__meta(g->ctx->session);
	int32_t cpus = m->nr_cpus_avail > m->nr_cpus_online ? m->nr_cpus_avail : m->nr_cpus_online;
	size_t n, i;

	/* simpleperf and old perf write no CPU count: the events say how many there were */
	if (srep_session__max_cpu(g->ctx->session) >= cpus)
		cpus = srep_session__max_cpu(g->ctx->session) + 1;

	g->nr_cpus = cpus > 0 ? (size_t)cpus : 0;
	tasks = lane_tasks(g, &n);
	g->lanes = calloc(g->nr_cpus + n + 1, sizeof(*g->lanes));
	g->tids = calloc(n + 1, sizeof(*g->tids));
	if (!tasks || !g->lanes || !g->tids) {
		free(tasks);
		return -1;
	}
	g->nr_lanes = g->nr_cpus + n;
	for (i = 0; i < g->nr_lanes; i++)
		g->lanes[i] = (struct lane){ .col = -1, .y = TOP + (int)i * LANE_H,
					     .task = i < g->nr_cpus ? NULL : tasks[i - g->nr_cpus] };
	for (i = 0; i < n; i++)
		g->tids[i] = (struct lane_of){ srep_task__tid(tasks[i]), g->nr_cpus + i };
	g->nr_tids = n;
	qsort(g->tids, n, sizeof(*g->tids), cmp_lane_of);
	free(tasks);
	return 0;
}

/*
 * A task lane's name: its comms from the task table, else the last one its
 * events gave, then its tid; "tid N" when nothing named it.
 */
static void task_name(const struct svg *g, const struct lane *l, char *buf, size_t size)
{
	char name[SREP_EXPORT_LABEL_MAX];
	int32_t tid = srep_task__tid(l->task);
	const struct tl_task *t;

	srep_export_task_label(l->task, name, sizeof(name));
	t = name[0] ? NULL : tl_find(&g->tl, tid);
	if (t && t->comm[0])
		snprintf(name, sizeof(name), "%s", t->comm);
	if (name[0])
		snprintf(buf, size, "%s (%d)", name, tid);
	else
		snprintf(buf, size, "tid %d", tid);
}

/* the task's colour on the CPU lanes, right of its name */
static void swatch(struct svg *g, size_t i)
{
	char colour[SREP_EXPORT_COLOUR_SIZE];
	struct emit *e = &g->out;

	srep_export_colour(i - g->nr_cpus, colour);
	emit_lit(e, "<rect x=\"");
	emit_u64(e, SWATCH_X);
	emit_lit(e, "\" y=\"");
	emit_u64(e, (uint64_t)g->lanes[i].y + 1);
	emit_lit(e, "\" width=\"8\" height=\"8\" fill=\"");
	emit_cstr(e, colour);
	emit_lit(e, "\"/>\n");
}

/* names last: the events may have named tasks the task table did not */
static void lane_labels(struct svg *g)
{
	char label[SREP_EXPORT_LABEL_MAX + 16];
	size_t i;

	for (i = g->nr_cpus; i < g->nr_lanes; i++)
		swatch(g, i);
	emit_lit(&g->out, "<g clip-path=\"url(#names)\">\n");
	for (i = 0; i < g->nr_cpus; i++) {
		snprintf(label, sizeof(label), "CPU %zu", i);
		lane_label(g, i, label);
	}
	for (i = g->nr_cpus; i < g->nr_lanes; i++) {
		task_name(g, &g->lanes[i], label, sizeof(label));
		lane_label(g, i, label);
	}
	emit_lit(&g->out, "</g>\n");
}

static void head(struct svg *g)
{
	struct emit *e = &g->out;

	emit_lit(e, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	emit_u64(e, (uint64_t)g->width);
	emit_lit(e, "\" height=\"");
	emit_u64(e, TOP + g->nr_lanes * LANE_H + BOTTOM);
	emit_lit(e, "\" font-family=\"sans-serif\" font-size=\"10\">\n<title>schedrep timeline</title>\n"
		 "<style>.R{fill:#2e7d32}.W{fill:#f9a825}.S{fill:#90caf9}.D{fill:#c62828}"
		 ".z{fill:#f4f4f4}.a{stroke:#ccc;stroke-width:1}.n{fill:#222}</style>\n"
		 "<clipPath id=\"names\"><rect width=\"");
	emit_u64(e, NAMES_W);
	emit_lit(e, "\" height=\"100%\"/></clipPath>\n"
		 "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
}

static int svg_begin(void **state, const struct srep_export_ctx *ctx, struct srep_error *err)
{
	struct svg *g = calloc(1, sizeof(*g));

	*state = g;
	if (!g || emit_init(&g->out, ctx->out))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the picture");
	g->ctx = ctx;
	g->width = ctx->opts ? ((const struct svg_opts *)ctx->opts)->width : WIDTH;
	g->plot_w = g->width - LABEL_W - RIGHT;
	tl_init(&g->tl, ctx, &svg_hooks, g);
	span(g);
	if (make_lanes(g))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the lanes");
	head(g);
	stripes(g);
	title(g);
	legend(g);
	axis(g);
	return 0;
}

static int svg_end(void *state, struct srep_error *err)
{
	struct svg *g = state;
	size_t i;

	tl_finish(&g->tl, g->t1);
	for (i = 0; i < g->nr_lanes; i++) {
		close_col(g, &g->lanes[i]);
		flush_run(g, &g->lanes[i]);
	}
	lane_labels(g);
	emit_lit(&g->out, "</svg>\n");
	if (g->tl.nomem)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the timeline state");
	if (emit_flush(&g->out))
		return emit_error(&g->out, err);
	return 0;
}

static void svg_destroy(void *state)
{
	struct svg *g = state;

	if (!g)
		return;
	emit_free(&g->out);
	tl_free(&g->tl);
	free(g->lanes);
	free(g->tids);
	free(g);
}

const struct srep_exporter srep_exporter_svg = {
	.name = "svg",
	.suffix = ".svg",
	.summary = "a static timeline picture, one lane per CPU and per task",
	.flags = SREP_EXPORT_PRESCAN,
	.options = svg_options,
	.opts_new = svg_opts_new,
	.opt = svg_opt,
	.opts_free = free,
	.begin = svg_begin,
	.event = svg_event,
	.end = svg_end,
	.destroy = svg_destroy,
};
