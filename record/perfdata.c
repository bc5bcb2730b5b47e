// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perfdata.c - a perf.data being written, in file or pipe mode.
 *
 * File mode keeps the file readable at every moment, so a crash, SIGKILL or
 * full disk leaves a trace that perf and schedrep read up to the last round
 * committed. The layout is
 *
 *	header | id arrays | attrs | feature payloads | data ... | feature table
 *
 * Everything but the data and the table is written once, first. The table
 * must sit right after the data (perf finds it at data.offset + data.size),
 * so it moves as data grows. A commit makes the data written so far count:
 *
 *	1. hide the features (clear the header's bitmap),
 *	2. write the first bytes of the new data, held back until now because
 *	   they overwrite the old table,
 *	3. write the table after the new data,
 *	4. one write of data.size and the bitmap.
 *
 * Between 1 and 4 the file is the previous commit without features; at
 * every other moment it is a complete perf.data. The data written after a
 * commit never touches the table except through the held bytes, and a
 * commit that fails (a full disk) puts the previous one back.
 *
 * Pipe mode writes perf's stream: a 16-byte header, one ATTR record per
 * event, the features as FEATURE records ending with perf 6.1's end mark,
 * the tracing data as a TRACING_DATA record, then the records.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_local.h"

#define PERF_MAGIC2	0x32454c4946524550ull	/* "PERFILE2" */
#define FILE_HEADER	104u
#define PIPE_HEADER	16u
#define OFF_DATA_SIZE	48u			/* data.size, then event_types, then bitmap */
#define OFF_BITMAP	72u

static int io_error(struct pd_out *o, const char *what, struct srep_error *err)
{
	int e = errno;

	return srep_error__set(err, SREP_E_IO, "'%s': cannot %s: %s%s", o->path, what, strerror(e),
			       e == ENOSPC && o->begun && !o->pipe ?
			       " (the file stays readable up to the last round written)" : "");
}

static int pwrite_all(struct pd_out *o, const void *p, size_t len, uint64_t off,
		      struct srep_error *err)
{
	const uint8_t *b = p;
	ssize_t r;

	while (len) {
		r = pwrite(o->fd, b, len, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			return io_error(o, "write", err);
		}
		b += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

static int write_all(struct pd_out *o, const void *p, size_t len, struct srep_error *err)
{
	struct pollfd pfd = { o->fd, POLLOUT, 0 };
	const uint8_t *b = p;
	ssize_t r;

	while (len) {
		r = write(o->fd, b, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			poll(&pfd, 1, -1);
			continue;
		}
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			return io_error(o, "write", err);
		}
		b += r;
		len -= (size_t)r;
		o->bytes += (uint64_t)r;
	}
	return 0;
}

static void put_header(uint8_t *p, uint32_t type, uint16_t size)
{
	srep_put32(p, type, REC_BE);
	srep_put16(p + 4, 0, REC_BE);
	srep_put16(p + 6, size, REC_BE);
}

/* ---- file mode ---- */

static int begin_file(struct pd_out *o, const struct pd_meta *m, struct srep_error *err)
{
	const struct rec_evlist *el = m->el;
	struct rec_buf *b = &o->scratch;
	uint64_t attrs_off, ids_off = FILE_HEADER, off;
	size_t i, j;

	b->len = 0;
	if (buf_zero(b, FILE_HEADER))
		goto nomem;
	for (i = 0; i < el->nr; i++) {
		for (j = 0; j < el->ev[i].nr_ids; j++) {
			if (buf_u64(b, el->ev[i].ids[j]))
				goto nomem;
		}
	}
	attrs_off = b->len;
	for (i = 0; i < el->nr; i++) {
		if (evlist_put_attr(b, &el->ev[i].attr) || buf_u64(b, ids_off) ||
		    buf_u64(b, 8 * (uint64_t)el->ev[i].nr_ids))
			goto nomem;
		ids_off += 8 * (uint64_t)el->ev[i].nr_ids;
	}
	o->table_len = 0;
	for (i = 0; i < m->fs->nr; i++) {
		const struct rec_feature *f = &m->fs->f[i];

		off = b->len;
		if (f->id == FEAT_COMPRESSED)
			o->comp_feat_off = off;
		if (buf_put(b, f->payload.p, f->payload.len))
			goto nomem;
		srep_put64(o->table + o->table_len, off, REC_BE);
		srep_put64(o->table + o->table_len + 8, f->payload.len, REC_BE);
		o->table_len += 16;
		o->bitmap[f->id / 64] |= 1ull << (f->id % 64);
	}
	if (buf_zero(b, (8 - b->len % 8) % 8))
		goto nomem;
	o->data_off = b->len;
	srep_put64(b->p, PERF_MAGIC2, REC_BE);
	srep_put64(b->p + 8, FILE_HEADER, REC_BE);
	srep_put64(b->p + 16, REC_FILE_ATTR_SIZE + 16, REC_BE);
	srep_put64(b->p + 24, attrs_off, REC_BE);
	srep_put64(b->p + 32, (uint64_t)el->nr * (REC_FILE_ATTR_SIZE + 16), REC_BE);
	srep_put64(b->p + 40, o->data_off, REC_BE);
	/* data.size 0 and no features until the first commit */
	o->held = malloc(o->table_len ? o->table_len : 1);
	if (!o->held)
		goto nomem;
	o->bytes = o->data_off;
	return pwrite_all(o, b->p, b->len, 0, err);
nomem:
	return srep_error__set(err, SREP_E_NOMEM, "no memory for the perf.data header");
}

/* data bytes at data position 'pos': the ones over the table are held back */
static int file_data(struct pd_out *o, const uint8_t *p, size_t len, struct srep_error *err)
{
	uint64_t pos = o->written;
	size_t hold = 0;

	if (pos < o->committed + o->table_len) {
		hold = (size_t)(o->committed + o->table_len - pos);
		hold = hold < len ? hold : len;
		if (hold)	/* p may be NULL when there is nothing to write */
			memcpy(o->held + o->held_len, p, hold);
		o->held_len += hold;
	}
	if (len > hold && pwrite_all(o, p + hold, len - hold, o->data_off + pos + hold, err))
		return err->code;
	o->written += len;
	return 0;
}

/* data.size and the feature bitmap, in one write: the commit point */
static int put_size_and_bitmap(struct pd_out *o, uint64_t size, struct srep_error *err)
{
	uint8_t hdr[FILE_HEADER - OFF_DATA_SIZE] = { 0 };
	int i;

	srep_put64(hdr, size, REC_BE);
	for (i = 0; i < 4; i++)
		srep_put64(hdr + (OFF_BITMAP - OFF_DATA_SIZE) + 8 * i, o->bitmap[i], REC_BE);
	return pwrite_all(o, hdr, sizeof(hdr), OFF_DATA_SIZE, err);
}

/*
 * A commit that failed half-way (a full disk while writing the new table)
 * puts the previous one back: the table is the same bytes wherever it
 * sits, and its old place is already allocated, so it can be rewritten.
 */
static void undo_commit(struct pd_out *o)
{
	struct srep_error ignored;

	if (o->committed &&
	    !pwrite_all(o, o->table, o->table_len, o->data_off + o->committed, &ignored) &&
	    !put_size_and_bitmap(o, o->committed, &ignored))
		o->visible = true;
}

static int file_commit(struct pd_out *o, struct srep_error *err)
{
	static const uint8_t none[32];

	if (o->written == o->committed)
		return 0;
	if (o->visible && pwrite_all(o, none, sizeof(none), OFF_BITMAP, err))
		return err->code;
	o->visible = false;
	if (pwrite_all(o, o->held, o->held_len, o->data_off + o->committed, err) ||
	    pwrite_all(o, o->table, o->table_len, o->data_off + o->written, err) ||
	    put_size_and_bitmap(o, o->written, err)) {
		undo_commit(o);
		return err->code;
	}
	o->visible = true;
	o->committed = o->written;
	o->held_len = 0;
	o->bytes = o->data_off + o->written + o->table_len;
	return 0;
}

/* ---- pipe mode ---- */

static int record_to(struct rec_buf *b, uint32_t type, const void *body, size_t len,
		     const char *what, struct srep_error *err)
{
	uint8_t h[8];

	if (8 + len > REC_MAX_RECORD)
		return srep_error__set(err, SREP_E_LIMIT,
				       "pipe mode: %s does not fit a record (%zu bytes): record to a file",
				       what, len);
	put_header(h, type, (uint16_t)(8 + len));
	if (buf_put(b, h, 8) || buf_put(b, body, len))
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	return 0;
}

static int pipe_features(struct rec_buf *b, const struct pd_meta *m, struct srep_error *err)
{
	struct rec_buf body = { 0 };
	size_t i;
	int r = 0;

	for (i = 0; i < m->fs->nr && !r; i++) {
		const struct rec_feature *f = &m->fs->f[i];

		if (f->id == FEAT_TRACING_DATA)
			continue;
		body.len = 0;
		if (buf_u64(&body, (uint64_t)f->id) || buf_put(&body, f->payload.p, f->payload.len))
			r = srep_error__set(err, SREP_E_NOMEM, "no memory");
		else
			r = record_to(b, REC_HEADER_FEATURE, body.p, body.len, "a header feature", err);
	}
	body.len = 0;
	if (!r && buf_u64(&body, REC_LAST_FEATURE))
		r = srep_error__set(err, SREP_E_NOMEM, "no memory");
	if (!r)
		r = record_to(b, REC_HEADER_FEATURE, body.p, body.len, "the end of the features", err);
	buf_free(&body);
	return r;
}

static int pipe_tracing(struct rec_buf *b, const struct rec_buf *t, struct srep_error *err)
{
	size_t aligned = (t->len + 7) & ~(size_t)7;
	uint8_t h[16];

	if (aligned > UINT32_MAX)
		return srep_error__set(err, SREP_E_LIMIT, "tracing data too large for pipe mode");
	put_header(h, REC_TRACING_DATA, sizeof(h));
	srep_put32(h + 8, (uint32_t)aligned, REC_BE);
	srep_put32(h + 12, 0, REC_BE);
	/* the blob follows the record, padded to 8 bytes, outside its size */
	if (buf_put(b, h, sizeof(h)) || buf_put(b, t->p, t->len) || buf_zero(b, aligned - t->len))
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	return 0;
}

static int begin_pipe(struct pd_out *o, const struct pd_meta *m, struct srep_error *err)
{
	struct rec_buf *b = &o->scratch, body = { 0 };
	size_t i, j;
	int r = 0;

	b->len = 0;
	if (buf_u64(b, PERF_MAGIC2) || buf_u64(b, PIPE_HEADER))
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	for (i = 0; i < m->el->nr && !r; i++) {
		body.len = 0;
		r = evlist_put_attr(&body, &m->el->ev[i].attr);
		for (j = 0; j < m->el->ev[i].nr_ids && !r; j++)
			r = buf_u64(&body, m->el->ev[i].ids[j]);
		r = r ? srep_error__set(err, SREP_E_NOMEM, "no memory") :
			record_to(b, REC_HEADER_ATTR, body.p, body.len,
				  "an event's list of ids (too many CPUs or threads)", err);
	}
	buf_free(&body);
	if (r || pipe_features(b, m, err) || (m->tracing && pipe_tracing(b, m->tracing, err)))
		return err->code;
	return write_all(o, b->p, b->len, err);
}

/* ---- both ---- */

int pd_begin(struct pd_out *o, int fd, bool pipe, const char *path, const struct pd_meta *m,
	     struct srep_error *err)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->pipe = pipe;
	o->path = path;
	o->comp_mmap_len = m->comp_mmap_len;
	if (m->compress && rz_new(&o->z, SREP_REC_ZSTD_LEVEL, err))
		return err->code;
	if (pipe ? begin_pipe(o, m, err) : begin_file(o, m, err))
		return err->code;
	o->begun = true;
	return 0;
}

static int emit(struct pd_out *o, const void *p, size_t len, struct srep_error *err)
{
	return o->pipe ? write_all(o, p, len, err) : file_data(o, p, len, err);
}

int pd_records(struct pd_out *o, const void *p, size_t len, struct srep_error *err)
{
	o->raw_bytes += len;
	if (!o->z)
		return emit(o, p, len, err);
	o->scratch.len = 0;
	if (rz_compress(o->z, p, len, &o->scratch, err))
		return err->code;
	return emit(o, o->scratch.p, o->scratch.len, err);
}

int pd_finished_round(struct pd_out *o, struct srep_error *err)
{
	uint8_t r[8];

	put_header(r, REC_FINISHED_ROUND, sizeof(r));
	return emit(o, r, sizeof(r), err);
}

int pd_commit(struct pd_out *o, struct srep_error *err)
{
	return o->pipe ? 0 : file_commit(o, err);
}

int pd_finish(struct pd_out *o, struct srep_error *err)
{
	uint8_t comp[20];
	uint64_t packed;

	if (o->pipe)
		return 0;
	if (file_commit(o, err))
		return err->code;
	if (o->z && o->comp_feat_off) {
		/* the ratio perf prints: record bytes over the bytes they took */
		packed = o->written ? o->written : 1;
		features_compressed(comp, (uint32_t)(o->raw_bytes / packed + (o->raw_bytes % packed > packed / 2)),
				    o->comp_mmap_len);
		if (pwrite_all(o, comp, sizeof(comp), o->comp_feat_off, err))
			return err->code;
	}
	return 0;
}

void pd_free(struct pd_out *o)
{
	rz_free(o->z);
	o->z = NULL;
	free(o->held);
	o->held = NULL;
	buf_free(&o->scratch);
}
