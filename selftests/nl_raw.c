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
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/pacer.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define KSFT_SKIP	4
#define BUF_SIZE	(64 * 1024)
#define AF_INET_	2
#define AF_INET6_	10

/* A request being built, and what its reply turned out to be. */
struct req {
	union {
		struct nlmsghdr nlh;
		char data[8192];
	} u;
	int bad_off;		/* offset of the attribute to blame, or -1 */
	int nest_off;		/* offset of the nest of a missing one, or -1 */
};

struct reply {
	int error;		/* 0 or -errno */
	char msg[256];		/* NLMSGERR_ATTR_MSG, "" if none */
	int offs;		/* NLMSGERR_ATTR_OFFS, -1 if none */
	int miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, -1 if none */
	int miss_nest;		/* NLMSGERR_ATTR_MISS_NEST, -1 if none */
	int objects;		/* messages of the family received (a dump's
				 * objects, a do's reply) */
	char dump[BUF_SIZE];	/* the objects' payloads, for comparison */
	size_t dump_len;
};

static int sock_fd = -1;
static uint16_t family_id;
static uint32_t seq;
static const char *ifname;
static int tests, failures;
static struct reply rep;

/* ------------------------------------------------------------- output */

static void __attribute__((format(printf, 2, 3)))
tap(bool ok, const char *fmt, ...)
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

static void __attribute__((format(printf, 1, 2)))
diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ------------------------------------------------------- message build */

static void msg_init(struct req *r, uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct genlmsghdr *g;

	memset(r, 0, sizeof(*r));
	r->bad_off = -1;
	r->nest_off = -1;
	r->u.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->u.nlh.nlmsg_type = type;
	r->u.nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->u.nlh.nlmsg_seq = ++seq;
	g = NLMSG_DATA(&r->u.nlh);
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : PACER_GENL_VERSION;
}

/* Append an attribute; returns its offset from the message start. */
static int put(struct req *r, uint16_t type, const void *data, size_t len)
{
	int off = NLMSG_ALIGN(r->u.nlh.nlmsg_len);
	struct nlattr *nla = (struct nlattr *)(r->u.data + off);

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(r->u.data)) {
		fprintf(stderr, "nl_raw: request too large\n");
		exit(2);
	}
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)nla + NLA_HDRLEN, data, len);
	memset((char *)nla + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	r->u.nlh.nlmsg_len = off + NLA_HDRLEN + NLA_ALIGN(len);
	return off;
}

static int put_u8(struct req *r, uint16_t type, uint8_t v)
{
	return put(r, type, &v, sizeof(v));
}

static int put_u16(struct req *r, uint16_t type, uint16_t v)
{
	return put(r, type, &v, sizeof(v));
}

static int put_u32(struct req *r, uint16_t type, uint32_t v)
{
	return put(r, type, &v, sizeof(v));
}

/* 64-bit values: the kernel takes them unaligned from requests. */
static int put_u64(struct req *r, uint16_t type, uint64_t v)
{
	return put(r, type, &v, sizeof(v));
}

static int put_str(struct req *r, uint16_t type, const char *s)
{
	return put(r, type, s, strlen(s) + 1);
}

