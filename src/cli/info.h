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

int info_json(const struct srep_session *s, bool stats_only, const uint64_t *kinds,
	      const struct srep_symbolizer *sy);
void info_features_text(const struct srep_meta *m);
void info_schedstat_text(const struct srep_session *s);
void info_schedstat_json(cJSON *root, const struct srep_session *s);

#endif
