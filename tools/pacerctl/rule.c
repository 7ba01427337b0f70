// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl rule: the rules that send packets to classes.
 *
 *   pacerctl rule add  dev DEV [ pref N ] [ MATCH ... ] class ID
 *   pacerctl rule del  dev DEV pref N
 *   pacerctl [-j] [-p] rule show dev DEV
 *
 * Arguments are parsed and checked into struct rule_args (its struct
 * pacer_rule_info holds the attributes to send), sent as one request
 * (RULE_NEW, RULE_DEL, or a RULE_GET dump), and each reply of "show" is
 * decoded into struct pacer_rule_info and printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"
#include "print.h"

enum {
	RULE_ADD = 1,
	RULE_DEL = 2,
	RULE_SHOW = 4,
};

/**
 * struct rule_args - the arguments of a rule command
 * @command: its name, for messages ("rule add")
 * @which: RULE_ADD, RULE_DEL or RULE_SHOW
 * @seen: the keywords given, a bit per entry of rule_keywords[]
 * @ifname: the device
 * @rule: the attributes to send (rule.has says which; PACER_RULE_A_FAMILY
 *	only for "family": a prefix carries its own, see rule_family())
 * @family_text: family as written, for messages about combinations
 * @src_text: src as written
 * @dst_text: dst as written
 * @help: help was asked for and printed
 */
struct rule_args {
	const char *command;
	unsigned int which;
	unsigned int seen;
	const char *ifname;
	struct pacer_rule_info rule;
	const char *family_text;
	const char *src_text;
	const char *dst_text;
	bool help;
};

/**
 * struct rule_show_ctx - the state of "rule show" while replies arrive
 * @opts: global options
 * @started: the output is started (the JSON array is open)
 */
struct rule_show_ctx {
	const struct pacer_opts *opts;
	bool started;
};

static int rule_show(int argc, char **argv, const struct pacer_opts *opts);
static int rule_add(int argc, char **argv, const struct pacer_opts *opts);
static int rule_del(int argc, char **argv, const struct pacer_opts *opts);
static int rule_help(int argc, char **argv, const struct pacer_opts *opts);

static const struct pacerctl_cmd rule_cmds[] = {
	{ "show", rule_show, "the rules of a device, in evaluation order" },
	{ "add", rule_add, "add a rule" },
	{ "del", rule_del, "delete a rule" },
	{ "help", rule_help, "this text" },
};

#define RULE_MATCHES \
	"[ family inet|inet6 ] [ src PREFIX ] [ dst PREFIX ] [ proto PROTO ] [ sport PORTS ] [ dport PORTS ] [ mark MARK ] [ prio PRIO ]"

static void rule_usage(FILE *f)
{
	fputs("Usage: pacerctl rule add dev DEV [ pref N ] [ family inet|inet6 ]\n"
	      "                         [ src PREFIX ] [ dst PREFIX ] [ proto PROTO ]\n"
	      "                         [ sport PORTS ] [ dport PORTS ] [ mark V[/M] ]\n"
	      "                         [ prio MAJ:MIN|N ] class ID\n"
	      "       pacerctl rule del dev DEV pref N\n"
	      "       pacerctl [ -j ] [ -p ] rule show dev DEV\n"
	      "       pacerctl rule help\n"
	      "\n"
	      "Commands:\n", f);
	pacer_print_cmds(f, rule_cmds, ARRAY_SIZE(rule_cmds));
	fputs("\n"
	      "Rules are tried in pref order, lowest first; the first that matches\n"
	      "sends the packet to its class.  A rule matches when all its criteria do.\n"
	      "Packets no rule matches go to the class their priority names (its\n"
	      "minor number), else to class 0.\n"
	      "\n"
	      "Values:\n"
	      "    pref N          1 to 4294967295; default: one past the highest in use\n"
	      "    family inet|inet6  IPv4 or IPv6 packets only: with no other\n"
	      "                    criterion, every packet of that family; src and\n"
	      "                    dst must be of it\n"
	      "    src, dst PREFIX an IPv4 or IPv6 address, optionally with /LENGTH\n"
	      "                    (no length: the one address); both of one family\n"
	      "    proto PROTO     tcp, udp, sctp, icmp, icmpv6, or 0 to 255\n"
	      "    sport, dport PORTS  a port (80) or a range (1000-2000)\n"
	      "    mark V[/M]      firewall mark: (mark & M) == V; M defaults to\n"
	      "                    0xffffffff (decimal, hexadecimal with 0x, octal\n"
	      "                    with a leading 0, as ip and tc read it)\n"
	      "    prio MAJ:MIN|N  skb priority, exactly: MAJ:MIN in hexadecimal as tc\n"
	      "                    writes a class id (1:10 is 0x10010), or decimal N\n"
	      "    class ID        the class a matching packet goes to, 0 to 65535\n", f);
}

