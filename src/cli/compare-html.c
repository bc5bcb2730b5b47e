// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-html.c - "schedrep compare --html": one self-contained HTML file
 * (inline CSS, SVG and one small script, nothing fetched) with both traces' per-CPU
 * timelines on a common time axis, bar charts of CPU time and wait per task,
 * the comparison tables, and where the tasks blocked (traces with
 * callchains). Written by hand: a few SVG shapes do not need a
 * charting library, and a report must open offline.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "exporter.h"

#define PLOT_X		110	/* left margin for row labels */
#define PLOT_W		840
#define ROW_H		18
#define BARS_SHOWN	30	/* tasks per bar chart: the largest */
#define BAR_H		7
#define BAR_X		200	/* bars start right of the task names */
#define BAR_W		600	/* the largest value's bar */
#define TABLE_ROWS_SHOWN 40	/* rows of the tasks table before "show all" */
#define LEGEND_MAX	8	/* comms named under the timelines */
#define BLOCK_ROWS_SHOWN 5	/* sites per task in "where tasks block": the largest */

static const char css[] =
	"body{font:14px sans-serif;margin:20px;color:#222}"
	"table{border-collapse:collapse;margin:8px 0}"
	"td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
	"td:first-child,th:first-child,td.m{text-align:left}"
	"tr.sig td{background:#fff3d6}svg text{font:11px sans-serif}#task-controls{position:sticky;"
	"top:0;background:#fff;padding:4px 0}"
	".a{fill:#3569c9}.b{fill:#e8862a}.t{fill:#222}";

/* the tasks table's filter (task_table), around its row count; no table: nothing to do */
static const char script_head[] =
	"(function(){"
	"var t=document.getElementById('tasks'),c=document.getElementById('task-controls');"
	"if(!t||!c)return;"
	"var q=document.getElementById('task-filter'),all=document.getElementById('task-all'),"
	"out=document.getElementById('task-count'),rows=t.tBodies[0].rows,n=";
static const char script_tail[] = ";"
	"function apply(){var w=q.value.trim().toLowerCase(),k=0,i,v;"
	"for(i=0;i<rows.length;i++){"
	"v=w?rows[i].textContent.toLowerCase().indexOf(w)>=0:all.checked||i<n;"
	"rows[i].hidden=!v;k+=v?1:0;}"
	"out.textContent=k+' of '+rows.length+' rows shown';}"
	"q.addEventListener('input',apply);all.addEventListener('change',apply);"
	"if(location.hash.indexOf('#filter=')===0)q.value=decodeURIComponent(location.hash.slice(8));"
	"c.hidden=false;apply();})();";

/* ---- timelines ---- */

struct axis {
	double tmin, tmax;		/* ns relative to each side's workload start, scaled */
	uint64_t origin[2];
};

static void axis_of(const struct compare_run *r, struct axis *ax)
{
	struct srep_workload_metrics w;
	int k;

	for (k = 0; k < 2; k++) {
		double lo, hi;

		srep_metrics__workload(r->m[k], NULL, &w);
		ax->origin[k] = w.start;
		lo = ((double)w.first - (double)w.start) * r->scale[k];
		hi = ((double)w.last - (double)w.start) * r->scale[k];
		ax->tmin = k == 0 || lo < ax->tmin ? lo : ax->tmin;
		ax->tmax = k == 0 || hi > ax->tmax ? hi : ax->tmax;
	}
	if (ax->tmax <= ax->tmin)
		ax->tmax = ax->tmin + 1;
}

static double x_of(const struct axis *ax, const struct compare_run *r, int k, uint64_t t)
{
	double rel = ((double)t - (double)ax->origin[k]) * r->scale[k];

	return PLOT_X + (rel - ax->tmin) / (ax->tmax - ax->tmin) * PLOT_W;
}

