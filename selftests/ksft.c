// SPDX-License-Identifier: GPL-2.0
/*
 * TAP 13 output and exit statuses of the compiled selftests: see ksft.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksft.h"

static const char *prog = "selftest";
static int tests, failures;

void ksft_init(const char *name)
{
	prog = name;
	/*
	 * A line at a time: the TAP keeps its place among the errors on
	 * stderr, and what was printed survives a runner's kill.
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
}

void ksft_print_header(void)
{
	printf("TAP version 13\n");
}

void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!ok)
		failures++;
	printf("%s %d - ", ok ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int ksft_finish(void)
{
	printf("1..%d\n", tests);
	diag("%d passed, %d failed", tests - failures, failures);
	return failures ? KSFT_FAIL : KSFT_PASS;
}

void ksft_fatal(int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(KSFT_ERROR);
}

void ksft_exit_skip(const char *fmt, ...)
{
	va_list ap;

	ksft_print_header();
	printf("1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(KSFT_SKIP);
}
