// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl dump dev DEV: a device's configuration as the pacerctl commands
 * that recreate it, for "pacerctl -b" (as "wg showconf" is for setconf).
 *
 * In order: the device's caps, class 0 (changed, as it always exists),
 * the other classes, the rules by pref, then the redirects "attach" makes
 * (matchall mirred filters of this namespace's devices that send their
 * ingress or egress to DEV; one that attach cannot make - on a chain other
 * than 0, or in a shared filter block - is a comment and a warning).
 * Values are written exactly, in base units
 * (bit, bytes, us), and defaults explicitly, but for a burst that is the
 * default of its rate: that one is left out, so that the restored class
 * keeps a burst that follows its rate, as it did.  Class names are
 * quoted as "pacerctl -b" reads them back, and so are device names that
 * have a quote or start with '#'.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"
#include "parse.h"

static const char *const dump_gso[] = { "auto", "split", "keep" };

static void dump_usage(FILE *f)
{
	fputs("Usage: pacerctl dump dev DEV\n"
	      "\n"
	      "Prints the commands that recreate DEV's configuration - caps,\n"
	      "classes, rules and the redirects \"attach\" made - for\n"
	      "\"pacerctl -b\": pacerctl dump dev pacer0 >pacer0.conf, and later\n"
	      "pacerctl -b pacer0.conf on a device of that name.\n", f);
}

/**
 * struct dump_ctx - the device dumped, and what was said about it
 * @ifname: its name
 * @ifindex: its ifindex
 * @warned: filters of shared blocks warned about, as block, chain, pref:
 *	each comes once for every side on its block, and is warned about
 *	once (the first so many)
 * @n_warned: how many
 */
struct dump_ctx {
	const char *ifname;
	uint32_t ifindex;
	uint32_t warned[16][3];
	unsigned int n_warned;
};

/* A name in double quotes, as batch_split() reads it back. */
static void dump_quoted(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else
			putchar(*s);
	}
	putchar('"');
}

/*
 * A device's name as one word that batch_split() reads back: as it is,
 * unless it has what would start a quote or a comment there.  A name
 * may hold any byte but '/', ':' and white space (dev_valid_name()):
 * "p\"0", "p'0" and "#p0" are all device names.
 */
static void dump_word(const char *s)
{
	if (*s == '#' || strpbrk(s, "\"'"))
		dump_quoted(s);
	else
		fputs(s, stdout);
}

/* "OBJECT COMMAND dev DEV", the start of a line about device @ifname. */
static void dump_start(const char *what, const char *ifname)
{
	printf("%s dev ", what);
	dump_word(ifname);
}

static int dump_on_dev(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[PACER_A_MAX + 1];
	struct dump_ctx *ctx = arg;
	struct pacer_msg_dev dev;

	if (pacer_msg_parse(nlmsg_hdr(msg), tb, &dev))
		return -EBADMSG;
	ctx->ifindex = dev.ifindex;
	if (tb[PACER_A_MAX_CLASSES] && tb[PACER_A_MAX_RULES]) {
		dump_start("dev set", ctx->ifname);
		printf(" max_classes %u max_rules %u",
		       nla_get_u32(tb[PACER_A_MAX_CLASSES]),
		       nla_get_u32(tb[PACER_A_MAX_RULES]));
	}
	if (tb[PACER_A_MAX_MEMORY])
		printf(" max_memory %u", nla_get_u32(tb[PACER_A_MAX_MEMORY]));
	putchar('\n');
	return 0;
}

/*
 * The kernel's burst for a class that was given none (module/class.c):
 * 10 ms at the rate, at least 16 KiB when the class splits GSO packets
 * and 128 KiB when it keeps them whole, at most 1000 s at the rate.
 */
static uint64_t dump_default_burst(uint64_t rate, uint8_t gso)
{
	unsigned __int128 div = (unsigned __int128)1000000000 * 8;
	unsigned __int128 at10ms = (unsigned __int128)rate * 10000000 / div;
	unsigned __int128 at1000s = (unsigned __int128)rate * 1000000000000ULL / div;
	bool split = gso == PACER_GSO_SPLIT ||
		     (gso == PACER_GSO_AUTO && rate < PACER_GSO_AUTO_SPLIT_BELOW);
	unsigned __int128 min = split ? 16 << 10 : 2 * 65536;
	unsigned __int128 burst = at10ms > min ? at10ms : min;

	if (!rate)
		return 0;
	if (at1000s > UINT32_MAX)
		at1000s = UINT32_MAX;
	return burst < at1000s ? burst : at1000s;
}