static void ticks(FILE *f, const struct axis *ax, int y)
{
	double span = ax->tmax - ax->tmin, step = pow(10, floor(log10(span / 5))), t;
	char buf[32];
	int i;

	if (span / step > 10)
		step *= 2;
	/* counted, not accumulated: a huge --scale must not make t += step stall */
	for (i = 0; i <= 12 && isfinite(step) && step > 0; i++) {
		double x;

		t = (ceil(ax->tmin / step) + i) * step;
		if (t > ax->tmax)
			break;
		x = PLOT_X + (t - ax->tmin) / span * PLOT_W;
		fprintf(f, "<line x1='%.1f' y1='0' x2='%.1f' y2='%d' stroke='#ccc'/>"
			"<text x='%.1f' y='%d' text-anchor='middle'>%s</text>\n", x, x, y, x, y + 14,
			fabs(t) < step / 2 ? "0" : compare_fmt(buf, sizeof(buf), SREP_UNIT_NS, t, false));
	}
}

/*
 * The comms that fill the timelines, busiest first over both traces: the
 * i-th has colour i of the shared palette, so the legend's neighbours and
 * a comm's slices in A and B look alike only when they are the same comm.
 */
struct legend {
	const char **comm;
	double *busy;
	size_t n, cap;
};

static size_t legend_find(const struct legend *lg, const char *comm)
{
	size_t j;

	for (j = 0; j < lg->n && strcmp(lg->comm[j], comm); j++)
		;
	return j;
}

/* room for one more comm; false when out of memory (that comm goes uncoloured) */
static bool legend_grow(struct legend *lg)
{
	size_t cap = lg->cap ? 2 * lg->cap : 64;
	const char **c;
	double *b;

	if (lg->n < lg->cap)
		return true;
	c = realloc(lg->comm, cap * sizeof(*c));
	if (c)
		lg->comm = c;
	b = c ? realloc(lg->busy, cap * sizeof(*b)) : NULL;
	if (b)
		lg->busy = b;
	if (b)
		lg->cap = cap;
	return b != NULL;
}

static void legend_add(struct legend *lg, const struct compare_run *r, int k, int32_t cpu)
{
	uint64_t start, bin_ns, busy;
	const struct srep_task *top;
	size_t nr, i, j;

	srep_metrics__timeline(r->m[k], &start, &bin_ns, &nr);
	for (i = 0; i < nr; i++) {
		srep_metrics__timeline_bin(r->m[k], cpu, i, &busy, &top);
		if (!top)
			continue;
		j = legend_find(lg, srep_task__comm(top));
		if (j == lg->n && !legend_grow(lg))
			continue;
		if (j == lg->n) {
			lg->comm[lg->n] = srep_task__comm(top);
			lg->busy[lg->n++] = 0;
		}
		lg->busy[j] += (double)busy * r->scale[k];
	}
}

/* the busiest first, then by name: the same traces always give the same colours */
static void legend_sort(struct legend *lg)
{
	size_t i, j;

	for (i = 1; i < lg->n; i++) {
		const char *c = lg->comm[i];
		double b = lg->busy[i];

		for (j = i; j > 0 && (lg->busy[j - 1] < b ||
				      (lg->busy[j - 1] == b && strcmp(lg->comm[j - 1], c) > 0)); j--) {
			lg->comm[j] = lg->comm[j - 1];
			lg->busy[j] = lg->busy[j - 1];
		}
		lg->comm[j] = c;
		lg->busy[j] = b;
	}
}

/* the comm's colour; grey for one the legend could not hold */
static const char *colour_of(const struct legend *lg, const char *comm,
			     char buf[SREP_EXPORT_COLOUR_SIZE])
{
	size_t j = legend_find(lg, comm);

	if (j == lg->n)
		return "#999999";
	srep_export_colour(j, buf);
	return buf;
}

