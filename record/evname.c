// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evname.c - counting events by perf's names, for 'record -e' and for
 * 'fastforward -e': the software events every kernel has and the generic
 * hardware events (which need a PMU: virtual machines often have none),
 * with perf's :u and :k modifiers. The one table of counter names.
 */
#include <linux/perf_event.h>
#include <string.h>

#include "rec_local.h"

static const struct {
	const char *name, *alias, *unit;
	uint32_t type;
	uint64_t config;
} counters[] = {
	{ "cpu-clock", NULL, "ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, "ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", "switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", "migrations", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "instructions", NULL, "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cycles", "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "branches", "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, "branch misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "cache-references", NULL, "references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, "misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "bus-cycles", NULL, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", NULL, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

static int unknown(const char *name, struct srep_error *err)
{
	return srep_error__set(err, SREP_E_INVAL,
			       "unknown event '%s': give a software event (cpu-clock, task-clock, "
			       "context-switches, page-faults, ...) or a hardware one (instructions, "
			       "cycles, branches, ...), optionally with :u or :k", name);
}

int srep_rec_counter__parse(const char *name, struct srep_rec_counter *out,
			    struct srep_error *err)
{
	const char *colon = strchr(name, ':');
	size_t len = colon ? (size_t)(colon - name) : strlen(name), i;

	memset(out, 0, sizeof(*out));
	/* perf's modifiers; "dummy:HG" and tracepoints are not counters */
	if (colon && strcmp(colon + 1, "u") && strcmp(colon + 1, "k"))
		return unknown(name, err);
	for (i = 0; i < NR_COUNTERS; i++) {
		if ((strlen(counters[i].name) == len && !strncmp(name, counters[i].name, len)) ||
		    (counters[i].alias && strlen(counters[i].alias) == len &&
		     !strncmp(name, counters[i].alias, len)))
			break;
	}
	if (i == NR_COUNTERS)
		return unknown(name, err);
	out->name = counters[i].name;
	out->unit = counters[i].unit;
	out->type = counters[i].type;
	out->config = counters[i].config;
	if (colon) {
		strcpy(out->modifiers, colon + 1);
		out->exclude_kernel = colon[1] == 'u';
		out->exclude_user = colon[1] == 'k';
	}
	return 0;
}
