/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For pacerctl's unit tests: what a printer writes in -j mode, captured.
 */
#ifndef PACERCTL_TEST_JSON_H
#define PACERCTL_TEST_JSON_H

#include <stdio.h>

#include "print.h"

/*
 * What @print(@arg) writes inside one JSON object, as "class show -j"
 * prints it: stdout is a memory stream meanwhile.  Caller frees; NULL if
 * the stream could not be opened.
 */
static inline char *json_capture(void (*print)(const void *arg),
				 const void *arg)
{
	FILE *real = stdout;
	char *text = NULL;
	size_t len = 0;

	stdout = open_memstream(&text, &len);
	if (!stdout) {
		stdout = real;
		return NULL;
	}
	new_json_obj(true, false);
	open_json_object(NULL);
	print(arg);
	close_json_object();
	delete_json_obj();
	fclose(stdout);
	stdout = real;
	return text;
}

#endif
