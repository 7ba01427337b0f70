// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: rates, sizes and times as tc writes them.
 *
 * The parsers take a decimal number ("10", "1.5", ".5") and a unit, and
 * compute in integers: "0.1s" is exactly 100000000 ns, never a rounded
 * double.  Unlike tc, a rate or a time needs its unit: tc reads a bare
 * rate as bytes per second and a bare time as microseconds, both common
 * mistakes.  A bare size is bytes, as in tc.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <strings.h>

#include "units.h"

#define KILO UINT64_C(1000)
#define KIBI UINT64_C(1024)

struct unit {
	const char *name;
	uint64_t scale;
};

static const struct unit rate_units[] = {
	{ "bit", 1 },
	{ "kbit", KILO },
	{ "mbit", KILO * KILO },
	{ "gbit", KILO * KILO * KILO },
	{ "tbit", KILO * KILO * KILO * KILO },
	{ "kibit", KIBI },
	{ "mibit", KIBI * KIBI },
	{ "gibit", KIBI * KIBI * KIBI },
	{ "tibit", KIBI * KIBI * KIBI * KIBI },
	{ "bps", 8 },
	{ "kbps", 8 * KILO },
	{ "mbps", 8 * KILO * KILO },
	{ "gbps", 8 * KILO * KILO * KILO },
	{ "tbps", 8 * KILO * KILO * KILO * KILO },
	{ "kibps", 8 * KIBI },
	{ "mibps", 8 * KIBI * KIBI },
	{ "gibps", 8 * KIBI * KIBI * KIBI },
	{ "tibps", 8 * KIBI * KIBI * KIBI * KIBI },
	{ NULL, 0 }
};

static const struct unit size_units[] = {
	{ "", 1 },
	{ "b", 1 },
	{ "k", KIBI },
	{ "kb", KIBI },
	{ "kib", KIBI },
	{ "m", KIBI * KIBI },
	{ "mb", KIBI * KIBI },
	{ "mib", KIBI * KIBI },
	{ "g", KIBI * KIBI * KIBI },
	{ "gb", KIBI * KIBI * KIBI },
	{ "gib", KIBI * KIBI * KIBI },
	{ NULL, 0 }
};

#define NS_PER_US UINT64_C(1000)
#define NS_PER_MS (1000 * NS_PER_US)
#define NS_PER_S (1000 * NS_PER_MS)

static const struct unit time_units[] = {
	{ "ns", 1 }, { "nsec", 1 }, { "nsecs", 1 },
	{ "us", NS_PER_US }, { "usec", NS_PER_US }, { "usecs", NS_PER_US },
	{ "ms", NS_PER_MS }, { "msec", NS_PER_MS }, { "msecs", NS_PER_MS },
	{ "s", NS_PER_S }, { "sec", NS_PER_S }, { "secs", NS_PER_S },
	{ NULL, 0 }
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const struct unit *find_unit(const struct unit *units, const char *s)
{
	for (; units->name; units++)
		if (!strcasecmp(units->name, s))
			return units;
	return NULL;
}

/*
 * The fraction's share of @scale: "0.DIGITS" x @scale, rounded down.
 * DIGITS x @scale is multiplied out from its last digit, as on paper: the
 * carry out of the first is the share, exact however many digits there
 * are.  The carry stays below @scale, so nothing overflows for any unit.
 */
static uint64_t fraction_of(const char *digits, const char *end,
			    uint64_t scale)
{
	uint64_t carry = 0;

	while (end > digits)
		carry = ((uint64_t)(*--end - '0') * scale + carry) / 10;
	return carry;
}

/*
 * "INT[.FRAC]UNIT" or ".FRAC UNIT" -> INT.FRAC x the unit's scale, in
 * whole base units (bit/s, bytes, ns).  A part of a base unit left over is
 * dropped, as tc does; but a value that is not 0 and comes to less than
 * one base unit is refused (-ERANGE), so that it never reads as 0, which
 * often means "unlimited" or "the default".
 */
static int parse_scaled(const char *str, const struct unit *units,
			uint64_t *value)
{
	const char *p = str, *frac = NULL, *frac_end = NULL;
	const struct unit *unit;
	uint64_t whole = 0, v, f;
	bool nonzero = false;

	for (; is_digit(*p); p++) {
		if (whole > (UINT64_MAX - (*p - '0')) / 10)
			return -ERANGE;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		frac = ++p;
		while (is_digit(*p))
			nonzero |= *p++ != '0';
		frac_end = p;
	}
	if (p == str || (frac && frac == frac_end && frac - 1 == str))
		return -EINVAL;		/* no digit at all */

	unit = find_unit(units, p);
	if (!unit)
		return -EINVAL;

	if (whole > UINT64_MAX / unit->scale)
		return -ERANGE;
	v = whole * unit->scale;
	f = frac ? fraction_of(frac, frac_end, unit->scale) : 0;
	if (v > UINT64_MAX - f)
		return -ERANGE;
	if (!v && !f && nonzero)
		return -ERANGE;		/* less than one base unit */
	*value = v + f;
	return 0;
}

/**
 * parse_rate() - parse a rate as tc does ("10mbit", "1.5gbit", "100kbps")
 * @str: the text
 * @bits_per_sec: the rate in bits per second
 *
 * bit, kbit, mbit, gbit, tbit are powers of 1000 and kibit ... tibit of
 * 1024; bps, kbps ... are bytes per second (x 8), as tc reads them.
 * A part of a bit per second is dropped.
 *
 * Return: 0, -EINVAL, or -ERANGE (also for a rate that is not 0 but below
 * 1bit).
 */
int parse_rate(const char *str, uint64_t *bits_per_sec)
{
	return parse_scaled(str, rate_units, bits_per_sec);
}

/**
 * parse_size() - parse a size as tc does ("1500", "64k", "1mb")
 * @str: the text
 * @bytes: the size in bytes
 *
 * k, m, g (and kb, kib, ...) are powers of 1024; b or no unit is bytes.
 * A part of a byte is dropped ("1.9" is 1 byte).
 *
 * Return: 0, -EINVAL, or -ERANGE (also for a size that is not 0 but below
 * 1 byte).
 */
int parse_size(const char *str, uint64_t *bytes)
{
	return parse_scaled(str, size_units, bytes);
}

/**
 * parse_time() - parse a time ("5ms", "100us", "1.5s")
 * @str: the text
 * @ns: the time in nanoseconds
 *
 * A part of a nanosecond is dropped.
 *
 * Return: 0, -EINVAL, or -ERANGE (also for a time that is not 0 but below
 * 1ns).
 */
int parse_time(const char *str, uint64_t *ns)
{
	return parse_scaled(str, time_units, ns);
}

/**
 * format_rate() - write a rate as tc does ("10Mbit", "1500Kbit")
 * @buf: at least UNITS_BUF_LEN bytes
 * @len: its size
 * @bits_per_sec: the rate
 *
 * The largest unit that shows the rate exactly, or, from 1000 of a unit
 * up, the next unit rounded down.
 *
 * Return: @buf.
 */
char *format_rate(char *buf, size_t len, uint64_t bits_per_sec)
{
	static const char *const prefix[] = { "", "K", "M", "G", "T" };
	uint64_t rate = bits_per_sec;
	size_t i;

	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]) - 1; i++) {
		if (rate < KILO || (rate % KILO && rate < KILO * KILO))
			break;
		rate /= KILO;
	}
	snprintf(buf, len, "%" PRIu64 "%sbit", rate, prefix[i]);
	return buf;
}