/* one CPU row: runs of bins with the same top comm and a similar load become one rect */
static void cpu_row(FILE *f, const struct compare_run *r, const struct axis *ax,
		    const struct legend *lg, int k, int32_t cpu, int y)
{
	uint64_t start, bin_ns, busy;
	const struct srep_task *top;
	char colour[SREP_EXPORT_COLOUR_SIZE];
	size_t nr, i, j;

	srep_metrics__timeline(r->m[k], &start, &bin_ns, &nr);
	for (i = 0; i < nr; i = j) {
		const char *comm;
		int level;

		srep_metrics__timeline_bin(r->m[k], cpu, i, &busy, &top);
		level = (int)(10.0 * (double)busy / (double)bin_ns + 0.5);
		for (j = i + 1; j < nr; j++) {
			uint64_t b2;
			const struct srep_task *t2;

			srep_metrics__timeline_bin(r->m[k], cpu, j, &b2, &t2);
			if ((int)(10.0 * (double)b2 / (double)bin_ns + 0.5) != level ||
			    (top && t2 ? strcmp(srep_task__comm(top), srep_task__comm(t2)) : top != t2))
				break;
		}
		if (!top || !level)
			continue;
		comm = srep_task__comm(top);
		fprintf(f, "<rect x='%.2f' y='%d' width='%.2f' height='%d' fill='%s' "
			"fill-opacity='%.1f'><title>", x_of(ax, r, k, start + i * bin_ns), y,
			(double)(j - i) * (double)bin_ns * r->scale[k] / (ax->tmax - ax->tmin) * PLOT_W,
			ROW_H - 4, colour_of(lg, comm, colour), level / 10.0);
		cli_xml_text(f, comm);
		fprintf(f, "</title></rect>\n");
	}
}

static void legend(FILE *f, const struct legend *lg, int y)
{
	char colour[SREP_EXPORT_COLOUR_SIZE];
	size_t i;
	int x = PLOT_X;

	for (i = 0; i < lg->n && i < LEGEND_MAX; i++) {
		srep_export_colour(i, colour);
		fprintf(f, "<rect x='%d' y='%d' width='10' height='10' fill='%s'/>"
			"<text x='%d' y='%d'>", x, y, colour, x + 14, y + 9);
		cli_xml_text(f, lg->comm[i]);
		fprintf(f, "</text>\n");
		x += 30 + 7 * (int)strlen(lg->comm[i]);
	}
}

static void timelines(FILE *f, const struct compare_run *r)
{
	struct legend lg = { NULL, NULL, 0, 0 };
	struct axis ax = { 0, 0, { 0, 0 } };
	size_t n[2] = { srep_metrics__nr_cpus(r->m[0]), srep_metrics__nr_cpus(r->m[1]) }, cpu;
	int k, y = 0, height = (int)(n[0] + n[1]) * ROW_H + 12;

	axis_of(r, &ax);
	for (k = 0; k < 2; k++)
		for (cpu = 0; cpu < n[k]; cpu++)
			legend_add(&lg, r, k, (int32_t)cpu);
	legend_sort(&lg);
	fprintf(f, "<h2>CPU timelines</h2>\n<p>Time from each trace's workload start%s; "
		"colour: the task that ran longest in each slice, opacity: how busy the CPU was."
		"</p>\n<svg id='timeline' width='%d' height='%d'>\n",
		r->scale[0] != 1 || r->scale[1] != 1 ? " (scaled)" : "", PLOT_X + PLOT_W + 20,
		height + 36);
	ticks(f, &ax, height);
	for (k = 0; k < 2; k++) {
		for (cpu = 0; cpu < n[k]; cpu++, y += ROW_H) {
			fprintf(f, "<text x='0' y='%d'>%c cpu%zu</text><rect x='%d' y='%d' width='%d' "
				"height='%d' fill='#f2f2f2'/>\n", y + 12, 'A' + k, cpu, PLOT_X, y,
				PLOT_W, ROW_H - 4);
			cpu_row(f, r, &ax, &lg, k, (int32_t)cpu, y);
		}
		y += 12 * (k == 0);
	}
	legend(f, &lg, height + 22);
	fprintf(f, "</svg>\n");
	free(lg.comm);
	free(lg.busy);
}

/* ---- bar charts ---- */

struct bar {
	size_t pair;
	double a, b, ta, tb;		/* values and tick marks (p95), scaled */
};

static int by_size(const void *x, const void *y)
{
	const struct bar *p = x, *q = y;
	double a = fmax(p->a, p->b), b = fmax(q->a, q->b);

	return a != b ? (a < b ? 1 : -1) : (p->pair > q->pair) - (p->pair < q->pair);
}

