// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint_source.c - which sampled event counts the execution, in what
 * unit, and the count each of its samples stands for.
 */
#include <string.h>

#include <schedrep/simpoint.h>

/* perf_event_attr constants of the kernel ABI (linux/perf_event.h) */
enum {
	SP_TYPE_HARDWARE = 0, SP_TYPE_SOFTWARE = 1, SP_TYPE_TRACEPOINT = 2,
	SP_HW_CYCLES = 0, SP_HW_INSTRUCTIONS = 1,
	SP_SW_CPU_CLOCK = 0, SP_SW_TASK_CLOCK = 1, SP_SW_DUMMY = 9,
};
#define SP_SAMPLE_PERIOD (1ull << 8)	/* PERF_SAMPLE_PERIOD */

static const char *unit_of(uint32_t type, uint64_t config)
{
	if (type == SP_TYPE_HARDWARE && config == SP_HW_CYCLES)
		return "cycles";
	if (type == SP_TYPE_HARDWARE && config == SP_HW_INSTRUCTIONS)
		return "instructions";
	if (type == SP_TYPE_SOFTWARE && (config == SP_SW_CPU_CLOCK || config == SP_SW_TASK_CLOCK))
		return "ns";
	return "events";
}

/*
 * Samples of event @i stand for a count: their own period, or the attr's
 * fixed one. Tracepoints and perf's side-band "dummy" event count nothing.
 */
static bool has_period(const struct srep_session *s, size_t i, uint64_t *fixed)
{
	bool freq;
	uint64_t p = srep_session__evsel_sample_period(s, i, &freq);

	*fixed = 0;
	if (srep_session__evsel_type(s, i) == SP_TYPE_TRACEPOINT ||
	    (srep_session__evsel_type(s, i) == SP_TYPE_SOFTWARE &&
	     srep_session__evsel_config(s, i) == SP_SW_DUMMY))
		return false;
	if (srep_session__evsel_sample_type(s, i) & SP_SAMPLE_PERIOD)
		return true;
	*fixed = freq ? 0 : p;
	return *fixed > 0;
}

int srep_simpoint_event__find(struct srep_simpoint_event *out, const struct srep_session *s,
			      const char *name, struct srep_error *err)
{
	size_t i, n = srep_session__nr_evsels(s);
	const char *en;

	for (i = 0; i < n; i++) {
		en = srep_session__evsel_name(s, i);
		if (name && (!en || strcmp(en, name)))
			continue;
		if (!has_period(s, i, &out->fixed_period)) {
			if (name)
				break;
			continue;
		}
		out->evsel = i;
		out->name = en ? en : "?";
		out->unit = unit_of(srep_session__evsel_type(s, i), srep_session__evsel_config(s, i));
		return 0;
	}
	if (name)
		return srep_error__set(err, SREP_E_UNSUPPORTED, "'%s': %s '%s' (perf record -e %s "
				       "-c N records one)", srep_session__meta(s)->path,
				       i < n ? "no period in the samples of" : "no event", name, name);
	return srep_error__set(err, SREP_E_UNSUPPORTED, "'%s': no samples with periods (perf record "
			       "-e instructions:u -c 1000000 records them)",
			       srep_session__meta(s)->path);
}

uint64_t srep_simpoint_event__period(const struct srep_simpoint_event *e,
				     const struct srep_event *ev)
{
	if (ev->kind != SREP_EV_SAMPLE || ev->evsel < 0 || (size_t)ev->evsel != e->evsel)
		return 0;
	return e->fixed_period ? e->fixed_period : ev->period;
}
