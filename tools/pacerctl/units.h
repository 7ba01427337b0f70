/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: rates, sizes and times as tc writes them.
 *
 * Parsers return 0, -EINVAL for text that is not a number with a known
 * unit, or -ERANGE for a value beyond 64 bits or one that is not 0 but
 * below one base unit (0.5bit, 0.5 bytes, 0.1ns); a part of a base unit
 * beyond one is dropped, as tc does.  Units are case-insensitive.
 * Formatters write into a buffer of UNITS_BUF_LEN bytes and return it.
 */
#ifndef PACERCTL_UNITS_H
#define PACERCTL_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNITS_BUF_LEN 32

/* What each parser accepts, for "expected ..." in error messages. */
#define UNITS_RATE_HELP \
	"a number with bit, kbit, mbit, gbit or tbit (kibit ... tibit: powers of 1024; bps, kbps, mbps, gbps, tbps: bytes per second)"
#define UNITS_SIZE_HELP \
	"a number of bytes, optionally with k, m or g (powers of 1024; also kb, kib, ...)"
#define UNITS_TIME_HELP \
	"a number with ns, us, ms or s"

int parse_rate(const char *str, uint64_t *bits_per_sec);
int parse_size(const char *str, uint64_t *bytes);
int parse_time(const char *str, uint64_t *ns);

char *format_rate(char *buf, size_t len, uint64_t bits_per_sec);
char *format_rate_approx(char *buf, size_t len, uint64_t bits_per_sec);
char *format_size(char *buf, size_t len, uint64_t bytes);
char *format_time(char *buf, size_t len, uint64_t ns);

#endif /* PACERCTL_UNITS_H */
