// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl attach, detach: redirect a device's ingress or egress to a
 * pacer device, and undo it.
 *
 *   pacerctl attach dev PACER ingress|egress DEV [ pref N ]
 *   pacerctl detach dev PACER ingress|egress DEV
 *
 * "attach" is the two tc commands operators type, as one step that is
 * applied whole or not at all:
 *
 *   tc qdisc add dev DEV clsact
 *   tc filter add dev DEV ingress pref N matchall \
 *       action mirred egress redirect dev PACER
 *
 * The clsact qdisc is kept if DEV has one (an ingress qdisc serves for
 * ingress), and removed again if the filter cannot be added.  "detach"
 * deletes every matchall filter on that side of DEV, on any chain, whose
 * actions redirect to PACER, and leaves the qdisc: other filters may use
 * it.
 *
 * A side of DEV whose qdisc was added with a shared filter block
 * ("tc qdisc add dev DEV ingress_block 22 clsact") has its filters in the
 * block, and the kernel refuses to change them through the device:
 * "tc filter ... block 22" names the block instead.  attach refuses such a
 * side: a redirect in the block would take the traffic of every device
 * that shares it.  detach deletes a redirect to PACER that is in the
 * block, through the block, and so for every device that shares it: that
 * is the only way the device's side stops redirecting.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/pacer.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_mirred.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"

/* tc's first automatic pref; a filter the operator adds without one
 * gets a lower number and so runs before the redirect.
 */
#define ATTACH_PREF_DEFAULT	49152
#define ATTACH_PREF_MAX		65535

/**
 * struct attach_args - the arguments of attach and detach
 * @command: "attach" or "detach", for messages
 * @attach: the command is attach (detach takes no pref)
 * @pacer: the pacer device
 * @ifname: the device whose traffic is redirected
 * @ingress: its ingress (true) or egress (false)
 * @side: "ingress" or "egress", for messages; NULL until given
 * @pref: the filter's pref (attach only)
 * @pacer_ifindex: @pacer's ifindex, once looked up
 * @ifindex: @ifname's ifindex, once looked up
 * @help: help was asked for and printed
 */
struct attach_args {
	const char *command;
	bool attach;
	const char *pacer;
	const char *ifname;
	bool ingress;
	const char *side;
	uint32_t pref;
	uint32_t pacer_ifindex;
	uint32_t ifindex;
	bool help;
};

/**
 * struct redirect_scan - filters found on one side of a device
 * @pacer_ifindex: the redirect target looked for
 * @prefs: prefs of the matchall filters that redirect there
 * @handles: their handles
 * @protocols: their protocols (network order, as in tcm_info): a filter
 *	added with "protocol ip" is deleted only by naming that protocol
 * @chains: their chains (TCA_CHAIN): the dump lists every chain, and a
 *	delete that names none looks in chain 0
 * @blocks: their shared filter blocks, 0 for none: a dump through the
 *	device of a side whose block is shared answers with the block's
 *	filters, named by block (TCM_IFINDEX_MAGIC_BLOCK), and they are
 *	deleted through the block
 * @n: how many
 */
struct redirect_scan {
	uint32_t pacer_ifindex;
	uint32_t prefs[16];
	uint32_t handles[16];
	uint16_t protocols[16];
	uint32_t chains[16];
	uint32_t blocks[16];
	unsigned int n;
};

static void attach_usage(FILE *f)
{
	fputs("Usage: pacerctl attach dev PACER { ingress | egress } DEV [ pref N ]\n"
	      "       pacerctl detach dev PACER { ingress | egress } DEV\n"
	      "\n"
	      "attach redirects every packet DEV receives (ingress) or sends (egress)\n"
	      "to the pacer device PACER, which shapes it and hands it back to DEV;\n"
	      "it does what these do, and undoes the first if the second fails:\n"
	      "    tc qdisc add dev DEV clsact\n"
	      "    tc filter add dev DEV ingress pref N matchall \\\n"
	      "        action mirred egress redirect dev PACER\n"
	      "detach deletes those filters again (the clsact qdisc stays).\n"
	      "\n"
	      "A side of DEV on a shared filter block (tc qdisc add dev DEV ingress_block N\n"
	      "clsact) is refused by attach: a redirect in the block takes the traffic of\n"
	      "every device sharing it (tc filter add block N ... does that, if meant).\n"
	      "detach deletes a redirect to PACER from the block, for all of them.\n"
	      "\n"
	      "Values:\n"
	      "    pref N          the filter's pref, 1 to 65535 (default 49152, tc's first\n"
	      "                    automatic one: filters added later without a pref run\n"
	      "                    before it)\n", f);
}

