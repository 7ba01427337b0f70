/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: the values that are not units: integers, address families
 * and prefixes, port ranges, marks, priorities and IP protocols.
 *
 * Parsers return 0, -EINVAL for text that does not have the expected
 * form, or -ERANGE for a well-formed value beyond its bounds.  They write
 * their results only on success.  Formatters write into a buffer of
 * PARSE_BUF_LEN bytes and return it.
 */
#ifndef PACERCTL_PARSE_H
#define PACERCTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PARSE_BUF_LEN 64	/* an IPv6 prefix, "/128" included */

/* What each parser accepts, for "expected ..." in error messages. */
#define PARSE_FAMILY_HELP \
	"inet (IPv4) or inet6 (IPv6)"
#define PARSE_PREFIX_HELP \
	"an IPv4 or IPv6 address, optionally with /LENGTH (0-32 for IPv4, 0-128 for IPv6)"
#define PARSE_PORTS_HELP \
	"a port from 0 to 65535, or a range of them (1000-2000)"
#define PARSE_MARK_HELP \
	"VALUE or VALUE/MASK, each a 32-bit number (decimal, hexadecimal with 0x, octal with a leading 0)"
#define PARSE_PRIO_HELP \
	"MAJ:MIN (hexadecimal, as tc writes a class id, each 0 to ffff) or a decimal number up to 4294967295"
#define PARSE_PROTO_HELP \
	"tcp, udp, sctp, icmp, icmpv6 or a number from 0 to 255"

/**
 * struct pacer_prefix - an address prefix
 * @family: AF_INET or AF_INET6
 * @addr: the address, 4 or 16 bytes used, network order
 * @plen: the prefix length
 */
struct pacer_prefix {
	uint8_t family;
	uint8_t addr[16];
	uint8_t plen;
};

int parse_uint(const char *str, int base, uint64_t max, uint64_t *value);
int parse_int(const char *str, int64_t min, int64_t max, int64_t *value);
int parse_family(const char *str, uint8_t *family);
int parse_prefix(const char *str, struct pacer_prefix *prefix);
int parse_ports(const char *str, uint16_t *min, uint16_t *max);
int parse_mark(const char *str, uint32_t *mark, uint32_t *mask);
int parse_prio(const char *str, uint32_t *prio);
int parse_proto(const char *str, uint8_t *proto);

char *format_prefix(char *buf, size_t len, const struct pacer_prefix *prefix);
char *format_ports(char *buf, size_t len, uint16_t min, uint16_t max);
char *format_prio(char *buf, size_t len, uint32_t prio);
const char *proto_name(uint8_t proto);
const char *family_name(uint8_t family);

#endif /* PACERCTL_PARSE_H */