static int rule_help(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)argc;
	(void)argv;
	(void)opts;
	rule_usage(stdout);
	return EXIT_SUCCESS;
}

/* ---- arguments -------------------------------------------------------- */

static int out_of_range(const char *kw, const char *value, const char *range)
{
	return pacer_usage_error("%s \"%s\" is out of range: expected %s", kw,
				 value, range);
}

static int rule_parse_dev(const char *kw, const char *value,
			  struct rule_args *a)
{
	(void)kw;
	a->ifname = value;
	return pacer_check_ifname(value);
}

static int rule_parse_pref(const char *kw, const char *value,
			   struct rule_args *a)
{
	uint64_t pref;
	int err = parse_uint(value, 10, UINT32_MAX, &pref);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected a number from 1 to %" PRIu32,
					 kw, value, UINT32_MAX);
	if (err || !pref)
		return out_of_range(kw, value, "1 to 4294967295");
	a->rule.pref = pref;
	a->rule.has |= PACER_BIT(PACER_RULE_A_PREF);
	return 0;
}

static int rule_parse_class(const char *kw, const char *value,
			    struct rule_args *a)
{
	a->rule.has |= PACER_BIT(PACER_RULE_A_CLASS);
	return pacer_class_parse_id(kw, value, &a->rule.class_id);
}

static int rule_parse_family(const char *kw, const char *value,
			     struct rule_args *a)
{
	if (parse_family(value, &a->rule.family))
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, PARSE_FAMILY_HELP);
	a->rule.has |= PACER_BIT(PACER_RULE_A_FAMILY);
	a->family_text = value;
	return 0;
}

static int rule_parse_prefix(const char *kw, const char *value,
			     struct rule_args *a)
{
	bool src = !strcmp(kw, "src");
	struct pacer_prefix *p = src ? &a->rule.src : &a->rule.dst;
	int err = parse_prefix(value, p);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, PARSE_PREFIX_HELP);
	if (err)
		return out_of_range(kw, value,
				    "a prefix length of 0-32 for IPv4, 0-128 for IPv6");
	a->rule.has |= PACER_BIT(src ? PACER_RULE_A_SRC : PACER_RULE_A_DST);
	*(src ? &a->src_text : &a->dst_text) = value;
	return 0;
}

static int rule_parse_proto(const char *kw, const char *value,
			    struct rule_args *a)
{
	int err = parse_proto(value, &a->rule.proto);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, PARSE_PROTO_HELP);
	if (err)
		return out_of_range(kw, value, "0 to 255");
	a->rule.has |= PACER_BIT(PACER_RULE_A_PROTO);
	return 0;
}

static int rule_parse_ports(const char *kw, const char *value,
			    struct rule_args *a)
{
	bool sport = !strcmp(kw, "sport");
	struct pacer_rule_info *r = &a->rule;
	int err;

	err = sport ? parse_ports(value, &r->sport_min, &r->sport_max) :
		      parse_ports(value, &r->dport_min, &r->dport_max);
	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, PARSE_PORTS_HELP);
	if (err)
		return out_of_range(kw, value,
				    "ports from 0 to 65535, a range not ending below its start");
	r->has |= sport ? PACER_BIT(PACER_RULE_A_SPORT_MIN) |
			  PACER_BIT(PACER_RULE_A_SPORT_MAX) :
			  PACER_BIT(PACER_RULE_A_DPORT_MIN) |
			  PACER_BIT(PACER_RULE_A_DPORT_MAX);
	return 0;
}