static bool attach_side(const char *arg, struct attach_args *a)
{
	if (!strcmp(arg, "ingress"))
		a->ingress = true;
	else if (!strcmp(arg, "egress"))
		a->ingress = false;
	else
		return false;
	return true;
}

static const char *attach_grammar(const struct attach_args *a)
{
	if (a->attach)
		return "dev PACER { ingress | egress } DEV [ pref N ]";
	return "dev PACER { ingress | egress } DEV";
}

static int attach_parse_pref(const char *arg, uint32_t *pref)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v < 1 ||
	    v > ATTACH_PREF_MAX)
		return pacer_usage_error("invalid pref \"%s\": expected a number from 1 to %d",
					 arg, ATTACH_PREF_MAX);
	*pref = v;
	return 0;
}

static int attach_parse(int argc, char **argv, struct attach_args *a)
{
	bool have_pref = false;
	int ret;

	for (; argc > 0; argc--, argv++) {
		if (pacer_is_help(*argv)) {
			attach_usage(stdout);
			a->help = true;
			return 0;
		}
		if (!strcmp(*argv, "dev")) {
			ret = pacer_parse_dev(&argc, &argv, &a->pacer);
			if (ret)
				return ret;
		} else if (attach_side(*argv, a)) {
			if (a->side)
				return pacer_usage_error("\"%s\" takes one of \"ingress\" or \"egress\", once",
							 a->command);
			a->side = *argv;
			ret = pacer_next_value(&argc, &argv) ?:
			      pacer_check_ifname(*argv);
			if (ret)
				return ret;
			a->ifname = *argv;
		} else if (a->attach && !strcmp(*argv, "pref")) {
			if (have_pref)
				return pacer_duplicate_arg("pref");
			ret = pacer_next_value(&argc, &argv) ?:
			      attach_parse_pref(*argv, &a->pref);
			if (ret)
				return ret;
			have_pref = true;
		} else {
			return pacer_unknown_arg(*argv, a->command,
						 attach_grammar(a));
		}
	}
	if (!a->pacer)
		return pacer_usage_error("\"%s\" needs \"dev PACER\"",
					 a->command);
	if (!a->side)
		return pacer_usage_error("\"%s\" needs \"ingress DEV\" or \"egress DEV\"",
					 a->command);
	if (!strcmp(a->pacer, a->ifname))
		return pacer_usage_error("cannot redirect %s's %s to itself",
					 a->ifname, a->side);
	return 0;
}

static int attach_on_pacer(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[PACER_A_MAX + 1];
	struct pacer_msg_dev dev;
	uint32_t *ifindex = arg;

	if (pacer_msg_parse(nlmsg_hdr(msg), tb, &dev))
		return -EBADMSG;
	*ifindex = dev.ifindex;
	return 0;
}

/* The pacer device's ifindex, asked of the module: it must be one. */
static int attach_find_pacer(struct attach_args *a)
{
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	struct pnl nl;
	int ret, err;

	ret = pacer_open(&nl);
	if (ret)
		goto out;
	msg = pnl_msg(&nl, PACER_CMD_DEV_GET, 0);
	if (!msg || nla_put_string(msg, PACER_A_IFNAME, a->pacer) < 0) {
		nlmsg_free(msg);
		ret = pacer_fail("out of memory");
		goto out;
	}
	err = pnl_request(&nl, msg, attach_on_pacer, &a->pacer_ifindex,
			  extack, sizeof(extack));
	if (err)
		ret = pacer_dev_fail(a->pacer, err, extack);
out:
	pnl_close(&nl);
	return ret;
}

