// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-map.c - "schedrep map": after each context switch, who runs on every
 * CPU, as 'perf sched map' draws it (docs/man/schedrep-map.1.md); the
 * state is the library's (srep_schedmap).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "linebuf.h"
#include "perfopts.h"

static const char map_usage[] =
	"usage: schedrep map [-i <file>] [-o <file>] [--json] [--perf <version>] [--cpus <list>] "
	"[--compact] [--only <sel>]... [--exclude <sel>]... [--children] [--time <from,to>] "
	"[-C <list>] [-q] [<perf.data>]";
static const char map_desc[] =
	"After each context switch, who runs on every CPU, as 'perf sched map' draws it:\n"
	"a column per CPU ('*' marks the one that switched), each task shown by the two\n"
	"characters it gets at its first switch-in (A0, B0, ...; '.' is idle), then the\n"
	"time and, for a task named now, 'A0 => comm:tid'.";

enum { OPT_COMPACT = 1 };

static const struct cli_opt map_opts[] = {
	PERF_IO_OPTIONS,
	{ "cpus", 0, "<list>", "these CPUs only, as perf's --cpus (the same as --cpu)", PO_CPU },
	{ "compact", 0, NULL, "columns only for CPUs that switch, in the order they first do",
	  OPT_COMPACT },
	PERF_FILTER_OPTIONS,
	{ NULL, 0, NULL, NULL, 0 },
};

#define MAP_CHUNK (64 * 1024)	/* lines gathered per fwrite */

struct map_cli {
	struct perf_args a;
	struct srep_schedmap_opts o;
	struct linebuf line;		/* the lines not written yet */
	bool nomem;			/* a line could not be built */
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct map_cli *c = ctx;
	int ret;

	if (perf_args_opt(&c->a, id, arg, map_usage, &ret))
		return ret;
	if (id == OPT_COMPACT)
		c->o.compact = true;
	return EXIT_OK;
}

/* "%c%2s " per column: '*' on the CPU that switched, then its name (two letters or none) */
static char *put_cols(char *o, const struct srep_schedmap_line *l)
{
	size_t i;

	for (i = 0; i < l->nr_cols; i++, o += 4) {
		o[0] = l->col_cpu[i] == l->cpu ? '*' : ' ';
		memcpy(o + 1, l->cols[i][0] ? l->cols[i] : "  ", 2);
		o[3] = ' ';
	}
	return o;
}

/* the line written at once: one line per switch, hundreds of thousands of them */
static void text_line(FILE *f, struct map_cli *c, const struct srep_schedmap_line *l)
{
	size_t name = l->named ? strlen(l->name) : 0, comm = l->named ? strlen(l->comm) : 0;
	/* "  ", columns, "  %12s secs ", "%s => %s:%d", " (CPU %d)", "\n" */
	char *o = lb_reserve(&c->line, 2 + 4 * l->nr_cols + 2 + LB_SEC_USEC_MAX + 6 + name + 4 +
			     comm + 1 + LB_INT_MAX + 6 + LB_INT_MAX + 1 + 1);

	if (!o) {
		c->nomem = true;
		return;
	}
	o = put_cols(lb_put_mem(o, "  ", 2), l);
	if (l->print) {
		o = lb_put_sec_usec(lb_put_mem(o, "  ", 2), l->time, 12);
		o = lb_put_mem(o, " secs ", 6);
		if (l->named) {
			o = lb_put_mem(lb_put_mem(o, l->name, name), " => ", 4);
			o = lb_put_mem(o, l->comm, comm);
			*o++ = ':';
			o = lb_put_int(o, l->tid);
		}
		if (l->new_cpu) {
			o = lb_put_int(lb_put_mem(o, " (CPU ", 6), l->cpu);
			*o++ = ')';
		}
	}
	*o++ = '\n';
	lb_commit(&c->line, o);
	if (lb_write_chunk(&c->line, f, MAP_CHUNK))
		c->nomem = true;	/* write errors show at cli_out_commit's check of f */
}

