// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fmt_svg.c - the SVG timeline: a golden picture of the scenario;
 * what its lanes show there (who ran, waited, slept); hostile names stay
 * valid XML; and on every corpus trace with scheduler data: xmllint accepts
 * it, every bar lies in the plot, the bars of a lane never overlap and never
 * outnumber the plot's pixel columns (the picture is aggregated, not one
 * element per event), the time axis is repeated below the lanes, no lane
 * is named "(tid)" alone, a CPU lane's bar has the colour of the task it
 * names, and no more tasks run than there are CPUs (but for rounding).
 * A lost switch-out ends the task's run; a task the events never named is
 * "tid N". Rendering with Chromium is tests/cli/svg-render.sh.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fmtutil.h"

#define PLOT_X0	240
#define PLOT_W	1340

struct bar {
	char cls;
	int x, y, w;
};

static char *convert(const char *path, const struct tu_convert *c)
{
	struct srep_error err = { 0 };
	char *out = NULL;
	size_t len;

	ck_assert_msg(tu_convert(path, &srep_exporter_svg, c, &out, &len, &err) == 0, "%s: %s",
		      path, err.msg);
	return out;
}

/* the bars: one <rect class="R|W|S|D|C"> per line (C: a CPU lane's, in its task's colour) */
static struct bar *bars(const char *svg, size_t *n)
{
	struct bar *v = NULL, b;
	const char *p;

	*n = 0;
	for (p = strstr(svg, "<rect class=\""); p; p = strstr(p + 1, "<rect class=\"")) {
		if (sscanf(p, "<rect class=\"%c\" x=\"%d\" y=\"%d\" width=\"%d\"", &b.cls, &b.x, &b.y,
			   &b.w) != 4 || !strchr("RWSDC", b.cls))
			continue;
		v = tu_grow(v, *n, sizeof(*v));
		v[(*n)++] = b;
	}
	return v;
}

static int cmp_bar(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	return x->y != y->y ? (x->y < y->y ? -1 : 1) : (x->x < y->x ? -1 : x->x > y->x);
}

/* in the plot, no overlap within a lane, at most one bar per column */
static void check_bars(const char *svg, const char *what)
{
	size_t n, i, per_lane = 0;
	struct bar *v = bars(svg, &n);

	if (n)
		qsort(v, n, sizeof(*v), cmp_bar);
	for (i = 0; i < n; i++) {
		tu_check(v[i].x >= PLOT_X0 && v[i].w > 0 && v[i].x + v[i].w <= PLOT_X0 + PLOT_W,
			 "%s: a bar at x %d, width %d, leaves the plot", what, v[i].x, v[i].w);
		per_lane = i && v[i].y == v[i - 1].y ? per_lane + 1 : 1;
		tu_check(!i || v[i].y != v[i - 1].y || v[i].x >= v[i - 1].x + v[i - 1].w,
			 "%s: bars overlap at y %d, x %d", what, v[i].y, v[i].x);
		tu_check(per_lane <= PLOT_W, "%s: more bars than columns in lane y %d", what, v[i].y);
	}
	free(v);
}

static void xmllint_ok(const char *svg, const char *what)
{
	char *dir, path[4200], cmd[4400], *out = NULL;
	int status;

	if (!tu_have_program("xmllint")) {
		tu_skipped("xmllint not installed (Debian: libxml2-utils): %s not parsed", what);
		return;
	}
	dir = tu_tmpdir();
	snprintf(path, sizeof(path), "%s/t.svg", dir);
	ck_assert_int_eq(tu_write_file(path, svg, strlen(svg)), 0);
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s' 2>&1", path);
	status = tu_run(cmd, &out);
	ck_assert_msg(status == 0, "%s: xmllint says: %s", what, out ? out : "");
	free(out);
	tu_rmdir(dir);
	free(dir);
}

/* the bars of the lane named 'name', as "class:x:width " words */
static char *lane(const char *svg, const char *name)
{
	char key[128], *out = calloc(1, 4096);
	const char *p;
	int y = -1;
	size_t n, i;
	struct bar *v;

	snprintf(key, sizeof(key), "class=\"n\">%s</text>", name);
	p = strstr(svg, key);
	ck_assert_msg(p, "no lane named %s", name);
	while (p > svg && strncmp(p, "<text x=\"4\" y=\"", 15))
		p--;
	ck_assert_int_eq(sscanf(p, "<text x=\"4\" y=\"%d\"", &y), 1);
	v = bars(svg, &n);
	for (i = 0; i < n; i++) {
		if (v[i].y == y - 9)	/* the label's baseline is 9 px below the bar's top */
			snprintf(out + strlen(out), 4096 - strlen(out), "%c:%d:%d ", v[i].cls, v[i].x,
				 v[i].w);
	}
	free(v);
	return out;
}

