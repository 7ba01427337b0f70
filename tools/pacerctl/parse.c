// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: the values that are not units: integers, address families
 * and prefixes, port ranges, marks, priorities and IP protocols, as ip
 * and tc write them.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "parse.h"

/*
 * An unsigned integer that ends at @stop ('\0': the end of @str), without
 * copying it out first: however many leading zeros it has, it is read.
 */
static int parse_uint_to(const char *str, char stop, int base, uint64_t max,
			 uint64_t *value)
{
	unsigned long long v;
	char *end;

	if (base == 16 ? !isxdigit((unsigned char)*str) :
			 !isdigit((unsigned char)*str))
		return -EINVAL;
	errno = 0;
	v = strtoull(str, &end, base);
	if (*end != stop)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*value = v;
	return 0;
}

/**
 * parse_uint() - parse an unsigned integer
 * @str: the text: digits only (no sign, no white space)
 * @base: as strtoull's: 10, 16 (an optional 0x), or 0 (0x for
 *	hexadecimal, a leading 0 for octal, else decimal)
 * @max: the largest value allowed
 * @value: the value
 *
 * Return: 0, -EINVAL, or -ERANGE above @max.
 */
int parse_uint(const char *str, int base, uint64_t max, uint64_t *value)
{
	return parse_uint_to(str, '\0', base, max, value);
}

/**
 * parse_int() - parse a decimal integer, optionally negative
 * @str: the text: an optional '-', then digits
 * @min: the smallest value allowed
 * @max: the largest value allowed
 * @value: the value
 *
 * Return: 0, -EINVAL, or -ERANGE outside [@min, @max].
 */
int parse_int(const char *str, int64_t min, int64_t max, int64_t *value)
{
	long long v;
	char *end;

	if (!isdigit((unsigned char)str[*str == '-']))
		return -EINVAL;
	errno = 0;
	v = strtoll(str, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*value = v;
	return 0;
}

static const struct {
	const char *name;
	uint8_t family;
} families[] = {
	{ "inet", AF_INET },
	{ "inet6", AF_INET6 },
};

/**
 * parse_family() - parse an address family, by ip's name for it
 * @str: "inet" (IPv4) or "inet6" (IPv6)
 * @family: AF_INET or AF_INET6
 *
 * Return: 0 or -EINVAL.
 */
int parse_family(const char *str, uint8_t *family)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (!strcasecmp(str, families[i].name)) {
			*family = families[i].family;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * family_name() - the name parse_family() knows an address family by
 * @family: AF_INET or AF_INET6
 *
 * Return: "inet" or "inet6", or NULL for another family.
 */
const char *family_name(uint8_t family)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].family == family)
			return families[i].name;
	return NULL;
}

/**
 * parse_prefix() - parse "ADDRESS[/LENGTH]", IPv4 or IPv6
 * @str: the text; without a length, the prefix is the one address
 * @prefix: the prefix; host bits are kept as written
 *
 * Return: 0, -EINVAL, or -ERANGE for a length beyond the family's.
 */
int parse_prefix(const char *str, struct pacer_prefix *prefix)
{
	const char *slash = strchr(str, '/');
	size_t alen = slash ? (size_t)(slash - str) : strlen(str);
	struct pacer_prefix p = { 0 };
	char addr[INET6_ADDRSTRLEN];
	uint64_t plen;
	int bits, err;

	if (alen >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, str, alen);
	addr[alen] = '\0';

	if (inet_pton(AF_INET, addr, p.addr) == 1) {
		p.family = AF_INET;
		bits = 32;
	} else if (inet_pton(AF_INET6, addr, p.addr) == 1) {
		p.family = AF_INET6;
		bits = 128;
	} else {
		return -EINVAL;
	}

	plen = bits;
	if (slash) {
		err = parse_uint(slash + 1, 10, bits, &plen);
		if (err)
			return err;
	}
	p.plen = plen;
	*prefix = p;
	return 0;
}

/**
 * parse_ports() - parse a port ("80") or a range of ports ("1000-2000")
 * @str: the text
 * @min: the lowest port
 * @max: the highest port, @min for a single port
 *
 * Return: 0, -EINVAL, or -ERANGE for a port above 65535 or a range that
 * ends below its start.
 */
int parse_ports(const char *str, uint16_t *min, uint16_t *max)
{
	const char *dash = strchr(str, '-');
	uint64_t lo, hi;
	int err;

	if (!dash) {
		err = parse_uint(str, 10, UINT16_MAX, &lo);
		hi = lo;
	} else {
		err = parse_uint_to(str, '-', 10, UINT16_MAX, &lo);
		if (err == -EINVAL)
			return err;
		err = parse_uint(dash + 1, 10, UINT16_MAX, &hi) ?: err;
	}
	if (err)
		return err;
	if (hi < lo)
		return -ERANGE;
	*min = lo;
	*max = hi;
	return 0;
}

