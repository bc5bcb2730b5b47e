/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ff-log.h - the JSON files of "schedrep fastforward": the plan it reads
 * (written by "schedrep simpoint") and the log it writes, fastforward.json.
 */
#ifndef SREP_CLI_FF_LOG_H
#define SREP_CLI_FF_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "fastforward.h"

/* a plan's points as targets: starts in increasing order, with the point indexes */
struct ff_plan {
	char *event;			/* NULL when the plan names none */
	uint64_t *starts;
	int64_t *points;		/* the "index" of the point each start came from */
	size_t nr;
};

int ff_plan_read(const char *path, struct ff_plan *p, struct srep_error *err);
void ff_plan_free(struct ff_plan *p);

/* one target's line in the log */
struct ff_log_entry {
	struct srep_ff_stop stop;
	uint64_t interval;		/* distance from the previous target (or exec) */
	int64_t point;			/* plan point index, -1 without a plan */
	char *dir;			/* the target's directory name under the output */
	char *command;			/* the action as run, NULL for none */
	struct srep_ff_action_result action;
};

struct ff_log {
	const char *path;		/* OUT/fastforward.json */
	const char *event, *unit, *stop_method;
	char *const *argv;
	struct ff_log_entry *e;
	size_t nr, cap;
	const struct srep_ff_result *result;	/* NULL while it runs */
	bool gave_up;			/* the workload exited before the next target */
	uint64_t missed_target;
};

/* room for one more entry, zeroed; NULL: no memory */
struct ff_log_entry *ff_log_add(struct ff_log *l);
/* write it whole, atomically: after each target, so an interrupted run keeps its log */
int ff_log_write(const struct ff_log *l, struct srep_error *err);
/* skid median and maximum, in the event's unit and as fractions of the intervals */
void ff_log_skid(const struct ff_log *l, int64_t *median, int64_t *max, double *median_frac,
		 double *max_frac);
void ff_log_free(struct ff_log *l);

#endif /* SREP_CLI_FF_LOG_H */
