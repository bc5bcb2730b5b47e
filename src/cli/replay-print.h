/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay-print.h - the text "schedrep replay" prints: the plan (--dry-run)
 * and the fidelity table. Between cmd-replay.c and replay-print.c only.
 */
#ifndef SREP_REPLAY_PRINT_H
#define SREP_REPLAY_PRINT_H

#include <stdio.h>

#include "replay.h"

/* how the tasks were chosen, for the plan's header */
struct replay_choice {
	const char *trace;
	size_t nr_trace_tasks;		/* in the trace */
	const struct rp_defaults *def;	/* NULL: --only was given */
};

void replay_print_plan(FILE *f, const struct rp_plan *p, const struct replay_choice *c);
void replay_print_report(FILE *f, const struct rp_report *rep, const struct rp_plan *p,
			 const char *trace, unsigned runs);

#endif
