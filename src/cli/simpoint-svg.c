// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simpoint-svg.c - phases.svg of "schedrep simpoint": the execution as a
 * strip of intervals in order, each coloured by its cluster (the palette of
 * the other pictures), the chosen simulation points marked under their
 * interval, and a legend with each cluster's weight: the phases a user can
 * check against what they know of the program.
 */
#include <inttypes.h>

#include "exporter.h"
#include "simpoint-out.h"

#define SVG_WIDTH	960.0	/* the strip, px */
#define SVG_LEFT	20.0
#define STRIP_TOP	40.0
#define STRIP_H		60.0
#define LEGEND_ROW	18.0

/* the strip: one rect per interval, its width its share of the count */
static void strip(FILE *f, const struct sp_report *r, double total)
{
	size_t i, n = srep_simpoint__nr_intervals(r->sp);
	char colour[SREP_EXPORT_COLOUR_SIZE];

	for (i = 0; i < n; i++) {
		const struct srep_simpoint_interval *iv = srep_simpoint__interval(r->sp, i);

		srep_export_colour((size_t)iv->cluster, colour);
		fprintf(f, "<rect class=\"iv\" data-interval=\"%zu\" data-cluster=\"%d\" x=\"%.3f\" "
			"y=\"%.0f\" width=\"%.3f\" height=\"%.0f\" fill=\"%s\"><title>interval %zu, "
			"cluster %d: %" PRIu64 "..%" PRIu64 " %s</title></rect>\n", i, iv->cluster,
			SVG_LEFT + SVG_WIDTH * (double)iv->start / total, STRIP_TOP,
			SVG_WIDTH * (double)(iv->end - iv->start) / total, STRIP_H, colour, i,
			iv->cluster, iv->start, iv->end, r->ev->unit);
	}
}

/* a triangle under each chosen interval, and one legend row per cluster */
static void points_and_legend(FILE *f, const struct sp_report *r, double total)
{
	char colour[SREP_EXPORT_COLOUR_SIZE];
	size_t i;

	for (i = 0; i < r->res->nr_points; i++) {
		const struct srep_simpoint_point *p = &r->res->points[i];
		const struct srep_simpoint_interval *iv = srep_simpoint__interval(r->sp, p->index);
		double x = SVG_LEFT + SVG_WIDTH * ((double)iv->start + (double)(iv->end - iv->start) / 2) /
			   total, y = STRIP_TOP + STRIP_H + 2, legend_y = STRIP_TOP + STRIP_H + 40 +
			   LEGEND_ROW * (double)i;

		srep_export_colour((size_t)p->cluster, colour);
		fprintf(f, "<path class=\"point\" data-interval=\"%zu\" d=\"M%.3f %.0fl-6 10h12z\" "
			"fill=\"#222\"><title>simulation point: interval %zu</title></path>\n",
			p->index, x, y, p->index);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%.0f\" y=\"%.0f\">cluster %d: interval %zu, weight %.4f</text>\n",
			SVG_LEFT, legend_y - 10, colour, SVG_LEFT + 18, legend_y, p->cluster, p->index,
			p->weight);
	}
}

int sp_write_svg(FILE *f, const struct sp_report *r)
{
	double total = (double)srep_simpoint__total(r->sp);
	double height = STRIP_TOP + STRIP_H + 50 + LEGEND_ROW * (double)r->res->nr_points;

	if (total <= 0)
		total = 1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", SVG_WIDTH + 2 * SVG_LEFT, height);
	fprintf(f, "<text x=\"%.0f\" y=\"20\">phases of ", SVG_LEFT);
	cli_xml_text(f, r->trace);
	fprintf(f, ": %zu intervals of %" PRIu64 " %s, k = %u; triangles: the simulation "
		"points</text>\n", srep_simpoint__nr_intervals(r->sp), r->interval, r->ev->unit,
		r->res->k);
	strip(f, r, total);
	points_and_legend(f, r, total);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">0</text><text x=\"%.0f\" y=\"%.0f\" "
		"text-anchor=\"end\">%.0f %s</text>\n</svg>\n", SVG_LEFT, STRIP_TOP + STRIP_H + 28,
		SVG_LEFT + SVG_WIDTH, STRIP_TOP + STRIP_H + 28, total, r->ev->unit);
	return ferror(f) ? -1 : 0;
}