START_TEST(scenario_golden)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out = convert(path, NULL);
	char *server, *client;

	tu_golden("scenario.svg", out, strlen(out));
	xmllint_ok(out, "scenario");
	check_bars(out, "scenario");
	/*
	 * The span is 0..99 ns over 1340 columns (13.5 per ns), and a column
	 * shows the state that took most of it: server runs 20-50 (columns
	 * 271-676: column 270 is 70% before it started), sleeps to 62, waits
	 * to 80, runs to 92, sleeps to the end; client runs 40-90 and is
	 * blocked (D) after.
	 */
	server = lane(out, "server (100)");
	ck_assert_str_eq(server, "R:511:406 S:917:162 W:1079:244 R:1323:162 S:1485:95 ");
	client = lane(out, "client (200)");
	ck_assert_str_eq(client, "R:781:677 D:1458:122 ");
	free(server);
	free(client);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(hostile_strings)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, "a<b>&\"c'\x01\xff", NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out = convert(path, NULL);

	xmllint_ok(out, "hostile");
	/* markup escaped; the control byte and the broken UTF-8 become U+FFFD */
	ck_assert_ptr_nonnull(strstr(out, ">a&lt;b&gt;&amp;&quot;c&apos;\xef\xbf\xbd\xef\xbf\xbd (100)</text>"));
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the format's own option: a narrower picture, the same lanes on fewer columns */
START_TEST(width_option)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = tu_scenario(&o, NULL, NULL);
	char path[4096], *dir = tu_scenario_file(fx, path, sizeof(path)), *out, *server;
	const struct srep_exporter *x = &srep_exporter_svg;
	struct srep_error err = { 0 };
	struct tu_convert c = { 0 };
	void *opts = NULL;
	size_t n, i;
	struct bar *v;

	ck_assert_ptr_nonnull(x->options);
	ck_assert_str_eq(x->options[0].name, "width");
	ck_assert_int_eq(x->opts_new(&opts, &err), 0);
	ck_assert_int_eq(x->opt(opts, x->options[0].id, "80", &err), SREP_E_INVAL);
	ck_assert_int_eq(x->opt(opts, x->options[0].id, "12x", &err), SREP_E_INVAL);
	ck_assert_int_eq(x->opt(opts, x->options[0].id, "800", &err), 0);
	c.opts = opts;
	out = convert(path, &c);
	ck_assert_ptr_nonnull(strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\""));
	v = bars(out, &n);
	for (i = 0; i < n; i++)
		ck_assert_int_le(v[i].x + v[i].w, 800 - 20);
	/* 540 columns for 99 ns (5.45 a ns): server runs 20-50 ns, columns 109 (91% of it) to 272 */
	server = lane(out, "server (100)");
	ck_assert_str_eq(server, "R:349:164 S:513:65 W:578:98 R:676:66 S:742:38 ");
	free(server);
	free(v);
	free(out);
	x->opts_free(opts);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