/* one pair's bars; its value label goes right of the bars and ticks, never over them */
static void bar_row(FILE *f, const struct compare_run *r, const struct bar *b, double max, double y)
{
	double wa = b->a / max * BAR_W, wb = b->b / max * BAR_W;
	double xa = BAR_X + b->ta / max * BAR_W, xb = BAR_X + b->tb / max * BAR_W;
	bool tick = b->ta > 0 || b->tb > 0;
	char label[64], va[32], vb[32];

	fprintf(f, "<text x='0' y='%.0f'>", y + BAR_H + 3);
	cli_xml_text(f, compare_label(label, sizeof(label), r->c, b->pair, 30));
	fprintf(f, "</text><rect class='a' x='%d' y='%.0f' width='%.1f' height='%d'/>"
		"<rect class='b' x='%d' y='%.0f' width='%.1f' height='%d'/>", BAR_X, y, wa, BAR_H,
		BAR_X, y + BAR_H, wb, BAR_H);
	if (tick)
		fprintf(f, "<rect class='t' x='%.1f' y='%.0f' width='2' height='%d'/>"
			"<rect class='t' x='%.1f' y='%.0f' width='2' height='%d'/>",
			xa, y, BAR_H, xb, y + BAR_H, BAR_H);
	fprintf(f, "<text class='v' x='%.1f' y='%.0f'>%s / %s</text>\n",
		BAR_X + 5 + fmax(fmax(wa, wb), tick ? fmax(xa, xb) + 2 - BAR_X : 0), y + BAR_H + 3,
		compare_fmt(va, sizeof(va), SREP_UNIT_NS, b->a, false),
		compare_fmt(vb, sizeof(vb), SREP_UNIT_NS, b->b, false));
}

/* the largest BARS_SHOWN pairs; the title says when there are more */
static void bar_chart(FILE *f, const struct compare_run *r, const char *id, const char *title,
		      struct bar *bars, size_t n)
{
	double max = 0;
	size_t i, shown = n < BARS_SHOWN ? n : BARS_SHOWN;

	qsort(bars, n, sizeof(*bars), by_size);
	for (i = 0; i < shown; i++)
		max = fmax(max, fmax(fmax(bars[i].a, bars[i].b), fmax(bars[i].ta, bars[i].tb)));
	fprintf(f, "<h2>%s", title);
	if (shown < n)
		fprintf(f, ": the largest %zu of %zu tasks", shown, n);
	fprintf(f, "</h2>\n<svg id='%s' width='%d' height='%zu'>\n"
		"<rect class='a' x='%d' y='0' width='10' height='8'/><text x='%d' y='8'>A</text>"
		"<rect class='b' x='%d' y='0' width='10' height='8'/><text x='%d' y='8'>B</text>\n",
		id, BAR_X + BAR_W + 160, shown * (2 * BAR_H + 6) + 20, BAR_X, BAR_X + 14,
		BAR_X + 40, BAR_X + 54);
	for (i = 0; i < shown && max > 0; i++)
		bar_row(f, r, &bars[i], max, 16 + (double)i * (2 * BAR_H + 6));
	fprintf(f, "</svg>\n");
}

static void charts(FILE *f, const struct compare_run *r)
{
	size_t n = srep_matching__nr_pairs(srep_compare__matching(r->c)), i, nw = 0;
	struct bar *cpu = calloc(n ? n : 1, sizeof(*cpu)), *wait = calloc(n ? n : 1, sizeof(*wait));

	for (i = 0; cpu && wait && i < n; i++) {
		size_t nd;
		const struct srep_diff *d = srep_compare__pair(r->c, i, &nd);

		/* diffs in the order of compare.c: 0 cpu_time, 3 wait_mean, 5 wait_p95 */
		cpu[i] = (struct bar){ i, d[0].a, d[0].b, 0, 0 };
		if (d[3].a > 0 || d[3].b > 0)
			wait[nw++] = (struct bar){ i, d[3].a, d[3].b, d[5].a, d[5].b };
	}
	if (cpu && wait) {
		bar_chart(f, r, "cpu-chart", "CPU time per task", cpu, n);
		bar_chart(f, r, "wait-chart", "Wait for a CPU per task (mean; the tick is p95)",
			  wait, nw);
	}
	free(cpu);
	free(wait);
}

