// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint-summary.c - the text summary of "schedrep simpoint": what was
 * counted, the BIC of each k, and the chosen intervals with their weights.
 */
#include <inttypes.h>

#include "simpoint-out.h"

/* "  k  BIC  ####" lines: the score's place between the worst and the best */
static void bic_curve(FILE *f, const struct srep_simpoint_result *res)
{
	double lo = res->bic[0], hi = res->bic[0], frac;
	unsigned k;
	int bar;

	for (k = 1; k < res->max_k; k++) {
		lo = res->bic[k] < lo ? res->bic[k] : lo;
		hi = res->bic[k] > hi ? res->bic[k] : hi;
	}
	fprintf(f, "BIC by k (SimPoint's score; %% of the way from the worst to the best):\n");
	for (k = 0; k < res->max_k; k++) {
		frac = hi > lo ? (res->bic[k] - lo) / (hi - lo) : 1.0;
		bar = (int)(frac * 40 + 0.5);
		fprintf(f, "  k=%-3u %14.3f %5.1f%% %.*s%s\n", k + 1, res->bic[k], frac * 100, bar,
			"########################################", k + 1 == res->k ? " <- chosen" : "");
	}
}

static void points(FILE *f, const struct sp_report *r)
{
	const struct srep_simpoint_interval *iv;
	const struct srep_simpoint_point *p;
	size_t i, members, j;

	fprintf(f, "cluster  interval  start..end (%s)  time (s)  weight  intervals\n", r->ev->unit);
	for (i = 0; i < r->res->nr_points; i++) {
		p = &r->res->points[i];
		iv = srep_simpoint__interval(r->sp, p->index);
		for (members = j = 0; j < srep_simpoint__nr_intervals(r->sp); j++)
			members += srep_simpoint__interval(r->sp, j)->cluster == p->cluster;
		fprintf(f, "%7d  %8zu  %" PRIu64 "..%" PRIu64 "  %" PRIu64 ".%06" PRIu64
			"  %.4f  %zu\n", p->cluster, p->index, iv->start, iv->end,
			iv->time_ns / 1000000000u, iv->time_ns % 1000000000u / 1000u, p->weight,
			members);
	}
}

/* the cluster of each interval in order, one character each: the phases at a glance */
static void phases(FILE *f, const struct srep_simpoint *sp)
{
	static const char sym[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t i, n = srep_simpoint__nr_intervals(sp);
	int c;

	fprintf(f, "phases (cluster of each interval, in order):\n  ");
	for (i = 0; i < n; i++) {
		c = srep_simpoint__interval(sp, i)->cluster;
		fputc(c >= 0 && c < (int)sizeof(sym) - 1 ? sym[c] : '+', f);
		if (i % 64 == 63 && i + 1 < n)
			fputs("\n  ", f);
	}
	fputc('\n', f);
}

int sp_write_summary(FILE *f, const struct sp_report *r)
{
	fprintf(f, "trace: %s\nevent: %s, unit: %s, %" PRIu64 " samples, total %" PRIu64 " %s\n",
		r->trace, r->ev->name, r->ev->unit, r->samples, srep_simpoint__total(r->sp),
		r->ev->unit);
	fprintf(f, "intervals: %zu of %" PRIu64 " %s (the last one may be shorter); "
		"vectors: %zu dimensions (%s)\n", srep_simpoint__nr_intervals(r->sp), r->interval,
		r->ev->unit, srep_simpoint__nr_dims(r->sp), r->vectors);
	if (r->res->noise_floor > 0)
		fprintf(f, "sampling noise: variance floor %.3g per projected dimension\n",
			r->res->noise_floor);
	else
		fprintf(f, "sampling noise: no floor (SimPoint 3.2's BIC)\n");
	bic_curve(f, r->res);
	fprintf(f, "k = %u (the smallest k within %.0f%% of the best BIC); %zu simulation points "
		"cover 100%% of the execution by weight\n", r->res->k, r->threshold * 100,
		r->res->nr_points);
	points(f, r);
	phases(f, r->sp);
	return 0;
}
