// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - small helpers the recorder's modules share: a growable byte
 * buffer with writers in the file's byte order, reading procfs/sysfs/tracefs
 * files (whose size stat() does not tell), and CPU lists.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_local.h"

int buf_reserve(struct rec_buf *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (more <= b->cap - b->len)
		return 0;
	if (more > SIZE_MAX / 2 - b->len)
		return -1;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

int buf_put(struct rec_buf *b, const void *p, size_t n)
{
	if (buf_reserve(b, n))
		return -1;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

int buf_zero(struct rec_buf *b, size_t n)
{
	if (buf_reserve(b, n))
		return -1;
	memset(b->p + b->len, 0, n);
	b->len += n;
	return 0;
}

int buf_u16(struct rec_buf *b, uint16_t v)
{
	uint8_t x[2];

	srep_put16(x, v, REC_BE);
	return buf_put(b, x, sizeof(x));
}

int buf_u32(struct rec_buf *b, uint32_t v)
{
	uint8_t x[4];

	srep_put32(x, v, REC_BE);
	return buf_put(b, x, sizeof(x));
}

int buf_u64(struct rec_buf *b, uint64_t v)
{
	uint8_t x[8];

	srep_put64(x, v, REC_BE);
	return buf_put(b, x, sizeof(x));
}

int buf_str64(struct rec_buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + REC_NAME_ALIGN - 1) / REC_NAME_ALIGN * REC_NAME_ALIGN;

	if (padded > UINT32_MAX || buf_u32(b, (uint32_t)padded) || buf_put(b, s, n - 1))
		return -1;
	return buf_zero(b, padded - (n - 1));
}

void buf_free(struct rec_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* these files are small; the cap only stops a runaway read */
#define TEXT_FILE_MAX (64u << 20)

int read_text_file(const char *path, char **out, size_t *len)
{
	struct rec_buf b = { 0 };
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;

	if (fd < 0)
		return -1;
	for (;;) {
		if (buf_reserve(&b, 4097)) {
			errno = ENOMEM;
			goto fail;
		}
		r = read(fd, b.p + b.len, b.cap - b.len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		b.len += (size_t)r;
		if (b.len > TEXT_FILE_MAX) {
			errno = EFBIG;
			goto fail;
		}
	}
	close(fd);
	b.p[b.len] = '\0';
	*out = (char *)b.p;
	if (len)
		*len = b.len;
	return 0;
fail:
	saved = errno;
	close(fd);
	buf_free(&b);
	errno = saved;
	return -1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* CPU numbers above this are not real machines but typos */
#define CPU_NUMBER_MAX 65535

static int add_range(int **cpus, size_t *nr, size_t *cap, long lo, long hi)
{
	long c;

	for (c = lo; c <= hi; c++) {
		if (*nr == *cap) {
			size_t ncap = *cap ? *cap * 2 : 16;
			int *n = realloc(*cpus, ncap * sizeof(*n));

			if (!n)
				return -1;
			*cpus = n;
			*cap = ncap;
		}
		(*cpus)[(*nr)++] = (int)c;
	}
	return 0;
}

bool cpulist_has(const int *cpus, size_t nr, int cpu)
{
	return nr && bsearch(&cpu, cpus, nr, sizeof(*cpus), cmp_int);
}

int cpulist_parse(const char *s, int **cpus, size_t *nr, struct srep_error *err)
{
	const char *p = s;
	size_t cap = 0, i, k;
	char *end;
	long lo, hi;

	*cpus = NULL;
	*nr = 0;
	while (*p && *p != '\n') {
		lo = strtol(p, &end, 10);
		hi = lo;
		if (end == p || lo < 0)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo)
				goto bad;
		}
		if (hi > CPU_NUMBER_MAX)
			goto bad;
		if (add_range(cpus, nr, &cap, lo, hi)) {
			free(*cpus);
			*cpus = NULL;
			return srep_error__set(err, SREP_E_NOMEM, "no memory for the CPU list");
		}
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (!*nr)
		goto bad;
	qsort(*cpus, *nr, sizeof(**cpus), cmp_int);
	for (i = 1, k = 1; i < *nr; i++) {
		if ((*cpus)[i] != (*cpus)[k - 1])
			(*cpus)[k++] = (*cpus)[i];
	}
	*nr = k;
	return 0;
bad:
	free(*cpus);
	*cpus = NULL;
	*nr = 0;
	return srep_error__set(err, SREP_E_INVAL, "bad CPU list '%s': expected numbers and ranges like 0-3,6",
			       s);
}
