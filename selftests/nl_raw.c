// SPDX-License-Identifier: GPL-2.0
/*
 * nl_raw: the pacer generic netlink family spoken raw.
 *
 * Usage: nl_raw [-u] IFNAME
 *
 * Opens a plain generic netlink socket (no libnl) with NETLINK_EXT_ACK and
 * NETLINK_CAP_ACK, resolves the "pacer" family, and sends requests
 * pacerctl would never build: out-of-range values, conflicting or missing
 * attributes, attributes of the wrong size.  Each must fail with the
 * expected errno and the kernel's extack message, and point at the
 * offending attribute (NLMSGERR_ATTR_OFFS) or name the missing one
 * (NLMSGERR_ATTR_MISS_TYPE / _MISS_NEST).  The class dump before and after
 * must be identical: nothing is half-applied.  A valid create and delete
 * prove the same socket gets through when the request is right.
 *
 * -u: the unprivileged half (run it as a user without CAP_NET_ADMIN): a
 * dump of the classes works, creating a class fails with EPERM.
 *
 * Output: TAP 13; exit 0 if every test passed, 1 otherwise, 2 on usage
 * or setup errors, 4 (KSFT_SKIP) if the family is not registered.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "genl_raw.h"
#include "ksft.h"

#define BUF_SIZE	(64 * 1024)
#define AF_INET_	2
#define AF_INET6_	10

/* A request, and where its rejection must point. */
struct req {
	struct genl_msg m;
	int bad_off;		/* offset of the attribute to blame, or -1 */
	int nest_off;		/* offset of the nest of a missing one, or -1 */
};

static const char *ifname;
static struct genl_answer rep;

/* ------------------------------------------------------------ requests */

/* A pacer request naming the device; nothing to blame yet. */
static void pacer_msg(struct req *r, uint8_t cmd, uint16_t flags)
{
	r->bad_off = -1;
	r->nest_off = -1;
	pacer_req(&r->m, cmd, flags, ifname);
}

/* Send @r (it must be answered) and fill rep; returns rep.error. */
static int transact(struct req *r)
{
	genl_transact(&r->m, &rep, NULL, NULL);
	return rep.error;
}

/* ------------------------------------------------------------ checks */

static const char *errname(int err)
{
	static char buf[32];

	switch (-err) {
	case 0: return "0";
	case EINVAL: return "-EINVAL";
	case ENOENT: return "-ENOENT";
	case EEXIST: return "-EEXIST";
	case EBUSY: return "-EBUSY";
	case EPERM: return "-EPERM";
	case ENODEV: return "-ENODEV";
	case ERANGE: return "-ERANGE";
	case EOPNOTSUPP: return "-EOPNOTSUPP";
	}
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}

/*
 * Send @r and check its rejection: errno @want, extack text @text, and
 * the attribute the request marked as bad (r->bad_off) or missing
 * (@miss_type inside r->nest_off).
 */
static void expect_fail(const char *name, struct req *r, int want,
			const char *text, int miss_type)
{
	char why[512] = "";
	int n = 0;

	transact(r);
	if (rep.error != want)
		n += snprintf(why + n, sizeof(why) - n, " errno %s, want %s;",
			      errname(rep.error), errname(want));
	if (strcmp(rep.msg, text))
		n += snprintf(why + n, sizeof(why) - n,
			      " extack \"%s\", want \"%s\";", rep.msg, text);
	if (r->bad_off >= 0 && rep.offs != r->bad_off)
		n += snprintf(why + n, sizeof(why) - n,
			      " bad attribute at offset %d, want %d;",
			      rep.offs, r->bad_off);
	if (miss_type >= 0 && rep.miss_type != miss_type)
		n += snprintf(why + n, sizeof(why) - n,
			      " missing attribute type %d, want %d;",
			      rep.miss_type, miss_type);
	if (miss_type >= 0 && rep.miss_nest != r->nest_off)
		n += snprintf(why + n, sizeof(why) - n,
			      " missing attribute's nest at %d, want %d;",
			      rep.miss_nest, r->nest_off);
	if (n)
		tap(false, "%s:%s", name, why);
	else
		tap(true, "%s: %s \"%s\"%s", name, errname(rep.error), rep.msg,
		    r->bad_off >= 0 ? ", offending attribute located" :
		    miss_type >= 0 ? ", missing attribute named" : "");
}

