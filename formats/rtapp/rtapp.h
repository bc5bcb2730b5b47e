/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtapp.h - the rt-app exporter: replay's plan (replay/plan.c), written as
 * a workload for rt-app 1.0 (docs/rtapp.md). rtapp.c is the exporter
 * (options, the plan built from convert's events); rtapp_write.c turns a
 * scaled plan into the JSON rt-app reads.
 */
#ifndef SREP_RTAPP_H
#define SREP_RTAPP_H

#include <stdint.h>

#include "emit.h"
#include "replay.h"

/* rt-app sets a thread's name with pthread_setname_np: 15 bytes at most */
#define RTAPP_NAME_MAX 15

struct rtapp_opts {
	double scale, scale_run, scale_sleep;	/* 0: not given */
	struct rp_run_opts run;			/* cpu_map (NONE or LIST) and keep_prio */
	double calibration;			/* ns per loop (may have a fraction); 0: rt-app
						 * calibrates on CPU0 */
	int32_t event_cost;			/* ns of rt-app's own CPU per wait, wake, sleep */
	int32_t duration;			/* s; 0: from the span; -1: until every task ends */
	const char *log_dir;			/* rt-app's logdir (must exist when it runs) */
};

/* the rt-app task names of the plan's tasks: the comm, made unique and safe */
int rtapp_names(const struct rp_plan *p, char (**out)[RTAPP_NAME_MAX + 1],
		struct srep_error *err);

/* write a scaled plan as rt-app JSON into 'e' (the caller flushes) */
int rtapp_write(struct emit *e, const struct rp_plan *p, const struct rtapp_opts *o,
		struct srep_error *err);

#endif /* SREP_RTAPP_H */