static void json_line(FILE *f, const struct srep_schedmap_line *l)
{
	size_t i;

	fprintf(f, "{\"time\":%" PRIu64 ",\"cpu\":%d,\"cpus\":[", l->time, l->cpu);
	for (i = 0; i < l->nr_cols; i++)
		fprintf(f, "%s%d", i ? "," : "", l->col_cpu[i]);
	fputs("],\"running\":[", f);
	for (i = 0; i < l->nr_cols; i++) {
		fputs(i ? "," : "", f);
		if (l->cols[i][0])
			fprintf(f, "\"%.*s\"", l->cols[i][1] == ' ' ? 1 : 2, l->cols[i]);
		else
			fputs("null", f);
	}
	fputc(']', f);
	if (l->named) {
		fprintf(f, ",\"named\":{\"name\":\"%.*s\",\"comm\":", l->name[1] == ' ' ? 1 : 2,
			l->name);
		perf_json_str(f, l->comm);
		fprintf(f, ",\"tid\":%d}", l->tid);
	}
	fputs("}\n", f);
}

/* perf's closing INFO line, when events were lost */
static void print_lost(FILE *f, const struct srep_session *s)
{
	const struct srep_stats *st = srep_session__stats(s);

	if (st->lost && st->total_records)
		fprintf(f, "  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64 ", in %" PRIu64
			" chunks)\n", (double)st->lost / (double)st->total_records * 100.0, st->lost,
			st->total_records, st->records[2]);
}

static int run(struct map_cli *c, struct srep_session *s, struct srep_schedmap *m, FILE *f,
	       struct srep_error *err)
{
	struct srep_schedmap_line line;
	const struct srep_event *ev;
	struct cli_progress prog;
	int ret;

	cli_progress_init(&prog, "reading", s, f);
	while ((ret = cli_next_event(&prog, s, &ev, err)) > 0) {
		if (cli_interrupted) {
			ret = srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
			break;
		}
		ret = srep_schedmap__add(m, ev, &line, err);
		if (ret < 0)
			break;
		if (ret && !c->a.json)
			text_line(f, c, &line);
		else if (ret && line.print)
			json_line(f, &line);
	}
	cli_progress_done(&prog);
	if (lb_write(&c->line, f))
		c->nomem = true;
	if (!ret && c->nomem)
		ret = srep_error__set(err, SREP_E_NOMEM, "out of memory for an output line");
	if (!ret && !c->a.json)
		print_lost(f, s);
	return ret;
}

static int map(struct map_cli *c, struct srep_session *s)
{
	static char buf[1 << 20];
	struct srep_schedmap *m = NULL;
	struct srep_error err = { 0 };
	struct cli_out out;
	int ret = EXIT_OK;

	c->o.dialect = c->a.dialect;
	if (srep_schedmap__new(&m, s, &c->o, &err) ||
	    cli_out_open(&out, c->a.output, c->a.input, &err)) {
		srep_schedmap__delete(m);
		return cli_error(&err);
	}
	setvbuf(out.f, buf, _IOFBF, sizeof(buf));
	if (run(c, s, m, out.f, &err) || cli_out_commit(&out, &err)) {
		cli_out_abort(&out);
		ret = err.code == SREP_E_INTERRUPTED ? EXIT_INTERRUPTED : cli_error(&err);
	}
	srep_schedmap__delete(m);
	return ret;
}

static int run_map(void *ctx, struct srep_session *s, const struct srep_perf_filter *f)
{
	struct map_cli *c = ctx;

	c->o.filter = *f;
	return map(c, s);
}

int cmd_map(int argc, char **argv)
{
	static const struct perf_cmd cmd = { map_usage, map_desc, map_opts, on_opt, run_map,
					     SREP_SCHEDMAP_EVENTS };
	struct map_cli c;

	int ret;

	memset(&c, 0, sizeof(c));
	ret = perf_cmd_main(&cmd, &c.a, &c, argc, argv);
	lb_free(&c.line);
	return ret;
}
