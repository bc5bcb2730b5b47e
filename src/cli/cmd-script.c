// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-script.c - "schedrep script": every sample of the trace on one line,
 * as 'perf script' prints it (comm, tid, cpu, time, event, the tracepoint's
 * fields by its own print format), streamed; -F picks the columns
 * (docs/man/schedrep-script.1.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "linebuf.h"
#include "perfopts.h"

static const char sc_usage[] =
	"usage: schedrep script [-i <file>] [-o <file>] [--json] [--perf <version>] [-F <fields>] "
	"[--only <sel>]... [--exclude <sel>]... [--children] [--time <from,to>] [-C <list>] "
	"[-q] [<perf.data>]";
static const char sc_desc[] =
	"Every sample on one line, as 'perf script' prints scheduler traces: comm, tid,\n"
	"[cpu], time, event name and the tracepoint's fields as its format prints them.\n"
	"-F picks the columns: comm,tid,pid,cpu,time,event,trace (perf's names), or\n"
	"+FIELD / -FIELD to add to or remove from perf's default.";

enum { OPT_FIELDS = 1 };

static const struct cli_opt sc_opts[] = {
	PERF_IO_OPTIONS,
	{ "fields", 'F', "<fields>", "columns: comm,tid,pid,cpu,time,event,trace or +/-FIELD",
	  OPT_FIELDS },
	PERF_FILTER_OPTIONS,
	{ NULL, 0, NULL, NULL, 0 },
};

enum { F_COMM = 1, F_TID = 2, F_PID = 4, F_CPU = 8, F_TIME = 16, F_EVENT = 32, F_TRACE = 64 };
#define F_DEFAULT (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE)

struct sc_cli {
	struct perf_args a;
	unsigned fields;
	int name_width;
	struct linebuf line;		/* the current text line */
	bool nomem;			/* a line could not be built */
};

static int field_bit(const char *name, size_t len)
{
	static const struct { const char *name; int bit; } known[] = {
		{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "cpu", F_CPU },
		{ "time", F_TIME }, { "event", F_EVENT }, { "trace", F_TRACE },
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strlen(known[i].name) == len && !strncmp(known[i].name, name, len))
			return known[i].bit;
	}
	return 0;
}

/* perf's -F: a list replaces the default; +f and -f change it */
static int parse_fields(struct sc_cli *c, const char *spec)
{
	const char *p = spec;
	bool relative = *p == '+' || *p == '-';
	unsigned v = relative ? F_DEFAULT : 0;
	char sign;
	size_t len;
	int bit;

	while (*p) {
		sign = relative ? *p : '+';
		if (relative && sign != '+' && sign != '-')
			return -1;
		p += relative;
		len = strcspn(p, ",");
		bit = field_bit(p, len);
		if (!bit)
			return -1;
		v = sign == '+' ? v | (unsigned)bit : v & ~(unsigned)bit;
		p += len;
		p += *p == ',';
	}
	c->fields = v;
	return v ? 0 : -1;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct sc_cli *c = ctx;
	int ret;

	if (perf_args_opt(&c->a, id, arg, sc_usage, &ret))
		return ret;
	if (id == OPT_FIELDS && parse_fields(c, arg))
		return cli_usage_error(sc_usage, "-F: '%s': fields are comm, tid, pid, cpu, time, "
				       "event, trace (or +FIELD, -FIELD)", arg);
	return EXIT_OK;
}

static const char *event_name(const struct srep_session *s, const struct srep_event *ev)
{
	const char *name = ev->evsel >= 0 ? srep_session__evsel_name(s, (size_t)ev->evsel) : NULL;

	return name ? name : "[unknown]";
}

/* perf pads event names to the longest of the trace's events */
static int max_name_len(const struct srep_session *s)
{
	size_t i, len, max = 0;
	const char *name;

	for (i = 0; i < srep_session__nr_evsels(s); i++) {
		name = srep_session__evsel_name(s, i);
		len = name ? strlen(name) : 0;
		max = len > max ? len : max;
	}
	return (int)max;
}

/* the trace column: the print format's text, written into the line */
static void trace_text(struct linebuf *lb, const struct srep_event *ev)
{
	size_t room = lb_room(lb, 128) ? lb->cap - lb->len : 0;
	int n = srep_event__print(ev, lb->p + lb->len, room);

	if (n < 0)
		return;
	if ((size_t)n >= room) {
		if (!lb_room(lb, (size_t)n + 1))
			return;
		srep_event__print(ev, lb->p + lb->len, (size_t)n + 1);
	}
	lb->len += (size_t)n;
}

static void text_line(FILE *f, struct sc_cli *c, const struct srep_session *s,
		      struct srep_perf_threads *pt, const struct srep_event *ev)
{
	int w = c->a.dialect == SREP_PERF_6_1 ? 5 : 7;
	struct linebuf *lb = &c->line;

	if (c->fields & F_COMM) {
		lb_pad_str(lb, srep_perf_threads__comm(pt, ev->tid), 16);
		lb_char(lb, ' ');
	}
	if ((c->fields & F_PID) && (c->fields & F_TID)) {
		lb_int(lb, ev->pid, w, false);
		lb_char(lb, '/');
		lb_int(lb, ev->tid, -w, false);
		lb_char(lb, ' ');
	} else if (c->fields & (F_PID | F_TID)) {
		lb_int(lb, c->fields & F_PID ? ev->pid : ev->tid, w, false);
		lb_char(lb, ' ');
	}
	if (c->fields & F_CPU) {
		lb_char(lb, '[');
		lb_int(lb, ev->cpu, 3, true);
		lb_mem(lb, "] ", 2);
	}
	if (c->fields & F_TIME) {
		lb_sec_usec(lb, ev->time, 12);
		lb_mem(lb, ": ", 2);
	}
	if (c->fields & F_EVENT) {
		lb_pad_str(lb, event_name(s, ev), c->name_width);
		lb_mem(lb, ": ", 2);
	}
	if (c->fields & F_TRACE)
		trace_text(lb, ev);
	lb_char(lb, '\n');
	if (lb_write(lb, f))
		c->nomem = true;	/* write errors show at cli_out_commit's check of f */
}

