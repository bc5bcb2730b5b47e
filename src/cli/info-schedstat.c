// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * info-schedstat.c - what 'schedrep info' says of a trace's header features
 * by name, and of the /proc/schedstat snapshots 'perf sched stats record'
 * writes: per CPU, how much each counter grew between the first and the
 * last snapshot (what 'perf sched stats report' shows).
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "info.h"

void info_features_text(const struct srep_meta *m)
{
	unsigned bit;
	int n = 0;

	printf("features:     ");
	for (bit = 0; bit < 256; bit++) {
		const char *name;

		if (!(m->features[bit / 64] >> (bit % 64) & 1))
			continue;
		name = srep_feature_name(bit);
		if (name)
			printf(" %s", name);
		else
			printf(" FEATURE_%u", bit);
		n++;
	}
	printf("%s\n", n ? "" : " none");
}

void info_schedstat_text(const struct srep_session *s)
{
	uint64_t cpu_records, domain_records;
	int version, k;
	size_t i, n = srep_session__schedstat(s, &version, &cpu_records, &domain_records);

	if (!cpu_records && !domain_records)
		return;
	printf("schedstat:     version %d, %" PRIu64 " CPU and %" PRIu64 " domain snapshots\n",
	       version, cpu_records, domain_records);
	printf("  %-5s", "cpu");
	for (k = 0; k < SREP_SCHEDSTAT_CPU_FIELDS; k++)
		printf(" %12s", srep_schedstat_cpu_field_name(k));
	printf("\n");
	for (i = 0; i < n; i++) {
		const struct srep_schedstat_cpu *c = srep_session__schedstat_cpu(s, i);

		printf("  %-5" PRIu32, c->cpu);
		for (k = 0; k < SREP_SCHEDSTAT_CPU_FIELDS; k++)
			printf(" %12" PRIu64, c->last[k] - c->first[k]);
		printf("\n");
	}
}

void info_schedstat_json(cJSON *root, const struct srep_session *s)
{
	uint64_t cpu_records, domain_records;
	int version, k;
	size_t i, n = srep_session__schedstat(s, &version, &cpu_records, &domain_records);
	cJSON *o, *cpus;

	if (!cpu_records && !domain_records)
		return;
	o = cJSON_AddObjectToObject(root, "schedstat");
	cJSON_AddNumberToObject(o, "version", version);
	cJSON_AddNumberToObject(o, "cpu_records", (double)cpu_records);
	cJSON_AddNumberToObject(o, "domain_records", (double)domain_records);
	cpus = cJSON_AddArrayToObject(o, "cpus");
	for (i = 0; i < n; i++) {
		const struct srep_schedstat_cpu *c = srep_session__schedstat_cpu(s, i);
		cJSON *cpu = cJSON_CreateObject();

		cJSON_AddNumberToObject(cpu, "cpu", c->cpu);
		cJSON_AddNumberToObject(cpu, "snapshots", (double)c->snapshots);
		for (k = 0; k < SREP_SCHEDSTAT_CPU_FIELDS; k++)
			cJSON_AddNumberToObject(cpu, srep_schedstat_cpu_field_name(k),
						(double)(c->last[k] - c->first[k]));
		cJSON_AddItemToArray(cpus, cpu);
	}
}
