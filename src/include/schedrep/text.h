/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.h - numbers as decimal text, fast: the library's text outputs and
 * its tools' (the CLI's lines, the exporters' JSON and SVG) print one or
 * more per event, hundreds of thousands per second, where a printf call
 * costs more than the digits. One writer for all of them.
 */
#ifndef SCHEDREP_TEXT_H
#define SCHEDREP_TEXT_H

#include <stdint.h>

#include <schedrep/error.h>	/* SREP_API */

#define SREP_U64_TEXT_MAX 20	/* digits of UINT64_MAX */

/* the decimal digits of @v written from @out on (at most 20 bytes, no NUL); returns their end */
SREP_API char *srep_u64_text(char *out, uint64_t v);

#endif /* SCHEDREP_TEXT_H */