/* A tc request: a tcmsg, then attributes. */
static struct nl_msg *attach_tcm_msg(int type, int flags,
				     const struct tcmsg *tcm)
{
	struct nl_msg *msg = nlmsg_alloc_simple(type, flags);

	if (msg && nlmsg_append(msg, (void *)tcm, sizeof(*tcm),
				NLMSG_ALIGNTO) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* A tc request about @a->ifindex. */
static struct nl_msg *attach_tc_msg(const struct attach_args *a, int type,
				    int flags, uint32_t parent, uint32_t handle,
				    uint32_t info)
{
	struct tcmsg tcm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = (int)a->ifindex,
		.tcm_handle = handle,
		.tcm_parent = parent,
		.tcm_info = info,
	};

	return attach_tcm_msg(type, flags, &tcm);
}

/*
 * A filter request about shared filter block @block, as "tc filter ...
 * block N" makes it: the block's index in tcm_parent's place, and no
 * device or qdisc for the kernel to look for.
 */
static struct nl_msg *attach_block_msg(int type, int flags, uint32_t block,
				       uint32_t handle, uint32_t info)
{
	struct tcmsg tcm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = (int)TCM_IFINDEX_MAGIC_BLOCK,
		.tcm_handle = handle,
		.tcm_block_index = block,
		.tcm_info = info,
	};

	return attach_tcm_msg(type, flags, &tcm);
}

static uint32_t attach_parent(const struct attach_args *a)
{
	return TC_H_MAKE(TC_H_CLSACT,
			 a->ingress ? TC_H_MIN_INGRESS : TC_H_MIN_EGRESS);
}

/**
 * pacer_attach_where() - where a filter is, as tc names it
 * @buf: where the text goes
 * @len: its size (PACER_WHERE_LEN is enough)
 * @block: its shared filter block, 0 for none
 * @chain: its chain
 * @pref: its pref
 *
 * "pref N", with "chain C " before it if C is not 0 and "block B " before
 * that if B is not 0.
 *
 * Return: @buf.
 */
const char *pacer_attach_where(char *buf, size_t len, uint32_t block,
			       uint32_t chain, uint32_t pref)
{
	char b[24] = "", c[24] = "";

	if (block)
		snprintf(b, sizeof(b), "block %" PRIu32 " ", block);
	if (chain)
		snprintf(c, sizeof(c), "chain %" PRIu32 " ", chain);
	snprintf(buf, len, "%s%spref %" PRIu32, b, c, pref);
	return buf;
}

/* tcm_info: the pref, and the protocol in network order. */
static uint32_t attach_info(uint32_t pref, uint16_t protocol)
{
	return TC_H_MAKE(pref << 16, protocol);
}

/* Does this action nest (one of TCA_MATCHALL_ACT's) redirect to @ifindex? */
static bool attach_act_redirects(struct nlattr *act, uint32_t ifindex)
{
	struct nlattr *tb[TCA_ACT_MAX + 1], *opt[TCA_MIRRED_MAX + 1];
	const struct tc_mirred *parms;

	if (nla_parse_nested(tb, TCA_ACT_MAX, act, NULL) < 0 ||
	    !tb[TCA_ACT_KIND] || strcmp(nla_get_string(tb[TCA_ACT_KIND]), "mirred") ||
	    !tb[TCA_ACT_OPTIONS] ||
	    nla_parse_nested(opt, TCA_MIRRED_MAX, tb[TCA_ACT_OPTIONS], NULL) < 0 ||
	    !opt[TCA_MIRRED_PARMS] ||
	    nla_len(opt[TCA_MIRRED_PARMS]) < (int)sizeof(*parms))
		return false;
	parms = nla_data(opt[TCA_MIRRED_PARMS]);
	return parms->ifindex == ifindex &&
	       (parms->eaction == TCA_EGRESS_REDIR ||
		parms->eaction == TCA_INGRESS_REDIR);
}