/* A CLASS_NEW (or @cmd) request for class @id, its nest left open. */
static int class_msg(struct req *r, uint8_t cmd, uint16_t id)
{
	pacer_msg(r, cmd, 0);
	return pacer_class_nest(&r->m, id);
}

/* A RULE_NEW request to class 0, its nest left open. */
static int rule_msg(struct req *r)
{
	int nest;

	pacer_msg(r, PACER_CMD_RULE_NEW, 0);
	nest = nla_nest_start(&r->m, PACER_A_RULE);
	nla_put_u16(&r->m, PACER_RULE_A_CLASS, 0);
	return nest;
}

struct bytes {
	char *buf;
	size_t size, len;
};

/* A dump's objects, their payloads end to end: what to compare. */
static void append(const struct nlmsghdr *nlh, void *arg)
{
	struct bytes *b = arg;
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;

	if (b->len + len <= b->size) {
		memcpy(b->buf + b->len, NLMSG_DATA(nlh), len);
		b->len += len;
	}
}

/* The class dump (and the rule dump after it), for before/after. */
static size_t snapshot(char *buf, size_t size, int *classes)
{
	struct bytes b = { .buf = buf, .size = size };
	struct req r;

	pacer_msg(&r, PACER_CMD_CLASS_GET, NLM_F_DUMP);
	genl_transact(&r.m, &rep, append, &b);
	if (rep.error)
		ksft_fatal(0, "class dump: %s (%s)", strerror(-rep.error),
			   rep.msg);
	*classes = rep.objects;
	pacer_msg(&r, PACER_CMD_RULE_GET, NLM_F_DUMP);
	genl_transact(&r.m, &rep, append, &b);
	if (rep.error)
		ksft_fatal(0, "rule dump: %s (%s)", strerror(-rep.error),
			   rep.msg);
	return b.len;
}

