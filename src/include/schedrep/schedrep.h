/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep.h - the public API of libschedrep: a portable perf.data reader
 * that turns a trace from any architecture, byte order, word size and perf
 * version into one neutral, time-ordered stream of scheduler events.
 *
 * Everything outside the library (the CLI, formats/, replay/) uses these
 * headers only; this one includes them all.
 * Conventions (see docs/design.md):
 *  - fallible calls take 'struct srep_error *err' last and return 0 or a
 *    negative SREP_E_* code; 'err' is untouched on success;
 *  - iterators return 1 (got one), 0 (end) or a negative code;
 *  - pointers returned by accessors are borrowed from their owner and live as
 *    long as the owner unless the comment says otherwise;
 *  - the library never prints.
 */
#ifndef SCHEDREP_H
#define SCHEDREP_H

#include <schedrep/error.h>
#include <schedrep/session.h>
#include <schedrep/select.h>
#include <schedrep/analysis.h>
#include <schedrep/symbols.h>
#include <schedrep/schema.h>
#include <schedrep/perfsched.h>
#include <schedrep/simpoint.h>
#include <schedrep/text.h>

#endif /* SCHEDREP_H */
