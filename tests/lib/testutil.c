// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * testutil.c - helpers shared by the Check suites.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "bytes.h"

const char *tu_corpus_dir(void)
{
	static char path[4096];
	const char *env = getenv("SREP_CORPUS");
	struct stat st;

	if (env && *env)
		snprintf(path, sizeof(path), "%s", env);
	else
		snprintf(path, sizeof(path), "%s/../shared/corpus", SREP_TOP_SRCDIR);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? path : NULL;
}

char *tu_corpus_path(const char *rel)
{
	const char *dir = tu_corpus_dir();
	char *p;

	if (!dir || asprintf(&p, "%s/%s", dir, rel) < 0)
		return NULL;
	return p;
}

char *tu_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *p;

	if (asprintf(&p, "%s/schedrep-test-XXXXXX", base && *base ? base : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(p)) {
		free(p);
		return NULL;
	}
	return p;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void tu_rmdir(const char *dir)
{
	if (dir)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (len)
		*len = 0;
	if (!f)
		return NULL;
	do {
		if (n + 65536 + 1 > cap) {
			cap = (n + 65536 + 1) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = n;
	}
	return buf;
}

int tu_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ret;

	if (!f)
		return -1;
	ret = fwrite(data, 1, len, f) == len ? 0 : -1;
	return fclose(f) ? -1 : ret;
}

int tu_run(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 65536, n = 0, r;
	char *buf;
	int st;

	if (!p)
		return -1;
	buf = malloc(cap);
	while (buf && (r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (cap - n < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	st = pclose(p);
	if (buf)
		buf[n] = '\0';
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

bool tu_have_program(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* ---- perf's stats text ---- */

static int add_count(struct tu_count **v, size_t *n, const char *name, size_t len, uint64_t value)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strlen((*v)[i].name) == len && !strncmp((*v)[i].name, name, len)) {
			(*v)[i].value += value;
			return 0;
		}
	}
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		return -1;
	(*v)[*n].name = strndup(name, len);
	(*v)[*n].value = value;
	(*n)++;
	return 0;
}

/*
 * "Aggregated stats:" then "  TYPE events:  N  (x%)" lines; then per event
 * "NAME stats:" followed by "  SAMPLE events:  N" (and LOST_SAMPLES).
 */
int tu_parse_perf_stats(const char *text, struct tu_stats *out)
{
	const char *line = text, *cur_ev = NULL;
	size_t cur_len = 0, klen;
	bool aggregated = false;
	unsigned long long v;
	char key[128];

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (!strncmp(line, "Aggregated stats:", 17)) {
			aggregated = true;
			cur_ev = NULL;
		} else if (len > 7 && !strncmp(line + len - 7, " stats:", 7) && line[0] != ' ') {
			aggregated = false;
			cur_ev = line;
			cur_len = len - 7;
		} else if (sscanf(line, " %127s events: %llu", key, &v) == 2) {
			klen = strlen(key);
			if (aggregated && strcmp(key, "TOTAL"))
				add_count(&out->records, &out->nr_records, key, klen, v);
			else if (cur_ev && !strcmp(key, "SAMPLE"))
				add_count(&out->events, &out->nr_events, cur_ev, cur_len, v);
		}
		line = eol ? eol + 1 : NULL;
	}
	return out->nr_records ? 0 : -1;
}

void tu_stats_free(struct tu_stats *st)
{
	size_t i;

	for (i = 0; i < st->nr_records; i++)
		free(st->records[i].name);
	for (i = 0; i < st->nr_events; i++)
		free(st->events[i].name);
	free(st->records);
	free(st->events);
	memset(st, 0, sizeof(*st));
}

#define WHY(...) do { size_t l = strlen(why); \
	snprintf(why + l, size > l ? size - l : 0, __VA_ARGS__); ok = false; } while (0)

static uint64_t our_record(const struct srep_stats *st, const char *name)
{
	uint32_t t;

	for (t = 0; t < SREP_NR_RECORD_TYPES; t++) {
		if (srep_record_type_name(t) && !strcmp(srep_record_type_name(t), name))
			return st->records[t];
	}
	return UINT64_MAX;
}

static uint64_t our_event(const struct srep_session *s, const char *name)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < srep_session__nr_evsels(s); i++) {
		if (!strcmp(srep_session__evsel_name(s, i), name))
			n += srep_session__evsel_samples(s, i);
	}
	return n;
}