static void class_tests(void)
{
	struct req r;
	int nest, n;

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	r.bad_off = nla_put_u64(&r.m, PACER_CLASS_A_RATE, 500);
	nla_nest_end(&r.m, nest);
	expect_fail("class new rate 500 bit/s", &r, -EINVAL,
		    "rate must be 0 (unlimited) or 1kbit to 10tbit", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_TARGET_US, 0);
	nla_nest_end(&r.m, nest);
	expect_fail("class new target_us 0", &r, -EINVAL,
		    "target must be 1us to 1s", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_RTT_US, 10000001);
	nla_nest_end(&r.m, nest);
	expect_fail("class new rtt_us 10000001", &r, -EINVAL,
		    "rtt must be 1us to 10s", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	nla_put_u32(&r.m, PACER_CLASS_A_LIMIT_US, 10000);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_LIMIT_BYTES, 65536);
	nla_nest_end(&r.m, nest);
	expect_fail("class new limit_us and limit_bytes", &r, -EINVAL,
		    "limit is a time or a size, not both", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_OVERHEAD, 300);
	nla_nest_end(&r.m, nest);
	expect_fail("class new overhead 300", &r, -EINVAL,
		    "overhead must be -64 to 256 bytes", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_MPU, 5000);
	nla_nest_end(&r.m, nest);
	expect_fail("class new mpu 5000", &r, -EINVAL,
		    "mpu must be 0 to 4096 bytes", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = nla_put_string(&r.m, PACER_CLASS_A_NAME,
				   "abcdefghijklmnopqrst");
	nla_nest_end(&r.m, nest);
	expect_fail("class new name of 20 bytes", &r, -EINVAL,
		    "name must be at most 15 bytes", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 10000000);
	r.bad_off = nla_put_u64(&r.m, PACER_CLASS_A_CEIL, 5000000);
	nla_nest_end(&r.m, nest);
	expect_fail("class new ceil below rate", &r, -EINVAL,
		    "ceil must be 0 (none) or from rate to 10tbit, and needs a rate",
		    -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_RATE, 1000000);
	nla_nest_end(&r.m, nest);
	expect_fail("class new rate as a u32 (wrong size)", &r, -EINVAL,
		    "invalid attribute length", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	r.bad_off = nla_put_u64(&r.m, PACER_CLASS_A_STATS, 0);
	nla_nest_end(&r.m, nest);
	expect_fail("class new with PACER_CLASS_A_STATS (replies only)", &r,
		    -EINVAL, "Attribute failed policy validation", -1);

	pacer_msg(&r, PACER_CMD_CLASS_NEW, 0);
	expect_fail("class new without PACER_A_CLASS", &r, -EINVAL,
		    "pacer: PACER_A_CLASS is required", PACER_A_CLASS);

	pacer_msg(&r, PACER_CMD_CLASS_NEW, 0);
	r.nest_off = nest = nla_nest_start(&r.m, PACER_A_CLASS);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	nla_nest_end(&r.m, nest);
	expect_fail("class new without PACER_CLASS_A_ID", &r, -EINVAL,
		    "pacer: PACER_CLASS_A_ID is required", PACER_CLASS_A_ID);

	r.bad_off = r.nest_off = -1;
	genl_msg_init(&r.m, pacer_family, NLM_F_REQUEST, PACER_CMD_CLASS_NEW);
	nest = pacer_class_nest(&r.m, 7);
	nla_nest_end(&r.m, nest);
	expect_fail("class new without a device", &r, -EINVAL,
		    "pacer: a device is required: PACER_A_IFINDEX or PACER_A_IFNAME",
		    PACER_A_IFNAME);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 0);
	r.bad_off = nest + NLA_HDRLEN;	/* PACER_CLASS_A_ID, first in the nest */
	nla_nest_end(&r.m, nest);
	expect_fail("class new id 0", &r, -EEXIST,
		    "class 0 is the default class and always exists: change it instead",
		    -1);

	nest = class_msg(&r, PACER_CMD_CLASS_DEL, 0);
	r.bad_off = nest + NLA_HDRLEN;
	nla_nest_end(&r.m, nest);
	expect_fail("class del id 0", &r, -EINVAL,
		    "class 0 is the default class and cannot be deleted", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_SET, 999);
	r.bad_off = nest + NLA_HDRLEN;
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	nla_nest_end(&r.m, nest);
	expect_fail("class set of a class that does not exist", &r, -ENOENT,
		    "no class with this id on the device", -1);

	/* A change that fails must leave the class as it was. */
	nest = class_msg(&r, PACER_CMD_CLASS_SET, 0);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 2000000);
	r.bad_off = nla_put_u32(&r.m, PACER_CLASS_A_TARGET_US, 0);
	nla_nest_end(&r.m, nest);
	expect_fail("class set id 0 rate 2mbit target_us 0", &r, -EINVAL,
		    "target must be 1us to 1s", -1);

	/* The same socket, a valid request: it goes through. */
	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 77);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	nla_nest_end(&r.m, nest);
	n = transact(&r);
	tap(!n && rep.objects == 1,
	    "class new id 77 rate 1mbit: %s, %d reply message(s)", errname(n),
	    rep.objects);
	nest = class_msg(&r, PACER_CMD_CLASS_DEL, 77);
	nla_nest_end(&r.m, nest);
	n = transact(&r);
	tap(!n, "class del id 77: %s", errname(n));
}