static int rule_parse_mark(const char *kw, const char *value,
			   struct rule_args *a)
{
	struct pacer_rule_info *r = &a->rule;
	char range[96];
	int err = parse_mark(value, &r->mark, &r->mark_mask);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, PARSE_MARK_HELP);
	if (err)
		return out_of_range(kw, value, "32-bit numbers");
	if (r->mark & ~r->mark_mask) {
		snprintf(range, sizeof(range),
			 "a value with no bit outside the mask (0x%" PRIx32 " & ~0x%" PRIx32 " = 0x%" PRIx32 ")",
			 r->mark, r->mark_mask, r->mark & ~r->mark_mask);
		return out_of_range(kw, value, range);
	}
	r->has |= PACER_BIT(PACER_RULE_A_MARK) |
		  PACER_BIT(PACER_RULE_A_MARK_MASK);
	return 0;
}

static int rule_parse_prio(const char *kw, const char *value,
			   struct rule_args *a)
{
	int err = parse_prio(value, &a->rule.prio);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, PARSE_PRIO_HELP);
	if (err)
		return out_of_range(kw, value,
				    "MAJ:MIN with each part 0 to ffff, or a number up to 4294967295");
	a->rule.has |= PACER_BIT(PACER_RULE_A_PRIO);
	return 0;
}

#define RULE_ALL (RULE_ADD | RULE_DEL | RULE_SHOW)

/* The keywords, and the commands that take each. */
static const struct rule_keyword {
	const char *name;
	int (*parse)(const char *kw, const char *value, struct rule_args *a);
	unsigned int commands;
} rule_keywords[] = {
	{ "dev", rule_parse_dev, RULE_ALL },
	{ "pref", rule_parse_pref, RULE_ADD | RULE_DEL },
	{ "family", rule_parse_family, RULE_ADD },
	{ "src", rule_parse_prefix, RULE_ADD },
	{ "dst", rule_parse_prefix, RULE_ADD },
	{ "proto", rule_parse_proto, RULE_ADD },
	{ "sport", rule_parse_ports, RULE_ADD },
	{ "dport", rule_parse_ports, RULE_ADD },
	{ "mark", rule_parse_mark, RULE_ADD },
	{ "prio", rule_parse_prio, RULE_ADD },
	{ "class", rule_parse_class, RULE_ADD },
};

static const char *rule_grammar(unsigned int which)
{
	switch (which) {
	case RULE_ADD:
		return "dev DEV [ pref N ] " RULE_MATCHES " class ID";
	case RULE_DEL:
		return "dev DEV pref N";
	default:
		return "dev DEV";
	}
}

static const struct rule_keyword *rule_keyword(const char *arg,
					       unsigned int which)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rule_keywords); i++)
		if ((rule_keywords[i].commands & which) &&
		    !strcmp(rule_keywords[i].name, arg))
			return &rule_keywords[i];
	return NULL;
}

/*
 * Prefix @kw ("src" or "dst"), written as @text, must be of the family
 * "family" names: the kernel has one family per rule, and refuses an
 * address of the other's length (EINVAL, "address must be 4 bytes for
 * AF_INET, 16 for AF_INET6").  Refused here, naming both words.
 */
static int rule_check_family(const struct rule_args *a, const char *kw,
			     const char *text, const struct pacer_prefix *p)
{
	uint8_t family = a->rule.family;

	if (!a->family_text || !text || p->family == family)
		return 0;
	return pacer_usage_error("family \"%s\" and %s \"%s\" are of different families: family %s takes %s prefixes only",
				 a->family_text, kw, text, family_name(family),
				 family == AF_INET ? "IPv4" : "IPv6");
}

static int rule_check_required(const struct rule_args *a)
{
	const struct pacer_rule_info *r = &a->rule;

	if (!a->ifname)
		return pacer_usage_error("\"%s\" needs \"dev DEV\"", a->command);
	if (a->which == RULE_DEL && !(r->has & PACER_BIT(PACER_RULE_A_PREF)))
		return pacer_usage_error("\"%s\" needs \"pref N\"", a->command);
	if (a->which == RULE_ADD && !(r->has & PACER_BIT(PACER_RULE_A_CLASS)))
		return pacer_usage_error("\"%s\" needs \"class ID\"",
					 a->command);
	if (a->src_text && a->dst_text && r->src.family != r->dst.family)
		return pacer_usage_error("src \"%s\" and dst \"%s\" are of different families: expected both IPv4 or both IPv6",
					 a->src_text, a->dst_text);
	return rule_check_family(a, "src", a->src_text, &r->src) ?:
	       rule_check_family(a, "dst", a->dst_text, &r->dst);
}

