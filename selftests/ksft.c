// SPDX-License-Identifier: GPL-2.0
/*
 * TAP 13 output and exit statuses of the compiled selftests: see ksft.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

long ksft_arg(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		ksft_fatal(0, "%s: \"%s\" is not a number from %ld to %ld",
			   what, s, min, max);
	return v;
}

long long ksft_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
