/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what the libFuzzer targets of tests/fuzz/ share: read every
 * event of a session and look at every field, as the commands do.
 */
#ifndef SREP_FUZZ_H
#define SREP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>

/* the events of a session, each field of each read; returns the last status */
int fuzz_read_all(struct srep_session *s);

#endif
