// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of units.c and parse.c, printing TAP.  Run by "make test".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "parse.h"
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

static const char *errname(int err)
{
	return err == -ERANGE ? "-ERANGE" : err == -EINVAL ? "-EINVAL" : "0";
}

/* A parse.c parser, its result written as text by @show, against @want. */
static void parse_case(const char *name, const char *str, int err,
		       const char *got_text, const char *want)
{
	char got[96], fmt[160];

	if (err)
		snprintf(got, sizeof(got), "error %d", err);
	else
		snprintf(got, sizeof(got), "%s", got_text);
	if (want)
		snprintf(fmt, sizeof(fmt), "%s \"%%s\" = %s", name, want);
	else
		snprintf(fmt, sizeof(fmt), "%s \"%%s\" rejected", name);
	ok(want ? !err && !strcmp(got_text, want) : 0, fmt, str, got);
}

/* The same with the error expected instead of a value. */
static void parse_reject(const char *name, const char *str, int err, int want,
			 const char *got_text)
{
	char got[96], fmt[160];

	snprintf(got, sizeof(got), "%s", err ? errname(err) : got_text);
	snprintf(fmt, sizeof(fmt), "%s \"%%s\" rejected with %s", name,
		 errname(want));
	ok(err == want, fmt, str, got);
}

static void prefix(const char *str, const char *want, int want_err)
{
	struct pacer_prefix p = { 0 };
	char buf[PARSE_BUF_LEN] = "";
	int err = parse_prefix(str, &p);

	if (!err)
		format_prefix(buf, sizeof(buf), &p);
	if (want_err)
		parse_reject("prefix", str, err, want_err, buf);
	else
		parse_case("prefix", str, err, buf, want);
}

static void ports(const char *str, const char *want, int want_err)
{
	uint16_t min = 0, max = 0;
	char buf[PARSE_BUF_LEN] = "";
	int err = parse_ports(str, &min, &max);

	if (!err)
		snprintf(buf, sizeof(buf), "%u..%u", min, max);
	if (want_err)
		parse_reject("ports", str, err, want_err, buf);
	else
		parse_case("ports", str, err, buf, want);
}

static void mark(const char *str, const char *want, int want_err)
{
	uint32_t v = 0, m = 0;
	char buf[PARSE_BUF_LEN] = "";
	int err = parse_mark(str, &v, &m);

	if (!err)
		snprintf(buf, sizeof(buf), "0x%" PRIx32 "/0x%" PRIx32, v, m);
	if (want_err)
		parse_reject("mark", str, err, want_err, buf);
	else
		parse_case("mark", str, err, buf, want);
}

static void prio(const char *str, const char *want, int want_err)
{
	uint32_t v = 0;
	char buf[PARSE_BUF_LEN] = "";
	int err = parse_prio(str, &v);

	if (!err)
		snprintf(buf, sizeof(buf), "0x%08" PRIx32, v);
	if (want_err)
		parse_reject("prio", str, err, want_err, buf);
	else
		parse_case("prio", str, err, buf, want);
}

static void proto(const char *str, const char *want, int want_err)
{
	uint8_t v = 0;
	char buf[PARSE_BUF_LEN] = "";
	int err = parse_proto(str, &v);

	if (!err)
		snprintf(buf, sizeof(buf), "%u", v);
	if (want_err)
		parse_reject("proto", str, err, want_err, buf);
	else
		parse_case("proto", str, err, buf, want);
}

static void family(const char *str, const char *want, int want_err)
{
	uint8_t v = 0;
	char buf[PARSE_BUF_LEN] = "";
	int err = parse_family(str, &v);

	if (!err)
		snprintf(buf, sizeof(buf), "%s",
			 v == AF_INET ? "AF_INET" : v == AF_INET6 ? "AF_INET6" : "?");
	if (want_err)
		parse_reject("family", str, err, want_err, buf);
	else
		parse_case("family", str, err, buf, want);
}