bool tu_stats_match(const struct srep_session *s, const struct tu_stats *perf, char *why,
		    size_t size)
{
	const struct srep_stats *st = srep_session__stats(s);
	uint64_t ours, theirs_total = 0, events_total = 0;
	bool ok = true;
	size_t i;

	why[0] = '\0';
	for (i = 0; i < perf->nr_records; i++) {
		ours = our_record(st, perf->records[i].name);
		theirs_total += perf->records[i].value;
		if (ours != perf->records[i].value)
			WHY("%s: perf %llu, schedrep %llu; ", perf->records[i].name,
			    (unsigned long long)perf->records[i].value, (unsigned long long)ours);
	}
	if (st->total_records != theirs_total)
		WHY("total: perf %llu, schedrep %llu; ", (unsigned long long)theirs_total,
		    (unsigned long long)st->total_records);
	for (i = 0; i < perf->nr_events; i++) {
		ours = our_event(s, perf->events[i].name);
		events_total += perf->events[i].value;
		if (ours != perf->events[i].value)
			WHY("event '%s': perf %llu, schedrep %llu; ", perf->events[i].name,
			    (unsigned long long)perf->events[i].value, (unsigned long long)ours);
	}
	/* events perf does not list must have no samples */
	ours = 0;
	for (i = 0; i < srep_session__nr_evsels(s); i++)
		ours += srep_session__evsel_samples(s, i);
	if (ours != events_total)
		WHY("samples over all events: perf %llu, schedrep %llu; ",
		    (unsigned long long)events_total, (unsigned long long)ours);
	return ok;
}

int tu_read_all(const char *path, unsigned flags, struct srep_session **out,
		struct srep_error *err)
{
	struct srep_open_opts opts = { .flags = flags };
	const struct srep_event *ev;
	int ret;

	ret = srep_session__open(out, path, &opts, err);
	if (ret)
		return ret;
	if (flags & SREP_OPEN_COUNT_ONLY)
		return srep_session__count(*out, err);
	while ((ret = srep_session__next_event(*out, &ev, err)) > 0)
		;
	return ret;
}

/* ---- bytes built by a test ---- */

static void tu_check(const struct fx_buf *b)
{
	if (b->failed)
		abort();
}

void tu_put(struct fx_buf *b, const void *p, size_t n)
{
	if (p)
		fxb_bytes(b, p, n);
	else
		fxb_zero(b, n);
	tu_check(b);
}

void tu_zero(struct fx_buf *b, size_t n)
{
	tu_put(b, NULL, n);
}

void tu_u8(struct fx_buf *b, uint8_t v)
{
	fxb_u8(b, v);
	tu_check(b);
}

void tu_u16(struct fx_buf *b, uint16_t v)
{
	fxb_u16(b, v);
	tu_check(b);
}

void tu_u32(struct fx_buf *b, uint32_t v)
{
	fxb_u32(b, v);
	tu_check(b);
}

void tu_u64(struct fx_buf *b, uint64_t v)
{
	fxb_u64(b, v);
	tu_check(b);
}

void tu_str64(struct fx_buf *b, const char *s)
{
	size_t n = strlen(s), len = (n + 1 + 63) / 64 * 64;

	tu_u32(b, (uint32_t)len);
	tu_put(b, s, n);
	tu_zero(b, len - n);
}