/* the axis's labels above the lanes and again below them (class "b") */
static void check_axis(const char *svg, const char *what)
{
	size_t top = 0, bottom = 0;
	const char *p;

	for (p = strstr(svg, " s</text>"); p; p = strstr(p + 1, " s</text>")) {
		while (p > svg && p[-1] != '\n')
			p--;
		if (strstr(p, " class=\"b\">") && strstr(p, " class=\"b\">") < strchr(p, '\n'))
			bottom++;
		else if (!strncmp(p, "<text x=", 8) && strstr(p, "y=\"62\"") < strchr(p, '\n'))
			top++;
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	tu_check(top > 1 && top == bottom, "%s: %zu axis labels above, %zu below", what, top, bottom);
}

/* a CPU bar's colour is the swatch beside the name in its tooltip */
static void check_cpu_colours(const char *svg, const char *what)
{
	const char *p, *sw;
	char fill[8], name[160], key[200];
	int y;

	for (p = strstr(svg, "<rect class=\"C\""); p; p = strstr(p + 1, "<rect class=\"C\"")) {
		if (sscanf(p, "<rect class=\"C\" x=\"%*d\" y=\"%*d\" width=\"%*d\" height=\"10\" "
			   "fill=\"%7[#0-9a-f]\"><title>%159[^<]</title>", fill, name) != 2)
			ck_abort_msg("%s: unreadable CPU bar %.120s", what, p);
		if (!strcmp(fill, "#888888"))
			continue;		/* a task without a lane */
		snprintf(key, sizeof(key), "class=\"n\">%s</text>", name);
		sw = strstr(svg, key);
		tu_check(sw != NULL, "%s: CPU bar of '%s', which has no lane", what, name);
		if (!sw)
			continue;
		while (sw > svg && strncmp(sw, "<text x=\"4\" y=\"", 15))
			sw--;
		ck_assert_int_eq(sscanf(sw, "<text x=\"4\" y=\"%d\"", &y), 1);
		snprintf(key, sizeof(key), "<rect x=\"228\" y=\"%d\" width=\"8\" height=\"8\" "
			 "fill=\"%s\"/>", y - 8, fill);
		tu_check(strstr(svg, key) != NULL, "%s: '%s' is %s on a CPU lane, not its swatch's colour",
			 what, name, fill);
	}
}

/*
 * Pixel columns where more task lanes show "running" than there are CPUs.
 * A column shows the state that took most of it, so three tasks that each
 * ran two thirds of a column on two CPUs all show running: a few such
 * columns are rounding, hundreds are tasks left running after a lost
 * switch-out (before that was fixed, 117 to 1199 of the 1340 columns of
 * the corpus's callchain and cpu-wide traces), or after an exit in per-task
 * SWITCH records (up to 81 tasks at once in 178 to 694 columns).
 */
static size_t overbooked_columns(const char *svg, int nr_cpus)
{
	int run[PLOT_W] = { 0 }, c, lanes_y = 84 + 12 * nr_cpus;
	size_t n, i, over = 0;
	struct bar *v = bars(svg, &n);

	for (i = 0; i < n; i++) {
		if (v[i].cls != 'R' || v[i].y < lanes_y)
			continue;
		for (c = v[i].x - PLOT_X0; c < v[i].x - PLOT_X0 + v[i].w && c < PLOT_W; c++)
			run[c] += c >= 0;
	}
	for (c = 0; c < PLOT_W; c++)
		over += run[c] > nr_cpus;
	free(v);
	return over;
}

static int nr_cpu_lanes(const char *svg)
{
	char key[64];
	int n = 0;

	do
		snprintf(key, sizeof(key), "class=\"n\">CPU %d</text>", n);
	while (strstr(svg, key) && ++n < 100000);
	return n;
}

/*
 * CPU 0: alpha runs from 10 ns; its switch-out is lost (beta, never seen
 * running, leaves CPU 0 at 40 for a task no event names, tid 500, which
 * runs to 70). Then 'late' runs on CPU 1 to 99 (the end of the span).
 */
START_TEST(lost_switch_out)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx = fixture_new(&o);
	const uint64_t t = TU_T0;
	char path[4096], *dir, *out, *alpha, *nameless;

	ck_assert_ptr_nonnull(fx);
	fixture_comm(fx, t, 0, 300, 300, "alpha", false);
	fixture_comm(fx, t, 1, 600, 600, "late", false);
	fixture_switch(fx, t + 10, 0, "swapper/0", 0, 120, FIXTURE_STATE_R, "alpha", 300, 120);
	fixture_switch(fx, t + 40, 0, "beta", 400, 120, FIXTURE_STATE_S, "", 500, 120);
	fixture_switch(fx, t + 70, 0, "", 500, 120, FIXTURE_STATE_S, "swapper/0", 0, 120);
	fixture_switch(fx, t + 80, 1, "swapper/1", 0, 120, FIXTURE_STATE_R, "late", 600, 120);
	fixture_switch(fx, t + 99, 1, "late", 600, 120, FIXTURE_STATE_S, "swapper/1", 0, 120);
	dir = tu_scenario_file(fx, path, sizeof(path));
	out = convert(path, NULL);
	check_bars(out, "lost switch-out");
	/* 1340 columns for 99 ns (13.5 a ns): alpha runs 10-40 ns, columns 135-541, no further */
	alpha = lane(out, "alpha (300)");
	ck_assert_str_eq(alpha, "R:375:406 ");
	nameless = lane(out, "tid 500");
	ck_assert_str_eq(nameless, "R:781:406 S:1187:393 ");	/* 40-70 ns, then asleep */
	ck_assert_ptr_null(strstr(out, "\">(500)"));
	ck_assert_int_eq(overbooked_columns(out, nr_cpu_lanes(out)), 0);
	check_cpu_colours(out, "lost switch-out");
	free(alpha);
	free(nameless);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(corpus_pictures)
{
	char **files = tu_corpus_sched_files(), *out;
	size_t i;

	if (!files)
		TU_SKIP("no corpus (set SREP_CORPUS)");
	for (i = 0; files[i]; i++) {
		out = convert(files[i], NULL);
		xmllint_ok(out, files[i]);
		check_bars(out, files[i]);
		ck_assert_ptr_nonnull(strstr(out, "class=\"n\">CPU 0</text>"));
		check_axis(out, files[i]);
		check_cpu_colours(out, files[i]);
		tu_check(!strstr(out, "class=\"n\">("), "%s: a lane named by its tid alone", files[i]);
		tu_check(overbooked_columns(out, nr_cpu_lanes(out)) <= PLOT_W / 50,
			 "%s: %zu columns run more tasks than there are CPUs", files[i],
			 overbooked_columns(out, nr_cpu_lanes(out)));
		free(out);
	}
	ck_assert_int_gt(i, 20);
	tu_free_list(files);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt_svg");
	TCase *tc = tcase_create("scenario");
	TCase *corpus = tcase_create("corpus");

	tcase_add_test(tc, scenario_golden);
	tcase_add_test(tc, hostile_strings);
	tcase_add_test(tc, width_option);
	tcase_add_test(tc, lost_switch_out);
	suite_add_tcase(s, tc);
	tcase_set_timeout(corpus, 300);
	tcase_add_test(corpus, corpus_pictures);
	suite_add_tcase(s, corpus);
	return tu_run_suite(s);
}
