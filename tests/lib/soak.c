// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * soak.c - read a trace N times in one process through the library, as a
 * long-running user would (events, tracepoint fields, metrics, symbolizer),
 * and print the resident memory after each pass: it must not grow.
 * Usage: soak TRACE [N]   (bench/soak.sh runs it)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <schedrep/schedrep.h>

static long rss_kb(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = 0;
	if (f)
		fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int one_pass(const char *path)
{
	struct srep_symbol_opts so = { .buildid_dir = "" };
	struct srep_symbolizer *sy = NULL;
	struct srep_metrics *m = NULL;
	struct srep_session *s = NULL;
	const struct srep_event *ev;
	struct srep_error err;
	struct srep_field f;
	int ret;

	ret = srep_session__open(&s, path, &(struct srep_open_opts){ .flags = SREP_OPEN_PRESCAN },
				 &err);
	if (!ret)
		ret = srep_metrics__new(&m, s, &err);
	if (!ret)
		ret = srep_symbolizer__new(&sy, s, &so, &err);
	while (!ret && (ret = srep_session__next_event(s, &ev, &err)) > 0) {
		(void)srep_event__field_by_name(ev, "prev_state", &f);
		ret = srep_symbolizer__observe(sy, ev);
		if (!ret)
			ret = srep_metrics__add(m, ev, &err);
	}
	if (!ret)
		srep_metrics__finish(m);
	srep_symbolizer__delete(sy);
	srep_metrics__delete(m);
	srep_session__delete(s);
	if (ret < 0)
		fprintf(stderr, "soak: %s: %s\n", path, err.msg);
	return ret;
}

int main(int argc, char **argv)
{
	int i, n = argc > 2 ? atoi(argv[2]) : 5;

	if (argc < 2) {
		fprintf(stderr, "usage: soak TRACE [N]\n");
		return 2;
	}
	for (i = 1; i <= n; i++) {
		if (one_pass(argv[1]) < 0)
			return 1;
		printf("pass %d: %ld kB resident\n", i, rss_kb());
		fflush(stdout);
	}
	return 0;
}