void tu_buf_free(struct fx_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

uint8_t *tu_exact_copy(const void *p, size_t len)
{
	uint8_t *c = malloc(len ? len : 1);

	if (!c)
		abort();
	if (len)
		memcpy(c, p, len);
	return c;
}

/* ---- warnings ---- */

void tu_diag_cb(void *arg, const struct srep_error *w)
{
	struct tu_diag *d = arg;
	size_t l = strlen(d->all);

	d->n++;
	d->code = w->code;
	d->has_offset = w->has_offset;
	d->offset = w->offset;
	snprintf(d->last, sizeof(d->last), "%s", w->msg);
	snprintf(d->all + l, sizeof(d->all) - l, "%s\n", w->msg);
}

int tu_open_mem(const void *buf, size_t len, unsigned flags, struct tu_diag *diag,
		struct srep_session **s, struct srep_error *err)
{
	struct srep_open_opts o = { .flags = flags, .diag = diag ? tu_diag_cb : NULL,
				    .diag_arg = diag };
	char *dir = tu_tmpdir(), path[4096];
	int ret;

	if (!dir)
		abort();
	snprintf(path, sizeof(path), "%s/mem.data", dir);
	if (tu_write_file(path, buf, len) < 0)
		abort();
	ret = srep_session__open(s, path, &o, err);
	tu_rmdir(dir);
	free(dir);
	return ret;
}

int tu_feed_stdin(const void *buf, size_t len, size_t chunk)
{
	const uint8_t *p = buf;
	int fds[2];
	pid_t pid;

	if (pipe(fds) < 0)
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		size_t off = 0;

		close(fds[0]);
		while (off < len) {
			size_t n = chunk && len - off > chunk ? chunk : len - off;
			ssize_t w = write(fds[1], p + off, n);

			if (w < 0)
				_exit(errno == EPIPE ? 0 : 1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	/* fd 0 may have been free (closed by tu_wait_feeder): then it is the pipe already */
	if (fds[0] != STDIN_FILENO) {
		if (dup2(fds[0], STDIN_FILENO) < 0)
			abort();
		close(fds[0]);
	}
	return (int)pid;
}

void tu_wait_feeder(int pid)
{
	int st;

	/* the reader may stop early: the feeder then dies of SIGPIPE, which is fine */
	close(STDIN_FILENO);
	waitpid((pid_t)pid, &st, 0);
}

/* ---- events ---- */

/* the union member an event of this kind uses, in bytes */
/* bytes of a member of the union (schedrep/schema.h) */
static size_t member_bytes(const struct srep_member *m)
{
	switch (m->type) {
	case SREP_MT_I32:
	case SREP_MT_U32:	return 4;
	case SREP_MT_I64:
	case SREP_MT_U64:
	case SREP_MT_ADDR:	return 8;
	case SREP_MT_COMM:	return SREP_COMM_MAX;
	case SREP_MT_STATE:	return 1;
	case SREP_MT_BOOL:	return sizeof(bool);
	case SREP_MT_WAKE:	return sizeof(enum srep_wakeup_kind);
	case SREP_MT_STAT:	return sizeof(enum srep_stat_kind);
	case SREP_MT_BUILD_ID:	/* two members: copied apart */
	case SREP_MT_CSTR:	return 0;	/* borrowed: dies with the next event */
	}
	return 0;
}

/*
 * The common fields and the event's own union members; the rest of the
 * union is unspecified (left from earlier events) and stays zero here.
 * Borrowed pointers die with the next event: they are cleared.
 */
static void copy_event(struct srep_event *c, const struct srep_event *ev)
{
	enum srep_event_kind kind = srep_event_kind__union(ev->kind);
	const struct srep_member *schema;
	size_t i, nr;

	memset(c, 0, sizeof(*c));
	memcpy(c, ev, offsetof(struct srep_event, u));
	schema = srep_event_schema(&nr);
	for (i = 0; i < nr; i++) {
		const struct srep_member *m = &schema[i];

		if (m->kind != kind)
			continue;
		if (m->type == SREP_MT_BUILD_ID) {
			c->u.mmap.build_id_size = ev->u.mmap.build_id_size;
			memcpy(c->u.mmap.build_id, ev->u.mmap.build_id, sizeof(c->u.mmap.build_id));
		} else {
			memcpy((char *)c + m->offset, (const char *)ev + m->offset, member_bytes(m));
		}
	}
	c->callchain = NULL;
	c->user_regs = NULL;
	c->user_stack = NULL;
}

int tu_collect(struct srep_session *s, struct tu_events *out, struct srep_error *err)
{
	const struct srep_event *ev;
	int ret;

	while ((ret = srep_session__next_event(s, &ev, err)) > 0) {
		struct srep_event *c;

		if (out->n == out->cap) {
			out->cap = out->cap ? 2 * out->cap : 64;
			out->v = realloc(out->v, out->cap * sizeof(*out->v));
			if (!out->v)
				abort();
		}
		c = &out->v[out->n++];
		copy_event(c, ev);
	}
	return ret;
}

void tu_events_free(struct tu_events *ev)
{
	free(ev->v);
	memset(ev, 0, sizeof(*ev));
}

size_t tu_count_kind(const struct tu_events *ev, enum srep_event_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < ev->n; i++)
		n += ev->v[i].kind == kind;
	return n;
}

const struct srep_event *tu_find(const struct tu_events *ev, enum srep_event_kind kind,
				 uint64_t time)
{
	size_t i;

	for (i = 0; i < ev->n; i++) {
		if (ev->v[i].kind == kind && ev->v[i].time == time)
			return &ev->v[i];
	}
	return NULL;
}

/* the members of the event's own union kind (schedrep/schema.h) */
static bool same_member(const struct srep_event *a, const struct srep_event *b)
{
	enum srep_event_kind kind = srep_event_kind__union(a->kind);
	const struct srep_member *schema;
	size_t i, nr;

	schema = srep_event_schema(&nr);
	for (i = 0; i < nr; i++)
		if (schema[i].kind == kind && !srep_member__equal(&schema[i], a, b))
			return false;
	return true;
}

bool tu_events_same(const struct tu_events *a, const struct tu_events *b, char *why,
		    size_t size)
{
	size_t i;

	if (a->n != b->n) {
		snprintf(why, size, "%zu events against %zu", a->n, b->n);
		return false;
	}
	for (i = 0; i < a->n; i++) {
		const struct srep_event *x = &a->v[i], *y = &b->v[i];

		/* the fields before the union are cleared for every event: compare the bytes */
		if (memcmp(x, y, offsetof(struct srep_event, u)) != 0 || !same_member(x, y)) {
			snprintf(why, size, "event %zu differs: %s at %llu against %s at %llu", i,
				 srep_event_kind_name(x->kind), (unsigned long long)x->time,
				 srep_event_kind_name(y->kind), (unsigned long long)y->time);
			return false;
		}
	}
	return true;
}

/* Check runs each test in a child: the skips are counted in a file */
static char skip_log[4096];

void tu_skipped(const char *fmt, ...)
{
	va_list ap;
	FILE *f;

	fprintf(stderr, "SKIP: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	f = skip_log[0] ? fopen(skip_log, "a") : NULL;
	if (f) {
		fputs("skip\n", f);
		fclose(f);
	}
}

static size_t count_skips(void)
{
	size_t n = 0;
	char *text = tu_read_file(skip_log, NULL), *p;

	for (p = text; p && (p = strstr(p, "skip\n")); p++)
		n++;
	free(text);
	return n;
}

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed, fd;
	size_t skipped;

	snprintf(skip_log, sizeof(skip_log), "%s/schedrep-skips-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(skip_log);
	if (fd < 0)
		skip_log[0] = '\0';
	else
		close(fd);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	skipped = skip_log[0] ? count_skips() : 0;
	if (skip_log[0])
		unlink(skip_log);
	if (failed)
		return 1;
	if (skipped) {
		fprintf(stderr, "SKIP: %zu check(s) could not run here (see above): the suite is "
			"reported as skipped, not passed\n", skipped);
		return 77;
	}
	return 0;
}