static int attach_on_filter(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[TCA_MAX + 1], *opt[TCA_MATCHALL_MAX + 1], *act;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct redirect_scan *scan = arg;
	const struct tcmsg *tcm;
	int rem;

	if (nlh->nlmsg_type != RTM_NEWTFILTER)
		return 0;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) < 0)
		return -EBADMSG;
	if (tb[TCA_CHAIN] && nla_len(tb[TCA_CHAIN]) < (int)sizeof(uint32_t))
		return -EBADMSG;
	tcm = nlmsg_data(nlh);
	if (!tcm->tcm_handle || !tb[TCA_KIND] || !tb[TCA_OPTIONS] ||
	    strcmp(nla_get_string(tb[TCA_KIND]), "matchall") ||
	    nla_parse_nested(opt, TCA_MATCHALL_MAX, tb[TCA_OPTIONS], NULL) < 0 ||
	    !opt[TCA_MATCHALL_ACT])
		return 0;

	nla_for_each_nested(act, opt[TCA_MATCHALL_ACT], rem) {
		if (!attach_act_redirects(act, scan->pacer_ifindex))
			continue;
		if (scan->n == ARRAY_SIZE(scan->prefs))
			return -E2BIG;
		scan->prefs[scan->n] = TC_H_MAJ(tcm->tcm_info) >> 16;
		scan->handles[scan->n] = tcm->tcm_handle;
		scan->protocols[scan->n] = TC_H_MIN(tcm->tcm_info);
		/* A kernel before chains (4.13) sends none: chain 0. */
		scan->chains[scan->n] = tb[TCA_CHAIN] ?
					nla_get_u32(tb[TCA_CHAIN]) : 0;
		scan->blocks[scan->n] =
			(uint32_t)tcm->tcm_ifindex == TCM_IFINDEX_MAGIC_BLOCK ?
			tcm->tcm_block_index : 0;
		scan->n++;
		break;
	}
	return 0;
}

/*
 * The matchall filters on @a's side of the device that redirect to pacer,
 * on every chain: a dump without TCA_CHAIN lists them all.  A side on a
 * shared filter block is dumped through the device all the same: the
 * kernel answers with the block's filters.
 */
static int attach_scan(struct pnl *nl, const struct attach_args *a,
		       struct redirect_scan *scan, char *extack, size_t len)
{
	struct nl_msg *msg;
	int err;

	memset(scan, 0, sizeof(*scan));
	scan->pacer_ifindex = a->pacer_ifindex;
	msg = attach_tc_msg(a, RTM_GETTFILTER, NLM_F_DUMP, attach_parent(a),
			    0, 0);
	if (!msg)
		return -ENOMEM;
	err = pnl_request(nl, msg, attach_on_filter, scan, extack, len);
	/* No qdisc on that side: nothing redirects. */
	return err == -EINVAL || err == -ENOENT ? 0 : err;
}

/**
 * struct block_users - shared filter blocks, from the qdisc dump
 * @ifindex: the device whose block is looked for
 * @ingress: on its ingress (true) or egress (false)
 * @block: that side's block, 0 for none; once known, the block whose
 *	other users are listed
 * @users: those, "DEV SIDE" each, comma-separated
 * @more: how many more did not fit in @users
 */
struct block_users {
	uint32_t ifindex;
	bool ingress;
	uint32_t block;
	char users[160];
	unsigned int more;
};

/*
 * The ingress and egress blocks of a qdisc dump's clsact or ingress qdisc
 * (at parent TC_H_INGRESS), 0 for none.  Return: 1 for such a qdisc, 0
 * for another one, or -EBADMSG.
 */
