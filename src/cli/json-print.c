// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json-print.c - the end of every --json output: print the document, free it.
 */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cli.h"

int cli_json_print(FILE *f, cJSON *root)
{
	char *text = root ? cJSON_Print(root) : NULL;

	cJSON_Delete(root);
	if (!text)
		return -1;
	fprintf(f, "%s\n", text);
	free(text);
	return 0;
}
