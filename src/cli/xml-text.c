// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xml-text.c - text (trace paths, comms: any bytes) inside HTML or SVG
 * markup, escaped.
 */
#include "cli.h"

void cli_xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}
