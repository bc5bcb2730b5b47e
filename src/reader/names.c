// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names.c - perf's names for its record types and header features
 * (tools/perf/util/event.h, header.h), and the event kinds' names: tables
 * that any reader file, either input format and the library's users read.
 */
#include <stddef.h>
#include <stdint.h>

#include <schedrep/session.h>

const char *srep_record_type_name(uint32_t type)
{
	static const char *const names[] = {
		[1] = "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ",
		"SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH",
		"SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE",
		"AUX_OUTPUT_HW_ID", "CALLCHAIN_DEFERRED",
		[64] = "ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND",
		"ID_INDEX", "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",
		"STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE",
		"COMPRESSED", "FINISHED_INIT", "COMPRESSED2", "BPF_METADATA", "SCHEDSTAT_CPU",
		"SCHEDSTAT_DOMAIN",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

/* perf's header features (tools/perf/util/header.h), newest last */
const char *srep_feature_name(unsigned feature)
{
	static const char *const names[] = {
		[1] = "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
		"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC",
		"CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",
		"AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID",
		"DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
		"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS", "CPU_DOMAIN_INFO", "CLN_SIZE",
	};

	return feature < sizeof(names) / sizeof(names[0]) ? names[feature] : NULL;
}

const char *srep_event_kind_name(enum srep_event_kind kind)
{
	static const char *const names[SREP_EV_MAX] = {
		[SREP_EV_SWITCH] = "switch", [SREP_EV_WAKEUP] = "wakeup",
		[SREP_EV_MIGRATE] = "migrate", [SREP_EV_FORK] = "fork", [SREP_EV_EXEC] = "exec",
		[SREP_EV_EXIT] = "exit", [SREP_EV_FREE] = "free", [SREP_EV_COMM] = "comm",
		[SREP_EV_STAT] = "stat", [SREP_EV_CPU_IDLE] = "cpu_idle",
		[SREP_EV_CPU_FREQ] = "cpu_frequency", [SREP_EV_MMAP] = "mmap",
		[SREP_EV_SAMPLE] = "sample", [SREP_EV_LOST] = "lost",
	};

	return kind > 0 && kind < SREP_EV_MAX ? names[kind] : "unknown";
}
