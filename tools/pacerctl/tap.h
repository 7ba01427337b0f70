/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP for pacerctl's unit tests: ok() prints one "ok N - what" or "not ok
 * N - what" line a check, tap_done() the plan and the tally that "make
 * test" shows, and returns the exit status.
 */
#ifndef PACERCTL_TAP_H
#define PACERCTL_TAP_H

#include <stdio.h>

static int tap_tests, tap_failed;

static inline void ok(int cond, const char *what)
{
	tap_tests++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_tests, what);
}

/* @tally_prefix: "" or "# " (a TAP comment), as the test has printed it. */
static inline int tap_done(const char *tally_prefix)
{
	printf("1..%d\n", tap_tests);
	printf("%s%d passed, %d failed\n", tally_prefix,
	       tap_tests - tap_failed, tap_failed);
	return tap_failed ? 1 : 0;
}

#endif