/**
 * parse_mark() - parse a firewall mark and its mask, "VALUE[/MASK]"
 * @str: the text; each number as strtoul with base 0 reads it
 * @mark: the value
 * @mask: the mask, 0xffffffff when none is written
 *
 * Bits of the value outside the mask are for the caller to refuse.
 *
 * Return: 0, -EINVAL, or -ERANGE for a number beyond 32 bits.
 */
int parse_mark(const char *str, uint32_t *mark, uint32_t *mask)
{
	const char *slash = strchr(str, '/');
	uint64_t v, m = UINT32_MAX;
	int err;

	if (slash) {
		err = parse_uint(slash + 1, 0, UINT32_MAX, &m);
		if (err == -EINVAL)
			return err;
		err = parse_uint_to(str, '/', 0, UINT32_MAX, &v) ?: err;
	} else {
		err = parse_uint(str, 0, UINT32_MAX, &v);
	}
	if (err)
		return err;
	*mark = v;
	*mask = m;
	return 0;
}

/**
 * parse_prio() - parse a packet priority as tc writes a class id
 * @str: "MAJ:MIN" in hexadecimal (1:10 is 0x00010010; "MAJ:" is MAJ:0),
 *	or a plain decimal number
 * @prio: the value
 *
 * Return: 0, -EINVAL, or -ERANGE for a part above ffff or a number above
 * 32 bits.
 */
int parse_prio(const char *str, uint32_t *prio)
{
	const char *colon = strchr(str, ':');
	uint64_t maj, min = 0;
	int err;

	if (!colon) {
		err = parse_uint(str, 10, UINT32_MAX, &maj);
		if (!err)
			*prio = maj;
		return err;
	}

	err = parse_uint_to(str, ':', 16, UINT16_MAX, &maj);
	if (err == -EINVAL)
		return err;
	if (colon[1])
		err = parse_uint(colon + 1, 16, UINT16_MAX, &min) ?: err;
	if (err)
		return err;
	*prio = maj << 16 | min;
	return 0;
}

static const struct {
	const char *name;
	uint8_t proto;
} protos[] = {
	{ "icmp", 1 },
	{ "tcp", 6 },
	{ "udp", 17 },
	{ "icmpv6", 58 },
	{ "sctp", 132 },
};

/**
 * parse_proto() - parse an IP protocol, a name or a number
 * @str: "tcp", "udp", "sctp", "icmp", "icmpv6", or 0 to 255
 * @proto: the protocol number
 *
 * Return: 0, -EINVAL, or -ERANGE for a number above 255.
 */
int parse_proto(const char *str, uint8_t *proto)
{
	uint64_t v;
	size_t i;
	int err;

	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		if (!strcasecmp(str, protos[i].name)) {
			*proto = protos[i].proto;
			return 0;
		}
	}
	err = parse_uint(str, 10, UINT8_MAX, &v);
	if (!err)
		*proto = v;
	return err;
}

/**
 * proto_name() - the name parse_proto() knows a protocol by
 * @proto: the protocol number
 *
 * Return: the name, or NULL for one it knows only by number.
 */
const char *proto_name(uint8_t proto)
{
	size_t i;

	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].proto == proto)
			return protos[i].name;
	return NULL;
}

/**
 * format_prefix() - write a prefix as "ADDRESS/LENGTH"
 * @buf: at least PARSE_BUF_LEN bytes
 * @len: its size
 * @prefix: the prefix
 *
 * Return: @buf.
 */
char *format_prefix(char *buf, size_t len, const struct pacer_prefix *prefix)
{
	char addr[INET6_ADDRSTRLEN];

	if (!inet_ntop(prefix->family, prefix->addr, addr, sizeof(addr)))
		snprintf(addr, sizeof(addr), "?");
	snprintf(buf, len, "%s/%u", addr, prefix->plen);
	return buf;
}

/**
 * format_ports() - write a port ("80") or a range ("1000-2000")
 * @buf: at least PARSE_BUF_LEN bytes
 * @len: its size
 * @min: the lowest port
 * @max: the highest port
 *
 * Return: @buf.
 */
char *format_ports(char *buf, size_t len, uint16_t min, uint16_t max)
{
	if (min == max)
		snprintf(buf, len, "%u", min);
	else
		snprintf(buf, len, "%u-%u", min, max);
	return buf;
}

/**
 * format_prio() - write a priority as parse_prio() reads it back
 * @buf: at least PARSE_BUF_LEN bytes
 * @len: its size
 * @prio: the priority
 *
 * Return: @buf: "MAJ:MIN" in hexadecimal when the major part is not 0,
 * else the decimal number.
 */
char *format_prio(char *buf, size_t len, uint32_t prio)
{
	if (prio >> 16)
		snprintf(buf, len, "%" PRIx32 ":%" PRIx32, prio >> 16,
			 prio & 0xffff);
	else
		snprintf(buf, len, "%" PRIu32, prio);
	return buf;
}