/**
 * format_rate_approx() - write a measured rate with 3 significant digits
 *	("19.8Mbit", "999Kbit", "640bit")
 * @buf: at least UNITS_BUF_LEN bytes
 * @len: its size
 * @bits_per_sec: the rate
 *
 * For rates that are measured rather than configured: format_rate()
 * would write 998924bit.
 *
 * Return: @buf.
 */
char *format_rate_approx(char *buf, size_t len, uint64_t bits_per_sec)
{
	static const char *const prefix[] = { "K", "M", "G", "T" };
	double rate = bits_per_sec;
	size_t i;

	if (bits_per_sec < KILO) {
		snprintf(buf, len, "%" PRIu64 "bit", bits_per_sec);
		return buf;
	}
	/* The unit in which it shows below 1000 once rounded to 3 digits. */
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]) - 1; i++) {
		rate /= KILO;
		if (rate < 999.5)
			break;
	}
	if (i == sizeof(prefix) / sizeof(prefix[0]) - 1)
		rate /= KILO;
	snprintf(buf, len, "%.*f%sbit", rate < 9.995 ? 2 : rate < 99.95 ? 1 : 0,
		 rate, prefix[i]);
	return buf;
}

/* @v / @unit rounded to nearest, if that is within @tolerance of @v. */
static bool near_multiple(uint64_t v, uint64_t unit, uint64_t tolerance,
			  uint64_t *n)
{
	uint64_t q = v / unit + (v % unit >= unit / 2);
	uint64_t m = q * unit;

	*n = q;
	return v >= unit && (m > v ? m - v : v - m) < tolerance;
}

/**
 * format_size() - write a size as tc does ("64Kb", "1Mb", "1500b")
 * @buf: at least UNITS_BUF_LEN bytes
 * @len: its size
 * @bytes: the size
 *
 * Sizes within 1/1024 of a whole number of Mb (Gb) or 1/64 of a whole
 * number of Kb are written that way, as tc does; the rest in bytes.
 *
 * Return: @buf.
 */
char *format_size(char *buf, size_t len, uint64_t bytes)
{
	const uint64_t mega = KIBI * KIBI, giga = mega * KIBI;
	uint64_t n;

	if (near_multiple(bytes, giga, mega, &n))
		snprintf(buf, len, "%" PRIu64 "Gb", n);
	else if (near_multiple(bytes, mega, KIBI, &n))
		snprintf(buf, len, "%" PRIu64 "Mb", n);
	else if (near_multiple(bytes, KIBI, 16, &n))
		snprintf(buf, len, "%" PRIu64 "Kb", n);
	else
		snprintf(buf, len, "%" PRIu64 "b", bytes);
	return buf;
}

/**
 * format_time() - write a time as tc does ("5ms", "1.5ms", "100us")
 * @buf: at least UNITS_BUF_LEN bytes
 * @len: its size
 * @ns: the time in nanoseconds
 *
 * Three significant digits in the largest unit that is at least 1 once
 * rounded to them, whole seconds (rounded) from 999.5 s up.  A time that
 * rounds to 1000 of a unit is written in the next one: "%.3g" would write
 * 999.5ms as "1e+03ms", which parse_time() refuses.
 *
 * Return: @buf.
 */
char *format_time(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000 * NS_PER_S - NS_PER_S / 2)
		snprintf(buf, len, "%" PRIu64 "s",
			 ns / NS_PER_S + (ns % NS_PER_S >= NS_PER_S / 2));
	else if (ns >= NS_PER_S - NS_PER_MS / 2)
		snprintf(buf, len, "%.3gs", (double)ns / NS_PER_S);
	else if (ns >= NS_PER_MS - NS_PER_US / 2)
		snprintf(buf, len, "%.3gms", (double)ns / NS_PER_MS);
	else if (ns >= NS_PER_US)
		snprintf(buf, len, "%.3gus", (double)ns / NS_PER_US);
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	return buf;
}
