// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of units.c, printing TAP.  Run by "make test".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static int tests, failed;

static void ok(int cond, const char *fmt, const char *arg, const char *got)
{
	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	printf(fmt, arg);
	if (!cond)
		printf(" (got %s)", got);
	putchar('\n');
}

typedef int (*parse_fn)(const char *, uint64_t *);
typedef char *(*format_fn)(char *, size_t, uint64_t);

static void parses(parse_fn parse, const char *name, const char *str,
		   uint64_t want)
{
	char got[64], fmt[96];
	uint64_t v = 0;
	int err = parse(str, &v);

	if (err)
		snprintf(got, sizeof(got), "error %d", err);
	else
		snprintf(got, sizeof(got), "%" PRIu64, v);
	snprintf(fmt, sizeof(fmt), "%s \"%%s\" = %" PRIu64, name, want);
	ok(!err && v == want, fmt, str, got);
}

static void rejects(parse_fn parse, const char *name, const char *str,
		    int want)
{
	char got[64], fmt[96];
	uint64_t v = 0;
	int err = parse(str, &v);

	if (err)
		snprintf(got, sizeof(got), "error %d", err);
	else
		snprintf(got, sizeof(got), "%" PRIu64, v);
	snprintf(fmt, sizeof(fmt), "%s \"%%s\" rejected with %s", name,
		 want == -ERANGE ? "-ERANGE" : "-EINVAL");
	ok(err == want, fmt, str, got);
}

static void formats(format_fn format, const char *name, uint64_t v,
		    const char *want)
{
	char buf[UNITS_BUF_LEN], fmt[96];

	format(buf, sizeof(buf), v);
	snprintf(fmt, sizeof(fmt), "%s %" PRIu64 " = \"%%s\"", name, v);
	ok(!strcmp(buf, want), fmt, want, buf);
}

int main(void)
{
	/* rates: bits per second */
	parses(parse_rate, "rate", "10gbit", 10000000000ULL);
	parses(parse_rate, "rate", "10Mbit", 10000000);
	parses(parse_rate, "rate", "1kbit", 1000);
	parses(parse_rate, "rate", "800bit", 800);
	parses(parse_rate, "rate", "1tbit", 1000000000000ULL);
	parses(parse_rate, "rate", "1kibit", 1024);
	parses(parse_rate, "rate", "2mibit", 2097152);
	parses(parse_rate, "rate", "1gibit", 1073741824);
	parses(parse_rate, "rate", "1.5gbit", 1500000000);
	parses(parse_rate, "rate", ".5mbit", 500000);
	parses(parse_rate, "rate", "100bps", 800);
	parses(parse_rate, "rate", "1kbps", 8000);
	parses(parse_rate, "rate", "1mbps", 8000000);
	parses(parse_rate, "rate", "1gbps", 8000000000ULL);
	parses(parse_rate, "rate", "1kibps", 8192);
	parses(parse_rate, "rate", "18446744073709551615bit", UINT64_MAX);
	parses(parse_rate, "rate", "1.0000000001gbit", 1000000000);
	rejects(parse_rate, "rate", "10xbit", -EINVAL);
	rejects(parse_rate, "rate", "10", -EINVAL);
	rejects(parse_rate, "rate", "mbit", -EINVAL);
	rejects(parse_rate, "rate", "", -EINVAL);
	rejects(parse_rate, "rate", ".", -EINVAL);
	rejects(parse_rate, "rate", "-1mbit", -EINVAL);
	rejects(parse_rate, "rate", " 1mbit", -EINVAL);
	rejects(parse_rate, "rate", "1mbit ", -EINVAL);
	rejects(parse_rate, "rate", "1.2.3mbit", -EINVAL);
	rejects(parse_rate, "rate", "18446744073709551616bit", -ERANGE);
	rejects(parse_rate, "rate", "18446745tbit", -ERANGE);
	rejects(parse_rate, "rate", "18446744073709551615.9tbit", -ERANGE);
	rejects(parse_rate, "rate", "99999999999999999999999gbit", -ERANGE);
	rejects(parse_rate, "rate", "18446744073.709551616gbit", -ERANGE);
	parses(parse_rate, "rate", "18446744073.709551615gbit", UINT64_MAX);

	/* sizes: bytes */
	parses(parse_size, "size", "64k", 65536);
	parses(parse_size, "size", "1500", 1500);
	parses(parse_size, "size", "1500b", 1500);
	parses(parse_size, "size", "64kb", 65536);
	parses(parse_size, "size", "64KiB", 65536);
	parses(parse_size, "size", "1m", 1048576);
	parses(parse_size, "size", "1mb", 1048576);
	parses(parse_size, "size", "2g", 2147483648ULL);
	parses(parse_size, "size", "1.5k", 1536);
	rejects(parse_size, "size", "64kbit", -EINVAL);
	rejects(parse_size, "size", "1x", -EINVAL);
	rejects(parse_size, "size", "k", -EINVAL);
	rejects(parse_size, "size", "17179869184g", -ERANGE);

	/* times: nanoseconds */
	parses(parse_time, "time", "5ms", 5000000);
	parses(parse_time, "time", "100us", 100000);
	parses(parse_time, "time", "1s", 1000000000);
	parses(parse_time, "time", "250ns", 250);
	parses(parse_time, "time", "1.5ms", 1500000);
	parses(parse_time, "time", "0.1s", 100000000);
	parses(parse_time, "time", "1.000000001s", 1000000001);
	parses(parse_time, "time", "10msec", 10000000);
	parses(parse_time, "time", "2secs", 2000000000);
	rejects(parse_time, "time", "5", -EINVAL);
	rejects(parse_time, "time", "5m", -EINVAL);
	rejects(parse_time, "time", "5min", -EINVAL);
	rejects(parse_time, "time", "18446744074s", -ERANGE);

	formats(format_rate, "rate", 10000000, "10Mbit");
	formats(format_rate, "rate", 10000000000ULL, "10Gbit");
	formats(format_rate, "rate", 1000, "1Kbit");
	formats(format_rate, "rate", 999, "999bit");
	formats(format_rate, "rate", 1500000, "1500Kbit");
	formats(format_rate, "rate", 2000000000000ULL, "2Tbit");
	formats(format_rate, "rate", 0, "0bit");
	formats(format_size, "size", 65536, "64Kb");
	formats(format_size, "size", 1048576, "1Mb");
	formats(format_size, "size", 1500, "1500b");
	formats(format_size, "size", 1073741824, "1Gb");
	formats(format_size, "size", 1536, "1536b");
	formats(format_size, "size", 0, "0b");
	formats(format_time, "time", 5000000, "5ms");
	formats(format_time, "time", 100000, "100us");
	formats(format_time, "time", 1500000, "1.5ms");
	formats(format_time, "time", 1000000000, "1s");
	formats(format_time, "time", 999, "999ns");
	formats(format_time, "time", 3600000000000ULL, "3600s");

	printf("1..%d\n", tests);
	printf("%d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