static int attach_qdisc_blocks(struct nl_msg *msg, uint32_t *ifindex,
			       uint32_t *ingress_block, uint32_t *egress_block)
{
	struct nlattr *tb[TCA_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const struct tcmsg *tcm;
	int i;

	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return 0;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) < 0)
		return -EBADMSG;
	for (i = TCA_INGRESS_BLOCK; i <= TCA_EGRESS_BLOCK; i++)
		if (tb[i] && nla_len(tb[i]) < (int)sizeof(uint32_t))
			return -EBADMSG;
	tcm = nlmsg_data(nlh);
	if (tcm->tcm_parent != TC_H_INGRESS)
		return 0;
	*ifindex = tcm->tcm_ifindex;
	*ingress_block = tb[TCA_INGRESS_BLOCK] ?
			 nla_get_u32(tb[TCA_INGRESS_BLOCK]) : 0;
	*egress_block = tb[TCA_EGRESS_BLOCK] ?
			nla_get_u32(tb[TCA_EGRESS_BLOCK]) : 0;
	return 1;
}

/* Pass 1: the block of @users->ifindex's side. */
static int attach_on_block_of(struct nl_msg *msg, void *arg)
{
	struct block_users *u = arg;
	uint32_t ifindex, in, eg;
	int ret = attach_qdisc_blocks(msg, &ifindex, &in, &eg);

	if (ret == 1 && ifindex == u->ifindex)
		u->block = u->ingress ? in : eg;
	return ret < 0 ? ret : 0;
}

/* One more user of the block, unless it is the side looked at. */
static void attach_block_user(struct block_users *u, uint32_t ifindex,
			      bool ingress)
{
	char name[IF_NAMESIZE];
	size_t off = strlen(u->users);
	int n;

	if ((ifindex == u->ifindex && ingress == u->ingress) ||
	    !if_indextoname(ifindex, name))
		return;
	/* Once one did not fit, the rest are counted: the dump's order. */
	if (u->more) {
		u->more++;
		return;
	}
	n = snprintf(u->users + off, sizeof(u->users) - off, "%s%s %s",
		     off ? ", " : "", name, ingress ? "ingress" : "egress");
	if (n < 0 || (size_t)n >= sizeof(u->users) - off) {
		u->users[off] = '\0';
		u->more++;
	}
}

/* Pass 2: the other sides on @users->block. */
static int attach_on_block_user(struct nl_msg *msg, void *arg)
{
	struct block_users *u = arg;
	uint32_t ifindex, in, eg;
	int ret = attach_qdisc_blocks(msg, &ifindex, &in, &eg);

	if (ret == 1 && in == u->block)
		attach_block_user(u, ifindex, true);
	if (ret == 1 && eg == u->block)
		attach_block_user(u, ifindex, false);
	return ret < 0 ? ret : 0;
}

/* Every qdisc of the namespace, through @fn (the kernel dumps them all). */
static int attach_qdisc_dump(struct pnl *nl, pnl_reply_fn fn,
			     struct block_users *u, char *extack, size_t len)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC };
	struct nl_msg *msg = attach_tcm_msg(RTM_GETQDISC, NLM_F_DUMP, &tcm);

	if (!msg)
		return -ENOMEM;
	return pnl_request(nl, msg, fn, u, extack, len);
}

/*
 * Refuse a side of the device that is on a shared filter block: the
 * kernel takes filters there through the block only, and a redirect in
 * it would take the traffic of every device that shares it.  The message
 * names the block and the other sides on it.  An exit status.
 */
static int attach_check_block(struct pnl *nl, const struct attach_args *a)
{
	struct block_users u = { .ifindex = a->ifindex, .ingress = a->ingress };
	char extack[PNL_EXTACK_LEN], more[32] = "";
	int err;

	err = attach_qdisc_dump(nl, attach_on_block_of, &u, extack,
				sizeof(extack));
	if (err)
		return pacer_fail_request(err, extack, false,
					  "cannot read the qdiscs of %s",
					  a->ifname);
	if (!u.block)
		return 0;
	err = attach_qdisc_dump(nl, attach_on_block_user, &u, extack,
				sizeof(extack));
	if (err)
		return pacer_fail_request(err, extack, false,
					  "cannot read the qdiscs sharing filter block %" PRIu32,
					  u.block);
	if (u.more)
		snprintf(more, sizeof(more), " and %u more", u.more);
	return pacer_fail("%s %s uses shared filter block %" PRIu32 " (%s%s%s): attach does not add to a shared block, where a redirect takes the traffic of every device on it; if that is meant: tc filter add block %" PRIu32 " pref %" PRIu32 " matchall action mirred egress redirect dev %s",
			  a->ifname, a->side, u.block,
			  *u.users ? "also used by " : "no other device uses it now",
			  u.users, more, u.block, a->pref, a->pacer);
}