static int rule_parse(int argc, char **argv, struct rule_args *a)
{
	const struct rule_keyword *kw;
	unsigned int bit;
	int ret;

	for (; argc > 0; argc--, argv++) {
		if (pacer_is_help(*argv)) {
			rule_usage(stdout);
			a->help = true;
			return 0;
		}
		kw = rule_keyword(*argv, a->which);
		if (!kw)
			return pacer_unknown_arg(*argv, a->command,
						 rule_grammar(a->which));
		bit = 1U << (kw - rule_keywords);
		if (a->seen & bit)
			return pacer_duplicate_arg(kw->name);
		a->seen |= bit;
		ret = pacer_next_value(&argc, &argv) ?:
		      kw->parse(kw->name, *argv, a);
		if (ret)
			return ret;
	}
	return rule_check_required(a);
}

/**
 * pacer_rule_parse_add() - the arguments of "rule add", checked
 * @argc: argument count, after "add"
 * @argv: arguments
 * @ifname: the device they name; NULL when they asked for help (printed)
 * @rule: the rule they describe, for pacer_rule_put()
 *
 * What "rule add" does with its arguments before it sends them, for the
 * unit tests (test_rule.c).
 *
 * Return: 0, or EXIT_USAGE (explained).
 */
int pacer_rule_parse_add(int argc, char **argv, const char **ifname,
			 struct pacer_rule_info *rule)
{
	struct rule_args a = { .command = "rule add", .which = RULE_ADD };
	int ret = rule_parse(argc, argv, &a);

	*ifname = a.help ? NULL : a.ifname;
	*rule = a.rule;
	return ret;
}

/* ---- netlink ---------------------------------------------------------- */

static int rule_put_prefix(struct nl_msg *msg, int attr, int plen_attr,
			   const struct pacer_prefix *p)
{
	return nla_put(msg, attr, p->family == AF_INET ? 4 : 16, p->addr) ?:
	       nla_put_u8(msg, plen_attr, p->plen);
}

/*
 * The family the rule matches, 0 for any: "family", or its prefixes' (the
 * kernel needs it with an address; parsing made sure they agree).
 */
static uint8_t rule_family(const struct pacer_rule_info *r)
{
	if (r->has & PACER_BIT(PACER_RULE_A_FAMILY))
		return r->family;
	if (r->has & PACER_BIT(PACER_RULE_A_SRC))
		return r->src.family;
	if (r->has & PACER_BIT(PACER_RULE_A_DST))
		return r->dst.family;
	return 0;
}

/**
 * pacer_rule_put() - a rule's attributes, as the nest PACER_A_RULE
 * @msg: the request
 * @r: the rule; only the attributes it has are put, and
 *	PACER_RULE_A_FAMILY for a src or dst as well
 *
 * Return: 0, or -EMSGSIZE.
 */
