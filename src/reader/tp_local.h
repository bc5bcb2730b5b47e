/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tp_local.h - what tp.c (formats, payloads) and tp_blob.c (the tracing data
 * blob) share. Only those two files include libtraceevent.
 */
#ifndef SREP_TP_LOCAL_H
#define SREP_TP_LOCAL_H

#include <event-parse.h>

#include "reader.h"

struct tp_event;

struct tp_ctx {
	struct tep_handle *tep;
	bool seen;			/* a blob arrived: later ones are ignored */
	bool has_data;			/* ... and parsed */
	bool big_endian;
	struct tp_event *events;
};

#endif /* SREP_TP_LOCAL_H */