/* Ask for a clsact qdisc on the device; NLM_F_EXCL fails if one is there. */
static int attach_clsact_request(struct pnl *nl, const struct attach_args *a,
				 int flags, char *extack, size_t len)
{
	struct nl_msg *msg;

	msg = attach_tc_msg(a, RTM_NEWQDISC, NLM_F_CREATE | flags, TC_H_CLSACT,
			    TC_H_MAKE(TC_H_CLSACT, 0), 0);
	if (!msg || nla_put_string(msg, TCA_KIND, "clsact") < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	return pnl_request(nl, msg, NULL, NULL, extack, len);
}

/*
 * Create clsact on the device, exclusively, to know whether we made it.
 * Return: 1 if created, 0 if a qdisc that serves was there, or a negative
 * errno (-EOPNOTSUPP: an ingress qdisc where egress needs clsact).
 */
static int attach_clsact(struct pnl *nl, const struct attach_args *a,
			 char *extack, size_t len)
{
	int err = attach_clsact_request(nl, a, NLM_F_EXCL, extack, len);

	if (err != -EEXIST)
		return err ?: 1;

	/* Something is there: clsact passes as a change, ingress does not. */
	err = attach_clsact_request(nl, a, 0, extack, len);
	if (err == -EINVAL)
		return a->ingress ? 0 : -EOPNOTSUPP;
	return err;
}

static void attach_del_clsact(struct pnl *nl, const struct attach_args *a)
{
	struct nl_msg *msg;

	msg = attach_tc_msg(a, RTM_DELQDISC, 0, TC_H_CLSACT,
			    TC_H_MAKE(TC_H_CLSACT, 0), 0);
	if (msg)
		pnl_request(nl, msg, NULL, NULL, NULL, 0);
}

static int attach_filter(struct pnl *nl, const struct attach_args *a,
			 char *extack, size_t len)
{
	struct tc_mirred parms = {
		.action = TC_ACT_STOLEN,
		.eaction = TCA_EGRESS_REDIR,
		.ifindex = a->pacer_ifindex,
	};
	struct nlattr *options, *acts, *act, *act_opts;
	struct nl_msg *msg;

	msg = attach_tc_msg(a, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL,
			    attach_parent(a), 0,
			    attach_info(a->pref, htons(ETH_P_ALL)));
	if (!msg || nla_put_string(msg, TCA_KIND, "matchall") < 0)
		goto nomem;
	options = nla_nest_start(msg, TCA_OPTIONS);
	acts = options ? nla_nest_start(msg, TCA_MATCHALL_ACT) : NULL;
	act = acts ? nla_nest_start(msg, 1) : NULL;
	if (!act || nla_put_string(msg, TCA_ACT_KIND, "mirred") < 0)
		goto nomem;
	act_opts = nla_nest_start(msg, TCA_ACT_OPTIONS);
	if (!act_opts ||
	    nla_put(msg, TCA_MIRRED_PARMS, sizeof(parms), &parms) < 0)
		goto nomem;
	nla_nest_end(msg, act_opts);
	nla_nest_end(msg, act);
	nla_nest_end(msg, acts);
	nla_nest_end(msg, options);
	return pnl_request(nl, msg, NULL, NULL, extack, len);

nomem:
	nlmsg_free(msg);
	return -ENOMEM;
}

/* PACER is a pacer device and DEV exists: both ifindexes. */
static int attach_resolve(struct attach_args *a)
{
	a->ifindex = if_nametoindex(a->ifname);
	if (!a->ifindex)
		return pacer_fail("device \"%s\" does not exist", a->ifname);
	return attach_find_pacer(a);
}

/* Open rtnetlink and find what already redirects; an exit status. */
static int attach_open_scan(struct pnl *nl, const struct attach_args *a,
			    struct redirect_scan *scan)
{
	char extack[PNL_EXTACK_LEN];
	int err = pnl_open_route(nl);

	if (err)
		return pacer_fail("cannot open an rtnetlink socket: %s",
				  strerror(-err));
	err = attach_scan(nl, a, scan, extack, sizeof(extack));
	if (err)
		return pacer_fail_request(err, extack, false,
					  "cannot read the filters of %s %s",
					  a->ifname, a->side);
	return 0;
}

/**
 * pacer_attach_list() - the redirects to a pacer device that "attach" makes
 * @pacer_ifindex: the pacer device
 * @fn: called for each: the device, its side (ingress or not), the
 *	filter's shared filter block (0 for none), its chain and its pref;
 *	a non-zero return stops the walk and is returned
 * @arg: @fn's argument
 *
 * Every device of this network namespace is looked at, on both sides: a
 * redirect in a shared filter block comes once for each side on it.
 *
 * Return: 0, @fn's return, or an exit status (with a message).
 */
int pacer_attach_list(uint32_t pacer_ifindex,
		      int (*fn)(const char *ifname, bool ingress,
				uint32_t block, uint32_t chain, uint32_t pref,
				void *arg),
		      void *arg)
{
	struct attach_args a = { .pacer_ifindex = pacer_ifindex };
	struct if_nameindex *ifs, *i;
	char extack[PNL_EXTACK_LEN];
	struct redirect_scan scan;
	struct pnl nl;
	unsigned int k;
	int ret = 0, err, side;

	ifs = if_nameindex();
	if (!ifs)
		return pacer_fail("cannot list the devices: %s",
				  strerror(errno));
	err = pnl_open_route(&nl);
	if (err) {
		ret = pacer_fail("cannot open an rtnetlink socket: %s",
				 strerror(-err));
		goto out;
	}
	for (i = ifs; i->if_index && !ret; i++) {
		if (i->if_index == pacer_ifindex)
			continue;
		a.ifindex = i->if_index;
		a.ifname = i->if_name;
		for (side = 0; side < 2 && !ret; side++) {
			a.ingress = !side;
			err = attach_scan(&nl, &a, &scan, extack,
					  sizeof(extack));
			if (err) {
				ret = pacer_fail_request(err, extack, false,
							 "cannot read the filters of %s",
							 i->if_name);
				break;
			}
			for (k = 0; k < scan.n && !ret; k++)
				ret = fn(i->if_name, a.ingress, scan.blocks[k],
					 scan.chains[k], scan.prefs[k], arg);
		}
	}
out:
	pnl_close(&nl);	/* also a socket pnl_open_route() could not connect */
	if_freenameindex(ifs);
	return ret;
}

/* Packets mirred sends to a device that is down are dropped: say so. */
static void attach_warn_down(const char *ifname)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr) && !(ifr.ifr_flags & IFF_UP))
		fprintf(stderr, "pacerctl: warning: %s is down: packets redirected to it are dropped until \"ip link set %s up\"\n",
			ifname, ifname);
	close(fd);
}