int pacer_rule_put(struct nl_msg *msg, const struct pacer_rule_info *r)
{
	struct nlattr *nest = nla_nest_start(msg, PACER_A_RULE);
	uint8_t family = rule_family(r);
	uint32_t has = r->has;

	if (!nest)
		return -EMSGSIZE;
#define HAS(attr) (has & PACER_BIT(PACER_RULE_A_##attr))
#define PUT(attr, type, v) \
	(HAS(attr) && nla_put_##type(msg, PACER_RULE_A_##attr, v) < 0)
	if (PUT(PREF, u32, r->pref) || PUT(CLASS, u16, r->class_id) ||
	    (family && nla_put_u8(msg, PACER_RULE_A_FAMILY, family) < 0) ||
	    (HAS(SRC) && rule_put_prefix(msg, PACER_RULE_A_SRC,
					 PACER_RULE_A_SRC_PLEN, &r->src) < 0) ||
	    (HAS(DST) && rule_put_prefix(msg, PACER_RULE_A_DST,
					 PACER_RULE_A_DST_PLEN, &r->dst) < 0) ||
	    PUT(PROTO, u8, r->proto) ||
	    PUT(SPORT_MIN, u16, r->sport_min) ||
	    PUT(SPORT_MAX, u16, r->sport_max) ||
	    PUT(DPORT_MIN, u16, r->dport_min) ||
	    PUT(DPORT_MAX, u16, r->dport_max) ||
	    PUT(MARK, u32, r->mark) || PUT(MARK_MASK, u32, r->mark_mask) ||
	    PUT(PRIO, u32, r->prio))
		return -EMSGSIZE;
#undef PUT
#undef HAS
	nla_nest_end(msg, nest);
	return 0;
}

static struct nl_msg *rule_msg(const struct pnl *nl, uint8_t cmd, int flags,
			       const struct rule_args *a)
{
	struct nl_msg *msg = pnl_msg(nl, cmd, flags);

	if (msg && (nla_put_string(msg, PACER_A_IFNAME, a->ifname) < 0 ||
		    (a->rule.has && pacer_rule_put(msg, &a->rule)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static const struct nla_policy rule_policy[PACER_RULE_A_MAX + 1] = {
	[PACER_RULE_A_PREF] = { .type = NLA_U32 },
	[PACER_RULE_A_CLASS] = { .type = NLA_U16 },
	[PACER_RULE_A_FAMILY] = { .type = NLA_U8 },
	[PACER_RULE_A_SRC] = { .type = NLA_BINARY, .maxlen = 16 },
	[PACER_RULE_A_SRC_PLEN] = { .type = NLA_U8 },
	[PACER_RULE_A_DST] = { .type = NLA_BINARY, .maxlen = 16 },
	[PACER_RULE_A_DST_PLEN] = { .type = NLA_U8 },
	[PACER_RULE_A_PROTO] = { .type = NLA_U8 },
	[PACER_RULE_A_SPORT_MIN ... PACER_RULE_A_DPORT_MAX] = {
		.type = NLA_U16
	},
	[PACER_RULE_A_MARK ... PACER_RULE_A_PRIO] = { .type = NLA_U32 },
	[PACER_RULE_A_MATCHES] = { .type = NLA_U64 },
};

/* An address of the rule's family, and its length (default: all of it). */
static int rule_decode_prefix(struct nlattr *addr, struct nlattr *plen,
			      uint8_t family, struct pacer_prefix *p)
{
	int alen = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;

	if (!alen || nla_len(addr) != alen)
		return -EBADMSG;
	p->family = family;
	memcpy(p->addr, nla_data(addr), alen);
	p->plen = plen ? nla_get_u8(plen) : alen * 8;
	return 0;
}

/**
 * pacer_rule_decode() - decode a reply or an event about a rule
 * @nlh: the message
 * @dev: the device it names
 * @rule: the rule; rule->has says which attributes it carried
 *
 * Return: 0, or -EBADMSG if it is malformed or carries no pref.
 */
int pacer_rule_decode(struct nlmsghdr *nlh, struct pacer_msg_dev *dev,
		      struct pacer_rule_info *rule)
{
	struct nlattr *tb[PACER_A_MAX + 1], *rtb[PACER_RULE_A_MAX + 1];
	uint8_t family;
	int i;

	memset(rule, 0, sizeof(*rule));
	if (pacer_msg_parse(nlh, tb, dev) || !tb[PACER_A_RULE] ||
	    nla_parse_nested(rtb, PACER_RULE_A_MAX, tb[PACER_A_RULE],
			     rule_policy) < 0 || !rtb[PACER_RULE_A_PREF])
		return -EBADMSG;

	for (i = 1; i <= PACER_RULE_A_MAX; i++)
		if (rtb[i] && i != PACER_RULE_A_PAD)
			rule->has |= PACER_BIT(i);
	family = rtb[PACER_RULE_A_FAMILY] ?
		 nla_get_u8(rtb[PACER_RULE_A_FAMILY]) : 0;
	rule->family = family;
	if ((rtb[PACER_RULE_A_SRC] &&
	     rule_decode_prefix(rtb[PACER_RULE_A_SRC],
				rtb[PACER_RULE_A_SRC_PLEN], family,
				&rule->src)) ||
	    (rtb[PACER_RULE_A_DST] &&
	     rule_decode_prefix(rtb[PACER_RULE_A_DST],
				rtb[PACER_RULE_A_DST_PLEN], family,
				&rule->dst)))
		return -EBADMSG;
#define GET(attr, field, type) \
	if (rtb[PACER_RULE_A_##attr]) \
		rule->field = nla_get_##type(rtb[PACER_RULE_A_##attr])
	GET(PREF, pref, u32);
	GET(CLASS, class_id, u16);
	GET(PROTO, proto, u8);
	GET(SPORT_MIN, sport_min, u16);
	GET(SPORT_MAX, sport_max, u16);
	GET(DPORT_MIN, dport_min, u16);
	GET(DPORT_MAX, dport_max, u16);
	GET(MARK, mark, u32);
	GET(MARK_MASK, mark_mask, u32);
	GET(PRIO, prio, u32);
	GET(MATCHES, matches, u64);
#undef GET
	/* A lone bound is the whole range; no mask is all the bits. */
	if (!rtb[PACER_RULE_A_SPORT_MAX])
		rule->sport_max = rule->sport_min;
	if (!rtb[PACER_RULE_A_DPORT_MAX])
		rule->dport_max = rule->dport_min;
	if (!rtb[PACER_RULE_A_MARK_MASK])
		rule->mark_mask = UINT32_MAX;
	return 0;
}

/* ---- output ----------------------------------------------------------- */

/**
 * pacer_rule_lone_family() - whether a rule's family is shown on its own
 * @rule: the rule
 *
 * A src or dst shows the rule's family; without either, a rule with a
 * family matches every packet of it, and "rule show" and "dump" must say
 * which, or it reads as a rule that matches every packet.
 *
 * Return: true if "family" is to be printed.
 */
bool pacer_rule_lone_family(const struct pacer_rule_info *rule)
{
	return (rule->has & PACER_BIT(PACER_RULE_A_FAMILY)) &&
	       !(rule->has & (PACER_BIT(PACER_RULE_A_SRC) |
			      PACER_BIT(PACER_RULE_A_DST)));
}

/**
 * pacer_rule_print() - print a rule's attributes
 * @rule: the rule; only the attributes it has are printed
 *
 * Text: "pref 1 src 10.0.0.0/8 dport 80 class 10 (matches 123)";
 * JSON: pref, family, src, dst, proto, sport, dport, mark, mark_mask,
 * prio, class, matches.  The family is printed ("family inet6") only
 * where no src or dst shows it: for a rule that matches every packet of
 * one family, whatever its addresses.
 */
void pacer_rule_print(const struct pacer_rule_info *rule)
{
	char buf[PARSE_BUF_LEN];
	uint32_t has = rule->has;
	const char *name;

#define HAS(attr) (has & PACER_BIT(PACER_RULE_A_##attr))
	print_uint(PRINT_ANY, "pref", "pref %u", rule->pref);
	if (pacer_rule_lone_family(rule)) {
		name = family_name(rule->family);
		if (name)
			print_string(PRINT_ANY, "family", " family %s", name);
		else
			print_uint(PRINT_ANY, "family", " family %u",
				   rule->family);
	}
	if (HAS(SRC))
		print_string(PRINT_ANY, "src", " src %s",
			     format_prefix(buf, sizeof(buf), &rule->src));
	if (HAS(DST))
		print_string(PRINT_ANY, "dst", " dst %s",
			     format_prefix(buf, sizeof(buf), &rule->dst));
	if (HAS(PROTO)) {
		name = proto_name(rule->proto);
		print_uint(name ? PRINT_JSON : PRINT_ANY, "proto",
			   " proto %u", rule->proto);
		if (name)
			print_string(PRINT_FP, NULL, " proto %s", name);
	}
	if (HAS(SPORT_MIN))
		print_string(PRINT_ANY, "sport", " sport %s",
			     format_ports(buf, sizeof(buf), rule->sport_min,
					  rule->sport_max));
	if (HAS(DPORT_MIN))
		print_string(PRINT_ANY, "dport", " dport %s",
			     format_ports(buf, sizeof(buf), rule->dport_min,
					  rule->dport_max));
	if (HAS(MARK)) {
		print_uint(PRINT_ANY, "mark", " mark 0x%x", rule->mark);
		print_uint(PRINT_JSON, "mark_mask", NULL, rule->mark_mask);
		if (rule->mark_mask != UINT32_MAX)
			print_uint(PRINT_FP, NULL, "/0x%x", rule->mark_mask);
	}
	if (HAS(PRIO)) {
		print_uint(PRINT_JSON, "prio", NULL, rule->prio);
		print_string(PRINT_FP, NULL, " prio %s",
			     format_prio(buf, sizeof(buf), rule->prio));
	}
	if (HAS(CLASS))
		print_uint(PRINT_ANY, "class", " class %u", rule->class_id);
	if (HAS(MATCHES))
		print_u64(PRINT_ANY, "matches", " (matches %" PRIu64 ")",
			  rule->matches);
#undef HAS
}

/* ---- commands --------------------------------------------------------- */

static int rule_fail(const struct rule_args *a, int err, const char *extack)
{
	if (err == -ENODEV || err == -EOPNOTSUPP)
		return pacer_dev_fail(a->ifname, err, extack);
	switch (a->which) {
	case RULE_ADD:
		return pacer_fail_request(err, extack, false,
					  "cannot add the rule to device \"%s\"",
					  a->ifname);
	case RULE_DEL:
		return pacer_fail_request(err, extack, false,
					  "cannot delete rule %" PRIu32 " of device \"%s\"",
					  a->rule.pref, a->ifname);
	default:
		return pacer_fail_request(err, extack, false,
					  "cannot list the rules of device \"%s\"",
					  a->ifname);
	}
}

static void rule_show_start(struct rule_show_ctx *ctx)
{
	if (!ctx->started)
		new_json_obj(ctx->opts->json, ctx->opts->pretty);
	ctx->started = true;
}

static int rule_show_reply(struct nl_msg *msg, void *arg)
{
	struct rule_show_ctx *ctx = arg;
	struct pacer_rule_info rule;
	struct pacer_msg_dev dev;
	int err;

	err = pacer_rule_decode(nlmsg_hdr(msg), &dev, &rule);
	if (err)
		return err;
	rule_show_start(ctx);
	open_json_object(NULL);
	pacer_rule_print(&rule);
	close_json_object();
	print_nl();
	return 0;
}

static int rule_request(const struct rule_args *a, uint8_t cmd, int flags,
			struct rule_show_ctx *ctx)
{
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	struct pnl nl;
	int ret, err;

	ret = pacer_open(&nl);
	if (ret)
		goto out;
	msg = rule_msg(&nl, cmd, flags, a);
	if (!msg) {
		ret = pacer_fail("out of memory");
		goto out;
	}
	err = pnl_request(&nl, msg, ctx ? rule_show_reply : NULL, ctx, extack,
			  sizeof(extack));
	if (ctx) {
		if (!err)
			rule_show_start(ctx);	/* "[]" when there is none */
		if (ctx->started)
			delete_json_obj();
	}
	if (err)
		ret = rule_fail(a, err, extack);
	else
		pacer_warn_extack(extack);
out:
	pnl_close(&nl);
	return ret;
}

static int rule_run(int argc, char **argv, const struct pacer_opts *opts,
		    unsigned int which, const char *command, uint8_t cmd)
{
	struct rule_args a = { .command = command, .which = which };
	struct rule_show_ctx ctx = { .opts = opts };
	int ret;

	ret = rule_parse(argc, argv, &a);
	if (ret || a.help)
		return ret;
	if (which == RULE_SHOW)
		return rule_request(&a, cmd, NLM_F_DUMP, &ctx);
	return rule_request(&a, cmd, 0, NULL);
}

static int rule_show(int argc, char **argv, const struct pacer_opts *opts)
{
	return rule_run(argc, argv, opts, RULE_SHOW, "rule show",
			PACER_CMD_RULE_GET);
}

static int rule_add(int argc, char **argv, const struct pacer_opts *opts)
{
	return rule_run(argc, argv, opts, RULE_ADD, "rule add",
			PACER_CMD_RULE_NEW);
}

static int rule_del(int argc, char **argv, const struct pacer_opts *opts)
{
	return rule_run(argc, argv, opts, RULE_DEL, "rule del",
			PACER_CMD_RULE_DEL);
}

/**
 * do_rule() - pacerctl rule COMMAND ...
 * @argc: argument count, the command first
 * @argv: arguments
 * @opts: global options
 *
 * Return: the exit status.
 */
int do_rule(int argc, char **argv, const struct pacer_opts *opts)
{
	return pacer_dispatch(rule_cmds, ARRAY_SIZE(rule_cmds), "command",
			      "rule", argc, argv, opts);
}