static void json_field(FILE *f, const struct srep_field *fl)
{
	char *s;
	uint32_t i;

	switch (fl->kind) {
	case SREP_FIELD_INT:
		fprintf(f, "%" PRId64, fl->i);
		break;
	case SREP_FIELD_UINT:
		fprintf(f, "%" PRIu64, fl->u);
		break;
	case SREP_FIELD_STR:
		s = strndup(fl->str, fl->len);
		perf_json_str(f, s ? s : "");
		free(s);
		break;
	default:
		fputc('[', f);
		for (i = 0; i < fl->nr_elems; i++)
			fprintf(f, "%s%" PRId64, i ? "," : "", (int64_t)srep_field__elem(fl, i));
		fputc(']', f);
		break;
	}
}

static void json_line(FILE *f, struct sc_cli *c, const struct srep_session *s,
		      struct srep_perf_threads *pt, const struct srep_event *ev)
{
	struct srep_field fl;
	int i, n = 0;

	fputc('{', f);
	if (c->fields & F_COMM) {
		fputs("\"comm\":", f);
		perf_json_str(f, srep_perf_threads__comm(pt, ev->tid));
		n++;
	}
	if (c->fields & F_PID)
		fprintf(f, "%s\"pid\":%d", n++ ? "," : "", ev->pid);
	if (c->fields & F_TID)
		fprintf(f, "%s\"tid\":%d", n++ ? "," : "", ev->tid);
	if (c->fields & F_CPU)
		fprintf(f, "%s\"cpu\":%d", n++ ? "," : "", ev->cpu);
	if (c->fields & F_TIME)
		fprintf(f, "%s\"time\":%" PRIu64, n++ ? "," : "", ev->time);
	if (c->fields & F_EVENT) {
		fprintf(f, "%s\"event\":", n++ ? "," : "");
		perf_json_str(f, event_name(s, ev));
	}
	if (c->fields & F_TRACE) {
		fprintf(f, "%s\"fields\":{", n++ ? "," : "");
		for (i = 0, n = 0; i < srep_event__nr_fields(ev); i++) {
			if (srep_event__field(ev, i, &fl) || !strncmp(fl.name, "common_", 7))
				continue;
			fprintf(f, "%s\"%s\":", n++ ? "," : "", fl.name);
			json_field(f, &fl);
		}
		fputc('}', f);
	}
	fputs("}\n", f);
}

/* perf script prints samples; side-band records (COMM, FORK, ...) only name threads */
static bool is_sample(const struct srep_event *ev)
{
	return ev->source == SREP_SRC_TRACEPOINT || ev->source == SREP_SRC_SAMPLE ||
	       (ev->source == SREP_SRC_JSON && ev->evsel >= 0);
}

static int run(struct sc_cli *c, struct srep_session *s, const struct srep_perf_filter *pf,
	       FILE *f, struct srep_error *err)
{
	struct srep_perf_threads *pt = NULL;
	const struct srep_event *ev;
	struct cli_progress prog;
	int ret;

	ret = srep_perf_threads__new(&pt, s, c->a.dialect, err);
	c->name_width = max_name_len(s);
	cli_progress_init(&prog, "reading", s, f);
	while (!ret && (ret = cli_next_event(&prog, s, &ev, err)) > 0) {
		if (cli_interrupted)
			ret = srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
		else if ((ret = srep_perf_threads__add(pt, ev, err)) == 0 && is_sample(ev) &&
			 srep_perf_filter__has_event(pf, ev))
			(c->a.json ? json_line : text_line)(f, c, s, pt, ev);
	}
	cli_progress_done(&prog);
	srep_perf_threads__delete(pt);
	if (!ret && c->nomem)
		ret = srep_error__set(err, SREP_E_NOMEM, "out of memory for an output line");
	return ret;
}

static int script(void *ctx, struct srep_session *s, const struct srep_perf_filter *pf)
{
	struct sc_cli *c = ctx;
	static char buf[1 << 20];	/* one big buffer: lines are short and many */
	struct srep_error err = { 0 };
	struct cli_out out;

	if (cli_out_open(&out, c->a.output, c->a.input, &err))
		return cli_error(&err);
	setvbuf(out.f, buf, _IOFBF, sizeof(buf));
	if (run(c, s, pf, out.f, &err) || cli_out_commit(&out, &err)) {
		cli_out_abort(&out);
		return err.code == SREP_E_INTERRUPTED ? EXIT_INTERRUPTED : cli_error(&err);
	}
	return EXIT_OK;
}

int cmd_script(int argc, char **argv)
{
	static const struct perf_cmd cmd = { sc_usage, sc_desc, sc_opts, on_opt, script, 0 };
	struct sc_cli c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.fields = F_DEFAULT;
	ret = perf_cmd_main(&cmd, &c.a, &c, argc, argv);
	lb_free(&c.line);
	return ret;
}
