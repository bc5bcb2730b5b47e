/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * info.h - the parts of 'schedrep info' in files of their own: the JSON
 * document (info-json.c), header features and schedstat snapshots
 * (info-schedstat.c).
 */
#ifndef SREP_CLI_INFO_H
#define SREP_CLI_INFO_H

#include <cjson/cJSON.h>
#include <schedrep/schedrep.h>

/* the events read, per kind (those the filter keeps) and per event */
struct info_counts {
	const struct srep_perf_filter *filter;	/* --time, --cpu; NULL: none given */
	const char *filter_text;		/* "--time 0.1,0.2 --cpu 0" */
	uint64_t kinds[SREP_EV_MAX];
	uint64_t kept;				/* events the filter keeps */
	uint64_t *evsels;			/* kept samples by evsel index */
	size_t nr_evsels;
};

int info_json(const struct srep_session *s, bool stats_only, const struct info_counts *c,
	      const struct srep_symbolizer *sy);
void info_features_text(const struct srep_meta *m);
void info_schedstat_text(const struct srep_session *s);
void info_schedstat_json(cJSON *root, const struct srep_session *s);

#endif