static int attach_run(const struct attach_args *a)
{
	char extack[PNL_EXTACK_LEN], where[PACER_WHERE_LEN];
	struct redirect_scan scan;
	struct pnl nl;
	int ret, err, created;

	ret = attach_open_scan(&nl, a, &scan);
	if (ret)
		goto out;
	if (scan.n) {
		ret = pacer_fail("%s %s already redirects to %s (%s)",
				 a->ifname, a->side, a->pacer,
				 pacer_attach_where(where, sizeof(where),
						    scan.blocks[0],
						    scan.chains[0],
						    scan.prefs[0]));
		goto out;
	}
	ret = attach_check_block(&nl, a);
	if (ret)
		goto out;

	created = attach_clsact(&nl, a, extack, sizeof(extack));
	if (created == -EOPNOTSUPP) {
		ret = pacer_fail("%s has an ingress qdisc, and egress redirection needs clsact: delete it first (tc qdisc del dev %s ingress)",
				 a->ifname, a->ifname);
		goto out;
	}
	if (created < 0) {
		ret = pacer_fail_request(created, extack, false,
					 "cannot add a clsact qdisc to %s",
					 a->ifname);
		goto out;
	}

	err = attach_filter(&nl, a, extack, sizeof(extack));
	if (err) {
		if (created)
			attach_del_clsact(&nl, a);
		if (err == -EEXIST)
			ret = pacer_fail("%s %s already has a filter with pref %" PRIu32 ": choose another (pref N)",
					 a->ifname, a->side, a->pref);
		else
			ret = pacer_fail_request(err, extack, false,
						 "cannot redirect %s %s to %s",
						 a->ifname, a->side, a->pacer);
		goto out;
	}
	pacer_warn_extack(extack);
	attach_warn_down(a->pacer);
out:
	pnl_close(&nl);
	return ret;
}

