// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * streams.c - a perf.data directory, as 'perf record --threads' (perf 5.17
 * and later) writes it: DIR/data holds the header, the side-band records and
 * the features; each DIR/data.N holds the records of one recording thread,
 * without a header. The records reader reads one stream at a time (its
 * input, position, end and decompressor are the session's current ones);
 * before each record it switches to the stream whose last record is the
 * oldest, so that the reorder queue receives every thread's nearly sorted
 * records nearly in time order, as perf merges them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader.h"
#include "grow.h"

#define MAX_STREAMS	4096	/* one per recording thread: perf makes one per CPU at most */

bool streams_is_dir(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_index(const void *a, const void *b)
{
	const struct rstream *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* DIR/data.N, in the order of N */
static int find_data_files(struct srep_session *s, const char *dir, struct srep_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = s->nr_streams;

	if (!d)
		return srep_error__set(err, SREP_E_IO, "'%s': cannot list the directory", dir);
	while ((de = readdir(d))) {
		struct rstream *n;
		char *end;
		unsigned long idx;

		if (strncmp(de->d_name, "data.", 5) || !de->d_name[5])
			continue;
		idx = strtoul(de->d_name + 5, &end, 10);
		if (*end || s->nr_streams >= MAX_STREAMS)
			continue;
		n = grow_array(s->streams, &cap, s->nr_streams, sizeof(*n), 8);
		if (!n)
			goto nomem;
		s->streams = n;
		n = &s->streams[s->nr_streams];
		memset(n, 0, sizeof(*n));
		n->in.fd = -1;
		n->index = idx;
		if (asprintf(&n->path, "%s/%s", dir, de->d_name) < 0) {
			n->path = NULL;
			goto nomem;
		}
		s->nr_streams++;
	}
	closedir(d);
	qsort(s->streams + 1, s->nr_streams - 1, sizeof(*s->streams), cmp_index);
	return 0;
nomem:
	closedir(d);
	return srep_error__set(err, SREP_E_NOMEM, "no memory for the streams of '%s'", dir);
}

int streams_init(struct srep_session *s, const char *dir, struct srep_error *err)
{
	struct rstream *main;

	s->streams = calloc(1, sizeof(*s->streams));
	if (!s->streams)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the streams of '%s'", dir);
	s->nr_streams = 1;
	main = &s->streams[0];		/* DIR/data's data section: the current stream */
	main->path = s->path;
	main->start = s->data_start;
	main->end = s->data_end;
	return find_data_files(s, dir, err);
}

/* the session's current reading state, kept in its stream or taken from it */
static void save(struct srep_session *s, struct rstream *st)
{
	st->in = s->in;
	st->pos = s->pos;
	st->end = s->data_end;
	st->dc = s->dc;
	st->dc_off = s->dc_off;
}

static void load(struct srep_session *s, const struct rstream *st)
{
	s->in = st->in;
	s->pos = st->pos;
	s->data_end = st->end;
	s->dc = st->dc;
	s->dc_off = st->dc_off;
	s->src_path = st->path;
}

static int open_stream(struct srep_session *s, struct rstream *st, struct srep_error *err)
{
	int ret = input_open(&st->in, st->path, err);

	if (ret) {
		if (err)
			snprintf(err->path, sizeof(err->path), "%s", st->path);
		return ret;
	}
	st->opened = true;
	st->start = st->pos = 0;
	st->end = st->in.size;
	(void)s;
	return 0;
}

int streams_pick(struct srep_session *s, struct srep_error *err)
{
	struct rstream *cur = &s->streams[s->cur_stream], *st;
	size_t i, best = SIZE_MAX;

	save(s, cur);
	cur->done = cur->pos >= cur->end;
	for (i = 0; i < s->nr_streams; i++) {
		st = &s->streams[i];
		if (!st->done && (best == SIZE_MAX || st->last_time < s->streams[best].last_time))
			best = i;
	}
	if (best == SIZE_MAX || best == s->cur_stream)
		return 0;
	st = &s->streams[best];
	if (!st->opened && best) {
		int ret = open_stream(s, st, err);

		if (ret)
			return ret;
	}
	s->cur_stream = best;
	load(s, st);
	return 0;
}

void streams_note_time(struct srep_session *s, uint64_t time)
{
	s->streams[s->cur_stream].last_time = time;
}

void streams_reset(struct srep_session *s)
{
	size_t i;

	save(s, &s->streams[s->cur_stream]);
	for (i = 0; i < s->nr_streams; i++) {
		struct rstream *st = &s->streams[i];

		st->pos = st->start;
		st->done = false;
		st->last_time = 0;
		if (st->dc)
			decomp_reset(st->dc);
	}
	s->cur_stream = 0;
	load(s, &s->streams[0]);
}

/* the main stream's input is the session's own; the others are closed here */
void streams_free(struct srep_session *s)
{
	size_t i;

	if (!s->streams)
		return;
	save(s, &s->streams[s->cur_stream]);
	for (i = 1; i < s->nr_streams; i++) {
		if (s->streams[i].opened)
			input_close(&s->streams[i].in);
		decomp_free(s->streams[i].dc);
		free(s->streams[i].path);
	}
	load(s, &s->streams[0]);
	free(s->streams);
	s->streams = NULL;
	s->nr_streams = 0;
}
