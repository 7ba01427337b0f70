/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP 13 output and exit statuses of the compiled selftests (ksft.c).
 *
 * A program calls ksft_init() first, prints the header, one tap() per
 * test and diag() comments, and returns ksft_finish(): exit 0 if every
 * test passed, 1 otherwise.  ksft_fatal() and ksft_exit_skip() end it early.
 */
#ifndef PACER_KSFT_H
#define PACER_KSFT_H

#include <stdbool.h>

/* As lib.sh and run_tests read them. */
#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_ERROR	2	/* usage or setup: nothing was tested */
#define KSFT_SKIP	4

/* @name prefixes the errors on stderr. */
void ksft_init(const char *name);
void ksft_print_header(void);

void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The plan and the counts; returns the exit status. */
int ksft_finish(void);

/* Exit KSFT_ERROR: "NAME: message", and strerror(@err) unless @err is 0. */
void ksft_fatal(int err, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/*
 * The number @s, from @min to @max; else ksft_fatal() naming @what (an
 * argument's name), the bad value and what is allowed.
 */
long ksft_arg(const char *s, const char *what, long min, long max);

/* CLOCK_MONOTONIC in nanoseconds. */
long long ksft_now_ns(void);

/* Exit KSFT_SKIP with an empty plan: nothing here to test. */
void ksft_exit_skip(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

#endif