static void rule_tests(void)
{
	uint8_t addr[16] = { 10, 0, 0, 0, 1 };
	struct req r;
	int nest;

	nest = rule_msg(&r);
	r.bad_off = nla_put_u8(&r.m, PACER_RULE_A_FAMILY, 7);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new family 7", &r, -EINVAL,
		    "family must be AF_INET or AF_INET6", -1);

	nest = rule_msg(&r);
	nla_put_u8(&r.m, PACER_RULE_A_FAMILY, AF_INET_);
	r.bad_off = nla_put(&r.m, PACER_RULE_A_SRC, addr, 5);
	nla_put_u8(&r.m, PACER_RULE_A_SRC_PLEN, 8);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new AF_INET src of 5 bytes", &r, -EINVAL,
		    "address must be 4 bytes for AF_INET, 16 for AF_INET6", -1);

	nest = rule_msg(&r);
	nla_put_u8(&r.m, PACER_RULE_A_FAMILY, AF_INET_);
	nla_put(&r.m, PACER_RULE_A_SRC, addr, 4);
	r.bad_off = nla_put_u8(&r.m, PACER_RULE_A_SRC_PLEN, 33);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new AF_INET src/33", &r, -EINVAL,
		    "prefix length must be 0-32 for IPv4, 0-128 for IPv6", -1);

	nest = rule_msg(&r);
	r.bad_off = nla_put(&r.m, PACER_RULE_A_DST, addr, 16);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new dst without a family", &r, -EINVAL,
		    "an address needs PACER_RULE_A_FAMILY (AF_INET or AF_INET6)",
		    -1);

	nest = rule_msg(&r);
	nla_put_u8(&r.m, PACER_RULE_A_FAMILY, AF_INET6_);
	nla_put_u16(&r.m, PACER_RULE_A_DPORT_MIN, 80);
	r.bad_off = nla_put_u16(&r.m, PACER_RULE_A_DPORT_MAX, 79);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new dport 80-79", &r, -EINVAL,
		    "port range must not end below its start", -1);

	nest = rule_msg(&r);
	r.bad_off = nla_put_u32(&r.m, PACER_RULE_A_MARK, 0x11);
	nla_put_u32(&r.m, PACER_RULE_A_MARK_MASK, 0xf0);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new mark 0x11/0xf0", &r, -EINVAL,
		    "mark has bits outside its mask", -1);

	pacer_msg(&r, PACER_CMD_RULE_NEW, 0);
	r.nest_off = nest = nla_nest_start(&r.m, PACER_A_RULE);
	nla_put_u8(&r.m, PACER_RULE_A_PROTO, 6);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new without PACER_RULE_A_CLASS", &r, -EINVAL,
		    "pacer: PACER_RULE_A_CLASS is required", PACER_RULE_A_CLASS);

	pacer_msg(&r, PACER_CMD_RULE_NEW, 0);
	nest = nla_nest_start(&r.m, PACER_A_RULE);
	r.bad_off = nla_put_u16(&r.m, PACER_RULE_A_CLASS, 4242);
	nla_nest_end(&r.m, nest);
	expect_fail("rule new to a class that does not exist", &r, -ENOENT,
		    "no class with this id on the device", -1);

	pacer_msg(&r, PACER_CMD_RULE_DEL, 0);
	nest = nla_nest_start(&r.m, PACER_A_RULE);
	r.bad_off = nla_put_u32(&r.m, PACER_RULE_A_PREF, 4242);
	nla_nest_end(&r.m, nest);
	expect_fail("rule del of a pref that does not exist", &r, -ENOENT,
		    "no rule with this pref on the device", -1);
}

static void unprivileged_tests(void)
{
	struct req r;
	int nest, err;

	pacer_msg(&r, PACER_CMD_CLASS_GET, NLM_F_DUMP);
	err = transact(&r);
	tap(!err && rep.objects >= 1, "unprivileged class dump: %s, %d classes",
	    errname(err), rep.objects);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	nla_put_u64(&r.m, PACER_CLASS_A_RATE, 1000000);
	nla_nest_end(&r.m, nest);
	err = transact(&r);
	tap(err == -EPERM, "unprivileged class new: %s, want -EPERM", errname(err));

	pacer_msg(&r, PACER_CMD_STATS_RESET, 0);
	err = transact(&r);
	tap(err == -EPERM, "unprivileged stats reset: %s, want -EPERM",
	    errname(err));
}

int main(int argc, char **argv)
{
	static char before[BUF_SIZE], after[BUF_SIZE];
	bool unpriv = false;
	size_t lb, la;
	int cb, ca;

	ksft_init("nl_raw");
	if (argc == 3 && !strcmp(argv[1], "-u")) {
		unpriv = true;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "Usage: nl_raw [-u] IFNAME\n");
		return KSFT_ERROR;
	}
	ifname = argv[1];

	genl_open();
	ksft_print_header();
	diag("family \"%s\" is %u; device %s", PACER_GENL_NAME, pacer_family,
	     ifname);

	if (unpriv) {
		unprivileged_tests();
	} else {
		lb = snapshot(before, sizeof(before), &cb);
		class_tests();
		rule_tests();
		la = snapshot(after, sizeof(after), &ca);
		tap(cb == ca && lb == la && !memcmp(before, after, lb),
		    "class and rule dumps before and after are identical (%d classes, %zu bytes; after: %d, %zu)",
		    cb, lb, ca, la);
	}
	return ksft_finish();
}