static int detach_run(const struct attach_args *a)
{
	char extack[PNL_EXTACK_LEN], where[PACER_WHERE_LEN];
	struct redirect_scan scan;
	struct nl_msg *msg;
	struct pnl nl;
	unsigned int i;
	uint32_t info;
	int ret, err;

	ret = attach_open_scan(&nl, a, &scan);
	if (ret)
		goto out;
	if (!scan.n) {
		ret = pacer_fail("%s %s does not redirect to %s",
				 a->ifname, a->side, a->pacer);
		goto out;
	}
	for (i = 0; i < scan.n; i++) {
		/*
		 * The filter's own protocol (another one is -EINVAL) and
		 * chain (without one, the kernel looks in chain 0: -ENOENT,
		 * or chain 0's filter of that pref and handle is deleted);
		 * one in a shared block through the block (through the
		 * device, -EOPNOTSUPP: "This filter block is shared").
		 */
		info = attach_info(scan.prefs[i], scan.protocols[i]);
		if (scan.blocks[i])
			msg = attach_block_msg(RTM_DELTFILTER, 0,
					       scan.blocks[i], scan.handles[i],
					       info);
		else
			msg = attach_tc_msg(a, RTM_DELTFILTER, 0,
					    attach_parent(a), scan.handles[i],
					    info);
		if (!msg || nla_put_u32(msg, TCA_CHAIN, scan.chains[i]) < 0) {
			nlmsg_free(msg);
			ret = pacer_fail("out of memory");
			goto out;
		}
		err = pnl_request(&nl, msg, NULL, NULL, extack,
				  sizeof(extack));
		if (err) {
			ret = pacer_fail_request(err, extack, false,
						 "cannot delete the filter with %s from %s %s",
						 pacer_attach_where(where,
								    sizeof(where),
								    scan.blocks[i],
								    scan.chains[i],
								    scan.prefs[i]),
						 a->ifname, a->side);
			goto out;
		}
	}
out:
	pnl_close(&nl);
	return ret;
}

static int attach_main(int argc, char **argv, bool attach)
{
	struct attach_args a = {
		.command = attach ? "attach" : "detach",
		.attach = attach,
		.pref = ATTACH_PREF_DEFAULT,
	};
	int ret;

	ret = attach_parse(argc, argv, &a);
	if (ret || a.help)
		return ret;
	ret = attach_resolve(&a);
	if (ret)
		return ret;
	return attach ? attach_run(&a) : detach_run(&a);
}

/**
 * do_attach() - pacerctl attach dev PACER ingress|egress DEV [ pref N ]
 * @argc: argument count
 * @argv: arguments
 * @opts: global options (unused: attach prints nothing on success)
 *
 * Return: the exit status.
 */
int do_attach(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)opts;
	return attach_main(argc, argv, true);
}

/**
 * do_detach() - pacerctl detach dev PACER ingress|egress DEV
 * @argc: argument count
 * @argv: arguments
 * @opts: global options (unused)
 *
 * Return: the exit status.
 */
int do_detach(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)opts;
	return attach_main(argc, argv, false);
}