/* ---- tables ---- */

/* A, B, B-A and B/A cells of a difference */
static void value_cells(FILE *f, const struct srep_diff *d)
{
	char a[32], b[32], x[32];

	fprintf(f, "<td>%s</td><td>%s</td><td>%s</td>",
		compare_fmt(a, sizeof(a), d->unit, d->a, false),
		compare_fmt(b, sizeof(b), d->unit, d->b, false),
		compare_fmt(x, sizeof(x), d->unit, d->diff, true));
	if (isnan(d->ratio))
		fprintf(f, "<td>-</td>");
	else
		fprintf(f, "<td>%.2f</td>", d->ratio);
}

static void diff_cells(FILE *f, const struct srep_diff *d)
{
	fprintf(f, "<td class='m'>%s</td>", d->metric);
	value_cells(f, d);
	fprintf(f, "<td>%s</td></tr>\n", d->significant ? "*" : "");
}

static void table_head(FILE *f, const char *id, const char *first)
{
	fprintf(f, "<table id='%s'><thead><tr><th>%s</th><th>metric</th><th>A</th><th>B</th>"
		"<th>B-A</th><th>B/A</th><th></th></tr></thead><tbody>\n", id, first);
}

/*
 * The tasks table shows its first TABLE_ROWS_SHOWN rows (the largest
 * differences); a filter box and "show all" reveal the others (the script
 * at the end). Without scripts every row shows: see the <noscript> style.
 */
static void task_table(FILE *f, const struct compare_run *r)
{
	const struct srep_compare_row *rows;
	size_t n, i;
	char label[64];

	rows = srep_compare__rows(r->c, &n);
	fprintf(f, "<h2>Tasks: time differences first, largest first; then counts and shares, "
		"widest first</h2>\n");
	if (n > TABLE_ROWS_SHOWN)
		fprintf(f, "<p id='task-controls' hidden>The first %d of %zu rows. "
			"<label>Filter: <input id='task-filter' type='search' size='24'></label> "
			"<label><input id='task-all' type='checkbox'>show all rows</label> "
			"<span id='task-count'></span></p>\n", TABLE_ROWS_SHOWN, n);
	table_head(f, "tasks", "task (tid A/B)");
	for (i = 0; i < n; i++) {
		fprintf(f, "<tr%s%s><td>", rows[i].diff->significant ? " class='sig'" : "",
			i < TABLE_ROWS_SHOWN ? "" : " hidden");
		cli_xml_text(f, compare_label(label, sizeof(label), r->c, rows[i].pair, 40));
		fprintf(f, "</td>");
		diff_cells(f, rows[i].diff);
	}
	fprintf(f, "</tbody></table>\n");
}

static void tables(FILE *f, const struct compare_run *r)
{
	const struct srep_diff *d;
	size_t n, i, cpu;

	fprintf(f, "<h2>Workload</h2>\n");
	table_head(f, "workload", "");
	for (d = srep_compare__workload(r->c, &n), i = 0; i < n; i++) {
		fprintf(f, "<tr%s><td></td>", d[i].significant ? " class='sig'" : "");
		diff_cells(f, &d[i]);
	}
	fprintf(f, "</tbody></table>\n<h2>CPUs</h2>\n");
	table_head(f, "cpus", "cpu");
	for (cpu = 0; cpu < srep_compare__nr_cpus(r->c); cpu++) {
		for (d = srep_compare__cpu(r->c, cpu, &n), i = 0; i < n; i++) {
			fprintf(f, "<tr%s><td>cpu%zu</td>", d[i].significant ? " class='sig'" : "", cpu);
			diff_cells(f, &d[i]);
		}
	}
	fprintf(f, "</tbody></table>\n");
	task_table(f, r);
}

/* ---- where tasks block ---- */