static void integer(const char *str, int64_t min, int64_t max,
		    const char *want, int want_err)
{
	char buf[PARSE_BUF_LEN] = "";
	int64_t v = 0;
	int err = parse_int(str, min, max, &v);

	if (!err)
		snprintf(buf, sizeof(buf), "%" PRId64, v);
	if (want_err)
		parse_reject("int", str, err, want_err, buf);
	else
		parse_case("int", str, err, buf, want);
}

static void uinteger(const char *str, int base, uint64_t max,
		     const char *want, int want_err)
{
	char buf[PARSE_BUF_LEN] = "";
	uint64_t v = 0;
	int err = parse_uint(str, base, max, &v);

	if (!err)
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	if (want_err)
		parse_reject("uint", str, err, want_err, buf);
	else
		parse_case("uint", str, err, buf, want);
}

static void text(const char *what, const char *got, const char *want)
{
	char fmt[96];

	snprintf(fmt, sizeof(fmt), "%s = \"%%s\"", what);
	ok(!strcmp(got, want), fmt, want, got);
}

static void test_parse(void)
{
	struct pacer_prefix p = { .family = AF_INET6, .plen = 32,
				  .addr = { 0x20, 0x01, 0x0d, 0xb8 } };
	char buf[PARSE_BUF_LEN];

	uinteger("65535", 10, 65535, "65535", 0);
	uinteger("0x10", 0, UINT32_MAX, "16", 0);
	uinteger("010", 0, UINT32_MAX, "8", 0);
	uinteger("ff", 16, 0xffff, "255", 0);
	uinteger("65536", 10, 65535, NULL, -ERANGE);
	uinteger("99999999999999999999", 10, UINT64_MAX, NULL, -ERANGE);
	uinteger("-1", 10, 65535, NULL, -EINVAL);
	uinteger("+1", 10, 65535, NULL, -EINVAL);
	uinteger(" 1", 10, 65535, NULL, -EINVAL);
	uinteger("1 ", 10, 65535, NULL, -EINVAL);
	uinteger("", 10, 65535, NULL, -EINVAL);
	uinteger("0x", 0, 65535, NULL, -EINVAL);
	integer("-64", -64, 256, "-64", 0);
	integer("256", -64, 256, "256", 0);
	integer("0", -64, 256, "0", 0);
	integer("-65", -64, 256, NULL, -ERANGE);
	integer("257", -64, 256, NULL, -ERANGE);
	integer("-", -64, 256, NULL, -EINVAL);
	integer("--1", -64, 256, NULL, -EINVAL);
	integer("1.5", -64, 256, NULL, -EINVAL);

	prefix("10.0.0.0/8", "10.0.0.0/8", 0);
	prefix("10.1.2.3", "10.1.2.3/32", 0);
	prefix("10.1.2.3/0", "10.1.2.3/0", 0);
	prefix("2001:db8::/32", "2001:db8::/32", 0);
	prefix("::1", "::1/128", 0);
	prefix("::ffff:10.0.0.1/96", "::ffff:10.0.0.1/96", 0);
	prefix("10.0.0.0/33", NULL, -ERANGE);
	prefix("2001:db8::/129", NULL, -ERANGE);
	prefix("10.0.0.300", NULL, -EINVAL);
	prefix("10.0.0", NULL, -EINVAL);
	prefix("10.0.0.0/", NULL, -EINVAL);
	prefix("10.0.0.0/x", NULL, -EINVAL);
	prefix("10.0.0.0/-1", NULL, -EINVAL);
	prefix("/8", NULL, -EINVAL);
	prefix("host", NULL, -EINVAL);
	prefix("1111:2222:3333:4444:5555:6666:7777:8888:9999/64", NULL, -EINVAL);
	text("format_prefix 2001:db8::/32", format_prefix(buf, sizeof(buf), &p),
	     "2001:db8::/32");

	ports("80", "80..80", 0);
	ports("0", "0..0", 0);
	ports("1000-2000", "1000..2000", 0);
	ports("5-5", "5..5", 0);
	ports("0-65535", "0..65535", 0);
	ports("65536", NULL, -ERANGE);
	ports("1-65536", NULL, -ERANGE);
	ports("2000-1000", NULL, -ERANGE);
	ports("123456789-2", NULL, -ERANGE);
	ports("http", NULL, -EINVAL);
	ports("-80", NULL, -EINVAL);
	ports("80-", NULL, -EINVAL);
	ports("1-2-3", NULL, -EINVAL);
	ports("x-80", NULL, -EINVAL);
	/* As many leading zeros as "sport 00000080" takes, in a range too. */
	ports("00000080-90", "80..90", 0);
	ports("000000000000000000000000080-0000000000000000000090", "80..90", 0);
	ports("000000000000000000000065536-1", NULL, -ERANGE);
	ports("00000000x-1", NULL, -EINVAL);
	text("format_ports 80", format_ports(buf, sizeof(buf), 80, 80), "80");
	text("format_ports 1000-2000",
	     format_ports(buf, sizeof(buf), 1000, 2000), "1000-2000");

	mark("0x10", "0x10/0xffffffff", 0);
	mark("16/0xff", "0x10/0xff", 0);
	mark("0x1/1", "0x1/0x1", 0);
	mark("0xffffffff", "0xffffffff/0xffffffff", 0);
	mark("010", "0x8/0xffffffff", 0);
	mark("0x3/0x1", "0x3/0x1", 0);	/* the caller refuses stray bits */
	mark("0x100000000", NULL, -ERANGE);
	mark("1/0x100000000", NULL, -ERANGE);
	mark("x", NULL, -EINVAL);
	mark("1/", NULL, -EINVAL);
	mark("/1", NULL, -EINVAL);
	mark("1/x", NULL, -EINVAL);
	mark("-1", NULL, -EINVAL);
	mark("0000000000000000000000000000000000000000000000000000000000000000001/0xff",
	     "0x1/0xff", 0);
	mark("0000000000000000000000000000000000000000000000000000000000000000001x/0xff",
	     NULL, -EINVAL);

	prio("1:10", "0x00010010", 0);
	prio("ffff:ffff", "0xffffffff", 0);
	prio("1:", "0x00010000", 0);
	prio("0:5", "0x00000005", 0);
	prio("10", "0x0000000a", 0);
	prio("4294967295", "0xffffffff", 0);
	prio("10000:1", NULL, -ERANGE);
	prio("1:10000", NULL, -ERANGE);
	prio("4294967296", NULL, -ERANGE);
	prio(":1", NULL, -EINVAL);
	prio("1:x", NULL, -EINVAL);
	prio("g:1", NULL, -EINVAL);
	prio("1:2:3", NULL, -EINVAL);
	prio("0x10", NULL, -EINVAL);
	prio("00000001:10", "0x00010010", 0);
	prio("000000010000:1", NULL, -ERANGE);
	prio("00000000g:1", NULL, -EINVAL);
	text("format_prio 0x10010", format_prio(buf, sizeof(buf), 0x10010),
	     "1:10");
	text("format_prio 5", format_prio(buf, sizeof(buf), 5), "5");
	text("format_prio 0xffff0000",
	     format_prio(buf, sizeof(buf), 0xffff0000), "ffff:0");

	proto("tcp", "6", 0);
	proto("UDP", "17", 0);
	proto("icmp", "1", 0);
	proto("icmpv6", "58", 0);
	proto("sctp", "132", 0);
	proto("0", "0", 0);
	proto("255", "255", 0);
	proto("256", NULL, -ERANGE);
	proto("gre", NULL, -EINVAL);
	proto("", NULL, -EINVAL);
	text("proto_name 6", proto_name(6), "tcp");
	text("proto_name 47", proto_name(47) ? proto_name(47) : "(null)",
	     "(null)");

	family("inet", "AF_INET", 0);
	family("inet6", "AF_INET6", 0);
	family("INET6", "AF_INET6", 0);
	family("ipx", NULL, -EINVAL);
	family("ipv4", NULL, -EINVAL);
	family("inet4", NULL, -EINVAL);
	family("2", NULL, -EINVAL);
	family("", NULL, -EINVAL);
	text("family_name AF_INET", family_name(AF_INET), "inet");
	text("family_name AF_INET6", family_name(AF_INET6), "inet6");
	text("family_name AF_UNIX",
	     family_name(AF_UNIX) ? family_name(AF_UNIX) : "(null)", "(null)");
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
	/* not 0, but below a bit per second: never 0 ("unlimited") */
	parses(parse_rate, "rate", "0bit", 0);
	parses(parse_rate, "rate", "0.000kbit", 0);
	parses(parse_rate, "rate", "1.5bit", 1);
	parses(parse_rate, "rate", "0.001kbit", 1);
	parses(parse_rate, "rate", "0.125bps", 1);
	rejects(parse_rate, "rate", "0.5bit", -ERANGE);
	rejects(parse_rate, "rate", ".5bit", -ERANGE);
	rejects(parse_rate, "rate", "0.0001kbit", -ERANGE);
	rejects(parse_rate, "rate", "0.1bps", -ERANGE);
	/* every digit of a long fraction counts */
	parses(parse_rate, "rate", "1.999999999999999999999tbit",
	       1999999999999ULL);
	rejects(parse_rate, "rate", "0.00000000000000000001tbps", -ERANGE);

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
	/* a part of a byte is dropped, as tc does; below one byte, refused */
	parses(parse_size, "size", "0", 0);
	parses(parse_size, "size", "0.0", 0);
	parses(parse_size, "size", "0.5k", 512);
	parses(parse_size, "size", "1500.0", 1500);
	parses(parse_size, "size", "0.0009765625k", 1);
	parses(parse_size, "size", "0.000000000931322574615478515625g", 1);
	parses(parse_size, "size", "1.9", 1);
	parses(parse_size, "size", "1.5b", 1);
	parses(parse_size, "size", "0.1m", 104857);
	parses(parse_size, "size", "1.0000000000000000000001g", 1073741824);
	rejects(parse_size, "size", "0.5", -ERANGE);
	rejects(parse_size, "size", "0.0009k", -ERANGE);

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
	/* not 0, but below a nanosecond: refused; a part of one dropped */
	parses(parse_time, "time", "0ns", 0);
	parses(parse_time, "time", "1.5ns", 1);
	parses(parse_time, "time", "0.000000001s", 1);
	rejects(parse_time, "time", "0.5ns", -ERANGE);
	rejects(parse_time, "time", "0.0000000001s", -ERANGE);

	formats(format_rate, "rate", 10000000, "10Mbit");
	formats(format_rate, "rate", 10000000000ULL, "10Gbit");
	formats(format_rate, "rate", 1000, "1Kbit");
	formats(format_rate, "rate", 999, "999bit");
	formats(format_rate, "rate", 1500000, "1500Kbit");
	formats(format_rate, "rate", 2000000000000ULL, "2Tbit");
	formats(format_rate, "rate", 0, "0bit");
	formats(format_rate_approx, "measured rate", 998924, "999Kbit");
	formats(format_rate_approx, "measured rate", 999499, "999Kbit");
	formats(format_rate_approx, "measured rate", 999500, "1.00Mbit");
	formats(format_rate_approx, "measured rate", 19834567, "19.8Mbit");
	formats(format_rate_approx, "measured rate", 1692000, "1.69Mbit");
	formats(format_rate_approx, "measured rate", 640, "640bit");
	formats(format_rate_approx, "measured rate", 999, "999bit");
	formats(format_rate_approx, "measured rate", 1000, "1.00Kbit");
	formats(format_rate_approx, "measured rate", 0, "0bit");
	formats(format_rate_approx, "measured rate", 10000000000000ULL,
		"10.0Tbit");
	formats(format_rate_approx, "measured rate", 2000000000000000ULL,
		"2000Tbit");
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
	/* what rounds to 1000 of a unit is in the next one, not "1e+03" */
	formats(format_time, "time", 999499, "999us");
	formats(format_time, "time", 999500, "1ms");
	formats(format_time, "time", 999600000, "1s");
	formats(format_time, "time", 999999999, "1s");
	formats(format_time, "time", 999499999999ULL, "999s");
	formats(format_time, "time", 999700000000ULL, "1000s");

	test_parse();

	printf("1..%d\n", tests);
	printf("%d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