/* The attributes of a class, after "class add|change dev DEV id N". */
static void dump_class_attrs(const struct pacer_class_info *c, bool rate)
{
	if (rate)
		printf(" rate %" PRIu64 "bit", c->rate);
	if (c->burst != dump_default_burst(c->rate, c->gso))
		printf(" burst %u", c->burst);
	if (c->ceil)
		printf(" ceil %" PRIu64 "bit", c->ceil);
	else
		printf(" ceil none");
	if (c->has & PACER_BIT(PACER_CLASS_A_LIMIT_BYTES))
		printf(" limit %u", c->limit_bytes);
	else if (c->has & PACER_BIT(PACER_CLASS_A_LIMIT_AUTO))
		printf(" limit auto");
	else
		printf(" limit %uus", c->limit_us);
	printf(" target %uus", c->target_us);
	/* A kernel that predates rtt leaves it out: so does the dump. */
	if (c->has & PACER_BIT(PACER_CLASS_A_RTT_US))
		printf(" rtt %uus", c->rtt_us);
	printf(" overhead %d mpu %u", c->overhead, c->mpu);
	if (c->has & PACER_BIT(PACER_CLASS_A_GSO) &&
	    c->gso < ARRAY_SIZE(dump_gso))
		printf(" gso %s", dump_gso[c->gso]);
	if (*c->name) {
		fputs(" name ", stdout);
		dump_quoted(c->name);
	}
}

static int dump_on_class(struct nl_msg *msg, void *arg)
{
	struct dump_ctx *ctx = arg;
	struct pacer_class_info c;
	struct pacer_msg_dev dev;

	if (pacer_class_decode(nlmsg_hdr(msg), &dev, &c))
		return -EBADMSG;
	if (c.id == PACER_CLASS_DEFAULT) {
		dump_start("class change", ctx->ifname);
		printf(" id 0");
		dump_class_attrs(&c, true);
	} else if (c.rate) {
		dump_start("class add", ctx->ifname);
		printf(" id %u", c.id);
		dump_class_attrs(&c, true);
	} else {
		/* "add" takes a rate; "change" may make it unlimited. */
		dump_start("class add", ctx->ifname);
		printf(" id %u rate 1kbit\n", c.id);
		dump_start("class change", ctx->ifname);
		printf(" id %u rate 0", c.id);
		dump_class_attrs(&c, false);
	}
	putchar('\n');
	return 0;
}

/**
 * pacer_rule_dump() - a rule as the "rule add" line that recreates it
 * @ifname: the device it is added to
 * @rule: the rule, as pacer_rule_decode() read it
 *
 * Every criterion it has, with its pref; "family" where no src or dst
 * carries the family (a rule that matches every packet of it).
 */
void pacer_rule_dump(const char *ifname, const struct pacer_rule_info *rule)
{
	char buf[PARSE_BUF_LEN];
	const char *family;

#define HAS(attr) (rule->has & PACER_BIT(PACER_RULE_A_##attr))
	dump_start("rule add", ifname);
	printf(" pref %u", rule->pref);
	if (pacer_rule_lone_family(rule)) {
		family = family_name(rule->family);
		if (family)
			printf(" family %s", family);
		else	/* the kernel takes no other: "rule add" refuses it */
			printf(" family %u", rule->family);
	}
	if (HAS(SRC))
		printf(" src %s", format_prefix(buf, sizeof(buf), &rule->src));
	if (HAS(DST))
		printf(" dst %s", format_prefix(buf, sizeof(buf), &rule->dst));
	if (HAS(PROTO))
		printf(" proto %u", rule->proto);
	if (HAS(SPORT_MIN))
		printf(" sport %s", format_ports(buf, sizeof(buf),
						 rule->sport_min,
						 rule->sport_max));
	if (HAS(DPORT_MIN))
		printf(" dport %s", format_ports(buf, sizeof(buf),
						 rule->dport_min,
						 rule->dport_max));
	if (HAS(MARK))
		printf(" mark 0x%x/0x%x", rule->mark, rule->mark_mask);
	if (HAS(PRIO))
		printf(" prio %u", rule->prio);
	printf(" class %u\n", rule->class_id);
#undef HAS
}

static int dump_on_rule(struct nl_msg *msg, void *arg)
{
	struct dump_ctx *ctx = arg;
	struct pacer_rule_info r;
	struct pacer_msg_dev dev;

	if (pacer_rule_decode(nlmsg_hdr(msg), &dev, &r))
		return -EBADMSG;
	pacer_rule_dump(ctx->ifname, &r);
	return 0;
}