static int nest_start(struct req *r, uint16_t type)
{
	return put(r, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct req *r, int off)
{
	struct nlattr *nla = (struct nlattr *)(r->u.data + off);

	nla->nla_len = r->u.nlh.nlmsg_len - off;
}

/* A pacer request naming the device. */
static void pacer_msg(struct req *r, uint8_t cmd, uint16_t flags)
{
	msg_init(r, family_id, flags, cmd);
	put_str(r, PACER_A_IFNAME, ifname);
}

/* -------------------------------------------------------- transaction */

static void parse_error(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *err = NLMSG_DATA(nlh);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const char *p;

	rep.error = err->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	p = (const char *)err + sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		p += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;
		const char *data = p + NLA_HDRLEN;
		int len = a->nla_len - NLA_HDRLEN;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			snprintf(rep.msg, sizeof(rep.msg), "%.*s", len, data);
			break;
		case NLMSGERR_ATTR_OFFS:
			rep.offs = *(const uint32_t *)data;
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			rep.miss_type = *(const uint32_t *)data;
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			rep.miss_nest = *(const uint32_t *)data;
			break;
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

/*
 * Send a request and read until its ACK, error or end of dump; fills rep.
 * Returns rep.error.
 */
static int transact(struct req *r)
{
	static char buf[BUF_SIZE];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	bool done = false;

	memset(&rep, 0, sizeof(rep));
	rep.offs = rep.miss_type = rep.miss_nest = -1;
	r->u.nlh.nlmsg_flags |= NLM_F_ACK;
	if (sendto(sock_fd, r->u.data, r->u.nlh.nlmsg_len, 0,
		   (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		perror("nl_raw: sendto");
		exit(2);
	}
	while (!done) {
		ssize_t n = recv(sock_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;

		if (n < 0) {
			perror("nl_raw: recv");
			exit(2);
		}
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != r->u.nlh.nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				parse_error(nlh);
				done = true;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				rep.error = *(int *)NLMSG_DATA(nlh);
				done = true;
			} else {
				size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;

				rep.objects++;
				if (rep.dump_len + len <= sizeof(rep.dump)) {
					memcpy(rep.dump + rep.dump_len,
					       NLMSG_DATA(nlh), len);
					rep.dump_len += len;
				}
				if (!(nlh->nlmsg_flags & NLM_F_MULTI) &&
				    !(r->u.nlh.nlmsg_flags & NLM_F_ACK))
					done = true;
			}
		}
	}
	return rep.error;
}

static void sock_open(void)
{
	int one = 1;

	sock_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock_fd < 0) {
		perror("nl_raw: socket");
		exit(2);
	}
	if (setsockopt(sock_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one,
		       sizeof(one)) ||
	    setsockopt(sock_fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
		       sizeof(one))) {
		perror("nl_raw: setsockopt");
		exit(2);
	}
}

/* Find the family's id in CTRL_CMD_GETFAMILY's reply. */
static void resolve_family(void)
{
	struct req r;
	const struct nlattr *a;
	const char *p, *end;

	msg_init(&r, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY);
	put_str(&r, CTRL_ATTR_FAMILY_NAME, PACER_GENL_NAME);
	if (transact(&r) == -ENOENT) {
		printf("TAP version 13\n1..0 # SKIP generic netlink family \"%s\" not found\n",
		       PACER_GENL_NAME);
		exit(KSFT_SKIP);
	}
	if (rep.error || !rep.objects) {
		fprintf(stderr, "nl_raw: resolving \"%s\": %s\n",
			PACER_GENL_NAME, strerror(-rep.error));
		exit(2);
	}
	p = rep.dump + GENL_HDRLEN;
	end = rep.dump + rep.dump_len;
	for (; p + NLA_HDRLEN <= end; p += NLA_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID) {
			family_id = *(const uint16_t *)(p + NLA_HDRLEN);
			return;
		}
	}
	fprintf(stderr, "nl_raw: no CTRL_ATTR_FAMILY_ID in the reply\n");
	exit(2);
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
	int nest;

	pacer_msg(r, cmd, 0);
	nest = nest_start(r, PACER_A_CLASS);
	put_u16(r, PACER_CLASS_A_ID, id);
	return nest;
}

/* A RULE_NEW request to class 0, its nest left open. */
static int rule_msg(struct req *r)
{
	int nest;

	pacer_msg(r, PACER_CMD_RULE_NEW, 0);
	nest = nest_start(r, PACER_A_RULE);
	put_u16(r, PACER_RULE_A_CLASS, 0);
	return nest;
}

/* The class dump (and the rule dump after it), for before/after. */
static size_t snapshot(char *buf, size_t size, int *classes)
{
	struct req r;
	size_t len;

	pacer_msg(&r, PACER_CMD_CLASS_GET, NLM_F_DUMP);
	if (transact(&r)) {
		fprintf(stderr, "nl_raw: class dump: %s (%s)\n",
			strerror(-rep.error), rep.msg);
		exit(2);
	}
	*classes = rep.objects;
	len = rep.dump_len < size ? rep.dump_len : size;
	memcpy(buf, rep.dump, len);
	pacer_msg(&r, PACER_CMD_RULE_GET, NLM_F_DUMP);
	if (transact(&r)) {
		fprintf(stderr, "nl_raw: rule dump: %s (%s)\n",
			strerror(-rep.error), rep.msg);
		exit(2);
	}
	if (len + rep.dump_len <= size) {
		memcpy(buf + len, rep.dump, rep.dump_len);
		len += rep.dump_len;
	}
	return len;
}

static void class_tests(void)
{
	struct req r;
	int nest, n;

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	r.bad_off = put_u64(&r, PACER_CLASS_A_RATE, 500);
	nest_end(&r, nest);
	expect_fail("class new rate 500 bit/s", &r, -EINVAL,
		    "rate must be 0 (unlimited) or 1kbit to 10tbit", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = put_u32(&r, PACER_CLASS_A_TARGET_US, 0);
	nest_end(&r, nest);
	expect_fail("class new target_us 0", &r, -EINVAL,
		    "target must be 1us to 1s", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	put_u32(&r, PACER_CLASS_A_LIMIT_US, 10000);
	r.bad_off = put_u32(&r, PACER_CLASS_A_LIMIT_BYTES, 65536);
	nest_end(&r, nest);
	expect_fail("class new limit_us and limit_bytes", &r, -EINVAL,
		    "limit is a time or a size, not both", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = put_u32(&r, PACER_CLASS_A_OVERHEAD, 300);
	nest_end(&r, nest);
	expect_fail("class new overhead 300", &r, -EINVAL,
		    "overhead must be -64 to 256 bytes", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = put_u32(&r, PACER_CLASS_A_MPU, 5000);
	nest_end(&r, nest);
	expect_fail("class new mpu 5000", &r, -EINVAL,
		    "mpu must be 0 to 4096 bytes", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	r.bad_off = put_str(&r, PACER_CLASS_A_NAME, "abcdefghijklmnopqrst");
	nest_end(&r, nest);
	expect_fail("class new name of 20 bytes", &r, -EINVAL,
		    "name must be at most 15 bytes", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	put_u64(&r, PACER_CLASS_A_RATE, 10000000);
	r.bad_off = put_u64(&r, PACER_CLASS_A_CEIL, 5000000);
	nest_end(&r, nest);
	expect_fail("class new ceil below rate", &r, -EINVAL,
		    "ceil must be 0 (none) or from rate to 10tbit, and needs a rate",
		    -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	r.bad_off = put_u32(&r, PACER_CLASS_A_RATE, 1000000);
	nest_end(&r, nest);
	expect_fail("class new rate as a u32 (wrong size)", &r, -EINVAL,
		    "invalid attribute length", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 7);
	r.bad_off = put_u64(&r, PACER_CLASS_A_STATS, 0);
	nest_end(&r, nest);
	expect_fail("class new with PACER_CLASS_A_STATS (replies only)", &r,
		    -EINVAL, "Attribute failed policy validation", -1);

	pacer_msg(&r, PACER_CMD_CLASS_NEW, 0);
	expect_fail("class new without PACER_A_CLASS", &r, -EINVAL,
		    "pacer: PACER_A_CLASS is required", PACER_A_CLASS);

	pacer_msg(&r, PACER_CMD_CLASS_NEW, 0);
	r.nest_off = nest = nest_start(&r, PACER_A_CLASS);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	nest_end(&r, nest);
	expect_fail("class new without PACER_CLASS_A_ID", &r, -EINVAL,
		    "pacer: PACER_CLASS_A_ID is required", PACER_CLASS_A_ID);

	msg_init(&r, family_id, 0, PACER_CMD_CLASS_NEW);
	nest = nest_start(&r, PACER_A_CLASS);
	put_u16(&r, PACER_CLASS_A_ID, 7);
	nest_end(&r, nest);
	expect_fail("class new without a device", &r, -EINVAL,
		    "pacer: a device is required: PACER_A_IFINDEX or PACER_A_IFNAME",
		    PACER_A_IFNAME);

	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 0);
	r.bad_off = nest + NLA_HDRLEN;	/* PACER_CLASS_A_ID, first in the nest */
	nest_end(&r, nest);
	expect_fail("class new id 0", &r, -EEXIST,
		    "class 0 is the default class and always exists: change it instead",
		    -1);

	nest = class_msg(&r, PACER_CMD_CLASS_DEL, 0);
	r.bad_off = nest + NLA_HDRLEN;
	nest_end(&r, nest);
	expect_fail("class del id 0", &r, -EINVAL,
		    "class 0 is the default class and cannot be deleted", -1);

	nest = class_msg(&r, PACER_CMD_CLASS_SET, 999);
	r.bad_off = nest + NLA_HDRLEN;
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	nest_end(&r, nest);
	expect_fail("class set of a class that does not exist", &r, -ENOENT,
		    "no class with this id on the device", -1);

	/* A change that fails must leave the class as it was. */
	nest = class_msg(&r, PACER_CMD_CLASS_SET, 0);
	put_u64(&r, PACER_CLASS_A_RATE, 2000000);
	r.bad_off = put_u32(&r, PACER_CLASS_A_TARGET_US, 0);
	nest_end(&r, nest);
	expect_fail("class set id 0 rate 2mbit target_us 0", &r, -EINVAL,
		    "target must be 1us to 1s", -1);

	/* The same socket, a valid request: it goes through. */
	nest = class_msg(&r, PACER_CMD_CLASS_NEW, 77);
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	nest_end(&r, nest);
	n = transact(&r);
	tap(!n && rep.objects == 1,
	    "class new id 77 rate 1mbit: %s, %d reply message(s)", errname(n),
	    rep.objects);
	nest = class_msg(&r, PACER_CMD_CLASS_DEL, 77);
	nest_end(&r, nest);
	n = transact(&r);
	tap(!n, "class del id 77: %s", errname(n));
}

static void rule_tests(void)
{
	uint8_t addr[16] = { 10, 0, 0, 0, 1 };
	struct req r;
	int nest;

	nest = rule_msg(&r);
	r.bad_off = put_u8(&r, PACER_RULE_A_FAMILY, 7);
	nest_end(&r, nest);
	expect_fail("rule new family 7", &r, -EINVAL,
		    "family must be AF_INET or AF_INET6", -1);

	nest = rule_msg(&r);
	put_u8(&r, PACER_RULE_A_FAMILY, AF_INET_);
	r.bad_off = put(&r, PACER_RULE_A_SRC, addr, 5);
	put_u8(&r, PACER_RULE_A_SRC_PLEN, 8);
	nest_end(&r, nest);
	expect_fail("rule new AF_INET src of 5 bytes", &r, -EINVAL,
		    "address must be 4 bytes for AF_INET, 16 for AF_INET6", -1);

	nest = rule_msg(&r);
	put_u8(&r, PACER_RULE_A_FAMILY, AF_INET_);
	put(&r, PACER_RULE_A_SRC, addr, 4);
	r.bad_off = put_u8(&r, PACER_RULE_A_SRC_PLEN, 33);
	nest_end(&r, nest);
	expect_fail("rule new AF_INET src/33", &r, -EINVAL,
		    "prefix length must be 0-32 for IPv4, 0-128 for IPv6", -1);

	nest = rule_msg(&r);
	r.bad_off = put(&r, PACER_RULE_A_DST, addr, 16);
	nest_end(&r, nest);
	expect_fail("rule new dst without a family", &r, -EINVAL,
		    "an address needs PACER_RULE_A_FAMILY (AF_INET or AF_INET6)",
		    -1);

	nest = rule_msg(&r);
	put_u8(&r, PACER_RULE_A_FAMILY, AF_INET6_);
	put_u16(&r, PACER_RULE_A_DPORT_MIN, 80);
	r.bad_off = put_u16(&r, PACER_RULE_A_DPORT_MAX, 79);
	nest_end(&r, nest);
	expect_fail("rule new dport 80-79", &r, -EINVAL,
		    "port range must not end below its start", -1);

	nest = rule_msg(&r);
	r.bad_off = put_u32(&r, PACER_RULE_A_MARK, 0x11);
	put_u32(&r, PACER_RULE_A_MARK_MASK, 0xf0);
	nest_end(&r, nest);
	expect_fail("rule new mark 0x11/0xf0", &r, -EINVAL,
		    "mark has bits outside its mask", -1);

	pacer_msg(&r, PACER_CMD_RULE_NEW, 0);
	r.nest_off = nest = nest_start(&r, PACER_A_RULE);
	put_u8(&r, PACER_RULE_A_PROTO, 6);
	nest_end(&r, nest);
	expect_fail("rule new without PACER_RULE_A_CLASS", &r, -EINVAL,
		    "pacer: PACER_RULE_A_CLASS is required", PACER_RULE_A_CLASS);

	pacer_msg(&r, PACER_CMD_RULE_NEW, 0);
	nest = nest_start(&r, PACER_A_RULE);
	r.bad_off = put_u16(&r, PACER_RULE_A_CLASS, 4242);
	nest_end(&r, nest);
	expect_fail("rule new to a class that does not exist", &r, -ENOENT,
		    "no class with this id on the device", -1);

	pacer_msg(&r, PACER_CMD_RULE_DEL, 0);
	nest = nest_start(&r, PACER_A_RULE);
	r.bad_off = put_u32(&r, PACER_RULE_A_PREF, 4242);
	nest_end(&r, nest);
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
	put_u64(&r, PACER_CLASS_A_RATE, 1000000);
	nest_end(&r, nest);
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

	if (argc == 3 && !strcmp(argv[1], "-u")) {
		unpriv = true;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "Usage: nl_raw [-u] IFNAME\n");
		return 2;
	}
	ifname = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);

	sock_open();
	resolve_family();
	printf("TAP version 13\n");
	diag("family \"%s\" is %u; device %s", PACER_GENL_NAME, family_id,
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
	printf("1..%d\n", tests);
	diag("%d passed, %d failed", tests - failures, failures);
	return failures ? 1 : 0;
}
