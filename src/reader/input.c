// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.c - bounded access to the input bytes.
 *
 * Regular files are read through read-only mmap windows (no per-record
 * system calls; resident memory bounded by the window size however large
 * the file). Records waiting in the reorder queue keep their window mapped
 * (input_hold) instead of being copied; it goes when the last one is
 * delivered, so at most a window or two beyond the current one stay. Pipes and standard input are read into a growing buffer whose
 * consumed front is dropped as the reader moves on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

#define WINDOW_SIZE	(2u << 20)	/* mapped at a time: bounds resident file pages */
#define RECORD_MAX	65536u		/* a record's most: its header's size is 16 bits */
#define PIPE_READ_SIZE	(1u << 20)	/* one read() from a pipe asks for this much */

static int io_error(struct srep_error *err, const char *what)
{
	return srep_error__set(err, SREP_E_IO, "%s: %s", what, strerror(errno));
}

int input_open(struct srep_input *in, const char *path, struct srep_error *err)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	if (strcmp(path, "-") == 0) {
		in->fd = dup(STDIN_FILENO);
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (in->fd < 0)
		return io_error(err, "cannot open");
	if (fstat(in->fd, &st) < 0) {
		close(in->fd);
		return io_error(err, "cannot stat");
	}
	if (S_ISDIR(st.st_mode)) {	/* perf.data directories open through streams.c */
		close(in->fd);
		return srep_error__set(err, SREP_E_UNSUPPORTED, "is a directory");
	}
	in->is_file = S_ISREG(st.st_mode);
	in->size = in->is_file ? (uint64_t)st.st_size : 0;
	return 0;
}

/* the bytes are the caller's: one window over all of them, never remapped */
void input_open_mem(struct srep_input *in, const void *buf, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->is_file = true;
	in->in_memory = true;
	in->size = len;
	in->map = (uint8_t *)buf;
	in->map_len = len;
}

static void window_free(struct input_window *w)
{
	prefetch_unmap(w->pf, w->map, w->len);
	free(w);
}

/* the current window is left: unmapped now, or by the last record it lends */
static void retire_window(struct srep_input *in)
{
	struct input_window *w = in->win;

	in->win = NULL;
	in->map = NULL;
	if (!w)
		return;
	if (w->holds) {
		w->retired = true;
		return;
	}
	window_free(w);
}

void input_close(struct srep_input *in)
{
	prefetch_free(in->pf);
	retire_window(in);
	free(in->buf);
	if (in->fd >= 0)
		close(in->fd);
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}

/*
 * The window after the current one, for prefetch.c's thread to map while
 * this one is read: it starts a record's most before this one's end, so
 * the record that crosses the edge lies wholly in it. Files of a few
 * windows are mapped as they come.
 */
static void ask_next(struct srep_input *in)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t end = in->map_off + in->map_len, start;

	if (!in->pf && !in->pf_tried && in->size > 2 * (uint64_t)WINDOW_SIZE) {
		in->pf_tried = true;
		in->pf = prefetch_new(in->fd);
	}
	if (!in->pf || end >= in->size || end < RECORD_MAX)
		return;
	start = (end - RECORD_MAX) & ~(page - 1);
	prefetch_ask(in->pf, start, in->size - start < WINDOW_SIZE ? (size_t)(in->size - start) :
				    WINDOW_SIZE);
}

static int map_window(struct srep_input *in, uint64_t off, size_t len, struct srep_error *err)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = off & ~(page - 1);
	size_t want = (size_t)(off - start) + len;
	struct input_window *w;
	void *p;

	if (want < WINDOW_SIZE)
		want = WINDOW_SIZE;
	if (start + want > in->size)
		want = (size_t)(in->size - start);
	retire_window(in);
	w = calloc(1, sizeof(*w));
	if (!w)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for an input window");
	p = in->pf ? prefetch_take(in->pf, off, len, &start, &want) : NULL;
	/* one populate call is cheaper than a page fault per 64 KiB as we walk */
	if (!p && !(p = prefetch_map(in->fd, start, want))) {
		free(w);
		return io_error(err, "cannot map the input");
	}
	w->map = p;
	w->len = want;
	w->pf = prefetch_get(in->pf);
	in->win = w;
	in->map = p;
	in->map_off = start;
	in->map_len = want;
	ask_next(in);
	return 0;
}

static int get_file(struct srep_input *in, uint64_t off, size_t len, const uint8_t **p,
		    size_t *avail, struct srep_error *err)
{
	int ret;

	if (off > in->size || len > in->size - off) {
		*avail = off < in->size ? in->size - off : 0;
		return SREP_E_TRUNCATED;
	}
	if (!in->map || off < in->map_off || off + len > in->map_off + in->map_len) {
		ret = map_window(in, off, len, err);
		if (ret)
			return ret;
	}
	*p = in->map + (off - in->map_off);
	return 0;
}

