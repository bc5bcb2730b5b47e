// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * testutil.c - helpers shared by the Check suites.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

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

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
