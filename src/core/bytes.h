/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bytes.h - the only place where byte order is handled.
 *
 * Every fixed-width value read from (or written to) a trace goes through
 * these helpers: a bounded cursor over untrusted bytes, readers that take
 * the file's byte order as a flag, and writers for the formats we produce.
 * File bytes are never cast to structs and never swapped in place.
 */
#ifndef SREP_BYTES_H
#define SREP_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t srep_bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t srep_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t srep_bswap64(uint64_t v) { return __builtin_bswap64(v); }

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SREP_HOST_BIG_ENDIAN 1
#else
#define SREP_HOST_BIG_ENDIAN 0
#endif

/* read a value stored in a byte order that differs from the host's when 'swap' */
static inline uint16_t srep_get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? srep_bswap16(v) : v;
}

static inline uint32_t srep_get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? srep_bswap32(v) : v;
}

static inline uint64_t srep_get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? srep_bswap64(v) : v;
}

/* unsigned value of 1, 2, 4 or 8 bytes; other sizes read as 0 and return false */
static inline bool srep_get_uint(const void *p, unsigned size, bool swap, uint64_t *out)
{
	switch (size) {
	case 1: *out = *(const uint8_t *)p; return true;
	case 2: *out = srep_get16(p, swap); return true;
	case 4: *out = srep_get32(p, swap); return true;
	case 8: *out = srep_get64(p, swap); return true;
	default: *out = 0; return false;
	}
}

/* sign-extend the low 'size' bytes of v */
static inline int64_t srep_sign_extend(uint64_t v, unsigned size)
{
	unsigned shift;

	if (!size)
		return 0;
	shift = size >= 8 ? 0 : 64 - 8 * size;
	return (int64_t)(v << shift) >> shift;
}

/* swap flag for data written in big-endian (true) or little-endian order */
static inline bool srep_swap_for(bool data_big_endian)
{
	return data_big_endian != SREP_HOST_BIG_ENDIAN;
}

/* writers: 'big_endian' is the byte order to produce */
static inline void srep_put16(void *p, uint16_t v, bool big_endian)
{
	if (srep_swap_for(big_endian))
		v = srep_bswap16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void srep_put32(void *p, uint32_t v, bool big_endian)
{
	if (srep_swap_for(big_endian))
		v = srep_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void srep_put64(void *p, uint64_t v, bool big_endian)
{
	if (srep_swap_for(big_endian))
		v = srep_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* v as 1, 2, 4 or 8 bytes (srep_get_uint's other half); other sizes write nothing */
static inline void srep_put_uint(void *p, unsigned size, uint64_t v, bool big_endian)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: srep_put16(p, (uint16_t)v, big_endian); break;
	case 4: srep_put32(p, (uint32_t)v, big_endian); break;
	case 8: srep_put64(p, v, big_endian); break;
	default: break;
	}
}

/*
 * Bounded cursor over untrusted bytes. 'off' is the input offset of 'p' so
 * errors can name where the data stopped making sense.
 */
struct srep_cur {
	const uint8_t *p, *end;
	uint64_t off;
	bool swap;
};

static inline void srep_cur_init(struct srep_cur *c, const void *p, size_t len,
				 uint64_t off, bool swap)
{
	c->p = p;
	c->end = c->p + len;
	c->off = off;
	c->swap = swap;
}

static inline size_t srep_cur_left(const struct srep_cur *c)
{
	return (size_t)(c->end - c->p);
}

static inline bool srep_cur_skip(struct srep_cur *c, size_t n)
{
	if (srep_cur_left(c) < n)
		return false;
	c->p += n;
	c->off += n;
	return true;
}

static inline bool srep_cur_u8(struct srep_cur *c, uint8_t *v)
{
	if (srep_cur_left(c) < 1)
		return false;
	*v = *c->p;
	return srep_cur_skip(c, 1);
}

static inline bool srep_cur_u16(struct srep_cur *c, uint16_t *v)
{
	if (srep_cur_left(c) < 2)
		return false;
	*v = srep_get16(c->p, c->swap);
	return srep_cur_skip(c, 2);
}

static inline bool srep_cur_u32(struct srep_cur *c, uint32_t *v)
{
	if (srep_cur_left(c) < 4)
		return false;
	*v = srep_get32(c->p, c->swap);
	return srep_cur_skip(c, 4);
}

static inline bool srep_cur_u64(struct srep_cur *c, uint64_t *v)
{
	if (srep_cur_left(c) < 8)
		return false;
	*v = srep_get64(c->p, c->swap);
	return srep_cur_skip(c, 8);
}

/* borrow 'n' raw bytes (not swapped) */
static inline bool srep_cur_bytes(struct srep_cur *c, size_t n, const uint8_t **out)
{
	if (srep_cur_left(c) < n)
		return false;
	*out = c->p;
	return srep_cur_skip(c, n);
}

#endif /* SREP_BYTES_H */