static void block_row(FILE *f, const char *label, const struct srep_block_row *r)
{
	const struct srep_diff *d = &r->blocked;

	fprintf(f, "<tr%s><td>", d->significant ? " class='sig'" : "");
	cli_xml_text(f, label);
	fprintf(f, "</td><td class='m'>");
	cli_xml_text(f, r->kernel ? r->kernel : "-");
	fprintf(f, "</td><td class='m'>");
	cli_xml_text(f, r->user ? r->user : "-");
	fprintf(f, "</td>");
	value_cells(f, d);
	fprintf(f, "<td>%s</td><td>%" PRIu64 " / %" PRIu64 "</td></tr>\n",
		d->significant ? "*" : "", r->count[0], r->count[1]);
}

static void blocking(FILE *f, const struct compare_run *r)
{
	size_t *order, n = compare_blocking_pairs(r->c, &order), i, j, nr;
	const struct srep_block_row *rows;
	char label[64];

	if (n && n != (size_t)-1) {
		fprintf(f, "<h2>Where tasks block</h2>\n<p>Time asleep (S, D) after switching out "
			"in a kernel function, under the first user-space frame with a name; the "
			"%d largest sites a task, the most blocked tasks first. Names are "
			"addresses where the target's symbols were not found.</p>\n"
			"<table id='blocking'><tr><th>task (tid A/B)</th><th>kernel function</th>"
			"<th>user frame</th><th>A</th><th>B</th><th>B-A</th><th>B/A</th><th></th>"
			"<th>sleeps A / B</th></tr>\n", BLOCK_ROWS_SHOWN);
		for (i = 0; i < n; i++) {
			rows = srep_compare__blocking(r->c, order[i], &nr);
			compare_label(label, sizeof(label), r->c, order[i], 40);
			for (j = 0; j < nr && j < BLOCK_ROWS_SHOWN; j++)
				block_row(f, j ? "" : label, &rows[j]);
		}
		fprintf(f, "</table>\n");
	}
	free(order);
}

static void unmatched(FILE *f, const struct srep_matching *mt, int k)
{
	size_t i, n = srep_matching__nr_unmatched(mt, k);

	fprintf(f, "<h2>Only in %c (%zu)</h2>\n<p>", 'A' + k, n);
	for (i = 0; i < n; i++) {
		const struct srep_task *t = srep_matching__unmatched(mt, k, i);

		cli_xml_text(f, srep_task__comm(t));
		fprintf(f, "/%d%s", srep_task__tid(t), i + 1 < n ? ", " : "");
	}
	fprintf(f, "</p>\n");
}

void compare_html(FILE *f, const struct compare_run *r)
{
	const struct srep_matching *mt = srep_compare__matching(r->c);
	char desc[160];
	int k;

	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
		"<title>schedrep compare</title><style>%s</style>"
		"<noscript><style>#tasks tr[hidden]{display:table-row}</style></noscript>"
		"</head><body>\n<h1>schedrep compare</h1>\n<p>", css);
	for (k = 0; k < 2; k++) {
		fprintf(f, "<b>%c</b>: ", 'A' + k);
		cli_xml_text(f, r->path[k]);
		fprintf(f, " (");
		cli_xml_text(f, compare_describe(desc, sizeof(desc), r->s[k]));
		fprintf(f, r->scale[k] != 1 ? ", durations x %g)<br>\n" : ")<br>\n", r->scale[k]);
	}
	fprintf(f, "%zu task pair%s (match %s), %zu only in A, %zu only in B; "
		"%zu significant difference%s (|B-A| at least %.0f%% of the larger, and at least "
		"10 us, 2 or 1 percentage point).</p>\n", srep_matching__nr_pairs(mt),
		srep_matching__nr_pairs(mt) == 1 ? "" : "s", srep_match_mode__name(r->mode),
		srep_matching__nr_unmatched(mt, 0), srep_matching__nr_unmatched(mt, 1),
		srep_compare__nr_significant(r->c), srep_compare__nr_significant(r->c) == 1 ? "" : "s",
		100 * SREP_SIGNIFICANT_REL);
	timelines(f, r);
	charts(f, r);
	tables(f, r);
	blocking(f, r);
	unmatched(f, mt, 0);
	unmatched(f, mt, 1);
	fprintf(f, "<script>%s%d%s</script>\n</body></html>\n", script_head, TABLE_ROWS_SHOWN,
		script_tail);
}
