// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scale.c - --scale, --scale-run and --scale-sleep: every recorded duration
 * divided by a factor, CPU bursts by one, timed sleeps by the other.
 *
 * A timed sleep ends at an absolute deadline: its offset from the task's
 * anchor (the task's start, or the end of its last WAIT, which another
 * mockup decides). Between anchors the recorded time splits into sleep
 * time (timed sleeps, divided by the sleep factor) and everything else
 * (CPU, waiting for a CPU: divided by the run factor); both sums are kept in
 * integers and divided once, so rounding never accumulates.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "replay.h"

uint64_t rp_scale__ns(uint64_t ns, double factor)
{
	double q = (double)ns / factor + 0.5;

	return q >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)q;
}

int rp_scale__parse(const char *spec, const char *what, double *out, struct srep_error *err)
{
	char *end;
	double v;

	errno = 0;
	v = spec && (isdigit((unsigned char)*spec) || *spec == '.') ? strtod(spec, &end) : NAN;
	if (isnan(v) || *end || errno == ERANGE || !isfinite(v) || v <= 0)
		return srep_error__set(err, SREP_E_INVAL,
				       "%s '%s': expected a finite factor greater than 0 (10, 0.5)",
				       what, spec ? spec : "");
	*out = v;
	return 0;
}

/* the part of [anchor, t] that was not timed sleep goes by 'run', the rest by 'sleep' */
static uint64_t scaled_offset(uint64_t total, uint64_t slept, double run, double sleep)
{
	uint64_t other = total > slept ? total - slept : 0;

	return rp_scale__ns(other, run) + rp_scale__ns(slept, sleep);
}

void rp_scale__action(const struct rp_plan *p, uint64_t *anchor, uint64_t *slept,
		      struct rp_action *a)
{
	uint64_t end;

	if (!(p->scale_run > 0 && p->scale_sleep > 0))
		return;		/* not scaled yet: the plan is being built */
	switch (a->kind) {
	case RP_RUN:
		a->scaled = rp_scale__ns(a->rec_ns, p->scale_run);
		break;
	case RP_SLEEP:
		*slept += a->rec_ns;
		end = a->rec_time + a->rec_ns;
		a->scaled = scaled_offset(end > *anchor ? end - *anchor : 0, *slept,
					  p->scale_run, p->scale_sleep);
		break;
	case RP_WAIT:
		*anchor = a->rec_time + a->rec_ns;
		*slept = 0;
		break;
	default:
		break;
	}
}

/* the task's totals; its actions are scaled as cursors read them (rp_scale__action) */
static void scale_task(struct rp_task *t, uint64_t origin, double run, double sleep)
{
	t->start_off = rp_scale__ns(t->start - origin, run);
	t->expected_cpu = rp_scale__ns(t->cpu_ns, run);
	t->expected_span = scaled_offset(t->end - t->start, t->sleep_ns, run, sleep);
}

int rp_plan__scale(struct rp_plan *p, double run, double sleep, struct srep_error *err)
{
	size_t i;

	if (!isfinite(run) || run <= 0 || !isfinite(sleep) || sleep <= 0)
		return srep_error__set(err, SREP_E_INVAL, "scale factors must be finite and > 0");
	p->scale_run = run;
	p->scale_sleep = sleep;
	p->expected_span = 0;
	for (i = 0; i < p->nr_tasks; i++) {
		struct rp_task *t = &p->tasks[i];

		scale_task(t, p->origin, run, sleep);
		if (t->start_off + t->expected_span > p->expected_span)
			p->expected_span = t->start_off + t->expected_span;
	}
	return 0;
}