/* make room for 'need' bytes from buf_off, keeping what is buffered */
static int pipe_reserve(struct srep_input *in, size_t need, struct srep_error *err)
{
	size_t cap = in->buf_cap ? in->buf_cap : PIPE_READ_SIZE;
	uint8_t *nb;

	if (need <= in->buf_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	nb = realloc(in->buf, cap);
	if (!nb)
		return srep_error__set(err, SREP_E_NOMEM, "cannot buffer %zu bytes of input", need);
	in->buf = nb;
	in->buf_cap = cap;
	return 0;
}

static int get_pipe(struct srep_input *in, uint64_t off, size_t len, const uint8_t **p,
		    size_t *avail, struct srep_error *err)
{
	size_t need;
	ssize_t r;
	int ret;

	SREP_BUG_ON(off < in->buf_off);
	if (len > SREP_MAX_BLOB + 65536u)
		return srep_error__set(err, SREP_E_LIMIT, "a %zu-byte read is above the limit", len);
	need = (size_t)(off - in->buf_off) + len;
	while (in->buf_len < need && !in->eof) {
		ret = pipe_reserve(in, in->buf_len + PIPE_READ_SIZE > need ?
				   in->buf_len + PIPE_READ_SIZE : need, err);
		if (ret)
			return ret;
		r = read(in->fd, in->buf + in->buf_len, in->buf_cap - in->buf_len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return io_error(err, "cannot read the input");
		if (r == 0)
			in->eof = true;
		in->buf_len += (size_t)r;
	}
	if (in->buf_len < need) {
		*avail = in->buf_len > off - in->buf_off ? in->buf_len - (size_t)(off - in->buf_off) : 0;
		return SREP_E_TRUNCATED;
	}
	*p = in->buf + (off - in->buf_off);
	return 0;
}

int input_get_slow(struct srep_input *in, uint64_t off, size_t len, const uint8_t **p,
		   size_t *avail, struct srep_error *err)
{
	size_t dummy;
	int ret;

	if (!avail)
		avail = &dummy;
	ret = in->is_file ? get_file(in, off, len, p, avail, err)
			  : get_pipe(in, off, len, p, avail, err);
	if (ret == 0 && off + len > in->consumed)
		in->consumed = off + len;
	return ret;
}

void input_release(struct srep_input *in, uint64_t off)
{
	size_t drop;

	if (in->is_file || off <= in->buf_off)
		return;
	drop = (size_t)(off - in->buf_off);
	if (drop > in->buf_len)
		drop = in->buf_len;
	/* move the tail only when the dead front is large: keeps copying rare */
	if (drop < in->buf_cap / 2 && in->buf_len - drop > 0)
		return;
	memmove(in->buf, in->buf + drop, in->buf_len - drop);
	in->buf_len -= drop;
	in->buf_off += drop;
}

struct input_window *input_hold(struct srep_input *in, const uint8_t *p, size_t len)
{
	struct input_window *w = in->win;

	if (!w || p < w->map || len > w->len || (size_t)(p - w->map) > w->len - len)
		return NULL;
	w->holds++;
	return w;
}

void input_unhold(struct input_window *w)
{
	if (--w->holds || !w->retired)
		return;
	window_free(w);
}

static int tmpfile_fd(struct srep_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "%s/schedrep-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return io_error(err, "cannot create a temporary file");
	unlink(path);
	return fd;
}

static int write_all(int fd, const uint8_t *p, size_t len, struct srep_error *err)
{
	ssize_t w;

	while (len) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return io_error(err, "cannot write the temporary copy of the input");
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* stream the rest of the pipe into 'fd' through the buffer, bounded memory */
static int copy_pipe(struct srep_input *in, int fd, uint64_t *total, struct srep_error *err)
{
	ssize_t r;
	int ret;

	ret = write_all(fd, in->buf, in->buf_len, err);
	*total = in->buf_len;
	while (!ret && !in->eof) {
		ret = pipe_reserve(in, PIPE_READ_SIZE, err);
		if (ret)
			break;
		r = read(in->fd, in->buf, in->buf_cap);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return io_error(err, "cannot read the input");
		if (r == 0)
			in->eof = true;
		ret = write_all(fd, in->buf, (size_t)r, err);
		*total += (uint64_t)r;
	}
	return ret;
}

int input_spool(struct srep_input *in, struct srep_error *err)
{
	struct srep_input file;
	uint64_t total;
	int fd, ret;

	if (in->is_file)
		return 0;
	SREP_BUG_ON(in->buf_off != 0);
	fd = tmpfile_fd(err);
	if (fd < 0)
		return fd;
	ret = copy_pipe(in, fd, &total, err);
	if (ret) {
		close(fd);
		return ret;
	}
	memset(&file, 0, sizeof(file));
	file.fd = fd;
	file.is_file = true;
	file.size = total;
	input_close(in);
	*in = file;
	return 0;
}