/* Is this filter of a shared block warned about yet?  Now it is. */
static bool dump_warned(struct dump_ctx *ctx, uint32_t block, uint32_t chain,
			uint32_t pref)
{
	unsigned int i;

	for (i = 0; i < ctx->n_warned; i++)
		if (ctx->warned[i][0] == block && ctx->warned[i][1] == chain &&
		    ctx->warned[i][2] == pref)
			return true;
	if (ctx->n_warned < ARRAY_SIZE(ctx->warned)) {
		ctx->warned[ctx->n_warned][0] = block;
		ctx->warned[ctx->n_warned][1] = chain;
		ctx->warned[ctx->n_warned][2] = pref;
		ctx->n_warned++;
	}
	return false;
}

static int dump_on_attach(const char *ifname, bool ingress, uint32_t block,
			  uint32_t chain, uint32_t pref, void *arg)
{
	const char *side = ingress ? "ingress" : "egress";
	struct dump_ctx *ctx = arg;
	char where[PACER_WHERE_LEN];

	pacer_attach_where(where, sizeof(where), block, chain, pref);
	/*
	 * attach refuses a side on a shared filter block: a redirect there
	 * takes every sharing device's traffic, and only tc adds it.
	 */
	if (block) {
		printf("# not restored: %s %s redirects to %s from %s, a shared filter block, and attach does not add to one\n",
		       ifname, side, ctx->ifname, where);
		if (!dump_warned(ctx, block, chain, pref))
			fprintf(stderr, "pacerctl: warning: %s %s redirects to %s from %s, a shared filter block: attach does not add to one, so the dump has it as a comment for each device on the block, not restored by \"pacerctl -b\"\n",
				ifname, side, ctx->ifname, where);
		return 0;
	}
	/*
	 * attach adds to chain 0: as an "attach" line, a redirect of the
	 * packets that reach chain C would take all of them.
	 */
	if (chain) {
		printf("# not restored: %s %s redirects to %s from %s, and attach adds to chain 0 only\n",
		       ifname, side, ctx->ifname, where);
		fprintf(stderr, "pacerctl: warning: %s %s redirects to %s from %s: attach adds to chain 0 only, so the dump has it as a comment, not restored by \"pacerctl -b\"\n",
			ifname, side, ctx->ifname, where);
		return 0;
	}
	dump_start("attach", ctx->ifname);
	printf(" %s ", side);
	dump_word(ifname);
	printf(" pref %u\n", pref);
	return 0;
}

/* One request, its replies through @fn; an exit status. */
static int dump_request(struct pnl *nl, uint8_t cmd, int flags,
			struct dump_ctx *ctx, pnl_reply_fn fn)
{
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	int err;

	msg = pacer_class_msg(nl, cmd, flags, ctx->ifname, NULL);
	if (!msg)
		return pacer_fail("out of memory");
	err = pnl_request(nl, msg, fn, ctx, extack, sizeof(extack));
	if (err)
		return pacer_dev_fail(ctx->ifname, err, extack);
	return 0;
}

static int dump_run(const char *ifname)
{
	struct dump_ctx ctx = { .ifname = ifname };
	struct pnl nl;
	int ret;

	ret = pacer_open(&nl);
	if (!ret) {
		printf("# pacerctl dump dev %s: run with \"pacerctl -b FILE\"\n",
		       ifname);
		ret = dump_request(&nl, PACER_CMD_DEV_GET, 0, &ctx,
				   dump_on_dev) ?:
		      dump_request(&nl, PACER_CMD_CLASS_GET, NLM_F_DUMP, &ctx,
				   dump_on_class) ?:
		      dump_request(&nl, PACER_CMD_RULE_GET, NLM_F_DUMP, &ctx,
				   dump_on_rule);
	}
	pnl_close(&nl);
	if (ret)
		return ret;
	return pacer_attach_list(ctx.ifindex, dump_on_attach, &ctx);
}

/**
 * do_dump() - pacerctl dump dev DEV
 * @argc: argument count
 * @argv: arguments
 * @opts: global options (none applies)
 *
 * Return: the exit status.
 */
int do_dump(int argc, char **argv, const struct pacer_opts *opts)
{
	const char *ifname = NULL;
	int ret;

	(void)opts;
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "dev")) {
			ret = pacer_parse_dev(&argc, &argv, &ifname);
			if (ret)
				return ret;
		} else if (pacer_is_help(*argv)) {
			dump_usage(stdout);
			return EXIT_SUCCESS;
		} else {
			return pacer_unknown_arg(*argv, "dump", "dev DEV");
		}
	}
	if (!ifname)
		return pacer_usage_error("dump: \"dev DEV\" is required");
	return dump_run(ifname);
}
