// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * info-json.c - "schedrep info --json" (schema: docs/info.md). A small
 * document: built with cJSON.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "info.h"

static cJSON *str_or_null(const char *v)
{
	return v ? cJSON_CreateString(v) : cJSON_CreateNull();
}

static cJSON *num_or_null(int64_t v)
{
	return v >= 0 ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

/* counts can exceed 2^53 only in theory; cJSON stores doubles */
static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	cJSON_AddItemToObject(o, key, cJSON_CreateNumber((double)v));
}

/* the header features present, by perf's names ("FEATURE_N" when unknown) */
static void add_features(cJSON *root, const struct srep_meta *m)
{
	cJSON *f = cJSON_AddArrayToObject(root, "features");
	char other[32];
	unsigned bit;

	for (bit = 0; bit < 256; bit++) {
		const char *name = srep_feature_name(bit);

		if (!(m->features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!name) {
			snprintf(other, sizeof(other), "FEATURE_%u", bit);
			name = other;
		}
		cJSON_AddItemToArray(f, cJSON_CreateString(name));
	}
}

static void add_header(cJSON *root, const struct srep_meta *m)
{
	cJSON *cmd;
	int i;

	cJSON_AddItemToObject(root, "file", cJSON_CreateString(m->path));
	cJSON_AddItemToObject(root, "input_format", cJSON_CreateString(m->format));
	cJSON_AddItemToObject(root, "mode", cJSON_CreateString(m->pipe_mode ? "pipe" : "file"));
	cJSON_AddItemToObject(root, "arch", str_or_null(m->arch));
	cJSON_AddItemToObject(root, "byte_order", cJSON_CreateString(m->big_endian ? "big" : "little"));
	cJSON_AddItemToObject(root, "word_size", m->word_size ? cJSON_CreateNumber(m->word_size * 8)
							      : cJSON_CreateNull());
	cJSON_AddItemToObject(root, "perf_version", str_or_null(m->perf_version));
	cJSON_AddItemToObject(root, "kernel", str_or_null(m->osrelease));
	cJSON_AddItemToObject(root, "hostname", str_or_null(m->hostname));
	cJSON_AddItemToObject(root, "nr_cpus_online", num_or_null(m->nr_cpus_online));
	cJSON_AddItemToObject(root, "nr_cpus_avail", num_or_null(m->nr_cpus_avail));
	cJSON_AddItemToObject(root, "cpudesc", str_or_null(m->cpudesc));
	cJSON_AddItemToObject(root, "cpuid", str_or_null(m->cpuid));
	cJSON_AddItemToObject(root, "total_mem_kb", num_or_null(m->total_mem_kb));
	cJSON_AddItemToObject(root, "clockid", num_or_null(m->clockid));
	if (m->cmdline) {
		cmd = cJSON_AddArrayToObject(root, "cmdline");
		for (i = 0; i < m->nr_cmdline; i++)
			cJSON_AddItemToArray(cmd, cJSON_CreateString(m->cmdline[i]));
	} else {
		cJSON_AddNullToObject(root, "cmdline");
	}
	cJSON_AddItemToObject(root, "compressed", cJSON_CreateBool(m->compressed));
	add_features(root, m);
}

static void add_counts(cJSON *root, const struct srep_session *s)
{
	const struct srep_stats *st = srep_session__stats(s);
	cJSON *rec = cJSON_AddObjectToObject(root, "records");
	cJSON *evs = cJSON_AddObjectToObject(root, "events");
	cJSON *lost = cJSON_AddObjectToObject(root, "lost_samples_by_event");
	const char *name;
	cJSON *item;
	size_t i;

	for (i = 0; i < SREP_NR_RECORD_TYPES; i++) {
		name = srep_record_type_name((uint32_t)i);
		if (st->records[i])
			add_u64(rec, name ? name : "UNKNOWN", st->records[i]);
	}
	add_u64(root, "total_records", st->total_records);
	add_u64(root, "unknown_records", st->unknown_records);
	add_u64(root, "google_legacy_records", st->google_legacy_records);
	for (i = 0; i < srep_session__nr_evsels(s); i++) {
		uint64_t n = srep_session__evsel_samples(s, i);
		uint64_t l = srep_session__evsel_lost_samples(s, i);

		name = srep_session__evsel_name(s, i);
		/* two events may share a name (same event opened twice): their counts add up */
		if (n) {
			item = cJSON_GetObjectItemCaseSensitive(evs, name);
			if (item)
				cJSON_SetNumberValue(item, item->valuedouble + (double)n);
			else
				add_u64(evs, name, n);
		}
		if (l)
			add_u64(lost, name, l);
	}
}

/* "selected": what passed --time and --cpu; null without them */
static void add_selected(cJSON *root, const struct srep_session *s, const struct info_counts *c)
{
	cJSON *sel, *evs, *item;
	const char *name;
	size_t i;

	if (!c->filter) {
		cJSON_AddNullToObject(root, "selected");
		return;
	}
	sel = cJSON_AddObjectToObject(root, "selected");
	cJSON_AddStringToObject(sel, "filter", c->filter_text);
	if (c->filter->from || c->filter->to) {
		add_u64(sel, "from_ns", c->filter->from);
		add_u64(sel, "to_ns", c->filter->to);
	}
	add_u64(sel, "events", c->kept);
	evs = cJSON_AddObjectToObject(sel, "samples");
	for (i = 0; i < c->nr_evsels; i++) {
		if (!c->evsels[i])
			continue;
		name = srep_session__evsel_name(s, i);
		item = cJSON_GetObjectItemCaseSensitive(evs, name);
		if (item)
			cJSON_SetNumberValue(item, item->valuedouble + (double)c->evsels[i]);
		else
			add_u64(evs, name, c->evsels[i]);
	}
}

static void add_model(cJSON *root, const struct srep_session *s, const uint64_t *kinds)
{
	const struct srep_stats *st = srep_session__stats(s);
	cJSON *t = cJSON_AddObjectToObject(root, "time");
	cJSON *k = cJSON_AddObjectToObject(root, "model_events");
	int i;

	if (st->first_time) {
		add_u64(t, "first_ns", st->first_time);
		add_u64(t, "last_ns", st->last_time);
		add_u64(t, "span_ns", st->last_time - st->first_time);
	}
	add_u64(root, "tasks", srep_session__nr_tasks(s));
	for (i = 1; i < SREP_EV_MAX; i++) {
		if (kinds[i])
			add_u64(k, srep_event_kind_name(i), kinds[i]);
	}
	add_u64(root, "late_events", st->late_events);
}

static void add_loss(cJSON *root, const struct srep_session *s, bool stats_only)
{
	const struct srep_stats *st = srep_session__stats(s);
	cJSON *l = cJSON_AddObjectToObject(root, "lost");
	uint64_t span = st->last_time - st->first_time;

	add_u64(l, "lost_events", st->lost);
	add_u64(l, "lost_samples", st->lost_samples);
	if (stats_only)
		return;
	add_u64(l, "lost_time_ns", st->lost_time_ns);
	cJSON_AddItemToObject(l, "data_loss_pct", span ?
			      cJSON_CreateNumber(100.0 * (double)st->lost_time_ns / (double)span) :
			      cJSON_CreateNull());
}

/* "callchains": what resolved; null without callchains (and with --stats) */
static void add_callchains(cJSON *root, const struct srep_symbolizer *sy)
{
	const struct srep_symbol_stats *st = sy ? srep_symbolizer__stats(sy) : NULL;
	cJSON *c;

	if (!st || (!st->callchains && !st->dwarf_stacks)) {
		cJSON_AddNullToObject(root, "callchains");
		return;
	}
	c = cJSON_AddObjectToObject(root, "callchains");
	add_u64(c, "callchains", st->callchains);
	add_u64(c, "frames", st->frames);
	add_u64(c, "resolved", st->resolved);
	add_u64(c, "kernel_frames", st->kernel_frames);
	add_u64(c, "kernel_resolved", st->kernel_resolved);
	add_u64(c, "user_frames", st->user_frames);
	add_u64(c, "user_resolved", st->user_resolved);
	add_u64(c, "unmapped", st->unmapped);
	add_u64(c, "dwarf_stacks", st->dwarf_stacks);
	add_u64(c, "dwarf_unwound", st->dwarf_unwound);
}

int info_json(const struct srep_session *s, bool stats_only, const struct info_counts *c,
	      const struct srep_symbolizer *sy)
{
	const struct srep_stats *st = srep_session__stats(s);
	cJSON *root = cJSON_CreateObject(), *dmg;

	if (!root)
		return EXIT_FAIL;
	cJSON_AddStringToObject(root, "format", "schedrep-info");
	cJSON_AddNumberToObject(root, "version", 1);
	add_header(root, srep_session__meta(s));
	add_counts(root, s);
	if (!stats_only) {
		add_model(root, s, c->kinds);
		add_selected(root, s, c);
		info_schedstat_json(root, s);
	}
	add_loss(root, s, stats_only);
	add_callchains(root, sy);
	dmg = cJSON_AddObjectToObject(root, "damage");
	add_u64(dmg, "skipped_records", st->skipped_records);
	add_u64(dmg, "skipped_bytes", st->skipped_bytes);
	add_u64(dmg, "skipped_formats", st->skipped_formats);
	add_u64(dmg, "skipped_printk", st->skipped_printk);
	return cli_json_print(stdout, root) ? EXIT_FAIL : EXIT_OK;
}
